// The PostgreSQL documentation (postgresql-doc-N HTML), one memory per section. The held-out
// corpus: nothing is tuned on it.
import { execFileSync } from "node:child_process";
import { extractSections, hasClass } from "./html-sections.mjs";
import { textOf } from "../html.mjs";
import { byString } from "../text.mjs";

export const name = "postgres";
export const heldOut = true;
export const description = "PostgreSQL documentation (postgresql-doc HTML), one memory per section; held out";

/** The newest postgresql-doc-N installed (15 on Debian 12). */
export function packages() {
  const out = execFileSync("dpkg-query", ["-W", "-f=${Package} ${Status}\n", "postgresql-doc-*"], { encoding: "utf8" });
  const names = out.split("\n").filter((l) => / install ok installed$/.test(l)).map((l) => l.split(" ")[0])
    .filter((p) => /^postgresql-doc-\d+$/.test(p)).sort((a, b) => Number(b.split("-").pop()) - Number(a.split("-").pop()));
  if (!names.length) throw new Error("postgres corpus: no postgresql-doc-N package is installed (make bench-relevance installs it)");
  return [names[0]];
}

const SECTION = new Set(["part", "chapter", "appendix", "preface", "reference", "refentry", "refsect1", "refsect2", "refsect3",
  "sect1", "sect2", "sect3", "sect4", "sect5", "simplesect", "section", "glossary", "index", "bibliography"]);
const isSection = (el) => el.tag === "div" && (el.attrs.class ?? "").split(/\s+/).some((c) => SECTION.has(c));

export function extract({ files }) {
  const html = files.map((f) => f.file).filter((f) => /\/html\/[^/]+\.html$/.test(f));
  if (!html.length) throw new Error("postgres corpus: no HTML files in the package");
  const root = html[0].slice(0, html[0].lastIndexOf("/"));
  const rel = html.map((f) => f.slice(root.length + 1)).filter((f) => f !== "bookindex.html").sort(byString);
  const { sections } = extractSections(root, rel, {
    main: (doc) => doc,
    isSection,
    skip: (el) => hasClass(el, "toc") || hasClass(el, "navheader") || hasClass(el, "navfooter") || hasClass(el, "list-of-tables")
      || hasClass(el, "list-of-figures") || hasClass(el, "list-of-examples"),
    // A reference page (refentry) is a man page: its purpose line ("COPY - copy data between a file and a table") is
    // its NAME description, the query, removed from the text as the man corpus removes NAME.
    title: (el, findOwn) => {
      if (!hasClass(el, "refentry")) return null;
      const div = findOwn((c) => hasClass(c, "refnamediv"));
      const p = div && findOwn((c) => c.tag === "p" && c.parent === div);
      if (!p) return null;
      const line = textOf(p).replace(/\s+/g, " ").trim();
      const dash = line.indexOf(" \u2014 ");
      return { text: dash >= 0 ? line.slice(dash + 3) : line, remove: div };
    },
  });
  return { root, items: sections.map((s) => ({ path: s.path, lines: s.lines, title: s.heading, links: s.links })) };
}

// The Python documentation (python3-doc: the HTML of pythonX.Y-doc), one memory per section.
import { execFileSync } from "node:child_process";
import { extractSections, find, hasClass } from "./html-sections.mjs";
import { byString } from "../text.mjs";

export const name = "python";
export const heldOut = false;
export const description = "Python 3 documentation (python3-doc HTML), one memory per section";

/** python3-doc depends on the versioned package that holds the HTML (python3.11-doc on Debian 12). */
export function packages() {
  const dep = execFileSync("dpkg-query", ["-W", "-f=${Depends}", "python3-doc"], { encoding: "utf8" });
  const m = /\b(python3\.\d+-doc)\b/.exec(dep);
  if (!m) throw new Error(`python corpus: python3-doc's Depends names no python3.X-doc (${dep})`);
  return ["python3-doc", m[1]];
}

const SKIP_FILE = /^(genindex.*|py-modindex|search|contents)\.html$/;

export function extract({ files }) {
  const html = files.map((f) => f.file).filter((f) => /\/html\/.+\.html$/.test(f) && !/\/html\/_/.test(f));
  if (!html.length) throw new Error("python corpus: no HTML files in the package");
  const root = html[0].slice(0, html[0].indexOf("/html/") + 5);
  const rel = html.map((f) => f.slice(root.length + 1)).filter((f) => !SKIP_FILE.test(f)).sort(byString);
  const { sections } = extractSections(root, rel, {
    main: (doc) => find(doc, (el) => el.tag === "div" && hasClass(el, "body") && el.attrs.role === "main"),
    isSection: (el) => el.tag === "section",
    skip: (el) => hasClass(el, "toctree-wrapper"),
  });
  return { root, items: sections.map((s) => ({ path: s.path, lines: s.lines, title: s.heading, links: s.links })) };
}

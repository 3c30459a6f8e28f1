// The Debian Administrator's Handbook (debian-handbook: Publican's DocBook HTML, English only),
// one memory per section. Held out: nothing is tuned on it.
import { extractSections, hasClass, headingAnchor } from "./html-sections.mjs";
import { byString } from "../text.mjs";

export const name = "handbook";
export const heldOut = true;
export const description = "The Debian Administrator's Handbook (debian-handbook HTML, en-US), one memory per section; held out";

export const packages = () => ["debian-handbook"];

const SECTION = new Set(["part", "chapter", "appendix", "preface", "section", "glossary"]);
const isSection = (el) => el.tag === "div" && (el.attrs.class ?? "").split(/\s+/).some((c) => SECTION.has(c));

export function extract({ files }) {
  const html = files.map((f) => f.file).filter((f) => /\/html\/en-US\/[^/]+\.html$/.test(f));
  if (!html.length) throw new Error("handbook corpus: no en-US HTML files in the package");
  const root = html[0].slice(0, html[0].lastIndexOf("/"));
  // index.html is the title page and the table of contents.
  const rel = html.map((f) => f.slice(root.length + 1)).filter((f) => f !== "index.html").sort(byString);
  const { sections } = extractSections(root, rel, {
    main: (doc) => doc,
    isSection,
    id: headingAnchor,
    skip: (el) => hasClass(el, "toc") || hasClass(el, "docnav") || el.attrs.id === "banner" || el.attrs.id === "title",
  });
  // A section a chapter file holds and a section file repeats counts once (the first, in file order); links to the copy go to it.
  const first = new Map(), same = new Map();
  for (const s of sections) {
    const id = s.path.slice(s.path.indexOf("#") + 1);
    if (first.has(id)) same.set(s.path, first.get(id));
    else first.set(id, s.path);
  }
  return {
    root,
    items: sections.filter((s) => !same.has(s.path)).map((s) => ({ path: s.path, lines: s.lines, title: s.heading,
      links: new Set([...s.links].map((p) => same.get(p) ?? p).filter((p) => p !== s.path)) })),
  };
}

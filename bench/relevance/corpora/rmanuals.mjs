// The R manuals (r-doc-html: An Introduction to R, the R Language Definition, R Data
// Import/Export, R Installation and Administration, Writing R Extensions, R Internals and the R
// FAQ, each one Texinfo HTML page), one memory per section, queried by the section's heading. A
// statistical language's manuals and its FAQ, whose headings ask ("Why does the output not appear
// in the console?"). Texinfo's navigation (each section's header line, the tables of contents,
// menus) is not text, and the index sections are not memories. Held out: built after the
// calibration's cap was lowered to the preset's weight and committed before any system was ranked
// on it, a second check of that change on data nobody had looked at.
import { extractSections, hasClass } from "./html-sections.mjs";
import { byString } from "../text.mjs";

export const name = "rmanuals";
export const heldOut = true;
export const description = "The R manuals and R FAQ (r-doc-html, Texinfo HTML), one memory per section, queried by its heading; held out";

export const packages = () => ["r-doc-html"];

const SECTION = new Set(["top", "chapter", "section", "subsection", "subsubsection", "unnumbered", "unnumberedsec",
  "unnumberedsubsec", "appendix", "appendixsec", "appendixsection", "appendixsubsec"]);
const isSection = (el) => el.tag === "div" && (el.attrs.class ?? "").split(/\s+/).some((c) => SECTION.has(c));
const NAVIGATION = ["header", "Contents_element", "contents", "shortcontents", "menu"];

/** Texinfo's numbering taken off a heading: "7.1 Why ...", "A.2 Foo", "Appendix B Bar". */
export const cleanTexinfo = (s) => s.replace(/^(?:Appendix [A-Z]\s+|[0-9]+(?:\.[0-9]+)*\s+|[A-Z](?:\.[0-9]+)+\s+)/, "").trim();

export function extract({ files }) {
  const html = files.map((f) => f.file).filter((f) => /\/R\/doc\/manual\/R-[A-Za-z]+\.html$/.test(f));
  if (!html.length) throw new Error("rmanuals corpus: no R-*.html manuals in the package");
  const root = html[0].slice(0, html[0].lastIndexOf("/"));
  const rel = html.map((f) => f.slice(root.length + 1)).sort(byString);
  const { sections } = extractSections(root, rel, {
    main: (doc) => doc,
    isSection,
    skip: (el) => NAVIGATION.some((c) => hasClass(el, c)),
  });
  // an index section (Concept index, Function and variable index): Texinfo's "Jump to:" bar and its entries
  const dropped = new Set(sections.filter((s) => s.lines.some((l) => l.startsWith("Jump to:"))).map((s) => s.path));
  const kept = sections.filter((s) => !dropped.has(s.path));
  return {
    root,
    items: kept.map((s) => ({ path: s.path, lines: s.lines, title: cleanTexinfo(s.heading),
      links: new Set([...s.links].filter((p) => p !== s.path && !dropped.has(p))) })),
  };
}

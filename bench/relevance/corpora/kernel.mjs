// The Linux kernel documentation (linux-doc-N: Sphinx HTML), one memory per section. Many of its
// headings are questions ("What is pinmuxing?"), which the query's `kind` tells apart.
import { extractSections, find, hasClass } from "./html-sections.mjs";
import { byString } from "../text.mjs";

export const name = "kernel";
export const heldOut = false;
export const description = "Linux kernel documentation (linux-doc-6.1 HTML), one memory per section";

export const packages = () => ["linux-doc-6.1"];

// The ABI's generated symbol list (admin-guide/abi-testing.html) is one section of over a million characters,
// more than memdomain/cache takes in a body: a section's text is cut, at a line, to MAX_CHARS.
const MAX_CHARS = 1_000_000;

// The indexes and the search page are not text; translations/ holds the same documents in other languages.
const SKIP_FILE = /^(?:genindex.*|search)\.html$|^translations\//;

export function extract({ files }) {
  const html = files.map((f) => f.file).filter((f) => /\/html\/.+\.html$/.test(f) && !/\/html\/_/.test(f));
  if (!html.length) throw new Error("kernel corpus: no HTML files in the package");
  const root = html[0].slice(0, html[0].indexOf("/html/") + 5);
  const rel = html.map((f) => f.slice(root.length + 1)).filter((f) => !SKIP_FILE.test(f)).sort(byString);
  const { sections } = extractSections(root, rel, {
    main: (doc) => find(doc, (el) => el.tag === "div" && el.attrs.role === "main"),
    isSection: (el) => el.tag === "section",
    skip: (el) => hasClass(el, "toctree-wrapper"),
  });
  // Numbering the authors typed into a heading ("4.2 struct capi_ctr", "1-3. How is ...", "2.1) Initialization",
  // "B) Exclusion") is not part of its name; "802.1q VLAN Support" and "64-bit ..." keep theirs.
  const title = (h) => h.replace(/^(?:\d{1,2}(?:[.-]\d{1,3})*[a-zA-Z]?[.)]|\d{1,2}(?:\.\d{1,3})+|[A-Z]\))\s+(?=\S)/, "");
  const cut = (lines) => {
    let n = 0, i = 0;
    while (i < lines.length && n + lines[i].length + 1 <= MAX_CHARS) n += lines[i++].length + 1;
    return i === lines.length ? lines : lines.slice(0, i);
  };
  return { root, items: sections.map((s) => ({ path: s.path, lines: cut(s.lines), title: title(s.heading), links: s.links })) };
}

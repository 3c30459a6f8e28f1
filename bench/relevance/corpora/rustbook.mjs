// The Rust books rust-doc installs (mdBook HTML: The Rust Programming Language, the Reference, Rust
// by Example, the Edition Guide, the Rustonomicon, the Embedded Book, the rustc and rustdoc books;
// not the std/core/alloc API reference, not the Unstable Book's generated feature stubs), one memory
// per h1-h3 section: mdBook's pages are flat, headings without section elements. Held out.
import { extractHeadingSections, find, hasClass } from "./html-sections.mjs";
import { byString } from "../text.mjs";

export const name = "rustbook";
export const heldOut = true;
export const description = "The Rust books (rust-doc's mdBook HTML: book, reference, rust-by-example, edition-guide, nomicon, embedded-book, rustc, rustdoc), one memory per section; held out";

export const packages = () => ["rust-doc"];

const BOOKS = ["book", "reference", "rust-by-example", "edition-guide", "nomicon", "embedded-book", "rustc", "rustdoc"];
const ROOT = "/usr/share/doc/rust-doc/html";
const PAGE = new RegExp(`^${ROOT}/(?:${BOOKS.join("|")})/.+\\.html$`);
// print.html is the whole book on one page; the book's old editions are pages that point to the current one.
const SKIP = /^[^/]+\/print\.html$|^book\/(?:first-edition|second-edition|2018-edition)\//;
const LEVELS = new Set(["h1", "h2", "h3"]);

export function extract({ files }) {
  const rel = files.filter((f) => PAGE.test(f.file)).map((f) => f.file.slice(ROOT.length + 1)).filter((f) => !SKIP.test(f)).sort(byString);
  if (!rel.length) throw new Error("rustbook corpus: no mdBook pages in rust-doc");
  // Pages without <main> (rustdoc's redirects for old links) have no sections.
  const { sections } = extractHeadingSections(ROOT, rel, {
    main: (doc) => find(doc, (el) => el.tag === "main"),
    skip: (el) => hasClass(el, "boring"), // the lines mdBook hides in examples (fn main() { ... } around a snippet)
    levels: LEVELS,
  });
  // mdBook writes a book's first chapter twice, as its own page and as index.html: the copy is dropped, links to it go to the page.
  const key = (s) => `${s.file.split("/")[0]}\0${s.heading}\0${s.lines.join("\n")}`;
  const own = new Map();
  for (const s of sections) if (!/^[^/]+\/index\.html$/.test(s.file)) own.set(key(s), own.get(key(s)) ?? s.path);
  const same = new Map();
  for (const s of sections) if (/^[^/]+\/index\.html$/.test(s.file) && own.has(key(s))) same.set(s.path, own.get(key(s)));
  return {
    root: ROOT,
    items: sections.filter((s) => !same.has(s.path)).map((s) => ({ path: s.path, lines: s.lines, title: s.heading,
      links: new Set([...s.links].map((p) => same.get(p) ?? p).filter((p) => p !== s.path)) })),
  };
}

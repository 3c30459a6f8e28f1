// The Debian FAQ (debian-faq) and the Debian Reference (debian-reference-en), both DocBook HTML
// in English, one memory per section. Many FAQ headings are questions. Held out: nothing is tuned on it.
import { extractSections, hasClass, headingAnchor } from "./html-sections.mjs";
import { byString } from "../text.mjs";

export const name = "debian";
export const heldOut = true;
export const description = "The Debian FAQ and the Debian Reference (debian-faq, debian-reference-en HTML), one memory per section; held out";

export const packages = () => ["debian-faq", "debian-reference-en"];

const SECTION = new Set(["part", "chapter", "appendix", "preface", "section", "sect1", "sect2", "sect3", "sect4", "glossary"]);
const isSection = (el) => el.tag === "div" && (el.attrs.class ?? "").split(/\s+/).some((c) => SECTION.has(c));
const ROOT = "/usr/share";
// The English pages only (the FAQ's *.html are symlinks to them); index.en.html is a title page and a table of contents.
const PAGE = /^\/usr\/share\/(?:doc\/debian\/FAQ|debian-reference)\/(?!index\.)[^/]+\.en\.html$/;

export function extract({ files }) {
  const rel = files.filter((f) => PAGE.test(f.file)).map((f) => f.file.slice(ROOT.length + 1)).sort(byString);
  if (!rel.length) throw new Error("debian corpus: no .en.html files in debian-faq or debian-reference-en");
  const { sections } = extractSections(ROOT, rel, {
    main: (doc) => doc,
    isSection,
    id: headingAnchor,
    skip: (el) => hasClass(el, "toc") || hasClass(el, "navheader") || hasClass(el, "navfooter") || hasClass(el, "list-of-tables"),
  });
  return { root: ROOT, items: sections.map((s) => ({ path: s.path, lines: s.lines, title: s.heading, links: s.links })) };
}

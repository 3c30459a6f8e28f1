// One memory per section of an HTML manual (Sphinx or DocBook output): the section's own text
// (not its subsections'), its heading removed and kept as the section's known-item query;
// hyperlinks between sections are the corpus's links.
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { find, hasClass, parseHtml, textOf, walk } from "../html.mjs";
import { asciiPunct, tidyLines } from "../text.mjs";

const HEADING = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

/** Walk a section's own content: its descendants, not entering nested sections. */
function walkOwn(sectionEl, isSection, visit) {
  walk(sectionEl, (el) => (isSection(el) ? false : visit(el)));
}

/** Strip a heading's numbering ("8.1.2.", "Chapter 8.", "Appendix F.", "Part II.", "F.3.") and pilcrows. */
export function cleanHeading(s) {
  return asciiPunct(s).replace(/\u00b6/g, "").replace(/\s+/g, " ").trim()
    .replace(/^(?:Chapter|Appendix|Part)\s+[0-9A-Z]+\.\s+/, "")
    .replace(/^(?:[0-9]+|[A-Z]|[IVXL]+)(?:\.[0-9]+)*\.\s+/, "")
    .trim();
}

/**
 * files: paths relative to root, in a fixed order. spec: { isSection(el), main(doc) -> element,
 * skip(el) (navigation left out of the text), title(sectionEl, own) -> { text, remove } | null
 * (a heading of the section's own other than its first h1-h6), id(sectionEl, heading) -> string
 * | null (the section's anchor where it is not the element's id) }.
 * Returns { sections: [{ path, file, heading, lines, links: Set<path> }] }.
 */
export function extractSections(root, files, spec) {
  const sections = [];
  const anchor = new Map(); // "file#id" or "file" -> section path
  const pending = [];
  for (const file of files) {
    const doc = parseHtml(readFileSync(`${root}/${file}`, "utf8"));
    const main = spec.main(doc);
    if (!main) continue;
    let first = true, n = 0;
    walk(main, (el) => {
      if (!spec.isSection(el)) return true;
      let titled = spec.title?.(el, (pred) => { let hit = null; walkOwn(el, spec.isSection, (c) => { if (hit) return false; if (pred(c)) { hit = c; return false; } return true; }); return hit; }) ?? null;
      if (!titled) {
        let h = null;
        walkOwn(el, spec.isSection, (c) => { if (h) return false; if (HEADING.has(c.tag)) { h = c; return false; } return true; });
        titled = h ? { text: textOf(h, (c) => hasClass(c, "headerlink")), remove: h } : { text: "", remove: null };
      }
      const id = spec.id?.(el, titled.remove) || el.attrs.id || `s${n}`;
      n++;
      const path = `${file}#${id}`;
      if (first) { anchor.set(file, path); first = false; }
      anchor.set(path, path);
      const skip = (c) => spec.isSection(c) || spec.skip(c) || c === titled.remove || hasClass(c, "headerlink");
      const lines = tidyLines(asciiPunct(textOf(el, skip)));
      const hrefs = [];
      walkOwn(el, spec.isSection, (c) => {
        if (c === titled.remove || spec.skip(c)) return false;
        if (c.attrs.id) anchor.set(`${file}#${c.attrs.id}`, path);
        if (c.tag === "a" && c.attrs.name) anchor.set(`${file}#${c.attrs.name}`, path);
        if (c.tag === "a" && c.attrs.href) hrefs.push(c.attrs.href);
        return true;
      });
      const sec = { path, file, heading: cleanHeading(titled.text), lines };
      sections.push(sec);
      pending.push([sec, hrefs]);
      return true; // nested sections are visited as sections of their own
    });
  }
  resolveLinks(pending, anchor);
  return { sections };
}

/** Each section's hrefs, relative to its file, resolved through anchor ("file#id" or "file" -> section path) into sec.links. */
function resolveLinks(pending, anchor) {
  for (const [sec, hrefs] of pending) {
    sec.links = new Set();
    for (const href of hrefs) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("/")) continue;
      const [p, frag] = href.split("#", 2);
      const target = p === "" ? sec.file : posix.normalize(posix.join(posix.dirname(sec.file), p));
      const to = frag ? anchor.get(`${target}#${unescapeFragment(frag)}`) ?? anchor.get(`${target}#${frag}`) : anchor.get(target);
      if (to && to !== sec.path) sec.links.add(to);
    }
  }
}

/**
 * Sections of flat HTML (mdBook: headings with no section elements around them): each heading
 * of spec.levels (default h1-h6) in main's content starts a section that runs to the next one;
 * text before the first heading is left out. files and spec ({ main(doc), skip(el), levels }) as
 * for extractSections; a section's anchor is its heading's id. Returns what extractSections returns.
 */
export function extractHeadingSections(root, files, spec) {
  const levels = spec.levels ?? HEADING;
  const sections = [];
  const anchor = new Map();
  const pending = [];
  const hasHeading = (el) => find(el, (c) => levels.has(c.tag)) !== null;
  for (const file of files) {
    const main = spec.main(parseHtml(readFileSync(`${root}/${file}`, "utf8")));
    if (!main) continue;
    const parts = []; // [heading, nodes]
    // A container holding a heading is split into its children; anything else goes whole to the current section.
    const collect = (node) => {
      for (const c of node.children) {
        if (typeof c !== "string" && spec.skip(c)) continue;
        if (typeof c !== "string" && levels.has(c.tag)) parts.push([c, []]);
        else if (typeof c !== "string" && hasHeading(c)) { collect(c); parts.at(-1)?.[1].push(BREAK); }
        else parts.at(-1)?.[1].push(c);
      }
    };
    collect(main);
    parts.forEach(([h, nodes], n) => {
      const headerlink = (c) => hasClass(c, "headerlink");
      const a = find(h, (c) => c.tag === "a" && (c.attrs.id || c.attrs.name));
      let path = `${file}#${h.attrs.id || a?.attrs.id || a?.attrs.name || `s${n}`}`;
      while (anchor.get(path) === path) path += "_"; // a heading id used twice in one page
      if (n === 0) anchor.set(file, path);
      anchor.set(path, path);
      const frag = { tag: "#fragment", attrs: {}, children: nodes, parent: null };
      const hrefs = [];
      walk(frag, (c) => {
        if (spec.skip(c)) return false;
        if (c.attrs.id) anchor.set(`${file}#${c.attrs.id}`, path);
        if (c.tag === "a" && c.attrs.name) anchor.set(`${file}#${c.attrs.name}`, path);
        if (c.tag === "a" && c.attrs.href) hrefs.push(c.attrs.href);
        return true;
      });
      const sec = { path, file, heading: cleanHeading(textOf(h, headerlink)), lines: tidyLines(asciiPunct(textOf(frag, (c) => spec.skip(c) || headerlink(c)))) };
      sections.push(sec);
      pending.push([sec, hrefs]);
    });
  }
  resolveLinks(pending, anchor);
  return { sections };
}

// An empty block element: a line break between the pieces of a split container.
const BREAK = { tag: "div", attrs: {}, children: [], parent: null };

function unescapeFragment(frag) {
  try {
    return decodeURIComponent(frag);
  } catch {
    return frag;
  }
}

/** A DocBook section's anchor: the <a id> its generator puts inside the heading (Publican, DocBook XSL), not on the div. */
export const headingAnchor = (el, h) => (h && find(h, (c) => c.tag === "a" && c.attrs.id)?.attrs.id) || null;

export { find, hasClass };

// A small HTML parser for the documentation the corpora are built from (Sphinx and DocBook
// output: well formed, XHTML in DocBook's case). Not a general HTML5 parser: it builds an
// element tree, closes void and self-closed elements, pops to a matching open tag on a stray
// end tag, and decodes the entities those generators emit.

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);
const RAW = new Set(["script", "style"]);
const NAMED = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0", mdash: "\u2014", ndash: "\u2013", hellip: "\u2026",
  lsquo: "\u2018", rsquo: "\u2019", ldquo: "\u201c", rdquo: "\u201d", copy: "\u00a9", reg: "\u00ae", trade: "\u2122", para: "\u00b6",
  sect: "\u00a7", middot: "\u00b7", times: "\u00d7", larr: "\u2190", rarr: "\u2192", uarr: "\u2191", laquo: "\u00ab", raquo: "\u00bb",
  shy: "", zwj: "", zwnj: "" };

export function decodeEntities(s) {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e) => {
    if (e[0] === "#") {
      const cp = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : "";
    }
    return Object.hasOwn(NAMED, e) ? NAMED[e] : m;
  });
}

function parseAttrs(s) {
  const attrs = {};
  const re = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  let m;
  while ((m = re.exec(s))) attrs[m[1].toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  return attrs;
}

/** Parse HTML into { tag: "#root", children }; elements are { tag, attrs, children, parent }, text nodes strings. */
export function parseHtml(html) {
  const root = { tag: "#root", attrs: {}, children: [], parent: null };
  const stack = [root];
  const re = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[\s\S]*?\?>|<\/([a-zA-Z][\w:-]*)\s*>|<([a-zA-Z][\w:-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>/g;
  let last = 0, m;
  const text = (s) => { if (s) stack[stack.length - 1].children.push(decodeEntities(s)); };
  while ((m = re.exec(html))) {
    text(html.slice(last, m.index));
    last = re.lastIndex;
    if (m[1]) {
      const tag = m[1].toLowerCase();
      let i = stack.length - 1;
      while (i > 0 && stack[i].tag !== tag) i--;
      if (i > 0) stack.length = i;
    } else if (m[2]) {
      const tag = m[2].toLowerCase();
      let attrText = m[3];
      const selfClosed = /\/\s*$/.test(attrText);
      if (selfClosed) attrText = attrText.replace(/\/\s*$/, "");
      const parent = stack[stack.length - 1];
      const el = { tag, attrs: parseAttrs(attrText), children: [], parent };
      parent.children.push(el);
      if (RAW.has(tag) && !selfClosed) {
        const end = html.toLowerCase().indexOf(`</${tag}`, last);
        const stop = end < 0 ? html.length : end;
        el.children.push(html.slice(last, stop));
        re.lastIndex = last = html.indexOf(">", stop) + 1 || html.length;
      } else if (!selfClosed && !VOID.has(tag)) stack.push(el);
    }
  }
  text(html.slice(last));
  return root;
}

export const hasClass = (el, c) => typeof el !== "string" && (el.attrs.class ?? "").split(/\s+/).includes(c);

/** Depth-first walk over elements; visit(el) returning false skips the element's children. */
export function walk(node, visit) {
  for (const c of node.children) {
    if (typeof c === "string") continue;
    if (visit(c) !== false) walk(c, visit);
  }
}

export function find(node, pred) {
  let hit = null;
  walk(node, (el) => {
    if (hit) return false;
    if (pred(el)) { hit = el; return false; }
    return true;
  });
  return hit;
}

const BLOCK = new Set(["address", "article", "aside", "blockquote", "br", "caption", "dd", "div", "dl", "dt", "figcaption", "figure",
  "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody",
  "td", "tfoot", "th", "thead", "tr", "ul"]);

/**
 * The text of a node as lines (block elements start new lines; <pre> keeps its line breaks),
 * leaving out elements for which skip(el) is true.
 */
export function textOf(node, skip = () => false) {
  const out = [];
  let pre = 0;
  const go = (n) => {
    for (const c of n.children) {
      if (typeof c === "string") {
        out.push(pre ? c : c.replace(/\s+/g, " "));
        continue;
      }
      if (skip(c) || c.tag === "script" || c.tag === "style") continue;
      const block = BLOCK.has(c.tag);
      if (block) out.push("\n");
      if (c.tag === "pre") pre++;
      go(c);
      if (c.tag === "pre") pre--;
      if (block) out.push("\n");
      else if (c.tag === "td" || c.tag === "th") out.push(" ");
    }
  };
  go(node);
  return out.join("");
}

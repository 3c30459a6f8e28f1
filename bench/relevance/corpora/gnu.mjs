// GNU manuals in Info format (the Texinfo output that coreutils, findutils, grep, sed, diffutils,
// gzip, gettext, wget, gnupg, nettle, libffi, libtasn1 and time install under /usr/share/info),
// one memory per node. Its queries are of a genre no other corpus has: the manuals' own index
// entries ("addresses, excluding", "deleting files, recursively"), which their authors wrote to
// point at a node, one entry per node (an entry that names one node only, of two words or more).
// The node's heading is taken out of its text, as the other corpora take theirs. Held out: built
// after the defaults and the calibration were chosen, to check them on a genre never looked at.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { asciiPunct, byString, queryKey, tidyLines, words } from "../text.mjs";

export const name = "gnu";
export const heldOut = true;
export const description = "GNU manuals in Info format (coreutils, findutils, grep, sed, diffutils, gzip, gettext, wget, gnupg, nettle, libffi, libtasn1, time), one memory per node, queried by the manuals' own index entries; held out";

const PACKAGES = ["coreutils", "findutils", "grep", "sed", "diffutils", "gzip", "gettext", "wget", "gnupg", "nettle-dev", "libffi-dev", "libtasn1-doc", "time"];
export const packages = () => PACKAGES;

const ROOT = "/usr/share/info";
// coreutils.info.gz, find.info-1.gz (a part of an indirect file): the manual is the name before ".info".
const INFO = /^\/usr\/share\/info\/([^/]+?)\.info(?:-(\d+))?\.gz$/;
const ENTRY = /^\* (.+?):\s+(.+?)\.\s+\(line\s+\d+\)$/;
const INDEX_MARK = "\u0000\b[index\u0000\b]";

/** Every node of a manual: { node, lines }, from its parts in order (an indirect file's own nodes, the tables, dropped). */
function nodesOf(parts) {
  const out = [];
  for (const file of parts) {
    const text = gunzipSync(readFileSync(file)).toString("utf8");
    for (const chunk of text.split("\u001f")) {
      const nl = chunk.indexOf("\n", 1);
      const head = chunk.slice(0, nl < 0 ? chunk.length : nl).trim();
      const m = /(?:^|,\s*)Node:\s*([^,]+?)\s*(?:,|$)/.exec(head);
      if (!head.startsWith("File:") || !m) continue;
      out.push({ node: m[1], lines: chunk.slice(nl + 1).split("\n") });
    }
  }
  return out;
}

/** An index node's entries as { entry, node }; an entry wrapped over two lines is joined first. */
function indexEntries(lines) {
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    let l = lines[i];
    if (!l.startsWith("* ") || l.startsWith("* Menu:")) continue;
    if (!/\(line\s+\d+\)\s*$/.test(l) && i + 1 < lines.length) l = `${l} ${lines[++i].trim()}`;
    const m = ENTRY.exec(l.replace(/\s+$/, ""));
    if (m) out.push({ entry: m[1].replace(/\s+<\d+>$/, "").trim(), node: m[2].trim() });
  }
  return out;
}

/** The nodes a node points to: its menu entries and its cross references (in this manual or, as (manual)Node, another). */
function linksOf(manual, text) {
  const flat = text.replace(/\s+/g, " ");
  const out = new Set();
  const add = (ref) => {
    const m = /^\(([^)]+)\)\s*(.*)$/.exec(ref.trim());
    const target = m ? `${m[1].replace(/\.info$/, "")}/${m[2] || "Top"}` : `${manual}/${ref.trim()}`;
    out.add(target);
  };
  for (const m of flat.matchAll(/\*[Nn]ote\s+([^:]+?)::/g)) add(m[1]);
  for (const m of flat.matchAll(/\*[Nn]ote\s+[^:]+?:\s+((?:\([^)]+\))?[^.,:]+?)[.,]/g)) add(m[1]);
  for (const l of text.split("\n")) {
    let m = /^\* ([^:]+)::/.exec(l);
    if (m) { add(m[1]); continue; }
    m = /^\* [^:]+:\s+((?:\([^)]+\))?[^.,]+?)\.(?:\s|$)/.exec(l);
    if (m) add(m[1]);
  }
  return out;
}

/** A node's prose: its heading (the first line, underlined) and its menu taken out, Info's markers dropped. */
function proseOf(lines) {
  let i = 0;
  while (i < lines.length && lines[i].trim() === "") i++;
  let heading = "";
  if (i + 1 < lines.length && /^[*=\-.]{3,}\s*$/.test(lines[i + 1])) { heading = lines[i].trim(); i += 2; }
  const kept = [];
  let inMenu = false;
  for (; i < lines.length; i++) {
    const l = lines[i];
    if (l.startsWith("* Menu:")) { inMenu = true; continue; }
    if (inMenu) {
      if (l.startsWith("* ") || /^\s+\S/.test(l) || l.trim() === "") continue; // entries, their wrapped descriptions, blank lines
      inMenu = false;
    }
    kept.push(l);
  }
  // Info's markers (\0\b[index\0\b], \0\b[image src=...\0\b]), and a half of one whose other half was the heading's line.
  const text = asciiPunct(kept.join("\n")).replace(/\u0000\x08\[[^\u0000]*\u0000\x08\]/g, "").replace(/\u0000\x08[[\]]/g, "");
  return { heading, lines: tidyLines(text) };
}

const order = (s) => createHash("sha256").update(s).digest("hex");

export function extract({ files }) {
  const manuals = new Map();
  for (const { file } of files) {
    const m = INFO.exec(file);
    if (!m) continue;
    if (!manuals.has(m[1])) manuals.set(m[1], []);
    manuals.get(m[1]).push({ file, part: m[2] === undefined ? 0 : Number(m[2]) });
  }
  if (!manuals.size) throw new Error("gnu corpus: no .info.gz files in the packages");
  const nodes = [], entries = [];
  for (const manual of [...manuals.keys()].sort(byString)) {
    const parts = manuals.get(manual).sort((a, b) => a.part - b.part).map((p) => p.file);
    for (const { node, lines } of nodesOf(parts)) {
      const path = `${manual}/${node}`;
      if (lines.some((l) => l.includes(INDEX_MARK))) {
        for (const e of indexEntries(lines)) entries.push({ entry: e.entry, path: `${manual}/${e.node}` });
        continue;
      }
      const { heading, lines: prose } = proseOf(lines);
      nodes.push({ path, heading, lines: prose, links: linksOf(manual, lines.join("\n")) });
    }
  }
  // An entry is a query for its node when it names that node only (the same words nowhere else in any index) and has two words or more.
  const seen = new Map();
  for (const e of entries) {
    const k = queryKey(e.entry);
    const s = seen.get(k) ?? new Set();
    s.add(e.path);
    seen.set(k, s);
  }
  const byPath = new Map();
  for (const e of entries) {
    const k = queryKey(e.entry);
    if (words(e.entry).length < 2 || seen.get(k).size !== 1) continue;
    const list = byPath.get(e.path) ?? new Map();
    if (!list.has(k)) list.set(k, e.entry);
    byPath.set(e.path, list);
  }
  // One entry per node, chosen by a hash of the node and the entry (not by the entry's place in the index).
  const title = (path) => {
    const list = byPath.get(path);
    if (!list) return "";
    return [...list.values()].sort((a, b) => byString(order(`${path}\0${a}`), order(`${path}\0${b}`)))[0];
  };
  const paths = new Set(nodes.map((n) => n.path));
  if (paths.size !== nodes.length) throw new Error("gnu corpus: two nodes with one name in a manual");
  return {
    root: ROOT,
    items: nodes.map((n) => ({ path: n.path, lines: n.lines, title: title(n.path), heading: n.heading,
      links: new Set([...n.links].filter((p) => p !== n.path && paths.has(p))) })),
  };
}

// The Jargon File (jargon-text: the hacker lexicon, version 4.4.7, as plain text), one memory per
// glossary entry. A genre no other corpus has: a lexicon, whose entries define a term in words
// other than the term's own ("nailed to the wall: Said of a bug finally eliminated after
// protracted, and even heroic, effort"), queried by the term. The entry's head line (":term:
// /pronunciation/, n.") is taken out of its text, as the other corpora take their headings out;
// a term is a query when it has two words or more and no other entry has it. Links are the
// entries' own cross references ({bit bucket}). Held out: built after the calibration's cap was
// changed to the preset's weight (after reading gnu), and committed before any system was ranked
// on it, to check that change on data nobody had looked at.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { asciiPunct } from "../text.mjs";

export const name = "jargon";
export const heldOut = true;
export const description = "The Jargon File 4.4.7 (jargon-text), one memory per glossary entry, queried by the entry's term; held out";

export const packages = () => ["jargon-text"];

const FILE = "/usr/share/doc/jargon-text/jargon.txt.gz";
// an entry's head line: three spaces, the term between colons, then its pronunciation and part of speech
const HEAD = /^ {3}:(.+?):(?: (.*))?$/;

/**
 * The glossary's entries, in the file's order: { term, paragraphs (each one line), refs }. The
 * glossary runs from the line "Glossary" to "Appendix A. ..."; before its first entry it lists the
 * terms, which are not entries.
 */
function entriesOf(text) {
  const lines = text.split("\n");
  const start = lines.indexOf("Glossary"), end = lines.findIndex((l, i) => i > start && l.startsWith("Appendix A."));
  if (start < 0 || end < 0) throw new Error("jargon corpus: no Glossary ... Appendix A. in the text");
  const out = [];
  let cur = null, para = [];
  const flush = () => {
    if (cur && para.length) cur.paragraphs.push(para.join(" ").replace(/\s+/g, " ").trim());
    para = [];
  };
  for (let i = start + 1; i < end; i++) {
    const l = lines[i];
    const m = HEAD.exec(l);
    if (m) {
      flush();
      cur = { term: m[1], paragraphs: [] };
      out.push(cur);
      continue;
    }
    if (!cur) continue; // the list of terms before the first entry
    if (l.trim() === "") flush();
    else para.push(l.trim());
  }
  flush();
  return out;
}

export function extract({ files }) {
  if (!files.some((f) => f.file === FILE)) throw new Error(`jargon corpus: ${FILE} is not in the package`);
  const text = asciiPunct(gunzipSync(readFileSync(FILE)).toString("utf8"));
  const entries = entriesOf(text);
  if (entries.length < 1000) throw new Error(`jargon corpus: only ${entries.length} entries parsed`);
  const pathOf = (term) => `jargon/${term}`;
  const exact = new Map(), folded = new Map();
  for (const e of entries) {
    if (exact.has(e.term)) throw new Error(`jargon corpus: two entries for ${JSON.stringify(e.term)}`);
    exact.set(e.term, pathOf(e.term));
    const k = e.term.toLowerCase();
    folded.set(k, folded.has(k) ? null : pathOf(e.term)); // null: two entries differ only in case (OP, op)
  }
  // {term} names an entry exactly, else the one entry whose term is the same in lower case
  const resolve = (ref) => exact.get(ref) ?? folded.get(ref.toLowerCase()) ?? null;
  return {
    root: "/usr/share/doc/jargon-text",
    items: entries.map((e) => {
      const links = new Set();
      const lines = e.paragraphs.map((p) => p.replace(/\{([^{}]+)\}/g, (_, ref) => {
        const r = resolve(ref.trim());
        if (r) links.add(r);
        return ref;
      }));
      links.delete(pathOf(e.term));
      return { path: pathOf(e.term), lines, title: e.term, heading: e.term, links };
    }),
  };
}

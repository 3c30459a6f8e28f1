// Text helpers shared by the corpus builders and the LSA embeddings (bench/relevance).

import { rng } from "../../tests/oracles/rng.js";

/** Letters and digits, lowercased: the words the LSA model and the word counts see. */
export function words(text) {
  return String(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A short English stopword list (function words only; the corpora's own common words are left to idf). */
export const STOPWORDS = new Set(`a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having he her here
hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only
or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there
these they this those through to too under until up very was we were what when where which while who whom why will with would
you your yours yourself yourselves`.split(/\s+/));

/** Typographic characters groff and Sphinx emit for ASCII ones, mapped back (hyphens, minus, quotes, spaces). */
const ASCII = new Map([["\u2010", "-"], ["\u2011", "-"], ["\u2212", "-"], ["\u2018", "'"], ["\u2019", "'"], ["\u201c", "\""],
  ["\u201d", "\""], ["\u00a0", " "], ["\u2002", " "], ["\u2003", " "], ["\u2009", " "], ["\u200b", ""]]);
export function asciiPunct(s) {
  return s.replace(/[\u2010\u2011\u2212\u2018\u2019\u201c\u201d\u00a0\u2002\u2003\u2009\u200b]/g, (c) => ASCII.get(c));
}

/** Lines with their runs of white space collapsed, empty lines dropped. */
export function tidyLines(text) {
  return text.split("\n").map((l) => l.replace(/\s+/g, " ").trim()).filter((l) => l.length > 0);
}

export const MAX_GIST = 4096;

/**
 * A memory's gist and body from its text (lines): the gist is the first sentence of the first
 * line (up to the first . ! or ? followed by a space, or the whole line), at most MAX_GIST
 * characters (cut at a space); the body is the rest.
 */
export function gistBody(lines) {
  const first = lines[0] ?? "";
  const m = /[.!?](?=\s)/.exec(first);
  let cut = m ? m.index + 1 : first.length;
  if (cut > MAX_GIST) {
    const sp = first.lastIndexOf(" ", MAX_GIST);
    cut = sp > 0 ? sp : MAX_GIST;
  }
  const gist = first.slice(0, cut).trim();
  const rest = [first.slice(cut).trim(), ...lines.slice(1)].filter((l) => l.length > 0);
  return { gist, body: rest.join("\n") };
}

/** A heading or description as a query: its words in one line, compared case-insensitively for uniqueness. */
export const queryKey = (s) => words(s).join(" ");


/** A seeded Fisher-Yates shuffle (a copy). */
export function shuffled(xs, seed) {
  const out = xs.slice();
  const r = rng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** JavaScript string order (UTF-16 units; locale-independent): the order the corpora list files and memories in. */
export const byString = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// What the lexical arm's write-sequence suites share (cache-lexical-incremental, cache-lexindex):
// their words (accents, scripts, digits, an emoji, hyphen and apostrophe, which FTS5's tokenizer
// splits or folds), a lexical-only search, and a fresh cache over a copy of a database.
import { openMemoryCache } from "../../js/cache/index.js";

export const DAY = 86_400_000;
export const T0 = Date.UTC(2026, 0, 1);
export const WORDS = ["alpha", "beta", "gamma", "delta", "Éclair", "café", "naïve", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu",
  "x1", "2024", "straße", "ΑΘΗΝΑ", "日本", "emoji😀", "co-op", "don't"];
/** The lexical arm alone. */
export const LEXICAL = { weights: { lexical: 1, vector: 0, salience: 0, lateral: 0 } };

/** The lexical arm's (or a preset's) hits for `text` as [path, score] pairs. */
export async function lexicalOf(cache, text, preset) {
  const hits = await cache.search({ text, limit: 25, depth: 60, ...(preset ? { preset } : LEXICAL) });
  return hits.map((h) => [h.path, h.score]);
}

/** A fresh cache over a copy of `cache`'s database (sqlite-wasm): its lists are read from FTS5. */
export const copyOf = async (cache) => openMemoryCache({ bytes: await cache.exportBytes() });

/**
 * A random writer over `r` (a seeded rng): text(n) draws n of WORDS, vec() a `dim`-element
 * embedding, put(cache, path, like) writes one memory (like's text and embedding, else drawn) and
 * keeps `paths` (every path put, in order), newPath() names the next new path.
 */
export function randomWriter(r, dim = 4) {
  const text = (n) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(r() < 0.2 ? ", " : " ");
  const vec = () => Float32Array.from({ length: dim }, () => r() * 2 - 1);
  const paths = [];
  let next = 0;
  const put = async (c, path, like = null) => {
    if (!paths.includes(path)) paths.push(path);
    await c.put([{ path, gist: like ? like.gist : text(1 + Math.floor(r() * 3)), body: like ? like.body : text(Math.floor(r() * 30)),
      type: "episodic", embedding: like ? like.embedding : vec(), createdAt: T0 + Math.floor(r() * 30) * DAY }]);
  };
  return { text, vec, paths, put, newPath: () => `m/${next++}` };
}

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

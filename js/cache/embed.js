// memdomain/cache: the embedding hook. openMemoryCache({ embed }) gives the cache a function
// that turns text into vectors, so put() stores a memory without an `embedding`, and search(),
// explain() and tune() take a query without a `vector`; calibration (calibrate.js) embeds its
// pseudo-queries and their held-out memories with it.
//
// The hook is embed(texts, { kind }) -> vectors (or a promise of them): one call per batch of at
// most `embedBatch` texts, `kind` "document" for what is stored and "query" for what is searched
// for (many models embed the two differently: e5's "query: " and "passage: ", Cohere's and
// Voyage's input_type). Every vector is checked like a given one: the cache's dimension, finite
// numbers.
import { CACHE_OPTIONS, DEFAULT_EMBED_BATCH, checkOption } from "./schema.js";
import { embedding, rangeError, typeError } from "./validate.js";

export const EMBED_KINDS = Object.freeze(["document", "query"]);
export { DEFAULT_EMBED_BATCH };

/** The open options' hook, checked: { fn: the function or null, batch }. */
export function checkEmbed(fn, embed, batch) {
  if (embed !== undefined && embed !== null && typeof embed !== "function")
    throw typeError(fn, "options.embed", "a function (texts, { kind }) -> vectors", embed);
  return {
    fn: typeof embed === "function" ? embed : null,
    batch: checkOption(fn, "options.embedBatch", CACHE_OPTIONS.open.embedBatch, batch),
  };
}

/**
 * Vectors for `texts` from the hook, `batch` at a time: Float32Arrays of `dim` elements (the
 * first vector fixes `dim` when it is null), and null for a query vector of zeros (the model knows
 * none of its words: the query goes without the vector arm). `at(i)` names text i in an error. A
 * hook that throws rejects the call with its error.
 */
export async function embedTexts(fn, hook, texts, kind, dim, { at = (i) => `texts[${i}]`, batch = DEFAULT_EMBED_BATCH } = {}) {
  const out = new Array(texts.length);
  for (let start = 0; start < texts.length; start += batch) {
    const part = texts.slice(start, start + batch);
    const got = await hook.call(undefined, part, { kind });
    if (got === null || typeof got !== "object" || typeof got.length !== "number")
      throw typeError(fn, `options.embed's result for ${part.length} ${kind} text(s)`, "an array of vectors", got);
    if (got.length !== part.length)
      throw rangeError(fn, `options.embed's result`, `has ${got.length} vectors for ${part.length} ${kind} text(s)`);
    for (let j = 0; j < part.length; j++) {
      const i = start + j;
      out[i] = embedding(fn, `options.embed's vector for ${at(i)}`, got[j], dim);
      if (dim === null) dim = out[i].length;
      if (kind === "query" && out[i].every((x) => x === 0)) out[i] = null; // no direction (no word the model knows): no vector arm
    }
  }
  return out;
}

/** The text a memory is embedded from: its gist, a newline, its body (the joined text the merge guards read too). */
export const memoryText = (gist, body) => (body ? `${gist}\n${body}` : gist);

// Embeddings of more than one quality for the relevance harness, each a text -> vector function
// the cache can be given as its embed hook (openMemoryCache({ embed })), with the memories'
// vectors computed by the same function:
//   lsa     LSA d = 256 fitted on the corpus (lsa.mjs; the corpus's own stored vectors): weak.
//   hash    hashed words: each word's sublinear tf x idf added to one of 256 signed buckets: weak,
//           a lexical arm in vector form with collisions.
//   oracle  LSA over the text plus the memory's own known-item title (three times), where the
//           text is a memory's (or a memory's with a span taken out, as calibration asks): an
//           embedding that carries the answer by construction, as a perfect doc2query model
//           would (docTTTTTquery expands documents with predicted queries). Strong.
// Models are fitted once per corpus and kept in build/relevance/<corpus>/embeddings/ (keyed by
// the corpus's key). Deterministic: the same corpus gives the same vectors.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OUT, SETTINGS } from "./corpus.mjs";
import { fitLsa, foldIn } from "./lsa.mjs";
import { STOPWORDS, words } from "./text.mjs";

export const EMBEDDINGS = ["lsa", "hash", "oracle"];
const HASH_DIM = 256;
const ORACLE_TITLE_REPEAT = 3;

const textOf = (m) => (m.body ? `${m.gist}\n${m.body}` : m.gist);

/** The LSA model of a corpus (the one its stored vectors came from), fitted once and kept. */
function lsaModel(corpus) {
  const dir = join(OUT, corpus.name, "embeddings");
  const file = join(dir, `lsa-${corpus.meta.key}.bin`), head = join(dir, `lsa-${corpus.meta.key}.json`);
  if (existsSync(file) && existsSync(head)) {
    const h = JSON.parse(readFileSync(head, "utf8"));
    const buf = readFileSync(file);
    const all = new Float64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    const m = h.terms.length;
    return { dim: h.dim, vocab: new Map(h.terms.map((t, i) => [t, i])), idf: all.subarray(0, m), V: all.subarray(m) };
  }
  const model = fitLsa(corpus.memories.map(textOf), SETTINGS.lsa);
  mkdirSync(dir, { recursive: true });
  const terms = [...model.vocab.keys()].sort((a, b) => model.vocab.get(a) - model.vocab.get(b));
  const all = new Float64Array(model.idf.length + model.V.length);
  all.set(model.idf, 0);
  all.set(model.V, model.idf.length);
  writeFileSync(file, Buffer.from(all.buffer));
  writeFileSync(head, JSON.stringify({ dim: model.dim, terms }));
  return model;
}

/** Document frequencies of the corpus's words (for the hashed embedding's idf). */
function documentFrequencies(corpus) {
  const df = new Map();
  for (const m of corpus.memories) for (const w of new Set(words(textOf(m)))) if (!STOPWORDS.has(w)) df.set(w, (df.get(w) ?? 0) + 1);
  return df;
}

function hashWord(w, dim = HASH_DIM) {
  const h = createHash("sha256").update(w).digest();
  return { bucket: h.readUInt32LE(0) % dim, sign: h[4] & 1 ? 1 : -1 };
}

const WORDS_DIM = 2048;
const LSA_SHARE = Number(process.env.LSA_SHARE ?? 1);
/** A crude English stem: common suffixes off (enough to join "configuring", "configured", "configuration"). */
function stemOf(w) {
  if (w.length <= 4) return w;
  for (const suf of ["ational", "ization", "ation", "ations", "ments", "ment", "ings", "ing", "ies", "ied", "ness", "able", "ible", "ers", "er", "ed", "es", "ly", "s"]) {
    if (w.endsWith(suf) && w.length - suf.length >= 3) return suf === "ies" || suf === "ied" ? `${w.slice(0, -3)}y` : w.slice(0, -suf.length);
  }
  return w;
}

function normalized(acc) {
  let s = 0;
  for (const x of acc) s += x * x;
  const out = new Float32Array(acc.length);
  if (s > 0) { const inv = 1 / Math.sqrt(s); for (let i = 0; i < acc.length; i++) out[i] = acc[i] * inv; }
  return out;
}

/**
 * The embedding `name` of `corpus`: { name, dim, vectorOf(memory) (its stored vector), embed(texts,
 * { kind }) (the hook), query(text) }. Vectors are Float32Arrays; a text with no known word gives
 * all zeros (a query vector of zeros is left out by the harness, as for the corpus's own).
 */
export function embedding(corpus, name) {
  if (name === "lsa") {
    const model = lsaModel(corpus);
    const one = (t) => foldIn(model, t);
    return { name, dim: model.dim, vectorOf: (m) => m.embedding, embed: (texts) => texts.map(one), query: one };
  }
  if (name === "hash") {
    const df = documentFrequencies(corpus), n = corpus.memories.length, cache = new Map();
    const one = (t) => {
      const acc = new Float64Array(HASH_DIM), tf = new Map();
      for (const w of words(t)) if (!STOPWORDS.has(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const [w, c] of tf) {
        let h = cache.get(w);
        if (!h) cache.set(w, (h = hashWord(w)));
        acc[h.bucket] += h.sign * (1 + Math.log(c)) * Math.log((n + 1) / ((df.get(w) ?? 0) + 1));
      }
      return normalized(acc);
    };
    const stored = new Map();
    return { name, dim: HASH_DIM, vectorOf: (m) => { let v = stored.get(m.path); if (!v) stored.set(m.path, (v = one(textOf(m)))); return v; },
      embed: (texts) => texts.map(one), query: one };
  }
  if (name === "words" || name === "stems" || name === "lsa+stems") {
    // hashed words (or crude stems) into WORDS_DIM buckets, few collisions; "lsa+stems" adds LSA's 256 dimensions
    const stem = name === "words" ? (w) => w : stemOf;
    const df = new Map(), n = corpus.memories.length;
    for (const m of corpus.memories) for (const w of new Set(words(textOf(m)).filter((w) => !STOPWORDS.has(w)).map(stem))) df.set(w, (df.get(w) ?? 0) + 1);
    const cache = new Map();
    const model = name === "lsa+stems" ? lsaModel(corpus) : null;
    const D = WORDS_DIM + (model ? model.dim : 0);
    const one = (t) => {
      const acc = new Float64Array(D), tf = new Map();
      for (const w of words(t)) if (!STOPWORDS.has(w)) { const s = stem(w); tf.set(s, (tf.get(s) ?? 0) + 1); }
      for (const [w, c] of tf) {
        let h = cache.get(w);
        if (!h) cache.set(w, (h = hashWord(w, WORDS_DIM)));
        acc[h.bucket] += h.sign * (1 + Math.log(c)) * Math.log((n + 1) / ((df.get(w) ?? 0) + 1));
      }
      let s1 = 0;
      for (let i = 0; i < WORDS_DIM; i++) s1 += acc[i] * acc[i];
      if (s1 > 0) { const inv = 1 / Math.sqrt(s1); for (let i = 0; i < WORDS_DIM; i++) acc[i] *= inv; }
      if (model) { const l = foldIn(model, t); for (let i = 0; i < model.dim; i++) acc[WORDS_DIM + i] = l[i] * LSA_SHARE; }
      return normalized(acc);
    };
    const stored = new Map();
    return { name, dim: D, vectorOf: (m) => { let v = stored.get(m.path); if (!v) stored.set(m.path, (v = one(textOf(m)))); return v; },
      embed: (texts) => texts.map(one), query: one };
  }
  if (name === "oracle") {
    const model = lsaModel(corpus);
    const title = new Map();
    for (const q of [...corpus.queries.tune, ...corpus.queries.test]) title.set(q.target, q.text);
    const byGist = new Map(), byBody = new Map();
    for (const m of corpus.memories) {
      if (!byGist.has(m.gist)) byGist.set(m.gist, m.path);
      if (m.body && !byBody.has(m.body)) byBody.set(m.body, m.path);
    }
    // the memory a document text was taken from: its gist (a window taken out of the body) or its body (the lead taken out)
    const source = (t) => {
      const nl = t.indexOf("\n");
      const head = nl < 0 ? t : t.slice(0, nl), rest = nl < 0 ? "" : t.slice(nl + 1);
      return byGist.get(head) ?? byBody.get(rest) ?? null;
    };
    const doc = (t, path) => {
      const ti = path === null ? undefined : title.get(path);
      return foldIn(model, ti === undefined ? t : `${t}\n${`${ti}\n`.repeat(ORACLE_TITLE_REPEAT)}`);
    };
    const stored = new Map();
    return {
      name, dim: model.dim,
      vectorOf: (m) => { let v = stored.get(m.path); if (!v) stored.set(m.path, (v = doc(textOf(m), m.path))); return v; },
      embed: (texts, { kind } = {}) => texts.map((t) => (kind === "query" ? foldIn(model, t) : doc(t, source(t)))),
      query: (t) => foldIn(model, t),
    };
  }
  throw new RangeError(`embedding: ${JSON.stringify(name)} is not an embedding (${EMBEDDINGS.join(", ")})`);
}

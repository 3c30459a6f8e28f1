// memdomain/cache: calibration. The cache measures its own arms on its own memories, without
// labels, and sets the default composition's vector weight from what it measured.
//
// Why: the weight that is right depends on the user's embeddings. With embeddings that carry
// little (LSA fitted on a few thousand documents, hashed words, a model that does not know the
// domain) the vector arm's candidates push the lexical arm's right answers down; with strong
// ones the vector arm finds what no word of the query names. No fixed weight serves both.
//
// How: pseudo-queries in the form of the inverse cloze task (Lee, Chang and Toutanova 2019): a
// window of a memory's own words is the query and the memory, with the window taken out, is its
// one relevant answer. Taking the window out is what keeps either arm from being favoured by
// construction: the lexical arm scores the memory on the rest of its text (Lexical.scoreTexts:
// FTS5's own tokens and bm25 formula, against the index's totals), and the vector arm compares
// the window's query embedding with the rest's document embedding (the embed hook); every other
// memory is scored as search scores it. Each pseudo-query's arms are read once; every vector
// weight of VECTOR_GRID is then scored with the pipeline search() runs (compose.js: buildArms +
// fold) at the default settings otherwise, by reciprocal rank of the memory in the top 10.
//
// Labels: reinforce(path, { signal: "positive" }) of a path that one of the cache's recent
// searches returned records that search as a label (index.js); calibration scores those queries
// as they were asked (nothing taken out), each counting as LABEL_WEIGHT pseudo-queries.
//
// The choice: the weights whose mean reciprocal rank is within one standard error (of the paired
// difference over the same queries) of the best form a plateau, and the smallest of them is
// taken: the noise in one grid point does not decide it, and between weights that measure alike
// the one that lets the weaker evidence move the lexical ranking least wins. From pseudo-queries
// alone the weight is at most the default preset's own (UNLABELLED_MAX, 0.5): calibration without
// labels lowers the weight where the vector arm measures weak, and does not raise it, because
// pseudo-queries are windows of prose, and a query that names a thing (a heading, an identifier, an
// index entry) is answered by the lexical arm better than prose suggests: on python, postgres and
// gnu they asked for more weight than the real queries reward (docs/RELEVANCE.md, "Calibration").
// Labels, which are real queries, may take it past the cap.
import { cosine } from "../index.js";
import { GIST_WEIGHT, PRESETS, buildArms, fold, querySettings } from "./compose.js";
import { embedTexts, memoryText } from "./embed.js";
import { byCodePoint, queryTerms } from "./lexical.js";
import { rng } from "./rng.js";
import { CALIBRATION_SAMPLES, checkOptions } from "./schema.js";
import { byPath } from "./validate.js";

export const CALIBRATION_VERSION = 2;
/** The vector weights calibration scores (the lexical arm's weight is 1). */
export const VECTOR_GRID = Object.freeze([0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 3]);
/**
 * The most a weight chosen without labels can be: the default preset's own (0.5). Version 1 allowed
 * up to 1, the lexical arm's own weight (see the header).
 */
export const UNLABELLED_MAX = PRESETS.default.weights.vector;
/** The fewest queries a calibration needs (the memories it samples: CALIBRATION_SAMPLES, schema.js). */
export const MIN_CALIBRATION_QUERIES = 50;
export { CALIBRATION_SAMPLES };
/** A labelled query (a positive reinforcement of a searched path) counts as this many pseudo-queries. */
export const LABEL_WEIGHT = 4;
/** A memory's text needs this many words to give a pseudo-query and keep some text besides. */
const MIN_WORDS = 12;
/** A pseudo-query is a window of 3 to 8 words, the best of TRIES drawn (see pseudoQuery). */
const WINDOW_MIN = 3, WINDOW_MAX = 8, TRIES = 4;
const CUTOFF = 10;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The options of calibrate(): { seed = 1, samples = CALIBRATION_SAMPLES, onProgress }. */
export function checkCalibrateOptions(fn, options, arg = "options") {
  const { seed, samples, onProgress: progress } = checkOptions(fn, arg, options, "calibrate");
  return { seed, samples, progress };
}

/** The word spans of `text`: [{ start, end }] (character offsets). */
function spans(text) {
  const out = [];
  for (const m of text.matchAll(WORD)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * The pseudo-query of one memory, or null: { text, gist, body } where text is a window of
 * WINDOW_MIN to WINDOW_MAX of its words (within the gist or within the body) and gist and body
 * its text with the window taken out. Of TRIES windows drawn, the one whose words the rest of the
 * memory repeats most: a query names what its memory is about, and a memory repeats that (a
 * heading's words recur in its section: about 75% of a title's words on the corpora measured,
 * against about 60% of a window's drawn at random, which made the lexical arm look weaker than it is).
 */
export function pseudoQuery(gist, body, r) {
  const gw = spans(gist), bw = spans(body);
  const all = [...gw.map((w) => ({ ...w, inGist: true })), ...bw.map((w) => ({ ...w, inGist: false }))];
  if (all.length < MIN_WORDS) return null;
  const lower = all.map((w) => (w.inGist ? gist : body).slice(w.start, w.end).toLowerCase());
  const count = new Map();
  for (const w of lower) count.set(w, (count.get(w) ?? 0) + 1);
  const n = WINDOW_MIN + Math.floor(r() * (WINDOW_MAX - WINDOW_MIN + 1));
  let best = -1, bi = 0;
  for (let t = 0; t < TRIES; t++) {
    let i = Math.floor(r() * (all.length - n + 1));
    if (all[i].inGist !== all[i + n - 1].inGist) i = gw.length; // across the two: the body's first words
    if (i + n > all.length || all[i].inGist !== all[i + n - 1].inGist) continue;
    const inSpan = new Map();
    for (let k = i; k < i + n; k++) inSpan.set(lower[k], (inSpan.get(lower[k]) ?? 0) + 1);
    let rec = 0;
    for (const [w, c] of inSpan) if (count.get(w) > c) rec++;
    const share = rec / inSpan.size;
    if (share > best) { best = share; bi = i; }
  }
  if (best < 0) return null;
  const inGist = all[bi].inGist, s = all[bi].start, e = all[bi + n - 1].end, src = inGist ? gist : body;
  const cut = `${src.slice(0, s)} ${src.slice(e)}`;
  return { text: src.slice(s, e), gist: inGist ? cut : gist, body: inGist ? body : cut };
}

/** `paths`/`values` without `target`, then with it placed at `value` (null: not listed) by `better`, cut to `depth`. */
function placed(paths, values, target, value, better, depth) {
  const P = [], V = [];
  let put = value === null;
  for (let i = 0; i < paths.length && P.length < depth; i++) {
    if (paths[i] === target) continue;
    if (!put && better(value, target, values[i], paths[i])) {
      P.push(target);
      V.push(value);
      put = true;
      if (P.length === depth) break;
    }
    P.push(paths[i]);
    V.push(values[i]);
  }
  if (!put && P.length < depth) {
    P.push(target);
    V.push(value);
  }
  return { paths: P, values: V };
}

// the arms' own orders: bm25 asc then path in code points (SQLite's), cosine desc then path asc
const lexBetter = (s, p, t, q) => s < t || (s === t && byCodePoint(p, q) < 0);
const vecBetter = (s, p, t, q) => s > t || (s === t && byPath(p, q) < 0);

/**
 * Measure the arms on pseudo-queries (and labels) and choose the vector weight. `io` is the cache's
 * { db, lexical, resident, embed: { fn, batch } }; `labels` [{ text, vector (Float32Array or null),
 * path }]. Resolves the calibration: { version, vector (the weight chosen, or null when the vector
 * arm could not be measured), reason, queries (pseudo), labels, memories, seed, samples, table
 * ([{ vector, mrr, ndcg, r10 }] over VECTOR_GRID), arms ({ lexical, vector }: each arm alone, the
 * same measures), plateau (the weights within one standard error of the best) }.
 */
export async function calibrate(io, fn, o, labels = []) {
  const { db, lexical, resident: res, embed } = io;
  const hasVectors = res.vecs.size > 0 && res.dim !== null;
  const measureVector = hasVectors && embed.fn !== null;
  const live = res.meta.size;
  const labelled = labels.filter((l) => res.meta.has(l.path));
  const out = {
    version: CALIBRATION_VERSION, vector: null, reason: null, queries: 0, labels: labelled.length, memories: live,
    seed: o.seed, samples: o.samples, table: [], arms: null, plateau: null,
  };
  if (!hasVectors) return { ...out, reason: "no memory has an embedding: the vector arm has nothing to rank" };

  // pseudo-queries from a seeded shuffle of the live paths (in path order), read in chunks until
  // `samples` memories gave one (a memory too short for a window gives none)
  const queries = [];
  if (measureVector) {
    const candidates = [...res.vecs.keys()].sort(byPath);
    const r = rng(o.seed);
    for (let i = candidates.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [candidates[i], candidates[j]] = [candidates[j], candidates[i]];
    }
    for (let at = 0; at < candidates.length && queries.length < o.samples; at += 512) {
      const chunk = candidates.slice(at, at + 512);
      const rows = new Map((await db.all("SELECT m.path AS path, m.gist AS gist, m.body AS body FROM memories m JOIN json_each(?) j ON m.path = j.value",
        [JSON.stringify(chunk)])).map((x) => [x.path, x]));
      for (const p of chunk) {
        if (queries.length >= o.samples) break;
        const row = rows.get(p);
        const q = row ? pseudoQuery(row.gist, row.body, r) : null;
        if (q) queries.push({ ...q, target: p, weight: 1, pseudo: true });
      }
    }
  }
  out.queries = queries.length;
  if (queries.length + labelled.length < MIN_CALIBRATION_QUERIES) {
    return { ...out, reason: measureVector ? `too few pseudo-queries and labels (${queries.length + labelled.length}; at least ` +
      `${MIN_CALIBRATION_QUERIES} are needed: memories of at least ${MIN_WORDS} words give one each)`
      : `no embed hook (openMemoryCache({ embed })) to embed pseudo-queries, and ${labelled.length} labels (at least ${MIN_CALIBRATION_QUERIES})` };
  }

  // the pseudo-queries' vectors and their memories' with the window taken out, from the hook
  if (queries.length) {
    const qv = await embedTexts(fn, embed.fn, queries.map((q) => q.text), "query", res.dim, { batch: embed.batch, at: (i) => `pseudo-query ${i}` });
    const dv = await embedTexts(fn, embed.fn, queries.map((q) => memoryText(q.gist, q.body)), "document", res.dim,
      { batch: embed.batch, at: (i) => `pseudo-query ${i}'s memory, the window taken out` });
    queries.forEach((q, i) => { q.vector = qv[i]; q.context = dv[i]; }); // a null query vector: the vector arm finds nothing
  }
  const all = [...queries, ...labelled.map((l) => ({ text: l.text, vector: l.vector, target: l.path, weight: LABEL_WEIGHT, pseudo: false }))];
  const depth = PRESETS.default.depth;
  const terms = [], tops = [];
  for (const q of all) {
    const t = queryTerms(q.text);
    const informative = t.length ? await lexical.informative(db, t, live) : [];
    terms.push(informative);
    tops.push(informative.length ? await lexical.top(db, informative, depth + 1, GIST_WEIGHT) : null);
  }
  const held = all.map((q, i) => (q.pseudo && tops[i] ? { terms: terms[i], gist: q.gist, body: q.body } : null));
  const scored = await lexical.scoreTexts(db, held.filter(Boolean), GIST_WEIGHT);
  let k = 0;
  const raws = all.map((q, i) => {
    const raw = { lexical: null, vector: null };
    const top = tops[i];
    if (top) {
      const p = q.pseudo ? placed(top.paths, top.scores, q.target, scored[k++], lexBetter, depth)
        : { paths: top.paths.slice(0, depth), values: top.scores.slice(0, depth) };
      raw.lexical = { paths: p.paths, scores: p.values };
    }
    if (q.vector) {
      const v = res.topVector(q.vector, depth + 1);
      const sims = Array.from(v.sims);
      const p = q.pseudo ? placed(v.paths, sims, q.target, cosine(q.vector, q.context), vecBetter, depth)
        : { paths: v.paths.slice(0, depth), values: sims.slice(0, depth) };
      raw.vector = { paths: p.paths, sims: p.values, allTie: false };
    }
    if (i % 64 === 63) o.progress({ phase: "read", done: i + 1, total: all.length });
    return raw;
  });
  o.progress({ phase: "read", done: all.length, total: all.length });

  const ppr = new Map();
  const W = all.map((q) => q.weight), wsum = W.reduce((a, b) => a + b, 0);
  const ranksWith = (weights) => {
    const s = querySettings(fn, { weights, limit: CUTOFF, lambda: 1 }, "calibration");
    return raws.map((raw, i) => fold(io, s, buildArms(io, s, raw, undefined, ppr)).picked.findIndex((h) => h.path === all[i].target) + 1);
  };
  const stats = (ranks) => {
    let mrr = 0, ndcg = 0, r10 = 0;
    ranks.forEach((r, i) => { if (r > 0) { mrr += W[i] / r; ndcg += W[i] / Math.log2(r + 1); r10 += W[i]; } });
    return { mrr: mrr / wsum, ndcg: ndcg / wsum, r10: r10 / wsum };
  };
  const base = PRESETS.default.weights;
  const rr = [];
  for (const v of VECTOR_GRID) {
    const ranks = ranksWith({ ...base, vector: v });
    rr.push(ranks.map((r) => (r > 0 ? 1 / r : 0)));
    out.table.push({ vector: v, ...stats(ranks) });
  }
  out.arms = {
    lexical: stats(ranksWith({ lexical: 1, vector: 0, salience: 0, lateral: 0 })),
    vector: stats(ranksWith({ lexical: 0, vector: 1, salience: 0, lateral: 0 })),
  };
  let best = 0;
  for (let g = 1; g < VECTOR_GRID.length; g++) if (out.table[g].mrr > out.table[best].mrr) best = g;
  out.plateau = [];
  for (let g = 0; g < VECTOR_GRID.length; g++) {
    const d = rr[best].map((x, i) => x - rr[g][i]);
    const mean = d.reduce((a, x, i) => a + W[i] * x, 0) / wsum;
    const variance = d.reduce((a, x, i) => a + W[i] * (x - mean) ** 2, 0) / wsum;
    if (mean <= Math.sqrt(variance / Math.max(1, all.length - 1))) out.plateau.push(VECTOR_GRID[g]);
  }
  out.vector = labelled.length ? out.plateau[0] : Math.min(UNLABELLED_MAX, out.plateau[0]);
  out.reason = queries.length ? (labelled.length ? "pseudo-queries and labels" : "pseudo-queries") : "labels";
  return out;
}

// memdomain/cache: fit the default composition's settings to a user's labelled queries.
//
// The objective is mean nDCG@limit over the labelled queries, each scored with exactly the
// pipeline search() runs (compose.js: buildArms + fold), the lexical and vector arms read
// once per query at the deepest depth tried (a shallower arm is a prefix of a deeper one).
// The search is coordinate ascent over a fixed grid, started from the baseline (the
// defaults unless options.baseline says otherwise), parameters visited in a fixed order,
// a move taken only when it strictly improves the training score: deterministic.
//
// Honesty: k-fold cross-validation (folds assigned by a seeded shuffle) gives each query a
// score under settings fitted without it; the fitted settings are returned only when that
// held-out score beats the baseline's on the same queries by more than one standard error
// of the paired difference. Otherwise the baseline comes back (`chose: "baseline"`).
import { mmrReorders } from "../index.js";
import { ARMS, MAX_DEPTH, MAX_WINDOW, buildArms, fold, querySettings, retrieve } from "./compose.js";
import { rng } from "./rng.js";
import { CACHE_OPTIONS, DEFAULT_FOLDS, checkOption, checkOptions } from "./schema.js";
import { arr, embedding, rangeError, record, shown, string, typeError } from "./validate.js";

const GRADE = CACHE_OPTIONS.labelled.relevant.grade;
import { embedTexts } from "./embed.js";
import { admitted, compileFilter } from "./filter.js";
import { LIVE } from "./records.js";

/** The grid each setting is searched over (the baseline's own value is always tried too). */
export const TUNE_GRID = Object.freeze({
  fusion: ["score", "rrf"],
  "weights.vector": [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 1, 1.5, 2, 3, 5],
  "weights.lexical": [0, 1],
  "weights.salience": [0, 0.1, 0.25, 0.5, 1],
  "weights.lateral": [0, 0.1, 0.25, 0.5, 1],
  k: [1, 3, 5, 10, 20, 30, 60, 100],
  depth: [10, 20, 30, 50, 100],
  lambda: [0.5, 0.7, 0.8, 0.9, 0.95, 1],
  window: [10, 20, 30, 50],
  seeds: [1, 3, 5, 10],
});
const ORDER = ["fusion", "weights.vector", "k", "weights.lateral", "weights.salience", "lambda", "depth", "window", "seeds", "weights.lexical"];
const MAX_ROUNDS = 6;
export { DEFAULT_FOLDS };

/** Settings as search() takes them back (k only where the fusion reads it). */
function searchSettings({ preset, fusion, weights, k, depth, lambda, seeds, window, duplicate }) { // (a filter is the caller's)
  return { preset, fusion, weights: { ...weights }, ...(fusion === "rrf" ? { k } : {}), depth, lambda, seeds, window, duplicate };
}

/** nDCG@n of a ranked path list against graded labels (gain 2^g - 1, discount log2(i + 2)). */
export function ndcg(paths, relevant, n) {
  let dcg = 0;
  for (let i = 0; i < Math.min(n, paths.length); i++) {
    const g = relevant.get(paths[i]);
    if (g) dcg += (2 ** g - 1) / Math.log2(i + 2);
  }
  const ideal = [...relevant.values()].sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < Math.min(n, ideal.length); i++) idcg += (2 ** ideal[i] - 1) / Math.log2(i + 2);
  return idcg > 0 ? dcg / idcg : 0;
}

const getAt = (s, key) => (key.startsWith("weights.") ? s.weights[key.slice(8)] : s[key]);
const setAt = (s, key, v) => (key.startsWith("weights.") ? { ...s, weights: { ...s.weights, [key.slice(8)]: v } } : { ...s, [key]: v });
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** The labelled queries, checked: [{ text, vector, relevant: Map(path -> grade > 0) }]. */
export function checkLabelled(fn, labelled, limits, dim) {
  arr(fn, "labelled", labelled);
  if (labelled.length < 2) throw rangeError(fn, "labelled", `has ${labelled.length} queries; tuning needs at least 2`);
  return labelled.map((q, i) => {
    const at = `labelled[${i}]`;
    checkOptions(fn, at, q, "labelled");
    const text = q.text === undefined || q.text === null ? "" : string(fn, `${at}.text`, q.text, limits.query);
    const vector = q.vector === undefined || q.vector === null ? null : embedding(fn, `${at}.vector`, q.vector, dim);
    if (!text && !vector) throw rangeError(fn, at, "has neither text nor vector");
    const embed = q.vector === undefined && text !== ""; // the embed hook's, where the cache has one
    const relevant = new Map();
    if (Array.isArray(q.relevant)) q.relevant.forEach((p, j) => relevant.set(string(fn, `${at}.relevant[${j}]`, p, limits.path, { key: true }), 1));
    else if (q.relevant !== null && typeof q.relevant === "object") {
      for (const [p, g] of Object.entries(q.relevant)) relevant.set(p, checkOption(fn, `${at}.relevant[${JSON.stringify(p)}]`, GRADE, g));
      for (const [p, g] of relevant) if (!(g > 0)) relevant.delete(p);
    } else throw typeError(fn, `${at}.relevant`, "an array of paths or an object of path -> grade", q.relevant);
    if (relevant.size === 0) throw rangeError(fn, `${at}.relevant`, "names no relevant memory (grade > 0)");
    return { text, vector, relevant, embed };
  });
}

/**
 * Labels that name no live memory: [{ at ("labelled[i].relevant"), path, reason }] (a typo scores 0
 * whatever the settings). A query none of whose relevant paths is live cannot be scored: a RangeError.
 */
export function labelWarnings(fn, qs, live) {
  const warnings = [];
  qs.forEach((q, i) => {
    let any = false;
    for (const p of q.relevant.keys()) {
      if (live.has(p)) any = true;
      else warnings.push({ at: `labelled[${i}].relevant`, path: p, reason: "names no live memory (absent, or merged away by sleep)" });
    }
    if (!any) throw rangeError(fn, `labelled[${i}].relevant`, `names no live memory (${[...q.relevant.keys()].slice(0, 3).map((p) => JSON.stringify(p.slice(0, 80))).join(", ")})`);
  });
  return warnings;
}

/**
 * Fit search settings to labelled queries. options: { seed = 1, folds = 10, limit = 10 (the
 * nDCG cutoff and the search limit), baseline (search settings to start from and to beat;
 * default: search()'s own, the defaults with the cache's calibration), onProgress }. Resolves {
 * search, chose, fitted, baseline, heldOut: { tuned, baseline, difference, standardError, folds,
 * queries }, expected: { gain, standardError }, train, warnings, evaluations }.
 */
export async function tune(io, fn, labelled, options, limits) {
  const { seed, limit, folds, onProgress: progress } = checkOptions(fn, "options", options, "tune");
  const filter = compileFilter(fn, "options.filter", options.filter, limits);
  const qs = checkLabelled(fn, labelled, limits, io.resident.dim);
  const nFolds = Math.min(folds, qs.length);
  const warnings = labelWarnings(fn, qs, io.resident.meta);
  const toEmbed = qs.filter((q) => q.embed);
  if (toEmbed.length && io.embed?.fn) {
    const at = toEmbed.map((q) => `labelled[${qs.indexOf(q)}].text`);
    const vecs = await embedTexts(fn, io.embed.fn, toEmbed.map((q) => q.text), "query", io.resident.dim, { batch: io.embed.batch, at: (i) => at[i] });
    toEmbed.forEach((q, i) => (q.vector = vecs[i]));
  }
  const baseQuery = options.baseline === undefined ? {} : { ...record(fn, "options.baseline", options.baseline) };
  delete baseQuery.text;
  delete baseQuery.vector;
  if (baseQuery.preset !== undefined && baseQuery.preset !== "default")
    throw rangeError(fn, "options.baseline.preset", `must be "default" (tune fits the default composition), got ${shown(baseQuery.preset)}`);
  // the baseline is what search() does: the defaults with the cache's calibration, unless options.baseline says otherwise
  const base = querySettings(fn, { ...baseQuery, limit, preset: "default" }, "options.baseline", io.calibration);
  if (filter) { // every labelled query searched within the filter's memories, as search({ filter }) does
    const ids = await admitted(io.db, filter, LIVE), paths = new Set();
    for (const id of ids) { const p = io.lexical.pathOf.get(id); if (p !== undefined) paths.add(p); }
    base.allow = { ids, paths };
  }

  const ev = await evaluator(io, qs, base, limit, progress);
  const scores = ev.scores;

  // Folds: a seeded shuffle of the query indices, dealt round-robin.
  const order = qs.map((_, i) => i);
  const r = rng(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const foldOf = new Array(qs.length);
  order.forEach((q, i) => (foldOf[q] = i % nFolds));

  const steps = nFolds + 1;
  let step = 0;
  const fit = (ids) => {
    let cur = base, best = mean(scores(cur, ids));
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let moved = false;
      for (const key of ORDER) {
        if (key === "seeds" && !(cur.weights.lateral > 0)) continue;
        if (key === "k" && cur.fusion !== "rrf") continue;
        if (key === "window" && !mmrReorders(cur.lambda, Infinity) && cur.duplicate === null) continue; // the window matters only to MMR and duplicates
        const values = [...new Set([getAt(cur, key), ...TUNE_GRID[key]])];
        for (const v of values) {
          if (v === getAt(cur, key)) continue;
          const cand = setAt(cur, key, v);
          if (!(cand.weights.lexical > 0 || cand.weights.vector > 0)) continue;
          if (key === "window" && v > MAX_WINDOW) continue;
          const sc = mean(scores(cand, ids));
          if (sc > best + 1e-12) {
            best = sc;
            cur = cand;
            moved = true;
          }
        }
      }
      if (!moved) break;
    }
    progress({ phase: "fit", done: ++step, total: steps });
    return cur;
  };

  const tunedScore = new Array(qs.length), baseScore = scores(base, qs.map((_, i) => i));
  for (let f = 0; f < nFolds; f++) {
    const train = [], test = [];
    qs.forEach((_, i) => (foldOf[i] === f ? test : train).push(i));
    const s = fit(train);
    scores(s, test).forEach((v, j) => (tunedScore[test[j]] = v));
  }
  const diffs = tunedScore.map((v, i) => v - baseScore[i]);
  const difference = mean(diffs);
  const sd = Math.sqrt(diffs.reduce((a, d) => a + (d - difference) ** 2, 0) / Math.max(1, diffs.length - 1));
  const standardError = sd / Math.sqrt(diffs.length);
  const final = fit(qs.map((_, i) => i));
  const chose = difference > 0 && difference > standardError ? "tuned" : "baseline";
  const settings = chose === "tuned" ? final : base;
  return {
    search: searchSettings(settings),
    chose,
    fitted: searchSettings(final),
    baseline: searchSettings(base),
    heldOut: { tuned: mean(tunedScore), baseline: mean(baseScore), difference, standardError, folds: nFolds, queries: qs.length },
    // the held-out gain the returned settings are expected to bring (0 for the baseline), with its standard error
    expected: { gain: chose === "tuned" ? difference : 0, standardError },
    train: mean(scores(settings, qs.map((_, i) => i))),
    warnings,
    evaluations: ev.evaluations(),
  };
}

/**
 * Score settings on checked labelled queries: { hits(s, i) (the search's paths for query i under
 * settings s), scores(s, ids) (nDCG@limit per query, memoized), evaluations() }. Each query's
 * lexical and vector reads happen once, at the deepest depth any setting asks for.
 */
export async function evaluator(io, qs, base, limit, progress = () => {}) {
  const deepest = Math.min(MAX_DEPTH, Math.max(base.depth, ...TUNE_GRID.depth));
  const all = { ...base, weights: Object.fromEntries(ARMS.map((a) => [a, 1])) };
  const raws = [];
  for (const [i, q] of qs.entries()) {
    raws.push(await retrieve(io, all, q.text, q.vector, deepest, undefined, true));
    if (i % 8 === 7) progress({ phase: "read", done: i + 1, total: qs.length });
  }
  progress({ phase: "read", done: qs.length, total: qs.length });
  const ppr = new Map();
  let evaluations = 0;
  const hits = (s, i) => fold(io, s, buildArms(io, s, raws[i], undefined, ppr)).picked.map((h) => h.path);
  const memo = new Map();
  const scores = (s, ids) => {
    const key = JSON.stringify(s);
    let per = memo.get(key);
    if (!per) memo.set(key, (per = new Map()));
    return ids.map((i) => {
      let v = per.get(i);
      if (v === undefined) {
        v = ndcg(hits(s, i), qs[i].relevant, limit);
        per.set(i, v);
        evaluations++;
      }
      return v;
    });
  };
  return { hits, scores, evaluations: () => evaluations };
}


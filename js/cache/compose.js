// memdomain/cache: how search composes its four arms into one list. Two compositions,
// both built only from memdomain's public functions (fuseArms, fuseLateral, rankFused,
// applyMmr, cosine) and plain arithmetic:
//
// "default", its settings chosen by measurement on real corpora (docs/RELEVANCE.md):
//   - the lexical arm is FTS5's bm25 with the gist weighted GIST_WEIGHT (3) times the body;
//   - tied items share a rank (equal bm25, equal cosine, equal salience signals, equal
//     PageRank score take the rank of the first of them), so a tie-break by path is never
//     read as evidence;
//   - an arm whose order carries no information says nothing: the salience arm lists only
//     memories with a signal (an access, a positive outcome, a reinforcement) and is empty
//     when the whole pool ties; the vector arm is empty when every embedding ties;
//   - the lateral arm is a short walk (LATERAL_STEPS) over the edges link() made (sleep's
//     similarity edges only repeat the vector arm: walking them lowered MRR on every corpus
//     measured), and keeps its seeds, ranked by PageRank with what the walk reaches (left out,
//     the neighbours took the arm's first ranks and outranked the hits);
//   - fusion "score" (the default) adds each arm's own score on [0, 1] times its weight:
//     bm25 / the best bm25, (1 + cosine) / (1 + the best cosine) (cosine's least possible
//     value, -1, as the floor), PageRank / the best, and (n - rank + 1) / n for salience. A
//     confident lexical first place (a large bm25 gap) stays first unless the vector arm
//     disagrees strongly; reciprocal ranks throw that gap away, which on every corpus
//     measured let the weaker vector arm reorder the lexical top. Fusion "rrf" adds
//     weight / (rank + k) (fuseArms) instead;
//   - MMR sees relevance on one scale: each candidate's fused score divided by the best,
//     so lambda weighs [0, 1] against cosine's [0, 1]; it reorders a window of the best
//     `window` candidates (at least `limit`), not the whole pool. lambda is 1 by default
//     (every lambda below 1 measured lost relevance);
//   - a near-duplicate of a hit already shown (cosine above `duplicate`, 0.99: the same
//     memory stored twice) is skipped.
// "memhtml", the composition as memhtml's retrieval writes it (kept for compatibility):
//   positions as ranks (ties broken by path), reciprocal-rank fusion, the lateral arm without
//   its seeds folded with fuseLateral, applyMmr over every fused candidate on the raw scores.
import { MMR_LAMBDA, RRF_K, cosine, fuseArms, fuseLateral, mmrReorders, rankFused, rrfScore } from "../index.js";
import { queryTerms } from "./lexical.js";
import { CACHE_OPTIONS, MAX_DEPTH, MAX_LIMIT, MAX_WINDOW, checkOption, checkOptions } from "./schema.js";
import { byPath, rangeError, record } from "./validate.js";

const ROWS = CACHE_OPTIONS.search, WEIGHT_ROWS = CACHE_OPTIONS.weights;
export const ARMS = Object.freeze(Object.keys(WEIGHT_ROWS));

/** The compositions and their settings. `default` is what search does unless `preset` says otherwise. */
export const PRESETS = Object.freeze({
  default: Object.freeze({
    fusion: "score", weights: Object.freeze({ lexical: 1, vector: 0.5, salience: 0.25, lateral: 0.1 }),
    k: 5, depth: 50, lambda: 1, seeds: 5, window: 30, duplicate: 0.99,
  }),
  memhtml: Object.freeze({
    fusion: "rrf", weights: Object.freeze({ lexical: 1, vector: 1, salience: 0.5, lateral: 0.5 }),
    k: RRF_K, depth: 50, lambda: MMR_LAMBDA, seeds: 5,
  }),
});
export const PRESET_NAMES = ROWS.preset.values;
/** How the default composition adds its arms: their scores on [0, 1], or reciprocal ranks (with k). */
export const FUSIONS = ROWS.fusion.values;
/**
 * The default composition's lexical arm weighs a word in the gist (the one-line claim) this many
 * times a word in the body: FTS5's bm25(memories_fts, 3, 1). 2, 3, 4 and 8 ranked alike on the
 * tuning corpora, each above 1 (docs/RELEVANCE.md, "How the defaults were chosen", gives the
 * arm's gain); memhtml's composition keeps FTS5's plain bm25.
 */
export const GIST_WEIGHT = 3;
/**
 * The default composition's lateral walk: this many steps of personalized PageRank from the
 * seeds (memhtml's runs to PageRank's own stopping rule). 1, 3, 5 and 100 steps ranked alike on
 * every corpus measured (within the noise of 1,000 queries); a short walk touches only the links
 * near the hits, so its cost does not grow with the graph (the core steps over the nodes
 * holding mass).
 */
export const LATERAL_STEPS = 3;
/** The preset "memhtml" runs MMR over every candidate: limit x candidates cosines, at most this many. */
export const MAX_MMR_PAIRS = 1 << 22;
export { MAX_DEPTH, MAX_LIMIT, MAX_WINDOW };

/**
 * The composition settings of a query (text and vector are checked by the caller):
 * { preset, fusion, weights, limit, k, depth, lambda, seeds, window, duplicate, timings, calibrated }.
 * `calibration` (the cache's, or null): the default composition's vector weight comes from it unless
 * the query gives one or says `calibrated: false`. The options' types, ranges and defaults are the
 * schema's (schema.js, group "search"); what is checked here is how they combine.
 */
export function querySettings(fn, q, arg = "query", calibration = null) {
  record(fn, arg, q);
  const preset = checkOption(fn, `${arg}.preset`, ROWS.preset, q.preset);
  const P = PRESETS[preset];
  const memhtml = preset === "memhtml";
  // preset "memhtml" refuses fusion, window and duplicate below, before their values are checked
  const c = checkOptions(fn, arg, q, "search", { skip: ["preset", "weights", "timings", ...(memhtml ? ["fusion", "window", "duplicate"] : [])],
    defaults: P });
  const weights = { ...P.weights };
  const calibrated = preset === "default" && c.calibrated && typeof calibration?.vector === "number";
  if (calibrated) weights.vector = calibration.vector;
  if (q.weights !== undefined) {
    record(fn, `${arg}.weights`, q.weights);
    for (const [k, v] of Object.entries(q.weights)) {
      if (!ARMS.includes(k)) throw rangeError(fn, `${arg}.weights.${k}`, `is not an arm (arms: ${ARMS.join(", ")})`);
      weights[k] = checkOption(fn, `${arg}.weights.${k}`, WEIGHT_ROWS[k], v);
    }
    // a fused score is at most the weights' sum (each arm adds at most its weight): past the largest double it is Infinity
    if (!Number.isFinite(ARMS.reduce((t, a) => t + weights[a], 0))) {
      throw rangeError(fn, `${arg}.weights`, "sum to more than the largest double, so fused scores would be Infinity: scale them down " +
        "(fusion by score ranks by their ratios)");
    }
  }
  const s = {
    preset, fusion: undefined, weights, limit: c.limit, k: c.k, depth: c.depth, lambda: c.lambda, seeds: c.seeds,
    timings: q.timings === true,
    calibrated: calibrated && q.weights?.vector === undefined,
    offset: c.offset,
  };
  if (s.offset + s.limit > MAX_LIMIT) throw rangeError(fn, `${arg}.offset`, `+ limit is ${s.offset + s.limit}, more than ${MAX_LIMIT}`);
  if (memhtml) {
    for (const k of ["fusion", "window", "duplicate"]) if (q[k] !== undefined)
      throw rangeError(fn, `${arg}.${k}`, `applies to the default composition only (preset "memhtml" fuses reciprocal ranks and runs MMR over every candidate)`);
    s.fusion = "rrf";
  } else {
    s.fusion = c.fusion;
    if (s.fusion === "score" && q.k !== undefined) throw rangeError(fn, `${arg}.k`, `applies to fusion "rrf" only (fusion "score" adds the arms' scores)`);
    s.window = c.window;
    s.duplicate = c.duplicate;
  }
  return s;
}

/** Hits ranked by position: 1, 2, 3, ... (the "memhtml" composition). */
export const positional = (paths) => paths.map((path, i) => ({ path, rank: i + 1 }));

/**
 * Hits where an item that ties with the one before it (`ties(i)`) shares its rank: 1, 2, 2, 4, ...
 * With `score(i)`, each hit also carries its score in the arm, on [0, 1].
 */
export function sharedRanks(paths, ties, score) {
  const hits = new Array(paths.length);
  let rank = 1;
  for (let i = 0; i < paths.length; i++) {
    if (i > 0 && !ties(i)) rank = i + 1;
    hits[i] = score ? { path: paths[i], rank, score: score(i) } : { path: paths[i], rank };
  }
  return hits;
}


/**
 * The salience order: access count desc, then max(coalesce(outcome score, 0), 0)
 * desc, then reinforcement count desc (then path asc, applied by the caller).
 */
export function salienceOrder(a, b) {
  const oa = Math.max(a[1] ?? 0, 0), ob = Math.max(b[1] ?? 0, 0);
  return b[0] - a[0] || ob - oa || b[2] - a[2];
}
const hasSignal = (m) => m[0] > 0 || (m[1] ?? 0) > 0 || m[2] > 0;

/**
 * What the lexical and vector arms retrieve for a query, `depth` deep: { lexical: { paths,
 * scores (bm25, smaller is better) } | null, vector: { paths, sims } | null }. An arm with
 * weight 0 retrieves nothing unless `all` (tune() reads both once, for every weight).
 * `io` is { db, lexical, resident }: the cache's database and resident state.
 */
export async function retrieve(io, s, text, vector, depth, lap = () => {}, all = false) {
  const res = io.resident;
  const out = { lexical: null, vector: null };
  const terms = s.weights.lexical > 0 || all ? queryTerms(text) : [];
  if (terms.length) {
    const informative = await io.lexical.informative(io.db, terms, res.meta.size);
    out.lexical = await io.lexical.top(io.db, informative, depth, s.preset === "memhtml" ? 1 : GIST_WEIGHT, s.allow?.ids ?? null);
  }
  lap("lexical");
  if ((s.weights.vector > 0 || all) && vector) {
    const allow = s.allow?.paths ?? null;
    const top = res.topVector(vector, depth, allow), sims = top.sims, n = sims.length;
    // Every embedding ties when the best equals the worst: the worst is minus the best of the negated query.
    top.allTie = n > 0 && sims[0] === sims[n - 1] && ((!allow && n === res.vecs.size) ||
      -res.topVector(vector.map((x) => -x), 1, allow).sims[0] === sims[0]);
    out.vector = top;
  }
  lap("vector");
  return out;
}

/**
 * The four arms from what retrieve() read (cut to `s.depth`, a prefix of a deeper read): {
 * lexical, vector, salience, lateral } as ranked hits ({ path, rank }, best first), and `seeds`
 * ({ path, score }). `ppr` memoizes the lateral arm's PageRank by seeds (tune() passes a Map).
 */
export function buildArms(io, s, raw, lap = () => {}, ppr = null) {
  const res = io.resident;
  const w = s.weights, depth = s.depth, shared = s.preset !== "memhtml";
  const out = { lexical: [], vector: [], salience: [], lateral: [], seeds: [] };

  const lex = raw.lexical;
  if (lex && w.lexical > 0) {
    const paths = lex.paths.length > depth ? lex.paths.slice(0, depth) : lex.paths;
    const best = lex.scores[0]; // bm25: negative, smaller is better
    out.lexical = shared ? sharedRanks(paths, (i) => lex.scores[i] === lex.scores[i - 1], (i) => (best < 0 ? lex.scores[i] / best : 1))
      : positional(paths);
  }
  const vec = raw.vector;
  if (vec && w.vector > 0) {
    const paths = vec.paths.length > depth ? vec.paths.slice(0, depth) : vec.paths, sims = vec.sims;
    if (!shared) out.vector = positional(paths);
    else if (!vec.allTie) out.vector = sharedRanks(paths, (i) => sims[i] === sims[i - 1], (i) => (1 + sims[i]) / (1 + sims[0])); // every embedding tying is no order
  }

  if (w.salience > 0) {
    const meta = res.meta;
    const pool = [...new Set([...out.lexical.map((h) => h.path), ...out.vector.map((h) => h.path)])].filter((p) => meta.has(p));
    pool.sort((a, b) => salienceOrder(meta.get(a), meta.get(b)) || byPath(a, b));
    if (!shared) out.salience = positional(pool.slice(0, depth));
    else {
      const n = pool.length;
      const allTie = n > 0 && hasSignal(meta.get(pool[n - 1])) && salienceOrder(meta.get(pool[0]), meta.get(pool[n - 1])) === 0;
      if (!allTie) {
        const listed = pool.filter((p) => hasSignal(meta.get(p))).slice(0, depth);
        const n = listed.length;
        out.salience = sharedRanks(listed, (i) => salienceOrder(meta.get(listed[i - 1]), meta.get(listed[i])) === 0);
        for (const h of out.salience) h.score = (n - h.rank + 1) / n;
      }
    }
  }
  lap("salience");

  if (w.lateral > 0 && s.seeds > 0) {
    const fused = s.fusion === "score" ? fuseScores([out.lexical, out.vector, out.salience], [w.lexical, w.vector, w.salience])
      : fuseArms([out.lexical, out.vector, out.salience], [w.lexical, w.vector, w.salience], s.k);
    out.seeds = rankFused(fused).slice(0, s.seeds).filter((x) => x.score > 0);
    if (out.seeds.length) {
      const key = ppr && JSON.stringify([depth, out.seeds]);
      let top = ppr?.get(key);
      if (!top) {
        const { graph, tolerance } = res.graph(shared, out.seeds);
        top = lateralTop(graph, out.seeds, depth, shared, tolerance, s.allow?.paths ?? null);
        ppr?.set(key, top);
      }
      out.lateral = shared ? sharedRanks(top.paths, (i) => top.scores[i] === top.scores[i - 1], (i) => top.scores[i] / top.scores[0])
        : positional(top.paths);
    }
    Object.defineProperty(out, "fused3", { value: fused }); // the three-arm fusion the seeds came from
  }
  lap("lateral");
  return out;
}

/** retrieve() then buildArms() at the query's depth. */
export async function collectArms(io, s, text, vector, lap = () => {}) {
  return buildArms(io, s, await retrieve(io, s, text, vector, s.depth, lap), lap);
}

/**
 * Personalized PageRank from the seeds (weighted by their fused scores): the top `depth`
 * nodes by score desc, node order (= path order) asc; nothing when the walk reaches no node
 * besides the seeds; unreached nodes (score 0) left out, and
 * the seeds themselves unless `withSeeds` (the default composition keeps them, ranked by their
 * own PageRank with the rest, and walks LATERAL_STEPS steps). { paths, scores }.
 */
function lateralTop(g, seeds, depth, withSeeds, tolerance, allow = null) {
  const scores = g.pagerankScores({ seeds: new Map(seeds.map((x) => [x.path, x.score])), tolerance,
    ...(withSeeds ? { maxIterations: LATERAL_STEPS } : {}) });
  const seedSet = new Set(seeds.map((x) => x.path));
  const nodes = g.nodes;
  const top = [];
  let reached = false; // a node past the seeds: without one the walk only repeats the seeds' own weights
  for (let i = 0; i < scores.length; i++) {
    const v = scores[i];
    if (v > 0 && !reached && !seedSet.has(nodes[i])) reached = true;
    if (!(v > 0) || (top.length === depth && !(v > scores[top[depth - 1]])) || (!withSeeds && seedSet.has(nodes[i]))) continue;
    if (allow && !allow.has(nodes[i])) continue; // the filter's: the walk may pass through others, the arm lists none
    let j = top.length === depth ? top.length - 1 : top.length;
    while (j > 0 && v > scores[top[j - 1]]) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = i;
  }
  if (!reached) top.length = 0;
  return { paths: top.map((i) => nodes[i]), scores: top.map((i) => scores[i]) };
}

/**
 * Fuse the arms, order, and pick the hits. Returns { fused (path -> score), ranked ({ path, score },
 * best first), window (how many of ranked MMR saw), order (MMR's order of the window), duplicates
 * (path -> the earlier hit it duplicates), picked ({ path, score }, the hits) }.
 */
export function fold(io, s, arms, lap = () => {}) {
  const w = s.weights;
  let fused;
  if (s.preset === "memhtml") {
    fused = arms.fused3 ?? fuseArms([arms.lexical, arms.vector, arms.salience], [w.lexical, w.vector, w.salience], s.k);
    fused = fuseLateral(fused, arms.lateral.map((h) => h.path), w.lateral, s.k);
  } else if (s.fusion === "score") {
    fused = fuseScores([arms.lexical, arms.vector, arms.salience, arms.lateral], [w.lexical, w.vector, w.salience, w.lateral]);
  } else {
    fused = fuseArms([arms.lexical, arms.vector, arms.salience, arms.lateral], [w.lexical, w.vector, w.salience, w.lateral], s.k);
  }
  const ranked = rankFused(fused);
  lap("fuse");
  const res = io.resident;
  let window, order, picked;
  const duplicates = new Map();
  if (s.preset === "memhtml") {
    window = ranked.length;
    if (mmrReorders(s.lambda, ranked.length) && s.limit * ranked.length > MAX_MMR_PAIRS)
      throw rangeError("search", "query.limit", `x candidates (${s.limit} x ${ranked.length}) is more than ${MAX_MMR_PAIRS} MMR comparisons ` +
        `for preset "memhtml"; lower query.limit or query.depth, set query.lambda to 1, or use the default composition (its MMR window is bounded)`);
    picked = order = res.mmr(ranked, s.limit, s.lambda);
  } else {
    window = Math.min(ranked.length, Math.max(Math.min(s.limit, MAX_WINDOW), s.window));
    const best = window ? ranked[0].score : 0;
    const cands = ranked.slice(0, window).map((r) => ({ path: r.path, score: best > 0 ? r.score / best : 0 }));
    // With duplicates to skip MMR orders the whole window (its first `limit` are the same either way).
    const mmr = res.mmr(cands, s.duplicate === null ? s.limit : window, s.lambda);
    order = mmr.map((c) => c.path);
    picked = [];
    const kept = [];
    for (const path of order) {
      if (picked.length === s.limit) break;
      if (s.duplicate !== null) {
        const v = res.vecs.get(path);
        const dup = v && kept.find((u) => cosine(v, u.v) > s.duplicate);
        if (dup) {
          duplicates.set(path, dup.path);
          continue;
        }
        if (v) kept.push({ path, v });
      }
      picked.push(path);
    }
    for (let i = window; picked.length < s.limit && i < ranked.length; i++) picked.push(ranked[i].path); // a limit past MAX_WINDOW
    picked = picked.map((path) => ({ path, score: fused.get(path) }));
  }
  lap("mmr");
  return { fused, ranked, window, order: order.map((c) => (typeof c === "string" ? c : c.path)), duplicates, picked };
}

/** Each path's weighted sum of its arms' scores, arms added in order (an arm of weight 0 adds nothing). */
export function fuseScores(arms, weights) {
  const fused = new Map();
  arms.forEach((hits, a) => {
    const w = weights[a];
    if (!(w > 0)) return;
    for (const h of hits) fused.set(h.path, (fused.get(h.path) ?? 0) + w * h.score);
  });
  return fused;
}

/** Each hit with its arms' { rank, contribution } (null where an arm did not list it or has no weight). */
export function report(s, arms, picked) {
  const w = s.weights;
  const hitIn = Object.fromEntries(ARMS.map((a) => [a, new Map(arms[a].map((h) => [h.path, h]))]));
  return picked.map((c) => {
    const out = {};
    for (const a of ARMS) {
      const h = hitIn[a].get(c.path);
      out[a] = h === undefined || !(w[a] > 0) ? null
        : { rank: h.rank, contribution: s.fusion === "score" ? w[a] * h.score : rrfScore(h.rank, w[a], s.k) };
    }
    return { path: c.path, score: c.score, arms: out };
  });
}

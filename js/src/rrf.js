// rrf module: the reference reciprocal-rank fusion fold. fuseArms crosses as
// interned ids (one Map lookup per hit; no string bytes) and C folds them;
// rankFused crosses as scores (C orders them; ties inside an equal-score run
// are ordered here with JavaScript's own string order).
import { call, done, exportsOf, f64, internBegin, internId, internSlots, internStrings, keys, raiseRecord, region, slots, views } from "./core.js";
import { arg, elementBad, entryBad, item, typeError } from "./validate.js";
import { ARGS } from "./args.js";
import { AT_FUSE_IDS_ARM_LENS_N, AT_FUSE_IDS_ARM_LENS_N_ARMS, AT_FUSE_IDS_IDS_N, AT_FUSE_IDS_OUT_IDS_N, AT_FUSE_IDS_OUT_SCORES_N,
  AT_FUSE_IDS_WEIGHTS_N, AT_FUSED_KEY, AT_RANK_SCORES_ORDER_N, OK, OUT_FUSED_BLOCK, OUT_FUSED_LEN, RRF_K, SIZE_FUSE_IDS_N,
  SIZE_FUSE_IDS_N_ARMS, SIZE_RANK_SCORES_N } from "./constants.js";

/** Fuse per-arm ranked lists into one path -> score map by summing contributions. */
export function fuseArms(armResults, weights, k = RRF_K) {
  const fn = "fuseArms", a = ARGS.fuseArms;
  arg(a, 0, armResults);
  arg(a, 1, weights);
  if (typeof k !== "number") k = arg(a, 2, k);
  const nArms = armResults.length;
  let total = 0;
  for (let i = 0; i < nArms; i++) {
    const hits = armResults[i];
    total += (Array.isArray(hits) ? hits : elementBad(a, 0, [i], -1, hits)).length;
  }
  // The layout is wasm/boundary.def's region fuse_ids (ranks first).
  const base = region(fn, SIZE_FUSE_IDS_N * total + SIZE_FUSE_IDS_N_ARMS * nArms + 8);
  const oIds = base + AT_FUSE_IDS_IDS_N * total, oLens = base + AT_FUSE_IDS_ARM_LENS_N * total + AT_FUSE_IDS_ARM_LENS_N_ARMS * nArms;
  const oW = base + AT_FUSE_IDS_WEIGHTS_N * total, oOutIds = base + AT_FUSE_IDS_OUT_IDS_N * total, oOutS = base + AT_FUSE_IDS_OUT_SCORES_N * total;
  const ids = internBegin();
  let { u32, f64 } = views();
  const pi = oIds >>> 2, pr = base >>> 3, pl = oLens >>> 2, pw = oW >>> 3;
  let at = 0;
  for (let i = 0; i < nArms; i++) {
    const hits = armResults[i];
    const w = weights[i] ?? 0;
    f64[pw + i] = typeof w === "number" ? w : item(a, 1, i, w);
    u32[pl + i] = hits.length;
    for (let j = 0; j < hits.length; j++, at++) {
      const h = hits[j];
      // The table's element fields (path 0, rank 1), checked inline: a name is built only for an error.
      if (h === null || typeof h !== "object") elementBad(a, 0, [i, j], -1, h);
      const p = h.path, r = h.rank;
      if (typeof p !== "string") elementBad(a, 0, [i, j], 0, p);
      if (typeof r !== "number") elementBad(a, 0, [i, j], 1, r);
      u32[pi + at] = internId(ids, p);
      f64[pr + at] = r;
    }
  }
  if (at !== total) throw typeError(fn, "armResults", "arrays that keep their length while read", armResults);
  const slots = internSlots(fn); // may grow memory
  const count = exportsOf().mdw_fuse_ids(oIds, base, total, oLens, nArms, oW,
    weights.length, k, slots, internStrings().length, oOutIds, oOutS);
  if (count < 0) raiseRecord(fn, "mdw_fuse_ids");
  ({ u32, f64 } = views());
  const keys = internStrings(), out = new Map();
  const po = oOutIds >>> 2, ps = oOutS >>> 3;
  for (let i = 0; i < count; i++) out.set(keys[u32[po + i]], f64[ps + i]);
  done();
  return out;
}

// Reused between calls: the paths of the Map being ranked (cleared after use).
let rankPaths = [];

/** Fused scores as a ranked list, best first; ties break on path ascending. */
export function rankFused(fused) {
  const fn = "rankFused", a = ARGS.rankFused;
  arg(a, 0, fused);
  const n = fused.size;
  const base = region(fn, SIZE_RANK_SCORES_N * n + 8), oOrder = AT_RANK_SCORES_ORDER_N * n; // region rank_scores
  const { f64 } = views();
  const ps = base >>> 3;
  const paths = rankPaths.length >= n ? rankPaths : (rankPaths = new Array(n));
  let i = 0;
  for (const p of fused.keys()) {
    if (typeof p !== "string") entryBad(a, 0, p, p, true);
    if (i < n) paths[i] = p;
    i++;
  }
  i = 0;
  for (const s of fused.values()) {
    if (typeof s !== "number") entryBad(a, 0, paths[i], s, false);
    if (i < n) f64[ps + i] = s;
    i++;
  }
  const st = exportsOf().mdw_rank_scores(base, n, base + oOrder);
  if (st !== OK) raiseRecord(fn, "mdw_rank_scores");
  const h = views();
  const o = (base + oOrder) >>> 2, sc = h.f64, ord = h.u32;
  const out = new Array(n);
  for (let r = 0; r < n;) {
    // A run of equal scores (or of NaN scores) is ordered by path, as `<` orders strings.
    const j0 = ord[o + r], s0 = sc[ps + j0];
    let e = r + 1;
    while (e < n) {
      const s = sc[ps + ord[o + e]];
      if (!(s === s0 || (s !== s && s0 !== s0))) break;
      e++;
    }
    if (e - r === 1) {
      out[r] = { path: paths[j0], score: s0 };
    } else {
      const run = [];
      for (let t = r; t < e; t++) { const j = ord[o + t]; run.push({ path: paths[j], score: sc[ps + j] }); }
      run.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      for (let t = 0; t < run.length; t++) out[r + t] = run[t];
    }
    r = e;
  }
  paths.fill(undefined, 0, n);
  done();
  return out;
}

/** Fold a graph walk's best-first order into fused scores as one more arm. */
export function fuseLateral(fused, order, weight, k = RRF_K) {
  const fn = "fuseLateral", a = ARGS.fuseLateral;
  arg(a, 0, fused);
  const paths = [], scores = [];
  for (const [p, s] of fused) {
    paths.push(typeof p === "string" ? p : entryBad(a, 0, p, p, true));
    scores.push(typeof s === "number" ? s : entryBad(a, 0, p, s, false));
  }
  arg(a, 1, order);
  arg(a, 2, weight);
  k = arg(a, 3, k);
  const all = paths.slice();
  for (let i = 0; i < order.length; i++) { const p = order[i]; all.push(typeof p === "string" ? p : item(a, 1, i, p)); }
  // The result block: wasm/boundary.def's layout fused, [f64 scores][u32 key indices].
  return call(fn, "mdw_fuse_lateral", [keys(all), paths.length, f64(scores), order.length, weight, k, slots], (r) => {
      const block = r.block(OUT_FUSED_BLOCK), len = r.slot(OUT_FUSED_LEN);
      const { f64: h64, u32: h32 } = r.heap;
      const s0 = block >>> 3, i0 = (block + AT_FUSED_KEY * len) >>> 2;
      const m = new Map();
      for (let i = 0; i < len; i++) m.set(all[h32[i0 + i]], h64[s0 + i]);
      return m;
    });
}

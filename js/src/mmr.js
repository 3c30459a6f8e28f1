// mmr module: applyMmr (greedy maximal marginal relevance with a cached
// per-candidate max), and applyMmrPacked over a packed matrix.
import { call, put, f64, fill, out, slots, u32, u8 } from "./core.js";
import { arg, element, MAX_ELEMENTS, per, rangeError } from "./validate.js";
import { ARGS } from "./args.js";
import { mmrReorders } from "./api.js";
import { MMR_LAMBDA, OUT_APPLY_MMR_LEN, OUT_APPLY_MMR_PACKED_LEN } from "./constants.js";


/** Greedily reorder candidates by lambda * relevance - (1 - lambda) * maxSimilarityToSelected. */
export function applyMmr(candidates, limit, lambda = MMR_LAMBDA) {
  const fn = "applyMmr", a = ARGS.applyMmr;
  arg(a, 0, candidates);
  arg(a, 1, limit);
  lambda = arg(a, 2, lambda);
  const n = candidates.length, scores = new Array(n), vecs = new Array(n), has = new Array(n), lens = new Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const [score, v] = element(a, 0, i, candidates[i]);
    scores[i] = score;
    vecs[i] = v;
    has[i] = vecs[i] ? 1 : 0;
    total += lens[i] = vecs[i] ? vecs[i].length : 0;
  }
  if (total > MAX_ELEMENTS) throw rangeError(fn, "candidates", "hold more vector elements than memdomain accepts");
  if (limit <= 0) return [];
  if (!mmrReorders(lambda, n)) return candidates.slice(0, limit); // the rule is C's (md_mmr_reorders)
  const data = fill.f64(total), po = out.u32(n);
  return call(fn, "mdw_apply_mmr", [f64(scores), u8(has), u32(lens), data, n, limit, lambda, po, slots], (r) => {
    const idx = r.view(po), len = r.slot(OUT_APPLY_MMR_LEN), out = new Array(len);
    for (let i = 0; i < len; i++) out[i] = candidates[idx[i]];
    return out;
  }, (r) => {
    const d = r.view(data);
    for (let i = 0, at = 0; i < n; i++) {
      const v = vecs[i];
      if (v) {
        put(d, at, v, v.length);
        at += v.length;
      }
    }
  });
}

/**
 * applyMmr over a packed matrix: candidate i has relevance scores[i] and
 * vector row i of `matrix` (a Float64Array, or a Float32Array widened
 * exactly; n = scores.length rows of d). Returns the chosen row indices in
 * order, bit-identical to applyMmr over the same candidates.
 */
export function applyMmrPacked(scores, matrix, limit, lambda = MMR_LAMBDA) {
  const fn = "applyMmrPacked", a = ARGS.applyMmrPacked;
  const s = arg(a, 0, scores);
  arg(a, 1, matrix);
  arg(a, 2, limit);
  lambda = arg(a, 3, lambda);
  const n = s.length, d = per(fn, matrix, n, "scores.length"), po = out.u32(n);
  return call(fn, "md_apply_mmr_packed", [f64(s), f64(matrix), n, d, limit, lambda, po, slots],
    (r) => r.view(po).slice(0, r.slot(OUT_APPLY_MMR_PACKED_LEN)));
}

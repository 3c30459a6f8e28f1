// mmr module: applyMmr (greedy maximal marginal relevance with a cached
// per-candidate max), and applyMmrPacked over a packed matrix.
import { arr, exportsOf, num, numOr, obj, rangeError, typeError, vector, views, withFrame } from "./core.js";
import { MMR_LAMBDA } from "./constants.js";

const MAX_ELEMENTS = 0x0fffffff;

/** Greedily reorder candidates by lambda * relevance - (1 - lambda) * maxSimilarityToSelected. */
export function applyMmr(candidates, limit, lambda = MMR_LAMBDA) {
  const fn = "applyMmr";
  arr(fn, "candidates", candidates);
  num(fn, "limit", limit);
  lambda = numOr(fn, "lambda", lambda, MMR_LAMBDA);
  const n = candidates.length, scores = new Array(n), vecs = new Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const c = obj(fn, `candidates[${i}]`, candidates[i]);
    scores[i] = num(fn, `candidates[${i}].score`, c.score);
    const v = c.vector;
    vecs[i] = v === undefined || v === null ? undefined : vector(fn, `candidates[${i}].vector`, v);
    if (vecs[i]) total += vecs[i].length;
  }
  if (total > MAX_ELEMENTS) throw rangeError(fn, "candidates", "hold more vector elements than memdomain accepts");
  if (limit <= 0) return [];
  if (lambda >= 1 || n <= 1) return candidates.slice(0, limit);
  return withFrame(fn, (f) => {
    const ps = f.f64(n), ph = f.u8(n), pl = f.u32(n), pd = f.f64(total), po = f.u32(n);
    f.alloc();
    f.writeF64(ps, scores);
    const { u8, u32, f64 } = views();
    const h0 = f.at(ph), l0 = f.at(pl) >>> 2;
    let at = f.at(pd) >>> 3;
    for (let i = 0; i < n; i++) {
      const v = vecs[i];
      u8[h0 + i] = v ? 1 : 0;
      u32[l0 + i] = v ? v.length : 0;
      if (v) {
        if (ArrayBuffer.isView(v) || Array.isArray(v)) f64.set(v, at);
        else for (let k = 0; k < v.length; k++) f64[at + k] = v[k];
        at += v.length;
      }
    }
    f.check(exportsOf().mdw_apply_mmr(f.at(ps), f.at(ph), f.at(pl), f.at(pd), n, limit, lambda, f.at(po), f.out()));
    const len = f.outU32(0);
    const o0 = f.at(po) >>> 2;
    const idx = views().u32;
    const out = new Array(len);
    for (let i = 0; i < len; i++) out[i] = candidates[idx[o0 + i]];
    return out;
  });
}

/**
 * applyMmr over a packed matrix: candidate i has relevance scores[i] and
 * vector row i of `matrix` (a Float64Array, or a Float32Array widened
 * exactly; n = scores.length rows of d). Returns the chosen row indices in
 * order, bit-identical to applyMmr over the same candidates.
 */
export function applyMmrPacked(scores, matrix, limit, lambda = MMR_LAMBDA) {
  const fn = "applyMmrPacked";
  const s = vector(fn, "scores", scores);
  if (!(matrix instanceof Float64Array) && !(matrix instanceof Float32Array))
    throw typeError(fn, "matrix", "a Float64Array or a Float32Array", matrix);
  num(fn, "limit", limit);
  lambda = numOr(fn, "lambda", lambda, MMR_LAMBDA);
  const n = s.length;
  const d = n === 0 ? 0 : matrix.length / n;
  if (n === 0 ? matrix.length !== 0 : !Number.isInteger(d))
    throw rangeError(fn, "matrix", `has ${matrix.length} elements, not n x d for n = scores.length = ${n}`);
  return withFrame(fn, (f) => {
    const ps = f.f64(n), pm = f.f64(matrix.length), po = f.u32(n);
    f.alloc();
    f.writeF64(ps, s);
    f.writeF64(pm, matrix);
    f.check(exportsOf().md_apply_mmr_packed(f.at(ps), f.at(pm), n, d, limit, lambda, f.at(po), f.out()));
    return new Uint32Array(views().buffer, f.at(po), f.outU32(0)).slice();
  });
}

// cosine module: cosine, cosineDistance, compensatedSum. The vectors are
// copied into the exchange region and the similarity comes back as the
// call's f64 result: one crossing, no allocation.
import { exportsOf, put, region, views } from "./core.js";
import { arg, num, typeError } from "./validate.js";
import { ARGS } from "./args.js";
import { COSINE_JS_MAX, cosineSmall } from "./fastpaths.js";
import { AT_COSINE_B_NA, AT_COSINE_F32_B_NA, SIZE_COMPENSATED_SUM_N, SIZE_COSINE_F32_NA, SIZE_COSINE_F32_NB, SIZE_COSINE_NA,
  SIZE_COSINE_NB } from "./constants.js";

/** Copy a and b (n elements each) into the region and run the kernel. */
function similarity(fn, d, a, b) {
  // The usual Float32Array / Float64Array pair without a call (arg checks anything else).
  const va = a instanceof Float32Array || a instanceof Float64Array ? a : arg(d, 0, a);
  const vb = b instanceof Float32Array || b instanceof Float64Array ? b : arg(d, 1, b);
  const n = Math.min(va.length, vb.length); // the reference walks the shorter vector
  const ex = exportsOf();
  if (n <= COSINE_JS_MAX) return cosineSmall(va, vb, n);
  // Two Float32Arrays cross as floats (md_cosine_f32), anything else as doubles: regions cosine_f32 and cosine.
  const single = va instanceof Float32Array && vb instanceof Float32Array, s = single ? 2 : 3;
  const p = region(fn, (single ? SIZE_COSINE_F32_NA + SIZE_COSINE_F32_NB : SIZE_COSINE_NA + SIZE_COSINE_NB) * n + 8);
  const q = p + (single ? AT_COSINE_F32_B_NA : AT_COSINE_B_NA) * n, view = views()[single ? "f32" : "f64"];
  put(view, p >>> s, va, n);
  put(view, q >>> s, vb, n);
  return single ? ex.mdw_cosine_f32(p, n, q, n) : ex.mdw_cosine(p, n, q, n);
}

/** Cosine similarity, total and clamped to [-1, 1]. */
export function cosine(a, b) {
  return similarity("cosine", ARGS.cosine, a, b);
}

/** Cosine distance, 1 - similarity, in [0, 2]. */
export function cosineDistance(a, b) {
  return 1 - similarity("cosineDistance", ARGS.cosineDistance, a, b);
}

/** Neumaier compensated summation of an iterable of numbers, in order. */
export function compensatedSum(values) {
  const fn = "compensatedSum";
  if (values === null || typeof values !== "object" || typeof values[Symbol.iterator] !== "function")
    throw typeError(fn, "values", "an iterable of numbers", values);
  if (ArrayBuffer.isView(values)) {
    // Iterating a typed array over a detached buffer throws in the reference too.
    let ok = !(values instanceof BigInt64Array || values instanceof BigUint64Array);
    try { values[Symbol.iterator](); } catch { ok = false; }
    if (!ok) throw typeError(fn, "values", "an iterable of numbers (not BigInts, not over a detached buffer)", values);
  }
  const list = ArrayBuffer.isView(values) ? values : Array.from(values, (v, i) => num(fn, `values[${i}]`, v));
  const p = region(fn, SIZE_COMPENSATED_SUM_N * list.length + 8);
  put(views().f64, p >>> 3, list, list.length);
  return exportsOf().mdw_compensated_sum(p, list.length);
}

// cosine module: cosine, cosineDistance, compensatedSum.
import { exportsOf, num, typeError, vector, views, withFrame } from "./core.js";

function similarity(fn, a, b, distance) {
  const va = vector(fn, "a", a);
  const vb = vector(fn, "b", b);
  const n = Math.min(va.length, vb.length); // the reference walks the shorter vector
  return withFrame(fn, (f) => {
    const pa = f.f64(n), pb = f.f64(n), po = f.f64(1);
    f.alloc();
    f.writeF64(pa, va, n);
    f.writeF64(pb, vb, n);
    const ex = exportsOf();
    f.check((distance ? ex.md_cosine_distance : ex.md_cosine)(f.at(pa), n, f.at(pb), n, f.at(po)));
    return views().f64[f.at(po) >>> 3];
  });
}

/** Cosine similarity, total and clamped to [-1, 1]. */
export function cosine(a, b) {
  return similarity("cosine", a, b, false);
}

/** Cosine distance, 1 - similarity, in [0, 2]. */
export function cosineDistance(a, b) {
  return similarity("cosineDistance", a, b, true);
}

/** Neumaier compensated summation of an iterable of numbers, in order. */
export function compensatedSum(values) {
  const fn = "compensatedSum";
  if (values === null || typeof values !== "object" || typeof values[Symbol.iterator] !== "function")
    throw typeError(fn, "values", "an iterable of numbers", values);
  if (ArrayBuffer.isView(values)) {
    // Iterating a typed array over a detached buffer throws in the reference too.
    try { values[Symbol.iterator](); } catch { throw typeError(fn, "values", "an iterable of numbers (not over a detached buffer)", values); }
    if (values instanceof BigInt64Array || values instanceof BigUint64Array) throw typeError(fn, "values", "an iterable of numbers", values);
  }
  const list = ArrayBuffer.isView(values) ? values : Array.from(values, (v, i) => num(fn, `values[${i}]`, v));
  return withFrame(fn, (f) => {
    const pv = f.f64(list.length), po = f.f64(1);
    f.alloc();
    f.writeF64(pv, list);
    f.check(exportsOf().md_compensated_sum(f.at(pv), list.length, f.at(po)));
    return views().f64[f.at(po) >>> 3];
  });
}

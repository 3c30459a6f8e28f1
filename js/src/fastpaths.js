// The JavaScript fast paths (docs/ARCHITECTURE.md, "Fast paths"): the few
// calls so small that one crossing into wasm costs more than the arithmetic.
// Each is the C code's arithmetic in the same order, one IEEE operation for
// one, so its bits are the wasm path's; tests/js/fastpaths.test.js holds
// each one bit-identical to the wasm export it stands in for, on random and
// edge-case inputs. Bigger inputs always take the wasm path.
import { RRF_K, SCALE } from "./constants.js";

/** Vectors this short are compared in JavaScript (the wasm call and copy cost more). */
export const COSINE_JS_MAX = 24;

/** md_cosine / md_cosine_f32 over a[0..n), b[0..n): sequential sums, zero norm -> 0, NaN -> 0, clamp. */
export function cosineSmall(a, b, n) {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i], y = b[i];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  const s = dot / (Math.sqrt(na) * Math.sqrt(nb));
  if (s !== s) return 0;
  return Math.max(-1, Math.min(1, s));
}

/** md_rrf_contribution: undefined for None, else weight / (rank + RRF_K). */
export function rrfContributionValue(rank, weight) {
  if (!(rank - rank === 0) || rank < 1 || weight <= 0) return undefined; // rank - rank is 0 only for finite rank
  return weight / (rank + RRF_K);
}

/** Folds this short run in JavaScript; longer (or NaN) counts take md_decay_confidence_n. */
export const DECAY_JS_MAX = 64;

/** md_decay_confidence_n for 0 <= cycles <= DECAY_JS_MAX: toFp, the fold of decayConfidenceFp, fromFp. */
export function decayConfidenceNSmall(confidence, cycles, alpha, floor) {
  const a = Math.round(alpha * SCALE), f = Math.round(floor * SCALE);
  let v = Math.round(confidence * SCALE);
  for (let i = 0; i < cycles; i++) v = Math.min(v, Math.floor((a * f + (SCALE - a) * v) / SCALE));
  return v / SCALE;
}

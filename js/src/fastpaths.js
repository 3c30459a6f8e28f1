// The JavaScript fast path for cosine (docs/ARCHITECTURE.md, "Fast paths";
// rrfContribution and decayConfidenceN's short folds are written in place in
// ranking.js and decay.js): calls so small that one crossing into wasm costs
// more than the arithmetic.
// Each is the C code's arithmetic in the same order, one IEEE operation for
// one, so its bits are the wasm path's; tests/js/fastpaths.test.js holds
// each one bit-identical to the wasm export it stands in for, on random and
// edge-case inputs. Bigger inputs always take the wasm path.

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

/** decayConfidenceN folds this many cycles in JavaScript (js/src/decay.js); longer (or NaN) counts take md_decay_confidence_n. */
export const DECAY_JS_MAX = 64;

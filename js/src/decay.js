// decay module: the fixed-point grid, the outcome EWMA and confidence decay.
// Scalar calls pass numbers and get their f64 back; a fold C refuses to run
// returns NaN with the error record filled (the only time it is read).
import { exportsOf, raiseRecord, region, views } from "./core.js";
import { arg, items } from "./validate.js";
import { ARGS } from "./args.js";
import { DECAY_JS_MAX } from "./fastpaths.js";
import { CONFIDENCE_COMMIT_DELTA, DEFAULT_CONFIDENCE_DECAY_ALPHA, DEFAULT_CONFIDENCE_FLOOR,
  DEFAULT_EWMA_ALPHA, NEG_ONE_FP, POS_ONE_FP, SCALE, SIZE_APPLY_OUTCOMES_FP_N } from "./constants.js";

export { CONFIDENCE_COMMIT_DELTA, DEFAULT_CONFIDENCE_DECAY_ALPHA, DEFAULT_CONFIDENCE_FLOOR, DEFAULT_EWMA_ALPHA,
  NEG_ONE_FP, POS_ONE_FP, SCALE };

/** Fold signals through ewmaStepFp, one rounding per step. */
export function applyOutcomesFp(alphaFp, prevFp, signalsFp) {
  const fn = "applyOutcomesFp", d = ARGS.applyOutcomesFp;
  arg(d, 0, alphaFp);
  arg(d, 1, prevFp);
  const n = items(d, 2, signalsFp).length;
  const p = region(fn, SIZE_APPLY_OUTCOMES_FP_N * n + 8);
  if (n) views().f64.set(signalsFp, p >>> 3);
  return exportsOf().mdw_apply_outcomes_fp(alphaFp, prevFp, p, n);
}

/** The result of a fold, or the error C recorded (its argument named). */
function fold(fn, r, name, values) {
  if (r === r) return r;
  raiseRecord(fn, name, values);
  return r; // a NaN the fold computed
}

// SCALE and the default alpha and floor (DEFAULT_CONFIDENCE_DECAY_ALPHA, DEFAULT_CONFIDENCE_FLOOR) as
// literals for the short fold: V8 folds a literal constant, not an imported binding (about 15% of the
// call); tests/js/fastpaths.test.js holds each to C's.
const GRID = 10000;
/** decayConfidence folded over `cycles` unreinforced sleep cycles. */
export function decayConfidenceN(confidence, cycles, alpha = 0.1, floor = 0.2) {
  const fn = "decayConfidenceN";
  if (typeof confidence !== "number" || typeof cycles !== "number" || typeof alpha !== "number" || typeof floor !== "number") {
    const d = ARGS.decayConfidenceN; // undefined took the default above
    arg(d, 0, confidence);
    arg(d, 1, cycles);
    arg(d, 2, alpha);
    arg(d, 3, floor);
  }
  const ex = exportsOf();
  const a = Math.round(alpha * GRID), f = Math.round(floor * GRID);
  let v = Math.round(confidence * GRID);
  if (cycles <= DECAY_JS_MAX && v >= 1 && v <= GRID && a >= 0 && a <= GRID && f >= 0 && f <= GRID) {
    // A short fold is cheaper than the crossing (docs/ARCHITECTURE.md, "Fast paths"). toFp, then the
    // steps of decayConfidenceFp, then fromFp, for the usual call, everything in [0, 1] on the grid:
    // a * f + (GRID - a) * v is then an integer below 2^31, so the reference's floor of its double
    // quotient (a fraction of 1/GRID from an integer, far above the rounding error) is the integer
    // quotient, and v never reaches -0 (tests/js/fastpaths.test.js holds the bits to
    // md_decay_confidence_n). Any other call crosses.
    const p = (a * f) | 0, q = (GRID - a) | 0;
    v |= 0;
    for (let i = 0; i < cycles; i++) {
      const x = ((p + Math.imul(q, v)) / GRID) | 0;
      if (x < v) v = x;
      else break; // a fixed point: every later step is this one
    }
    return v / GRID;
  }
  const r = ex.mdw_decay_confidence_n(confidence, cycles, alpha, floor);
  return r === r ? r : fold(fn, r, "mdw_decay_confidence_n", [confidence, cycles, alpha, floor]);
}


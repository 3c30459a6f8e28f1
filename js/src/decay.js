// decay module: the fixed-point grid, the outcome EWMA and confidence decay.
import { arr, exportsOf, num, numOr, raise, rangeError, scratch, scratchF64, views, withFrame } from "./core.js";

export const SCALE = 10000;
export const POS_ONE_FP = SCALE;
export const NEG_ONE_FP = -SCALE;
export const DEFAULT_EWMA_ALPHA = 0.3;
export const DEFAULT_CONFIDENCE_FLOOR = 0.2;
export const DEFAULT_CONFIDENCE_DECAY_ALPHA = 0.1;
export const CONFIDENCE_COMMIT_DELTA = 0.005;

/** A float in [-1, 1] onto the grid, rounded to the nearest grid point. */
export function toFp(value) {
  return exportsOf().md_to_fp(num("toFp", "value", value));
}

/** A grid value back to a float. Exact. */
export function fromFp(valueFp) {
  return exportsOf().md_from_fp(num("fromFp", "valueFp", valueFp));
}

/** One EWMA step on the grid with floor division. */
export function ewmaStepFp(alphaFp, prevFp, signalFp) {
  const fn = "ewmaStepFp";
  return exportsOf().md_ewma_step_fp(num(fn, "alphaFp", alphaFp), num(fn, "prevFp", prevFp), num(fn, "signalFp", signalFp));
}

/** Fold signals through ewmaStepFp, one rounding per step. */
export function applyOutcomesFp(alphaFp, prevFp, signalsFp) {
  const fn = "applyOutcomesFp";
  num(fn, "alphaFp", alphaFp);
  num(fn, "prevFp", prevFp);
  arr(fn, "signalsFp", signalsFp);
  const n = signalsFp.length;
  for (let i = 0; i < n; i++) num(fn, `signalsFp[${i}]`, signalsFp[i]);
  return withFrame(fn, (f) => {
    const ps = f.f64(n), po = f.f64(1);
    f.alloc();
    f.writeF64(ps, signalsFp);
    f.check(exportsOf().md_apply_outcomes_fp(alphaFp, prevFp, f.at(ps), n, f.at(po)));
    return views().f64[f.at(po) >>> 3];
  });
}


/** Decay a score toward -1.0 over `hits` negative corrections; hits <= 0 is a no-op. */
export function applyNegativeHitsFp(alphaFp, prevFp, hits) {
  const fn = "applyNegativeHitsFp";
  const st = exportsOf().md_apply_negative_hits_fp(num(fn, "alphaFp", alphaFp), num(fn, "prevFp", prevFp),
    num(fn, "hits", hits), scratch());
  if (st === 3) throw rangeError(fn, "hits", `(${hits}) is not a valid array length`);
  if (st !== 0) raise(st, fn);
  return scratchF64();
}

/** One confidence-decay step on the grid: EWMA toward the floor, then a min with the previous value. */
export function decayConfidenceFp(alphaFp, confFp, floorFp) {
  const fn = "decayConfidenceFp";
  return exportsOf().md_decay_confidence_fp(num(fn, "alphaFp", alphaFp), num(fn, "confFp", confFp), num(fn, "floorFp", floorFp));
}

function cyclesError(fn, cycles) {
  return rangeError(fn, "cycles", `(${cycles}) never ends (infinite, or beyond 2^53), and the value does not settle within 2^26 steps: the reference never returns`);
}

/** Fold `cycles` decay steps; cycles <= 0 is a no-op. */
export function decayConfidenceNFp(alphaFp, confFp, floorFp, cycles) {
  const fn = "decayConfidenceNFp";
  const st = exportsOf().md_decay_confidence_n_fp(num(fn, "alphaFp", alphaFp), num(fn, "confFp", confFp),
    num(fn, "floorFp", floorFp), num(fn, "cycles", cycles), scratch());
  if (st === 3) throw cyclesError(fn, cycles);
  if (st !== 0) raise(st, fn);
  return scratchF64();
}

/** One confidence-decay step in [0, 1] float space. */
export function decayConfidence(confidence, alpha = DEFAULT_CONFIDENCE_DECAY_ALPHA, floor = DEFAULT_CONFIDENCE_FLOOR) {
  const fn = "decayConfidence";
  return exportsOf().md_decay_confidence(num(fn, "confidence", confidence),
    numOr(fn, "alpha", alpha, DEFAULT_CONFIDENCE_DECAY_ALPHA), numOr(fn, "floor", floor, DEFAULT_CONFIDENCE_FLOOR));
}

/** decayConfidence folded over `cycles` unreinforced sleep cycles. */
export function decayConfidenceN(confidence, cycles, alpha = DEFAULT_CONFIDENCE_DECAY_ALPHA, floor = DEFAULT_CONFIDENCE_FLOOR) {
  const fn = "decayConfidenceN";
  const st = exportsOf().md_decay_confidence_n(num(fn, "confidence", confidence), num(fn, "cycles", cycles),
    numOr(fn, "alpha", alpha, DEFAULT_CONFIDENCE_DECAY_ALPHA), numOr(fn, "floor", floor, DEFAULT_CONFIDENCE_FLOOR), scratch());
  if (st === 3) throw cyclesError(fn, cycles);
  if (st !== 0) raise(st, fn);
  return scratchF64();
}

/** True when a decayed confidence differs enough from the stored one to be worth a commit. */
export function isCommittableConfidenceChange(before, after) {
  const fn = "isCommittableConfidenceChange";
  return exportsOf().md_is_committable_confidence_change(num(fn, "before", before), num(fn, "after", after)) !== 0;
}

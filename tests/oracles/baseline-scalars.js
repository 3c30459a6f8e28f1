// Plain-JavaScript rrfContribution and decayConfidenceN written the way the
// reference is (the project's facts sheet, sections 4 and 5): the baselines of the
// per-call rows in bench/boundary.mjs. Not part of the package.
import * as Option from "effect/Option";

export function rrfContribution(rank, weight) {
  if (!Number.isFinite(rank) || rank < 1 || weight <= 0) return Option.none();
  return Option.some(weight / (rank + 60));
}

const SCALE = 10000;
const toFp = (v) => Math.round(v * SCALE);
const fromFp = (v) => v / SCALE;
const ewmaStepFp = (a, prev, sig) => Math.floor((a * sig + (SCALE - a) * prev) / SCALE);
const decayConfidenceFp = (a, c, f) => Math.min(c, ewmaStepFp(a, c, f));
function decayConfidenceNFp(a, c, f, cycles) {
  let v = c;
  for (let i = 0; i < cycles; i++) v = decayConfidenceFp(a, v, f);
  return v;
}
export function decayConfidenceN(confidence, cycles, alpha = 0.1, floor = 0.2) {
  return fromFp(decayConfidenceNFp(toFp(alpha), toFp(confidence), toFp(floor), cycles));
}

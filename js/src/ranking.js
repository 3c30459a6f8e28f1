// ranking module: production constants and rrfContribution.
import * as Option from "effect/Option";
import { exportsOf } from "./core.js";
import { arg } from "./validate.js";
import { ARGS } from "./args.js";
import { MMR_LAMBDA, REINFORCE_COOLDOWN_S, RRF_K } from "./constants.js";

export { MMR_LAMBDA, REINFORCE_COOLDOWN_S, RRF_K };

const none = Option.none(), some = Option.some;
const K = 60; // RRF_K as a literal (V8 folds it; an imported binding it loads): fastpaths.test holds the bits to C's

/** One arm's contribution to a fused score: None for a disabled arm or an out-of-range rank. */
export function rrfContribution(rank, weight) {
  if (typeof rank !== "number" || typeof weight !== "number") {
    arg(ARGS.rrfContribution, 0, rank);
    arg(ARGS.rrfContribution, 1, weight);
  }
  exportsOf(); // the same "call init() first" as every export
  // One comparison chain and one division, written here (docs/ARCHITECTURE.md, "Fast paths"): md_rrf_contribution's
  // operations in its order (rank - rank is 0 only for a finite rank); tests/js/fastpaths.test.js holds the bits.
  return !(rank - rank === 0) || rank < 1 || weight <= 0 ? none : some(weight / (rank + K));
}

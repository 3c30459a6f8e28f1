// ranking module: production constants and rrfContribution.
import * as Option from "effect/Option";
import { exportsOf, num } from "./core.js";
import { rrfContributionValue } from "./fastpaths.js";
import { MMR_LAMBDA, REINFORCE_COOLDOWN_S, RRF_K } from "./constants.js";

export { MMR_LAMBDA, REINFORCE_COOLDOWN_S, RRF_K };

/** One arm's contribution to a fused score: None for a disabled arm or an out-of-range rank. */
export function rrfContribution(rank, weight) {
  if (typeof rank !== "number") num("rrfContribution", "rank", rank);
  if (typeof weight !== "number") num("rrfContribution", "weight", weight);
  exportsOf(); // the same "call init() first" as every export
  // One comparison chain and one division: computed here (js/src/fastpaths.js), bit-identical to md_rrf_contribution.
  const v = rrfContributionValue(rank, weight);
  return v === undefined ? Option.none() : Option.some(v);
}

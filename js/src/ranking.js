// ranking module: production constants and rrfContribution.
import * as Option from "effect/Option";
import { exportsOf, num, scratch, scratchF64 } from "./core.js";
import { MMR_LAMBDA, REINFORCE_COOLDOWN_S, RRF_K } from "./constants.js";

export { MMR_LAMBDA, REINFORCE_COOLDOWN_S, RRF_K };

/** One arm's contribution to a fused score: None for a disabled arm or an out-of-range rank. */
export function rrfContribution(rank, weight) {
  if (typeof rank !== "number") num("rrfContribution", "rank", rank);
  if (typeof weight !== "number") num("rrfContribution", "weight", weight);
  const at = scratch();
  return exportsOf().md_rrf_contribution(rank, weight, at) ? Option.some(scratchF64()) : Option.none();
}

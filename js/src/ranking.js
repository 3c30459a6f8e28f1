// ranking module: production constants and rrfContribution.
import { Option } from "effect";
import { exportsOf, num, scratch, scratchF64 } from "./core.js";

export const RRF_K = 60;
export const MMR_LAMBDA = 0.5;
export const REINFORCE_COOLDOWN_S = 900;

/** One arm's contribution to a fused score: None for a disabled arm or an out-of-range rank. */
export function rrfContribution(rank, weight) {
  num("rrfContribution", "rank", rank);
  num("rrfContribution", "weight", weight);
  const ok = exportsOf().md_rrf_contribution(rank, weight, scratch());
  return ok ? Option.some(scratchF64()) : Option.none();
}

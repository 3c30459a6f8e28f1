import type { Option } from "effect";

export const RRF_K: 60;
export const MMR_LAMBDA: 0.5;
export const REINFORCE_COOLDOWN_S: 900;
/** weight / (rank + RRF_K), or None for a non-finite rank, rank < 1, or weight <= 0. */
export function rrfContribution(rank: number, weight: number): Option.Option<number>;

/** One arm's hit: rank is 1-based within that arm's own list. */
export interface ArmHit {
  readonly path: string;
  readonly rank: number;
}
/** Sum per-arm contributions into a path -> score map (first-insertion order). */
export function fuseArms(
  armResults: readonly (readonly ArmHit[])[],
  weights: readonly number[],
  k?: number,
): ReadonlyMap<string, number>;
/** Best first; ties on path ascending (UTF-16 order); NaN scores last. */
export function rankFused(fused: ReadonlyMap<string, number>): readonly { path: string; score: number }[];
/** Fold a graph walk's best-first order in as one more arm; inert for weight <= 0 or an empty order. */
export function fuseLateral(
  fused: ReadonlyMap<string, number>,
  order: readonly string[],
  weight: number,
  k?: number,
): ReadonlyMap<string, number>;

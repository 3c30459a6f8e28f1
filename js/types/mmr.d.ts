// mmr module: maximal marginal relevance.

/**
 * A candidate for diversification. score is its fused relevance (unitless,
 * higher is better); vector is its embedding, or undefined when the chunk has
 * no vector yet.
 */
export interface MmrCandidate {
  readonly path: string;
  readonly score: number;
  readonly vector?: readonly number[] | Float32Array | Float64Array;
}

/**
 * Greedily reorder candidates by lambda * relevance - (1 - lambda) *
 * maxSimilarityToSelected. Returns the chosen candidate objects themselves.
 */
export function applyMmr<C extends MmrCandidate>(candidates: readonly C[], limit: number, lambda?: number): readonly C[];

/**
 * Beyond the reference: applyMmr over a packed matrix (candidate i has
 * relevance scores[i] and vector row i; d = matrix.length / scores.length).
 * Returns the chosen row indices in order, bit-identical to applyMmr.
 */
export function applyMmrPacked(
  scores: ArrayLike<number>,
  matrix: Float64Array | Float32Array,
  limit: number,
  lambda?: number,
): Uint32Array;

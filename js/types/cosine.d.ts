/** Cosine similarity, total and clamped to [-1, 1]; a zero, NaN or infinite input reads 0. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number;
/** Cosine distance, 1 - similarity, in [0, 2]. */
export function cosineDistance(a: ArrayLike<number>, b: ArrayLike<number>): number;
/** Neumaier compensated summation, in iteration order. */
export function compensatedSum(values: Iterable<number>): number;

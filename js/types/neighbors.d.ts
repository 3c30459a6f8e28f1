// neighbors module: the n-by-n arm of the similarity space, plus batch forms.

/**
 * One decoded vector under the key the ranking reports. `vec` is a
 * Float32Array (the fast path) or any array-like of numbers, e.g. a
 * `number[]` parsed from JSON: doubles take exact double kernels, so every
 * sim equals `cosine` of the same two arrays.
 */
export interface KeyedVector {
  readonly key: string;
  readonly vec: Float32Array | ArrayLike<number>;
}

/** One selected pair. sim is cosine similarity, unitless in [-1, 1]. */
export interface NeighborPair {
  readonly src: string;
  readonly dst: string;
  readonly sim: number;
}

/** The selection knobs every pair consumer states. */
export interface NeighborOptions {
  /** Pairs below this similarity never enter ranking. */
  readonly floor: number;
  /** Global cap, applied after the final sim DESC, src ASC, dst ASC ordering. */
  readonly limit: number;
  /** Nearest neighbors kept per src, ordered sim DESC then dst ASC. */
  readonly perSourceK: number;
}

/** One enumerated candidate pair, oriented by the caller. Pairs must be distinct. */
export interface CandidatePair {
  readonly src: string;
  readonly dst: string;
}

/** A Float32Array over stored bytes, copying only when it must. */
export function float32View(bytes: Uint8Array): Float32Array | undefined;

/** Per-source top-k nearest neighbors above a similarity floor, over every unordered pair. */
export function topNeighborPairs(vectors: readonly KeyedVector[], options: NeighborOptions): readonly NeighborPair[];

/** Rank an ENUMERATED pair set: similarity, floor, per-source top-k, final ordering, cap. */
export function rankCandidatePairs(
  pairs: readonly CandidatePair[],
  vectors: readonly KeyedVector[],
  options: NeighborOptions,
): readonly NeighborPair[];

// ---- beyond the reference: batch entry points (one wasm call each) ----

/**
 * topNeighborPairs over a packed matrix: row i (matrix[i*d .. (i+1)*d), with
 * d = matrix.length / keys.length) is keys[i]'s vector; or over a list of n
 * rows of one length (matrix[i] is keys[i]'s vector, copied straight into
 * WebAssembly memory). Bit-identical to topNeighborPairs over the same rows.
 * RangeError for a duplicate key or a matrix that is not n x d.
 */
export function topNeighborPairsPacked(
  matrix: Float32Array | readonly Float32Array[],
  keys: readonly string[],
  options: NeighborOptions,
): readonly NeighborPair[];

/** One tile's kept pairs: parallel arrays of key indices and similarities. */
export interface NeighborTile {
  readonly sim: Float64Array;
  readonly src: Uint32Array;
  readonly dst: Uint32Array;
}

/**
 * One tile of the packed all-pairs pass: sources [rowBegin, rowEnd), all
 * j > i, each source's top perSourceK above the floor (no limit).
 */
export function neighborTile(
  matrix: Float32Array | readonly Float32Array[],
  keys: readonly string[],
  rowBegin: number,
  rowEnd: number,
  options: NeighborOptions,
): NeighborTile;

/** Merge the tiles of any partition of [0, n): equals topNeighborPairsPacked exactly. */
export function mergeNeighborTiles(
  keys: readonly string[],
  tiles: readonly NeighborTile[],
  options: NeighborOptions,
): readonly NeighborPair[];

/** The 1 x n arm: cosine(query, row i) for every row (rows of query.length floats). */
export function cosineRows(query: Float32Array, matrix: Float32Array): Float64Array;

/** The top-k form of the 1 x n arm: sim desc, then row index asc. */
export function topCosineRows(
  query: Float32Array,
  matrix: Float32Array,
  k: number,
): { readonly indices: Uint32Array; readonly sims: Float64Array };

/** A packed matrix resident in WebAssembly memory, for repeated 1 x n queries. */
export interface ResidentRows {
  readonly n: number;
  readonly d: number;
  /** cosineRows(query, matrix) without re-copying the matrix. */
  cosineRows(query: Float32Array): Float64Array;
  /** topCosineRows(query, matrix, k) without re-copying the matrix. */
  topCosineRows(query: Float32Array, k: number): { readonly indices: Uint32Array; readonly sims: Float64Array };
  /**
   * applyMmr over resident rows: candidate i is row `rows[i]` with relevance
   * `scores[i]`; returns the chosen candidate positions (indices into rows) in
   * order. Reads the rows in place with their stored norms; bit-identical to
   * applyMmrPacked (and applyMmr) over the same vectors. A row >= n is a RangeError.
   */
  applyMmr(rows: Uint32Array, scores: ArrayLike<number>, limit: number, lambda?: number): Uint32Array;
  /**
   * rankCandidatePairs over resident rows: `keys[i]` is row i's key (n of
   * them; a repeated key's last row is the one its pairs use); bit-identical to
   * rankCandidatePairs(pairs, keys.map((key, i) => ({ key, vec: row i })), options).
   */
  rankCandidatePairs(keys: readonly string[], pairs: readonly CandidatePair[], options: NeighborOptions): readonly NeighborPair[];
  /** Release the memory (idempotent). */
  free(): void;
}

/**
 * Copy n rows x d floats into WebAssembly memory once: a packed Float32Array of n x d, or an
 * array of n Float32Array rows of d elements each (written straight into WebAssembly memory,
 * with no packed copy in JavaScript).
 */
export function residentRows(matrix: Float32Array | readonly Float32Array[], d: number): ResidentRows;

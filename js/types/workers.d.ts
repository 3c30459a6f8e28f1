// workers.js (import "memdomain/workers"): the all-pairs pass over
// independent module instances, merged into the single-thread answer.
import type { NeighborOptions, NeighborPair } from "./neighbors.js";

/** What each worker passes to init(): the wasm bytes, a compiled WebAssembly.Module, or a URL. */
type WasmSource = ArrayBuffer | ArrayBufferView | string | { readonly href: string } | object;

/** Row boundaries splitting [0, n) into `tiles` ranges of about equal pair counts. */
export function tileBounds(n: number, tiles: number): number[];

/** A pool of module instances (worker_threads in Node, module Web Workers in browsers). */
export interface NeighborPool {
  readonly size: number;
  /**
   * The last pass: its tile count and, per worker, the milliseconds spent in
   * its tiles (setup included) and how many tiles it took.
   */
  readonly lastStats: { tiles: number; busyMs: number[]; tilesPerWorker: number[] };
  /**
   * topNeighborPairsPacked in `tiles` tiles (default 64 per worker): one
   * contiguous run of tiles per worker, the last tiles of the longest run left
   * going to a worker whose own run is done; merged here: the same answer.
   * Passes asked for at once run one after the other. `rows` (default
   * keys.length): only the pairs whose source is among the first `rows` rows
   * (each against every later row), the part of the pass an incremental
   * sleep needs.
   */
  topNeighborPairs(
    matrix: Float32Array,
    keys: readonly string[],
    options: NeighborOptions,
    opts?: { tiles?: number; rows?: number },
  ): Promise<readonly NeighborPair[]>;
  /**
   * Stop the workers (after the pass in progress). With more than one worker
   * and shared memory, the pool keeps one SharedArrayBuffer copy of the
   * largest matrix it has been given, reused by each pass, until then.
   */
  close(): Promise<void>;
}

/** Start `workers` instances; `wasm` is what each passes to init() (bytes, Module or URL). */
export function createNeighborPool(opts?: {
  workers?: number;
  wasm?: WasmSource;
}): Promise<NeighborPool>;

/** One-shot: a pool, the tiled pass (default 64 tiles per worker), then close. */
export function topNeighborPairsParallel(
  matrix: Float32Array,
  keys: readonly string[],
  options: NeighborOptions,
  opts?: { workers?: number; tiles?: number; wasm?: WasmSource },
): Promise<readonly NeighborPair[]>;

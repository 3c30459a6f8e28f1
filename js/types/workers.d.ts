// workers.js (import "memdomain/src/workers.js"): the all-pairs pass over
// independent module instances, merged into the single-thread answer.
import type { NeighborOptions, NeighborPair } from "./neighbors.js";

/** What each worker passes to init(): the wasm bytes, a compiled WebAssembly.Module, or a URL. */
type WasmSource = ArrayBuffer | ArrayBufferView | string | { readonly href: string } | object;

/** Row boundaries splitting [0, n) into `tiles` ranges of about equal pair counts. */
export function tileBounds(n: number, tiles: number): number[];

/** A pool of module instances (worker_threads in Node, module Web Workers in browsers). */
export interface NeighborPool {
  readonly size: number;
  /** topNeighborPairsPacked in `tiles` tiles over the pool, merged here: the same answer. */
  topNeighborPairs(
    matrix: Float32Array,
    keys: readonly string[],
    options: NeighborOptions,
    opts?: { tiles?: number },
  ): Promise<readonly NeighborPair[]>;
  close(): Promise<void>;
}

/** Start `workers` instances; `wasm` is what each passes to init() (bytes, Module or URL). */
export function createNeighborPool(opts?: {
  workers?: number;
  wasm?: WasmSource;
}): Promise<NeighborPool>;

/** One-shot: a pool, the tiled pass, then close. */
export function topNeighborPairsParallel(
  matrix: Float32Array,
  keys: readonly string[],
  options: NeighborOptions,
  opts?: { workers?: number; tiles?: number; wasm?: WasmSource },
): Promise<readonly NeighborPair[]>;

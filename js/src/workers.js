// Many workers, one answer (import "memdomain/src/workers.js"; kept out of the
// package entry so importing memdomain never starts a thread): the packed all-pairs pass split into row tiles,
// each computed by an independent module instance (a worker_threads Worker
// in Node, a module Web Worker in browsers; both run workers-tile.js, which
// imports this same glue), then merged on the calling thread. Per-source
// lists are ordered by (sim, dst key), a total order for unique keys, so the
// top perSourceK of the union of the tiles' top perSourceK is the top
// perSourceK of all pairs: the merge equals the single-thread pass exactly,
// for any tile count and any arrival order.
import { arr, isInitialized, num, obj, rangeError, str, typeError } from "./core.js";
import { mergeNeighborTiles } from "./neighbors.js";

const isNode = typeof process !== "undefined" && !!process.versions?.node && typeof Deno === "undefined";

/**
 * Row boundaries splitting [0, n) into `tiles` ranges with about the same
 * number of pairs (row i has n - 1 - i pairs j > i).
 */
export function tileBounds(n, tiles) {
  const fn = "tileBounds";
  num(fn, "n", n);
  num(fn, "tiles", tiles);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw rangeError(fn, "n", "must be an integer in [0, 2^32)");
  if (!Number.isInteger(tiles) || tiles < 1 || tiles > 65536) throw rangeError(fn, "tiles", "must be an integer in [1, 65536]");
  const t = Math.max(1, Math.min(tiles, n));
  const total = (n * (n - 1)) / 2;
  // Pairs in rows [0, r): the sum of n - 1 - i for i < r.
  const done = (r) => r * (n - 1) - (r * (r - 1)) / 2;
  const bounds = [0];
  let row = 0;
  for (let k = 1; k < t; k++) {
    const goal = (total * k) / t;
    // The last row r >= row with done(r) <= goal, by bisection (O(tiles log n), whatever n is).
    let lo = row, hi = n;
    while (lo < hi) {
      const mid = lo + Math.ceil((hi - lo) / 2);
      if (done(mid) <= goal) lo = mid;
      else hi = mid - 1;
    }
    row = lo;
    bounds.push(Math.max(row, bounds[bounds.length - 1]));
  }
  bounds.push(n);
  return bounds;
}

async function spawn(url) {
  if (isNode) {
    const { Worker } = await import("node:worker_threads");
    const w = new Worker(url);
    return {
      post: (m, transfer) => w.postMessage(m, transfer),
      on: (fn) => w.on("message", fn),
      onError: (fn) => w.on("error", fn),
      close: () => w.terminate(),
    };
  }
  const w = new Worker(url, { type: "module" });
  return {
    post: (m, transfer) => w.postMessage(m, transfer),
    on: (fn) => w.addEventListener("message", (e) => fn(e.data)),
    onError: (fn) => w.addEventListener("error", (e) => fn(e.error ?? new Error(e.message))),
    close: () => w.terminate(),
  };
}

/**
 * A pool of `workers` module instances for the all-pairs pass. `wasm` is what
 * each worker passes to init(): bytes, a WebAssembly.Module, or a URL string;
 * omitted, each loads the .wasm next to the glue. Close the pool when done.
 */
export async function createNeighborPool(opts) {
  return startPool("createNeighborPool", opts);
}

/** createNeighborPool for `fn` (errors name the function the caller called). */
async function startPool(fn, opts) {
  if (opts !== undefined) obj(fn, "opts", opts);
  const { workers = 2, wasm } = opts ?? {};
  num(fn, "workers", workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 256) throw rangeError(fn, "workers", "must be an integer in [1, 256]");
  const url = new URL("./workers-tile.js", import.meta.url);
  const pool = [];
  let nextId = 1;
  const pending = new Map();
  for (let i = 0; i < workers; i++) {
    const w = await spawn(url);
    w.on((m) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(Object.assign(new (m.error.name === "RangeError" ? RangeError : m.error.name === "TypeError" ? TypeError : Error)(m.error.message)));
      else p.resolve(m.tiles);
    });
    w.onError((e) => { for (const p of pending.values()) p.reject(e); pending.clear(); });
    pool.push(w);
  }
  const ask = (w, msg) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    w.post({ id, wasm, ...msg });
  });
  return {
    size: workers,
    /**
     * topNeighborPairsPacked computed in `tiles` row tiles (default: the
     * worker count) spread over the pool; the calling thread's instance
     * merges them (call init() first). Equal to topNeighborPairsPacked.
     */
    async topNeighborPairs(matrix, keys, options, opts) {
      const fn2 = "topNeighborPairsParallel";
      if (opts !== undefined) obj(fn2, "opts", opts);
      const { tiles = workers } = opts ?? {};
      if (!(matrix instanceof Float32Array)) throw typeError(fn2, "matrix", "a Float32Array", matrix);
      arr(fn2, "keys", keys);
      for (let i = 0; i < keys.length; i++) str(fn2, `keys[${i}]`, keys[i]);
      obj(fn2, "options", options);
      const o = { floor: num(fn2, "options.floor", options.floor),
        perSourceK: num(fn2, "options.perSourceK", options.perSourceK),
        limit: num(fn2, "options.limit", options.limit) };
      num(fn2, "tiles", tiles);
      if (!Number.isInteger(tiles) || tiles < 1 || tiles > 65536) throw rangeError(fn2, "tiles", "must be an integer in [1, 65536]");
      if (!isInitialized()) throw new Error("memdomain: call init() or initSync() before using the library");
      const bounds = tileBounds(keys.length, tiles);
      const jobs = pool.map(() => []);
      for (let t = 0; t + 1 < bounds.length; t++) jobs[t % pool.length].push([bounds[t], bounds[t + 1]]);
      const parts = await Promise.all(pool.map((w, i) => (jobs[i].length
        ? ask(w, { matrix, keys, ranges: jobs[i], options: o }) : Promise.resolve([]))));
      return mergeNeighborTiles(keys, parts.flat(), o);
    },
    async close() {
      await Promise.all(pool.map((w) => w.close()));
      pool.length = 0;
    },
  };
}

/** One-shot: a pool of `workers`, the pass in `tiles` tiles, then close. */
export async function topNeighborPairsParallel(matrix, keys, options, opts) {
  const fn = "topNeighborPairsParallel";
  if (opts !== undefined) obj(fn, "opts", opts);
  const { workers = 2, tiles = workers, wasm } = opts ?? {};
  const pool = await startPool(fn, { workers, wasm });
  try {
    return await pool.topNeighborPairs(matrix, keys, options, { tiles });
  } finally {
    await pool.close();
  }
}

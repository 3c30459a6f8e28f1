// Many workers, one answer (import "memdomain/workers"; kept out of the
// package entry so importing memdomain never starts a thread): the packed
// all-pairs pass split into row tiles, one contiguous run of them per worker
// (a worker whose run is done takes the last tile of the longest run left),
// each worker an independent module instance (a worker_threads Worker in
// Node, a module Web Worker in browsers; both run workers-tile.js, which
// imports this same glue), then merged on the calling thread. A worker copies
// the matrix into its memory once per pass and keeps one md_pairs_pass for
// all the tiles it takes (int16 copies, norms, the lists and the pruning
// bounds set up once), so many small tiles cost about what two large ones
// do, and the last tiles to finish are small. After each tile a worker
// raises its pass's thresholds to the others' (md_pairs_pass_share) and
// hands the result on: each pass prunes with what all have learned, so
// splitting the pass adds little work. Where memory is shared (Node, Deno, a
// cross-origin isolated page) the matrix, the thresholds and the schedule
// live in SharedArrayBuffers and each worker takes its own tiles, one
// message per worker per pass; elsewhere this thread hands out the tiles
// and passes the thresholds along with them. Per-source lists are ordered
// by (sim, dst key), a total order for unique keys, so the top perSourceK of
// the union of the workers' lists is the top perSourceK of all pairs: the
// merge equals the single-thread pass exactly, for any tiles, any worker
// taking any of them, in any order.
import { isInitialized } from "./core.js";
import { arg, fields, item, rangeError } from "./validate.js";
import { ARGS } from "./args.js";
import { mergeNeighborTiles } from "./neighbors.js";
import { tileRuns } from "./tile-runs.js";

const isNode = typeof process !== "undefined" && !!process.versions?.node && typeof Deno === "undefined";

/**
 * Row boundaries splitting [0, n) into `tiles` ranges with about the same
 * number of pairs (row i has n - 1 - i pairs j > i).
 */
export function tileBounds(n, tiles) {
  arg(ARGS.tileBounds, 0, n);
  arg(ARGS.tileBounds, 1, tiles);
  return splitRows(n, tiles, n);
}

/** tileBounds over the first `end` rows only (rows [0, end), each against every j > i). */
function splitRows(n, tiles, end) {
  const t = Math.max(1, Math.min(tiles, end));
  // Pairs in rows [0, r): the sum of n - 1 - i for i < r.
  const done = (r) => r * (n - 1) - (r * (r - 1)) / 2;
  const total = done(end);
  const bounds = [0];
  let row = 0;
  for (let k = 1; k < t; k++) {
    const goal = (total * k) / t;
    // The last row r >= row with done(r) <= goal, by bisection (O(tiles log n), whatever n is).
    let lo = row, hi = end;
    while (lo < hi) {
      const mid = lo + Math.ceil((hi - lo) / 2);
      if (done(mid) <= goal) lo = mid;
      else hi = mid - 1;
    }
    row = lo;
    bounds.push(Math.max(row, bounds[bounds.length - 1]));
  }
  bounds.push(end);
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
  const [workers, wasm] = fields(ARGS.createNeighborPool, 0, opts);
  return startPool("createNeighborPool", workers, wasm);
}

/** createNeighborPool for `fn` (errors name the function the caller called). */
async function startPool(fn, workers, wasm) {
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
      if (m.error) p.reject(new (m.error.name === "RangeError" ? RangeError : m.error.name === "TypeError" ? TypeError : Error)(m.error.message));
      else p.resolve(m);
    });
    w.onError((e) => { for (const p of pending.values()) p.reject(e); pending.clear(); });
    pool.push(w);
  }
  const ask = (w, msg, transfer) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    w.post(msg.begin ? { id, wasm, ...msg } : { id, ...msg }, transfer); // a worker's first message begins a pass
  });
  let last = Promise.resolve(); // one pass at a time: each worker holds one pass
  const held = { buffer: null }; // the shared copy of the matrix (shareable)
  const stats = { tiles: 0, busyMs: [], tilesPerWorker: [] };
  return {
    size: workers,
    /**
     * Timings of the last pass: per worker, the milliseconds spent in its
     * tiles (setup included) and how many tiles it took.
     */
    get lastStats() {
      return { tiles: stats.tiles, busyMs: stats.busyMs.slice(), tilesPerWorker: stats.tilesPerWorker.slice() };
    },
    /**
     * topNeighborPairsPacked computed in row tiles (default: 64 per worker,
     * with about equal pair counts), one contiguous run per worker, the last
     * tiles of the longest run going to whoever is free;
     * the calling thread's instance merges the workers' lists (call init()
     * first). Equal to topNeighborPairsPacked. opts.rows (default n): only
     * the pairs with a source among the first `rows` rows (every j > i), as
     * mergeNeighborTiles of neighborTile(matrix, keys, 0, rows) gives them.
     */
    topNeighborPairs(matrix, keys, options, opts) {
      const run = last.then(() => pass(matrix, keys, options, opts));
      last = run.catch(() => {});
      return run;
    },
    async close() {
      await last;
      await Promise.all(pool.map((w) => w.close()));
      pool.length = 0;
      held.buffer = null;
    },
  };

  async function pass(matrix, keys, options, opts) {
    // A pool's call checks what the one-shot's row states (its errors name topNeighborPairsParallel).
    const fn2 = "topNeighborPairsParallel", d = ARGS[fn2];
    const [, tiles_, rows] = fields(d, 3, opts), tiles = tiles_ ?? 64 * workers;
    arg(d, 0, matrix);
    arg(d, 1, keys);
    const rank = ranksOf(d, keys);
    const n = keys.length;
    if (n ? matrix.length % n !== 0 : matrix.length !== 0)
      throw rangeError(fn2, "matrix", `has ${matrix.length} elements, not n x d for n = keys.length = ${n}`);
    const [floor, perSourceK, limit] = fields(d, 2, options), o = { floor, perSourceK, limit };
    if (rows !== undefined && (!Number.isInteger(rows) || rows < 0 || rows > n)) // its range depends on keys
      throw rangeError(fn2, "rows", `must be an integer in [0, ${n}] (keys.length)`);
    if (!isInitialized()) throw new Error("memdomain: call init() or initSync() before using the library");
    if (pool.length === 0) throw new Error(`${fn2}: the pool is closed`);
    const bounds = splitRows(n, tiles, rows ?? n), count = bounds.length - 1;
    const shared = shareable(matrix, pool.length, held), share = pool.length > 1;
    // The highest threshold any worker's pass reported per row, so each prunes
    // with what all have learned: in shared memory when the matrix is (each
    // worker reads it before each tile and raises it after, no message and
    // no lag), else handed to the others with their next tile.
    const direct = share && typeof SharedArrayBuffer === "function" && shared.buffer instanceof SharedArrayBuffer;
    const learned = share ? new Float32Array(direct ? new SharedArrayBuffer(4 * n) : n).fill(-Infinity) : null;
    // Where memory is shared, the workers that take tiles also split the
    // pass's setup (int16 copies, norms: about 5% of the pass, otherwise
    // done by each) by rows, and exchange it through one SharedArrayBuffer.
    const setups = direct ? Math.min(pool.length, count) : 1;
    const split = setups > 1 ? { rows: Array.from({ length: setups + 1 }, (_, q) => Math.floor((q * n) / setups)),
      buf: new SharedArrayBuffer(((4 * setups + 7) & ~7) + n * (24 + 2 * Math.ceil(matrix.length / n / 32) * 32)) } : null;
    stats.tiles = count;
    stats.busyMs = pool.map(() => 0);
    stats.tilesPerWorker = pool.map(() => 0);
    let parts;
    if (direct || pool.length === 1) {
      // Shared memory (or one worker): each worker takes its tiles itself
      // from the schedule, one message per worker for the whole pass. A span
      // of its own run at a time (half of what is left: few, long adds),
      // then single tiles from the end of the others' runs; its first span
      // is claimed before its share of the setup is handed over, so every
      // worker that begins takes tiles.
      const schedule = tileRuns(count, setups, direct), edges = new Uint32Array(bounds);
      const runs = pool.slice(0, setups).map((w, i) => ask(w, { op: "run", part: i, schedule: schedule.state, edges,
        begin: { matrix: shared, rank, options: o, share, learned, split: split ? { ...split, part: i } : undefined } }));
      for (const p of runs) p.catch(() => {}); // awaited below; a failure is reported once
      try {
        parts = await Promise.all(runs);
      } catch (e) {
        schedule.stop(); // the others stop at their next tile
        throw e;
      }
      parts.forEach((r, i) => { stats.busyMs[i] = r.ms; stats.tilesPerWorker[i] = r.tiles; });
      return mergeNeighborTiles(keys, parts.map((r) => r.tile), o);
    }
    // No shared memory (a page that is not cross-origin isolated): this
    // thread hands out the tiles, one contiguous run per worker (tile-runs.js).
    const schedule = tileRuns(count, pool.length);
    // Each worker takes the next tile when it finishes one; its first tile
    // starts its pass (the matrix crosses once per worker), the queue's end ends it.
    // Two tiles in flight per worker: the next one waits in the worker's
    // queue, so a worker never idles until this thread answers (on a busy
    // machine that answer can take a scheduler slice).
    const drive = async (w, i) => {
      let started = false;
      const inflight = [];
      // A tile ahead only from the worker's own run.
      const send = (ahead) => {
        const t = schedule.take(i, ahead);
        if (t < 0) return;
        const range = [bounds[t], bounds[t + 1]];
        const p = ask(w, started ? { op: "add", range, bounds: learned?.slice() }
          : { op: "add", range, begin: { matrix: shared, rank, options: o, share } });
        p.catch(() => {}); // awaited below; a failure is reported once
        inflight.push(p);
        started = true;
      };
      send(false);
      send(true);
      while (inflight.length) {
        const r = await inflight.shift();
        if (learned && r.bounds) for (let j = 0; j < n; j++) if (r.bounds[j] > learned[j]) learned[j] = r.bounds[j];
        stats.busyMs[i] += r.ms;
        stats.tilesPerWorker[i]++;
        if (!inflight.length) send(false);
        send(true);
      }
      if (!started) return null;
      const r = await ask(w, { op: "end" });
      stats.busyMs[i] += r.ms;
      return r.tile;
    };
    try {
      parts = await Promise.all(pool.map(drive));
    } catch (e) {
      schedule.stop(); // stop handing out tiles; each worker's next pass replaces what is left of this one
      throw e;
    }
    return mergeNeighborTiles(keys, parts.filter((p) => p !== null), o);
  }
}

/**
 * The matrix as the workers receive it: with more than one worker, one copy
 * into a SharedArrayBuffer that every worker reads (posting the matrix itself
 * copies it once per worker on this thread); where shared memory is not
 * available (a browser page without cross-origin isolation), the matrix. The
 * buffer is the pool's (held, the largest so far, until close): a fresh one
 * costs about three times the copy (its pages zeroed and first touched).
 * Workers read it only as a pass begins, so the next pass writes it after
 * they are done; after a pass that failed, a worker may still be reading it
 * for that pass, whose answer is discarded.
 */
function shareable(matrix, workers, held) {
  if (workers < 2 || matrix.length === 0 || typeof SharedArrayBuffer !== "function") return matrix;
  if (!isNode && globalThis.crossOriginIsolated !== true) return matrix;
  if (matrix.buffer instanceof SharedArrayBuffer) return matrix;
  if (!held.buffer || held.buffer.byteLength < matrix.byteLength) held.buffer = new SharedArrayBuffer(matrix.byteLength);
  const copy = new Float32Array(held.buffer, 0, matrix.length);
  copy.set(matrix);
  return copy;
}

/** Each key's position in JavaScript order (the order C ranks keys by); keys must be unique. */
function ranksOf(d, keys) {
  const fn = d[0], n = keys.length, order = new Array(n);
  for (let i = 0; i < n; i++) {
    if (typeof keys[i] !== "string") item(d, 1, i, keys[i]);
    order[i] = i;
  }
  order.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  const rank = new Uint32Array(n);
  for (let r = 0; r < n; r++) {
    if (r > 0 && keys[order[r]] === keys[order[r - 1]])
      throw rangeError(fn, "keys", `holds ${JSON.stringify(keys[order[r]])} more than once; keys must be unique`);
    rank[order[r]] = r;
  }
  return rank;
}

/** One-shot: a pool of `workers`, the pass in `tiles` tiles (default 64 per worker), then close. */
export async function topNeighborPairsParallel(matrix, keys, options, opts) {
  const fn = "topNeighborPairsParallel";
  const [workers, tiles, , wasm] = fields(ARGS[fn], 3, opts);
  const pool = await startPool(fn, workers, wasm);
  try {
    return await pool.topNeighborPairs(matrix, keys, options, { tiles });
  } finally {
    await pool.close();
  }
}

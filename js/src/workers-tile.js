// The tile worker: its own module instance (this glue, imported here) that
// computes the tiles of an all-pairs pass, handed to it one at a time or
// taken by itself from a schedule in shared memory. Runs as
// a Node worker_threads Worker or a module Web Worker. Messages:
//   { op: "add", range: [b, e], begin?: { matrix, rank, options, share,
//     learned? }, bounds? }: begin starts a pass (the matrix copied into this
//     instance's memory once, an md_pairs_pass set up over it); the range's
//     sources are added. With share, md_pairs_pass_share first raises this
//     pass's pruning thresholds to what the other workers' passes learned
//     (learned, a Float32Array in shared memory that every worker reads and
//     raises, or else bounds, a copy sent with the tile), and after the tile
//     the higher of the two per row goes back: into learned, or in the answer.
//     With begin.split ({ part, rows, buf }), the workers that began the
//     pass split its setup (int16 copies, norms) by rows and exchange it
//     through buf, a SharedArrayBuffer (see exchange).
//   { op: "end" }: the pass's lists ({ sim, src, dst }, grouped by source,
//     for mergeNeighborTiles); the pass and its copy are released.
//   { op: "run", part, schedule, edges, begin }: a whole pass (shared
//     memory, or a lone worker): begin as above, then the tiles this worker
//     takes from the schedule (tile-runs.js state, an Int32Array in a
//     SharedArrayBuffer when there are others; part is its run) with tile t
//     the sources [edges[t], edges[t + 1]), then end; the answer carries the
//     lists and how many tiles it took.
// Each answer carries ms, the time spent in it.
import { alloc as allocFor, exportsOf, free, init, isInitialized, raise, views } from "./core.js";
import { tileRunsOf } from "./tile-runs.js";
import { AT_NEIGHBOR_PAIR_DST, AT_NEIGHBOR_PAIR_SIM, AT_NEIGHBOR_PAIR_SRC, OK, OUT_PAIRS_PASS_NEW_PART_PASS, OUT_PAIRS_PASS_NEW_PASS,
  OUT_PAIRS_PASS_PAIRS_LEN, OUT_PAIRS_PASS_PAIRS_PAIRS, SIZE_NEIGHBOR_PAIR } from "./constants.js";

const fn = "topNeighborPairsParallel";
let pass = null; // { h, matrix, slot, limit, bounds, n, learned }: the pass in progress

function release() {
  if (!pass) return;
  exportsOf().md_pairs_pass_free(pass.h);
  free(pass.matrix);
  free(pass.slot);
  free(pass.bounds);
  pass = null;
}

// The blocks a pass keeps between messages: core.js's alloc and free, as every other call's.
const alloc = (bytes, arg) => allocFor(fn, arg, bytes);

/**
 * The setup split between the workers that began this pass (split: { part,
 * rows, buf }): this worker computed the data of rows [rows[part],
 * rows[part + 1]) (md_pairs_pass_new_part); it hands them over through buf
 * (a SharedArrayBuffer: one Int32 flag per part, then the records of
 * md_pairs_pass_rows) and takes the others' as they are posted, waiting at
 * most 10 s (rows not handed over are computed at the first tile).
 */
function exchange(p, { part, rows, buf }, d) {
  const ex = exportsOf(), P = rows.length - 1, rec = 24 + 2 * Math.ceil(d / 32) * 32, head = (4 * P + 7) & ~7;
  const flags = new Int32Array(buf, 0, P), bytes = new Uint8Array(buf, head);
  let most = 0;
  for (let q = 0; q < P; q++) most = Math.max(most, rows[q + 1] - rows[q]);
  const scratch = alloc(Math.max(1, most * rec), "matrix"), at = rows[part], len = (rows[part + 1] - at) * rec;
  try {
    const st = ex.md_pairs_pass_rows(p.h, scratch, at, rows[part + 1], false);
    if (st !== OK) raise(st, fn);
    bytes.set(views().u8.subarray(scratch, scratch + len), at * rec);
    Atomics.store(flags, part, 1);
  } catch (e) {
    Atomics.store(flags, part, 2); // failed: the others compute these rows
    throw e;
  } finally {
    Atomics.notify(flags, part);
    if (Atomics.load(flags, part) !== 1) free(scratch);
  }
  const deadline = performance.now() + 10000;
  for (let q = 0; q < P; q++) {
    while (Atomics.load(flags, q) === 0 && performance.now() < deadline) Atomics.wait(flags, q, 0, 50);
    if (q === part || Atomics.load(flags, q) !== 1) continue;
    views().u8.set(bytes.subarray(rows[q] * rec, rows[q + 1] * rec), scratch);
    const st = ex.md_pairs_pass_rows(p.h, scratch, rows[q], rows[q + 1], true);
    if (st !== 0) { free(scratch); raise(st, fn); }
  }
  free(scratch);
}

function begin(m) {
  if (!m.split) return beginPass(m);
  try {
    beginPass(m);
  } catch (e) { // failed before handing its rows over: the others do not wait for them
    const flags = new Int32Array(m.split.buf, 0, m.split.rows.length - 1);
    Atomics.compareExchange(flags, m.split.part, 0, 2);
    Atomics.notify(flags, m.split.part);
    throw e;
  }
}

function beginPass({ matrix, rank, options, share, learned, split }) {
  release();
  const ex = exportsOf(), n = rank.length, d = n ? matrix.length / n : 0;
  const p = { h: 0, matrix: 0, slot: alloc(16, "matrix"), limit: options.limit, bounds: 0, n, learned: learned ?? null };
  pass = p;
  if (share) {
    p.bounds = alloc(n * 4, "matrix");
    views().f32.fill(-Infinity, p.bounds >>> 2, (p.bounds >>> 2) + n);
  }
  p.matrix = alloc(matrix.length * 4, "matrix");
  views().f32.set(matrix, p.matrix >>> 2);
  const r = alloc(rank.length * 4, "keys");
  views().u32.set(rank, r >>> 2);
  const st = split ? ex.md_pairs_pass_new_part(p.matrix, n, d, r, options.floor, options.perSourceK,
    split.rows[split.part], split.rows[split.part + 1], p.slot)
    : ex.md_pairs_pass_new(p.matrix, n, d, r, options.floor, options.perSourceK, p.slot);
  free(r);
  if (st !== OK) raise(st, fn);
  p.h = views().u32[(p.slot >>> 2) + (split ? OUT_PAIRS_PASS_NEW_PART_PASS : OUT_PAIRS_PASS_NEW_PASS)];
  if (split) exchange(p, split, d);
}

/** The pass's lists, copied out of memory as parallel arrays. */
function end() {
  const ex = exportsOf(), { slot } = pass;
  const st = ex.md_pairs_pass_pairs(pass.h, false, pass.limit, slot);
  if (st !== OK) raise(st, fn);
  const { u32, f64 } = views(), len = u32[(slot >>> 2) + OUT_PAIRS_PASS_PAIRS_LEN], at = u32[(slot >>> 2) + OUT_PAIRS_PASS_PAIRS_PAIRS];
  // md_neighbor_pair on wasm32: wasm/boundary.def's region neighbor_pair (w: its address in u32 words).
  const sim = new Float64Array(len), src = new Uint32Array(len), dst = new Uint32Array(len);
  for (let i = 0, w = at >>> 2; i < len; i++, w += SIZE_NEIGHBOR_PAIR >> 2) {
    src[i] = u32[w + (AT_NEIGHBOR_PAIR_SRC >> 2)];
    dst[i] = u32[w + (AT_NEIGHBOR_PAIR_DST >> 2)];
    sim[i] = f64[(w >>> 1) + (AT_NEIGHBOR_PAIR_SIM >> 3)];
  }
  free(at);
  release();
  return { sim, src, dst };
}

/**
 * Add sources [range[0], range[1]) to the pass; with sharing, first raise
 * its thresholds to the others' (the shared learned array, or `bounds`, a
 * copy sent with the tile) and then hand back the higher of each: into
 * learned, or returned (a copy for the answer).
 */
function add(range, bounds) {
  const ex = exportsOf(), at = pass.bounds >>> 2, n = pass.n;
  const others = pass.learned ?? (bounds?.length === n ? bounds : null);
  const share = () => { const sb = ex.md_pairs_pass_share(pass.h, pass.bounds); if (sb !== OK) raise(sb, fn); };
  if (pass.bounds && others) { // raise this pass's thresholds to the others' before the tile
    views().f32.set(others, at);
    share();
  }
  const st = ex.md_pairs_pass_add(pass.h, range[0], range[1]);
  if (st !== OK) raise(st, fn);
  if (!pass.bounds) return undefined;
  share(); // then hand back the higher of each: what this pass learned, for the others
  const f32 = views().f32, l = pass.learned;
  if (!l) return f32.slice(at, at + n);
  // Raced by the other workers: a lost raise only leaves a lower bound, which is still one.
  for (let j = 0; j < n; j++) if (f32[at + j] > l[j]) l[j] = f32[at + j];
  return undefined;
}

/**
 * A whole pass: its tiles (tile t is the sources edges[t] to edges[t + 1])
 * taken from the schedule (tile-runs.js: spans of its own run, then tiles
 * stolen from the others') until none is left, then its lists. Its first
 * span is claimed before its share of the setup is handed over, so another
 * worker cannot take every tile while this one sets up.
 */
function run(m) {
  const schedule = tileRunsOf(m.schedule);
  let span = schedule.span(m.part), tiles = 0;
  try {
    begin(m.begin);
    for (; span; span = schedule.span(m.part)) {
      add([m.edges[span[0]], m.edges[span[1]]]);
      tiles += span[1] - span[0];
    }
  } catch (e) {
    schedule.stop(); // the others stop at their next tile
    throw e;
  }
  return { tile: end(), tiles };
}

const transfer = (tile) => [tile.sim.buffer, tile.src.buffer, tile.dst.buffer];

async function serve(post, m) {
  try {
    if (!isInitialized()) await init(m.wasm);
    const t0 = performance.now();
    if (m.op === "run") {
      const { tile, tiles } = run(m);
      post({ id: m.id, tile, tiles, ms: performance.now() - t0 }, transfer(tile));
      return;
    }
    if (m.op === "end") {
      if (!pass) throw new Error(`${fn}: no pass in progress (internal error in memdomain)`);
      const tile = end(), ms = performance.now() - t0;
      post({ id: m.id, tile, ms }, transfer(tile));
      return;
    }
    if (m.begin) begin(m.begin);
    if (!pass) throw new Error(`${fn}: no pass in progress (internal error in memdomain)`);
    const bounds = add(m.range, m.bounds);
    post({ id: m.id, ms: performance.now() - t0, bounds }, bounds ? [bounds.buffer] : []);
  } catch (e) {
    release();
    post({ id: m.id, error: { name: e?.name ?? "Error", message: String(e?.message ?? e) } }, []);
  }
}

// One message at a time, in arrival order (the first may still be awaiting
// init when the next, already queued by the pool, arrives).
let queue = Promise.resolve();
const inOrder = (post, m) => { queue = queue.then(() => serve(post, m)); };
if (typeof WorkerGlobalScope !== "undefined" && typeof self !== "undefined") {
  self.addEventListener("message", (e) => inOrder((msg, t) => self.postMessage(msg, t), e.data));
} else {
  const { parentPort } = await import("node:worker_threads");
  parentPort.on("message", (m) => inOrder((msg, t) => parentPort.postMessage(msg, t), m));
}

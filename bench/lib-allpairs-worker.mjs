// Worker for bench/allpairs.mjs (its own module instance over raw exports),
// the protocol of the package's pool (js/src/workers-tile.js, op "run"): one
// message per pass. The worker claims its first span of tiles from the
// schedule (js/src/tile-runs.js; in shared memory when there are others),
// begins the pass (the matrix copied in once, an md_pairs_pass set up over
// it, the setup split with the others through begin.split), adds each span
// it takes (with share, md_pairs_pass_share with the others' bounds before
// it and the higher of each raised into begin.learned, a Float32Array in
// shared memory, after it) until none is left, and answers the pass's lists
// (final = false). The answer carries ms, the time spent, the phases
// (setup, tiles, lists), the tiles and adds taken, and cpuMs, this thread's
// CPU time (Linux /proc/thread-self, 10 ms ticks; null elsewhere): on a
// shared machine the wall time includes waiting for a core, the CPU time
// does not.
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { rawInstance } from "../tests/oracles/raw.mjs";
import { tileRunsOf } from "../js/src/tile-runs.js";

let md = null, pass = null, learned = null;
const threadCpuMs = () => {
  try {
    const f = readFileSync("/proc/thread-self/stat", "utf8"), v = f.slice(f.lastIndexOf(")") + 2).split(" ");
    return (+v[11] + +v[12]) * 10; // utime + stime, at 100 ticks per second
  } catch {
    return null;
  }
};
// as the package's worker: begin a pass (a share of the setup, the rest from the others)
function begin(m) {
  const split = m.begin.split;
  pass = md.passInParts(m.begin.matrix, m.d, m.options, split ? [split.rows[split.part], split.rows[split.part + 1]] : null);
  learned = m.begin.learned ?? null;
  if (split) {
    const P = split.rows.length - 1, rec = 24 + 2 * Math.ceil(m.d / 32) * 32, head = (4 * P + 7) & ~7;
    const flags = new Int32Array(split.buf, 0, P), bytes = new Uint8Array(split.buf, head);
    const range = (q) => bytes.subarray(split.rows[q] * rec, split.rows[q + 1] * rec);
    // as the package's worker: one copy each way between this instance's memory and the shared buffer
    pass.rows(range(split.part), split.rows[split.part], split.rows[split.part + 1], false);
    Atomics.store(flags, split.part, 1);
    Atomics.notify(flags, split.part);
    for (let q = 0; q < P; q++) {
      while (Atomics.load(flags, q) === 0) Atomics.wait(flags, q, 0, 50);
      if (q !== split.part) pass.rows(range(q), split.rows[q], split.rows[q + 1], true);
    }
  }
}

// as the package's worker: the others' bounds before a span (from shared
// memory), this pass's raised into them after
function add(range, share) {
  if (share) pass.share(learned);
  pass.add(range[0], range[1]);
  if (!share) return;
  const bounds = pass.share(learned); // share: more than one worker, so learned is the shared array
  for (let j = 0; j < bounds.length; j++) if (bounds[j] > learned[j]) learned[j] = bounds[j];
}

// as the package's worker: its first span, the setup, then spans and stolen
// tiles until none is left, then the pass's lists (final = false)
parentPort.on("message", (m) => {
  md ??= rawInstance(m.module);
  const t0 = performance.now(), c0 = threadCpuMs();
  const schedule = tileRunsOf(m.schedule);
  let span = schedule.span(m.part), tiles = 0, adds = 0;
  begin(m);
  const t1 = performance.now();
  for (; span; span = schedule.span(m.part), adds++) {
    add([m.edges[span[0]], m.edges[span[1]]], m.share);
    tiles += span[1] - span[0];
  }
  const t2 = performance.now(), tile = pass.pairs(false);
  pass.free();
  pass = null;
  const t3 = performance.now(), cpuMs = c0 === null ? null : threadCpuMs() - c0;
  const phases = [t1 - t0, t2 - t1, t3 - t2]; // setup, tiles, lists out
  parentPort.postMessage({ id: m.id, tile, tiles, adds, phases, ms: t3 - t0, cpuMs }, [tile.src.buffer, tile.dst.buffer, tile.sim.buffer]);
});

// Worker for bench/allpairs.mjs (its own module instance over raw exports),
// the protocol of the package's pool (js/src/workers-tile.js): the first
// tile a worker takes begins a pass (the matrix copied in once, an
// md_pairs_pass set up over it), every tile adds its sources to that pass
// (with share, md_pairs_pass_share with the others' bounds before it, and
// after it the higher of each goes back: into begin.learned, a Float32Array
// in shared memory, or in the answer),
// "end" answers the pass's lists (final = false) and frees it. Each answer
// carries ms, the time spent in it, and cpuMs, this thread's CPU time in it
// (Linux /proc/thread-self, 10 ms ticks; null elsewhere): on a shared machine
// the wall time includes waiting for a core, the CPU time does not.
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { rawInstance } from "./lib-raw.mjs";

let md = null, pass = null, learned = null;
const threadCpuMs = () => {
  try {
    const f = readFileSync("/proc/thread-self/stat", "utf8"), v = f.slice(f.lastIndexOf(")") + 2).split(" ");
    return (+v[11] + +v[12]) * 10; // utime + stime, at 100 ticks per second
  } catch {
    return null;
  }
};
parentPort.on("message", (m) => {
  md ??= rawInstance(m.module);
  const t0 = performance.now(), c0 = threadCpuMs();
  const cpuMs = () => (c0 === null ? null : threadCpuMs() - c0);
  if (m.op === "end") {
    const tile = pass.pairs(false);
    pass.free();
    pass = null;
    const ms = performance.now() - t0;
    parentPort.postMessage({ id: m.id, tile, ms, cpuMs: cpuMs() }, [tile.src.buffer, tile.dst.buffer, tile.sim.buffer]);
    return;
  }
  if (m.begin) {
    const split = m.begin.split; // as the package's worker: a share of the setup, the rest from the others
    pass = md.passInParts(m.begin.matrix, m.d, m.options, split ? [split.rows[split.part], split.rows[split.part + 1]] : null);
    learned = m.begin.learned ?? null;
    if (split) {
      const P = split.rows.length - 1, rec = 24 + 2 * Math.ceil(m.d / 32) * 32, head = (4 * P + 7) & ~7;
      const flags = new Int32Array(split.buf, 0, P), bytes = new Uint8Array(split.buf, head);
      const range = (q) => bytes.subarray(split.rows[q] * rec, split.rows[q + 1] * rec);
      const mine = new Uint8Array(range(split.part).length);
      pass.rows(mine, split.rows[split.part], split.rows[split.part + 1], false);
      range(split.part).set(mine);
      Atomics.store(flags, split.part, 1);
      Atomics.notify(flags, split.part);
      for (let q = 0; q < P; q++) {
        while (Atomics.load(flags, q) === 0) Atomics.wait(flags, q, 0, 50);
        if (q !== split.part) pass.rows(range(q).slice(), split.rows[q], split.rows[q + 1], true);
      }
    }
  }
  // as the package's worker: the others' bounds before the tile (from shared
  // memory, or the copy sent with it), this pass's raised into them after
  const others = learned ?? m.bounds;
  if (m.share && others) pass.share(others);
  pass.add(m.range[0], m.range[1]);
  let bounds = m.share ? pass.share(others ?? new Float32Array(pass.n).fill(-Infinity)) : undefined;
  if (bounds && learned) {
    for (let j = 0; j < bounds.length; j++) if (bounds[j] > learned[j]) learned[j] = bounds[j];
    bounds = undefined;
  }
  parentPort.postMessage({ id: m.id, ms: performance.now() - t0, cpuMs: cpuMs(), bounds }, bounds ? [bounds.buffer] : []);
});

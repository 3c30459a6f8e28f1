// Worker for bench/allpairs.mjs (its own module instance over raw exports),
// the protocol of the package's pool (js/src/workers-tile.js): the first
// tile a worker takes begins a pass (the matrix copied in once, an
// md_pairs_pass set up over it), every tile adds its sources to that pass,
// "end" answers the pass's lists (final = false) and frees it. Each answer
// carries ms, the time spent in it.
import { parentPort } from "node:worker_threads";
import { rawInstance } from "./lib-raw.mjs";

let md = null, pass = null;
parentPort.on("message", (m) => {
  md ??= rawInstance(m.module);
  const t0 = performance.now();
  if (m.op === "end") {
    const tile = pass.pairs(false);
    pass.free();
    pass = null;
    const ms = performance.now() - t0;
    parentPort.postMessage({ id: m.id, tile, ms }, [tile.src.buffer, tile.dst.buffer, tile.sim.buffer]);
    return;
  }
  if (m.begin) pass = md.passInParts(m.begin.matrix, m.d, m.options);
  pass.add(m.range[0], m.range[1]);
  parentPort.postMessage({ id: m.id, ms: performance.now() - t0 });
});

// Worker for bench/allpairs.mjs (its own module instance over raw exports):
// receives the module, the matrix and row ranges, answers each range's tile
// of the packed all-pairs pass (md_neighbor_pairs_ranked, final = false).
import { parentPort } from "node:worker_threads";
import { rawInstance } from "./lib-raw.mjs";

let md = null;
parentPort.on("message", (m) => {
  md ??= rawInstance(m.module);
  const t0 = performance.now();
  const p = md.packed(m.matrix, m.d);
  const tiles = m.ranges.map(([b, e]) => p.pass(m.options, b, e, false));
  p.free();
  const ms = performance.now() - t0;
  parentPort.postMessage({ id: m.id, tiles, ms }, tiles.flatMap((t) => [t.src.buffer, t.dst.buffer, t.sim.buffer]));
});

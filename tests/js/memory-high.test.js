// Addresses past 2^31 bytes of WebAssembly memory: wasm hands an address back as an i32, which
// JavaScript sees as a negative number from 2^31 on; the glue must read it as unsigned. In a file
// of its own: a fresh instance, which has freed nothing below the blocks it allocates.
import * as md from "../../js/index.js";
import { wasmBytes } from "./build.js";

const exportsObj = md.initSync(wasmBytes());

test("calls whose exchange region lies past 2^31 bytes answer as below it (addresses come back from wasm as i32)", () => {
  // inputs over 1 MiB each, so every call takes a new region: after the 2 GiB block below, past 2^31
  const n = 3000, d = 96;
  let s = 7;
  const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
  const matrix = Float32Array.from({ length: n * d }, rnd);
  const keys = Array.from({ length: n }, (_, i) => `k/${(i * 7919) % n}/é${i}`);
  const nodes = Array.from({ length: 20000 }, (_, i) => `node-${i}-ü`);
  const edges = Array.from({ length: 60000 }, (_, i) => ({ src: nodes[(i * 31) % 20000], dst: nodes[(i * 7 + 3) % 20000], strength: 0.25 + (i % 4) / 4 }));
  const values = Float64Array.from({ length: 200_000 }, rnd);
  const run = () => {
    const rows = md.residentRows(Array.from({ length: n }, (_, i) => matrix.subarray(i * d, (i + 1) * d)), d);
    const top = rows.topCosineRows(matrix.subarray(0, d), 10);
    rows.free();
    return JSON.stringify([
      md.topNeighborPairsPacked(matrix, keys, { floor: 0.2, perSourceK: 3, limit: 5000 }),
      [...md.pagerank(nodes, edges, { seeds: new Map([[nodes[5], 1], [nodes[77], 2]]) })].slice(0, 300),
      md.compensatedSum(values), Array.from(top.indices), Array.from(top.sims),
    ]);
  };
  // a fresh instance has freed nothing yet: past two 1 GiB blocks (one 2 GiB request is refused), what the
  // calls allocate lies past 2^31; with the blocks freed, below it
  const where = () => { const p = exportsObj.md_alloc(2 ** 21) >>> 0; exportsObj.md_free(p); return p; };
  const blocks = [exportsObj.md_alloc(2 ** 30) >>> 0, exportsObj.md_alloc(2 ** 30) >>> 0];
  expect(blocks).not.toContain(0);
  expect(where()).toBeGreaterThan(2 ** 31);
  const high = run();
  for (const b of blocks) exportsObj.md_free(b);
  expect(where()).toBeLessThan(2 ** 31);
  expect(high).toBe(run());
});

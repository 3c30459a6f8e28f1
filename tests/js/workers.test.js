// Many workers, one answer: the all-pairs pass split into tiles on
// independent module instances (worker_threads), merged on this thread,
// equals the single-thread pass exactly for any tile count.
import * as md from "../../js/index.js";
import * as workers from "../../js/src/workers.js";
import { wasmBytes } from "./build.js";
import { rng } from "./rng.js";

const bytes = wasmBytes();
md.initSync(bytes);


describe("workers", () => {
  let pool;
  beforeAll(async () => {
    pool = await workers.createNeighborPool({ workers: 2, wasm: new WebAssembly.Module(bytes) });
  });
  afterAll(async () => {
    await pool?.close();
  });

  test("tileBounds partitions [0, n) into balanced ranges", () => {
    for (const n of [0, 1, 2, 7, 100, 1001]) {
      for (const t of [1, 2, 3, 8, 2000]) {
        const b = workers.tileBounds(n, t);
        expect(b[0]).toBe(0);
        expect(b[b.length - 1]).toBe(n);
        for (let i = 1; i < b.length; i++) expect(b[i]).toBeGreaterThanOrEqual(b[i - 1]);
      }
    }
  });

  test("merged tiles equal the single-thread pass for 1..9 tiles", async () => {
    const r = rng(17);
    for (const [n, d] of [[0, 4], [1, 3], [2, 5], [37, 7], [150, 33], [301, 16]]) {
      const m = new Float32Array(n * d);
      for (let i = 0; i < m.length; i++) m[i] = r() < 0.3 ? Math.round(r() * 4 - 2) : r() * 2 - 1;
      if (n > 5) m[5 * d] = NaN;
      for (let i = 1; i < n; i += 9) m.copyWithin(i * d, (i - 1) * d, i * d); // ties
      const keys = Array.from({ length: n }, (_, i) => (i % 3 ? `k${i}` : `\u{1F600}${i}`));
      for (const o of [{ floor: 0, perSourceK: 5, limit: 1000 }, { floor: -1, perSourceK: 2.5, limit: -4 }]) {
        const single = md.topNeighborPairsPacked(m, keys, o);
        for (let tiles = 1; tiles <= 9; tiles++) {
          expect(await pool.topNeighborPairs(m, keys, o, { tiles })).toEqual(single);
        }
      }
    }
  });

  test("errors from a worker surface as the same error class", async () => {
    await expect(pool.topNeighborPairs(new Float32Array(4), ["a", "a"], { floor: 0, perSourceK: 1, limit: 1 }))
      .rejects.toThrow(RangeError);
  });

  test("the one-shot form agrees", async () => {
    const m = new Float32Array(40 * 8).map((_, i) => Math.sin(i));
    const keys = Array.from({ length: 40 }, (_, i) => `r${i}`);
    const o = { floor: 0.1, perSourceK: 3, limit: 50 };
    expect(await workers.topNeighborPairsParallel(m, keys, o, { workers: 2, tiles: 3, wasm: bytes }))
      .toEqual(md.topNeighborPairsPacked(m, keys, o));
  });
});

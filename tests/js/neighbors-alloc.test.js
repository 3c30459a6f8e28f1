// Allocation failure in the vector modules: on the 64 MiB-capped build, a
// pass whose selection lists outgrow memory fails with a RangeError naming
// the function, and the instance stays usable and leaks nothing.
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { ROOT } from "./golden/runner.js";

const ex = md.initSync(readFileSync(`${ROOT}build/memdomain.small.wasm`));

test("unbounded neighbourhoods that do not fit are a RangeError, and the next call answers", () => {
  const n = 2500, d = 8;
  const m = new Float32Array(n * d).map((_, i) => Math.sin(i * 0.37));
  const keys = Array.from({ length: n }, (_, i) => `k${i}`);
  // every pair offered to both ends and kept: 6.2 M pairs of 16 bytes
  const all = { floor: -Infinity, perSourceK: Infinity, limit: Infinity };
  let err;
  try {
    md.topNeighborPairsPacked(m, keys, all);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(RangeError);
  expect(err.message).toMatch(/^topNeighborPairsPacked: out of memory/);
  const top = md.topNeighborPairsPacked(m, keys, { floor: 0, perSourceK: 2, limit: 3 });
  expect(top.length).toBe(3);
  const p = ex.md_alloc(40 * 1024 * 1024);
  expect(p).not.toBe(0);
  ex.md_free(p);
  expect(md.topNeighborPairsPacked(m, keys, { floor: 0, perSourceK: 2, limit: 3 })).toEqual(top);
});

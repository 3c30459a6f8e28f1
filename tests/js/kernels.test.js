// The wasm SIMD128 kernels (reached through the batch entry points) against
// cosine, which is one sequential double sum per pair: random and adversarial
// data (NaN, infinities, subnormals, zero vectors), dims that are not a
// multiple of the panel or the register block. The same properties run
// natively in tests/c/test_kernels.c.
import * as md from "../../js/index.js";
import { cosine } from "../oracles/baseline-neighbors.js";
import { BUILD, wasmBytes } from "./build.js";
import { rng } from "../oracles/rng.js";

const DIMS = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 100, 384];
const SPECIAL = [NaN, Infinity, -Infinity, 0, -0, 1e-45, -3e-39, 1.1754942106924411e-38, 3.4028234663852886e38];


function rows(r, n, d, mode) {
  const m = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    const kind = mode ? Math.floor(r() * 5) : 0; // 0 normal, 1 special entries, 2 zero, 3 subnormal, 4 huge
    for (let k = 0; k < d; k++) {
      const at = i * d + k;
      if (kind === 1 && r() < 0.3) m[at] = SPECIAL[Math.floor(r() * SPECIAL.length)];
      else if (kind === 2) m[at] = 0;
      else if (kind === 3) m[at] = (r() * 2 - 1) * 1e-41;
      else if (kind === 4) m[at] = (r() * 2 - 1) * 3e38;
      else m[at] = r() * 4 - 2;
    }
  }
  return m;
}

md.initSync(wasmBytes());

describe(`kernels (${BUILD})`, () => {
  test("1 x n arm: every row bit-identical to cosine", () => {
    const r = rng(42);
    for (const d of DIMS) {
      for (let rep = 0; rep < 4; rep++) {
        const n = 1 + Math.floor(r() * 70);
        const m = rows(r, n, d, rep > 0), q = rows(r, 1, d, rep > 1);
        const got = md.cosineRows(q, m);
        for (let i = 0; i < n; i++) {
          const row = m.subarray(i * d, (i + 1) * d);
          expect(Object.is(got[i], cosine(q, row)) ? null : [d, i, got[i], cosine(q, row)]).toBe(null);
        }
      }
    }
  });

  test("all-pairs block kernel: finite pairs equal cosine, NaN-carrying pairs never enter", () => {
    const r = rng(43);
    for (const d of DIMS) {
      const n = 2 + Math.floor(r() * 30);
      const m = rows(r, n, d, true);
      const keys = Array.from({ length: n }, (_, i) => `k${i}`);
      const got = md.topNeighborPairsPacked(m, keys, { floor: -Infinity, perSourceK: Infinity, limit: Infinity });
      const row = (i) => m.subarray(i * d, (i + 1) * d);
      const finite = (i) => row(i).every(Number.isFinite);
      const norm0 = (i) => row(i).reduce((s, x) => s + x * x, 0) === 0;
      let expected = 0;
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if ((finite(i) && finite(j)) || norm0(i) || norm0(j)) expected++;
      // pairs whose hoisted ratio is finite although a vector is not finite also enter; count at least
      expect(got.length).toBeGreaterThanOrEqual(2 * expected);
      for (const p of got) {
        const i = +p.src.slice(1), j = +p.dst.slice(1);
        expect(Number.isNaN(p.sim)).toBe(false);
        if (finite(i) && finite(j)) expect(Object.is(p.sim, cosine(row(i), row(j)))).toBe(true);
      }
    }
  });
});

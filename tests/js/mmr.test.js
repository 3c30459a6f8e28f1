// mmr on the selected wasm build (tests/js/build.js): applyMmr against the plain-JS baseline (an
// independent transcription of the design), applyMmrPacked against
// applyMmr, identity of the returned objects, and argument errors.
import * as md from "../../js/index.js";
import * as base from "../oracles/baseline-mmr.js";
import { BUILD, wasmBytes } from "./build.js";
import { rng } from "../oracles/rng.js";



const LIMITS = [0, 1, 3, 10, 2.5, -1, NaN, Infinity];
const LAMBDAS = [undefined, 0, 0.3, 0.5, 0.9, 1, NaN, -1];

function candidates(r, n, d, { ragged = false, vectorless = false } = {}) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const c = { path: `p${i}`, score: r() < 0.2 ? Math.round(r() * 2) / 2 : r() };
    if (!(vectorless && r() < 0.3)) {
      const len = ragged ? d + Math.floor(r() * 3) : d;
      c.vector = Array.from({ length: len }, () => (r() < 0.3 ? Math.round(r() * 6 - 3) : r() * 2 - 1));
      if (r() < 0.02) c.vector[0] = NaN;
      if (i > 0 && r() < 0.15 && out[i - 1].vector?.length === len) c.vector = out[i - 1].vector.slice();
    }
    out.push(c);
  }
  return out;
}

md.initSync(wasmBytes());

describe(`mmr (${BUILD})`, () => {
  test("applyMmr equals the baseline and returns the candidates themselves", () => {
    const r = rng(7);
    for (let iter = 0; iter < 200; iter++) {
      const n = Math.floor(r() * 25), d = Math.floor(r() * 12);
      const cs = candidates(r, n, d, { ragged: iter % 5 === 0, vectorless: iter % 3 === 0 });
      const limit = LIMITS[iter % LIMITS.length], lambda = LAMBDAS[Math.floor(r() * LAMBDAS.length)];
      const want = base.applyMmr(cs, limit, lambda);
      const got = md.applyMmr(cs, limit, lambda);
      expect(got.length).toBe(want.length);
      for (let i = 0; i < want.length; i++) expect(got[i]).toBe(want[i]);
    }
  });

  test("Float32Array vectors are accepted and widened exactly", () => {
    const r = rng(8);
    const cs = candidates(r, 30, 16).map((c) => ({ ...c, vector: new Float32Array(c.vector) }));
    const want = base.applyMmr(cs, 10, 0.4);
    expect(md.applyMmr(cs, 10, 0.4)).toEqual(want);
  });

  test("applyMmrPacked equals applyMmr over the same rows", () => {
    const r = rng(9);
    for (let iter = 0; iter < 80; iter++) {
      const n = Math.floor(r() * 40), d = 1 + Math.floor(r() * 20);
      const cs = candidates(r, n, d);
      const m = new Float64Array(n * d);
      cs.forEach((c, i) => m.set(c.vector, i * d));
      const scores = cs.map((c) => c.score);
      const limit = LIMITS[iter % LIMITS.length], lambda = LAMBDAS[iter % LAMBDAS.length];
      const want = md.applyMmr(cs, limit, lambda).map((c) => cs.indexOf(c));
      expect(Array.from(md.applyMmrPacked(scores, m, limit, lambda))).toEqual(want);
      const m32 = new Float32Array(m);
      const cs32 = cs.map((c, i) => ({ ...c, vector: Array.from(m32.subarray(i * d, (i + 1) * d)) }));
      const want32 = md.applyMmr(cs32, limit, lambda).map((c) => cs32.indexOf(c));
      expect(Array.from(md.applyMmrPacked(new Float64Array(scores), m32, limit, lambda))).toEqual(want32);
    }
  });

  test("bad input throws TypeError/RangeError naming the argument", () => {
    expect(() => md.applyMmr("x", 1)).toThrow(/candidates/);
    expect(() => md.applyMmr([{ path: "a", score: "1" }], 1)).toThrow(/candidates\[0\]\.score/);
    expect(() => md.applyMmr([{ path: "a", score: 1, vector: "v" }], 1)).toThrow(/candidates\[0\]\.vector/);
    expect(() => md.applyMmr([], "1")).toThrow(/limit/);
    expect(() => md.applyMmr([], 1, "0.5")).toThrow(/lambda/);
    expect(() => md.applyMmrPacked([1, 2], new Float64Array(3), 1)).toThrow(RangeError);
    expect(() => md.applyMmrPacked([1], [1, 2], 1)).toThrow(/matrix/);
  });
});

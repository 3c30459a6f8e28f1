// The pruned passes and the flat C API in wasm, over raw exports (the glue is
// wired to them separately): resident top-k against the unpruned exact path
// and a plain-JS loop; the pruned all-pairs pass (whole and tiles merged)
// against the plain-JS reference implementation; the double-input path on
// plain number arrays against the plain-JS reference; rankCandidatePairs and
// applyMmr on resident rows against the plain calls. Every comparison is
// bit for bit (Object.is). Runs on both wasm builds (make test-js).
import { rawInstance } from "../oracles/raw.mjs";
import * as base from "../oracles/baseline-neighbors.js";
import * as md from "../../js/index.js";
import { BUILD, testWasmBytes, wasmBytes } from "./build.js";
import { rng } from "../oracles/rng.js";

md.initSync(wasmBytes());
const raw = rawInstance(new WebAssembly.Module(testWasmBytes())); // the flat C API is exported by the test build only
const { ex, alloc, check, u32, f32, f64 } = raw;

/** Rows of a kind: uniform, clustered, duplicated, near-ties, special (NaN, infinite, zero). */
function rows(r, n, d, kind) {
  const m = new Float32Array(n * d);
  const base0 = Float32Array.from({ length: d }, () => r() * 2 - 1);
  const centroids = Array.from({ length: 8 }, () => Float32Array.from({ length: d }, () => r() * 2 - 1));
  for (let i = 0; i < n; i++) {
    const c = centroids[Math.floor(r() * 8)];
    for (let k = 0; k < d; k++) {
      const at = i * d + k;
      if (kind === "clustered") m[at] = c[k] + 0.2 * (r() - 0.5);
      else if (kind === "near-ties") m[at] = base0[k] * (1 + 1e-7 * Math.floor(r() * 3));
      else m[at] = r() * 2 - 1;
    }
    if (kind === "duplicated" && i > 0 && r() < 0.5) m.copyWithin(i * d, Math.floor(r() * i) * d, Math.floor(r() * i) * d + d);
    if (kind === "special") {
      const s = Math.floor(r() * 6);
      if (s === 0) m[i * d + Math.floor(r() * d)] = NaN;
      else if (s === 1) m[i * d + Math.floor(r() * d)] = -Infinity;
      else if (s === 2) m.fill(0, i * d, (i + 1) * d);
    }
  }
  return m;
}
const KINDS = ["uniform", "clustered", "duplicated", "near-ties", "special"];

const sameBits = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

describe(`pruned passes over raw exports (${BUILD})`, () => {
  test("resident top-k equals the unpruned exact path and the plain-JS loop", () => {
    const r = rng(1616);
    let checked = 0;
    for (let iter = 0; iter < 15; iter++) {
      const kind = KINDS[iter % KINDS.length], d = [16, 33, 96, 384][iter % 4], n = 520 + Math.floor(r() * (d > 100 ? 100 : 600));
      const m = rows(r, n, d, kind);
      const h = raw.rows(m, d);
      for (const k of [1, 10, 50, Math.floor(n / 4), n + 2]) {
        const q = m.slice((iter * 7 % n) * d, (iter * 7 % n) * d + d);
        if (iter % 3 === 1) for (let t = 0; t < d; t++) q[t] += 0.01 * (r() - 0.5);
        const got = h.top(q, k), want = h.topUnpruned(q, k);
        expect(Array.from(got.indices)).toEqual(Array.from(want.indices));
        expect(sameBits(got.sims, want.sims)).toBe(true);
        if (k === 50 && iter < 10) { // and the reference's cosine, row by row
          const sims = Array.from({ length: n }, (_, j) => base.cosine(q, m.subarray(j * d, j * d + d)));
          const order = sims.map((_, j) => j).sort((x, y) => sims[y] - sims[x] || x - y).slice(0, k);
          expect(Array.from(got.indices)).toEqual(order);
        }
        checked++;
      }
      h.free();
    }
    expect(checked).toBe(75);
  });

  test("a row at any position of the scan (its groups of 4 and 16, a block's end, the tail) reaches the top-k", () => {
    // The filter scan sums four rows at a time (the last n % 4 by the scalar
    // twin) in blocks of 1024 and skips groups of 16 rows without a
    // candidate: a row the scan mis-summed or skipped would lose its place.
    const r = rng(31337);
    let checked = 0;
    for (const d of [32, 384, 400]) { // filter strides 32, 384 and 416 (an odd count of 32-wide steps)
      const n = 1031, m = rows(r, n, d, "uniform"), h = raw.rows(m, d);
      const at = [0, 1, 2, 3, 4, 14, 15, 16, 17, 31, 32, 1007, 1008, 1020, 1023, 1024, 1027, 1028, 1030];
      for (let t = 0; t < 6; t++) at.push(Math.floor(r() * n));
      for (const i of at) {
        const q = m.slice(i * d, (i + 1) * d);
        for (let t = 0; t < d; t++) q[t] += 0.05 * (r() - 0.5);
        for (const k of [1, 7]) {
          const got = h.top(q, k), want = h.topUnpruned(q, k);
          expect(want.indices[0]).toBe(i); // the near copy of row i is its nearest row
          expect(Array.from(got.indices)).toEqual(Array.from(want.indices));
          expect(sameBits(got.sims, want.sims)).toBe(true);
          checked++;
        }
      }
      h.free();
    }
    expect(checked).toBe(3 * 25 * 2);
  });

  test("resident rows stay equal to a plain copy through insert / set / remove / swap_remove", () => {
    const r = rng(7), d = 24;
    let m = rows(r, 800, d, "clustered");
    const h = raw.rows(m, d), buf = alloc(d * 4);
    for (let op = 0; op < 60; op++) {
      const n = m.length / d, i = Math.floor(r() * n), kind = op % 4;
      if (kind === 3) { // insert before row i
        const row = rows(r, 1, d, "uniform");
        f32().set(row, buf >>> 2);
        check(ex.md_rows_insert(h.h, i, buf, 1), "insert");
        m = Float32Array.from([...m.subarray(0, i * d), ...row, ...m.subarray(i * d)]);
      } else if (kind === 0) {
        const row = rows(r, 1, d, "uniform");
        f32().set(row, buf >>> 2);
        check(ex.md_rows_set(h.h, i, buf), "set");
        m.set(row, i * d);
      } else if (kind === 1) {
        check(ex.md_rows_remove(h.h, i), "remove");
        m = Float32Array.from([...m.subarray(0, i * d), ...m.subarray((i + 1) * d)]);
      } else {
        check(ex.md_rows_swap_remove(h.h, i), "swap_remove");
        const last = m.slice((n - 1) * d);
        if (i !== n - 1) m.set(last, i * d);
        m = m.slice(0, (n - 1) * d);
      }
      expect(ex.md_rows_count(h.h)).toBe(m.length / d);
    }
    const n = m.length / d;
    expect(sameBits(f32().subarray(ex.md_rows_data(h.h) >>> 2, (ex.md_rows_data(h.h) >>> 2) + n * d), m)).toBe(true);
    const q = rows(r, 1, d, "uniform");
    const got = h.top(q, 20);
    const sims = Array.from({ length: n }, (_, j) => base.cosine(q, m.subarray(j * d, j * d + d)));
    expect(Array.from(got.indices)).toEqual(sims.map((_, j) => j).sort((x, y) => sims[y] - sims[x] || x - y).slice(0, 20));
    ex.md_free(buf);
    h.free();
  });

  test("the pruned all-pairs pass and its tiles equal the plain-JS reference", () => {
    const r = rng(99);
    for (const [kind, floor, k] of [["uniform", 0, 5], ["clustered", 0.5, 3], ["special", -1, 2], ["near-ties", 0, 4], ["duplicated", 0.2, 6]]) {
      const n = 260, d = 40, m = rows(r, n, d, kind); // 33,670 pairs: enough for the automatic choice to prune
      const keys = Array.from({ length: n }, (_, i) => `k${String(i).padStart(5, "0")}`); // row order = key order
      const o = { floor, perSourceK: k, limit: 1e9 };
      const want = base.topNeighborPairs(keys.map((key, i) => ({ key, vec: m.subarray(i * d, i * d + d) })), o);
      const p = raw.packed(m, d);
      const whole = p.pass(o);
      const cut = Math.floor(r() * n);
      const merged = raw.merge([p.pass(o, cut, n, false), p.pass(o, 0, cut, false)], n, o);
      p.free();
      for (const got of [whole, merged]) {
        const list = Array.from(got.sim, (sim, i) => ({ src: keys[got.src[i]], dst: keys[got.dst[i]], sim }));
        expect(list).toEqual(want); // toEqual compares numbers with Object.is
      }
      // the glue's packed call runs the same pruned pass
      expect(md.topNeighborPairsPacked(m, keys, o)).toEqual(want);
    }
  });

  test("plain number arrays (doubles): topNeighborPairs and rankCandidatePairs as the reference computes them", () => {
    const r = rng(4);
    for (let iter = 0; iter < 20; iter++) {
      const n = 2 + Math.floor(r() * 30), d = 1 + Math.floor(r() * 20);
      const vecs = Array.from({ length: n }, () => Array.from({ length: d + (iter % 4 === 0 ? Math.floor(r() * 3) : 0) },
        () => (r() * 2 - 1) * (r() < 0.2 ? 1e-3 : 1)));
      const keys = Array.from({ length: n }, (_, i) => `v${String(i).padStart(3, "0")}`);
      const o = { floor: iter % 2 ? -1 : 0.1, perSourceK: 1 + (iter % 4), limit: 1e9 };
      const offs = [0];
      for (const v of vecs) offs.push(offs.at(-1) + v.length);
      const dp = alloc(8 * offs.at(-1) + 8), op = alloc(4 * (n + 1)), out = alloc(16);
      vecs.forEach((v, i) => f64().set(v, (dp >>> 3) + offs[i]));
      u32().set(offs, op >>> 2);
      check(ex.md_top_neighbor_pairs_f64(dp, op, n, 0, o.floor, o.perSourceK, o.limit, out), "md_top_neighbor_pairs_f64");
      let len = u32()[out >>> 2], pp = u32()[(out >>> 2) + 1];
      const want = base.topNeighborPairs(keys.map((key, i) => ({ key, vec: vecs[i] })), o);
      const list = (l, p) => Array.from({ length: l }, (_, i) => ({ src: keys[u32()[(p >>> 2) + 4 * i]],
        dst: keys[u32()[(p >>> 2) + 4 * i + 1]], sim: f64()[(p >>> 3) + 2 * i + 1] }));
      expect(list(len, pp)).toEqual(want);
      // and each similarity is the reference's cosine of the two arrays (finite vectors)
      expect(want.every((w) => Object.is(w.sim, base.cosine(vecs[keys.indexOf(w.src)], vecs[keys.indexOf(w.dst)])))).toBe(true);
      ex.md_free(pp);
      const np = 40, pairs = Array.from({ length: np }, () => [Math.floor(r() * n), Math.floor(r() * n)]);
      const sp = alloc(4 * np), tp = alloc(4 * np);
      u32().set(pairs.map((x) => x[0]), sp >>> 2);
      u32().set(pairs.map((x) => x[1]), tp >>> 2);
      check(ex.md_rank_candidate_pairs_f64(dp, op, n, 0, sp, tp, np, o.floor, o.perSourceK, o.limit, out), "md_rank_candidate_pairs_f64");
      len = u32()[out >>> 2]; pp = u32()[(out >>> 2) + 1];
      const want2 = base.rankCandidatePairs(pairs.map(([s, t]) => ({ src: keys[s], dst: keys[t] })),
        keys.map((key, i) => ({ key, vec: vecs[i] })), o);
      expect(list(len, pp)).toEqual(want2);
      for (const p of [pp, dp, op, out, sp, tp]) ex.md_free(p);
    }
  });

  test("rankCandidatePairs and applyMmr on resident rows equal the plain calls", () => {
    const r = rng(12), d = 32, n = 400, m = rows(r, n, d, "clustered");
    const h = raw.rows(m, d);
    const keys = Array.from({ length: n }, (_, i) => `r${String(i).padStart(4, "0")}`);
    const np = 500, pairs = Array.from({ length: np }, () => [Math.floor(r() * n), Math.floor(r() * n)]);
    const sp = alloc(4 * np), tp = alloc(4 * np), out = alloc(16);
    u32().set(pairs.map((x) => x[0]), sp >>> 2);
    u32().set(pairs.map((x) => x[1]), tp >>> 2);
    const o = { floor: 0.3, perSourceK: 3, limit: 1e9 };
    check(ex.md_rows_rank_candidate_pairs(h.h, 0, sp, tp, np, o.floor, o.perSourceK, o.limit, out), "md_rows_rank_candidate_pairs");
    const len = u32()[out >>> 2], pp = u32()[(out >>> 2) + 1];
    const want = md.rankCandidatePairs(pairs.map(([s, t]) => ({ src: keys[s], dst: keys[t] })),
      keys.map((key, i) => ({ key, vec: m.subarray(i * d, i * d + d) })), o);
    expect(Array.from({ length: len }, (_, i) => ({ src: keys[u32()[(pp >>> 2) + 4 * i]], dst: keys[u32()[(pp >>> 2) + 4 * i + 1]],
      sim: f64()[(pp >>> 3) + 2 * i + 1] }))).toEqual(want);
    ex.md_free(pp);
    // applyMmr: candidates are rows (as plain arrays of the widened floats)
    const nc = 60, pick = Array.from({ length: nc }, () => Math.floor(r() * n)), scores = pick.map(() => r());
    const rp = alloc(4 * nc), scp = alloc(8 * nc), op = alloc(4 * nc);
    u32().set(pick, rp >>> 2);
    f64().set(scores, scp >>> 3);
    for (const [limit, lambda] of [[10, 0.5], [25, 0.3], [60, 0.9], [5, 1]]) {
      check(ex.md_rows_apply_mmr(h.h, rp, scp, nc, limit, lambda, op, raw.slot), "md_rows_apply_mmr");
      const got = Array.from(u32().subarray(op >>> 2, (op >>> 2) + u32()[raw.slot >>> 2]));
      const cands = pick.map((row, i) => ({ path: `c${i}`, score: scores[i], vector: Array.from(m.subarray(row * d, row * d + d)) }));
      expect(got.map((i) => `c${i}`)).toEqual(md.applyMmr(cands, limit, lambda).map((c) => c.path));
    }
    for (const p of [sp, tp, out, rp, scp, op]) ex.md_free(p);
    h.free();
  });

  test("bad input is a status, never a trap", () => {
    const out = alloc(16);
    expect(ex.md_rows_new(0, out)).toBe(3); // MD_ERR_RANGE
    expect(ex.md_rows_new(4, 0)).toBe(1); // MD_ERR_NULL
    check(ex.md_rows_new(4, out), "md_rows_new");
    const h = u32()[out >>> 2];
    expect(ex.md_rows_append(h, 0, 3)).toBe(1);
    expect(ex.md_rows_set(h, 5, out)).toBe(3);
    expect(ex.md_rows_top_cosine(h, 0, 5, out, out, out)).toBe(1);
    expect(ex.md_neighbor_pairs_ranked(0, 2, 2, 0, 0, 2, 0, 5, 10, true, out)).toBe(1);
    ex.md_rows_free(h);
    ex.md_free(out);
  });
});

// residentRows on md_rows (issue 16) through the public API, on the selected
// wasm build: sizes where the pruned top-k engages (at least 512 rows, d in
// [16, 8192], k up to n / 4), on random, clustered, duplicated, near-tie and
// hostile (NaN, infinite, zero) rows. Every answer must equal the unpruned
// topCosineRows / cosineRows over the same matrix, bit for bit.
import * as md from "../../js/index.js";
import { exportsOf } from "../../js/src/core.js";
import { wasmBytes } from "./build.js";
import { rng } from "../oracles/rng.js";

md.initSync(new WebAssembly.Module(wasmBytes()));

function rows(r, kind, n, d) {
  const m = new Float32Array(n * d);
  const centroids = Array.from({ length: 20 }, () => Float32Array.from({ length: d }, () => r() * 2 - 1));
  for (let i = 0; i < n; i++) {
    const c = centroids[i % centroids.length];
    for (let j = 0; j < d; j++) {
      const x = i * d + j;
      if (kind === "random") m[x] = r() * 2 - 1;
      else if (kind === "clustered") m[x] = c[j] + (r() - 0.5) * 0.05;
      else if (kind === "constant") m[x] = 1 + (r() < 0.01 ? 2 ** -20 : 0); // nearly every row equal
      else m[x] = c[j] + (r() < 0.5 ? 0 : 2 ** -22); // near-ties at the threshold
    }
    if (kind !== "random" && r() < 0.1 && i > 0) m.copyWithin(i * d, (i - 1) * d, i * d); // duplicates
  }
  if (kind === "clustered") {
    m.fill(0, 3 * d, 4 * d); // a zero row
    m[5 * d + 1] = NaN;
    m[7 * d] = Infinity;
  }
  return m;
}

function sameBits(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

test("topCosineRows and cosineRows on resident rows equal the unpruned calls, bit for bit", () => {
  const r = rng(16);
  const bad = [];
  let compared = 0;
  for (const kind of ["random", "clustered", "constant", "near-tie"]) {
    for (const [n, d] of [[600, 16], [2048, 48], [1500, 384]]) {
      const m = rows(r, kind, n, d);
      const h = md.residentRows(m, d);
      for (let q = 0; q < 4; q++) {
        const query = q === 3 ? m.slice(2 * d, 3 * d) : rows(r, kind, 1, d); // q = 3: a row of the matrix itself
        if (q === 2 && kind === "clustered") query[0] = NaN;
        for (const k of [1, 5, 50, n >> 2, n]) {
          const got = h.topCosineRows(query, k), want = md.topCosineRows(query, m, k);
          compared++;
          if (!sameBits(got.indices, want.indices) || !sameBits(got.sims, want.sims)) bad.push(`${kind} n=${n} d=${d} q=${q} k=${k}`);
        }
        if (!sameBits(h.cosineRows(query), md.cosineRows(query, m))) bad.push(`${kind} n=${n} d=${d} q=${q} cosineRows`);
      }
      h.free();
    }
  }
  expect(compared).toBe(4 * 3 * 4 * 5);
  expect(bad).toEqual([]);
});

test("residentRows over an array of rows equals the packed matrix, bit for bit; bad rows throw naming the row", () => {
  const r = rng(27);
  let compared = 0;
  for (const kind of ["random", "clustered", "near-tie"]) {
    const n = 1100, d = 96, m = rows(r, kind, n, d);
    // rows as views into one buffer and as copies of their own, in one list
    const list = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? m.slice(i * d, (i + 1) * d) : m.subarray(i * d, (i + 1) * d)));
    const a = md.residentRows(m, d), b = md.residentRows(list, d);
    expect(b.n).toBe(n);
    for (let q = 0; q < 3; q++) {
      const query = q === 2 ? m.slice(5 * d, 6 * d) : rows(r, kind, 1, d);
      for (const k of [1, 10, 275]) {
        const x = a.topCosineRows(query, k), y = b.topCosineRows(query, k);
        expect(sameBits(y.indices, x.indices) && sameBits(y.sims, x.sims)).toBe(true);
        compared++;
      }
      expect(sameBits(b.cosineRows(query), a.cosineRows(query))).toBe(true);
    }
    list[7][0] = 12345; // the rows were copied in: a later change to a row is not seen
    expect(sameBits(b.cosineRows(m.slice(0, d)), a.cosineRows(m.slice(0, d)))).toBe(true);
    a.free();
    b.free();
  }
  expect(compared).toBe(27);
  const empty = md.residentRows([], 4);
  expect(empty.n).toBe(0);
  expect(empty.topCosineRows(new Float32Array(4), 3).indices.length).toBe(0);
  empty.free();
  const good = new Float32Array(4);
  expect(() => md.residentRows([good, [1, 2, 3, 4]], 4)).toThrow(new TypeError("residentRows: matrix[1] must be a Float32Array, got an array"));
  expect(() => md.residentRows([good, new Float64Array(4)], 4)).toThrow(TypeError);
  expect(() => md.residentRows([good, new Float32Array(3)], 4)).toThrow(new RangeError("residentRows: matrix[1] has 3 elements, not d = 4"));
  expect(() => md.residentRows([good], 0)).toThrow(RangeError);
  // as many rows as the packed form takes: a million rows of 384 (past 2^28 elements) pass the count,
  // and the first bad row is what throws; past 2^30 float32 elements the count does
  const many = (n) => { const a = [undefined]; a.length = n; return a; };
  expect(() => md.residentRows(many(1_000_000), 384)).toThrow(new TypeError("residentRows: matrix[0] must be a Float32Array, got undefined"));
  expect(() => md.residentRows(many(2 ** 22 + 1), 256)).toThrow(new RangeError("residentRows: matrix has 4194305 entries, more than memdomain accepts"));
});

test("creating and freeing resident rows does not grow the heap", () => {
  const m = rows(rng(3), "random", 1024, 64), q = m.slice(0, 64);
  const grow = () => { for (let i = 0; i < 50; i++) { const h = md.residentRows(m, 64); h.topCosineRows(q, 10); h.free(); } };
  grow();
  const before = exportsOf().memory.buffer.byteLength;
  for (let i = 0; i < 20; i++) grow(); // 1,000 handles of 256 KiB each: 250 MiB if they leaked
  expect(exportsOf().memory.buffer.byteLength).toBe(before);
  const h = md.residentRows(m, 64);
  expect(h.topCosineRows(q, 3).indices[0]).toBe(0);
  h.free();
});

test("applyMmr and rankCandidatePairs on resident rows (their stored norms) equal the copying calls, bit for bit", () => {
  const r = rng(61);
  for (const kind of ["random", "clustered", "constant", "near-tie"]) {
    for (const [n, d] of [[40, 16], [700, 48]]) {
      const m = rows(r, kind, n, d), h = md.residentRows(m, d);
      const keys = Array.from({ length: n }, (_, i) => (i % 7 === 3 ? `k${i - 1}` : `k${i}`)); // some repeated keys
      for (const pick of [5, 30, n]) {
        // the top rows of a query, then MMR over them: the resident path a search takes
        const { indices, sims } = h.topCosineRows(rows(r, kind, 1, d), pick);
        const sub = new Float32Array(indices.length * d);
        indices.forEach((row, i) => sub.set(m.subarray(row * d, (row + 1) * d), i * d));
        for (const [limit, lambda] of [[5, 0.5], [pick, 0.3], [3, 1], [0, 0.5], [2.5, undefined], [NaN, 0.7]]) {
          const got = h.applyMmr(indices, sims, limit, lambda), want = md.applyMmrPacked(sims, sub, limit, lambda);
          expect(Array.from(got)).toEqual(Array.from(want));
          const cands = Array.from(indices, (row, i) => ({ path: `p${i}`, score: sims[i], vector: m.subarray(row * d, (row + 1) * d) }));
          expect(Array.from(got, (i) => `p${i}`)).toEqual(md.applyMmr(cands, limit, lambda).map((c) => c.path));
        }
      }
      const pairs = Array.from({ length: 3 * n }, () => ({ src: keys[Math.floor(r() * n)], dst: r() < 0.05 ? "missing" : keys[Math.floor(r() * n)] }));
      const vectors = keys.map((key, i) => ({ key, vec: m.subarray(i * d, (i + 1) * d) }));
      for (const o of [{ floor: -1, perSourceK: 3, limit: 1e9 }, { floor: 0.2, perSourceK: 1, limit: 7 }, { floor: NaN, perSourceK: 2, limit: 5 }])
        expect(h.rankCandidatePairs(keys, pairs, o)).toEqual(md.rankCandidatePairs(pairs, vectors, o));
      h.free();
    }
  }
});

test("resident applyMmr and rankCandidatePairs: bad input throws naming the argument", () => {
  const h = md.residentRows(rows(rng(2), "random", 4, 16), 16);
  const o = { floor: 0, perSourceK: 1, limit: 1 };
  expect(() => h.applyMmr([0, 1], [1, 1], 1)).toThrow(/rows must be a Uint32Array/);
  expect(() => h.applyMmr(new Uint32Array([0, 1]), [1], 1)).toThrow(RangeError);
  expect(() => h.applyMmr(new Uint32Array([0, 9]), [1, 1], 2)).toThrow(/applyMmr: rows/);
  expect(() => h.applyMmr(new Uint32Array([0]), ["1"], 1)).toThrow(/scores\[0\]/);
  expect(() => h.applyMmr(new Uint32Array([0]), [1], "1")).toThrow(/limit/);
  expect(() => h.rankCandidatePairs(["a", "b"], [], o)).toThrow(/keys has 2 entries, not n = 4/);
  expect(() => h.rankCandidatePairs(["a", "b", 3, "d"], [], o)).toThrow(/keys\[2\]/);
  expect(() => h.rankCandidatePairs(["a", "b", "c", "d"], [{ src: "a" }], o)).toThrow(/pairs\[0\]\.dst/);
  h.free();
  expect(() => h.applyMmr(new Uint32Array([0]), [1], 1)).toThrow(/was freed/);
  expect(() => h.rankCandidatePairs(["a", "b", "c", "d"], [], o)).toThrow(/was freed/);
});

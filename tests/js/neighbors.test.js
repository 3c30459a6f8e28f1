// neighbors on the selected wasm build (tests/js/build.js): the reference shapes against the plain-JS
// baseline (an independent transcription of the design), the packed batch
// forms against the reference-shaped calls, the 1 x n arm against cosine,
// and argument errors.
import * as md from "../../js/index.js";
import { tileBounds } from "../../js/src/workers.js";
import * as base from "../oracles/baseline-neighbors.js";
import { BUILD, wasmBytes } from "./build.js";
import { rng } from "../oracles/rng.js";



const KEYS = ["a", "b", "ab", "～", "\u{1F600}", "\uE000", "z", "é", "x1", "x10", "x2", ""];

function matrix(r, n, d, adversarial) {
  const m = new Float32Array(n * d);
  for (let i = 0; i < m.length; i++) {
    const u = r();
    m[i] = adversarial && u < 0.02 ? [NaN, Infinity, -Infinity, 0, 1e-45, -3e-39][Math.floor(r() * 6)]
      : u < 0.3 ? Math.round(r() * 6 - 3) : r() * 4 - 2;
  }
  // exact duplicates make ties
  for (let i = 1; i < n; i++) if (r() < 0.15) m.copyWithin(i * d, (i - 1) * d, i * d);
  return m;
}

function keysFor(r, n) {
  const out = [], seen = new Set();
  while (out.length < n) {
    const k = KEYS[Math.floor(r() * KEYS.length)] + (r() < 0.5 ? String(out.length) : "");
    if (!seen.has(k)) { seen.add(k); out.push(k); }
  }
  return out;
}

const OPTIONS = [
  { floor: -1, perSourceK: 3, limit: 1000 },
  { floor: 0.2, perSourceK: 1, limit: 5 },
  { floor: NaN, perSourceK: 2, limit: 10 },
  { floor: -Infinity, perSourceK: 2.5, limit: -3 },
  { floor: 0, perSourceK: 0, limit: 10 },
  { floor: 0.5, perSourceK: Infinity, limit: Infinity },
  { floor: -0.5, perSourceK: NaN, limit: 7.9 },
];

md.initSync(wasmBytes());

describe(`neighbors (${BUILD})`, () => {
  test("topNeighborPairs, rankCandidatePairs and the packed pass match the baseline", () => {
    const r = rng(11);
    for (let iter = 0; iter < 120; iter++) {
      const n = Math.floor(r() * 30), d = Math.floor(r() * 20);
      const m = matrix(r, n, d, iter % 3 === 0);
      const keys = keysFor(r, n);
      const vectors = keys.map((key, i) => ({ key, vec: m.subarray(i * d, (i + 1) * d) }));
      const o = OPTIONS[iter % OPTIONS.length];
      const want = base.topNeighborPairs(vectors, o);
      expect(md.topNeighborPairs(vectors, o)).toEqual(want);
      expect(md.topNeighborPairsPacked(m, keys, o)).toEqual(want);
      const pairs = [];
      for (let i = 0; i < 3 * n; i++) {
        const a = keys[Math.floor(r() * n)], b = r() < 0.1 ? "missing" : keys[Math.floor(r() * n)];
        pairs.push({ src: a, dst: b });
      }
      expect(md.rankCandidatePairs(pairs, vectors, o)).toEqual(base.rankCandidatePairs(pairs, vectors, o));
    }
  });

  // The final sort at sizes where it runs as a radix sort of (sim, src rank,
  // dst rank) records: exact ties from duplicated and zero rows, keys held
  // by more than one row (equal ranks: ties kept in list order), against the
  // baseline's stable sort.
  test("the final order over thousands of pairs: ties, zero rows and repeated keys match the baseline", () => {
    const r = rng(17);
    for (let iter = 0; iter < 12; iter++) {
      const n = 150 + Math.floor(r() * 300), d = 3 + Math.floor(r() * 6);
      const m = matrix(r, n, d, iter % 4 === 3);
      for (let i = 0; i < n; i++) if (r() < 0.03) m.fill(0, i * d, (i + 1) * d);
      const keys = keysFor(r, n);
      if (iter % 2) for (let i = 0; i < n; i++) if (r() < 0.1) keys[i] = keys[Math.floor(r() * n)];
      const vectors = keys.map((key, i) => ({ key, vec: m.subarray(i * d, (i + 1) * d) }));
      const o = { floor: iter % 3 ? -1 : 0, perSourceK: 1 + (iter % 8), limit: iter % 5 ? 1e9 : 777 };
      const want = base.topNeighborPairs(vectors, o);
      expect(want.length).toBeGreaterThan(200);
      expect(md.topNeighborPairs(vectors, o)).toEqual(want);
      if (!(iter % 2)) expect(md.topNeighborPairsPacked(m, keys, o)).toEqual(want);
    }
  });

  test("plain number[] embeddings (doubles, as parsed from JSON), alone or mixed with typed arrays", () => {
    // A product of two doubles rounds (unlike two float32 values), so these take
    // the double kernels: every pair's sim must equal cosine of the same arrays.
    const r = rng(12);
    for (let iter = 0; iter < 60; iter++) {
      const n = Math.floor(r() * 25), d = Math.floor(r() * 12), keys = keysFor(r, n);
      const m = matrix(r, n, d, iter % 3 === 0);
      const vectors = keys.map((key, i) => {
        const row = Array.from(m.subarray(i * d, (i + 1) * d), (x) => (iter % 2 ? x + r() * 1e-3 : x));
        const kind = iter % 5 === 0 ? i % 3 : 0; // mixed: number[], Float32Array, Float64Array
        return { key, vec: kind === 1 ? new Float32Array(row) : kind === 2 ? new Float64Array(row) : row };
      });
      if (n > 2 && iter % 7 === 0) vectors.push({ ...vectors[1], key: vectors[0].key }); // a repeated key
      const o = OPTIONS[iter % OPTIONS.length];
      const got = md.topNeighborPairs(vectors, o);
      expect(got).toEqual(base.topNeighborPairs(vectors, o));
      const byKey = new Map(vectors.map((v) => [v.key, v.vec]));
      if (!vectors.some((v, i) => vectors.findIndex((w) => w.key === v.key) !== i))
        for (const p of got) expect(Object.is(p.sim, md.cosine(byKey.get(p.src), byKey.get(p.dst)))).toBe(true);
      const pairs = [];
      for (let i = 0; i < 3 * n; i++)
        pairs.push({ src: keys[Math.floor(r() * n)], dst: r() < 0.1 ? "missing" : keys[Math.floor(r() * n)] });
      const ranked = md.rankCandidatePairs(pairs, vectors, o);
      expect(ranked).toEqual(base.rankCandidatePairs(pairs, vectors, o));
      for (const p of ranked) expect(Object.is(p.sim, md.cosine(byKey.get(p.src), byKey.get(p.dst)))).toBe(true);
    }
    // The example: doubles that are not float32 values.
    const a = [0.1, 0.2, 0.3], b = [0.3, 0.2, 0.1000000000000001];
    const [p] = md.topNeighborPairs([{ key: "a", vec: a }, { key: "b", vec: b }], { floor: -1, perSourceK: 1, limit: 1 });
    expect(p.sim).toBe(base.topNeighborPairs([{ key: "a", vec: a }, { key: "b", vec: b }], { floor: -1, perSourceK: 1, limit: 1 })[0].sim);
    expect(p.sim).not.toBe(md.cosine(new Float32Array(a), new Float32Array(b)));
  });

  test("ragged vectors: mismatched lengths use cosine's shorter walk", () => {
    const r = rng(5);
    for (let iter = 0; iter < 40; iter++) {
      const n = 2 + Math.floor(r() * 10);
      const vectors = keysFor(r, n).map((key) => ({ key, vec: matrix(r, 1, 1 + Math.floor(r() * 4), iter % 2 === 0) }));
      const o = OPTIONS[iter % OPTIONS.length];
      expect(md.topNeighborPairs(vectors, o)).toEqual(base.topNeighborPairs(vectors, o));
    }
  });

  test("a NaN vector enters no neighbourhood", () => {
    const vectors = [
      { key: "a", vec: new Float32Array([1, 0]) },
      { key: "b", vec: new Float32Array([NaN, 1]) },
      { key: "c", vec: new Float32Array([1, 0.1]) },
    ];
    const out = md.topNeighborPairs(vectors, { floor: -1, perSourceK: 5, limit: 10 });
    expect(out.map((p) => p.src + p.dst)).toEqual(["ac", "ca"]);
  });

  test("tiles merged in any partition equal the whole pass", () => {
    const r = rng(99);
    for (let iter = 0; iter < 30; iter++) {
      const n = Math.floor(r() * 40), d = 1 + Math.floor(r() * 9);
      const m = matrix(r, n, d, iter % 4 === 0), keys = keysFor(r, n);
      const o = OPTIONS[iter % OPTIONS.length];
      const whole = md.topNeighborPairsPacked(m, keys, o);
      for (let t = 1; t <= 5; t++) {
        const b = tileBounds(n, t);
        const tiles = [];
        for (let i = 0; i + 1 < b.length; i++) tiles.push(md.neighborTile(m, keys, b[i], b[i + 1], o));
        expect(md.mergeNeighborTiles(keys, tiles.reverse(), o)).toEqual(whole);
      }
    }
  });

  test("a list of rows gives the packed matrix's pairs and tiles, bit for bit", () => {
    const r = rng(98);
    for (let iter = 0; iter < 30; iter++) {
      const n = Math.floor(r() * 40), d = 1 + Math.floor(r() * 40);
      const m = matrix(r, n, d, iter % 4 === 0), keys = keysFor(r, n), o = OPTIONS[iter % OPTIONS.length];
      const rows = Array.from({ length: n }, (_, i) => m.slice(i * d, (i + 1) * d));
      expect(md.topNeighborPairsPacked(rows, keys, o)).toEqual(md.topNeighborPairsPacked(m, keys, o));
      const e = Math.floor(r() * (n + 1));
      expect(md.neighborTile(rows, keys, 0, e, o)).toEqual(md.neighborTile(m, keys, 0, e, o));
    }
    // large enough for the pruned pass (d >= 16, over 32,768 pairs)
    const n = 400, d = 24, m = matrix(r, n, d, false), keys = keysFor(r, n), o = { floor: 0.2, perSourceK: 5, limit: 1e6 };
    const rows = Array.from({ length: n }, (_, i) => m.subarray(i * d, (i + 1) * d));
    expect(md.topNeighborPairsPacked(rows, keys, o)).toEqual(md.topNeighborPairsPacked(m, keys, o));
    expect(md.neighborTile(rows, keys, 0, 7, o)).toEqual(md.neighborTile(m, keys, 0, 7, o));
    expect(() => md.topNeighborPairsPacked([new Float32Array(2)], ["a", "b"], o)).toThrow(/matrix has 1 rows, not keys\.length \(2\)/);
    expect(() => md.topNeighborPairsPacked([new Float32Array(2), new Float32Array(3)], ["a", "b"], o)).toThrow(/matrix\[1\] has 3 elements/);
    expect(() => md.neighborTile([new Float32Array(2), [1, 2]], ["a", "b"], 0, 1, o)).toThrow(/neighborTile: matrix\[1\] must be a Float32Array/);
  });

  test("cosineRows and topCosineRows equal cosine row by row", () => {
    const r = rng(3);
    for (let iter = 0; iter < 40; iter++) {
      const n = Math.floor(r() * 50), d = 1 + Math.floor(r() * 40);
      const m = matrix(r, n, d, iter % 2 === 0), q = matrix(r, 1, d, iter % 3 === 0);
      const want = Array.from({ length: n }, (_, i) => md.cosine(q, m.subarray(i * d, (i + 1) * d)));
      const got = md.cosineRows(q, m);
      expect(got).toBeInstanceOf(Float64Array);
      expect(Array.from(got)).toEqual(want);
      const k = Math.floor(r() * (n + 3));
      const order = want.map((s, i) => i).sort((a, b) => want[b] - want[a] || a - b).slice(0, k);
      const top = md.topCosineRows(q, m, k);
      expect(Array.from(top.indices)).toEqual(order);
      expect(Array.from(top.sims)).toEqual(order.map((i) => want[i]));
    }
  });

  test("residentRows answers as cosineRows/topCosineRows, and frees", () => {
    const r = rng(4);
    for (let iter = 0; iter < 20; iter++) {
      const n = Math.floor(r() * 60), d = 1 + Math.floor(r() * 30);
      const m = matrix(r, n, d, iter % 2 === 0);
      const h = md.residentRows(m, d);
      expect([h.n, h.d]).toEqual([n, d]);
      for (let q = 0; q < 3; q++) {
        const query = matrix(r, 1, d, q === 2);
        expect(h.cosineRows(query)).toEqual(md.cosineRows(query, m));
        expect(h.topCosineRows(query, 5)).toEqual(md.topCosineRows(query, m, 5));
      }
      h.free();
      h.free();
      expect(() => h.cosineRows(new Float32Array(d))).toThrow(/residentRows\.cosineRows: this was freed/);
    }
    expect(() => md.residentRows(new Float32Array(5), 2)).toThrow(RangeError);
    expect(() => md.residentRows(new Float32Array(4), 0)).toThrow(/d/);
    const h = md.residentRows(new Float32Array(4), 2);
    expect(() => h.cosineRows(new Float32Array(3))).toThrow(/query/);
    h.free();
  });

  test("float32View: in place when aligned, a copy when not, undefined when ragged", () => {
    const buf = new ArrayBuffer(16);
    const aligned = new Uint8Array(buf, 4, 8);
    const v = md.float32View(aligned);
    expect(v.buffer).toBe(buf);
    const odd = new Uint8Array(buf, 1, 8);
    expect(md.float32View(odd).buffer).not.toBe(buf);
    expect(md.float32View(new Uint8Array(0))).toBeUndefined();
    expect(md.float32View(new Uint8Array(buf, 0, 6))).toBeUndefined();
    expect(() => md.float32View([1, 2, 3, 4])).toThrow(TypeError);
  });

  test("bad input throws TypeError/RangeError naming the argument", () => {
    const o = { floor: 0, perSourceK: 1, limit: 1 };
    expect(() => md.topNeighborPairs("x", o)).toThrow(/vectors/);
    expect(() => md.topNeighborPairs([{ key: "a", vec: [1, "2"] }], o)).toThrow(/vectors\[0\]\.vec\[1\]/);
    expect(() => md.topNeighborPairs([{ key: "a", vec: null }], o)).toThrow(TypeError);
    expect(() => md.topNeighborPairs([{ key: 1, vec: new Float32Array(1) }], o)).toThrow(/vectors\[0\]\.key/);
    expect(() => md.topNeighborPairs([], { floor: "0", perSourceK: 1, limit: 1 })).toThrow(/options\.floor/);
    expect(() => md.rankCandidatePairs([{ src: "a" }], [], o)).toThrow(/pairs\[0\]\.dst/);
    expect(() => md.topNeighborPairsPacked(new Float32Array(5), ["a", "b"], o)).toThrow(RangeError);
    expect(() => md.topNeighborPairsPacked(new Float32Array(4), ["a", "a"], o)).toThrow(/keys must be unique/);
    expect(() => md.topNeighborPairsPacked(new Float64Array(4), ["a", "b"], o)).toThrow(/matrix/);
    expect(() => md.cosineRows(new Float32Array(3), new Float32Array(7))).toThrow(RangeError);
    expect(() => md.topCosineRows(new Float32Array(1), new Float32Array(2), "1")).toThrow(/k/);
    expect(() => md.neighborTile(new Float32Array(4), ["a", "b"], 0, 3, o)).toThrow(RangeError);
  });
});

// Many workers, one answer: the all-pairs pass split into tiles on
// independent module instances (worker_threads), merged on this thread,
// equals the single-thread pass exactly for any tile count.
import * as md from "../../js/index.js";
import * as workers from "../../js/src/workers.js";
import { tileRuns, tileRunsOf } from "../../js/src/tile-runs.js";
import { wasmBytes } from "./build.js";
import { rng } from "../oracles/rng.js";
import { Worker } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { ROOT } from "./golden/runner.js";

const BUILD_DIR = `${ROOT}build`;

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

  test("the tile schedule hands out every tile once: own runs front to back, then the ends of the longest runs", () => {
    const r = rng(23);
    for (const count of [0, 1, 2, 3, 7, 32, 100]) {
      for (const size of [1, 2, 3, 5]) {
        const s = tileRuns(count, size), seen = new Array(count).fill(0), got = Array.from({ length: size }, () => []);
        const start = (q) => Math.floor((q * count) / size), stop = (q) => Math.floor(((q + 1) * count) / size);
        const ownOf = (t) => { let q = 0; while (t >= stop(q)) q++; return q; };
        // Workers asking in a random order, sometimes for a tile ahead, until none answers.
        for (let idle = 0; idle < 4 * size;) {
          const i = Math.floor(r() * size), ahead = r() < 0.3, t = s.take(i, ahead);
          if (t < 0) { if (!ahead) idle++; continue; }
          seen[t]++;
          got[i].push(t);
          // A tile ahead, and any tile while the worker's own run lasts, is the next of its own run.
          if (ahead || ownOf(t) === i) {
            expect(ownOf(t)).toBe(i);
            expect(t).toBe(start(i) + got[i].filter((x) => ownOf(x) === i).length - 1);
          }
        }
        expect(seen).toEqual(new Array(count).fill(1));
        for (let q = 0; q < size; q++) expect(s.take(q, false)).toBe(-1);
      }
    }
    const s = tileRuns(8, 2); // runs [0, 4) and [4, 8): worker 0 finishes first and steals from the end
    expect([0, 1, 2, 3].map(() => s.take(0, false))).toEqual([0, 1, 2, 3]);
    expect(s.take(1, false)).toBe(4);
    expect(s.take(0, true)).toBe(-1);
    expect(s.take(0, false)).toBe(7);
    s.stop();
    expect(s.take(1, false)).toBe(-1);
  });

  test("spans: half of what is left of a worker's own run, then single tiles stolen; every tile once", () => {
    const r = rng(24);
    for (const count of [1, 2, 5, 64, 257]) {
      for (const size of [1, 2, 3, 4]) {
        if (count < size) continue;
        const s = tileRuns(count, size, r() < 0.5), views = [s, tileRunsOf(s.state)]; // two views of one state
        const start = (q) => Math.floor((q * count) / size), stop = (q) => Math.floor(((q + 1) * count) / size);
        const seen = new Array(count).fill(0), next = Array.from({ length: size }, (_, q) => start(q));
        for (let idle = 0; idle < 4 * size;) {
          const i = Math.floor(r() * size), v = views[Math.floor(r() * 2)];
          const sp = r() < 0.7 ? v.span(i) : ((t) => (t < 0 ? null : [t, t + 1]))(v.take(i, r() < 0.2));
          if (!sp) { idle++; continue; }
          expect(sp[1]).toBeGreaterThan(sp[0]);
          for (let t = sp[0]; t < sp[1]; t++) seen[t]++;
          if (sp[0] >= start(i) && sp[0] < stop(i)) { // its own run, front to back
            expect(sp[0]).toBe(next[i]);
            next[i] = sp[1];
          } else {
            expect(sp[1] - sp[0]).toBe(1); // stolen: one tile
          }
        }
        expect(seen).toEqual(new Array(count).fill(1));
      }
    }
    const s = tileRuns(16, 2); // runs [0, 8) and [8, 16)
    expect(s.span(0)).toEqual([0, 4]); // the first tile and half of the 7 after it, rounded up
    expect(s.span(0)).toEqual([4, 6]);
    expect(s.span(1)).toEqual([8, 12]);
    expect(s.span(0)).toEqual([6, 7]);
    expect(s.span(0)).toEqual([7, 8]);
    expect(s.span(0)).toEqual([15, 16]); // stolen from the end of the other run
    s.stop();
    expect(s.span(1)).toBeNull();
  });

  // Threads racing for the tiles of one schedule in shared memory: each tile
  // is claimed by exactly one of them, and each (its first span claimed
  // before the others start, as in the pool) takes some.
  test("threads taking spans of one shared schedule claim every tile once", async () => {
    const url = new URL("../../js/src/tile-runs.js", import.meta.url).href;
    const code = `const { parentPort, workerData } = require("node:worker_threads");
      import(${JSON.stringify(url)}).then(({ tileRunsOf }) => {
        const s = tileRunsOf(workerData.state), got = [];
        let sp = s.span(workerData.part); // as the pool's workers: the first span before the others may start
        Atomics.add(workerData.go, 0, 1);
        while (Atomics.load(workerData.go, 0) < workerData.size) {} // start together
        for (; sp; sp = s.span(workerData.part)) for (let t = sp[0]; t < sp[1]; t++) got.push(t);
        parentPort.postMessage(got);
      });`;
    for (const [count, size] of [[5000, 4], [64, 3], [3, 3]]) {
      const s = tileRuns(count, size, true), go = new Int32Array(new SharedArrayBuffer(4));
      const got = await Promise.all(Array.from({ length: size }, (_, part) => new Promise((resolve, reject) => {
        const w = new Worker(code, { eval: true, workerData: { state: s.state, go, size, part } });
        w.once("message", (m) => { resolve(m); w.terminate(); });
        w.once("error", reject);
      })));
      const seen = new Array(count).fill(0);
      for (const g of got) for (const t of g) seen[t]++;
      expect(seen).toEqual(new Array(count).fill(1));
      for (const g of got) expect(g.length).toBeGreaterThan(0);
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

  test("opts.rows: the pairs of the first rows only, as one tile of them merged; a bad rows is a RangeError", async () => {
    const { mergeNeighborTiles } = await import("../../js/src/neighbors.js");
    const r = rng(23);
    const [n, d] = [120, 9];
    const m = Float32Array.from({ length: n * d }, () => (r() < 0.2 ? Math.round(r() * 2 - 1) : r() * 2 - 1));
    for (let i = 1; i < n; i += 7) m.copyWithin(i * d, (i - 1) * d, i * d); // ties
    const keys = Array.from({ length: n }, (_, i) => `r${(i * 37) % n}`);
    const o = { floor: -0.2, perSourceK: 4, limit: n * 4 };
    for (const rows of [0, 1, 5, 59, 119, n]) {
      const want = mergeNeighborTiles(keys, [md.neighborTile(m, keys, 0, rows, o)], o);
      for (const tiles of [1, 3, 16]) expect(await pool.topNeighborPairs(m, keys, o, { tiles, rows })).toEqual(want);
    }
    for (const rows of [-1, n + 1, 2.5]) await expect(pool.topNeighborPairs(m, keys, o, { rows })).rejects.toThrow(/topNeighborPairsParallel: rows must be an integer in \[0, 120\]/);
  });

  // Sizes where the pass prunes (enough pairs; the probe finds few survivors):
  // random, clustered and duplicated rows, many tiles handed out from the
  // queue (each worker adds the tiles it takes to one pass, bounds kept).
  test("the queue's tiles equal the single-thread pass where pruning engages", async () => {
    const r = rng(29);
    const n = 700, d = 40;
    const random = new Float32Array(n * d).map(() => r() * 2 - 1);
    const clustered = new Float32Array(n * d);
    const centres = Array.from({ length: 12 }, () => Array.from({ length: d }, () => r() * 2 - 1));
    for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) clustered[i * d + k] = centres[i % 12][k] + (r() - 0.5) * 0.2;
    const duplicated = random.slice();
    for (let i = 3; i < n; i += 7) duplicated.copyWithin(i * d, (i - 3) * d, (i - 2) * d);
    for (let i = 10; i < n; i += 97) duplicated.fill(0, i * d, (i + 1) * d); // zero rows
    const keys = Array.from({ length: n }, (_, i) => (i % 5 ? `k${(i * 7919) % 1009}-${i}` : `\u{1F600}${i}`));
    for (const m of [random, clustered, duplicated]) {
      for (const o of [{ floor: 0, perSourceK: 5, limit: 1e9 }, { floor: -1, perSourceK: 3, limit: 400 }]) {
        const single = md.topNeighborPairsPacked(m, keys, o);
        expect(single.length).toBeGreaterThan(0);
        for (const tiles of [undefined, 2, 700]) {
          expect(await pool.topNeighborPairs(m, keys, o, tiles === undefined ? undefined : { tiles })).toEqual(single);
          const st = pool.lastStats;
          expect(st.tiles).toBe(tiles ?? 128);
          expect(st.tilesPerWorker.reduce((a, b) => a + b, 0)).toBe(st.tiles);
          expect(Math.min(...st.tilesPerWorker)).toBeGreaterThan(0); // both workers took tiles
        }
      }
    }
  });

  test("passes asked for at once run one after the other, each exact", async () => {
    const r = rng(31);
    const n = 300, d = 24;
    const a = new Float32Array(n * d).map(() => r() - 0.5), b = new Float32Array(n * d).map(() => r() - 0.3);
    const keys = Array.from({ length: n }, (_, i) => `r${i}`);
    const o = { floor: 0, perSourceK: 4, limit: 1e9 };
    const dup = [...keys.slice(0, n - 1), "r0"];
    const got = await Promise.all([pool.topNeighborPairs(a, keys, o, { tiles: 9 }), pool.topNeighborPairs(b, keys, o),
      pool.topNeighborPairs(a, dup, o).catch((e) => e), pool.topNeighborPairs(b, keys, o, { tiles: 2 })]);
    expect(got[0]).toEqual(md.topNeighborPairsPacked(a, keys, o));
    expect(got[1]).toEqual(md.topNeighborPairsPacked(b, keys, o));
    expect(got[2]).toBeInstanceOf(RangeError);
    expect(got[2].message).toMatch(/^topNeighborPairsParallel: keys holds "r0" more than once/);
    expect(got[3]).toEqual(got[1]);
    // the pool's shared copy of the matrix, reused: a smaller matrix into it, then a larger one
    const c = a.subarray(0, 120 * d), ck = keys.slice(0, 120), e = new Float32Array(2 * n * d).map(() => r() - 0.5);
    const ek = Array.from({ length: 2 * n }, (_, i) => `e${i}`);
    expect(await pool.topNeighborPairs(c, ck, o)).toEqual(md.topNeighborPairsPacked(c, ck, o));
    expect(await pool.topNeighborPairs(e, ek, o)).toEqual(md.topNeighborPairsPacked(e, ek, o));
    expect(await pool.topNeighborPairs(a, keys, o)).toEqual(got[0]);
  });

  test("duplicate keys are a RangeError before any worker starts", async () => {
    await expect(pool.topNeighborPairs(new Float32Array(4), ["a", "a"], { floor: 0, perSourceK: 1, limit: 1 }))
      .rejects.toThrow(RangeError);
  });

  test("the tile worker answers a bad message with a named error and keeps serving", async () => {
    const w = new Worker(new URL("../../js/src/workers-tile.js", import.meta.url));
    const ask = (msg) => new Promise((resolve) => { w.once("message", resolve); w.postMessage(msg); });
    try {
      const module = new WebAssembly.Module(bytes), m = new Float32Array(6 * 4).map((_, i) => Math.cos(i));
      const rank = new Uint32Array([5, 4, 3, 2, 1, 0]), options = { floor: -1, perSourceK: 2, limit: 100 };
      expect((await ask({ id: 1, wasm: module, op: "add", range: [0, 1] })).error.message).toMatch(/no pass in progress/);
      const far = await ask({ id: 2, op: "add", range: [2, 7], begin: { matrix: m, rank, options } });
      expect(far.error).toEqual({ name: "RangeError", message: expect.stringMatching(/^topNeighborPairsParallel: /) });
      expect((await ask({ id: 3, op: "add", range: [0, 3], begin: { matrix: m, rank, options } })).error).toBeUndefined();
      const again = await ask({ id: 4, op: "add", range: [2, 4] }); // row 2 twice
      expect(again.error.name).toBe("RangeError");
      expect((await ask({ id: 5, op: "end" })).error.message).toMatch(/no pass in progress/); // the failed pass was released
      expect((await ask({ id: 6, op: "add", range: [0, 6], begin: { matrix: m, rank, options } })).error).toBeUndefined();
      const { tile } = await ask({ id: 7, op: "end" });
      expect(tile.sim.length).toBe(12); // every source keeps its top 2
    } finally {
      await w.terminate();
    }
  });

  // The bounds in shared memory: a worker raises them after each tile, and
  // every raised value is one the row's k-th best pair reaches (a value above
  // it would drop pairs the answer needs); a second worker started on them
  // still answers its tiles exactly.
  test("the shared bounds a tile raises stay below each row's k-th best similarity", async () => {
    const r = rng(41), n = 400, d = 24, k = 3;
    const m = new Float32Array(n * d).map(() => r() * 2 - 1);
    for (let i = 7; i < n; i += 11) m.copyWithin(i * d, (i - 7) * d, (i - 6) * d); // duplicate rows: ties
    m.fill(0, 20 * d, 21 * d); // a zero row
    m[30 * d] = NaN; // a NaN row
    const keys = Array.from({ length: n }, (_, i) => `k${(i * 7919) % 1009}-${i}`);
    const options = { floor: -1, perSourceK: k, limit: 1e9 };
    const all = md.topNeighborPairsPacked(m, keys, { floor: -1, perSourceK: n, limit: 1e9 });
    const row = new Map(keys.map((key, i) => [key, i])), sims = keys.map(() => []);
    for (const p of all) sims[row.get(p.src)].push(p.sim);
    const kth = sims.map((s) => (s.length >= k ? s.sort((a, b) => b - a)[k - 1] : -Infinity));
    const rank = new Uint32Array(n);
    [...keys.keys()].sort((a, b) => (keys[a] < keys[b] ? -1 : 1)).forEach((i, at) => { rank[i] = at; });
    const learned = new Float32Array(new SharedArrayBuffer(4 * n)).fill(-Infinity);
    const matrix = new Float32Array(new SharedArrayBuffer(4 * m.length));
    matrix.set(m);
    const workersUp = [0, 1].map(() => new Worker(new URL("../../js/src/workers-tile.js", import.meta.url)));
    const ask = (w, msg) => new Promise((resolve) => { w.once("message", resolve); w.postMessage(msg); });
    try {
      const module = new WebAssembly.Module(bytes), begin = { matrix, rank, options, share: true, learned };
      const first = await ask(workersUp[0], { id: 1, wasm: module, op: "add", range: [0, 60], begin });
      expect(first.error).toBeUndefined();
      expect(first.bounds).toBeUndefined(); // raised in place, not sent back
      const raised = [...learned.keys()].filter((j) => learned[j] > -Infinity);
      expect(raised.length).toBeGreaterThan(n / 2);
      for (const j of raised) expect(learned[j]).toBeLessThanOrEqual(kth[j]);
      // the second worker prunes with them from its first tile; the two passes merged are the single pass
      expect((await ask(workersUp[1], { id: 2, wasm: module, op: "add", range: [60, n], begin })).error).toBeUndefined();
      for (const j of raised) expect(learned[j]).toBeLessThanOrEqual(kth[j]);
      const parts = await Promise.all(workersUp.map((w, i) => ask(w, { id: 3 + i, op: "end" })));
      const { mergeNeighborTiles } = await import("../../js/src/neighbors.js");
      expect(mergeNeighborTiles(keys, parts.map((p) => p.tile), options)).toEqual(md.topNeighborPairsPacked(m, keys, options));
    } finally {
      await Promise.all(workersUp.map((w) => w.terminate()));
    }
  });

  // The setup split: each worker computes half the rows' int16 copies and
  // norms and takes the other half from shared memory; a part whose worker
  // failed (flag 2) is computed by the one that waits for it.
  test("workers splitting the setup answer exactly, and a missing part is computed instead", async () => {
    const r = rng(43), n = 360, d = 40;
    const m = new Float32Array(n * d).map(() => r() * 2 - 1);
    for (let i = 5; i < n; i += 13) m.copyWithin(i * d, (i - 5) * d, (i - 4) * d);
    m.fill(0, 100 * d, 101 * d);
    const keys = Array.from({ length: n }, (_, i) => `s${(i * 31) % 97}-${i}`);
    const options = { floor: 0, perSourceK: 4, limit: 1e9 };
    const want = md.topNeighborPairsPacked(m, keys, options);
    const rank = new Uint32Array(n);
    [...keys.keys()].sort((a, b) => (keys[a] < keys[b] ? -1 : 1)).forEach((i, at) => { rank[i] = at; });
    const matrix = new Float32Array(new SharedArrayBuffer(4 * m.length));
    matrix.set(m);
    const { mergeNeighborTiles } = await import("../../js/src/neighbors.js");
    const ws = [0, 1].map(() => new Worker(new URL("../../js/src/workers-tile.js", import.meta.url)));
    const ask = (w, msg) => new Promise((resolve) => { w.once("message", resolve); w.postMessage(msg); });
    try {
      const module = new WebAssembly.Module(bytes), rows = [0, 170, n];
      const bufOf = () => new SharedArrayBuffer(8 + n * (24 + 2 * 64));
      const buf = bufOf();
      const begin = (part) => ({ matrix, rank, options, split: { part, rows, buf } });
      const got = await Promise.all(ws.map((w, i) => ask(w, { id: 1, wasm: module, op: "add", range: i ? [150, n] : [0, 150], begin: begin(i) })));
      expect(got.map((x) => x.error)).toEqual([undefined, undefined]);
      expect([...new Int32Array(buf, 0, 2)]).toEqual([1, 1]); // both handed their rows over
      const parts = await Promise.all(ws.map((w) => ask(w, { id: 2, op: "end" })));
      expect(mergeNeighborTiles(keys, parts.map((x) => x.tile), options)).toEqual(want);
      // part 1 failed: worker 0 computes its rows itself
      const lone = bufOf();
      new Int32Array(lone, 0, 2)[1] = 2;
      expect((await ask(ws[0], { id: 3, op: "add", range: [0, n], begin: { matrix, rank, options, split: { part: 0, rows, buf: lone } } })).error).toBeUndefined();
      const { tile } = await ask(ws[0], { id: 4, op: "end" });
      expect(mergeNeighborTiles(keys, [tile], options)).toEqual(want);
    } finally {
      await Promise.all(ws.map((w) => w.terminate()));
    }
  });

  // A worker failing mid-pass (on the 64 MiB-capped build, lists that
  // outgrow memory): the pass is a RangeError naming the function, the other
  // worker stops at its next span, and the same pool answers the next pass.
  test("a pass that runs out of memory in the workers is a RangeError, and the pool answers the next", async () => {
    const small = await workers.createNeighborPool({ workers: 2, wasm: readFileSync(`${BUILD_DIR}/memdomain.small.wasm`) });
    try {
      const n = 2500, d = 8;
      const m = new Float32Array(n * d).map((_, i) => Math.sin(i * 0.37));
      const keys = Array.from({ length: n }, (_, i) => `k${i}`);
      const err = await small.topNeighborPairs(m, keys, { floor: -Infinity, perSourceK: Infinity, limit: Infinity }).catch((e) => e);
      expect(err).toBeInstanceOf(RangeError);
      expect(err.message).toMatch(/^topNeighborPairsParallel: out of memory/);
      const o = { floor: 0, perSourceK: 3, limit: 1e9 };
      expect(await small.topNeighborPairs(m, keys, o)).toEqual(md.topNeighborPairsPacked(m, keys, o));
      expect(small.lastStats.tilesPerWorker.reduce((a, b) => a + b, 0)).toBe(small.lastStats.tiles);
    } finally {
      await small.close();
    }
  });

  test("the one-shot form agrees", async () => {
    const m = new Float32Array(40 * 8).map((_, i) => Math.sin(i));
    const keys = Array.from({ length: 40 }, (_, i) => `r${i}`);
    const o = { floor: 0.1, perSourceK: 3, limit: 50 };
    expect(await workers.topNeighborPairsParallel(m, keys, o, { workers: 2, tiles: 3, wasm: bytes }))
      .toEqual(md.topNeighborPairsPacked(m, keys, o));
  });
});

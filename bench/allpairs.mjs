// Benchmark: the all-pairs pass, top-5 per source, n = 10,000, d = 384, side
// by side in one run:
//   - memdomain wasm, one thread (md_neighbor_pairs_ranked over raw exports:
//     pruned by the integer bound, exact answer),
//   - memdomain wasm in 1 and 2 worker_threads (row tiles on independent
//     module instances over raw exports, merged on the calling thread by
//     md_merge_neighbor_pairs_ranked; the matrix is posted to the workers
//     inside the timing, as the package's pool does),
//   - memdomain native (the same library; kernels chosen at run time),
//   - numpy float32 GEMM with OpenBLAS on one thread (normalize, X X^T by
//     blocks, argpartition): the usual way, not exact; its pairs are
//     compared with the exact answer (recall).
// memdomain's answers (wasm, workers, native) must be identical.
//   node bench/allpairs.mjs [--n=10000] [--k=5] [--json=out.json]
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { tileBounds } from "../js/src/workers.js";
import { ROOT, args, data, fmt, native, report } from "./lib-vectors.mjs";
import { rawModule } from "./lib-raw.mjs";

const a = args();
const n = +(a.n ?? 10000), d = +(a.d ?? 384), k = +(a.k ?? 5);
const o = { floor: 0, perSourceK: k, limit: 1e9 };
const md = rawModule("clang");
const module = new WebAssembly.Module(readFileSync(`${ROOT}build/memdomain.wasm`));
const { m } = data(n, d);

function digest(p) {
  let sum = 0, ix = 0;
  for (let i = 0; i < p.sim.length; i++) {
    sum += p.sim[i];
    ix = (Math.imul(ix, 31) + p.src[i] * 7 + p.dst[i]) >>> 0;
  }
  return { len: p.sim.length, sum, ix };
}

let lastTileMs = [];
function pool(size) {
  const workers = Array.from({ length: size }, () => new Worker(new URL("./lib-allpairs-worker.mjs", import.meta.url)));
  let id = 0;
  const ask = (w, msg) => new Promise((resolve) => {
    const my = ++id;
    const on = (r) => { if (r.id === my) { w.off("message", on); lastTileMs.push(r.ms); resolve(r.tiles); } };
    w.on("message", on);
    w.postMessage({ id: my, module, d, options: o, ...msg });
  });
  return {
    async run(matrix) {
      const rows = matrix.length / d, bounds = tileBounds(rows, size);
      lastTileMs = [];
      const parts = await Promise.all(workers.map((w, i) => ask(w, { matrix, ranges: [[bounds[i], bounds[i + 1]]] })));
      const t = performance.now(), merged = md.merge(parts.flat(), rows, o);
      console.error(`  ${size} worker(s): tiles ${lastTileMs.map((x) => x.toFixed(0)).join(" + ")} ms in the workers, merge ${(performance.now() - t).toFixed(0)} ms`);
      return merged;
    },
    close: () => Promise.all(workers.map((w) => w.terminate())),
  };
}

const best = async (fn, reps) => {
  let out = null;
  for (let r = 0; r < reps; r++) {
    const t = performance.now(), value = await fn();
    const ms = performance.now() - t;
    if (!out || ms < out.ms) out = { ms, value };
  }
  return out;
};

// Warm up the wasm (and the workers) on a small pass.
const small = data(600, d).m;
const p0 = md.packed(small, d); p0.pass(o); p0.free();
const pool1 = pool(1), pool2 = pool(2);
await pool1.run(small); await pool2.run(small);

const packed = md.packed(m, d);
const single = await best(() => packed.pass(o), 2);
packed.free();
const w1 = await best(() => pool1.run(m), 2);
const c0 = process.cpuUsage(), t0 = performance.now();
const w2 = await best(() => pool2.run(m), 2);
const coresUsed2 = (process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 1000 / (performance.now() - t0);
await pool1.close(); await pool2.close();
const nat = native("pairs", n, d, k, "ordered"); // keys in row order, as the ranked wasm pass

// numpy (Debian's python3 with python3-numpy; OpenBLAS through libblas.so.3)
let np = null;
try {
  mkdirSync(`${ROOT}build/bench`, { recursive: true });
  const mp = `${ROOT}build/bench/allpairs.f32`, op = `${ROOT}build/bench/allpairs-numpy.i32`;
  writeFileSync(mp, new Uint8Array(m.buffer, m.byteOffset, m.byteLength));
  const runs = [0, 1].map(() => JSON.parse(execFileSync("/usr/bin/python3", [`${ROOT}bench/allpairs_numpy.py`, mp, n, d, k, op].map(String),
    { encoding: "utf8", env: { ...process.env, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1" } })));
  np = runs.reduce((x, y) => (y.ms < x.ms ? y : x));
  // recall: numpy's (src, dst) against memdomain's exact per-source top k (floor 0 applies to memdomain only)
  const got = new Int32Array(readFileSync(op).buffer.slice(0));
  const exact = new Set();
  const s = single.value;
  for (let i = 0; i < s.sim.length; i++) exact.add(s.src[i] * n + s.dst[i]);
  let hit = 0;
  for (let i = 0; i < n; i++) for (let t = 0; t < k; t++) if (exact.has(i * n + got[i * k + t])) hit++;
  np.recall = hit / exact.size;
} catch (e) {
  console.error(`numpy: skipped (${String(e.message).split("\n")[0]})`);
}

const ref = digest(single.value);
const sameAs = (x) => JSON.stringify(digest(x)) === JSON.stringify(ref);
const identical = sameAs(w1.value) && sameAs(w2.value) && (!nat || (nat.len === ref.len && Object.is(nat.sum, ref.sum) && nat.ix === ref.ix));
const row = { workload: `all pairs top-${k}, n=${n}, d=${d}`, n, d, k, wasm: single.ms, workers1: w1.ms, workers2: w2.ms,
  coresUsed2, native: nat?.ms, numpy: np?.ms, numpyBlas: np?.blas, numpyRecall: np?.recall, pairs: ref.len, identical };
const x = (p, q) => (p === undefined || q === undefined ? "" : (p / q).toFixed(2) + "x");
const show = [{
  workload: row.workload, "wasm ms": fmt(row.wasm), "1 worker ms": fmt(row.workers1), "2 workers ms": fmt(row.workers2),
  "native ms": fmt(row.native), [`numpy f32 GEMM ms (${row.numpyBlas ?? "n/a"}, 1 thread)`]: fmt(row.numpy),
  "numpy / wasm": x(row.numpy, row.wasm), "wasm / native": x(row.wasm, row.native), "1w / 2w": x(row.workers1, row.workers2),
  "cores used (2w)": coresUsed2.toFixed(2), "numpy recall": row.numpyRecall?.toFixed(4) ?? "", "identical (exact)": identical,
}];
report(show, [row], a.json);

// Benchmark: the n x n neighbour pass and the 1 x n arm. Side by side in one
// run: a plain-JavaScript implementation written the way the reference is
// (tests/oracles/baseline-neighbors.js), memdomain wasm (reference-shaped call, the
// packed batch call, 1 and 2 workers) and native. Every contender's answer
// is checked against the baseline's (or, where the baseline is skipped,
// against the single-thread wasm answer).
//   node bench/neighbors.mjs [--n=1000,2000,5000] [--d=384] [--k=5]
//        [--baseline-max=5000] [--extra] [--json=out.json]
// --extra adds n=10000 (d=384), n=2000 at d=1024 and the 1 x n arm at n=100000.
// The 1 x n row's "packed/resident" column is residentRows (matrix copied in
// once, outside the timing); GFLOP/s count 2 flops per element for the dot
// and 2 for the row's sum of squares.
import * as base from "../tests/oracles/baseline-neighbors.js";
import { createNeighborPool } from "../js/src/workers.js";
import { args, best, bestAsync, data, fmt, init, native, ratio, report, time, wasmBytes } from "./lib-vectors.mjs";

const a = args();
const md = init();
const d0 = +(a.d ?? 384), k = +(a.k ?? 5), baselineMax = +(a["baseline-max"] ?? 5000);
const sizes = String(a.n ?? "1000,2000,5000").split(",").map((s) => [+s, d0]);
if (a.extra) sizes.push([10000, 384], [2000, 1024]);
const options = { floor: 0, perSourceK: k, limit: 1e9 };
const module = new WebAssembly.Module(wasmBytes());

function digest(pairs, keyIndex) {
  let sum = 0, ix = 0;
  for (const p of pairs) {
    sum += p.sim;
    ix = (Math.imul(ix, 31) + keyIndex.get(p.src) * 7 + keyIndex.get(p.dst)) >>> 0;
  }
  return { len: pairs.length, sum, ix };
}

// Warm up: let V8 tier the wasm and the baseline up before timing.
{
  const { m } = data(300, 64);
  const keys = Array.from({ length: 300 }, (_, i) => `w${i}`);
  const vecs = keys.map((key, i) => ({ key, vec: m.subarray(i * 64, (i + 1) * 64) }));
  for (let r = 0; r < 10; r++) { md.topNeighborPairsPacked(m, keys, options); md.topNeighborPairs(vecs, options); base.topNeighborPairs(vecs, options); }
}

const pool1 = await createNeighborPool({ workers: 1, wasm: module });
const pool2 = await createNeighborPool({ workers: 2, wasm: module });
{
  const { m } = data(300, 64);
  const keys = Array.from({ length: 300 }, (_, i) => `w${i}`);
  await pool1.topNeighborPairs(m, keys, options);
  await pool2.topNeighborPairs(m, keys, options, { tiles: 4 });
}

const results = [];
for (const [n, d] of sizes) {
  const { m } = data(n, d);
  const keys = Array.from({ length: n }, (_, i) => `k${i}`);
  const keyIndex = new Map(keys.map((key, i) => [key, i]));
  const vecs = keys.map((key, i) => ({ key, vec: m.subarray(i * d, (i + 1) * d) }));
  const row = { workload: `top-${k} pairs n=${n} d=${d}`, n, d };
  const flop = (n * (n - 1)) / 2 * d * 2;
  let want;
  if (n <= baselineMax) {
    const t = best(() => base.topNeighborPairs(vecs, options), { max: 3, budget: 3000 });
    row.js = t.ms;
    want = t.value;
  }
  const shaped = best(() => md.topNeighborPairs(vecs, options), { max: 3, budget: 3000 });
  const packed = best(() => md.topNeighborPairsPacked(m, keys, options), { max: 3, budget: 3000 });
  want ??= packed.value;
  // the pool's default: 64 tiles per worker, taken by the workers themselves (shared memory)
  const w1 = await bestAsync(() => pool1.topNeighborPairs(m, keys, options), { max: 3, budget: 3000 });
  const w2 = await bestAsync(() => pool2.topNeighborPairs(m, keys, options), { max: 3, budget: 4000 });
  // How many cores the 2-worker pass actually got (all threads' CPU time / wall time):
  // on a shared machine this, not the code, bounds the 2-worker speedup.
  const c0 = process.cpuUsage(), t0 = performance.now();
  await pool2.topNeighborPairs(m, keys, options);
  const c1 = process.cpuUsage(c0);
  row.coresUsed2 = (c1.user + c1.system) / 1000 / (performance.now() - t0);
  const nat = native("pairs", n, d, k);
  const ref = digest(want, keyIndex);
  const same = (x) => JSON.stringify(x) === JSON.stringify(want);
  row.identical = same(shaped.value) && same(packed.value) && same(w1.value) && same(w2.value) &&
    (!nat || (nat.len === ref.len && Object.is(nat.sum, ref.sum) && nat.ix === ref.ix));
  Object.assign(row, { wasm: shaped.ms, wasmPacked: packed.ms, workers1: w1.ms, workers2: w2.ms, native: nat?.ms,
    gflopsWasm: flop / packed.ms / 1e6, gflopsNative: nat ? flop / nat.ms / 1e6 : undefined });
  results.push(row);
  console.error(`done: ${row.workload}`);
}

// The 1 x n arm: one query against a packed matrix.
const rowsN = a.extra ? 100000 : +(a["rows-n"] ?? 20000);
{
  const d = d0, { m } = data(rowsN, d);
  const q = m.slice(0, d);
  const row = { workload: `1 x n cosine n=${rowsN} d=${d}`, n: rowsN, d };
  md.cosineRows(q, m.subarray(0, d * 100)); // warm
  const js = best(() => { const out = new Float64Array(rowsN); for (let i = 0; i < rowsN; i++) out[i] = base.cosine(q, m.subarray(i * d, (i + 1) * d)); return out; });
  const w = best(() => md.cosineRows(q, m));
  const top = best(() => md.topCosineRows(q, m, 10));
  const resident = md.residentRows(m, d);
  const res = best(() => resident.cosineRows(q));
  resident.free();
  const nat = native("rows", rowsN, d);
  const order = Array.from(js.value.keys()).sort((x, y) => js.value[y] - js.value[x] || x - y).slice(0, 10);
  let sum = 0;
  for (const v of js.value) sum += v;
  row.identical = w.value.every((v, i) => Object.is(v, js.value[i])) && res.value.every((v, i) => Object.is(v, js.value[i])) && Array.from(top.value.indices).join() === order.join() &&
    (!nat || Object.is(nat.sum, sum));
  Object.assign(row, { js: js.ms, wasm: w.ms, wasmPacked: res.ms, wasmTop10: top.ms, native: nat?.ms, gflopsWasm: rowsN * d * 4 / res.ms / 1e6,
    gflopsNative: nat ? rowsN * d * 4 / nat.ms / 1e6 : undefined });
  results.push(row);
}
await pool1.close();
await pool2.close();

const show = results.map((r) => ({
  workload: r.workload, "plain JS ms": fmt(r.js), "wasm ms": fmt(r.wasm), "wasm packed/resident ms": fmt(r.wasmPacked),
  "1 worker ms": fmt(r.workers1), "2 workers ms": fmt(r.workers2), "native ms": fmt(r.native),
  "JS/wasm": ratio(r.js, r.wasm), "JS/wasm packed": ratio(r.js, r.wasmPacked), "1w/2w": ratio(r.workers1, r.workers2), "cores used (2w)": r.coresUsed2?.toFixed(2), "JS/native": ratio(r.js, r.native),
  "GFLOP/s wasm": r.gflopsWasm?.toFixed(1), "GFLOP/s native": r.gflopsNative?.toFixed(1), identical: r.identical,
}));
report(show, results, a.json);

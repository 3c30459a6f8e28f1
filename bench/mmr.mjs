// Benchmark: applyMmr. Side by side in one run: a plain-JavaScript applyMmr
// written the way the reference is (tests/oracles/baseline-mmr.js: cached
// per-candidate max, O(k * n) cosines over number[] vectors), memdomain wasm
// (applyMmr over the same candidate objects, and applyMmrPacked over a
// packed Float64Array, and residentRows(...).applyMmr over rows already
// resident in wasm memory with their stored norms, as a search that took its
// candidates from topCosineRows has them) and native. Every answer is checked
// against the baseline's.
//   node bench/mmr.mjs [--pools=1000,10000] [--k=20,100] [--d=384] [--json=out.json]
import * as base from "../tests/oracles/baseline-mmr.js";
import { args, best, data, fmt, init, native, ratio, report, time } from "./lib-vectors.mjs";

const a = args();
const md = init();
const d = +(a.d ?? 384);
const pools = String(a.pools ?? "1000,10000").split(",").map(Number);
const ks = String(a.k ?? "20,100").split(",").map(Number);

function candidatesFor(n) {
  const { m, next } = data(n, d);
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) scores[i] = (next() + 1) / 2;
  const cands = [];
  for (let i = 0; i < n; i++) cands.push({ path: `p${i}`, score: scores[i], vector: Array.from(m.subarray(i * d, (i + 1) * d)) });
  return { m, m64: new Float64Array(m), scores, cands };
}

// Warm up both sides.
{
  const { m64, scores, cands } = candidatesFor(200);
  for (let r = 0; r < 20; r++) { base.applyMmr(cands, 10); md.applyMmr(cands, 10); md.applyMmrPacked(scores, m64, 10); }
}

const results = [];
for (const n of pools) {
  const { m, m64, scores, cands } = candidatesFor(n);
  const resident = md.residentRows(m, d), rowIds = Uint32Array.from({ length: n }, (_, i) => i);
  for (const k of ks) {
    const js = best(() => base.applyMmr(cands, k, 0.5));
    const w = best(() => md.applyMmr(cands, k, 0.5));
    const wp = best(() => md.applyMmrPacked(scores, m64, k, 0.5));
    const wr = best(() => resident.applyMmr(rowIds, scores, k, 0.5));
    const nat = native("mmr", n, d, k);
    const want = js.value.map((c) => cands.indexOf(c));
    let ix = 0;
    for (const i of want) ix = (Math.imul(ix, 31) + i) >>> 0;
    const identical = w.value.length === js.value.length && w.value.every((c, i) => c === js.value[i]) &&
      Array.from(wp.value).join() === want.join() && Array.from(wr.value).join() === want.join() && (!nat || (nat.len === want.length && nat.ix === ix));
    results.push({ workload: `MMR choose ${k} of ${n} d=${d}`, n, k, d, js: js.ms, wasm: w.ms, wasmPacked: wp.ms, wasmResident: wr.ms,
      native: nat?.ms, identical });
    console.error(`done: choose ${k} of ${n}`);
  }
  resident.free();
}

const show = results.map((r) => ({
  workload: r.workload, "plain JS ms": fmt(r.js), "wasm ms": fmt(r.wasm), "wasm packed ms": fmt(r.wasmPacked),
  "wasm resident ms": fmt(r.wasmResident),
  "native ms": fmt(r.native), "JS/wasm": ratio(r.js, r.wasm), "JS/wasm packed": ratio(r.js, r.wasmPacked), "JS/wasm resident": ratio(r.js, r.wasmResident),
  "JS/native": ratio(r.js, r.native), identical: r.identical,
}));
report(show, results, a.json);

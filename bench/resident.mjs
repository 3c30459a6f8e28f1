// Benchmark: top-50 by cosine over resident rows (d = 384), one query at a
// time, side by side in one run with rounds interleaved query by query:
//   - memdomain wasm, resident rows pruned (md_rows_top_cosine, raw exports:
//     what residentRows(...).topCosineRows calls),
//   - memdomain wasm, today's unpruned path over the same resident floats
//     (md_top_cosine_rows_f32: exact sums for every row, norms per query),
//   - usearch exactSearch (npm `usearch`, f32 SIMD, one thread),
//   - a plain-JavaScript loop (the reference's cosine per row, then the top k),
//   - memdomain native (the same library, md_rows_top_cosine).
// Every memdomain answer and the plain-JS answer must be identical (indices
// and similarity bits); usearch is f32 and approximate on ties, so its recall
// against the exact answer is printed. p50 / p99 over the queries.
// --ref=<a test build .wasm> times that build's pruned path too, interleaved
// (old vs new side by side: e.g. a build of the previous commit under build/ref/).
//   node bench/resident.mjs [--n=100000,10000] [--q=200] [--js-q=20] [--k=50] [--clustered] [--ref=x.wasm] [--json=out.json]
import { createRequire } from "node:module";
import { args, data, fmt, native, report, stream } from "./lib-vectors.mjs";
import { cosine } from "../tests/oracles/baseline-neighbors.js";
import { rawModule } from "../tests/oracles/raw.mjs";

const require = createRequire(import.meta.url);
const usearch = require("usearch");

const a = args();
const sizes = String(a.n ?? "100000,10000").split(",").map(Number);
const nq = +(a.q ?? 200), jsq = +(a["js-q"] ?? 20), k = +(a.k ?? 50), d = +(a.d ?? 384);
const md = rawModule("clang");
const ref = a.ref ? rawModule(a.ref) : null;

/** The plain-JS way: the reference's cosine on every row, then the k best (sim desc, index asc). */
function plainTop(q, m, n, k) {
  const sims = new Float64Array(n);
  for (let j = 0; j < n; j++) sims[j] = cosine(q, m.subarray(j * d, (j + 1) * d));
  const idx = [], top = [];
  for (let j = 0; j < n; j++) {
    const v = sims[j];
    if (top.length === k && !(v > top[k - 1])) continue;
    let at = top.length < k ? top.length : k - 1;
    while (at > 0 && v > top[at - 1]) { top[at] = top[at - 1]; idx[at] = idx[at - 1]; at--; }
    top[at] = v; idx[at] = j;
  }
  return { indices: Uint32Array.from(idx), sims: Float64Array.from(top) };
}

/** Clustered rows: 100 centroids, each row a centroid plus noise (the same stream). */
function clustered(n) {
  const next = stream(), g = () => (next() + next() + next()) / 1.7320508;
  const c = new Float32Array(100 * d).map(() => g());
  const m = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    const cc = Math.floor((next() + 1) / 2 * 100) % 100;
    for (let t = 0; t < d; t++) m[i * d + t] = c[cc * d + t] + 0.7 * g();
  }
  return { m, next };
}

const pct = (xs, p) => { const s = [...xs].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const same = (x, y) => x.indices.length === y.indices.length && x.indices.every((v, i) => v === y.indices[i]) &&
  x.sims.every((v, i) => Object.is(v, y.sims[i]));

// Warm up: let V8 tier up the wasm, the baseline and the native addon.
{
  const { m } = data(2000, d);
  const r = md.rows(m, d);
  for (let i = 0; i < 20; i++) { const q = m.subarray(i * d, (i + 1) * d); r.top(q, k); r.topUnpruned(q, k); plainTop(q, m, 2000, k); usearch.exactSearch(m, q, d, k, usearch.MetricKind.Cos, 1); }
  r.free();
  if (ref) {
    const rr = ref.rows(m, d);
    for (let i = 0; i < 20; i++) rr.top(m.subarray(i * d, (i + 1) * d), k);
    rr.free();
  }
}

const results = [];
for (const kind of a.clustered ? ["uniform", "clustered"] : ["uniform"]) {
  for (const n of sizes) {
    const { m, next } = kind === "uniform" ? data(n, d) : clustered(n);
    const queries = Array.from({ length: nq }, (_, i) => {
      if (kind === "uniform") return Float32Array.from({ length: d }, () => next());
      const row = (i * 7919) % n, q = m.slice(row * d, (row + 1) * d);
      for (let t = 0; t < d; t++) q[t] += 0.3 * next();
      return q;
    });
    const t0 = performance.now();
    const r = md.rows(m, d), rr = ref?.rows(m, d);
    const appendMs = performance.now() - t0;
    const times = { pruned: [], unpruned: [], usearch: [], js: [], ref: [] };
    let identical = true, recall = 0;
    for (let i = 0; i < nq; i++) {
      const q = queries[i];
      const order = ["pruned", "unpruned", "usearch", "js", ...(rr ? ["ref"] : [])];
      for (let s = 0; s < i % 4; s++) order.push(order.shift()); // rotate who goes first
      let pr, un, us, js, rf;
      for (const who of order) {
        if (who === "js" && i >= jsq) continue;
        const t = performance.now();
        if (who === "pruned") pr = r.top(q, k);
        else if (who === "unpruned") un = r.topUnpruned(q, k);
        else if (who === "ref") rf = rr.top(q, k);
        else if (who === "usearch") us = usearch.exactSearch(m, q, d, k, usearch.MetricKind.Cos, 1);
        else js = plainTop(q, m, n, k);
        times[who].push(performance.now() - t);
      }
      identical &&= same(pr, un) && (!js || same(pr, js)) && (!rf || same(pr, rf));
      const exact = new Set(pr.indices);
      let hit = 0;
      for (const key of us.keys) if (exact.has(Number(key))) hit++;
      recall += hit / k;
    }
    r.free();
    rr?.free();
    const nat = kind === "uniform" ? native("top", n, d, k, nq) : null;
    const row = {
      workload: `top-${k} of ${n} rows, d=${d}, ${kind}`, n, kind, appendMs,
      pruned: { p50: pct(times.pruned, 0.5), p99: pct(times.pruned, 0.99) },
      unpruned: { p50: pct(times.unpruned, 0.5), p99: pct(times.unpruned, 0.99) },
      ref: rr ? { p50: pct(times.ref, 0.5), p99: pct(times.ref, 0.99) } : undefined,
      usearch: { p50: pct(times.usearch, 0.5), p99: pct(times.usearch, 0.99), recall: recall / nq },
      js: { p50: pct(times.js, 0.5), max: Math.max(...times.js), queries: times.js.length },
      native: nat ? { p50: nat.p50, p99: nat.p99 } : undefined,
      identical,
    };
    results.push(row);
    console.error(`done: ${row.workload}`);
  }
}

const r1 = (x) => (x === undefined ? "" : x.toFixed(1) + "x");
const show = results.map((r) => ({
  workload: r.workload,
  "wasm pruned p50 / p99 ms": `${fmt(r.pruned.p50)} / ${fmt(r.pruned.p99)}`,
  "wasm unpruned (today) p50": fmt(r.unpruned.p50),
  ...(r.ref ? { "ref build pruned p50": fmt(r.ref.p50), "ref / wasm": r1(r.ref.p50 / r.pruned.p50) } : {}),
  "usearch exactSearch p50 / p99": `${fmt(r.usearch.p50)} / ${fmt(r.usearch.p99)}`,
  [`plain JS p50 (${jsq} q)`]: fmt(r.js.p50),
  "native pruned p50": r.native ? fmt(r.native.p50) : "",
  "usearch / wasm": r1(r.usearch.p50 / r.pruned.p50),
  "JS / wasm": r1(r.js.p50 / r.pruned.p50),
  "today / pruned": r1(r.unpruned.p50 / r.pruned.p50),
  "usearch recall@k": r.usearch.recall.toFixed(4),
  "identical (exact)": r.identical,
}));
report(show, results, a.json);

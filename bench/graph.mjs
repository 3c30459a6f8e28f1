// Benchmark: memdomain's graph module (wasm, one-shot and on a Graph handle)
// against a plain-JavaScript implementation written the way the reference is
// (tests/oracles/baseline-graph.js: Maps keyed by string), side by side in one run.
//
//   node --expose-gc bench/graph.mjs [--quick] [--wasm build/memdomain.wasm]
//
// Graphs: random power-law-ish directed graphs with string keys, 10,000 nodes
// / 50,000 edges and 100,000 nodes / 1,000,000 edges (--quick: the small one
// only). Each result is the median of a few runs; ratios are baseline / ours.
// When build/bench/graph_native exists (make bench-graph builds it), native C
// timings of the same graph (md_graph_new from string keys, then the runs)
// are shown too.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as md from "../js/index.js";
import * as base from "../tests/oracles/baseline-graph.js";
import { rng as mulberry } from "../tests/oracles/rng.js";

// graphology (npm), the JavaScript graph library a memory system would reach for:
// its pagerank and Louvain communities, timed on a graph built beforehand.
let graphology = null;
try {
  const [{ default: Graph }, { default: pagerank }, { default: louvain }] = await Promise.all([
    import("graphology"), import("graphology-metrics/centrality/pagerank.js"), import("graphology-communities-louvain")]);
  graphology = { Graph, pagerank, louvain };
} catch {
  console.log("(graphology is not installed: its rows are skipped)");
}

function graphologyGraph(nodes, edges) {
  const g = new graphology.Graph({ type: "directed", multi: false, allowSelfLoops: false });
  for (const k of nodes) g.mergeNode(k);
  for (const e of edges) {
    if (e.src === e.dst) continue;
    const prev = g.edge(e.src, e.dst);
    if (prev === undefined) g.addEdge(e.src, e.dst, { weight: e.strength });
    else if (e.strength > g.getEdgeAttribute(prev, "weight")) g.setEdgeAttribute(prev, "weight", e.strength);
  }
  return g;
}

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const wasmAt = args.includes("--wasm") ? args[args.indexOf("--wasm") + 1] : new URL("../build/memdomain.wasm", import.meta.url);
md.initSync(readFileSync(wasmAt));

/** n nodes with path-like keys, m edges with skewed (power-law-ish) ends. */
function powerLawGraph(n, m, seed) {
  const rnd = mulberry(seed);
  const nodes = Array.from({ length: n }, (_, i) => `areas/notes/${(i * 2654435761 >>> 0).toString(36)}-${i}.html`);
  const edges = new Array(m);
  for (let i = 0; i < m; i++) {
    const s = Math.floor(rnd() ** 1.5 * n), d = Math.floor(rnd() ** 3 * n);
    edges[i] = { src: nodes[s], dst: nodes[d], strength: rnd() };
  }
  return { nodes, edges };
}

function time(fn, reps) {
  const ts = [];
  let out;
  for (let r = 0; r < reps; r++) {
    globalThis.gc?.(); // (with --expose-gc) no one pays for another's garbage
    const t0 = performance.now();
    out = fn();
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  return { ms: ts[Math.floor(ts.length / 2)], out };
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2)).padStart(8) + " ms";
const ratio = (a, b) => `${(a / b).toFixed(1)}x`.padStart(8);

function sameMap(a, b) {
  if (a.size !== b.size) return false;
  const bi = b.entries();
  for (const [k, v] of a) {
    const [k2, v2] = bi.next().value;
    if (k !== k2 || !Object.is(v, v2)) return false;
  }
  return true;
}

const NATIVE = new URL("../build/bench/graph_native", import.meta.url);
function native(n, m) {
  if (!existsSync(NATIVE)) return null;
  return JSON.parse(execFileSync(NATIVE.pathname, [String(n), String(m)], { encoding: "utf8" }));
}

const sizes = quick ? [[10_000, 50_000]] : [[10_000, 50_000], [100_000, 1_000_000]];
console.log(`memdomain graph benchmark (${typeof wasmAt === "string" ? wasmAt : "build/memdomain.wasm"}), node ${process.version}`);
for (const [n, m] of sizes) {
  const { nodes, edges } = powerLawGraph(n, m, n + m);
  const reps = n >= 100_000 ? 3 : 5;
  const baseReps = n >= 100_000 ? 1 : 3;
  const rnd = mulberry(7);
  const querySeeds = Array.from({ length: 20 }, () =>
    new Map(Array.from({ length: 10 }, () => [nodes[Math.floor(rnd() * n)], 0.2 + rnd()])));
  console.log(`\n== ${n.toLocaleString("en")} nodes, ${m.toLocaleString("en")} edges`);

  const bPr = time(() => base.pagerank(nodes, edges), baseReps);
  const oPr = time(() => md.pagerank(nodes, edges), reps);
  if (!sameMap(bPr.out, oPr.out)) throw new Error("pagerank results differ from the baseline");
  const bPpr = time(() => base.pagerank(nodes, edges, { seeds: querySeeds[0] }), baseReps);
  const oPpr = time(() => md.pagerank(nodes, edges, { seeds: querySeeds[0] }), reps);
  if (!sameMap(bPpr.out, oPpr.out)) throw new Error("personalized pagerank results differ from the baseline");
  const bLp = time(() => base.labelPropagation(nodes, edges), baseReps);
  const oLp = time(() => md.labelPropagation(nodes, edges), reps);
  if (!sameMap(bLp.out, oLp.out)) throw new Error("labelPropagation results differ from the baseline");

  const build = time(() => { const g = new md.Graph(nodes, edges); g.free(); }, reps);
  const g = new md.Graph(nodes, edges);
  const hPr = time(() => g.pagerank(), reps);
  const hPrRaw = time(() => g.pagerankScores(), reps);
  let qi = 0;
  const hPpr = time(() => g.pagerank({ seeds: querySeeds[qi++ % querySeeds.length] }), querySeeds.length);
  qi = 0;
  const hPprRaw = time(() => g.pagerankScores({ seeds: querySeeds[qi++ % querySeeds.length] }), querySeeds.length);
  const hLp = time(() => g.labelPropagation(), reps);
  if (!sameMap(hPr.out, oPr.out) || !sameMap(hLp.out, oLp.out)) throw new Error("handle results differ");
  g.free();

  let gPr = null, gLv = null;
  if (graphology) {
    const gg = graphologyGraph(nodes, edges);
    gPr = time(() => graphology.pagerank(gg, { alpha: 0.85, maxIterations: 100, tolerance: 1e-6, getEdgeWeight: "weight" }), baseReps);
    gLv = time(() => graphology.louvain(gg, { getEdgeWeight: "weight", rng: mulberry(3) }), baseReps);
  }

  const nat = native(n, m);
  const rows = [
    ["pagerank (uniform), one-shot", bPr.ms, oPr.ms, nat && nat.build + nat.pagerank],
    ["pagerank (personalized), one-shot", bPpr.ms, oPpr.ms, nat && nat.build + nat.personalized],
    ["labelPropagation, one-shot", bLp.ms, oLp.ms, nat && nat.build + nat.labelPropagation],
    ["Graph build (once)", null, build.ms, nat && nat.build],
    ["pagerank on a handle -> Map", bPr.ms, hPr.ms, null],
    ["pagerank on a handle -> Float64Array", bPr.ms, hPrRaw.ms, nat && nat.pagerank],
    ["personalized query on a handle -> Map", bPpr.ms, hPpr.ms, null],
    ["personalized query on a handle -> Float64Array", bPpr.ms, hPprRaw.ms, nat && nat.personalized],
    ["labelPropagation on a handle", bLp.ms, hLp.ms, nat && nat.labelPropagation],
  ];
  console.log(`${"".padEnd(48)}${"baseline JS".padStart(11)}${"wasm".padStart(11)}${"ratio".padStart(8)}` +
    (nat ? `${"native C".padStart(11)}${"ratio".padStart(8)}` : ""));
  for (const [name, b, o, c] of rows) {
    let line = `${name.padEnd(48)}${b === null ? "".padStart(11) : fmt(b)}${fmt(o)}${b === null ? "".padStart(8) : ratio(b, o)}`;
    if (nat && c !== null) line += `${fmt(c)}${b === null ? "" : ratio(b, c)}`;
    console.log(line);
  }
  if (gPr) {
    console.log(`graphology pagerank (graph built beforehand)     ${fmt(gPr.ms)}   one-shot wasm ${ratio(gPr.ms, oPr.ms)} faster, ` +
      `personalized query on a handle ${ratio(gPr.ms, hPprRaw.ms)} faster`);
    console.log(`graphology Louvain communities (built before)    ${fmt(gLv.ms)}   labelPropagation one-shot ${ratio(gLv.ms, oLp.ms)}, on a handle ${ratio(gLv.ms, hLp.ms)}`);
  }
}

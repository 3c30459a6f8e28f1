// Benchmark: the memhtml composition's lateral arm, a personalized PageRank from 10 seeds run to
// PageRank's own stopping rule over a Graph handle (what memdomain/cache's lateral arm calls),
// on this checkout and, with --baseline=DIR, on another checkout's js/ and build/memdomain.wasm
// in the same process, interleaved query by query (before and after a change in one run). Every
// answer of the two must be identical (every score's bits).
//
//   node bench/lateral.mjs [--n=131072] [--m=500000] [--q=60] [--baseline=DIR] [--uniform]
//
// --uniform: PageRank without seeds (every node from the first step, as sleep's pass runs it)
// instead of the personalized walk.
//
// Graphs: n nodes, m edges with uniform ends, and m edges with power-law ends (sources rnd^1.5,
// destinations rnd^3), strengths in [0.5, 1). 131,072 nodes is what a 100k cache's Graph holds
// (its nodes padded to a power of two). p50 / p90 ms per query.
import { readFileSync } from "node:fs";
import os from "node:os";
import { rng as mulberry } from "../tests/oracles/rng.js";

const arg = (k, d) => {
  const a = process.argv.find((x) => x.startsWith(`--${k}=`));
  return a ? a.slice(k.length + 3) : d;
};
const N = Number(arg("n", 131072)), M = Number(arg("m", 500000)), Q = Number(arg("q", 60)), BASELINE = arg("baseline", null);
const UNIFORM = process.argv.includes("--uniform");

async function load(dir) {
  const md = await import(`${dir}js/index.js`);
  md.initSync(readFileSync(new URL("build/memdomain.wasm", dir)));
  return md;
}
const impls = [["this checkout", await load(new URL("../", import.meta.url).href)]];
if (BASELINE) impls.push([`baseline ${BASELINE}`, await load(`${new URL(`file://${BASELINE.replace(/\/$/, "")}/`).href}`)]);

const pct = (a, q) => [...a].sort((x, y) => x - y)[Math.floor(q * (a.length - 1))];
const fmt = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log(`${UNIFORM ? "PageRank without seeds" : "personalized PageRank, 10 seeds"}, default damping and tolerance, ${Q} queries (+3 warm-up); p50 / p90 ms\n`);
console.log(`| graph | ${impls.map(([name]) => name).join(" | ")} |${impls.length > 1 ? " baseline / this |" : ""}`);
console.log(`|---|${impls.map(() => "---:|").join("")}${impls.length > 1 ? "---:|" : ""}`);
for (const kind of ["uniform", "power-law"]) {
  const rnd = mulberry(kind === "uniform" ? 1 : 2);
  const nodes = Array.from({ length: N }, (_, i) => `areas/notes/${String(i).padStart(7, "0")}.html`);
  const end = (p) => nodes[Math.floor((kind === "uniform" ? rnd() : rnd() ** p) * N)];
  const edges = Array.from({ length: M }, () => ({ src: end(1.5), dst: end(3), strength: 0.5 + rnd() / 2 }));
  const graphs = impls.map(([, md]) => md.buildGraph(nodes, edges));
  const times = impls.map(() => []);
  for (let r = 0; r < Q + 3; r++) {
    const seeds = new Map(Array.from({ length: 10 }, () => [nodes[Math.floor(rnd() * N)], 0.2 + rnd()]));
    const order = graphs.map((_, i) => i);
    if (r % 2) order.reverse();
    const got = [];
    for (const i of order) {
      const t = performance.now();
      got[i] = graphs[i].pagerankScores(UNIFORM ? undefined : { seeds });
      if (r >= 3) times[i].push(performance.now() - t);
    }
    for (let i = 1; i < got.length; i++)
      for (let v = 0; v < N; v++) if (!Object.is(got[i][v], got[0][v])) throw new Error(`${kind}: the two checkouts differ at node ${v}`);
  }
  for (const g of graphs) g.free();
  const cells = times.map((t) => `${fmt(pct(t, 0.5))} / ${fmt(pct(t, 0.9))}`);
  const ratio = impls.length > 1 ? ` ${(pct(times[1], 0.5) / pct(times[0], 0.5)).toFixed(2)}x |` : "";
  console.log(`| ${N} nodes, ${M} edges, ${kind} | ${cells.join(" | ")} |${ratio}`);
}
if (impls.length > 1) console.log("\nEvery answer identical (every score's bits) on both checkouts.");

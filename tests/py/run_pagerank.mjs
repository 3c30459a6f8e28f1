// Reads graphs as JSON ({graphs: [{nodes, edges: [[src, dst, strength]], runs: [options]}]}),
// runs memdomain's pagerank (clang wasm build) on each, writes the scores as JSON.
// Used by networkx_pagerank.py.
import { readFileSync, writeFileSync } from "node:fs";
import * as md from "../../js/index.js";

const [, , input, output, wasm = new URL("../../build/memdomain.wasm", import.meta.url)] = process.argv;
md.initSync(readFileSync(wasm));
const { graphs } = JSON.parse(readFileSync(input, "utf8"));
const results = graphs.map((g) => {
  const edges = g.edges.map(([src, dst, strength]) => ({ src, dst, strength }));
  return g.runs.map((o) => {
    const opts = { ...o, seeds: o.seeds ? new Map(Object.entries(o.seeds)) : undefined };
    return Object.fromEntries(md.pagerank(g.nodes, edges, opts));
  });
});
writeFileSync(output, JSON.stringify(results));

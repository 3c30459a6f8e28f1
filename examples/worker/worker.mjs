// A Cloudflare Worker using memdomain: the .wasm is imported as a module (as
// Workers require: they cannot compile wasm from bytes at run time) and handed
// to initSync once, at module load.
//   POST /fuse      {arms: ArmHit[][], weights: number[], k?} or {fused: $map},
//                   optionally lateral: {order: string[], weight, k?}
//                   -> {fused, ranked}: fuseArms (and fuseLateral), then rankFused
//   POST /mmr       {candidates: MmrCandidate[], limit, lambda?} -> applyMmr(...)
//   POST /pagerank  {nodes: string[], edges: GraphEdge[], options?} -> pagerank(...) as a $map
//   GET  /exports   -> the package's export names
import wasm from "memdomain/memdomain.wasm";
import * as md from "memdomain";
import { fromWire, toWire } from "./wire.js";

md.initSync(wasm);

const routes = {
  "/fuse": (b) => {
    let fused = b.fused ?? md.fuseArms(b.arms, b.weights, b.k);
    if (b.lateral) fused = md.fuseLateral(fused, b.lateral.order, b.lateral.weight, b.lateral.k);
    return { fused, ranked: md.rankFused(fused) };
  },
  "/mmr": (b) => md.applyMmr(b.candidates, b.limit, b.lambda),
  "/pagerank": (b) => md.pagerank(b.nodes, b.edges, b.options),
};
// Which export each route needs (some modules may not be in this build yet).
const needs = { "/fuse": ["fuseArms", "fuseLateral", "rankFused"], "/mmr": ["applyMmr"], "/pagerank": ["pagerank"] };

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === "/exports") return Response.json(Object.keys(md).sort());
    const route = routes[pathname];
    if (!route || request.method !== "POST") return new Response("not found", { status: 404 });
    const missing = needs[pathname].filter((name) => typeof md[name] !== "function");
    if (missing.length) return Response.json({ error: `not exported: ${missing.join(", ")}` }, { status: 501 });
    try {
      return Response.json({ result: toWire(route(fromWire(await request.json()))) });
    } catch (e) {
      return Response.json({ error: `${e.name}: ${e.message}` }, { status: 400 });
    }
  },
};

// graph module: pagerank, labelPropagation and bridgeCounts over the memory
// graph, and a reusable Graph handle (build once, run any number of times).
import { arr, exportsOf, map, obj, raise, rangeError, str, typeError, views, withFrame } from "./core.js";

import { LABEL_PROPAGATION_MAX_SWEEPS, MIN_COMMUNITY_SIZE, PAGERANK_DAMPING, PAGERANK_MAX_ITERATIONS,
  PAGERANK_TOLERANCE } from "./constants.js";

export { LABEL_PROPAGATION_MAX_SWEEPS, MIN_COMMUNITY_SIZE, PAGERANK_DAMPING, PAGERANK_MAX_ITERATIONS,
  PAGERANK_TOLERANCE };

const NONE = 0xffffffff;
const MAX_COUNT = 0xfffffffe; // node and edge indices are u32 in the core

// ------------------------------------------------------------ arguments

/** nodes as a string[] plus a Map from each key to its first input index. */
function readNodes(fn, nodes) {
  arr(fn, "nodes", nodes);
  const n = nodes.length;
  if (n > MAX_COUNT) throw rangeError(fn, "nodes", `has ${n} entries, more than memdomain accepts`);
  for (let i = 0; i < n; i++) {
    if (typeof nodes[i] !== "string") throw typeError(fn, `nodes[${i}]`, "a string", nodes[i]);
  }
  // Backwards, so the first occurrence's index is the one that stays.
  const index = new Map();
  for (let i = n - 1; i >= 0; i--) index.set(nodes[i], i);
  return index;
}

/** The edge list's length, checked; each edge is read by graphInput's fill(). */
function readEdges(fn, edges) {
  arr(fn, "edges", edges);
  const m = edges.length;
  if (m > MAX_COUNT) throw rangeError(fn, "edges", `has ${m} entries, more than memdomain accepts`);
  return { m, edges };
}

function options(fn, o) {
  if (o === undefined || o === null) return {};
  return obj(fn, "options", o);
}

function optNum(fn, o, key, dflt) {
  const v = o[key];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== "number") throw typeError(fn, `options.${key}`, "a number", v);
  return v;
}

/** Seeds as input indices and weights, in the Map's order (null: none). */
function readSeeds(fn, o, index) {
  const seeds = o.seeds;
  if (seeds === undefined || seeds === null) return null;
  map(fn, "options.seeds", seeds);
  const at = new Uint32Array(seeds.size), w = new Float64Array(seeds.size);
  let i = 0;
  for (const [k, v] of seeds) {
    if (typeof v !== "number") throw typeError(fn, `options.seeds.get(${JSON.stringify(k)})`, "a number", v);
    at[i] = (typeof k === "string" ? index.get(k) : undefined) ?? NONE;
    w[i++] = v;
  }
  return { at, w, n: i };
}

function pagerankArgs(fn, opts, index) {
  const o = options(fn, opts);
  return {
    damping: optNum(fn, o, "damping", PAGERANK_DAMPING),
    maxIterations: optNum(fn, o, "maxIterations", PAGERANK_MAX_ITERATIONS),
    tolerance: optNum(fn, o, "tolerance", PAGERANK_TOLERANCE),
    seeds: readSeeds(fn, o, index),
  };
}

function lpArgs(fn, opts) {
  const o = options(fn, opts);
  return {
    minCommunitySize: optNum(fn, o, "minCommunitySize", MIN_COMMUNITY_SIZE),
    maxSweeps: optNum(fn, o, "maxSweeps", LABEL_PROPAGATION_MAX_SWEEPS),
  };
}

/** Label ids for community labels: equal strings share an id; undefined is NONE. */
function labelIds(fn, communities, keys) {
  map(fn, "communities", communities);
  const ids = new Map();
  const out = new Uint32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const l = communities.get(keys[i]);
    if (l === undefined) { out[i] = NONE; continue; }
    if (typeof l !== "string")
      throw typeError(fn, `communities.get(${JSON.stringify(keys[i])})`, "a string or undefined", l);
    let id = ids.get(l);
    if (id === undefined) ids.set(l, (id = ids.size));
    out[i] = id;
  }
  return out;
}

function check(fn, status, arg, value) {
  if (status === 0) return;
  if (status === 3 && arg)
    throw rangeError(fn, arg, `(${value}) leaves an iteration that never converges or runs past memdomain's work budget`);
  raise(status, fn);
}

// ------------------------------------------------------------ one-shot API

/**
 * Plan a frame's key table and indexed edges; fill() (after alloc) checks each
 * edge and writes its ends' input indices (NONE when absent) and strength
 * straight into WebAssembly memory.
 */
function graphInput(f, fn, nodes, e, index) {
  const kt = f.keys(nodes), ps = f.u32(e.m), pd = f.u32(e.m), pw = f.f64(e.m);
  return {
    fill() {
      const { u32, f64 } = views(); // nothing below calls into wasm
      const s0 = f.at(ps) >>> 2, d0 = f.at(pd) >>> 2, w0 = f.at(pw) >>> 3;
      const edges = e.edges;
      // Edge lists often come grouped by src: reuse the last lookup.
      let lastS = null, lastSi = NONE;
      for (let i = 0; i < e.m; i++) {
        const x = edges[i];
        if (x === null || typeof x !== "object") throw typeError(fn, `edges[${i}]`, "a GraphEdge object", x);
        const s = x.src, d = x.dst, w = x.strength;
        if (typeof s !== "string") throw typeError(fn, `edges[${i}].src`, "a string", s);
        if (typeof d !== "string") throw typeError(fn, `edges[${i}].dst`, "a string", d);
        if (typeof w !== "number") throw typeError(fn, `edges[${i}].strength`, "a number", w);
        if (s !== lastS) { lastS = s; lastSi = index.get(s) ?? NONE; }
        u32[s0 + i] = lastSi;
        u32[d0 + i] = index.get(d) ?? NONE;
        f64[w0 + i] = w;
      }
    },
    args: () => [f.at(kt.bytes), f.at(kt.offs), nodes.length, f.at(ps), f.at(pd), f.at(pw), e.m],
  };
}

function planSeeds(f, seeds) {
  if (!seeds) return null;
  return { pa: f.u32(seeds.n), pw: f.f64(seeds.n) };
}

function fillSeeds(f, seeds, plan) {
  if (!seeds) return [0, 0, 0, 0];
  const { u32, f64 } = views();
  u32.set(seeds.at, f.at(plan.pa) >>> 2);
  f64.set(seeds.w, f.at(plan.pw) >>> 3);
  return [1, f.at(plan.pa), f.at(plan.pw), seeds.n];
}

/** PageRank by power iteration, weighted, with a uniform or personalized teleport prior. */
export function pagerank(nodes, edges, options) {
  const fn = "pagerank";
  const index = readNodes(fn, nodes);
  const e = readEdges(fn, edges);
  const a = pagerankArgs(fn, options, index);
  const n = nodes.length;
  return withFrame(fn, (f) => {
    const g = graphInput(f, fn, nodes, e, index), sp = planSeeds(f, a.seeds), po = f.f64(n), pf = f.u32(n);
    f.alloc();
    g.fill();
    const seedArgs = fillSeeds(f, a.seeds, sp);
    check(fn, exportsOf().mdw_pagerank(...g.args(), a.damping, a.maxIterations, a.tolerance, ...seedArgs,
      f.at(po), f.at(pf), f.out()), "options.maxIterations", a.maxIterations);
    const count = f.outU32(0);
    const { f64, u32 } = views();
    const s0 = f.at(po) >>> 3, f0 = f.at(pf) >>> 2;
    const out = new Map();
    for (let i = 0; i < count; i++) out.set(nodes[u32[f0 + i]], f64[s0 + i]);
    return out;
  });
}

/** Communities by label propagation over the edge list read as undirected. */
export function labelPropagation(nodes, edges, options) {
  const fn = "labelPropagation";
  const index = readNodes(fn, nodes);
  const e = readEdges(fn, edges);
  const a = lpArgs(fn, options);
  const n = nodes.length;
  return withFrame(fn, (f) => {
    const g = graphInput(f, fn, nodes, e, index), pc = f.u32(n), pf = f.u32(n);
    f.alloc();
    g.fill();
    check(fn, exportsOf().mdw_label_propagation(...g.args(), a.minCommunitySize, a.maxSweeps, f.at(pc),
      f.at(pf), f.out()), "options.maxSweeps", a.maxSweeps);
    const count = f.outU32(0);
    const { u32 } = views();
    const c0 = f.at(pc) >>> 2, f0 = f.at(pf) >>> 2;
    const out = new Map();
    for (let i = 0; i < count; i++) {
      const c = u32[c0 + i];
      out.set(nodes[u32[f0 + i]], c === NONE ? undefined : nodes[u32[f0 + c]]);
    }
    return out;
  });
}

/** Per-node count of incident edges that cross a community boundary. */
export function bridgeCounts(nodes, edges, communities) {
  const fn = "bridgeCounts";
  const index = readNodes(fn, nodes);
  const e = readEdges(fn, edges);
  const labels = labelIds(fn, communities, nodes);
  const n = nodes.length;
  return withFrame(fn, (f) => {
    const g = graphInput(f, fn, nodes, e, index), pl = f.u32(n), pc = f.u32(n), pf = f.u32(n);
    f.alloc();
    g.fill();
    views().u32.set(labels, f.at(pl) >>> 2);
    check(fn, exportsOf().mdw_bridge_counts(...g.args(), f.at(pl), f.at(pc), f.at(pf), f.out()));
    const count = f.outU32(0);
    const { u32 } = views();
    const c0 = f.at(pc) >>> 2, f0 = f.at(pf) >>> 2;
    const out = new Map();
    for (let i = 0; i < count; i++) out.set(nodes[u32[f0 + i]], u32[c0 + i]);
    return out;
  });
}

// ------------------------------------------------------------ the handle

const registry = typeof FinalizationRegistry === "function"
  ? new FinalizationRegistry(({ ex, ptr }) => ex.mdw_graph_free(ptr))
  : null;

/**
 * A graph normalized once (nodes deduplicated and sorted, edges dropped and
 * folded, compact adjacency in WebAssembly memory) for any number of
 * pagerank / labelPropagation / bridgeCounts runs, each identical to the
 * one-shot function over the same nodes and edges. Call free() when done (a
 * FinalizationRegistry frees a forgotten handle eventually).
 */
class GraphHandle {
  constructor(fn, nodes, edges) {
    const index = readNodes(fn, nodes);
    const e = readEdges(fn, edges);
    const ex = exportsOf();
    const n = nodes.length;
    let ptr = 0, count = 0, edgeCount = 0, first;
    withFrame(fn, (f) => {
      const g = graphInput(f, fn, nodes, e, index), pf = f.u32(n);
      f.alloc();
      g.fill();
      check(fn, ex.mdw_graph_new(...g.args(), f.at(pf), f.out()));
      ptr = f.outU32(0);
      count = f.outU32(1);
      edgeCount = f.outU32(2);
      first = views().u32.slice(f.at(pf) >>> 2, (f.at(pf) >>> 2) + count);
    });
    this._ex = ex;
    this._ptr = ptr;
    this._index = index; // key -> first input index (seeds resolve through it)
    this._sorted = Array.from(first, (j) => nodes[j]);
    this._edgeCount = edgeCount;
    this._token = {};
    registry?.register(this, { ex, ptr }, this._token);
  }

  /** The distinct nodes in sorted order: the key order of every result. */
  get nodes() { return this._sorted; }
  get nodeCount() { return this._sorted.length; }
  /** Edges left after dropping self-loops and absent ends and folding parallels. */
  get edgeCount() { return this._edgeCount; }
  get freed() { return this._ptr === 0; }

  _live(fn) {
    if (this._ptr === 0) throw new RangeError(`${fn}: the Graph has been freed`);
    if (this._ex !== exportsOf()) throw new RangeError(`${fn}: the Graph belongs to an earlier init()`);
    return this._ex;
  }

  /** Release the graph's WebAssembly memory now. Idempotent. */
  free() {
    if (this._ptr === 0) return;
    registry?.unregister(this._token);
    this._ex.mdw_graph_free(this._ptr);
    this._ptr = 0;
  }

  /** pagerank's scores as a Float64Array in `nodes` order. */
  pagerankScores(options) {
    const fn = "Graph.pagerank";
    const ex = this._live(fn);
    const a = pagerankArgs(fn, options, this._index);
    const n = this._sorted.length;
    return withFrame(fn, (f) => {
      const sp = planSeeds(f, a.seeds), po = f.f64(n);
      f.alloc();
      const seedArgs = fillSeeds(f, a.seeds, sp);
      check(fn, ex.mdw_graph_pagerank(this._ptr, a.damping, a.maxIterations, a.tolerance, ...seedArgs, f.at(po)),
        "options.maxIterations", a.maxIterations);
      const s0 = f.at(po) >>> 3;
      return views().f64.slice(s0, s0 + n);
    });
  }

  /** The same Map as pagerank(nodes, edges, options). */
  pagerank(options) {
    const s = this.pagerankScores(options), keys = this._sorted, out = new Map();
    for (let i = 0; i < keys.length; i++) out.set(keys[i], s[i]);
    return out;
  }

  /** The same Map as labelPropagation(nodes, edges, options). */
  labelPropagation(options) {
    const fn = "Graph.labelPropagation";
    const ex = this._live(fn);
    const a = lpArgs(fn, options);
    const keys = this._sorted, n = keys.length;
    return withFrame(fn, (f) => {
      const pc = f.u32(n);
      f.alloc();
      check(fn, ex.mdw_graph_label_propagation(this._ptr, a.minCommunitySize, a.maxSweeps, f.at(pc)),
        "options.maxSweeps", a.maxSweeps);
      const { u32 } = views();
      const c0 = f.at(pc) >>> 2;
      const out = new Map();
      for (let i = 0; i < n; i++) {
        const c = u32[c0 + i];
        out.set(keys[i], c === NONE ? undefined : keys[c]);
      }
      return out;
    });
  }

  /** The same Map as bridgeCounts(nodes, edges, communities). */
  bridgeCounts(communities) {
    const fn = "Graph.bridgeCounts";
    const ex = this._live(fn);
    const keys = this._sorted, n = keys.length;
    const labels = labelIds(fn, communities, keys);
    return withFrame(fn, (f) => {
      const pl = f.u32(n), pc = f.u32(n);
      f.alloc();
      views().u32.set(labels, f.at(pl) >>> 2);
      check(fn, ex.mdw_graph_bridge_counts(this._ptr, f.at(pl), f.at(pc)));
      const { u32 } = views();
      const c0 = f.at(pc) >>> 2;
      const out = new Map();
      for (let i = 0; i < n; i++) out.set(keys[i], u32[c0 + i]);
      return out;
    });
  }
}

if (typeof Symbol.dispose === "symbol") GraphHandle.prototype[Symbol.dispose] = GraphHandle.prototype.free;

/**
 * Build a Graph handle: `new Graph(nodes, edges)`, or `Graph(nodes, edges)`
 * (bad input is a TypeError naming the argument either way).
 */
export function Graph(nodes, edges) {
  return new GraphHandle("Graph", nodes, edges);
}
Graph.prototype = GraphHandle.prototype;
Object.defineProperty(GraphHandle.prototype, "constructor", { value: Graph, writable: true, configurable: true });

/** Build a Graph handle (same as `new Graph(nodes, edges)`). */
export function buildGraph(nodes, edges) {
  return new GraphHandle("buildGraph", nodes, edges);
}

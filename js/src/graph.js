// graph module: pagerank, labelPropagation and bridgeCounts over the memory
// graph, and a reusable Graph handle (build once, run any number of times).
// A one-shot call builds a handle, runs it and frees it.
import { addr, call, exportsOf, finalizer, f64, fill, keys, out, slots, u32 } from "./core.js";
import { arg, elementBad, entryBad, fields, item, typeError } from "./validate.js";
import { ARGS } from "./args.js";

import { OUT_GRAPH_NEW_EDGES, OUT_GRAPH_NEW_GRAPH, OUT_GRAPH_NEW_NODES } from "./constants.js";
import { LABEL_PROPAGATION_MAX_SWEEPS, MIN_COMMUNITY_SIZE, PAGERANK_DAMPING, PAGERANK_MAX_ITERATIONS,
  PAGERANK_TOLERANCE } from "./constants.js";

export { LABEL_PROPAGATION_MAX_SWEEPS, MIN_COMMUNITY_SIZE, PAGERANK_DAMPING, PAGERANK_MAX_ITERATIONS,
  PAGERANK_TOLERANCE };

const NONE = 0xffffffff;

// ------------------------------------------------------------ arguments

/**
 * Each node key's input index. A null-prototype object rather than a Map: for
 * string keys it is the same lookup (every string, "__proto__" included, is an
 * ordinary own key), and V8 answers it faster, which is most of a one-shot
 * call's time (two lookups per edge). C sorts the nodes and drops repeats.
 */
function readNodes(fn, nodes) {
  arg(ARGS[fn], 0, nodes);
  const n = nodes.length;
  const index = Object.create(null);
  for (let i = 0; i < n; i++) {
    const k = nodes[i];
    if (typeof k !== "string") item(ARGS[fn], 0, i, k);
    index[k] = i;
  }
  return index;
}

// The options argument: the last of fn's row (pagerank's third, Graph.pagerank's first).
const optionsOf = (fn, o) => { const d = ARGS[fn]; return fields(d, (d.length - 2) / 3 - 1, o); };

/** Seeds as input indices and weights, in the Map's order (null: none). */
function readSeeds(fn, seeds, index) {
  if (seeds === undefined) return null;
  const at = new Uint32Array(seeds.size), w = new Float64Array(seeds.size);
  let i = 0;
  for (const [k, v] of seeds) {
    if (typeof v !== "number") { const d = ARGS[fn]; entryBad(d[4 + 3 * ((d.length - 2) / 3 - 1)], 3, k, v, false); } // options.seeds
    at[i] = (typeof k === "string" ? index[k] : undefined) ?? NONE;
    w[i++] = v;
  }
  return { at, w };
}

function pagerankArgs(fn, opts, index) {
  const [damping, maxIterations, tolerance, seeds] = optionsOf(fn, opts);
  return { damping, maxIterations, tolerance, seeds: readSeeds(fn, seeds, index) };
}

function lpArgs(fn, opts) {
  const [minCommunitySize, maxSweeps] = optionsOf(fn, opts);
  return { minCommunitySize, maxSweeps };
}

/** Label ids per key of `keys`: equal community strings share an id; undefined is NONE. */
function labelIds(fn, communities, keys) {
  const d = ARGS[fn];
  arg(d, (d.length - 2) / 3 - 1, communities);
  const ids = new Map();
  const labels = new Uint32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const l = communities.get(keys[i]);
    if (l === undefined) { labels[i] = NONE; continue; }
    if (typeof l !== "string")
      throw typeError(fn, `communities.get(${JSON.stringify(keys[i])})`, "a string or undefined", l);
    let id = ids.get(l);
    if (id === undefined) ids.set(l, (id = ids.size));
    labels[i] = id;
  }
  return labels;
}

// ------------------------------------------------------------ the handle

/**
 * Build the core's graph: the node keys once, each edge's ends as input
 * indices (NONE when absent), checked and written straight into WebAssembly
 * memory. Returns { ptr, sorted (the distinct nodes in sorted order), firsts
 * (the input index of each), edgeCount }.
 */
function build(fn, nodes, edges, index) {
  const row = ARGS[fn];
  arg(row, 1, edges);
  const m = edges.length;
  const n = nodes.length;
  const src = fill.u32(m), dst = fill.u32(m), w = fill.f64(m), first = out.u32(n);
  return call(fn, "mdw_graph_new", [keys(nodes), n, src, dst, w, m, first, slots],
    (r) => {
      const count = r.slot(OUT_GRAPH_NEW_NODES), firsts = r.view(first).slice(0, count);
      const sorted = new Array(count);
      for (let i = 0; i < count; i++) sorted[i] = nodes[firsts[i]];
      return { ptr: r.slot(OUT_GRAPH_NEW_GRAPH), sorted, firsts, edgeCount: r.slot(OUT_GRAPH_NEW_EDGES) };
    },
    (r) => {
      const s = r.view(src), d = r.view(dst), sw = r.view(w);
      // Edge lists often come grouped by src: reuse the last lookup.
      let lastS = null, lastSi = NONE;
      for (let i = 0; i < m; i++) {
        const x = edges[i];
        // The table's element fields (src 0, dst 1, strength 2), checked inline.
        if (x === null || typeof x !== "object") elementBad(row, 1, i, -1, x);
        const a = x.src, b = x.dst, v = x.strength;
        if (typeof a !== "string") elementBad(row, 1, i, 0, a);
        if (typeof b !== "string") elementBad(row, 1, i, 1, b);
        if (typeof v !== "number") elementBad(row, 1, i, 2, v);
        if (a !== lastS) { lastS = a; lastSi = index[a] ?? NONE; }
        s[i] = lastSi;
        d[i] = index[b] ?? NONE;
        sw[i] = v;
      }
    });
}

function runPagerank(fn, ptr, n, a) {
  const seeds = a.seeds, scores = out.f64(n);
  return call(fn, "mdw_graph_pagerank", [addr(ptr), a.damping, a.maxIterations, a.tolerance, seeds ? 1 : 0,
    seeds ? u32(seeds.at) : u32([]), seeds ? f64(seeds.w) : f64([]), seeds ? seeds.at.length : 0, scores],
  (r) => r.view(scores).slice());
}

function runLabels(fn, ptr, n, a) {
  const community = out.u32(n);
  return call(fn, "mdw_graph_label_propagation", [addr(ptr), a.minCommunitySize, a.maxSweeps, community],
    (r) => r.view(community).slice());
}

function runBridges(fn, ptr, labels) {
  const counts = out.u32(labels.length);
  return call(fn, "mdw_graph_bridge_counts", [addr(ptr), u32(labels), counts],
    (r) => r.view(counts).slice());
}

function scoresMap(sorted, s) {
  const m = new Map();
  for (let i = 0; i < sorted.length; i++) m.set(sorted[i], s[i]);
  return m;
}

function labelsMap(sorted, c) {
  const m = new Map();
  for (let i = 0; i < sorted.length; i++) m.set(sorted[i], c[i] === NONE ? undefined : sorted[c[i]]);
  return m;
}

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
    const g = build(fn, nodes, edges, index);
    this._ex = exportsOf();
    this._ptr = g.ptr;
    this._index = index; // key -> input index (seeds resolve through it)
    this._sorted = g.sorted;
    this._edgeCount = g.edgeCount;
    this._token = {};
    finalizer?.register(this, { ex: this._ex, ptr: g.ptr, free: "mdw_graph_free" }, this._token);
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
    return this._ptr;
  }

  /** Release the graph's WebAssembly memory now. Idempotent. */
  free() {
    if (this._ptr === 0) return;
    finalizer?.unregister(this._token);
    this._ex.mdw_graph_free(this._ptr);
    this._ptr = 0;
  }

  /** pagerank's scores as a Float64Array in `nodes` order. */
  pagerankScores(options) {
    const fn = "Graph.pagerank";
    const ptr = this._live(fn);
    return runPagerank(fn, ptr, this._sorted.length, pagerankArgs(fn, options, this._index));
  }

  /** The same Map as pagerank(nodes, edges, options). */
  pagerank(options) {
    return scoresMap(this._sorted, this.pagerankScores(options));
  }

  /** The same Map as labelPropagation(nodes, edges, options). */
  labelPropagation(options) {
    const fn = "Graph.labelPropagation";
    const ptr = this._live(fn);
    return labelsMap(this._sorted, runLabels(fn, ptr, this._sorted.length, lpArgs(fn, options)));
  }

  /** The same Map as bridgeCounts(nodes, edges, communities). */
  bridgeCounts(communities) {
    const fn = "Graph.bridgeCounts";
    const ptr = this._live(fn);
    return scoresMap(this._sorted, runBridges(fn, ptr, labelIds(fn, communities, this._sorted)));
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

// ------------------------------------------------------------ one-shot API

/** Build, run, free: the one-shot calls' shared shape. */
function oneShot(fn, nodes, edges, prepare, run) {
  const index = readNodes(fn, nodes);
  arg(ARGS[fn], 1, edges);
  const a = prepare(index);
  const g = build(fn, nodes, edges, index);
  try {
    return run(g, a);
  } finally {
    exportsOf().mdw_graph_free(g.ptr);
  }
}

/** PageRank by power iteration, weighted, with a uniform or personalized teleport prior. */
export function pagerank(nodes, edges, options) {
  const fn = "pagerank";
  return oneShot(fn, nodes, edges, (index) => pagerankArgs(fn, options, index),
    (g, a) => scoresMap(g.sorted, runPagerank(fn, g.ptr, g.sorted.length, a)));
}

/** Communities by label propagation over the edge list read as undirected. */
export function labelPropagation(nodes, edges, options) {
  const fn = "labelPropagation";
  return oneShot(fn, nodes, edges, () => lpArgs(fn, options),
    (g, a) => labelsMap(g.sorted, runLabels(fn, g.ptr, g.sorted.length, a)));
}

/** Per-node count of incident edges that cross a community boundary. */
export function bridgeCounts(nodes, edges, communities) {
  const fn = "bridgeCounts";
  return oneShot(fn, nodes, edges, () => labelIds(fn, communities, nodes),
    (g, labels) => scoresMap(g.sorted, runBridges(fn, g.ptr, g.firsts.map((j) => labels[j]))));
}

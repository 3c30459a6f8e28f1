// What each golden (and corpus) function sends tests/runtimes/native_hash.c:
// one emitter per function, each writing the function's arguments after the
// JavaScript glue's defaults and conversions. The op codes are the functions'
// places in OPS (the first is 1): tools/gen-boundary.mjs writes them into
// tests/runtimes/native_ops.h (OP_<FUNCTION>) from this module, and make test
// fails when that header is stale, so the two sides cannot drift apart.
// Defaults and names come from the glue's generated tables (wasm/boundary.def and the header), never restated here.
import { ARGS } from "../../js/src/args.js";
import { DEFAULT_CONFIDENCE_DECAY_ALPHA as DECAY_ALPHA, DEFAULT_CONFIDENCE_FLOOR as DECAY_FLOOR, LABEL_PROPAGATION_MAX_SWEEPS,
  MIN_COMMUNITY_SIZE, PAGERANK_DAMPING, PAGERANK_MAX_ITERATIONS, PAGERANK_TOLERANCE, REINFORCE_COOLDOWN_S as COOLDOWN, RRF_K,
  SIGNAL_NAMES as SIGNALS } from "../../js/src/constants.js";

/** A function of wasm/boundary.def's `as` lines: its arguments (objects' fields in the table's order) as doubles,
 * each absent one as its default, the way js/src/validate.js's `arg` reads the descriptor. */
const leaves = (w, d, values) => {
  for (let i = 0; 2 + 3 * i < d.length; i++) {
    const k = d[3 + 3 * i], v = values[i];
    if ((k & 15) === 5) { leaves(w, d[4 + 3 * i], d[4 + 3 * i].filter((_, j) => j >= 2 && (j - 2) % 3 === 0).map((f) => v?.[f])); continue; }
    w.d(v === undefined || (v === null && k & 32) ? d[4 + 3 * i] : v);
  }
};
const table = (fn) => (w, ...values) => leaves(w, ARGS[fn], values);
const FIELDS = ["ageDays", "accessCount", "confidence", "graphRank", "maxGraphRank", "bridgeCount",
  "reinforcementCount", "wordCount", "contradictionCount"];
const orDefault = (v, dflt) => (v === undefined || v === null ? dflt : v); // the graph options' optNum
const graphArg = (w, nodes, edges) => {
  w.S(nodes); w.S(edges.map((e) => e.src)); w.S(edges.map((e) => e.dst)); w.D(edges.map((e) => e.strength));
};
const retentionInput = (w, x) => { w.s(x.memoryType); w.D(FIELDS.map((k) => x[k])); };
const nopts = (w, o) => { w.d(o.floor); w.d(o.perSourceK); w.d(o.limit); };
const vectorsArg = (w, vectors) => { w.S(vectors.map((v) => v.key)); w.V(vectors.map((v) => v.vec)); };
// bridgeCounts' label ids per input node, as the glue's labelIds computes them.
const labelIds = (nodes, communities) => {
  const ids = new Map();
  return nodes.map((k) => {
    const l = communities.get(k);
    if (l === undefined) return 0xffffffff;
    if (!ids.has(l)) ids.set(l, ids.size);
    return ids.get(l);
  });
};
const kOr = (k, dflt) => (k === undefined ? dflt : k);
const ms = (date) => date.getTime();
const entries = (map) => ({ paths: [...map.keys()], scores: [...map.values()] });

export const OPS = {
  cosine: (w, a, b) => { const n = Math.min(a.length, b.length); w.D(Array.from(a).slice(0, n)); w.D(Array.from(b).slice(0, n)); },
  cosineDistance: (w, a, b) => { const n = Math.min(a.length, b.length); w.D(Array.from(a).slice(0, n)); w.D(Array.from(b).slice(0, n)); },
  compensatedSum: (w, v) => w.D(Array.from(v)),
  rrfContribution: (w, rank, weight) => { w.d(rank); w.d(weight); },
  rrfScore: table("rrfScore"),
  fuseArms: (w, arms, weights, k) => {
    w.tag("A"); w.u32(arms.length);
    for (const hits of arms) { w.u32(hits.length); for (const h of hits) { w.rawStr(h.path); w.raw64(h.rank); } }
    w.D(arms.map((_, i) => weights[i] ?? 0)); w.d(kOr(k, RRF_K));
  },
  rankFused: (w, fused) => { const e = entries(fused); w.S(e.paths); w.D(e.scores); },
  fuseLateral: (w, fused, order, weight, k) => { const e = entries(fused); w.S(e.paths); w.D(e.scores); w.S(order); w.d(weight); w.d(kOr(k, RRF_K)); },
  toFp: table("toFp"),
  fromFp: table("fromFp"),
  ewmaStepFp: table("ewmaStepFp"),
  applyOutcomesFp: (w, a, p, signals) => { w.d(a); w.d(p); w.D(signals); },
  applyNegativeHitsFp: table("applyNegativeHitsFp"),
  decayConfidenceFp: table("decayConfidenceFp"),
  decayConfidenceNFp: table("decayConfidenceNFp"),
  decayConfidence: table("decayConfidence"),
  decayConfidenceN: (w, c, n, a, f) => { w.d(c); w.d(n); w.d(kOr(a, DECAY_ALPHA)); w.d(kOr(f, DECAY_FLOOR)); },
  isCommittableConfidenceChange: table("isCommittableConfidenceChange"),
  signalValue: (w, s) => w.s(s),
  shouldBumpAccess: (w, last, now, cd) => { w.d(last === undefined ? 0 : 1); w.d(last === undefined ? 0 : ms(last)); w.d(ms(now)); w.d(kOr(cd, COOLDOWN)); },
  partitionByCooldown: (w, list, now, cd) => {
    w.S(list.map((e) => e.path));
    w.U(list.map((e) => (e.lastAccessedAt === undefined ? 0 : 1)));
    w.D(list.map((e) => (e.lastAccessedAt === undefined ? 0 : ms(e.lastAccessedAt))));
    w.d(ms(now)); w.d(kOr(cd, COOLDOWN));
  },
  weightsFor: (w, t) => w.s(t),
  halfLifeFor: (w, t) => w.s(t),
  profileWeightSum: (w, p) => w.D(SIGNALS.map((k) => p[k])),
  computeSignals: retentionInput,
  compositeScore: (w, sg, p) => { w.D(SIGNALS.map((k) => sg[k])); w.D(SIGNALS.map((k) => p[k])); },
  bandFor: table("bandFor"),
  scoreRetention: retentionInput,
  scoreRetentionMany: (w, cols, o) => { w.S(cols.memoryType); for (const k of FIELDS) w.D(cols[k]); w.d(o?.signals ? 1 : 0); },
  reprieveScore: table("reprieveScore"),
  shouldReprieve: table("shouldReprieve"),
  pagerank: (w, nodes, edges, o_) => {
    const o = o_ ?? {};
    graphArg(w, nodes, edges);
    w.d(orDefault(o.damping, PAGERANK_DAMPING)); w.d(orDefault(o.maxIterations, PAGERANK_MAX_ITERATIONS));
    w.d(orDefault(o.tolerance, PAGERANK_TOLERANCE));
    const seeds = o.seeds ?? null;
    if (seeds && [...seeds.keys()].some((k) => typeof k !== "string")) throw new TypeError("native: seed keys must be strings");
    w.d(seeds ? 1 : 0); w.S(seeds ? [...seeds.keys()] : []); w.D(seeds ? [...seeds.values()] : []);
  },
  labelPropagation: (w, nodes, edges, o_) => {
    const o = o_ ?? {};
    graphArg(w, nodes, edges); w.d(orDefault(o.minCommunitySize, MIN_COMMUNITY_SIZE)); w.d(orDefault(o.maxSweeps, LABEL_PROPAGATION_MAX_SWEEPS));
  },
  bridgeCounts: (w, nodes, edges, communities) => { graphArg(w, nodes, edges); w.W(labelIds(nodes, communities)); },
  Graph: graphArg,
  buildGraph: graphArg,
  topNeighborPairs: (w, vectors, o) => { vectorsArg(w, vectors); nopts(w, o); },
  rankCandidatePairs: (w, pairs, vectors, o) => {
    w.S(pairs.map((p) => p.src)); w.S(pairs.map((p) => p.dst)); vectorsArg(w, vectors); nopts(w, o);
  },
  topNeighborPairsPacked: (w, m, keys, o) => { w.F(m); w.S(keys); w.d(keys.length ? m.length / keys.length : 0); nopts(w, o); },
};


/** The op code native_hash.c switches on for a function of OPS. */
const CODES = new Map(Object.keys(OPS).map((fn, i) => [fn, i + 1]));
export const opCode = (fn) => CODES.get(fn);

/** OP_<FUNCTION>: cosineDistance -> OP_COSINE_DISTANCE, decayConfidenceNFp -> OP_DECAY_CONFIDENCE_N_FP. */
export const opName = (fn) => `OP_${fn.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2").toUpperCase()}`;

// What each golden (and corpus) function sends tests/runtimes/native_hash.c:
// one emitter per function, each writing the function's arguments after the
// JavaScript glue's defaults and conversions. The op codes are the functions'
// places in OPS (the first is 1): tools/gen-boundary.mjs writes them into
// tests/runtimes/native_ops.h (OP_<FUNCTION>) from this module, and make test
// fails when that header is stale, so the two sides cannot drift apart.
const RRF_K = 60, COOLDOWN = 900, DECAY_ALPHA = 0.1, DECAY_FLOOR = 0.2;

const SIGNALS = ["recency", "accessFrequency", "confidence", "pagerank", "bridgeImportance", "reinforcementCount",
  "contentDensity", "contestedStatus"];
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
  rrfScore: (w, rank, weight, k) => { w.d(rank); w.d(weight); w.d(kOr(k, RRF_K)); },
  fuseArms: (w, arms, weights, k) => {
    w.tag("A"); w.u32(arms.length);
    for (const hits of arms) { w.u32(hits.length); for (const h of hits) { w.rawStr(h.path); w.raw64(h.rank); } }
    w.D(arms.map((_, i) => weights[i] ?? 0)); w.d(kOr(k, RRF_K));
  },
  rankFused: (w, fused) => { const e = entries(fused); w.S(e.paths); w.D(e.scores); },
  fuseLateral: (w, fused, order, weight, k) => { const e = entries(fused); w.S(e.paths); w.D(e.scores); w.S(order); w.d(weight); w.d(kOr(k, RRF_K)); },
  toFp: (w, v) => w.d(v),
  fromFp: (w, v) => w.d(v),
  ewmaStepFp: (w, a, p, s) => { w.d(a); w.d(p); w.d(s); },
  applyOutcomesFp: (w, a, p, signals) => { w.d(a); w.d(p); w.D(signals); },
  applyNegativeHitsFp: (w, a, p, hits) => { w.d(a); w.d(p); w.d(hits); },
  decayConfidenceFp: (w, a, c, f) => { w.d(a); w.d(c); w.d(f); },
  decayConfidenceNFp: (w, a, c, f, n) => { w.d(a); w.d(c); w.d(f); w.d(n); },
  decayConfidence: (w, c, a, f) => { w.d(c); w.d(kOr(a, DECAY_ALPHA)); w.d(kOr(f, DECAY_FLOOR)); },
  decayConfidenceN: (w, c, n, a, f) => { w.d(c); w.d(n); w.d(kOr(a, DECAY_ALPHA)); w.d(kOr(f, DECAY_FLOOR)); },
  isCommittableConfidenceChange: (w, b, a) => { w.d(b); w.d(a); },
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
  bandFor: (w, x) => w.d(x),
  scoreRetention: retentionInput,
  scoreRetentionMany: (w, cols, o) => { w.S(cols.memoryType); for (const k of FIELDS) w.D(cols[k]); w.d(o?.signals ? 1 : 0); },
  reprieveScore: (w, x) => { w.d(x.importance); w.d(x.accessCount); w.d(x.outcomeScore); w.d(x.hoursSinceAccess); w.d(kOr(x.decayRate, 0.01)); },
  shouldReprieve: (w, x) => { w.d(x.score); w.d(x.reprieveCount); w.d(kOr(x.floor, 0.5)); w.d(kOr(x.maxReprieves, 3)); },
  pagerank: (w, nodes, edges, o_) => {
    const o = o_ ?? {};
    graphArg(w, nodes, edges);
    w.d(orDefault(o.damping, 0.85)); w.d(orDefault(o.maxIterations, 100)); w.d(orDefault(o.tolerance, 1e-6));
    const seeds = o.seeds ?? null;
    if (seeds && [...seeds.keys()].some((k) => typeof k !== "string")) throw new TypeError("native: seed keys must be strings");
    w.d(seeds ? 1 : 0); w.S(seeds ? [...seeds.keys()] : []); w.D(seeds ? [...seeds.values()] : []);
  },
  labelPropagation: (w, nodes, edges, o_) => {
    const o = o_ ?? {};
    graphArg(w, nodes, edges); w.d(orDefault(o.minCommunitySize, 3)); w.d(orDefault(o.maxSweeps, 100));
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

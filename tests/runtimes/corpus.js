// A seeded random corpus of calls over every export of memdomain, generated
// the same way in every runtime (a 32-bit PRNG and integer arithmetic only; no
// Math.random, no platform math before the call), so Node, Deno, workerd,
// Chromium and the native build compute the same inputs. Used by the
// cross-runtime hash (harness.js) and by the soak test (tests/soak/soak.mjs).
//
//   const gen = corpus(seed);  gen.next() -> { fn, args }   (fn: an export's name)
//
// Sizes are small and random; most inputs are valid, some are the design's
// quirks (NaN, Infinity, -0, negative or fractional counts, lone surrogates,
// absent keys), so both the answers and the RangeError/TypeError paths are
// exercised. Arguments are fresh objects on every call. The runtime harness
// copies this file to harness/ and writes oracles/rng.js beside it, a
// re-export of the installed package's generator as tests/oracles/rng.js is of
// js/'s (tests/runtimes/setup.mjs), so the import below resolves there too.

import { mulberry32 } from "../oracles/rng.js";

/** mulberry32 (js/cache/rng.js: identical in every JavaScript runtime) with integer and unit draws. */
export function prng(seed) {
  const u32 = mulberry32(seed);
  return {
    u32,
    int: (n) => (n <= 0 ? 0 : u32() % n), // [0, n)
    // A double in [0, 1) from 53 random bits: exact, no rounding differences.
    unit: () => ((u32() >>> 5) * 67108864 + (u32() >>> 6)) / 9007199254740992,
  };
}

const WORDS = ["deploy", "retry", "the", "is", "not", "never", "v2.1", "42", "3.5", "beta", "pro", "legacy",
  "capital", "of", "France", "Paris", "Alice's", "favourite", "colour", "blue", "don't", "won't", "É", "ﬁ",
  "İ", "Σ", "ß", "\u0301", "🚀", "中文", "rc1", "always", "hours", "port", "\t", "\u00a0", "NOT", "x86_64"];
const KEYCHARS = ["a", "b", "c", "z", "A", "É", "e\u0301", "ß", "ﬁ", "\uFF5E", "🚀", "\uD800", "\uDC00", "/", ".", "1", "0", " "];
const TYPES = ["episodic", "semantic", "procedural", "working", "reflection", "unknown", ""];
const SIGNALS = ["positive", "negative", "neutral", "POSITIVE", "", "x"];
const SIGNAL_NAMES = ["recency", "accessFrequency", "confidence", "pagerank", "bridgeImportance",
  "reinforcementCount", "contentDensity", "contestedStatus"];

export function corpus(seed) {
  const r = prng(seed);
  const pick = (list) => list[r.int(list.length)];
  const chance = (per1000) => r.int(1000) < per1000;
  // Numbers: mostly ordinary, sometimes the quirks.
  const special = [NaN, Infinity, -Infinity, -0, 0, 1, -1, 0.5, 5e-324, 1e308];
  const num = (scale = 1) => (chance(40) ? pick(special) : (r.unit() * 2 - 1) * scale);
  const pos = (scale = 1) => (chance(30) ? pick(special) : r.unit() * scale);
  const count = (max) => (chance(20) ? pick([-1, 0.5, 2.5, NaN, Infinity, 0]) : r.int(max + 1));
  const key = () => {
    let s = "";
    const n = 1 + r.int(4);
    for (let i = 0; i < n; i++) s += pick(KEYCHARS);
    return s;
  };
  const keys = (n) => { // unique
    const set = new Set();
    while (set.size < n) set.add(key() + (set.size >= 8 ? set.size : ""));
    return [...set];
  };
  const text = () => {
    const n = r.int(9);
    const w = [];
    for (let i = 0; i < n; i++) w.push(pick(WORDS));
    return w.join(pick([" ", " ", ", ", "; ", " - ", "\n"]));
  };
  const mtext = () => ({ gist: text(), body: text() });
  const vec = (d) => Float32Array.from({ length: d }, () => (chance(10) ? pick(special) : Math.fround(r.int(7) - 3 + r.int(4) / 4)));
  const arr = (d) => Array.from({ length: d }, () => num(3));
  const date = () => new Date(1_700_000_000_000 + r.int(2_000_000) * 1000);
  const nopts = () => ({ floor: chance(50) ? NaN : r.unit() * 1.2 - 0.6, perSourceK: count(4), limit: count(12) });
  const edges = (nodes) => Array.from({ length: r.int(3 * nodes.length + 1) }, () => ({
    src: chance(50) ? key() : pick(nodes), dst: pick(nodes), strength: chance(50) ? pick(special) : r.unit(),
  }));
  const graph = () => {
    const nodes = keys(r.int(9));
    if (nodes.length > 1 && chance(100)) nodes.push(nodes[0]); // duplicate node
    return [nodes, nodes.length ? edges(nodes) : []];
  };
  const seeds = (nodes) => (chance(500) ? undefined : new Map(Array.from({ length: r.int(3) }, () => [chance(200) ? key() : pick(nodes.length ? nodes : ["x"]), num()])));
  const input = () => ({
    memoryType: pick(TYPES), ageDays: pos(4000), accessCount: count(500), confidence: pos(), graphRank: pos(),
    maxGraphRank: pos(), bridgeCount: count(40), reinforcementCount: count(30), wordCount: count(3000),
    contradictionCount: count(5),
  });
  const signals = () => Object.fromEntries(SIGNAL_NAMES.map((k) => [k, pos()]));
  const fused = () => new Map(keys(r.int(6)).map((k) => [k, pos()]));
  const pairsOf = (ks) => {
    const out = [], seen = new Set();
    for (let i = 0; i < 2 * ks.length; i++) {
      const s = pick(ks), d = pick(ks), id = `${s}\u0000${d}`;
      if (s !== d && !seen.has(id)) { seen.add(id); out.push({ src: s, dst: d }); }
    }
    return out;
  };
  const packed = () => {
    const n = r.int(7), d = 1 + r.int(5);
    return { n, d, ks: keys(n), m: vec(n * d) };
  };

  const G = {
    cosine: () => { const d = r.int(6); return [arr(d), chance(500) ? vec(d) : arr(d)]; },
    cosineDistance: () => { const d = r.int(6); return [vec(d), arr(d)]; },
    compensatedSum: () => [arr(r.int(8))],
    toFp: () => [num(2)], fromFp: () => [num(20000)],
    ewmaStepFp: () => [r.int(10001), num(12000), num(12000)],
    applyOutcomesFp: () => [r.int(10001), num(12000), Array.from({ length: r.int(5) }, () => num(12000))],
    applyNegativeHitsFp: () => [r.int(10001), num(12000), count(300)],
    decayConfidenceFp: () => [r.int(10001), num(12000), r.int(5000)],
    decayConfidenceNFp: () => [r.int(10001), num(12000), r.int(5000), count(40)],
    decayConfidence: () => (chance(300) ? [pos()] : [pos(), pos(), pos()]),
    decayConfidenceN: () => [pos(), count(30), pos(), pos()],
    isCommittableConfidenceChange: () => [pos(), pos()],
    mmrReorders: () => [chance(250) ? 1 : pos(), r.int(4)],
    frameKeyOf: () => [chance(300) ? `The ${pick(WORDS)} of ${pick(WORDS)} is ${pick(WORDS)}.` : text()],
    frameKeysOf: () => [Array.from({ length: r.int(4) }, () => (chance(500) ? `The ${pick(WORDS)} of X is ${pick(WORDS)}` : text()))],
    pagerank: () => { const [n, e] = graph(); return [n, e, { damping: chance(100) ? num() : 0.85, maxIterations: count(60), tolerance: 1e-6, seeds: seeds(n) }]; },
    labelPropagation: () => { const [n, e] = graph(); return [n, e, { minCommunitySize: count(4), maxSweeps: count(20) }]; },
    bridgeCounts: () => { const [n, e] = graph(); return [n, e, new Map(n.map((k) => [k, chance(300) ? undefined : pick(n)]))]; },
    Graph: () => graph(), buildGraph: () => graph(),
    joinMergeText: () => [mtext()],
    negationDivergent: () => [text(), text()], numericTokenDivergent: () => [text(), text()],
    variantQualifierDivergent: () => [text(), text()],
    mergeVetoReasons: () => [mtext(), mtext()], mergeVetoed: () => [mtext(), mtext()],
    mergeOutcomes: () => {
      const ks = keys(1 + r.int(5));
      const pairs = Array.from({ length: r.int(6) }, () => ({ keepPath: pick(ks), dropPath: pick(ks),
        similarity: 0.85 + r.unit() * 0.15, ...(chance(600) ? { keepText: mtext(), dropText: mtext() } : {}) }));
      return [pairs, chance(500) ? undefined : { maxPairs: count(6), threshold: 0.9 + r.unit() * 0.05 }];
    },
    mergeCandidates: () => G.mergeOutcomes(),
    connectedComponents: () => { const ks = keys(1 + r.int(6)); return [Array.from({ length: r.int(7) }, () => [pick(ks), pick(ks)])]; },
    excludeSelfSupersede: () => { const ks = keys(1 + r.int(4)); return [pick(ks), Array.from({ length: r.int(6) }, () => pick(ks))]; },
    applyMmr: () => {
      const d = 1 + r.int(4);
      return [Array.from({ length: r.int(7) }, (_, i) => ({ path: `p${i}`, score: pos(), vector: chance(300) ? vec(d) : arr(d) })),
        count(5), ...(chance(500) ? [pos()] : [])];
    },
    applyMmrPacked: () => { const n = r.int(7), d = 1 + r.int(4); return [arr(n), Float64Array.from(arr(n * d)), count(5), pos()]; },
    float32View: () => { const b = new Uint8Array(4 * r.int(4) + 3); for (let i = 0; i < b.length; i++) b[i] = r.int(256); return [b.subarray(r.int(4))]; },
    topNeighborPairs: () => { const p = packed(); return [p.ks.map((k, i) => ({ key: k, vec: p.m.slice(i * p.d, (i + 1) * p.d) })), nopts()]; },
    rankCandidatePairs: () => { const p = packed(); return [pairsOf(p.ks.length ? p.ks : ["x"]), p.ks.map((k, i) => ({ key: k, vec: p.m.slice(i * p.d, (i + 1) * p.d) })), nopts()]; },
    topNeighborPairsPacked: () => { const p = packed(); return [p.m, p.ks, nopts()]; },
    neighborTile: () => { const p = packed(); const a = r.int(p.n + 1); return [p.m, p.ks, a, a + r.int(p.n - a + 1), nopts()]; },
    mergeNeighborTiles: () => { const p = packed(); return [p.ks, [], nopts()]; },
    cosineRows: () => { const p = packed(); return [vec(p.d), p.m]; },
    topCosineRows: () => { const p = packed(); return [vec(p.d), p.m, count(4)]; },
    residentRows: () => { const p = packed(); return [p.m, p.d]; },
    lexicalIndex: () => {
      const docs = Array.from({ length: r.int(6) }, () => {
        const n = r.int(4), terms = Uint32Array.from(new Set(Array.from({ length: n }, () => r.int(6))));
        return { key: key(), terms, gist: terms.map(() => r.int(2)), body: terms.map(() => 1 + r.int(3)), extra: r.int(5) };
      });
      return [docs, Uint32Array.from({ length: r.int(4) }, () => r.int(7)), count(8), pick([0, 1, 2.5])];
    },
    rrfContribution: () => [count(5), num(2)],
    signalValue: () => [pick(SIGNALS)],
    shouldBumpAccess: () => [chance(200) ? undefined : date(), date(), ...(chance(500) ? [count(2000)] : [])],
    partitionByCooldown: () => [Array.from({ length: r.int(5) }, () => ({ path: key(), ...(chance(200) ? {} : { lastAccessedAt: date() }) })), date(), count(2000)],
    weightsFor: () => [pick(TYPES)], halfLifeFor: () => [pick(TYPES)],
    profileWeightSum: () => [signals()], computeSignals: () => [input()],
    compositeScore: () => [signals(), signals()], bandFor: () => [pos()],
    scoreRetention: () => [input()],
    scoreRetentionMany: () => {
      const n = r.int(5), rows = Array.from({ length: n }, input);
      const col = (k) => (chance(500) ? Float64Array.from(rows, (x) => x[k]) : rows.map((x) => x[k]));
      return [{ memoryType: rows.map((x) => x.memoryType), ageDays: col("ageDays"), accessCount: col("accessCount"),
        confidence: col("confidence"), graphRank: col("graphRank"), maxGraphRank: col("maxGraphRank"),
        bridgeCount: col("bridgeCount"), reinforcementCount: col("reinforcementCount"), wordCount: col("wordCount"),
        contradictionCount: col("contradictionCount") }, { signals: chance(500) }];
    },
    reprieveScore: () => [{ importance: count(10), accessCount: count(50), outcomeScore: num(), hoursSinceAccess: pos(1000) }],
    shouldReprieve: () => [{ score: pos(), reprieveCount: count(4) }],
    rrfScore: () => [count(20), num(2), ...(chance(500) ? [count(100)] : [])],
    fuseArms: () => {
      const ks = keys(1 + r.int(5));
      const arms = Array.from({ length: r.int(4) }, () => Array.from({ length: r.int(5) }, () => ({ path: pick(ks), rank: count(6) })));
      return [arms, arms.map(() => pos(2)), ...(chance(300) ? [count(80)] : [])];
    },
    rankFused: () => [fused()],
    fuseLateral: () => { const f = fused(); return [f, [...f.keys(), key()].filter(() => chance(700)), pos(), ...(chance(300) ? [count(80)] : [])]; },
  };
  const names = Object.keys(G).sort();
  return {
    names,
    /** The next call: a random export and fresh arguments for it. */
    next() { const fn = names[r.int(names.length)]; return { fn, args: G[fn]() }; },
    /** Fresh arguments for a given export. */
    argsFor: (fn) => G[fn](),
  };
}

/**
 * Call `fn` on `api` with `args` and return an encodable value: handles (a
 * Graph, resident rows) are run through every method, then freed.
 */
export function callExport(api, fn, args) {
  if (fn === "Graph" || fn === "buildGraph") {
    const g = fn === "Graph" ? new api.Graph(...args) : api.buildGraph(...args);
    try {
      const lp = g.labelPropagation({ minCommunitySize: 2 });
      return { nodes: g.nodes, nodeCount: g.nodeCount, edgeCount: g.edgeCount, pagerank: g.pagerank(),
        scores: g.pagerankScores({ damping: 0.5, maxIterations: 20 }), lp, bridges: g.bridgeCounts(lp) };
    } finally {
      g.free();
    }
  }
  if (fn === "lexicalIndex") {
    const [docs, terms, k, gistWeight] = args, half = docs.length >> 1;
    const len = (d) => d.extra + d.terms.reduce((s, _, j) => s + d.gist[j] + d.body[j], 0);
    const ix = api.lexicalIndex(docs.slice(0, half).map((d, i) => ({ doc: i, key: d.key, len: len(d), terms: d.terms, gist: d.gist, body: d.body })));
    try {
      docs.forEach((d, i) => { if (i >= half) ix.put(i, d.key, len(d), d.terms, d.gist, d.body); });
      const deleted = docs.length ? ix.delete(docs.length - 1) : false;
      const top = ix.top(terms, k, { gistWeight });
      return { count: ix.count, deleted, docs: [...top.docs], scores: [...top.scores], scored: top.scored };
    } finally {
      ix.free();
    }
  }
  if (fn === "residentRows") {
    const rows = api.residentRows(...args);
    try {
      const q = args[0].slice(0, args[1]);
      return { cos: rows.cosineRows(q), top: rows.topCosineRows(q, 2) };
    } finally {
      rows.free();
    }
  }
  return api[fn](...args);
}

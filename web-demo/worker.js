// The demo's compute worker: owns the wasm instance and the corpus, answers one
// request at a time. Every number it returns comes from the memdomain package
// (fusion, similarities, MMR, PageRank, communities, retention, merge stages);
// JavaScript here only gathers inputs, counts and sorts for display.
import * as md from "./build/demo/memdomain.js";
import { forceLink, forceManyBody, forceSimulation, forceX, forceY } from "./build/demo/d3-force.js";
import { lexicalIndex, lexicalScores, project2d, queryVector } from "./lib/arms.js";
import { NEEDS } from "./lib/needs.js";

const ARMS = ["lexical", "vector", "salience", "lateral"];

const has = (name) => md[name] !== undefined;
const available = Object.fromEntries(Object.entries(NEEDS).map(([k, names]) => [k, names.every(has)]));
const missing = Object.fromEntries(Object.entries(NEEDS).map(([k, names]) => [k, names.filter((n) => !has(n))]));

let S = null; // corpus state

function progress(id, text, fraction) {
  postMessage({ type: "progress", id, text, fraction });
}

async function init(id, base) {
  progress(id, "loading the wasm module", 0.05);
  await md.init(new URL("build/memdomain.wasm", base));
  progress(id, "loading the corpus", 0.2);
  const [corpus, buf] = await Promise.all([
    fetch(new URL("build/demo/corpus.json", base)).then((r) => r.json()),
    fetch(new URL("build/demo/vectors.f32", base)).then((r) => r.arrayBuffer()),
  ]);
  const dim = corpus.dim;
  const all = new Float32Array(buf);
  const n = corpus.memories.length;
  const T = corpus.topics.length;
  const vec = (i) => all.subarray(i * dim, (i + 1) * dim);
  const centroid = (t) => all.subarray((n + t) * dim, (n + t + 1) * dim);
  const subdir = (t, s) => all.subarray((n + T + t * 4 + s) * dim, (n + T + t * 4 + s + 1) * dim);
  progress(id, "indexing terms", 0.4);
  S = {
    corpus, dim, vec, centroid, subdir,
    memories: corpus.memories,
    paths: corpus.memories.map((m) => m.path),
    index: new Map(corpus.memories.map((m, i) => [m.path, i])),
    lex: lexicalIndex(corpus.memories),
    edges: corpus.edges.map((e) => ({ src: e.src, dst: e.dst, strength: e.strength })),
    queries: new Map(),
    graph: null,
    neighbors: new Map(),
  };
  if (available.graph) {
    progress(id, "PageRank and communities", 0.6);
    globalGraph();
  }
  progress(id, "ready", 1);
  return {
    available, missing,
    exports: Object.keys(md).sort(),
    corpus: {
      memories: n, edges: corpus.edges.length, dim, counts: corpus.counts, howMade: corpus.howMade, seed: corpus.seed,
      topics: corpus.topics.map((t) => t.label), queries: corpus.queries,
      types: [...new Set(corpus.memories.map((m) => m.type))].sort(),
      defaults: available.retention ? retentionDefaults() : null,
      mergeDefaults: available.merge ? { threshold: md.NEAR_DUPLICATE_THRESHOLD, maxPairs: md.MAX_MERGE_PAIRS } : null,
      RRF_K: md.RRF_K, MMR_LAMBDA: md.MMR_LAMBDA,
    },
  };
}

// ------------------------------------------------------------------ query arms

/** Rank a path -> score map best first (ties by path ascending) with the package's rankFused. */
function ranked(scores) {
  return md.rankFused(scores);
}

function queryArms(query) {
  const key = query.trim().toLowerCase();
  const hit = S.queries.get(key);
  if (hit) return hit;
  const lexS = lexicalScores(S.lex, query);
  const lexMap = new Map();
  lexS.forEach((s, i) => { if (s > 0) lexMap.set(S.paths[i], s); });
  const lexical = ranked(lexMap).map((r, i) => ({ path: r.path, rank: i + 1, value: r.score }));

  const qv = queryVector(query, S.corpus.topics, S.centroid, S.subdir, S.dim);
  let vector = [];
  if (qv) {
    const sims = new Map();
    for (let i = 0; i < S.paths.length; i++) sims.set(S.paths[i], md.cosine(qv, S.vec(i)));
    vector = ranked(sims).slice(0, 200).map((r, i) => ({ path: r.path, rank: i + 1, value: r.score }));
  }

  // Salience: the query's candidate pool (lexical and vector top 50) ordered by access count.
  const pool = new Map();
  for (const h of [...lexical.slice(0, 50), ...vector.slice(0, 50)]) {
    if (!pool.has(h.path)) pool.set(h.path, S.memories[S.index.get(h.path)].accessCount);
  }
  const salience = ranked(pool).map((r, i) => ({ path: r.path, rank: i + 1, value: r.score }));

  // Lateral: personalized PageRank seeded by the top 5 of lexical + vector (equal weights, RRF_K).
  let lateral = [], seeds = [];
  if (available.lateral) {
    const base = md.rankFused(md.fuseArms([lexical.slice(0, 50), vector.slice(0, 50)], [1, 1]));
    seeds = base.slice(0, 5);
    if (seeds.length) {
      const pr = md.pagerank(S.paths, S.edges, { seeds: new Map(seeds.map((s) => [s.path, s.score])) });
      const seedSet = new Set(seeds.map((s) => s.path));
      lateral = ranked(pr).filter((r) => !seedSet.has(r.path)).slice(0, 200).map((r, i) => ({ path: r.path, rank: i + 1, value: r.score }));
    }
  }
  const out = { lexical, vector, salience, lateral, seeds, queryVector: qv };
  S.queries.set(key, out);
  if (S.queries.size > 64) S.queries.delete(S.queries.keys().next().value);
  return out;
}

/** The fused ranking for a query and the arm settings. Returns the exact inputs too. */
function fuse(query, arms) {
  const q = queryArms(query);
  const lists = {};
  for (const a of ARMS) lists[a] = q[a].slice(0, Math.max(0, arms[a].depth)).map((h) => ({ path: h.path, rank: h.rank }));
  const [L, V, Sa] = [arms.lexical, arms.vector, arms.salience];
  let fused, calls;
  if (L.k === V.k && V.k === Sa.k) {
    fused = md.fuseArms([lists.lexical, lists.vector, lists.salience], [L.weight, V.weight, Sa.weight], L.k);
    calls = ["fuseArms"];
  } else {
    // Per-arm k: fold each further arm in with fuseLateral, which adds weight / (rank + k) exactly as fuseArms does.
    fused = md.fuseArms([lists.lexical], [L.weight], L.k);
    fused = md.fuseLateral(fused, lists.vector.map((h) => h.path), V.weight, V.k);
    fused = md.fuseLateral(fused, lists.salience.map((h) => h.path), Sa.weight, Sa.k);
    calls = ["fuseArms", "fuseLateral", "fuseLateral"];
  }
  fused = md.fuseLateral(fused, lists.lateral.map((h) => h.path), arms.lateral.weight, arms.lateral.k);
  calls.push("fuseLateral", "rankFused");
  return { q, lists, ranking: md.rankFused(fused), calls };
}

function contributions(path, lists, arms) {
  const out = {};
  for (const a of ARMS) {
    const h = lists[a].find((x) => x.path === path);
    if (!h) { out[a] = null; continue; }
    const opt = md.rrfContribution(h.rank, arms[a].weight); // None: a zero-weight arm is absent from the fold
    out[a] = opt._tag === "Some" ? { rank: h.rank, value: md.rrfScore(h.rank, arms[a].weight, arms[a].k) } : { rank: h.rank, value: null };
  }
  return out;
}

const memInfo = (path) => {
  const m = S.memories[S.index.get(path)];
  return { path, gist: m.gist, type: m.type, topic: m.topic };
};

function fusionView({ query, arms, top = 20 }) {
  const { q, lists, ranking, calls } = fuse(query, arms);
  const rows = ranking.slice(0, top).map((r, i) => ({ rank: i + 1, score: r.score, ...memInfo(r.path), parts: contributions(r.path, lists, arms) }));
  return {
    rows, total: ranking.length, calls, inputs: lists, seeds: q.seeds,
    armSizes: Object.fromEntries(ARMS.map((a) => [a, q[a].length])),
    armTop: Object.fromEntries(ARMS.map((a) => [a, q[a].slice(0, 5).map((h) => ({ ...h, gist: memInfo(h.path).gist }))])),
    hasQueryVector: q.queryVector !== null,
  };
}

// ------------------------------------------------------------------ MMR

function mmrView({ query, arms, pool, limit, lambda }) {
  const { ranking, lists } = fuse(query, arms);
  const cands = ranking.slice(0, pool).map((r) => ({ path: r.path, score: r.score, vector: Array.from(S.vec(S.index.get(r.path))) }));
  const picked = md.applyMmr(cands, limit, lambda);
  const order = new Map(picked.map((c, i) => [c.path, i]));
  const picks = picked.map((c, i) => {
    let penalty = 0, nearest = null; // max cosine (wasm) to the picks before it
    for (let j = 0; j < i; j++) {
      const s = md.cosine(c.vector, picked[j].vector);
      if (j === 0 || s > penalty) { penalty = s; nearest = picked[j].path; }
    }
    return { order: i + 1, relevance: c.score, penalty, nearest, fusedRank: cands.findIndex((x) => x.path === c.path) + 1, ...memInfo(c.path) };
  });
  // the projection depends on the pool only, not on lambda or the limit: cache it
  const poolKey = cands.map((c) => c.path).join("\n");
  if (S.projection?.key !== poolKey) S.projection = { key: poolKey, xy: project2d(cands.map((c) => c.vector)) };
  const xy = S.projection.xy;
  const points = cands.map((c, i) => ({ path: c.path, x: xy[i][0], y: xy[i][1], fusedRank: i + 1, pick: order.has(c.path) ? order.get(c.path) + 1 : 0, topic: S.memories[S.index.get(c.path)].topic }));
  return { picks, points, pool: cands.length, inputs: lists, candidates: cands.map((c) => ({ path: c.path, score: c.score })) };
}

// ------------------------------------------------------------------ graph

function globalGraph() {
  if (S.graph) return S.graph;
  const t0 = performance.now();
  const pr = md.pagerank(S.paths, S.edges);
  const comm = md.labelPropagation(S.paths, S.edges);
  const bridges = md.bridgeCounts(S.paths, S.edges, comm);
  S.graph = { pr, comm, bridges, ms: performance.now() - t0 };
  return S.graph;
}

function graphView({ mode, query, fresh = false }) {
  const t0 = performance.now();
  if (fresh) S.graph = null; // recompute PageRank, communities and bridges from scratch
  const g = globalGraph();
  let ranks = g.pr, seeds = [];
  if (mode === "ppr") {
    const q = queryArms(query);
    seeds = q.seeds;
    if (seeds.length) ranks = md.pagerank(S.paths, S.edges, { seeds: new Map(seeds.map((s) => [s.path, s.score])) });
  }
  const labels = [...new Set([...g.comm.values()].filter((x) => x !== undefined))].sort();
  const sizes = new Map(labels.map((l) => [l, 0]));
  for (const l of g.comm.values()) if (l !== undefined) sizes.set(l, sizes.get(l) + 1);
  const byIndex = new Map(labels.map((l, i) => [l, i]));
  const community = new Int32Array(S.paths.length), rank = new Float64Array(S.paths.length), bridge = new Int32Array(S.paths.length);
  S.paths.forEach((p, i) => {
    const l = g.comm.get(p);
    community[i] = l === undefined ? -1 : byIndex.get(l);
    rank[i] = ranks.get(p) ?? 0;
    bridge[i] = g.bridges.get(p) ?? 0;
  });
  const top = md.rankFused(ranks).slice(0, 12).map((r) => ({ ...memInfo(r.path), score: r.score, community: g.comm.get(r.path) ?? null, bridges: g.bridges.get(r.path) ?? 0 }));
  const communities = labels.map((l) => ({ label: l, size: sizes.get(l), topic: S.memories[S.index.get(l)].topic })).sort((a, b) => b.size - a.size || (a.label < b.label ? -1 : 1));
  let bridgeNodes = 0, bridgeEdges = 0;
  for (const c of bridge) if (c > 0) bridgeNodes++;
  for (const e of S.edges) {
    const a = g.comm.get(e.src), b = g.comm.get(e.dst);
    if (a !== undefined && b !== undefined && a !== b) bridgeEdges++;
  }
  let sum = 0;
  for (const v of ranks.values()) sum += v;
  return {
    mode, seeds, seedIndex: seeds.map((x) => S.index.get(x.path)), community, rank, bridge, top, communities, bridgeNodes, bridgeEdges,
    unassigned: [...g.comm.values()].filter((x) => x === undefined).length, rankSum: sum,
    ms: performance.now() - t0,
  };
}

let layoutCache = null;
function layout(id) {
  if (layoutCache) return Promise.resolve(layoutCache);
  const n = S.paths.length;
  const topicIdx = new Map(S.corpus.topics.map((t, i) => [t.id, i]));
  const T = S.corpus.topics.length;
  const nodes = S.memories.map((m, i) => {
    const a = (2 * Math.PI * topicIdx.get(m.topic)) / T;
    return { id: m.path, x: 300 * Math.cos(a) + ((i * 37) % 60) - 30, y: 300 * Math.sin(a) + ((i * 91) % 60) - 30 };
  });
  const links = S.edges.map((e) => ({ source: e.src, target: e.dst, strength: e.strength }));
  const sim = forceSimulation(nodes)
    .force("link", forceLink(links).id((d) => d.id).distance(18).strength((l) => 0.05 + 0.25 * l.strength))
    .force("charge", forceManyBody().strength(-14).theta(0.95).distanceMax(250))
    .force("x", forceX(0).strength(0.04))
    .force("y", forceY(0).strength(0.04))
    .stop();
  const TICKS = 240, CHUNK = 12;
  return new Promise((resolve) => {
    let done = 0;
    const step = () => {
      sim.tick(CHUNK);
      done += CHUNK;
      progress(id, `force layout (d3-force): tick ${done} of ${TICKS}`, done / TICKS);
      if (done < TICKS) { setTimeout(step, 0); return; }
      const xy = new Float32Array(2 * n);
      nodes.forEach((d, i) => { xy[2 * i] = d.x; xy[2 * i + 1] = d.y; });
      const src = new Int32Array(S.edges.length), dst = new Int32Array(S.edges.length);
      S.edges.forEach((e, i) => { src[i] = S.index.get(e.src); dst[i] = S.index.get(e.dst); });
      layoutCache = { xy, src, dst, n };
      resolve(layoutCache);
    };
    setTimeout(step, 0);
  });
}

// ------------------------------------------------------------------ retention

function retentionDefaults() {
  const profiles = {};
  for (const t of [...Object.keys(md.WEIGHT_PROFILES), "default"]) {
    const p = t === "default" ? md.DEFAULT_WEIGHTS : md.WEIGHT_PROFILES[t];
    profiles[t] = Object.fromEntries(md.SIGNAL_NAMES.map((s) => [s, p[s]]));
  }
  const halfLives = {};
  for (const t of ["episodic", "semantic", "procedural", "arc", "error_pattern", "task"]) halfLives[t] = md.halfLifeFor ? md.halfLifeFor(t) : md.HALF_LIVES_DAYS[t] ?? md.DEFAULT_HALF_LIFE_DAYS;
  return { profiles, halfLives, keep: md.KEEP_THRESHOLD, evict: md.EVICT_THRESHOLD, signals: [...md.SIGNAL_NAMES], defaultHalfLife: md.DEFAULT_HALF_LIFE_DAYS };
}

function retentionInputs() {
  if (S.retentionInputs) return S.retentionInputs;
  const g = available.graph ? globalGraph() : null;
  let maxRank = 0;
  if (g) for (const v of g.pr.values()) if (v > maxRank) maxRank = v;
  S.retentionInputs = S.memories.map((m) => ({
    memoryType: m.type, ageDays: m.ageDays, accessCount: m.accessCount, confidence: m.confidence,
    graphRank: g ? g.pr.get(m.path) : 0, maxGraphRank: g ? maxRank : 0, bridgeCount: g ? g.bridges.get(m.path) : 0,
    reinforcementCount: m.reinforcementCount, wordCount: m.wordCount, contradictionCount: m.contradictionCount,
  }));
  return S.retentionInputs;
}

function retentionView({ profiles, halfLives, keep, evict, bins = 20 }) {
  const D = retentionDefaults();
  const inputs = retentionInputs();
  const sameProfile = (a, b) => D.signals.every((s) => a[s] === b[s]);
  const defaultBands = keep === D.keep && evict === D.evict;
  const hist = Array.from({ length: bins }, () => ({ keep: 0, compress: 0, evict: 0 }));
  const counts = { keep: 0, compress: 0, evict: 0 };
  const byType = {};
  const scores = new Float64Array(inputs.length);
  let exact = 0;
  inputs.forEach((inp, i) => {
    const type = inp.memoryType;
    const profileKey = Object.hasOwn(D.profiles, type) ? type : "default";
    const profile = profiles[profileKey];
    const hl = Object.hasOwn(halfLives, type) ? halfLives[type] : D.defaultHalfLife;
    let input = inp;
    if (hl !== D.halfLives[type]) {
      // computeSignals reads the half-life from the type; an edited one is applied by
      // scoring the age against the default half-life: recency = exp(-LN2 * age' / 30), age' = age * 30 / h.
      input = { ...inp, memoryType: "demo:edited-half-life", ageDays: hl === null ? 0 : (inp.ageDays * D.defaultHalfLife) / hl };
    }
    let score, action;
    if (input === inp && sameProfile(profile, D.profiles[profileKey]) && defaultBands) {
      const r = md.scoreRetention(inp);
      score = r.score;
      action = r.action;
      exact++;
    } else {
      score = md.compositeScore(md.computeSignals(input), profile);
      action = defaultBands ? md.bandFor(score) : score > keep ? "keep" : score > evict ? "compress" : "evict";
    }
    scores[i] = score;
    counts[action]++;
    const b = Math.min(bins - 1, Math.max(0, Math.floor(score * bins)));
    hist[b][action]++;
    (byType[type] ??= { keep: 0, compress: 0, evict: 0 })[action]++;
  });
  const sums = Object.fromEntries(Object.entries(profiles).map(([k, p]) => [k, md.profileWeightSum(p)]));
  const order = Array.from(scores.keys()).sort((a, b) => scores[a] - scores[b] || (S.paths[a] < S.paths[b] ? -1 : 1));
  const row = (i) => ({ ...memInfo(S.paths[i]), score: scores[i], ageDays: inputs[i].ageDays });
  return {
    hist, counts, byType, sums, exact, n: inputs.length,
    lowest: order.slice(0, 6).map(row), highest: order.slice(-6).reverse().map(row),
    graphSignals: available.graph,
  };
}

// ------------------------------------------------------------------ merge

function neighborPairs(floor) {
  const key = String(floor);
  if (S.neighbors.has(key)) return S.neighbors.get(key);
  const vectors = S.paths.map((p, i) => ({ key: p, vec: S.vec(i) }));
  const pairs = md.topNeighborPairs(vectors, { floor, perSourceK: 4, limit: 4000 });
  S.neighbors.set(key, pairs);
  return pairs;
}

function mergeView({ floor, threshold, maxPairs }, id) {
  progress(id, "topNeighborPairs over every memory pair", 0.2);
  const raw = neighborPairs(floor);
  const seen = new Set();
  const pairs = [];
  for (const p of raw) {
    const k = p.src < p.dst ? `${p.src}\n${p.dst}` : `${p.dst}\n${p.src}`;
    if (seen.has(k)) continue; // the mirror (b, a) of a pair already taken
    seen.add(k);
    const a = S.memories[S.index.get(p.src)], b = S.memories[S.index.get(p.dst)];
    const [keep, drop] = a.ageDays > b.ageDays || (a.ageDays === b.ageDays && a.path < b.path) ? [a, b] : [b, a]; // keep the older
    pairs.push({ keepPath: keep.path, dropPath: drop.path, similarity: p.sim,
      keepText: { gist: keep.gist, body: keep.body }, dropText: { gist: drop.gist, body: drop.body } });
  }
  progress(id, "mergeOutcomes and veto reasons", 0.7);
  const outcomes = md.mergeOutcomes(pairs, { threshold, maxPairs });
  const stages = {};
  const rows = outcomes.map((o, i) => {
    stages[o.stage] = (stages[o.stage] ?? 0) + 1;
    const p = o.pair;
    const reasons = md.mergeVetoReasons(p.keepText, p.dropText);
    let frame = null;
    if (available.frame) {
      const ka = md.frameKeyOf(p.keepText.gist), kb = md.frameKeyOf(p.dropText.gist);
      frame = { keep: ka, drop: kb, conflict: ka !== null && ka === kb && p.keepText.gist !== p.dropText.gist };
    }
    return { i: i + 1, keepPath: p.keepPath, dropPath: p.dropPath, similarity: p.similarity, stage: o.stage, reasons,
      keepGist: p.keepText.gist, dropGist: p.dropText.gist, keepBody: p.keepText.body, dropBody: p.dropText.body, frame };
  });
  return { rows, stages, candidates: raw.length, pairs: pairs.length };
}

// ------------------------------------------------------------------ dispatch

const OPS = { fusion: fusionView, mmr: mmrView, graph: graphView, retention: retentionView, merge: mergeView };

onmessage = async (ev) => {
  const { id, op, params } = ev.data;
  const t0 = performance.now();
  try {
    let result;
    if (op === "init") result = await init(id, params.base);
    else if (op === "layout") result = await layout(id);
    else if (OPS[op]) {
      const need = { fusion: "fusion", mmr: "mmr", graph: "graph", retention: "retention", merge: "merge" }[op];
      if (!available[need]) throw new Error(`module not available in this build: ${missing[need].join(", ")}`);
      result = OPS[op](params, id);
    } else throw new Error(`unknown op ${op}`);
    postMessage({ type: "result", id, op, result, ms: performance.now() - t0 });
  } catch (e) {
    postMessage({ type: "error", id, op, message: String(e?.stack ?? e) });
  }
};

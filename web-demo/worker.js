// The workbench's compute worker: owns the wasm instance, the dataset and the backend
// (backend.js: where the memories live, how the arms are read), and answers one
// request at a time. Every number it returns comes from the memdomain package: the
// search (memdomain/cache's explain(): arms, fusion, MMR, hits) and its tuning (tune()),
// similarities, PageRank, communities, bridges, retention scores and bands, merge stages
// and veto reasons. JavaScript here gathers inputs, counts, sorts for display and
// computes the ranking metrics against the labels.
import * as md from "./build/demo/memdomain.js";
import { forceLink, forceManyBody, forceSimulation, forceX, forceY } from "./build/demo/d3-force.js";
import { openBackend } from "./backend.js";
import { queryVector } from "./lib/arms.js";
import { ageDays, parseDataset, toJsonl, wordCount } from "./lib/data.js";
import { evaluate } from "./lib/metrics.js";
import { decidingTokens } from "./lib/veto.js";

const ARMS = ["lexical", "vector", "salience", "lateral"];
const SIDE = "workbench-queries.json";
let base = null; // the page's base URL
let B = null; // backend
let D = null; // the dataset and everything derived from it once
let version = 0; // bumps with every dataset change (cache keys)
const cache = new Map(); // small LRU of computed results

function progress(id, text, fraction, detail = null) {
  postMessage({ type: "progress", id, text, fraction, detail });
}

function remember(key, make) {
  if (cache.has(key)) {
    const v = cache.get(key);
    cache.delete(key);
    cache.set(key, v);
    return v;
  }
  const v = make();
  cache.set(key, v);
  if (cache.size > 48) cache.delete(cache.keys().next().value);
  return v;
}

// ------------------------------------------------------------------ dataset

/**
 * Everything derived from the memories once per dataset: the packed matrix (merge candidates),
 * one Graph handle (PageRank, communities, bridges, personalized walks), retention inputs.
 * The vector arm's resident rows live in memdomain/cache (backend.js), in this same worker.
 */
function derive(ds, id) {
  D?.graph.free();
  cache.clear();
  version++;
  progress(id, "the memory graph", 0.7);
  const memories = ds.memories;
  const byPath = new Map(memories.map((m, i) => [m.path, i]));
  const sorted = memories.map((m) => m.path).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const withVec = sorted.filter((p) => memories[byPath.get(p)].embedding);
  const dim = withVec.length ? memories[byPath.get(withVec[0])].embedding.length : null;
  const matrix = new Float32Array(withVec.length * (dim ?? 1));
  withVec.forEach((p, i) => matrix.set(memories[byPath.get(p)].embedding, i * dim));
  const graphEdges = ds.edges.map((e) => ({ src: e.src, dst: e.dst, strength: e.strength }));
  const graph = new md.Graph(memories.map((m) => m.path), graphEdges);
  const nodeIndex = new Map(graph.nodes.map((p, i) => [p, i]));
  const now = ds.meta.now;
  D = {
    ...ds, byPath, dim, rowPaths: withVec, matrix, graph, nodeIndex, graphEdges,
    ages: Float64Array.from(memories, (m) => ageDays(m, now)), words: Float64Array.from(memories, (m) => wordCount(m.body)),
    queryById: new Map(ds.queries.map((q) => [q.id, q])), layout: null, pairs: new Map(), encoder: null,
  };
}

async function loadExample(id) {
  progress(id, "fetching the synthetic example", 0.1);
  const files = await Promise.all(["example-memories.jsonl", "example-queries.jsonl"].map(async (name) =>
    ({ name, text: await (await fetch(new URL(`build/demo/${name}`, base))).text() })));
  return importFiles(id, files, "example");
}

async function importFiles(id, files, source = "import") {
  progress(id, "parsing", 0.2);
  const texts = files.filter((f) => typeof f.text === "string"), dbs = files.filter((f) => f.bytes);
  if (dbs.length > 1) return { ok: false, errors: ["one SQLite file at a time"], warnings: [] };
  if (dbs.length && !B.sqlite) return { ok: false, errors: ["a SQLite file needs memdomain/cache behind the page"], warnings: [] };
  let ds;
  if (dbs.length) {
    // the memories and edges come from the database (memdomain/cache's schema); queries, labels
    // and meta from the JSON Lines files beside it
    progress(id, `opening ${dbs[0].name}`, 0.3);
    const stored = await B.importBytes(dbs[0].bytes);
    if (!stored) return { ok: false, errors: [`${dbs[0].name} holds no memories`], warnings: [] };
    const lines = toJsonl({ meta: { name: dbs[0].name }, memories: stored.memories, edges: stored.edges, queries: [] }).memories;
    ds = parseDataset([{ name: dbs[0].name, text: lines }, ...texts.map((f) => ({ name: f.name, text: f.text.split("\n").filter((l) => !/^\s*\{\s*"(path|src|dst)"/.test(l)).join("\n") }))]);
  } else {
    ds = parseDataset(texts);
    if (!ds.memories.length) return { ok: false, errors: ds.errors.length ? ds.errors : ["no memory lines found"], warnings: ds.warnings };
    await B.replace(ds.memories, ds.edges, (text, f) => progress(id, text, 0.3 + 0.3 * f));
  }
  ds.meta.source = source;
  await B.writeSide(SIDE, JSON.stringify({ meta: ds.meta, queries: ds.queries.map((q) => ({ ...q, vector: q.vector && Array.from(q.vector) })) }));
  derive(ds, id);
  return { ok: true, errors: ds.errors, warnings: ds.warnings, summary: summary() };
}

async function restore(id) {
  progress(id, "opening the stored memories", 0.3);
  const stored = await B.load();
  const side = await B.readSide(SIDE);
  if (!stored || !side) return false;
  const { meta, queries } = JSON.parse(side);
  derive({ meta, memories: stored.memories, edges: stored.edges,
    queries: queries.map((q) => ({ ...q, vector: q.vector && Float32Array.from(q.vector) })) }, id);
  return true;
}

function summary() {
  const types = {};
  for (const m of D.memories) types[m.type] = (types[m.type] ?? 0) + 1;
  return {
    name: D.meta.name ?? "unnamed", source: D.meta.source ?? "import", note: D.meta.note ?? null, now: D.meta.now,
    memories: D.memories.length, withEmbedding: D.rowPaths.length, dim: D.dim, edges: D.edges.length, types,
    queries: D.queries.map((q) => ({ id: q.id, text: q.text, hasVector: !!q.vector, relevant: q.relevant ? Object.keys(q.relevant).length : 0 })),
    labelled: D.queries.filter((q) => q.relevant && Object.keys(q.relevant).length).length,
    backend: B.kind, sqlite: B.sqlite, encoder: D.meta.queryEncoder === "synthetic-topics",
  };
}

function designTables() {
  const profiles = {};
  for (const t of Object.keys(md.WEIGHT_PROFILES)) profiles[t] = { ...md.WEIGHT_PROFILES[t] };
  const halfLives = {};
  for (const t of Object.keys(md.HALF_LIVES_DAYS)) halfLives[t] = md.HALF_LIVES_DAYS[t];
  return {
    signals: [...md.SIGNAL_NAMES], profiles, defaultWeights: { ...md.DEFAULT_WEIGHTS }, halfLives,
    defaultHalfLife: md.DEFAULT_HALF_LIFE_DAYS, keep: md.KEEP_THRESHOLD, evict: md.EVICT_THRESHOLD,
    RRF_K: md.RRF_K, MMR_LAMBDA: md.MMR_LAMBDA, damping: md.PAGERANK_DAMPING, maxIterations: md.PAGERANK_MAX_ITERATIONS,
    minCommunitySize: md.MIN_COMMUNITY_SIZE, threshold: md.NEAR_DUPLICATE_THRESHOLD, maxPairs: md.MAX_MERGE_PAIRS,
  };
}

// ------------------------------------------------------------------ queries and search

/** The synthetic example's query encoder (topic keywords -> the corpus's synthetic directions). */
async function encoder() {
  if (D.encoder) return D.encoder;
  const [corpus, buf] = await Promise.all([
    fetch(new URL("build/demo/corpus.json", base)).then((r) => r.json()),
    fetch(new URL("build/demo/vectors.f32", base)).then((r) => r.arrayBuffer()),
  ]);
  const all = new Float32Array(buf), dim = corpus.dim, n = corpus.memories.length, T = corpus.topics.length;
  const centroid = (t) => all.subarray((n + t) * dim, (n + t + 1) * dim);
  const subdir = (t, s) => all.subarray((n + T + t * 4 + s) * dim, (n + T + t * 4 + s + 1) * dim);
  D.encoder = (text) => queryVector(text, corpus.topics, centroid, subdir, dim);
  return D.encoder;
}

/** A query of the dataset (by id) or free text: { id, text, vector, relevant, vectorNote }. */
async function queryOf(q) {
  if (q?.id && D.queryById.has(q.id)) return { ...D.queryById.get(q.id), vectorNote: D.queryById.get(q.id).vector ? "the query's own vector" : "this query has no vector: the vector arm is empty" };
  const text = q?.text ?? "";
  if (D.meta.queryEncoder === "synthetic-topics" && D.dim) {
    const v = (await encoder())(text);
    return { id: null, text, vector: v, relevant: null, vectorNote: v ? "built from the topic words it names (synthetic space)" : "names no topic: the vector arm is empty" };
  }
  return { id: null, text, vector: null, relevant: null, vectorNote: "typed text has no vector here (import queries with vectors): the vector arm is empty" };
}

/** A labelled query's relevant paths (what explain() is asked about), or none. */
const relevantPaths = (q) => (q.relevant ? Object.keys(q.relevant) : []);

/**
 * memdomain/cache's own answer for a query under search settings `s`: explain() gives the
 * hits and the whole pipeline (each arm's ranked hits, the seeds, the fused candidates, the
 * window MMR saw and MMR's order, the duplicates skipped) and why each relevant path was or
 * was not returned. The page draws that and computes nothing of the ranking itself; only
 * MMR's penalty per pick (the greatest cosine to what MMR placed before it) is recomputed
 * from the vectors, for display.
 */
async function search(q, s) {
  const paths = relevantPaths(q);
  const key = `search|${version}|${q.id ?? `text:${q.text}`}|${JSON.stringify(s)}`;
  if (cache.has(key)) return cache.get(key);
  const x = await B.explain({ text: q.text, vector: q.vector, ...s }, paths);
  const t = x.trace, lambda = t.settings.lambda;
  const inWindow = new Map(t.window.map((w, i) => [w.path, { fusedRank: i + 1, relevance: w.relevance }]));
  const place = new Map(t.order.map((p, i) => [p, i + 1]));
  const vec = (p) => D.memories[D.byPath.get(p)]?.embedding ?? null;
  const rows = x.hits.map((h, i) => {
    const w = inWindow.get(h.path) ?? { fusedRank: null, relevance: null };
    const at = place.get(h.path) ?? null, v = vec(h.path);
    let penalty = 0, nearest = null;
    if (v && at) for (let j = 0; j < at - 1; j++) {
      const u = vec(t.order[j]);
      if (!u) continue;
      const sim = md.cosine(v, u);
      if (nearest === null || sim > penalty) { penalty = sim; nearest = t.order[j]; }
    }
    return { path: h.path, order: i + 1, fused: h.score, fusedRank: w.fusedRank, relevance: w.relevance, mmrPlace: at, penalty, nearest,
      mmr: w.relevance === null ? null : lambda * w.relevance - (1 - lambda) * penalty, arms: h.arms };
  });
  const out = { rows, trace: t, explained: x.paths };
  cache.set(key, out);
  if (cache.size > 48) cache.delete(cache.keys().next().value);
  return out;
}

const memInfo = (path) => {
  const m = D.memories[D.byPath.get(path)];
  return m ? { path, gist: m.gist, type: m.type } : { path, gist: "(not in the dataset)", type: "" };
};

/** What the Search and MMR views draw of one search: the hits, the arms' tops, the window and MMR's order, the relevant paths lost. */
function shapeSearch(x, q, windowRows = 60) {
  if (!x) return null;
  const t = x.trace;
  const picked = new Map(x.rows.map((r) => [r.path, r.order]));
  const place = new Map(t.order.map((p, i) => [p, i + 1]));
  return {
    rows: x.rows.map((y) => ({ ...y, ...memInfo(y.path) })),
    settings: t.settings, candidates: t.candidates, seeds: t.seeds.map((s) => ({ ...s, ...memInfo(s.path) })),
    armTop: Object.fromEntries(ARMS.map((a) => [a, t.arms[a].slice(0, 5).map((h) => ({ ...h, ...memInfo(h.path) }))])),
    armSizes: Object.fromEntries(ARMS.map((a) => [a, t.arms[a].length])),
    window: t.window.slice(0, windowRows).map((w, i) => ({ ...w, ...memInfo(w.path), fusedRank: i + 1, mmrPlace: place.get(w.path) ?? null,
      picked: picked.get(w.path) ?? null, duplicateOf: t.duplicates[w.path] ?? null })),
    windowSize: t.window.length, ordered: t.order.length,
    relevance: t.window.reduce((a, w) => ({ lo: Math.min(a.lo, w.relevance), hi: Math.max(a.hi, w.relevance) }), { lo: t.window.length ? Infinity : 0, hi: 0 }),
    duplicates: Object.entries(t.duplicates).map(([path, of]) => ({ ...memInfo(path), of })),
    // the relevant paths it lost, best fused first (those no arm found last)
    lost: x.explained.filter((p) => p.lostAt !== null).map((p) => ({ ...p, ...memInfo(p.path), grade: q.relevant?.[p.path] ?? null }))
      .sort((a, b) => (a.fused?.rank ?? Infinity) - (b.fused?.rank ?? Infinity) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
}

async function searchView({ query, settings, baseline }) {
  const q = await queryOf(query);
  const cur = await search(q, settings.search);
  const bas = baseline ? await search(q, baseline.search) : null;
  const metrics = q.relevant ? {
    current: evaluate([q], { [q.id]: cur.rows.map((r) => r.path) }, settings.search.limit).rows[0] ?? null,
    baseline: bas ? evaluate([q], { [q.id]: bas.rows.map((r) => r.path) }, baseline.search.limit).rows[0] ?? null : null,
    relevant: q.relevant,
  } : null;
  return { query: { id: q.id, text: q.text, hasVector: !!q.vector, vectorNote: q.vectorNote }, current: shapeSearch(cur, q), baseline: shapeSearch(bas, q), metrics };
}

const labelledQueries = () => D.queries.filter((q) => q.relevant && Object.keys(q.relevant).length);

async function metricsView({ settings, baseline }, id) {
  const labelled = labelledQueries();
  const lists = async (s, part) => {
    const out = {};
    for (const [i, q] of labelled.entries()) {
      if (i % 10 === 9) progress(id, `searching the labelled queries: ${i + 1} of ${labelled.length}`, (part + (i + 1) / labelled.length) / 2);
      out[q.id] = (await search(q, s.search)).rows.map((r) => r.path);
    }
    return out;
  };
  const cur = evaluate(labelled, await lists(settings, 0), settings.search.limit);
  const bas = baseline ? evaluate(labelled, await lists(baseline, 1), baseline.search.limit) : null;
  return { labelled: labelled.length, queries: D.queries.length, current: cur, baseline: bas,
    texts: Object.fromEntries(labelled.map((q) => [q.id, q.text])) };
}

/**
 * memdomain/cache's tune() on the dataset's labelled queries: cross-validated coordinate ascent
 * on mean nDCG@limit (seed 1), against `baseline` (search settings of the default composition;
 * the cache's defaults when null). Progress goes to the page as it comes.
 */
async function tuneView({ baseline, limit }, id) {
  const labelled = labelledQueries().map((q) => ({ text: q.text, vector: q.vector ?? null, relevant: q.relevant }));
  const onProgress = (p) => {
    const f = p.phase === "read" ? 0.3 * (p.done / Math.max(1, p.total)) : 0.3 + 0.7 * (p.done / Math.max(1, p.total));
    progress(id, p.phase === "read" ? `tune: reading the arms of ${p.done} of ${p.total} labelled queries` : `tune: fit ${p.done} of ${p.total} (each fold, then all)`, f, p);
  };
  const options = { seed: 1, limit, onProgress };
  if (baseline) {
    const { limit: _, ...b } = baseline;
    options.baseline = b;
  }
  const r = await B.tune(labelled, options);
  return { ...r, labelled: labelled.length, limit, seed: 1 };
}

// ------------------------------------------------------------------ graph

function graphFor(g) {
  return remember(`graph|${version}|${g.damping}|${g.maxIterations}|${g.minCommunitySize}`, () => {
    const t0 = performance.now();
    const pr = D.graph.pagerankScores({ damping: g.damping, maxIterations: g.maxIterations });
    const comm = D.graph.labelPropagation({ minCommunitySize: g.minCommunitySize });
    const bridges = D.graph.bridgeCounts(comm);
    const n = D.memories.length;
    const rank = new Float64Array(n), bridge = new Int32Array(n), label = new Array(n);
    D.graph.nodes.forEach((p, j) => {
      const i = D.byPath.get(p);
      rank[i] = pr[j];
      label[i] = comm.get(p);
      bridge[i] = bridges.get(p) ?? 0;
    });
    const sizes = new Map();
    for (const l of label) if (l !== undefined) sizes.set(l, (sizes.get(l) ?? 0) + 1);
    const communities = [...sizes].map(([l, size]) => ({ label: l, size })).sort((a, b) => b.size - a.size || (a.label < b.label ? -1 : 1));
    const cIndex = new Map(communities.map((c, i) => [c.label, i]));
    const community = Int32Array.from(label, (l) => (l === undefined ? -1 : cIndex.get(l)));
    let maxRank = 0;
    for (const v of rank) maxRank = Math.max(maxRank, v);
    return { rank, bridge, community, communities, maxRank, ms: performance.now() - t0 };
  });
}

function topPagerank(G, k = 12) {
  const order = Array.from(G.rank.keys()).sort((a, b) => G.rank[b] - G.rank[a] || (D.memories[a].path < D.memories[b].path ? -1 : 1));
  return order.slice(0, k).map((i) => ({ ...memInfo(D.memories[i].path), score: G.rank[i], bridges: G.bridge[i], community: G.community[i] }));
}

async function graphView({ settings, baseline, query, mode }) {
  const G = graphFor(settings.graph);
  const Bg = baseline ? graphFor(baseline.graph) : null;
  let seeds = [], personal = null;
  if (mode === "personalized") {
    const q = await queryOf(query);
    seeds = (await search(q, settings.search)).trace.seeds;
    if (seeds.length) {
      const pr = D.graph.pagerankScores({ damping: settings.graph.damping, maxIterations: settings.graph.maxIterations,
        seeds: new Map(seeds.map((s) => [s.path, s.score])) });
      personal = new Float64Array(D.memories.length);
      D.graph.nodes.forEach((p, j) => { personal[D.byPath.get(p)] = pr[j]; });
    }
  }
  const rank = personal ?? G.rank;
  const summaryOf = (g) => g && {
    communities: g.communities.length, inCommunities: g.communities.reduce((a, c) => a + c.size, 0),
    bridgeNodes: g.bridge.reduce((a, b) => a + (b > 0 ? 1 : 0), 0), largest: g.communities[0]?.size ?? 0, ms: g.ms,
  };
  return {
    n: D.memories.length, edges: D.edges.length, rank: Array.from(rank), community: Array.from(G.community), bridge: Array.from(G.bridge),
    communities: G.communities.slice(0, 12).map((c) => ({ ...c, gist: memInfo(c.label).gist })), sizes: G.communities.map((c) => c.size),
    top: topPagerank(personal ? { ...G, rank: personal } : G), baselineTop: Bg ? topPagerank(Bg) : null,
    seeds: seeds.map((s) => ({ index: D.byPath.get(s.path), ...memInfo(s.path), score: s.score })),
    current: summaryOf(G), baseline: summaryOf(Bg), mode,
  };
}

function layout(id) {
  if (D.layout) return Promise.resolve(D.layout);
  const n = D.memories.length;
  const G = graphFor({ damping: md.PAGERANK_DAMPING, maxIterations: md.PAGERANK_MAX_ITERATIONS, minCommunitySize: md.MIN_COMMUNITY_SIZE });
  // start each community around its own point so the layout settles quickly
  const nodes = D.memories.map((m, i) => {
    const c = G.community[i], a = c < 0 ? (i * 2.399) : c * 2.399, r = c < 0 ? 380 : 120 + 25 * Math.sqrt(c);
    return { id: m.path, x: r * Math.cos(a) + ((i * 37) % 40) - 20, y: r * Math.sin(a) + ((i * 91) % 40) - 20 };
  });
  const links = D.graphEdges.map((e) => ({ source: e.src, target: e.dst, strength: e.strength }));
  const sim = forceSimulation(nodes)
    .force("link", forceLink(links).id((d) => d.id).distance(18).strength((l) => 0.05 + 0.25 * l.strength))
    .force("charge", forceManyBody().strength(-14).theta(0.95).distanceMax(250))
    .force("x", forceX(0).strength(0.04)).force("y", forceY(0).strength(0.04)).stop();
  const TICKS = 240, CHUNK = 12;
  const v = version;
  return new Promise((resolve) => {
    let done = 0;
    const step = () => {
      sim.tick(CHUNK);
      done += CHUNK;
      progress(id, `force layout (d3-force): tick ${done} of ${TICKS}`, done / TICKS);
      if (done < TICKS) { setTimeout(step, 0); return; }
      const xy = new Float32Array(2 * n);
      nodes.forEach((d, i) => { xy[2 * i] = d.x; xy[2 * i + 1] = d.y; });
      const src = Int32Array.from(D.graphEdges, (e) => D.byPath.get(e.src)), dst = Int32Array.from(D.graphEdges, (e) => D.byPath.get(e.dst));
      const out = { xy, src, dst, n, version: v, paths: D.memories.map((m) => m.path), gists: D.memories.map((m) => m.gist) };
      if (v === version) D.layout = out;
      resolve(out);
    };
    setTimeout(step, 0);
  });
}

// ------------------------------------------------------------------ retention

function retentionColumns(g) {
  return remember(`retcols|${version}|${g.damping}|${g.maxIterations}|${g.minCommunitySize}`, () => {
    const G = graphFor(g);
    const n = D.memories.length;
    const col = (f) => Float64Array.from(D.memories, f);
    return {
      memoryType: D.memories.map((m) => m.type), ageDays: D.ages, accessCount: col((m) => m.accessCount),
      confidence: col((m) => m.confidence), graphRank: G.rank, maxGraphRank: new Float64Array(n).fill(G.maxRank),
      bridgeCount: Float64Array.from(G.bridge), reinforcementCount: col((m) => m.reinforcementCount), wordCount: D.words,
      contradictionCount: col((m) => m.contradictionCount),
    };
  });
}

/** scoreRetentionMany under a settings object's policy and graph; a bad policy is the core's own error. */
function scored(s) {
  return remember(`ret|${version}|${JSON.stringify(s.graph)}|${JSON.stringify(s.retention.policy)}`, () => {
    try {
      return md.scoreRetentionMany(retentionColumns(s.graph), { signals: true, policy: s.retention.policy });
    } catch (e) {
      return { error: e.message };
    }
  });
}

function retentionView({ settings, baseline, bins = 20 }) {
  const cur = scored(settings), bas = baseline ? scored(baseline) : null;
  if (cur.error) return { error: cur.error };
  const BANDS = md.TRIAGE_ACTIONS;
  const summarize = (r) => {
    if (!r || r.error) return r && { error: r.error };
    const counts = { keep: 0, compress: 0, evict: 0 }, byType = {};
    const hist = Array.from({ length: bins }, () => ({ keep: 0, compress: 0, evict: 0 }));
    r.score.forEach((x, i) => {
      const band = BANDS[r.action[i]];
      counts[band]++;
      (byType[D.memories[i].type] ??= { keep: 0, compress: 0, evict: 0 })[band]++;
      hist[Math.min(bins - 1, Math.max(0, Math.floor(x * bins)))][band]++;
    });
    return { counts, byType, hist };
  };
  const moves = {};
  let moved = [];
  if (bas && !bas.error) {
    cur.action.forEach((a, i) => {
      const k = `${BANDS[bas.action[i]]}>${BANDS[a]}`;
      moves[k] = (moves[k] ?? 0) + 1;
      if (bas.action[i] !== a) moved.push(i);
    });
    moved = moved.sort((a, b) => Math.abs(cur.score[b] - bas.score[b]) - Math.abs(cur.score[a] - bas.score[a])).slice(0, 12)
      .map((i) => ({ ...memInfo(D.memories[i].path), from: BANDS[bas.action[i]], to: BANDS[cur.action[i]], before: bas.score[i], after: cur.score[i] }));
  }
  const order = Array.from(cur.score.keys()).sort((a, b) => cur.score[a] - cur.score[b] || (D.memories[a].path < D.memories[b].path ? -1 : 1));
  const row = (i) => ({ ...memInfo(D.memories[i].path), score: cur.score[i], band: BANDS[cur.action[i]], baseline: bas && !bas.error ? bas.score[i] : null });
  const types = [...new Set(D.memories.map((m) => m.type))].sort();
  const sums = {};
  const pol = settings.retention.policy;
  for (const t of [...new Set([...Object.keys(md.WEIGHT_PROFILES), ...types])]) {
    const p = pol.weights?.[t] ?? md.WEIGHT_PROFILES[t] ?? pol.defaultWeights ?? md.DEFAULT_WEIGHTS;
    try { sums[t] = md.profileWeightSum(p); } catch { sums[t] = null; }
  }
  sums["(default)"] = md.profileWeightSum(pol.defaultWeights ?? md.DEFAULT_WEIGHTS);
  return {
    n: D.memories.length, types, current: summarize(cur), baseline: summarize(bas), moves, moved, sums,
    lowest: order.slice(0, 6).map(row), highest: order.slice(-6).reverse().map(row),
  };
}

// ------------------------------------------------------------------ merges

function neighborPairs(floor) {
  if (D.pairs.has(floor)) return D.pairs.get(floor);
  const pairs = D.rowPaths.length < 2 ? [] : md.topNeighborPairsPacked(D.matrix, D.rowPaths, { floor, perSourceK: 4, limit: 4000 });
  if (D.pairs.size > 8) D.pairs.clear();
  D.pairs.set(floor, pairs);
  return pairs;
}

function mergeOutcomesFor(m) {
  return remember(`merge|${version}|${m.floor}|${m.threshold}|${m.maxPairs}`, () => {
    const seen = new Set(), pairs = [];
    for (const p of neighborPairs(m.floor)) {
      const k = p.src < p.dst ? `${p.src}\n${p.dst}` : `${p.dst}\n${p.src}`;
      if (seen.has(k)) continue; // the mirror (b, a) of a pair already taken
      seen.add(k);
      const a = D.memories[D.byPath.get(p.src)], b = D.memories[D.byPath.get(p.dst)];
      const [keep, drop] = a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.path < b.path) ? [a, b] : [b, a]; // keep the older
      pairs.push({ keepPath: keep.path, dropPath: drop.path, similarity: p.sim,
        keepText: { gist: keep.gist, body: keep.body }, dropText: { gist: drop.gist, body: drop.body } });
    }
    const outcomes = md.mergeOutcomes(pairs, { threshold: m.threshold, maxPairs: m.maxPairs });
    return { pairs, stages: outcomes.map((o) => o.stage) };
  });
}

function mergeView({ settings, baseline }, id) {
  progress(id, "topNeighborPairsPacked over every memory pair", 0.3);
  const cur = mergeOutcomesFor(settings.merge), bas = baseline ? mergeOutcomesFor(baseline.merge) : null;
  progress(id, "merge stages and veto reasons", 0.7);
  const count = (r) => r && r.stages.reduce((a, s) => ({ ...a, [s]: (a[s] ?? 0) + 1 }), {});
  const basStage = bas ? new Map(bas.pairs.map((p, i) => [`${p.keepPath}\n${p.dropPath}`, bas.stages[i]])) : null;
  const rows = cur.pairs.slice(0, 400).map((p, i) => {
    const stage = cur.stages[i];
    const reasons = md.mergeVetoReasons(p.keepText, p.dropText);
    const ka = md.frameKeyOf(p.keepText.gist), kb = md.frameKeyOf(p.dropText.gist);
    return {
      i: i + 1, keepPath: p.keepPath, dropPath: p.dropPath, similarity: p.similarity, stage, reasons,
      tokens: reasons.length ? decidingTokens(md.mergeVetoReasons, p.keepText, p.dropText) : [],
      baselineStage: basStage ? basStage.get(`${p.keepPath}\n${p.dropPath}`) ?? "absent" : null,
      keepGist: p.keepText.gist, dropGist: p.dropText.gist,
      frame: { keep: ka, drop: kb, conflict: ka !== null && ka === kb && p.keepText.gist !== p.dropText.gist },
    };
  });
  return { rows, total: cur.pairs.length, current: count(cur), baseline: count(bas), withVectors: D.rowPaths.length };
}

// ------------------------------------------------------------------ drill-down

async function drill({ path, settings, baseline, query }) {
  const i = D.byPath.get(path);
  if (i === undefined) throw new Error(`no memory ${path}`);
  const m = D.memories[i];
  const q = await queryOf(query);
  const side = async (s) => {
    // explain() for this memory: which arm found it at which rank, its contribution, the seed,
    // fused rank, MMR place, duplicate and the step that lost it
    const x = await B.explain({ text: q.text, vector: q.vector, ...s.search }, [path]);
    const why = x.paths[0], t = x.trace;
    const arms = {};
    for (const a of ARMS) {
      const h = t.arms[a].find((y) => y.path === path);
      arms[a] = { rank: why.arms[a]?.rank ?? null, contribution: why.arms[a]?.contribution ?? null, score: h?.score ?? null, listed: t.arms[a].length };
    }
    if (q.vector && m.embedding) arms.vector.raw = md.cosine(q.vector, m.embedding);
    arms.salience.raw = `${m.accessCount} accesses, outcome ${m.outcomeScore ?? "none"}, ${m.reinforcementCount} reinforcements`;
    const seedsMap = t.seeds.length ? new Map(t.seeds.map((x) => [x.path, x.score])) : null;
    if (seedsMap) arms.lateral.raw = D.graph.pagerankScores({ seeds: seedsMap })[D.nodeIndex.get(path)];
    const ret = scored(s);
    const G = graphFor(s.graph);
    const pol = s.retention.policy;
    const weights = pol.weights?.[m.type] ?? md.WEIGHT_PROFILES[m.type] ?? pol.defaultWeights ?? md.DEFAULT_WEIGHTS;
    const retention = ret.error ? { error: ret.error } : {
      score: ret.score[i], band: md.TRIAGE_ACTIONS[ret.action[i]],
      signals: md.SIGNAL_NAMES.map((n) => ({ name: n, value: ret.signals[n][i], weight: weights[n], product: ret.signals[n][i] * weights[n] })),
    };
    return {
      explain: why, settings: t.settings, window: t.window.length, candidates: t.candidates, hits: x.hits.length, arms,
      seed: why.seed, seeds: t.seeds.length, retention,
      graph: { pagerank: G.rank[i], community: G.community[i] >= 0 ? G.communities[G.community[i]] : null, bridges: G.bridge[i] },
    };
  };
  const merges = mergeOutcomesFor(settings.merge);
  const pairs = [];
  merges.pairs.forEach((p, j) => {
    if (p.keepPath !== path && p.dropPath !== path) return;
    const reasons = md.mergeVetoReasons(p.keepText, p.dropText);
    pairs.push({ keepPath: p.keepPath, dropPath: p.dropPath, similarity: p.similarity, stage: merges.stages[j], reasons,
      tokens: reasons.length ? decidingTokens(md.mergeVetoReasons, p.keepText, p.dropText) : [] });
  });
  return {
    memory: { path, gist: m.gist, body: m.body.slice(0, 1200), type: m.type, createdAt: m.createdAt, ageDays: D.ages[i],
      accessCount: m.accessCount, confidence: m.confidence, outcomeScore: m.outcomeScore, reinforcementCount: m.reinforcementCount,
      contradictionCount: m.contradictionCount, wordCount: D.words[i], hasEmbedding: !!m.embedding },
    query: { id: q.id, text: q.text, hasVector: !!q.vector, relevant: q.relevant ? q.relevant[path] ?? 0 : null },
    current: await side(settings), baseline: baseline ? await side(baseline) : null, pairs,
  };
}

// ------------------------------------------------------------------ dispatch

const OPS = {
  async init({ base: b }, id) {
    base = b;
    progress(id, "loading the wasm module", 0.05);
    await md.init(new URL("build/memdomain.wasm", base));
    B = await openBackend(md);
    const restored = await restore(id);
    if (!restored) {
      const r = await loadExample(id);
      if (!r.ok) throw new Error(`the synthetic example did not load: ${r.errors.join("; ")}`);
    }
    progress(id, "ready", 1);
    return { design: designTables(), presets: md.PRESETS, summary: summary(), restored };
  },
  async importFiles({ files }, id) {
    return importFiles(id, files);
  },
  async reset(_, id) {
    return loadExample(id);
  },
  async exportData() {
    const { memories, queries } = toJsonl(D);
    const bytes = await B.exportBytes();
    return { memories, queries, sqlite: bytes };
  },
  summary: () => summary(),
  search: searchView,
  mmr: searchView,
  metrics: metricsView,
  tune: tuneView,
  graph: graphView,
  layout: (_, id) => layout(id),
  retention: retentionView,
  merge: mergeView,
  drill,
};

onmessage = async (ev) => {
  const { id, op, params } = ev.data;
  const t0 = performance.now();
  try {
    if (!OPS[op]) throw new Error(`unknown op ${op}`);
    if (op !== "init" && !D) throw new Error("the worker has no dataset yet");
    const result = await OPS[op](params ?? {}, id);
    postMessage({ type: "result", id, op, result, ms: performance.now() - t0 });
  } catch (e) {
    postMessage({ type: "error", id, op, message: String(e?.stack ?? e) });
  }
};

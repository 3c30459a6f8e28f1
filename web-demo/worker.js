// The workbench's compute worker: owns the wasm instance, the dataset and the backend
// (backend.js: where the memories live), and answers one request at a time. Every number it
// returns comes from the memdomain package: the search (memdomain/cache's explain(): arms,
// fusion, MMR, hits) and its tuning (tune()), and the sleep side (memdomain/cache's sleep(),
// run on a copy of the database: decay, similarity edges, merges, PageRank, communities,
// bridges, retention scores and bands), with merge stages, veto reasons and similarities from
// the public functions the pass calls. JavaScript here gathers inputs, counts, sorts for
// display and computes the ranking metrics against the labels.
import * as md from "./build/demo/memdomain.js";
import { forceLink, forceManyBody, forceSimulation, forceX, forceY } from "./build/demo/d3-force.js";
import { openBackend } from "./backend.js";
import { queryVector } from "./lib/arms.js";
import { ageDays, groupErrors, latestTime, locateMessage, pageJsonl, parsePage, splitFiles, wordCount } from "./lib/data.js";
import { evaluate } from "./lib/metrics.js";
import { ARMS, configure, normalize } from "./lib/settings.js";
import { decidingTokens } from "./lib/veto.js";

/** mergeOutcomes' stages (sleep()'s report counts each). */
const MERGE_STAGES = ["committed", "cap", "threshold", "vetoed", "self", "role-guard"];
const SIDE = "workbench-queries.json";
const DAY = 86400000;
let base = null; // the page's base URL
let B = null; // backend
let D = null; // the dataset and what is derived from it once
let version = 0; // bumps with every dataset change (cache keys)
const cache = new Map(); // small LRU of computed results
const byPathOrder = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

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
 * The dataset as the cache holds it (its live memories in path order, every edge) with the
 * page's meta and queries, and what the views derive from it once: the packed matrix of the
 * embeddings (sleep's neighbour pairs, for the merge candidates).
 */
function derive(stored, meta, queries) {
  cache.clear();
  dropStates();
  version++;
  const memories = stored.memories; // path order (the cache's all())
  const byPath = new Map(memories.map((m, i) => [m.path, i]));
  const dim = stored.dim;
  const withVec = memories.filter((m) => m.embedding && m.embedding.length === dim);
  const matrix = new Float32Array(withVec.length * (dim ?? 1));
  withVec.forEach((m, i) => matrix.set(m.embedding, i * dim));
  D = {
    meta, queries, memories, byPath, dim, edges: stored.edges, superseded: stored.superseded,
    rowPaths: withVec.map((m) => m.path), matrix, queryById: new Map(queries.map((q) => [q.id, q])), encoder: null,
  };
}

const sideText = () => JSON.stringify({ meta: D.meta, queries: D.queries.map((q) => ({ ...q, vector: q.vector && Array.from(q.vector) })) });

async function loadExample(id) {
  progress(id, "fetching the synthetic example", 0.1);
  const files = await Promise.all(["example-memories.jsonl", "example-queries.jsonl"].map(async (name) =>
    ({ name, text: await (await fetch(new URL(`build/demo/${name}`, base))).text() })));
  return importFiles(id, files, "example");
}

/**
 * Import files as the new dataset, or refuse them as a whole (the previous dataset stays). The
 * memory, edge and watermark lines go to memdomain/cache's importJsonl() as they are (a SQLite
 * file is the starting database; lines beside it are imported into it); the page's lines (meta,
 * queries) are checked with the cache's own checks. Errors are grouped by message, in line order.
 */
async function importFiles(id, files, source = "import") {
  progress(id, "reading the lines", 0.15);
  const texts = files.filter((f) => typeof f.text === "string"), dbs = files.filter((f) => f.bytes);
  const refuse = (errors, warnings = []) => ({ ok: false, errors, warnings });
  if (dbs.length > 1) return refuse(["one SQLite file at a time"]);
  const split = splitFiles(texts);
  if (!dbs.length && !split.memoryLines) return refuse(["no memory lines found: a memory line is what memdomain/cache's put() takes (path, gist, body, type, createdAt, ...)"]);
  let page;
  try {
    page = await B.replace({ bytes: dbs[0]?.bytes, jsonl: split.cacheText }, (text, f) => progress(id, text, 0.2 + 0.5 * f));
  } catch (e) {
    const where = dbs.length && !/text line \d+/.test(e.message) ? `${dbs[0].name}: ` : "";
    return refuse([`${where}${locateMessage(e.message, split.locate)}`]);
  }
  try {
    progress(id, "the queries and labels", 0.75);
    const stored = await B.load();
    if (!stored) {
      await B.revert();
      return refuse([`${files.map((f) => f.name).join(", ")}: no memories`]);
    }
    // the page's lines a SQLite file carries come first; queries in JSON Lines beside it replace its queries
    const dbLines = page.page ? splitFiles([{ name: dbs[0].name, text: page.page }]).pageLines : [];
    const besideQueries = split.pageLines.some((l) => "query" in l.r);
    const lines = [...dbLines.filter((l) => !besideQueries || "meta" in l.r), ...split.pageLines];
    const parsed = parsePage(lines, { dim: stored.dim, paths: new Set(stored.memories.map((m) => m.path)) });
    if (parsed.errors.length) {
      await B.revert();
      return refuse(groupErrors(parsed.errors, files.map((f) => f.name)), parsed.warnings);
    }
    const warnings = [...parsed.warnings];
    const meta = parsed.meta;
    meta.name ??= files.map((f) => f.name).join(" + ");
    if (meta.now === undefined) {
      meta.now = latestTime(stored.memories) ?? Date.UTC(2026, 10, 1);
      warnings.push(`no meta line names the "as of" date: it is the latest time in the data, ${new Date(meta.now).toISOString()} (ages are counted to it)`);
    }
    // settings that travel with the data: checked by the API like the URL's
    let settings = null;
    if (meta.settings !== undefined) {
      settings = await normalize(meta.settings, check(meta.now));
      delete meta.settings;
    }
    meta.source = source;
    B.commit();
    derive(stored, meta, parsed.queries);
    await useEncoder();
    await B.writeSide(SIDE, sideText());
    return { ok: true, errors: [], warnings, summary: summary(), settings, imported: page.imported };
  } catch (e) {
    await B.revert();
    throw e;
  }
}

/**
 * The cache's embed hook: the synthetic example's encoder for stored and query text alike (a text
 * naming no topic gives zeros: no vector), so that calibrate() can embed its pseudo-queries; none
 * for other data (the workbench has no model of their embeddings).
 */
async function useEncoder() {
  if (D.meta.queryEncoder !== "synthetic-topics" || !D.dim) return B.useEmbed(null);
  const enc = await encoder(), dim = D.dim;
  return B.useEmbed((texts) => texts.map((t) => enc(t) ?? new Float32Array(dim)));
}

async function restore(id) {
  progress(id, "opening the stored memories", 0.3);
  const stored = await B.load();
  const side = await B.readSide(SIDE);
  if (!stored || !side) return false;
  const { meta, queries } = JSON.parse(side);
  if (meta.now === undefined || !queries) return false; // a side file of an older page
  derive(stored, meta, queries.map((q) => ({ ...q, vector: q.vector && Float32Array.from(q.vector) })));
  await useEncoder();
  return true;
}

/** The dataset again from the database (after a sleep pass or its undo), with the same meta and queries. */
async function reload() {
  derive(await B.load(), D.meta, D.queries);
}

function summary() {
  const types = {}, edges = { link: 0, sleep: 0, merge: 0 };
  for (const m of D.memories) types[m.type] = (types[m.type] ?? 0) + 1;
  for (const e of D.edges) edges[e.origin] = (edges[e.origin] ?? 0) + 1;
  return {
    name: D.meta.name ?? "unnamed", source: D.meta.source ?? "import", note: D.meta.note ?? null, now: D.meta.now,
    memories: D.memories.length, superseded: D.superseded, withEmbedding: D.rowPaths.length, dim: D.dim, edges: D.edges.length, edgesBy: edges, types,
    queries: D.queries.map((q) => ({ id: q.id, text: q.text, hasVector: !!q.vector, relevant: q.relevant ? Object.keys(q.relevant).length : 0 })),
    labelled: D.queries.filter((q) => q.relevant && Object.keys(q.relevant).length).length,
    backend: B.kind, sqlite: B.sqlite, encoder: D.meta.queryEncoder === "synthetic-topics", canUndoSleep: B.canUndoSleep,
  };
}

/** sleep()'s defaults in the settings' shape (memdomain/cache's option schema): every option but `now` and onProgress. */
const sleepDefaults = () => {
  const O = md.CACHE_OPTIONS;
  return {
    floor: O.sleep.floor.dflt, perSourceK: O.sleep.perSourceK.dflt, cycleMs: O.sleep.cycleMs.dflt, evict: false,
    confidence: { alpha: O.confidence.alpha.dflt, floor: O.confidence.floor.dflt },
    merge: { threshold: O.merge.threshold.dflt, maxPairs: O.merge.maxPairs.dflt },
  };
};
const graphDefaults = () => ({ damping: md.PAGERANK_DAMPING, maxIterations: md.PAGERANK_MAX_ITERATIONS, minCommunitySize: md.MIN_COMMUNITY_SIZE });

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

// ------------------------------------------------------------------ settings from outside the page

/**
 * The API's own check of one settings section (lib/settings.js normalize() asks it value by
 * value): search() and sleep() options on an empty cache, a retention policy through
 * scoreRetentionMany, the graph options through a Graph. Resolves the call's message or null.
 */
function check(now) {
  return async (section, value) => {
    if (section === "search" || section === "sleep") return B.check(section, value, now);
    try {
      if (section === "retention") {
        const one = (x) => Float64Array.of(x);
        md.scoreRetentionMany({ memoryType: ["semantic"], ageDays: one(1), accessCount: one(0), confidence: one(1), graphRank: one(0),
          maxGraphRank: one(0), bridgeCount: one(0), reinforcementCount: one(0), wordCount: one(1), contradictionCount: one(0) }, { policy: value });
      } else if (section === "graph") {
        const g = new md.Graph(["a", "b"], [{ src: "a", dst: "b", strength: 1 }]);
        try {
          g.pagerankScores({ damping: value.damping, maxIterations: value.maxIterations });
          g.labelPropagation({ minCommunitySize: value.minCommunitySize });
        } finally {
          g.free();
        }
      }
      return null;
    } catch (e) {
      return e.message;
    }
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
      .sort((a, b) => (a.fused?.rank ?? Infinity) - (b.fused?.rank ?? Infinity) || byPathOrder(a.path, b.path)),
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

// ------------------------------------------------------------------ sleep: the pass on a copy

const states = new Map(); // key -> Promise of a sleep state (at most STATES, oldest dropped)
const STATES = 4;

function dropStates() {
  for (const p of states.values()) p.then((s) => s.graph?.free(), () => {});
  states.clear();
}

/** sleep()'s options for the settings' sleep section at the dataset's "as of" date. */
const sleepOptions = (s) => ({ now: D.meta.now, ...s });
/**
 * The pass a settings object asks for: its sleep section, with the Retention tab's policy as
 * sleep({ policy }) when it tunes one, so the bands every view shows are the pass's own.
 */
const passOf = (s) => (s.retention && Object.keys(s.retention.policy ?? {}).length ? { ...s.sleep, policy: s.retention.policy } : s.sleep);

/**
 * What memdomain/cache's sleep() does with these options at the dataset's "as of" date, run on a
 * copy of the database (backend.preview): the report; every memory after the pass (decayed
 * confidence, PageRank, community, bridges, retention score and band, supersession); the edges
 * after it (the links and the pass's similarity edges); the merge candidates the pass hands to
 * mergeOutcomes, each with its stage (recomputed with the same public functions, and checked
 * against the report's counts); and the Graph the pass builds (links + similarity edges over the
 * survivors), kept for the views' PageRank and communities.
 */
function sleepState(s, id) {
  const key = `${version}|${D.meta.now}|${JSON.stringify(s)}`;
  if (states.has(key)) {
    const p = states.get(key);
    states.delete(key);
    states.set(key, p);
    return p;
  }
  const v = version;
  const make = (async () => {
    if (id !== undefined) progress(id, "sleep() on a copy of the database", 0.3);
    const r = await B.preview(sleepOptions(s));
    const live = r.memories.filter((m) => m.supersededBy === null && m.archivedAt === null);
    const index = new Map(live.map((m, i) => [m.path, i]));
    const graphEdges = r.edges.filter((e) => (e.origin === "link" || e.origin === "sleep") && index.has(e.src) && index.has(e.dst));
    const candidates = mergeCandidates(s);
    const committed = candidates.filter((c) => c.stage === "committed").map((c) => `${c.keepPath}\n${c.dropPath}`);
    const merged = r.report.merges.merged.map((m) => `${m.keepPath}\n${m.dropPath}`);
    const agrees = !r.report.merges.ran || (JSON.stringify(committed) === JSON.stringify(merged) &&
      MERGE_STAGES.every((st) => (r.report.merges.stages[st] ?? 0) === candidates.filter((c) => c.stage === st).length));
    if (v !== version) throw new Error("the dataset changed during the preview");
    return { key, s, report: r.report, evicted: r.evicted, live, index, edges: r.edges, graphEdges, candidates, agrees,
      graph: new md.Graph(live.map((m) => m.path), graphEdges.map((e) => ({ src: e.src, dst: e.dst, strength: e.strength }))) };
  })();
  states.set(key, make);
  make.catch(() => states.delete(key));
  if (states.size > STATES) {
    const [old, p] = states.entries().next().value;
    states.delete(old);
    p.then((x) => x.graph.free(), () => {});
  }
  return make;
}

/**
 * The pairs the pass gives mergeOutcomes, as sleep() builds them: the neighbour pairs
 * (topNeighborPairsPacked over the live embeddings in path order, the floor and perSourceK)
 * above the merge threshold, each unordered pair once, the older memory kept; with the stage
 * mergeOutcomes gives each. `neighbours` counts every neighbour pair (the pass's edges before merges).
 */
function mergeCandidates(s) {
  return remember(`cand|${version}|${s.floor}|${s.perSourceK}|${s.merge.threshold}|${s.merge.maxPairs}`, () => {
    const n = D.rowPaths.length;
    const pairs = n < 2 ? [] : md.topNeighborPairsPacked(D.matrix, D.rowPaths, { floor: s.floor, perSourceK: s.perSourceK, limit: n * s.perSourceK });
    const seen = new Set(), list = [];
    for (const p of pairs) {
      if (!(p.sim > s.merge.threshold)) continue;
      const k = p.src < p.dst ? `${p.src}\n${p.dst}` : `${p.dst}\n${p.src}`;
      if (seen.has(k)) continue; // the mirror (b, a) of a pair already taken
      seen.add(k);
      const a = D.memories[D.byPath.get(p.src)], b = D.memories[D.byPath.get(p.dst)];
      const [keep, drop] = a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.path < b.path) ? [a, b] : [b, a]; // keep the older
      list.push({ keepPath: keep.path, dropPath: drop.path, similarity: p.sim,
        keepText: { gist: keep.gist, body: keep.body }, dropText: { gist: drop.gist, body: drop.body } });
    }
    const outcomes = md.mergeOutcomes(list, { threshold: s.merge.threshold, maxPairs: s.merge.maxPairs });
    const stageOf = new Map(outcomes.map((o) => [`${o.pair.keepPath}\n${o.pair.dropPath}`, o.stage]));
    return list.map((c) => ({ ...c, stage: stageOf.get(`${c.keepPath}\n${c.dropPath}`) }));
  });
}

/** PageRank, communities and bridges on the pass's graph under the graph settings `g` (sleep() uses the defaults). */
function graphFor(st, g) {
  return remember(`graph|${st.key}|${g.damping}|${g.maxIterations}|${g.minCommunitySize}`, () => {
    const t0 = performance.now();
    const rank = st.graph.pagerankScores({ damping: g.damping, maxIterations: g.maxIterations }); // live order: the graph's nodes are in path order
    const comm = st.graph.labelPropagation({ minCommunitySize: g.minCommunitySize });
    const bridges = st.graph.bridgeCounts(comm);
    const n = st.live.length;
    const bridge = new Int32Array(n), label = new Array(n);
    st.live.forEach((m, i) => {
      label[i] = comm.get(m.path);
      bridge[i] = bridges.get(m.path) ?? 0;
    });
    const sizes = new Map();
    for (const l of label) if (l !== undefined) sizes.set(l, (sizes.get(l) ?? 0) + 1);
    const communities = [...sizes].map(([l, size]) => ({ label: l, size })).sort((a, b) => b.size - a.size || byPathOrder(a.label, b.label));
    const cIndex = new Map(communities.map((c, i) => [c.label, i]));
    const community = Int32Array.from(label, (l) => (l === undefined ? -1 : cIndex.get(l)));
    let maxRank = 0;
    for (const v of rank) maxRank = Math.max(maxRank, v);
    return { rank, bridge, community, communities, maxRank, ms: performance.now() - t0,
      members: communities.reduce((a, c) => a + c.size, 0) };
  });
}

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const info = (st, path) => {
  const m = st.live[st.index.get(path)] ?? D.memories[D.byPath.get(path)];
  return m ? { path, gist: m.gist, type: m.type } : { path, gist: "(not in the dataset)", type: "" };
};

/**
 * The sleep preview: what a pass at the "as of" date would change, in the pass's own report (with
 * evict, the report of the pass that evicts: its edges and communities are the survivors').
 */
function shapeReport(st) {
  const r = st.evicted ?? st.report;
  return {
    options: sleepOptions(st.s), bands: r.bands, evictBand: r.evict.length, evicted: st.evicted ? st.evicted.evicted : null,
    merges: { ran: r.merges.ran, cycle: r.merges.cycle, stages: r.merges.stages, merged: r.merges.merged.length,
      pairs: r.merges.merged.slice(0, 50).map((m) => ({ ...m, keepGist: info(st, m.keepPath).gist, dropGist: D.memories[D.byPath.get(m.dropPath)]?.gist ?? "" })) },
    edges: r.edges, communities: r.communities, decayed: r.confidence.decayed,
    written: r.written, memories: r.memories, survivors: st.live.length, agrees: st.agrees, timings: r.timings,
  };
}

async function sleepView({ settings, baseline }, id) {
  const cur = await sleepState(passOf(settings), id);
  const bas = baseline && !sameJson(passOf(baseline), passOf(settings)) ? await sleepState(passOf(baseline), id) : null;
  const sample = cur.live.filter((m) => {
    const before = D.memories[D.byPath.get(m.path)];
    return before && before.confidence !== m.confidence;
  }).slice(0, 8).map((m) => ({ ...info(cur, m.path), before: D.memories[D.byPath.get(m.path)].confidence, after: m.confidence }));
  return { now: D.meta.now, current: shapeReport(cur), baseline: bas ? shapeReport(bas) : baseline ? shapeReport(cur) : null, decayedSample: sample,
    canUndo: B.canUndoSleep };
}

async function applySleep({ sleep, policy }, id) {
  progress(id, "sleep() on the dataset", 0.3);
  const report = await B.sleep(sleepOptions(policy && Object.keys(policy).length ? { ...sleep, policy } : sleep));
  progress(id, "reading the dataset again", 0.8);
  await reload();
  await B.writeSide(SIDE, sideText());
  return { report: { ...report, evict: report.evict.length }, summary: summary() };
}

async function undoSleep(_, id) {
  progress(id, "the database before the pass", 0.5);
  await B.undoSleep();
  await reload();
  return { summary: summary() };
}

async function setNow({ now }) {
  if (typeof now !== "number" || !Number.isFinite(now) || Math.abs(now) > 8.64e15) throw new RangeError(`"as of" must be a time, got ${now}`);
  D.meta.now = now;
  cache.clear();
  dropStates();
  version++;
  await B.writeSide(SIDE, sideText());
  return { summary: summary() };
}

// ------------------------------------------------------------------ graph

function topPagerank(st, rank, G, k = 12) {
  const order = Array.from(rank.keys()).sort((a, b) => rank[b] - rank[a] || byPathOrder(st.live[a].path, st.live[b].path));
  return order.slice(0, k).map((i) => ({ ...info(st, st.live[i].path), score: rank[i], bridges: G.bridge[i], community: G.community[i] }));
}

const isDefault = (g) => sameJson(g, graphDefaults());

async function graphView({ settings, baseline, query, mode }, id) {
  const st = await sleepState(passOf(settings), id);
  const G = graphFor(st, settings.graph);
  const bst = baseline ? await sleepState(passOf(baseline), id) : null;
  const Bg = baseline ? graphFor(bst, baseline.graph) : null;
  let seeds = [], personal = null;
  if (mode === "personalized") {
    const q = await queryOf(query);
    seeds = (await search(q, settings.search)).trace.seeds.filter((x) => st.index.has(x.path));
    if (seeds.length) personal = st.graph.pagerankScores({ damping: settings.graph.damping, maxIterations: settings.graph.maxIterations,
      seeds: new Map(seeds.map((x) => [x.path, x.score])) });
  }
  const rank = personal ?? G.rank;
  const degree = new Int32Array(st.live.length);
  for (const e of st.graphEdges) { degree[st.index.get(e.src)]++; degree[st.index.get(e.dst)]++; }
  const summaryOf = (g) => g && {
    communities: g.communities.length, inCommunities: g.members, largest: g.communities[0]?.size ?? 0,
    bridgeNodes: g.bridge.reduce((a, b) => a + (b > 0 ? 1 : 0), 0), ms: g.ms,
  };
  const kinds = { link: 0, similar: 0, "near-duplicate": 0 };
  for (const e of st.graphEdges) kinds[e.origin === "link" ? "link" : e.type]++;
  return {
    key: st.key, n: st.live.length, rank: Array.from(rank), community: Array.from(G.community), bridge: Array.from(G.bridge),
    isolated: degree.reduce((a, d) => a + (d === 0 ? 1 : 0), 0), edges: kinds, sleep: { floor: st.s.floor, perSourceK: st.s.perSourceK },
    communities: G.communities.slice(0, 12).map((c) => ({ ...c, gist: info(st, c.label).gist })), sizes: G.communities.map((c) => c.size),
    top: topPagerank(st, rank, G), baselineTop: Bg ? topPagerank(bst, Bg.rank, Bg) : null,
    seeds: seeds.map((x) => ({ index: st.index.get(x.path), ...info(st, x.path), score: x.score })),
    current: summaryOf(G), baseline: summaryOf(Bg), mode, report: st.report.communities, graphDefault: isDefault(settings.graph),
    merged: st.report.merges.merged.length,
  };
}

/**
 * A d3-force layout of the pass's graph (the survivors, the links and the similarity edges);
 * memories with no edge are left out of the simulation (the page draws them apart, or not at all).
 */
async function layout({ settings }, id) {
  const st = await sleepState(passOf(settings), id);
  if (st.layout) return st.layout;
  const n = st.live.length;
  const G = graphFor(st, graphDefaults());
  const degree = new Int32Array(n);
  for (const e of st.graphEdges) { degree[st.index.get(e.src)]++; degree[st.index.get(e.dst)]++; }
  // start each community around its own point so the layout settles quickly
  const nodes = [];
  st.live.forEach((m, i) => {
    if (!degree[i]) return;
    const c = G.community[i], a = c < 0 ? (i * 2.399) : c * 2.399, r = c < 0 ? 380 : 120 + 25 * Math.sqrt(c);
    nodes.push({ id: m.path, i, x: r * Math.cos(a) + ((i * 37) % 40) - 20, y: r * Math.sin(a) + ((i * 91) % 40) - 20 });
  });
  const links = st.graphEdges.map((e) => ({ source: e.src, target: e.dst, strength: e.strength }));
  const sim = forceSimulation(nodes)
    .force("link", forceLink(links).id((d) => d.id).distance(18).strength((l) => 0.05 + 0.25 * l.strength))
    .force("charge", forceManyBody().strength(-14).theta(0.95).distanceMax(250))
    .force("x", forceX(0).strength(0.04)).force("y", forceY(0).strength(0.04)).stop();
  const TICKS = nodes.length ? 240 : 0, CHUNK = 12;
  return new Promise((resolve) => {
    let done = 0;
    const step = () => {
      if (done < TICKS) {
        sim.tick(CHUNK);
        done += CHUNK;
        progress(id, `force layout (d3-force): tick ${done} of ${TICKS}`, done / TICKS);
        if (done < TICKS) { setTimeout(step, 0); return; }
      }
      const xy = new Float32Array(2 * n).fill(NaN);
      for (const d of nodes) { xy[2 * d.i] = d.x; xy[2 * d.i + 1] = d.y; }
      const src = Int32Array.from(st.graphEdges, (e) => st.index.get(e.src)), dst = Int32Array.from(st.graphEdges, (e) => st.index.get(e.dst));
      st.layout = { key: st.key, xy, src, dst, n, paths: st.live.map((m) => m.path), gists: st.live.map((m) => m.gist), isolated: Uint8Array.from(degree, (d) => (d ? 0 : 1)) };
      resolve(st.layout);
    };
    setTimeout(step, 0);
  });
}

// ------------------------------------------------------------------ retention

/** scoreRetentionMany's columns as sleep() builds them, from the memories after the pass (decayed confidence, the pass's graph). */
function retentionColumns(st, g) {
  return remember(`retcols|${st.key}|${JSON.stringify(g)}`, () => {
    const G = graphFor(st, g);
    const n = st.live.length, now = D.meta.now;
    const col = (f) => Float64Array.from(st.live, f);
    return {
      memoryType: st.live.map((m) => m.type), ageDays: col((m) => ageDays(m, now)), accessCount: col((m) => m.accessCount),
      confidence: col((m) => m.confidence), graphRank: G.rank, maxGraphRank: new Float64Array(n).fill(G.maxRank),
      bridgeCount: Float64Array.from(G.bridge), reinforcementCount: col((m) => m.reinforcementCount), wordCount: col((m) => wordCount(m.body)),
      contradictionCount: col((m) => m.contradictionCount),
    };
  });
}

/** scoreRetentionMany under a settings object's policy and graph, on its sleep state; a bad policy is the core's own error. */
function scored(st, s) {
  return remember(`ret|${st.key}|${JSON.stringify(s.graph)}|${JSON.stringify(s.retention.policy)}`, () => {
    try {
      return md.scoreRetentionMany(retentionColumns(st, s.graph), { signals: true, policy: s.retention.policy });
    } catch (e) {
      return { error: e.message };
    }
  });
}

async function retentionView({ settings, baseline, bins = 20 }, id) {
  const st = await sleepState(passOf(settings), id);
  const bst = baseline ? await sleepState(passOf(baseline), id) : null;
  const cur = scored(st, settings), bas = baseline ? scored(bst, baseline) : null;
  if (cur.error) return { error: cur.error };
  const BANDS = md.TRIAGE_ACTIONS;
  const summarize = (r, s) => {
    if (!r || r.error) return r && { error: r.error };
    const counts = { keep: 0, compress: 0, evict: 0 }, byType = {};
    const hist = Array.from({ length: bins }, () => ({ keep: 0, compress: 0, evict: 0 }));
    r.score.forEach((x, i) => {
      const band = BANDS[r.action[i]];
      counts[band]++;
      (byType[s.live[i].type] ??= { keep: 0, compress: 0, evict: 0 })[band]++;
      hist[Math.min(bins - 1, Math.max(0, Math.floor(x * bins)))][band]++;
    });
    return { counts, byType, hist };
  };
  // band moves against the baseline, over the memories both passes keep (merges may differ)
  const moves = {};
  let moved = [];
  if (bas && !bas.error) {
    st.live.forEach((m, i) => {
      const j = bst.index.get(m.path);
      if (j === undefined) return;
      const k = `${BANDS[bas.action[j]]}>${BANDS[cur.action[i]]}`;
      moves[k] = (moves[k] ?? 0) + 1;
      if (bas.action[j] !== cur.action[i]) moved.push([i, j]);
    });
    moved = moved.sort(([a, ja], [b, jb]) => Math.abs(cur.score[b] - bas.score[jb]) - Math.abs(cur.score[a] - bas.score[ja])).slice(0, 12)
      .map(([i, j]) => ({ ...info(st, st.live[i].path), from: BANDS[bas.action[j]], to: BANDS[cur.action[i]], before: bas.score[j], after: cur.score[i] }));
  }
  const order = Array.from(cur.score.keys()).sort((a, b) => cur.score[a] - cur.score[b] || byPathOrder(st.live[a].path, st.live[b].path));
  const row = (i) => {
    const j = bst?.index.get(st.live[i].path);
    return { ...info(st, st.live[i].path), score: cur.score[i], band: BANDS[cur.action[i]], baseline: bas && !bas.error && j !== undefined ? bas.score[j] : null };
  };
  const types = [...new Set(st.live.map((m) => m.type))].sort();
  const sums = {};
  const pol = settings.retention.policy;
  for (const t of [...new Set([...Object.keys(md.WEIGHT_PROFILES), ...types])]) {
    const p = pol.weights?.[t] ?? md.WEIGHT_PROFILES[t] ?? pol.defaultWeights ?? md.DEFAULT_WEIGHTS;
    try { sums[t] = md.profileWeightSum(p); } catch { sums[t] = null; }
  }
  sums["(default)"] = md.profileWeightSum(pol.defaultWeights ?? md.DEFAULT_WEIGHTS);
  return {
    n: st.live.length, types, current: summarize(cur, st), baseline: summarize(bas, bst), moves, moved, sums,
    lowest: order.slice(0, 6).map(row), highest: order.slice(-6).reverse().map(row),
    sleep: { bands: st.report.bands, decayed: st.report.confidence.decayed, merged: st.report.merges.merged.length, before: D.memories.length,
      edges: st.report.edges, policyDefault: Object.keys(pol).length === 0, graphDefault: isDefault(settings.graph),
      // every score the very one the pass stored: these are sleep()'s own bands (a policy equal to the design's counts)
      same: st.live.every((m, i) => m.retentionScore === cur.score[i] && m.band === BANDS[cur.action[i]]) },
  };
}

// ------------------------------------------------------------------ merges

async function mergeView({ settings, baseline }, id) {
  const st = await sleepState(passOf(settings), id);
  const bst = baseline && !sameJson(passOf(baseline), passOf(settings)) ? await sleepState(passOf(baseline), id) : baseline ? st : null;
  progress(id, "merge stages and veto reasons", 0.7);
  const basStage = bst ? new Map(bst.candidates.map((p) => [`${p.keepPath}\n${p.dropPath}`, p.stage])) : null;
  const rows = st.candidates.slice(0, 400).map((p, i) => {
    const reasons = md.mergeVetoReasons(p.keepText, p.dropText);
    const ka = md.frameKeyOf(p.keepText.gist), kb = md.frameKeyOf(p.dropText.gist);
    return {
      i: i + 1, keepPath: p.keepPath, dropPath: p.dropPath, similarity: p.similarity, stage: p.stage, reasons,
      tokens: reasons.length ? decidingTokens(md.mergeVetoReasons, p.keepText, p.dropText) : [],
      baselineStage: basStage ? basStage.get(`${p.keepPath}\n${p.dropPath}`) ?? "absent" : null,
      keepGist: p.keepText.gist, dropGist: p.dropText.gist,
      frame: { keep: ka, drop: kb, conflict: ka !== null && ka === kb && p.keepText.gist !== p.dropText.gist },
    };
  });
  const r = st.report;
  return {
    rows, total: st.candidates.length, current: r.merges.stages, baseline: bst ? bst.report.merges.stages : null, ran: r.merges.ran,
    baselineRan: bst ? bst.report.merges.ran : null, cycle: r.merges.cycle, merged: r.merges.merged.length, agrees: st.agrees,
    neighbours: r.edges.similar + r.edges.nearDuplicate, withVectors: D.rowPaths.length, options: sleepOptions(st.s),
  };
}

// ------------------------------------------------------------------ drill-down

async function drill({ path, settings, baseline, query }, id) {
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
    const st = await sleepState(passOf(s), id);
    const j = st.index.get(path);
    if (t.seeds.length && j !== undefined) arms.lateral.raw = st.graph.pagerankScores({ seeds: new Map(t.seeds.filter((y) => st.index.has(y.path)).map((y) => [y.path, y.score])) })[j];
    const merged = st.report.merges.merged.find((y) => y.dropPath === path);
    let retention, graph;
    if (j === undefined) {
      retention = { error: merged ? `the pass merges it into ${merged.keepPath}: it is superseded, no longer scored` : "not in the pass's memories" };
      graph = null;
    } else {
      const ret = scored(st, s);
      const G = graphFor(st, s.graph);
      const pol = s.retention.policy;
      const weights = pol.weights?.[m.type] ?? md.WEIGHT_PROFILES[m.type] ?? pol.defaultWeights ?? md.DEFAULT_WEIGHTS;
      retention = ret.error ? { error: ret.error } : {
        score: ret.score[j], band: md.TRIAGE_ACTIONS[ret.action[j]], confidence: { before: m.confidence, after: st.live[j].confidence },
        signals: md.SIGNAL_NAMES.map((n) => ({ name: n, value: ret.signals[n][j], weight: weights[n], product: ret.signals[n][j] * weights[n] })),
      };
      graph = { pagerank: G.rank[j], community: G.community[j] >= 0 ? G.communities[G.community[j]] : null, bridges: G.bridge[j] };
    }
    return {
      explain: why, settings: t.settings, window: t.window.length, candidates: t.candidates, hits: x.hits.length, arms,
      seed: why.seed, seeds: t.seeds.length, retention, graph, merged: merged ?? null,
    };
  };
  const st = await sleepState(passOf(settings), id);
  const pairs = st.candidates.filter((p) => p.keepPath === path || p.dropPath === path).map((p) => {
    const reasons = md.mergeVetoReasons(p.keepText, p.dropText);
    return { keepPath: p.keepPath, dropPath: p.dropPath, similarity: p.similarity, stage: p.stage, reasons,
      tokens: reasons.length ? decidingTokens(md.mergeVetoReasons, p.keepText, p.dropText) : [] };
  });
  return {
    memory: { path, gist: m.gist, body: m.body.slice(0, 1200), type: m.type, createdAt: m.createdAt, ageDays: ageDays(m, D.meta.now),
      accessCount: m.accessCount, confidence: m.confidence, outcomeScore: m.outcomeScore, reinforcementCount: m.reinforcementCount,
      contradictionCount: m.contradictionCount, wordCount: wordCount(m.body), hasEmbedding: !!m.embedding },
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
    configure({ presets: md.PRESETS, sleep: sleepDefaults(), graph: graphDefaults(), options: md.CACHE_OPTIONS });
    B = await openBackend(md);
    const restored = await restore(id);
    let example = null;
    if (!restored) {
      example = await loadExample(id);
      if (!example.ok) throw new Error(`the synthetic example did not load: ${example.errors.join("; ")}`);
    }
    progress(id, "ready", 1);
    return { design: designTables(), presets: md.PRESETS, sleep: sleepDefaults(), graph: graphDefaults(), options: md.CACHE_OPTIONS,
      summary: summary(), restored, settings: example?.settings ?? null };
  },
  /** Settings from outside the page (the URL, a pasted file): { settings, problems } as the API checks them. */
  async normalize({ settings }) {
    return normalize(settings, check(D.meta.now));
  },
  async importFiles({ files }, id) {
    return importFiles(id, files);
  },
  async reset(_, id) {
    return loadExample(id);
  },
  async exportData({ kind, settings }) {
    const page = pageJsonl({ meta: D.meta, queries: D.queries, settings });
    if (kind === "memories") return { text: await B.exportJsonl() };
    if (kind === "queries") return { text: page };
    return { bytes: await B.exportBytes(page) };
  },
  summary: () => summary(),
  calibration: () => B.calibration(),
  async calibrate(_, id) {
    return B.calibrate({ seed: 1, onProgress: (p) => progress(id, `calibrate: the arms of ${p.done} of ${p.total} queries`, p.done / Math.max(1, p.total), p) });
  },
  search: searchView,
  mmr: searchView,
  metrics: metricsView,
  tune: tuneView,
  sleep: sleepView,
  applySleep,
  undoSleep,
  setNow,
  graph: graphView,
  layout,
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

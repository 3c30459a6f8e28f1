// A TypeScript consumer of the installed package: calls the API the way a user
// does and pins the result types, so `tsc --noEmit` fails if a declaration
// drifts. One section per module and one for the workers entry
// (memdomain/workers); a module that lands adds its section here
// (consumer.dom.ts adds the browser types; types.test.mjs separately requires a declaration for EVERY runtime export,
// through a generated file, and lists the exports this file does not call yet).
import { Option } from "effect";
import * as md from "memdomain";
import {
  init, initSync, isInitialized, type InitInput,
  // cosine
  cosine, cosineDistance, compensatedSum,
  // ranking
  RRF_K, MMR_LAMBDA, REINFORCE_COOLDOWN_S, rrfContribution,
  // rrf
  rrfScore, fuseArms, rankFused, fuseLateral, type ArmHit,
  // reinforce
  REINFORCE_SIGNALS, signalValue, shouldBumpAccess, partitionByCooldown, type ReinforceSignal,
  // decay
  SCALE, POS_ONE_FP, NEG_ONE_FP, DEFAULT_EWMA_ALPHA, DEFAULT_CONFIDENCE_FLOOR, DEFAULT_CONFIDENCE_DECAY_ALPHA,
  CONFIDENCE_COMMIT_DELTA, toFp, fromFp, ewmaStepFp, applyOutcomesFp, applyNegativeHitsFp, decayConfidenceFp,
  decayConfidenceNFp, decayConfidence, decayConfidenceN, isCommittableConfidenceChange,
  // retention
  SIGNAL_NAMES, TRIAGE_ACTIONS, WEIGHT_PROFILES, DEFAULT_WEIGHTS, HALF_LIVES_DAYS, DEFAULT_HALF_LIFE_DAYS, LN2,
  KEEP_THRESHOLD, EVICT_THRESHOLD, SCORE_PRECISION, REPRIEVE_FLOOR, REPRIEVE_DAYS, MAX_REPRIEVES,
  SALIENCE_DECAY_RATE, REPRIEVE_W_IMPORTANCE, REPRIEVE_W_ACCESS, REPRIEVE_W_OUTCOME, REPRIEVE_W_RECENCY,
  weightsFor, halfLifeFor, profileWeightSum, computeSignals, compositeScore, bandFor, scoreRetention,
  scoreRetentionMany, reprieveScore, shouldReprieve,
  type RetentionInput, type RetentionScore, type Signals, type WeightProfile, type SignalName, type TriageAction,
  type RetentionBatch, type RetentionBatchWithSignals, type ReprieveInput, type RetentionPolicy,
  // graph
  PAGERANK_DAMPING, PAGERANK_MAX_ITERATIONS, PAGERANK_TOLERANCE, MIN_COMMUNITY_SIZE, LABEL_PROPAGATION_MAX_SWEEPS,
  pagerank, labelPropagation, bridgeCounts, Graph, buildGraph, type GraphEdge,
  // merge
  NEAR_DUPLICATE_THRESHOLD, MAX_MERGE_PAIRS, joinMergeText, negationDivergent, numericTokenDivergent,
  variantQualifierDivergent, mergeVetoReasons, mergeVetoed, mergeOutcomes, mergeCandidates, connectedComponents,
  excludeSelfSupersede, type MergePair, type MergeOutcome, type MergeDecision, type MergeStage, type MergeVetoReason,
  // frame
  frameKeyOf, frameKeysOf,
  // mmr
  applyMmr, applyMmrPacked, mmrReorders, type MmrCandidate,
  // neighbors
  float32View, topNeighborPairs, rankCandidatePairs, topNeighborPairsPacked, neighborTile, mergeNeighborTiles,
  cosineRows, topCosineRows, residentRows, type KeyedVector, type NeighborPair, type NeighborOptions,
  type NeighborTile, type ResidentRows,
} from "memdomain";
// The workers entry.
import { tileBounds, createNeighborPool, topNeighborPairsParallel, type NeighborPool } from "memdomain/workers";
import {
  openMemoryCache, ftsQuery, queryTerms, salienceOrder, sqliteWasmAdapter, betterSqlite3Adapter, nodeSqliteAdapter, d1Adapter, adapterFor,
  SCHEMA_VERSION, ARMS, DEFAULT_ARM_WEIGHTS, DEFAULT_LIMITS, MAX_QUERY_TERMS, WRITE_ATTEMPTS, LOG_GENERATIONS, LOG_MAX_PATHS, CacheChangedError, CacheBusyError,
  RETRY_BASE_MS, RETRY_MAX_MS, DEFAULT_BUSY_TIMEOUT, PRESETS, MAX_LIMIT, MAX_DEPTH, MAX_WINDOW, LATERAL_STEPS, GIST_WEIGHT, DEFAULT_SLEEP, MAX_PER_SOURCE_K,
  EDGE_ORIGINS, MAX_LABELS, RECENT_SEARCHES, FILTERS_KEPT, MAX_PATHS_PAGE, CACHE_OPTIONS, checkOption, type OptionRow, type MemoryFilter, type Calibration, type CachePolicy, type MemoryInput,
  type MemoryCache, type CacheAdapter, type SearchResult, type Hit, type ArmReport, type SearchArms, type StoredMemory,
  type StoredEdge, type SleepReport, type Progress, type ImportResult, type Explanation, type LostAt, type TuneResult,
  type SearchSettings, type PresetSettings,
} from "memdomain/cache";

// ---- loading (no DOM-only names here: this file also compiles as a Node project, lib ES2022 + @types/node)
const sources: InitInput[] = [new URL("https://example.com/memdomain.wasm"), "memdomain.wasm", new Uint8Array(8)];
const ready: Promise<unknown> = init();
const readyFrom = init(sources[0]);
const exportsSync = initSync(new Uint8Array(8));
const exportsSync2 = initSync({ module: new ArrayBuffer(8) });
const loaded: boolean = isInitialized();

// ---- cosine
const sim: number = cosine([1, 0], new Float32Array([0.5, 0.5]));
const dist: number = cosineDistance(new Float64Array(2), [1, 1]);
const total: number = compensatedSum(new Set([0.1, 0.2]));

// ---- ranking
const k: 60 = RRF_K;
const lambda: 0.5 = MMR_LAMBDA;
const cooldown: 900 = REINFORCE_COOLDOWN_S;
const contribution: Option.Option<number> = rrfContribution(1, 0.5);
const contributionValue: number = Option.getOrElse(contribution, () => 0);

// ---- rrf
const hits: ArmHit[] = [{ path: "a", rank: 1 }];
const score: number = rrfScore(1, 1, RRF_K);
const fused: ReadonlyMap<string, number> = fuseArms([hits, [{ path: "b", rank: 1 }]], [1, 0.5]);
const ranked: readonly { path: string; score: number }[] = rankFused(fuseLateral(fused, ["c"], 0.3));
// @ts-expect-error a hit needs a rank
fuseArms([[{ path: "a" }]], [1]);

// ---- reinforce
const signals: readonly ReinforceSignal[] = REINFORCE_SIGNALS;
const value: number = signalValue("positive");
// @ts-expect-error only the three signals
signalValue("maybe");
const bump: boolean = shouldBumpAccess(undefined, new Date(), 60);
const parts: { readonly bumped: readonly string[]; readonly cooledDown: readonly string[] } =
  partitionByCooldown([{ path: "a", lastAccessedAt: new Date(0) }, { path: "b" }], new Date());

// ---- decay
const grid: number[] = [SCALE, POS_ONE_FP, NEG_ONE_FP, toFp(DEFAULT_EWMA_ALPHA), fromFp(5000),
  ewmaStepFp(3000, 0, POS_ONE_FP), applyOutcomesFp(3000, 0, [POS_ONE_FP, NEG_ONE_FP]),
  applyNegativeHitsFp(3000, 0, 2), decayConfidenceFp(1000, 8000, 2000), decayConfidenceNFp(1000, 8000, 2000, 3)];
const conf: number = decayConfidence(0.9) + decayConfidence(0.9, DEFAULT_CONFIDENCE_DECAY_ALPHA, DEFAULT_CONFIDENCE_FLOOR) +
  decayConfidenceN(0.9, 4);
const commit: boolean = isCommittableConfidenceChange(0.5, 0.5 + CONFIDENCE_COMMIT_DELTA);

// ---- retention
const names: readonly SignalName[] = SIGNAL_NAMES;
const actions: readonly TriageAction[] = TRIAGE_ACTIONS;
const episodic: WeightProfile | undefined = WEIGHT_PROFILES["episodic"];
const halfLives: number | null | undefined = HALF_LIVES_DAYS["procedural"];
const retentionConstants: number[] = [DEFAULT_HALF_LIFE_DAYS, LN2, KEEP_THRESHOLD, EVICT_THRESHOLD, SCORE_PRECISION,
  REPRIEVE_FLOOR, REPRIEVE_DAYS, MAX_REPRIEVES, SALIENCE_DECAY_RATE, REPRIEVE_W_IMPORTANCE, REPRIEVE_W_ACCESS,
  REPRIEVE_W_OUTCOME, REPRIEVE_W_RECENCY];
const input: RetentionInput = { memoryType: "episodic", ageDays: 10, accessCount: 4, confidence: 0.9, graphRank: 0.02,
  maxGraphRank: 0.08, bridgeCount: 1, reinforcementCount: 2, wordCount: 120, contradictionCount: 0 };
const weights: WeightProfile = weightsFor("semantic");
const halfLife: number | null = halfLifeFor("task");
const weightSum: number = profileWeightSum(DEFAULT_WEIGHTS);
const sig: Signals = computeSignals(input);
const composite: number = compositeScore(sig, weights);
const band: "keep" | "compress" | "evict" = bandFor(composite);
const scored: RetentionScore = scoreRetention(input);
const recency: number = scored.signals.recency;
const columns = { memoryType: ["episodic"], ageDays: new Float64Array([10]), accessCount: [4], confidence: [0.9],
  graphRank: [0.02], maxGraphRank: [0.08], bridgeCount: [1], reinforcementCount: [2], wordCount: [120],
  contradictionCount: [0] };
const batch: RetentionBatch = scoreRetentionMany(columns);
const batchScores: Float64Array = batch.score;
const batchActions: Uint8Array = batch.action;
const withSignals: RetentionBatchWithSignals = scoreRetentionMany(columns, { signals: true });
const recencyColumn: Float64Array = withSignals.signals.recency;
const reprieve: ReprieveInput = { importance: 7, accessCount: 3, outcomeScore: -0.4, hoursSinceAccess: 48 };
const reprieved: boolean = shouldReprieve({ score: reprieveScore(reprieve), reprieveCount: 1 });
// @ts-expect-error a retention input needs every field
scoreRetention({ memoryType: "episodic" });
const policy: RetentionPolicy = { weights: { episodic: weights, note: DEFAULT_WEIGHTS }, halfLives: { note: 5, arc: null },
  defaultHalfLife: null, keepThreshold: 0.6, evictThreshold: 0.2 };
const tuned: RetentionScore = scoreRetention(input, policy);
const tunedBatch: RetentionBatchWithSignals = scoreRetentionMany(columns, { signals: true, policy });
const tunedScores: Float64Array = scoreRetentionMany(columns, { policy: {} }).score;
// @ts-expect-error a half-life is a number of days or null
scoreRetention(input, { halfLives: { arc: "5" } });

// ---- graph
const nodes = ["a", "b", "c"];
const edges: GraphEdge[] = [{ src: "a", dst: "b", strength: 1 }, { src: "b", dst: "c", strength: 0.5 }];
const graphConstants: number[] = [PAGERANK_DAMPING, PAGERANK_MAX_ITERATIONS, PAGERANK_TOLERANCE, MIN_COMMUNITY_SIZE,
  LABEL_PROPAGATION_MAX_SWEEPS];
const ranks: ReadonlyMap<string, number> = pagerank(nodes, edges, { damping: 0.85, seeds: new Map([["a", 1]]) });
const communities: ReadonlyMap<string, string | undefined> = labelPropagation(nodes, edges, { minCommunitySize: 2 });
const bridges: ReadonlyMap<string, number> = bridgeCounts(nodes, edges, communities);
const g: Graph = new Graph(nodes, edges);
const g2: Graph = Graph(nodes, edges);
const g3: Graph = buildGraph(nodes, edges);
const handleRuns: [readonly string[], number, number, boolean, ReadonlyMap<string, number>, Float64Array,
  ReadonlyMap<string, string | undefined>, ReadonlyMap<string, number>] = [g.nodes, g.nodeCount, g.edgeCount, g.freed,
  g.pagerank(), g.pagerankScores({ maxIterations: 10 }), g.labelPropagation({ maxSweeps: 5 }), g.bridgeCounts(communities)];
g.free();
g2.free();
g3.free();
// @ts-expect-error an edge needs a strength
pagerank(nodes, [{ src: "a", dst: "b" }]);

// ---- merge
const mergeConstants: number[] = [NEAR_DUPLICATE_THRESHOLD, MAX_MERGE_PAIRS];
const joined: string = joinMergeText({ gist: "claim", body: "article" });
const divergent: boolean[] = [negationDivergent("a", "not a"), numericTokenDivergent("v1", "v2"),
  variantQualifierDivergent("pro", "beta"), mergeVetoed({ gist: "a", body: "" }, { gist: "b", body: "" })];
const reasons: readonly MergeVetoReason[] = mergeVetoReasons({ gist: "a", body: "" }, { gist: "not a", body: "" });
const pairs: MergePair[] = [{ keepPath: "a", dropPath: "b", similarity: 0.95, keepText: { gist: "x", body: "" } }];
const outcomes: readonly MergeOutcome[] = mergeOutcomes(pairs, { maxPairs: 10, threshold: 0.92 });
const stage: MergeStage = outcomes[0]!.stage;
const decisions: readonly MergeDecision[] = mergeCandidates(pairs);
const components: readonly (readonly string[])[] = connectedComponents([["a", "b"], ["c", "d"]]);
const members: readonly string[] = excludeSelfSupersede("a", ["a", "b"]);

// ---- frame
const frame: string | null = frameKeyOf("The capital of France is Paris");
const frames: (string | null)[] = frameKeysOf(["The capital of France is Paris", "x"]);

// ---- mmr
type Doc = MmrCandidate & { readonly title: string };
const docs: Doc[] = [{ path: "a", score: 0.9, vector: [1, 0], title: "A" }, { path: "b", score: 0.8, title: "B" }];
const diverse: readonly Doc[] = applyMmr(docs, 2, 0.5);
const title: string = diverse[0]!.title;
const reorders: boolean = mmrReorders(0.5, docs.length);
const chosen: Uint32Array = applyMmrPacked([0.9, 0.8], new Float64Array([1, 0, 0, 1]), 1);

// ---- neighbors
const vectors: KeyedVector[] = [{ key: "a", vec: new Float32Array([1, 0]) }, { key: "b", vec: new Float32Array([0, 1]) }];
const nopts: NeighborOptions = { floor: 0.5, perSourceK: 5, limit: 10 };
const view: Float32Array | undefined = float32View(new Uint8Array(8));
const top: readonly NeighborPair[] = topNeighborPairs(vectors, nopts);
const rankedPairs: readonly NeighborPair[] = rankCandidatePairs([{ src: "a", dst: "b" }], vectors, nopts);
const matrix = new Float32Array([1, 0, 0, 1]);
const packedPairs: readonly NeighborPair[] = topNeighborPairsPacked(matrix, ["a", "b"], nopts);
const tile: NeighborTile = neighborTile(matrix, ["a", "b"], 0, 2, nopts);
const merged: readonly NeighborPair[] = mergeNeighborTiles(["a", "b"], [tile], nopts);
const rowSims: Float64Array = cosineRows(new Float32Array([1, 0]), matrix);
const best: { readonly indices: Uint32Array; readonly sims: Float64Array } = topCosineRows(new Float32Array([1, 0]), matrix, 1);
const rows: ResidentRows = residentRows(matrix, 2);
const resident: [number, number, Float64Array, Uint32Array] = [rows.n, rows.d, rows.cosineRows(new Float32Array([1, 0])),
  rows.topCosineRows(new Float32Array([1, 0]), 1).indices];
const residentPicked: Uint32Array = rows.applyMmr(new Uint32Array([0, 1]), [0.9, 0.8], 1);
const residentPairs: readonly NeighborPair[] = rows.rankCandidatePairs(["a", "b"], [{ src: "a", dst: "b" }], nopts);
// @ts-expect-error resident rows are named by a Uint32Array
rows.applyMmr([0, 1], [0.9, 0.8], 1);
// plain number[] embeddings, as the reference takes them
const plainPairs: readonly NeighborPair[] = topNeighborPairs([{ key: "a", vec: [1, 0] }, { key: "b", vec: [0.5, 0.5] }], nopts);
rows.free();
// @ts-expect-error the packed forms take a Float32Array
topNeighborPairsPacked([1, 0, 0, 1], ["a", "b"], nopts);

// ---- the workers entry (memdomain/workers)
const bounds: number[] = tileBounds(1000, 4);
const pool: Promise<NeighborPool> = createNeighborPool({ workers: 2 });
const pooled: Promise<readonly NeighborPair[]> = pool.then(async (p) => {
  const size: number = p.size;
  const r = await p.topNeighborPairs(matrix, ["a", "b"], nopts, { tiles: size });
  await p.topNeighborPairs(matrix, ["a", "b"], nopts, { rows: 1 });
  const busy: number[] = p.lastStats.busyMs, taken: number[] = p.lastStats.tilesPerWorker, tiles: number = p.lastStats.tiles;
  void [busy, taken, tiles];
  await p.topNeighborPairs(matrix, ["a", "b"], nopts);
  await p.close();
  return r;
});
const parallel: Promise<readonly NeighborPair[]> = topNeighborPairsParallel(matrix, ["a", "b"], nopts, { workers: 2, tiles: 2 });

// ---- the cache entry (memdomain/cache)
const cacheConstants: [number, readonly string[], number, number, number, number, number, number, number, number] = [SCHEMA_VERSION,
  ARMS, DEFAULT_ARM_WEIGHTS.salience, DEFAULT_LIMITS.body, MAX_QUERY_TERMS, WRITE_ATTEMPTS, DEFAULT_LIMITS.sleepEdges,
  DEFAULT_LIMITS.sleepRoom, LOG_GENERATIONS, LOG_MAX_PATHS];
const searchBounds: [number, number, number, number, "score" | "rrf", number] = [MAX_LIMIT, MAX_DEPTH, MAX_WINDOW,
  PRESETS.memhtml.k ?? 60, PRESETS.default.fusion, LATERAL_STEPS + GIST_WEIGHT + DEFAULT_SLEEP.perSourceK + MAX_PER_SOURCE_K];
const retries: [20, 1000, 5000] = [RETRY_BASE_MS, RETRY_MAX_MS, DEFAULT_BUSY_TIMEOUT];
// the option schema: a row, and a value checked against it in the cache's words
const limitRow: OptionRow = CACHE_OPTIONS.search.limit;
const checkedLimit: number = checkOption("search", "query.limit", limitRow, 20);
const checkedText = checkOption("meta", "name", { type: "string", max: 200 }, "x", undefined, { limits: DEFAULT_LIMITS, dim: null });
void [limitRow.lo, limitRow.hi, limitRow.integer, checkedLimit, checkedText];
const pinned: PresetSettings = PRESETS.default;
const cacheErrorCode = (e: unknown): string | null => (e instanceof CacheChangedError ? e.code : e instanceof CacheBusyError ? e.code : null);
const safe: string = ftsQuery("deploy \"rollback\" NEAR(x)");
const terms: string[] = queryTerms("Deploy the rollback");
const order: number = salienceOrder([3, null, 0], [2, 0.5, 1]);
const adapters: ((db: never) => CacheAdapter)[] = [sqliteWasmAdapter as never, betterSqlite3Adapter, nodeSqliteAdapter, d1Adapter, adapterFor as never];
const onFile: Promise<MemoryCache> = openMemoryCache({ path: "memories.db", driver: "node:sqlite" });
const cacheRun: Promise<SleepReport> = openMemoryCache({ path: ":memory:", dim: 2, onExternalChange: "error", busyTimeout: 100,
  limits: { sleepEdges: 1000, sleepRoom: 2 ** 31 } }).then(async (cache: MemoryCache) => {
  const put: { inserted: number; replaced: number } = await cache.put([{ path: "a", gist: "g", body: "b", type: "semantic",
    embedding: new Float32Array([1, 0]), createdAt: new Date(0) }], { onProgress: (p: Progress) => void p.done });
  await cache.link([{ src: "a", dst: "a", strength: 1 }]);
  const hits: SearchResult = await cache.search({ text: "g", vector: new Float32Array([1, 0]), weights: { lateral: 0 }, timings: true });
  const first: Hit | undefined = hits[0];
  const arm: ArmReport | null = first ? first.arms.lexical : null;
  const armLists: SearchArms = await cache.searchArms({ text: "g" });
  const settings: SearchSettings = { preset: "default", fusion: "rrf", k: 10, window: 20, duplicate: null, lambda: 0.8 };
  const why: Explanation = await cache.explain({ text: "g", ...settings }, ["a"]);
  const lost: LostAt | null = why.paths[0].lostAt;
  const fit: TuneResult = await cache.tune([{ text: "g", relevant: ["a"] }, { text: "b", relevant: { a: 2 } }], { seed: 1, folds: 2 });
  const fitted: number = fit.heldOut.tuned - fit.heldOut.baseline + fit.search.weights.vector;
  void [lost, fitted, why.trace.window.length, pinned];
  const stored: StoredMemory[] = await cache.get(["a"]);
  const edges: StoredEdge[] = await cache.edges();
  const reinforced = await cache.reinforce(["a"], { now: 1, signal: "positive" });
  const report: SleepReport = await cache.sleep({ now: Date.now(), floor: 0.9, merge: { maxPairs: 10 } });
  // the retention policy, the archive, calibration (issues 39, 40)
  const policy: CachePolicy = { evict: true, minAgeDays: 7, keepThreshold: 0.8, reprieve: { maxReprieves: 2 }, purgeAfterDays: null };
  const archiving: SleepReport = await cache.sleep({ now: Date.now(), policy, calibrate: { seed: 2 } });
  const kept: CachePolicy = await cache.policy();
  const gone: StoredMemory[] = await cache.archived();
  const back: { restored: number } = await cache.restore(gone.map((m) => m.path), { now: 1 });
  const byHand: { archived: number } = await cache.archive(["a"], { now: 2 });
  const purged: { purged: number } = await cache.purge({ before: new Date(0) });
  const cal: Calibration = await cache.calibrate({ seed: 1, samples: 100 });
  const calStored: Calibration | null = await cache.calibration();
  const typedMemory: MemoryInput = { path: "t", gist: "g", body: "", type: "procedural", createdAt: 0, tags: ["x"], metadata: { n: 1, ok: true },
    importance: 7, decayedAt: 0, updatedAt: 0 };
  // @ts-expect-error a typo of a memory field
  const typo: MemoryInput = { path: "t", gist: "g", body: "", type: "semantic", createdAt: 0, embeding: [1, 0] };
  const filter: MemoryFilter = { type: { in: ["semantic", "task"] }, tags: { any: ["a"] }, metadata: { team: "infra", n: { gte: 2 }, ok: true },
    createdAt: { gte: new Date(0) }, or: [{ path: { prefix: "ops/" } }, { not: { tags: "x" } }] };
  const page = await cache.search({ text: "g", filter, offset: 10, limit: 10 });
  const listed: { paths: string[]; next: string | null } = await cache.paths({ prefix: "ops/", filter, limit: 100, after: "ops/0", which: "all" });
  const gone2: { deleted: number } = await cache.delete({ prefix: "tmp/" });
  const live: number = await cache.count({ live: true });
  void [page.length, listed.next, gone2.deleted, live, FILTERS_KEPT, MAX_PATHS_PAGE];
  void [byHand.archived, archiving.archived, archiving.conflicts, kept.minAgeDays, back.restored, purged.purged, cal.vector, calStored, typedMemory, typo,
    EDGE_ORIGINS, MAX_LABELS, RECENT_SEARCHES, report.calibration.ran, (await cache.search({ text: "g", now: 0, calibrated: false })).length];
  const sleepPool: NeighborPool = await createNeighborPool({ workers: 2 });
  await cache.sleep({ now: Date.now(), workers: sleepPool });
  // @ts-expect-error workers is a pool, not a count
  await cache.sleep({ now: Date.now(), workers: 2 });
  await sleepPool.close();
  const lines: string = await cache.exportJsonl();
  const bytes: Uint8Array = await cache.exportBytes();
  const imported: ImportResult = await cache.importJsonl(lines);
  void [put, arm, armLists, stored, edges, reinforced, lines, bytes, hits.timings?.total, imported.edges,
    await cache.all(), await cache.delete(["a"]), await cache.count(), cache.dim, cache.backend];
  await cache.close();
  return report;
});

// The namespace import has every export too.
const viaNamespace: typeof cosine = md.cosine;

export const used = [ready, readyFrom, exportsSync, exportsSync2, loaded, sim, dist, total, k, lambda, cooldown,
  contributionValue, score, ranked, signals, value, bump, parts, grid, conf, commit, viaNamespace,
  names, actions, episodic, halfLives, retentionConstants, halfLife, weightSum, band, recency, batchScores, batchActions,
  recencyColumn, reprieved, graphConstants, ranks, bridges, handleRuns, mergeConstants, joined, divergent, reasons,
  stage, decisions, components, members, frame, frames, title, chosen, view, top, rankedPairs, packedPairs, merged,
  rowSims, best, resident, bounds, pooled, parallel, cacheConstants, searchBounds, safe, terms, order, adapters, onFile, cacheRun, cacheErrorCode, retries];

// Issue 12 item 8: memoryType offers the six types and still takes any string;
// an MmrCandidate's vector may be a Float32Array.
import type { MemoryType } from "memdomain";
const typed: MemoryType = "episodic";
const other: MemoryType = "agent_insight" as string;
weightsFor(typed); halfLifeFor(other);
const f32Candidate: MmrCandidate = { path: "f", score: 1, vector: new Float32Array([1, 0]) };
applyMmr([f32Candidate], 1);

// memdomain/cache on a Durable Object (issue 29): the storage option, the budget, the alarm.
import {
  durableObjectAdapter, DURABLE_OBJECT_RESIDENT_BYTES, residentEstimate,
  type DurableObjectStorageLike, type AlarmResult, type ResidentBytes, type SleepSchedule, type LexicalStats,
} from "memdomain/cache";

// memdomain's resident lexical index (issue 44): documents put with their terms' hits, an exact bm25 top-k.
export function lexical(): number {
  const ix: md.LexicalIndex = md.lexicalIndex([{ doc: 1, key: "a", len: 2, terms: new Uint32Array([0]), gist: new Uint32Array([1]), body: new Uint32Array([1]) }]);
  ix.put(2, "b", 1, new Uint32Array([0]), new Uint32Array([0]), new Uint32Array([1]));
  const top: md.LexicalTop = ix.top(new Uint32Array([0]), 2, { gistWeight: 2 });
  const n: number = ix.count + ix.df(0) + ix.bytes() + top.scored + top.docs.length + top.scores.length + md.LEXICAL_INDEX_MAX_ID;
  const gone: boolean = ix.delete(2);
  ix.free();
  return gone ? n : -n;
}
export async function durableObject(storage: DurableObjectStorageLike): Promise<AlarmResult> {
  const adapter: CacheAdapter = durableObjectAdapter(storage);
  const cache: MemoryCache = await openMemoryCache({ storage, maxResidentBytes: DURABLE_OBJECT_RESIDENT_BYTES / 2 });
  const held: ResidentBytes = await cache.residentBytes();
  const budget: number = residentEstimate({ live: held.live, vectors: held.vectors, dim: held.dim, text: held.text,
    lexicalIndexMin: held.lexicalIndexMin });
  const schedule: SleepSchedule = { at: new Date(0), every: 86_400_000, floor: 0.7, evict: true };
  const set: { at: number; every: number | null } = await cache.scheduleSleep(schedule);
  const lexical: LexicalStats = (await openMemoryCache({ db: storage, maxResidentBytes: null, lexicalIndexMin: null })).lexicalStats();
  const used: boolean = lexical.indexed && !lexical.unavailable && lexical.answered + lexical.fellBack >= 0 && lexical.bytes >= 0;
  void [adapter, budget, set.at, used, lexical.min];
  return cache.onAlarm({ now: Date.now() });
}

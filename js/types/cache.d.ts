// memdomain/cache: a local memory cache on SQLite with memdomain's hybrid retrieval and sleep pass.
import type { RetentionPolicy } from "./retention.js";

/** The async database interface every backend is wrapped in (D1 fits it: batch() is atomic). */
export interface CacheAdapter {
  readonly kind?: string;
  /** Rows as plain objects; BLOBs as Uint8Array. */
  all(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** A query of numeric columns, one Float64Array per column (optional; all() is used otherwise). */
  numbers?(sql: string, params?: readonly unknown[]): Promise<Float64Array[]>;
  /** Run the statements atomically: all or nothing (where the backend has locks, taking the write lock first). */
  batch(statements: readonly { readonly sql: string; readonly params?: readonly unknown[] }[]): Promise<void>;
  /**
   * PRAGMA data_version: a number that moves when another connection commits (optional;
   * it lets the cache see writers that are not memdomain caches; D1 has none).
   */
  dataVersion?(): Promise<number | null>;
  /** Set PRAGMA busy_timeout (ms) when given; resolve the timeout in force (optional). */
  busyTimeout?(ms?: number): Promise<number | null>;
  /**
   * Run `body` holding the write lock (BEGIN IMMEDIATE ... COMMIT), its batches nested in that transaction
   * (optional; the file adapters openMemoryCache makes for a path have it: a write that lost the race to
   * other writers WRITE_ATTEMPTS - 1 times takes it).
   */
  exclusive?<T>(body: () => Promise<T>): Promise<T>;
  /** The database file as bytes (optional). */
  exportBytes?(): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A Cloudflare D1 binding, structurally (what the cache uses of it). */
export interface D1Like {
  prepare(sql: string): { bind(...values: unknown[]): unknown; all(): Promise<{ results: Record<string, unknown>[] }> };
  batch(statements: unknown[]): Promise<unknown>;
}

/** A SQLite-backed Durable Object's storage (ctx.storage), structurally (what the cache uses of it). */
export interface DurableObjectStorageLike {
  readonly sql: { exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[]; raw(): Iterable<unknown[]> } };
  transactionSync<T>(fn: () => T): T;
  getAlarm(): Promise<number | null>;
  setAlarm(at: number | Date): Promise<void>;
}

export interface CacheLimits {
  /** The longest path, in UTF-16 code units (default 1,024). */
  readonly path?: number;
  /** The longest memory type (default 64). */
  readonly type?: number;
  /** The longest gist (default 4,096). */
  readonly gist?: number;
  /** The longest body (default 1,000,000). */
  readonly body?: number;
  /** The longest query text (default 4,096). */
  readonly query?: number;
  /** The most memories in one put() (default 1,000,000). */
  readonly batch?: number;
  /** sleep(): perSourceK x the memories with embeddings may not exceed this (default 1,000,000; about 30 µs per edge written). */
  readonly sleepEdges?: number;
  /**
   * sleep(): the WebAssembly bytes its neighbour pass counts on for itself and the search's resident rows
   * together (about 19 bytes per embedding element); past it the pass frees the rows first and the next
   * search builds them again (default 3 GiB; wasm32 has 4: at 1M x 384 the two would need about 6.3).
   */
  readonly sleepRoom?: number;
  /** The most tags on a memory (default 64), and the longest tag or metadata key (default 256). */
  readonly tags?: number;
  readonly tag?: number;
  /** The most metadata keys on a memory (default 64), and the longest metadata string value (default 4,096). */
  readonly metadataKeys?: number;
  readonly metadataValue?: number;
}

export interface OpenOptions {
  /** ":memory:" (default), a file path (Node and Deno: node:sqlite, or better-sqlite3), or an OPFS file name (browsers, in a dedicated Worker). */
  readonly path?: string;
  /** How a file path opens in Node and Deno: "node:sqlite" (the default where the runtime has it: Node >= 22.5, Deno >= 2.2) or "better-sqlite3". */
  readonly driver?: "node:sqlite" | "better-sqlite3";
  /** A database handle: a CacheAdapter, a D1 binding, a better-sqlite3 Database or a sqlite-wasm oo1 DB. */
  readonly db?: CacheAdapter | D1Like | object;
  /** Open a copy of a database file (exportBytes() output) in memory, or import it into the OPFS path. */
  readonly bytes?: Uint8Array | ArrayBuffer;
  /** The embedding dimension; otherwise the first embedding stored fixes it. */
  readonly dim?: number | null;
  /** An initialized @sqlite.org/sqlite-wasm module (or a function returning a promise of one). */
  readonly sqlite3?: unknown;
  /** What memdomain's init() accepts, used when memdomain is not initialized yet. */
  readonly wasm?: unknown;
  /** The opfs-sahpool VFS name (default "memdomain"). */
  readonly vfs?: string;
  readonly limits?: CacheLimits;
  /**
   * When another writer changed the database (another cache, another process, raw SQL on a
   * connection with PRAGMA data_version): "resync" (default) reloads what the cache keeps in
   * memory before the next operation that uses it; "error" rejects that operation, and every
   * later one, with a CacheChangedError. See docs/CACHE-CONSISTENCY.md.
   */
  readonly onExternalChange?: "resync" | "error";
  /**
   * How long (ms) to wait for another connection's lock before a call rejects with a
   * CacheBusyError (PRAGMA busy_timeout, set before the open's first read; D1 has no locks).
   * Default: DEFAULT_BUSY_TIMEOUT (5000) for a file the cache opens, on node:sqlite (whose own is
   * 0) as on better-sqlite3; the connection's own for a `db` handle. On OPFS: how long a second tab
   * waits for the tab whose Worker holds the pool.
   */
  readonly busyTimeout?: number | null;
  /** A SQLite-backed Durable Object's ctx.storage: the cache on the object's own database (also accepted as `db`). */
  readonly storage?: DurableObjectStorageLike;
  /**
   * Refuse (a RangeError naming this option) a put, import, open or sleep that would take the cache's
   * estimated peak memory (residentEstimate) past this many bytes. Default: DURABLE_OBJECT_RESIDENT_BYTES
   * on a Durable Object's storage, null (no budget) elsewhere.
   */
  readonly maxResidentBytes?: number | null;
  /**
   * The embedding hook: put() embeds a memory given without an `embedding` (undefined; null stores
   * none) as a "document", and search(), explain() and tune() embed a query given with text and no
   * `vector` as a "query"; calibrate() embeds its pseudo-queries with it. Called with at most
   * `embedBatch` texts at a time; every vector is checked like a given one (the cache's dimension,
   * finite). A query vector of zeros means the model knows none of its words: no vector arm.
   */
  readonly embed?: EmbedFunction | null;
  /** The most texts per embed() call (default 64). */
  readonly embedBatch?: number;
  /** Count the memories searches return as access for the retention scorer (default true; written by the next sleep pass). */
  readonly searchAccess?: boolean;
  /**
   * Live memories from which unfiltered searches' lexical arm answers from a resident index (a
   * block-max bm25 index in wasm memory, built from FTS5 at the first such search and kept by each
   * write) instead of lists read from FTS5: the same paths and scores bit for bit, where the backend
   * has ln() and TEMP tables (else the lists answer; lexicalStats() says which). Default 20,000;
   * 0: from the first memory; null: never. The memory budget counts its bytes from here.
   */
  readonly lexicalIndexMin?: number | null;
}

/** The embedding hook: one vector per text, in order (or a promise of them). */
export type EmbedFunction = (texts: string[], options: { readonly kind: "document" | "query" }) =>
  ArrayLike<Float32Array | Float64Array | readonly number[]> | Promise<ArrayLike<Float32Array | Float64Array | readonly number[]>>;

/** What calibrate() measured and chose (see docs/CACHE.md, "Calibration"). */
export interface Calibration {
  readonly version: number;
  /** The default composition's vector weight search() uses, or null when the vector arm could not be measured (then the preset's). */
  readonly vector: number | null;
  /** What it came from ("pseudo-queries", "labels", "pseudo-queries and labels") or why there is none. */
  readonly reason: string;
  /** Pseudo-queries (one per sampled memory) and labels (positive reinforcements of searched paths) it scored. */
  readonly queries: number;
  readonly labels: number;
  /** Live memories when it ran. */
  readonly memories: number;
  readonly seed: number;
  readonly samples: number;
  /** Each vector weight of the grid: mean reciprocal rank, nDCG (one relevant memory) and recall of the memory in the top 10. */
  readonly table: readonly { readonly vector: number; readonly mrr: number; readonly ndcg: number; readonly r10: number }[];
  /** Each arm alone, the same measures. */
  readonly arms: { readonly lexical: CalibrationMeasure; readonly vector: CalibrationMeasure } | null;
  /** The weights within one standard error of the best; the smallest is chosen (at most the preset's 0.5 without labels). */
  readonly plateau: readonly number[] | null;
  readonly labelsSeen?: number;
  readonly embedHook?: boolean;
}

export interface CalibrationMeasure {
  readonly mrr: number;
  readonly ndcg: number;
  readonly r10: number;
}

export interface CalibrateOptions {
  /** Seeds which memories give pseudo-queries and their windows (default 1). */
  readonly seed?: number;
  /** Memories sampled, one pseudo-query each (default 1000). */
  readonly samples?: number;
  readonly onProgress?: (p: Progress) => void;
}

/** What scheduleSleep stores: when, how often, and sleep()'s options but now and onProgress. */
export interface SleepSchedule extends Pick<SleepOptions, "floor" | "perSourceK" | "cycleMs" | "evict" | "confidence" | "merge"> {
  /** The first pass. */
  readonly at: Time;
  /** Ms between passes (at least 1000); omitted or null: one pass. */
  readonly every?: number | null;
}

export interface AlarmResult {
  /** Whether a pass ran (false: nothing was due; the alarm is set for the next one, if any). */
  readonly ran: boolean;
  /** The pass's time (its scheduled time, which it ran as `now`), or null. */
  readonly at: number | null;
  readonly report: SleepReport | null;
  /** The next scheduled pass, or null. */
  readonly next: number | null;
}

export interface ResidentBytes {
  readonly live: number;
  readonly vectors: number;
  readonly dim: number | null;
  /** Bytes of gist and body (UTF-8). */
  readonly text: number;
  /** The estimated peak memory in bytes (a sleep pass). */
  readonly estimate: number;
  /** options.maxResidentBytes, or null. */
  readonly max: number | null;
  /** options.lexicalIndexMin (the estimate counts the lexical index from there), or null. */
  readonly lexicalIndexMin: number | null;
}

/** cache.lexicalStats(): whether the lexical arm's resident index answers (options.lexicalIndexMin). */
export interface LexicalStats {
  /** options.lexicalIndexMin, or null: never. */
  readonly min: number | null;
  /** The index is built now. */
  readonly indexed: boolean;
  /** Its bytes in wasm memory now (0 when not built). */
  readonly bytes: number;
  /** The backend lacks what the index needs (ln(), TEMP tables, FTS5's docsize), or its check against FTS5's bm25 failed: the kept lists answer. */
  readonly unavailable: boolean;
  /** Unfiltered searches past `min` the index answered since open. */
  readonly answered: number;
  /** Unfiltered searches past `min` the lists answered instead. */
  readonly fellBack: number;
}

/** A time: a Date or milliseconds since the epoch. */
export type Time = Date | number;

/** The memory types the design's retention tables name; any other string is a type too (it takes the default profile). */
export type MemoryType = import("./retention.js").MemoryType;

/** A metadata value: flat (a string, a finite number or a boolean). */
export type MetadataValue = string | number | boolean;

/**
 * What put() takes. Any other key is a RangeError naming it and the closest field ("embeding":
 * did you mean embedding?), as unknown options are.
 */
export interface MemoryInput {
  readonly path: string;
  readonly gist: string;
  readonly body: string;
  readonly type: MemoryType;
  /** The memory's vector; left out (undefined) with options.embed: the hook embeds gist and body; null: no vector. */
  readonly embedding?: Float32Array | Float64Array | readonly number[] | null;
  readonly createdAt: Time;
  /** When it was last written (default createdAt). */
  readonly updatedAt?: Time | null;
  readonly accessedAt?: Time | null;
  readonly accessCount?: number;
  readonly confidence?: number;
  readonly outcomeScore?: number | null;
  readonly reinforcementCount?: number;
  readonly contradictionCount?: number;
  /** 1 to 10: the reprieve gate's importance (null: the policy's reprieve.importance, 5). */
  readonly importance?: number | null;
  /** Distinct non-empty strings (limits.tags of limits.tag characters at most). */
  readonly tags?: readonly string[];
  /** A flat object of strings, finite numbers and booleans (a null value leaves the key out). */
  readonly metadata?: { readonly [key: string]: MetadataValue | null };
  /** When its confidence was last decayed: decay counts whole cycles from it (default: from the first pass that sees it). */
  readonly decayedAt?: Time | null;
}

export interface StoredMemory {
  readonly path: string;
  readonly gist: string;
  readonly body: string;
  readonly type: string;
  readonly embedding: Float32Array | null;
  readonly createdAt: number;
  readonly accessedAt: number | null;
  readonly accessCount: number;
  readonly confidence: number;
  readonly outcomeScore: number | null;
  readonly reinforcementCount: number;
  readonly contradictionCount: number;
  readonly updatedAt: number;
  readonly importance: number | null;
  readonly tags: readonly string[];
  readonly metadata: { readonly [key: string]: MetadataValue };
  /** The confidence-decay watermark: whole cycles are counted from here. */
  readonly decayedAt: number;
  /** When a sleep pass first saw it (null: none yet): the policy's minAgeDays counts from here. */
  readonly seenAt: number | null;
  /** Searches that returned it (one per REINFORCE_COOLDOWN_S), counted by sleep passes, and the last. */
  readonly hitCount: number;
  readonly hitAt: number | null;
  /** Times the reprieve gate kept it, and until when. */
  readonly reprieveCount: number;
  readonly validUntil: number | null;
  /** When sleep archived it (null: not archived), and why ("evict"; "manual" for an imported archived memory). */
  readonly archivedAt: number | null;
  readonly archiveReason: "evict" | "manual" | null;
  readonly pagerank: number | null;
  readonly community: string | null;
  readonly bridgeCount: number | null;
  readonly retentionScore: number | null;
  readonly band: "keep" | "compress" | "evict" | null;
  /** The memory that superseded it: a merge's keeper, or a newer contradicting claim (edges say which). */
  readonly supersededBy: string | null;
}

/**
 * sleep()'s retention policy: the core's RetentionPolicy (the scorer's weights, half-lives and band
 * thresholds) and what the cache does with a band. sleep({ policy }) stores it; policy() reads it.
 */
export interface CachePolicy extends RetentionPolicy {
  /** Archive the evict band (default false: report it only). sleep({ evict }) overrides it for one pass. */
  readonly evict?: boolean;
  /** No memory is archived before it has been in the cache this many days, from the first pass that saw it (default 30). */
  readonly minAgeDays?: number;
  /** Of the evict band, archive only memories scoring at or below this (default 0.2; null: the whole band). */
  readonly archiveBelow?: number | null;
  /** The design's reprieve gate: REPRIEVE_FLOOR, MAX_REPRIEVES, REPRIEVE_DAYS, SALIENCE_DECAY_RATE, and the importance of a memory without one (5). */
  readonly reprieve?: { readonly floor?: number; readonly maxReprieves?: number; readonly days?: number; readonly decayRate?: number; readonly importance?: number };
  /** Delete archived memories this many days after they were archived (default null: never; purge() deletes on request). */
  readonly purgeAfterDays?: number | null;
}

export interface Progress {
  readonly phase: string;
  readonly done: number;
  readonly total: number;
}

/** What importJsonl() resolves. */
export interface ImportResult {
  readonly inserted: number;
  readonly replaced: number;
  /** Edge lines written. */
  readonly edges: number;
}

export interface PutOptions {
  readonly onConflict?: "replace" | "error";
  readonly onProgress?: (p: Progress) => void;
}

export interface Link {
  readonly src: string;
  readonly dst: string;
  readonly strength: number;
  readonly type?: string;
}

export interface StoredEdge {
  readonly src: string;
  readonly dst: string;
  readonly type: string;
  readonly strength: number;
  /** link(), sleep's similarity edges, its merges ("supersedes"), its contradictions ("contradicts"). */
  readonly origin: "link" | "sleep" | "merge" | "conflict";
}

export type ArmName = "lexical" | "vector" | "salience" | "lateral";

export type PresetName = "default" | "memhtml";

/** The settings a composition reads (every field of a SearchQuery but text, vector and timings). */
export interface SearchSettings {
  /** "default" (measured; see docs/RELEVANCE.md) or "memhtml" (the composition memhtml's retrieval writes). */
  readonly preset?: PresetName;
  readonly limit?: number;
  /** Default composition only: "score" (each arm's score on [0, 1] times its weight, the default) or "rrf" (weight / (rank + k)). */
  readonly fusion?: "score" | "rrf";
  /** Weight per arm (an arm with weight 0 is off). */
  readonly weights?: { readonly [K in ArmName]?: number };
  /** Reciprocal-rank fusion's k: weight / (rank + k) (fusion "rrf" and preset "memhtml" only). */
  readonly k?: number;
  /** How many hits each arm lists. */
  readonly depth?: number;
  /** MMR's lambda: 1 is pure relevance, 0 pure diversity (relevance on [0, 1] in the default composition). */
  readonly lambda?: number;
  /** How many of the fused top hits seed the lateral arm's personalized PageRank. */
  readonly seeds?: number;
  /** Default composition only: how many of the best fused candidates MMR reorders (at least limit; at most 1000). */
  readonly window?: number;
  /** Default composition only: a hit whose cosine to a hit above it exceeds this is skipped (null: never). */
  readonly duplicate?: number | null;
  /** Default composition only: take the vector weight from the cache's calibration when the query gives none (default true). */
  readonly calibrated?: boolean;
}

export interface SearchQuery extends SearchSettings {
  readonly text?: string | null;
  readonly vector?: Float32Array | Float64Array | readonly number[] | null;
  /** Attach per-stage times (ms) as a non-enumerable `timings` property of the result. */
  readonly timings?: boolean;
  /** The search's time for the access it records (default Date.now()). */
  readonly now?: Time;
  /** Only memories the filter admits: every arm ranks among them before its top-k. */
  readonly filter?: MemoryFilter | null;
  /** Skip this many hits of the ranking (a page: offset + limit at most MAX_LIMIT). */
  readonly offset?: number;
}

/** A value a metadata filter compares: a string, a finite number, a boolean (compared with values of the same type only). */
export type FilterValue = string | number | boolean;
export interface RangeFilter<T> { readonly gt?: T; readonly gte?: T; readonly lt?: T; readonly lte?: T }

/** A metadata filter (docs/CACHE.md, "Filters"): every field given must hold. */
export interface MemoryFilter {
  readonly path?: string | { readonly eq?: string; readonly in?: readonly string[]; readonly prefix?: string };
  readonly type?: MemoryType | { readonly eq?: MemoryType; readonly ne?: MemoryType; readonly in?: readonly MemoryType[]; readonly nin?: readonly MemoryType[] };
  /** A tag the memory holds, or all / any / none of these. */
  readonly tags?: string | { readonly all?: readonly string[]; readonly any?: readonly string[]; readonly none?: readonly string[] };
  readonly createdAt?: RangeFilter<Time>;
  readonly updatedAt?: RangeFilter<Time>;
  readonly accessedAt?: RangeFilter<Time>;
  /** key: a value (equal), or conditions (ne and nin admit memories without the key; exists tells whether it is there). */
  readonly metadata?: { readonly [key: string]: FilterValue | (RangeFilter<FilterValue> & {
    readonly eq?: FilterValue; readonly ne?: FilterValue; readonly in?: readonly FilterValue[]; readonly nin?: readonly FilterValue[]; readonly exists?: boolean;
  }) };
  readonly and?: readonly MemoryFilter[];
  readonly or?: readonly MemoryFilter[];
  readonly not?: MemoryFilter;
}

/** A composition's settings, every field present. */
export interface PresetSettings {
  readonly fusion: "score" | "rrf";
  readonly weights: { readonly [K in ArmName]: number };
  readonly k?: number;
  readonly depth: number;
  readonly lambda: number;
  readonly seeds: number;
  readonly window?: number;
  readonly duplicate?: number | null;
}

/** The step that lost a path in explain(): null when it was returned. */
export type LostAt = "absent" | "superseded" | "archived" | "arms" | "fusion" | "limit" | "mmr" | "duplicate";

export interface ExplainedPath {
  readonly path: string;
  /** Its rank in the hits, or null. */
  readonly rank: number | null;
  readonly arms: { readonly [K in ArmName]: ArmReport | null };
  /** Whether it seeded the lateral arm. */
  readonly seed: boolean;
  readonly fused: { readonly rank: number; readonly score: number } | null;
  /** Its place in MMR's order of the window, or null. */
  readonly mmr: number | null;
  readonly duplicateOf: string | null;
  readonly lostAt: LostAt | null;
  /** What superseded it (a merge's keeper or a newer claim), and the newer claim when it was a contradiction. */
  readonly supersededBy: string | null;
  readonly conflict: { readonly with: string } | null;
}

/** An arm's hit in a trace: its rank in the arm and, for fusion "score", its score in the arm on [0, 1]. */
export interface ArmHit {
  readonly path: string;
  readonly rank: number;
  readonly score?: number;
}

/** The whole search pipeline for one query. */
export interface SearchTrace {
  /** The resolved settings (every default filled in). */
  readonly settings: Required<Omit<SearchSettings, "k" | "window" | "duplicate">> & Pick<SearchSettings, "k" | "window" | "duplicate">;
  readonly arms: { readonly [K in ArmName]: readonly ArmHit[] };
  readonly seeds: readonly { readonly path: string; readonly score: number }[];
  /** How many memories fusion ranked. */
  readonly candidates: number;
  /** The best fused candidates MMR saw: fused score and the relevance MMR weighed. */
  readonly window: readonly { readonly path: string; readonly score: number; readonly relevance: number }[];
  /** MMR's order of the window (paths). */
  readonly order: readonly string[];
  /** Path -> the hit above it that it duplicates (skipped). */
  readonly duplicates: { readonly [path: string]: string };
  /** The calibration the default vector weight came from (null: never calibrated). */
  readonly calibration: Calibration | null;
}

export interface Explanation {
  readonly hits: SearchResult;
  readonly paths: readonly ExplainedPath[];
  readonly trace: SearchTrace;
}

export interface LabelledQuery {
  readonly text?: string | null;
  readonly vector?: Float32Array | Float64Array | readonly number[] | null;
  /** The relevant memories: paths (grade 1), or path -> grade (> 0; 0 means not relevant). */
  readonly relevant: readonly string[] | { readonly [path: string]: number };
  readonly id?: string;
}

export interface TuneOptions {
  /** Seeds the fold assignment (default 1): the same seed, labels and data give the same answer. */
  readonly seed?: number;
  /** Cross-validation folds (default 10, at most the number of queries). */
  readonly folds?: number;
  /** The nDCG cutoff and the search limit (default 10). */
  readonly limit?: number;
  /** Every labelled query searched within this filter's memories, as search({ filter }) does. */
  readonly filter?: MemoryFilter | null;
  /** Settings to start from and to beat (default: search()'s own, the defaults with the cache's calibration). */
  readonly baseline?: SearchSettings;
  readonly onProgress?: (p: Progress) => void;
}

/** Settings tune() returns, as search() takes them (k only with fusion "rrf"). */
export interface TunedSettings extends PresetSettings {
  readonly preset: "default";
  readonly k?: number;
  readonly window: number;
  readonly duplicate: number | null;
}

export interface TuneResult {
  /** What to pass to search(): the fitted settings when they beat the baseline held out, else the baseline. */
  readonly search: TunedSettings;
  readonly chose: "tuned" | "baseline";
  /** The settings fitted on every labelled query (returned in `search` only when chose is "tuned"). */
  readonly fitted: TunedSettings;
  /** Mean nDCG@limit of each query under settings fitted without it, and the baseline's, on the same queries. */
  readonly heldOut: {
    readonly tuned: number; readonly baseline: number; readonly difference: number; readonly standardError: number;
    readonly folds: number; readonly queries: number;
  };
  /** The baseline's settings. */
  readonly baseline: TunedSettings;
  /** The held-out gain in mean nDCG@limit the returned settings are expected to bring (0 for the baseline), and its standard error. */
  readonly expected: { readonly gain: number; readonly standardError: number };
  /** Mean nDCG@limit of `search` over every labelled query. */
  readonly train: number;
  /** Labels naming no live memory (a typo scores 0 whatever the settings). */
  readonly warnings: readonly { readonly at: string; readonly path: string; readonly reason: string }[];
  readonly evaluations: number;
}

export interface ArmReport {
  readonly rank: number;
  readonly contribution: number;
}

export interface Hit {
  readonly path: string;
  readonly score: number;
  readonly arms: { readonly [K in ArmName]: ArmReport | null };
}

export interface SearchTimings {
  readonly lexical: number;
  readonly vector: number;
  readonly salience: number;
  readonly lateral: number;
  readonly fuse: number;
  readonly mmr: number;
  readonly total: number;
}

export type SearchResult = readonly Hit[] & { readonly timings?: SearchTimings };

export interface SearchArms {
  readonly lexical: readonly string[];
  readonly vector: readonly string[];
  readonly salience: readonly string[];
  readonly lateral: readonly string[];
  readonly seeds: readonly { readonly path: string; readonly score: number }[];
}

export interface SleepOptions {
  readonly now: Time;
  /** Neighbour pairs at or above this cosine become typed edges (default 0.8). */
  readonly floor?: number;
  /** Neighbours kept per memory, 1 to 100 (default 5); perSourceK x memories with embeddings <= limits.sleepEdges. */
  readonly perSourceK?: number;
  /** One sleep cycle in ms (default one day): decay counts whole cycles; merges run once per cycle. */
  readonly cycleMs?: number;
  /**
   * Delete the evict band (default false: only report it). At most once per cycle; what the
   * pass stores is then computed over the survivors, so a second pass at the same now writes nothing.
   */
  readonly evict?: boolean;
  /**
   * Recompute neighbour lists only for the memories changed since the last pass (default true;
   * the same result as a full pass, bit for bit). false: a full pass, e.g. after embeddings were
   * rewritten by SQL outside any memdomain cache.
   */
  readonly incremental?: boolean;
  /**
   * A pool from memdomain/workers' createNeighborPool: the neighbour pairs (the full pass, or the
   * changed memories' tile of an incremental one) are computed split over its workers, with the
   * same answer. The pool stays open (close it when done).
   */
  readonly workers?: import("./workers.js").NeighborPool;
  readonly confidence?: { readonly alpha?: number; readonly floor?: number };
  readonly merge?: { readonly threshold?: number; readonly maxPairs?: number };
  /** The retention policy (stored with the cache; null: back to the defaults); omitted: the stored one. */
  readonly policy?: CachePolicy | null;
  /** Calibrate after the pass: when the calibration is stale (default), always (true, or calibrate()'s options), or never (false). */
  readonly calibrate?: boolean | CalibrateOptions;
  readonly onProgress?: (p: Progress) => void;
}

export type MergeStageName = "committed" | "cap" | "threshold" | "vetoed" | "self" | "role-guard";

export interface SleepReport {
  readonly now: number;
  readonly memories: number;
  readonly bands: { readonly keep: number; readonly compress: number; readonly evict: number };
  /** The evict band (the scorer's decision), whether or not the pass archives. */
  readonly evict: readonly string[];
  /** How many the pass archived, and which. */
  readonly evicted: number;
  readonly archived: readonly string[];
  /** Memories of the band the reprieve gate kept. */
  readonly reprieved: readonly { readonly path: string; readonly reprieveCount: number; readonly validUntil: number; readonly score: number }[];
  /** Archived memories deleted by the policy's purgeAfterDays. */
  readonly purged: number;
  /** Newer claims that superseded older ones in the same frame (frameKeyOf). */
  readonly conflicts: readonly { readonly newer: string; readonly older: string; readonly frameKey: string }[];
  /** The policy the pass applied. */
  readonly policy: CachePolicy;
  readonly merges: {
    readonly ran: boolean;
    readonly cycle: number;
    readonly stages: { readonly [K in MergeStageName]: number };
    readonly merged: readonly { readonly keepPath: string; readonly dropPath: string; readonly similarity: number }[];
  };
  readonly edges: { readonly similar: number; readonly nearDuplicate: number; readonly links: number };
  readonly communities: { readonly count: number; readonly largest: number; readonly members: number };
  readonly confidence: { readonly decayed: number };
  readonly written: { readonly memories: number; readonly edges: number; readonly statements: number };
  /**
   * How the neighbour lists were found: incrementally (`recomputed` memories changed since the last
   * pass, `rescanned` lists left short and scanned again) or by a full pass, and why
   * ("option", "none": no stored lists, "options": other floor/perSourceK/dim, "log": the change
   * log no longer reaches back, "changed": more than half changed, "unreadable").
   */
  readonly neighbors:
    | { readonly incremental: true; readonly recomputed: number; readonly rescanned: number }
    | { readonly incremental: false; readonly recomputed: number; readonly reason: "option" | "none" | "options" | "log" | "changed" | "unreadable" };
  /** Whether the pass calibrated, and the calibration search uses after it. */
  readonly calibration: { readonly ran: boolean; readonly vector: number | null; readonly reason: string | null };
  readonly timings: { readonly [phase: string]: number };
}

export interface MemoryCache {
  readonly dim: number | null;
  readonly backend: string;
  /** Stored memories: all (superseded and archived included), or { live: true } those in every arm, or { archived: true }. */
  count(options?: { readonly live?: boolean; readonly archived?: boolean }): Promise<number>;
  /** Stored paths in code point order, a page at a time, without their memories. */
  paths(options?: { readonly prefix?: string; readonly filter?: MemoryFilter; readonly limit?: number; readonly after?: string;
    readonly which?: "live" | "archived" | "all" }): Promise<{ paths: string[]; next: string | null }>;
  put(memories: readonly MemoryInput[], options?: PutOptions): Promise<{ inserted: number; replaced: number }>;
  get(paths: readonly string[]): Promise<StoredMemory[]>;
  all(): Promise<StoredMemory[]>;
  /** Delete these memories, or every stored memory under a prefix or admitted by a filter, with their edges and the memories merged into them (superseded by them); `deleted` counts the rows. */
  delete(target: readonly string[] | { readonly prefix?: string; readonly filter?: MemoryFilter }): Promise<{ deleted: number }>;
  link(links: readonly Link[]): Promise<{ linked: number }>;
  edges(): Promise<StoredEdge[]>;
  reinforce(paths: readonly string[], options: { readonly now: Time; readonly signal?: "positive" | "negative" | "neutral"; readonly cooldownSeconds?: number }):
    Promise<{ bumped: readonly string[]; cooledDown: readonly string[] }>;
  search(query: SearchQuery): Promise<SearchResult>;
  searchArms(query: SearchQuery): Promise<SearchArms>;
  /** Why each path was or was not returned for the query (see LostAt). */
  explain(query: SearchQuery, paths: readonly string[]): Promise<Explanation>;
  /** Fit search settings to labelled queries by cross-validated coordinate ascent on nDCG. */
  tune(labelled: readonly LabelledQuery[], options?: TuneOptions): Promise<TuneResult>;
  sleep(options: SleepOptions): Promise<SleepReport>;
  /** Archived memories, in path order. */
  archived(): Promise<StoredMemory[]>;
  /** Archive memories by hand (archiveReason "manual"): out of every arm, kept, restorable. */
  archive(paths: readonly string[], options?: { readonly now?: Time }): Promise<{ archived: number }>;
  /** Bring archived memories back into every arm (they count as new to the cache again). */
  restore(paths: readonly string[], options?: { readonly now?: Time }): Promise<{ restored: number }>;
  /** Delete archived memories for good: these paths, those archived at or before `before`, or (with {}) all. */
  purge(options?: { readonly paths?: readonly string[]; readonly before?: Time }): Promise<{ purged: number }>;
  /** The retention policy sleep() applies (the stored one over the defaults). */
  policy(): Promise<CachePolicy>;
  /** Measure the arms on pseudo-queries from the cache's own memories (and on labels) and store the vector weight search() uses. */
  calibrate(options?: CalibrateOptions): Promise<Calibration>;
  /** The stored calibration, or null. */
  calibration(): Promise<Calibration | null>;
  /**
   * Every memory (every stored field) as JSON Lines in path order, then one {"edge": StoredEdge}
   * line per edge, then {"watermarks": { mergeCycle?, evictCycle? }} if a sleep ran.
   */
  exportJsonl(): Promise<string>;
  /** exportJsonl()'s text (or put()-style memory lines) in one batch; the stored fields, edges and watermarks as given. */
  importJsonl(text: string, options?: PutOptions): Promise<ImportResult>;
  exportBytes(): Promise<Uint8Array>;
  /** The counts the memory budget uses, the estimate and the budget. */
  residentBytes(): Promise<ResidentBytes>;
  /** Whether the lexical arm's resident index is built and answers (no database read). */
  lexicalStats(): LexicalStats;
  /** Durable Objects: store a sleep schedule and set the object's alarm (a RangeError on a backend without one). */
  scheduleSleep(options: SleepSchedule): Promise<{ at: number; every: number | null }>;
  /** Durable Objects: call from the object's alarm(): runs the due pass at its scheduled time, moves the schedule, sets the alarm. */
  onAlarm(options?: { readonly now?: Time; readonly onProgress?: (p: Progress) => void }): Promise<AlarmResult>;
  close(): Promise<void>;
}

export declare const SCHEMA_VERSION: 2;
/** Where an edge came from (StoredEdge.origin). */
export declare const EDGE_ORIGINS: readonly ["link", "sleep", "merge", "conflict"];
/** The filters whose admitted memories a cache keeps between searches. */
export declare const FILTERS_KEPT: 16;
/** paths(): the largest page. */
export declare const MAX_PATHS_PAGE: 100000;
/** The labels (positive reinforcements of searched paths) a cache keeps for calibration. */
export declare const MAX_LABELS: 1000;
/** The searches a positive reinforce() looks back over for the query that returned a path. */
export declare const RECENT_SEARCHES: 64;
export declare const ARMS: readonly ["lexical", "vector", "salience", "lateral"];
/** The default composition's weights (PRESETS.default.weights). */
export declare const DEFAULT_ARM_WEIGHTS: { readonly [K in ArmName]: number };
/** The compositions' settings. */
export declare const PRESETS: { readonly default: PresetSettings; readonly memhtml: PresetSettings };
export declare const MAX_LIMIT: 10000;
export declare const MAX_DEPTH: 10000;
export declare const MAX_WINDOW: 1000;
/** sleep()'s defaults: the neighbour floor, perSourceK and the cycle (one day). */
export declare const DEFAULT_SLEEP: { readonly floor: number; readonly perSourceK: number; readonly cycleMs: number };
/** sleep()'s largest perSourceK. */
export declare const MAX_PER_SOURCE_K: 100;
/** The default composition's lexical arm weighs a word in the gist this many times a word in the body. */
export declare const GIST_WEIGHT: 3;
/** Steps of the default composition's lateral walk (personalized PageRank's maxIterations). */
export declare const LATERAL_STEPS: 3;
export declare const DEFAULT_LIMITS: Required<CacheLimits>;
/**
 * One row of the cache's option schema (js/cache/schema.js; docs/CACHE.md, "Options"): an option's
 * JS type, range, default and doc line. "other" rows are checked where they are used.
 */
export interface OptionRow {
  readonly type: "number" | "boolean" | "enum" | "time" | "count" | "string" | "vector" | "object" | "progress" | "other";
  readonly doc?: string;
  /** number: the range [lo, hi] (default -Infinity, Infinity), integers only, null allowed. */
  readonly lo?: number;
  readonly hi?: number;
  readonly integer?: boolean;
  readonly nullable?: boolean;
  /** Undefined is refused; time: undefined is the clock's Date.now(). */
  readonly required?: boolean;
  readonly clock?: boolean;
  /** The default (what undefined takes); `preset`: the search preset's (PRESETS); dfltDoc: the default in words. */
  readonly dflt?: unknown;
  readonly preset?: boolean;
  readonly dfltDoc?: string;
  /** enum: the values. */
  readonly values?: readonly string[];
  /** object: the group its fields follow. */
  readonly of?: string;
  /** string: at most `max` UTF-16 units, or the cache limit `limit` names; `key`: non-empty; `key`, `text`: well-formed, no NUL. */
  readonly max?: number;
  readonly limit?: keyof CacheLimits;
  readonly key?: boolean;
  readonly text?: boolean;
  /** vector: refuse an all-zero vector; its dimension (default: the context's). */
  readonly nonzero?: boolean;
  readonly dim?: number;
  /** other: what it is, in TypeScript's words. */
  readonly js?: string;
  /** memory: whether put() takes the field (the rest are importJsonl's). */
  readonly put?: boolean;
  /** labelled.relevant: a relevance grade's row. */
  readonly grade?: OptionRow;
}
/** Every option of memdomain/cache, by group (open, limits, search, weights, sleep, policy, calibrate, tune, ...), each a row. */
export declare const CACHE_OPTIONS: { readonly [group: string]: { readonly [option: string]: OptionRow } };
/**
 * A value checked against a row as the cache checks its options: the value to use (undefined takes
 * `dflt`, by default the row's), or a TypeError/RangeError naming `fn` and `arg` in the cache's words.
 */
export declare function checkOption(fn: string, arg: string, row: OptionRow, value: unknown, dflt?: unknown,
  context?: { readonly limits?: Required<CacheLimits>; readonly dim?: number | null }): any;
export declare const MAX_QUERY_TERMS: 64;
/**
 * How many times a write runs when other writers commit between its reads and its batch (onExternalChange "resync"):
 * it waits RETRY_BASE_MS x 2^(attempt - 1) (at most RETRY_MAX_MS) times a random factor in [0.5, 1) between
 * attempts, and the last one, on a file the cache opened, holds the write lock from its first read.
 */
export declare const WRITE_ATTEMPTS: 4;
export declare const RETRY_BASE_MS: 20;
export declare const RETRY_MAX_MS: 1000;
/** The busy timeout (ms) of a file the cache opens, on every driver (better-sqlite3's own default; node:sqlite's is 0). */
export declare const DEFAULT_BUSY_TIMEOUT: 5000;
/** How many write generations md_log keeps: a cache further behind than this reads everything again when it resyncs. */
export declare const LOG_GENERATIONS: 1024;
/** A write batch touching more paths than this is not logged in md_log: the caches behind it read everything when they resync. */
export declare const LOG_MAX_PATHS: 10000;

/**
 * The database was changed by another writer and onExternalChange is "error" (every call
 * until the cache is reopened), or a write lost the race to other writers WRITE_ATTEMPTS
 * times. Nothing of the rejected call was written.
 */
export declare class CacheChangedError extends Error {
  readonly name: "CacheChangedError";
  readonly code: "MEMDOMAIN_CACHE_EXTERNAL_CHANGE";
  /** The generation found in the database, and the writer that committed it (a memdomain/cache writer name), when known. */
  readonly generation?: number;
  readonly writer?: string | null;
}

/** SQLITE_BUSY past the busy timeout: another connection held the lock. Retrying the call is safe. */
export declare class CacheBusyError extends Error {
  readonly name: "CacheBusyError";
  readonly code: "MEMDOMAIN_CACHE_BUSY";
  /** The backend's own error. */
  readonly cause: unknown;
}

/** Open (or create) a memory cache. */
export declare function openMemoryCache(options?: OpenOptions): Promise<MemoryCache>;
/** The words of a user's text as the lexical arm reads them: letters, digits and marks, lowercased, distinct, at most 64. */
export declare function queryTerms(text: string): string[];
/** The safe FTS5 query for a user's text: its words, quoted, joined with OR ("" for none). */
export declare function ftsQuery(text: string): string;
/** The salience order on [accessCount, outcomeScore | null, reinforcementCount]: negative = a first. */
export declare function salienceOrder(a: readonly [number, number | null, number], b: readonly [number, number | null, number]): number;
export declare function sqliteWasmAdapter(db: object, sqlite3: object): CacheAdapter;
/** Wrap an open better-sqlite3 Database; `own`: the cache opened it, so exclusive() is offered. */
export declare function betterSqlite3Adapter(db: object, options?: { readonly own?: boolean }): CacheAdapter;
/** Wrap an open node:sqlite `DatabaseSync` (Node >= 22.5, Deno >= 2.2). */
export declare function nodeSqliteAdapter(db: object, options?: { readonly own?: boolean }): CacheAdapter;
export declare function d1Adapter(d1: D1Like): CacheAdapter;
/** Wrap a SQLite-backed Durable Object's ctx.storage (each batch in transactionSync). */
export declare function durableObjectAdapter(storage: DurableObjectStorageLike): CacheAdapter;
/** options.maxResidentBytes on a Durable Object unless given: 96 MiB of the isolate's 128 MB. */
export declare const DURABLE_OBJECT_RESIDENT_BYTES: number;
/** The estimated peak memory (bytes) of a cache holding these: live memories, those with an embedding of `dim` elements, text bytes. */
export declare function residentEstimate(counts: { readonly live: number; readonly vectors: number; readonly dim: number | null; readonly text: number;
  readonly lexicalIndexMin?: number | null }): number;
/** Wrap what `{ db }` holds (an adapter passes through). */
export declare function adapterFor(db: object, sqlite3?: object): CacheAdapter;

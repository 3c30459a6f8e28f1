// memdomain/cache: the one schema of the cache's options. Each row states an option's JS type,
// its range (lo, hi, integer), its default and a line of doc, once; from it come the checks
// (checkOption / checkOptions below: every error in the glue's wording, naming the method and
// the option), the option tables of docs/CACHE.md (tools/gen-cache-options.mjs, checked by
// `make test-cache-options`), the workbench's ranges (web-demo/lib/settings.js reads
// CACHE_OPTIONS through memdomain/cache), and tests/js/cache-schema.test.js holds the .d.ts
// declarations to it. Adding an option: a row here, its line in js/types/cache.d.ts, the tests.
//
// A row: { type, doc, ... }. Types:
//   "number"   a finite number; lo, hi (default -Infinity, Infinity), integer, nullable (null
//              allowed), dflt (undefined, or null when nullable, takes it), `required`
//   "boolean"  true or false; undefined takes dflt
//   "enum"     one of `values`; undefined or null takes dflt
//   "time"     a Date or ms since the epoch; `required`, or `clock` (undefined: Date.now()), or dflt
//   "count"    an integer in [0, 2^53 - 1] (undefined or null: 0, or null when nullable)
//   "string"   a string of at most `max` UTF-16 units or limits[`limit`] (`key`: non-empty; `key`
//              and `text`: well-formed, no NUL)
//   "vector"   a Float32Array, Float64Array or number[] of finite numbers, the cache's dimension (`nonzero`)
//   "progress" an optional callback (undefined or null: none)
//   "object"   a plain object; `of` names the group its fields follow
//   "other"    checked where it is used (a handle, a function, a filter); `js` says what it is
// `strict: true`: an option given must hold a value (undefined or null given is refused, not defaulted).
// `preset: true`: the default is the search preset's (PRESETS in compose.js); `dfltDoc` is the
// default in words where it is not one value.
import {
  DEFAULT_CONFIDENCE_DECAY_ALPHA, DEFAULT_CONFIDENCE_FLOOR, MAX_MERGE_PAIRS, MAX_REPRIEVES, NEAR_DUPLICATE_THRESHOLD,
  REINFORCE_COOLDOWN_S, REPRIEVE_DAYS, REPRIEVE_FLOOR, SALIENCE_DECAY_RATE,
} from "../index.js";
import { LEXICAL_INDEX_MIN } from "./lexical.js";
import { counter, embedding, finite, known, progressFn, rangeError, record, shown, string, time, typeError } from "./validate.js";

/** The most hits one search returns (offset + limit). */
export const MAX_LIMIT = 10000;
/** The deepest an arm lists. */
export const MAX_DEPTH = 10000;
/** The most candidates MMR reorders (its cost is window x window cosines). */
export const MAX_WINDOW = 1000;
/** The longest neighbour list per memory: the pass's edges, their write and the graph grow with it (see limits.sleepEdges). */
export const MAX_PER_SOURCE_K = 100;
/** paths(): the most paths one call returns (default 1,000). */
export const MAX_PATHS_PAGE = 100_000;
/** The longest embedding (and options.dim). */
export const MAX_DIM = 65536;
export const DAY_MS = 86_400_000;
/**
 * The busy timeout (ms) of a file the cache opens, on every driver: better-sqlite3's own default.
 * node:sqlite's is 0 (two processes on one file got SQLITE_BUSY on about a third of their calls).
 */
export const DEFAULT_BUSY_TIMEOUT = 5000;
/** Texts per call of options.embed. */
export const DEFAULT_EMBED_BATCH = 64;
/** Memories calibrate() samples (each gives one pseudo-query). */
export const CALIBRATION_SAMPLES = 1000;
/** tune()'s cross-validation folds by default: each fit sees 90% of the labels. */
export const DEFAULT_FOLDS = 10;
/**
 * The cache's default policy archives no memory younger in the cache than this: chosen by the forgetting
 * benchmark (bench/forgetting.mjs, docs/RELEVANCE.md).
 */
export const DEFAULT_MIN_AGE_DAYS = 30;
/**
 * Of the evict band (the design's: score <= evictThreshold, 0.3), only memories scoring at or below
 * this are archived: on the forgetting benchmark the whole band lost 8-14% of the answers a month
 * later (mostly documentation nobody had asked about yet), 0.2 none (docs/RELEVANCE.md, "What sleep keeps").
 */
export const DEFAULT_ARCHIVE_BELOW = 0.2;

const num = (lo, hi, more = {}) => ({ type: "number", lo, hi, ...more });
const int = (lo, hi, more = {}) => ({ type: "number", lo, hi, integer: true, ...more });
const progress = { type: "progress", doc: "called with { phase, done, total } as the call goes" };
const filter = { type: "other", js: "MemoryFilter", doc: "only the memories the filter admits (docs/CACHE.md, \"Filters\")" };
const freeze = (groups) => {
  for (const g of Object.values(groups)) {
    for (const r of Object.values(g)) {
      if (r.grade) Object.freeze(r.grade);
      Object.freeze(r);
    }
    Object.freeze(g);
  }
  return Object.freeze(groups);
};
const limit = (dflt, doc) => int(1, Infinity, { dflt, doc, strict: true });

/** Every option of memdomain/cache, by group: the methods' options and the objects nested in them. */
export const CACHE_OPTIONS = freeze({
  open: {
    path: { type: "other", js: "string", dfltDoc: "\":memory:\"", doc: "\":memory:\", a file path (Node, Deno) or an OPFS file name (a browser's dedicated Worker)" },
    db: { type: "other", js: "object", doc: "a database handle: a CacheAdapter, a D1 binding, a better-sqlite3 Database, a node:sqlite DatabaseSync, a sqlite-wasm oo1 DB" },
    bytes: { type: "other", js: "Uint8Array", doc: "open a copy of a database file" },
    dim: int(1, MAX_DIM, { nullable: true, dflt: null, dfltDoc: "the first embedding's", doc: "the embedding dimension" }),
    sqlite3: { type: "other", js: "object", doc: "an initialized sqlite-wasm module" },
    wasm: { type: "other", js: "object", doc: "what memdomain's init() takes" },
    limits: { type: "object", of: "limits", doc: "the longest strings and largest batches the cache takes" },
    vfs: { type: "other", js: "string", doc: "the sqlite-wasm VFS of an OPFS file" },
    onExternalChange: { type: "enum", values: ["resync", "error"], dflt: "resync",
      doc: "when another writer changed the database: read what changed again, or throw CacheChangedError" },
    busyTimeout: int(0, 2 ** 31 - 1, { nullable: true, dfltDoc: String(DEFAULT_BUSY_TIMEOUT), doc: "ms to wait for another connection's lock" }),
    driver: { type: "other", js: "\"node:sqlite\" | \"better-sqlite3\"", dfltDoc: "\"node:sqlite\" where the runtime has it", doc: "how a file path opens in Node and Deno" },
    storage: { type: "other", js: "object", doc: "a SQLite-backed Durable Object's ctx.storage" },
    maxResidentBytes: int(0, Infinity, { nullable: true, dfltDoc: "96 MiB on a Durable Object, null elsewhere",
      doc: "refuse what would take the cache's estimated peak memory past it (null: no budget)" }),
    embed: { type: "other", js: "function", doc: "(texts, { kind }) -> vectors: embeds what is put and searched without a vector" },
    embedBatch: int(1, MAX_DIM, { dflt: DEFAULT_EMBED_BATCH, doc: "texts per call of options.embed" }),
    searchAccess: { type: "boolean", dflt: true, doc: "count a search's hits as access for the retention scorer" },
    lexicalIndexMin: int(0, Infinity, { nullable: true, dflt: LEXICAL_INDEX_MIN,
      doc: "live memories from which unfiltered searches' lexical arm answers from a resident index (null: never; the same answers)" }),
  },
  limits: {
    path: limit(1024, "the longest path, in UTF-16 code units"),
    type: limit(64, "the longest memory type"),
    gist: limit(4096, "the longest gist"),
    body: limit(1_000_000, "the longest body"),
    query: limit(4096, "the longest query text"),
    batch: limit(1_000_000, "the most memories in one put() or importJsonl()"),
    sleepEdges: limit(1_000_000, "sleep(): perSourceK x the memories with embeddings may not exceed it (each edge is a row written)"),
    // estimated per embedding element: sleep.js PASS_BYTES_PER_ELEMENT + ROWS_BYTES_PER_ELEMENT; wasm32 has 4 GiB
    sleepRoom: limit(3 * 2 ** 30, "sleep(): the WebAssembly bytes its pass counts on beside the search's resident rows; past it the pass frees the rows first"),
    tags: limit(64, "the most tags on a memory"),
    tag: limit(256, "the longest tag or metadata key"),
    metadataKeys: limit(64, "the most metadata keys on a memory"),
    metadataValue: limit(4096, "the longest metadata string value"),
  },
  search: {
    text: { type: "other", js: "string | null", doc: "the query text (at most limits.query)" },
    vector: { type: "other", js: "Float32Array | number[] | null", doc: "the query embedding (undefined: embedded from text by options.embed)" },
    limit: int(1, MAX_LIMIT, { dflt: 10, doc: "how many hits" }),
    weights: { type: "object", of: "weights", doc: "weight per arm (0: the arm is off)" },
    fusion: { type: "enum", values: ["score", "rrf"], preset: true, doc: "default composition only: add the arms' scores on [0, 1], or reciprocal ranks" },
    k: num(0, Infinity, { preset: true, doc: "reciprocal-rank fusion's k (fusion \"rrf\" and preset \"memhtml\" only)" }),
    depth: int(1, MAX_DEPTH, { preset: true, doc: "how many hits each arm lists" }),
    lambda: num(0, 1, { preset: true, doc: "MMR's lambda: 1 pure relevance, 0 pure diversity" }),
    seeds: int(0, 1000, { preset: true, doc: "how many fused top hits seed the lateral arm" }),
    timings: { type: "boolean", dflt: false, doc: "attach per-stage times (ms) to the result" },
    preset: { type: "enum", values: ["default", "memhtml"], dflt: "default", doc: "the composition" },
    window: int(1, MAX_WINDOW, { preset: true, doc: "default composition only: how many of the best fused candidates MMR reorders" }),
    duplicate: num(-1, 1, { nullable: true, preset: true, doc: "default composition only: skip a hit whose cosine to a hit above exceeds it (null: never)" }),
    calibrated: { type: "boolean", dflt: true, doc: "default composition only: take the vector weight from the cache's calibration" },
    now: { type: "time", dfltDoc: "Date.now()", doc: "the search's time for the access it records" },
    filter,
    offset: int(0, MAX_LIMIT, { dflt: 0, doc: "skip this many hits (offset + limit at most MAX_LIMIT)" }),
  },
  weights: {
    lexical: num(0, Infinity, { preset: true, doc: "FTS5 bm25 over gist and body" }),
    vector: num(0, Infinity, { preset: true, dfltDoc: "the calibration's, else the preset's", doc: "exact cosine over the embeddings" }),
    salience: num(0, Infinity, { preset: true, doc: "access, outcome and reinforcement counts" }),
    lateral: num(0, Infinity, { preset: true, doc: "personalized PageRank from the fused top hits" }),
  },
  sleep: {
    now: { type: "time", required: true, doc: "the pass's time" },
    floor: num(-1, 1, { dflt: 0.8, doc: "the least cosine of a similarity edge" }),
    perSourceK: int(1, MAX_PER_SOURCE_K, { dflt: 5, doc: "similarity edges per memory" }),
    cycleMs: num(1, Infinity, { dflt: DAY_MS, doc: "ms per decay cycle (and per merge and eviction)" }),
    evict: { type: "boolean", dfltDoc: "the policy's", doc: "archive the evict band in this pass" },
    confidence: { type: "object", of: "confidence", doc: "confidence decay" },
    merge: { type: "object", of: "merge", doc: "near-duplicate merges" },
    incremental: { type: "boolean", dflt: true, doc: "recompute only the neighbour lists that changed since the last pass" },
    workers: { type: "other", js: "NeighborPool", doc: "a pool from memdomain/workers' createNeighborPool for the all-pairs pass" },
    onProgress: progress,
    policy: { type: "object", of: "policy", doc: "the retention policy to store and apply" },
    calibrate: { type: "other", js: "boolean | CalibrateOptions", dfltDoc: "when stale",
      doc: "calibrate after the pass: true or calibrate()'s options (always), false (never)" },
  },
  confidence: {
    alpha: num(0, 1, { dflt: DEFAULT_CONFIDENCE_DECAY_ALPHA, doc: "decay per cycle" }),
    floor: num(0, 1, { dflt: DEFAULT_CONFIDENCE_FLOOR, doc: "the least confidence decay leaves" }),
  },
  merge: {
    threshold: num(-1, 1, { dflt: NEAR_DUPLICATE_THRESHOLD, doc: "the least cosine of a merge" }),
    maxPairs: int(0, Infinity, { dflt: MAX_MERGE_PAIRS, doc: "merges per cycle" }),
  },
  policy: {
    weights: { type: "other", js: "object", dfltDoc: "the design's", doc: "RetentionPolicy: signal weights per memory type (the core checks them)" },
    defaultWeights: { type: "other", js: "object", dfltDoc: "the design's", doc: "RetentionPolicy: the weights of another type" },
    halfLives: { type: "other", js: "object", dfltDoc: "the design's", doc: "RetentionPolicy: half-life in days per memory type" },
    defaultHalfLife: { type: "other", js: "number", dfltDoc: "the design's", doc: "RetentionPolicy: the half-life of another type" },
    keepThreshold: { type: "other", js: "number", dfltDoc: "the design's", doc: "RetentionPolicy: the keep band's least score" },
    evictThreshold: { type: "other", js: "number", dfltDoc: "the design's", doc: "RetentionPolicy: the evict band's greatest score" },
    evict: { type: "boolean", dflt: false, doc: "archive the evict band (false: report it only)" },
    minAgeDays: num(0, 1e6, { dflt: DEFAULT_MIN_AGE_DAYS, doc: "no memory is archived before it has been in the cache this long" }),
    archiveBelow: num(0, 1, { nullable: true, dflt: DEFAULT_ARCHIVE_BELOW, doc: "of the evict band, archive only scores at or below it (null: the whole band)" }),
    reprieve: { type: "object", of: "reprieve", doc: "the design's gate before a memory leaves" },
    purgeAfterDays: num(0, 1e6, { nullable: true, dflt: null, doc: "delete archived memories this many days after (null: never)" }),
  },
  reprieve: {
    floor: num(-Infinity, Infinity, { dflt: REPRIEVE_FLOOR, doc: "the least reprieve score that keeps a memory" }),
    maxReprieves: int(0, 1e6, { dflt: MAX_REPRIEVES, doc: "reprieves per memory" }),
    days: num(0, 1e6, { dflt: REPRIEVE_DAYS, doc: "days a reprieve keeps it" }),
    decayRate: num(0, 1e6, { dflt: SALIENCE_DECAY_RATE, doc: "the reprieve score's salience decay rate" }),
    importance: num(1, 10, { dflt: 5, doc: "the importance of a memory without one" }),
  },
  calibrate: {
    seed: int(0, 2 ** 32 - 1, { dflt: 1, doc: "the sample's seed" }),
    samples: int(1, 100000, { dflt: CALIBRATION_SAMPLES, doc: "memories sampled, one pseudo-query each" }),
    onProgress: progress,
  },
  tune: {
    seed: int(0, 2 ** 32 - 1, { dflt: 1, doc: "the folds' seed" }),
    folds: int(2, 100, { dflt: DEFAULT_FOLDS, doc: "cross-validation folds (at most the queries)" }),
    limit: int(1, 100, { dflt: 10, doc: "nDCG's cutoff and the searches' limit" }),
    baseline: { type: "other", js: "SearchSettings", doc: "the settings to start from and compare with (default composition)" },
    onProgress: progress,
    filter,
  },
  labelled: {
    text: { type: "other", js: "string | null", doc: "the query text" },
    vector: { type: "other", js: "Float32Array | number[] | null", doc: "the query embedding" },
    relevant: { type: "other", js: "string[] | { [path]: grade }", doc: "the relevant paths, or path -> grade", grade: num(0, 10, { doc: "a relevance grade" }) },
    id: { type: "other", js: "string", doc: "a name for the query" },
  },
  count: {
    live: { type: "boolean", dflt: false, doc: "count the live memories only" },
    archived: { type: "boolean", dflt: false, doc: "count the archived memories only" },
  },
  paths: {
    prefix: { type: "other", js: "string", doc: "only paths that start with it" },
    filter,
    limit: int(1, MAX_PATHS_PAGE, { dflt: 1000, doc: "paths per page" }),
    after: { type: "other", js: "string", doc: "the page after this path (the last page's next)" },
    which: { type: "enum", values: ["live", "archived", "all"], dflt: "live", doc: "which memories" },
  },
  put: {
    onConflict: { type: "enum", values: ["replace", "error"], dflt: "replace", doc: "a path already stored: replace it, or throw" },
    onProgress: progress,
  },
  // a memory record (records.js): what put() takes (`put: true`) and what importJsonl carries back besides
  memory: {
    path: { type: "string", limit: "path", key: true, put: true, doc: "the memory's key" },
    gist: { type: "string", limit: "gist", text: true, put: true, doc: "the one-line claim" },
    body: { type: "string", limit: "body", text: true, put: true, doc: "the text" },
    type: { type: "string", limit: "type", key: true, put: true, doc: "the memory type (episodic, semantic, procedural, ...)" },
    embedding: { type: "vector", nullable: true, put: true, doc: "its embedding (the cache's dimension)" },
    createdAt: { type: "time", required: true, put: true, doc: "when it was made" },
    updatedAt: { type: "time", nullable: true, put: true, dfltDoc: "createdAt", doc: "when it last changed" },
    accessedAt: { type: "time", nullable: true, put: true, doc: "when it was last used" },
    accessCount: { type: "count", put: true, doc: "times used" },
    confidence: num(0, 1, { dflt: 1, put: true, doc: "how sure it is" }),
    outcomeScore: num(-1, 1, { nullable: true, put: true, doc: "the outcome EWMA" }),
    reinforcementCount: { type: "count", put: true, doc: "times reinforced" },
    contradictionCount: { type: "count", put: true, doc: "claims that contradict it" },
    importance: num(1, 10, { nullable: true, put: true, doc: "how much it matters" }),
    tags: { type: "other", js: "string[]", put: true, doc: "distinct tags (at most limits.tags of limits.tag)" },
    metadata: { type: "other", js: "object", put: true, doc: "flat string, number and boolean values" },
    decayedAt: { type: "time", nullable: true, put: true, dfltDoc: "createdAt", doc: "the decay watermark" },
    seenAt: { type: "time", nullable: true, doc: "when a sleep pass first saw it" },
    hitCount: { type: "count", doc: "searches that returned it" },
    hitAt: { type: "time", nullable: true, doc: "the last of them" },
    reprieveCount: { type: "count", doc: "times the reprieve gate kept it" },
    validUntil: { type: "time", nullable: true, doc: "until when" },
    archivedAt: { type: "time", nullable: true, doc: "when it was archived" },
    archiveReason: { type: "enum", values: ["evict", "manual"], nullable: true, doc: "why" },
    pagerank: num(0, Infinity, { nullable: true, doc: "sleep's PageRank" }),
    community: { type: "string", limit: "path", key: true, nullable: true, doc: "sleep's community" },
    bridgeCount: { type: "count", nullable: true, doc: "communities it bridges" },
    retentionScore: num(-Infinity, Infinity, { nullable: true, doc: "sleep's retention score" }),
    band: { type: "enum", values: ["keep", "compress", "evict"], nullable: true, doc: "sleep's retention band" },
    supersededBy: { type: "string", limit: "path", key: true, nullable: true, doc: "the memory that superseded it" },
  },
  delete: {
    prefix: { type: "other", js: "string", doc: "every stored memory whose path starts with it (\"\": every memory)" },
    filter,
  },
  link: {
    src: { type: "other", js: "string", doc: "a stored path" },
    dst: { type: "other", js: "string", doc: "a stored path" },
    strength: num(0, 1, { required: true, doc: "the edge's weight" }),
    type: { type: "other", js: "string", dfltDoc: "\"related\"", doc: "the edge's type (at most limits.type)" },
  },
  edge: {
    src: { type: "other", js: "string", doc: "a stored or imported path" },
    dst: { type: "other", js: "string", doc: "a stored or imported path" },
    type: { type: "other", js: "string", doc: "the edge's type" },
    strength: num(0, 1, { required: true, doc: "the edge's weight" }),
    origin: { type: "enum", values: ["link", "sleep", "merge", "conflict"], required: true,
      doc: "link(), sleep's similarity edges, its merges, its contradictions" },
  },
  watermarks: {
    mergeCycle: int(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, { doc: "the last cycle sleep merged in" }),
    evictCycle: int(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, { doc: "the last cycle sleep evicted in" }),
  },
  archive: {
    now: { type: "time", clock: true, dfltDoc: "Date.now()", doc: "the time it is archived (restored)" },
  },
  reinforce: {
    now: { type: "time", required: true, doc: "the time of the use" },
    signal: { type: "enum", values: ["positive", "negative", "neutral"], dflt: "neutral", doc: "the outcome: one EWMA step unless neutral" },
    cooldownSeconds: num(0, Infinity, { dflt: REINFORCE_COOLDOWN_S, doc: "a memory accessed within it is not bumped" }),
  },
  purge: {
    paths: { type: "other", js: "string[]", doc: "these archived memories" },
    before: { type: "time", dflt: Infinity, dfltDoc: "any time", doc: "the memories archived at or before it" },
  },
  schedule: {
    at: { type: "time", required: true, doc: "the first pass" },
    every: int(1000, 8.64e15, { nullable: true, dflt: null, doc: "ms between passes (null: one pass)" },),
  },
  onAlarm: {
    now: { type: "time", clock: true, dfltDoc: "Date.now()", doc: "the clock" },
    onProgress: progress,
  },
});

/** The sleep options a schedule stores (JSON: onProgress cannot be stored, `now` is the scheduled time). */
export const SCHEDULED_SLEEP = Object.freeze(["floor", "perSourceK", "cycleMs", "evict", "confidence", "merge"]);

/** A group's defaults, in row order: each row's that has one value (not a preset's), and an object row's group's. */
export const defaultsOf = (group) => Object.freeze(Object.fromEntries(Object.entries(CACHE_OPTIONS[group])
  .filter(([, r]) => (r.type === "object" && r.of) || (r.dflt !== undefined && !r.preset))
  .map(([k, r]) => [k, r.type === "object" && r.of ? defaultsOf(r.of) : r.dflt])));

/** The limits the cache keeps to unless openMemoryCache({ limits }) says otherwise. */
export const DEFAULT_LIMITS = defaultsOf("limits");

/** What one value must be, in an error's words: "one of" the values. */
export const oneOf = (values) => {
  const q = values.map((v) => JSON.stringify(v));
  return q.length < 3 ? q.join(" or ") : `${q.slice(0, -1).join(", ")} or ${q.at(-1)}`;
};

/**
 * One value checked against its row: the value to use (the default for undefined), or a
 * TypeError/RangeError naming `fn` and `arg`. `dflt` replaces the row's default (a preset's).
 * "other" rows come back as they are: their checks are where they are used. `limits` (a string
 * row's `limit` names one) and `dim` (a vector's dimension) are the cache's.
 */
export function checkOption(fn, arg, row, v, dflt = row.dflt, { limits = DEFAULT_LIMITS, dim = null } = {}) {
  switch (row.type) {
    case "number":
      if (v === undefined && dflt === undefined && !row.required && !row.nullable && !row.preset) return undefined; // optional, no default
      return finite(fn, arg, v, { lo: row.lo, hi: row.hi, integer: row.integer, nullable: row.nullable, dflt });
    case "boolean":
      if (v === undefined) return dflt;
      if (typeof v !== "boolean") throw typeError(fn, arg, "a boolean", v);
      return v;
    case "enum": {
      const x = v ?? dflt;
      if (x === undefined || x === null) {
        if (row.nullable) return null;
      } else if (row.values.includes(x)) return x;
      throw rangeError(fn, arg, `must be ${oneOf(row.nullable ? [...row.values, null] : row.values)}, got ${shown(x === undefined ? v : x)}`);
    }
    case "time":
      if (row.nullable) return time(fn, arg, v, { optional: true });
      if (v === undefined && !row.required) return row.clock ? Date.now() : dflt;
      return time(fn, arg, v);
    case "count":
      if ((v === undefined || v === null) && row.nullable) return null;
      return counter(fn, arg, v, dflt ?? 0);
    case "string":
      if ((v === undefined || v === null) && row.nullable) return dflt ?? null;
      return string(fn, arg, v, row.limit ? limits[row.limit] : row.max ?? Infinity, { key: row.key === true, text: row.text === true });
    case "vector":
      if ((v === undefined || v === null) && row.nullable) return null;
      return embedding(fn, arg, v, row.dim ?? dim, { nonzero: row.nonzero === true });
    case "progress":
      return progressFn(fn, v);
    case "object":
      if (v === undefined && !row.required) return dflt;
      return record(fn, arg, v);
    default:
      return v;
  }
}

/**
 * An options object of `group`: a plain object with only the group's options (`extra` adds
 * names another check reads), each option checked in row order unless it is "other" or listed in
 * `skip` (an object of another group is checked as that group). Returns the checked values, an
 * absent option as its default (`defaults` replaces the rows' own, by name). `names: false`: the
 * caller has checked that `o` is an object of known names.
 */
export function checkOptions(fn, arg, o, group, { skip = [], defaults = {}, extra = [], names = true } = {}) {
  const rows = CACHE_OPTIONS[group];
  if (names) { // else the caller checked the object and its names
    record(fn, arg, o);
    known(fn, arg, o, [...Object.keys(rows), ...extra]);
  }
  const out = {};
  for (const [name, row] of Object.entries(rows)) {
    if (row.type === "other" || skip.includes(name)) continue;
    if (row.type === "object" && row.of) out[name] = checkOptions(fn, `${arg}.${name}`, o[name] === undefined ? {} : o[name], row.of);
    else {
      const given = row.strict && Object.hasOwn(o, name) ? { ...row, dflt: undefined, required: true } : row; // a value, not the default
      out[name] = checkOption(fn, `${arg}.${name}`, given, o[name], name in defaults ? defaults[name] : given.dflt);
    }
  }
  return out;
}

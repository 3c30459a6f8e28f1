// memdomain/cache: a local memory cache on SQLite with memdomain's hybrid
// retrieval (FTS5 bm25, exact cosine, salience, personalized PageRank; RRF
// fusion; MMR) and its sleep pass. Built only on the public memdomain API.
//
// Every write is "read, compute in memory, then ONE atomic batch" (see
// adapters.js), so nothing is written on error, on every backend, D1 included.
//
// What the cache keeps in memory (embeddings, salience signals, the edges, the
// lexical arm's term lists) follows what was committed, never a call's outcome
// (docs/CACHE-CONSISTENCY.md): each batch also checks and bumps a generation
// counter in md_meta, the in-memory update runs as soon as the batch commits
// (before any callback), a batch whose outcome is unknown marks the memory for a
// reload, and before each operation the counter (and PRAGMA data_version where the
// backend has it) tells whether another writer changed the database.
import {
  DEFAULT_EWMA_ALPHA, REINFORCE_COOLDOWN_S, applyOutcomesFp, fromFp, init, isInitialized, partitionByCooldown, signalValue, toFp, float32View,
} from "../index.js";
import {
  DEFAULT_BUSY_TIMEOUT, adapterFor, betterSqlite3Adapter, d1Adapter, durableObjectAdapter, nodeSqliteAdapter, openAdapter, pathError,
  sqliteWasmAdapter,
} from "./adapters.js";
import { ARMS, PRESETS, collectArms, fold, querySettings, report } from "./compose.js";
import { Lexical, termsQuery } from "./lexical.js";
import { tune } from "./tune.js";
import { rng } from "./rng.js";
import { CacheBusyError, CacheChangedError } from "./errors.js";
import { Resident } from "./resident.js";
import { runSleep } from "./sleep.js";
import { DURABLE_OBJECT_RESIDENT_BYTES, checkResident, residentEstimate, storedCounts } from "./budget.js";
import { checkEmbed, embedTexts, memoryText } from "./embed.js";
import { COLUMNS, INSERT_SQL, LIVE, MEMORIES_TABLE, UPDATE_SQL, V2, checkMemory, isLive, rowToMemory as recordOf, storedValues } from "./records.js";
import { CALIBRATION_VERSION, calibrate, checkCalibrateOptions } from "./calibrate.js";
import { resolvePolicy, storedPolicy } from "./policy.js";
import { admitted, compileFilter } from "./filter.js";
import { alarmStorage, armAlarm, checkSchedule, hasAlarm, nextTime, readSchedule, rearm, scheduleStatement } from "./durable.js";
import {
  arr, byPath, counter, embedding, finite, known, loneSurrogate, messageOf, progressFn, rangeError, record, shown, string, time, typeError,
} from "./validate.js";

export { CacheBusyError, CacheChangedError };
export { DEFAULT_BUSY_TIMEOUT, adapterFor, betterSqlite3Adapter, d1Adapter, durableObjectAdapter, nodeSqliteAdapter, sqliteWasmAdapter };
export { ARMS, GIST_WEIGHT, LATERAL_STEPS, MAX_DEPTH, MAX_LIMIT, MAX_WINDOW, PRESETS, salienceOrder } from "./compose.js";
export { MAX_QUERY_TERMS, ftsQuery, queryTerms } from "./lexical.js";
export { DEFAULT_SLEEP, MAX_PER_SOURCE_K } from "./sleep.js";
export { DURABLE_OBJECT_RESIDENT_BYTES, residentEstimate } from "./budget.js";

export const SCHEMA_VERSION = 2;
/** The default composition's arm weights (PRESETS.default.weights). */
export const DEFAULT_ARM_WEIGHTS = PRESETS.default.weights;
/**
 * sleepEdges: perSourceK x the memories with embeddings may not exceed it (about 30 µs per edge written).
 * sleepRoom: the WebAssembly bytes a sleep pass counts on for itself and the search's resident rows together
 * (estimated per embedding element: sleep.js PASS_BYTES_PER_ELEMENT + ROWS_BYTES_PER_ELEMENT); past it the pass
 * frees the rows first and the next search builds them again. wasm32 has 4 GiB.
 */
export const DEFAULT_LIMITS = Object.freeze({ path: 1024, type: 64, gist: 4096, body: 1_000_000, query: 4096, batch: 1_000_000,
  sleepEdges: 1_000_000, sleepRoom: 3 * 2 ** 30, tags: 64, tag: 256, metadataKeys: 64, metadataValue: 4096 });
/** Where an edge came from: link(), sleep's similarity edges, its merges, its contradictions. */
export const EDGE_ORIGINS = Object.freeze(["link", "sleep", "merge", "conflict"]);
/** What exportJsonl carries of md_meta besides the watermarks, one line each: what the cache chose and was told. */
const SETTINGS_KEYS = ["calibration", "policy"];
/**
 * How many times a write runs when other writers commit between its read and its batch (onExternalChange
 * "resync"). Between attempts it waits RETRY_BASE_MS x 2^(attempt - 1), at most RETRY_MAX_MS, times a
 * random factor in [0.5, 1) (jitter: writers that collided do not collide again in step); the last attempt,
 * on a file the cache opened, holds the write lock from its first read to its commit, so a large write
 * completes under a stream of small ones (those wait for the lock, up to their busy timeout).
 */
export const WRITE_ATTEMPTS = 4;
export const RETRY_BASE_MS = 20;
export const RETRY_MAX_MS = 1000;

/** A write's guard found another writer's commit since the call read the database: nothing was written. */
class Conflict extends Error {}

/**
 * The paths each write batch touched, by generation (the last LOG_GENERATIONS of them), so a
 * cache that sees another writer's generations reads only those rows again. Optional in a
 * memdomain database (created at open when missing; md_meta.log_since: the log is complete after it).
 */
const LOG_TABLE = "CREATE TABLE IF NOT EXISTS md_log (gen INTEGER NOT NULL, path TEXT NOT NULL, PRIMARY KEY (gen, path)) WITHOUT ROWID";
export const LOG_GENERATIONS = 1024;
/** A write batch touching more paths than this is not logged (the caches behind it read everything). */
export const LOG_MAX_PATHS = 10_000;
// md_meta.log_since only grows: pruning must not reach back before an unlogged batch
const LOG_SINCE_SQL = `INSERT INTO md_meta (key, value) VALUES ('log_since', ?)
  ON CONFLICT (key) DO UPDATE SET value = CAST(max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER)) AS TEXT)`;

/**
 * The sleep pass's neighbour lists with their exact similarities, one row per memory with an
 * embedding at the pass (see sleep.js): the next pass recomputes only what changed since
 * (md_meta.neighbors_gen, the generation of the pass that wrote them, and md_log). Optional
 * (created at open when missing; a database without lists gets a full pass).
 */
const NEIGHBORS_TABLE = `CREATE TABLE IF NOT EXISTS md_neighbors (src TEXT PRIMARY KEY, partial INTEGER NOT NULL,
  dsts TEXT NOT NULL, sims BLOB) WITHOUT ROWID`;

/**
 * Labels for calibration: a search's query and a path it returned that reinforce() then called
 * "positive" (see calibrate.js). Optional (created at open when missing); the last MAX_LABELS are kept.
 */
const LABELS_TABLE = `CREATE TABLE IF NOT EXISTS md_labels (id INTEGER PRIMARY KEY, path TEXT NOT NULL, text TEXT NOT NULL,
  vector BLOB, at REAL NOT NULL)`;
export const MAX_LABELS = 1000;
/** The filters whose admitted memories a cache keeps between searches (until the database changes). */
export const FILTERS_KEPT = 16;
/** paths(): the most paths one call returns (default 1,000). */
export const MAX_PATHS_PAGE = 100_000;
/** The searches a positive reinforce() looks back over for the query that returned a path. */
export const RECENT_SEARCHES = 64;

const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS md_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  MEMORIES_TABLE,
  "CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(gist, body)",
  "CREATE VIRTUAL TABLE IF NOT EXISTS memories_vocab USING fts5vocab(memories_fts, 'row')",
  `CREATE TABLE IF NOT EXISTS edges (src TEXT NOT NULL, dst TEXT NOT NULL, type TEXT NOT NULL,
    strength REAL NOT NULL, origin TEXT NOT NULL, PRIMARY KEY (src, dst, type))`,
  "CREATE INDEX IF NOT EXISTS edges_dst ON edges (dst)",
  LOG_TABLE,
  NEIGHBORS_TABLE,
  LABELS_TABLE,
];
/** The tables a memdomain cache database holds (FTS5's shadow tables come with memories_fts). */
const TABLES = ["edges", "md_meta", "memories", "memories_fts", "memories_vocab"];


// One row of numbers (read through numbers() where the adapter has it: the cheapest read there is); log_since -1: absent.
const GENERATION_SQL = `SELECT coalesce((SELECT CAST(value AS INTEGER) FROM md_meta WHERE key = 'generation'), 0) AS g,
  coalesce((SELECT CAST(value AS INTEGER) FROM md_meta WHERE key = 'edges_generation'), 0) AS e,
  coalesce((SELECT CAST(value AS INTEGER) FROM md_meta WHERE key = 'log_since'), -1) AS l`;
// The first statement of every write batch: the guard and the bump in one. It sets the generation and the
// writer (and, with `edges`, the generation of the last batch that may have changed edges, which a resync reads
// them again after) unless the generation is no longer the one this cache read (the last parameter): then it
// sets NULL, and md_meta.value's NOT NULL aborts the batch, which rolls it all back on every backend (D1's too).
const bumpSql = (edges) => `INSERT INTO md_meta (key, value)
  VALUES ('generation', ?), ('writer', ?)${edges ? ", ('edges_generation', ?)" : ""}
  ON CONFLICT (key) DO UPDATE SET value = CASE WHEN key <> 'generation' OR value = ? THEN excluded.value END`;
const BUMP_SQL = [bumpSql(false), bumpSql(true)];
const GUARD_FAILED = /NOT NULL constraint failed: md_meta\.value/;

/** A serial queue: one operation at a time, so every read-compute-write sees a stable database. */
function serial() {
  let tail = Promise.resolve();
  return (fn) => {
    const run = tail.then(fn, fn);
    tail = run.then(() => {}, () => {});
    return run;
  };
}

/** SQLITE_BUSY (or SQLITE_LOCKED) from any backend: better-sqlite3's code, sqlite-wasm's resultCode, node:sqlite's errcode, D1's text. */
function isBusy(e) {
  if (!e || typeof e !== "object" || e instanceof CacheBusyError) return false;
  if (typeof e.code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(e.code)) return true;
  for (const rc of [e.resultCode, e.errcode, e.errno]) if (typeof rc === "number" && ((rc & 0xff) === 5 || (rc & 0xff) === 6)) return true;
  return /\b(SQLITE_BUSY|SQLITE_LOCKED)\b|database is locked|database table is locked/.test(messageOf(e));
}

/** The CacheBusyError of a call `fn` that met SQLITE_BUSY past the busy timeout (`ms`, null: the connection's own). */
function busyError(fn, ms, e) {
  const wait = ms === null ? "the busy timeout" : `busyTimeout (${ms} ms)`;
  return new CacheBusyError(`${fn}: the database is locked by another connection (SQLITE_BUSY) for longer than ${wait}; ` +
    `retrying the call is safe (${messageOf(e)})`, e);
}

/** A short random name for this cache as a writer, stored in md_meta with each generation it commits. */
function writerId(kind) {
  const b = new Uint8Array(4);
  globalThis.crypto.getRandomValues(b);
  const name = String(kind ?? "custom").replace(/[^0-9a-z-]/gi, "").toLowerCase() || "custom";
  return `${name}-${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")}`;
}

/** options.path: a non-empty, well-formed string without NUL (a C API would stop at the NUL and open another file). */
/** An options object's `now`: the time it gives, checked, or the clock's. */
function nowOption(fn, options) {
  return options.now === undefined ? Date.now() : time(fn, "options.now", options.now);
}

function checkPath(fn, path) {
  if (typeof path !== "string") throw typeError(fn, "options.path", "a string", path);
  if (path.length === 0) throw new TypeError(`${fn}: options.path must be a non-empty string`);
  const nul = path.indexOf("\u0000");
  if (nul >= 0) {
    throw new TypeError(`${fn}: options.path must not hold a NUL character (at index ${nul}): the file opened would be another`);
  }
  const at = loneSurrogate(path);
  if (at >= 0) throw new TypeError(`${fn}: options.path holds a lone surrogate at index ${at}: the file name would become U+FFFD`);
}

/**
 * What the database holds, read before anything is written: { fresh: true } for an empty
 * database; { meta } for a memdomain cache; else a RangeError (a foreign database is never
 * written to: not even CREATE TABLE IF NOT EXISTS, which would add tables beside its own).
 */
async function readSchema(fn, db, where) {
  const rows = await db.all(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view')
    AND substr(name, 1, 7) <> 'sqlite_' AND substr(name, 1, 4) <> '_cf_'`);
  const names = rows.map((r) => r.name).sort(byPath);
  if (names.length === 0) return { fresh: true, meta: {}, names };
  let meta = null;
  if (names.includes("md_meta")) {
    try {
      meta = Object.fromEntries((await db.all("SELECT key, value FROM md_meta")).map((r) => [r.key, r.value]));
    } catch (e) {
      // an md_meta without our columns is not ours; any other failure (a lock, an I/O error) is the read's, not the
      // database's: refusing a real cache as foreign because one read failed would be a wrong answer
      if (!/no such column/i.test(messageOf(e))) throw e;
    }
  }
  if (!meta || meta.schema === undefined) {
    const shown = names.filter((n) => !n.startsWith("memories_fts_"));
    throw rangeError(fn, where, `holds a SQLite database that is not a memdomain cache (tables: ${shown.slice(0, 12).join(", ")}` +
      `${shown.length > 12 ? ", ..." : ""}); refusing to write to it`);
  }
  if (Number(meta.schema) !== SCHEMA_VERSION && Number(meta.schema) !== 1)
    throw rangeError(fn, "options", `open a cache of schema ${meta.schema}; this memdomain/cache reads schema ${SCHEMA_VERSION} (and 1, which it upgrades)`);
  const missing = TABLES.filter((t) => !names.includes(t));
  if (missing.length) {
    throw rangeError(fn, where, `holds a memdomain cache database without its table(s) ${missing.join(", ")}; refusing to write to it`);
  }
  return { fresh: false, meta, names };
}

/**
 * Open a memory cache. options: { path = ":memory:" | file | OPFS name, driver (how a file
 * opens in Node and Deno: "node:sqlite", the default where it exists, or "better-sqlite3"),
 * db (an adapter, a D1 binding, a better-sqlite3 Database, a node:sqlite DatabaseSync or a
 * sqlite-wasm oo1 DB), bytes (open a
 * copy of a database file), dim (the embedding dimension; otherwise the first put
 * fixes it), sqlite3 (an initialized sqlite-wasm module), wasm (what memdomain's
 * init() takes), limits, onExternalChange ("resync", the default: reload what the
 * cache keeps in memory when another writer changed the database; "error": throw a
 * CacheChangedError), busyTimeout (ms to wait for another connection's lock), storage (a
 * SQLite-backed Durable Object's ctx.storage), maxResidentBytes (refuse what would take the
 * cache's estimated peak memory past it; default 96 MiB on a Durable Object, none elsewhere) }.
 */
export async function openMemoryCache(options = {}) {
  const fn = "openMemoryCache";
  record(fn, "options", options);
  known(fn, "options", options, ["path", "db", "bytes", "dim", "sqlite3", "wasm", "limits", "vfs", "onExternalChange", "busyTimeout",
    "driver", "storage", "maxResidentBytes", "embed", "embedBatch", "searchAccess"]);
  if (options.searchAccess !== undefined && typeof options.searchAccess !== "boolean")
    throw typeError(fn, "options.searchAccess", "a boolean", options.searchAccess);
  const embed = checkEmbed(fn, options.embed, options.embedBatch);
  const limits = { ...DEFAULT_LIMITS };
  if (options.limits !== undefined) {
    record(fn, "options.limits", options.limits);
    known(fn, "options.limits", options.limits, Object.keys(DEFAULT_LIMITS));
    for (const [k, v] of Object.entries(options.limits)) limits[k] = finite(fn, `options.limits.${k}`, v, { lo: 1, integer: true });
  }
  const dim = finite(fn, "options.dim", options.dim, { lo: 1, hi: 65536, integer: true, nullable: true });
  const onExternalChange = options.onExternalChange ?? "resync";
  if (onExternalChange !== "resync" && onExternalChange !== "error")
    throw rangeError(fn, "options.onExternalChange", `must be "resync" or "error", got ${shown(onExternalChange)}`);
  const busyTimeout = finite(fn, "options.busyTimeout", options.busyTimeout, { lo: 0, hi: 2 ** 31 - 1, integer: true, nullable: true });
  const maxResident = options.maxResidentBytes === undefined ? undefined
    : finite(fn, "options.maxResidentBytes", options.maxResidentBytes, { lo: 0, integer: true, nullable: true });
  if (options.storage !== undefined) {
    for (const other of ["db", "path", "bytes"]) {
      if (options[other] !== undefined) throw new TypeError(`${fn}: options.storage and options.${other} name two databases; pass one`);
    }
  }
  if (options.db === undefined && options.path !== undefined) checkPath(fn, options.path);
  if (!isInitialized()) await init(options.wasm);
  const db = await openAdapter(options);
  let busyMs = null;
  try {
    // the busy timeout first: the reads below wait for another connection's lock as every later call does
    if (typeof db.busyTimeout === "function") busyMs = await db.busyTimeout(busyTimeout ?? undefined);
    const where = options.storage !== undefined ? "options.storage" : options.db !== undefined ? "options.db"
      : options.bytes !== undefined ? "options.bytes" : "options.path";
    let schema;
    try {
      schema = await readSchema(fn, db, where);
    } catch (e) {
      if (!(e instanceof RangeError) && !isBusy(e)) {
        if (options.bytes !== undefined) throw rangeError(fn, "options.bytes", `is not a usable SQLite database (${messageOf(e)})`);
        if (where === "options.path") throw pathError(options.path, `is not a usable SQLite database (${messageOf(e)})`, e);
      }
      throw e;
    }
    const stored = schema.meta.dim === undefined ? null : Number(schema.meta.dim);
    if (dim !== null && stored !== null && dim !== stored)
      throw rangeError(fn, "options.dim", `is ${dim}, but the cache holds embeddings of dimension ${stored}`);
    // one batch: a database is either untouched or a whole memdomain cache (OR IGNORE: another opener may have won the race)
    const writes = schema.fresh ? SCHEMA.map((sql) => ({ sql })) : [];
    const keep = (key, value) => writes.push({ sql: "INSERT OR IGNORE INTO md_meta (key, value) VALUES (?, ?)", params: [key, value] });
    if (schema.meta.schema === undefined) keep("schema", String(SCHEMA_VERSION));
    if (Number(schema.meta.schema) === 1) { // schema 1 -> 2: the columns of archive, reprieve, access from searches, tags and metadata
      for (const c of V2) writes.push({ sql: `ALTER TABLE memories ADD COLUMN ${c}` });
      writes.push({ sql: "UPDATE memories SET updated_at = created_at, seen_at = decayed_at" });
      writes.push({ sql: "UPDATE md_meta SET value = ? WHERE key = 'schema'", params: [String(SCHEMA_VERSION)] });
    }
    if (schema.meta.generation === undefined) keep("generation", "0");
    if (!schema.names.includes("md_log")) { // a cache made before the log: it is complete from now on
      if (!schema.fresh) writes.push({ sql: LOG_TABLE });
      writes.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('log_since', coalesce((SELECT value FROM md_meta " +
        "WHERE key = 'generation'), '0'))" });
    }
    if (!schema.fresh && !schema.names.includes("md_neighbors")) writes.push({ sql: NEIGHBORS_TABLE });
    if (!schema.fresh && !schema.names.includes("md_labels")) writes.push({ sql: LABELS_TABLE });
    if (stored === null && dim !== null) keep("dim", String(dim));
    await db.batch(writes);
    // a Durable Object's isolate has 128 MB and is killed past it: a default budget there; none elsewhere
    const maxResidentBytes = maxResident !== undefined ? maxResident : db.kind === "durable-object" ? DURABLE_OBJECT_RESIDENT_BYTES : null;
    const cache = new MemoryCache(db, limits, { onExternalChange, busyMs, maxResidentBytes, embed, searchAccess: options.searchAccess !== false });
    await cache._load();
    await rearm(db.storage, cache._schedule); // a schedule whose alarm was lost (an aborted or failed alarm) sleeps again
    if (dim !== null && cache.dim !== dim) {
      throw rangeError(fn, "options.dim", `is ${dim}, but the cache holds embeddings of dimension ${cache.dim}`);
    }
    return cache;
  } catch (e) {
    await db.close().catch(() => {});
    throw isBusy(e) ? busyError(fn, busyMs, e) : e;
  }
}

class MemoryCache {
  constructor(db, limits, { onExternalChange, busyMs, maxResidentBytes = null, embed = { fn: null, batch: 1 }, searchAccess = true }) {
    this._db = db;
    this._embed = embed; // { fn: options.embed or null, batch }
    this._calibration = null; // md_meta.calibration (calibrate.js), or null
    this._recent = []; // this cache's last RECENT_SEARCHES searches: { text, vector, paths, labelled (Set) }
    // memories its searches returned since its last sleep pass: path -> { n (hits, one per REINFORCE_COOLDOWN_S), at }
    this._hits = new Map();
    this._filters = new Map(); // a compiled filter's key -> { gen, allow } (FILTERS_KEPT, least recently used first)
    this._searchAccess = searchAccess;
    this._limits = limits;
    this._resident = new Resident(null);
    this._lexical = new Lexical();
    this._queue = serial();
    this._closed = false;
    this._onExternalChange = onExternalChange;
    this._busyMs = busyMs;
    this._maxResident = maxResidentBytes; // null: no budget
    this._text = 0; // bytes of live text (gist and body), kept by puts; counted again after a write that removes memories
    this._textStale = true;
    this._id = writerId(db.kind);
    // the backoff between write attempts: jitter from a generator seeded by this cache's random writer name
    // (tests set their own random and wait)
    this._retry = { random: rng(parseInt(this._id.slice(-8), 16)), wait: (ms) => new Promise((r) => setTimeout(r, ms)) };
    this._gen = null; // the generation the memory reflects
    this._dv = null; // PRAGMA data_version when it was read (null: the backend has none)
    this._invalid = true; // the memory may not be the database's: reload before the next operation that uses it
    this._schedule = null; // a Durable Object's sleep schedule (durable.js), as the database holds it
    this._inAlarm = 0; // onAlarm calls running: the runtime cleared the alarm while they run, so it is not re-armed
  }

  /** The embedding dimension (null until the first embedding is stored). */
  get dim() {
    return this._resident.dim;
  }

  /** Which backend holds the data: "sqlite-wasm", "better-sqlite3", "node:sqlite", "d1", "durable-object" or an adapter's own kind. */
  get backend() {
    return this._db.kind ?? "custom";
  }

  /**
   * md_meta's generation counter, the edges' generation and the log's start, PRAGMA data_version where
   * the adapter reads it, and with `writer` the name of the cache that wrote the generation.
   */
  async _readGeneration(writer = false) {
    const db = this._db;
    let g, e, l;
    if (typeof db.numbers === "function") [g, e, l] = (await db.numbers(GENERATION_SQL)).map((c) => c[0]);
    else ({ g, e, l } = (await db.all(GENERATION_SQL))[0]);
    const dv = typeof db.dataVersion === "function" ? await db.dataVersion() : null;
    const w = writer ? (await db.all("SELECT value FROM md_meta WHERE key = 'writer'"))[0]?.value ?? null : undefined;
    return { gen: Number(g), edgesGen: Number(e), logSince: l < 0 ? Infinity : Number(l), dv, writer: w };
  }

  /** Everything kept in memory, derived again from the database (generation first: a later change is seen next time). */
  async _load(fn = "openMemoryCache") {
    this._invalid = true;
    const s = await this._readGeneration();
    const meta = Object.fromEntries((await this._db.all("SELECT key, value FROM md_meta WHERE key = 'dim'")).map((r) => [r.key, r.value]));
    this._resident.dim = meta.dim === undefined ? null : Number(meta.dim);
    if (this._maxResident !== null) { // refuse before reading more than the budget holds
      const c = await storedCounts(this._db);
      checkResident(fn, this._maxResident, { ...c, dim: this._resident.dim }, "the cache holds");
      this._text = c.text;
      this._textStale = false;
    }
    await this._resident.load(this._db);
    await this._lexical.load(this._db);
    await this._loadCalibration();
    await this._loadSchedule();
    this._gen = s.gen;
    this._dv = s.dv;
    this._invalid = false;
  }

  /** On a backend with an alarm: the stored sleep schedule, which each call checks its alarm against. */
  async _loadSchedule() {
    if (hasAlarm(this._db.storage)) this._schedule = await readSchedule(this._db);
  }

  /** The stored calibration (md_meta.calibration, written by calibrate() and sleep()), or null. */
  async _loadCalibration() {
    const [row] = await this._db.all("SELECT value FROM md_meta WHERE key = 'calibration'");
    let c = null;
    try {
      c = row ? JSON.parse(row.value) : null;
    } catch {
      c = null; // not ours to read: the defaults apply
    }
    this._calibration = c !== null && typeof c === "object" && (c.vector === null || Number.isFinite(c.vector)) ? c : null;
  }

  /** Before an operation that uses the memory: reload it (or refuse) when the database is not what it reflects. */
  async _sync(fn) {
    if (this._invalid) return this._load(fn);
    const s = await this._readGeneration();
    if (s.gen === this._gen && s.dv === this._dv) return;
    if (this._onExternalChange === "error") {
      s.writer = (await this._readGeneration(true)).writer;
      const who = s.gen !== this._gen ? `memdomain/cache writer ${s.writer ?? "unknown"}`
        : "a connection that is not a memdomain cache: PRAGMA data_version moved, the generation did not";
      throw new CacheChangedError(`${fn}: the database was changed by another writer (${who}), generation ${s.gen} where this cache ` +
        `last saw ${this._gen}, and options.onExternalChange is "error": reopen the cache, or open it with onExternalChange: "resync"`,
      { generation: s.gen, writer: s.writer });
    }
    // only data_version moved: a connection that is not a memdomain cache wrote, in any way: read everything again
    if (s.gen === this._gen) return this._load(fn);
    await this._refresh(s, fn);
  }

  /**
   * The resync after other memdomain caches' writes, reading only what they changed: the rows of
   * the paths md_log lists since this cache's generation (the edges too when a batch since may
   * have changed them). A cache further behind than the log reaches reads everything (_load).
   */
  async _refresh(s, fn) {
    if (this._gen < s.logSince) return this._load(fn);
    this._invalid = true;
    this._textStale = true;
    const db = this._db, res = this._resident, lex = this._lexical;
    const changed = (await db.all("SELECT DISTINCT path FROM md_log WHERE gen > ?", [this._gen])).map((r) => r.path);
    if (changed.length) {
      const meta = Object.fromEntries((await db.all("SELECT key, value FROM md_meta WHERE key = 'dim'")).map((r) => [r.key, r.value]));
      res.dim = meta.dim === undefined ? null : Number(meta.dim);
      const rows = new Map((await db.all(`SELECT m.id AS id, m.path AS path, m.embedding AS embedding, m.access_count AS access_count,
        m.outcome_score AS outcome_score, m.reinforcement_count AS reinforcement_count, m.superseded_by AS superseded_by,
        m.archived_at AS archived_at, m.gist AS gist, m.body AS body FROM memories m JOIN json_each(?) j ON m.path = j.value`,
      [JSON.stringify(changed)])).map((r) => [r.path, r]));
      const touched = new Set(changed);
      const removed = [], added = []; // the index rows the other writers removed and (re)wrote
      for (const [id, p] of lex.pathOf) {
        if (!touched.has(p)) continue;
        lex.pathOf.delete(id);
        removed.push(id);
      }
      for (const p of changed) {
        const r = rows.get(p);
        if (!r || r.superseded_by !== null || r.archived_at !== null) {
          res.removeMemory(p);
          continue;
        }
        res.setMemory(p, r.embedding ? float32View(r.embedding) : undefined, r.access_count, r.outcome_score, r.reinforcement_count);
        lex.pathOf.set(r.id, p);
        added.push({ id: r.id, gist: r.gist, body: r.body });
      }
      lex.changed(removed, added);
    }
    if (s.edgesGen > this._gen) await res.loadEdges(db);
    await this._loadCalibration();
    await this._loadSchedule();
    this._gen = s.gen;
    this._dv = s.dv;
    this._invalid = false;
  }

  /**
   * Commit `st` in one batch with the generation guard and bump, then `apply` the change to
   * the memory at once (before any callback can throw). A batch that throws: if it is known
   * to have committed (the generation is ours), apply anyway; if it is unknown, reload before
   * the next operation; if the guard stopped it, another writer came in between (Conflict).
   */
  async _write(fn, st, apply, { edges = false, paths = [] } = {}) {
    if (!st.length) return;
    const g = this._gen, next = g + 1;
    const bump = edges ? [String(next), this._id, String(next), String(g)] : [String(next), this._id, String(g)];
    const head = [{ sql: BUMP_SQL[edges ? 1 : 0], params: bump }];
    // a batch of more than LOG_MAX_PATHS paths is not logged: the log starts after it, and a cache that has
    // not seen it reads everything (cheaper than logging, and re-reading, most of the rows one by one)
    if (paths.length > LOG_MAX_PATHS) head.push({ sql: LOG_SINCE_SQL, params: [String(next)] });
    else if (paths.length) {
      head.push({ sql: "INSERT OR IGNORE INTO md_log (gen, path) SELECT ?, value FROM json_each(?)",
        params: [next, JSON.stringify(paths)] });
    }
    if (next % 64 === 0 && next > LOG_GENERATIONS) { // keep the last LOG_GENERATIONS generations
      head.push({ sql: "DELETE FROM md_log WHERE gen <= ?", params: [next - LOG_GENERATIONS] });
      head.push({ sql: LOG_SINCE_SQL, params: [String(next - LOG_GENERATIONS)] });
    }
    try {
      await this._db.batch([...head, ...st]);
    } catch (e) {
      if (GUARD_FAILED.test(messageOf(e))) {
        // nothing was written and the memory is still this cache's last view: the next _sync sees the other
        // writer's generation and resyncs from the log ("resync"), or refuses ("error") on this and later calls
        throw new Conflict(messageOf(e));
      }
      let s = null;
      try {
        s = await this._readGeneration(true);
      } catch {
        s = null;
      }
      if (s && s.gen === next && s.writer === this._id) this._commit(next, apply); // committed; only the acknowledgement was lost
      else if (!s || s.gen !== g) this._invalid = true;
      throw e;
    }
    this._commit(next, apply);
  }

  /**
   * options.maxResidentBytes: a RangeError when these checked rows (put or imported) would bring the
   * cache past it. Counts from the memory (live memories, embeddings) and the text counted so far.
   */
  async _checkGrowth(fn, rows, dim) {
    const res = this._resident, db = this._db;
    if (this._textStale) {
      this._text = (await storedCounts(db)).text;
      this._textStale = false;
    }
    let live = res.meta.size, vectors = res.vecs.size, text = this._text;
    const replaced = [];
    for (const r of rows) {
      const alive = isLive(r), was = res.meta.has(r.path);
      live += (alive ? 1 : 0) - (was ? 1 : 0);
      vectors += (alive && r.vec ? 1 : 0) - (res.vecs.has(r.path) ? 1 : 0);
      if (alive) text += utf8Length(r.gist) + utf8Length(r.body);
      if (was) replaced.push(r.path);
    }
    if (replaced.length) { // the text these rows replace
      const [{ t }] = await db.all(`SELECT coalesce(sum(octet_length(m.gist) + octet_length(m.body)), 0) AS t FROM memories m
        JOIN json_each(?) j ON m.path = j.value WHERE m.superseded_by IS NULL AND m.archived_at IS NULL`, [JSON.stringify(replaced)]);
      text -= Number(t);
    }
    checkResident(fn, this._maxResident, { live, vectors, dim, text }, "memories would bring the cache to");
    this._pendingText = text;
  }

  /** Before a sleep pass under options.maxResidentBytes: the stored counts, checked (the pass reads every live row). */
  async _sleepBudget(fn) {
    if (this._maxResident === null) return true;
    const c = await storedCounts(this._db);
    this._text = c.text;
    this._textStale = false;
    checkResident(fn, this._maxResident, { ...c, dim: this._resident.dim }, "the cache holds");
    return true;
  }

  /**
   * What the cache holds and its estimated peak memory (a sleep pass; see budget.js): { live, vectors
   * (live memories with an embedding), dim, text (bytes of gist and body), estimate (bytes), max
   * (options.maxResidentBytes, null: none) }.
   */
  residentBytes() {
    return this._op("residentBytes", async () => {
      const c = { ...(await storedCounts(this._db)), dim: this._resident.dim };
      return { ...c, estimate: residentEstimate(c), max: this._maxResident };
    }, { state: false });
  }

  _commit(gen, apply) {
    this._gen = gen;
    try {
      apply();
    } catch (e) {
      this._invalid = true;
      throw e;
    }
  }

  /**
   * Run one operation in the queue. `state`: it uses the memory, so the memory is brought in
   * line with the database first. A write that lost the race to another writer runs again
   * (onExternalChange "resync", up to WRITE_ATTEMPTS times); SQLITE_BUSY becomes a CacheBusyError.
   */
  _op(fn, body, { state = true } = {}) {
    if (this._closed) return Promise.reject(rangeError(fn, "this", "is closed"));
    return this._queue(async () => {
      if (this._closed) throw rangeError(fn, "this", "is closed");
      for (let attempt = 1; ; attempt++) {
        try {
          const run = async () => {
            if (state) await this._sync(fn);
            if (this._schedule !== null && this._inAlarm === 0) await rearm(this._db.storage, this._schedule);
            return body();
          };
          if (attempt < WRITE_ATTEMPTS || typeof this._db.exclusive !== "function") return await run();
          try {
            return await this._db.exclusive(run);
          } catch (e) {
            this._invalid = true; // its commit may have failed after the memory followed the batch: read it again
            throw e;
          }
        } catch (e) {
          if (e instanceof Conflict) {
            if (this._onExternalChange === "resync" && attempt < WRITE_ATTEMPTS) {
              await this._retry.wait(Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempt - 1)) * (0.5 + 0.5 * this._retry.random()));
              continue;
            }
            throw new CacheChangedError(this._onExternalChange === "error"
              ? `${fn}: another writer committed to the database while this call ran, and options.onExternalChange is "error"; ` +
                "nothing was written: reopen the cache, or open it with onExternalChange: \"resync\""
              : `${fn}: another writer committed to the database while this call ran, ${attempt} times in a row; ` +
                "nothing was written; retry");
          }
          if (isBusy(e)) throw busyError(fn, this._busyMs, e);
          throw e;
        }
      }
    });
  }

  /**
   * How many memories are stored: all of them (superseded and archived ones included), or with
   * options { live: true } the live ones (in every arm), { archived: true } the archived ones.
   */
  count(options = {}) {
    const fn = "count";
    return this._op(fn, async () => {
      record(fn, "options", options);
      known(fn, "options", options, ["live", "archived"]);
      for (const k of ["live", "archived"]) if (options[k] !== undefined && typeof options[k] !== "boolean") throw typeError(fn, `options.${k}`, "a boolean", options[k]);
      if (options.live && options.archived) throw rangeError(fn, "options", "asks for live and archived memories: none is both");
      const where = options.live ? ` WHERE ${LIVE}` : options.archived ? " WHERE archived_at IS NOT NULL" : "";
      return (await this._db.all(`SELECT count(*) AS n FROM memories${where}`))[0].n;
    }, { state: false });
  }

  /**
   * Stored paths in SQLite's order (code points), without reading the memories: options { prefix,
   * filter, limit = 1000 (at most MAX_PATHS_PAGE), after (a path: the page after it), which:
   * "live" (default) | "archived" | "all" }. Resolves { paths, next } (next: the \`after\` of the
   * next page, or null at the end).
   */
  paths(options = {}) {
    const fn = "paths";
    return this._op(fn, async () => {
      record(fn, "options", options);
      known(fn, "options", options, ["prefix", "filter", "limit", "after", "which"]);
      const limit = finite(fn, "options.limit", options.limit, { lo: 1, hi: MAX_PATHS_PAGE, integer: true, dflt: 1000 });
      const which = options.which ?? "live";
      if (!["live", "archived", "all"].includes(which)) throw rangeError(fn, "options.which", `must be "live", "archived" or "all", got ${shown(which)}`);
      const { sql, params } = this._selection(fn, options);
      const cond = [which === "live" ? LIVE : which === "archived" ? "archived_at IS NOT NULL" : "1", sql];
      if (options.after !== undefined) {
        cond.push("m.path > ?");
        params.push(string(fn, "options.after", options.after, this._limits.path, { key: true }));
      }
      const rows = await this._db.all(`SELECT m.path AS path FROM memories m WHERE ${cond.join(" AND ")} ORDER BY m.path LIMIT ?`, [...params, limit + 1]);
      const more = rows.length > limit;
      const paths = rows.slice(0, limit).map((r) => r.path);
      return { paths, next: more ? paths[paths.length - 1] : null };
    }, { state: false });
  }

  /** options { prefix, filter } as one SQL condition over memories m and its parameters. */
  _selection(fn, options) {
    const parts = [], params = [];
    if (options.prefix !== undefined) {
      const pre = string(fn, "options.prefix", options.prefix, this._limits.path);
      parts.push("substr(m.path, 1, length(?)) = ?");
      params.push(pre, pre);
    }
    const f = compileFilter(fn, "options.filter", options.filter, this._limits);
    if (f) {
      parts.push(`(${f.sql})`);
      params.push(...f.params);
    }
    return { sql: parts.length ? parts.join(" AND ") : "1", params };
  }

  // ------------------------------------------------------------------ put

  /** A checked memory record (records.js); `full` (importJsonl) takes every stored field, put() only its own. */
  _checkMemory(fn, m, at, dim, full = false) {
    return checkMemory(fn, m, at, dim, this._limits, full);
  }

  /**
   * Insert or replace memories, atomically (all or nothing). options: { onConflict:
   * "replace" (default) | "error", onProgress }. Resolves { inserted, replaced }.
   */
  put(memories, options = {}) {
    const fn = "put";
    return this._op(fn, async () => {
      arr(fn, "memories", memories);
      record(fn, "options", options);
      known(fn, "options", options, ["onConflict", "onProgress"]);
      const onConflict = options.onConflict ?? "replace";
      if (onConflict !== "replace" && onConflict !== "error") throw rangeError(fn, "options.onConflict", `must be "replace" or "error", got ${shown(onConflict)}`);
      const progress = progressFn(fn, options.onProgress);
      if (memories.length > this._limits.batch) throw rangeError(fn, "memories", `has ${memories.length} entries, more than the limit ${this._limits.batch}`);
      const n = memories.length;
      let dim = this._resident.dim;
      const rows = new Array(n);
      const index = new Map();
      for (let i = 0; i < n; i++) {
        const r = this._checkMemory(fn, memories[i], `memories[${i}]`, dim);
        if (r.vec && dim === null) dim = r.vec.length;
        const prev = index.get(r.path);
        if (prev !== undefined) throw rangeError(fn, `memories[${i}].path`, `repeats memories[${prev}].path (${JSON.stringify(r.path.slice(0, 80))})`);
        index.set(r.path, i);
        rows[i] = r;
        if ((i & 4095) === 4095) progress({ phase: "validate", done: i + 1, total: n });
      }
      progress({ phase: "validate", done: n, total: n });
      if (n === 0) return { inserted: 0, replaced: 0 };
      dim = await this._embedMissing(fn, memories, rows, dim, (i) => `memories[${i}]`);
      const { inserted, replaced } = await this._upsert(fn, rows, dim, { onConflict, progress, at: (i) => `memories[${i}]` });
      return { inserted, replaced };
    });
  }

  /**
   * With options.embed: the vectors of the checked rows whose memory left `embedding` out (undefined;
   * null stores no vector), embedded from their text in batches. Returns the dimension after them.
   */
  async _embedMissing(fn, memories, rows, dim, at) {
    if (!this._embed.fn) return dim;
    const todo = [];
    rows.forEach((r, i) => { if (memories[i].embedding === undefined) todo.push(i); });
    if (!todo.length) return dim;
    const vecs = await embedTexts(fn, this._embed.fn, todo.map((i) => memoryText(rows[i].gist, rows[i].body)), "document", dim,
      { at: (j) => at(todo[j]), batch: this._embed.batch });
    todo.forEach((i, j) => (rows[i].vec = vecs[j]));
    return dim ?? vecs[0].length;
  }

  /**
   * The write of put() and importJsonl(): checked rows (their stored fields as given), then
   * `edges` and `meta` (import only), in one batch; the memory follows the commit.
   */
  async _upsert(fn, rows, dim, { onConflict = "replace", progress, at, edges = [], meta = {}, settings = {} }) {
    const n = rows.length;
    if (this._maxResident !== null) await this._checkGrowth(fn, rows, dim);
    const existing = new Map();
    for (const r of await this._db.all("SELECT m.path AS path, m.id AS id FROM memories m JOIN json_each(?) j ON m.path = j.value",
      [JSON.stringify(rows.map((r) => r.path))])) existing.set(r.path, r.id);
    if (onConflict === "error" && existing.size) {
      const i = rows.findIndex((r) => existing.has(r.path));
      throw rangeError(fn, `${at(i)}.path`, `already exists in the cache (${JSON.stringify(rows[i].path.slice(0, 80))}) and options.onConflict is "error"`);
    }
    // ids only grow (md_meta.next_id): a row put after a delete never takes a deleted row's id, which a
    // cache that has not seen the delete yet would still map to the deleted path. A replaced row keeps its
    // id (new ids for replacements would grow the lexical arm's rowid-indexed sums with every rewrite).
    const [ids0] = await this._db.all(
      "SELECT coalesce((SELECT max(id) FROM memories), 0) AS m, (SELECT value FROM md_meta WHERE key = 'next_id') AS n");
    let nextId = Math.max(Number(ids0.m) + 1, ids0.n === null || ids0.n === undefined ? 1 : Number(ids0.n));
    const st = [], ids = [];
    if (this._resident.dim === null && dim !== null) {
      st.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('dim', ?)", params: [String(dim)] });
    }
    for (const r of rows) {
      const values = storedValues(r);
      let id = existing.get(r.path);
      if (id !== undefined) {
        st.push({ sql: UPDATE_SQL, params: [...values, id] });
        st.push({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [id] });
      } else {
        id = nextId++;
        st.push({ sql: INSERT_SQL, params: [id, r.path, ...values] });
      }
      // the index holds live memories only
      if (isLive(r)) {
        st.push({ sql: "INSERT INTO memories_fts (rowid, gist, body) VALUES (?, ?, ?)", params: [id, r.gist, r.body] });
      }
      ids.push(id);
    }
    if (existing.size < n) {
      st.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('next_id', ?)", params: [String(nextId)] });
    }
    for (const e of edges) {
      st.push({ sql: "INSERT OR REPLACE INTO edges (src, dst, type, strength, origin) VALUES (?, ?, ?, ?, ?)",
        params: [e.src, e.dst, e.type, e.strength, e.origin] });
    }
    for (const [key, value] of Object.entries(meta)) { // sleep's watermarks: the later one wins
      st.push({ sql: `INSERT INTO md_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE
        SET value = CAST(max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER)) AS TEXT)`, params: [key, String(value)] });
    }
    for (const [key, value] of Object.entries(settings)) st.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES (?, ?)", params: [key, value] });
    progress({ phase: "write", done: 0, total: n });
    await this._write(fn, st, () => {
      const res = this._resident, lex = this._lexical;
      res.dim = dim;
      const removed = [], added = []; // index rows: a replaced memory's row was deleted, a live one inserted
      rows.forEach((r, i) => {
        if (lex.pathOf.has(ids[i])) removed.push(ids[i]);
        if (isLive(r)) {
          res.setMemory(r.path, r.vec, r.accessCount, r.outcomeScore, r.reinforcementCount);
          lex.pathOf.set(ids[i], r.path);
          added.push({ id: ids[i], gist: r.gist, body: r.body });
        } else {
          res.removeMemory(r.path);
          lex.pathOf.delete(ids[i]);
        }
      });
      lex.changed(removed, added);
      for (const e of edges) res.setEdge(e.src, e.dst, e.type, e.strength, e.origin);
      if (this._maxResident !== null) this._text = this._pendingText;
      if (settings.calibration !== undefined) this._calibration = JSON.parse(settings.calibration);
    }, { edges: edges.length > 0, paths: rows.map((r) => r.path) });
    progress({ phase: "write", done: n, total: n }); // after the memory follows the commit: a throw here leaves it consistent
    return { inserted: n - existing.size, replaced: existing.size, edges: edges.length };
  }

  // ------------------------------------------------------------------ get / delete / link

  _paths(fn, paths) {
    arr(fn, "paths", paths);
    return paths.map((p, i) => string(fn, `paths[${i}]`, p, this._limits.path, { key: true }));
  }

  /** The stored memories for these paths (absent ones are skipped), with their sleep-derived fields. */
  get(paths) {
    const fn = "get";
    return this._op(fn, async () => {
      const ps = this._paths(fn, paths);
      const rows = await this._db.all(`SELECT ${COLUMNS} FROM memories m JOIN json_each(?) j ON m.path = j.value ORDER BY j.key`,
        [JSON.stringify(ps)]);
      return rows.map(rowToMemory);
    }, { state: false });
  }

  /** Every stored memory, in path order (JavaScript string order). */
  all() {
    return this._op("all", async () => (await this._db.all(`SELECT ${COLUMNS} FROM memories m`)).map(rowToMemory).sort((a, b) => byPath(a.path, b.path)),
      { state: false });
  }

  /**
   * Delete memories and their edges, atomically, with the memories merged into them (superseded by
   * them, and by those, ...): these paths, or { prefix } / { filter } (every stored memory they select).
   * Resolves { deleted } (the rows deleted; a path named twice counts once).
   */
  delete(target) {
    const fn = "delete";
    return this._op(fn, async () => {
      let ps;
      if (Array.isArray(target)) ps = [...new Set(this._paths(fn, target))];
      else { // { prefix, filter }: every stored memory they select, archived and superseded ones too
        record(fn, "target", target);
        known(fn, "target", target, ["prefix", "filter"]);
        if (target.prefix === undefined && target.filter === undefined)
          throw rangeError(fn, "target", "selects nothing: give paths, or { prefix } or { filter } (delete({ prefix: \"\" }) deletes everything)");
        const { sql, params } = this._selection(fn, target);
        ps = (await this._db.all(`SELECT m.path AS path FROM memories m WHERE ${sql}`, params)).map((r) => r.path);
      }
      // with the memories merged into them (superseded by them, and by those, ...): no search returns those,
      // and a supersededBy naming a deleted memory would not import
      const ids = await this._db.all(`WITH RECURSIVE gone (path) AS (SELECT value FROM json_each(?)
        UNION SELECT m.path FROM memories m JOIN gone g ON m.superseded_by = g.path)
        SELECT m.id AS id, m.path AS path FROM memories m JOIN gone g ON m.path = g.path`, [JSON.stringify(ps)]);
      if (!ids.length) return { deleted: 0 };
      const json = JSON.stringify(ids.map((r) => r.path));
      const st = ids.map((r) => ({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [r.id] }));
      st.push({ sql: "DELETE FROM memories WHERE path IN (SELECT value FROM json_each(?))", params: [json] });
      st.push({ sql: "DELETE FROM edges WHERE src IN (SELECT value FROM json_each(?)) OR dst IN (SELECT value FROM json_each(?))", params: [json, json] });
      await this._write(fn, st, () => {
        const removed = ids.filter((r) => this._lexical.pathOf.has(r.id)).map((r) => r.id);
        for (const r of ids) {
          this._resident.removeMemory(r.path);
          this._lexical.pathOf.delete(r.id);
        }
        this._lexical.changed(removed, []);
        this._textStale = true;
        this._resident.removeEdgesOf(ids.map((r) => r.path)); // only these rows' edges; the graph is rebuilt on the next lateral search
      }, { edges: true, paths: ids.map((r) => r.path) });
      return { deleted: ids.length };
    });
  }

  /**
   * Add or replace typed edges between stored memories: [{ src, dst, strength in [0, 1],
   * type = "related" }]. Both ends must exist. Resolves { linked }.
   */
  link(links) {
    const fn = "link";
    return this._op(fn, async () => {
      arr(fn, "links", links);
      const L = this._limits;
      const rows = links.map((l, i) => {
        record(fn, `links[${i}]`, l);
        return {
          src: string(fn, `links[${i}].src`, l.src, L.path, { key: true }),
          dst: string(fn, `links[${i}].dst`, l.dst, L.path, { key: true }),
          strength: finite(fn, `links[${i}].strength`, l.strength, { lo: 0, hi: 1 }),
          type: l.type === undefined ? "related" : string(fn, `links[${i}].type`, l.type, L.type, { key: true }),
        };
      });
      if (!rows.length) return { linked: 0 };
      const names = [...new Set(rows.flatMap((r) => [r.src, r.dst]))];
      const found = new Set((await this._db.all("SELECT m.path AS path FROM memories m JOIN json_each(?) j ON m.path = j.value",
        [JSON.stringify(names)])).map((r) => r.path));
      rows.forEach((r, i) => {
        for (const end of ["src", "dst"]) if (!found.has(r[end])) throw rangeError(fn, `links[${i}].${end}`, `names no stored memory (${JSON.stringify(r[end].slice(0, 80))})`);
      });
      await this._write(fn, rows.map((r) => ({
        sql: "INSERT OR REPLACE INTO edges (src, dst, type, strength, origin) VALUES (?, ?, ?, ?, 'link')",
        params: [r.src, r.dst, r.type, r.strength],
      })), () => { for (const r of rows) this._resident.setEdge(r.src, r.dst, r.type, r.strength, "link"); }, { edges: true });
      return { linked: rows.length };
    });
  }

  /** Stored edges: [{ src, dst, type, strength, origin }] ("link" from link(), "sleep" and "merge" from sleep()). */
  edges() {
    return this._op("edges", async () => (await this._db.all("SELECT src, dst, type, strength, origin FROM edges"))
      .sort((a, b) => byPath(a.src, b.src) || byPath(a.dst, b.dst) || byPath(a.type, b.type)), { state: false });
  }

  // ------------------------------------------------------------------ archive

  /** Archived memories (sleep archives the evict band when its policy says so), in path order, every stored field. */
  archived() {
    return this._op("archived", async () => (await this._db.all(`SELECT ${COLUMNS} FROM memories m WHERE m.archived_at IS NOT NULL`))
      .map(rowToMemory).sort((a, b) => byPath(a.path, b.path)), { state: false });
  }

  /**
   * Archive memories by hand, atomically: out of every arm, kept, listed by archived(), restorable
   * (archiveReason "manual"). options: { now (default Date.now()) }. Paths that are not stored are a
   * RangeError; paths already archived are left as they are. Resolves { archived }.
   */
  archive(paths, options = {}) {
    const fn = "archive";
    return this._op(fn, async () => {
      const ps = [...new Set(this._paths(fn, paths))];
      record(fn, "options", options);
      known(fn, "options", options, ["now"]);
      const now = nowOption(fn, options);
      const rows = new Map((await this._db.all(`SELECT m.id AS id, m.path AS path, m.archived_at AS a, m.superseded_by AS s FROM memories m
        JOIN json_each(?) j ON m.path = j.value`, [JSON.stringify(ps)])).map((r) => [r.path, r]));
      ps.forEach((p, i) => { if (!rows.has(p)) throw rangeError(fn, `paths[${i}]`, `names no stored memory (${JSON.stringify(p.slice(0, 80))})`); });
      const todo = ps.filter((p) => rows.get(p).a === null);
      if (!todo.length) return { archived: 0 };
      const st = [];
      for (const p of todo) {
        const r = rows.get(p);
        st.push({ sql: "UPDATE memories SET archived_at = ?, archive_reason = 'manual' WHERE id = ?", params: [now, r.id] });
        if (r.s === null) st.push({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [r.id] });
      }
      await this._write(fn, st, () => {
        const gone = [];
        for (const p of todo) {
          const r = rows.get(p);
          if (this._lexical.pathOf.has(r.id)) gone.push(r.id);
          this._resident.removeMemory(p);
          this._lexical.pathOf.delete(r.id);
        }
        this._lexical.changed(gone, []);
        this._resident.staleGraphs();
        this._textStale = true;
      }, { edges: true, paths: todo });
      return { archived: todo.length };
    });
  }

  /**
   * Bring archived memories back into every arm, atomically: they count as new to the cache again
   * (the minimum age and the reprieves start over). options: { now (default Date.now()) }. Paths
   * that are not archived are a RangeError. Resolves { restored }.
   */
  restore(paths, options = {}) {
    const fn = "restore";
    return this._op(fn, async () => {
      const ps = [...new Set(this._paths(fn, paths))];
      record(fn, "options", options);
      known(fn, "options", options, ["now"]);
      const now = nowOption(fn, options);
      const rows = new Map((await this._db.all(`SELECT m.id AS id, m.path AS path, m.gist AS gist, m.body AS body, m.embedding AS embedding,
        m.access_count AS access_count, m.outcome_score AS outcome_score, m.reinforcement_count AS reinforcement_count,
        m.archived_at AS archived_at, m.superseded_by AS superseded_by FROM memories m JOIN json_each(?) j ON m.path = j.value`,
      [JSON.stringify(ps)])).map((r) => [r.path, r]));
      ps.forEach((p, i) => {
        const r = rows.get(p);
        if (!r) throw rangeError(fn, `paths[${i}]`, `names no stored memory (${JSON.stringify(p.slice(0, 80))})`);
        if (r.archived_at === null) throw rangeError(fn, `paths[${i}]`, `is not archived (${JSON.stringify(p.slice(0, 80))})`);
      });
      if (!ps.length) return { restored: 0 };
      const st = [];
      for (const p of ps) {
        const r = rows.get(p);
        st.push({ sql: `UPDATE memories SET archived_at = NULL, archive_reason = NULL, reprieve_count = 0, valid_until = NULL, seen_at = ?
          WHERE id = ?`, params: [now, r.id] });
        if (r.superseded_by === null) st.push({ sql: "INSERT INTO memories_fts (rowid, gist, body) VALUES (?, ?, ?)", params: [r.id, r.gist, r.body] });
      }
      await this._write(fn, st, () => {
        const added = [];
        for (const p of ps) {
          const r = rows.get(p);
          if (r.superseded_by !== null) continue;
          this._resident.setMemory(p, r.embedding ? float32View(r.embedding) : undefined, r.access_count, r.outcome_score, r.reinforcement_count);
          this._lexical.pathOf.set(r.id, p);
          added.push({ id: r.id, gist: r.gist, body: r.body });
        }
        this._lexical.changed([], added);
        this._resident.staleGraphs();
        this._textStale = true;
      }, { edges: true, paths: ps });
      return { restored: ps.length };
    });
  }

  /**
   * Delete archived memories for good, with their edges: options { paths } (each must be archived) or
   * { before } (archived at or before that time); {} deletes every archived memory. Resolves { purged }.
   */
  purge(options = {}) {
    const fn = "purge";
    return this._op(fn, async () => {
      record(fn, "options", options);
      known(fn, "options", options, ["paths", "before"]);
      if (options.paths !== undefined && options.before !== undefined) throw rangeError(fn, "options", "takes paths or before, not both");
      let paths;
      if (options.paths !== undefined) {
        const ps = [...new Set(this._paths(fn, options.paths))];
        const found = new Map((await this._db.all("SELECT m.path AS path, m.archived_at AS a FROM memories m JOIN json_each(?) j ON m.path = j.value",
          [JSON.stringify(ps)])).map((r) => [r.path, r.a]));
        ps.forEach((p, i) => {
          if (!found.has(p)) throw rangeError(fn, `options.paths[${i}]`, `names no stored memory (${JSON.stringify(p.slice(0, 80))})`);
          if (found.get(p) === null) throw rangeError(fn, `options.paths[${i}]`, `is not archived: purge deletes archived memories only (delete() deletes any)`);
        });
        paths = ps;
      } else {
        const before = options.before === undefined ? Infinity : time(fn, "options.before", options.before);
        paths = (await this._db.all("SELECT path, archived_at FROM memories WHERE archived_at IS NOT NULL"))
          .filter((r) => r.archived_at <= before).map((r) => r.path);
      }
      if (!paths.length) return { purged: 0 };
      const json = JSON.stringify(paths);
      await this._write(fn, [
        { sql: "DELETE FROM memories WHERE path IN (SELECT value FROM json_each(?))", params: [json] },
        { sql: "DELETE FROM edges WHERE src IN (SELECT value FROM json_each(?)) OR dst IN (SELECT value FROM json_each(?))", params: [json, json] },
      ], () => this._resident.removeEdgesOf(paths), { edges: true, paths });
      return { purged: paths.length };
    });
  }

  /** The retention policy sleep() applies: the stored one (sleep({ policy }) stores it) resolved against the defaults. */
  policy() {
    return this._op("policy", async () => {
      const [row] = await this._db.all("SELECT value FROM md_meta WHERE key = 'policy'");
      const p = resolvePolicy("policy", "the stored policy", storedPolicy("policy", row?.value));
      return { ...p.scoring, evict: p.evict, minAgeDays: p.minAgeDays, archiveBelow: p.archiveBelow, reprieve: p.reprieve, purgeAfterDays: p.purgeAfterDays };
    }, { state: false });
  }

  // ------------------------------------------------------------------ reinforce

  /**
   * Record that these memories were used: partitionByCooldown decides which may be
   * bumped now (REINFORCE_COOLDOWN_S, 900 s, since accessedAt); each bumped memory
   * gets access_count + 1, accessed_at = now and, for a "positive" or "negative"
   * signal, one outcome EWMA step (applyOutcomesFp, DEFAULT_EWMA_ALPHA). Resolves
   * { bumped, cooledDown } (paths).
   */
  reinforce(paths, options) {
    const fn = "reinforce";
    return this._op(fn, async () => {
      const ps = this._paths(fn, paths);
      record(fn, "options", options);
      known(fn, "options", options, ["now", "signal", "cooldownSeconds"]);
      const now = time(fn, "options.now", options.now);
      const signal = options.signal ?? "neutral";
      if (!["positive", "negative", "neutral"].includes(signal)) throw rangeError(fn, "options.signal", `must be "positive", "negative" or "neutral", got ${shown(signal)}`);
      const cooldown = finite(fn, "options.cooldownSeconds", options.cooldownSeconds, { lo: 0, dflt: 900 });
      const rows = await this._db.all(`SELECT m.path AS path, m.accessed_at AS accessed_at, m.access_count AS access_count,
        m.outcome_score AS outcome_score, m.reinforcement_count AS reinforcement_count FROM memories m
        JOIN json_each(?) j ON m.path = j.value ORDER BY j.key`, [JSON.stringify(ps)]);
      const byP = new Map(rows.map((r) => [r.path, r]));
      ps.forEach((p, i) => { if (!byP.has(p)) throw rangeError(fn, `paths[${i}]`, `names no stored memory (${JSON.stringify(p.slice(0, 80))})`); });
      const entries = [...byP.values()].map((r) => (r.accessed_at === null ? { path: r.path } : { path: r.path, lastAccessedAt: new Date(r.accessed_at) }));
      const { bumped, cooledDown } = partitionByCooldown(entries, new Date(now), cooldown);
      const alpha = toFp(DEFAULT_EWMA_ALPHA);
      const st = [], after = [];
      for (const p of bumped) {
        const r = byP.get(p);
        if (!(r.access_count < Number.MAX_SAFE_INTEGER)) {
          throw rangeError(fn, `paths[${ps.indexOf(p)}]`,
            `has access count ${r.access_count}, the largest the cache stores exactly; it cannot be bumped`);
        }
        const outcome = signal === "neutral" ? r.outcome_score
          : fromFp(applyOutcomesFp(alpha, toFp(r.outcome_score ?? 0), [toFp(signalValue(signal))]));
        st.push({ sql: "UPDATE memories SET access_count = ?, accessed_at = ?, outcome_score = ? WHERE path = ?",
          params: [r.access_count + 1, now, outcome, p] });
        after.push([p, r.access_count + 1, outcome, r.reinforcement_count]);
      }
      if (signal === "positive") st.push(...this._labelStatements(ps, now));
      await this._write(fn, st, () => { for (const a of after) this._resident.setSignals(...a); }, { paths: bumped });
      return { bumped, cooledDown };
    });
  }

  /**
   * A positive reinforce()'s labels: each path with the most recent of this cache's searches that
   * returned it (once per search and path), as md_labels rows; the oldest past MAX_LABELS go.
   */
  _labelStatements(paths, now) {
    const st = [];
    for (const p of new Set(paths)) {
      for (let i = this._recent.length - 1; i >= 0; i--) {
        const r = this._recent[i];
        if (!r.paths.has(p)) continue;
        if (!r.labelled.has(p)) {
          r.labelled.add(p);
          const blob = r.vector ? new Uint8Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength) : null;
          st.push({ sql: "INSERT INTO md_labels (path, text, vector, at) VALUES (?, ?, ?, ?)", params: [p, r.text, blob, now] });
        }
        break;
      }
    }
    if (st.length) st.push({ sql: "DELETE FROM md_labels WHERE id <= (SELECT max(id) FROM md_labels) - ?", params: [MAX_LABELS] });
    return st;
  }

  /** The stored labels (calibrate.js): [{ path, text, vector (null where its dimension is not the cache's) }], newest first. */
  async _labels() {
    const rows = await this._db.all("SELECT path, text, vector FROM md_labels ORDER BY id DESC LIMIT ?", [MAX_LABELS]);
    const dim = this._resident.dim;
    return rows.map((r) => {
      const v = r.vector ? float32View(r.vector) ?? null : null;
      return { path: r.path, text: r.text, vector: v && v.length === dim ? Float32Array.from(v) : null };
    });
  }

  // ------------------------------------------------------------------ search

  /**
   * A checked query: its settings, text and vector. With options.embed, a query with text and no
   * `vector` (undefined; null searches without the vector arm) is embedded as a "query".
   */
  async _checkQuery(fn, q) {
    const settings = querySettings(fn, q, "query", this._calibration);
    const text = q.text === undefined || q.text === null ? "" : string(fn, "query.text", q.text, this._limits.query);
    let vector = q.vector === undefined || q.vector === null ? null
      : embedding(fn, "query.vector", q.vector, this._resident.dim, { nonzero: true });
    if (q.vector === undefined && text && this._embed.fn)
      [vector] = await embedTexts(fn, this._embed.fn, [text], "query", this._resident.dim, { at: () => "query.text" });
    const now = q.now === undefined ? undefined : time(fn, "query.now", q.now);
    const filter = compileFilter(fn, "query.filter", q.filter, this._limits);
    const out = { ...settings, text, vector, now, filter, allow: await this._admitted(filter) };
    const w = settings.weights;
    // the vector arm can run with a vector, or one the hook embeds (a model that knows none of the words gives none)
    const vectorArm = vector !== null || (q.vector === undefined && text !== "" && this._embed.fn !== null);
    if (!text && !vector) {
      throw rangeError(fn, "query", `has neither text nor vector${this._embed.fn ? "" : " (nor an embed hook to embed text)"}, so no arm can ` +
        "run; to list memories without a query, use paths({ prefix, filter })");
    }
    if (!(w.lexical > 0 && text) && !(w.vector > 0 && vectorArm)) {
      throw rangeError(fn, "query.weights", text && vectorArm ? "give the lexical and the vector arm weight 0: no arm can run"
        : text ? "give the lexical arm weight 0 and the query has no vector: no arm can run"
          : "give the vector arm weight 0 and the query has no text: no arm can run");
    }
    return out;
  }

  /**
   * The live memories a compiled filter admits, { ids, paths } (Sets), or null without a filter; kept
   * for the last FILTERS_KEPT filters while the database is the one they were read from.
   */
  async _admitted(filter) {
    if (filter === null) return null;
    const hit = this._filters.get(filter.key);
    if (hit && hit.gen === this._gen) {
      this._filters.delete(filter.key);
      this._filters.set(filter.key, hit);
      return hit.allow;
    }
    const ids = await admitted(this._db, filter, LIVE);
    const paths = new Set();
    for (const id of ids) {
      const p = this._lexical.pathOf.get(id);
      if (p !== undefined) paths.add(p);
    }
    const allow = { ids, paths };
    this._filters.set(filter.key, { gen: this._gen, allow });
    if (this._filters.size > FILTERS_KEPT) this._filters.delete(this._filters.keys().next().value);
    return allow;
  }

  /** What the search pipeline reads: the database, the kept term lists, the resident rows and graph, the embed hook. */
  get _io() {
    return { db: this._db, lexical: this._lexical, resident: this._resident, embed: this._embed, calibration: this._calibration };
  }

  /** The calibration search uses (see calibrate.js), or null: { vector, table, arms, plateau, queries, ... }. */
  calibration() {
    return this._op("calibration", async () => this._calibration);
  }

  /**
   * Measure the arms on pseudo-queries drawn from the cache's own memories (and on the labels
   * reinforce() recorded) and store the vector weight search's default composition then uses
   * (see calibrate.js). options: { seed = 1, samples = 200, onProgress }. Resolves the calibration.
   */
  calibrate(options = {}) {
    const fn = "calibrate";
    return this._op(fn, async () => {
      return this._calibrate(fn, checkCalibrateOptions(fn, options));
    });
  }

  /** Calibrate and store the result (inside an operation). */
  async _calibrate(fn, o) {
    const labels = await this._labels();
    const result = await calibrate(this._io, fn, o, labels);
    result.labelsSeen = labels.length;
    result.embedHook = this._embed.fn !== null;
    await this._write(fn, [{ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('calibration', ?)", params: [JSON.stringify(result)] }],
      () => { this._calibration = result; });
    return result;
  }

  /**
   * Whether sleep() calibrates again: never calibrated (or by another version), the live memories
   * changed by more than a tenth in number, labels came since, or the embed hook came or went.
   */
  async _calibrationStale() {
    const c = this._calibration, live = this._resident.meta.size;
    if (c === null || c.version !== CALIBRATION_VERSION) return true;
    if (Math.abs(live - c.memories) > 0.1 * Math.max(1, c.memories)) return true;
    if (c.embedHook !== (this._embed.fn !== null)) return true;
    const [{ n }] = await this._db.all("SELECT count(*) AS n FROM md_labels");
    return Number(n) - (c.labelsSeen ?? 0) >= Math.max(10, 0.1 * (c.labelsSeen ?? 0));
  }

  /**
   * Hybrid search. query: { text, vector, limit = 10, preset = "default" | "memhtml", weights,
   * k, depth, lambda, seeds, window, duplicate (defaults: PRESETS[preset]), timings = false }.
   * Resolves [{ path, score, arms: { lexical, vector, salience, lateral } }] where each arm is
   * { rank, contribution } or null. See docs/CACHE.md for what each arm and step does.
   */
  search(query) {
    const fn = "search";
    return this._op(fn, async () => {
      const q = await this._checkQuery(fn, query);
      const t = q.timings ? { start: performance.now() } : null;
      const lap = (name) => { if (t) { const now = performance.now(); t[name] = now - (t._last ?? t.start); t._last = now; } };
      const arms = await collectArms(this._io, q, q.text, q.vector, lap);
      // a page: the first offset + limit of the ranking, then the last `limit` of them (the same order as one long list)
      const whole = q.offset ? { ...q, limit: q.offset + q.limit } : q;
      const out = report(q, arms, fold(this._io, whole, arms, lap).picked.slice(q.offset));
      if (this._searchAccess) { // access for the retention scorer: one hit per memory per cooldown
        const now = q.now ?? Date.now();
        for (const h of out) {
          const prev = this._hits.get(h.path);
          if (!prev) this._hits.set(h.path, { n: 1, at: now, counted: now });
          else if ((now - prev.counted) / 1000 >= REINFORCE_COOLDOWN_S) { prev.n++; prev.counted = now; prev.at = Math.max(prev.at, now); }
        }
      }
      if (out.length) { // what a positive reinforce() of one of these paths labels (calibrate.js)
        this._recent.push({ text: q.text, vector: q.vector, paths: new Set(out.map((h) => h.path)), labelled: new Set() });
        if (this._recent.length > RECENT_SEARCHES) this._recent.shift();
      }
      if (t) {
        delete t._last;
        t.total = performance.now() - t.start;
        delete t.start;
        Object.defineProperty(out, "timings", { value: t, enumerable: false });
      }
      return out;
    });
  }

  /**
   * The FTS5 query of the informative terms (see Lexical.informative): the lexical arm is
   * `SELECT ... WHERE memories_fts MATCH <this> ORDER BY bm25(memories_fts), path LIMIT depth`.
   */
  async _informative(terms) {
    if (terms.length === 0) return "";
    return termsQuery(await this._lexical.informative(this._db, terms, this._resident.meta.size));
  }

  /** The four arms' lists for a query, before fusion: { lexical, vector, salience, lateral } (paths, best first) and seeds. */
  searchArms(query) {
    const fn = "searchArms";
    return this._op(fn, async () => {
      const q = await this._checkQuery(fn, query);
      const arms = await collectArms(this._io, q, q.text, q.vector);
      const out = Object.fromEntries(ARMS.map((a) => [a, arms[a].map((h) => h.path)]));
      out.seeds = arms.seeds;
      return out;
    });
  }

  /**
   * Why each of `paths` was or was not returned for `query`: the search's hits, and per path
   * { path, rank (in the hits, or null), arms ({ rank, contribution } or null each), seed,
   * fused ({ rank, score } or null), mmr (its place in MMR's order of the window, or null),
   * duplicateOf, lostAt }. lostAt is null for a returned path, else the step that lost it:
   * "absent" (no such memory), "superseded" (merged away by sleep), "arms" (no arm found it),
   * "fusion" (ranked below the MMR window), "limit" (in the window, below the limit, not
   * lifted by MMR), "mmr" (within the limit by fusion, pushed out by MMR), "duplicate"
   * (skipped as a near-duplicate of a hit shown above it). `trace` is the whole pipeline: the
   * resolved settings, each arm's hits ({ path, rank }), the seeds, how many candidates fusion
   * ranked, the window MMR saw ({ path, score, relevance }), MMR's order and the duplicates.
   */
  explain(query, paths) {
    const fn = "explain";
    return this._op(fn, async () => {
      const q = await this._checkQuery(fn, query);
      const ps = this._paths(fn, paths);
      const arms = await collectArms(this._io, q, q.text, q.vector);
      const f = fold(this._io, q, arms, undefined);
      const hits = report(q, arms, f.picked);
      const storedRows = await this._db.all(`SELECT m.path AS path, m.superseded_by AS s, m.archived_at AS a FROM memories m
        JOIN json_each(?) j ON m.path = j.value`, [JSON.stringify(ps)]);
      const stored = new Map(storedRows.map((r) => [r.path, r.s])), archivedAt = new Map(storedRows.map((r) => [r.path, r.a]));
      // why a superseded path is: a merge kept its text elsewhere, or a newer claim contradicts it
      const why = new Map((await this._db.all(`SELECT src, dst, type, origin FROM edges WHERE dst IN (SELECT value FROM json_each(?))
        AND type IN ('supersedes', 'contradicts')`, [JSON.stringify(ps)])).map((e) => [e.dst, e]));
      const hitRank = new Map(hits.map((h, i) => [h.path, i + 1]));
      const fusedRank = new Map(f.ranked.map((r, i) => [r.path, i + 1]));
      const mmrRank = new Map(f.order.map((p, i) => [p, i + 1]));
      const seeds = new Set(arms.seeds.map((x) => x.path));
      const explained = ps.map((path) => {
        const armRanks = report(q, arms, [{ path }])[0].arms;
        const fr = fusedRank.get(path);
        const rank = hitRank.get(path) ?? null;
        let lostAt = null;
        if (rank === null) {
          if (!stored.has(path)) lostAt = "absent";
          else if (stored.get(path) !== null) lostAt = "superseded";
          else if (archivedAt.get(path) !== null) lostAt = "archived";
          else if (fr === undefined) lostAt = "arms";
          else if (f.duplicates.has(path)) lostAt = "duplicate";
          else if (fr > f.window) lostAt = "fusion";
          else lostAt = fr <= q.limit ? "mmr" : "limit";
        }
        return {
          path, rank, arms: armRanks, seed: seeds.has(path),
          fused: fr === undefined ? null : { rank: fr, score: f.fused.get(path) },
          mmr: mmrRank.get(path) ?? null, duplicateOf: f.duplicates.get(path) ?? null, lostAt,
          supersededBy: stored.get(path) ?? null,
          conflict: why.get(path)?.type === "contradicts" ? { with: why.get(path).src } : null,
        };
      });
      const best = f.ranked.length ? f.ranked[0].score : 0;
      const trace = {
        settings: (({ text, vector, timings, ...rest }) => rest)(q),
        arms: Object.fromEntries(ARMS.map((a) => [a, arms[a]])), seeds: arms.seeds, candidates: f.ranked.length,
        window: f.ranked.slice(0, f.window).map((r) => ({
          path: r.path, score: r.score, relevance: q.preset === "memhtml" ? r.score : best > 0 ? r.score / best : 0,
        })),
        order: f.order, duplicates: Object.fromEntries(f.duplicates),
        calibration: this._calibration, // what chose the default vector weight (null: never calibrated)
      };
      return { hits, paths: explained, trace };
    });
  }

  /**
   * Fit the search settings to labelled queries ([{ text, vector, relevant: [paths] or { path: grade } }])
   * by cross-validated coordinate ascent on mean nDCG@limit (see tune.js). Resolves { search (settings
   * to pass to search()), chose ("tuned" or "baseline"), heldOut, train, fitted, evaluations }.
   */
  tune(labelled, options = {}) {
    return this._op("tune", () => tune(this._io, "tune", labelled, options, this._limits));
  }

  // ------------------------------------------------------------------ sleep

  /** One maintenance pass, one atomic write (see sleep.js and the README). Resolves the report. */
  sleep(options) {
    const fn = "sleep";
    return this._op(fn, async () => {
      record(fn, "options", options);
      const { calibrate: cal, ...passOptions } = options;
      // options.calibrate: undefined (when stale), false, true (always), or calibrate()'s options (always)
      if (cal !== undefined && typeof cal !== "boolean") checkCalibrateOptions(fn, cal, "options.calibrate");
      const report = await this._sleepPass(fn, passOptions);
      const run = cal === true || (cal !== undefined && cal !== false) || (cal === undefined && await this._calibrationStale());
      const c = run ? await this._calibrate(fn, checkCalibrateOptions(fn, typeof cal === "object" ? cal : {}, "options.calibrate")) : null;
      const shown = c ?? this._calibration;
      report.calibration = { ran: run, vector: shown?.vector ?? null, reason: shown?.reason ?? null };
      return report;
    });
  }

  _sleepPass(fn, options) {
    const hits = new Map(this._hits);
    return (async () => (await this._sleepBudget(fn)) && runSleep(this._db, this._resident, fn, options, {
      limits: this._limits, hits,
      // the pass changes no embedding or salience signal: only the memories it removed and the edges
      write: (st, { removed, edges }) => this._write(fn, st, () => {
        const gone = removed.filter((r) => this._lexical.pathOf.has(r.id)).map((r) => r.id);
        for (const { path, id } of removed) {
          this._resident.removeMemory(path);
          this._lexical.pathOf.delete(id);
        }
        if (removed.length) {
          this._lexical.changed(gone, []);
          this._textStale = true;
        }
        if (edges) this._resident.setEdges(edges);
        for (const [p, h] of hits) if (this._hits.get(p) === h) this._hits.delete(p); // counted in the database now
      }, { edges: edges !== null, paths: removed.map((r) => r.path) }),
    }))();
  }

  /**
   * Durable Objects: sleep passes on the object's alarm. options: { at (a Date or ms: the first pass),
   * every (ms between passes, at least 1,000; omitted or null: one pass), and sleep()'s options but `now`
   * and `onProgress` }. Stores the schedule in the database (replacing any) and sets the alarm to `at`
   * unless it is set earlier. Call onAlarm() from the object's alarm(). Resolves { at, every }.
   */
  scheduleSleep(options) {
    const fn = "scheduleSleep";
    return this._op(fn, async () => {
      const storage = alarmStorage(fn, this);
      const schedule = checkSchedule(fn, options);
      await this._write(fn, [scheduleStatement(schedule)], () => {});
      this._schedule = schedule;
      await armAlarm(storage, schedule.at);
      return { at: schedule.at, every: schedule.every };
    });
  }

  /**
   * Durable Objects: call from the object's alarm() handler. If the scheduled pass is due, runs
   * sleep({ now: its scheduled time }) (so a retried alarm writes nothing twice), moves the schedule
   * on by `every` past the clock (or ends it) and sets the next alarm; if it is not due, sets the
   * alarm for it again. options: { now (the clock; default Date.now()), onProgress (the pass's) }.
   * Resolves { ran, at (the pass's time, or null), report (sleep's, or null), next (the next pass, or null) }.
   */
  async onAlarm(options = {}) {
    const fn = "onAlarm";
    record(fn, "options", options);
    known(fn, "options", options, ["now", "onProgress"]);
    const now = nowOption(fn, options);
    const storage = alarmStorage(fn, this);
    this._inAlarm++;
    try {
      return await this._onAlarm(fn, storage, now, options.onProgress);
    } finally {
      this._inAlarm--;
    }
  }

  async _onAlarm(fn, storage, now, onProgress) {
    const schedule = await this._op(fn, () => readSchedule(this._db), { state: false });
    this._schedule = schedule;
    if (schedule === null) return { ran: false, at: null, report: null, next: null };
    if (schedule.at > now) {
      await armAlarm(storage, schedule.at, now);
      return { ran: false, at: null, report: null, next: schedule.at };
    }
    const report = await this.sleep({ ...schedule.sleep, now: schedule.at, ...(onProgress ? { onProgress } : {}) });
    const next = schedule.every === null ? null : nextTime(schedule.at, schedule.every, now);
    const after = await this._op(fn, async () => {
      const current = await readSchedule(this._db);
      if (JSON.stringify(current) !== JSON.stringify(schedule)) return current; // scheduleSleep ran meanwhile: that one stands
      const moved = next === null ? null : { ...schedule, at: next };
      await this._write(fn, [scheduleStatement(moved)], () => {});
      return moved;
    });
    this._schedule = after;
    if (after !== null) await armAlarm(storage, after.at, now);
    return { ran: true, at: schedule.at, report, next: after === null ? null : after.at };
  }

  // ------------------------------------------------------------------ import / export

  /**
   * Every memory as JSON Lines, in path order (one object per line, every stored field, the
   * embedding as a number array), then every edge ({ "edge": { src, dst, type, strength,
   * origin } }, in edges() order), then sleep's watermarks ({ "watermarks": { mergeCycle,
   * evictCycle } }) if a pass ran: importJsonl of it into an empty cache gives the same database.
   */
  exportJsonl() {
    return this._op("exportJsonl", async () => {
      const rows = (await this._db.all(`SELECT ${COLUMNS} FROM memories m`)).map(rowToMemory).sort((a, b) => byPath(a.path, b.path));
      const lines = rows.map((m) => JSON.stringify({ ...m, embedding: m.embedding ? Array.from(m.embedding) : null }));
      const edges = (await this._db.all("SELECT src, dst, type, strength, origin FROM edges"))
        .sort((a, b) => byPath(a.src, b.src) || byPath(a.dst, b.dst) || byPath(a.type, b.type));
      for (const e of edges) lines.push(JSON.stringify({ edge: { src: e.src, dst: e.dst, type: e.type, strength: e.strength, origin: e.origin } }));
      const meta = Object.fromEntries((await this._db.all("SELECT key, value FROM md_meta WHERE key IN ('merge_cycle', 'evict_cycle')"))
        .map((r) => [r.key, r.value]));
      const marks = {};
      if (meta.merge_cycle !== undefined) marks.mergeCycle = Number(meta.merge_cycle);
      if (meta.evict_cycle !== undefined) marks.evictCycle = Number(meta.evict_cycle);
      if (Object.keys(marks).length) lines.push(JSON.stringify({ watermarks: marks }));
      // what the cache chose and was told: its calibration and its retention policy
      for (const key of SETTINGS_KEYS) {
        const [row] = await this._db.all("SELECT value FROM md_meta WHERE key = ?", [key]);
        if (row) lines.push(JSON.stringify({ [key]: JSON.parse(row.value) }));
      }
      return lines.map((l) => `${l}\n`).join("");
    }, { state: false });
  }

  /**
   * Import exportJsonl's text (blank lines skipped), in one batch: memories with every stored
   * field (supersession, the decay watermark, sleep's fields; a line with only put()'s fields
   * is a put), edges (both ends stored or imported), and sleep's watermarks (the later of the
   * cache's and the text's). options as put's. Resolves { inserted, replaced, edges }.
   */
  importJsonl(text, options = {}) {
    const fn = "importJsonl";
    return this._op(fn, async () => {
      if (typeof text !== "string") throw typeError(fn, "text", "a string", text);
      record(fn, "options", options);
      known(fn, "options", options, ["onConflict", "onProgress"]);
      const onConflict = options.onConflict ?? "replace";
      if (onConflict !== "replace" && onConflict !== "error") throw rangeError(fn, "options.onConflict", `must be "replace" or "error", got ${shown(onConflict)}`);
      const progress = progressFn(fn, options.onProgress);
      const L = this._limits;
      const rows = [], lineOf = [], edges = [], meta = {}, index = new Map(), settings = {};
      let dim = this._resident.dim;
      const lines = text.split("\n");
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i].trim();
        if (!line) continue;
        const at = `text line ${i + 1}`;
        let v;
        try {
          v = JSON.parse(line);
        } catch (e) {
          throw rangeError(fn, at, `is not JSON: ${e.message}`);
        }
        record(fn, at, v);
        if (v.edge !== undefined && v.path === undefined) {
          const e = record(fn, `${at} .edge`, v.edge);
          known(fn, `${at} .edge`, e, ["src", "dst", "type", "strength", "origin"]);
          if (!EDGE_ORIGINS.includes(e.origin))
            throw rangeError(fn, `${at} .edge.origin`, `must be ${EDGE_ORIGINS.map((x) => JSON.stringify(x)).join(", ")}, got ${shown(e.origin)}`);
          edges.push({
            src: string(fn, `${at} .edge.src`, e.src, L.path, { key: true }),
            dst: string(fn, `${at} .edge.dst`, e.dst, L.path, { key: true }),
            type: string(fn, `${at} .edge.type`, e.type, L.type, { key: true }),
            strength: finite(fn, `${at} .edge.strength`, e.strength, { lo: 0, hi: 1 }),
            origin: e.origin, at,
          });
        } else if (SETTINGS_KEYS.some((k) => v[k] !== undefined) && v.path === undefined) {
          const key = SETTINGS_KEYS.find((k) => v[k] !== undefined);
          known(fn, at, v, [key]);
          record(fn, `${at} .${key}`, v[key]);
          settings[key] = JSON.stringify(v[key]);
        } else if (v.watermarks !== undefined && v.path === undefined) {
          const m = record(fn, `${at} .watermarks`, v.watermarks);
          known(fn, `${at} .watermarks`, m, ["mergeCycle", "evictCycle"]);
          for (const [k, key] of [["mergeCycle", "merge_cycle"], ["evictCycle", "evict_cycle"]]) {
            if (m[k] === undefined) continue;
            const c = finite(fn, `${at} .watermarks.${k}`, m[k],
              { lo: -Number.MAX_SAFE_INTEGER, hi: Number.MAX_SAFE_INTEGER, integer: true });
            meta[key] = Math.max(meta[key] ?? -Infinity, c);
          }
        } else {
          const r = this._checkMemory(fn, v, at, dim, true);
          if (r.vec && dim === null) dim = r.vec.length;
          const prev = index.get(r.path);
          if (prev !== undefined) throw rangeError(fn, `${at} .path`, `repeats ${lineOf[prev]}'s (${JSON.stringify(r.path.slice(0, 80))})`);
          index.set(r.path, rows.length);
          rows.push(r);
          lineOf.push(at);
        }
      }
      if (rows.length > L.batch) throw rangeError(fn, "text", `holds ${rows.length} memories, more than the limit ${L.batch}`);
      progress({ phase: "validate", done: rows.length, total: rows.length });
      const keepers = rows.filter((r) => r.supersededBy !== null).map((r) => r.supersededBy);
      const ends = [...new Set([...edges.flatMap((e) => [e.src, e.dst]), ...keepers])].filter((p) => !index.has(p));
      const found = new Set((await this._db.all("SELECT m.path AS path FROM memories m JOIN json_each(?) j ON m.path = j.value",
        [JSON.stringify(ends)])).map((r) => r.path));
      // a memory superseded by no memory (or by itself) would be in no search and named by none
      rows.forEach((r, i) => {
        if (r.supersededBy === null) return;
        if (r.supersededBy === r.path) throw rangeError(fn, `${lineOf[i]}.supersededBy`, "names the memory itself");
        if (!index.has(r.supersededBy) && !found.has(r.supersededBy)) {
          throw rangeError(fn, `${lineOf[i]}.supersededBy`, `names no stored or imported memory (${JSON.stringify(r.supersededBy.slice(0, 80))})`);
        }
      });
      for (const e of edges) {
        for (const end of ["src", "dst"]) {
          if (!index.has(e[end]) && !found.has(e[end])) {
            throw rangeError(fn, `${e.at} .edge.${end}`, `names no stored or imported memory (${JSON.stringify(e[end].slice(0, 80))})`);
          }
        }
      }
      if (!rows.length && !edges.length && !Object.keys(meta).length && !Object.keys(settings).length) return { inserted: 0, replaced: 0, edges: 0 };
      return this._upsert(fn, rows, dim, { onConflict, progress, at: (i) => lineOf[i], edges, meta, settings });
    });
  }

  /** The database file as bytes (sqlite-wasm, better-sqlite3, node:sqlite; D1 has no export). Open it with openMemoryCache({ bytes }). */
  exportBytes() {
    return this._op("exportBytes", async () => {
      if (typeof this._db.exportBytes !== "function") throw rangeError("exportBytes", "this", `is on a ${this.backend} database, which cannot export its file`);
      return this._db.exportBytes();
    }, { state: false });
  }

  /** Close the database and free the resident rows and graph. Idempotent. */
  close() {
    if (this._closed) return Promise.resolve();
    return this._queue(async () => {
      if (this._closed) return;
      this._closed = true;
      this._resident.free();
      await this._lexical.close(this._db);
      await this._db.close();
    });
  }
}

/** Bytes of a well-formed string in UTF-8 (what SQLite's octet_length counts), without encoding it. */
function utf8Length(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // 2 bytes below U+0800, 3 above, 4 for a surrogate pair (2 units)
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c >= 0xe000) ? 2 : 1;
  }
  return n;
}

const rowToMemory = (r) => recordOf(r, float32View);

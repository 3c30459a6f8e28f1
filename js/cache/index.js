// memdomain/cache: a local memory cache on SQLite with memdomain's hybrid
// retrieval (FTS5 bm25, exact cosine, salience, personalized PageRank; RRF
// fusion; MMR) and its sleep pass. Built only on the public memdomain API.
//
// This file is the public entry point: openMemoryCache, the MemoryCache class and
// every export. The class's methods live in one file per topic, each a class of
// methods installed here on MemoryCache's prototype (so `this` is the cache, stack
// frames read MemoryCache.put, and instanceof holds):
//   open.js         the database's schema, reading and upgrading it at open
//   consistency.js  the consistency protocol: generations, the guarded write batch,
//                   change detection and resync, the operation queue, busy and retries
//   reads.js        count, paths, get, all, edges, archived, residentBytes
//   writes.js       put, delete, link, archive, restore, purge, reinforce
//   search.js       search, searchArms, explain, calibrate, calibration, tune
//   maintenance.js  sleep, policy, scheduleSleep, onAlarm
//   transfer.js     exportJsonl, importJsonl, exportBytes
import { init, isInitialized } from "../index.js";
import { openAdapter } from "./adapters.js";
import { PRESETS } from "./compose.js";
import { LEXICAL_INDEX_MIN, Lexical } from "./lexical.js";
import { rng } from "./rng.js";
import { Resident } from "./resident.js";
import { DURABLE_OBJECT_RESIDENT_BYTES } from "./budget.js";
import { rearm } from "./durable.js";
import { checkOpenOptions, prepareDatabase } from "./open.js";
import { ConsistencyMethods, busyError, isBusy, serial, writerId } from "./consistency.js";
import { ReadMethods } from "./reads.js";
import { WriteMethods } from "./writes.js";
import { SearchMethods } from "./search.js";
import { MaintenanceMethods } from "./maintenance.js";
import { TransferMethods } from "./transfer.js";
import { rangeError } from "./validate.js";

export { CacheBusyError, CacheChangedError } from "./errors.js";
export { DEFAULT_BUSY_TIMEOUT, adapterFor, betterSqlite3Adapter, d1Adapter, durableObjectAdapter, nodeSqliteAdapter, sqliteWasmAdapter } from "./adapters.js";
export { ARMS, GIST_WEIGHT, LATERAL_STEPS, PRESETS, salienceOrder } from "./compose.js";
export { MAX_DEPTH, MAX_LIMIT, MAX_PATHS_PAGE, MAX_PER_SOURCE_K, MAX_WINDOW } from "./schema.js";
export { MAX_QUERY_TERMS, ftsQuery, queryTerms } from "./lexical.js";
export { DEFAULT_SLEEP } from "./sleep.js";
export { DURABLE_OBJECT_RESIDENT_BYTES, residentEstimate } from "./budget.js";
export { SCHEMA_VERSION } from "./open.js";
export { CACHE_OPTIONS, DEFAULT_LIMITS, checkOption } from "./schema.js";
export { LOG_GENERATIONS, LOG_MAX_PATHS, RETRY_BASE_MS, RETRY_MAX_MS, WRITE_ATTEMPTS } from "./consistency.js";
export { MAX_LABELS } from "./writes.js";
export { FILTERS_KEPT, RECENT_SEARCHES } from "./search.js";
export { EDGE_ORIGINS } from "./transfer.js";

/** The default composition's arm weights (PRESETS.default.weights). */
export const DEFAULT_ARM_WEIGHTS = PRESETS.default.weights;

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
 * cache's estimated peak memory past it; default 96 MiB on a Durable Object, none elsewhere),
 * lexicalIndexMin (live memories from which the lexical arm answers from a resident index; null: never) }.
 */
export async function openMemoryCache(options = {}) {
  const fn = "openMemoryCache";
  const o = checkOpenOptions(fn, options);
  if (!isInitialized()) await init(options.wasm);
  const db = await openAdapter(options);
  let busyMs = null;
  try {
    // the busy timeout first: the reads below wait for another connection's lock as every later call does
    if (typeof db.busyTimeout === "function") busyMs = await db.busyTimeout(o.busyTimeout ?? undefined);
    await prepareDatabase(fn, db, options, o.dim);
    // a Durable Object's isolate has 128 MB and is killed past it: a default budget there; none elsewhere
    const maxResidentBytes = o.maxResident !== undefined ? o.maxResident : db.kind === "durable-object" ? DURABLE_OBJECT_RESIDENT_BYTES : null;
    const cache = new MemoryCache(db, o.limits, { onExternalChange: o.onExternalChange, busyMs, maxResidentBytes, embed: o.embed,
      searchAccess: o.searchAccess, lexicalIndexMin: o.lexicalIndexMin });
    await cache._load();
    await rearm(db.storage, cache._schedule); // a schedule whose alarm was lost (an aborted or failed alarm) sleeps again
    if (o.dim !== null && cache.dim !== o.dim) {
      throw rangeError(fn, "options.dim", `is ${o.dim}, but the cache holds embeddings of dimension ${cache.dim}`);
    }
    return cache;
  } catch (e) {
    await db.close().catch(() => {});
    throw isBusy(e) ? busyError(fn, busyMs, e) : e;
  }
}

class MemoryCache {
  constructor(db, limits, { onExternalChange, busyMs, maxResidentBytes = null, embed = { fn: null, batch: 1 }, searchAccess = true,
    lexicalIndexMin = LEXICAL_INDEX_MIN }) {
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
    this._lexical.indexMin = lexicalIndexMin; // null: never
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

// The topic files' methods, on the prototype as a class's own are (not enumerable).
for (const methods of [ConsistencyMethods, ReadMethods, WriteMethods, SearchMethods, MaintenanceMethods, TransferMethods]) {
  const own = Object.getOwnPropertyDescriptors(methods.prototype);
  delete own.constructor;
  for (const [name, d] of Object.entries(own)) {
    if (Object.hasOwn(MemoryCache.prototype, name)) throw new Error(`memdomain/cache: two topic files define MemoryCache.${name}`);
    Object.defineProperty(MemoryCache.prototype, name, d);
  }
}

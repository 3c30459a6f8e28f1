// memdomain/cache: the consistency protocol (docs/CACHE-CONSISTENCY.md). What the cache keeps
// in memory (embeddings, salience signals, the edges, the lexical arm's term lists) follows what
// was committed, never a call's outcome: each write batch also checks and bumps a generation
// counter in md_meta (the guard: a batch that finds another writer's generation writes nothing),
// the in-memory update runs as soon as the batch commits (before any callback), a batch whose
// outcome is unknown marks the memory for a reload, and before each operation the counter (and
// PRAGMA data_version where the backend has it) tells whether another writer changed the
// database: the cache then reads again what md_log says changed (or everything), or throws
// CacheChangedError (onExternalChange "error"). A write that lost the race runs again after a
// jittered backoff; SQLITE_BUSY past the busy timeout becomes a CacheBusyError.
import { float32View } from "../index.js";
import { CacheBusyError, CacheChangedError } from "./errors.js";
import { checkResident, storedCounts } from "./budget.js";
import { hasAlarm, readSchedule, rearm } from "./durable.js";
import { messageOf, rangeError } from "./validate.js";

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
 * The paths each write batch touched, by generation (md_log, the last LOG_GENERATIONS of them), so a
 * cache that sees another writer's generations reads only those rows again (open.js creates the table).
 */
export const LOG_GENERATIONS = 1024;
/** A write batch touching more paths than this is not logged (the caches behind it read everything). */
export const LOG_MAX_PATHS = 10_000;
// md_meta.log_since only grows: pruning must not reach back before an unlogged batch
const LOG_SINCE_SQL = `INSERT INTO md_meta (key, value) VALUES ('log_since', ?)
  ON CONFLICT (key) DO UPDATE SET value = CAST(max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER)) AS TEXT)`;

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
export function serial() {
  let tail = Promise.resolve();
  return (fn) => {
    const run = tail.then(fn, fn);
    tail = run.then(() => {}, () => {});
    return run;
  };
}

/** SQLITE_BUSY (or SQLITE_LOCKED) from any backend: better-sqlite3's code, sqlite-wasm's resultCode, node:sqlite's errcode, D1's text. */
export function isBusy(e) {
  if (!e || typeof e !== "object" || e instanceof CacheBusyError) return false;
  if (typeof e.code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(e.code)) return true;
  for (const rc of [e.resultCode, e.errcode, e.errno]) if (typeof rc === "number" && ((rc & 0xff) === 5 || (rc & 0xff) === 6)) return true;
  return /\b(SQLITE_BUSY|SQLITE_LOCKED)\b|database is locked|database table is locked/.test(messageOf(e));
}

/** The CacheBusyError of a call `fn` that met SQLITE_BUSY past the busy timeout (`ms`, null: the connection's own). */
export function busyError(fn, ms, e) {
  const wait = ms === null ? "the busy timeout" : `busyTimeout (${ms} ms)`;
  return new CacheBusyError(`${fn}: the database is locked by another connection (SQLITE_BUSY) for longer than ${wait}; ` +
    `retrying the call is safe (${messageOf(e)})`, e);
}

/** A short random name for this cache as a writer, stored in md_meta with each generation it commits. */
export function writerId(kind) {
  const b = new Uint8Array(4);
  globalThis.crypto.getRandomValues(b);
  const name = String(kind ?? "custom").replace(/[^0-9a-z-]/gi, "").toLowerCase() || "custom";
  return `${name}-${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * MemoryCache's methods of the protocol (index.js installs them on its prototype): reading the
 * generation, loading and refreshing the memory, the guarded write, and the operation queue.
 */
export class ConsistencyMethods {
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
      checkResident(fn, this._maxResident, { ...c, dim: this._resident.dim, lexicalIndexMin: this._lexical.indexMin }, "the cache holds");
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
}

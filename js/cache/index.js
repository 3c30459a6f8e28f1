// memdomain/cache: a local memory cache on SQLite with memdomain's hybrid
// retrieval (FTS5 bm25, exact cosine, salience, personalized PageRank; RRF
// fusion; MMR) and its sleep pass. Built only on the public memdomain API.
//
// Every write is "read, compute in memory, then ONE atomic batch" (see
// adapters.js), so nothing is written on error, on every backend, D1 included.
import {
  DEFAULT_EWMA_ALPHA, applyOutcomesFp, fromFp, init, isInitialized, partitionByCooldown, signalValue, toFp, float32View,
} from "../index.js";
import { adapterFor, betterSqlite3Adapter, d1Adapter, nodeSqliteAdapter, openAdapter, sqliteWasmAdapter } from "./adapters.js";
import { ARMS, PRESETS, collectArms, fold, querySettings, report } from "./compose.js";
import { Lexical, termsQuery } from "./lexical.js";
import { tune } from "./tune.js";
import { Resident } from "./resident.js";
import { runSleep } from "./sleep.js";
import { byPath, embedding, known, list, num, obj, progressFn, rangeError, str, time, typeError } from "./validate.js";

export { adapterFor, betterSqlite3Adapter, d1Adapter, nodeSqliteAdapter, sqliteWasmAdapter };
export { ARMS, MAX_DEPTH, MAX_LIMIT, MAX_WINDOW, PRESETS, salienceOrder } from "./compose.js";
export { MAX_QUERY_TERMS, ftsQuery, queryTerms } from "./lexical.js";

export const SCHEMA_VERSION = 1;
/** The default composition's arm weights (PRESETS.default.weights). */
export const DEFAULT_ARM_WEIGHTS = PRESETS.default.weights;
export const DEFAULT_LIMITS = Object.freeze({ path: 1024, type: 64, gist: 4096, body: 1_000_000, query: 4096, batch: 1_000_000 });

const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS md_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  `CREATE TABLE IF NOT EXISTS memories (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE,
    gist TEXT NOT NULL, body TEXT NOT NULL, type TEXT NOT NULL, embedding BLOB,
    created_at REAL NOT NULL, accessed_at REAL, access_count REAL NOT NULL, confidence REAL NOT NULL,
    outcome_score REAL, reinforcement_count REAL NOT NULL, contradiction_count REAL NOT NULL,
    decayed_at REAL NOT NULL, pagerank REAL, community TEXT, bridge_count REAL,
    retention_score REAL, band TEXT, superseded_by TEXT)`,
  "CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(gist, body)",
  "CREATE VIRTUAL TABLE IF NOT EXISTS memories_vocab USING fts5vocab(memories_fts, 'row')",
  `CREATE TABLE IF NOT EXISTS edges (src TEXT NOT NULL, dst TEXT NOT NULL, type TEXT NOT NULL,
    strength REAL NOT NULL, origin TEXT NOT NULL, PRIMARY KEY (src, dst, type))`,
  "CREATE INDEX IF NOT EXISTS edges_dst ON edges (dst)",
];

const COLUMNS = ["path", "gist", "body", "type", "embedding", "created_at", "accessed_at", "access_count", "confidence", "outcome_score",
  "reinforcement_count", "contradiction_count", "decayed_at", "pagerank", "community", "bridge_count", "retention_score", "band",
  "superseded_by"].map((c) => `m.${c} AS ${c}`).join(", ");

/** A serial queue: one operation at a time, so every read-compute-write sees a stable database. */
function serial() {
  let tail = Promise.resolve();
  return (fn) => {
    const run = tail.then(fn, fn);
    tail = run.then(() => {}, () => {});
    return run;
  };
}

/**
 * Open a memory cache. options: { path = ":memory:" | file | OPFS name, driver (how a file
 * opens in Node and Deno: "node:sqlite", the default where it exists, or "better-sqlite3"),
 * db (an adapter, a D1 binding, a better-sqlite3 Database, a node:sqlite DatabaseSync or a
 * sqlite-wasm oo1 DB), bytes (open a
 * copy of a database file), dim (the embedding dimension; otherwise the first put
 * fixes it), sqlite3 (an initialized sqlite-wasm module), wasm (what memdomain's
 * init() takes), limits }.
 */
export async function openMemoryCache(options = {}) {
  const fn = "openMemoryCache";
  obj(fn, "options", options);
  known(fn, "options", options, ["path", "db", "bytes", "dim", "sqlite3", "wasm", "limits", "vfs", "driver"]);
  const limits = { ...DEFAULT_LIMITS };
  if (options.limits !== undefined) {
    obj(fn, "options.limits", options.limits);
    known(fn, "options.limits", options.limits, Object.keys(DEFAULT_LIMITS));
    for (const [k, v] of Object.entries(options.limits)) limits[k] = num(fn, `options.limits.${k}`, v, { lo: 1, integer: true });
  }
  const dim = num(fn, "options.dim", options.dim, { lo: 1, hi: 65536, integer: true, nullable: true });
  if (!isInitialized()) await init(options.wasm);
  const db = await openAdapter(options);
  try {
    try {
      await db.batch(SCHEMA.map((sql) => ({ sql })));
    } catch (e) {
      if (options.bytes !== undefined) throw rangeError(fn, "options.bytes", `is not a usable SQLite database (${e?.message ?? e})`);
      throw e;
    }
    const meta = Object.fromEntries((await db.all("SELECT key, value FROM md_meta")).map((r) => [r.key, r.value]));
    if (meta.schema !== undefined && Number(meta.schema) !== SCHEMA_VERSION)
      throw rangeError(fn, "options", `open a cache of schema ${meta.schema}; this memdomain/cache reads schema ${SCHEMA_VERSION}`);
    const stored = meta.dim === undefined ? null : Number(meta.dim);
    if (dim !== null && stored !== null && dim !== stored)
      throw rangeError(fn, "options.dim", `is ${dim}, but the cache holds embeddings of dimension ${stored}`);
    const writes = [];
    if (meta.schema === undefined) writes.push({ sql: "INSERT INTO md_meta (key, value) VALUES ('schema', ?)", params: [String(SCHEMA_VERSION)] });
    if (stored === null && dim !== null) writes.push({ sql: "INSERT INTO md_meta (key, value) VALUES ('dim', ?)", params: [String(dim)] });
    await db.batch(writes);
    const cache = new MemoryCache(db, stored ?? dim, limits, meta);
    await cache._resident.load(db);
    await cache._lexical.load(db);
    return cache;
  } catch (e) {
    await db.close().catch(() => {});
    throw e;
  }
}

class MemoryCache {
  constructor(db, dim, limits, meta) {
    this._db = db;
    this._limits = limits;
    this._resident = new Resident(dim);
    this._lexical = new Lexical();
    this._queue = serial();
    this._closed = false;
    this._meta = meta;
  }

  /** The embedding dimension (null until the first embedding is stored). */
  get dim() {
    return this._resident.dim;
  }

  /** Which backend holds the data: "sqlite-wasm", "better-sqlite3", "node:sqlite", "d1" or an adapter's own kind. */
  get backend() {
    return this._db.kind ?? "custom";
  }

  _op(fn, body) {
    if (this._closed) return Promise.reject(rangeError(fn, "this", "is closed"));
    return this._queue(() => {
      if (this._closed) throw rangeError(fn, "this", "is closed");
      return body();
    });
  }

  /** How many memories (superseded ones included). */
  count() {
    return this._op("count", async () => (await this._db.all("SELECT count(*) AS n FROM memories"))[0].n);
  }

  // ------------------------------------------------------------------ put

  _checkMemory(fn, m, i, dim) {
    const at = `memories[${i}]`;
    const L = this._limits;
    obj(fn, at, m);
    const path = str(fn, `${at}.path`, m.path, L.path, { key: true });
    const vec = m.embedding === undefined || m.embedding === null ? null : embedding(fn, `${at}.embedding`, m.embedding, dim);
    const created = time(fn, `${at}.createdAt`, m.createdAt);
    return {
      path,
      gist: str(fn, `${at}.gist`, m.gist, L.gist),
      body: str(fn, `${at}.body`, m.body, L.body),
      type: str(fn, `${at}.type`, m.type, L.type, { key: true }),
      vec,
      createdAt: created,
      accessedAt: time(fn, `${at}.accessedAt`, m.accessedAt, { optional: true }),
      accessCount: num(fn, `${at}.accessCount`, m.accessCount, { lo: 0, dflt: 0 }),
      confidence: num(fn, `${at}.confidence`, m.confidence, { lo: 0, hi: 1, dflt: 1 }),
      outcomeScore: num(fn, `${at}.outcomeScore`, m.outcomeScore, { lo: -1, hi: 1, nullable: true }),
      reinforcementCount: num(fn, `${at}.reinforcementCount`, m.reinforcementCount, { lo: 0, dflt: 0 }),
      contradictionCount: num(fn, `${at}.contradictionCount`, m.contradictionCount, { lo: 0, dflt: 0 }),
    };
  }

  /**
   * Insert or replace memories, atomically (all or nothing). options: { onConflict:
   * "replace" (default) | "error", onProgress }. Resolves { inserted, replaced }.
   */
  put(memories, options = {}) {
    const fn = "put";
    return this._op(fn, async () => {
      list(fn, "memories", memories);
      obj(fn, "options", options);
      known(fn, "options", options, ["onConflict", "onProgress"]);
      const onConflict = options.onConflict ?? "replace";
      if (onConflict !== "replace" && onConflict !== "error") throw rangeError(fn, "options.onConflict", `must be "replace" or "error", got ${String(onConflict)}`);
      const progress = progressFn(fn, options.onProgress);
      if (memories.length > this._limits.batch) throw rangeError(fn, "memories", `has ${memories.length} entries, more than the limit ${this._limits.batch}`);
      const n = memories.length;
      let dim = this._resident.dim;
      const rows = new Array(n);
      const index = new Map();
      for (let i = 0; i < n; i++) {
        const r = this._checkMemory(fn, memories[i], i, dim);
        if (r.vec && dim === null) dim = r.vec.length;
        const prev = index.get(r.path);
        if (prev !== undefined) throw rangeError(fn, `memories[${i}].path`, `repeats memories[${prev}].path (${JSON.stringify(r.path.slice(0, 80))})`);
        index.set(r.path, i);
        rows[i] = r;
        if ((i & 4095) === 4095) progress({ phase: "validate", done: i + 1, total: n });
      }
      progress({ phase: "validate", done: n, total: n });
      if (n === 0) return { inserted: 0, replaced: 0 };
      const existing = new Map();
      for (const r of await this._db.all("SELECT m.path AS path, m.id AS id FROM memories m JOIN json_each(?) j ON m.path = j.value",
        [JSON.stringify(rows.map((r) => r.path))])) existing.set(r.path, r.id);
      if (onConflict === "error" && existing.size) {
        const i = rows.findIndex((r) => existing.has(r.path));
        throw rangeError(fn, `memories[${i}].path`, `already exists in the cache (${JSON.stringify(rows[i].path.slice(0, 80))}) and options.onConflict is "error"`);
      }
      let nextId = Number((await this._db.all("SELECT coalesce(max(id), 0) AS m FROM memories"))[0].m) + 1;
      const st = [], ids = [];
      if (this._resident.dim === null && dim !== null) st.push({ sql: "INSERT INTO md_meta (key, value) VALUES ('dim', ?)", params: [String(dim)] });
      for (const r of rows) {
        const blob = r.vec ? new Uint8Array(r.vec.buffer, r.vec.byteOffset, r.vec.byteLength) : null;
        const values = [r.gist, r.body, r.type, blob, r.createdAt, r.accessedAt, r.accessCount, r.confidence, r.outcomeScore,
          r.reinforcementCount, r.contradictionCount, r.createdAt];
        let id = existing.get(r.path);
        if (id !== undefined) {
          st.push({ sql: `UPDATE memories SET gist = ?, body = ?, type = ?, embedding = ?, created_at = ?, accessed_at = ?,
            access_count = ?, confidence = ?, outcome_score = ?, reinforcement_count = ?, contradiction_count = ?, decayed_at = ?,
            pagerank = NULL, community = NULL, bridge_count = NULL, retention_score = NULL, band = NULL, superseded_by = NULL
            WHERE id = ?`, params: [...values, id] });
          st.push({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [id] });
        } else {
          id = nextId++;
          st.push({ sql: `INSERT INTO memories (id, path, gist, body, type, embedding, created_at, accessed_at, access_count,
            confidence, outcome_score, reinforcement_count, contradiction_count, decayed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          params: [id, r.path, ...values] });
        }
        st.push({ sql: "INSERT INTO memories_fts (rowid, gist, body) VALUES (?, ?, ?)", params: [id, r.gist, r.body] });
        ids.push(id);
      }
      progress({ phase: "write", done: 0, total: n });
      await this._db.batch(st);
      progress({ phase: "write", done: n, total: n });
      const res = this._resident;
      res.dim = dim;
      for (const r of rows) res.setMemory(r.path, r.vec, r.accessCount, r.outcomeScore, r.reinforcementCount);
      const lex = this._lexical;
      lex.invalidate();
      rows.forEach((r, i) => lex.pathOf.set(ids[i], r.path));
      return { inserted: n - existing.size, replaced: existing.size };
    });
  }

  // ------------------------------------------------------------------ get / delete / link

  _paths(fn, paths) {
    list(fn, "paths", paths);
    return paths.map((p, i) => str(fn, `paths[${i}]`, p, this._limits.path, { key: true }));
  }

  /** The stored memories for these paths (absent ones are skipped), with their sleep-derived fields. */
  get(paths) {
    const fn = "get";
    return this._op(fn, async () => {
      const ps = this._paths(fn, paths);
      const rows = await this._db.all(`SELECT ${COLUMNS} FROM memories m JOIN json_each(?) j ON m.path = j.value ORDER BY j.key`,
        [JSON.stringify(ps)]);
      return rows.map(rowToMemory);
    });
  }

  /** Every stored memory, in path order (JavaScript string order). */
  all() {
    return this._op("all", async () => (await this._db.all(`SELECT ${COLUMNS} FROM memories m`)).map(rowToMemory).sort((a, b) => byPath(a.path, b.path)));
  }

  /** Delete memories and their edges, atomically. Resolves { deleted }. */
  delete(paths) {
    const fn = "delete";
    return this._op(fn, async () => {
      const ps = this._paths(fn, paths);
      const json = JSON.stringify(ps);
      const ids = await this._db.all("SELECT m.id AS id, m.path AS path FROM memories m JOIN json_each(?) j ON m.path = j.value", [json]);
      if (!ids.length) return { deleted: 0 };
      const st = ids.map((r) => ({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [r.id] }));
      st.push({ sql: "DELETE FROM memories WHERE path IN (SELECT value FROM json_each(?))", params: [json] });
      st.push({ sql: "DELETE FROM edges WHERE src IN (SELECT value FROM json_each(?)) OR dst IN (SELECT value FROM json_each(?))", params: [json, json] });
      await this._db.batch(st);
      for (const r of ids) {
        this._resident.removeMemory(r.path);
        this._lexical.pathOf.delete(r.id);
      }
      this._lexical.invalidate();
      await this._resident.loadEdges(this._db);
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
      list(fn, "links", links);
      const L = this._limits;
      const rows = links.map((l, i) => {
        obj(fn, `links[${i}]`, l);
        return {
          src: str(fn, `links[${i}].src`, l.src, L.path, { key: true }),
          dst: str(fn, `links[${i}].dst`, l.dst, L.path, { key: true }),
          strength: num(fn, `links[${i}].strength`, l.strength, { lo: 0, hi: 1 }),
          type: l.type === undefined ? "related" : str(fn, `links[${i}].type`, l.type, L.type, { key: true }),
        };
      });
      if (!rows.length) return { linked: 0 };
      const names = [...new Set(rows.flatMap((r) => [r.src, r.dst]))];
      const found = new Set((await this._db.all("SELECT m.path AS path FROM memories m JOIN json_each(?) j ON m.path = j.value",
        [JSON.stringify(names)])).map((r) => r.path));
      rows.forEach((r, i) => {
        for (const end of ["src", "dst"]) if (!found.has(r[end])) throw rangeError(fn, `links[${i}].${end}`, `names no stored memory (${JSON.stringify(r[end].slice(0, 80))})`);
      });
      await this._db.batch(rows.map((r) => ({
        sql: "INSERT OR REPLACE INTO edges (src, dst, type, strength, origin) VALUES (?, ?, ?, ?, 'link')",
        params: [r.src, r.dst, r.type, r.strength],
      })));
      await this._resident.loadEdges(this._db);
      return { linked: rows.length };
    });
  }

  /** Stored edges: [{ src, dst, type, strength, origin }] ("link" from link(), "sleep" and "merge" from sleep()). */
  edges() {
    return this._op("edges", async () => (await this._db.all("SELECT src, dst, type, strength, origin FROM edges"))
      .sort((a, b) => byPath(a.src, b.src) || byPath(a.dst, b.dst) || byPath(a.type, b.type)));
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
      obj(fn, "options", options);
      known(fn, "options", options, ["now", "signal", "cooldownSeconds"]);
      const now = time(fn, "options.now", options.now);
      const signal = options.signal ?? "neutral";
      if (!["positive", "negative", "neutral"].includes(signal)) throw rangeError(fn, "options.signal", `must be "positive", "negative" or "neutral", got ${String(signal)}`);
      const cooldown = num(fn, "options.cooldownSeconds", options.cooldownSeconds, { lo: 0, dflt: 900 });
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
        const outcome = signal === "neutral" ? r.outcome_score
          : fromFp(applyOutcomesFp(alpha, toFp(r.outcome_score ?? 0), [toFp(signalValue(signal))]));
        st.push({ sql: "UPDATE memories SET access_count = ?, accessed_at = ?, outcome_score = ? WHERE path = ?",
          params: [r.access_count + 1, now, outcome, p] });
        after.push([p, r.access_count + 1, outcome, r.reinforcement_count]);
      }
      await this._db.batch(st);
      for (const a of after) this._resident.setSignals(...a);
      return { bumped, cooledDown };
    });
  }

  // ------------------------------------------------------------------ search

  _checkQuery(fn, q) {
    const settings = querySettings(fn, q);
    const text = q.text === undefined || q.text === null ? "" : str(fn, "query.text", q.text, this._limits.query);
    const vector = q.vector === undefined || q.vector === null ? null : embedding(fn, "query.vector", q.vector, this._resident.dim);
    return { ...settings, text, vector };
  }

  /** What the search pipeline reads: the database, the kept term lists and the resident rows and graph. */
  get _io() {
    return { db: this._db, lexical: this._lexical, resident: this._resident };
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
      const q = this._checkQuery(fn, query);
      const t = q.timings ? { start: performance.now() } : null;
      const lap = (name) => { if (t) { const now = performance.now(); t[name] = now - (t._last ?? t.start); t._last = now; } };
      const arms = await collectArms(this._io, q, q.text, q.vector, lap);
      const out = report(q, arms, fold(this._io, q, arms, lap).picked);
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
      const q = this._checkQuery(fn, query);
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
      const q = this._checkQuery(fn, query);
      const ps = this._paths(fn, paths);
      const arms = await collectArms(this._io, q, q.text, q.vector);
      const f = fold(this._io, q, arms, undefined);
      const hits = report(q, arms, f.picked);
      const stored = new Map((await this._db.all("SELECT m.path AS path, m.superseded_by AS s FROM memories m JOIN json_each(?) j ON m.path = j.value",
        [JSON.stringify(ps)])).map((r) => [r.path, r.s]));
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
          else if (fr === undefined) lostAt = "arms";
          else if (f.duplicates.has(path)) lostAt = "duplicate";
          else if (fr > f.window) lostAt = "fusion";
          else lostAt = fr <= q.limit ? "mmr" : "limit";
        }
        return {
          path, rank, arms: armRanks, seed: seeds.has(path),
          fused: fr === undefined ? null : { rank: fr, score: f.fused.get(path) },
          mmr: mmrRank.get(path) ?? null, duplicateOf: f.duplicates.get(path) ?? null, lostAt,
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
      const { report, removed } = await runSleep(this._db, this._resident, fn, options);
      // the pass changes no embedding or salience signal: only the memories it removed and the edges
      for (const { path, id } of removed) {
        this._resident.removeMemory(path);
        this._lexical.pathOf.delete(id);
      }
      if (removed.length) this._lexical.invalidate();
      await this._resident.loadEdges(this._db);
      return report;
    });
  }

  // ------------------------------------------------------------------ import / export

  /** Every memory as JSON Lines (one object per line, embedding as a number array), in path order. */
  exportJsonl() {
    return this._op("exportJsonl", async () => {
      const rows = (await this._db.all(`SELECT ${COLUMNS} FROM memories m`)).map(rowToMemory).sort((a, b) => byPath(a.path, b.path));
      return rows.map((m) => JSON.stringify({ ...m, embedding: m.embedding ? Array.from(m.embedding) : null })).join("\n") + (rows.length ? "\n" : "");
    });
  }

  /** put() the memories of a JSON Lines text (blank lines skipped). options as put's. */
  async importJsonl(text, options = {}) {
    const fn = "importJsonl";
    if (typeof text !== "string") throw typeError(fn, "text", "a string", text);
    const memories = [];
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      if (!line) continue;
      try {
        memories.push(JSON.parse(line));
      } catch (e) {
        throw rangeError(fn, `text line ${i + 1}`, `is not JSON: ${e.message}`);
      }
    }
    return this.put(memories, options);
  }

  /** The database file as bytes (sqlite-wasm, better-sqlite3, node:sqlite; D1 has no export). Open it with openMemoryCache({ bytes }). */
  exportBytes() {
    return this._op("exportBytes", async () => {
      if (typeof this._db.exportBytes !== "function") throw rangeError("exportBytes", "this", `is on a ${this.backend} database, which cannot export its file`);
      return this._db.exportBytes();
    });
  }

  /** Close the database and free the resident rows and graph. Idempotent. */
  close() {
    if (this._closed) return Promise.resolve();
    return this._queue(async () => {
      if (this._closed) return;
      this._closed = true;
      this._resident.free();
      await this._db.close();
    });
  }
}

function rowToMemory(r) {
  return {
    path: r.path, gist: r.gist, body: r.body, type: r.type,
    embedding: r.embedding ? float32View(r.embedding) ?? null : null,
    createdAt: r.created_at, accessedAt: r.accessed_at, accessCount: r.access_count, confidence: r.confidence,
    outcomeScore: r.outcome_score, reinforcementCount: r.reinforcement_count, contradictionCount: r.contradiction_count,
    decayedAt: r.decayed_at, pagerank: r.pagerank, community: r.community, bridgeCount: r.bridge_count,
    retentionScore: r.retention_score, band: r.band, supersededBy: r.superseded_by,
  };
}

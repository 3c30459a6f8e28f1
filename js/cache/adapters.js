// memdomain/cache: the database adapters. The cache talks to SQLite only through
// this small ASYNC interface, so Cloudflare D1 (no interactive transactions) fits:
//
//   all(sql, params)   -> rows as plain objects (BLOBs as Uint8Array); a statement without
//                         result columns runs and gives [] (the lexical arm writes a TEMP
//                         table with it; where that throws, its lists are read afresh instead)
//   numbers(sql, params) -> a query of numeric columns as one Float64Array per column
//                           (optional; the cache uses all() otherwise)
//   batch(statements)  -> runs [{ sql, params }] atomically: all or nothing (where the
//                         backend has locks, taking the write lock first: BEGIN IMMEDIATE)
//   dataVersion()      -> PRAGMA data_version: moves when another connection commits
//                         (optional; the cache's own generation counter works without it)
//   busyTimeout(ms?)   -> sets PRAGMA busy_timeout when ms is given; returns it (optional)
//   exclusive(body)    -> runs the async body holding the write lock (BEGIN IMMEDIATE ... COMMIT), its
//                         batches nested in that transaction (optional; only on a connection the cache
//                         opened itself: a write that lost the race to other writers takes it)
//   exportBytes()      -> the database file as a Uint8Array (optional)
//   close()
//
// Every write path of the cache is "read, compute in memory, then one batch", so
// the same code is transactional on every backend.

import { CacheBusyError } from "./errors.js";
import { DEFAULT_BUSY_TIMEOUT } from "./schema.js";

const STMT_CACHE = 64;

/** Rows of numbers (arrays) as one Float64Array per column. */
function columns(rows) {
  const nc = rows.length ? rows[0].length : 0;
  return Array.from({ length: nc }, (_, c) => Float64Array.from(rows, (r) => r[c]));
}

/** A small LRU of prepared statements keyed by SQL text. */
function statementCache(prepare, finalize) {
  const map = new Map();
  return {
    get(sql) {
      let s = map.get(sql);
      if (s) {
        map.delete(sql);
        map.set(sql, s);
        return s;
      }
      s = prepare(sql);
      map.set(sql, s);
      if (map.size > STMT_CACHE) {
        const [old, st] = map.entries().next().value;
        map.delete(old);
        finalize(st);
      }
      return s;
    },
    clear() {
      for (const st of map.values()) finalize(st);
      map.clear();
    },
  };
}

/** dataVersion and busyTimeout, over a reader of one PRAGMA's number and a runner of one statement. */
function pragmaMethods(pragma, exec) {
  return {
    async dataVersion() {
      return pragma("data_version");
    },
    async busyTimeout(ms) {
      if (ms !== undefined) exec(`PRAGMA busy_timeout = ${Math.trunc(ms)}`);
      return pragma("busy_timeout");
    },
  };
}

/** Wrap an open `@sqlite.org/sqlite-wasm` oo1 database (`new sqlite3.oo1.DB(...)`, or an OPFS pool db). */
export function sqliteWasmAdapter(db, sqlite3, { onClose } = {}) {
  const stmts = statementCache((sql) => db.prepare(sql), (st) => st.finalize());
  const ex = sqlite3.wasm.exports, capi = sqlite3.capi;
  const ROW = capi.SQLITE_ROW, DONE = capi.SQLITE_DONE;
  // Binding and reading go through the raw exports where the value is a number or null (oo1's
  // Stmt.bind/get cost several times more per value); the same SQLite calls oo1 makes for them:
  // an int32 as int, another integer as int64 (from 2^63 on as the double it is: int64 would
  // wrap), anything else numeric as double. Strings, blobs and the rest take oo1's own path.
  const bind = (st, params) => {
    st.reset(true);
    if (!params || !params.length) return;
    const ptr = st.pointer;
    for (let i = 0; i < params.length; i++) {
      const v = params[i];
      let rc;
      if (typeof v === "number") {
        if (v === (v | 0)) rc = ex.sqlite3_bind_int(ptr, i + 1, v);
        else if (Number.isInteger(v) && Math.abs(v) < 2 ** 63) rc = ex.sqlite3_bind_int64(ptr, i + 1, BigInt(v));
        else rc = ex.sqlite3_bind_double(ptr, i + 1, v);
      } else if (v === null || v === undefined) rc = ex.sqlite3_bind_null(ptr, i + 1);
      else if (typeof v === "string" && v.length <= 4096 && v.isWellFormed?.()) rc = bindText(ptr, i + 1, v);
      else {
        st.bind(i + 1, v);
        continue;
      }
      if (rc) sqlite3.oo1.DB.checkRc(db, rc);
    }
  };
  // a short well-formed string: its UTF-8 in a scratch buffer, bound SQLITE_TRANSIENT (SQLite copies it)
  const encoder = new TextEncoder();
  let scratch = 0;
  const bindText = (ptr, i, v) => {
    if (!scratch) scratch = Number(sqlite3.wasm.alloc(3 * 4096));
    const { written } = encoder.encodeInto(v, sqlite3.wasm.heap8u().subarray(scratch, scratch + 3 * 4096));
    return ex.sqlite3_bind_text(ptr, i, scratch, written, -1);
  };
  const fail = (rc) => {
    throw new Error(`SQLite: ${capi.sqlite3_errmsg(db.pointer)} (${capi.sqlite3_js_rc_str(rc)})`);
  };
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true }); // a text's leading U+FEFF is its own (the default drops it)
  const MAX_SAFE = Number.MAX_SAFE_INTEGER;
  // One column of the current row as oo1's Stmt.get returns it: an integer as a number when it is
  // safe (a double from -2^53 to 2^53 is the integer exactly), else a BigInt.
  const column = (ptr, c) => {
    switch (ex.sqlite3_column_type(ptr, c)) {
      case 1: { // SQLITE_INTEGER
        const d = ex.sqlite3_column_double(ptr, c);
        return d >= -MAX_SAFE && d <= MAX_SAFE ? d : ex.sqlite3_column_int64(ptr, c);
      }
      case 2: return ex.sqlite3_column_double(ptr, c); // SQLITE_FLOAT
      case 3: { // SQLITE_TEXT
        const p = Number(ex.sqlite3_column_text(ptr, c)), n = ex.sqlite3_column_bytes(ptr, c);
        return n ? decoder.decode(sqlite3.wasm.heap8u().subarray(p, p + n)) : "";
      }
      case 4: { // SQLITE_BLOB
        const p = Number(ex.sqlite3_column_blob(ptr, c)), n = ex.sqlite3_column_bytes(ptr, c);
        return n ? sqlite3.wasm.heap8u().slice(p, p + n) : new Uint8Array(0);
      }
      default: return null;
    }
  };
  const pragma = (name) => {
    const st = stmts.get(`PRAGMA ${name}`);
    try {
      return st.step() ? Number(st.get(0)) : null;
    } finally {
      st.reset(true);
    }
  };
  return {
    kind: "sqlite-wasm",
    async all(sql, params) {
      const st = stmts.get(sql);
      bind(st, params);
      const ptr = st.pointer, nc = st.columnCount, names = nc ? st.getColumnNames([]) : [], rows = [];
      try {
        for (;;) {
          const rc = ex.sqlite3_step(ptr);
          if (rc === DONE) break;
          if (rc !== ROW) fail(rc);
          const row = {};
          for (let c = 0; c < nc; c++) row[names[c]] = column(ptr, c);
          rows.push(row);
        }
      } finally {
        st.reset(true);
      }
      return rows;
    },
    async numbers(sql, params) {
      // step and read through the raw exports: a third of the per-row cost of Stmt.get
      const st = stmts.get(sql);
      bind(st, params);
      const ptr = st.pointer, nc = st.columnCount;
      const cols = Array.from({ length: nc }, () => []);
      try {
        for (;;) {
          const rc = ex.sqlite3_step(ptr);
          if (rc === DONE) break;
          if (rc !== ROW) fail(rc);
          for (let c = 0; c < nc; c++) cols[c].push(ex.sqlite3_column_double(ptr, c));
        }
      } finally {
        st.reset(true);
      }
      return cols.map((c) => Float64Array.from(c));
    },
    async batch(statements) {
      if (!statements.length) return;
      // IMMEDIATE: the write lock first, waiting busy_timeout for it (a deferred transaction that read
      // first can get SQLITE_BUSY at once, without the wait, when another connection is writing)
      db.transaction("IMMEDIATE", () => {
        for (const { sql, params } of statements) {
          const st = stmts.get(sql);
          bind(st, params);
          try {
            const rc = ex.sqlite3_step(st.pointer);
            if (rc !== DONE && rc !== ROW) fail(rc);
          } finally {
            st.reset(true);
          }
        }
      });
    },
    ...pragmaMethods(pragma, (sql) => db.exec(sql)),
    async exportBytes() {
      return sqlite3.capi.sqlite3_js_db_export(db.pointer);
    },
    async close() {
      stmts.clear();
      if (scratch) sqlite3.wasm.dealloc(scratch);
      scratch = 0;
      db.close();
      if (onClose) await onClose();
    },
  };
}

/**
 * exclusive(body) over a connection's BEGIN IMMEDIATE and COMMIT: the body's batches commit with it (a body
 * that throws after one committed its savepoint keeps it: the cache's memory already follows it).
 */
function exclusiveMethod(exec, held) {
  return async function exclusive(body) {
    exec("BEGIN IMMEDIATE");
    held(true);
    try {
      return await body();
    } finally {
      held(false);
      try {
        exec("COMMIT");
      } catch (e) {
        try {
          exec("ROLLBACK"); // a COMMIT refused (busy, I/O) leaves the transaction open: end it
        } catch { /* already rolled back */ }
        throw e; // eslint-disable-line no-unsafe-finally -- the caller must know the body's batches were not kept
      }
    }
  };
}

/** Wrap an open better-sqlite3 (12.x) `Database`. `own`: the cache opened it (exclusive() is offered). */
export function betterSqlite3Adapter(db, { own = false } = {}) {
  const stmts = statementCache((sql) => db.prepare(sql), () => {});
  const raw = statementCache((sql) => db.prepare(sql).raw(true), () => {});
  const toParams = (params) => (params ?? []).map((p) =>
    p instanceof Uint8Array && !(typeof Buffer !== "undefined" && Buffer.isBuffer(p)) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p);
  const runAll = db.transaction((statements) => {
    for (const { sql, params } of statements) stmts.get(sql).run(...toParams(params));
  });
  const pragma = (name) => Number(stmts.get(`PRAGMA ${name}`).pluck().get());
  return {
    kind: "better-sqlite3",
    async all(sql, params) {
      const st = stmts.get(sql);
      if (st.reader) return st.all(...toParams(params));
      st.run(...toParams(params)); // a statement without result columns: run, no rows (as the other backends answer)
      return [];
    },
    async numbers(sql, params) {
      return columns(raw.get(sql).all(...toParams(params)));
    },
    async batch(statements) {
      if (statements.length) runAll.immediate(statements); // the write lock first (see sqliteWasmAdapter's batch)
    },
    async dataVersion() {
      return pragma("data_version");
    },
    async busyTimeout(ms) {
      if (ms !== undefined) db.pragma(`busy_timeout = ${Math.trunc(ms)}`);
      return pragma("busy_timeout");
    },
    // inside it, runAll nests as a savepoint (better-sqlite3's transactions do when one is open)
    ...(own ? { exclusive: exclusiveMethod((sql) => db.exec(sql), () => {}) } : {}),
    async exportBytes() {
      const b = db.serialize();
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    },
    async close() {
      stmts.clear();
      raw.clear();
      db.close();
    },
  };
}

/**
 * Wrap an open node:sqlite `DatabaseSync` (built into Node >= 22.5 and Deno >= 2.2). It
 * reads as better-sqlite3 does: an INTEGER beyond 2^53, which node:sqlite refuses to
 * return as a number, is read again as a BigInt and rounded to the nearest double;
 * `undefined` binds as NULL.
 */
export function nodeSqliteAdapter(db, { own = false } = {}) {
  const stmts = statementCache((sql) => db.prepare(sql), (st) => st.close?.());
  const raw = statementCache((sql) => {
    const st = db.prepare(sql);
    st.setReturnArrays?.(true);
    return st;
  }, (st) => st.close?.());
  const args = (params) => (params ? params.map((p) => (p === undefined ? null : p)) : []);
  const num = (v) => (typeof v === "bigint" ? Number(v) : v);
  let locked = false; // inside exclusive()
  const pragma = (name) => Number(Object.values(stmts.get(`PRAGMA ${name}`).get() ?? {})[0]);
  const read = (st, params) => {
    try {
      return st.all(...args(params));
    } catch (e) {
      if (e?.code !== "ERR_OUT_OF_RANGE") throw e;
      st.setReadBigInts(true);
      try {
        return st.all(...args(params)).map((r) => {
          if (Array.isArray(r)) return r.map(num);
          for (const k in r) r[k] = num(r[k]);
          return r;
        });
      } finally {
        st.setReadBigInts(false);
      }
    }
  };
  return {
    kind: "node:sqlite",
    async all(sql, params) {
      // plain objects, as the other adapters give (node:sqlite's rows have a null prototype)
      return read(stmts.get(sql), params).map((r) => ({ ...r }));
    },
    async numbers(sql, params) {
      const st = raw.get(sql);
      const rows = read(st, params);
      return columns(Array.isArray(rows[0]) ? rows : rows.map((r) => Object.values(r)));
    },
    async batch(statements) {
      if (!statements.length) return;
      // the write lock first (see sqliteWasmAdapter's batch); inside exclusive(), a savepoint of its transaction
      const [begin, end, undo] = locked ? ["SAVEPOINT md_batch", "RELEASE md_batch", ["ROLLBACK TO md_batch", "RELEASE md_batch"]]
        : ["BEGIN IMMEDIATE", "COMMIT", ["ROLLBACK"]];
      db.exec(begin);
      try {
        for (const { sql, params } of statements) stmts.get(sql).run(...args(params));
        db.exec(end);
      } catch (e) {
        try {
          for (const q of undo) db.exec(q);
        } catch { /* SQLite already rolled back (a constraint in a trigger, a full disk) */ }
        throw e;
      }
    },
    ...pragmaMethods(pragma, (sql) => db.exec(sql)),
    ...(own ? { exclusive: exclusiveMethod((sql) => db.exec(sql), (on) => { locked = on; }) } : {}),
    async exportBytes() {
      if (typeof db.serialize === "function") return new Uint8Array(db.serialize());
      // Node 22 has no serialize(): a copy through VACUUM INTO a temporary file
      const nodeFs = "node:fs", nodeOs = "node:os";
      const { mkdtempSync, readFileSync, rmSync } = await import(nodeFs);
      const dir = mkdtempSync(`${(await import(nodeOs)).tmpdir()}/memdomain-export-`);
      try {
        db.prepare("VACUUM INTO ?").run(`${dir}/copy.sqlite`);
        return new Uint8Array(readFileSync(`${dir}/copy.sqlite`));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    async close() {
      stmts.clear();
      raw.clear();
      db.close();
    },
  };
}

/** Wrap a Cloudflare D1 binding (`env.DB`). D1's `batch()` is atomic; BLOBs come back as number arrays. */
export function d1Adapter(d1) {
  const blob = (v) => (Array.isArray(v) ? Uint8Array.from(v) : v instanceof ArrayBuffer ? new Uint8Array(v) : v);
  const blobs = (row) => {
    for (const k in row) row[k] = blob(row[k]);
    return row;
  };
  const stmt = (sql, params) => (params && params.length ? d1.prepare(sql).bind(...params) : d1.prepare(sql));
  return {
    kind: "d1",
    async all(sql, params) {
      const r = await stmt(sql, params).all();
      return r.results.map(blobs);
    },
    async numbers(sql, params) {
      const s = stmt(sql, params);
      return columns(typeof s.raw === "function" ? await s.raw() : (await s.all()).results.map((r) => Object.values(r)));
    },
    async batch(statements) {
      if (statements.length) await d1.batch(statements.map((s) => stmt(s.sql, s.params)));
    },
    async close() {},
  };
}

/**
 * Wrap a SQLite-backed Durable Object's storage (`ctx.storage`): `sql.exec` is synchronous and
 * each batch runs inside `transactionSync` (Durable Objects refuse BEGIN/COMMIT/SAVEPOINT), so a
 * batch is atomic: a throw rolls it back. No dataVersion(): the object is its database's only
 * connection, and the generation counter still sees any other cache in the same object. No
 * busyTimeout() (no locks). BLOBs come back as ArrayBuffers. `storage` is kept for the alarm.
 */
export function durableObjectAdapter(storage) {
  if (!isDurableObjectStorage(storage)) {
    throw new TypeError("openMemoryCache: options.storage must be a SQLite-backed Durable Object's ctx.storage " +
      "(with sql.exec and transactionSync; declare the class in new_sqlite_classes)");
  }
  const sql = storage.sql;
  const args = (params) => (params ? params.map((p) => (p === undefined ? null : p)) : []);
  const blobs = (row) => {
    for (const k in row) if (row[k] instanceof ArrayBuffer) row[k] = new Uint8Array(row[k]);
    return row;
  };
  return {
    kind: "durable-object",
    storage,
    async all(q, params) {
      return sql.exec(q, ...args(params)).toArray().map(blobs);
    },
    async numbers(q, params) {
      return columns(Array.from(sql.exec(q, ...args(params)).raw()));
    },
    async batch(statements) {
      if (!statements.length) return;
      storage.transactionSync(() => {
        for (const { sql: q, params } of statements) sql.exec(q, ...args(params));
      });
    },
    async close() {},
  };
}

/** A Durable Object's storage with its SQL API (a KV-backed object has no `sql`). */
const isDurableObjectStorage = (s) => !!s && typeof s.transactionSync === "function" && typeof s.sql?.exec === "function";

/** Recognize what `{ db }` holds: one of our adapters, a Durable Object's storage, a D1 binding, a better-sqlite3, node:sqlite or oo1 database. */
export function adapterFor(db, sqlite3) {
  if (db && typeof db.all === "function" && typeof db.batch === "function" && typeof db.close === "function") return db;
  if (isDurableObjectStorage(db)) return durableObjectAdapter(db);
  if (db && typeof db.prepare === "function" && typeof db.batch === "function") return d1Adapter(db);
  if (db && typeof db.prepare === "function" && typeof db.transaction === "function" && typeof db.serialize === "function")
    return betterSqlite3Adapter(db);
  if (db?.constructor?.name === "DatabaseSync" && typeof db.prepare === "function" && typeof db.exec === "function")
    return nodeSqliteAdapter(db);
  if (db && typeof db.selectObjects === "function" && typeof db.transaction === "function") return sqliteWasmAdapter(db, sqlite3);
  throw new TypeError("openMemoryCache: options.db must be a memdomain/cache adapter ({ all, batch, close }), " +
    "a Cloudflare D1 binding, a better-sqlite3 Database, a node:sqlite DatabaseSync or an @sqlite.org/sqlite-wasm oo1 DB");
}

// sqlite-wasm publishes every release since 3.42 as a -buildN prerelease and tags 3.41.2 "latest", so a peer
// range cannot name them (npm admits a prerelease only for its own x.y.z): the peer is "*", the install line
// names the tested build, and a build older than 3.50 is refused here, given or loaded.
const TESTED_SQLITE_WASM = "@sqlite.org/sqlite-wasm@3.54.1-build1";
function recentEnough(sqlite3) {
  if (!(sqlite3?.version?.libVersionNumber >= 3050000))
    throw new TypeError(`openMemoryCache: @sqlite.org/sqlite-wasm ${sqlite3?.version?.libVersion ?? "(no version)"} is older than 3.50 ` +
      `(npm install ${TESTED_SQLITE_WASM})`);
  return sqlite3;
}

let sqlitePromise = null;
/** The official SQLite WebAssembly build, loaded once (dynamically: only when no `db` is given). */
export function loadSqliteWasm(init) {
  if (init) return Promise.resolve(typeof init === "function" ? init() : init).then(recentEnough);
  if (!sqlitePromise) {
    sqlitePromise = import("@sqlite.org/sqlite-wasm").then((m) => m.default({ print: () => {}, printErr: () => {} }))
      .catch((e) => {
        throw new TypeError(`openMemoryCache: @sqlite.org/sqlite-wasm could not be loaded (npm install ${TESTED_SQLITE_WASM}, ` +
          `or pass { db } or { sqlite3 }): ${e?.message ?? e}`);
      })
      .then(recentEnough)
      .catch((e) => {
        sqlitePromise = null;
        throw e;
      });
  }
  return sqlitePromise;
}

const pools = new Map();
/**
 * The opfs-sahpool VFS (OPFS without cross-origin isolation; dedicated Workers only), installed once per
 * name. The pool holds its files' access handles, which OPFS gives one context at a time, for the Worker's
 * life: a second tab of the origin failed with an error about Workers. So a Web Lock named after the pool
 * is taken first and held as long (the browser releases it when the Worker ends); another tab waits for
 * it up to `waitMs`, then gets a CacheBusyError saying another tab or Worker holds the pool.
 */
function opfsPool(sqlite3, name, waitMs) {
  if (!pools.has(name)) {
    pools.set(name, (async () => {
      const release = await lockPool(name, waitMs);
      try {
        return await sqlite3.installOpfsSAHPoolVfs({ name, clearOnInit: false });
      } catch (e) {
        release();
        throw new TypeError(`openMemoryCache: the OPFS pool "${name}" could not be opened (OPFS needs a dedicated Worker): ${e?.message ?? e}`);
      }
    })().catch((e) => {
      pools.delete(name);
      throw e;
    }));
  }
  return pools.get(name);
}

/** The Web Lock of an OPFS pool, waited for up to `ms`: resolves its release, or rejects with a CacheBusyError. */
async function lockPool(name, ms) {
  const locks = globalThis.navigator?.locks;
  if (typeof locks?.request !== "function") return () => {}; // no Web Locks: the pool's own failure stands
  let release;
  const held = new Promise((r) => { release = r; });
  await new Promise((granted, refused) => {
    locks.request(`memdomain/cache opfs-sahpool ${name}`, { signal: AbortSignal.timeout(ms) }, () => {
      granted();
      return held;
    }).catch((e) => refused(new CacheBusyError(`openMemoryCache: the OPFS pool "${name}" is held by another tab or Worker of this ` +
      `origin (OPFS gives its files to one at a time), and it was not released within busyTimeout (${ms} ms): close the cache's ` +
      "other tab, or end the Worker that holds it, and open again", e)));
  });
  return release;
}

const inBrowser = () => typeof navigator !== "undefined" && typeof navigator.storage?.getDirectory === "function"
  && typeof process === "undefined";

const DRIVERS = ["node:sqlite", "better-sqlite3"];

export { DEFAULT_BUSY_TIMEOUT }; // schema.js (options.busyTimeout's default)

/**
 * How a file path opens outside browsers: node:sqlite where the runtime has it (no native build), else
 * better-sqlite3. Returns open(path, busyTimeout): the connection's busy timeout is set before anything
 * reads it (an open beside a writer otherwise failed at its first read with "database is locked").
 */
async function fileDriver(driver) {
  // Specifiers in variables: bundlers for browsers and Workers must not try to bundle these.
  const nodeSqlite = "node:sqlite", betterSqlite3 = "better-sqlite3";
  if (driver !== "better-sqlite3") {
    try {
      const { DatabaseSync } = await import(nodeSqlite);
      return (path, timeout) => {
        const db = new DatabaseSync(path);
        try {
          db.exec(`PRAGMA busy_timeout = ${timeout}`);
        } catch (e) {
          db.close();
          throw e;
        }
        return nodeSqliteAdapter(db, { own: true });
      };
    } catch (e) {
      if (driver === "node:sqlite")
        throw new TypeError(`openMemoryCache: options.driver "node:sqlite" needs Node >= 22.5 or Deno >= 2.2: ${e?.message ?? e}`);
    }
  }
  try {
    const Database = (await import(betterSqlite3)).default;
    new Database(":memory:").close(); // the native addon loads here: one built for another runtime throws now, not on the file
    return (path, timeout) => betterSqlite3Adapter(new Database(path, { timeout }), { own: true });
  } catch (e) {
    throw new TypeError(driver ? `openMemoryCache: options.driver "better-sqlite3" could not be loaded (npm install better-sqlite3@12.9.0): ${e?.message ?? e}`
      : "openMemoryCache: a file path outside browsers needs node:sqlite (Node >= 22.5, Deno >= 2.2) or better-sqlite3 " +
        `(npm install better-sqlite3@12.9.0): ${e?.message ?? e}`);
  }
}

/** A RangeError naming options.path (shown quoted, cut at 80 characters) and what is wrong with it. */
export function pathError(path, why, cause) {
  const shown = JSON.stringify(path.length > 80 ? `${path.slice(0, 80)}...` : path);
  return new RangeError(`openMemoryCache: options.path ${shown} ${why}`, cause === undefined ? undefined : { cause });
}

/**
 * A file path the drivers would refuse with "unable to open database file" (or open differently), as a
 * RangeError saying why: a file: URI (node:sqlite opens it as a URI, better-sqlite3 refuses it), a
 * directory, a missing directory, a name too long for the file system.
 */
async function checkFilePath(path) {
  if (/^file:/i.test(path)) throw pathError(path, "is a file: URI; pass a file path (node:sqlite reads URIs, better-sqlite3 does not)");
  const nodeFs = "node:fs", nodePath = "node:path";
  const { statSync } = await import(nodeFs), { dirname } = await import(nodePath);
  const stat = (p) => {
    try {
      return statSync(p);
    } catch (e) {
      if (e?.code === "ENOENT") return null;
      throw pathError(path, e?.code === "ENAMETOOLONG" ? `is too long for the file system (${path.length} characters)`
        : `could not be read (${e?.code ?? e?.message ?? e})`, e);
    }
  };
  const st = stat(path);
  if (st?.isDirectory()) throw pathError(path, "is a directory, not a database file");
  if (st) return;
  const dir = stat(dirname(path));
  if (!dir) throw pathError(path, `is in a directory that does not exist (${dirname(path).slice(0, 200)})`);
  if (!dir.isDirectory()) throw pathError(path, `is under ${dirname(path).slice(0, 200)}, which is not a directory`);
}

/**
 * Open the database the options name. `path` ":memory:" (the default) is an in-memory
 * SQLite (sqlite-wasm); in a browser worker any other path is a file in OPFS; in Node
 * and Deno a path is a file opened with node:sqlite where the runtime has it, else
 * with better-sqlite3 (an optional dependency; `driver` chooses one). `bytes` opens a
 * copy of a database file in memory (or, with a path in OPFS, imports it).
 */
export async function openAdapter(options) {
  const { path = ":memory:", bytes, vfs = "memdomain", driver } = options;
  if (options.storage !== undefined) return durableObjectAdapter(options.storage);
  if (driver !== undefined) {
    if (typeof driver !== "string") throw new TypeError(`openMemoryCache: options.driver must be a string, got ${driver === null ? "null" : typeof driver}`);
    if (!DRIVERS.includes(driver)) throw new RangeError(`openMemoryCache: options.driver must be "node:sqlite" or "better-sqlite3", got ${JSON.stringify(driver)}`);
    if (options.db !== undefined || path === ":memory:" || inBrowser())
      throw new RangeError("openMemoryCache: options.driver chooses how a file path opens outside browsers; it takes no db, no \":memory:\" and no OPFS path");
  }
  if (options.db !== undefined) return adapterFor(options.db, options.sqlite3);
  if (typeof path !== "string" || path.length === 0) throw new TypeError("openMemoryCache: options.path must be a non-empty string");
  if (bytes !== undefined && !(bytes instanceof Uint8Array || bytes instanceof ArrayBuffer))
    throw new TypeError("openMemoryCache: options.bytes must be a Uint8Array or an ArrayBuffer");
  // a plain Uint8Array view: sqlite-wasm's allocFromTypedArray rejects subclasses such as Node's Buffer
  const data = bytes instanceof ArrayBuffer ? new Uint8Array(bytes)
    : bytes === undefined ? undefined : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (path !== ":memory:" && !inBrowser()) {
    const open = await fileDriver(driver);
    await checkFilePath(path);
    if (data) {
      const nodeFs = "node:fs";
      const { writeFileSync, existsSync } = await import(nodeFs);
      if (existsSync(path)) throw new RangeError(`openMemoryCache: options.path ${path} exists; refusing to overwrite it with options.bytes`);
      writeFileSync(path, data);
    }
    try {
      return open(path, options.busyTimeout ?? DEFAULT_BUSY_TIMEOUT);
    } catch (e) {
      throw pathError(path, `could not be opened (${e?.message ?? e})`, e);
    }
  }
  const sqlite3 = await loadSqliteWasm(options.sqlite3);
  if (path === ":memory:") {
    const db = new sqlite3.oo1.DB(":memory:", "c");
    if (data) {
      const p = sqlite3.wasm.allocFromTypedArray(data);
      const c = sqlite3.capi;
      const rc = c.sqlite3_deserialize(db.pointer, "main", p, data.length, data.length,
        c.SQLITE_DESERIALIZE_FREEONCLOSE | c.SQLITE_DESERIALIZE_RESIZEABLE);
      if (rc !== 0) {
        db.close();
        throw new RangeError(`openMemoryCache: options.bytes is not a SQLite database (sqlite3_deserialize: ${c.sqlite3_js_rc_str(rc)})`);
      }
    }
    return sqliteWasmAdapter(db, sqlite3);
  }
  const pool = await opfsPool(sqlite3, vfs, options.busyTimeout ?? DEFAULT_BUSY_TIMEOUT);
  if (data) await pool.importDb(path, data);
  return sqliteWasmAdapter(new pool.OpfsSAHPoolDb(path), sqlite3);
}

// The workbench's storage and retrieval backend: the ONE file that knows where the
// memories live and how they are read and written. The worker talks to it only through
// this interface:
//
//   const b = await openBackend(md);      // md: the memdomain package with openMemoryCache (initialized)
//   b.kind, b.sqlite                      // what holds the data, for the page; whether it takes SQLite files
//   await b.load()                        // { memories (live, path order), edges, superseded, dim } or null
//   await b.replace({ bytes, jsonl }, onProgress)  // a new database: a SQLite file's copy and/or JSON Lines through
//                                         // importJsonl(); resolves { imported, page (the page's lines a SQLite
//                                         // file carries, or null) }; then b.commit() keeps it or b.revert() brings
//                                         // the previous database back
//   await b.useEmbed(fn)                  // the dataset's text encoder as the cache's embed hook (the synthetic example's),
//                                         // or null: the cache is opened again with it (calibrate() embeds with it)
//   await b.calibrate(options) / b.calibration()   // memdomain/cache's calibrate() (measured and stored) / the stored one
//   await b.explain(query, paths)         // memdomain/cache's explain(): { hits, paths, trace } (what search() returns, and why)
//   await b.tune(labelled, options)       // memdomain/cache's tune(): settings fitted to labelled queries
//   await b.preview(options)              // sleep(options) on a copy of the database, in memory: { report, memories (no
//                                         // embeddings), edges } after the pass without eviction, and `evicted`, the report
//                                         // of the pass with options.evict (on another copy), or null; the database is untouched
//   await b.sleep(options)                // sleep(options) on the database; b.undoSleep() brings back the one before
//   await b.check(section, value)         // the API's own error for search() / sleep() options, or null
//   await b.exportJsonl()                 // memdomain/cache's exportJsonl()
//   await b.exportBytes(pageText)         // the SQLite file, carrying the page's lines in its own table
//   await b.readSide(name) / b.writeSide(name, text)   // small side files (queries, labels, meta) in OPFS
//
// This is memdomain/cache: SQLite (the official sqlite-wasm) in the Origin Private File
// System through its opfs-sahpool VFS in this dedicated Worker, or in memory where there is
// no OPFS (Node, a private window).

const FILE = "workbench.sqlite";
/** The page's own table in an exported SQLite file: its meta line and queries (queries.jsonl's text). */
const PAGE_TABLE = "workbench_page";

async function opfsDir() {
  try {
    return await navigator.storage.getDirectory();
  } catch {
    return null;
  }
}

async function readFile(dir, name) {
  if (!dir) return null;
  try {
    return await (await (await dir.getFileHandle(name)).getFile()).text();
  } catch {
    return null;
  }
}

async function writeFile(dir, name, text) {
  if (!dir) return;
  const h = await dir.getFileHandle(name, { create: true });
  const w = await h.createWritable();
  await w.write(text);
  await w.close();
}

/** A stored memory as the workbench's dataset holds it (every stored field; the embedding as a Float32Array). */
const memoryOf = (m) => ({ ...m, embedding: m.embedding ? Float32Array.from(m.embedding) : null });

/** Run `fn(db)` on a scratch in-memory copy of a SQLite file (sqlite-wasm's oo1), then close it. */
function onCopy(sqlite3, bytes, fn) {
  const db = new sqlite3.oo1.DB(":memory:", "c");
  try {
    const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const p = sqlite3.wasm.allocFromTypedArray(data);
    const c = sqlite3.capi;
    const rc = c.sqlite3_deserialize(db.pointer, "main", p, data.length, data.length,
      c.SQLITE_DESERIALIZE_FREEONCLOSE | c.SQLITE_DESERIALIZE_RESIZEABLE);
    if (rc !== 0) throw new RangeError(`not a SQLite file (sqlite3_deserialize: ${c.sqlite3_js_rc_str(rc)})`);
    return fn(db);
  } finally {
    db.close();
  }
}

export async function openBackend(md) {
  const dir = await opfsDir();
  // One sqlite-wasm module for the cache, its copies and the page's table. In a Worker with OPFS the
  // database is a file of sqlite-wasm's opfs-sahpool VFS (the pool memdomain/cache uses); the backend
  // holds the pool too, to start a file afresh or write a SQLite file into it. Pool names are absolute.
  const sqlite3 = await md.sqlite3InitModule({ print: () => {}, printErr: () => {} });
  const pool = dir ? await sqlite3.installOpfsSAHPoolVfs({ name: "memdomain", clearOnInit: false }) : null;
  const path = pool ? FILE : ":memory:";
  // searchAccess false: the workbench's searches are a person tuning, not an agent using its memories (no access to count)
  let embed = null; // the embed hook (useEmbed), or null
  const open = (bytes) => md.openMemoryCache({ path, sqlite3, searchAccess: false, ...(embed ? { embed } : {}), ...(bytes && !pool ? { bytes } : {}) });
  let cache = await open();
  let checker = null; // an empty cache in memory: the API's own checks of search() and sleep() options
  let pending = null; // the database before a replace(), until commit() or revert()
  let beforeSleep = null; // the database before the last sleep(), for undoSleep()
  let embedBefore = null; // the hook before a replace(), for revert()

  async function contents() {
    if (!(await cache.count())) return null;
    const all = await cache.all();
    const memories = all.filter((m) => m.supersededBy === null).map(memoryOf);
    return { memories, superseded: all.length - memories.length, edges: await cache.edges(), dim: cache.dim };
  }

  /** Open the database anew from `bytes` (a SQLite file), or empty: a new dataset may have another dimension. */
  async function reopen(bytes) {
    await cache.close();
    if (pool) {
      if (bytes) await pool.importDb(`/${FILE}`, bytes);
      else pool.unlink(`/${FILE}`);
    }
    cache = await open(bytes);
  }

  const readPage = (bytes) => onCopy(sqlite3, bytes, (db) => {
    const has = db.selectValue("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [PAGE_TABLE]);
    return has ? db.selectValue(`SELECT value FROM ${PAGE_TABLE} WHERE key = 'page'`) ?? null : null;
  });

  return {
    kind: pool ? "memdomain/cache: SQLite (sqlite-wasm) in OPFS" : "memdomain/cache: SQLite (sqlite-wasm) in memory (no OPFS here)",
    sqlite: true,

    load: contents,

    async replace({ bytes, jsonl }, onProgress = () => {}) {
      const before = await cache.exportBytes();
      onProgress("a new database", 0.1);
      // imported without a hook: the previous dataset's encoder must not embed the new one's memories
      embedBefore = embed;
      embed = null;
      let page = null, imported = null;
      try {
        if (bytes) page = readPage(bytes);
        await reopen(bytes ?? null);
        await cache.count(); // a file that is not a memdomain/cache database fails here
        if (jsonl && jsonl.trim()) {
          imported = await cache.importJsonl(jsonl, {
            onProgress: (p) => onProgress(`importJsonl: ${p.phase} ${p.done} of ${p.total}`, 0.2 + 0.6 * (p.done / Math.max(1, p.total))),
          });
        }
      } catch (e) {
        embed = embedBefore;
        await reopen(before); // the cache refused the new data: the previous database comes back
        throw e;
      }
      pending = before;
      beforeSleep = null;
      onProgress("stored", 1);
      return { imported, page };
    },
    commit() {
      pending = null;
    },
    async revert() {
      if (pending) {
        embed = embedBefore;
        await reopen(pending);
      }
      pending = null;
    },

    async useEmbed(fn) {
      if (fn === embed) return;
      embed = fn;
      await reopen(await cache.exportBytes());
    },
    calibrate: (options) => cache.calibrate(options),
    calibration: () => cache.calibration(),

    async preview(options) {
      const bytes = await cache.exportBytes();
      const pass = async (opts, read) => {
        const copy = await md.openMemoryCache({ bytes, sqlite3 });
        try {
          const report = await copy.sleep(opts);
          if (!read) return { report };
          // the embeddings are the database's own: the views need the rest
          return { report, memories: (await copy.all()).map(({ embedding, ...m }) => m), edges: await copy.edges() };
        } finally {
          await copy.close();
        }
      };
      // every memory's score and band are the pass's decision, which a pass that evicts stores for the
      // survivors only: so the memories and edges come from the pass without eviction, and a pass that
      // evicts runs on a second copy for its own report
      const kept = await pass({ ...options, evict: false }, true);
      return { ...kept, evicted: options.evict ? (await pass(options, false)).report : null };
    },

    async sleep(options) {
      const before = await cache.exportBytes();
      const report = await cache.sleep(options);
      beforeSleep = before;
      return report;
    },
    async undoSleep() {
      if (!beforeSleep) throw new RangeError("there is no sleep pass to undo");
      await reopen(beforeSleep);
      beforeSleep = null;
    },
    get canUndoSleep() {
      return beforeSleep !== null;
    },

    async check(section, value, now) {
      checker ??= await md.openMemoryCache({ sqlite3 });
      try {
        // the settings with a probe query of both kinds (a search without one can run no arm: a RangeError of its own)
        if (section === "search") await checker.search(value !== null && typeof value === "object" && !Array.isArray(value) ? { text: "probe", vector: [1], ...value } : value);
        else if (section === "sleep") await checker.sleep(value !== null && typeof value === "object" && !Array.isArray(value) ? { now, ...value } : value);
        else throw new Error(`no check for ${section}`);
        return null;
      } catch (e) {
        return e.message;
      }
    },

    explain: (query, paths) => cache.explain(query, paths),
    tune: (labelled, options) => cache.tune(labelled, options),
    exportJsonl: () => cache.exportJsonl(),
    async exportBytes(pageText) {
      const bytes = await cache.exportBytes();
      if (pageText === undefined) return bytes;
      return onCopy(sqlite3, bytes, (db) => {
        db.exec(`CREATE TABLE IF NOT EXISTS ${PAGE_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
        db.exec({ sql: `INSERT OR REPLACE INTO ${PAGE_TABLE} (key, value) VALUES ('page', ?)`, bind: [pageText] });
        return sqlite3.capi.sqlite3_js_db_export(db.pointer);
      });
    },
    readSide: (name) => readFile(dir, name),
    writeSide: (name, text) => writeFile(dir, name, text),
    close: () => cache.close(),
  };
}

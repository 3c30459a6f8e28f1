// The workbench's storage and retrieval backend: the ONE file that knows where the
// memories live and how the four arms are read. The worker talks to it only through
// this interface:
//
//   const b = await openBackend(md);      // md: the memdomain package with openMemoryCache (initialized)
//   b.kind, b.sqlite                      // what holds the data, for the page; whether it takes SQLite files
//   await b.load()                        // { memories, edges } stored from an earlier visit, or null
//   await b.replace(memories, edges, onProgress)   // the new dataset, persisted
//   await b.importBytes(bytes)            // a SQLite file as the new dataset: { memories, edges }
//   await b.explain(query, paths)         // memdomain/cache's explain(): { hits, paths, trace } (what search() returns, and why)
//   await b.tune(labelled, options)       // memdomain/cache's tune(): settings fitted to labelled queries
//   await b.exportBytes()                 // the SQLite file
//   await b.readSide(name) / b.writeSide(name, text)   // small side files (queries, labels, meta) in OPFS
//
// This is memdomain/cache: SQLite (the official sqlite-wasm) in the Origin Private File
// System through its opfs-sahpool VFS in this dedicated Worker, or in memory where there is
// no OPFS (Node, a private window). Lexical is FTS5's bm25(); vector, salience and lateral
// are the cache's own arms on its resident rows and resident Graph.

const FILE = "workbench.sqlite";

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

/** A stored memory as the workbench's dataset holds it. */
const memoryOf = (m) => ({
  path: m.path, gist: m.gist, body: m.body, type: m.type, embedding: m.embedding ? Float32Array.from(m.embedding) : null,
  createdAt: m.createdAt, accessedAt: m.accessedAt, accessCount: m.accessCount, confidence: m.confidence,
  outcomeScore: m.outcomeScore, reinforcementCount: m.reinforcementCount, contradictionCount: m.contradictionCount,
});

export async function openBackend(md) {
  const dir = await opfsDir();
  // In a Worker with OPFS the database is a file of sqlite-wasm's opfs-sahpool VFS (the pool
  // memdomain/cache uses); the backend holds the pool too, to start a file afresh or write a
  // SQLite file into it. Pool names are absolute ("/workbench.sqlite").
  let sqlite3 = null, pool = null;
  if (dir && md.sqlite3InitModule) {
    sqlite3 = await md.sqlite3InitModule({ print: () => {}, printErr: () => {} });
    pool = await sqlite3.installOpfsSAHPoolVfs({ name: "memdomain", clearOnInit: false });
  }
  const path = pool ? FILE : ":memory:";
  const open = (bytes) => md.openMemoryCache({ path, ...(sqlite3 ? { sqlite3 } : {}), ...(bytes && !pool ? { bytes } : {}) });
  let cache = await open();

  async function contents() {
    if (!(await cache.count())) return null;
    const memories = (await cache.all()).filter((m) => m.supersededBy === null).map(memoryOf);
    const edges = (await cache.edges()).map((e) => ({ src: e.src, dst: e.dst, strength: e.strength, type: e.type }));
    return { memories, edges };
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

  return {
    kind: pool ? "memdomain/cache: SQLite (sqlite-wasm) in OPFS" : "memdomain/cache: SQLite (sqlite-wasm) in memory (no OPFS here)",
    sqlite: true,

    load: contents,

    async replace(memories, edges, onProgress = () => {}) {
      const before = await cache.exportBytes();
      onProgress("a new database", 0.1);
      await reopen(null);
      try {
        await cache.put(memories, { onProgress: (p) => onProgress(`${p.phase} ${p.done} of ${p.total}`, 0.2 + 0.6 * (p.done / Math.max(1, p.total))) });
        onProgress("linking", 0.85);
        await cache.link(edges);
      } catch (e) {
        await reopen(before); // the cache refused the new data: the previous database comes back
        throw e;
      }
      onProgress("stored", 1);
    },

    async importBytes(bytes) {
      const before = await cache.exportBytes();
      try {
        await reopen(bytes);
        await cache.count(); // a file that is not a memdomain/cache database fails here
      } catch (e) {
        await reopen(before);
        throw e;
      }
      return contents();
    },

    explain: (query, paths) => cache.explain(query, paths),
    tune: (labelled, options) => cache.tune(labelled, options),
    exportBytes: () => cache.exportBytes(),
    readSide: (name) => readFile(dir, name),
    writeSide: (name, text) => writeFile(dir, name, text),
    close: () => cache.close(),
  };
}

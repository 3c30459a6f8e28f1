// memdomain/cache: the in-memory state follows the database (issue 25). Each finding of the
// issue as a test: a throw after the commit (a callback, a lost acknowledgement), other
// writers (a second cache, a raw connection, a held lock), idempotent sleep with eviction,
// numbers every backend stores exactly, delete's count, the path and the foreign database
// checks at open, the JSON Lines round trip, lone surrogates, a zero query vector, the
// edges a delete touches and the bound on sleep's neighbour lists.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import Database from "better-sqlite3";
import * as md from "../../js/index.js";
import { LOG_GENERATIONS, LOG_MAX_PATHS, openMemoryCache, betterSqlite3Adapter, sqliteWasmAdapter } from "../../js/cache/index.js";
import { loadSqliteWasm } from "../../js/cache/adapters.js";
import { graphNodes } from "../../js/cache/resident.js";
import { wasmBytes } from "./build.js";
import { rng } from "../oracles/rng.js";
import { makeCorpus, makeQueries, T0 } from "./cache-corpus.js";

md.initSync(wasmBytes());
const dir = mkdtempSync(`${tmpdir()}/memdomain-cache-consistency-`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sqlite3 = await loadSqliteWasm();

const D = 16, N = 200, DAY = 86_400_000;
const corpus = makeCorpus(N, D, 41, { dupEvery: 8 });
const queries = makeQueries(corpus, 6, 42);
const NOW = T0 + 300 * DAY;
let files = 0;
const file = () => `${dir}/c${files++}.sqlite`;

/** Every query's hits and arms: what a fresh cache over the same database must answer too. */
const view = async (cache) => {
  const out = [];
  for (const q of [...queries, { text: queries[0].text }, { vector: queries[1].vector, weights: { lateral: 2 } }]) {
    out.push(await cache.search({ ...q, limit: 10 }), await cache.searchArms(q));
  }
  return JSON.stringify(out);
};
const freshView = async (path) => {
  const c = await openMemoryCache({ path });
  try { return await view(c); } finally { await c.close(); }
};
/** A view of a shared sqlite-wasm handle that leaves it open on close(). */
const shared = (h) => ({ ...sqliteWasmAdapter(h, sqlite3), close: async () => {} });

describe("a throw after the commit leaves the cache as the database", () => {
  test("put whose onProgress throws on its last event: the row is committed and search finds it", async () => {
    const path = file();
    const cache = await openMemoryCache({ path });
    try {
      await cache.put([{ ...corpus[0], path: "a", gist: "alpha", body: "first" }]);
      let n = 0;
      const err = await cache.put([{ ...corpus[1], path: "b", gist: "beta", body: "second" }],
        { onProgress: () => { if (++n === 3) throw new Error("callback"); } }).catch((e) => e);
      expect(err.message).toBe("callback");
      expect(await cache.count()).toBe(2);
      expect((await cache.get(["b"])).map((m) => m.path)).toEqual(["b"]);
      expect((await cache.search({ text: "beta" })).map((h) => h.path)).toEqual(["b"]);
      expect(await view(cache)).toBe(await freshView(path));
    } finally { await cache.close(); }
  });

  test("sleep with evict whose onProgress throws after the write: no evicted or superseded path is ever found", async () => {
    const path = file();
    const cache = await openMemoryCache({ path });
    try {
      await cache.put(corpus);
      const err = await cache.sleep({ now: NOW + 900 * DAY, floor: 0.5, evict: true, policy: { minAgeDays: 0 },
        onProgress: (p) => { if (p.phase === "write" && p.done === 1) throw new Error("callback"); } }).catch((e) => e);
      expect(err.message).toBe("callback");
      const gone = new Set((await cache.all()).filter((m) => m.supersededBy !== null).map((m) => m.path));
      const live = new Set((await cache.all()).filter((m) => m.archivedAt === null).map((m) => m.path));
      const evicted = corpus.map((m) => m.path).filter((p) => !live.has(p)); // archived (kept, out of every arm)
      expect(evicted.length).toBeGreaterThan(0);
      for (const q of queries) {
        for (const h of await cache.search({ ...q, limit: 50, depth: 200 })) expect(gone.has(h.path) || !live.has(h.path)).toBe(false);
      }
      expect(await view(cache)).toBe(await freshView(path));
    } finally { await cache.close(); }
  });

  test.each(["delete", "reinforce", "put", "link", "sleep"])("%s: an adapter that commits and then throws (a lost acknowledgement)", async (op) => {
    const path = file();
    let lose = false;
    const inner = betterSqlite3Adapter(new Database(path));
    const adapter = { ...inner, async batch(st) { await inner.batch(st); if (lose) { lose = false; throw new Error("acknowledgement lost"); } } };
    // searchAccess false: the views' searches would be access a retried sleep then counts (a write of its own)
    const cache = await openMemoryCache({ db: adapter, searchAccess: false });
    try {
      await cache.put(corpus);
      await cache.sleep({ now: NOW, floor: 0.5 });
      const run = {
        delete: () => cache.delete(corpus.slice(0, 30).map((m) => m.path)),
        reinforce: () => cache.reinforce(corpus.slice(30, 60).map((m) => m.path), { now: NOW + DAY, signal: "positive" }),
        put: () => cache.put(corpus.slice(60, 90).map((m) => ({ ...m, gist: "replaced words", accessCount: 50 }))),
        link: () => cache.link([{ src: corpus[100].path, dst: corpus[150].path, strength: 1 }]),
        sleep: () => cache.sleep({ now: NOW + 900 * DAY, floor: 0.5, evict: true, policy: { minAgeDays: 0 } }),
      }[op];
      lose = true;
      await expect(run()).rejects.toThrow("acknowledgement lost");
      expect(await view(cache)).toBe(await freshView(path));
      const snap = JSON.stringify([await cache.all(), await cache.edges()]);
      await run(); // a retry is safe: the same database
      expect(JSON.stringify([await cache.all(), await cache.edges()])).toBe(snap);
      expect(await view(cache)).toBe(await freshView(path));
    } finally { await cache.close(); }
  });
});

describe("other writers", () => {
  test("two caches on one file: B sees A's puts, deletions and evictions in search", async () => {
    const path = file();
    const a = await openMemoryCache({ path }), b = await openMemoryCache({ path });
    try {
      await a.put(corpus.slice(0, 100));
      expect(await b.count()).toBe(100);
      expect(await view(b)).toBe(await view(a));
      await a.put(corpus.slice(100));
      await a.delete(corpus.slice(0, 20).map((m) => m.path));
      expect(await view(b)).toBe(await freshView(path));
      const report = await a.sleep({ now: NOW + 900 * DAY, floor: 0.5, evict: true, policy: { minAgeDays: 0 } });
      expect(report.evicted).toBeGreaterThan(0);
      expect(await view(b)).toBe(await freshView(path));
      for (const q of queries) for (const h of await b.search({ ...q, limit: 50 })) expect(report.archived).not.toContain(h.path);
      await b.link([{ src: corpus[150].path, dst: corpus[160].path, strength: 1 }]);
      expect(await view(a)).toBe(await freshView(path));
      // replaced memories (new embeddings, texts and signals), then a reinforcement: B reads only what changed, and answers as a fresh cache
      const live = (await a.all()).filter((m) => m.supersededBy === null).slice(0, 30);
      await a.put(live.map((m, i) => ({ ...corpus[(i * 17 + 5) % N], path: m.path, accessCount: i })));
      await a.reinforce(live.slice(30 - 5).map((m) => m.path), { now: NOW + 901 * DAY, signal: "positive" });
      expect(await view(b)).toBe(await freshView(path));
    } finally { await a.close(); await b.close(); }
  });

  test("rowid reuse: A deletes the newest memory and puts another; B finds the new path, never the deleted one", async () => {
    const path = file();
    const a = await openMemoryCache({ path }), b = await openMemoryCache({ path });
    try {
      await a.put([...corpus.slice(0, 49), { ...corpus[49], path: "last.html", gist: "aardvark platypus", body: "y" }]);
      expect((await b.search({ text: "aardvark platypus" })).map((h) => h.path)).toEqual(["last.html"]); // B keeps its term lists
      await a.delete(["last.html"]); // the largest id
      await a.put([{ ...corpus[0], path: "fresh.html", gist: "zanzibar quokka", body: "x" }]);
      expect((await b.search({ text: "zanzibar quokka" })).map((h) => h.path)).toEqual(["fresh.html"]);
      expect((await b.search({ text: "aardvark platypus" })).map((h) => h.path)).toEqual([]);
      expect(await view(b)).toBe(await freshView(path));
    } finally { await a.close(); await b.close(); }
  });

  test("two caches over one sqlite-wasm handle (one connection): the generation counter tells them apart", async () => {
    const h = new sqlite3.oo1.DB(":memory:", "c");
    const a = await openMemoryCache({ db: shared(h) }), b = await openMemoryCache({ db: shared(h) });
    try {
      await a.put(corpus.slice(0, 80));
      await b.search(queries[0]);
      await a.delete(corpus.slice(0, 10).map((m) => m.path));
      await a.put(corpus.slice(80, 120));
      const c = await openMemoryCache({ db: shared(h) });
      expect(await view(b)).toBe(await view(c));
      await c.close();
    } finally { await a.close(); await b.close(); h.close(); }
  });

  test("a cache further behind than the change log reaches reads everything again", async () => {
    const h = new sqlite3.oo1.DB(":memory:", "c");
    const a = await openMemoryCache({ db: shared(h) }), b = await openMemoryCache({ db: shared(h) });
    try {
      await a.put(corpus.slice(0, 60));
      await b.search(queries[0]);
      await a.delete([corpus[0].path]);
      for (let i = 0; i < LOG_GENERATIONS + 70; i++) await a.reinforce([corpus[1 + (i % 50)].path], { now: NOW + i, cooldownSeconds: 0 });
      expect(Number(h.selectValue("SELECT value FROM md_meta WHERE key = 'log_since'"))).toBeGreaterThan(2); // B's generation is gone
      expect(h.selectValue("SELECT min(gen) FROM md_log")).toBeGreaterThan(2);
      const c = await openMemoryCache({ db: shared(h) });
      expect(await view(b)).toBe(await view(c));
      await c.close();
    } finally { await a.close(); await b.close(); h.close(); }
  });

  test("a batch too big to log: the caches behind it read everything, also after the log is pruned", async () => {
    const h = new sqlite3.oo1.DB(":memory:", "c");
    const a = await openMemoryCache({ db: shared(h) }), c = await openMemoryCache({ db: shared(h) });
    const gen = () => Number(h.selectValue("SELECT value FROM md_meta WHERE key = 'generation'"));
    try {
      await a.put(corpus.slice(0, 60));
      while (gen() < LOG_GENERATIONS + 10) await a.reinforce([corpus[gen() % 50].path], { now: NOW + gen(), cooldownSeconds: 0 });
      await c.search(queries[0]); // C is at this generation
      const big = Array.from({ length: LOG_MAX_PATHS + 1 }, (_, i) => ({ ...corpus[i % N], path: `big/${i}`, gist: `bulk ${i}` }));
      await a.put(big);
      const x = gen();
      expect(Number(h.selectValue("SELECT value FROM md_meta WHERE key = 'log_since'"))).toBe(x);
      expect(h.selectValue("SELECT count(*) FROM md_log WHERE gen = ?", [x])).toBe(0);
      while (gen() % 64 !== 0) await a.reinforce([corpus[gen() % 50].path], { now: NOW + gen(), cooldownSeconds: 0 }); // a pruning
      expect(Number(h.selectValue("SELECT value FROM md_meta WHERE key = 'log_since'"))).toBe(x); // not moved back before it
      const fresh = await openMemoryCache({ db: shared(h) });
      expect(await view(c)).toBe(await view(fresh));
      expect((await c.search({ text: "bulk", weights: { vector: 0 } })).length).toBe(10);
      await fresh.close();
    } finally { await a.close(); await c.close(); h.close(); }
  });

  test("a cache database made before the generation counter and the change log opens, gains them, and two caches agree", async () => {
    const path = file();
    const a0 = await openMemoryCache({ path });
    await a0.put(corpus.slice(0, 40));
    await a0.close();
    const raw = new Database(path);
    raw.exec("DROP TABLE md_log; DELETE FROM md_meta WHERE key IN ('generation', 'writer', 'log_since', 'next_id', 'edges_generation')");
    raw.close();
    const a = await openMemoryCache({ path }), b = await openMemoryCache({ path });
    try {
      await b.search(queries[0]);
      await a.put(corpus.slice(40, 60));
      await a.delete([corpus[3].path]);
      expect(await view(b)).toBe(await freshView(path));
    } finally { await a.close(); await b.close(); }
  });

  test("onExternalChange: \"error\": a clear error naming the other writer, for search and for writes", async () => {
    const path = file();
    const a = await openMemoryCache({ path }), b = await openMemoryCache({ path, onExternalChange: "error" });
    try {
      await b.put(corpus.slice(0, 10));
      expect((await b.search(queries[0])).length).toBeGreaterThan(0);
      await a.put(corpus.slice(10, 20));
      for (const call of [() => b.search(queries[0]), () => b.put(corpus.slice(20, 21)), () => b.delete([corpus[0].path])]) {
        const err = await call().catch((e) => e);
        expect(err).toBeInstanceOf(Error);
        expect(err.code).toBe("MEMDOMAIN_CACHE_EXTERNAL_CHANGE");
        expect(err.message).toMatch(/^(search|put|delete): the database was changed by another writer \(memdomain\/cache writer [0-9a-z-]+\)/);
      }
      expect(await a.count()).toBe(20); // nothing of B's refused writes
      await expect(openMemoryCache({ path, onExternalChange: "ignore" })).rejects.toThrow(/openMemoryCache: options\.onExternalChange must be "resync" or "error"/);
    } finally { await a.close(); await b.close(); }
  });

  test.each(["resync", "error"])("a write that loses the race (another cache commits between its read and its batch), onExternalChange %s", async (mode) => {
    const path = file();
    const other = await openMemoryCache({ path });
    let race = false;
    const inner = betterSqlite3Adapter(new Database(path));
    const adapter = { ...inner, async batch(st) {
      if (race && st.length > 3) { // the other cache writes first, once
        race = false;
        await other.put([{ ...corpus[199], path: "other.html" }]);
      }
      return inner.batch(st);
    } };
    const cache = await openMemoryCache({ db: adapter, onExternalChange: mode });
    try {
      await cache.put(corpus.slice(0, 100));
      race = true;
      const outcome = await cache.delete(corpus.slice(0, 10).map((m) => m.path)).catch((e) => e);
      if (mode === "resync") {
        expect(outcome).toEqual({ deleted: 10 }); // read again and written on the second attempt
        expect(await cache.count()).toBe(91);
        expect(await view(cache)).toBe(await freshView(path));
      } else {
        expect(outcome.code).toBe("MEMDOMAIN_CACHE_EXTERNAL_CHANGE");
        expect(outcome.message).toMatch(/^delete: another writer committed to the database while this call ran, and options\.onExternalChange is "error"; nothing was written/);
        expect(await cache.count()).toBe(101);
        await expect(cache.search(queries[0])).rejects.toThrow(/^search: the database was changed by another writer \(memdomain\/cache writer /);
      }
    } finally { await cache.close(); await other.close(); }
  });

  test("a connection that is not a memdomain cache (raw SQL): PRAGMA data_version moves, the cache resyncs", async () => {
    const path = file();
    const cache = await openMemoryCache({ path });
    try {
      await cache.put(corpus.slice(0, 60));
      await cache.search(queries[0]);
      const raw = new Database(path);
      raw.prepare("UPDATE memories SET access_count = 1000 WHERE path = ?").run(corpus[3].path);
      raw.close();
      expect(await view(cache)).toBe(await freshView(path));
      const sal = (await cache.searchArms({ text: corpus[3].gist, vector: corpus[3].embedding })).salience;
      expect(sal[0]).toBe(corpus[3].path);
    } finally { await cache.close(); }
  });

  test("SQLITE_BUSY: a lock held past busyTimeout is a clear error naming the call; a shorter one is waited out", async () => {
    const path = file();
    const cache = await openMemoryCache({ path, busyTimeout: 150 });
    await cache.put(corpus.slice(0, 10));
    const hold = (ms) => new Promise((ok, fail) => {
      const child = spawn(process.execPath, ["-e", `const D = require(${JSON.stringify(createRequire(import.meta.url).resolve("better-sqlite3"))});
        const db = new D(${JSON.stringify(path)}); db.exec("BEGIN EXCLUSIVE"); db.prepare("UPDATE md_meta SET value = value WHERE key = 'schema'").run();
        process.stdout.write("locked\\n"); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms}); db.exec("COMMIT"); db.close();`]);
      child.stdout.once("data", () => ok(child));
      child.once("error", fail);
    });
    try {
      let child = await hold(2000);
      const err = await cache.put(corpus.slice(10, 12)).catch((e) => e);
      expect(err.code).toBe("MEMDOMAIN_CACHE_BUSY");
      expect(err.message).toMatch(/^put: the database is locked by another connection \(SQLITE_BUSY\) for longer than busyTimeout \(150 ms\)/);
      await new Promise((ok) => child.once("exit", ok));
      expect(await cache.count()).toBe(10);
      await cache.close();
      const waiting = await openMemoryCache({ path, busyTimeout: 10000 });
      child = await hold(300);
      expect(await waiting.put(corpus.slice(10, 12))).toEqual({ inserted: 2, replaced: 0 });
      await new Promise((ok) => child.once("exit", ok));
      expect(await waiting.count()).toBe(12);
      await waiting.close();
      // a handle of the user's with its own timeout: the same clear error, with that timeout (read back from the connection)
      const own = await openMemoryCache({ db: new Database(path, { timeout: 100 }) });
      child = await hold(2000);
      const err2 = await own.search({ text: "x" }).catch((e) => e);
      expect(err2.code).toBe("MEMDOMAIN_CACHE_BUSY");
      expect(err2.message).toMatch(/^search: the database is locked by another connection \(SQLITE_BUSY\) for longer than busyTimeout \(100 ms\)/);
      await new Promise((ok) => child.once("exit", ok));
      await own.close();
    } finally { await cache.close(); }
  });
});

describe("sleep with eviction is idempotent", () => {
  test.each(["memory", "file"])("%s: the same now twice: the second pass writes nothing and evicts nothing", async (kind) => {
    const cache = await openMemoryCache(kind === "file" ? { path: file() } : {});
    try {
      await cache.put(corpus);
      await cache.link([{ src: corpus[0].path, dst: corpus[1].path, strength: 0.9 }]);
      const now = NOW + 900 * DAY;
      const first = await cache.sleep({ now, floor: 0.3, evict: true, policy: { minAgeDays: 0 } });
      expect(first.evicted).toBeGreaterThan(0);
      const snap = JSON.stringify([await cache.all(), await cache.edges()]);
      const second = await cache.sleep({ now, floor: 0.3, evict: true, policy: { minAgeDays: 0 } });
      expect(second.evicted).toBe(0);
      expect(second.written).toEqual({ memories: 0, edges: 0, statements: 0 });
      expect(JSON.stringify([await cache.all(), await cache.edges()])).toBe(snap);
      // the stored edges are the survivors' own neighbour lists (as a pass over them alone finds them)
      const survivors = (await cache.all()).filter((m) => m.supersededBy === null && m.archivedAt === null && m.embedding);
      const matrix = new Float32Array(survivors.length * D);
      survivors.forEach((m, i) => matrix.set(m.embedding, i * D));
      const want = md.topNeighborPairsPacked(matrix, survivors.map((m) => m.path), { floor: 0.3, perSourceK: 5, limit: 1e9 })
        .map((p) => `${p.src} ${p.dst} ${Math.min(1, p.sim)}`).sort();
      expect((await cache.edges()).filter((e) => e.origin === "sleep").map((e) => `${e.src} ${e.dst} ${e.strength}`).sort()).toEqual(want);
      // the next cycle evicts again
      expect((await cache.sleep({ now: now + DAY, floor: 0.3, evict: true, policy: { minAgeDays: 0 } })).merges.ran).toBe(true);
    } finally { await cache.close(); }
  });
});

describe("input the backends cannot store alike is refused", () => {
  let cache;
  beforeAll(async () => { cache = await openMemoryCache(); await cache.put(corpus.slice(0, 5)); });
  afterAll(() => cache.close());
  const m = (over) => ({ ...corpus[10], ...over });

  test.each([
    ["createdAt past the Date range", { createdAt: 1e19 }, /put: memories\[0\]\.createdAt must be a time within ±8\.64e15 ms/],
    ["createdAt 1e308", { createdAt: 1e308 }, /memories\[0\]\.createdAt must be a time within/],
    ["accessedAt past the Date range", { accessedAt: -9e15 }, /memories\[0\]\.accessedAt must be a time within/],
    ["accessCount 2^53", { accessCount: 2 ** 53 }, /memories\[0\]\.accessCount must be an integer in \[0, 9007199254740991\], got 9007199254740992/],
    ["accessCount 1e19", { accessCount: 1e19 }, /memories\[0\]\.accessCount must be an integer in \[0, 9007199254740991\]/],
    ["reinforcementCount 1.5", { reinforcementCount: 1.5 }, /memories\[0\]\.reinforcementCount must be an integer/],
    ["contradictionCount -1", { contradictionCount: -1 }, /memories\[0\]\.contradictionCount must be an integer in \[0, /],
    ["a lone surrogate in the gist", { gist: "ok \uD800 then" }, /memories\[0\]\.gist holds a lone surrogate at index 3/],
    ["a lone surrogate in the body", { body: "\uDC00" }, /memories\[0\]\.body holds a lone surrogate at index 0/],
  ])("put: %s is a RangeError, nothing written", async (_, over, message) => {
    const before = await cache.exportJsonl();
    const err = await cache.put([m({ path: "refused" , ...over })]).catch((e) => e);
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toMatch(message);
    expect(await cache.exportJsonl()).toBe(before);
  });

  test("the largest accepted numbers are stored exactly on sqlite-wasm and better-sqlite3", async () => {
    const big = { ...corpus[0], path: "big", createdAt: 8.64e15, accessedAt: -8.64e15, accessCount: 2 ** 53 - 1, reinforcementCount: 2 ** 53 - 1,
      contradictionCount: 2 ** 53 - 1, gist: "astral \ud83d\ude00 ok" };
    const a = await openMemoryCache(), b = await openMemoryCache({ path: file() });
    try {
      await a.put([big]);
      await b.put([big]);
      const [x] = await a.get(["big"]), [y] = await b.get(["big"]);
      expect(x).toEqual(y);
      for (const k of ["createdAt", "accessedAt", "accessCount", "reinforcementCount", "contradictionCount", "gist"]) expect([k, x[k]]).toEqual([k, big[k]]);
      await expect(a.reinforce(["big"], { now: 8.64e15 })).rejects.toThrow( // access_count + 1 would leave the safe integers
        "reinforce: paths[0] has access count 9007199254740991, the largest the cache stores exactly; it cannot be bumped");
      expect((await a.get(["big"]))[0].accessCount).toBe(2 ** 53 - 1);
    } finally { await a.close(); await b.close(); }
  });

  test("reinforce and sleep: times past the Date range are RangeErrors", async () => {
    await expect(cache.reinforce([corpus[0].path], { now: 1e19 })).rejects.toThrow(/reinforce: options\.now must be a time within/);
    await expect(cache.sleep({ now: -1e300 })).rejects.toThrow(/sleep: options\.now must be a time within/);
  });

  test("a zero query vector is a RangeError naming query.vector", async () => {
    for (const call of ["search", "searchArms"]) {
      const err = await cache[call]({ text: "x", vector: new Float32Array(D) }).catch((e) => e);
      expect(err).toBeInstanceOf(RangeError);
      expect(err.message).toBe(`${call}: query.vector is all zeros: it has no direction, so cosine would rank every memory alike (leave query.vector out to search without the vector arm)`);
    }
    expect((await cache.search({ vector: Float32Array.from({ length: D }, (_, i) => (i === 3 ? -1e-30 : 0)) })).length).toBeGreaterThan(0);
  });

  test("delete counts what it deleted: a repeated path once, an absent one not at all", async () => {
    const c = await openMemoryCache();
    try {
      await c.put(corpus.slice(0, 3));
      expect(await c.delete([corpus[0].path, corpus[0].path, "absent"])).toEqual({ deleted: 1 });
      expect(await c.count()).toBe(2);
    } finally { await c.close(); }
  });
});

describe("opening: the path and the database are checked before anything is written", () => {
  test("a NUL or a lone surrogate in options.path is a TypeError, and no file is created", async () => {
    const sub = mkdtempSync(`${dir}/nul-`);
    for (const path of [`${sub}/notes\u0000.evil.db`, `${sub}/bad\uD800.db`]) {
      const err = await openMemoryCache({ path }).catch((e) => e);
      expect(err).toBeInstanceOf(TypeError);
      expect(err.message).toMatch(/^openMemoryCache: options\.path (must not hold a NUL character|holds a lone surrogate)/);
    }
    expect(readdirSync(sub)).toEqual([]);
  });

  const foreign = (db) => {
    db.exec("CREATE TABLE memories (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO memories (text) VALUES ('mine')");
    return db;
  };
  const schemaOf = (db) => JSON.stringify(db.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY name").all());

  test("a foreign SQLite file (its own memories table) is refused before anything is written to it", async () => {
    const path = file();
    const db = foreign(new Database(path));
    const before = schemaOf(db);
    db.close();
    const err = await openMemoryCache({ path }).catch((e) => e);
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toBe("openMemoryCache: options.path holds a SQLite database that is not a memdomain cache (tables: memories); refusing to write to it");
    const again = new Database(path);
    expect(schemaOf(again)).toBe(before);
    again.close();
  });

  test("the same through options.db and options.bytes, on both backends", async () => {
    const h = foreign(new Database(":memory:"));
    const before = schemaOf(h), bytes = h.serialize();
    const seen = { ...betterSqlite3Adapter(h), close: async () => {} }; // left open to look at it afterwards
    await expect(openMemoryCache({ db: seen })).rejects.toThrow(/^openMemoryCache: options\.db holds a SQLite database that is not a memdomain cache \(tables: memories\)/);
    expect(schemaOf(h)).toBe(before);
    const w = new sqlite3.oo1.DB(":memory:", "c");
    w.exec("CREATE TABLE notes (x); CREATE TABLE md_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"); // md_meta but no schema row
    await expect(openMemoryCache({ db: shared(w) })).rejects.toThrow(/options\.db holds a SQLite database that is not a memdomain cache \(tables: md_meta, notes\)/);
    expect(w.selectValues("SELECT name FROM sqlite_master ORDER BY name")).toEqual(["md_meta", "notes", "sqlite_autoindex_md_meta_1"]);
    await expect(openMemoryCache({ bytes })).rejects.toThrow(/options\.bytes holds a SQLite database that is not a memdomain cache/);
    w.close();
    h.close();
  });

  test("an empty database and a memdomain cache with extra tables of the user's open", async () => {
    const path = file();
    new Database(path).close(); // an empty file
    const c = await openMemoryCache({ path });
    await c.put(corpus.slice(0, 3));
    await c.close();
    const db = new Database(path);
    db.exec("CREATE TABLE my_notes (x)");
    db.close();
    const again = await openMemoryCache({ path });
    expect(await again.count()).toBe(3);
    await again.close();
  });
});

describe("JSON Lines", () => {
  test("export, import into a fresh cache, export: byte-identical after merges, links, decay and eviction; the same search", async () => {
    const a = await openMemoryCache();
    const b = await openMemoryCache({ path: file() });
    try {
      await a.put(corpus);
      await a.link([{ src: corpus[0].path, dst: corpus[1].path, strength: 0.75 }, { src: corpus[2].path, dst: corpus[3].path, strength: 1, type: "supports" }]);
      const first = await a.sleep({ now: NOW, floor: 0.4 });
      expect(first.merges.merged.length).toBeGreaterThan(0);
      const evicting = await a.sleep({ now: NOW + 700 * DAY, floor: 0.4, evict: true, policy: { minAgeDays: 0 } });
      expect(evicting.evicted).toBeGreaterThan(0);
      await a.reinforce([corpus[5].path], { now: NOW + 701 * DAY, signal: "positive" });
      const text = await a.exportJsonl();
      const r = await b.importJsonl(text);
      expect(r.inserted).toBe(await a.count());
      expect(r.edges).toBe((await a.edges()).length);
      expect(await b.exportJsonl()).toBe(text);
      expect(await b.count()).toBe(await a.count());
      expect((await b.all()).filter((m) => m.supersededBy === null).length).toBe((await a.all()).filter((m) => m.supersededBy === null).length);
      expect(await b.edges()).toEqual(await a.edges());
      expect(await view(b)).toBe(await view(a));
      // the watermarks came along: a pass at the same time merges and evicts nothing on either
      const [x, y] = [await a.sleep({ now: NOW + 700 * DAY, floor: 0.4, evict: true, policy: { minAgeDays: 0 } }), await b.sleep({ now: NOW + 700 * DAY, floor: 0.4, evict: true, policy: { minAgeDays: 0 } })];
      expect(y.merges.ran).toBe(false);
      expect(y.evicted).toBe(0);
      // the import stores no neighbour lists: its first pass is a full one (report.neighbors), with the same result
      expect({ ...y, timings: 0, neighbors: 0 }).toEqual({ ...x, timings: 0, neighbors: 0 });
    } finally { await a.close(); await b.close(); }
  });

  test("import refuses an edge to an unknown memory, naming the line; nothing written", async () => {
    const c = await openMemoryCache();
    try {
      const line = JSON.stringify({ ...corpus[0], embedding: Array.from(corpus[0].embedding) });
      const edge = JSON.stringify({ edge: { src: corpus[0].path, dst: "nowhere", type: "related", strength: 0.5, origin: "link" } });
      await expect(c.importJsonl(`${line}\n${edge}\n`)).rejects.toThrow(/^importJsonl: text line 2 \.edge\.dst names no stored or imported memory/);
      expect(await c.count()).toBe(0);
    } finally { await c.close(); }
  });
});

describe("bounded work", () => {
  test("delete after a sleep reads only the deleted rows' edges; the lateral arm after it equals a fresh cache", async () => {
    const path = file();
    const seen = [];
    const inner = betterSqlite3Adapter(new Database(path));
    const adapter = { ...inner, all: (sql, p) => { seen.push(sql); return inner.all(sql, p); }, numbers: (sql, p) => { seen.push(sql); return inner.numbers(sql, p); } };
    const cache = await openMemoryCache({ db: adapter });
    try {
      await cache.put(corpus);
      await cache.sleep({ now: NOW, floor: 0.3 });
      expect((await cache.edges()).length).toBeGreaterThan(500);
      seen.length = 0;
      await cache.delete(corpus.slice(0, 5).map((m) => m.path));
      expect(seen.filter((s) => /\bFROM edges\b/.test(s))).toEqual([]);
      expect(await view(cache)).toBe(await freshView(path));
    } finally { await cache.close(); }
  });

  test("sleep: perSourceK above 100, or neighbour lists past limits.sleepEdges, are RangeErrors before any work", async () => {
    const c = await openMemoryCache({ limits: { sleepEdges: 1000 } });
    try {
      await c.put(corpus);
      await expect(c.sleep({ now: NOW, floor: -1, perSourceK: 1000 })).rejects.toThrow(/^sleep: options\.perSourceK must be in \[1, 100\], got 1000/);
      await expect(c.sleep({ now: NOW, perSourceK: 6 })).rejects.toThrow(
        "sleep: options.perSourceK 6 over 200 memories with embeddings allows 1200 edges, more than limits.sleepEdges (1000); lower perSourceK or raise the limit");
      expect((await c.sleep({ now: NOW, perSourceK: 5 })).memories).toBe(N);
    } finally { await c.close(); }
  });

  test("sleep frees the search's resident rows first only past limits.sleepRoom; the searches after are a fresh cache's", async () => {
    const runs = [];
    for (const sleepRoom of [undefined, 1]) {
      const path = file(), c = await openMemoryCache({ path, limits: sleepRoom === undefined ? undefined : { sleepRoom } });
      try {
        await c.put(corpus);
        await c.search({ ...queries[0], limit: 5 }); // builds the rows
        const built = c._resident._rows;
        expect(built).not.toBeNull();
        await c.sleep({ now: NOW, floor: 0.5 });
        // 200 x 16 elements x 19 bytes: inside the default room, over a room of 1 byte
        expect(c._resident._rows).toBe(sleepRoom === undefined ? built : null);
        const got = [];
        for (const q of queries) got.push(JSON.stringify(await c.search({ ...q, limit: 10 })));
        const fresh = await openMemoryCache({ path });
        try {
          for (const [i, q] of queries.entries()) expect(got[i]).toBe(JSON.stringify(await fresh.search({ ...q, limit: 10 })));
        } finally { await fresh.close(); }
        runs.push(got);
      } finally { await c.close(); }
    }
    expect(runs[1]).toEqual(runs[0]);
    await expect(openMemoryCache({ limits: { sleepRoom: 0 } })).rejects.toThrow(/options\.limits\.sleepRoom/);
  });
});

describe("the resident rows follow put and delete without a rebuild", () => {
  // Vectors that tie: copies of a few bases, and the bases times 2 (the same cosine bits: a
  // power of two scales the dot and both norms exactly); paths that sort before, between and
  // after the built ones (JavaScript string order: "B" < "a", "é" after "z", a surrogate pair
  // after both).
  const VD = 16;
  const bases = Array.from({ length: 3 }, (_, b) => Float32Array.from({ length: VD }, (_, i) => ((i * 7 + b * 5) % 11) - 5));
  const NAMES = [];
  for (const head of ["", "B", "a", "g", "m", "z", "é", "\u{1F600}"]) for (const tail of ["", "0", "05", "1", "a", "z"]) NAMES.push(`${head}${tail}` || "~");
  NAMES.splice(0, NAMES.length, ...new Set(NAMES));
  const M = (o) => ({ ...corpus[0], ...o });
  const top = (c, q, depth) => {
    const t = c._resident.topVector(q, depth);
    return { paths: t.paths, sims: Array.from(t.sims, (x) => (Object.is(x, -0) ? "-0" : x)) };
  };
  const queriesFor = (r) => [...bases, Float32Array.from(bases[0], (x) => 2 * x), ...Array.from({ length: 2 }, () =>
    Float32Array.from({ length: VD }, () => r() * 2 - 1))];
  /** The resident top-k at depths that cut tie groups, and search's hits and arms: a fresh cache over the file must answer the same. */
  const vectorView = async (c, qs) => {
    const out = [await c.search({ vector: qs[0], limit: 1 })]; // an operation first: the cache reads what other writers committed
    for (const q of qs) {
      for (const depth of [1, 3, 7, 20, 500]) out.push(top(c, q, depth));
      out.push(await c.search({ vector: q, limit: 10, depth: 7 }), await c.searchArms({ vector: q, text: "alpha", depth: 5 }));
    }
    return out.map((x) => JSON.stringify(x));
  };
  /** The first entry of the views that differs (undefined: none), short enough to read in a failure. */
  const firstDiff = (got, want) => {
    const i = want.findIndex((w, i) => got[i] !== w);
    return i < 0 && got.length === want.length ? undefined : { at: i, got: got[i], want: want[i] };
  };
  const freshVectorView = async (path, qs) => {
    const c = await openMemoryCache({ path });
    try { return await vectorView(c, qs); } finally { await c.close(); }
  };

  test("a tie group cut by the depth, split between the built rows and rows put since: path order, as a fresh cache", async () => {
    const path = file();
    const cache = await openMemoryCache({ path });
    try {
      const g = Array.from({ length: 12 }, (_, i) => `g${String(i).padStart(2, "0")}`);
      await cache.put([...g.map((p) => M({ path: p, gist: "alpha", body: p, embedding: bases[0] })),
        ...Array.from({ length: 20 }, (_, i) => M({ path: `o${i}`, gist: "beta", body: "x", embedding: bases[1 + (i % 2)] }))]);
      const q = bases[0];
      expect(top(cache, q, 4).paths).toEqual(["g00", "g01", "g02", "g03"]); // the rows are built
      const built = cache._resident._rows;
      await cache.put([
        { path: "g035", gist: "alpha", body: "new, sorts between g03 and g04", embedding: bases[0] },
        { path: "a", gist: "alpha", body: "new, sorts before every g", embedding: Float32Array.from(bases[0], (x) => 2 * x) },
        { path: "g01", gist: "alpha", body: "rewritten, the same vector bits", embedding: Float32Array.from(bases[0]) },
        { path: "g02", gist: "alpha", body: "rewritten, a tying vector", embedding: Float32Array.from(bases[0], (x) => 2 * x) },
        { path: "g05", gist: "alpha", body: "rewritten, no longer tying", embedding: bases[1] },
      ].map(M));
      await cache.delete(["g00", "g03"]);
      expect(cache._resident._rows).toBe(built); // no rebuild
      expect(cache._resident._fresh).toEqual(new Set(["g035", "a", "g02", "g05"]));
      const want = ["a", "g01", "g02", "g035", "g04", "g06", "g07"];
      for (let depth = 1; depth <= 7; depth++) expect(top(cache, q, depth).paths).toEqual(want.slice(0, depth));
      const t = top(cache, q, 7);
      expect(new Set(t.sims).size).toBe(1); // every one ties
      expect(firstDiff(await vectorView(cache, queriesFor(rng(5))), await freshVectorView(path, queriesFor(rng(5))))).toBeUndefined();
      expect(cache._resident._rows).toBe(built);
    } finally { await cache.close(); }
  });

  test.each([["never built again", null, 0], ["built again every few writes", 5, 0], ["700 more rows: the pruned top-k", null, 700]])(
    "random puts, rewrites, deletes and links, two caches on one file: each search equals a fresh cache's (%s)", async (_, limit, more) => {
      const path = file();
      const r = rng((limit ?? 77) + more);
      const pick = (a) => a[Math.floor(r() * a.length)];
      const vec = () => {
        const x = r();
        if (x < 0.35) return Float32Array.from(pick(bases));
        if (x < 0.5) return Float32Array.from(pick(bases), (v) => 2 * v);
        if (x < 0.55) return null;
        return Float32Array.from({ length: VD }, () => Math.round((r() * 2 - 1) * 8) / 8);
      };
      const mem = (p) => M({ path: p, gist: pick(["alpha", "beta", "alpha beta"]), body: p, embedding: vec(), accessCount: Math.floor(r() * 3) });
      const a = await openMemoryCache({ path }), b = await openMemoryCache({ path });
      const qs = queriesFor(r);
      let rebuilds = 0, checks = 0;
      try {
        for (const c of [a, b]) if (limit !== null) c._resident.pendingLimit = () => limit;
        await a.put([...NAMES.filter(() => r() < 0.6), ...Array.from({ length: more }, (_, i) => `n/${i}`)].map(mem));
        const stored = new Map((await a.all()).map((m) => [m.path, m]));
        for (let step = 0; step < 60; step++) {
          const c = r() < 0.7 ? a : b, x = r();
          const before = [a, b].map((s) => s._resident._rows);
          if (x < 0.45) { // new paths and rewrites, some with the vector they had
            const ps = [...new Set(Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(NAMES)))];
            await c.put(ps.map((p) => (stored.has(p) && r() < 0.3 ? { ...mem(p), embedding: stored.get(p).embedding } : mem(p))));
          } else if (x < 0.75) {
            await c.delete([...new Set(Array.from({ length: 1 + Math.floor(r() * 2) }, () => pick(NAMES)))]);
          } else { // a new link, or one again (INSERT OR REPLACE of the edge)
            const again = r() < 0.4 ? (await a.edges()).filter((e) => e.origin === "link") : [];
            const l = again.length ? pick(again) : { src: pick([...stored.keys()]), dst: pick([...stored.keys()]) };
            await c.link([{ src: l.src, dst: l.dst, strength: again.length ? 0.75 : 0.5 }]).catch(() => {});
          }
          stored.clear();
          for (const m of await a.all()) stored.set(m.path, m);
          const want = await freshVectorView(path, qs);
          for (const s of [a, b]) {
            expect(firstDiff(await vectorView(s, qs), want)).toBeUndefined();
            expect(adjacencyFault(s._resident)).toBeUndefined();
            checks++;
          }
          if (step > 0) rebuilds += [a, b].filter((s, i) => s._resident._rows !== before[i]).length;
        }
        expect(checks).toBe(120);
        if (limit === null) expect(rebuilds).toBe(0);
        else expect(rebuilds).toBeGreaterThan(0);
      } finally {
        await a.close();
        await b.close();
      }
    });
});

/**
 * What is wrong with a Resident's edge index, or undefined: each path lists the keys of exactly the
 * edges it is an end of, each once (a stale or repeated key would only cost time, so no search shows it).
 */
function adjacencyFault(res) {
  const want = new Map();
  for (const [k, e] of res._edges) for (const p of new Set([e.src, e.dst])) (want.get(p) ?? want.set(p, []).get(p)).push(k);
  for (const [p, keys] of res._adj) {
    const w = want.get(p) ?? [];
    if (keys.length !== new Set(keys).size) return { path: p, repeated: keys };
    if (keys.length !== w.length || keys.some((k) => !w.includes(k))) return { path: p, keys, want: w };
  }
  for (const p of want.keys()) if (!res._adj.has(p)) return { path: p, missing: want.get(p) };
  return undefined;
}

describe("the lateral arm's Graph outlives memories added or removed without edges", () => {
  test("PageRank over graphNodes (2^j nodes) with extra edgeless nodes, at tolerance x live / 2^j, equals the fresh graph's bit for bit", () => {
    const r = rng(27);
    let compared = 0, differs = 0;
    for (let trial = 0; trial < 150; trial++) {
      const n = 20 + Math.floor(r() * 150);
      const nodes = Array.from({ length: n }, (_, i) => `n${String(i).padStart(4, "0")}`);
      const edges = Array.from({ length: Math.floor(r() * 4 * n) }, () => ({ src: nodes[Math.floor(r() * n)], dst: nodes[Math.floor(r() * n)],
        strength: Math.round(r() * 8) / 8 }));
      // edgeless nodes only the kept graph has (removed since), and only the fresh one has (added since), between the others in path order
      const onlyKept = Array.from({ length: Math.floor(r() * 12) }, (_, i) => `n${String(Math.floor(r() * n)).padStart(4, "0")}k${i}`);
      const onlyFresh = Array.from({ length: Math.floor(r() * 12) }, (_, i) => `n${String(Math.floor(r() * n)).padStart(4, "0")}f${i}`);
      const keptNodes = graphNodes([...nodes, ...onlyKept]);
      expect(Math.log2(keptNodes.length) % 1).toBe(0);
      const kept = new md.Graph(keptNodes, edges), fresh = new md.Graph([...onlyFresh, ...nodes], edges);
      expect(kept.nodes.length).toBe(keptNodes.length);
      const at = (g) => new Map(g.nodes.map((p, i) => [p, i]));
      const ak = at(kept), af = at(fresh);
      const seeds = new Map(Array.from({ length: 1 + Math.floor(r() * 5) }, () => [nodes[Math.floor(r() * n)], 0.1 + r()]));
      const tolerance = (md.PAGERANK_TOLERANCE * fresh.nodes.length) / kept.nodes.length;
      expect(tolerance * kept.nodes.length).toBe(md.PAGERANK_TOLERANCE * fresh.nodes.length);
      for (const maxIterations of [3, 100]) {
        const want = fresh.pagerankScores({ seeds, maxIterations });
        const got = kept.pagerankScores({ seeds, maxIterations, tolerance });
        const plain = kept.pagerankScores({ seeds, maxIterations });
        for (const p of nodes) expect(Object.is(got[ak.get(p)], want[af.get(p)])).toBe(true);
        for (const p of keptNodes) if (!nodes.includes(p)) expect(got[ak.get(p)]).toBe(0);
        for (const p of onlyFresh) expect(want[af.get(p)]).toBe(0);
        if (nodes.some((p) => !Object.is(plain[ak.get(p)], want[af.get(p)]))) differs++;
        compared++;
      }
      kept.free();
      fresh.free();
    }
    expect(compared).toBe(300);
    expect(differs).toBeGreaterThan(0); // the node count moves the stopping threshold: the default tolerance would not do
  });

  test("new paths and deletions without edges keep both Graphs; a new seed, a revived path with edges or a new edge builds again; every search as a fresh cache", async () => {
    const path = file();
    const cache = await openMemoryCache({ path });
    const qs = queries.slice(0, 4);
    const arms = async (c) => {
      const out = [await c.search({ vector: qs[0].vector, limit: 1 })];
      for (const q of qs) {
        for (const preset of [undefined, "memhtml"]) {
          out.push(await c.search({ ...q, preset, limit: 10, weights: { lateral: 2 } }), await c.searchArms({ ...q, preset, weights: { lateral: 2 } }));
        }
      }
      return out.map((x) => JSON.stringify(x));
    };
    const same = async () => {
      const c = await openMemoryCache({ path });
      try {
        const want = await arms(c), got = await arms(cache);
        const i = want.findIndex((w, i) => got[i] !== w);
        expect(i < 0 ? undefined : { at: i, got: got[i], want: want[i] }).toBeUndefined();
      } finally { await c.close(); }
    };
    const graphs = () => [cache._resident._graphs.all, cache._resident._graphs.links];
    try {
      await cache.put(corpus);
      await cache.sleep({ now: NOW, floor: 0.3 });
      await cache.link(corpus.slice(0, 40).map((m, i) => ({ src: m.path, dst: corpus[(i * 7 + 3) % N].path, strength: 0.25 + (i % 4) / 8 })));
      await same();
      const built = graphs();
      expect(built.every((g) => g !== null)).toBe(true);
      // new paths with text and vectors far from the queries (not seeds), some sorting between the others
      const far = (p, i) => ({ ...corpus[i], path: p, gist: `zyzzyva ${i}`, body: "quux", embedding: Float32Array.from(corpus[i].embedding, (x) => -x) });
      await cache.put([far("mem/000010a.html", 3), far("aaa.html", 4), far("zzz.html", 5)]);
      await same();
      await cache.delete(["aaa.html"]);
      await cache.put([far("mem/000020a.html", 6)]);
      await same();
      expect(graphs()).toEqual(built);
      expect(cache._resident._graphDelta.all.size).toBe(3);
      // a path put back to where it was: no longer a change
      await cache.delete(["zzz.html"]);
      await cache.put([far("zzz.html", 5)]);
      await same();
      expect(graphs()).toEqual(built);
      // a live memory with no link() edge (only sleep's) deleted: the link graph is kept, the other built again
      const lone = corpus.find((m) => cache._resident.meta.has(m.path) && !cache._resident._hasEdges(m.path, true));
      await cache.delete([lone.path]);
      await same();
      expect(cache._resident._graphs.links).toBe(built[1]);
      expect(cache._resident._graphs.all).not.toBe(built[0]);
      expect(cache._resident._graphDelta.links.get(lone.path)).toBe(false);
      built[0] = cache._resident._graphs.all;
      // a new path among the seeds (its text and vector are a query's): built again
      await cache.put([{ ...corpus[9], path: "mem/seed.html", gist: qs[0].text, embedding: qs[0].vector }]);
      await same();
      expect(cache._resident._graphs.all).not.toBe(built[0]);
      expect(cache._resident._graphs.links).not.toBe(built[1]);
      // a memory sleep superseded, whose edges stay in the table, put back (live again): built again
      const rebuilt = graphs();
      const merged = corpus.find((m) => !cache._resident.meta.has(m.path) && cache._resident._hasEdges(m.path, false));
      expect(merged).toBeDefined();
      await cache.put([merged]);
      await same();
      expect(cache._resident._graphs.all).not.toBe(rebuilt[0]);
      // a new edge: built again
      const again = graphs();
      await cache.link([{ src: "zzz.html", dst: corpus[1].path, strength: 0.5 }]);
      await same();
      expect(graphs().every((g, i) => g !== again[i])).toBe(true);
    } finally { await cache.close(); }
  });
});

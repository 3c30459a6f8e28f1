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
import { openMemoryCache, betterSqlite3Adapter, sqliteWasmAdapter } from "../../js/cache/index.js";
import { loadSqliteWasm } from "../../js/cache/adapters.js";
import { wasmBytes } from "./build.js";
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

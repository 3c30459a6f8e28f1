// memdomain/cache in Node on the selected wasm build: sqlite-wasm in memory and a file
// on every driver this Node has (better-sqlite3, node:sqlite: cache-backends.js), closed
// and reopened. Each arm against a computation
// by hand, the whole search against the public functions composed by hand (bit for
// bit), the transaction rollback (a failure injected inside the batch and one
// halfway through the pass), idempotent sleep, merges, and hostile input.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as md from "../../js/index.js";
import { openMemoryCache, ftsQuery, queryTerms, salienceOrder } from "../../js/cache/index.js";
import { fileDrivers, reader } from "./cache-backends.js";
import { byCodePoint } from "../../js/cache/lexical.js";
import { neighbours, repairNeighbours } from "../../js/cache/sleep.js";
import { rng } from "../oracles/rng.js";
import { wasmBytes } from "./build.js";
import { makeCorpus, makeQueries, T0 } from "./cache-corpus.js";
import { byHand, byPath, codePoints, sameHits as same, snapshot } from "./cache-oracle.js";

md.initSync(wasmBytes());

const D = 24, N = 400;
const corpus = makeCorpus(N, D, 11);
const queries = makeQueries(corpus, 12, 12);
const NOW = T0 + 400 * 86_400_000;
const dir = mkdtempSync(`${tmpdir()}/memdomain-cache-`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const drivers = fileDrivers.filter((d) => !d.error);
const fileOf = (name, d) => `${dir}/${name}-${d.name.replace(/\W/g, "-")}.sqlite`;

test("the file drivers this Node runs the suites on load (MEMDOMAIN_FILE_DRIVERS, else those that load)", () => {
  expect(fileDrivers.map((d) => [d.name, d.error ?? "loads"])).toEqual(fileDrivers.map((d) => [d.name, "loads"]));
  expect(drivers.length).toBeGreaterThan(0);
});

test("a file path opens with node:sqlite where the runtime has it, else better-sqlite3", async () => {
  const cache = await openMemoryCache({ path: `${dir}/default-driver.sqlite` });
  try {
    expect(cache.backend).toBe(process.getBuiltinModule?.("node:sqlite") ? "node:sqlite" : "better-sqlite3");
  } finally { await cache.close(); }
});

describe.each(drivers)("$name file: arms and composition by hand, reopen", (driver) => {
  const file = fileOf("cache", driver);
  let cache;
  beforeAll(async () => {
    cache = await openMemoryCache({ path: file, driver: driver.name });
    expect(cache.backend).toBe(driver.name);
    expect(await cache.put(corpus)).toEqual({ inserted: N, replaced: 0 });
    await cache.link([{ src: corpus[0].path, dst: corpus[1].path, strength: 0.7 }, { src: corpus[2].path, dst: corpus[0].path, strength: 1, type: "supports" }]);
  });
  afterAll(() => cache?.close());

  test("every arm and the fused, MMR'd hits equal the public functions composed by hand (before and after sleep)", async () => {
    const variants = [{}, { weights: { lexical: 0 } }, { weights: { vector: 2, salience: 0 }, k: 10, depth: 20, lambda: 0.9 },
      { limit: 25, lambda: 0, seeds: 2 }, { weights: { lateral: 1 }, window: 12, lambda: 0.6, duplicate: 0.5 }];
    // each variant in the memhtml composition, and in the default one with each fusion (k is rrf's)
    const compositions = (v) => [{ ...v, fusion: "rrf" }, ...(v.k === undefined ? [v] : []),
      { preset: "memhtml", ...Object.fromEntries(Object.entries(v).filter(([k]) => !["window", "duplicate"].includes(k))) }];
    for (const phase of ["before sleep", "after sleep"]) {
      if (phase === "after sleep") await cache.sleep({ now: NOW, floor: 0.5 });
      let lateralSeen = 0;
      for (const [qi, base] of queries.slice(0, 6).entries()) for (const v of compositions(variants[qi % variants.length])) {
        const q = { ...base, ...v };
        const want = await byHand(cache, file, q);
        const arms = await cache.searchArms(q);
        for (const a of ["lexical", "vector", "salience", "lateral"]) expect([a, arms[a]]).toEqual([a, want.lists[a]]);
        same(expect, await cache.search(q), want.hits);
        lateralSeen += want.lists.lateral.length;
      }
      if (phase === "after sleep") expect(lateralSeen).toBeGreaterThan(0); // the sleep's edges feed the lateral arm
    }
  });

  test("the lexical arm holds only memories carrying a query word; the vector arm is the exact top-depth", async () => {
    const q = { text: queries[0].text, vector: queries[0].vector, depth: 30 };
    const arms = await cache.searchArms(q);
    expect(arms.lexical.length).toBeGreaterThan(0);
    const words = q.text.toLowerCase().split(/\s+/);
    const got = await cache.get(arms.lexical);
    for (const m of got) expect(words.some((w) => `${m.gist} ${m.body}`.toLowerCase().split(/[^a-z0-9]+/).includes(w))).toBe(true);
    expect(arms.vector.length).toBe(30);
  });

  test("closed and reopened: the same memories and the same search results", async () => {
    const before = await Promise.all(queries.slice(0, 4).map((q) => cache.search(q)));
    const snap = await snapshot(cache);
    await cache.close();
    await expect(cache.search(queries[0])).rejects.toThrow(/search: this is closed/);
    cache = await openMemoryCache({ path: file, driver: driver.name });
    expect(cache.backend).toBe(driver.name);
    expect(await snapshot(cache)).toBe(snap);
    expect(await Promise.all(queries.slice(0, 4).map((q) => cache.search(q)))).toEqual(before);
  });
});

describe("sqlite-wasm in memory", () => {
  let cache;
  beforeAll(async () => {
    cache = await openMemoryCache();
    expect(cache.backend).toBe("sqlite-wasm");
    await cache.put(corpus, { onProgress: () => {} });
  });
  afterAll(() => cache?.close());

  test("the same results as every file driver on the same data, and export/import (bytes and JSON Lines) keeps them", async () => {
    for (const driver of drivers) {
      const other = await openMemoryCache({ path: fileOf("compare", driver), driver: driver.name });
      try {
        expect(other.backend).toBe(driver.name);
        await other.put(corpus);
        for (const q of queries.slice(0, 4)) expect([driver.name, await cache.search(q)]).toEqual([driver.name, await other.search(q)]);
        // its own file's bytes open in memory (sqlite-wasm) with the same answers
        const copy = await openMemoryCache({ bytes: await other.exportBytes() });
        try {
          expect(await copy.exportJsonl()).toBe(await other.exportJsonl());
          expect(await copy.search(queries[0])).toEqual(await other.search(queries[0]));
        } finally { await copy.close(); }
      } finally { await other.close(); }
    }
    const bytes = await cache.exportBytes();
    const fromBuffer = await openMemoryCache({ bytes: Buffer.from(bytes) }); // a Node Buffer (readFileSync's) opens too
    try {
      expect(await fromBuffer.search(queries[0])).toEqual(await cache.search(queries[0]));
    } finally { await fromBuffer.close(); }
    const copy = await openMemoryCache({ bytes });
    const fromJsonl = await openMemoryCache();
    try {
      await fromJsonl.importJsonl(await cache.exportJsonl());
      for (const c of [copy, fromJsonl]) {
        expect(await c.exportJsonl()).toBe(await cache.exportJsonl());
        for (const q of queries.slice(0, 3)) expect(await c.search(q)).toEqual(await cache.search(q));
      }
    } finally { await copy.close(); await fromJsonl.close(); }
  });

  test("sleep: report, idempotent with the same now, decay by whole cycles from the watermark", async () => {
    const first = await cache.sleep({ now: NOW, floor: 0.5 });
    expect(first.memories).toBe(N);
    expect(first.bands.keep + first.bands.compress + first.bands.evict).toBe(N - first.merges.merged.length);
    expect(first.evict.length).toBe(first.bands.evict);
    expect(first.merges.ran).toBe(true);
    expect(first.merges.stages.committed).toBe(first.merges.merged.length);
    expect(first.merges.merged.length).toBeGreaterThan(0);
    expect(first.merges.stages.vetoed).toBeGreaterThan(0); // the corpus's negated / re-numbered variants
    expect(first.communities.count).toBeGreaterThan(0);
    expect(first.edges.similar + first.edges.nearDuplicate).toBeGreaterThan(0);
    expect(first.written.statements).toBeGreaterThan(0);
    for (const k of ["read", "neighbors", "merge", "graph", "decay", "retention", "write", "total"]) expect(first.timings[k]).toBeGreaterThanOrEqual(0);
    // the stored typed edges are exactly topNeighborPairsPacked over the survivors of the merges
    const survivors = (await cache.all()).filter((x) => x.supersededBy === null && x.embedding);
    const matrix = new Float32Array(survivors.length * D);
    survivors.forEach((x, i) => matrix.set(x.embedding, i * D));
    const wantEdges = md.topNeighborPairsPacked(matrix, survivors.map((x) => x.path), { floor: 0.5, perSourceK: 5, limit: 1e9 })
      .map((p) => `${p.src} ${p.dst} ${p.sim > 0.92 ? "near-duplicate" : "similar"} ${Math.min(1, p.sim)}`).sort();
    const got = (await cache.edges()).filter((e) => e.origin === "sleep").map((e) => `${e.src} ${e.dst} ${e.type} ${e.strength}`).sort();
    expect(got).toEqual(wantEdges);
    const snap = await snapshot(cache);
    const second = await cache.sleep({ now: NOW, floor: 0.5 });
    expect(second.written).toEqual({ memories: 0, edges: 0, statements: 0 });
    expect(second.merges.ran).toBe(false);
    expect(second.bands).toEqual(first.bands);
    expect(await snapshot(cache)).toBe(snap);
    // merges: the dropped path is superseded by its (older) keeper, out of every arm; the keeper stays
    const { keepPath, dropPath } = first.merges.merged[0];
    const [keep, drop] = await cache.get([keepPath, dropPath]);
    expect(drop.supersededBy).toBe(keepPath);
    expect(keep.supersededBy).toBeNull();
    expect(keep.createdAt <= drop.createdAt).toBe(true);
    const arms = await cache.searchArms({ text: drop.gist, vector: drop.embedding, depth: 400 });
    for (const a of ["lexical", "vector", "salience", "lateral"]) expect(arms[a]).not.toContain(dropPath);
    expect(arms.vector).toContain(keepPath);
    // decay: half a cycle later nothing moves; three cycles later confidence follows decayConfidenceNFp from the watermark
    expect((await cache.sleep({ now: NOW + 43_200_000, floor: 0.5 })).confidence.decayed).toBe(0);
    const m = (await cache.get([keepPath]))[0];
    const later = NOW + 3 * 86_400_000;
    await cache.sleep({ now: later, floor: 0.5 });
    const m2 = (await cache.get([keepPath]))[0];
    const cycles = Math.floor((later - m.decayedAt) / 86_400_000);
    const want = md.fromFp(md.decayConfidenceNFp(md.toFp(0.1), md.toFp(m.confidence), md.toFp(0.2), cycles));
    if (md.isCommittableConfidenceChange(m.confidence, want)) {
      expect(m2.confidence).toBe(want);
      expect(m2.decayedAt).toBe(m.decayedAt + cycles * 86_400_000);
    } else expect(m2.confidence).toBe(m.confidence);
    // retention bands: each stored band is bandFor(score) of scoreRetention over the stored inputs
    const all = (await cache.all()).filter((x) => x.supersededBy === null);
    for (const x of all.slice(0, 50)) expect(x.band).toBe(md.bandFor(x.retentionScore));
  });

  test("reinforce: the access cooldown (partitionByCooldown) and the outcome EWMA", async () => {
    const p = corpus[5].path;
    const [before] = await cache.get([p]);
    const t = NOW + 10 * 86_400_000;
    expect(await cache.reinforce([p], { now: t, signal: "positive" })).toEqual({ bumped: [p], cooledDown: [] });
    expect(await cache.reinforce([p], { now: t + 899_000, signal: "positive" })).toEqual({ bumped: [], cooledDown: [p] });
    expect(await cache.reinforce([p], { now: t + 900_000 })).toEqual({ bumped: [p], cooledDown: [] });
    const [after] = await cache.get([p]);
    expect(after.accessCount).toBe(before.accessCount + 2);
    expect(after.accessedAt).toBe(t + 900_000);
    expect(after.outcomeScore).toBe(md.fromFp(md.applyOutcomesFp(md.toFp(0.3), md.toFp(before.outcomeScore ?? 0), [md.SCALE])));
  });
});

test("the file drivers read as better-sqlite3 does: an INTEGER beyond 2^53 as the nearest double, BLOBs as bytes", async () => {
  const sql = "SELECT 9007199254740993 AS a, -9223372036854775808 AS b, 9223372036854775807 AS c, 1.5 AS d, x'00ff' AS e, typeof(?) AS f, ? AS g";
  for (const d of drivers) {
    const db = d.adapter(":memory:");
    try {
      const [row] = await db.all(sql, [2 ** 63, undefined]);
      expect([d.name, { ...row, e: Array.from(row.e) }]).toEqual([d.name, { a: 2 ** 53, b: -(2 ** 63), c: 2 ** 63, d: 1.5, e: [0, 255], f: "real", g: null }]);
      expect(await db.numbers("SELECT 9007199254740993, 2.5")).toEqual([Float64Array.of(2 ** 53), Float64Array.of(2.5)]);
    } finally { await db.close(); }
  }
});

test("every backend binds integral numbers from 2^63 on as the doubles they are (sqlite-wasm once wrapped them through int64)", async () => {
  // put() takes counts up to 2^53 - 1 and times up to 8.64e15 ms, but an adapter runs any SQL it is given
  const params = [2 ** 63, -(2 ** 64), 1e300, 2 ** 53 - 1];
  const want = { a: 2 ** 63, b: -(2 ** 64), c: 1e300, d: 2 ** 53 - 1, t: "real" };
  const cache = await openMemoryCache();
  try {
    expect(cache.backend).toBe("sqlite-wasm");
    expect((await cache._db.all("SELECT ? AS a, ? AS b, ? AS c, ? AS d, typeof(?) AS t", [...params, 2 ** 63]))[0]).toEqual(want);
  } finally { await cache.close(); }
  for (const d of drivers) {
    const db = d.adapter(":memory:");
    try {
      expect([d.name, (await db.all("SELECT ? AS a, ? AS b, ? AS c, ? AS d, typeof(?) AS t", [...params, 2 ** 63]))[0]]).toEqual([d.name, want]);
    } finally { await db.close(); }
  }
});

describe("rollback: nothing is written when the pass or the batch fails", () => {
  test.each(["memory", ...drivers.map((d) => d.name)])("%s: a failure inside the write batch and one halfway through sleep leave the database as it was", async (kind) => {
    const driver = drivers.find((d) => d.name === kind);
    const cache = await openMemoryCache(driver ? { path: fileOf("rollback", driver), driver: kind } : {});
    expect(cache.backend).toBe(driver ? kind : "sqlite-wasm");
    try {
      await cache.put(corpus.slice(0, 150));
      await cache.sleep({ now: NOW - 30 * 86_400_000, floor: 0.5 });
      const snap = await snapshot(cache);
      const q = queries[1];
      const results = await cache.search(q);
      // 1. an exception halfway through the pass (after the graph phase), before the write
      await expect(cache.sleep({ now: NOW, floor: 0.5, onProgress: (p) => { if (p.phase === "retention") throw new Error("injected halfway"); } }))
        .rejects.toThrow("injected halfway");
      expect(await snapshot(cache)).toBe(snap);
      // 2. a failure inside the atomic batch: a trigger aborts the 10th memory UPDATE (its counter rolls back too)
      await cache._db.batch([{ sql: "CREATE TABLE fail_count (n)" }, { sql: `CREATE TRIGGER fail_sleep BEFORE UPDATE ON memories
        BEGIN INSERT INTO fail_count VALUES (1); SELECT RAISE(ABORT, 'injected in the batch') WHERE (SELECT count(*) FROM fail_count) >= 10; END` },
      { sql: `CREATE TRIGGER fail_put BEFORE INSERT ON memories WHEN NEW.path = 'mem/new-2.html'
        BEGIN SELECT RAISE(ABORT, 'injected in the batch'); END` }]);
      const mid = await cache.sleep({ now: NOW, floor: 0.5, onProgress: () => {} }).catch((e) => e);
      expect(String(mid)).toMatch(/injected in the batch/);
      const fresh = (i) => ({ ...corpus[i], path: `mem/new-${i}.html` });
      // the message, not toThrow: better-sqlite3's native addon keeps the SqliteError class of the first Jest realm
      // that loaded it, so in a worker that ran another suite first its errors are not this realm's Errors
      expect(String(await cache.put([fresh(1), fresh(2), fresh(3)]).then(() => "resolved", (e) => e?.message))).toMatch(/injected in the batch/);
      await cache._db.batch([{ sql: "DROP TRIGGER fail_sleep" }, { sql: "DROP TRIGGER fail_put" }, { sql: "DROP TABLE fail_count" }]);
      expect(await snapshot(cache)).toBe(snap);
      expect(await cache.search(q)).toEqual(results);
      // and the pass then runs
      expect((await cache.sleep({ now: NOW, floor: 0.5 })).written.statements).toBeGreaterThan(0);
    } finally { await cache.close(); }
  });
});

describe("hostile input: clear errors naming the field, nothing written, nothing lost", () => {
  let cache, snap;
  const good = corpus.slice(0, 40);
  beforeAll(async () => {
    cache = await openMemoryCache({ dim: D });
    await cache.put(good);
    snap = await snapshot(cache);
  });
  afterAll(() => cache?.close());
  const m = (over) => ({ ...corpus[50], ...over });

  test.each([
    ["wrong dimension", [m({ embedding: new Float32Array(D + 1) })], RangeError, /put: memories\[0\]\.embedding has 25 elements, not the cache's dimension 24/],
    ["NaN in a vector", [good[0], m({ embedding: Float32Array.from({ length: D }, (_, i) => (i === 3 ? NaN : 1)) })], RangeError, /memories\[1\]\.embedding\[3\] must be finite/],
    ["missing path", [m({ path: undefined })], TypeError, /memories\[0\]\.path must be a string, got undefined/],
    ["missing gist", [m({ gist: undefined })], TypeError, /memories\[0\]\.gist must be a string/],
    ["missing createdAt", [m({ createdAt: undefined })], TypeError, /memories\[0\]\.createdAt must be a Date or milliseconds/],
    ["NaN counter", [m({ accessCount: NaN })], RangeError, /memories\[0\]\.accessCount must be an integer in \[0, 9007199254740991\], got NaN/],
    ["confidence out of range", [m({ confidence: 1.5 })], RangeError, /memories\[0\]\.confidence must be in \[0, 1\]/],
    ["huge body", [m({ body: "x".repeat(1_000_001) })], RangeError, /memories\[0\]\.body has 1000001 characters, more than the limit 1000000/],
    ["huge gist", [m({ gist: "y ".repeat(5000) })], RangeError, /memories\[0\]\.gist has 10000 characters/],
    ["duplicate paths", [m({ path: "a" }), m({ path: "b" }), m({ path: "a" })], RangeError, /memories\[2\]\.path repeats memories\[0\]\.path/],
    ["lone surrogate path", [m({ path: "bad\uD800" })], RangeError, /memories\[0\]\.path holds a lone surrogate/],
    ["empty path", [m({ path: "" })], RangeError, /memories\[0\]\.path must not be empty/],
    ["not an object", [null], TypeError, /memories\[0\] must be an object, got null/],
    // the glue's one wording (js/src/validate.js): a number as itself, an object by its constructor
    ["number for a path", [m({ path: 5 })], TypeError, /^put: memories\[0\]\.path must be a string, got 5$/],
    ["array for a memory", [[1]], TypeError, /^put: memories\[0\] must be an object, got an array$/],
    ["Map for a vector", [m({ embedding: new Map() })], TypeError, /^put: memories\[0\]\.embedding must be a Float32Array \(or an array of numbers\), got a Map$/],
    ["Int32Array for a vector", [m({ embedding: new Int32Array(D) })], TypeError, /, got an Int32Array$/],
    ["vector of strings", [m({ embedding: Array(D).fill("1") })], TypeError, /memories\[0\]\.embedding\[0\] must be a number/],
  ])("put: %s", async (_, memories, Err, message) => {
    const err = await cache.put(memories).catch((e) => e);
    expect(err).toBeInstanceOf(Err);
    expect(err.message).toMatch(message);
    expect(await snapshot(cache)).toBe(snap);
  });

  test("put with onConflict: error refuses an existing path; link to an unknown path; reinforce an unknown path", async () => {
    await expect(cache.put([m({ path: "fresh" }), good[3]], { onConflict: "error" })).rejects.toThrow(/put: memories\[1\]\.path already exists/);
    await expect(cache.link([{ src: good[0].path, dst: "nowhere", strength: 0.5 }])).rejects.toThrow(/link: links\[0\]\.dst names no stored memory/);
    await expect(cache.link([{ src: good[0].path, dst: good[1].path, strength: 2 }])).rejects.toThrow(RangeError);
    await expect(cache.reinforce([good[0].path, "nowhere"], { now: NOW })).rejects.toThrow(/reinforce: paths\[1\] names no stored memory/);
    expect(await snapshot(cache)).toBe(snap);
  });

  test.each([
    ["unknown weight", { text: "x", weights: { lexcial: 1 } }, RangeError, /search: query\.weights\.lexcial is not an arm/],
    ["NaN weight", { text: "x", weights: { vector: NaN } }, RangeError, /query\.weights\.vector must be a finite number, got NaN/],
    ["negative weight", { text: "x", weights: { lateral: -1 } }, RangeError, /query\.weights\.lateral must be in/],
    ["wrong query dimension", { vector: new Float32Array(3) }, RangeError, /search: query\.vector has 3 elements, not the cache's dimension 24/],
    ["NaN in the query vector", { vector: new Float32Array(D).fill(NaN) }, RangeError, /query\.vector\[0\] must be finite/],
    ["unknown option", { text: "x", topK: 3 }, RangeError, /search: query\.topK is not a known option/],
    ["NaN limit", { text: "x", limit: NaN }, RangeError, /query\.limit must be a finite number/],
    ["huge text", { text: "q".repeat(5000) }, RangeError, /query\.text has 5000 characters, more than the limit 4096/],
    ["text not a string", { text: 42 }, TypeError, /query\.text must be a string/],
  ])("search: %s", async (_, q, Err, message) => {
    const err = await cache.search(q).catch((e) => e);
    expect(err).toBeInstanceOf(Err);
    expect(err.message).toMatch(message);
  });

  test("hostile query text is only words to FTS5: quotes, operators, column filters, NEAR, stars, empty", async () => {
    const word = good[0].gist.split(" ").find((w) => w.length > 3);
    const plain = await cache.searchArms({ text: word });
    expect(plain.lexical.length).toBeGreaterThan(0);
    for (const text of [`"${word}`, `${word}"`, `${word} AND`, `OR ${word}`, `NOT ${word}`, `${word}*`, `gist:${word}`, `NEAR(${word}`,
      `(${word}))`, `^${word}`, `{gist body}: ${word}`, `'${word}'`, `${word} -- ;DROP TABLE memories`, `\u0000${word}`]) {
      const arms = await cache.searchArms({ text, weights: { salience: 0, lateral: 0 } });
      const extra = ftsQuery(text).split(" OR ").length;
      if (extra === 1) expect([text, arms.lexical]).toEqual([text, plain.lexical]);
      else expect(arms.lexical.length).toBeGreaterThan(0);
    }
    for (const text of ["   ", "\"\"", "*", "()", "AND", ":-^"]) {
      if (ftsQuery(text) === "") expect((await cache.searchArms({ text })).lexical).toEqual([]);
    }
    // no text at all (and no vector): no arm can run, and the call says so
    await expect(cache.searchArms({ text: "" })).rejects.toThrow(/searchArms: query has neither text nor vector/);
    expect(ftsQuery("AND OR NOT")).toBe("\"and\" OR \"or\" OR \"not\"");
    expect(await snapshot(cache)).toBe(snap);
  });

  test("the salience order is access count, then max(outcome, 0), then reinforcement (descending)", () => {
    expect(salienceOrder([3, null, 0], [2, 1, 9])).toBeLessThan(0);
    expect(salienceOrder([2, -0.5, 0], [2, 0, 0])).toBe(0); // a negative outcome counts as 0
    expect(salienceOrder([2, 0.1, 0], [2, 0.2, 0])).toBeGreaterThan(0);
    expect(salienceOrder([2, 0.2, 1], [2, 0.2, 3])).toBeGreaterThan(0);
  });

  test("options.driver: one of the two names, for a file path, and one this runtime loads", async () => {
    const path = `${dir}/driver.sqlite`;
    await expect(openMemoryCache({ path, driver: "sqlite" })).rejects.toThrow(/openMemoryCache: options\.driver must be "node:sqlite" or "better-sqlite3", got "sqlite"/);
    await expect(openMemoryCache({ path, driver: 3 })).rejects.toThrow(TypeError);
    await expect(openMemoryCache({ driver: "node:sqlite" })).rejects.toThrow(/options\.driver chooses how a file path opens/);
    const lacking = ["node:sqlite", "better-sqlite3"].filter((n) => !drivers.some((d) => d.name === n));
    for (const name of lacking) {
      const err = await openMemoryCache({ path, driver: name }).catch((e) => e);
      expect([name, err instanceof TypeError, err.message]).toEqual([name, true, expect.stringContaining(`options.driver "${name}"`)]);
    }
  });

  test("a sqlite-wasm older than 3.50 (the registry's latest tag is 3.41.2) is refused with the install line", async () => {
    const old = { version: { libVersion: "3.41.2", libVersionNumber: 3041002 } };
    for (const sqlite3 of [old, () => old, {}]) {
      const err = await openMemoryCache({ sqlite3 }).catch((e) => e);
      expect([err instanceof TypeError, err.message]).toEqual([true,
        expect.stringMatching(/^openMemoryCache: @sqlite\.org\/sqlite-wasm (3\.41\.2|\(no version\)) is older than 3\.50 \(npm install @sqlite\.org\/sqlite-wasm@3\.54\.1-build1\)$/)]);
    }
  });

  test("options: unknown names, a closed cache, bytes that are not a database", async () => {
    await expect(openMemoryCache({ pth: ":memory:" })).rejects.toThrow(/openMemoryCache: options\.pth is not a known option/);
    await expect(openMemoryCache({ bytes: new Uint8Array(100).fill(7) })).rejects.toThrow(RangeError);
    await expect(cache.sleep({ now: "yesterday" })).rejects.toThrow(/sleep: options\.now must be a Date/);
    await expect(cache.sleep({ now: NOW, merge: { treshold: 0.9 } })).rejects.toThrow(/options\.merge\.treshold is not a known option/);
    expect(await snapshot(cache)).toBe(snap);
  });
});

describe("the lexical arm's kept per-term scores", () => {
  test("SQLite's text order for ties: code points, not UTF-16 units", () => {
    const utf8 = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    const r = (() => { let x = 7; return () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32); })();
    const chars = ["a", "z", "\u00e9", "\u0800", "\ud7ff", "\ue000", "\uffee", "\ud83d\ude00", "\ud800\udc00", "\udbff\udfff"];
    const word = () => Array.from({ length: 1 + Math.floor(r() * 4) }, () => chars[Math.floor(r() * chars.length)]).join("");
    let differs = 0;
    const wrong = [];
    for (let i = 0; i < 3000; i++) {
      const a = word(), b = word();
      if (Math.sign(byCodePoint(a, b)) !== Math.sign(utf8(a, b))) wrong.push([a, b]);
      if (Math.sign(byPath(a, b)) !== Math.sign(utf8(a, b))) differs++;
    }
    expect(wrong).toEqual([]);
    expect(differs).toBeGreaterThan(0); // JavaScript's own order would have failed
  });

  test("equal to FTS5's bm25 order after puts, replacements, deletes and sleep, also when the kept scores are evicted", async () => {
    const file = `${dir}/lexical.sqlite`;
    const cache = await openMemoryCache({ path: file });
    const lexicalOf = async (q) => (await cache.searchArms({ ...q, weights: { vector: 0, salience: 0, lateral: 0 } })).lexical;
    const check = async (label) => {
      for (const [i, base] of queries.entries()) {
        const q = { text: base.text, depth: i % 3 === 0 ? 150 : 50 };
        const want = (await byHand(cache, file, { ...q, weights: { vector: 0, salience: 0, lateral: 0 } })).lists.lexical;
        expect([label, q.text, await lexicalOf(q)]).toEqual([label, q.text, want]);
      }
    };
    try {
      await cache.put(corpus.slice(0, 200));
      await check("first put");
      await cache.put(corpus.slice(200, 300)); // new rows: every term's idf and the average length move
      await check("second put");
      await cache.put(corpus.slice(0, 20).map((m, i) => ({ ...m, gist: queries[i % queries.length].text, body: "replaced" })));
      await check("replaced");
      await cache.delete(corpus.slice(20, 60).map((m) => m.path));
      await check("deleted");
      await cache.sleep({ now: NOW, floor: 0.5 });
      await check("after sleep");
      const evicting = await cache.sleep({ now: NOW + 3000 * 86_400_000, floor: 0.5, evict: true, policy: { minAgeDays: 0 } });
      expect(evicting.evicted).toBeGreaterThan(0);
      await check("after sleep with evict");
      for (const q of queries.slice(0, 4)) { // every arm, and the search, over what is left
        const want = await byHand(cache, file, q);
        const arms = await cache.searchArms(q);
        for (const a of ["lexical", "vector", "salience", "lateral"]) expect([a, arms[a]]).toEqual([a, want.lists[a]]);
        same(expect, await cache.search(q), want.hits);
        for (const p of evicting.archived) expect(want.lists.vector).not.toContain(p);
      }
      cache._lexical.maxRows = 5; // every list is evicted as soon as the next one is read
      await check("evicted");
      // ties on the score break on the path in code point order (as SQLite's ORDER BY path)
      const twin = (path) => ({ ...corpus[0], path, gist: "zyzzyva zyzzyva", body: "quux" });
      await cache.put([twin("tie/\ud83d\ude00"), twin("tie/\uffee"), twin("tie/\ue000"), twin("tie/a")]);
      expect(await lexicalOf({ text: "zyzzyva" })).toEqual(["tie/a", "tie/\ue000", "tie/\uffee", "tie/\ud83d\ude00"]);
    } finally { await cache.close(); }
  });

  test("an adapter without numbers() (all() only) answers the same", async () => {
    const full = reader.adapter(":memory:");
    const { numbers, ...plain } = full;
    expect(typeof numbers).toBe("function");
    const a = await openMemoryCache({ db: { ...plain, kind: "plain" } }), b = await openMemoryCache({ db: reader.adapter(":memory:") });
    try {
      await a.put(corpus.slice(0, 150));
      await b.put(corpus.slice(0, 150));
      for (const q of queries) expect(await a.search(q)).toEqual(await b.search(q));
    } finally { await a.close(); await b.close(); }
  });

  test("rowids far above the number of memories (a database written elsewhere) take the sparse sum, with the same order", async () => {
    const file = `${dir}/lexical-sparse.sqlite`;
    let cache = await openMemoryCache({ path: file });
    await cache.put(corpus.slice(0, 120));
    await cache.close();
    const db = reader.open(file);
    db.exec(`UPDATE memories SET id = id * 1000003 + 40000000; DELETE FROM memories_fts;
      INSERT INTO memories_fts (rowid, gist, body) SELECT id, gist, body FROM memories;`);
    db.close();
    cache = await openMemoryCache({ path: file });
    try {
      expect(Math.min(...cache._lexical.pathOf.keys())).toBeGreaterThan(2 ** 24);
      for (const base of queries) {
        const q = { text: base.text, weights: { vector: 0, salience: 0, lateral: 0 } };
        expect([q.text, (await cache.searchArms(q)).lexical]).toEqual([q.text, (await byHand(cache, file, q)).lists.lexical]);
      }
    } finally { await cache.close(); }
  });
});

test("sleep's neighbour lists after merges equal topNeighborPairsPacked over the survivors (refilled from the wide lists, or rescanned)", () => {
  const r = rng(77), d = 8, n = 300, k = 3, floor = 0.2;
  const centre = Array.from({ length: 6 }, () => Float32Array.from({ length: d }, () => r() * 2 - 1));
  const mems = Array.from({ length: n }, (_, i) => ({
    path: `v/${String(i).padStart(4, "0")}`, vec: Float32Array.from(centre[i % 6], (x) => x + 0.3 * (r() - 0.5)),
  }));
  const packed = (ms) => {
    const m = new Float32Array(ms.length * d);
    ms.forEach((x, i) => m.set(x.vec, i * d));
    return md.topNeighborPairsPacked(m, ms.map((x) => x.path), { floor, perSourceK: k, limit: 1e9 });
  };
  const found = neighbours(mems, d, floor, k);
  expect(found.pairs).toEqual(packed(mems));
  const stats = { refilled: 0, rescanned: 0 };
  for (const share of [0.02, 0.1, 0.4]) {
    const dropped = new Set(mems.filter(() => r() < share).map((x) => x.path));
    const live = mems.filter((x) => !dropped.has(x.path));
    const s = {};
    expect(repairNeighbours(found, live, dropped, d, floor, k, s)).toEqual(packed(live));
    stats.refilled += s.refilled ?? 0;
    stats.rescanned += s.rescanned;
  }
  expect(stats.refilled).toBeGreaterThan(0);
  expect(stats.rescanned).toBeGreaterThan(0);
});

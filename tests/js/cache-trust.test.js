// memdomain/cache probed from outside, third round (issue 43), on sqlite-wasm and every file driver
// this Node loads (better-sqlite3 on Node 20, node:sqlite on 22 and 24: make test-node-versions runs
// this suite there too). Each finding as a test that failed before its fix:
//   text      U+0000 in any stored string is refused on every backend (node:sqlite on Node 22 read
//             `a\0b` back as `a`); every other class of code point goes through put, a reopen, search,
//             get, link, reinforce, explain and the JSON Lines round trip unchanged
//   heap      100,000 searches for distinct words found nowhere: the heap stays bounded
//   opening   the busy timeout is set before the open's own reads (5,000 ms by default on every driver);
//             a lock past it is a CacheBusyError naming openMemoryCache, a failed read is never "not a
//             memdomain cache"; bad paths are RangeErrors naming options.path; N processes opening,
//             writing and searching one file see no raw driver error and no refusal
//   fairness  a large write under a stream of small ones completes (bounded backoff, then the write lock)
//   the rest  one failed read does not turn the kept term lists off; error messages for any value;
//             importJsonl's supersededBy; delete and eviction take the memories merged into them; the
//             weights' sum; -0; a corrupted md_neighbors row
import { spawn, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import * as md from "../../js/index.js";
import { CacheBusyError, CacheChangedError, DEFAULT_BUSY_TIMEOUT, RETRY_BASE_MS, WRITE_ATTEMPTS, openMemoryCache, sqliteWasmAdapter } from "../../js/cache/index.js";
import { loadSqliteWasm } from "../../js/cache/adapters.js";
import { WASM_PATH, wasmBytes } from "./build.js";
import { makeCorpus, makeQueries, T0 } from "./cache-corpus.js";
import { fileDrivers } from "./cache-backends.js";

md.initSync(wasmBytes());
const dir = mkdtempSync(`${tmpdir()}/memdomain-cache-trust-`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sqlite3 = await loadSqliteWasm();
const drivers = fileDrivers.filter((d) => !d.error);
const CHILD = fileURLToPath(new URL("./cache-procs-child.mjs", import.meta.url));
const HEAP_CHILD = fileURLToPath(new URL("./cache-heap-child.mjs", import.meta.url));

const D = 8, DAY = 86_400_000, NOW = T0 + 300 * DAY;
const corpus = makeCorpus(60, D, 43, { dupEvery: 6 });
let files = 0;
const file = () => `${dir}/t${files++}.sqlite`;
const rejects = (p) => p.then(() => null, (e) => e);
/** Every backend: sqlite-wasm in memory, and a file per driver (reopened where the test asks). */
const BACKENDS = [{ name: "sqlite-wasm", open: () => openMemoryCache() },
  ...drivers.map((d) => ({ name: d.name, file: true, open: (path = file()) => openMemoryCache({ path, driver: d.name }) }))];

test("the suite runs every file driver this Node must load", () => {
  expect(fileDrivers.filter((d) => d.error).map((d) => `${d.name}: ${d.error}`)).toEqual([]);
  expect(drivers.length).toBeGreaterThan(0);
});

// ------------------------------------------------------------------ text

describe("text on every backend", () => {
  // one of each class of code point: controls, Latin-1, combining marks, CJK, RTL, a BOM, U+FFFD, a
  // noncharacter, private use, astral (emoji, a ZWJ sequence, the last code point)
  const CLASSES = ["\u0001\u0009\u001f\u007f", "\u0080\u009f", "é ß ÿ", "e\u0301 a\u0308", "日本語 한국어", "שלום مرحبا",
    "\ufeffbom", "\ufffd", "\uffff \ufdd0", "\ue000\uf8ff", "😀 \u{1f469}\u200d\u{1f4bb}", "\u{10ffff}"];
  const mems = CLASSES.map((c, i) => ({ ...corpus[i], path: `text/${i}/${c}`, gist: `glyph${i} ${c} end`, body: `${c} body${i} ${c}`,
    type: `kind ${c}` }));
  const queries = CLASSES.map((_, i) => ({ text: `glyph${i} body${i}`, vector: corpus[i].embedding, limit: 5 }));

  /**
   * What a cache answers about the text memories: get, every search and explain (paths and ranks: bm25's
   * last bit may differ between backends, docs/CACHE.md), edges, the export.
   */
  const answers = async (cache) => {
    const out = [await cache.get(mems.map((m) => m.path)), await cache.edges()];
    for (const q of queries) {
      out.push((await cache.search(q)).map((h) => [h.path, ...Object.values(h.arms).map((a) => a?.rank ?? null)]));
      out.push((await cache.explain(q, mems.slice(0, 3).map((m) => m.path))).paths.map((p) => [p.path, p.rank, p.lostAt]));
    }
    out.push(await cache.exportJsonl());
    return JSON.stringify(out);
  };

  let reference;
  beforeAll(async () => {
    const c = await openMemoryCache();
    reference = await scenario(c);
    await c.close();
  });
  /** put, link, reinforce; then what the cache answers (the text memories come back exactly as put). */
  async function scenario(cache) {
    await cache.put(mems);
    await cache.link(mems.slice(1).map((m, i) => ({ src: mems[i].path, dst: m.path, strength: 0.5, type: `link ${CLASSES[i]}` })));
    await cache.reinforce(mems.slice(0, 6).map((m) => m.path), { now: NOW, signal: "positive" });
    const got = await cache.get(mems.map((m) => m.path));
    expect(got.map((m) => [m.path, m.gist, m.body, m.type])).toEqual(mems.map((m) => [m.path, m.gist, m.body, m.type]));
    for (const [i, q] of queries.entries()) expect((await cache.search(q))[0].path).toBe(mems[i].path);
    return answers(cache);
  }

  test.each(BACKENDS.map((b) => [b.name, b]))("%s: every class of code point, put, searched, exported and reopened, as sqlite-wasm answers", async (_, b) => {
    const path = b.file ? file() : undefined;
    const cache = await b.open(path);
    expect(await scenario(cache)).toBe(reference);
    const jsonl = await cache.exportJsonl();
    await cache.close();
    if (b.file) {
      const again = await b.open(path);
      expect(await answers(again)).toBe(reference);
      await again.close();
    }
    const copy = await b.open(); // the JSON Lines round trip: the same text, the same answers
    expect(await copy.importJsonl(jsonl)).toEqual({ inserted: mems.length, replaced: 0, edges: mems.length - 1 });
    expect(await copy.exportJsonl()).toBe(jsonl);
    await copy.close();
  });

  test.each(BACKENDS.map((b) => [b.name, b]))("%s: U+0000 in any stored string is a RangeError naming the field; nothing written", async (_, b) => {
    const cache = await b.open();
    await cache.put(mems.slice(0, 2));
    const before = await cache.exportJsonl();
    const nul = /holds a NUL character \(U\+0000\) at index \d+/;
    const m = { ...mems[3], path: "a\u0000b" };
    for (const [call, field] of [
      [() => cache.put([m]), "put: memories[0].path"],
      [() => cache.put([{ ...mems[3], gist: "x\u0000y" }]), "put: memories[0].gist"],
      [() => cache.put([{ ...mems[3], body: "\u0000" }]), "put: memories[0].body"],
      [() => cache.put([{ ...mems[3], type: "t\u0000" }]), "put: memories[0].type"],
      [() => cache.link([{ src: mems[0].path, dst: mems[1].path, strength: 1, type: "re\u0000lated" }]), "link: links[0].type"],
      [() => cache.link([{ src: `${mems[0].path}\u0000`, dst: mems[1].path, strength: 1 }]), "link: links[0].src"],
      [() => cache.get(["a\u0000b"]), "get: paths[0]"],
      [() => cache.delete(["a\u0000b"]), "delete: paths[0]"],
      [() => cache.reinforce(["a\u0000b"], { now: NOW }), "reinforce: paths[0]"],
      [() => cache.explain({ text: "glyph" }, ["a\u0000b"]), "explain: paths[0]"],
      [() => cache.importJsonl(`${JSON.stringify({ ...m, embedding: Array.from(m.embedding) })}\n`), "importJsonl: text line 1.path"],
      [() => cache.importJsonl(`${JSON.stringify({ ...mems[4], embedding: null, community: "c\u0000" })}\n`), "importJsonl: text line 1.community"],
      [() => cache.importJsonl(`${JSON.stringify({ edge: { src: mems[0].path, dst: mems[1].path, type: "x\u0000", strength: 1, origin: "link" } })}\n`),
        "importJsonl: text line 1 .edge.type"],
    ]) {
      const e = await rejects(call());
      expect([field, e?.constructor.name, e?.message.slice(0, field.length)]).toEqual([field, "RangeError", field]);
      expect(e.message).toMatch(nul);
    }
    expect(await cache.exportJsonl()).toBe(before);
    // query text is not stored: a NUL there separates words
    expect((await cache.search({ text: "glyph0\u0000glyph1" })).map((h) => h.path).sort()).toEqual(mems.slice(0, 2).map((m) => m.path).sort());
    await cache.close();
  });
});

// ------------------------------------------------------------------ heap

test("100,000 searches for distinct words found nowhere keep the heap bounded (the kept lists' cap counts them)", () => {
  const out = JSON.parse(execFileSync(process.execPath, ["--expose-gc", HEAP_CHILD, WASM_PATH, "100000"],
    { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" }, stdio: ["ignore", "pipe", "pipe"] }));
  // before: 1.2 KB a word, 60 MB more over the second 50,000 words and 116 MB in all
  expect(out.end - out.half).toBeLessThan(2);
  expect(out.end - out.start).toBeLessThan(32);
  expect(out.weight).toBeLessThanOrEqual(out.cap);
  expect(out.counted).toBeLessThanOrEqual(1 << 14);
}, 120_000);

// ------------------------------------------------------------------ opening

/** A child process of cache-procs-child.mjs; resolves { child, lines } once it printed `until`. */
function child(args, until) {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [CHILD, WASM_PATH, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, NODE_OPTIONS: "" } });
    let out = "", err = "", done = false;
    c.stdout.on("data", (d) => {
      out += d;
      if (!done && until && out.includes(until)) {
        done = true;
        resolve({ child: c, out: () => out });
      }
    });
    c.stderr.on("data", (d) => { err += d; });
    c.on("error", reject);
    c.on("exit", (code) => {
      if (!done) {
        done = true;
        if (code === 0) resolve({ child: c, out: () => out });
        else reject(new Error(`child ${args.join(" ")} exited ${code}: ${err.slice(-1500)}`));
      }
    });
  });
}
const exited = (c) => (c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once("exit", r)));

describe.each(drivers.map((d) => [d.name]))("opening a file with %s", (driver) => {
  test("the busy timeout is 5,000 ms by default (node:sqlite's own is 0), and options.busyTimeout sets it", async () => {
    const path = file();
    const c = await openMemoryCache({ path, driver });
    expect(await c._db.busyTimeout()).toBe(DEFAULT_BUSY_TIMEOUT);
    expect(DEFAULT_BUSY_TIMEOUT).toBe(5000);
    await c.close();
    const d = await openMemoryCache({ path, driver, busyTimeout: 1234 });
    expect(await d._db.busyTimeout()).toBe(1234);
    await d.close();
  });

  test("an open beside a held lock waits it out; past busyTimeout it is a CacheBusyError naming openMemoryCache", async () => {
    const path = file();
    const c = await openMemoryCache({ path, driver });
    await c.put(corpus.slice(0, 5));
    await c.close();
    let hold = await child([path, driver, "hold", "400"], "locked");
    const waited = await openMemoryCache({ path, driver }); // its first read waits for the lock (it failed at once before)
    expect(await waited.count()).toBe(5);
    await waited.close();
    await exited(hold.child);
    hold = await child([path, driver, "hold", "3000"], "locked");
    const e = await rejects(openMemoryCache({ path, driver, busyTimeout: 100 }));
    expect(e).toBeInstanceOf(CacheBusyError);
    expect(e.message).toMatch(/^openMemoryCache: the database is locked by another connection \(SQLITE_BUSY\) for longer than busyTimeout \(100 ms\)/);
    await exited(hold.child);
  }, 30_000);

  test("a read that fails while opening is never taken for a foreign database", async () => {
    const path = file();
    const c = await openMemoryCache({ path, driver });
    await c.put(corpus.slice(0, 3));
    await c.close();
    const inner = drivers.find((d) => d.name === driver).adapter(path);
    const locked = { ...inner, async all(sql, params) {
      if (/FROM md_meta$/.test(sql.trim())) throw Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
      return inner.all(sql, params);
    } };
    const e = await rejects(openMemoryCache({ db: locked }));
    expect(e).toBeInstanceOf(CacheBusyError);
    expect(e.message).toMatch(/^openMemoryCache: the database is locked/); // the failed open closed the connection
  });

  test("bad paths are RangeErrors naming options.path: a directory, a missing directory, a file: URI, not SQLite, too long", async () => {
    mkdirSync(`${dir}/a-dir`, { recursive: true });
    writeFileSync(`${dir}/text.txt`, "not a database, only some text that is long enough to be read as a header ".repeat(4));
    for (const [path, why] of [[`${dir}/a-dir`, /is a directory, not a database file/],
      [`${dir}/missing/x.db`, /is in a directory that does not exist/],
      [`file:${dir}/uri.db`, /is a file: URI; pass a file path/],
      [`${dir}/text.txt`, /is not a usable SQLite database \(file is not a database\)/],
      [`${dir}/${"x".repeat(10_000)}`, /is too long for the file system \(\d+ characters\)/]]) {
      const e = await rejects(openMemoryCache({ path, driver }));
      expect([path.slice(0, 60), e?.constructor.name]).toEqual([path.slice(0, 60), "RangeError"]);
      expect(e.message).toMatch(/^openMemoryCache: options\.path "/);
      expect(e.message).toMatch(why);
    }
  });

  test("4 processes opening, writing and searching one file: no raw driver error, no refusal", async () => {
    const path = file();
    const runs = await Promise.all([0, 1, 2, 3].map((w) => child([path, driver, "storm", "12", String(w)])));
    const results = runs.map((r) => JSON.parse(r.out().trim().split("\n").pop()));
    const errors = Object.assign({}, ...results.map((r) => r.errors));
    // before: 92,345 raw "database is locked" against one open in 12 s; once a real cache refused as foreign
    expect(errors).toEqual({});
    expect(results.map((r) => [r.opens, r.puts, r.searches])).toEqual(results.map(() => [12, 36, 36]));
    const c = await openMemoryCache({ path, driver });
    expect(await c.count()).toBe(4 * 36);
    await c.close();
  }, 120_000);

  test("a large put completes while another process streams small puts", async () => {
    const path = file();
    const cache = await openMemoryCache({ path, driver });
    await cache.put(corpus.slice(0, 3));
    const stream = await child([path, driver, "stream"], "ready");
    const big = Array.from({ length: 2000 }, (_, i) => ({ ...corpus[i % 60], path: `big/${i}`, gist: `large ${i}` }));
    try {
      for (let k = 0; k < 2; k++) expect(await cache.put(big.map((m) => ({ ...m, accessCount: k })))).toEqual({ inserted: k ? 0 : 2000, replaced: k ? 2000 : 0 });
    } finally {
      stream.child.stdin.end();
      await exited(stream.child);
    }
    const s = JSON.parse(stream.out().trim().split("\n").pop());
    expect(s.puts).toBeGreaterThan(0);
    expect(Object.keys(s.errors).filter((k) => !/^CacheBusyError/.test(k))).toEqual([]); // a small put may wait past its timeout, never more
    expect(await cache.count()).toBe(3 + 2000 + s.puts);
    await cache.close();
  }, 120_000);
});

// ------------------------------------------------------------------ fairness, deterministic

test("a write that keeps losing the race backs off, then holds the write lock and completes", async () => {
  const driver = drivers[0];
  const path = file();
  const other = await openMemoryCache({ path, driver: driver.name });
  await other.put(corpus.slice(0, 3));
  // A: a connection of its own (its adapter has exclusive()); before each of its batches outside the lock, B commits
  const own = driver.wrap(driver.open(path), { own: true }); // as openMemoryCache makes it for a path: with exclusive()
  let locked = false, interrupted = 0;
  const a = await openMemoryCache({ db: { ...own,
    exclusive: async (body) => { locked = true; try { return await own.exclusive(body); } finally { locked = false; } },
    async batch(st) {
      if (!locked && st.some((s) => /INSERT INTO memories/.test(s.sql))) {
        interrupted++;
        await other.put([{ ...corpus[4], path: `small/${interrupted}` }]);
      }
      return own.batch(st);
    } } });
  const waits = [];
  a._retry = { random: () => 0, wait: async (ms) => { waits.push(ms); } };
  expect(await a.put(corpus.slice(10, 40))).toEqual({ inserted: 30, replaced: 0 });
  expect(interrupted).toBe(WRITE_ATTEMPTS - 1); // every attempt but the last lost the race
  expect(waits).toEqual([RETRY_BASE_MS / 2, RETRY_BASE_MS, 2 * RETRY_BASE_MS]); // exponential, jitter factor 0.5 here
  expect(await other.count()).toBe(3 + 3 + 30);
  expect((await a.search({ text: corpus[12].gist, limit: 60 })).map((h) => h.path)).toContain(corpus[12].path);
  // without exclusive() (D1, an adapter of the user's): the same backoff, then a CacheChangedError
  const b = await openMemoryCache({ db: { ...driver.adapter(path), exclusive: undefined } });
  b._db.batch = (() => { const run = b._db.batch; return async (st) => { await other.put([{ ...corpus[5], path: `small/x${interrupted++}` }]); return run(st); }; })();
  b._retry = { random: () => 0.5, wait: async (ms) => { waits.push(ms); } };
  const e = await rejects(b.put([corpus[50]]));
  expect(e).toBeInstanceOf(CacheChangedError);
  expect(e.message).toMatch(/^put: another writer committed to the database while this call ran, 4 times in a row/);
  expect(waits.slice(3)).toEqual([0.75 * RETRY_BASE_MS, 1.5 * RETRY_BASE_MS, 3 * RETRY_BASE_MS]);
  for (const c of [a, b, other]) await c.close();
});

// ------------------------------------------------------------------ the kept term lists after a failed read

describe("one failed read leaves the kept term lists on", () => {
  /** A cache over a sqlite-wasm handle whose next read matching `plan.fail` throws once; `plan.reads` counts term list reads. */
  const setup = async () => {
    const h = new sqlite3.oo1.DB(":memory:", "c");
    const plan = { fail: null, fired: 0, reads: 0 };
    const inner = sqliteWasmAdapter(h, sqlite3);
    const hook = (name) => async (sql, params) => {
      if (plan.fail && plan.fail.test(sql)) {
        plan.fail = null;
        plan.fired++;
        throw new Error("injected: a read failed once");
      }
      if (/bm25\(memories_fts/.test(sql)) plan.reads++;
      return inner[name](sql, params);
    };
    const cache = await openMemoryCache({ db: { ...inner, all: hook("all"), numbers: hook("numbers"), close: async () => {} } });
    await cache.put(corpus.slice(0, 40));
    const fresh = async (q) => {
      const c = await openMemoryCache({ db: { ...sqliteWasmAdapter(h, sqlite3), close: async () => {} } });
      try { return JSON.stringify(await c.search(q)); } finally { await c.close(); }
    };
    return { h, plan, cache, fresh };
  };
  const q = (i) => ({ text: corpus[i].gist, vector: corpus[i].embedding, limit: 8 });

  test.each([["the docsize read", /memories_fts_docsize/], ["the idf read", /SELECT ln\(/], ["tokenizing a write", /INSERT INTO temp\./]])(
    "%s fails once: the lists are kept across later writes again (before: read afresh after every write, for good)", async (_, fail) => {
      const { h, plan, cache, fresh } = await setup();
      try {
        if (fail.source.startsWith("INSERT")) { // the lists exist, a write comes, its tokenizing fails once
          await cache.search(q(0));
          await cache.put([corpus[40]]);
        }
        plan.fail = fail;
        const first = await rejects(cache.search(q(1))).then((e) => e ?? "resolved");
        expect(plan.fired).toBe(1);
        if (first !== "resolved") expect(first.message).toMatch(/injected/);
        expect(JSON.stringify(await cache.search(q(1)))).toBe(await fresh(q(1)));
        expect(cache._lexical.exact).toBe(true);
        // writes, each followed by the same query: once its lists are read again (a list read while the read failed
        // was not learned), they follow every later write in place: nothing is read again
        await cache.put([corpus[41]]);
        expect(JSON.stringify(await cache.search(q(1)))).toBe(await fresh(q(1)));
        const reads = plan.reads;
        for (const m of corpus.slice(42, 45)) {
          await cache.put([m]);
          expect(JSON.stringify(await cache.search(q(1)))).toBe(await fresh(q(1)));
        }
        expect(plan.reads).toBe(reads);
      } finally { await cache.close(); h.close(); }
    });
});

// ------------------------------------------------------------------ error messages

test("an error message is built for any value: a null-prototype object, a deep array, a revoked Proxy, a Symbol", async () => {
  const cache = await openMemoryCache();
  await cache.put(corpus.slice(0, 3));
  const deep = [];
  for (let i = 0, a = deep; i < 100_000; i++) a = a[0] = []; // String(deep) overflows the stack
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const p = corpus[0].path;
  for (const v of [Object.create(null), deep, revoked.proxy, Symbol("s"), 10n]) {
    for (const [call, prefix] of [
      [() => cache.put([corpus[3]], { onConflict: v }), "put: options.onConflict must be"],
      [() => cache.importJsonl("", { onConflict: v }), "importJsonl: options.onConflict must be"],
      [() => cache.reinforce([p], { now: NOW, signal: v }), "reinforce: options.signal must be"],
      [() => cache.search({ text: "x", preset: v }), "search: query.preset must be"],
      [() => cache.search({ text: "x", fusion: v }), "search: query.fusion must be"],
      [() => cache.tune(corpus.slice(0, 3).map((m) => ({ text: m.gist, relevant: [m.path] })), { baseline: { preset: v } }),
        "tune: options.baseline.preset must be"],
      [() => openMemoryCache({ onExternalChange: v }), "openMemoryCache: options.onExternalChange must be"],
    ]) {
      const e = await rejects(call());
      expect([prefix, e?.constructor.name, e?.message.slice(0, prefix.length)]).toEqual([prefix, "RangeError", prefix]);
    }
  }
  await cache.close();
});

// ------------------------------------------------------------------ supersession

describe("supersededBy always names a stored memory", () => {
  test("importJsonl refuses one naming no memory, or the memory itself, naming the line; nothing written", async () => {
    const cache = await openMemoryCache();
    await cache.put(corpus.slice(0, 2));
    const line = (m, over) => JSON.stringify({ ...m, embedding: Array.from(m.embedding), ...over });
    const before = await cache.exportJsonl();
    for (const [text, re] of [
      [`${line(corpus[2], {})}\n${line(corpus[3], { supersededBy: "nowhere" })}\n`, /^importJsonl: text line 2\.supersededBy names no stored or imported memory \("nowhere"\)/],
      [`${line(corpus[3], { supersededBy: corpus[3].path })}\n`, /^importJsonl: text line 1\.supersededBy names the memory itself/],
    ]) {
      const e = await rejects(cache.importJsonl(text));
      expect(e).toBeInstanceOf(RangeError);
      expect(e.message).toMatch(re);
    }
    expect(await cache.exportJsonl()).toBe(before);
    // a stored memory, or one imported further down, is a keeper
    expect(await cache.importJsonl(`${line(corpus[3], { supersededBy: corpus[4].path })}\n${line(corpus[4], {})}\n` +
      `${line(corpus[5], { supersededBy: corpus[0].path })}\n`)).toEqual({ inserted: 3, replaced: 0, edges: 0 });
    expect((await cache.search({ text: corpus[3].gist, limit: 60 })).map((h) => h.path)).not.toContain(corpus[3].path);
    await cache.close();
  });

  test.each(BACKENDS.map((b) => [b.name, b]))("%s: delete and eviction take the memories merged into them; export and import agree", async (_, b) => {
    const cache = await b.open();
    await cache.put(corpus);
    await cache.sleep({ now: NOW, floor: 0.3 });
    const merged = (await cache.all()).filter((m) => m.supersededBy !== null);
    expect(merged.length).toBeGreaterThan(1);
    const keeper = merged[0].supersededBy;
    const into = merged.filter((m) => m.supersededBy === keeper).map((m) => m.path);
    const n = await cache.count();
    expect(await cache.delete([keeper])).toEqual({ deleted: 1 + into.length });
    expect(await cache.count()).toBe(n - 1 - into.length);
    expect(await cache.get(into)).toEqual([]);
    // eviction, far later: evicted keepers go with what was merged into them
    const keepers = new Set((await cache.all()).filter((m) => m.supersededBy !== null).map((m) => m.supersededBy));
    const report = await cache.sleep({ now: NOW + 900 * DAY, floor: 0.3, evict: true });
    expect(report.evict.filter((p) => keepers.has(p)).length).toBeGreaterThan(0); // some keeper was evicted
    const all = await cache.all(), stored = new Set(all.map((m) => m.path));
    expect(all.filter((m) => m.supersededBy !== null && !stored.has(m.supersededBy)).map((m) => m.path)).toEqual([]);
    const text = await cache.exportJsonl();
    const copy = await openMemoryCache();
    await copy.importJsonl(text);
    expect(await copy.exportJsonl()).toBe(text);
    await copy.close();
    await cache.close();
  });
});

// ------------------------------------------------------------------ numbers

test("weights whose sum passes the largest double are a RangeError (the score was Infinity); a finite sum scores finitely", async () => {
  const cache = await openMemoryCache();
  await cache.put(corpus.slice(0, 20));
  await cache.link([{ src: corpus[0].path, dst: corpus[1].path, strength: 1 }]);
  const q = { text: corpus[0].gist, vector: corpus[0].embedding };
  for (const fusion of ["score", "rrf"]) {
    const e = await rejects(cache.search({ ...q, fusion, weights: { lexical: 1e308, vector: 1e308, salience: 1e308, lateral: 1e308 } }));
    expect(e).toBeInstanceOf(RangeError);
    expect(e.message).toMatch(/^search: query\.weights sum to more than the largest double/);
    const hits = await cache.search({ ...q, fusion, weights: { lexical: 4e307, vector: 4e307, salience: 4e307, lateral: 4e307 } });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => Number.isFinite(h.score))).toBe(true);
  }
  await cache.close();
});

test.each(BACKENDS.map((b) => [b.name, b]))("%s: -0 is stored, kept in memory and read back as 0", async (_, b) => {
  const cache = await b.open();
  const m = { ...corpus[0], path: "neg-zero", outcomeScore: -0, confidence: -0, createdAt: -0, accessedAt: -0 };
  await cache.put([m]);
  await cache.link([{ src: "neg-zero", dst: "neg-zero", strength: -0 }]);
  const [got] = await cache.get(["neg-zero"]);
  for (const k of ["outcomeScore", "confidence", "createdAt", "accessedAt"]) expect([k, Object.is(got[k], 0)]).toEqual([k, true]);
  expect(Object.is((await cache.edges())[0].strength, 0)).toBe(true);
  expect(Object.is(cache._resident.meta.get("neg-zero")[1], 0)).toBe(true); // the memory holds what a fresh cache reads
  await cache.close();
});

test("a corrupted md_neighbors row: the next pass computes every pair (reason \"unreadable\"), not a raw SyntaxError", async () => {
  const h = new sqlite3.oo1.DB(":memory:", "c");
  const view = () => ({ ...sqliteWasmAdapter(h, sqlite3), close: async () => {} });
  const cache = await openMemoryCache({ db: view() });
  await cache.put(corpus.slice(0, 40));
  await cache.sleep({ now: NOW, floor: 0.3 });
  await cache.put([corpus[40]]);
  const copy = await openMemoryCache({ bytes: await cache.exportBytes() });
  for (const corrupt of ["UPDATE md_neighbors SET dsts = '[not json' WHERE src = (SELECT min(src) FROM md_neighbors)",
    "UPDATE md_neighbors SET dsts = '{\"a\": 1}' WHERE src = (SELECT min(src) FROM md_neighbors)"]) {
    h.exec(corrupt);
    // a cache that reads the lists (the one whose pass wrote them keeps them in memory, and this connection's own
    // write moves no data_version): one opened after the corruption
    const reader = await openMemoryCache({ db: view() });
    const r = await reader.sleep({ now: NOW + DAY, floor: 0.3 });
    await reader.close();
    expect(r.neighbors).toMatchObject({ incremental: false, reason: "unreadable" });
    const want = await copy.sleep({ now: NOW + DAY, floor: 0.3, incremental: false });
    for (const k of ["edges", "bands", "merges", "communities"]) expect([k, r[k]]).toEqual([k, want[k]]);
  }
  await copy.close();
  await cache.close();
  h.close();
});

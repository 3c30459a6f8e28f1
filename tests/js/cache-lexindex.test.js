// memdomain/cache: the lexical arm answered from the resident lexical index (issue 44). A cache
// told to index from the first memory (options.lexicalIndexMin: 0) answers every lexical search as a fresh
// cache over a copy of its database that reads FTS5's lists (paths and bm25 scores, bit for bit),
// after each random put, rewrite, delete, merge or evict by a sleep, and write by another cache on
// the same database, on sqlite-wasm and every file driver the running Node loads; the index really
// answered (built, postings scored) and kept itself in step (never built twice without a reload).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as md from "../../js/index.js";
import { CacheChangedError, openMemoryCache, residentEstimate } from "../../js/cache/index.js";
import { LEXICAL_INDEX_BYTES_PER_MEMORY, LEXICAL_INDEX_BYTES_PER_TEXT_BYTE } from "../../js/cache/budget.js";
import { fileDrivers } from "./cache-backends.js";
import { rng } from "../oracles/rng.js";
import { DAY, LEXICAL, T0, WORDS, copyOf, lexicalOf, randomWriter } from "./cache-lexical-fixtures.js";
import { wasmBytes } from "./build.js";

md.initSync(wasmBytes());

const drivers = fileDrivers.filter((d) => !d.error);

/** Random writes on `cache` (and `other`), each followed by searches checked against a fresh cache's lists. */
async function run(seed, cache, { other = null, fresh, steps = 40 }) {
  const r = rng(seed);
  const { text, vec, paths, put, newPath } = randomWriter(r, 4);
  let answered = 0, scored = 0;
  for (let i = 0; i < 30; i++) await put(cache, newPath());
  let now = T0 + 40 * DAY;
  for (let s = 0; s < steps; s++) {
    const c = other && r() < 0.3 ? other : cache;
    const x = r();
    if (x < 0.3) await put(c, newPath());
    else if (x < 0.45) await put(c, paths[Math.floor(r() * paths.length)]);
    else if (x < 0.55 && paths.length > 8) await c.delete([paths.splice(Math.floor(r() * paths.length), 1)[0]]);
    else if (x < 0.62) {
      const [like] = await c.get([paths[Math.floor(r() * paths.length)]]);
      if (like) await put(c, newPath(), like);
    } else if (x < 0.7) {
      now += DAY;
      await c.sleep({ now, floor: 0.2, evict: r() < 0.3 });
    } else if (x < 0.75) await put(c, newPath(), { gist: "", body: "", embedding: vec() });
    const q = [text(1), text(2), `${text(1)} ${WORDS[0]}`, `${text(3)} ${text(1)}`][Math.floor(r() * 4)];
    const want = await fresh(cache);
    try {
      for (const preset of [null, "memhtml"]) {
        cache._lexical.lastScored = 0;
        const got = await lexicalOf(cache, q, preset);
        expect([s, q, preset, got]).toEqual([s, q, preset, await lexicalOf(want, q, preset)]);
        if (cache._lexical.indexed) answered++;
        scored += cache._lexical.lastScored;
      }
      expect(want._lexical.indexed).toBe(false); // the other side read FTS5's lists
    } finally {
      await want.close();
    }
  }
  return { answered, scored };
}

const indexed = async (options) => openMemoryCache({ dim: 4, lexicalIndexMin: 0, ...options });

test.each([1, 2, 3])("sqlite-wasm: the index answers as FTS5's lists after each random write, seed %i", async (seed) => {
  const cache = await indexed();
  try {
    const { answered, scored } = await run(seed, cache, { fresh: copyOf });
    expect(answered).toBeGreaterThan(60);
    expect(scored).toBeGreaterThan(0);
    expect(cache._lexical._terms.size).toBe(0); // no list was read: the index answered everything
  } finally {
    await cache.close();
  }
});

test("sqlite-wasm: another cache on the same database writes in between", async () => {
  const cache = await indexed();
  const other = await openMemoryCache({ db: cache._db, dim: 4 });
  try {
    const { answered } = await run(5, cache, { other, fresh: copyOf });
    expect(answered).toBeGreaterThan(40);
  } finally {
    await other.close();
    await cache.close();
  }
});

test.each(drivers.map((d) => [d.name, d]))("%s: the index answers as FTS5's lists after each random write", async (_, driver) => {
  const dir = mkdtempSync(`${tmpdir()}/md-lexindex-`);
  const cache = await indexed({ db: driver.adapter(`${dir}/c.db`) });
  try {
    let k = 0;
    // a fresh cache over a copy of the file through the same driver (the same SQLite: its log())
    const fresh = async (c) => {
      const file = `${dir}/copy${k++}.db`;
      writeFileSync(file, await c.exportBytes());
      return openMemoryCache({ db: driver.adapter(file), dim: 4 });
    };
    const { answered } = await run(7, cache, { fresh, steps: 25 });
    // the index is checked against FTS5's own bm25 when built: where the driver's SQLite computes
    // bm25 otherwise (fused multiply-adds off x64), it is not used and the lists answer
    if (process.arch === "x64") expect(answered).toBeGreaterThan(30);
  } finally {
    await cache.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a filter's allow set, and a query word of several FTS5 tokens, go to the lists; the index stays", async () => {
  const cache = await indexed();
  try {
    await cache.put(Array.from({ length: 12 }, (_, i) => ({ path: `p/${i}`, gist: `g${i}`, body: `alpha beta ${i % 2 ? "gamma" : ""} x-y`,
      type: i % 2 ? "episodic" : "semantic", embedding: [1, i, 0, 0], createdAt: T0 })));
    const want = await copyOf(cache);
    try {
      expect(await lexicalOf(cache, "alpha gamma")).toEqual(await lexicalOf(want, "alpha gamma"));
      expect(cache._lexical.indexed).toBe(true);
      const filtered = { text: "alpha gamma", limit: 5, filter: { type: "episodic" }, ...LEXICAL };
      expect((await cache.search(filtered)).map((h) => [h.path, h.score])).toEqual((await want.search(filtered)).map((h) => [h.path, h.score]));
      expect(await lexicalOf(cache, "x-y")).toEqual(await lexicalOf(want, "x-y"));
      expect(cache._lexical.indexed).toBe(true);
    } finally {
      await want.close();
    }
  } finally {
    await cache.close();
  }
});

test("options.lexicalIndexMin: checked, null never builds the index, lexicalStats() says what answered", async () => {
  await expect(openMemoryCache({ lexicalIndexMin: -1 })).rejects.toThrow(/options\.lexicalIndexMin/);
  await expect(openMemoryCache({ lexicalIndexMin: 1.5 })).rejects.toThrow(/options\.lexicalIndexMin/);
  await expect(openMemoryCache({ lexicalIndexMin: "0" })).rejects.toThrow(TypeError);
  const mems = Array.from({ length: 12 }, (_, i) => ({ path: `p/${i}`, gist: `g${i}`, body: `alpha beta ${i % 3 ? "gamma" : ""}`,
    type: "semantic", embedding: [1, i, 0, 0], createdAt: T0 }));
  const [on, off, dflt, min] = await Promise.all([0, null, undefined, 13].map((m) => openMemoryCache({ dim: 4, lexicalIndexMin: m })));
  try {
    for (const c of [on, off, dflt, min]) await c.put(mems);
    const want = await lexicalOf(off, "alpha gamma");
    for (const c of [on, dflt, min]) expect(await lexicalOf(c, "alpha gamma")).toEqual(want);
    await lexicalOf(on, "beta");
    const s = on.lexicalStats();
    expect(s).toEqual({ min: 0, indexed: true, bytes: s.bytes, unavailable: false, answered: 2, fellBack: 0 }); // 2 searches
    expect(s.bytes).toBeGreaterThan(0);
    expect(off.lexicalStats()).toEqual({ min: null, indexed: false, bytes: 0, unavailable: false, answered: 0, fellBack: 0 });
    expect(dflt.lexicalStats()).toMatchObject({ min: 20000, indexed: false, answered: 0 });
    expect(min.lexicalStats()).toMatchObject({ min: 13, indexed: false, answered: 0 });
    await min.put([{ ...mems[0], path: "p/12" }]); // the 13th live memory: the index from the next search
    await lexicalOf(min, "alpha");
    expect(min.lexicalStats()).toMatchObject({ indexed: true, answered: 1 });
  } finally {
    for (const c of [on, off, dflt, min]) await c.close();
  }
});

test("the memory budget counts the index's bytes from options.lexicalIndexMin", async () => {
  const counts = { live: 1000, vectors: 1000, dim: 4, text: 50_000 };
  const without = residentEstimate(counts);
  expect(residentEstimate({ ...counts, lexicalIndexMin: null })).toBe(without);
  expect(residentEstimate({ ...counts, lexicalIndexMin: 1001 })).toBe(without);
  expect(residentEstimate({ ...counts, lexicalIndexMin: 1000 }) - without)
    .toBe(1000 * LEXICAL_INDEX_BYTES_PER_MEMORY + 50_000 * LEXICAL_INDEX_BYTES_PER_TEXT_BYTE);
  // the estimate sits above what the index reports, here on words and on bodies of numbers
  const text = (i) => ({ gist: `w${i % 97} alpha`, body: Array.from({ length: 40 }, (_, j) => (i * 7 + j * 13) % 3000).join(" ") });
  const mems = Array.from({ length: 600 }, (_, i) => ({ path: `n/${i}`, ...text(i), type: "semantic", embedding: [1, i, 0, 0], createdAt: T0 }));
  const cache = await openMemoryCache({ dim: 4, lexicalIndexMin: 0 });
  try {
    await cache.put(mems);
    await lexicalOf(cache, "alpha 17");
    const held = await cache.residentBytes(), { bytes } = cache.lexicalStats();
    expect(held.lexicalIndexMin).toBe(0);
    expect(bytes).toBeGreaterThan(0);
    expect(held.estimate - residentEstimate({ ...held, lexicalIndexMin: null })).toBeGreaterThan(bytes);
    // a budget between the two estimates: refused with the index counted, taken without
    const max = residentEstimate({ ...held, lexicalIndexMin: null }) + 1;
    await expect(openMemoryCache({ bytes: await cache.exportBytes(), lexicalIndexMin: 0, maxResidentBytes: max }))
      .rejects.toThrow(/lexical index from options\.lexicalIndexMin.*over options\.maxResidentBytes/);
    await (await openMemoryCache({ bytes: await cache.exportBytes(), lexicalIndexMin: null, maxResidentBytes: max })).close();
  } finally {
    await cache.close();
  }
});

// The state follows the database: a second connection's writes reach the index at the next search
// (as the kept lists: md_log's generations, resync) or make it refuse (onExternalChange "error").
test.each(drivers.map((d) => [d.name, d]))("%s: two openers on one file, the index on; the other connection writes", async (_, driver) => {
  const dir = mkdtempSync(`${tmpdir()}/md-lexindex2-`);
  const file = `${dir}/c.db`;
  const a = await indexed({ db: driver.adapter(file) });
  const b = await openMemoryCache({ db: driver.adapter(file), dim: 4 });
  let strict = null, k = 0;
  const fresh = async (c) => {
    const copy = `${dir}/copy${k++}.db`;
    writeFileSync(copy, await c.exportBytes());
    return openMemoryCache({ db: driver.adapter(copy), dim: 4, lexicalIndexMin: null });
  };
  try {
    const mem = (i, words) => ({ path: `f/${i}`, gist: `g${i}`, body: words, type: "semantic", embedding: [1, i, 0, 0], createdAt: T0 });
    await a.put(Array.from({ length: 20 }, (_, i) => mem(i, `alpha ${i % 2 ? "beta" : "gamma"} ${"delta ".repeat(i % 4)}`)));
    strict = await indexed({ db: driver.adapter(file), onExternalChange: "error" });
    expect((await lexicalOf(strict, "alpha delta")).length).toBeGreaterThan(0);
    const before = await lexicalOf(a, "beta delta");
    const built = a.lexicalStats();
    // the other connection: a rewrite, new rows, a delete, an archive
    await b.put([mem(1, "gamma gamma zeta"), mem(30, "beta delta delta delta"), mem(31, "zeta")]);
    await b.delete(["f/3"]);
    await b.archive(["f/5"]);
    for (const q of ["beta delta", "zeta", "gamma alpha"]) {
      const want = await fresh(b);
      try {
        expect([q, await lexicalOf(a, q)]).toEqual([q, await lexicalOf(want, q)]);
      } finally {
        await want.close();
      }
    }
    expect(await lexicalOf(a, "beta delta")).not.toEqual(before);
    const s = a.lexicalStats();
    // 4 searches since, each answered by the index (kept in step, or built again)
    if (process.arch === "x64") expect([s.indexed, s.answered - built.answered, s.fellBack]).toEqual([true, 4, 0]);
    // onExternalChange "error": the cache refuses rather than answer from an index the database left behind
    await expect(strict.search({ text: "zeta", limit: 5, ...LEXICAL })).rejects.toThrow(CacheChangedError);
  } finally {
    for (const c of [strict, b, a]) await c?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

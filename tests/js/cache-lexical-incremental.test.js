// memdomain/cache: the lexical arm's kept per-term lists follow writes in place (issue 27 item 2).
// After a put, a rewrite, a delete, a sleep that merges or evicts, or another cache's write, the
// next search recomputes the kept scores from each row's weighted hits and size and the new
// totals instead of reading the terms from FTS5 again. Random sequences on every backend: after
// every step the lexical arm's ranking and scores equal a fresh cache's over a copy of the
// database (whose lists are read from FTS5), bit for bit; on sqlite-wasm the lists must really be
// kept (where a backend's bm25 does not reproduce, they are dropped and read again: still equal).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as md from "../../js/index.js";
import { openMemoryCache } from "../../js/cache/index.js";
import { fileDrivers } from "./cache-backends.js";
import { rng } from "../oracles/rng.js";
import { DAY, T0, WORDS, copyOf, lexicalOf, randomWriter } from "./cache-lexical-fixtures.js";
import { wasmBytes } from "./build.js";

md.initSync(wasmBytes());

const drivers = fileDrivers.filter((d) => !d.error);

/** `cache`'s lexical arm for `text` answers as a fresh copy's. */
async function expectAsFresh(cache, text) {
  const want = await copyOf(cache);
  try {
    expect(await lexicalOf(cache, text)).toEqual(await lexicalOf(want, text));
  } finally {
    await want.close();
  }
}

/** `steps` random writes on `cache` (and `other`, a second cache on the same database), each followed by searches checked against a fresh cache. */
async function run(seed, cache, { other = null, fresh, steps = 40 }) {
  const r = rng(seed);
  const dim = 4;
  const { text, vec, paths, put, newPath } = randomWriter(r, dim);
  let kept = 0, warmed = 0;
  for (let i = 0; i < 30; i++) await put(cache, newPath());
  let now = T0 + 40 * DAY;
  for (let s = 0; s < steps; s++) {
    const c = other && r() < 0.3 ? other : cache;
    const x = r();
    if (x < 0.3) await put(c, newPath());
    else if (x < 0.45) await put(c, paths[Math.floor(r() * paths.length)]); // a rewrite: the same rowid, new text
    else if (x < 0.55 && paths.length > 8) {
      const p = paths.splice(Math.floor(r() * paths.length), 1)[0];
      await c.delete([p]);
    } else if (x < 0.62) { // near-duplicates the next pass merges (drops a memory from the index)
      const [like] = await c.get([paths[Math.floor(r() * paths.length)]]);
      if (like) await put(c, newPath(), like);
    } else if (x < 0.7) {
      now += DAY;
      await c.sleep({ now, floor: 0.2, evict: r() < 0.3 });
    } else if (x < 0.75) await put(c, newPath(), { gist: "", body: "", embedding: vec() }); // no tokens at all
    const q = [text(1), text(2), `${text(1)} ${WORDS[0]}`][Math.floor(r() * 3)];
    const want = await fresh(cache);
    try {
      for (const preset of [null, "memhtml"]) { // the gist weighted 3 (the default), and bm25 unweighted
        expect([q, preset, await lexicalOf(cache, q, preset)]).toEqual([q, preset, await lexicalOf(want, q, preset)]);
      }
    } finally {
      await want.close();
    }
    if (cache._lexical._terms.size > 0 && cache._lexical.exact === true) kept++;
    // the kept rows are counted as they are (the cap and the read-ahead budget rely on the counts)
    const lex = cache._lexical;
    let rows = 0, pinned = 0;
    for (const l of lex._terms.values()) {
      rows += l.ids.length;
      if (l.pinned) pinned += l.ids.length;
    }
    expect([s, rows, pinned]).toEqual([s, lex._rows, lex._pinned]);
    if (pinned > 0) warmed++;
  }
  return { kept, warmed, exact: cache._lexical.exact };
}

test.each([1, 2, 3, 4])("sqlite-wasm: after each random write the kept lists answer as FTS5 read afresh, seed %i", async (seed) => {
  const cache = await openMemoryCache({ dim: 4 });
  try {
    const { kept, exact } = await run(seed, cache, { fresh: copyOf });
    expect(exact).toBe(true);
    expect(kept).toBeGreaterThan(20); // the lists were kept across writes, not read again
  } finally {
    await cache.close();
  }
});

test.each([8, 9])("sqlite-wasm: the heaviest words' lists read ahead (warm) follow writes too, seed %i", async (seed) => {
  const cache = await openMemoryCache({ dim: 4 });
  cache._lexical.warmMin = 1; // read ahead every word in 1/16 of the memories (by default: 2,048 rows and 1/64)
  cache._lexical.warmShare = 16;
  try {
    const { kept, warmed, exact } = await run(seed, cache, { fresh: copyOf });
    expect(exact).toBe(true);
    expect(kept).toBeGreaterThan(20);
    expect(warmed).toBeGreaterThan(20); // read ahead, and still kept after the writes
  } finally {
    await cache.close();
  }
});

test("the read-ahead takes the heaviest words first, within half the cap, and the LRU passes them by", async () => {
  const cache = await openMemoryCache({ dim: 2 });
  try {
    const mem = (i) => ({ path: `p${String(i).padStart(3, "0")}`, gist: `g${i}`, type: "episodic", embedding: [1, i % 3], createdAt: T0,
      // "common" in every row, "half" in every second, "third" in every third, "rare{i}" in one
      body: `common ${i % 2 ? "" : "half"} ${i % 3 ? "" : "third"} rare${i}` });
    await cache.put(Array.from({ length: 96 }, (_, i) => mem(i)));
    const lex = cache._lexical;
    lex.warmMin = 1;
    lex.warmShare = 16; // every word in at least 96/16 = 6 rows
    lex.maxRows = 2 * (96 + 48) + 1; // half the cap holds "common" and "half", not "third" as well
    await lexicalOf(cache, "rare5");
    const pinned = [...lex._terms.values()].filter((l) => l.pinned).map((l) => l.term);
    // "common" (96), "half" (48) fit in 144 of 144.5; "third" (32) does not; the gists and rare words are under 6
    expect(pinned.sort()).toEqual(["common", "half"]);
    expect(lex._pinned).toBe(96 + 48);
    lex.maxRows = 150; // now past the cap with any other list: the unpinned go, oldest first, the read-ahead stays
    await lexicalOf(cache, "third");
    expect([...lex._terms.keys()].sort()).toEqual(["common", "half", "third"]);
    for (let i = 0; i < 10; i++) await lexicalOf(cache, `rare${i}`);
    const keys = [...lex._terms.keys()];
    expect(keys).toEqual(expect.arrayContaining(["common", "half", "rare9"]));
    expect(keys).not.toContain("third");
    expect(lex._rows).toBeLessThanOrEqual(150);
    await expectAsFresh(cache, "common third");
  } finally {
    await cache.close();
  }
});

test("one kept list serves both gist weights: hits split from one read, across bodies longer than the split", async () => {
  const cache = await openMemoryCache({ dim: 2 });
  try {
    const r = rng(11);
    let n = 0;
    // a word many times in a body (up to `most`), 0-3 times in the gist: the read weights the gist past the longest body
    const mem = (most) => {
      const k = 1 + Math.floor(r() * most), g = Math.floor(r() * 4);
      return { path: `m${n++}`, gist: `${"alpha ".repeat(g)}g${n}`, body: `${"alpha ".repeat(k)}${r() < 0.5 ? "beta" : ""}`,
        type: "episodic", embedding: [1, r()], createdAt: T0 };
    };
    await cache.put(Array.from({ length: 40 }, () => mem(20)));
    const check = async (step) => {
      const want = await copyOf(cache);
      for (const preset of [null, "memhtml", null]) { // the same kept list, scored for 3, then 1, then 3 again
        for (const q of ["alpha", "alpha beta"]) expect([step, q, preset, await lexicalOf(cache, q, preset)]).toEqual([step, q, preset, await lexicalOf(want, q, preset)]);
      }
      await want.close();
    };
    await check("read");
    expect(cache._lexical._terms.get("alpha")?.g).toBeInstanceOf(Uint32Array); // one list, key: the term
    expect([...cache._lexical._terms.keys()].filter((k) => k.includes("alpha"))).toEqual(["alpha"]);
    const w0 = cache._lexical._readWeight();
    for (let i = 0; i < 4; i++) {
      await cache.put([mem(300)]); // bodies past the first read's weight: kept lists take them as counts
      await check(`put ${i}`);
    }
    expect(cache._lexical.exact).toBe(true);
    expect(cache._lexical._readWeight()).toBeGreaterThan(w0); // a list read now splits past the longer bodies
    cache._lexical._terms.delete("beta");
    await check("beta read again");
  } finally {
    await cache.close();
  }
});

test.each([5, 6])("sqlite-wasm: another cache on the same database writes in between, seed %i", async (seed) => {
  const cache = await openMemoryCache({ dim: 4 });
  const other = await openMemoryCache({ db: cache._db, dim: 4 });
  try {
    const { kept, exact } = await run(seed, cache, { other, fresh: copyOf });
    expect(exact).toBe(true);
    expect(kept).toBeGreaterThan(10);
  } finally {
    await other.close();
    await cache.close();
  }
});

test("two caches on one connection, their catch-ups interleaved: each tokenizes its own rows (its own TEMP table)", async () => {
  const a = await openMemoryCache({ dim: 2 });
  const b = await openMemoryCache({ db: a._db, dim: 2 });
  try {
    const mem = (path, body) => ({ path, gist: path, body, type: "episodic", embedding: [1, 0.5], createdAt: T0 });
    await a.put([mem("p1", "alpha beta"), mem("p2", "alpha gamma gamma"), mem("p3", "delta")]);
    await Promise.all([lexicalOf(a, "alpha gamma"), lexicalOf(b, "alpha gamma")]); // both keep lists
    for (let i = 0; i < 6; i++) {
      await a.put([mem(`a${i}`, `alpha ${"gamma ".repeat(i)}`)]);
      await b.put([mem(`b${i}`, `gamma beta ${"alpha ".repeat(i)}`)]);
      // both catch up at once, each from its own pending writes and the other's
      const [ra, rb] = await Promise.all([lexicalOf(a, "alpha gamma"), lexicalOf(b, "alpha gamma")]);
      const want = await copyOf(a);
      const w = await lexicalOf(want, "alpha gamma");
      await want.close();
      expect([i, ra]).toEqual([i, w]);
      expect([i, rb]).toEqual([i, w]);
    }
    expect([a._lexical.exact, b._lexical.exact]).toEqual([true, true]);
    expect(a._lexical._scratch.insert).not.toBe(b._lexical._scratch.insert);
  } finally {
    await b._lexical.close(b._db);
    await a.close();
  }
});

test.each(drivers.map((d) => d.name))("%s on a file: after each random write the lexical arm answers as FTS5 read afresh", async (name) => {
  const d = drivers.find((x) => x.name === name);
  const dir = mkdtempSync(`${tmpdir()}/md-lex-`);
  const cache = await openMemoryCache({ db: d.adapter(`${dir}/a.sqlite`), dim: 4 });
  try {
    let k = 0;
    // a fresh cache over a copy of the file through the same driver: its lists come from FTS5
    const fresh = async (c) => openMemoryCache({ db: d.adapter(await copyFile(c, `${dir}/copy${k++}.sqlite`)), dim: 4 });
    const { exact } = await run(7, cache, { fresh, steps: 25 });
    // kept (true) or dropped on each write (false): equal either way; on x64 (no fused multiply-add in
    // SQLite's build) the native bm25 reproduces, so the lists are kept there
    if (process.arch === "x64") expect(exact).toBe(true);
    else expect(typeof exact === "boolean").toBe(true);
  } finally {
    await cache.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function copyFile(cache, file) {
  const { writeFileSync } = await import("node:fs");
  writeFileSync(file, await cache.exportBytes());
  return file;
}

test("a bulk put (more rows than are worth tokenizing) drops the kept lists; small puts keep them", async () => {
  const cache = await openMemoryCache({ dim: 2 });
  try {
    const mem = (i, body) => ({ path: `p${i}`, gist: `g${i % 7}`, body, type: "episodic", embedding: [1, i % 3], createdAt: T0 });
    await cache.put(Array.from({ length: 50 }, (_, i) => mem(i, `alpha ${i % 2 ? "beta" : "gamma"}`)));
    await lexicalOf(cache, "alpha beta");
    await cache.put([mem(50, "alpha alpha")]);
    expect(cache._lexical._terms.size).toBeGreaterThan(0); // kept, brought up to date at the next search
    await cache.put(Array.from({ length: 300 }, (_, i) => mem(100 + i, "beta delta")));
    expect(cache._lexical._terms.size).toBe(0); // dropped: read again
    await expectAsFresh(cache, "alpha beta");
  } finally {
    await cache.close();
  }
});

test("a list whose rows FTS5 scores differently than the formula is not kept: writes drop it (read afresh)", async () => {
  const cache = await openMemoryCache({ dim: 2 });
  try {
    await cache.put([{ path: "a", gist: "alpha", body: "beta", type: "episodic", embedding: [1, 0], createdAt: T0 },
      { path: "b", gist: "gamma", body: "alpha alpha", type: "episodic", embedding: [0, 1], createdAt: T0 }]);
    await lexicalOf(cache, "alpha");
    expect(cache._lexical.exact).toBe(true);
    cache._lexical._tokens += 1; // as if FTS5's totals were not what the cache derived: the next list read does not reproduce
    cache._lexical._terms.clear();
    await lexicalOf(cache, "beta");
    expect(cache._lexical.exact).toBe(false);
    await cache.put([{ path: "c", gist: "alpha beta", body: "", type: "episodic", embedding: [1, 1], createdAt: T0 }]);
    expect(cache._lexical._terms.size).toBe(0); // dropped on the write
    await expectAsFresh(cache, "alpha beta");
  } finally {
    await cache.close();
  }
});

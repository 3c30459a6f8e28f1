// memdomain/cache: the incremental sleep pass (issue 27 item 3). Random sequences of puts (new
// memories, changed vectors, vectors equal to another's for ties), deletes, reinforce calls,
// link() and passes at advancing `now`; before every pass the database is copied and a full
// pass (incremental: false) runs on the copy: the reports (but the neighbours field and the
// timings) and the resulting memories' sleep-derived columns and edges must be equal, bit for bit.
import * as md from "../../js/index.js";
import { openMemoryCache } from "../../js/cache/index.js";
import { createNeighborPool } from "../../js/src/workers.js";
import { rng } from "../oracles/rng.js";
import { wasmBytes } from "./build.js";

md.initSync(wasmBytes());

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const COLS = "path, embedding, confidence, decayed_at, pagerank, community, bridge_count, retention_score, band, superseded_by";

async function dump(cache) {
  const bytes = await cache.exportBytes();
  const copy = await openMemoryCache({ bytes });
  try {
    const mems = (await copy.all()).map((m) => [m.path, m.embedding ? Array.from(new Uint32Array(m.embedding.buffer, m.embedding.byteOffset, m.embedding.length)) : null,
      m.confidence, m.decayedAt, m.pagerank, m.community, m.bridgeCount, m.retentionScore, m.band, m.supersededBy]);
    const edges = (await copy.edges()).map((e) => [e.src, e.dst, e.type, e.strength, e.origin]).sort((a, b) => (a.join("\u0000") < b.join("\u0000") ? -1 : 1));
    return { mems, edges };
  } finally {
    await copy.close();
  }
}

const strip = (r) => {
  const { timings, neighbors, ...rest } = r;
  return rest;
};

/** A random sequence on `cache` with passes at advancing now, each checked against a full pass on a copy. */
async function run(seed, { dim = 6, steps = 60, other = null, floor = 0.5, perSourceK = 3, pool = null, alternate = false } = {}) {
  const r = rng(seed);
  const cache = await openMemoryCache({ dim });
  // the passes' reads of the stored lists (a cache keeps the lists its own last pass wrote, and reads them otherwise)
  let reads = 0;
  const db = cache._db, all = db.all.bind(db);
  db.all = (sql, params) => {
    if (/FROM md_neighbors/.test(sql)) reads++;
    return all(sql, params);
  };
  // a second cache over the same database (its adapter: each cache keeps its own generation and memory)
  const writer = other ? await openMemoryCache({ db: cache._db, dim }) : null;
  const centroids = Array.from({ length: 3 }, () => Array.from({ length: dim }, () => r() * 2 - 1));
  const vec = () => {
    const c = centroids[Math.floor(r() * centroids.length)];
    return Float32Array.from(c, (x) => x + (r() - 0.5) * 1.6);
  };
  const vecs = new Map(); // path -> its vector, for equal-vector puts
  let next = 0, now = T0 + DAY;
  const paths = () => [...vecs.keys()];
  const pick = () => { const p = paths(); return p[Math.floor(r() * p.length)]; };
  const texts = new Map(); // path -> its text, so an equal-vector put with the same text can merge
  const put = async (c, path, v, like = null) => {
    vecs.set(path, v);
    const text = like && r() < 0.7 ? texts.get(like) : { gist: `g ${path}`, body: `body of ${path} ${Math.floor(r() * 5)}` };
    texts.set(path, text);
    await c.put([{ path, ...text, type: ["episodic", "semantic", "task"][Math.floor(r() * 3)],
      embedding: v, createdAt: now - Math.floor(r() * 30) * DAY, accessCount: Math.floor(r() * 4), confidence: 0.3 + r() * 0.7 }]);
  };
  for (let i = 0; i < 24; i++) await put(cache, `m/${String(next++).padStart(3, "0")}`, vec());
  let incremental = 0, passes = 0;
  for (let s = 0; s < steps; s++) {
    const c = writer && r() < 0.3 ? writer : cache;
    const x = r();
    if (x < 0.25) await put(c, `m/${String(next++).padStart(3, "0")}`, vec());
    else if (x < 0.35 && vecs.size) await put(c, pick(), vec()); // a changed vector
    else if (x < 0.45 && vecs.size > 1) { // ties (and near-duplicates a merge may take)
      const like = pick();
      await put(c, `m/${String(next++).padStart(3, "0")}`, Float32Array.from(vecs.get(like)), like);
    } else if (x < 0.5 && vecs.size > 1) await put(c, pick(), Float32Array.from(vecs.get(pick()))); // a tie by replacement
    else if (x < 0.58 && vecs.size > 4) {
      const p = pick();
      await c.delete([p]);
      vecs.delete(p);
    } else if (x < 0.64 && vecs.size) await c.reinforce([pick()], { now, signal: r() < 0.5 ? "positive" : "negative", cooldownSeconds: 0 });
    else if (x < 0.7 && vecs.size > 1) await c.link([{ src: pick(), dst: pick(), strength: r(), type: r() < 0.5 ? "related" : "similar" }]);
    else {
      now += Math.floor(r() * 3) * DAY / 2;
      const evict = r() < 0.3;
      const options = { now, floor, perSourceK, evict };
      const copy = await openMemoryCache({ bytes: await cache.exportBytes() });
      const full = await copy.sleep({ ...options, incremental: false });
      const expected = await dump(copy);
      await copy.close();
      if (pool) { // the full pass split over the pool's workers: the same report and database
        const copy2 = await openMemoryCache({ bytes: await cache.exportBytes() });
        expect(strip(await copy2.sleep({ ...options, incremental: false, workers: pool }))).toEqual(strip(full));
        expect(await dump(copy2)).toEqual(expected);
        await copy2.close();
      }
      // alternate: the pass on either cache (the other's kept lists are then out of date: it reads them)
      const passer = alternate && r() < 0.5 ? writer : cache;
      const got = await passer.sleep(pool ? { ...options, workers: pool } : options); // on the pool: the changed memories' tile in tiles
      passes++;
      if (got.neighbors.incremental) incremental++;
      expect(strip(got)).toEqual(strip(full));
      expect(await dump(cache)).toEqual(expected);
      // the memories the pass removed are gone from the model too
      const live = new Set((await cache.all()).filter((m) => m.supersededBy === null).map((m) => m.path));
      for (const p of paths()) if (!live.has(p)) vecs.delete(p);
    }
  }
  if (writer) await writer.close();
  await cache.close();
  return { incremental, passes, reads };
}

describe("incremental sleep equals a full pass", () => {
  test.each([1, 2, 3, 4, 5, 6])("random sequence, seed %i", async (seed) => {
    const { incremental, passes } = await run(seed, { floor: [0.5, 0.2, 0.8][seed % 3] });
    expect(passes).toBeGreaterThan(5);
    expect(incremental).toBeGreaterThan(0);
  });

  test.each([10, 11])("3 dimensions (more ties), perSourceK 1, seed %i", async (seed) => {
    const { incremental, passes } = await run(seed, { dim: 3, steps: 80, perSourceK: 1 });
    expect(passes).toBeGreaterThan(5);
    expect(incremental).toBeGreaterThan(0);
  });

  test.each([7, 8, 9])("another cache writes between passes, seed %i", async (seed) => {
    const { incremental, passes } = await run(seed, { other: true });
    expect(passes).toBeGreaterThan(5);
    expect(incremental).toBeGreaterThan(0);
  });

  test.each([14, 15, 16])("passes on either of two caches over one database (kept lists or read ones), seed %i", async (seed) => {
    const { incremental, passes, reads } = await run(seed, { other: true, alternate: true, steps: 80 });
    expect(passes).toBeGreaterThan(5);
    expect(incremental).toBeGreaterThan(0);
    expect(reads).toBeGreaterThan(0); // a pass on the cache that did not write the lists last read them
    expect(reads).toBeLessThan(passes); // and a pass after its own last one used its kept lists
  });

  test("a pass keeps the lists it wrote: the next pass on the same cache does not read md_neighbors", async () => {
    const { passes, reads } = await run(3, { steps: 60 });
    expect(passes).toBeGreaterThan(5);
    expect(reads).toBe(1); // the first pass's (nothing kept yet); every later one used the lists the one before kept
  });

  test.each([12, 13])("the neighbour pairs on a memdomain/workers pool (full and incremental), seed %i", async (seed) => {
    const pool = await createNeighborPool({ workers: 2, wasm: new WebAssembly.Module(wasmBytes()) });
    try {
      const { incremental, passes } = await run(seed, { steps: 50, pool });
      expect(passes).toBeGreaterThan(4);
      expect(incremental).toBeGreaterThan(0);
      expect(pool.lastStats.tiles).toBeGreaterThan(0); // the pool did run the passes' pairs
      const cache = await openMemoryCache({ dim: 2 });
      await expect(cache.sleep({ now: T0, workers: {} })).rejects.toThrow(/sleep: options\.workers must be a pool from memdomain\/workers' createNeighborPool, got an Object/);
      await expect(cache.sleep({ now: T0, workers: 2 })).rejects.toThrow(TypeError);
      await cache.close();
    } finally {
      await pool.close();
    }
  });

  test("a second pass at the same now writes nothing; a pass after no change is incremental with nothing recomputed", async () => {
    const cache = await openMemoryCache({ dim: 4 });
    const r = rng(42);
    await cache.put(Array.from({ length: 30 }, (_, i) => ({ path: `p/${i}`, gist: "g", body: "b", type: "episodic",
      embedding: Float32Array.from({ length: 4 }, () => r()), createdAt: T0 })));
    const first = await cache.sleep({ now: T0 + DAY, floor: 0.5 });
    expect(first.neighbors).toEqual({ incremental: false, recomputed: 30, reason: "none" });
    const second = await cache.sleep({ now: T0 + DAY, floor: 0.5 });
    expect(second.neighbors).toEqual({ incremental: true, recomputed: 0, rescanned: 0 });
    expect(second.written.statements).toBe(0);
    const other = await cache.sleep({ now: T0 + DAY, floor: 0.55 }); // other options: a full pass
    expect(other.neighbors.incremental).toBe(false);
    expect(other.neighbors.reason).toBe("options");
    await cache.close();
  });
});

// memdomain/cache's search composition (js/cache/compose.js): ties share ranks, arms that
// know nothing say nothing, MMR on one scale over a window, near-duplicates skipped,
// explain() says where a memory was lost, tune() fits settings deterministically.
// (cache.test.js holds both compositions to the public functions composed by hand.)
import * as md from "../../js/index.js";
import { MAX_WINDOW, PRESETS, openMemoryCache } from "../../js/cache/index.js";
import { wasmBytes } from "./build.js";
import { makeCorpus, makeQueries, T0 } from "./cache-corpus.js";
import { rng } from "../oracles/rng.js";

md.initSync(wasmBytes());

const D = 16;
const corpus = makeCorpus(300, D, 5);
const queries = makeQueries(corpus, 10, 6);
const paths = (hits) => hits.map((h) => h.path);
const scored = (hits) => hits.map((h) => [h.path, h.score]);

async function cacheOf(memories, links = []) {
  const cache = await openMemoryCache();
  await cache.put(memories);
  if (links.length) await cache.link(links);
  return cache;
}

describe("arms that know nothing say nothing", () => {
  test("a salience arm whose pool ties (every memory the same signals, or none) leaves the fused order as without it", async () => {
    for (const signals of [{ accessCount: 3, outcomeScore: 0.5, reinforcementCount: 2 }, { accessCount: 0, outcomeScore: null, reinforcementCount: 0 }]) {
      const cache = await cacheOf(corpus.map((m) => ({ ...m, ...signals })));
      try {
        let changedUnderMemhtml = 0;
        for (const q of queries) {
          const base = { text: q.text, vector: q.vector, limit: 20, lambda: 1 };
          expect(scored(await cache.search(base))).toEqual(scored(await cache.search({ ...base, weights: { salience: 0 } })));
          const arms = await cache.searchArms(base);
          expect(arms.salience).toEqual([]);
          const m = { ...base, preset: "memhtml" };
          if (JSON.stringify(paths(await cache.search(m))) !== JSON.stringify(paths(await cache.search({ ...m, weights: { salience: 0 } })))) changedUnderMemhtml++;
        }
        // the same ties, read as ranks by path, do move the memhtml composition: the test can fail
        if (signals.accessCount) expect(changedUnderMemhtml).toBeGreaterThan(0);
      } finally { await cache.close(); }
    }
  });

  test("the salience arm lists only memories with a signal, tied ones sharing a rank", async () => {
    const mems = corpus.map((m, i) => ({ ...m, accessCount: i % 7 === 0 ? 2 : 0, outcomeScore: null, reinforcementCount: i % 11 === 0 ? 1 : 0 }));
    const cache = await cacheOf(mems);
    try {
      const meta = new Map(mems.map((m) => [m.path, m]));
      let listed = 0;
      for (const q of queries) {
        const arms = await cache.searchArms({ text: q.text, vector: q.vector });
        for (const p of arms.salience) expect(meta.get(p).accessCount > 0 || meta.get(p).reinforcementCount > 0).toBe(true);
        listed += arms.salience.length;
        const ex = await cache.explain({ text: q.text, vector: q.vector }, arms.salience);
        const ranks = ex.paths.map((x) => x.arms.salience.rank);
        ex.paths.forEach((x, i) => {
          const m = meta.get(x.path), prev = i && meta.get(ex.paths[i - 1].path);
          const tie = i > 0 && m.accessCount === prev.accessCount && m.reinforcementCount === prev.reinforcementCount;
          expect(ranks[i]).toBe(tie ? ranks[i - 1] : i + 1);
        });
      }
      expect(listed).toBeGreaterThan(0);
    } finally { await cache.close(); }
  });

  test("a vector arm where every embedding ties says nothing; tied bm25 scores share a lexical rank", async () => {
    const same = Float32Array.from({ length: D }, (_, i) => (i % 3) - 1);
    const cache = await cacheOf(corpus.map((m) => ({ ...m, embedding: same })));
    try {
      for (const q of queries.slice(0, 5)) {
        const base = { text: q.text, vector: q.vector, limit: 15 };
        expect((await cache.searchArms(base)).vector).toEqual([]);
        expect(scored(await cache.search(base))).toEqual(scored(await cache.search({ ...base, weights: { vector: 0 } })));
      }
    } finally { await cache.close(); }
    const twins = [0, 1, 2].map((i) => ({ ...corpus[i], path: `twin/${i}`, gist: "zyzzyva quux", body: "same words", embedding: corpus[i].embedding }));
    const c2 = await cacheOf([...corpus.slice(3, 60), ...twins]);
    try {
      const ex = await c2.explain({ text: "zyzzyva", limit: 3, weights: { vector: 0 } }, twins.map((t) => t.path));
      expect(ex.paths.map((x) => x.arms.lexical.rank)).toEqual([1, 1, 1]);
      const m = await c2.explain({ text: "zyzzyva", limit: 3, weights: { vector: 0 }, preset: "memhtml" }, twins.map((t) => t.path));
      expect(m.paths.map((x) => x.arms.lexical.rank)).toEqual([1, 2, 3]);
    } finally { await c2.close(); }
  });
});

test("the default lateral arm walks link() edges, not sleep's similarity edges; it keeps its seeds", async () => {
  const cache = await cacheOf(corpus.slice(0, 150));
  try {
    const report = await cache.sleep({ now: T0 + 300 * 86_400_000, floor: 0.3 });
    expect(report.edges.similar + report.edges.nearDuplicate).toBeGreaterThan(0);
    let memhtml = 0;
    for (const q of queries) {
      const base = { text: q.text, vector: q.vector };
      expect((await cache.searchArms(base)).lateral).toEqual([]); // no links: the arm says nothing
      memhtml += (await cache.searchArms({ ...base, preset: "memhtml" })).lateral.length;
    }
    expect(memhtml).toBeGreaterThan(0); // memhtml's composition walks the similarity edges
    const a = corpus[0].path, b = corpus[1].path;
    await cache.link([{ src: a, dst: b, strength: 1 }]);
    const arms = await cache.searchArms({ text: corpus[0].gist, vector: corpus[0].embedding, seeds: 1 });
    expect(arms.seeds.map((x) => x.path)).toEqual([a]);
    expect([...arms.lateral].sort()).toEqual([a, b].sort()); // the seed stays, beside what its link reaches
  } finally { await cache.close(); }
});

describe("MMR on one scale, over a window; duplicates skipped", () => {
  let cache;
  beforeAll(async () => { cache = await cacheOf(corpus); });
  afterAll(() => cache.close());

  test("MMR is applyMmr over the best `window` fused candidates with relevance divided by the best score", async () => {
    for (const [i, q] of queries.entries()) {
      const query = { text: q.text, vector: q.vector, limit: 8, window: 8 + i, lambda: [0, 0.3, 0.7][i % 3], duplicate: null };
      const ex = await cache.explain(query, []);
      const all = await cache.search({ ...query, lambda: 1, window: MAX_WINDOW, limit: 200 }); // the fused order itself
      const win = all.slice(0, query.window);
      const vecs = new Map(corpus.map((m) => [m.path, m.embedding]));
      const want = md.applyMmr(win.map((h) => ({ path: h.path, score: h.score / win[0].score, vector: vecs.get(h.path) })), 8, query.lambda);
      expect(paths(ex.hits)).toEqual(paths(want));
      for (const h of ex.hits) expect(paths(win)).toContain(h.path); // nothing from below the window
    }
  });

  test("with lambda 0 a small window keeps the hits among the best fused; a wide one reaches further", async () => {
    let further = 0;
    for (const q of queries) {
      const top = paths(await cache.search({ text: q.text, vector: q.vector, lambda: 1, limit: 5, duplicate: null }));
      const narrow = paths(await cache.search({ text: q.text, vector: q.vector, lambda: 0, limit: 5, window: 5, duplicate: null }));
      expect([...narrow].sort()).toEqual([...top].sort());
      const wide = paths(await cache.search({ text: q.text, vector: q.vector, lambda: 0, limit: 5, window: 40, duplicate: null }));
      further += wide.filter((p) => !top.includes(p)).length;
    }
    expect(further).toBeGreaterThan(0);
  });

  test("a near-duplicate of a hit above it is skipped (cosine above `duplicate`), and explain says which", async () => {
    const src = corpus[10];
    const copy = { ...src, path: "copy/of-10", embedding: Float32Array.from(src.embedding, (x) => x * 1.0001) };
    const c = await cacheOf([...corpus.slice(0, 120), copy]);
    try {
      const q = { text: src.gist, vector: src.embedding, limit: 10, lambda: 1 };
      const got = paths(await c.search(q));
      expect(got.filter((p) => p === src.path || p === copy.path)).toHaveLength(1);
      const both = paths(await c.search({ ...q, duplicate: null }));
      expect(both).toContain(src.path);
      expect(both).toContain(copy.path);
      const lost = got.includes(src.path) ? copy.path : src.path;
      const ex = await c.explain(q, [lost]);
      expect(ex.paths[0]).toMatchObject({ lostAt: "duplicate", duplicateOf: got.includes(src.path) ? src.path : copy.path, rank: null });
    } finally { await c.close(); }
  });

  test("settings are checked: preset, window and duplicate name the field", async () => {
    const q = { text: "x" };
    await expect(cache.search({ ...q, preset: "fast" })).rejects.toThrow(/search: query.preset must be "default" or "memhtml", got "fast"/);
    await expect(cache.search({ ...q, preset: "memhtml", window: 5 })).rejects.toThrow(/search: query.window applies to the default composition only/);
    await expect(cache.search({ ...q, window: MAX_WINDOW + 1 })).rejects.toThrow(RangeError);
    await expect(cache.search({ ...q, window: 2.5 })).rejects.toThrow(/query.window must be an integer/);
    await expect(cache.search({ ...q, duplicate: 2 })).rejects.toThrow(/query.duplicate must be in \[-1, 1\]/);
    await expect(cache.search({ ...q, duplicate: "high" })).rejects.toThrow(TypeError);
    expect(Array.isArray(await cache.search({ ...q, duplicate: null }))).toBe(true);
    await expect(cache.search({ ...q, fusion: "sum" })).rejects.toThrow(/search: query.fusion must be "score" or "rrf", got "sum"/);
    await expect(cache.search({ ...q, k: 10 })).rejects.toThrow(/search: query.k applies to fusion "rrf" only/);
    await expect(cache.search({ ...q, preset: "memhtml", fusion: "rrf" })).rejects.toThrow(/search: query.fusion applies to the default composition only/);
    expect(Array.isArray(await cache.search({ ...q, fusion: "rrf", k: 10 }))).toBe(true);
    expect(Array.isArray(await cache.search({ ...q, preset: "memhtml", k: 10 }))).toBe(true);
  });

  test("the memhtml composition refuses an MMR pass past its bound, with a clear error", async () => {
    const big = makeCorpus(2100, 4, 9).map((m) => ({ ...m, gist: "common words here", body: "and more" }));
    const c = await cacheOf(big);
    try {
      const q = { text: "common", vector: big[0].embedding, limit: 10000, depth: 10000, preset: "memhtml" };
      await expect(c.search(q)).rejects.toThrow(/search: query.limit x candidates \(10000 x 2100\) is more than 4194304 MMR comparisons/);
      expect(await c.search({ ...q, lambda: 1 })).toHaveLength(2100);
      const d = await c.search({ ...q, preset: undefined, duplicate: null }); // the default composition's window bounds the pass
      expect(d).toHaveLength(2100);
    } finally { await c.close(); }
  });
});

describe("explain: where each relevant memory was lost", () => {
  test("every step: returned, absent, superseded, arms, fusion, limit, mmr", async () => {
    const mems = corpus.slice(0, 200);
    const dup = { ...mems[5], path: "dup/5", createdAt: mems[5].createdAt + 1000, embedding: Float32Array.from(mems[5].embedding) };
    const c = await cacheOf([...mems, dup]);
    try {
      await c.sleep({ now: T0 + 300 * 86_400_000 }); // merges dup/5 into its older twin
      expect((await c.get(["dup/5"]))[0].supersededBy).toBe(mems[5].path);
      const seen = new Set();
      for (const q of queries) {
        const query = { text: q.text, vector: q.vector, limit: 5, window: 12, lambda: 0.3 };
        const hits = await c.search(query);
        const all = mems.map((m) => m.path).concat(["dup/5", "no/such"]);
        const ex = await c.explain(query, all);
        expect(ex.hits).toEqual(hits);
        for (const x of ex.paths) {
          seen.add(x.lostAt);
          if (x.lostAt === null) expect(x.rank).toBe(paths(hits).indexOf(x.path) + 1);
          else expect(paths(hits)).not.toContain(x.path);
          if (x.lostAt === "arms") expect(Object.values(x.arms).every((a) => a === null) && x.fused === null).toBe(true);
          if (x.lostAt === "fusion") expect(x.fused.rank).toBeGreaterThan(12);
          if (x.lostAt === "limit") expect(x.fused.rank > 5 && x.fused.rank <= 12).toBe(true);
          if (x.lostAt === "mmr") expect(x.fused.rank).toBeLessThanOrEqual(5);
        }
        expect(ex.paths.find((x) => x.path === "no/such").lostAt).toBe("absent");
        expect(ex.paths.find((x) => x.path === "dup/5").lostAt).toBe("superseded");
      }
      for (const step of [null, "arms", "fusion", "limit", "mmr"]) expect([step, seen.has(step)]).toEqual([step, true]);
    } finally { await c.close(); }
  });
});

describe("tune: fit settings to labelled queries", () => {
  // Labels that follow the vector arm: each query's relevant memories are the nearest embeddings
  // to its vector, while its text holds words common to many memories.
  function labelled(cacheCorpus, n, seed) {
    const r = rng(seed);
    const cos = (a, b) => { let d = 0, x = 0, y = 0; for (let i = 0; i < a.length; i++) { d += a[i] * b[i]; x += a[i] * a[i]; y += b[i] * b[i]; } return d / Math.sqrt(x * y); };
    return Array.from({ length: n }, () => {
      const m = cacheCorpus[Math.floor(r() * cacheCorpus.length)];
      const vector = Float32Array.from(m.embedding, (v) => v + 0.3 * (r() - 0.5));
      const near = cacheCorpus.map((x) => [x.path, cos(vector, x.embedding)]).sort((a, b) => b[1] - a[1]).slice(0, 3);
      const other = cacheCorpus[Math.floor(r() * cacheCorpus.length)];
      return { text: other.gist, vector, relevant: Object.fromEntries(near.map(([p], i) => [p, 3 - i])) };
    });
  }

  test("deterministic for a seed; improves the held-out score where one arm carries the labels; settings search() takes", async () => {
    const c = await cacheOf(corpus);
    try {
      const labels = labelled(corpus, 24, 3);
      const events = [];
      const a = await c.tune(labels, { seed: 7, onProgress: (p) => events.push(p.phase) });
      const b = await c.tune(labels, { seed: 7 });
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      expect(events).toContain("fit");
      expect(a.chose).toBe("tuned");
      expect(a.heldOut.tuned).toBeGreaterThan(a.heldOut.baseline);
      expect(a.search.weights.vector / (a.search.weights.lexical || 1e-9)).toBeGreaterThan(PRESETS.default.weights.vector);
      // the returned settings are search()'s own, and score what tune() says on the labelled queries
      const { ndcg } = await import("../../js/cache/tune.js");
      let sum = 0;
      for (const q of labels) {
        const hits = await c.search({ text: q.text, vector: q.vector, ...a.search });
        sum += ndcg(paths(hits), new Map(Object.entries(q.relevant)), 10);
      }
      expect(sum / labels.length).toBeCloseTo(a.train, 12);
      const other = await c.tune(labels, { seed: 8 });
      expect(other.heldOut.folds).toBe(10);
    } finally { await c.close(); }
  });

  test("labels the settings cannot learn (random paths) keep the baseline", async () => {
    const c = await cacheOf(corpus);
    try {
      const r = rng(4);
      const labels = queries.map((q) => ({ text: q.text, vector: q.vector, relevant: [corpus[Math.floor(r() * corpus.length)].path] }));
      const t = await c.tune(labels, { seed: 1, baseline: { lambda: 1 } });
      if (t.chose === "baseline") expect(t.search).toMatchObject({ lambda: 1, weights: PRESETS.default.weights });
      expect(t.heldOut.difference <= t.heldOut.standardError || t.chose === "tuned").toBe(true);
    } finally { await c.close(); }
  });

  test("bad labels and options are clear errors", async () => {
    const c = await cacheOf(corpus.slice(0, 30));
    try {
      const ok = { text: "x", relevant: [corpus[0].path] };
      await expect(c.tune([ok])).rejects.toThrow(/tune: labelled has 1 queries; tuning needs at least 2/);
      await expect(c.tune([ok, { text: "y", relevant: {} }])).rejects.toThrow(/tune: labelled\[1\].relevant names no relevant memory/);
      await expect(c.tune([ok, { relevant: ["a"] }])).rejects.toThrow(/tune: labelled\[1\] has neither text nor vector/);
      await expect(c.tune([ok, { text: "y", relevant: "a" }])).rejects.toThrow(TypeError);
      await expect(c.tune([ok, ok], { seed: -1 })).rejects.toThrow(/tune: options.seed must be in/);
      await expect(c.tune([ok, ok], { baseline: { weights: { lexcial: 1 } } })).rejects.toThrow(/tune: options.baseline.weights.lexcial is not an arm/);
      await expect(c.tune([ok, ok], { speed: 1 })).rejects.toThrow(/tune: options.speed is not a known option/);
      // a label naming no stored memory (a typo) is reported; a query with no live label cannot be scored
      const typo = { text: "y", relevant: { [corpus[1].path]: 2, "no/such/memory": 1 } };
      const t = await c.tune([ok, typo], { folds: 2 });
      expect(t.warnings).toEqual([{ at: "labelled[1].relevant", path: "no/such/memory", reason: expect.stringMatching(/names no live memory/) }]);
      expect(t.expected.gain).toBe(t.chose === "tuned" ? t.heldOut.difference : 0);
      expect(t.baseline.weights).toEqual(PRESETS.default.weights);
      await expect(c.tune([ok, { text: "y", relevant: ["no/such"] }])).rejects.toThrow(/tune: labelled\[1\].relevant names no live memory \("no\/such"\)/);
    } finally { await c.close(); }
  });
});

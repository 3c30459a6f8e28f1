// memdomain/cache's metadata filters, paging and listing (js/cache/filter.js, index.js): a filter
// admits the same memories as an oracle written here in JavaScript; every arm ranks among those
// memories before its top-k, so each filtered arm equals the unfiltered exact arm with the others
// left out; a selective filter still returns `limit` hits; pages are slices of one ranking; paths()
// lists without embeddings; delete() takes a prefix or a filter; count({ live }).
import * as md from "../../js/index.js";
import { openMemoryCache } from "../../js/cache/index.js";
import { wasmBytes } from "./build.js";
import { rng } from "../oracles/rng.js";

md.initSync(wasmBytes());

const N = 400, D = 8;
const T0 = Date.UTC(2026, 0, 1), DAY = 86_400_000;
const WORDS = "deploy canary rollback retry backoff cache ttl schema index migration token vector graph merge sleep".split(" ");
const TYPES = ["semantic", "episodic", "procedural", "task"];
const TEAMS = ["infra", "search", "data", null];

function corpus() {
  const r = rng(5);
  return Array.from({ length: N }, (_, i) => {
    const w = () => WORDS[Math.floor(r() * WORDS.length)];
    const tags = ["a", "b", "c", "d"].filter(() => r() < 0.3);
    const team = TEAMS[i % TEAMS.length];
    const metadata = { n: i % 10, ok: i % 3 === 0, ...(team ? { team } : {}), ...(i % 7 === 0 ? { label: String(i % 10) } : {}) };
    return { path: `${i % 2 ? "ops" : "dev"}/${String(i).padStart(3, "0")}`, gist: `${w()} ${w()} ${w()}`, body: `${w()} ${w()} ${w()} ${w()}`,
      type: TYPES[i % TYPES.length], embedding: Float32Array.from({ length: D }, () => r() - 0.5), createdAt: T0 + i * DAY,
      updatedAt: T0 + (N - i) * DAY, tags, metadata };
  });
}

/** The oracle: what a filter admits, evaluated on the memory records. */
function admits(m, f) {
  const cmp = (x, op, v) => {
    if (typeof x !== typeof v) return false;
    return op === "eq" ? x === v : op === "gt" ? x > v : op === "gte" ? x >= v : op === "lt" ? x < v : x <= v;
  };
  const has = (k) => Object.prototype.hasOwnProperty.call(m.metadata, k);
  if (f.path !== undefined) {
    if (typeof f.path === "string") { if (m.path !== f.path) return false; }
    else {
      if (f.path.eq !== undefined && m.path !== f.path.eq) return false;
      if (f.path.in && !f.path.in.includes(m.path)) return false;
      if (f.path.prefix !== undefined && !m.path.startsWith(f.path.prefix)) return false;
    }
  }
  if (f.type !== undefined) {
    const t = typeof f.type === "string" ? { eq: f.type } : f.type;
    if (t.eq !== undefined && m.type !== t.eq) return false;
    if (t.ne !== undefined && m.type === t.ne) return false;
    if (t.in && !t.in.includes(m.type)) return false;
    if (t.nin && t.nin.includes(m.type)) return false;
  }
  if (f.tags !== undefined) {
    const t = typeof f.tags === "string" ? { all: [f.tags] } : f.tags;
    if (t.all && !t.all.every((x) => m.tags.includes(x))) return false;
    if (t.any && !t.any.some((x) => m.tags.includes(x))) return false;
    if (t.none && t.none.some((x) => m.tags.includes(x))) return false;
  }
  for (const k of ["createdAt", "updatedAt"]) {
    if (!f[k]) continue;
    for (const op of ["gt", "gte", "lt", "lte"]) if (f[k][op] !== undefined && !cmp(m[k], op, f[k][op])) return false;
  }
  if (f.metadata) {
    for (const [k, v] of Object.entries(f.metadata)) {
      const x = m.metadata[k];
      if (v === null || typeof v !== "object") { if (!has(k) || x !== v) return false; continue; }
      if (v.eq !== undefined && !(has(k) && x === v.eq)) return false;
      if (v.ne !== undefined && has(k) && x === v.ne) return false;
      for (const op of ["gt", "gte", "lt", "lte"]) if (v[op] !== undefined && !(has(k) && cmp(x, op, v[op]))) return false;
      if (v.in && !(has(k) && v.in.includes(x))) return false;
      if (v.nin && has(k) && v.nin.includes(x)) return false;
      if (v.exists !== undefined && has(k) !== v.exists) return false;
    }
  }
  if (f.and && !f.and.every((g) => admits(m, g))) return false;
  if (f.or && !f.or.some((g) => admits(m, g))) return false;
  if (f.not && admits(m, f.not)) return false;
  return true;
}

const FILTERS = [
  { type: "semantic" },
  { type: { in: ["episodic", "task"] } },
  { type: { nin: ["semantic"] }, tags: "a" },
  { tags: { all: ["a", "b"] } },
  { tags: { any: ["c", "d"], none: ["a"] } },
  { metadata: { team: "infra" } },
  { metadata: { team: { ne: "infra" } } },
  { metadata: { team: { exists: false } } },
  { metadata: { n: { gte: 3, lt: 6 } } },
  { metadata: { n: { in: [1, 9] }, ok: true } },
  { metadata: { label: "3" } }, // a string "3", not the number
  { metadata: { n: "3" } }, // none: n is a number
  { metadata: { team: { nin: ["infra", "data"] } } },
  { createdAt: { gte: T0 + 100 * DAY, lt: T0 + 200 * DAY } },
  { updatedAt: { lte: T0 + 50 * DAY } },
  { path: { prefix: "ops/" } },
  { path: { prefix: "dev/1" }, metadata: { ok: false } },
  { or: [{ type: "procedural" }, { tags: "d" }] },
  { and: [{ metadata: { n: { gt: 7 } } }, { not: { type: "episodic" } }] },
  { path: "dev/004" }, // 0.25%
  { metadata: { n: 0, team: "search" } }, // 0.1%-like: a handful
  { or: [] }, // nothing
  {},
];

describe("metadata filters", () => {
  let cache;
  const memories = corpus();
  beforeAll(async () => {
    cache = await openMemoryCache();
    await cache.put(memories);
  });
  afterAll(() => cache.close());

  test("each filter admits what the oracle admits (paths(), in code point order, no embeddings read)", async () => {
    for (const f of FILTERS) {
      const want = memories.filter((m) => admits(m, f)).map((m) => m.path).sort();
      const got = await cache.paths({ filter: f, limit: 100000 });
      expect([JSON.stringify(f), got.paths]).toEqual([JSON.stringify(f), want]);
      expect(got.next).toBeNull();
    }
  });

  test("every arm ranks among the admitted memories: each filtered arm is the exact unfiltered arm, others left out", async () => {
    const r = rng(9);
    for (const f of FILTERS) {
      const ok = new Set(memories.filter((m) => admits(m, f)).map((m) => m.path));
      for (let k = 0; k < 3; k++) {
        const q = { text: `${WORDS[Math.floor(r() * WORDS.length)]} ${WORDS[Math.floor(r() * WORDS.length)]}`,
          vector: Float32Array.from({ length: D }, () => r() - 0.5) };
        const all = await cache.searchArms({ ...q, depth: 10000 });
        const got = await cache.searchArms({ ...q, filter: f });
        for (const arm of ["lexical", "vector"]) {
          const want = all[arm].filter((p) => ok.has(p)).slice(0, 50);
          // one admitted embedding ties with itself: an arm whose order carries no information says nothing
          expect([JSON.stringify(f), arm, got[arm]]).toEqual([JSON.stringify(f), arm, arm === "vector" && ok.size === 1 ? [] : want]);
        }
        for (const arm of ["salience", "lateral"]) for (const p of got[arm]) expect(ok.has(p)).toBe(true);
        const hits = await cache.search({ ...q, filter: f, limit: 10 });
        for (const h of hits) expect(ok.has(h.path)).toBe(true);
        // a selective filter still fills the limit when enough admitted memories match an arm
        expect(hits.length).toBe(Math.min(10, new Set([...got.lexical, ...got.vector]).size));
      }
    }
  });

  test("paging: a page is the slice of one ranking; paths() pages with a cursor", async () => {
    const q = { text: "deploy canary retry", vector: Float32Array.from({ length: D }, (_, i) => i - 3) };
    const long = await cache.search({ ...q, limit: 30 });
    const pages = [];
    for (let offset = 0; offset < 30; offset += 10) pages.push(...(await cache.search({ ...q, limit: 10, offset })));
    expect(pages.map((h) => [h.path, h.score])).toEqual(long.map((h) => [h.path, h.score]));
    await expect(cache.search({ ...q, limit: 10, offset: 9995 })).rejects.toThrow(/search: query.offset \+ limit is 10005, more than 10000/);
    const seen = [];
    let after;
    do {
      const page = await cache.paths({ limit: 37, ...(after ? { after } : {}) });
      seen.push(...page.paths);
      after = page.next;
    } while (after);
    expect(seen).toEqual(memories.map((m) => m.path).sort());
  });

  test("filtered search costs no more rows than it ranks: a 1-memory filter, and the cache follows writes", async () => {
    const c = await openMemoryCache();
    try {
      await c.put(memories.slice(0, 50));
      const f = { metadata: { team: "infra" } };
      const before = (await c.paths({ filter: f })).paths;
      await c.put([{ ...memories[60], path: "new/x", metadata: { team: "infra" } }]);
      const hits = await c.search({ text: memories[60].gist, filter: f, limit: 50 });
      expect(hits.map((h) => h.path)).toContain("new/x"); // the admitted set is read again after a write
      expect((await c.paths({ filter: f })).paths).toEqual([...before, "new/x"].sort());
    } finally { await c.close(); }
  });

  test("delete by prefix or filter; count({ live }); bad filters are clear errors", async () => {
    const c = await openMemoryCache();
    try {
      await c.put(memories.slice(0, 40));
      expect(await c.count()).toBe(40);
      expect(await c.delete({ prefix: "ops/" })).toEqual({ deleted: 20 });
      expect(await c.delete({ filter: { type: "semantic" } })).toEqual({ deleted: 10 });
      expect(await c.count({ live: true })).toBe(10);
      expect(await c.count({ archived: true })).toBe(0);
      await expect(c.delete({})).rejects.toThrow(/delete: target selects nothing/);
      await expect(c.delete({ prefixes: "a" })).rejects.toThrow(/delete: target.prefixes is not a known option/);
      await expect(c.count({ live: true, archived: true })).rejects.toThrow(/count: options asks for live and archived/);
      const q = { text: "deploy" };
      await expect(c.search({ ...q, filter: { tag: "a" } })).rejects.toThrow(/search: query.filter.tag is not a filter field \(did you mean tags\?\)/);
      await expect(c.search({ ...q, filter: { metadata: { n: { between: [1, 2] } } } })).rejects.toThrow(/search: query.filter.metadata.n.between is not a filter field/);
      await expect(c.search({ ...q, filter: { metadata: { n: [1, 2] } } })).rejects.toThrow(/search: query.filter.metadata.n must be a string, a finite number or a boolean/);
      await expect(c.search({ ...q, filter: { metadata: { ok: { gt: true } } } })).rejects.toThrow(/compares a boolean: only eq and ne apply/);
      await expect(c.search({ ...q, filter: { createdAt: { gt: "yesterday" } } })).rejects.toThrow(TypeError);
      await expect(c.search({ ...q, filter: { and: "x" } })).rejects.toThrow(/search: query.filter.and must be an array/);
      let deep = { type: "task" };
      for (let i = 0; i < 20; i++) deep = { not: deep };
      await expect(c.search({ ...q, filter: deep })).rejects.toThrow(/nests deeper than 16 levels/);
      await expect(c.search({ limit: 3 })).rejects.toThrow(/search: query has neither text nor vector/);
      await expect(c.search({ text: "x", weights: { lexical: 0 } })).rejects.toThrow(/search: query.weights give the lexical arm weight 0 and the query has no vector/);
      await expect(c.put([{ ...memories[0], metadata: { nested: { a: 1 } } }])).rejects.toThrow(/put: memories\[0\].metadata.nested must be a string, a finite number, a boolean or null \(metadata is flat\)/);
      await expect(c.put([{ ...memories[0], tags: ["a", "a"] }])).rejects.toThrow(/put: memories\[0\].tags\[1\] repeats the tag "a"/);
    } finally { await c.close(); }
  });

  test("tune and explain take the filter", async () => {
    const f = { type: "semantic" };
    const sem = memories.filter((m) => admits(m, f));
    const labelled = sem.slice(0, 6).map((m) => ({ text: m.gist, vector: m.embedding, relevant: [m.path] }));
    const t = await cache.tune(labelled, { folds: 2, filter: f });
    expect(t.heldOut.queries).toBe(6);
    const ex = await cache.explain({ text: sem[0].gist, filter: { type: "episodic" } }, [sem[0].path]);
    expect(ex.paths[0].lostAt).toBe("arms"); // the filter keeps it out of every arm
  });
});

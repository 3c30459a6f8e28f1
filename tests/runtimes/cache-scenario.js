// The memdomain/cache scenario every runtime runs (Node, Deno, a Chromium worker on
// OPFS, a Worker on D1 under miniflare): put a seeded corpus, link, search, sleep,
// search again. Its JSON summary must be the same everywhere.
import { makeCorpus, makeQueries, T0 } from "../js/cache-corpus.js";

export const N = 150, D = 16;
export const NOW = T0 + 300 * 86_400_000;

/** The tables in sqlite_master a harness drops to empty a database: every one but SQLite's, the
 * platform's (_cf_) and FTS5's shadow tables, the FTS5 table first (dropping it drops its shadows). */
export const TABLES_SQL = "SELECT name FROM sqlite_master WHERE type = 'table'";
export const dropOrder = (names) => names.filter((n) => !/^(sqlite_|_cf_|memories_fts_)/.test(n))
  .sort((a, b) => (b === "memories_fts") - (a === "memories_fts"));
const corpus = () => makeCorpus(N, D, 21, { dupEvery: 10 });
const queries = () => makeQueries(corpus(), 5, 22);
const clean = (r) => ({ ...r, timings: undefined });

/**
 * Searches only: what a reopened cache (or a reloaded page) must still answer the same. At a fixed
 * time (`now`): the access they record, written by the next sleep pass, is the same everywhere.
 */
export async function searches(cache) {
  const out = [];
  for (const q of queries()) out.push(await cache.search({ ...q, limit: 8, now: NOW - 3_600_000 }));
  out.push(await cache.search({ text: "deploy \"rollback NEAR( *", limit: 5, weights: { vector: 0 }, now: NOW - 3_600_000 }));
  return out;
}

/** Tags and metadata (issue 41) for memory i: every backend stores, filters and lists them alike. */
const TEAMS = ["infra", "search", "agents"];
const labelled = (m, i) => ({ ...m, tags: i % 3 === 0 ? ["ops"] : ["notes", `t${i % 5}`],
  metadata: { team: TEAMS[i % 3], n: i, reviewed: i % 7 === 0, ...(i % 4 === 0 && { owner: `o${i % 8}` }) } });
const FILTERS = [
  { metadata: { team: "search" } },
  { tags: { any: ["t1", "t2"] }, metadata: { n: { gte: 40, lt: 120 } } },
  { or: [{ metadata: { reviewed: true } }, { type: { in: ["semantic", "procedural"] } }], not: { tags: "ops" } },
  { metadata: { owner: { exists: false } }, createdAt: { gte: T0 + 50 * 86_400_000 } },
  { path: { prefix: "mem/00001" }, metadata: { n: 17 } }, // at most one memory: a selective filter still answers
];

/**
 * Filters inside every arm, pages, listing without embeddings, the strict record rule, then delete by
 * prefix and by filter: what every backend must answer the same as Node's sqlite-wasm.
 */
async function listing(cache, mems) {
  const at = NOW - 3_600_000, q = queries()[0];
  const filtered = [];
  for (const filter of FILTERS) filtered.push((await cache.search({ ...q, limit: 6, filter, now: at })).map((h) => h.path));
  const pages = [0, 4, 8].map((offset) => cache.search({ ...q, limit: 4, offset, now: at }));
  const paged = (await Promise.all(pages)).map((hits) => hits.map((h) => h.path));
  const first = await cache.paths({ limit: 7 });
  const next = await cache.paths({ limit: 7, after: first.next });
  const listed = await cache.paths({ filter: FILTERS[1] });
  const refused = await cache.put([{ ...mems[0], path: "mem/typo.html", embeding: mems[0].embedding }]).then(() => "accepted", (e) => `${e.name}: ${e.message}`);
  // archive by hand and by sleep's policy (issue 40): out of every arm, listed, restorable
  const byHand = await cache.archive([mems[3].path, mems[4].path], { now: at });
  const hidden = !(await cache.search({ text: mems[3].gist, limit: 20, now: at })).some((h) => h.path === mems[3].path);
  const restored = await cache.restore([mems[3].path], { now: at });
  const evicting = clean(await cache.sleep({ now: NOW + 400 * 86_400_000, policy: { evict: true, minAgeDays: 30 } }));
  const archived = (await cache.archived()).map((m) => [m.path, m.archivedAt, m.archiveReason]);
  const policy = await cache.policy();
  const counts = [await cache.count(), await cache.count({ live: true })];
  const byPrefix = await cache.delete({ prefix: "mem/00014" });
  const byFilter = await cache.delete({ filter: { metadata: { team: "agents", reviewed: true } } });
  return { filtered, paged, first, next, listed, refused, byHand, hidden, restored, evicting, archived, policy, counts, byPrefix, byFilter, left: [await cache.count(), await cache.count({ live: true })],
    afterDelete: (await cache.search({ ...q, limit: 8, filter: FILTERS[0], now: at })).map((h) => h.path) };
}

/** What the twin's lexicalStats() say, in words. */
export const indexUse = (s) => (!s ? "no index stats" : s.indexed || s.answered ? `the lexical index answered ${s.answered} searches, ${s.bytes} bytes`
  : `no lexical index: ${s.unavailable ? "unavailable (no ln() or TEMP tables, or a check against FTS5's bm25 failed)" : "not built"}, the lists answered ${s.fellBack} searches`);

/** openMemoryCache's options for a second cache on `cache`'s own connection (its adapter, not closed by that cache). */
export const sameConnection = (cache) => ({ db: { ...cache._db, close: async () => {} } });

/**
 * Where the resident lexical index (options.lexicalIndexMin) answers the same as the lists: a twin
 * cache on the same database, opened before the first memory with the index on from it and no
 * search access recorded, runs the searches after the scenario's cache ran them (before sleep, and
 * after sleep, archive, restore and deletes)
 * (the scenario's cache keeps the default, so its 150 memories go to the lists). "same", or the
 * first search that differs. Where the backend lacks ln() or TEMP tables the twin's lists answer.
 */
async function twinSearches(twin, hits) {
  const got = JSON.parse(JSON.stringify(await searches(twin))), want = JSON.parse(JSON.stringify(hits));
  const i = got.findIndex((g, j) => JSON.stringify(g) !== JSON.stringify(want[j]));
  return i < 0 ? "same" : `search ${i}: ${JSON.stringify(got[i]).slice(0, 300)} where the lists gave ${JSON.stringify(want[i]).slice(0, 300)}`;
}

/**
 * The whole scenario on an open, empty cache; returns a JSON-able summary. `twin(options)` opens
 * another cache on the same database (its options added); `onIndex` gets the twin's
 * lexicalStats() (which backends the index answered on: not part of the summary).
 */
export async function scenario(cache, { twin, onIndex = () => {} } = {}) {
  const t = await twin({ lexicalIndexMin: 0, searchAccess: false });
  try {
    const mems = corpus().map(labelled);
    const put = await cache.put(mems);
    await cache.link([{ src: mems[0].path, dst: mems[1].path, strength: 0.8 }, { src: mems[1].path, dst: mems[2].path, strength: 0.6, type: "supports" }]);
    const before = await searches(cache);
    const index = [await twinSearches(t, before)];
    const sleep = clean(await cache.sleep({ now: NOW, floor: 0.6 }));
    const again = clean(await cache.sleep({ now: NOW, floor: 0.6 }));
    const listed = await listing(cache, mems); // deletes some: what a reopened cache holds and answers comes after
    const after = await searches(cache);
    index.push(await twinSearches(t, after));
    onIndex(t.lexicalStats());
    return { put, before, sleep, again, listing: listed, after, index, count: await cache.count() };
  } finally {
    await t.close();
  }
}

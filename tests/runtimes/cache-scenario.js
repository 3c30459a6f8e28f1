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

/** The whole scenario on an open, empty cache; returns a JSON-able summary. */
export async function scenario(cache) {
  const mems = corpus();
  const put = await cache.put(mems);
  await cache.link([{ src: mems[0].path, dst: mems[1].path, strength: 0.8 }, { src: mems[1].path, dst: mems[2].path, strength: 0.6, type: "supports" }]);
  const before = await searches(cache);
  const sleep = clean(await cache.sleep({ now: NOW, floor: 0.6 }));
  const again = clean(await cache.sleep({ now: NOW, floor: 0.6 }));
  const after = await searches(cache);
  return { put, count: await cache.count(), before, sleep, again, after };
}

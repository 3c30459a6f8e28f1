// The relevance harness as a module (bench/relevance; issue 24): corpora, metrics, and the cache
// opened on a corpus, for scripts that measure settings the command line does not cover.
//
//   import { loadCorpus, evaluate, openCorpusCache } from "./bench/relevance/lib.mjs";
//   const corpus = await loadCorpus("man");
//   const { cache } = await openCorpusCache(corpus, { links: true });
//   const r = await evaluate((q) => cache.search({ text: q.text, vector: q.vector, limit: 10, lambda: 1 }), corpus.queries.test);
//   console.log(r.mrr10, r.ndcg10, r.r1, r.r10);
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, SETTINGS, loadCorpus } from "./corpus.mjs";

export { CORPORA, DEFAULT_CORPORA, OUT, ROOT, SETTINGS, corpusKey, loadCorpus, queryKind } from "./corpus.mjs";
export { evaluate, median, ndcgAt, rankOf, recallAt, reciprocalRank, score, topPaths } from "../../tests/oracles/relevance-metrics.mjs";

/** Where the cache module is imported from: $RELEVANCE_CACHE, else this repository's js/cache/index.js. */
export const CACHE_MODULE = process.env.RELEVANCE_CACHE ?? join(ROOT, "js", "cache", "index.js");

const modules = new Map();
/** The cache module (memdomain/cache) at `path` (default CACHE_MODULE), imported once. */
export function importCache(path = CACHE_MODULE) {
  if (!modules.has(path)) modules.set(path, import(/^[a-z]+:/.test(path) ? path : pathToFileURL(path).href));
  return modules.get(path);
}

/** The time sleep() runs at: a day after the corpus's last memory was created. */
export const sleepTime = (corpus) => SETTINGS.createdAt0 + corpus.memories.length * 60000 + 86400000;

/**
 * A memory cache (in memory, sqlite-wasm) holding the corpus's memories: { cache, timings: { put,
 * link, sleep, calibrate } (ms), sleepReport, superseded (path -> the path sleep merged it into),
 * calibration }. options: { links: load the corpus's links with cache.link(), sleep: run
 * cache.sleep({ now: sleepTime(corpus) }) once, calibrate (default true): cache.calibrate() after
 * (unless sleep calibrated), cacheModule: a module namespace or a path (default CACHE_MODULE), open:
 * options for openMemoryCache }. A corpus with an embedding (withEmbedding) gives the cache its
 * embed hook.
 */
export async function openCorpusCache(corpus, { links = false, sleep = false, calibrate = true, cacheModule, open = {} } = {}) {
  const mod = cacheModule === undefined || typeof cacheModule === "string" ? await importCache(cacheModule) : cacheModule;
  const timings = {};
  let t = performance.now();
  // the corpus's embedding as the cache's embed hook, where the cache module has one (an older build refuses the option)
  let cache;
  try {
    cache = await mod.openMemoryCache(corpus.embed ? { ...open, embed: corpus.embed } : open);
  } catch (e) {
    if (!(corpus.embed && /options\.embed is not a known option/.test(String(e?.message)))) throw e;
    cache = await mod.openMemoryCache(open);
  }
  try {
    await cache.put(corpus.memories);
    timings.put = performance.now() - t;
    if (links && corpus.links.length) {
      t = performance.now();
      await cache.link(corpus.links);
      timings.link = performance.now() - t;
    }
    let sleepReport = null;
    const superseded = new Map();
    if (sleep) {
      t = performance.now();
      sleepReport = await cache.sleep({ now: sleepTime(corpus) });
      timings.sleep = performance.now() - t;
      for (const m of await cache.all()) if (m.supersededBy) superseded.set(m.path, m.supersededBy);
    }
    // the cache's own calibration, as sleep() runs it (where it has one): sleep did it already if it ran
    let calibration = sleepReport?.calibration?.ran ? await cache.calibration() : null;
    if (calibrate && !calibration && typeof cache.calibrate === "function") {
      t = performance.now();
      calibration = await cache.calibrate();
      timings.calibrate = performance.now() - t;
    }
    return { cache, timings, sleepReport, superseded, calibration };
  } catch (e) {
    await cache.close();
    throw e;
  }
}

/**
 * The corpus with the embedding `name` (embeddings.mjs) in place of its LSA vectors: the memories'
 * and the queries' vectors from it, and `embed`, the hook the cache gets. "lsa" is the corpus's own.
 */
export async function withEmbedding(corpus, name) {
  const { embedding } = await import("./embeddings.mjs");
  const E = embedding(corpus, name);
  const queries = (qs) => qs.map((q) => ({ ...q, vector: name === "lsa" ? q.vector : E.query(q.text) }));
  return {
    ...corpus, embedding: name, dim: E.dim, embed: E.embed,
    memories: corpus.memories.map((m) => ({ ...m, embedding: E.vectorOf(m) })),
    queries: { tune: queries(corpus.queries.tune), test: queries(corpus.queries.test) },
  };
}

/**
 * A query's labels after sleep merged memories: a label on a merged-away path moves to the memory
 * that kept its text (following chains; the higher grade wins), so a target that sleep merged is
 * found when its keeper is.
 */
export function followMerges(query, superseded) {
  if (!superseded?.size) return query;
  const keep = (p) => {
    for (let hops = 0; superseded.has(p) && hops < 64; hops++) p = superseded.get(p);
    return p;
  };
  const relevant = {};
  for (const [p, g] of Object.entries(query.relevant)) {
    const k = keep(p);
    relevant[k] = Math.max(relevant[k] ?? 0, g);
  }
  return { ...query, target: keep(query.target), relevant };
}

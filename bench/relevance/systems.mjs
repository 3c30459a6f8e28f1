// The systems the harness ranks, side by side on the same memories, queries and vectors. Each is
// { name, group, async open(corpus, ctx) -> { search(query) -> paths, close(), indexMs, note } }.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./corpus.mjs";
import { followMerges, openCorpusCache } from "./lib.mjs";

const LIMIT = 10;
const version = (pkg) => JSON.parse(readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8")).version;

/** The query's words as FTS5 alone would be given them: letters, digits and marks, lowercased, distinct, at most 64. */
export function ftsTerms(text) {
  const seen = new Set();
  for (const w of String(text).normalize("NFC").match(/[\p{L}\p{N}\p{M}]+/gu) ?? []) {
    seen.add(w.toLowerCase());
    if (seen.size >= 64) break;
  }
  return [...seen];
}

// Code point order of paths (SQLite compares TEXT as UTF-8 bytes, which is code point order).
const byCodePoint = (a, b) => {
  const x = [...a], y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i].codePointAt(0) - y[i].codePointAt(0);
  return x.length - y.length;
};

/** SQLite FTS5 alone (better-sqlite3): gist and body, the query's words quoted and OR-ed, ORDER BY bm25, ties by path. */
const fts5 = {
  name: "fts5", group: "baseline",
  async open(corpus) {
    const { default: Database } = await import("better-sqlite3");
    const t = performance.now();
    const db = new Database(":memory:");
    db.exec("CREATE VIRTUAL TABLE docs USING fts5(gist, body)");
    // rowids in path order, so bm25 ties break on path as the cache's lexical arm does
    const sorted = corpus.memories.slice().sort((a, b) => byCodePoint(a.path, b.path));
    const ins = db.prepare("INSERT INTO docs (rowid, gist, body) VALUES (?, ?, ?)");
    db.transaction(() => sorted.forEach((m, i) => ins.run(i + 1, m.gist, m.body)))();
    const indexMs = performance.now() - t;
    const stmt = db.prepare("SELECT rowid AS id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs), rowid LIMIT ?");
    return {
      indexMs, note: `SQLite ${db.prepare("SELECT sqlite_version() AS v").get().v}`,
      search: (q) => {
        const terms = ftsTerms(q.text);
        if (!terms.length) return [];
        return stmt.all(terms.map((w) => `"${w}"`).join(" OR "), LIMIT).map((r) => sorted[r.id - 1].path);
      },
      close: async () => db.close(),
    };
  },
};

/** minisearch with its default options, fields gist and body. */
const minisearch = {
  name: "minisearch", group: "baseline",
  async open(corpus) {
    const { default: MiniSearch } = await import("minisearch");
    const t = performance.now();
    const ms = new MiniSearch({ fields: ["gist", "body"] });
    ms.addAll(corpus.memories.map((m) => ({ id: m.path, gist: m.gist, body: m.body })));
    return { indexMs: performance.now() - t, note: `minisearch ${version("minisearch")}`, search: (q) => ms.search(q.text).slice(0, LIMIT).map((r) => r.id), close: async () => {} };
  },
};

/** Orama's hybrid search (text + vector) with its defaults. */
const orama = {
  name: "orama", group: "baseline",
  async open(corpus) {
    const { create, insertMultiple, search } = await import("@orama/orama");
    const dim = corpus.dim ?? corpus.meta.lsa.dim;
    const t = performance.now();
    const db = create({ schema: { gist: "string", body: "string", embedding: `vector[${dim}]` } });
    await insertMultiple(db, corpus.memories.map((m) => ({ id: m.path, gist: m.gist, body: m.body, embedding: Array.from(m.embedding) })), 500);
    return {
      indexMs: performance.now() - t, note: `Orama ${version("@orama/orama")}`,
      search: async (q) => (await search(db, { mode: "hybrid", term: q.text, vector: { value: Array.from(q.vector), property: "embedding" }, limit: LIMIT }))
        .hits.map((h) => h.id),
      close: async () => {},
    };
  },
};

/** Exact cosine in plain JavaScript over the LSA vectors (unit length, so a dot product); ties by corpus order. */
const cosine = {
  name: "cosine", group: "baseline",
  async open(corpus) {
    const t = performance.now();
    const n = corpus.memories.length, d = corpus.dim ?? corpus.meta.lsa.dim;
    const M = new Float32Array(n * d);
    corpus.memories.forEach((m, i) => M.set(m.embedding, i * d));
    const paths = corpus.memories.map((m) => m.path);
    return {
      indexMs: performance.now() - t, note: "",
      search: (q) => {
        const v = q.vector, top = [];
        for (let i = 0; i < n; i++) {
          let s = 0;
          const o = i * d;
          for (let c = 0; c < d; c++) s += M[o + c] * v[c];
          if (top.length === LIMIT && !(s > top[LIMIT - 1][0])) continue;
          let j = top.length === LIMIT ? LIMIT - 1 : top.length;
          while (j > 0 && s > top[j - 1][0]) { top[j] = top[j - 1]; j--; }
          top[j] = [s, i];
        }
        return top.map(([, i]) => paths[i]);
      },
      close: async () => {},
    };
  },
};

/** A query vector as the cache takes it: an all-zero one (no known word to fold in) is no vector (search refuses zero vectors). */
export const cacheVector = (v) => (v && v.some((x) => x !== 0) ? v : null);

/**
 * The built-in cache configurations: { name, search (options for cache.search besides text, vector
 * and limit), links, sleep }. Weights are given for all four arms so they do not depend on the defaults.
 */
export const CACHE_CONFIGS = [
  { name: "cache:defaults", search: {} },
  { name: "cache:uncalibrated", search: { calibrated: false } },
  { name: "cache:lexical", search: { weights: { lexical: 1, vector: 0, salience: 0, lateral: 0 }, lambda: 1, duplicate: null } },
  { name: "cache:vector", search: { weights: { lexical: 0, vector: 1, salience: 0, lateral: 0 }, lambda: 1, duplicate: null } },
  { name: "cache:lex+vec", search: { weights: { lexical: 1, vector: 1, salience: 0, lateral: 0 }, lambda: 1, duplicate: null } },
  { name: "cache:all-lambda1", search: { lambda: 1 } },
  { name: "cache:defaults+links", search: {}, links: true },
  { name: "cache:defaults+sleep", search: {}, sleep: true },
].map((c) => ({ links: false, sleep: false, ...c }));

/** A configuration as given on the command line or in a file, checked. */
export function checkConfig(c, where) {
  if (c === null || typeof c !== "object" || Array.isArray(c)) throw new TypeError(`${where}: a config is an object { name, search, links, sleep }`);
  const extra = Object.keys(c).filter((k) => !["name", "search", "links", "sleep"].includes(k));
  if (extra.length) throw new RangeError(`${where}: unknown config field(s) ${extra.join(", ")} (fields: name, search, links, sleep)`);
  if (typeof c.name !== "string" || !c.name) throw new TypeError(`${where}: config.name must be a non-empty string`);
  if (c.search !== undefined && (c.search === null || typeof c.search !== "object" || Array.isArray(c.search)))
    throw new TypeError(`${where}: config ${c.name}: search must be an object of cache.search options`);
  for (const k of ["text", "vector", "limit"]) if (c.search?.[k] !== undefined) throw new RangeError(`${where}: config ${c.name}: search.${k} is set by the harness`);
  for (const k of ["links", "sleep"]) if (c[k] !== undefined && typeof c[k] !== "boolean") throw new TypeError(`${where}: config ${c.name}: ${k} must be true or false`);
  return { name: c.name, search: c.search ?? {}, links: c.links ?? false, sleep: c.sleep ?? false };
}

/**
 * A cache configuration as a system. ctx.caches shares one opened cache per (links, sleep) per corpus;
 * indexMs is that cache's put (+ link, + sleep) time.
 */
export function cacheSystem(config) {
  return {
    name: config.name, group: "cache", config,
    async open(corpus, ctx) {
      const key = `${config.links}/${config.sleep}`;
      if (!ctx.caches.has(key)) ctx.caches.set(key, openCorpusCache(corpus, { links: config.links, sleep: config.sleep, cacheModule: ctx.cacheModule }));
      const { cache, timings, sleepReport, superseded, calibration } = await ctx.caches.get(key);
      const notes = [];
      if (config.links) notes.push(`${corpus.links.length} links`);
      if (sleepReport) notes.push(sleepNote(sleepReport, timings.sleep));
      if (calibration && config.search.calibrated !== false && config.search.weights?.vector === undefined && !config.search.preset)
        notes.push(calibrationNote(calibration, timings.calibrate));
      return {
        indexMs: (timings.put ?? 0) + (timings.link ?? 0) + (timings.sleep ?? 0) + (timings.calibrate ?? 0), note: notes.join("; "),
        // a vector-only configuration finds nothing for a query with no vector (search refuses to run no arm)
        search: async (q) => {
          const vector = cacheVector(q.vector);
          if (vector === null && config.search.weights?.lexical === 0) return [];
          return (await cache.search({ ...config.search, text: q.text, vector, limit: LIMIT })).map((h) => h.path);
        },
        // after sleep, labels on merged-away memories move to their keepers
        mapQuery: superseded?.size ? (q) => followMerges(q, superseded) : null,
        close: async () => {}, // closed by the runner with ctx.caches
      };
    },
  };
}

/** The calibration in a few words: the vector weight it chose and from how many pseudo-queries. */
function calibrationNote(c, ms) {
  if (c.vector === null) return `uncalibrated: ${c.reason}`;
  const lex = c.arms?.lexical?.mrr, vec = c.arms?.vector?.mrr;
  return `calibrated vector ${c.vector} from ${c.queries} pseudo-queries${ms ? ` in ${(ms / 1000).toFixed(1)} s` : ""}` +
    (lex !== undefined ? ` (their MRR: lexical ${lex.toFixed(3)}, vector ${vec.toFixed(3)})` : "");
}

/** The sleep pass in a few words: its time, merges and the edges it made (the report's shape as of issue 14). */
function sleepNote(r, ms) {
  const count = (x) => (Array.isArray(x) ? x.length : typeof x === "number" ? x : null);
  const parts = [`sleep ${(ms / 1000).toFixed(1)} s`];
  const merged = count(r.merges?.merged);
  if (merged !== null) parts.push(`${merged} merged`);
  if (r.edges && typeof r.edges === "object") parts.push(`${(r.edges.similar ?? 0) + (r.edges.nearDuplicate ?? 0)} edges`);
  return parts.join(", ");
}

export const BASELINES = [fts5, minisearch, orama, cosine];

// The oracle for memdomain/cache's search: every arm and the whole search composed by
// hand from the cache's stored data and memdomain's public functions, for both
// compositions ("default" and "memhtml"; js/cache/compose.js says what each does).
// The lexical arm is read from FTS5 on a second connection to the file (better-sqlite3 or
// node:sqlite, whichever this Node loads: cache-backends.js).
import { reader } from "./cache-backends.js";
import * as md from "../../js/index.js";
import { PRESETS, queryTerms } from "../../js/cache/index.js";
import { GIST_WEIGHT, LATERAL_STEPS } from "../../js/cache/compose.js";

export const byPath = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
export const codePoints = (a, b) => { // SQLite's BINARY order of UTF-8 text: code point order
  const x = [...a].map((c) => c.codePointAt(0)), y = [...b].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};
/** cosine as FACTS.md states it: sequential double sums, zero -> 0, NaN -> 0, clamp. */
export function cosine(a, b) {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  if (na === 0 || nb === 0) return 0;
  const s = dot / (Math.sqrt(na) * Math.sqrt(nb));
  return Number.isNaN(s) ? 0 : Math.max(-1, Math.min(1, s));
}
export const snapshot = async (cache) => JSON.stringify([await cache.exportJsonl(), await cache.edges(), await cache.count()]);

/**
 * Ranks for a best-first list: positions (memhtml), or shared by items whose key equals the
 * previous one's; `norm(x)` gives each hit its score in the arm (the default composition).
 */
function ranked(items, shared, same, norm) {
  let rank = 1;
  return items.map((x, i) => {
    if (!shared || i === 0 || !same(items[i - 1], x)) rank = i + 1;
    return norm ? { path: x.path, rank, score: norm(x) } : { path: x.path, rank };
  });
}

/** The default composition's score fusion: each path's weighted sum of its arms' scores, in arm order. */
function scoreFuse(lists, weights) {
  const fused = new Map();
  lists.forEach((hits, a) => {
    if (!(weights[a] > 0)) return;
    for (const h of hits) fused.set(h.path, (fused.get(h.path) ?? 0) + weights[a] * h.score);
  });
  return fused;
}

/** Every arm and the whole search by hand for query `q` (with q.preset, default "default"). */
export async function byHand(cache, file, q) {
  const preset = q.preset ?? "default", P = PRESETS[preset], shared = preset === "default";
  const fusion = shared ? q.fusion ?? P.fusion : "rrf";
  const w = { ...P.weights, ...q.weights };
  const k = q.k ?? P.k, depth = q.depth ?? P.depth, limit = q.limit ?? 10, lambda = q.lambda ?? P.lambda, nSeeds = q.seeds ?? P.seeds;
  const live = (await cache.all()).filter((m) => m.supersededBy === null && m.archivedAt === null);
  const byP = new Map(live.map((m) => [m.path, m]));
  // lexical: every match's bm25 from a second connection, sorted here (bm25 asc, path in SQLite's text order)
  let lexical = [];
  const terms = queryTerms(q.text ?? "");
  if (terms.length && w.lexical > 0) {
    const db = reader.open(file, { readonly: true });
    try {
      // the informative terms: those in fewer than half of the live memories (all of them if none is)
      const df = (t) => db.prepare("SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?").get(`"${t}"`).n;
      const informative = terms.filter((t) => 2 * df(t) < live.length);
      if (!informative.some((t) => df(t) > 0)) informative.splice(0, informative.length, ...terms);
      const match = informative.map((t) => `"${t}"`).join(" OR ");
      // the default composition weighs the gist column GIST_WEIGHT times the body; memhtml's is plain bm25
      const bm25 = shared ? `bm25(memories_fts, ${GIST_WEIGHT}, 1)` : "bm25(memories_fts)";
      const rows = db.prepare(`SELECT m.path AS path, ${bm25} AS s FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid
        WHERE memories_fts MATCH ? AND m.superseded_by IS NULL AND m.archived_at IS NULL`).all(match)
        .sort((a, b) => a.s - b.s || codePoints(a.path, b.path)).slice(0, depth);
      lexical = ranked(rows, shared, (a, b) => a.s === b.s, shared && ((x) => (rows[0].s < 0 ? x.s / rows[0].s : 1)));
    } finally { db.close(); }
  }
  let vector = [];
  if (q.vector && w.vector > 0) {
    const withVec = live.filter((m) => m.embedding);
    const every = withVec.map((m) => ({ path: m.path, s: cosine(q.vector, m.embedding) })).sort((a, b) => b.s - a.s || byPath(a.path, b.path));
    const rows = every.slice(0, depth);
    const allTie = every.length > 0 && every[0].s === every[every.length - 1].s;
    vector = shared && allTie ? [] : ranked(rows, shared, (a, b) => a.s === b.s, shared && ((x) => (1 + x.s) / (1 + rows[0].s)));
  }
  const sig = (p) => { const m = byP.get(p); return [m.accessCount, Math.max(m.outcomeScore ?? 0, 0), m.reinforcementCount]; };
  const sameSig = (a, b) => sig(a.path).every((v, i) => v === sig(b.path)[i]);
  let salience = [];
  if (w.salience > 0) {
    const pool = [...new Set([...lexical, ...vector].map((h) => h.path))].map((path) => ({ path })).sort((a, b) => {
      const x = sig(a.path), y = sig(b.path);
      return y[0] - x[0] || y[1] - x[1] || y[2] - x[2] || byPath(a.path, b.path);
    });
    if (!shared) salience = ranked(pool.slice(0, depth), false);
    else {
      const signal = (x) => sig(x.path).some((v) => v > 0);
      const allTie = pool.length > 0 && pool.every((x) => signal(x) && sameSig(x, pool[0]));
      if (!allTie) {
        const listed = pool.filter(signal).slice(0, depth);
        salience = ranked(listed, true, sameSig).map((h) => ({ ...h, score: (listed.length - h.rank + 1) / listed.length }));
      }
    }
  }
  let lateral = [], seeds = [];
  if (w.lateral > 0 && nSeeds > 0) {
    const three = fusion === "score" ? scoreFuse([lexical, vector, salience], [w.lexical, w.vector, w.salience])
      : md.fuseArms([lexical, vector, salience], [w.lexical, w.vector, w.salience], k);
    seeds = md.rankFused(three).slice(0, nSeeds).filter((s) => s.score > 0);
    if (seeds.length) {
      // the default composition walks the edges link() made; memhtml's every edge (sleep's similarity edges too)
      const edges = (await cache.edges()).filter((e) => !shared || e.origin === "link").map((e) => ({ src: e.src, dst: e.dst, strength: e.strength }));
      const pr = md.pagerank([...byP.keys()], edges, { seeds: new Map(seeds.map((s) => [s.path, s.score])), ...(shared ? { maxIterations: LATERAL_STEPS } : {}) });
      const seedSet = new Set(seeds.map((s) => s.path));
      // the default composition keeps the seeds in the lateral arm; memhtml's leaves them out
      const rows = [...pr].filter(([p, s]) => s > 0 && (shared || !seedSet.has(p))).sort((a, b) => b[1] - a[1] || byPath(a[0], b[0]))
        .slice(0, depth).map(([path, s]) => ({ path, s }));
      const reached = [...pr].some(([p, s]) => s > 0 && !seedSet.has(p)); // a walk that reaches only its seeds says nothing
      lateral = reached ? ranked(rows, shared, (a, b) => a.s === b.s, shared && ((x) => x.s / rows[0].s)) : [];
    }
  }
  const vec = (p) => (byP.get(p).embedding ? Array.from(byP.get(p).embedding) : undefined);
  let fused, picked;
  if (!shared) {
    fused = md.fuseArms([lexical, vector, salience], [w.lexical, w.vector, w.salience], k);
    fused = md.fuseLateral(fused, lateral.map((h) => h.path), w.lateral, k);
    picked = md.applyMmr(md.rankFused(fused).map((r) => ({ ...r, vector: vec(r.path) })), limit, lambda).map((c) => c.path);
  } else {
    const arms4 = [lexical, vector, salience, lateral], w4 = [w.lexical, w.vector, w.salience, w.lateral];
    fused = fusion === "score" ? scoreFuse(arms4, w4) : md.fuseArms(arms4, w4, k);
    const all = md.rankFused(fused);
    const win = Math.min(all.length, Math.max(Math.min(limit, 1000), q.window ?? P.window));
    const duplicate = q.duplicate === undefined ? P.duplicate : q.duplicate;
    const best = win ? all[0].score : 0;
    const cands = all.slice(0, win).map((r) => ({ path: r.path, score: best > 0 ? r.score / best : 0, vector: vec(r.path) }));
    const order = md.applyMmr(cands, duplicate === null ? limit : win, lambda);
    picked = [];
    for (const c of order) {
      if (picked.length === limit) break;
      if (duplicate !== null && c.vector && picked.some((p) => vec(p) && md.cosine(c.vector, vec(p)) > duplicate)) continue;
      picked.push(c.path);
    }
    for (let i = win; picked.length < limit && i < all.length; i++) picked.push(all[i].path);
  }
  const lists = { lexical, vector, salience, lateral };
  return {
    lists: Object.fromEntries(Object.entries(lists).map(([a, l]) => [a, l.map((h) => h.path)])),
    ranks: lists,
    seeds,
    hits: picked.map((path) => ({
      path, score: fused.get(path),
      arms: Object.fromEntries(Object.entries(lists).map(([a, l]) => {
        const h = l.find((x) => x.path === path);
        return [a, !h || !(w[a] > 0) ? null : { rank: h.rank, contribution: fusion === "score" ? w[a] * h.score : md.rrfScore(h.rank, w[a], k) }];
      })),
    })),
  };
}

/** The search's hits equal the oracle's: paths, scores and every arm's rank and contribution, bit for bit. */
export function sameHits(expect, got, want) {
  expect(got.map((h) => h.path)).toEqual(want.map((h) => h.path));
  got.forEach((h, i) => {
    expect(Object.is(h.score, want[i].score)).toBe(true);
    for (const a of ["lexical", "vector", "salience", "lateral"]) {
      if (want[i].arms[a] === null) expect(h.arms[a]).toBeNull();
      else {
        expect(h.arms[a].rank).toBe(want[i].arms[a].rank);
        expect(Object.is(h.arms[a].contribution, want[i].arms[a].contribution)).toBe(true);
      }
    }
  });
}

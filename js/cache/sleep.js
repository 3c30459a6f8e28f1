// memdomain/cache: the sleep pass. One read, everything computed in memory with
// memdomain's public functions, then ONE atomic batch (nothing is written if any
// step throws, and a failure inside the batch rolls it back).
//
// Idempotence: running it twice with the same `now` writes nothing the second
// time. Decay counts whole cycles since each memory's stored watermark
// (decayed_at), and merges run at most once per cycle (md_meta.merge_cycle),
// because MAX_MERGE_PAIRS is a per-cycle budget and the role guard's refusals
// are decided per batch. Eviction too runs at most once per cycle
// (md_meta.evict_cycle), and what a pass that evicts stores (the edges, PageRank,
// communities, bridges, retention) is computed over the survivors alone: exactly
// what the next pass over them computes, so it finds nothing to write (evicting
// changes the graph, so the survivors' scores move; a pass that stored the
// pre-eviction scores, or evicted again within the cycle, would never settle).
import {
  Graph, NEAR_DUPLICATE_THRESHOLD, TRIAGE_ACTIONS,
  decayConfidenceNFp, frameKeysOf, fromFp, isCommittableConfidenceChange, mergeOutcomes, reprieveScore, scoreRetentionMany,
  shouldReprieve, toFp, topNeighborPairsPacked, residentRows, neighborTile,
} from "../index.js";
import { CACHE_OPTIONS, DAY_MS, MAX_PER_SOURCE_K, checkOptions } from "./schema.js";
import { byPath, record, typeError } from "./validate.js";

const SLEEP = CACHE_OPTIONS.sleep;
import { LIVE } from "./records.js";
import { checkPolicy, resolvePolicy, storedPolicy } from "./policy.js";

export { DAY_MS, MAX_PER_SOURCE_K };
/** sleep()'s defaults for the pass's edges and cycle (the schema's). */
export const DEFAULT_SLEEP = Object.freeze({ floor: SLEEP.floor.dflt, perSourceK: SLEEP.perSourceK.dflt, cycleMs: SLEEP.cycleMs.dflt });
/**
 * WebAssembly memory at the peak of the all-pairs pass or of an incremental pass's tile (its copy of
 * the rows, their int16 copies, norms and scales), bytes per embedding element: a pass set up over
 * 1M x 384 rows peaked at 3,151 MiB (8.6; bench/wasm-room.mjs). The same for a build of the resident
 * rows (the float32 rows, their int8 copy, and the copy they crossed in): 3,401 MiB (9.3).
 */
export const PASS_BYTES_PER_ELEMENT = 9;
export const ROWS_BYTES_PER_ELEMENT = 10;

export const STAGES = Object.freeze(["committed", "cap", "threshold", "vetoed", "self", "role-guard"]);

const same = (a, b) => Object.is(a ?? null, b ?? null);

/** sleep()'s options, checked (schema.js, group "sleep"): the pass's settings. */
export function checkSleepOptions(fn, options) {
  const c = checkOptions(fn, "options", options, "sleep", { skip: ["policy"] });
  const pool = options.workers;
  if (pool !== undefined && (pool === null || typeof pool !== "object" || typeof pool.topNeighborPairs !== "function" || !(pool.size >= 1)))
    throw typeError(fn, "options.workers", "a pool from memdomain/workers' createNeighborPool", pool);
  return {
    workers: pool ?? null, now: c.now, floor: c.floor, perSourceK: c.perSourceK, cycleMs: c.cycleMs,
    evict: c.evict, // undefined: the policy's
    policy: options.policy === undefined || options.policy === null ? options.policy : record(fn, "options.policy", options.policy),
    incremental: c.incremental,
    alpha: c.confidence.alpha, confFloor: c.confidence.floor, threshold: c.merge.threshold, maxPairs: c.merge.maxPairs,
    progress: c.onProgress,
  };
}

/** How many neighbours past perSourceK each source's list keeps, so a merge rarely needs a 1 x n pass to refill it. */
const SPARE = 4;

/**
 * Per-source top-k neighbour pairs above the floor over the given memories'
 * embeddings: { pairs, wide }, where `pairs` is topNeighborPairsPacked's answer
 * for perSourceK and `wide` maps each source to its top perSourceK + SPARE (sim
 * desc, dst asc). A source's top k is a prefix of its top k + SPARE (its list is
 * a strict top-k over a total order), so `pairs` is the wide answer with each
 * source's first perSourceK kept, in the same global order.
 */
export function neighbours(mems, dim, floor, perSourceK) {
  const p = packedInput(mems, floor, perSourceK);
  return p.keys.length < 2 ? emptyNeighbours(perSourceK) : groupPairs(topNeighborPairsPacked(p.rows, p.keys, p.options), perSourceK);
}

/** neighbours() with the pairs computed split over a memdomain/workers pool (the same answer). */
async function neighboursOn(pool, mems, dim, floor, perSourceK) {
  const p = packedInput(mems, floor, perSourceK);
  return p.keys.length < 2 ? emptyNeighbours(perSourceK) : groupPairs(await pool.topNeighborPairs(packed(p.rows, dim), p.keys, p.options), perSourceK);
}

const emptyNeighbours = (perSourceK) => ({ pairs: [], wide: new Map(), wideK: perSourceK + SPARE, partial: new Set() });

/**
 * The packed pass's input over the memories with embeddings, in the given order: their rows (the resident
 * vectors, which the glue copies straight into WebAssembly memory), paths, and the wide lists' k.
 */
function packedInput(mems, floor, perSourceK) {
  const withVec = mems.filter((m) => m.vec);
  const wideK = perSourceK + SPARE;
  return { rows: withVec.map((m) => m.vec), keys: withVec.map((m) => m.path), options: { floor, perSourceK: wideK, limit: withVec.length * wideK } };
}

/** The rows as one n x dim Float32Array (what a workers pool takes). */
function packed(rows, dim) {
  const matrix = new Float32Array(rows.length * dim);
  rows.forEach((v, i) => matrix.set(v, i * dim));
  return matrix;
}

/** The packed pass's answer (pairs in its order, each source's top wideK) as { pairs, wide, wideK, partial }. */
function groupPairs(all, perSourceK) {
  const wideK = perSourceK + SPARE;
  const wide = new Map();
  const pairs = [];
  for (const p of all) {
    let list = wide.get(p.src);
    if (!list) wide.set(p.src, (list = []));
    list.push(p);
    if (list.length <= perSourceK) pairs.push(p);
  }
  const partial = new Set();
  for (const [src, list] of wide) if (list.length >= wideK) partial.add(src);
  return { pairs, wide, wideK, partial };
}

/**
 * The survivors' neighbour pairs after merges dropped some memories, exactly as
 * topNeighborPairsPacked over the survivors would give them: a source whose list
 * held no dropped path keeps it (removing non-members does not change a top-k); a
 * source whose list held one takes the first perSourceK survivors of its wide list
 * when that many are left there (or the wide list held every neighbour above the
 * floor: the source is not in `partial`), else gets its list again from the 1 x n arm
 * (topCosineRows over resident rows in path order: sim desc, then dst asc, the same
 * bits). stats.lists: the rescanned sources' new wide lists, { list, partial }.
 */
export function repairNeighbours({ pairs, wide, wideK, partial }, live, dropped, dim, floor, perSourceK, stats = {}) {
  const affected = new Set(pairs.filter((p) => dropped.has(p.dst) && !dropped.has(p.src)).map((p) => p.src));
  const kept = pairs.filter((p) => !dropped.has(p.src) && !affected.has(p.src));
  for (const src of affected) {
    const list = wide.get(src);
    const left = list.filter((p) => !dropped.has(p.dst));
    if (left.length >= perSourceK || !partial.has(src)) {
      for (const p of left.slice(0, perSourceK)) kept.push(p);
      affected.delete(src);
      stats.refilled = (stats.refilled ?? 0) + 1;
    }
  }
  stats.rescanned = affected.size;
  stats.lists = new Map();
  if (affected.size) {
    for (const [src, entry] of rescan(live, affected, dim, floor, wideK)) {
      stats.lists.set(src, entry);
      for (const p of entry.list.slice(0, perSourceK)) kept.push(p);
    }
  }
  return kept.sort((a, b) => b.sim - a.sim || byPath(a.src, b.src) || byPath(a.dst, b.dst));
}

/**
 * The wide lists of the `sources` (paths) again from the 1 x n arm over every live memory with
 * an embedding: Map src -> { list (top k above the floor, sim desc then dst asc), partial (k
 * reached: more may lie above the floor) }.
 */
function rescan(live, sources, dim, floor, k) {
  const out = new Map();
  const withVec = live.filter((m) => m.vec);
  if (withVec.length < 2) {
    for (const m of withVec) if (sources.has(m.path)) out.set(m.path, { list: [], partial: false });
    return out;
  }
  const rows = residentRows(withVec.map((m) => m.vec), dim); // no packed copy in JavaScript
  try {
    for (const [i, m] of withVec.entries()) {
      if (!sources.has(m.path)) continue;
      const { indices, sims } = rows.topCosineRows(m.vec, k + 1);
      const list = [];
      for (let j = 0; j < indices.length && list.length < k; j++) {
        if (indices[j] === i) continue;
        if (!(sims[j] >= floor)) break; // sim desc: the rest lie below too
        list.push({ src: m.path, dst: withVec[indices[j]].path, sim: sims[j] });
      }
      out.set(m.path, { list, partial: list.length >= k });
    }
  } finally {
    rows.free();
  }
  return out;
}

/** An incremental pass's tile goes to a workers pool when the changed memories are at least 1 / this of all. */
const POOL_TILE_FRACTION = 8;

const pairOrder = (a, b) => b.sim - a.sim || byPath(a.dst, b.dst);

/**
 * The incremental form of neighbours(): the same { pairs, wide, wideK, partial } (the same pairs
 * bit for bit; a wide list may be a shorter exact prefix, marked partial) from the lists the last
 * pass stored (`state`: Map src -> { list, partial }, exact over the memories with embeddings then)
 * and the paths changed since (`changed`). Changed or new memories get their lists from one tile
 * of the packed pass with them as the first rows (every pair holding one of them, the same
 * pruned kernel and bits as the full pass); every other source keeps its stored list less the
 * removed or changed memories, merged with its pairs to the changed ones from that tile, exact
 * up to the last entry it can vouch for; a source left with fewer than perSourceK known entries
 * (and possibly more above the floor) is rescanned (1 x n). stats: { recomputed, rescanned }.
 */
export async function incrementalNeighbours(mems, state, changed, dim, floor, perSourceK, stats = {}, pool = null) {
  const wideK = perSourceK + SPARE;
  const withVec = mems.filter((m) => m.vec);
  const livePaths = new Set(withVec.map((m) => m.path));
  const added = withVec.filter((m) => changed.has(m.path) || !state.has(m.path));
  const addedSet = new Set(added.map((m) => m.path));
  // one tile: the added rows first, every pair (i, j > i) with i among them (on the pool: in tiles, merged)
  const tileLists = new Map();
  if (added.length && withVec.length > 1) {
    const order = added.concat(withVec.filter((m) => !addedSet.has(m.path)));
    const { rows, keys, options } = packedInput(order, floor, perSourceK);
    const push = (src, dst, sim) => {
      let list = tileLists.get(src);
      if (!list) tileLists.set(src, (list = []));
      list.push({ src, dst, sim });
    };
    // on the pool only when the tile is a large part of the pass: each worker sets up every row (its copy, norms),
    // which for a small tile costs more than the tile (at 100k, 1% changed: 6.5 s on 2 workers against 5.5 s here)
    if (pool && added.length * POOL_TILE_FRACTION >= order.length) {
      for (const p of await pool.topNeighborPairs(packed(rows, dim), keys, options, { rows: added.length })) push(p.src, p.dst, p.sim);
    } else {
      const t = neighborTile(rows, keys, 0, added.length, options);
      for (let i = 0; i < t.sim.length; i++) push(keys[t.src[i]], keys[t.dst[i]], t.sim[i]);
    }
    for (const list of tileLists.values()) list.sort(pairOrder);
  }
  const wide = new Map(), partial = new Set(), short = new Set();
  for (const m of withVec) {
    const src = m.path;
    const fromTile = tileLists.get(src) ?? [];
    if (addedSet.has(src)) { // every pair it is in was in the tile
      wide.set(src, fromTile);
      if (fromTile.length >= wideK) partial.add(src);
      continue;
    }
    const stored = state.get(src);
    if (!fromTile.length && stored.list.length <= wideK &&
      stored.list.every((p, i) => livePaths.has(p.dst) && !addedSet.has(p.dst) && (i === 0 || pairOrder(stored.list[i - 1], p) < 0))) {
      // nothing gone, nothing new, in pairOrder: the stored list as it is
      if (stored.list.length < perSourceK && stored.partial) short.add(src);
      wide.set(src, stored.list);
      if (stored.partial) partial.add(src);
      continue;
    }
    const kept = stored.list.filter((p) => livePaths.has(p.dst) && !addedSet.has(p.dst)); // removed or changed: gone
    const merged = kept.concat(fromTile).sort(pairOrder);
    // exact up to the last kept entry when more may lie past it, and up to the tile's last when it was full
    let cut = merged.length;
    if (stored.partial) cut = kept.length ? merged.indexOf(kept[kept.length - 1]) + 1 : 0;
    if (fromTile.length >= wideK) cut = Math.min(cut, merged.indexOf(fromTile[fromTile.length - 1]) + 1);
    let isPartial = stored.partial || fromTile.length >= wideK;
    let list = merged.slice(0, cut);
    if (list.length > wideK) {
      list = list.slice(0, wideK);
      isPartial = true;
    }
    if (list.length < perSourceK && isPartial) short.add(src);
    wide.set(src, list);
    if (isPartial) partial.add(src);
  }
  stats.recomputed = added.length;
  stats.rescanned = short.size;
  if (short.size) {
    for (const [src, entry] of rescan(withVec, short, dim, floor, wideK)) {
      wide.set(src, entry.list);
      if (entry.partial) partial.add(src);
      else partial.delete(src);
    }
  }
  const pairs = [];
  for (const list of wide.values()) for (let i = 0; i < list.length && i < perSourceK; i++) pairs.push(list[i]);
  pairs.sort((a, b) => b.sim - a.sim || byPath(a.src, b.src) || byPath(a.dst, b.dst));
  return { pairs, wide, wideK, partial };
}

/**
 * Stored lists (md_neighbors rows) as a Map src -> { list, partial }, or null when a row is not one a pass wrote
 * (the pass then computes every pair: "unreadable").
 */
function readState(rows) {
  const state = new Map();
  for (const r of rows) {
    let dsts;
    try {
      dsts = typeof r.dsts === "string" ? JSON.parse(r.dsts) : null;
    } catch {
      return null;
    }
    if (!Array.isArray(dsts) || !dsts.every((d) => typeof d === "string") || typeof r.src !== "string") return null;
    const bytes = r.sims instanceof Uint8Array ? r.sims : new Uint8Array(0);
    if (bytes.byteLength !== 8 * dsts.length) return null;
    const sims = bytes.byteOffset % 8 === 0 ? new Float64Array(bytes.buffer, bytes.byteOffset, dsts.length)
      : new Float64Array(bytes.slice().buffer);
    const list = new Array(dsts.length);
    for (let i = 0; i < dsts.length; i++) {
      const sim = sims[i];
      if (!Number.isFinite(sim)) return null;
      list[i] = { src: r.src, dst: dsts[i], sim };
    }
    state.set(r.src, { list, partial: r.partial !== 0 });
  }
  return state;
}

/** Whether two lists hold the same pairs (dst, and sim bit for bit: what md_neighbors stores of them). */
const sameList = (a, b) => a.length === b.length && a.every((p, i) => p.dst === b[i].dst && Object.is(p.sim, b[i].sim));

/**
 * The neighbour lists a cache keeps in memory after a pass that wrote (or kept) them, so its next pass need not
 * read and parse md_neighbors again: { gen, params, state }, valid while md_meta.neighbors_gen is `gen` and
 * neighbors_params `params` (a pass that writes the lists sets both; Resident.load() drops them). Kept up to
 * this many lists (about 0.5 KB each in the heap: 50 MB at 100k).
 */
export const KEEP_LISTS_MAX = 250_000;

const wordCount = (body) => {
  const t = body.trim();
  return t ? t.split(/\s+/).length : 0;
};

/**
 * The pass. `write(statements, { removed, edges })` commits the batch and brings the
 * cache's memory in line with it (removed: [{ path, id }] superseded or evicted; edges:
 * every edge after the batch, or null when unchanged); progress reports "write" done
 * only after it returned. Resolves the report.
 */
export async function runSleep(db, resident, fn, options, { limits, write, hits = new Map() }) {
  const o = checkSleepOptions(fn, options);
  const T = {};
  let t = performance.now();
  const t0 = t;
  const lap = (name) => { const n = performance.now(); T[name] = n - t; t = n; };
  const progress = (phase, done, total) => o.progress({ phase, done, total });

  progress("read", 0, 1);
  // the embeddings are the resident copy (the operation resynced it with the database; the batch's
  // generation guard refuses the write if anything committed since): 4 n d bytes not read again
  const rows = await db.all(`SELECT id, path, type, gist, body, created_at, accessed_at, access_count, confidence, outcome_score,
    reinforcement_count, contradiction_count, decayed_at, seen_at, hit_count, hit_at, importance, reprieve_count, valid_until,
    pagerank, community, bridge_count, retention_score, band FROM memories WHERE ${LIVE}`);
  const storedEdges = await db.all("SELECT src, dst, type, strength, origin FROM edges");
  const meta = Object.fromEntries((await db.all("SELECT key, value FROM md_meta")).map((r) => [r.key, r.value]));
  // the policy: the one given (over the stored one, and then stored), else the stored one, else the defaults
  const base = storedPolicy(fn, meta.policy);
  const policy = o.policy === undefined ? resolvePolicy(fn, "the stored policy", base)
    : o.policy === null ? resolvePolicy(fn, "options.policy", {}) : checkPolicy(fn, "options.policy", o.policy, base);
  o.evict = o.evict ?? policy.evict;
  o.policy = policy;
  // search hits not yet counted (the cache's, since its last pass): access for the scorer and the reprieve gate
  for (const r of rows) {
    const h = hits.get(r.path);
    r.hits = r.hit_count + (h ? h.n : 0);
    r.lastUse = Math.max(r.accessed_at ?? -Infinity, r.hit_at ?? -Infinity, h ? h.at : -Infinity);
  }
  const dim = resident.dim;
  for (const r of rows) r.vec = resident.vecs.get(r.path) ?? null;
  let live = rows.slice().sort((a, b) => byPath(a.path, b.path));
  const withVec = live.reduce((n, m) => n + (m.vec ? 1 : 0), 0);
  if (withVec * o.perSourceK > limits.sleepEdges) {
    throw new RangeError(`${fn}: options.perSourceK ${o.perSourceK} over ${withVec} memories with embeddings allows ${withVec * o.perSourceK} ` +
      `edges, more than limits.sleepEdges (${limits.sleepEdges}); lower perSourceK or raise the limit`);
  }
  lap("read");

  // the pass's WebAssembly memory beside the search's resident rows (at 1M x 384 the two need about 6.3 GiB
  // of wasm32's 4): past limits.sleepRoom the rows go first, and the next search builds them again
  if (withVec * (dim ?? 0) * (PASS_BYTES_PER_ELEMENT + ROWS_BYTES_PER_ELEMENT) > limits.sleepRoom) resident.releaseRows();

  // 1. neighbour pairs over every live memory with an embedding: from the stored lists and what changed since
  // the pass that stored them when the log reaches back to it (md_log, md_meta.log_since) and the options
  // match, else over every pair
  progress("neighbors", 0, live.length);
  const params = JSON.stringify({ floor: o.floor, perSourceK: o.perSourceK, dim });
  // the lists as the last pass left them: kept in memory by this cache if it wrote them last, else read
  const kept = resident.neighborLists;
  const state = kept && meta.neighbors_gen !== undefined && kept.gen === Number(meta.neighbors_gen) && kept.params === meta.neighbors_params
    ? kept.state : readState(await db.all("SELECT src, partial, dsts, sims FROM md_neighbors"));
  const since = meta.neighbors_gen === undefined ? null : Number(meta.neighbors_gen);
  let why = !o.incremental ? "option" : state === null ? "unreadable" : since === null ? "none" : meta.neighbors_params !== params ? "options"
    : Number(meta.log_since ?? -1) > since ? "log" : null;
  let changed = null;
  if (why === null) {
    changed = new Set((await db.all("SELECT DISTINCT path FROM md_log WHERE gen > ?", [since])).map((r) => r.path));
    let n = 0, nAdded = 0;
    for (const m of live) {
      if (!m.vec) continue;
      n++;
      if (changed.has(m.path) || !state.has(m.path)) nAdded++;
    }
    if (nAdded * 2 > n) why = "changed";
  }
  const nstats = {};
  const found = why === null ? await incrementalNeighbours(live, state, changed, dim, o.floor, o.perSourceK, nstats, o.workers)
    : o.workers ? await neighboursOn(o.workers, live, dim, o.floor, o.perSourceK) : neighbours(live, dim, o.floor, o.perSourceK);
  const neighborsReport = why === null ? { incremental: true, recomputed: nstats.recomputed, rescanned: nstats.rescanned }
    : { incremental: false, recomputed: withVec, reason: why };
  let pairs = found.pairs;
  lap("neighbors");

  // 2a. contradictions: neighbours whose claims share a frame key with different values (frameKeyOf:
  // "the capital of brazil is" + "brasilia" against "rio de janeiro") are not duplicates: the newer
  // supersedes the older, both stay stored, and a "contradicts" edge says why; never merged
  const dropped = new Set();
  const conflicts = contradictions(live, pairs);
  let repaired = {};
  if (conflicts.length) {
    for (const c of conflicts) dropped.add(c.older);
    live = live.filter((m) => !dropped.has(m.path));
    pairs = repairNeighbours(found, live, dropped, dim, o.floor, o.perSourceK, repaired);
  }

  // 2b. near-duplicate merges, at most once per cycle
  const cycle = Math.floor(o.now / o.cycleMs);
  const mergeRan = meta.merge_cycle === undefined || cycle > Number(meta.merge_cycle);
  const stages = Object.fromEntries(STAGES.map((s) => [s, 0]));
  const merged = [];
  if (mergeRan) {
    progress("merge", 0, pairs.length);
    const byPathRow = new Map(live.map((m) => [m.path, m]));
    const seen = new Set();
    const candidates = [];
    for (const p of pairs) {
      if (!(p.sim > o.threshold)) continue; // mergeOutcomes' own strict test: a pair refused here could not commit
      const key = p.src < p.dst ? `${p.src}\u0000${p.dst}` : `${p.dst}\u0000${p.src}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const a = byPathRow.get(p.src), b = byPathRow.get(p.dst);
      const aKeeps = a.created_at < b.created_at || (a.created_at === b.created_at && byPath(a.path, b.path) < 0);
      const [keep, drop] = aKeeps ? [a, b] : [b, a];
      candidates.push({ keepPath: keep.path, dropPath: drop.path, similarity: p.sim,
        keepText: { gist: keep.gist, body: keep.body }, dropText: { gist: drop.gist, body: drop.body } });
    }
    for (const { pair, stage } of mergeOutcomes(candidates, { maxPairs: o.maxPairs, threshold: o.threshold })) {
      stages[stage]++;
      if (stage === "committed") merged.push({ keepPath: pair.keepPath, dropPath: pair.dropPath, similarity: pair.similarity });
    }
    if (merged.length) {
      for (const m of merged) dropped.add(m.dropPath);
      live = live.filter((m) => !dropped.has(m.path));
      pairs = repairNeighbours(found, live, dropped, dim, o.floor, o.perSourceK, repaired); // the survivors' own neighbourhoods
    }
  }
  lap("merge");

  // 3-5. edges, graph, decay and retention over the live memories
  let d = derive(o, live, pairs, storedEdges, progress, lap);
  const decision = d; // the bands and the evict band the pass reports (and evicts)

  // 6. eviction, at most once per cycle, as archiving: of the evict band, the memories in the cache at least
  // minAgeDays (since the first pass saw them) whose reprieve has run out (validUntil) go through the design's
  // reprieve gate; those it keeps stay policy.reprieve.days more, the rest are archived (kept, restorable, out of
  // every arm). Then everything stored is derived again over the survivors alone.
  const evictRan = o.evict && (meta.evict_cycle === undefined || cycle > Number(meta.evict_cycle));
  const evictSet = new Set(), reprieved = [];
  if (evictRan) {
    const R = policy.reprieve, byPathRow = new Map(live.map((m, i) => [m.path, [m, decision.scored.score[i]]]));
    for (const p of decision.evictBand) {
      const [m, retention] = byPathRow.get(p);
      if (policy.archiveBelow !== null && !(retention <= policy.archiveBelow)) continue;
      const inCache = m.seen_at === null ? 0 : o.now - m.seen_at;
      if (inCache < policy.minAgeDays * DAY_MS || (m.valid_until !== null && m.valid_until > o.now)) continue;
      const used = Number.isFinite(m.lastUse) ? m.lastUse : m.created_at;
      const score = reprieveScore({ importance: m.importance ?? R.importance, accessCount: m.access_count + m.hits,
        outcomeScore: m.outcome_score ?? 0, hoursSinceAccess: Math.max(0, (o.now - used) / 3_600_000), decayRate: R.decayRate });
      if (shouldReprieve({ score, reprieveCount: m.reprieve_count, floor: R.floor, maxReprieves: R.maxReprieves })) {
        reprieved.push({ path: p, id: m.id, count: m.reprieve_count + 1, until: o.now + R.days * DAY_MS, score });
      } else evictSet.add(p);
    }
  }
  if (evictSet.size) {
    progress("evict", 0, evictSet.size);
    for (const p of evictSet) dropped.add(p);
    live = live.filter((m) => !evictSet.has(m.path));
    repaired = {};
    pairs = repairNeighbours(found, live, dropped, dim, o.floor, o.perSourceK, repaired);
    d = derive(o, live, pairs, storedEdges.filter((e) => !evictSet.has(e.src) && !evictSet.has(e.dst)), () => {}, () => {});
  }
  lap("evict");

  // 7. one atomic batch, holding only what changed
  progress("write", 0, 1);
  const st = [];
  let memoryRows = 0;
  live.forEach((m, i) => {
    const next = [d.rank[i], d.communities.get(m.path) ?? null, d.bridges.get(m.path), d.scored.score[i], TRIAGE_ACTIONS[d.scored.action[i]],
      d.conf[i], d.decayedAt[i], m.seen_at ?? o.now];
    const prev = [m.pagerank, m.community, m.bridge_count, m.retention_score, m.band, m.confidence, m.decayed_at, m.seen_at];
    if (next.every((v, k) => same(v, prev[k]))) return;
    memoryRows++;
    st.push({ sql: `UPDATE memories SET pagerank = ?, community = ?, bridge_count = ?, retention_score = ?, band = ?,
      confidence = ?, decayed_at = ?, seen_at = ? WHERE id = ?`, params: [...next, m.id] });
  });
  for (const r of reprieved) {
    st.push({ sql: "UPDATE memories SET reprieve_count = ?, valid_until = ? WHERE id = ?", params: [r.count, r.until, r.id] });
  }
  // the edges table after the batch, statement by statement (INSERT OR REPLACE on (src, dst, type)), for the cache's memory
  const edgeKey = (e) => `${e.src}\u0000${e.dst}\u0000${e.type}`;
  const after = new Map(storedEdges.map((e) => [edgeKey(e), e]));
  const idOf = new Map(rows.map((r) => [r.path, r.id]));
  for (const c of conflicts) {
    st.push({ sql: "UPDATE memories SET superseded_by = ? WHERE path = ?", params: [c.newer, c.older] });
    st.push({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [idOf.get(c.older)] });
    st.push({ sql: "INSERT OR REPLACE INTO edges (src, dst, type, strength, origin) VALUES (?, ?, 'contradicts', 1, 'conflict')",
      params: [c.newer, c.older] });
    const e = { src: c.newer, dst: c.older, type: "contradicts", strength: 1, origin: "conflict" };
    after.set(edgeKey(e), e);
  }
  for (const m of merged) {
    const strength = Math.min(1, Math.max(0, m.similarity));
    st.push({ sql: "UPDATE memories SET superseded_by = ? WHERE path = ?", params: [m.keepPath, m.dropPath] });
    st.push({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [idOf.get(m.dropPath)] }); // the index holds live memories only
    st.push({ sql: "INSERT OR REPLACE INTO edges (src, dst, type, strength, origin) VALUES (?, ?, 'supersedes', ?, 'merge')",
      params: [m.keepPath, m.dropPath, strength] });
    const e = { src: m.keepPath, dst: m.dropPath, type: "supersedes", strength, origin: "merge" };
    after.set(edgeKey(e), e);
  }
  // the sleep edges as a diff against the stored ones: delete those no longer wanted, insert (or replace) the
  // new and the changed; the table ends as deleting them all and inserting every wanted one would leave it
  const storedSleep = new Map(storedEdges.filter((e) => e.origin === "sleep" && !evictSet.has(e.src) && !evictSet.has(e.dst))
    .map((e) => [edgeKey(e), e]));
  const wanted = d.sleepEdges.filter((e) => !evictSet.has(e.src) && !evictSet.has(e.dst));
  const wantedKeys = new Set(wanted.map(edgeKey));
  const gone = [...storedSleep.keys()].filter((k) => !wantedKeys.has(k));
  const fresh = wanted.filter((e) => { const s = storedSleep.get(edgeKey(e)); return !s || !Object.is(s.strength, e.strength); });
  const edgesChanged = gone.length > 0 || fresh.length > 0;
  if (edgesChanged) {
    for (const k of gone) {
      const e = storedSleep.get(k);
      st.push({ sql: "DELETE FROM edges WHERE src = ? AND dst = ? AND type = ?", params: [e.src, e.dst, e.type] });
    }
    for (const e of fresh) {
      st.push({ sql: "INSERT OR REPLACE INTO edges (src, dst, type, strength, origin) VALUES (?, ?, ?, ?, 'sleep')",
        params: [e.src, e.dst, e.type, e.strength] });
    }
    for (const [k, e] of after) if (e.origin === "sleep") after.delete(k);
    for (const e of wanted) after.set(edgeKey(e), { ...e, origin: "sleep" });
  }
  if (evictSet.size) { // archived: out of the index and every arm, their own edges kept for a restore (the graph skips them)
    const json = JSON.stringify([...evictSet]);
    for (const p of evictSet) st.push({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [idOf.get(p)] });
    st.push({ sql: "UPDATE memories SET archived_at = ?, archive_reason = 'evict' WHERE path IN (SELECT value FROM json_each(?))",
      params: [o.now, json] });
    // their similarity edges are derived: a pass over the survivors would not have them (a restore's next pass finds them again)
    st.push({ sql: `DELETE FROM edges WHERE origin = 'sleep' AND (src IN (SELECT value FROM json_each(?)) OR dst IN (SELECT value FROM json_each(?)))`,
      params: [json, json] });
    for (const [k, e] of after) if (e.origin === "sleep" && (evictSet.has(e.src) || evictSet.has(e.dst))) after.delete(k);
  }
  // archived memories past the policy's purgeAfterDays are deleted, with their edges
  let purged = 0;
  if (policy.purgeAfterDays !== null) {
    const old = (await db.all("SELECT path FROM memories WHERE archived_at IS NOT NULL AND archived_at <= ?",
      [o.now - policy.purgeAfterDays * DAY_MS])).map((r) => r.path);
    if (old.length) {
      purged = old.length;
      const json = JSON.stringify(old), gone = new Set(old);
      st.push({ sql: "DELETE FROM memories WHERE path IN (SELECT value FROM json_each(?))", params: [json] });
      st.push({ sql: "DELETE FROM edges WHERE src IN (SELECT value FROM json_each(?)) OR dst IN (SELECT value FROM json_each(?))", params: [json, json] });
      for (const [k, e] of after) if (gone.has(e.src) || gone.has(e.dst)) after.delete(k);
    }
  }
  // search hits counted since the last pass
  for (const [p, h] of hits) {
    if (!idOf.has(p)) continue;
    st.push({ sql: "UPDATE memories SET hit_count = hit_count + ?, hit_at = max(coalesce(hit_at, ?), ?) WHERE id = ?", params: [h.n, h.at, h.at, idOf.get(p)] });
  }
  if (options.policy !== undefined && JSON.stringify(policy.stored) !== JSON.stringify(base)) { // sleep({ policy }): stored with the cache
    st.push(options.policy === null ? { sql: "DELETE FROM md_meta WHERE key = 'policy'" }
      : { sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('policy', ?)", params: [JSON.stringify(policy.stored)] });
  }
  if (mergeRan) st.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('merge_cycle', ?)", params: [String(cycle)] });
  if (evictRan) st.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('evict_cycle', ?)", params: [String(cycle)] });
  const statements = st.length;
  let keptLists = null;
  // the neighbour lists over the memories left, with the pass's generation (md_neighbors: only the rows that changed)
  if (st.length || meta.neighbors_params !== params || why === null) {
    const lists = new Map();
    for (const m of live) {
      if (!m.vec) continue;
      const again = repaired.lists?.get(m.path);
      if (again) lists.set(m.path, again);
      else {
        const list = found.wide.get(m.path) ?? [];
        lists.set(m.path, { list: list.some((p) => dropped.has(p.dst)) ? list.filter((p) => !dropped.has(p.dst)) : list, partial: found.partial.has(m.path) });
      }
    }
    const stateSt = [];
    for (const [src, { list, partial: isPartial }] of lists) {
      const prev = state?.get(src);
      if (prev && prev.list === list && prev.partial === isPartial) continue; // the stored list itself (incremental): unchanged
      if (prev && prev.partial === isPartial && sameList(prev.list, list)) continue;
      stateSt.push({ sql: "INSERT OR REPLACE INTO md_neighbors (src, partial, dsts, sims) VALUES (?, ?, ?, ?)",
        params: [src, isPartial ? 1 : 0, JSON.stringify(list.map((p) => p.dst)), new Uint8Array(Float64Array.from(list, (p) => p.sim).buffer)] });
    }
    const stale = state ? [...state.keys()].filter((src) => !lists.has(src)) : [];
    if (state === null) stateSt.unshift({ sql: "DELETE FROM md_neighbors" });
    else if (stale.length) stateSt.push({ sql: "DELETE FROM md_neighbors WHERE src IN (SELECT value FROM json_each(?))", params: [JSON.stringify(stale)] });
    const keep = lists.size <= KEEP_LISTS_MAX;
    if (st.length || stateSt.length) { // nothing else to write and the same lists: the pass writes nothing (idempotence)
      for (const s of stateSt) st.push(s); // one row per memory: a spread of 1M arguments overflows the stack
      st.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) SELECT 'neighbors_gen', value FROM md_meta WHERE key = 'generation'" });
      if (meta.neighbors_params !== params) st.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('neighbors_params', ?)", params: [params] });
      // the table now holds `lists` (the rows not written were equal), at the batch's generation (write() keeps them)
      keptLists = keep ? { params, state: lists } : null;
    } else if (since !== null && meta.neighbors_params === params) {
      resident.neighborLists = keep ? { gen: since, params, state: lists } : null; // the stored lists, as they are
    }
  }
  const removed = [...new Set([...conflicts.map((c) => c.older), ...merged.map((m) => m.dropPath), ...evictSet])].map((path) => ({ path, id: idOf.get(path) }));
  if (st.length && !keptLists) resident.neighborLists = null; // the lists written but not kept (or not written): read next time
  await write(st, { removed, edges: merged.length || edgesChanged || evictSet.size ? [...after.values()] : null, lists: keptLists });
  lap("write");
  progress("write", 1, 1); // after the cache's memory follows the commit: a throw here leaves it consistent

  const sizes = new Map();
  for (const c of d.communities.values()) if (c !== undefined) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  let largest = 0, members = 0;
  for (const s of sizes.values()) {
    members += s;
    if (s > largest) largest = s;
  }
  T.total = performance.now() - t0;
  return {
    now: o.now,
    memories: rows.length,
    bands: decision.bands,
    evict: decision.evictBand,
    evicted: evictSet.size,
    archived: [...evictSet],
    reprieved: reprieved.map((r) => ({ path: r.path, reprieveCount: r.count, validUntil: r.until, score: r.score })),
    purged,
    conflicts,
    policy: { ...policy.scoring, evict: o.evict, minAgeDays: policy.minAgeDays, archiveBelow: policy.archiveBelow, reprieve: policy.reprieve,
      purgeAfterDays: policy.purgeAfterDays },
    merges: { ran: mergeRan, cycle, stages, merged },
    edges: {
      similar: d.sleepEdges.filter((e) => e.type === "similar").length,
      nearDuplicate: d.sleepEdges.filter((e) => e.type === "near-duplicate").length,
      links: d.graphEdges.length - d.sleepEdges.length,
    },
    communities: { count: sizes.size, largest, members },
    neighbors: neighborsReport,
    confidence: { decayed: d.decayed },
    written: { memories: memoryRows, edges: edgesChanged ? wanted.length : 0, statements },
    timings: T,
  };
}

/**
 * Neighbour pairs (above the floor) whose gists share a frame key with different values: [{ newer,
 * older, frameKey }], the newer (createdAt, then path) superseding the older; a memory superseded
 * once is not a party again (in newest-first order), so a chain of claims keeps the newest.
 */
export function contradictions(live, pairs) {
  if (!pairs.length) return [];
  const inPairs = [...new Set(pairs.flatMap((p) => [p.src, p.dst]))];
  const byPathRow = new Map(live.map((m) => [m.path, m]));
  const keys = frameKeysOf(inPairs.map((p) => byPathRow.get(p).gist));
  const keyOf = new Map(inPairs.map((p, i) => [p, keys[i]]));
  const norm = (s) => s.toLowerCase().replace(/\s+/g, " ").trim();
  const found = [];
  const seen = new Set();
  for (const p of pairs) {
    const k = keyOf.get(p.src);
    if (k === null || k === undefined || k !== keyOf.get(p.dst)) continue;
    const a = byPathRow.get(p.src), b = byPathRow.get(p.dst);
    if (norm(a.gist) === norm(b.gist)) continue; // the same claim: a duplicate, for the merges
    const aNewer = a.created_at > b.created_at || (a.created_at === b.created_at && byPath(a.path, b.path) > 0);
    const [newer, older] = aNewer ? [a.path, b.path] : [b.path, a.path];
    const id = `${newer}\u0000${older}`;
    if (seen.has(id)) continue;
    seen.add(id);
    found.push({ newer, older, frameKey: k, created: Math.max(a.created_at, b.created_at) });
  }
  // newest claims first: each older memory is superseded once, by the newest that contradicts it, and a
  // memory already superseded does not supersede another
  found.sort((x, y) => y.created - x.created || byPath(x.newer, y.newer) || byPath(x.older, y.older));
  const gone = new Set(), out = [];
  for (const c of found) {
    if (gone.has(c.older) || gone.has(c.newer)) continue;
    gone.add(c.older);
    out.push({ newer: c.newer, older: c.older, frameKey: c.frameKey });
  }
  return out;
}

/**
 * Steps 3 to 5 over `live` (path order) and its neighbour pairs: typed edges, the graph over
 * the links and those edges (PageRank, communities, bridges), confidence decay by whole
 * cycles, retention scores and bands.
 */
function derive(o, live, pairs, storedEdges, progress, lap) {
  // 3. typed edges from the neighbour pairs, and the graph over links + those edges
  progress("graph", 0, live.length);
  const sleepEdges = pairs.map((p) => ({ src: p.src, dst: p.dst, type: p.sim > NEAR_DUPLICATE_THRESHOLD ? "near-duplicate" : "similar",
    strength: Math.min(1, Math.max(0, p.sim)) }));
  const graphEdges = storedEdges.filter((e) => e.origin === "link").map((e) => ({ src: e.src, dst: e.dst, strength: e.strength }))
    .concat(sleepEdges.map((e) => ({ src: e.src, dst: e.dst, strength: e.strength })));
  const paths = live.map((m) => m.path);
  const g = new Graph(paths, graphEdges);
  let rank, communities, bridges;
  try {
    rank = g.pagerankScores(); // in g.nodes order, which is `paths` (both JavaScript string order)
    communities = g.labelPropagation();
    bridges = g.bridgeCounts(communities);
  } finally {
    g.free();
  }
  let maxRank = 0;
  for (const r of rank) if (r > maxRank) maxRank = r;
  lap("graph");

  // 4. confidence decay on the fixed-point grid, whole cycles since each memory's watermark
  progress("decay", 0, live.length);
  const alphaFp = toFp(o.alpha), floorFp = toFp(o.confFloor);
  let decayed = 0;
  const conf = new Float64Array(live.length), decayedAt = new Float64Array(live.length);
  live.forEach((m, i) => {
    conf[i] = m.confidence;
    // a memory no pass has seen (and put without decayedAt) starts its decay clock at this pass
    decayedAt[i] = m.seen_at === null ? o.now : m.decayed_at;
    const cycles = Math.floor((o.now - decayedAt[i]) / o.cycleMs);
    if (cycles > 0) {
      const after = fromFp(decayConfidenceNFp(alphaFp, toFp(m.confidence), floorFp, cycles));
      if (isCommittableConfidenceChange(m.confidence, after)) {
        conf[i] = after;
        decayedAt[i] += cycles * o.cycleMs;
        decayed++;
      }
    }
  });
  lap("decay");

  // 5. retention bands
  progress("retention", 0, live.length);
  const n = live.length;
  const scored = scoreRetentionMany({
    memoryType: live.map((m) => m.type),
    ageDays: Float64Array.from(live, (m) => (o.now - m.created_at) / DAY_MS),
    accessCount: Float64Array.from(live, (m) => m.access_count + m.hits),
    confidence: conf,
    graphRank: rank,
    maxGraphRank: new Float64Array(n).fill(maxRank),
    bridgeCount: Float64Array.from(paths, (p) => bridges.get(p)),
    reinforcementCount: Float64Array.from(live, (m) => m.reinforcement_count),
    wordCount: Float64Array.from(live, (m) => wordCount(m.body)),
    contradictionCount: Float64Array.from(live, (m) => m.contradiction_count),
  }, { policy: o.policy.scoring });
  const bands = { keep: 0, compress: 0, evict: 0 };
  const evictBand = [];
  for (let i = 0; i < n; i++) {
    const b = TRIAGE_ACTIONS[scored.action[i]];
    bands[b]++;
    if (b === "evict") evictBand.push(paths[i]);
  }
  lap("retention");
  return { sleepEdges, graphEdges, rank, communities, bridges, conf, decayedAt, decayed, scored, bands, evictBand };
}

// memdomain/cache: search and what explains and fits it. A query is checked (its settings by
// compose.js, text, vector, filter here), the four arms are collected and folded (compose.js),
// and search() records what a later sleep pass and calibration use: one hit per memory per
// cooldown (retention's access signal) and its last RECENT_SEARCHES (what a positive reinforce()
// labels). explain() says why each path was or was not returned; calibrate() measures the arms
// on the cache's own memories (calibrate.js) and tune() fits the settings to labels (tune.js).
import { REINFORCE_COOLDOWN_S, float32View } from "../index.js";
import { ARMS, collectArms, fold, querySettings, report } from "./compose.js";
import { termsQuery } from "./lexical.js";
import { tune } from "./tune.js";
import { embedTexts } from "./embed.js";
import { CALIBRATION_VERSION, calibrate, checkCalibrateOptions } from "./calibrate.js";
import { admitted, compileFilter } from "./filter.js";
import { LIVE } from "./records.js";
import { MAX_LABELS } from "./writes.js";
import { CACHE_OPTIONS, checkOption } from "./schema.js";
import { embedding, rangeError, string } from "./validate.js";

/** The filters whose admitted memories a cache keeps between searches (until the database changes). */
export const FILTERS_KEPT = 16;
/** The searches a positive reinforce() looks back over for the query that returned a path. */
export const RECENT_SEARCHES = 64;

/** MemoryCache's search, explain, calibration and tuning (index.js installs them on its prototype). */
export class SearchMethods {
  /**
   * A checked query: its settings, text and vector. With options.embed, a query with text and no
   * `vector` (undefined; null searches without the vector arm) is embedded as a "query".
   */
  async _checkQuery(fn, q) {
    const settings = querySettings(fn, q, "query", this._calibrationInForce());
    const text = q.text === undefined || q.text === null ? "" : string(fn, "query.text", q.text, this._limits.query);
    let vector = q.vector === undefined || q.vector === null ? null
      : embedding(fn, "query.vector", q.vector, this._resident.dim, { nonzero: true });
    if (q.vector === undefined && text && this._embed.fn)
      [vector] = await embedTexts(fn, this._embed.fn, [text], "query", this._resident.dim, { at: () => "query.text" });
    const now = checkOption(fn, "query.now", CACHE_OPTIONS.search.now, q.now);
    const filter = compileFilter(fn, "query.filter", q.filter, this._limits);
    const out = { ...settings, text, vector, now, filter, allow: await this._admitted(filter) };
    const w = settings.weights;
    // the vector arm can run with a vector, or one the hook embeds (a model that knows none of the words gives none)
    const vectorArm = vector !== null || (q.vector === undefined && text !== "" && this._embed.fn !== null);
    if (!text && !vector) {
      throw rangeError(fn, "query", `has neither text nor vector${this._embed.fn ? "" : " (nor an embed hook to embed text)"}, so no arm can ` +
        "run; to list memories without a query, use paths({ prefix, filter })");
    }
    if (!(w.lexical > 0 && text) && !(w.vector > 0 && vectorArm)) {
      throw rangeError(fn, "query.weights", text && vectorArm ? "give the lexical and the vector arm weight 0: no arm can run"
        : text ? "give the lexical arm weight 0 and the query has no vector: no arm can run"
          : "give the vector arm weight 0 and the query has no text: no arm can run");
    }
    return out;
  }

  /**
   * The live memories a compiled filter admits, { ids, paths } (Sets), or null without a filter; kept
   * for the last FILTERS_KEPT filters while the database is the one they were read from.
   */
  async _admitted(filter) {
    if (filter === null) return null;
    const hit = this._filters.get(filter.key);
    if (hit && hit.gen === this._gen) {
      this._filters.delete(filter.key);
      this._filters.set(filter.key, hit);
      return hit.allow;
    }
    const ids = await admitted(this._db, filter, LIVE);
    const paths = new Set();
    for (const id of ids) {
      const p = this._lexical.pathOf.get(id);
      if (p !== undefined) paths.add(p);
    }
    const allow = { ids, paths };
    this._filters.set(filter.key, { gen: this._gen, allow });
    if (this._filters.size > FILTERS_KEPT) this._filters.delete(this._filters.keys().next().value);
    return allow;
  }

  /** What the search pipeline reads: the database, the kept term lists, the resident rows and graph, the embed hook. */
  get _io() {
    return { db: this._db, lexical: this._lexical, resident: this._resident, embed: this._embed, calibration: this._calibrationInForce() };
  }

  /**
   * Hybrid search. query: { text, vector, limit = 10, preset = "default" | "memhtml", weights,
   * k, depth, lambda, seeds, window, duplicate (defaults: PRESETS[preset]), timings = false }.
   * Resolves [{ path, score, arms: { lexical, vector, salience, lateral } }] where each arm is
   * { rank, contribution } or null. See docs/CACHE.md for what each arm and step does.
   */
  search(query) {
    const fn = "search";
    return this._op(fn, async () => {
      const q = await this._checkQuery(fn, query);
      const t = q.timings ? { start: performance.now() } : null;
      const lap = (name) => { if (t) { const now = performance.now(); t[name] = now - (t._last ?? t.start); t._last = now; } };
      const arms = await collectArms(this._io, q, q.text, q.vector, lap);
      // a page: the first offset + limit of the ranking, then the last `limit` of them (the same order as one long list)
      const whole = q.offset ? { ...q, limit: q.offset + q.limit } : q;
      const out = report(q, arms, fold(this._io, whole, arms, lap).picked.slice(q.offset));
      if (this._searchAccess) { // access for the retention scorer: one hit per memory per cooldown
        const now = q.now ?? Date.now();
        for (const h of out) {
          const prev = this._hits.get(h.path);
          if (!prev) this._hits.set(h.path, { n: 1, at: now, counted: now });
          else if ((now - prev.counted) / 1000 >= REINFORCE_COOLDOWN_S) { prev.n++; prev.counted = now; prev.at = Math.max(prev.at, now); }
        }
      }
      if (out.length) { // what a positive reinforce() of one of these paths labels (calibrate.js)
        this._recent.push({ text: q.text, vector: q.vector, paths: new Set(out.map((h) => h.path)), labelled: new Set() });
        if (this._recent.length > RECENT_SEARCHES) this._recent.shift();
      }
      if (t) {
        delete t._last;
        t.total = performance.now() - t.start;
        delete t.start;
        Object.defineProperty(out, "timings", { value: t, enumerable: false });
      }
      return out;
    });
  }

  /**
   * The FTS5 query of the informative terms (see Lexical.informative): the lexical arm is
   * `SELECT ... WHERE memories_fts MATCH <this> ORDER BY bm25(memories_fts), path LIMIT depth`.
   */
  async _informative(terms) {
    if (terms.length === 0) return "";
    return termsQuery(await this._lexical.informative(this._db, terms, this._resident.meta.size));
  }

  /** The four arms' lists for a query, before fusion: { lexical, vector, salience, lateral } (paths, best first) and seeds. */
  searchArms(query) {
    const fn = "searchArms";
    return this._op(fn, async () => {
      const q = await this._checkQuery(fn, query);
      const arms = await collectArms(this._io, q, q.text, q.vector);
      const out = Object.fromEntries(ARMS.map((a) => [a, arms[a].map((h) => h.path)]));
      out.seeds = arms.seeds;
      return out;
    });
  }

  /**
   * Why each of `paths` was or was not returned for `query`: the search's hits, and per path
   * { path, rank (in the hits, or null), arms ({ rank, contribution } or null each), seed,
   * fused ({ rank, score } or null), mmr (its place in MMR's order of the window, or null),
   * duplicateOf, lostAt }. lostAt is null for a returned path, else the step that lost it:
   * "absent" (no such memory), "superseded" (merged away by sleep), "arms" (no arm found it),
   * "fusion" (ranked below the MMR window), "limit" (in the window, below the limit, not
   * lifted by MMR), "mmr" (within the limit by fusion, pushed out by MMR), "duplicate"
   * (skipped as a near-duplicate of a hit shown above it). `trace` is the whole pipeline: the
   * resolved settings, each arm's hits ({ path, rank }), the seeds, how many candidates fusion
   * ranked, the window MMR saw ({ path, score, relevance }), MMR's order and the duplicates.
   */
  explain(query, paths) {
    const fn = "explain";
    return this._op(fn, async () => {
      const q = await this._checkQuery(fn, query);
      const ps = this._paths(fn, paths);
      const arms = await collectArms(this._io, q, q.text, q.vector);
      const f = fold(this._io, q, arms, undefined);
      const hits = report(q, arms, f.picked);
      const storedRows = await this._db.all(`SELECT m.path AS path, m.superseded_by AS s, m.archived_at AS a FROM memories m
        JOIN json_each(?) j ON m.path = j.value`, [JSON.stringify(ps)]);
      const stored = new Map(storedRows.map((r) => [r.path, r.s])), archivedAt = new Map(storedRows.map((r) => [r.path, r.a]));
      // why a superseded path is: a merge kept its text elsewhere, or a newer claim contradicts it
      const why = new Map((await this._db.all(`SELECT src, dst, type, origin FROM edges WHERE dst IN (SELECT value FROM json_each(?))
        AND type IN ('supersedes', 'contradicts')`, [JSON.stringify(ps)])).map((e) => [e.dst, e]));
      const hitRank = new Map(hits.map((h, i) => [h.path, i + 1]));
      const fusedRank = new Map(f.ranked.map((r, i) => [r.path, i + 1]));
      const mmrRank = new Map(f.order.map((p, i) => [p, i + 1]));
      const seeds = new Set(arms.seeds.map((x) => x.path));
      const explained = ps.map((path) => {
        const armRanks = report(q, arms, [{ path }])[0].arms;
        const fr = fusedRank.get(path);
        const rank = hitRank.get(path) ?? null;
        let lostAt = null;
        if (rank === null) {
          if (!stored.has(path)) lostAt = "absent";
          else if (stored.get(path) !== null) lostAt = "superseded";
          else if (archivedAt.get(path) !== null) lostAt = "archived";
          else if (fr === undefined) lostAt = "arms";
          else if (f.duplicates.has(path)) lostAt = "duplicate";
          else if (fr > f.window) lostAt = "fusion";
          else lostAt = fr <= q.limit ? "mmr" : "limit";
        }
        return {
          path, rank, arms: armRanks, seed: seeds.has(path),
          fused: fr === undefined ? null : { rank: fr, score: f.fused.get(path) },
          mmr: mmrRank.get(path) ?? null, duplicateOf: f.duplicates.get(path) ?? null, lostAt,
          supersededBy: stored.get(path) ?? null,
          conflict: why.get(path)?.type === "contradicts" ? { with: why.get(path).src } : null,
        };
      });
      const best = f.ranked.length ? f.ranked[0].score : 0;
      const trace = {
        settings: (({ text, vector, timings, ...rest }) => rest)(q),
        arms: Object.fromEntries(ARMS.map((a) => [a, arms[a]])), seeds: arms.seeds, candidates: f.ranked.length,
        window: f.ranked.slice(0, f.window).map((r) => ({
          path: r.path, score: r.score, relevance: q.preset === "memhtml" ? r.score : best > 0 ? r.score / best : 0,
        })),
        order: f.order, duplicates: Object.fromEntries(f.duplicates),
        calibration: this._calibration, // what chose the default vector weight (null: never calibrated)
      };
      return { hits, paths: explained, trace };
    });
  }

  /** The calibration search uses (see calibrate.js), or null: { vector, table, arms, plateau, queries, ... }. */
  calibration() {
    return this._op("calibration", async () => this._calibration);
  }

  /**
   * Measure the arms on pseudo-queries drawn from the cache's own memories (and on the labels
   * reinforce() recorded) and store the vector weight search's default composition then uses
   * (see calibrate.js). options: { seed = 1, samples = 200, onProgress }. Resolves the calibration.
   */
  calibrate(options = {}) {
    const fn = "calibrate";
    return this._op(fn, async () => {
      return this._calibrate(fn, checkCalibrateOptions(fn, options));
    });
  }

  /** Calibrate and store the result (inside an operation). */
  async _calibrate(fn, o) {
    const labels = await this._labels();
    const result = await calibrate(this._io, fn, o, labels);
    result.labelsSeen = labels.length;
    result.embedHook = this._embed.fn !== null;
    await this._write(fn, [{ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('calibration', ?)", params: [JSON.stringify(result)] }],
      () => { this._calibration = result; });
    return result;
  }

  /**
   * The calibration search applies: the stored one when this version's rule measured it, else null
   * (the preset's weight) until sleep() or calibrate() measures again (a calibration of version 1
   * could take the weight to 1 without labels).
   */
  _calibrationInForce() {
    const c = this._calibration;
    return c !== null && c.version === CALIBRATION_VERSION ? c : null;
  }

  /**
   * Whether sleep() calibrates again: never calibrated (or by another version), the live memories
   * changed by more than a tenth in number, labels came since, or the embed hook came or went.
   */
  async _calibrationStale() {
    const c = this._calibration, live = this._resident.meta.size;
    if (c === null || c.version !== CALIBRATION_VERSION) return true;
    if (Math.abs(live - c.memories) > 0.1 * Math.max(1, c.memories)) return true;
    if (c.embedHook !== (this._embed.fn !== null)) return true;
    const [{ n }] = await this._db.all("SELECT count(*) AS n FROM md_labels");
    return Number(n) - (c.labelsSeen ?? 0) >= Math.max(10, 0.1 * (c.labelsSeen ?? 0));
  }

  /** The stored labels (calibrate.js): [{ path, text, vector (null where its dimension is not the cache's) }], newest first. */
  async _labels() {
    const rows = await this._db.all("SELECT path, text, vector FROM md_labels ORDER BY id DESC LIMIT ?", [MAX_LABELS]);
    const dim = this._resident.dim;
    return rows.map((r) => {
      const v = r.vector ? float32View(r.vector) ?? null : null;
      return { path: r.path, text: r.text, vector: v && v.length === dim ? Float32Array.from(v) : null };
    });
  }

  /**
   * Fit the search settings to labelled queries ([{ text, vector, relevant: [paths] or { path: grade } }])
   * by cross-validated coordinate ascent on mean nDCG@limit (see tune.js). Resolves { search (settings
   * to pass to search()), chose ("tuned" or "baseline"), heldOut, train, fitted, evaluations }.
   */
  tune(labelled, options = {}) {
    return this._op("tune", () => tune(this._io, "tune", labelled, options, this._limits));
  }
}

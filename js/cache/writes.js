// memdomain/cache: the writes. Every one is "read, compute in memory, then ONE atomic batch"
// (adapters.js) through _write (consistency.js), so nothing is written on error, on every backend,
// D1 included, and the memory follows the batch once it commits: put (and importJsonl's upsert),
// delete, link, archive, restore, purge, reinforce (with the labels a positive one records).
import { DEFAULT_EWMA_ALPHA, applyOutcomesFp, float32View, fromFp, partitionByCooldown, signalValue, toFp } from "../index.js";
import { checkResident, storedCounts } from "./budget.js";
import { embedTexts, memoryText } from "./embed.js";
import { INSERT_SQL, UPDATE_SQL, checkMemory, isLive, storedValues } from "./records.js";
import { checkOptions } from "./schema.js";
import { arr, rangeError, string } from "./validate.js";

/** Labels for calibration (md_labels, see calibrate.js): the last MAX_LABELS are kept. */
export const MAX_LABELS = 1000;


/** MemoryCache's writes (index.js installs them on its prototype). */
export class WriteMethods {
  /** A checked memory record (records.js); `full` (importJsonl) takes every stored field, put() only its own. */
  _checkMemory(fn, m, at, dim, full = false) {
    return checkMemory(fn, m, at, dim, this._limits, full);
  }

  /**
   * Insert or replace memories, atomically (all or nothing). options: { onConflict:
   * "replace" (default) | "error", onProgress }. Resolves { inserted, replaced }.
   */
  put(memories, options = {}) {
    const fn = "put";
    return this._op(fn, async () => {
      arr(fn, "memories", memories);
      const { onConflict, onProgress: progress } = checkOptions(fn, "options", options, "put");
      if (memories.length > this._limits.batch) throw rangeError(fn, "memories", `has ${memories.length} entries, more than the limit ${this._limits.batch}`);
      const n = memories.length;
      let dim = this._resident.dim;
      const rows = new Array(n);
      const index = new Map();
      for (let i = 0; i < n; i++) {
        const r = this._checkMemory(fn, memories[i], `memories[${i}]`, dim);
        if (r.vec && dim === null) dim = r.vec.length;
        const prev = index.get(r.path);
        if (prev !== undefined) throw rangeError(fn, `memories[${i}].path`, `repeats memories[${prev}].path (${JSON.stringify(r.path.slice(0, 80))})`);
        index.set(r.path, i);
        rows[i] = r;
        if ((i & 4095) === 4095) progress({ phase: "validate", done: i + 1, total: n });
      }
      progress({ phase: "validate", done: n, total: n });
      if (n === 0) return { inserted: 0, replaced: 0 };
      dim = await this._embedMissing(fn, memories, rows, dim, (i) => `memories[${i}]`);
      const { inserted, replaced } = await this._upsert(fn, rows, dim, { onConflict, progress, at: (i) => `memories[${i}]` });
      return { inserted, replaced };
    });
  }

  /**
   * With options.embed: the vectors of the checked rows whose memory left `embedding` out (undefined;
   * null stores no vector), embedded from their text in batches. Returns the dimension after them.
   */
  async _embedMissing(fn, memories, rows, dim, at) {
    if (!this._embed.fn) return dim;
    const todo = [];
    rows.forEach((r, i) => { if (memories[i].embedding === undefined) todo.push(i); });
    if (!todo.length) return dim;
    const vecs = await embedTexts(fn, this._embed.fn, todo.map((i) => memoryText(rows[i].gist, rows[i].body)), "document", dim,
      { at: (j) => at(todo[j]), batch: this._embed.batch });
    todo.forEach((i, j) => (rows[i].vec = vecs[j]));
    return dim ?? vecs[0].length;
  }

  /**
   * The write of put() and importJsonl(): checked rows (their stored fields as given), then
   * `edges` and `meta` (import only), in one batch; the memory follows the commit.
   */
  async _upsert(fn, rows, dim, { onConflict = "replace", progress, at, edges = [], meta = {}, settings = {} }) {
    const n = rows.length;
    if (this._maxResident !== null) await this._checkGrowth(fn, rows, dim);
    const existing = new Map();
    for (const r of await this._db.all("SELECT m.path AS path, m.id AS id FROM memories m JOIN json_each(?) j ON m.path = j.value",
      [JSON.stringify(rows.map((r) => r.path))])) existing.set(r.path, r.id);
    if (onConflict === "error" && existing.size) {
      const i = rows.findIndex((r) => existing.has(r.path));
      throw rangeError(fn, `${at(i)}.path`, `already exists in the cache (${JSON.stringify(rows[i].path.slice(0, 80))}) and options.onConflict is "error"`);
    }
    // ids only grow (md_meta.next_id): a row put after a delete never takes a deleted row's id, which a
    // cache that has not seen the delete yet would still map to the deleted path. A replaced row keeps its
    // id (new ids for replacements would grow the lexical arm's rowid-indexed sums with every rewrite).
    const [ids0] = await this._db.all(
      "SELECT coalesce((SELECT max(id) FROM memories), 0) AS m, (SELECT value FROM md_meta WHERE key = 'next_id') AS n");
    let nextId = Math.max(Number(ids0.m) + 1, ids0.n === null || ids0.n === undefined ? 1 : Number(ids0.n));
    const st = [], ids = [];
    if (this._resident.dim === null && dim !== null) {
      st.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('dim', ?)", params: [String(dim)] });
    }
    for (const r of rows) {
      const values = storedValues(r);
      let id = existing.get(r.path);
      if (id !== undefined) {
        st.push({ sql: UPDATE_SQL, params: [...values, id] });
        st.push({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [id] });
      } else {
        id = nextId++;
        st.push({ sql: INSERT_SQL, params: [id, r.path, ...values] });
      }
      // the index holds live memories only
      if (isLive(r)) {
        st.push({ sql: "INSERT INTO memories_fts (rowid, gist, body) VALUES (?, ?, ?)", params: [id, r.gist, r.body] });
      }
      ids.push(id);
    }
    if (existing.size < n) {
      st.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('next_id', ?)", params: [String(nextId)] });
    }
    for (const e of edges) {
      st.push({ sql: "INSERT OR REPLACE INTO edges (src, dst, type, strength, origin) VALUES (?, ?, ?, ?, ?)",
        params: [e.src, e.dst, e.type, e.strength, e.origin] });
    }
    for (const [key, value] of Object.entries(meta)) { // sleep's watermarks: the later one wins
      st.push({ sql: `INSERT INTO md_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE
        SET value = CAST(max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER)) AS TEXT)`, params: [key, String(value)] });
    }
    for (const [key, value] of Object.entries(settings)) st.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES (?, ?)", params: [key, value] });
    progress({ phase: "write", done: 0, total: n });
    await this._write(fn, st, () => {
      const res = this._resident, lex = this._lexical;
      res.dim = dim;
      const removed = [], added = []; // index rows: a replaced memory's row was deleted, a live one inserted
      rows.forEach((r, i) => {
        if (lex.pathOf.has(ids[i])) removed.push(ids[i]);
        if (isLive(r)) {
          res.setMemory(r.path, r.vec, r.accessCount, r.outcomeScore, r.reinforcementCount);
          lex.pathOf.set(ids[i], r.path);
          added.push({ id: ids[i], gist: r.gist, body: r.body });
        } else {
          res.removeMemory(r.path);
          lex.pathOf.delete(ids[i]);
        }
      });
      lex.changed(removed, added);
      for (const e of edges) res.setEdge(e.src, e.dst, e.type, e.strength, e.origin);
      if (this._maxResident !== null) this._text = this._pendingText;
      if (settings.calibration !== undefined) this._calibration = JSON.parse(settings.calibration);
    }, { edges: edges.length > 0, paths: rows.map((r) => r.path) });
    progress({ phase: "write", done: n, total: n }); // after the memory follows the commit: a throw here leaves it consistent
    return { inserted: n - existing.size, replaced: existing.size, edges: edges.length };
  }

  /**
   * options.maxResidentBytes: a RangeError when these checked rows (put or imported) would bring the
   * cache past it. Counts from the memory (live memories, embeddings) and the text counted so far.
   */
  async _checkGrowth(fn, rows, dim) {
    const res = this._resident, db = this._db;
    if (this._textStale) {
      this._text = (await storedCounts(db)).text;
      this._textStale = false;
    }
    let live = res.meta.size, vectors = res.vecs.size, text = this._text;
    const replaced = [];
    for (const r of rows) {
      const alive = isLive(r), was = res.meta.has(r.path);
      live += (alive ? 1 : 0) - (was ? 1 : 0);
      vectors += (alive && r.vec ? 1 : 0) - (res.vecs.has(r.path) ? 1 : 0);
      if (alive) text += utf8Length(r.gist) + utf8Length(r.body);
      if (was) replaced.push(r.path);
    }
    if (replaced.length) { // the text these rows replace
      const [{ t }] = await db.all(`SELECT coalesce(sum(octet_length(m.gist) + octet_length(m.body)), 0) AS t FROM memories m
        JOIN json_each(?) j ON m.path = j.value WHERE m.superseded_by IS NULL AND m.archived_at IS NULL`, [JSON.stringify(replaced)]);
      text -= Number(t);
    }
    checkResident(fn, this._maxResident, { live, vectors, dim, text, lexicalIndexMin: this._lexical.indexMin }, "memories would bring the cache to");
    this._pendingText = text;
  }

  /**
   * Delete memories and their edges, atomically, with the memories merged into them (superseded by
   * them, and by those, ...): these paths, or { prefix } / { filter } (every stored memory they select).
   * Resolves { deleted } (the rows deleted; a path named twice counts once).
   */
  delete(target) {
    const fn = "delete";
    return this._op(fn, async () => {
      let ps;
      if (Array.isArray(target)) ps = [...new Set(this._paths(fn, target))];
      else { // { prefix, filter }: every stored memory they select, archived and superseded ones too
        checkOptions(fn, "target", target, "delete");
        if (target.prefix === undefined && target.filter === undefined)
          throw rangeError(fn, "target", "selects nothing: give paths, or { prefix } or { filter } (delete({ prefix: \"\" }) deletes everything)");
        const { sql, params } = this._selection(fn, target);
        ps = (await this._db.all(`SELECT m.path AS path FROM memories m WHERE ${sql}`, params)).map((r) => r.path);
      }
      // with the memories merged into them (superseded by them, and by those, ...): no search returns those,
      // and a supersededBy naming a deleted memory would not import
      const ids = await this._db.all(`WITH RECURSIVE gone (path) AS (SELECT value FROM json_each(?)
        UNION SELECT m.path FROM memories m JOIN gone g ON m.superseded_by = g.path)
        SELECT m.id AS id, m.path AS path FROM memories m JOIN gone g ON m.path = g.path`, [JSON.stringify(ps)]);
      if (!ids.length) return { deleted: 0 };
      const json = JSON.stringify(ids.map((r) => r.path));
      const st = ids.map((r) => ({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [r.id] }));
      st.push({ sql: "DELETE FROM memories WHERE path IN (SELECT value FROM json_each(?))", params: [json] });
      st.push({ sql: "DELETE FROM edges WHERE src IN (SELECT value FROM json_each(?)) OR dst IN (SELECT value FROM json_each(?))", params: [json, json] });
      await this._write(fn, st, () => {
        const removed = ids.filter((r) => this._lexical.pathOf.has(r.id)).map((r) => r.id);
        for (const r of ids) {
          this._resident.removeMemory(r.path);
          this._lexical.pathOf.delete(r.id);
        }
        this._lexical.changed(removed, []);
        this._textStale = true;
        this._resident.removeEdgesOf(ids.map((r) => r.path)); // only these rows' edges; the graph is rebuilt on the next lateral search
      }, { edges: true, paths: ids.map((r) => r.path) });
      return { deleted: ids.length };
    });
  }

  /**
   * Add or replace typed edges between stored memories: [{ src, dst, strength in [0, 1],
   * type = "related" }]. Both ends must exist. Resolves { linked }.
   */
  link(links) {
    const fn = "link";
    return this._op(fn, async () => {
      arr(fn, "links", links);
      const L = this._limits;
      const rows = links.map((l, i) => {
        const { strength } = checkOptions(fn, `links[${i}]`, l, "link");
        return {
          src: string(fn, `links[${i}].src`, l.src, L.path, { key: true }),
          dst: string(fn, `links[${i}].dst`, l.dst, L.path, { key: true }),
          strength,
          type: l.type === undefined ? "related" : string(fn, `links[${i}].type`, l.type, L.type, { key: true }),
        };
      });
      if (!rows.length) return { linked: 0 };
      const names = [...new Set(rows.flatMap((r) => [r.src, r.dst]))];
      const found = new Set((await this._db.all("SELECT m.path AS path FROM memories m JOIN json_each(?) j ON m.path = j.value",
        [JSON.stringify(names)])).map((r) => r.path));
      rows.forEach((r, i) => {
        for (const end of ["src", "dst"]) if (!found.has(r[end])) throw rangeError(fn, `links[${i}].${end}`, `names no stored memory (${JSON.stringify(r[end].slice(0, 80))})`);
      });
      await this._write(fn, rows.map((r) => ({
        sql: "INSERT OR REPLACE INTO edges (src, dst, type, strength, origin) VALUES (?, ?, ?, ?, 'link')",
        params: [r.src, r.dst, r.type, r.strength],
      })), () => { for (const r of rows) this._resident.setEdge(r.src, r.dst, r.type, r.strength, "link"); }, { edges: true });
      return { linked: rows.length };
    });
  }

  /**
   * Archive memories by hand, atomically: out of every arm, kept, listed by archived(), restorable
   * (archiveReason "manual"). options: { now (default Date.now()) }. Paths that are not stored are a
   * RangeError; paths already archived are left as they are. Resolves { archived }.
   */
  archive(paths, options = {}) {
    const fn = "archive";
    return this._op(fn, async () => {
      const ps = [...new Set(this._paths(fn, paths))];
      const { now } = checkOptions(fn, "options", options, "archive");
      const rows = new Map((await this._db.all(`SELECT m.id AS id, m.path AS path, m.archived_at AS a, m.superseded_by AS s FROM memories m
        JOIN json_each(?) j ON m.path = j.value`, [JSON.stringify(ps)])).map((r) => [r.path, r]));
      ps.forEach((p, i) => { if (!rows.has(p)) throw rangeError(fn, `paths[${i}]`, `names no stored memory (${JSON.stringify(p.slice(0, 80))})`); });
      const todo = ps.filter((p) => rows.get(p).a === null);
      if (!todo.length) return { archived: 0 };
      const st = [];
      for (const p of todo) {
        const r = rows.get(p);
        st.push({ sql: "UPDATE memories SET archived_at = ?, archive_reason = 'manual' WHERE id = ?", params: [now, r.id] });
        if (r.s === null) st.push({ sql: "DELETE FROM memories_fts WHERE rowid = ?", params: [r.id] });
      }
      await this._write(fn, st, () => {
        const gone = [];
        for (const p of todo) {
          const r = rows.get(p);
          if (this._lexical.pathOf.has(r.id)) gone.push(r.id);
          this._resident.removeMemory(p);
          this._lexical.pathOf.delete(r.id);
        }
        this._lexical.changed(gone, []);
        this._resident.staleGraphs();
        this._textStale = true;
      }, { edges: true, paths: todo });
      return { archived: todo.length };
    });
  }

  /**
   * Bring archived memories back into every arm, atomically: they count as new to the cache again
   * (the minimum age and the reprieves start over). options: { now (default Date.now()) }. Paths
   * that are not archived are a RangeError. Resolves { restored }.
   */
  restore(paths, options = {}) {
    const fn = "restore";
    return this._op(fn, async () => {
      const ps = [...new Set(this._paths(fn, paths))];
      const { now } = checkOptions(fn, "options", options, "archive");
      const rows = new Map((await this._db.all(`SELECT m.id AS id, m.path AS path, m.gist AS gist, m.body AS body, m.embedding AS embedding,
        m.access_count AS access_count, m.outcome_score AS outcome_score, m.reinforcement_count AS reinforcement_count,
        m.archived_at AS archived_at, m.superseded_by AS superseded_by FROM memories m JOIN json_each(?) j ON m.path = j.value`,
      [JSON.stringify(ps)])).map((r) => [r.path, r]));
      ps.forEach((p, i) => {
        const r = rows.get(p);
        if (!r) throw rangeError(fn, `paths[${i}]`, `names no stored memory (${JSON.stringify(p.slice(0, 80))})`);
        if (r.archived_at === null) throw rangeError(fn, `paths[${i}]`, `is not archived (${JSON.stringify(p.slice(0, 80))})`);
      });
      if (!ps.length) return { restored: 0 };
      const st = [];
      for (const p of ps) {
        const r = rows.get(p);
        st.push({ sql: `UPDATE memories SET archived_at = NULL, archive_reason = NULL, reprieve_count = 0, valid_until = NULL, seen_at = ?
          WHERE id = ?`, params: [now, r.id] });
        if (r.superseded_by === null) st.push({ sql: "INSERT INTO memories_fts (rowid, gist, body) VALUES (?, ?, ?)", params: [r.id, r.gist, r.body] });
      }
      await this._write(fn, st, () => {
        const added = [];
        for (const p of ps) {
          const r = rows.get(p);
          if (r.superseded_by !== null) continue;
          this._resident.setMemory(p, r.embedding ? float32View(r.embedding) : undefined, r.access_count, r.outcome_score, r.reinforcement_count);
          this._lexical.pathOf.set(r.id, p);
          added.push({ id: r.id, gist: r.gist, body: r.body });
        }
        this._lexical.changed([], added);
        this._resident.staleGraphs();
        this._textStale = true;
      }, { edges: true, paths: ps });
      return { restored: ps.length };
    });
  }

  /**
   * Delete archived memories for good, with their edges: options { paths } (each must be archived) or
   * { before } (archived at or before that time); {} deletes every archived memory. Resolves { purged }.
   */
  purge(options = {}) {
    const fn = "purge";
    return this._op(fn, async () => {
      const { before } = checkOptions(fn, "options", options, "purge");
      if (options.paths !== undefined && options.before !== undefined) throw rangeError(fn, "options", "takes paths or before, not both");
      let paths;
      if (options.paths !== undefined) {
        const ps = [...new Set(this._paths(fn, options.paths))];
        const found = new Map((await this._db.all("SELECT m.path AS path, m.archived_at AS a FROM memories m JOIN json_each(?) j ON m.path = j.value",
          [JSON.stringify(ps)])).map((r) => [r.path, r.a]));
        ps.forEach((p, i) => {
          if (!found.has(p)) throw rangeError(fn, `options.paths[${i}]`, `names no stored memory (${JSON.stringify(p.slice(0, 80))})`);
          if (found.get(p) === null) throw rangeError(fn, `options.paths[${i}]`, `is not archived: purge deletes archived memories only (delete() deletes any)`);
        });
        paths = ps;
      } else {
        paths = (await this._db.all("SELECT path, archived_at FROM memories WHERE archived_at IS NOT NULL"))
          .filter((r) => r.archived_at <= before).map((r) => r.path);
      }
      if (!paths.length) return { purged: 0 };
      const json = JSON.stringify(paths);
      await this._write(fn, [
        { sql: "DELETE FROM memories WHERE path IN (SELECT value FROM json_each(?))", params: [json] },
        { sql: "DELETE FROM edges WHERE src IN (SELECT value FROM json_each(?)) OR dst IN (SELECT value FROM json_each(?))", params: [json, json] },
      ], () => this._resident.removeEdgesOf(paths), { edges: true, paths });
      return { purged: paths.length };
    });
  }

  /**
   * Record that these memories were used: partitionByCooldown decides which may be
   * bumped now (REINFORCE_COOLDOWN_S, 900 s, since accessedAt); each bumped memory
   * gets access_count + 1, accessed_at = now and, for a "positive" or "negative"
   * signal, one outcome EWMA step (applyOutcomesFp, DEFAULT_EWMA_ALPHA). Resolves
   * { bumped, cooledDown } (paths).
   */
  reinforce(paths, options) {
    const fn = "reinforce";
    return this._op(fn, async () => {
      const ps = this._paths(fn, paths);
      const { now, signal, cooldownSeconds: cooldown } = checkOptions(fn, "options", options, "reinforce");
      const rows = await this._db.all(`SELECT m.path AS path, m.accessed_at AS accessed_at, m.access_count AS access_count,
        m.outcome_score AS outcome_score, m.reinforcement_count AS reinforcement_count FROM memories m
        JOIN json_each(?) j ON m.path = j.value ORDER BY j.key`, [JSON.stringify(ps)]);
      const byP = new Map(rows.map((r) => [r.path, r]));
      ps.forEach((p, i) => { if (!byP.has(p)) throw rangeError(fn, `paths[${i}]`, `names no stored memory (${JSON.stringify(p.slice(0, 80))})`); });
      const entries = [...byP.values()].map((r) => (r.accessed_at === null ? { path: r.path } : { path: r.path, lastAccessedAt: new Date(r.accessed_at) }));
      const { bumped, cooledDown } = partitionByCooldown(entries, new Date(now), cooldown);
      const alpha = toFp(DEFAULT_EWMA_ALPHA);
      const st = [], after = [];
      for (const p of bumped) {
        const r = byP.get(p);
        if (!(r.access_count < Number.MAX_SAFE_INTEGER)) {
          throw rangeError(fn, `paths[${ps.indexOf(p)}]`,
            `has access count ${r.access_count}, the largest the cache stores exactly; it cannot be bumped`);
        }
        const outcome = signal === "neutral" ? r.outcome_score
          : fromFp(applyOutcomesFp(alpha, toFp(r.outcome_score ?? 0), [toFp(signalValue(signal))]));
        st.push({ sql: "UPDATE memories SET access_count = ?, accessed_at = ?, outcome_score = ? WHERE path = ?",
          params: [r.access_count + 1, now, outcome, p] });
        after.push([p, r.access_count + 1, outcome, r.reinforcement_count]);
      }
      if (signal === "positive") st.push(...this._labelStatements(ps, now));
      await this._write(fn, st, () => { for (const a of after) this._resident.setSignals(...a); }, { paths: bumped });
      return { bumped, cooledDown };
    });
  }

  /**
   * A positive reinforce()'s labels: each path with the most recent of this cache's searches that
   * returned it (once per search and path), as md_labels rows; the oldest past MAX_LABELS go.
   */
  _labelStatements(paths, now) {
    const st = [];
    for (const p of new Set(paths)) {
      for (let i = this._recent.length - 1; i >= 0; i--) {
        const r = this._recent[i];
        if (!r.paths.has(p)) continue;
        if (!r.labelled.has(p)) {
          r.labelled.add(p);
          const blob = r.vector ? new Uint8Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength) : null;
          st.push({ sql: "INSERT INTO md_labels (path, text, vector, at) VALUES (?, ?, ?, ?)", params: [p, r.text, blob, now] });
        }
        break;
      }
    }
    if (st.length) st.push({ sql: "DELETE FROM md_labels WHERE id <= (SELECT max(id) FROM md_labels) - ?", params: [MAX_LABELS] });
    return st;
  }
}

/** Bytes of a well-formed string in UTF-8 (what SQLite's octet_length counts), without encoding it. */
function utf8Length(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // 2 bytes below U+0800, 3 above, 4 for a surrogate pair (2 units)
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c >= 0xe000) ? 2 : 1;
  }
  return n;
}

// memdomain/cache: the reads that need no search: count, paths (a page of paths), get, all,
// edges, archived, and what the cache holds in memory (residentBytes, lexicalStats). None uses the memory the
// search keeps, so none waits for it to follow another writer ({ state: false }).
import { float32View } from "../index.js";
import { residentEstimate, storedCounts } from "./budget.js";
import { compileFilter } from "./filter.js";
import { COLUMNS, LIVE, rowToMemory as recordOf } from "./records.js";
import { checkOptions } from "./schema.js";
import { arr, byPath, rangeError, string } from "./validate.js";

/** A stored row as the memory get(), all() and exportJsonl() return (the embedding as a Float32Array). */
export const rowToMemory = (r) => recordOf(r, float32View);

/** MemoryCache's reads (index.js installs them on its prototype). */
export class ReadMethods {
  /**
   * How many memories are stored: all of them (superseded and archived ones included), or with
   * options { live: true } the live ones (in every arm), { archived: true } the archived ones.
   */
  count(options = {}) {
    const fn = "count";
    return this._op(fn, async () => {
      checkOptions(fn, "options", options, "count");
      if (options.live && options.archived) throw rangeError(fn, "options", "asks for live and archived memories: none is both");
      const where = options.live ? ` WHERE ${LIVE}` : options.archived ? " WHERE archived_at IS NOT NULL" : "";
      return (await this._db.all(`SELECT count(*) AS n FROM memories${where}`))[0].n;
    }, { state: false });
  }

  /**
   * Stored paths in SQLite's order (code points), without reading the memories: options { prefix,
   * filter, limit = 1000 (at most MAX_PATHS_PAGE), after (a path: the page after it), which:
   * "live" (default) | "archived" | "all" }. Resolves { paths, next } (next: the \`after\` of the
   * next page, or null at the end).
   */
  paths(options = {}) {
    const fn = "paths";
    return this._op(fn, async () => {
      const { limit, which } = checkOptions(fn, "options", options, "paths");
      const { sql, params } = this._selection(fn, options);
      const cond = [which === "live" ? LIVE : which === "archived" ? "archived_at IS NOT NULL" : "1", sql];
      if (options.after !== undefined) {
        cond.push("m.path > ?");
        params.push(string(fn, "options.after", options.after, this._limits.path, { key: true }));
      }
      const rows = await this._db.all(`SELECT m.path AS path FROM memories m WHERE ${cond.join(" AND ")} ORDER BY m.path LIMIT ?`, [...params, limit + 1]);
      const more = rows.length > limit;
      const paths = rows.slice(0, limit).map((r) => r.path);
      return { paths, next: more ? paths[paths.length - 1] : null };
    }, { state: false });
  }

  /** options { prefix, filter } as one SQL condition over memories m and its parameters. */
  _selection(fn, options) {
    const parts = [], params = [];
    if (options.prefix !== undefined) {
      const pre = string(fn, "options.prefix", options.prefix, this._limits.path);
      parts.push("substr(m.path, 1, length(?)) = ?");
      params.push(pre, pre);
    }
    const f = compileFilter(fn, "options.filter", options.filter, this._limits);
    if (f) {
      parts.push(`(${f.sql})`);
      params.push(...f.params);
    }
    return { sql: parts.length ? parts.join(" AND ") : "1", params };
  }

  _paths(fn, paths) {
    arr(fn, "paths", paths);
    return paths.map((p, i) => string(fn, `paths[${i}]`, p, this._limits.path, { key: true }));
  }

  /** The stored memories for these paths (absent ones are skipped), with their sleep-derived fields. */
  get(paths) {
    const fn = "get";
    return this._op(fn, async () => {
      const ps = this._paths(fn, paths);
      const rows = await this._db.all(`SELECT ${COLUMNS} FROM memories m JOIN json_each(?) j ON m.path = j.value ORDER BY j.key`,
        [JSON.stringify(ps)]);
      return rows.map(rowToMemory);
    }, { state: false });
  }

  /** Every stored memory, in path order (JavaScript string order). */
  all() {
    return this._op("all", async () => (await this._db.all(`SELECT ${COLUMNS} FROM memories m`)).map(rowToMemory).sort((a, b) => byPath(a.path, b.path)),
      { state: false });
  }

  /** Stored edges: [{ src, dst, type, strength, origin }] ("link" from link(), "sleep" and "merge" from sleep()). */
  edges() {
    return this._op("edges", async () => (await this._db.all("SELECT src, dst, type, strength, origin FROM edges"))
      .sort((a, b) => byPath(a.src, b.src) || byPath(a.dst, b.dst) || byPath(a.type, b.type)), { state: false });
  }

  /** Archived memories (sleep archives the evict band when its policy says so), in path order, every stored field. */
  archived() {
    return this._op("archived", async () => (await this._db.all(`SELECT ${COLUMNS} FROM memories m WHERE m.archived_at IS NOT NULL`))
      .map(rowToMemory).sort((a, b) => byPath(a.path, b.path)), { state: false });
  }

  /**
   * What the cache holds and its estimated peak memory (a sleep pass; see budget.js): { live, vectors
   * (live memories with an embedding), dim, text (bytes of gist and body), estimate (bytes), max
   * (options.maxResidentBytes, null: none) }.
   */
  residentBytes() {
    return this._op("residentBytes", async () => {
      const c = { ...(await storedCounts(this._db)), dim: this._resident.dim };
      return { ...c, lexicalIndexMin: this._lexical.indexMin, estimate: residentEstimate({ ...c, lexicalIndexMin: this._lexical.indexMin }),
        max: this._maxResident };
    }, { state: false });
  }

  /**
   * Whether the lexical arm's resident index is in use (no database read): { min
   * (options.lexicalIndexMin, null: never), indexed (built now), bytes (its memory now, 0 when not
   * built), unavailable (the backend lacks what it needs, ln(), TEMP tables or FTS5's docsize, or its
   * check against FTS5's bm25 failed: the kept lists answer), answered (unfiltered searches past min it answered since open), fellBack
   * (those the lists answered: unavailable, a check failed, a query word of several tokens) }.
   */
  lexicalStats() {
    const lex = this._lexical;
    return { min: lex.indexMin, indexed: lex.indexed, bytes: lex.indexed ? lex._ix.bytes() : 0, unavailable: lex._ixOff,
      answered: lex.stats.answered, fellBack: lex.stats.fellBack };
  }
}

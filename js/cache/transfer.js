// memdomain/cache: import and export. exportJsonl writes every memory, edge, sleep watermark and
// setting as JSON Lines; importJsonl reads them back in one batch (a line with only put()'s fields
// is a put), so that an export imported into an empty cache gives the same database; exportBytes
// is the database file itself (open it with openMemoryCache({ bytes })).
import { COLUMNS } from "./records.js";
import { rowToMemory } from "./reads.js";
import { CACHE_OPTIONS, checkOptions } from "./schema.js";
import { byPath, known, rangeError, record, string, typeError } from "./validate.js";

/** Where an edge came from: link(), sleep's similarity edges, its merges, its contradictions. */
export const EDGE_ORIGINS = CACHE_OPTIONS.edge.origin.values;
/** What exportJsonl carries of md_meta besides the watermarks, one line each: what the cache chose and was told. */
const SETTINGS_KEYS = ["calibration", "policy"];

/** MemoryCache's import and export (index.js installs them on its prototype). */
export class TransferMethods {
  /**
   * Every memory as JSON Lines, in path order (one object per line, every stored field, the
   * embedding as a number array), then every edge ({ "edge": { src, dst, type, strength,
   * origin } }, in edges() order), then sleep's watermarks ({ "watermarks": { mergeCycle,
   * evictCycle } }) if a pass ran: importJsonl of it into an empty cache gives the same database.
   */
  exportJsonl() {
    return this._op("exportJsonl", async () => {
      const rows = (await this._db.all(`SELECT ${COLUMNS} FROM memories m`)).map(rowToMemory).sort((a, b) => byPath(a.path, b.path));
      const lines = rows.map((m) => JSON.stringify({ ...m, embedding: m.embedding ? Array.from(m.embedding) : null }));
      const edges = (await this._db.all("SELECT src, dst, type, strength, origin FROM edges"))
        .sort((a, b) => byPath(a.src, b.src) || byPath(a.dst, b.dst) || byPath(a.type, b.type));
      for (const e of edges) lines.push(JSON.stringify({ edge: { src: e.src, dst: e.dst, type: e.type, strength: e.strength, origin: e.origin } }));
      const meta = Object.fromEntries((await this._db.all("SELECT key, value FROM md_meta WHERE key IN ('merge_cycle', 'evict_cycle')"))
        .map((r) => [r.key, r.value]));
      const marks = {};
      if (meta.merge_cycle !== undefined) marks.mergeCycle = Number(meta.merge_cycle);
      if (meta.evict_cycle !== undefined) marks.evictCycle = Number(meta.evict_cycle);
      if (Object.keys(marks).length) lines.push(JSON.stringify({ watermarks: marks }));
      // what the cache chose and was told: its calibration and its retention policy
      for (const key of SETTINGS_KEYS) {
        const [row] = await this._db.all("SELECT value FROM md_meta WHERE key = ?", [key]);
        if (row) lines.push(JSON.stringify({ [key]: JSON.parse(row.value) }));
      }
      return lines.map((l) => `${l}\n`).join("");
    }, { state: false });
  }

  /**
   * Import exportJsonl's text (blank lines skipped), in one batch: memories with every stored
   * field (supersession, the decay watermark, sleep's fields; a line with only put()'s fields
   * is a put), edges (both ends stored or imported), and sleep's watermarks (the later of the
   * cache's and the text's). options as put's. Resolves { inserted, replaced, edges }.
   */
  importJsonl(text, options = {}) {
    const fn = "importJsonl";
    return this._op(fn, async () => {
      if (typeof text !== "string") throw typeError(fn, "text", "a string", text);
      const { onConflict, onProgress: progress } = checkOptions(fn, "options", options, "put");
      const L = this._limits;
      const rows = [], lineOf = [], edges = [], meta = {}, index = new Map(), settings = {};
      let dim = this._resident.dim;
      const lines = text.split("\n");
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i].trim();
        if (!line) continue;
        const at = `text line ${i + 1}`;
        let v;
        try {
          v = JSON.parse(line);
        } catch (e) {
          throw rangeError(fn, at, `is not JSON: ${e.message}`);
        }
        record(fn, at, v);
        if (v.edge !== undefined && v.path === undefined) {
          const e = v.edge, { strength, origin } = checkOptions(fn, `${at} .edge`, e, "edge");
          edges.push({
            src: string(fn, `${at} .edge.src`, e.src, L.path, { key: true }),
            dst: string(fn, `${at} .edge.dst`, e.dst, L.path, { key: true }),
            type: string(fn, `${at} .edge.type`, e.type, L.type, { key: true }),
            strength, origin, at,
          });
        } else if (SETTINGS_KEYS.some((k) => v[k] !== undefined) && v.path === undefined) {
          const key = SETTINGS_KEYS.find((k) => v[k] !== undefined);
          known(fn, at, v, [key]);
          record(fn, `${at} .${key}`, v[key]);
          settings[key] = JSON.stringify(v[key]);
        } else if (v.watermarks !== undefined && v.path === undefined) {
          const m = checkOptions(fn, `${at} .watermarks`, v.watermarks, "watermarks");
          for (const [k, key] of [["mergeCycle", "merge_cycle"], ["evictCycle", "evict_cycle"]]) {
            if (m[k] !== undefined) meta[key] = Math.max(meta[key] ?? -Infinity, m[k]);
          }
        } else {
          const r = this._checkMemory(fn, v, at, dim, true);
          if (r.vec && dim === null) dim = r.vec.length;
          const prev = index.get(r.path);
          if (prev !== undefined) throw rangeError(fn, `${at} .path`, `repeats ${lineOf[prev]}'s (${JSON.stringify(r.path.slice(0, 80))})`);
          index.set(r.path, rows.length);
          rows.push(r);
          lineOf.push(at);
        }
      }
      if (rows.length > L.batch) throw rangeError(fn, "text", `holds ${rows.length} memories, more than the limit ${L.batch}`);
      progress({ phase: "validate", done: rows.length, total: rows.length });
      const keepers = rows.filter((r) => r.supersededBy !== null).map((r) => r.supersededBy);
      const ends = [...new Set([...edges.flatMap((e) => [e.src, e.dst]), ...keepers])].filter((p) => !index.has(p));
      const found = new Set((await this._db.all("SELECT m.path AS path FROM memories m JOIN json_each(?) j ON m.path = j.value",
        [JSON.stringify(ends)])).map((r) => r.path));
      // a memory superseded by no memory (or by itself) would be in no search and named by none
      rows.forEach((r, i) => {
        if (r.supersededBy === null) return;
        if (r.supersededBy === r.path) throw rangeError(fn, `${lineOf[i]}.supersededBy`, "names the memory itself");
        if (!index.has(r.supersededBy) && !found.has(r.supersededBy)) {
          throw rangeError(fn, `${lineOf[i]}.supersededBy`, `names no stored or imported memory (${JSON.stringify(r.supersededBy.slice(0, 80))})`);
        }
      });
      for (const e of edges) {
        for (const end of ["src", "dst"]) {
          if (!index.has(e[end]) && !found.has(e[end])) {
            throw rangeError(fn, `${e.at} .edge.${end}`, `names no stored or imported memory (${JSON.stringify(e[end].slice(0, 80))})`);
          }
        }
      }
      if (!rows.length && !edges.length && !Object.keys(meta).length && !Object.keys(settings).length) return { inserted: 0, replaced: 0, edges: 0 };
      return this._upsert(fn, rows, dim, { onConflict, progress, at: (i) => lineOf[i], edges, meta, settings });
    });
  }

  /** The database file as bytes (sqlite-wasm, better-sqlite3, node:sqlite; D1 has no export). Open it with openMemoryCache({ bytes }). */
  exportBytes() {
    return this._op("exportBytes", async () => {
      if (typeof this._db.exportBytes !== "function") throw rangeError("exportBytes", "this", `is on a ${this.backend} database, which cannot export its file`);
      return this._db.exportBytes();
    }, { state: false });
  }
}

// memdomain/cache: metadata filters. search({ filter }), explain, tune, paths() and delete() take
// one filter object, checked like every option and compiled to one SQL condition over the
// memories table; search runs it once (the ids of the live memories it admits, kept while the
// database does not change) and every arm ranks among those memories only, before its top-k:
// the lexical arm skips the others while it selects (lexical.js), the vector arm ranks the
// admitted rows (resident.js), the lateral arm keeps the admitted nodes its walk reaches
// (compose.js). So a selective filter still returns `limit` results, and a filtered search
// equals filtering an exact unfiltered ranking.
//
// A filter: { path, type, tags, createdAt, updatedAt, accessedAt, metadata, and, or, not }, every
// given field must hold (and):
//   path: "a/b" | { eq, in: [...], prefix }
//   type: "semantic" | { eq, ne, in: [...], nin: [...] }
//   tags: "t" (holds it) | { all: [...], any: [...], none: [...] }
//   createdAt, updatedAt, accessedAt: { gt, gte, lt, lte } (Dates or ms)
//   metadata: { key: value | { eq, ne, in, nin, gt, gte, lt, lte, exists } } (a value: string, finite number, boolean)
//   and: [filter, ...], or: [filter, ...], not: filter
import { closest } from "./records.js";
import { finite, rangeError, record, string, time, typeError } from "./validate.js";

const FIELDS = ["path", "type", "tags", "createdAt", "updatedAt", "accessedAt", "metadata", "and", "or", "not"];
const TIMES = { createdAt: "created_at", updatedAt: "updated_at", accessedAt: "accessed_at" };
const RANGE = ["gt", "gte", "lt", "lte"];
const SQL_OP = { eq: "=", ne: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" };
/** Filters nest at most this deep, and hold at most this many conditions. */
export const MAX_FILTER_DEPTH = 16;
export const MAX_FILTER_TERMS = 256;

function only(fn, at, o, names) {
  for (const k of Object.keys(o)) {
    if (names.includes(k)) continue;
    const near = closest(k, names);
    throw rangeError(fn, `${at}.${k.slice(0, 64)}`, `is not a filter field${near ? ` (did you mean ${near}?)` : ""} (known: ${names.join(", ")})`);
  }
}

/** A metadata or tag value: a string, a finite number or a boolean; { sql, params } comparing json_each's row `j` with it. */
function valueTest(fn, at, v, op = "eq") {
  if (typeof v === "string") return { sql: `(j.type = 'text' AND j.value ${SQL_OP[op]} ?)`, params: [v] };
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw rangeError(fn, at, `must be a finite number, got ${v}`);
    return { sql: `(j.type IN ('integer', 'real') AND j.value ${SQL_OP[op]} ?)`, params: [v] };
  }
  if (typeof v === "boolean") {
    if (op !== "eq" && op !== "ne") throw rangeError(fn, at, `compares a boolean: only eq and ne apply`);
    return { sql: op === "eq" ? "j.type = ?" : "j.type <> ?", params: [v ? "true" : "false"] };
  }
  throw typeError(fn, at, "a string, a finite number or a boolean", v);
}

const list = (fn, at, v) => {
  if (!Array.isArray(v)) throw typeError(fn, at, "an array", v);
  if (v.length > MAX_FILTER_TERMS) throw rangeError(fn, at, `has ${v.length} values, more than ${MAX_FILTER_TERMS}`);
  return v;
};

/**
 * A filter, checked, as { sql (a condition over `memories m`), params, key (its canonical JSON) };
 * null for undefined or null. `arg` names it in errors ("query.filter").
 */
export function compileFilter(fn, arg, filter, limits) {
  if (filter === undefined || filter === null) return null;
  let terms = 0;
  const params = [];
  const push = (p) => { params.push(...p); };
  const one = (at, f, depth) => {
    if (depth > MAX_FILTER_DEPTH) throw rangeError(fn, at, `nests deeper than ${MAX_FILTER_DEPTH} levels`);
    record(fn, at, f);
    only(fn, at, f, FIELDS);
    const parts = [];
    const add = (sql, p = []) => {
      if (++terms > MAX_FILTER_TERMS) throw rangeError(fn, arg, `holds more than ${MAX_FILTER_TERMS} conditions`);
      parts.push(sql);
      push(p);
    };
    if (f.path !== undefined) {
      const p = f.path, a = `${at}.path`;
      if (typeof p === "string") add("m.path = ?", [string(fn, a, p, limits.path, { key: true })]);
      else {
        record(fn, a, p);
        only(fn, a, p, ["eq", "in", "prefix"]);
        if (p.eq !== undefined) add("m.path = ?", [string(fn, `${a}.eq`, p.eq, limits.path, { key: true })]);
        if (p.in !== undefined) add("m.path IN (SELECT value FROM json_each(?))",
          [JSON.stringify(list(fn, `${a}.in`, p.in).map((x, i) => string(fn, `${a}.in[${i}]`, x, limits.path, { key: true })))]);
        if (p.prefix !== undefined) {
          const pre = string(fn, `${a}.prefix`, p.prefix, limits.path);
          add("substr(m.path, 1, length(?)) = ?", [pre, pre]); // not LIKE: % and _ are path characters
        }
      }
    }
    if (f.type !== undefined) {
      const t = f.type, a = `${at}.type`;
      const s = (x, w) => string(fn, w, x, limits.type, { key: true });
      if (typeof t === "string") add("m.type = ?", [s(t, a)]);
      else {
        record(fn, a, t);
        only(fn, a, t, ["eq", "ne", "in", "nin"]);
        if (t.eq !== undefined) add("m.type = ?", [s(t.eq, `${a}.eq`)]);
        if (t.ne !== undefined) add("m.type <> ?", [s(t.ne, `${a}.ne`)]);
        if (t.in !== undefined) add("m.type IN (SELECT value FROM json_each(?))", [JSON.stringify(list(fn, `${a}.in`, t.in).map((x, i) => s(x, `${a}.in[${i}]`)))]);
        if (t.nin !== undefined) add("m.type NOT IN (SELECT value FROM json_each(?))", [JSON.stringify(list(fn, `${a}.nin`, t.nin).map((x, i) => s(x, `${a}.nin[${i}]`)))]);
      }
    }
    if (f.tags !== undefined) {
      const t = f.tags, a = `${at}.tags`;
      const tag = (x, w) => string(fn, w, x, limits.tag, { key: true });
      const has = "EXISTS (SELECT 1 FROM json_each(m.tags) j WHERE j.value = ?)";
      if (typeof t === "string") add(has, [tag(t, a)]);
      else {
        record(fn, a, t);
        only(fn, a, t, ["all", "any", "none"]);
        if (t.all !== undefined) for (const [i, x] of list(fn, `${a}.all`, t.all).entries()) add(has, [tag(x, `${a}.all[${i}]`)]);
        if (t.any !== undefined) add(`EXISTS (SELECT 1 FROM json_each(m.tags) j WHERE j.value IN (SELECT value FROM json_each(?)))`,
          [JSON.stringify(list(fn, `${a}.any`, t.any).map((x, i) => tag(x, `${a}.any[${i}]`)))]);
        if (t.none !== undefined) add(`NOT EXISTS (SELECT 1 FROM json_each(m.tags) j WHERE j.value IN (SELECT value FROM json_each(?)))`,
          [JSON.stringify(list(fn, `${a}.none`, t.none).map((x, i) => tag(x, `${a}.none[${i}]`)))]);
      }
    }
    for (const [name, col] of Object.entries(TIMES)) {
      if (f[name] === undefined) continue;
      const a = `${at}.${name}`;
      record(fn, a, f[name]);
      only(fn, a, f[name], RANGE);
      for (const op of RANGE) if (f[name][op] !== undefined) add(`m.${col} ${SQL_OP[op]} ?`, [time(fn, `${a}.${op}`, f[name][op])]);
    }
    if (f.metadata !== undefined) {
      const a = `${at}.metadata`;
      record(fn, a, f.metadata);
      for (const key of Object.keys(f.metadata)) {
        const k = string(fn, `${a} key`, key, limits.tag, { key: true }), v = f.metadata[key], w = `${a}.${key.slice(0, 64)}`;
        const row = (test) => `EXISTS (SELECT 1 FROM json_each(m.metadata) j WHERE j.key = ? AND ${test})`;
        if (v === null || typeof v !== "object" || Array.isArray(v)) {
          const t = valueTest(fn, w, v);
          add(row(t.sql), [k, ...t.params]);
          continue;
        }
        only(fn, w, v, ["eq", "ne", "in", "nin", "gt", "gte", "lt", "lte", "exists"]);
        for (const op of ["eq", "ne", ...RANGE]) {
          if (v[op] === undefined) continue;
          const t = valueTest(fn, `${w}.${op}`, v[op], op);
          // ne: the key holds another value, or is absent
          if (op === "ne") add(`NOT ${row(valueTest(fn, `${w}.ne`, v.ne).sql)}`, [k, ...valueTest(fn, `${w}.ne`, v.ne).params]);
          else add(row(t.sql), [k, ...t.params]);
        }
        for (const op of ["in", "nin"]) {
          if (v[op] === undefined) continue;
          const tests = list(fn, `${w}.${op}`, v[op]).map((x, i) => valueTest(fn, `${w}.${op}[${i}]`, x));
          if (!tests.length) { add(op === "in" ? "0" : "1"); continue; }
          const sql = row(`(${tests.map((t) => t.sql).join(" OR ")})`);
          add(op === "in" ? sql : `NOT ${sql}`, [k, ...tests.flatMap((t) => t.params)]);
        }
        if (v.exists !== undefined) {
          if (typeof v.exists !== "boolean") throw typeError(fn, `${w}.exists`, "a boolean", v.exists);
          add(`${v.exists ? "" : "NOT "}EXISTS (SELECT 1 FROM json_each(m.metadata) j WHERE j.key = ?)`, [k]);
        }
      }
    }
    for (const op of ["and", "or"]) {
      if (f[op] === undefined) continue;
      const subs = list(fn, `${at}.${op}`, f[op]);
      if (!subs.length) { add(op === "and" ? "1" : "0"); continue; }
      const inner = subs.map((x, i) => {
        const before = params.length;
        const sql = one(`${at}.${op}[${i}]`, x, depth + 1);
        return { sql, p: params.splice(before) };
      });
      add(`(${inner.map((x) => x.sql).join(op === "and" ? " AND " : " OR ")})`, inner.flatMap((x) => x.p));
    }
    if (f.not !== undefined) {
      const before = params.length;
      const sql = one(`${at}.not`, f.not, depth + 1);
      add(`NOT (${sql})`, params.splice(before));
    }
    return parts.length ? parts.join(" AND ") : "1";
  };
  const sql = one(arg, filter, 0);
  return { sql, params, key: JSON.stringify([sql, params]) };
}

/** The live memories a compiled filter admits: { ids: Set of rowids }, read with one query. */
export async function admitted(db, compiled, live) {
  const sql = `SELECT m.id AS id FROM memories m WHERE ${live} AND (${compiled.sql})`;
  let ids;
  if (typeof db.numbers === "function") {
    const cols = await db.numbers(sql, compiled.params);
    ids = new Set(cols.length ? cols[0] : []);
  } else ids = new Set((await db.all(sql, compiled.params)).map((r) => Number(r.id)));
  return ids;
}

/** A paging option: an integer in [0, hi]. */
export const offsetOf = (fn, at, v, hi) => finite(fn, at, v, { lo: 0, hi, integer: true, dflt: 0 });

// memdomain/cache: what a memory is. One table, FIELDS, names each field of a memory record
// (put(), importJsonl(), get()/all()/exportJsonl() return it), its column, whether put() takes
// it (the rest are what sleep() and the cache derive, which importJsonl carries back) and how it is
// checked. The SQL that writes and reads memories and the strict-key rule come from it: a record
// with a key that is not a field is a RangeError naming the key and the closest field ("embeding"
// -> "embedding"), in put, importJsonl and the workbench alike, as unknown options are.
import { CACHE_OPTIONS, checkOption } from "./schema.js";
import { rangeError, record, string, typeError } from "./validate.js";

/** A live memory: not merged or superseded away, not archived (the FTS index and every arm hold live memories only). */
export const LIVE = "superseded_by IS NULL AND archived_at IS NULL";
export const BANDS = CACHE_OPTIONS.memory.band.values;
export const ARCHIVE_REASONS = CACHE_OPTIONS.memory.archiveReason.values;


/** A memory's tags: distinct non-empty strings, at most limits.tags of at most limits.tag characters each. */
export function checkTags(fn, at, v, L) {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw typeError(fn, at, "an array of strings", v);
  if (v.length > L.tags) throw rangeError(fn, at, `has ${v.length} tags, more than the limit ${L.tags}`);
  const seen = new Set();
  v.forEach((t, i) => {
    string(fn, `${at}[${i}]`, t, L.tag, { key: true });
    if (seen.has(t)) throw rangeError(fn, `${at}[${i}]`, `repeats the tag ${JSON.stringify(t.slice(0, 80))}`);
    seen.add(t);
  });
  return [...v];
}

/** A memory's metadata: a flat object of string, finite number and boolean values (null leaves a key out). */
export function checkMetadata(fn, at, v, L) {
  if (v === undefined || v === null) return {};
  record(fn, at, v);
  const keys = Object.keys(v);
  if (keys.length > L.metadataKeys) throw rangeError(fn, at, `has ${keys.length} keys, more than the limit ${L.metadataKeys}`);
  const out = {};
  for (const k of keys) {
    string(fn, `${at} key ${JSON.stringify(k.slice(0, 40))}`, k, L.tag, { key: true });
    const x = v[k], where = `${at}.${k}`;
    if (x === null) continue;
    if (typeof x === "string") string(fn, where, x, L.metadataValue, { text: true });
    else if (typeof x === "number") { if (!Number.isFinite(x)) throw rangeError(fn, where, `must be a finite number, got ${x}`); }
    else if (typeof x !== "boolean") throw typeError(fn, where, "a string, a finite number, a boolean or null (metadata is flat)", x);
    out[k] = Object.is(x, -0) ? 0 : x;
  }
  return out;
}

/**
 * The fields: [name, column, put (does put() take it; else import only), check(fn, at, v, L, dim)
 * -> the stored value]. Order is the record's; each field's type, range and default are the
 * schema's (schema.js, group "memory"), tags and metadata checked here.
 */
const CUSTOM = { tags: checkTags, metadata: checkMetadata };
const toSnake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const FIELDS = Object.freeze(Object.entries(CACHE_OPTIONS.memory).map(([name, row]) => Object.freeze([name, toSnake(name), row.put === true,
  CUSTOM[name] ?? ((fn, at, v, L, dim) => checkOption(fn, at, row, v, row.dflt, { limits: L, dim }))])));
export const FIELD_NAMES = Object.freeze(FIELDS.map((f) => f[0]));
export const PUT_FIELDS = Object.freeze(FIELDS.filter((f) => f[2]).map((f) => f[0]));
const STORED = FIELDS.filter((f) => f[0] !== "path");

/** Every stored column as `m.<column> AS <column>` (reads join memories as m). */
export const COLUMNS = FIELDS.map((f) => `m.${f[1]} AS ${f[1]}`).join(", ");
/** UPDATE of every column but path, by id; INSERT of id and every column. */
export const UPDATE_SQL = `UPDATE memories SET ${STORED.map((f) => `${f[1]} = ?`).join(", ")} WHERE id = ?`;
export const INSERT_SQL = `INSERT INTO memories (id, ${FIELDS.map((f) => f[1]).join(", ")}) VALUES (${FIELDS.map(() => "?").join(", ")}, ?)`;

/** The columns schema 2 added (a schema-1 database gains them at open, ALTER TABLE ... ADD COLUMN). */
export const V2 = Object.freeze(["updated_at REAL", "importance REAL", "tags TEXT NOT NULL DEFAULT '[]'", "metadata TEXT NOT NULL DEFAULT '{}'",
  "seen_at REAL", "hit_count REAL NOT NULL DEFAULT 0", "hit_at REAL", "reprieve_count REAL NOT NULL DEFAULT 0", "valid_until REAL",
  "archived_at REAL", "archive_reason TEXT"]);
/** The schema's memories table (schema 2). */
export const MEMORIES_TABLE = `CREATE TABLE IF NOT EXISTS memories (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE,
    gist TEXT NOT NULL, body TEXT NOT NULL, type TEXT NOT NULL, embedding BLOB,
    created_at REAL NOT NULL, accessed_at REAL, access_count REAL NOT NULL, confidence REAL NOT NULL,
    outcome_score REAL, reinforcement_count REAL NOT NULL, contradiction_count REAL NOT NULL,
    decayed_at REAL NOT NULL, pagerank REAL, community TEXT, bridge_count REAL,
    retention_score REAL, band TEXT, superseded_by TEXT, ${V2.join(", ")})`;

/** The Levenshtein distance of two short strings. */
function distance(a, b) {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const t = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = t;
    }
  }
  return d[b.length];
}

/** The known name closest to `k` (case-insensitive edit distance), or null when none is near. */
export function closest(k, names) {
  let best = null, bd = Infinity;
  const low = String(k).toLowerCase();
  if (low.length >= 3) for (const n of names) if (n.toLowerCase().startsWith(low)) return n; // a name cut short
  for (const n of names) {
    const dd = distance(low.slice(0, 64), n.toLowerCase());
    if (dd < bd) { bd = dd; best = n; }
  }
  return bd <= Math.max(2, Math.floor(low.length / 3)) ? best : null;
}

/** The strict-key rule: every key of `o` is one of `names`, else a RangeError naming it and the closest. */
export function onlyKnown(fn, at, o, names, what = "field") {
  for (const k of Object.keys(o)) {
    if (names.includes(k)) continue;
    const near = closest(k, names);
    throw rangeError(fn, `${at}.${k.length > 64 ? `${k.slice(0, 64)}...` : k}`, `is not a known ${what}${near ? ` (did you mean ${near}?)` : ""} ` +
      `(known: ${names.join(", ")})`);
  }
}

/**
 * A checked memory record: { path, gist, body, type, vec, and every other field by name }. `full`
 * (importJsonl) takes every field as given; put() takes PUT_FIELDS, and what it does not take starts
 * over (sleep's fields null, the counts 0, not archived; seenAt is decayedAt when given).
 */
export function checkMemory(fn, m, at, dim, L, full = false) {
  record(fn, at, m);
  onlyKnown(fn, at, m, full ? FIELD_NAMES : PUT_FIELDS, full ? "memory field" : "memory field for put()");
  const r = {};
  for (const [name, , put, check] of FIELDS) {
    if (!full && !put) continue;
    r[name] = check(fn, `${at}.${name}`, m[name], L, dim);
  }
  r.vec = r.embedding;
  delete r.embedding;
  r.updatedAt ??= r.createdAt;
  if (!full) {
    r.seenAt = r.decayedAt; // decay counts from the decayedAt given, else from the first pass that sees the memory
    r.hitCount = 0; r.hitAt = null; r.reprieveCount = 0; r.validUntil = null; r.archivedAt = null; r.archiveReason = null;
    r.pagerank = null; r.community = null; r.bridgeCount = null; r.retentionScore = null; r.band = null; r.supersededBy = null;
  }
  if (full && m.seenAt === undefined) r.seenAt = r.decayedAt; // a schema-1 export: decay counted from its decayedAt
  r.decayedAt ??= r.createdAt;
  if (r.archivedAt === null) r.archiveReason = null;
  else r.archiveReason ??= "manual";
  return r;
}

/** A checked record's values in FIELDS order but path (UPDATE_SQL's, then the id). */
export function storedValues(r) {
  return STORED.map(([name, col]) => {
    if (name === "embedding") return r.vec ? new Uint8Array(r.vec.buffer, r.vec.byteOffset, r.vec.byteLength) : null;
    if (col === "tags" || col === "metadata") return JSON.stringify(r[name]);
    return r[name];
  });
}

/** Whether a checked record is live (in the index and every arm). */
export const isLive = (r) => r.supersededBy === null && r.archivedAt === null;

function parsed(s, dflt) {
  try {
    const v = JSON.parse(s);
    return v !== null && typeof v === "object" ? v : dflt;
  } catch {
    return dflt;
  }
}

/** A stored row (read with COLUMNS) as a memory record. `view` turns the embedding's bytes into a Float32Array. */
export function rowToMemory(r, view) {
  const out = {};
  for (const [name, col] of FIELDS) {
    const v = r[col];
    if (name === "embedding") out[name] = v ? view(v) ?? null : null;
    else if (name === "tags") out[name] = Array.isArray(parsed(v, [])) ? parsed(v, []) : [];
    else if (name === "metadata") out[name] = Array.isArray(parsed(v, {})) ? {} : parsed(v, {});
    else out[name] = v === undefined ? null : v;
  }
  return out;
}

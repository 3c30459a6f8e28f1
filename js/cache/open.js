// memdomain/cache: the database's schema and opening it. A database is either untouched or a
// whole memdomain cache: what it holds is read before anything is written (a foreign database
// is refused, never written to), and a fresh one gets every table in one batch; a cache of an
// older schema is upgraded in that batch, and the optional tables a newer cache added are
// created when missing.
import { checkEmbed } from "./embed.js";
import { MEMORIES_TABLE, V2 } from "./records.js";
import { pathError } from "./adapters.js";
import { isBusy } from "./consistency.js";
import { checkOptions } from "./schema.js";
import { byPath, loneSurrogate, messageOf, rangeError, typeError } from "./validate.js";

export const SCHEMA_VERSION = 2;

/**
 * The paths each write batch touched, by generation (consistency.js). Optional in a memdomain
 * database (created at open when missing; md_meta.log_since: the log is complete after it).
 */
const LOG_TABLE = "CREATE TABLE IF NOT EXISTS md_log (gen INTEGER NOT NULL, path TEXT NOT NULL, PRIMARY KEY (gen, path)) WITHOUT ROWID";

/**
 * The sleep pass's neighbour lists with their exact similarities, one row per memory with an
 * embedding at the pass (see sleep.js): the next pass recomputes only what changed since
 * (md_meta.neighbors_gen, the generation of the pass that wrote them, and md_log). Optional
 * (created at open when missing; a database without lists gets a full pass).
 */
const NEIGHBORS_TABLE = `CREATE TABLE IF NOT EXISTS md_neighbors (src TEXT PRIMARY KEY, partial INTEGER NOT NULL,
  dsts TEXT NOT NULL, sims BLOB) WITHOUT ROWID`;

/**
 * Labels for calibration: a search's query and a path it returned that reinforce() then called
 * "positive" (see calibrate.js). Optional (created at open when missing); the last MAX_LABELS are kept.
 */
const LABELS_TABLE = `CREATE TABLE IF NOT EXISTS md_labels (id INTEGER PRIMARY KEY, path TEXT NOT NULL, text TEXT NOT NULL,
  vector BLOB, at REAL NOT NULL)`;

const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS md_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  MEMORIES_TABLE,
  "CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(gist, body)",
  "CREATE VIRTUAL TABLE IF NOT EXISTS memories_vocab USING fts5vocab(memories_fts, 'row')",
  `CREATE TABLE IF NOT EXISTS edges (src TEXT NOT NULL, dst TEXT NOT NULL, type TEXT NOT NULL,
    strength REAL NOT NULL, origin TEXT NOT NULL, PRIMARY KEY (src, dst, type))`,
  "CREATE INDEX IF NOT EXISTS edges_dst ON edges (dst)",
  LOG_TABLE,
  NEIGHBORS_TABLE,
  LABELS_TABLE,
];
/** The tables a memdomain cache database holds (FTS5's shadow tables come with memories_fts). */
const TABLES = ["edges", "md_meta", "memories", "memories_fts", "memories_vocab"];

/** options.path: a non-empty, well-formed string without NUL (a C API would stop at the NUL and open another file). */
function checkPath(fn, path) {
  if (typeof path !== "string") throw typeError(fn, "options.path", "a string", path);
  if (path.length === 0) throw new TypeError(`${fn}: options.path must be a non-empty string`);
  const nul = path.indexOf("\u0000");
  if (nul >= 0) {
    throw new TypeError(`${fn}: options.path must not hold a NUL character (at index ${nul}): the file opened would be another`);
  }
  const at = loneSurrogate(path);
  if (at >= 0) throw new TypeError(`${fn}: options.path holds a lone surrogate at index ${at}: the file name would become U+FFFD`);
}

/**
 * What the database holds, read before anything is written: { fresh: true } for an empty
 * database; { meta } for a memdomain cache; else a RangeError (a foreign database is never
 * written to: not even CREATE TABLE IF NOT EXISTS, which would add tables beside its own).
 */
async function readSchema(fn, db, where) {
  const rows = await db.all(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view')
    AND substr(name, 1, 7) <> 'sqlite_' AND substr(name, 1, 4) <> '_cf_'`);
  const names = rows.map((r) => r.name).sort(byPath);
  if (names.length === 0) return { fresh: true, meta: {}, names };
  let meta = null;
  if (names.includes("md_meta")) {
    try {
      meta = Object.fromEntries((await db.all("SELECT key, value FROM md_meta")).map((r) => [r.key, r.value]));
    } catch (e) {
      // an md_meta without our columns is not ours; any other failure (a lock, an I/O error) is the read's, not the
      // database's: refusing a real cache as foreign because one read failed would be a wrong answer
      if (!/no such column/i.test(messageOf(e))) throw e;
    }
  }
  if (!meta || meta.schema === undefined) {
    const shown = names.filter((n) => !n.startsWith("memories_fts_"));
    throw rangeError(fn, where, `holds a SQLite database that is not a memdomain cache (tables: ${shown.slice(0, 12).join(", ")}` +
      `${shown.length > 12 ? ", ..." : ""}); refusing to write to it`);
  }
  if (Number(meta.schema) !== SCHEMA_VERSION && Number(meta.schema) !== 1)
    throw rangeError(fn, "options", `open a cache of schema ${meta.schema}; this memdomain/cache reads schema ${SCHEMA_VERSION} (and 1, which it upgrades)`);
  const missing = TABLES.filter((t) => !names.includes(t));
  if (missing.length) {
    throw rangeError(fn, where, `holds a memdomain cache database without its table(s) ${missing.join(", ")}; refusing to write to it`);
  }
  return { fresh: false, meta, names };
}

/**
 * openMemoryCache's options, checked before anything is opened: { embed, limits, dim, onExternalChange,
 * busyTimeout, maxResident (undefined: the backend's default budget), searchAccess, lexicalIndexMin }.
 */
export function checkOpenOptions(fn, options) {
  const c = checkOptions(fn, "options", options, "open", { skip: ["embedBatch"] });
  const embed = checkEmbed(fn, options.embed, options.embedBatch);
  const maxResident = options.maxResidentBytes === undefined ? undefined : c.maxResidentBytes;
  if (options.storage !== undefined) {
    for (const other of ["db", "path", "bytes"]) {
      if (options[other] !== undefined) throw new TypeError(`${fn}: options.storage and options.${other} name two databases; pass one`);
    }
  }
  if (options.db === undefined && options.path !== undefined) checkPath(fn, options.path);
  return { embed, limits: c.limits, dim: c.dim, onExternalChange: c.onExternalChange, busyTimeout: c.busyTimeout, maxResident,
    searchAccess: c.searchAccess, lexicalIndexMin: c.lexicalIndexMin };
}

/**
 * Read what the opened database holds and make it a memdomain cache of this schema, in one batch:
 * every table for a fresh database, the upgrade of an older one, the optional tables it lacks, and
 * `dim` when given and none is stored (a RangeError when another is).
 */
export async function prepareDatabase(fn, db, options, dim) {
  const where = options.storage !== undefined ? "options.storage" : options.db !== undefined ? "options.db"
    : options.bytes !== undefined ? "options.bytes" : "options.path";
  let schema;
  try {
    schema = await readSchema(fn, db, where);
  } catch (e) {
    if (!(e instanceof RangeError) && !isBusy(e)) {
      if (options.bytes !== undefined) throw rangeError(fn, "options.bytes", `is not a usable SQLite database (${messageOf(e)})`);
      if (where === "options.path") throw pathError(options.path, `is not a usable SQLite database (${messageOf(e)})`, e);
    }
    throw e;
  }
  const stored = schema.meta.dim === undefined ? null : Number(schema.meta.dim);
  if (dim !== null && stored !== null && dim !== stored)
    throw rangeError(fn, "options.dim", `is ${dim}, but the cache holds embeddings of dimension ${stored}`);
  // one batch: a database is either untouched or a whole memdomain cache (OR IGNORE: another opener may have won the race)
  const writes = schema.fresh ? SCHEMA.map((sql) => ({ sql })) : [];
  const keep = (key, value) => writes.push({ sql: "INSERT OR IGNORE INTO md_meta (key, value) VALUES (?, ?)", params: [key, value] });
  if (schema.meta.schema === undefined) keep("schema", String(SCHEMA_VERSION));
  if (Number(schema.meta.schema) === 1) { // schema 1 -> 2: the columns of archive, reprieve, access from searches, tags and metadata
    for (const c of V2) writes.push({ sql: `ALTER TABLE memories ADD COLUMN ${c}` });
    writes.push({ sql: "UPDATE memories SET updated_at = created_at, seen_at = decayed_at" });
    writes.push({ sql: "UPDATE md_meta SET value = ? WHERE key = 'schema'", params: [String(SCHEMA_VERSION)] });
  }
  if (schema.meta.generation === undefined) keep("generation", "0");
  if (!schema.names.includes("md_log")) { // a cache made before the log: it is complete from now on
    if (!schema.fresh) writes.push({ sql: LOG_TABLE });
    writes.push({ sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES ('log_since', coalesce((SELECT value FROM md_meta " +
      "WHERE key = 'generation'), '0'))" });
  }
  if (!schema.fresh && !schema.names.includes("md_neighbors")) writes.push({ sql: NEIGHBORS_TABLE });
  if (!schema.fresh && !schema.names.includes("md_labels")) writes.push({ sql: LABELS_TABLE });
  if (stored === null && dim !== null) keep("dim", String(dim));
  await db.batch(writes);
}

// The workbench's data format: memdomain/cache's JSON Lines, plus the page's own lines.
//
// Memory, edge and watermark lines are exactly what memdomain/cache's importJsonl() takes and
// exportJsonl() writes (a memory line with only put()'s fields is a put; times are milliseconds
// since the epoch, as put() takes them):
//   {"path": "notes/a.md", "gist": "...", "body": "...", "type": "semantic", "embedding": [0.1, ...],
//    "createdAt": 1790000000000, "accessedAt": null, "accessCount": 3, "confidence": 0.9, ...}
//   {"edge": {"src": "notes/a.md", "dst": "notes/b.md", "type": "supports", "strength": 0.8, "origin": "link"}}
//   {"watermarks": {"mergeCycle": 20513}}
// The page hands them to importJsonl() as they are, so they are checked by the cache alone, in
// its words. The page's own lines (never a path) are told apart by their key:
//   {"meta": {"name": "my memories", "now": 1793491200000, "settings": {...}}}   name, "as of", settings
//   {"query": "how do I rotate the keys", "id": "q1", "vector": [...], "relevant": ["notes/a.md"]}
// `relevant` may also map paths to grades (0 to 10, as tune() takes them). The export writes
// memories.jsonl as exportJsonl() gives it and the page's lines into queries.jsonl (meta first).
import { CACHE_OPTIONS, DEFAULT_LIMITS, checkOption } from "../build/demo/memdomain.js";

const DAY = 86400000;
// the page's own fields, as rows of memdomain/cache's option schema (checked by its checkOption, in its words)
const PAGE = {
  meta: { type: "object", required: true }, name: { type: "string", max: 200 }, now: { type: "time", required: true },
  note: { type: "string", max: 4000 }, queryEncoder: { type: "string", max: 100 }, settings: { type: "object", required: true },
  id: { type: "string", max: 200, key: true }, text: { type: "string", max: DEFAULT_LIMITS.query },
  vector: { type: "vector", nullable: true, nonzero: true }, relevant: { type: "object", required: true },
};
const { memory: MEMORY, labelled: LABELLED } = CACHE_OPTIONS;
const META_KEYS = ["name", "now", "note", "queryEncoder", "settings"];
const QUERY_KEYS = ["id", "query", "vector", "relevant"];

/** A line of the page's own (meta or a query), or null for a line the cache reads. */
function pageLine(line) {
  if (!/^\s*\{/.test(line) || !/"(meta|query)"/.test(line)) return null; // cheap: most lines are memories
  let r;
  try {
    r = JSON.parse(line);
  } catch {
    return null; // the cache names a line that is not JSON
  }
  if (r === null || typeof r !== "object" || Array.isArray(r) || "path" in r) return null;
  return "meta" in r || "query" in r ? r : null;
}

/**
 * Sort the lines of text files: { cacheText, pageLines, locate, memoryLines }. `cacheText` holds
 * every file's lines for importJsonl() in order, the page's lines blanked (importJsonl skips blank
 * lines), so its "text line N" is the N-th line of the files one after another; `locate(N)` says
 * which file and line that is. `pageLines` is [{ r, file, line }].
 */
export function splitFiles(files) {
  const parts = [], pageLines = [], starts = [];
  let offset = 0, memoryLines = 0;
  for (const { name, text } of files) {
    const lines = text.split("\n");
    starts.push({ offset, name });
    lines.forEach((l, i) => {
      const r = l.trim() ? pageLine(l) : null;
      if (r) {
        pageLines.push({ r, file: name, line: i + 1 });
        parts.push("");
      } else {
        if (l.trim()) memoryLines++;
        parts.push(l);
      }
    });
    offset += lines.length;
  }
  const locate = (n) => {
    let s = starts[0];
    for (const x of starts) if (x.offset < n) s = x;
    return { file: s.name, line: n - s.offset };
  };
  return { cacheText: parts.join("\n"), pageLines, locate, memoryLines };
}

/** The cache's message with its "text line N" turned into the file and line it came from. */
export function locateMessage(message, locate) {
  return message.replace(/text line (\d+)/g, (_, n) => {
    const w = locate(Number(n));
    return `${w.file} line ${w.line}`;
  });
}

/**
 * The page's lines, checked with the cache's own checks (memdomain/cache's checkOption and its
 * option schema: the words put() and search() use): { meta, queries, errors: [{ file, line, message }], warnings }.
 * `dim` is the memories' embedding dimension (query vectors must have it: search() refuses
 * others), `paths` the stored memories (a relevant path that is none is a warning: it can never
 * be returned). `meta` starts from `base` (the page's lines of a SQLite file); later lines win.
 */
export function parsePage(pageLines, { dim, paths, base = {} }) {
  const meta = { ...base }, queries = [], errors = [], warnings = [];
  const ids = new Map();
  for (const { r, file, line } of pageLines) {
    const at = { file, line };
    try {
      if ("meta" in r) {
        if (Object.keys(r).length !== 1) throw new RangeError(`a meta line holds only "meta", not ${Object.keys(r).filter((k) => k !== "meta").join(", ")}`);
        const m = checkOption("meta", "meta", PAGE.meta, r.meta);
        for (const k of Object.keys(m)) if (!META_KEYS.includes(k)) throw new RangeError(`meta.${k} is not a meta field (${META_KEYS.join(", ")})`);
        // settings: checked by the API with the page's settings
        for (const k of META_KEYS) if (m[k] !== undefined) meta[k] = checkOption("meta", k, PAGE[k], m[k]);
        continue;
      }
      for (const k of Object.keys(r)) if (!QUERY_KEYS.includes(k)) throw new RangeError(`query.${k} is not a query field (${QUERY_KEYS.join(", ")})`);
      const q = { id: r.id === undefined ? null : checkOption("query", "id", PAGE.id, r.id), text: checkOption("search", "query.text", PAGE.text, r.query) };
      q.vector = checkOption("search", "query.vector", PAGE.vector, r.vector, undefined, { dim });
      if (r.relevant === undefined || r.relevant === null) q.relevant = null;
      else {
        const rel = {};
        if (Array.isArray(r.relevant)) r.relevant.forEach((p, i) => { rel[checkOption("tune", `relevant[${i}]`, MEMORY.path, p)] = 1; });
        else {
          for (const [p, g] of Object.entries(checkOption("tune", "relevant", PAGE.relevant, r.relevant)))
            rel[p] = checkOption("tune", `relevant[${JSON.stringify(p)}]`, LABELLED.relevant.grade, g);
        }
        const missing = Object.keys(rel).filter((p) => !paths.has(p));
        if (missing.length) {
          warnings.push(`${file} line ${line}: ${missing.length} relevant path${missing.length > 1 ? "s are" : " is"} not a memory here ` +
            `(${missing.slice(0, 3).map((p) => JSON.stringify(p)).join(", ")}${missing.length > 3 ? ", ..." : ""}): no search can return ${missing.length > 1 ? "them" : "it"}`);
        }
        q.relevant = rel;
      }
      if (q.id !== null) {
        if (ids.has(q.id)) throw new RangeError(`query id ${JSON.stringify(q.id)} repeats ${ids.get(q.id)}'s`);
        ids.set(q.id, `${file} line ${line}`);
      }
      q.at = `${file} line ${line}`;
      queries.push(q);
    } catch (e) {
      errors.push({ ...at, message: e.message });
    }
  }
  // queries without an id get the first free q1, q2, ... (kept on export, so a round trip keeps them)
  let n = 0;
  for (const q of queries) {
    if (q.id !== null) continue;
    do q.id = `q${++n}`; while (ids.has(q.id));
    ids.set(q.id, q.at);
  }
  for (const q of queries) delete q.at;
  return { meta, queries, errors, warnings };
}

/** "a.jsonl lines 1–3, 7", given [{ file, line }] in order. */
function spans(list) {
  const out = [];
  for (const { file, line } of list) {
    const last = out.at(-1);
    if (last && last.file === file) {
      const r = last.ranges.at(-1);
      if (line === r[1] + 1) r[1] = line;
      else last.ranges.push([line, line]);
    } else out.push({ file, ranges: [[line, line]] });
  }
  return out.map(({ file, ranges }) => {
    const one = ranges.length === 1 && ranges[0][0] === ranges[0][1];
    return `${file} line${one ? "" : "s"} ${ranges.map(([a, b]) => (a === b ? String(a) : `${a}–${b}`)).join(", ")}`;
  }).join("; ");
}

/**
 * Errors grouped by their message, in line order (files in the order given): one sentence per
 * message, naming every line that has it.
 */
export function groupErrors(errors, fileOrder) {
  const rank = new Map(fileOrder.map((f, i) => [f, i]));
  const sorted = [...errors].sort((a, b) => (rank.get(a.file) ?? 0) - (rank.get(b.file) ?? 0) || a.line - b.line);
  const groups = new Map();
  for (const e of sorted) {
    if (!groups.has(e.message)) groups.set(e.message, []);
    groups.get(e.message).push(e);
  }
  return [...groups].map(([message, list]) => `${spans(list)}${list.length > 1 ? ` (${list.length} lines)` : ""}: ${message}`);
}

/** The page's lines as text (queries.jsonl): the meta line, then one line per query. */
export function pageJsonl({ meta, queries, settings }) {
  const m = { name: meta.name, now: meta.now };
  if (meta.note !== undefined) m.note = meta.note;
  if (meta.queryEncoder !== undefined) m.queryEncoder = meta.queryEncoder;
  if (settings) m.settings = settings;
  const lines = [JSON.stringify({ meta: m })];
  for (const q of queries) {
    const x = { id: q.id, query: q.text };
    if (q.vector) x.vector = Array.from(q.vector);
    if (q.relevant) x.relevant = q.relevant;
    lines.push(JSON.stringify(x));
  }
  return lines.map((l) => `${l}\n`).join("");
}

/** The latest createdAt or accessedAt of the memories (the "as of" of a dataset that names none), or null. */
export function latestTime(memories) {
  let t = -Infinity;
  for (const m of memories) t = Math.max(t, m.createdAt, m.accessedAt ?? -Infinity);
  return Number.isFinite(t) ? t : null;
}

/** Days between a memory's createdAt and the dataset's now (the retention scorer's ageDays, as sleep() counts it). */
export const ageDays = (m, now) => (now - m.createdAt) / DAY;

/** Whitespace-separated words of the body (the retention scorer's wordCount, as sleep() counts them). */
export const wordCount = (body) => body.split(/\s+/).filter(Boolean).length;

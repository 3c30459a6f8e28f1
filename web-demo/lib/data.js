// The workbench's data format: JSON Lines, one record per line, told apart by its keys.
//
//   {"path": "notes/a.md", "gist": "...", "body": "...", "type": "semantic", "embedding": [0.1, ...],
//    "createdAt": 1790000000000 | "2026-10-01T12:00:00Z", "accessedAt": ..., "accessCount": 3,
//    "confidence": 0.9, "outcomeScore": 0.2, "reinforcementCount": 1, "contradictionCount": 0}
//   {"src": "notes/a.md", "dst": "notes/b.md", "strength": 0.8, "type": "supports"}
//   {"query": "how do I rotate the keys", "vector": [...], "relevant": ["notes/a.md", ...], "id": "q1"}
//   {"meta": {"name": "my memories", "now": "2026-11-01T00:00:00Z"}}
//
// A memory line is what memdomain/cache's put() takes (its exportJsonl() lines import as they are;
// the fields sleep derives are ignored). `relevant` may also map paths to graded relevance (> 0).
// `ageDays` may stand in for createdAt (days before `now`). Invalid lines are reported with their
// line number and skipped; everything else is used.

const DAY = 86400000;
const MAX_ERRORS = 50;

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const describe = (v) => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "string" ? `"${v.slice(0, 40)}"` : typeof v === "object" ? "an object" : String(v));

function time(v, what) {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string") {
    const t = Date.parse(v);
    if (Number.isFinite(t)) return t;
  }
  throw new Error(`${what} must be milliseconds since the epoch or an ISO date, got ${describe(v)}`);
}

function number(v, what, { lo = -Infinity, hi = Infinity, dflt, nullable = false } = {}) {
  if (v === undefined) return dflt;
  if (v === null && nullable) return null;
  if (typeof v !== "number" || !(v >= lo && v <= hi)) throw new Error(`${what} must be a number in [${lo}, ${hi}], got ${describe(v)}`);
  return v;
}

function text(v, what, { dflt, max = 1_000_000 } = {}) {
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== "string") throw new Error(`${what} must be a string, got ${describe(v)}`);
  if (v.length > max) throw new Error(`${what} is longer than ${max} characters`);
  return v;
}

function vector(v, what, dim) {
  if (!Array.isArray(v) || v.length === 0) throw new Error(`${what} must be a non-empty array of numbers, got ${describe(v)}`);
  if (dim !== null && v.length !== dim) throw new Error(`${what} has ${v.length} numbers, but the dataset's embeddings have ${dim}`);
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) {
    if (typeof v[i] !== "number" || !Number.isFinite(v[i])) throw new Error(`${what}[${i}] must be a finite number, got ${describe(v[i])}`);
    out[i] = v[i];
  }
  return out;
}

/**
 * Parse one or more JSONL texts into a dataset: { meta, memories, edges, queries, errors, warnings }.
 * `files` is [{ name, text }]. Memories keep their first occurrence; later duplicates are errors.
 */
export function parseDataset(files) {
  const meta = {};
  const memories = [], edges = [], queries = [], errors = [], warnings = [];
  const seen = new Map();
  let dim = null;
  const pending = [];
  const fail = (where, message) => { if (errors.length < MAX_ERRORS) errors.push(`${where}: ${message}`); else errors.truncated = true; };
  for (const { name, text: body } of files) {
    const lines = body.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      if (!line) continue;
      const where = `${name} line ${i + 1}`;
      let r;
      try {
        r = JSON.parse(line);
      } catch (e) {
        fail(where, `not JSON (${e.message})`);
        continue;
      }
      if (!isObj(r)) { fail(where, `a line must be a JSON object, got ${describe(r)}`); continue; }
      try {
        if ("meta" in r) {
          if (!isObj(r.meta)) throw new Error("meta must be an object");
          if (r.meta.name !== undefined) meta.name = text(r.meta.name, "meta.name", { max: 200 });
          if (r.meta.now !== undefined) meta.now = time(r.meta.now, "meta.now");
          if (r.meta.note !== undefined) meta.note = text(r.meta.note, "meta.note", { max: 2000 });
          if (r.meta.queryEncoder !== undefined) meta.queryEncoder = text(r.meta.queryEncoder, "meta.queryEncoder", { max: 100 });
        } else if ("path" in r) {
          pending.push({ r, where });
        } else if ("src" in r || "dst" in r) {
          edges.push({
            src: text(r.src, "src", { max: 1024 }), dst: text(r.dst, "dst", { max: 1024 }),
            strength: number(r.strength, "strength", { lo: 0, hi: 1, dflt: 1 }),
            type: text(r.type, "type", { dflt: "related", max: 64 }), where,
          });
        } else if ("query" in r) {
          pending.push({ r, where, query: true });
        } else throw new Error("is neither a memory (path), an edge (src, dst), a query (query) nor meta");
      } catch (e) {
        fail(where, e.message);
      }
    }
  }
  const now = meta.now ?? null;
  // memories first (they fix the dimension and the "now" default), then queries
  let latest = -Infinity, undated = 0;
  for (const { r, where, query } of pending) {
    if (query) continue;
    try {
      const path = text(r.path, "path", { max: 1024 });
      if (!path) throw new Error("path must not be empty");
      if (seen.has(path)) throw new Error(`path ${JSON.stringify(path.slice(0, 80))} repeats ${seen.get(path)}`);
      const embedding = r.embedding === undefined || r.embedding === null ? null : vector(r.embedding, "embedding", dim);
      if (embedding && dim === null) dim = embedding.length;
      let createdAt = null;
      if (r.createdAt !== undefined) createdAt = time(r.createdAt, "createdAt");
      else if (r.ageDays !== undefined) createdAt = { ageDays: number(r.ageDays, "ageDays", { lo: 0 }) };
      const m = {
        path, gist: text(r.gist, "gist", { max: 4096 }), body: text(r.body, "body", { dflt: "" }),
        type: text(r.type, "type", { max: 64 }), embedding, createdAt,
        accessedAt: r.accessedAt === undefined || r.accessedAt === null ? null : time(r.accessedAt, "accessedAt"),
        accessCount: number(r.accessCount, "accessCount", { lo: 0, dflt: 0 }),
        confidence: number(r.confidence, "confidence", { lo: 0, hi: 1, dflt: 1 }),
        outcomeScore: number(r.outcomeScore, "outcomeScore", { lo: -1, hi: 1, dflt: null, nullable: true }),
        reinforcementCount: number(r.reinforcementCount, "reinforcementCount", { lo: 0, dflt: 0 }),
        contradictionCount: number(r.contradictionCount, "contradictionCount", { lo: 0, dflt: 0 }),
      };
      seen.set(path, where);
      if (typeof createdAt === "number") latest = Math.max(latest, createdAt, m.accessedAt ?? -Infinity);
      memories.push(m);
    } catch (e) {
      fail(where, e.message);
    }
  }
  // "now": the dataset's own, else its latest timestamp, so ages are reproducible rather than today's
  meta.now = now ?? (Number.isFinite(latest) ? latest : Date.UTC(2026, 10, 1));
  for (const m of memories) {
    if (m.createdAt === null) { m.createdAt = meta.now; undated++; }
    else if (typeof m.createdAt === "object") m.createdAt = meta.now - m.createdAt.ageDays * DAY;
  }
  if (undated) warnings.push(`${undated} memories have neither createdAt nor ageDays: they are ${new Date(meta.now).toISOString().slice(0, 10)} (age 0)`);
  const noVec = memories.filter((m) => !m.embedding).length;
  if (noVec && noVec < memories.length) warnings.push(`${noVec} memories have no embedding: the vector arm cannot find them`);
  // edges whose ends are not memories are dropped
  const kept = edges.filter((e) => seen.has(e.src) && seen.has(e.dst));
  if (kept.length < edges.length) warnings.push(`${edges.length - kept.length} edges name a path that is not a memory and were dropped`);
  for (const e of kept) delete e.where;
  let qn = 0;
  const ids = new Set();
  for (const { r, where, query } of pending) {
    if (!query) continue;
    try {
      const q = { id: r.id === undefined ? null : text(r.id, "id", { max: 200 }), text: text(r.query, "query", { max: 4096 }) };
      q.vector = r.vector === undefined || r.vector === null ? null : vector(r.vector, "vector", dim);
      if (r.relevant !== undefined) {
        const rel = new Map();
        if (Array.isArray(r.relevant)) for (const [i, p] of r.relevant.entries()) rel.set(text(p, `relevant[${i}]`, { max: 1024 }), 1);
        else if (isObj(r.relevant)) for (const [p, g] of Object.entries(r.relevant)) rel.set(p, number(g, `relevant[${JSON.stringify(p)}]`, { lo: 0, hi: 100 }));
        else throw new Error(`relevant must be an array of paths or an object of path -> grade, got ${describe(r.relevant)}`);
        const missing = [...rel.keys()].filter((p) => !seen.has(p));
        if (missing.length) warnings.push(`${where}: ${missing.length} relevant paths are not memories (${missing.slice(0, 3).join(", ")})`);
        q.relevant = Object.fromEntries([...rel].filter(([p, g]) => seen.has(p) && g > 0));
      } else q.relevant = null;
      q.id ??= `q${++qn}`;
      while (ids.has(q.id)) q.id = `q${++qn}`;
      ids.add(q.id);
      queries.push(q);
    } catch (e) {
      fail(where, e.message);
    }
  }
  return { meta, memories, edges: kept, queries, dim, errors, warnings };
}

/** The dataset as the import format: memories.jsonl (meta, memories, edges) and queries.jsonl (queries with labels). */
export function toJsonl(ds) {
  const mem = [JSON.stringify({ meta: { name: ds.meta.name ?? "exported", now: ds.meta.now, ...(ds.meta.queryEncoder ? { queryEncoder: ds.meta.queryEncoder } : {}) } })];
  for (const m of ds.memories)
    mem.push(JSON.stringify({ path: m.path, gist: m.gist, body: m.body, type: m.type, embedding: m.embedding ? Array.from(m.embedding) : null,
      createdAt: m.createdAt, accessedAt: m.accessedAt, accessCount: m.accessCount, confidence: m.confidence, outcomeScore: m.outcomeScore,
      reinforcementCount: m.reinforcementCount, contradictionCount: m.contradictionCount }));
  for (const e of ds.edges) mem.push(JSON.stringify({ src: e.src, dst: e.dst, strength: e.strength, type: e.type }));
  const qs = ds.queries.map((q) => JSON.stringify({ id: q.id, query: q.text, vector: q.vector ? Array.from(q.vector) : null,
    ...(q.relevant ? { relevant: q.relevant } : {}) }));
  return { memories: mem.join("\n") + "\n", queries: qs.join("\n") + (qs.length ? "\n" : "") };
}

/** Days between a memory's createdAt and the dataset's now (the retention scorer's ageDays). */
export const ageDays = (m, now) => (now - m.createdAt) / DAY;

/** Whitespace-separated words of the body (the retention scorer's wordCount). */
export const wordCount = (body) => body.split(/\s+/).filter(Boolean).length;

// memdomain/mcp: an MCP (Model Context Protocol) memory server over memdomain/cache.
//
// createMemoryServer(cache, options) registers the memory tools on an SDK McpServer (remember,
// recall, reinforce, forget, restore, link, sleep, list, stats); serveStdio(options) opens a cache
// on a file and serves it over stdio (the memdomain-mcp command, js/bin/memdomain-mcp.js).
// @modelcontextprotocol/sdk and zod (its peer) are optional peers of memdomain: only this entry
// point imports them, never memdomain or memdomain/cache. docs/MCP.md is the guide.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod/v4";
import { openMemoryCache } from "../cache/index.js";

/** The tools createMemoryServer registers, in order. */
export const TOOLS = Object.freeze(["remember", "recall", "reinforce", "forget", "restore", "link", "sleep", "list", "stats"]);

/** The default database file of serveStdio and memdomain-mcp (MEMDOMAIN_DB overrides it). */
export const DEFAULT_DB = "./memdomain-memory.db";

/** The most characters of a memory's text recall returns per hit (the rest is cut, with "…"). */
export const RECALL_TEXT_CHARS = 2000;

const VERSION = "0.1.0";

const metadataValue = z.union([z.string(), z.number(), z.boolean()]);
const time = z.union([z.number(), z.string()]).describe("milliseconds since the epoch or an ISO 8601 date");
const pathArg = z.string().min(1).describe("the memory's path (as remember returned it)");

/** A time argument as milliseconds: a number as it is, a string through Date.parse (an unparsable date is an error naming `name`). */
function ms(tool, name, v) {
  if (v === undefined) return undefined;
  if (typeof v === "number") return v;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new ArgumentError(`${tool}: ${name} is not a date (${JSON.stringify(v).slice(0, 80)})`);
  return t;
}

class ArgumentError extends Error {}

/**
 * A cache error's message in the tool's own words: the cache names its method and field
 * ("archive: paths[0] names no stored memory"); the tool's argument is `path`.
 */
function message(tool, e, fields) {
  let text = e instanceof Error ? e.message : String(e);
  text = text.replace(/^[A-Za-z]+: /, "");
  for (const [from, to] of fields) text = text.split(from).join(to);
  return `${tool}: ${text}`;
}

/** A gist from a text: its first line, at most 200 characters (cut at a word where one is near). */
function gistOf(text) {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? "";
  if (line.length <= 200) return line;
  const cut = line.slice(0, 200);
  const space = cut.lastIndexOf(" ");
  return `${(space > 120 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A path for a memory given without one: memories/<slug of the gist>-<8 hex digits>. */
function generatedPath(gist) {
  const slug = gist.normalize("NFKD").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, 48).replace(/-+$/, "");
  const id = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, "0")).join("");
  return `memories/${slug || "memory"}-${id}`;
}

const text = (t) => [{ type: "text", text: t }];
const round = (x) => Math.round(x * 1e4) / 1e4;

/**
 * Register the memory tools on a new McpServer over `cache` (an open memdomain/cache
 * MemoryCache). options: { name ("memdomain"), version, now (a function returning the time in ms
 * for reinforce, forget, restore, sleep and remember's createdAt; default Date.now), type (the
 * default memory type, "semantic"), recallTextChars (RECALL_TEXT_CHARS) }. The caller connects it
 * to a transport; the cache stays the caller's to close.
 */
export function createMemoryServer(cache, options = {}) {
  if (cache === null || typeof cache !== "object" || typeof cache.search !== "function" || typeof cache.put !== "function")
    throw new TypeError("createMemoryServer: cache must be an open memdomain/cache MemoryCache (openMemoryCache())");
  if (options === null || typeof options !== "object") throw new TypeError("createMemoryServer: options must be an object");
  const known = ["name", "version", "now", "type", "recallTextChars", "instructions"];
  for (const k of Object.keys(options)) {
    if (!known.includes(k)) throw new RangeError(`createMemoryServer: options.${k} is not an option (${known.join(", ")})`);
  }
  const now = options.now ?? Date.now;
  if (typeof now !== "function") throw new TypeError("createMemoryServer: options.now must be a function returning milliseconds");
  const defaultType = options.type ?? "semantic";
  const textChars = options.recallTextChars ?? RECALL_TEXT_CHARS;
  if (!Number.isInteger(textChars) || textChars < 0) throw new RangeError("createMemoryServer: options.recallTextChars must be an integer >= 0");

  const server = new McpServer({ name: options.name ?? "memdomain", version: options.version ?? VERSION }, {
    instructions: options.instructions ?? "A long-term memory. remember stores a memory; recall searches them (ranked by words, links, " +
      "use and vectors); reinforce says a recalled memory helped (or misled); forget archives one (restore brings it back); " +
      "link ties two; sleep runs maintenance (decay, merges, retention).",
  });

  /** Register one tool whose handler returns { text, data }; a thrown error is a tool result with isError, in the tool's words. */
  const tool = (name, config, fields, handler) => server.registerTool(name, config, async (args) => {
    try {
      const { text: t, data } = await handler(args);
      return { content: text(t), structuredContent: data };
    } catch (e) {
      return { content: text(e instanceof ArgumentError ? e.message : message(name, e, fields)), isError: true };
    }
  });

  tool("remember", {
    title: "Remember",
    description: "Store a memory. Give its text; a path (generated when left out, and returned), a one-line gist (default: the " +
      "text's first line), a type (semantic, episodic, procedural, ...), importance 1-10, tags and flat metadata are optional. " +
      "Remembering an existing path replaces that memory.",
    inputSchema: {
      text: z.string().min(1).describe("the memory's content"),
      path: z.string().min(1).optional().describe("where to store it, e.g. notes/deploy (default: generated from the gist)"),
      gist: z.string().min(1).optional().describe("a one-line claim: searched with 3 times the weight of the text"),
      type: z.string().min(1).optional().describe(`the memory type, e.g. semantic, episodic, procedural (default ${defaultType})`),
      importance: z.number().int().min(1).max(10).optional().describe("1 to 10: how much the memory matters when sleep decides what to keep"),
      tags: z.array(z.string().min(1)).optional().describe("distinct tags, for recall's filters"),
      metadata: z.record(z.string(), metadataValue).optional().describe("flat metadata: strings, numbers, booleans"),
      confidence: z.number().min(0).max(1).optional().describe("0 to 1 (default 1): decays with sleep passes"),
      createdAt: time.optional().describe("when it happened (default: now)"),
      embedding: z.array(z.number()).min(1).optional().describe("the memory's vector, if the client embeds (every memory the same dimension)"),
    },
  }, [["memories[0].", ""], ["memories", "memory"]], async (a) => {
    const gist = a.gist ?? gistOf(a.text);
    if (!gist) throw new ArgumentError("remember: text holds no line to make a gist of; give gist");
    const path = a.path ?? generatedPath(gist);
    const m = { path, gist, body: a.text, type: a.type ?? defaultType, createdAt: ms("remember", "createdAt", a.createdAt) ?? now() };
    for (const k of ["importance", "tags", "metadata", "confidence"]) if (a[k] !== undefined) m[k] = a[k];
    if (a.embedding !== undefined) m.embedding = new Float32Array(a.embedding);
    const r = await cache.put([m]);
    return { text: `${r.replaced ? "Replaced" : "Remembered"} ${path}`, data: { path, replaced: r.replaced > 0 } };
  });

  const recallHit = z.object({
    path: z.string(), score: z.number(), gist: z.string(), text: z.string(), type: z.string(),
    tags: z.array(z.string()), metadata: z.record(z.string(), metadataValue), createdAt: z.number(),
  });
  tool("recall", {
    title: "Recall",
    description: "Search the memories: hybrid ranking over words (bm25 on gist and text), vectors (when given), use (memories " +
      "reinforced and recalled often) and links. Filters narrow it before ranking; limit and offset page it. Returns each hit's " +
      "path, score, gist and text.",
    inputSchema: {
      text: z.string().optional().describe("what to look for, in words"),
      vector: z.array(z.number()).min(1).optional().describe("a query vector (the same dimension as the stored embeddings)"),
      limit: z.number().int().min(1).max(100).optional().describe("how many hits (default 10)"),
      offset: z.number().int().min(0).optional().describe("skip this many hits (a next page)"),
      type: z.string().min(1).optional().describe("only memories of this type"),
      tags: z.array(z.string().min(1)).optional().describe("only memories holding at least one of these tags"),
      prefix: z.string().min(1).optional().describe("only memories whose path starts with this"),
      metadata: z.record(z.string(), metadataValue).optional().describe("only memories whose metadata has these values"),
      filter: z.record(z.string(), z.unknown()).optional()
        .describe("a memdomain/cache filter ({ path, type, tags: { all, any, none }, createdAt: { gt, lt }, metadata, and, or, not }), combined with the others"),
    },
    outputSchema: { hits: z.array(recallHit), count: z.number() },
  }, [["query.filter.and[1]", "filter"], ["query.filter.and[0]", "filter"], ["query.filter", "filter"], ["query.", ""]], async (a) => {
    const text0 = a.text?.trim() ? a.text : null;
    if (text0 === null && a.vector === undefined) throw new ArgumentError("recall: give text (or vector) to search for");
    const own = {};
    if (a.type !== undefined) own.type = a.type;
    if (a.tags !== undefined) own.tags = { any: a.tags };
    if (a.prefix !== undefined) own.path = { prefix: a.prefix };
    if (a.metadata !== undefined) own.metadata = a.metadata;
    const filters = [Object.keys(own).length ? own : null, a.filter ?? null].filter(Boolean);
    const query = { text: text0, limit: a.limit ?? 10 };
    if (a.offset !== undefined) query.offset = a.offset;
    if (a.vector !== undefined) query.vector = new Float32Array(a.vector);
    if (filters.length) query.filter = filters.length === 1 ? filters[0] : { and: filters };
    const found = await cache.search(query);
    const stored = new Map((await cache.get(found.map((h) => h.path))).map((m) => [m.path, m]));
    const hits = found.map((h) => {
      const m = stored.get(h.path);
      const body = m.body.length > textChars ? `${m.body.slice(0, textChars)}…` : m.body;
      return { path: h.path, score: h.score, gist: m.gist, text: body, type: m.type, tags: [...m.tags], metadata: { ...m.metadata }, createdAt: m.createdAt };
    });
    const lines = hits.map((h, i) => `${i + 1 + (a.offset ?? 0)}. ${h.path} (score ${round(h.score)}): ${h.gist}`);
    return { text: hits.length ? lines.join("\n") : "No memory matched.", data: { hits, count: hits.length } };
  });

  tool("reinforce", {
    title: "Reinforce",
    description: "Say a memory was used: positive (it helped), negative (it misled) or neutral. Used memories rank higher in recall " +
      "and are kept longer by sleep; a positive signal on a recalled memory also teaches the ranking. A memory used in the last " +
      "15 minutes is not bumped again (cooledDown).",
    inputSchema: {
      path: pathArg,
      signal: z.enum(["positive", "negative", "neutral"]).optional().describe("default positive"),
    },
  }, [["paths[0]", "path"], ["options.", ""]], async (a) => {
    const r = await cache.reinforce([a.path], { now: now(), signal: a.signal ?? "positive" });
    const bumped = r.bumped.length > 0;
    return { text: bumped ? `Reinforced ${a.path} (${a.signal ?? "positive"})` : `${a.path} was used in the last 15 minutes: not bumped again`,
      data: { path: a.path, bumped, cooledDown: r.cooledDown.length > 0 } };
  });

  tool("forget", {
    title: "Forget",
    description: "Archive a memory: it leaves recall, but nothing is deleted (restore brings it back, with its links).",
    inputSchema: { path: pathArg },
  }, [["paths[0]", "path"]], async (a) => {
    const r = await cache.archive([a.path], { now: now() });
    return { text: r.archived ? `Archived ${a.path} (restore brings it back)` : `${a.path} was already archived`,
      data: { path: a.path, archived: r.archived > 0 } };
  });

  tool("restore", {
    title: "Restore",
    description: "Bring an archived memory (forgotten, or archived by sleep) back into recall.",
    inputSchema: { path: pathArg },
  }, [["paths[0]", "path"]], async (a) => {
    await cache.restore([a.path], { now: now() });
    return { text: `Restored ${a.path}`, data: { path: a.path, restored: true } };
  });

  tool("link", {
    title: "Link",
    description: "Link two memories (from -> to): recall's lateral arm walks links from its hits, so a linked memory comes up " +
      "with the one it is linked from. Linking the same pair again replaces the link.",
    inputSchema: {
      from: z.string().min(1).describe("the source memory's path"),
      to: z.string().min(1).describe("the target memory's path"),
      strength: z.number().min(0).max(1).optional().describe("0 to 1 (default 0.5)"),
      type: z.string().min(1).optional().describe("the edge type (default related)"),
    },
  }, [["links[0].src", "from"], ["links[0].dst", "to"], ["links[0].", ""]], async (a) => {
    const edge = { src: a.from, dst: a.to, strength: a.strength ?? 0.5, type: a.type ?? "related" };
    await cache.link([edge]);
    return { text: `Linked ${a.from} -> ${a.to} (${edge.type}, ${edge.strength})`, data: { from: a.from, to: a.to, type: edge.type, strength: edge.strength } };
  });

  const policy = z.object({
    evict: z.boolean().optional().describe("archive the evict band (default false: report it only)"),
    minAgeDays: z.number().min(0).optional().describe("archive nothing younger than this (default 30)"),
    archiveBelow: z.number().nullable().optional().describe("of the evict band, archive only scores at or below this (default 0.2)"),
    purgeAfterDays: z.number().min(0).nullable().optional().describe("delete archived memories this long after archiving (default null: never)"),
    keepThreshold: z.number().optional(),
    evictThreshold: z.number().optional(),
    defaultHalfLife: z.number().nullable().optional(),
    halfLives: z.record(z.string(), z.number().nullable()).optional(),
    weights: z.record(z.string(), z.record(z.string(), z.number())).optional(),
    defaultWeights: z.record(z.string(), z.number()).optional(),
    reprieve: z.record(z.string(), z.number()).optional(),
  }).strict();
  tool("sleep", {
    title: "Sleep",
    description: "Run one maintenance pass: neighbours, near-duplicate merges, contradictions, the memory graph, confidence decay " +
      "and retention bands (keep, compress, evict); with a policy whose evict is true, archive the evict band (restorable). " +
      "The policy is stored for later passes. Returns the pass's summary.",
    inputSchema: {
      evict: z.boolean().optional().describe("archive the evict band in this pass (overrides the policy's evict once)"),
      policy: policy.optional().describe("retention policy fields (stored with the cache)"),
    },
  }, [["options.policy.", "policy."], ["options.", ""]], async (a) => {
    const o = { now: now() };
    if (a.evict !== undefined) o.evict = a.evict;
    if (a.policy !== undefined) o.policy = a.policy;
    const r = await cache.sleep(o);
    const data = {
      memories: r.memories, bands: r.bands, evict: r.evict, archived: r.archived, reprieved: r.reprieved.map((p) => p.path),
      purged: r.purged, merged: r.merges.merged.map((m) => ({ kept: m.keepPath, dropped: m.dropPath })),
      conflicts: r.conflicts.map((c) => ({ newer: c.newer, older: c.older })), edges: r.edges, communities: r.communities.count,
      decayed: r.confidence.decayed, written: r.written.memories,
    };
    const t = `Slept over ${r.memories} memories: keep ${r.bands.keep}, compress ${r.bands.compress}, evict ${r.bands.evict}; ` +
      `archived ${r.archived.length}, merged ${data.merged.length}, conflicts ${data.conflicts.length}, confidence decayed ${data.decayed}, ` +
      `${r.communities.count} communities`;
    return { text: t, data };
  });

  tool("list", {
    title: "List",
    description: "List stored paths in order, a page at a time: live memories (default), archived ones, or all.",
    inputSchema: {
      prefix: z.string().min(1).optional().describe("only paths starting with this"),
      which: z.enum(["live", "archived", "all"]).optional().describe("default live"),
      limit: z.number().int().min(1).max(1000).optional().describe("default 100"),
      after: z.string().min(1).optional().describe("the next page: the previous answer's next"),
    },
  }, [["options.", ""]], async (a) => {
    const o = { limit: a.limit ?? 100, which: a.which ?? "live" };
    if (a.prefix !== undefined) o.prefix = a.prefix;
    if (a.after !== undefined) o.after = a.after;
    const r = await cache.paths(o);
    return { text: r.paths.length ? r.paths.join("\n") + (r.next ? `\n(more: after ${r.next})` : "") : "No memory.", data: r };
  });

  tool("stats", {
    title: "Stats",
    description: "How many memories are stored, live and archived, how many links, and the backend.",
    inputSchema: {},
  }, [], async () => {
    const [total, live, archived, edges] = [await cache.count(), await cache.count({ live: true }), await cache.count({ archived: true }), await cache.edges()];
    const links = edges.filter((e) => e.origin === "link").length;
    const data = { total, live, archived, superseded: total - live - archived, links, edges: edges.length, backend: cache.backend, dim: cache.dim };
    return { text: `${live} live memories, ${archived} archived, ${data.superseded} superseded; ${links} links (${cache.backend})`, data };
  });

  return server;
}

/**
 * Open a cache on a file and serve it over stdio: options { db (the file; default MEMDOMAIN_DB or
 * DEFAULT_DB), driver, cache (an open cache instead), embed, and createMemoryServer's options }.
 * Resolves { server, cache, transport, close }; the server closes the cache when stdin ends or the
 * process gets SIGINT or SIGTERM. Logs go to stderr: stdout carries only protocol messages.
 */
export async function serveStdio(options = {}) {
  const { db, driver, cache: given, embed, ...rest } = options;
  const cache = given ?? await openMemoryCache({
    path: db ?? globalThis.process?.env?.MEMDOMAIN_DB ?? DEFAULT_DB,
    ...(driver !== undefined ? { driver } : {}), ...(embed !== undefined ? { embed } : {}),
  });
  let server;
  try {
    server = createMemoryServer(cache, rest);
  } catch (e) {
    if (!given) await cache.close();
    throw e;
  }
  const transport = new StdioServerTransport();
  let closing = null;
  const close = () => (closing ??= (async () => {
    await server.close().catch(() => {});
    if (!given) await cache.close().catch((e) => console.error(`memdomain-mcp: closing the cache: ${e.message}`));
  })());
  process.stdin.once("end", () => close().then(() => process.exit(0)));
  for (const sig of ["SIGINT", "SIGTERM"]) process.once(sig, () => close().then(() => process.exit(0)));
  await server.connect(transport);
  return { server, cache, transport, close };
}

// memdomain/langgraph: LangGraph.js long-term memory (a BaseStore) on memdomain/cache.
//
// One cache, one SQLite database. An item is one memory: its path is `root` + the namespace's
// labels + the key, each escaped ("%" "/" NUL and lone surrogates as %XXXX) and joined with "/",
// so a namespace prefix is a path prefix; its body is the value as JSON; its gist is the text of
// the indexed fields (what the lexical and vector arms read); its metadata holds the value's
// top-level scalar fields (so a filter narrows in SQL); createdAt and updatedAt are the item's.
// search({ query }) is the cache's hybrid search among the prefix's memories; without a query it
// lists the prefix's paths in code point order. Reads in a batch see the store as it was before
// the batch's writes, which apply last (the last write of a key wins), as in InMemoryStore.
// docs/LANGGRAPH.md has the mapping and where it differs from InMemoryStore.
import { BaseStore, InvalidNamespaceError, validateNamespace } from "@langchain/langgraph-checkpoint";
import { MAX_LIMIT, MAX_PATHS_PAGE, openMemoryCache } from "../cache/index.js";

/** The path root items live under unless `root` says otherwise. */
export const DEFAULT_ROOT = "langgraph/";
/** The cache's default limits this adapter fits a memory to (a longer gist is cut, metadata kept within). */
const GIST_MAX = 4096, META_KEYS = 64, META_KEY_MAX = 256, META_VALUE_MAX = 4096;
const STORE_OPTIONS = ["cache", "index", "root", "search"];
const SEARCH_RESERVED = ["text", "vector", "filter", "limit", "offset"];

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const ESCAPED = new RegExp(`[%/\\u0000]|${LONE.source}`, "g");
const hex4 = (c) => c.charCodeAt(0).toString(16).padStart(4, "0");
/** A namespace label or key as a path segment: never holds "/", NUL or a lone surrogate. */
export const escapeSegment = (s) => s.replace(ESCAPED, (c) => `%${hex4(c)}`);
export const unescapeSegment = (s) => s.replace(/%([0-9a-f]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
const validText = (s) => !s.includes("\u0000") && !LONE.test(s);
const cleanText = (s) => s.replace(/\u0000/g, " ").replace(new RegExp(LONE.source, "g"), "\ufffd");

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const isScalar = (v) => (typeof v === "string" && v.length <= META_VALUE_MAX && validText(v)) ||
  (typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean";
const metaKey = (k) => k.length > 0 && k.length <= META_KEY_MAX && validText(k);

function count(name, v, { min = 0 } = {}) {
  if (typeof v !== "number") throw new TypeError(`MemdomainStore: ${name} must be a number, got ${typeof v}`);
  if (!Number.isInteger(v) || v < min) throw new RangeError(`MemdomainStore: ${name} must be an integer >= ${min}, got ${v}`);
  return v;
}

// ---------------------------------------------------------------- LangGraph's semantics, as InMemoryStore has them

/** compareValues of @langchain/langgraph-checkpoint's store utils: one top-level field against a filter value. */
const OPS = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"];
const isOperators = (o) => typeof o === "object" && o !== null && Object.keys(o).every((k) => OPS.includes(k));
function compareValues(x, f) {
  if (isOperators(f)) {
    return Object.keys(f).every((op) => {
      const v = f[op];
      switch (op) {
        case "$eq": return x === v;
        case "$ne": return x !== v;
        case "$gt": return Number(x) > Number(v);
        case "$gte": return Number(x) >= Number(v);
        case "$lt": return Number(x) < Number(v);
        case "$lte": return Number(x) <= Number(v);
        case "$in": return Array.isArray(v) ? v.includes(x) : false;
        case "$nin": return Array.isArray(v) ? !v.includes(x) : true;
        default: return false;
      }
    });
  }
  return x === f;
}
const admits = (filter, value) => Object.entries(filter).every(([k, f]) => compareValues(value[k], f));

/** The part of a filter the cache can test in SQL: equality and $in over scalars, a memory without the key passing
 * (its field may be a kind metadata does not hold); the exact test runs on the values after. Null: nothing to narrow. */
function pushDown(filter) {
  const terms = [];
  for (const [k, f] of Object.entries(filter)) {
    if (!metaKey(k)) continue;
    let cond = null;
    if (isScalar(f)) cond = f;
    else if (isOperators(f) && Object.keys(f).length === 1 && "$eq" in f && isScalar(f.$eq)) cond = f.$eq;
    else if (isOperators(f) && Object.keys(f).length === 1 && Array.isArray(f.$in) && f.$in.length && f.$in.every(isScalar)) cond = { in: f.$in };
    if (cond === null) continue;
    terms.push({ or: [{ metadata: { [k]: cond } }, { metadata: { [k]: { exists: false } } }] });
  }
  return terms.length ? terms : null;
}

/** LangGraph's text at a field path ("a.b", "a[0]", "a[*].b", "$" the whole value as JSON, as InMemoryStore embeds it). */
function tokenize(path) {
  const out = [];
  for (const part of path.split(".")) {
    const m = part.match(/^([^[]*)((?:\[[^\]]*\])*)$/);
    if (!m) { out.push(part); continue; }
    if (m[1]) out.push(m[1]);
    for (const ix of m[2].match(/\[[^\]]*\]/g) ?? []) out.push(ix);
  }
  return out;
}
function textsAt(value, path) {
  if (path === "$") return [JSON.stringify(value, null, 2)];
  const walk = (o, toks, i) => {
    if (i >= toks.length) {
      if (typeof o === "string" || typeof o === "number" || typeof o === "boolean") return [String(o)];
      if (o === null || o === undefined) return [];
      return typeof o === "object" ? [JSON.stringify(o, null, 2)] : [];
    }
    const t = toks[i];
    if (t.startsWith("[") && t.endsWith("]")) {
      if (!Array.isArray(o)) return [];
      const ix = t.slice(1, -1);
      if (ix === "*") return o.flatMap((x) => walk(x, toks, i + 1));
      let n = parseInt(ix, 10);
      if (Number.isNaN(n)) return [];
      if (n < 0) n += o.length;
      return n >= 0 && n < o.length ? walk(o[n], toks, i + 1) : [];
    }
    if (t === "*") {
      if (Array.isArray(o)) return o.flatMap((x) => walk(x, toks, i + 1));
      return typeof o === "object" && o !== null ? Object.values(o).flatMap((x) => walk(x, toks, i + 1)) : [];
    }
    return typeof o === "object" && o !== null && t in o ? walk(o[t], toks, i + 1) : [];
  };
  return walk(value, tokenize(path), 0);
}

function matches(cond, ns) {
  const { matchType, path } = cond;
  if (!Array.isArray(path)) throw new TypeError("MemdomainStore: matchConditions[].path must be an array of labels");
  if (path.length > ns.length) return false;
  const at = matchType === "prefix" ? 0 : matchType === "suffix" ? ns.length - path.length : null;
  if (at === null) throw new RangeError(`MemdomainStore: matchConditions[].matchType must be "prefix" or "suffix", got ${JSON.stringify(matchType)}`);
  return path.every((p, i) => p === "*" || ns[at + i] === p);
}

// ---------------------------------------------------------------- the store

export class MemdomainStore extends BaseStore {
  #cache = null;
  #ready;
  #owned;
  #root;
  #index;
  #search;

  /**
   * new MemdomainStore({ cache }) on an open memdomain/cache (you close it), or new MemdomainStore({ path, ...open
   * options }) opening one (stop() closes it). `index: { dims, embeddings | embed, fields }` embeds the indexed fields
   * (LangChain Embeddings or memdomain's embed hook); `root` (default "langgraph/") is the path prefix items live
   * under; `search` holds cache.search settings (preset, weights, lambda, ...) every query uses.
   */
  constructor(options = {}) {
    super();
    if (!isObject(options)) throw new TypeError("MemdomainStore: options must be an object");
    const { cache, index, root = DEFAULT_ROOT, search = {}, ...open } = options;
    if (typeof root !== "string" || (root !== "" && !root.endsWith("/")) || !validText(root)) {
      throw new RangeError(`MemdomainStore: options.root must be "" or a path ending in "/", got ${JSON.stringify(root)}`);
    }
    this.#root = root;
    if (!isObject(search)) throw new TypeError("MemdomainStore: options.search must be an object of cache.search settings");
    for (const k of SEARCH_RESERVED) if (k in search) throw new RangeError(`MemdomainStore: options.search.${k} is set by each search, not here`);
    this.#search = { ...search };
    if (index !== undefined && index !== null) {
      if (!isObject(index)) throw new TypeError("MemdomainStore: options.index must be an object { dims, embeddings | embed, fields }");
      count("options.index.dims", index.dims, { min: 1 });
      const { embeddings, embed } = index;
      let docs, query;
      if (embeddings && typeof embeddings.embedDocuments === "function" && typeof embeddings.embedQuery === "function") {
        docs = (texts) => embeddings.embedDocuments(texts);
        query = (text) => embeddings.embedQuery(text);
      } else if (typeof embed === "function") {
        docs = (texts) => embed(texts, { kind: "document" });
        query = async (text) => (await embed([text], { kind: "query" }))[0];
      } else {
        throw new TypeError("MemdomainStore: options.index.embeddings must be an Embeddings (embedDocuments, embedQuery), or options.index.embed a function");
      }
      const fields = index.fields ?? ["$"];
      if (!Array.isArray(fields) || !fields.every((f) => typeof f === "string" && f.length)) {
        throw new TypeError("MemdomainStore: options.index.fields must be an array of field paths");
      }
      this.#index = { dims: index.dims, fields, docs, query };
    }
    if (cache !== undefined) {
      if (!cache || typeof cache.search !== "function" || typeof cache.paths !== "function") {
        throw new TypeError("MemdomainStore: options.cache must be an open memdomain/cache (openMemoryCache())");
      }
      const extra = Object.keys(open);
      if (extra.length) throw new RangeError(`MemdomainStore: options.${extra[0]} is an open option; pass it to openMemoryCache, not with options.cache`);
      if (this.#index && cache.dim !== null && cache.dim !== undefined && cache.dim !== this.#index.dims) {
        throw new RangeError(`MemdomainStore: options.index.dims is ${this.#index.dims} but the cache holds vectors of ${cache.dim}`);
      }
      this.#owned = false;
      this.#cache = cache;
      this.#ready = Promise.resolve(cache);
    } else {
      this.#owned = true;
      this.#ready = null;
      this.#open = () => openMemoryCache({ ...(this.#index && open.dim === undefined ? { dim: this.#index.dims } : {}), ...open });
    }
  }

  #open = null;
  /** The cache (opened on first use when the store opened it). */
  async cache() {
    if (!this.#ready) {
      this.#ready = this.#open().then((c) => (this.#cache = c));
      this.#ready.catch(() => { this.#ready = null; });
    }
    return this.#ready;
  }
  /** Open the cache now (batch opens it on first use otherwise). */
  async start() {
    await this.cache();
  }
  /** Close the cache if the store opened it (a cache passed in stays open). */
  async stop() {
    if (this.#owned && this.#ready) {
      const c = await this.#ready;
      this.#ready = null;
      this.#cache = null;
      await c.close();
    }
  }

  /** The memory path of an item. */
  pathOf(namespace, key) {
    return `${this.#root}${namespace.map(escapeSegment).join("/")}/${escapeSegment(key)}`;
  }
  #prefixOf(namespace) {
    return namespace.length ? `${this.#root}${namespace.map(escapeSegment).join("/")}/` : this.#root;
  }
  #decode(path) {
    if (!path.startsWith(this.#root)) return null;
    const segs = path.slice(this.#root.length).split("/").map(unescapeSegment);
    if (segs.length < 2) return null;
    return { namespace: segs.slice(0, -1), key: segs[segs.length - 1] };
  }
  #item(m) {
    if (!m || m.archivedAt !== null || m.supersededBy !== null) return null;
    const at = this.#decode(m.path);
    if (!at) return null;
    let value;
    try {
      value = JSON.parse(m.body);
    } catch {
      return null;
    }
    if (!isObject(value)) return null;
    return { value, key: at.key, namespace: at.namespace, createdAt: new Date(m.createdAt), updatedAt: new Date(m.updatedAt) };
  }
  async #items(cache, paths) {
    const out = new Map();
    for (let i = 0; i < paths.length; i += 1000) {
      for (const m of await cache.get(paths.slice(i, i + 1000))) out.set(m.path, this.#item(m));
    }
    return out;
  }

  /** Every operation of LangGraph's BaseStore: get, put (value null deletes), search, listNamespaces. */
  async batch(operations) {
    if (!Array.isArray(operations)) throw new TypeError("MemdomainStore: operations must be an array");
    const kinds = operations.map((op, i) => {
      if (!isObject(op)) throw new TypeError(`MemdomainStore: operations[${i}] must be an operation object`);
      if ("namespace" in op) {
        if (!Array.isArray(op.namespace)) throw new TypeError(`MemdomainStore: operations[${i}].namespace must be an array of labels`);
        validateNamespace(op.namespace, { allowReservedRoot: true });
        if (typeof op.key !== "string") throw new TypeError(`MemdomainStore: operations[${i}].key must be a string, got ${typeof op.key}`);
        if (!("value" in op)) return "get";
        if (op.value !== null && !isObject(op.value)) throw new TypeError(`MemdomainStore: operations[${i}].value must be an object or null`);
        if (op.index !== undefined && op.index !== null && op.index !== false &&
          !(Array.isArray(op.index) && op.index.every((f) => typeof f === "string"))) {
          throw new TypeError(`MemdomainStore: operations[${i}].index must be false or an array of field paths`);
        }
        return "put";
      }
      if ("namespacePrefix" in op) {
        if (!Array.isArray(op.namespacePrefix)) throw new TypeError(`MemdomainStore: operations[${i}].namespacePrefix must be an array of labels`);
        if (op.namespacePrefix.length) validateNamespace(op.namespacePrefix, { allowReservedRoot: true });
        if (op.filter !== undefined && op.filter !== null && !isObject(op.filter)) throw new TypeError(`MemdomainStore: operations[${i}].filter must be an object`);
        count(`operations[${i}].limit`, op.limit ?? 10);
        count(`operations[${i}].offset`, op.offset ?? 0);
        if (op.query !== undefined && op.query !== null && typeof op.query !== "string") throw new TypeError(`MemdomainStore: operations[${i}].query must be a string`);
        return "search";
      }
      if ("matchConditions" in op || "maxDepth" in op) {
        if (op.matchConditions !== undefined && !Array.isArray(op.matchConditions)) throw new TypeError(`MemdomainStore: operations[${i}].matchConditions must be an array`);
        if (op.maxDepth !== undefined) count(`operations[${i}].maxDepth`, op.maxDepth, { min: 1 });
        if (op.limit !== undefined) count(`operations[${i}].limit`, op.limit);
        count(`operations[${i}].offset`, op.offset ?? 0);
        return "list";
      }
      throw new TypeError(`MemdomainStore: operations[${i}] is not a get, put, search or listNamespaces operation`);
    });
    const cache = await this.cache();
    const pathMax = cache._limits?.path ?? 1024;
    operations.forEach((op, i) => {
      if (kinds[i] !== "get" && kinds[i] !== "put") return;
      const n = this.pathOf(op.namespace, op.key).length;
      if (n > pathMax) {
        throw new RangeError(`MemdomainStore: operations[${i}].key and namespace make a path of ${n} characters, more than the cache's limits.path ${pathMax}`);
      }
    });
    const results = new Array(operations.length).fill(null);
    // Reads first, all against the store before this batch's writes.
    const gets = operations.map((op, i) => (kinds[i] === "get" ? this.pathOf(op.namespace, op.key) : null));
    const got = await this.#items(cache, [...new Set(gets.filter((p) => p !== null))]);
    for (let i = 0; i < operations.length; i++) {
      if (kinds[i] === "get") results[i] = got.get(gets[i]) ?? null;
      else if (kinds[i] === "search") results[i] = await this.#searchOp(cache, operations[i]);
      else if (kinds[i] === "list") results[i] = await this.#listOp(cache, operations[i]);
    }
    // Then the writes, the last of each key winning.
    const puts = new Map();
    operations.forEach((op, i) => { if (kinds[i] === "put") puts.set(this.pathOf(op.namespace, op.key), op); });
    if (puts.size) await this.#write(cache, puts);
    return results;
  }

  async #write(cache, puts) {
    const dels = [], writes = [];
    for (const [path, op] of puts) (op.value === null ? dels : writes).push([path, op]);
    if (dels.length) await cache.delete(dels.map(([p]) => p));
    if (!writes.length) return;
    const before = await cache.get(writes.map(([p]) => p));
    const created = new Map(before.map((m) => [m.path, m.createdAt]));
    const now = Date.now();
    const memories = writes.map(([path, op]) => {
      let body;
      try {
        body = JSON.stringify(op.value);
      } catch (e) {
        throw new TypeError(`MemdomainStore: the value of ${JSON.stringify(op.key)} is not JSON-serializable (${e.message})`);
      }
      const fields = op.index === false ? [] : op.index ?? this.#index?.fields ?? ["$"];
      const gist = cleanText(fields.flatMap((f) => textsAt(op.value, f)).join("\n")).slice(0, GIST_MAX);
      const metadata = {};
      let n = 0;
      for (const [k, v] of Object.entries(op.value)) {
        if (n >= META_KEYS) break;
        if (metaKey(k) && isScalar(v)) { metadata[k] = v; n++; }
      }
      const m = { path, gist, body, type: "semantic", createdAt: created.get(path) ?? now, updatedAt: now, metadata };
      if (op.index === false || (this.#index && !gist)) m.embedding = null;
      return m;
    });
    if (this.#index) {
      const todo = memories.filter((m) => m.embedding !== null);
      if (todo.length) {
        const vs = await this.#index.docs(todo.map((m) => m.gist));
        if (!Array.isArray(vs) || vs.length !== todo.length) throw new RangeError(`MemdomainStore: index embeddings returned ${vs?.length} vectors for ${todo.length} texts`);
        todo.forEach((m, i) => { m.embedding = Float32Array.from(vs[i]); });
      }
    }
    await cache.put(memories);
  }

  async #searchOp(cache, op) {
    const limit = op.limit ?? 10, offset = op.offset ?? 0;
    const prefix = this.#prefixOf(op.namespacePrefix);
    const filter = op.filter && Object.keys(op.filter).length ? op.filter : null;
    const pathFilter = prefix ? { path: { prefix } } : null;
    const pushed = filter ? pushDown(filter) : null;
    const sqlFilter = [pathFilter, ...(pushed ?? [])].filter(Boolean);
    const cacheFilter = sqlFilter.length === 0 ? undefined : sqlFilter.length === 1 ? sqlFilter[0] : { and: sqlFilter };
    if (limit === 0) return [];
    if (op.query) {
      if (offset + limit > MAX_LIMIT) throw new RangeError(`MemdomainStore: offset + limit must be at most ${MAX_LIMIT} with a query, got ${offset + limit}`);
      const q = { ...this.#search, text: op.query, filter: cacheFilter };
      if (this.#index) q.vector = Float32Array.from(await this.#index.query(op.query));
      // With a filter the exact test runs on the values, so read past the page until it is full or the ranking ends.
      let want = filter ? Math.min(MAX_LIMIT, Math.max(2 * (offset + limit), 50)) : limit;
      for (;;) {
        const hits = await cache.search(filter ? { ...q, limit: want } : { ...q, limit, offset });
        const items = await this.#items(cache, hits.map((h) => h.path));
        const out = [];
        for (const h of hits) {
          const it = items.get(h.path);
          if (it && (!filter || admits(filter, it.value))) out.push({ ...it, score: h.score });
        }
        if (!filter) return out;
        if (out.length >= offset + limit || hits.length < want || want >= MAX_LIMIT) return out.slice(offset, offset + limit);
        want = Math.min(MAX_LIMIT, want * 4);
      }
    }
    // No query: the prefix's items in path order.
    const out = [];
    let after, skip = offset;
    const page = filter ? 1000 : Math.min(MAX_PATHS_PAGE, offset + limit);
    for (;;) {
      const { paths, next } = await cache.paths({ ...(prefix ? { prefix } : {}), ...(cacheFilter ? { filter: cacheFilter } : {}), limit: page, ...(after ? { after } : {}) });
      const items = await this.#items(cache, paths);
      for (const p of paths) {
        const it = items.get(p);
        if (!it || (filter && !admits(filter, it.value))) continue;
        if (skip > 0) { skip--; continue; }
        out.push({ ...it, score: undefined });
        if (out.length >= limit) return out;
      }
      if (!next) return out;
      after = next;
    }
  }

  async #listOp(cache, op) {
    const conds = op.matchConditions ?? [];
    // The labels a prefix condition fixes before its first wildcard narrow the paths read.
    let fixed = [];
    for (const c of conds) {
      if (c?.matchType !== "prefix" || !Array.isArray(c.path)) continue;
      const lead = [];
      for (const l of c.path) { if (l === "*" || typeof l !== "string") break; lead.push(l); }
      if (lead.length > fixed.length) fixed = lead;
    }
    const prefix = fixed.length ? `${this.#root}${fixed.map(escapeSegment).join("/")}/` : this.#root;
    const seen = new Map();
    let after;
    for (;;) {
      const { paths, next } = await cache.paths({ ...(prefix ? { prefix } : {}), limit: MAX_PATHS_PAGE, ...(after ? { after } : {}) });
      for (const p of paths) {
        const at = this.#decode(p);
        if (at) seen.set(at.namespace.join("\u0000"), at.namespace);
      }
      if (!next) break;
      after = next;
    }
    let namespaces = [...seen.values()].filter((ns) => conds.every((c) => matches(c, ns)));
    if (op.maxDepth !== undefined) {
      const cut = new Map();
      for (const ns of namespaces) {
        const s = ns.slice(0, op.maxDepth);
        cut.set(s.join("\u0000"), s);
      }
      namespaces = [...cut.values()];
    }
    namespaces.sort((a, b) => a.join(":").localeCompare(b.join(":")));
    const offset = op.offset ?? 0;
    return namespaces.slice(offset, offset + (op.limit ?? namespaces.length));
  }
}

export { InvalidNamespaceError };

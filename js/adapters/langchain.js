// memdomain/langchain: a LangChain.js VectorStore and retriever over a memdomain cache
// (memdomain/cache). Only this entry point imports @langchain/core (an optional peer,
// >=1.0.0 <2.0.0); the core package and the cache never do.
//
// What maps to what (docs/LANGCHAIN.md):
//   Document.id (or options.ids, or a random UUID)  -> the memory's path (after options.pathPrefix)
//   Document.pageContent                            -> the memory's body (gist ""); a memory put
//                                                      elsewhere reads back as gist, "\n", body
//   Document.metadata (flat)                        -> the memory's metadata (strings, finite
//                                                      numbers, booleans; null leaves a key out)
//   the Embeddings' vector                          -> the memory's embedding
//   a LangChain filter ({ key: v }, $eq ... $exists,
//   $and, $or, $not)                                -> the cache's metadata filter
// Scores of similaritySearch*WithScore are the cosine similarity of the query vector and the
// stored embedding, in [-1, 1], higher is more similar (the order is the cache's vector arm).
import { VectorStore } from "@langchain/core/vectorstores";
import { BaseRetriever } from "@langchain/core/retrievers";
import { Document } from "@langchain/core/documents";
import { openMemoryCache } from "../cache/index.js";
import { rangeError, typeError } from "../src/validate.js";

/** The most documents a search returns (the cache's MAX_LIMIT). */
export const MAX_K = 10000;
const STORE_OPTIONS = ["cache", "type", "pathPrefix"];
const OPS = ["$eq", "$ne", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$exists"];
const RESERVED_SEARCH = ["text", "vector", "limit", "filter"];

const isRecord = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function checkK(fn, arg, k, dflt) {
  if (k === undefined || k === null) return dflt;
  if (typeof k !== "number") throw typeError(fn, arg, "a number", k);
  if (!Number.isInteger(k) || k < 1 || k > MAX_K) throw rangeError(fn, arg, `must be an integer in [1, ${MAX_K}], got ${k}`);
  return k;
}

function checkCache(fn, arg, cache) {
  if (!isRecord(cache) || typeof cache.search !== "function" || typeof cache.put !== "function" || typeof cache.get !== "function")
    throw typeError(fn, arg, "a memdomain cache (openMemoryCache())", cache);
  return cache;
}

function checkEmbeddings(fn, arg, e, optional = false) {
  if ((e === undefined || e === null) && optional) return null;
  if (!isRecord(e) || typeof e.embedQuery !== "function" || typeof e.embedDocuments !== "function")
    throw typeError(fn, arg, "an Embeddings (with embedQuery and embedDocuments)", e);
  return e;
}

/**
 * A LangChain filter as the cache's filter: { key: value } is equality on metadata, { key: { $eq,
 * $ne, $in, $nin, $gt, $gte, $lt, $lte, $exists } } the cache's operators, and $and / $or (arrays of
 * filters) and $not (a filter) combine them. Undefined or {} is no filter.
 */
export function toCacheFilter(filter, fn = "toCacheFilter", arg = "filter") {
  if (filter === undefined || filter === null) return undefined;
  if (typeof filter === "function") throw typeError(fn, arg, "a metadata filter object (a function filter cannot become SQL)", filter);
  if (!isRecord(filter)) throw typeError(fn, arg, "a metadata filter object", filter);
  const parts = [], metadata = {};
  for (const [key, v] of Object.entries(filter)) {
    const at = `${arg}.${key}`;
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(v)) throw typeError(fn, at, "an array of filters", v);
      const subs = v.map((f, i) => toCacheFilter(f, fn, `${at}[${i}]`) ?? {});
      parts.push(key === "$and" ? { and: subs } : { or: subs });
    } else if (key === "$not") {
      parts.push({ not: toCacheFilter(v, fn, at) ?? {} });
    } else if (key.startsWith("$")) {
      throw rangeError(fn, at, "is not a known operator (known: $and, $or, $not at the top; $eq, $ne, $in, $nin, $gt, $gte, $lt, $lte, $exists on a key)");
    } else if (isRecord(v)) {
      const cond = {};
      for (const [op, x] of Object.entries(v)) {
        if (!OPS.includes(op)) throw rangeError(fn, `${at}.${op}`, `is not a known operator (known: ${OPS.join(", ")})`);
        cond[op.slice(1)] = x;
      }
      metadata[key] = cond;
    } else {
      metadata[key] = v;
    }
  }
  if (Object.keys(metadata).length) parts.unshift({ metadata });
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { and: parts };
}

/** A Document's metadata, checked flat (the cache's rule) with the caller's names in errors. */
function flatMetadata(fn, at, m) {
  if (m === undefined || m === null) return {};
  if (!isRecord(m)) throw typeError(fn, at, "an object", m);
  for (const [k, v] of Object.entries(m)) {
    if (v === null || typeof v === "string" || typeof v === "boolean") continue;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) throw rangeError(fn, `${at}.${k}`, `must be a finite number, got ${v}`);
      continue;
    }
    throw typeError(fn, `${at}.${k}`, "a string, a finite number, a boolean or null (a memory's metadata is flat: " +
      "JSON.stringify a nested value or leave it out)", v);
  }
  return m;
}

/** The text of a stored memory: the adapter's own memories are their body; others gist, newline, body. */
const textOf = (r) => (r.gist === "" ? r.body : r.body === "" ? r.gist : `${r.gist}\n${r.body}`);

function cosine(a, b) {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** What the store and the retriever share: the cache, the path prefix, memories as Documents. */
function common(fn, fields) {
  if (!isRecord(fields)) throw typeError(fn, "fields", "an object", fields);
  const cache = checkCache(fn, "fields.cache", fields.cache);
  const pathPrefix = fields.pathPrefix ?? "";
  if (typeof pathPrefix !== "string") throw typeError(fn, "fields.pathPrefix", "a string", pathPrefix);
  return { cache, pathPrefix };
}

function withPrefix(filter, prefix) {
  if (!prefix) return filter;
  const p = { path: { prefix } };
  return filter === undefined ? p : { and: [p, filter] };
}

const toDocument = (r, prefix) => new Document({ id: r.path.slice(prefix.length), pageContent: textOf(r), metadata: { ...r.metadata } });

/**
 * A LangChain VectorStore whose documents are memories in a memdomain cache.
 * new MemdomainVectorStore(embeddings, { cache, type = "semantic", pathPrefix = "" }), or
 * await MemdomainVectorStore.open(embeddings, { ...openMemoryCache's options, type, pathPrefix })
 * (which opens the cache, and close() closes it).
 */
export class MemdomainVectorStore extends VectorStore {
  static lc_name() { return "MemdomainVectorStore"; }

  constructor(embeddings, fields) {
    const fn = "MemdomainVectorStore";
    checkEmbeddings(fn, "embeddings", embeddings);
    const { cache, pathPrefix } = common(fn, fields);
    for (const k of Object.keys(fields)) if (!STORE_OPTIONS.includes(k)) throw rangeError(fn, `fields.${k}`, `is not a known option (known: ${STORE_OPTIONS.join(", ")})`);
    const type = fields.type ?? "semantic";
    if (typeof type !== "string" || type === "") throw typeError(fn, "fields.type", "a non-empty string", type);
    super(embeddings, { type, pathPrefix });
    this.lc_namespace = ["memdomain", "langchain", "vectorstores"];
    this.cache = cache;
    this.type = type;
    this.pathPrefix = pathPrefix;
    this._owned = false;
  }

  _vectorstoreType() { return "memdomain"; }

  /** Open a cache with openMemoryCache(options but type and pathPrefix) and a store over it; close() closes it. */
  static async open(embeddings, options = {}) {
    const fn = "MemdomainVectorStore.open";
    checkEmbeddings(fn, "embeddings", embeddings);
    if (!isRecord(options)) throw typeError(fn, "options", "an object", options);
    const { type, pathPrefix, cache, ...cacheOptions } = options;
    if (cache !== undefined) return new MemdomainVectorStore(embeddings, { cache, type, pathPrefix });
    const opened = await openMemoryCache(cacheOptions);
    const store = new MemdomainVectorStore(embeddings, { cache: opened, type, pathPrefix });
    store._owned = true;
    return store;
  }

  /** Close the cache if open() opened it. */
  async close() {
    if (this._owned) await this.cache.close();
  }

  async addDocuments(documents, options = {}) {
    if (!Array.isArray(documents)) throw typeError("addDocuments", "documents", "an array of Documents", documents);
    documents.forEach((d, i) => { if (!isRecord(d) || typeof d.pageContent !== "string") throw typeError("addDocuments", `documents[${i}]`, "a Document", d); });
    const vectors = documents.length ? await this.embeddings.embedDocuments(documents.map((d) => d.pageContent)) : [];
    return this._add("addDocuments", vectors, documents, options);
  }

  async addVectors(vectors, documents, options = {}) {
    return this._add("addVectors", vectors, documents, options);
  }

  async _add(fn, vectors, documents, options) {
    if (!Array.isArray(vectors)) throw typeError(fn, "vectors", "an array of vectors", vectors);
    if (!Array.isArray(documents)) throw typeError(fn, "documents", "an array of Documents", documents);
    if (vectors.length !== documents.length) throw rangeError(fn, "vectors", `has ${vectors.length} vectors for ${documents.length} documents`);
    if (!isRecord(options)) throw typeError(fn, "options", "an object", options);
    const ids = options.ids;
    if (ids !== undefined && !Array.isArray(ids)) throw typeError(fn, "options.ids", "an array of strings", ids);
    if (ids && ids.length !== documents.length) throw rangeError(fn, "options.ids", `has ${ids.length} ids for ${documents.length} documents`);
    const now = Date.now();
    const out = [], byPath = new Map();
    documents.forEach((d, i) => {
      if (!isRecord(d) || typeof d.pageContent !== "string") throw typeError(fn, `documents[${i}]`, "a Document", d);
      const id = ids?.[i] ?? d.id ?? crypto.randomUUID();
      if (typeof id !== "string" || id === "") throw typeError(fn, ids?.[i] !== undefined ? `options.ids[${i}]` : `documents[${i}].id`, "a non-empty string", id);
      const memory = {
        path: this.pathPrefix + id, gist: "", body: d.pageContent, type: this.type, createdAt: now,
        metadata: flatMetadata(fn, `documents[${i}].metadata`, d.metadata), embedding: vectors[i],
      };
      byPath.delete(memory.path); // the same id twice in one call: the later document wins
      byPath.set(memory.path, memory);
      out.push(id);
    });
    if (byPath.size) await this.cache.put([...byPath.values()]);
    return out;
  }

  /** Delete by ids ({ ids } or an array of ids; missing ids are skipped) or by a LangChain { filter }. */
  async delete(params) {
    const fn = "delete";
    const p = Array.isArray(params) ? { ids: params } : params;
    if (!isRecord(p)) throw typeError(fn, "params", "{ ids } or { filter }", params);
    for (const k of Object.keys(p)) if (k !== "ids" && k !== "filter") throw rangeError(fn, `params.${k}`, "is not a known option (known: ids, filter)");
    if (p.ids !== undefined) {
      if (!Array.isArray(p.ids)) throw typeError(fn, "params.ids", "an array of strings", p.ids);
      p.ids.forEach((id, i) => { if (typeof id !== "string" || id === "") throw typeError(fn, `params.ids[${i}]`, "a non-empty string", id); });
      if (p.ids.length) await this.cache.delete(p.ids.map((id) => this.pathPrefix + id));
    }
    if (p.filter !== undefined) {
      const f = toCacheFilter(p.filter, fn, "params.filter");
      if (f === undefined) throw rangeError(fn, "params.filter", "selects every document: pass a filter with a condition");
      await this.cache.delete({ filter: withPrefix(f, this.pathPrefix) });
    }
    if (p.ids === undefined && p.filter === undefined) throw rangeError(fn, "params", "selects nothing: give { ids } or { filter }");
  }

  /** The documents with these ids, in their order; missing ids are skipped. */
  async getByIds(ids) {
    const fn = "getByIds";
    if (!Array.isArray(ids)) throw typeError(fn, "ids", "an array of strings", ids);
    ids.forEach((id, i) => { if (typeof id !== "string" || id === "") throw typeError(fn, `ids[${i}]`, "a non-empty string", id); });
    if (!ids.length) return [];
    return (await this.cache.get(ids.map((id) => this.pathPrefix + id))).map((r) => toDocument(r, this.pathPrefix));
  }

  /** The k nearest documents by cosine, with their cosine similarity (higher is more similar). */
  async similaritySearchVectorWithScore(query, k, filter) {
    const fn = "similaritySearchVectorWithScore";
    if (!(Array.isArray(query) || ArrayBuffer.isView(query))) throw typeError(fn, "query", "a vector (an array of numbers)", query);
    k = checkK(fn, "k", k, 4);
    const f = withPrefix(toCacheFilter(filter, fn, "filter"), this.pathPrefix);
    if (this.cache.dim === null || query.length === 0 || Array.prototype.every.call(query, (x) => x === 0)) return [];
    // the vector arm alone, in positions (preset "memhtml": no tie-dropping), MMR off
    const hits = await this.cache.search({ vector: query, limit: k, depth: k, preset: "memhtml", lambda: 1,
      weights: { lexical: 0, vector: 1, salience: 0, lateral: 0 }, filter: f });
    return this._scored(hits.map((h) => h.path), query);
  }

  async _scored(paths, query) {
    if (!paths.length) return [];
    const rows = await this.cache.get(paths);
    return rows.map((r) => [toDocument(r, this.pathPrefix), r.embedding ? cosine(query, r.embedding) : 0]);
  }

  /**
   * MMR through the cache's own (the default composition's MMR over the vector arm's fetchK best):
   * options { k = 4, fetchK = 20, lambda = 0.5 (1 is relevance only, 0 diversity only), filter }.
   */
  async maxMarginalRelevanceSearch(query, options = {}) {
    const fn = "maxMarginalRelevanceSearch";
    if (typeof query !== "string") throw typeError(fn, "query", "a string", query);
    if (!isRecord(options)) throw typeError(fn, "options", "an object", options);
    const k = checkK(fn, "options.k", options.k, 4);
    const fetchK = Math.max(k, Math.min(1000, checkK(fn, "options.fetchK", options.fetchK, 20)));
    const lambda = options.lambda ?? 0.5;
    if (typeof lambda !== "number") throw typeError(fn, "options.lambda", "a number", lambda);
    if (!(lambda >= 0 && lambda <= 1)) throw rangeError(fn, "options.lambda", `must be in [0, 1], got ${lambda}`);
    const f = withPrefix(toCacheFilter(options.filter, fn, "options.filter"), this.pathPrefix);
    const vector = await this.embeddings.embedQuery(query);
    if (this.cache.dim === null || vector.every((x) => x === 0)) return [];
    let hits = await this.cache.search({ vector, limit: k, depth: fetchK, window: fetchK, lambda, duplicate: null, calibrated: false,
      weights: { lexical: 0, vector: 1, salience: 0, lateral: 0 }, filter: f });
    // every candidate at the same cosine carries no order, so the default composition returns none: they are all alike
    if (!hits.length) return (await this.similaritySearchVectorWithScore(vector, k, options.filter)).map(([d]) => d);
    return (await this.cache.get(hits.map((h) => h.path))).map((r) => toDocument(r, this.pathPrefix));
  }

  static async fromTexts(texts, metadatas, embeddings, dbConfig = {}) {
    const fn = "MemdomainVectorStore.fromTexts";
    if (!Array.isArray(texts)) throw typeError(fn, "texts", "an array of strings", texts);
    const docs = texts.map((t, i) => new Document({ pageContent: t, metadata: Array.isArray(metadatas) ? metadatas[i] ?? {} : metadatas ?? {} }));
    return MemdomainVectorStore.fromDocuments(docs, embeddings, dbConfig);
  }

  static async fromDocuments(docs, embeddings, dbConfig = {}) {
    const store = await MemdomainVectorStore.open(embeddings, dbConfig);
    try {
      await store.addDocuments(docs);
    } catch (e) {
      await store.close();
      throw e;
    }
    return store;
  }
}

/**
 * A LangChain retriever running the cache's hybrid search (every arm: lexical, vector, salience,
 * lateral): new MemdomainRetriever({ cache, embeddings?, k = 4, filter?, searchOptions?, pathPrefix? }).
 * The query's vector comes from `embeddings` when given, else from the cache's own embed hook
 * (openMemoryCache({ embed })), else the search is lexical (and salience, lateral) only.
 * searchOptions pass to cache.search (preset, weights, lambda, window, depth, ...).
 */
export class MemdomainRetriever extends BaseRetriever {
  static lc_name() { return "MemdomainRetriever"; }

  constructor(fields) {
    const fn = "MemdomainRetriever";
    const { cache, pathPrefix } = common(fn, fields);
    const known = ["cache", "embeddings", "k", "filter", "searchOptions", "pathPrefix", "callbacks", "tags", "metadata", "verbose"];
    for (const k of Object.keys(fields)) if (!known.includes(k)) throw rangeError(fn, `fields.${k}`, `is not a known option (known: ${known.join(", ")})`);
    const embeddings = checkEmbeddings(fn, "fields.embeddings", fields.embeddings, true);
    const k = checkK(fn, "fields.k", fields.k, 4);
    const filter = toCacheFilter(fields.filter, fn, "fields.filter");
    const searchOptions = fields.searchOptions ?? {};
    if (!isRecord(searchOptions)) throw typeError(fn, "fields.searchOptions", "an object", searchOptions);
    for (const key of RESERVED_SEARCH) if (key in searchOptions) throw rangeError(fn, `fields.searchOptions.${key}`, `is set by the retriever (use fields.${key === "limit" ? "k" : key === "filter" ? "filter" : "embeddings"})`);
    const { callbacks, tags, metadata, verbose } = fields;
    super({ callbacks, tags, metadata, verbose });
    this.lc_namespace = ["memdomain", "langchain", "retrievers"];
    this.cache = cache;
    this.embeddings = embeddings;
    this.k = k;
    this.filter = filter;
    this.searchOptions = searchOptions;
    this.pathPrefix = pathPrefix;
  }

  async _getRelevantDocuments(query) {
    const fn = "MemdomainRetriever";
    if (typeof query !== "string") throw typeError(fn, "query", "a string", query);
    let vector;
    if (this.embeddings) {
      const v = await this.embeddings.embedQuery(query);
      vector = this.cache.dim === null || v.every((x) => x === 0) ? null : v;
    }
    if (query === "" && !vector) return [];
    const hits = await this.cache.search({ ...this.searchOptions, text: query, vector, limit: this.k, filter: withPrefix(this.filter, this.pathPrefix) });
    if (!hits.length) return [];
    return (await this.cache.get(hits.map((h) => h.path))).map((r) => toDocument(r, this.pathPrefix));
  }
}

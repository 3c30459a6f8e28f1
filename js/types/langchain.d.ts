// memdomain/langchain: a LangChain.js VectorStore and retriever over a memdomain cache
// (docs/LANGCHAIN.md). Needs the optional peer @langchain/core (>=1.0.0 <2.0.0).
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { DocumentInterface } from "@langchain/core/documents";
import type { Callbacks } from "@langchain/core/callbacks/manager";
import { VectorStore, type MaxMarginalRelevanceSearchOptions } from "@langchain/core/vectorstores";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import type { FilterValue, MemoryCache, MemoryFilter, MemoryType, OpenOptions, SearchQuery } from "./cache.js";

/** The most documents a search returns (the cache's MAX_LIMIT). */
export declare const MAX_K: 10000;

/** One metadata key's conditions in a LangChain filter. */
export interface LangChainFieldFilter {
  readonly $eq?: FilterValue; readonly $ne?: FilterValue;
  readonly $in?: readonly FilterValue[]; readonly $nin?: readonly FilterValue[];
  readonly $gt?: FilterValue; readonly $gte?: FilterValue; readonly $lt?: FilterValue; readonly $lte?: FilterValue;
  readonly $exists?: boolean;
}
/** A LangChain metadata filter: { key: value } is equality; $and / $or / $not combine filters. */
export interface LangChainFilter {
  readonly $and?: readonly LangChainFilter[];
  readonly $or?: readonly LangChainFilter[];
  readonly $not?: LangChainFilter;
  readonly [key: string]: FilterValue | LangChainFieldFilter | readonly LangChainFilter[] | LangChainFilter | undefined;
}

/** A LangChain filter as the cache's filter (undefined for none). */
export declare function toCacheFilter(filter: LangChainFilter | undefined | null, fn?: string, arg?: string): MemoryFilter | undefined;

export interface MemdomainVectorStoreFields {
  /** The memdomain cache the documents live in. */
  cache: MemoryCache;
  /** The type of the memories the store puts (default "semantic"). */
  type?: MemoryType;
  /** Prepended to every id to make the memory's path (default ""); searches see only paths under it. */
  pathPrefix?: string;
}

/** open()'s options: the cache's openMemoryCache options (or a cache), the store's type and pathPrefix. */
export type MemdomainVectorStoreOpenOptions = OpenOptions & {
  cache?: MemoryCache;
  type?: MemoryType;
  pathPrefix?: string;
};

/** Ids as Document.id, pageContent as the memory's body, flat metadata as its metadata; scores are cosine similarity (higher is more similar). */
export declare class MemdomainVectorStore extends VectorStore {
  FilterType: LangChainFilter;
  readonly cache: MemoryCache;
  readonly type: MemoryType;
  readonly pathPrefix: string;
  constructor(embeddings: EmbeddingsInterface, fields: MemdomainVectorStoreFields);
  /** Open a cache (openMemoryCache(options)) and a store over it; close() closes that cache. */
  static open(embeddings: EmbeddingsInterface, options?: MemdomainVectorStoreOpenOptions): Promise<MemdomainVectorStore>;
  /** Close the cache if open() opened it. */
  close(): Promise<void>;
  _vectorstoreType(): "memdomain";
  addDocuments(documents: DocumentInterface[], options?: { ids?: string[] }): Promise<string[]>;
  addVectors(vectors: number[][], documents: DocumentInterface[], options?: { ids?: string[] }): Promise<string[]>;
  /** Delete by ids (missing ones are skipped) or by a filter. */
  delete(params: { ids?: string[]; filter?: LangChainFilter } | string[]): Promise<void>;
  /** The documents with these ids, in their order; missing ids are skipped. */
  getByIds(ids: string[]): Promise<DocumentInterface[]>;
  similaritySearchVectorWithScore(query: number[], k: number, filter?: LangChainFilter): Promise<[DocumentInterface, number][]>;
  maxMarginalRelevanceSearch(query: string, options: MaxMarginalRelevanceSearchOptions<LangChainFilter>, callbacks?: Callbacks): Promise<DocumentInterface[]>;
  static fromTexts(texts: string[], metadatas: object[] | object, embeddings: EmbeddingsInterface, dbConfig?: MemdomainVectorStoreOpenOptions): Promise<MemdomainVectorStore>;
  static fromDocuments(docs: DocumentInterface[], embeddings: EmbeddingsInterface, dbConfig?: MemdomainVectorStoreOpenOptions): Promise<MemdomainVectorStore>;
}

export interface MemdomainRetrieverFields extends BaseRetrieverInput {
  cache: MemoryCache;
  /** Embeds the query for the vector arm; without it the cache's own embed hook does, if it has one. */
  embeddings?: EmbeddingsInterface;
  /** How many documents (default 4). */
  k?: number;
  filter?: LangChainFilter;
  /** Passed to cache.search: preset, weights, lambda, window, depth, ... (not text, vector, limit, filter). */
  searchOptions?: Omit<SearchQuery, "text" | "vector" | "limit" | "filter">;
  pathPrefix?: string;
}

/** The cache's hybrid search (lexical, vector, salience, lateral) as a LangChain retriever. */
export declare class MemdomainRetriever extends BaseRetriever {
  lc_namespace: string[];
  readonly cache: MemoryCache;
  readonly k: number;
  constructor(fields: MemdomainRetrieverFields);
  _getRelevantDocuments(query: string): Promise<DocumentInterface[]>;
}

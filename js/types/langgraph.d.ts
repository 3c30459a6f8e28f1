// memdomain/langgraph: LangGraph.js long-term memory (a BaseStore) on memdomain/cache. docs/LANGGRAPH.md.
import { BaseStore, InvalidNamespaceError } from "@langchain/langgraph-checkpoint";
import type { Item, Operation, OperationResults } from "@langchain/langgraph-checkpoint";
import type { Embeddings } from "@langchain/core/embeddings";
import type { EmbedFunction, MemoryCache, OpenOptions, SearchSettings } from "./cache.js";

/** The path root items live under unless `root` says otherwise. */
export declare const DEFAULT_ROOT: "langgraph/";

/** What the store embeds: LangGraph's IndexConfig (dims, embeddings, fields), or memdomain's embed hook. */
export interface MemdomainIndexConfig {
  /** The vectors' dimension (the cache's `dim`). */
  readonly dims: number;
  /** A LangChain Embeddings: embedDocuments for items, embedQuery for queries. */
  readonly embeddings?: Pick<Embeddings, "embedDocuments" | "embedQuery">;
  /** Or memdomain/cache's embed hook, called with kind "document" and "query". */
  readonly embed?: EmbedFunction;
  /** The value's field paths whose text is indexed ("text", "a.b", "items[*].text", "$" the whole value as JSON; default ["$"]). */
  readonly fields?: readonly string[];
}

export interface MemdomainStoreCommon {
  readonly index?: MemdomainIndexConfig;
  /** The path prefix items live under: "" or ending in "/" (default "langgraph/"). */
  readonly root?: string;
  /** cache.search settings every query uses (preset, weights, lambda, duplicate, ...; not text, vector, filter, limit, offset). */
  readonly search?: Partial<SearchSettings>;
}

/** On an open cache (you close it), or with openMemoryCache's options (the store opens the cache on first use; stop() closes it). */
export type MemdomainStoreOptions =
  | (MemdomainStoreCommon & { readonly cache: MemoryCache })
  | (MemdomainStoreCommon & OpenOptions & { readonly cache?: undefined });

export declare class MemdomainStore extends BaseStore {
  constructor(options?: MemdomainStoreOptions);
  /** Get, put (value null deletes), search and listNamespaces operations; reads see the store before the batch's writes. */
  batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>>;
  /** The cache (opened on first use when the store opened it). */
  cache(): Promise<MemoryCache>;
  /** Open the cache now. */
  start(): Promise<void>;
  /** Close the cache if the store opened it. */
  stop(): Promise<void>;
  /** The memory path of an item: root + escaped labels + escaped key, joined with "/". */
  pathOf(namespace: readonly string[], key: string): string;
}

/** A namespace label or key as a path segment ("%", "/", NUL and lone surrogates as %XXXX), and back. */
export declare function escapeSegment(s: string): string;
export declare function unescapeSegment(s: string): string;

export { InvalidNamespaceError };
export type { Item };

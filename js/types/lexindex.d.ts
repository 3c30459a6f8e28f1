// lexindex module: the resident lexical index (posting lists with score bounds, exact bm25 top-k).

/** Documents and terms are integers below this (2^30). */
export const LEXICAL_INDEX_MAX_ID: number;

/** What top() returns: the best documents first, their bm25 (smaller is better), the postings scored. */
export interface LexicalTop {
  readonly docs: Uint32Array;
  readonly scores: Float64Array;
  readonly scored: number;
}

export interface LexicalIndex {
  /** Put document `doc` (replacing it): key (the tie-break), tokens, and per distinct term its gist and body hits. */
  put(doc: number, key: string, len: number, terms: Uint32Array, gist: Uint32Array, body: Uint32Array): void;
  /**
   * Put many documents, as put() each in turn: document i is docs[i] with keys[i], lens[i] and the
   * terms (and gist / body hits) terms[start[i]..start[i + 1]) (start: docs.length + 1 entries from 0).
   */
  putMany(docs: Uint32Array, keys: readonly string[], lens: Uint32Array, start: Uint32Array, terms: Uint32Array,
    gist: Uint32Array, body: Uint32Array): void;
  /** Delete a document: false when it is not in the index. */
  delete(doc: number): boolean;
  /** Documents held. */
  readonly count: number;
  /** Documents holding `term`. */
  df(term: number): number;
  /** Bytes held in WebAssembly memory. */
  bytes(): number;
  /**
   * The best k documents for the OR query of `terms` by FTS5's bm25, then key (UTF-8 bytes), then doc.
   * `idf`: one per term (> 0) in place of the index's own (fdlibm log).
   */
  top(terms: Uint32Array, k: number, options?: { readonly gistWeight?: number; readonly idf?: Float64Array | null }): LexicalTop;
  /** Release the memory (idempotent). */
  free(): void;
}

/** One document as put() takes it. */
export interface LexicalDocument {
  readonly doc: number;
  readonly key: string;
  readonly len: number;
  readonly terms: Uint32Array;
  readonly gist: Uint32Array;
  readonly body: Uint32Array;
}

/** A resident lexical index holding `docs` (put in order; none by default). */
export function lexicalIndex(docs?: readonly LexicalDocument[]): LexicalIndex;

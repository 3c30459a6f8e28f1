// graph module: pagerank, labelPropagation, bridgeCounts and the Graph handle.

/** One directed weighted edge. strength is unitless in [0, 1]. */
export interface GraphEdge {
  readonly src: string;
  readonly dst: string;
  readonly strength: number;
}

export declare const PAGERANK_DAMPING: 0.85;
export declare const PAGERANK_MAX_ITERATIONS: 100;
export declare const PAGERANK_TOLERANCE: 0.000001;
export declare const MIN_COMMUNITY_SIZE: 3;
export declare const LABEL_PROPAGATION_MAX_SWEEPS: 100;

export interface PagerankOptions {
  readonly damping?: number;
  readonly maxIterations?: number;
  readonly seeds?: ReadonlyMap<string, number>;
  readonly tolerance?: number;
}

export interface LabelPropagationOptions {
  readonly maxSweeps?: number;
  readonly minCommunitySize?: number;
}

/** PageRank by power iteration, weighted, with a uniform or personalized teleport prior. */
export declare function pagerank(
  nodes: readonly string[],
  edges: readonly GraphEdge[],
  options?: PagerankOptions,
): ReadonlyMap<string, number>;

/** Communities by label propagation over the edge list read as undirected. */
export declare function labelPropagation(
  nodes: readonly string[],
  edges: readonly GraphEdge[],
  options?: LabelPropagationOptions,
): ReadonlyMap<string, string | undefined>;

/** Per-node count of incident memory edges that cross a community boundary. */
export declare function bridgeCounts(
  nodes: readonly string[],
  edges: readonly GraphEdge[],
  communities: ReadonlyMap<string, string | undefined>,
): ReadonlyMap<string, number>;

/**
 * A graph normalized once in WebAssembly memory, for any number of runs; each
 * run returns exactly what the one-shot function returns for the same nodes
 * and edges. Call free() when done (a FinalizationRegistry is only a safety net).
 */
export interface Graph {
  /** The distinct nodes in sorted (UTF-16) order: every result's key order. */
  readonly nodes: readonly string[];
  readonly nodeCount: number;
  /** Edges left after dropping self-loops and absent ends and folding parallels. */
  readonly edgeCount: number;
  readonly freed: boolean;
  pagerank(options?: PagerankOptions): ReadonlyMap<string, number>;
  /** pagerank's scores in `nodes` order, without building a Map. */
  pagerankScores(options?: PagerankOptions): Float64Array;
  labelPropagation(options?: LabelPropagationOptions): ReadonlyMap<string, string | undefined>;
  bridgeCounts(communities: ReadonlyMap<string, string | undefined>): ReadonlyMap<string, number>;
  /** Release the graph's memory now; later runs throw. Idempotent. (Where the
   * runtime has Symbol.dispose, `using g = new Graph(...)` calls it too.) */
  free(): void;
}

/** Build a Graph: `new Graph(nodes, edges)` or `Graph(nodes, edges)`. */
export declare const Graph: {
  new (nodes: readonly string[], edges: readonly GraphEdge[]): Graph;
  (nodes: readonly string[], edges: readonly GraphEdge[]): Graph;
  readonly prototype: Graph;
};

/** Same as `new Graph(nodes, edges)`. */
export declare function buildGraph(nodes: readonly string[], edges: readonly GraphEdge[]): Graph;

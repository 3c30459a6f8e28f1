// memdomain/cache: what search keeps resident, and THE seam to the core's resident
// structures. Everything that touches `residentRows` or `Graph` is in this file.
//
// The resident rows follow put and delete without a rebuild: a build holds every live
// vector in path order, and after it a put or delete only marks the build's row of that
// path dead and keeps the path's new vector among the fresh rows (a few, in path order,
// scored per search). The top-k over both is exact: the build's first k live rows are
// among its first k + dead rows, each part is ordered (sim desc, path asc) on its own,
// and merging them keeps that order. Once the dead and fresh rows pass pendingLimit(n),
// the next search builds the rows again (amortized over that many writes). The core's
// handle has no JavaScript append/remove (md_rows_append and friends stay in C), and
// appended rows would not be in path order anyway.
import { Graph, PAGERANK_TOLERANCE, applyMmr, cosineRows, float32View, residentRows, topCosineRows } from "../index.js";
import { byPath } from "./validate.js";

/** An edge's identity in the edges table: its primary key (src, dst, type). */
const edgeKey = (src, dst, type) => `${src}\u0000${dst}\u0000${type}`;

/**
 * How many dead and fresh rows (written since the rows were built) a search tolerates
 * before the rows are built again, for n live vectors: 4 sqrt(n), at least 256 (1,265 at
 * 100k). A build costs about n rows; each dead row one more row asked of the build, each
 * fresh row one row scored per search.
 */
export const pendingLimit = (n) => Math.max(256, Math.ceil(4 * Math.sqrt(n)));

/**
 * The nodes of a resident Graph: the live paths, then edgeless placeholders up to a power of two
 * (a placeholder starts with a lone surrogate, which no path holds). PageRank stops when a step
 * moves less than tolerance x nodes (src/graph.c); over 2^j nodes, tolerance x live / 2^j is
 * exact, so the Graph stops where a fresh one over the live paths alone would (graph()).
 */
export function graphNodes(paths) {
  let n = 1;
  while (n < paths.length) n *= 2;
  const out = [...paths];
  for (let i = out.length; i < n; i++) out.push(`\udc00${i}`);
  return out;
}

/** Whether two Float32Arrays hold the same bits (a rewrite with an unchanged vector keeps its row). */
function sameBits(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length), y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

export class Resident {
  constructor(dim) {
    this.dim = dim;
    /** path -> Float32Array(dim), live memories that have an embedding */
    this.vecs = new Map();
    /** path -> [accessCount, outcomeScore (null = none), reinforcementCount], every live memory */
    this.meta = new Map();
    // the last build: { handle, paths (row i is paths[i], path order), index (path -> row, live
    // rows only: a deleted or rewritten path's row is dead) }
    this._rows = null;
    /** live paths whose vector is not a live row of the build (put since), and their rows: { paths, matrix } */
    this._fresh = new Set();
    this._freshRows = null;
    this.pendingLimit = pendingLimit;
    this._graphs = { all: null, links: null }; // Graph handles: every edge, and the edges link() made
    /** the edges table as committed: key (src, dst, type) -> { src, dst, strength, origin } */
    this._edges = new Map();
    /** path -> the keys of its edges (either end, each once; an array: a Set per path cost 1 s at 100k), so a delete touches only its own */
    this._adj = new Map();
    this.rowsStale = true;
    this._graphStale = { all: true, links: true };
    // per Graph since its build: path -> true (live now, not a node of it) | false (a node, not live now)
    this._graphDelta = { all: new Map(), links: new Map() };
    /** the neighbour lists as this cache's last sleep pass stored them ({ gen, params, state }: sleep.js), or null */
    this.neighborLists = null;
  }

  /** Every edge may have changed: every resident graph is rebuilt when next asked for. */
  staleGraphs() {
    this._staleGraph("all");
    this._staleGraph("links");
  }

  /** An edge of this origin was added, replaced or removed: the graphs holding it are rebuilt when next asked for. */
  _edgeChanged(origin) {
    this._staleGraph("all");
    if (origin === "link") this._staleGraph("links");
  }

  _staleGraph(kind) {
    this._graphStale[kind] = true;
    const delta = this._graphDelta[kind];
    if (delta.size) delta.clear(); // clear() allocates a new table even when empty: once per edge on a load
  }

  /** A memory became live (added) or stopped being live: each built Graph notes it (graph() decides whether it still serves). */
  _nodeChanged(path, added) {
    for (const kind of ["all", "links"]) {
      if (this._graphStale[kind] || !this._graphs[kind]) continue;
      const delta = this._graphDelta[kind];
      if (delta.has(path)) delta.delete(path); // back to what the build holds
      else delta.set(path, added);
      if (delta.size > pendingLimit(this.meta.size)) this._graphStale[kind] = true;
    }
  }

  /** Whether a path has an edge in the edges table (only link()'s with `links`). */
  _hasEdges(path, links) {
    const keys = this._adj.get(path);
    if (!keys) return false;
    if (!links) return keys.length > 0;
    for (const k of keys) if (this._edges.get(k)?.origin === "link") return true;
    return false;
  }

  /** Load every live memory's embedding and salience signals, and the edges (one read each). */
  async load(db) {
    const rows = await db.all(
      "SELECT path, embedding, access_count, outcome_score, reinforcement_count FROM memories WHERE superseded_by IS NULL AND archived_at IS NULL");
    this.rowsStale = true;
    this.staleGraphs();
    this.neighborLists = null;
    this.vecs.clear();
    this.meta.clear();
    for (const r of rows) this.setMemory(r.path, r.embedding ? float32View(r.embedding) : undefined,
      r.access_count, r.outcome_score, r.reinforcement_count);
    await this.loadEdges(db);
    this.rowsStale = true;
  }

  async loadEdges(db) {
    this.setEdges(await db.all("SELECT src, dst, type, strength, origin FROM edges"));
  }

  /** Replace every edge (what the edges table holds now): one stale mark for all of them. */
  setEdges(edges) {
    this._edges.clear();
    this._adj.clear();
    for (const e of edges) this._putEdge(edgeKey(e.src, e.dst, e.type), e.src, e.dst, e.strength, e.origin);
    this.staleGraphs();
  }

  /** INSERT OR REPLACE of one edge, as the edges table does it. */
  setEdge(src, dst, type, strength, origin) {
    const k = edgeKey(src, dst, type);
    this._edgeChanged(this._edges.get(k)?.origin);
    this._putEdge(k, src, dst, strength, origin);
    this._edgeChanged(origin);
  }

  _putEdge(k, src, dst, strength, origin) {
    const edges = this._edges;
    if (!edges.has(k)) { // a replaced edge is in its ends' lists already (the key names both ends)
      this._adjAdd(src, k);
      if (dst !== src) this._adjAdd(dst, k);
    }
    edges.set(k, { src, dst, strength, origin });
  }

  _adjAdd(path, k) {
    const keys = this._adj.get(path);
    if (keys) keys.push(k);
    else this._adj.set(path, [k]);
  }

  /** DELETE FROM edges WHERE src IN paths OR dst IN paths: only these paths' own edges are visited. */
  removeEdgesOf(paths) {
    for (const p of paths) {
      const keys = this._adj.get(p);
      if (!keys) continue;
      for (const k of keys) {
        const e = this._edges.get(k);
        if (!e) continue;
        this._edges.delete(k);
        const other = e.src === p ? e.dst : e.src, theirs = other === p ? undefined : this._adj.get(other);
        const at = theirs ? theirs.indexOf(k) : -1;
        if (at >= 0) {
          theirs[at] = theirs[theirs.length - 1];
          theirs.pop();
        }
        this._edgeChanged(e.origin);
      }
      this._adj.delete(p);
    }
  }

  /** The edges as committed, [{ src, dst, strength }] (parallel types of one pair are separate entries); only link()'s with `links`. */
  edges(links = false) {
    const out = [];
    for (const e of this._edges.values()) if (!links || e.origin === "link") out.push({ src: e.src, dst: e.dst, strength: e.strength });
    return out;
  }

  setMemory(path, vec, accessCount, outcomeScore, reinforcementCount) {
    if (!this.meta.has(path)) this._nodeChanged(path, true);
    this.meta.set(path, [accessCount, outcomeScore ?? null, reinforcementCount]);
    if (vec && vec.length === this.dim) this._setVector(path, vec);
    else this._dropVector(path);
  }

  setSignals(path, accessCount, outcomeScore, reinforcementCount) {
    if (this.meta.has(path)) this.meta.set(path, [accessCount, outcomeScore ?? null, reinforcementCount]);
  }

  removeMemory(path) {
    if (this.meta.delete(path)) this._nodeChanged(path, false);
    this._dropVector(path);
  }

  /** A path's vector is now `vec`: its build row (if any) dies and it joins the fresh rows, unless its bits are unchanged. */
  _setVector(path, vec) {
    const old = this.vecs.get(path);
    this.vecs.set(path, vec);
    if (this.rowsStale || (old && sameBits(old, vec))) return;
    this._rows.index.delete(path);
    this._fresh.add(path);
    this._freshRows = null;
    this._pending();
  }

  /** A path has no vector now (deleted, superseded, or put without one). */
  _dropVector(path) {
    if (!this.vecs.delete(path) || this.rowsStale) return;
    if (this._rows.index.delete(path)) this._pending();
    else if (this._fresh.delete(path)) this._freshRows = null;
  }

  /** Past pendingLimit dead and fresh rows, the next search builds the rows again. */
  _pending() {
    const rows = this._rows;
    if (rows.paths.length - rows.index.size + this._fresh.size > this.pendingLimit(this.vecs.size)) this.rowsStale = true;
  }

  /** Free the rows' WebAssembly copy now (the next search builds it again): room for a sleep pass over as many rows. */
  releaseRows() {
    this._rows?.handle.free();
    this._rows = null;
    this._fresh.clear();
    this._freshRows = null;
    this.rowsStale = true;
  }

  /** The rows of the last build, built again first if stale (row i is paths[i], in JavaScript string order). */
  rows() {
    const d = this.dim ?? 1;
    if (this.rowsStale || !this._rows || this._rows.handle.d !== d) {
      this._rows?.handle.free();
      this._rows = null;
      this._fresh.clear();
      this._freshRows = null;
      const paths = [...this.vecs.keys()].sort(byPath);
      // the rows as they are: no packed n x d copy in JavaScript (150 MB at 100k, d = 384)
      this._rows = { handle: residentRows(paths.map((p) => this.vecs.get(p)), d), paths, index: new Map(paths.map((p, i) => [p, i])) };
      this.rowsStale = false;
    }
    return this._rows;
  }

  /** The fresh rows in path order: { paths, matrix } (copied when they changed since the last search). */
  freshRows() {
    if (!this._freshRows) {
      const paths = [...this._fresh].sort(byPath), d = this.dim ?? 1;
      const matrix = new Float32Array(paths.length * d);
      for (let i = 0; i < paths.length; i++) matrix.set(this.vecs.get(paths[i]), i * d);
      this._freshRows = { paths, matrix };
    }
    return this._freshRows;
  }

  /**
   * The exact top-`depth` cosine over the live vectors: paths best first (sim desc, path asc),
   * the same paths and sim bits as one build over every live vector.
   */
  topVector(query, depth, allow = null) {
    if (allow) return this._topAllowed(query, depth, allow);
    const { handle, paths, index } = this.rows();
    const fresh = this.freshRows();
    const outPaths = [], outSims = [];
    // the build's first `depth` live rows, in its order (sim desc, row = path asc): among its first depth + dead
    let a = null, ai = 0;
    if (index.size > 0) a = handle.topCosineRows(query, Math.min(paths.length, depth + paths.length - index.size));
    const live = () => {
      while (ai < a.indices.length && index.get(paths[a.indices[ai]]) !== a.indices[ai]) ai++;
      return ai < a.indices.length;
    };
    // the fresh rows' first `depth` (sim desc, row = path asc)
    const b = fresh.paths.length ? topCosineRows(query, fresh.matrix, depth) : null;
    let bi = 0;
    while (outPaths.length < depth) {
      const hasA = a !== null && live(), hasB = b !== null && bi < b.indices.length;
      if (!hasA && !hasB) break;
      let fromA = hasA;
      if (hasA && hasB) {
        const sa = a.sims[ai], sb = b.sims[bi];
        fromA = sa > sb || (sa === sb && byPath(paths[a.indices[ai]], fresh.paths[b.indices[bi]]) < 0);
      }
      if (fromA) {
        outPaths.push(paths[a.indices[ai]]);
        outSims.push(a.sims[ai++]);
      } else {
        outPaths.push(fresh.paths[b.indices[bi]]);
        outSims.push(b.sims[bi++]);
      }
    }
    return { paths: outPaths, sims: Float64Array.from(outSims) };
  }

  /**
   * topVector among the live paths of `allow` (a Set): when they are few, their rows scored at once
   * (cosineRows: the same bits as the resident rows' top-k), else the resident top-k read deeper
   * (doubling) until `depth` of them are in it or every row was read. Either way the answer is the
   * unfiltered exact ranking (sim desc, path asc) with the other paths left out.
   */
  _topAllowed(query, depth, allow) {
    const n = this.vecs.size;
    let inRows = 0;
    for (const p of allow) if (this.vecs.has(p)) inRows++;
    if (inRows === 0) return { paths: [], sims: new Float64Array(0) };
    if (inRows <= Math.max(4096, 8 * depth) || inRows * 16 <= n) {
      const paths = [];
      for (const p of allow) if (this.vecs.has(p)) paths.push(p);
      paths.sort(byPath);
      const d = this.dim, matrix = new Float32Array(paths.length * d);
      paths.forEach((p, i) => matrix.set(this.vecs.get(p), i * d));
      const sims = cosineRows(query, matrix);
      const order = paths.map((_, i) => i).sort((a, b) => sims[b] - sims[a] || a - b).slice(0, depth);
      return { paths: order.map((i) => paths[i]), sims: Float64Array.from(order, (i) => sims[i]) };
    }
    for (let k = Math.min(n, depth * 2); ; k = Math.min(n, k * 4)) {
      const t = this.topVector(query, k);
      const P = [], S = [];
      for (let i = 0; i < t.paths.length && P.length < depth; i++) if (allow.has(t.paths[i])) { P.push(t.paths[i]); S.push(t.sims[i]); }
      if (P.length === depth || k >= n) return { paths: P, sims: Float64Array.from(S) };
    }
  }

  /**
   * applyMmr over fused candidates ({ path, score }, best first): on the resident rows and their
   * stored norms when they are current and every candidate has one (no copy of the vectors),
   * else over the candidates' vectors; the same choice either way (bit-identical paths).
   */
  mmr(ranked, limit, lambda) {
    const rows = this.rowsStale ? null : this._rows;
    if (!rows) return this._mmrCopy(ranked, limit, lambda);
    const ids = new Uint32Array(ranked.length);
    for (let i = 0; i < ranked.length; i++) {
      const row = rows.index.get(ranked[i].path);
      if (row === undefined) return this._mmrCopy(ranked, limit, lambda);
      ids[i] = row;
    }
    const picked = rows.handle.applyMmr(ids, Float64Array.from(ranked, (r) => r.score), limit, lambda);
    return Array.from(picked, (i) => ranked[i]);
  }

  _mmrCopy(ranked, limit, lambda) {
    return applyMmr(ranked.map((r) => {
      const v = this.vecs.get(r.path);
      return v ? { path: r.path, score: r.score, vector: v } : { path: r.path, score: r.score };
    }), limit, lambda);
  }

  /**
   * The resident Graph over every live memory and the stored edges, and the PageRank tolerance to
   * run it with: { graph, tolerance }. With `links`, only the edges link() made (sleep's similarity
   * edges repeat the vector arm).
   *
   * Memories that became live or stopped being live since the build, none with an edge in the
   * table, keep the build: such a node has no edge in the build nor in a fresh one, so unless it
   * is a seed (`seeds`, { path }) its PageRank is exactly 0 at every step and adds exactly 0 to
   * every sum (src/graph.c), like the placeholders of graphNodes. What the node count changes is
   * the stopping threshold (tolerance x nodes): `tolerance` x the build's 2^j nodes is the fresh
   * graph's threshold bit for bit. An edge on such a memory, or a new memory among the seeds,
   * builds again.
   */
  graph(links = false, seeds = []) {
    const kind = links ? "links" : "all";
    const delta = this._graphDelta[kind];
    if (this._graphs[kind] && !this._graphStale[kind] && delta.size) {
      const keep = seeds.every((x) => delta.get(x.path) !== true) && ![...delta.keys()].some((p) => this._hasEdges(p, links));
      if (!keep) this._graphStale[kind] = true;
    }
    if (this._graphStale[kind] || !this._graphs[kind]) {
      this._graphs[kind]?.free();
      this._graphs[kind] = new Graph(graphNodes([...this.meta.keys()]), this.edges(links));
      this._graphStale[kind] = false;
      delta.clear();
    }
    const graph = this._graphs[kind];
    return { graph, tolerance: (PAGERANK_TOLERANCE * this.meta.size) / graph.nodes.length };
  }

  free() {
    this._rows?.handle.free();
    this._fresh.clear();
    this._freshRows = null;
    this._graphs.all?.free();
    this._graphs.links?.free();
    this._rows = null;
    this._graphs = { all: null, links: null };
    this.rowsStale = true;
    this.neighborLists = null;
    this.staleGraphs();
  }
}

// memdomain/cache: what search keeps resident, and THE seam to the core's resident
// structures. Everything that touches `residentRows` or `Graph` is in this file.
//
// Today the core has no append/overwrite/remove for resident rows (issue 16 adds
// them), so a put or delete updates the JavaScript side at once and marks the wasm
// side stale; the next search rebuilds it (one copy of n x d floats). When the
// core gains row updates, `setVector`/`removeVector` can patch the rows in place
// and `rows()` stops rebuilding; nothing outside this file changes.
import { Graph, applyMmr, float32View, residentRows } from "../index.js";
import { byPath } from "./validate.js";

/** An edge's identity in the edges table: its primary key (src, dst, type). */
const edgeKey = (src, dst, type) => `${src}\u0000${dst}\u0000${type}`;

export class Resident {
  constructor(dim) {
    this.dim = dim;
    /** path -> Float32Array(dim), live memories that have an embedding */
    this.vecs = new Map();
    /** path -> [accessCount, outcomeScore (null = none), reinforcementCount], every live memory */
    this.meta = new Map();
    this._rows = null; // { handle, paths, index (path -> row) }
    this._graphs = { all: null, links: null }; // Graph handles: every edge, and the edges link() made
    /** the edges table as committed: key (src, dst, type) -> { src, dst, strength, origin } */
    this._edges = new Map();
    /** path -> the keys of its edges (either end), so a delete touches only its own */
    this._adj = new Map();
    this.rowsStale = true;
    this._graphStale = { all: true, links: true };
  }

  /** The memories or the edges changed: every resident graph is rebuilt when next asked for. */
  staleGraphs() {
    this._graphStale = { all: true, links: true };
  }

  /** Load every live memory's embedding and salience signals, and the edges (one read each). */
  async load(db) {
    const rows = await db.all(
      "SELECT path, embedding, access_count, outcome_score, reinforcement_count FROM memories WHERE superseded_by IS NULL");
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

  /** Replace every edge (what the edges table holds now). */
  setEdges(edges) {
    this._edges.clear();
    this._adj.clear();
    for (const e of edges) this.setEdge(e.src, e.dst, e.type, e.strength, e.origin);
    this.staleGraphs();
  }

  /** INSERT OR REPLACE of one edge, as the edges table does it. */
  setEdge(src, dst, type, strength, origin) {
    const k = edgeKey(src, dst, type);
    this._edges.set(k, { src, dst, strength, origin });
    for (const p of [src, dst]) {
      let keys = this._adj.get(p);
      if (!keys) this._adj.set(p, (keys = new Set()));
      keys.add(k);
    }
    this.staleGraphs();
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
        const other = e.src === p ? e.dst : e.src;
        this._adj.get(other)?.delete(k);
        this.staleGraphs();
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
    if (!this.meta.has(path)) this.staleGraphs();
    this.meta.set(path, [accessCount, outcomeScore ?? null, reinforcementCount]);
    if (vec && vec.length === this.dim) this.vecs.set(path, vec);
    else this.vecs.delete(path);
    this.rowsStale = true;
  }

  setSignals(path, accessCount, outcomeScore, reinforcementCount) {
    if (this.meta.has(path)) this.meta.set(path, [accessCount, outcomeScore ?? null, reinforcementCount]);
  }

  removeMemory(path) {
    if (this.meta.delete(path)) this.staleGraphs();
    if (this.vecs.delete(path)) this.rowsStale = true;
  }

  /** The resident rows (rebuilt if stale): row i is paths[i], in JavaScript string order. */
  rows() {
    if (this.rowsStale || !this._rows) {
      this._rows?.handle.free();
      this._rows = null;
      const paths = [...this.vecs.keys()].sort(byPath);
      const d = this.dim ?? 1;
      const matrix = new Float32Array(paths.length * d);
      for (let i = 0; i < paths.length; i++) matrix.set(this.vecs.get(paths[i]), i * d);
      this._rows = { handle: residentRows(matrix, d), paths, index: new Map(paths.map((p, i) => [p, i])) };
      this.rowsStale = false;
    }
    return this._rows;
  }

  /** The exact top-`depth` cosine over the resident rows: paths best first (sim desc, path asc). */
  topVector(query, depth) {
    const { handle, paths } = this.rows();
    if (paths.length === 0) return { paths: [], sims: new Float64Array(0) };
    const { indices, sims } = handle.topCosineRows(query, depth);
    return { paths: Array.from(indices, (i) => paths[i]), sims };
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
   * The resident Graph over every live memory and the stored edges (rebuilt if stale); with
   * `links`, only the edges link() made (sleep's similarity edges repeat the vector arm).
   */
  graph(links = false) {
    const kind = links ? "links" : "all";
    if (this._graphStale[kind] || !this._graphs[kind]) {
      this._graphs[kind]?.free();
      this._graphs[kind] = new Graph([...this.meta.keys()], this.edges(links));
      this._graphStale[kind] = false;
    }
    return this._graphs[kind];
  }

  free() {
    this._rows?.handle.free();
    this._graphs.all?.free();
    this._graphs.links?.free();
    this._rows = null;
    this._graphs = { all: null, links: null };
    this.rowsStale = true;
    this.staleGraphs();
  }
}

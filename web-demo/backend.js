// The workbench's storage and retrieval backend: the ONE file that knows where the
// memories live and how the four arms are read. The worker talks to it only through
// this interface:
//
//   const b = await openBackend(md);      // md: the memdomain package (initialized)
//   b.kind                                // what holds the data, for the page
//   await b.load()                        // { memories, edges } stored from an earlier visit (or empty)
//   await b.replace(memories, edges, onProgress)   // the new dataset, persisted (OPFS)
//   await b.searchArms(query)             // memdomain/cache's searchArms: { lexical, vector, salience, lateral, seeds }
//   await b.exportBytes()                 // a SQLite file, or null when this backend has none
//   await b.readSide(name) / b.writeSide(name, text)   // small side files (queries, labels, meta) in OPFS
//
// This implementation is the stand-in until memdomain/cache lands on main: memories
// and edges are kept in memory and persisted as JSON Lines in OPFS; the arms follow
// memdomain/cache's definitions (vector: exact top-depth cosine on resident rows;
// salience: access count, outcome, reinforcement over the lexical and vector pools;
// lateral: personalized PageRank on a resident Graph seeded by the fused top hits),
// with a JavaScript BM25 over gist and body in place of SQLite FTS5's bm25().
import { toJsonl, parseDataset } from "./lib/data.js";

const FILE = "workbench-memories.jsonl";

async function opfsDir() {
  try {
    return await navigator.storage.getDirectory();
  } catch {
    return null; // no OPFS (a private window): the data lasts for this visit only
  }
}

async function readFile(dir, name) {
  if (!dir) return null;
  try {
    return await (await (await dir.getFileHandle(name)).getFile()).text();
  } catch {
    return null;
  }
}

async function writeFile(dir, name, text) {
  if (!dir) return;
  const h = await dir.getFileHandle(name, { create: true });
  const w = await h.createWritable();
  await w.write(text);
  await w.close();
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const words = (s) => (s.normalize("NFC").toLowerCase().match(WORD) ?? []);
const byPath = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

export async function openBackend(md) {
  const dir = await opfsDir();
  let S = null; // { memories, edges, rows, rowPaths, graph, meta, index }

  function build(memories, edges) {
    free();
    const sorted = memories.map((m) => m.path).sort(byPath);
    const byP = new Map(memories.map((m) => [m.path, m]));
    const withVec = sorted.filter((p) => byP.get(p).embedding);
    const d = withVec.length ? byP.get(withVec[0]).embedding.length : 1;
    const matrix = new Float32Array(withVec.length * d);
    withVec.forEach((p, i) => matrix.set(byP.get(p).embedding, i * d));
    // BM25 over gist and body (k1 1.2, b 0.75, per column, summed)
    const cols = ["gist", "body"].map((c) => {
      const docs = memories.map((m) => {
        const tf = new Map();
        const ws = words(m[c]);
        for (const w of ws) tf.set(w, (tf.get(w) ?? 0) + 1);
        return { tf, len: ws.length };
      });
      return { docs, avg: docs.reduce((a, x) => a + x.len, 0) / Math.max(1, docs.length) };
    });
    const df = new Map();
    memories.forEach((_, i) => {
      const seen = new Set([...cols[0].docs[i].tf.keys(), ...cols[1].docs[i].tf.keys()]);
      for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
    });
    S = {
      memories, edges, byP, rowPaths: withVec, rows: md.residentRows(matrix, d),
      graph: new md.Graph(sorted, edges), cols, df,
    };
  }

  function free() {
    S?.rows.free();
    S?.graph.free();
    S = null;
  }

  function lexical(text, depth) {
    const terms = [...new Set(words(text))].slice(0, 64);
    if (!terms.length) return [];
    const n = S.memories.length;
    const scores = [];
    S.memories.forEach((m, i) => {
      let s = 0;
      for (const t of terms) {
        const nt = S.df.get(t);
        if (!nt) continue;
        const idf = Math.max(1e-6, Math.log((n - nt + 0.5) / (nt + 0.5)));
        for (const c of S.cols) {
          const f = c.docs[i].tf.get(t);
          if (f) s += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * c.docs[i].len) / (c.avg || 1)));
        }
      }
      if (s > 0) scores.push([m.path, s]);
    });
    scores.sort((a, b) => b[1] - a[1] || byPath(a[0], b[0]));
    return scores.slice(0, depth).map((x) => x[0]);
  }

  const hits = (paths) => paths.map((path, i) => ({ path, rank: i + 1 }));

  return {
    kind: dir ? "in-memory stand-in for memdomain/cache, persisted as JSON Lines in OPFS" : "in memory only (no OPFS here)",
    sqlite: false,

    async load() {
      const text = await readFile(dir, FILE);
      if (!text) return null;
      const ds = parseDataset([{ name: FILE, text }]);
      build(ds.memories, ds.edges);
      return { memories: ds.memories, edges: ds.edges };
    },

    async replace(memories, edges, onProgress = () => {}) {
      onProgress("indexing", 0.2);
      build(memories, edges);
      onProgress("writing to OPFS", 0.6);
      await writeFile(dir, FILE, toJsonl({ meta: {}, memories, edges, queries: [] }).memories);
      onProgress("stored", 1);
    },

    /** memdomain/cache's searchArms for { text, vector, weights, k, depth, seeds }. */
    async searchArms({ text, vector, weights: w, k, depth, seeds: nSeeds }) {
      const lex = w.lexical > 0 ? lexical(text ?? "", depth) : [];
      let vec = [];
      if (w.vector > 0 && vector && S.rowPaths.length) {
        const { indices } = S.rows.topCosineRows(vector, depth);
        vec = Array.from(indices, (i) => S.rowPaths[i]);
      }
      let sal = [];
      if (w.salience > 0) {
        const key = (p) => { const m = S.byP.get(p); return [m.accessCount, Math.max(m.outcomeScore ?? 0, 0), m.reinforcementCount]; };
        sal = [...new Set([...lex, ...vec])].map((p) => [p, key(p)])
          .sort(([pa, a], [pb, b]) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2] || byPath(pa, pb)).slice(0, depth).map((x) => x[0]);
      }
      let lateral = [], seeds = [];
      if (w.lateral > 0 && nSeeds > 0) {
        const base = md.rankFused(md.fuseArms([hits(lex), hits(vec), hits(sal)], [w.lexical, w.vector, w.salience], k));
        seeds = base.slice(0, nSeeds).filter((s) => s.score > 0);
        if (seeds.length) {
          const scores = S.graph.pagerankScores({ seeds: new Map(seeds.map((s) => [s.path, s.score])) });
          const seedSet = new Set(seeds.map((s) => s.path));
          const nodes = S.graph.nodes;
          const order = [];
          for (let i = 0; i < scores.length; i++) if (scores[i] > 0 && !seedSet.has(nodes[i])) order.push(i);
          order.sort((a, b) => scores[b] - scores[a] || a - b);
          lateral = order.slice(0, depth).map((i) => nodes[i]);
        }
      }
      return { lexical: lex, vector: vec, salience: sal, lateral, seeds };
    },

    async exportBytes() {
      return null;
    },
    async importBytes() {
      throw new Error("this backend stores JSON Lines; a SQLite file needs memdomain/cache");
    },

    async readSide(name) {
      return readFile(dir, name);
    },
    async writeSide(name, text) {
      await writeFile(dir, name, text);
    },
    close: free,
  };
}

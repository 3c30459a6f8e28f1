// A seeded synthetic memory corpus for the memdomain/cache tests and benchmark:
// topic words in gists and bodies, clustered embeddings (a centroid per topic plus
// noise), some near-duplicates (cosine ~0.99 to an earlier memory, same text or a
// negated / re-numbered variant the merge guards must veto), and varied counters.
import { rng } from "../oracles/rng.js";

const TOPICS = [
  ["deploy", "rollout", "canary", "release", "pipeline"],
  ["retry", "backoff", "timeout", "jitter", "circuit"],
  ["cache", "eviction", "ttl", "warmup", "hitrate"],
  ["sleep", "consolidation", "decay", "merge", "retention"],
  ["graph", "pagerank", "community", "bridge", "edge"],
  ["vector", "embedding", "cosine", "norm", "dimension"],
  ["lexical", "token", "stemming", "phrase", "bm25"],
  ["schema", "migration", "index", "column", "table"],
];
// Filler words drawn Zipf-like (weight 1 / rank) from 120 generated words: the first few
// occur in most memories, as "the" and "of" do in English text.
const SYL = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "de", "va", "go", "zu"];
const FILLER = Array.from({ length: 120 }, (_, i) => SYL[i % 12] + SYL[(i * 7 + 3) % 12] + (i >= 60 ? SYL[(i * 5) % 12] : ""));
const ZIPF = (() => {
  const w = FILLER.map((_, i) => 1 / (i + 1)), total = w.reduce((a, b) => a + b, 0);
  let acc = 0;
  return w.map((x) => (acc += x / total));
})();
const SUFFIX = ["", "s", "ing", "ed", "er", "al", "ly", "ion"];
export const TYPES = ["episodic", "semantic", "procedural", "arc", "error_pattern", "task"];
export const T0 = Date.UTC(2026, 0, 1);

/** `n` memories of dimension `d` from `seed`; `dupEvery` puts a near-duplicate every that many memories. */
export function makeCorpus(n, d, seed = 1, { dupEvery = 25 } = {}) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const centroids = TOPICS.map(() => Float32Array.from({ length: d }, gauss));
  const memories = [];
  for (let i = 0; i < n; i++) {
    const t = Math.floor(r() * TOPICS.length);
    const path = `mem/${String(i).padStart(6, "0")}.html`;
    if (dupEvery && i % dupEvery === dupEvery - 1 && memories.length) {
      const src = memories[Math.floor(r() * memories.length)];
      const variant = r();
      const gist = variant < 0.4 ? src.gist : variant < 0.7 ? `${src.gist} not` : `${src.gist} ${i}`;
      const embedding = Float32Array.from(src.embedding, (x) => x + 0.02 * gauss());
      memories.push({ ...src, path, gist, embedding, createdAt: src.createdAt + 3_600_000 });
      continue;
    }
    const filler = () => { const x = r(); let i = 0; while (ZIPF[i] < x) i++; return FILLER[i]; };
    const words = () => Array.from({ length: 3 + Math.floor(r() * 6) }, () => (r() < 0.45 ? pick(TOPICS[t]) + pick(SUFFIX) : filler()));
    const gist = words().join(" ");
    const body = Array.from({ length: 2 + Math.floor(r() * 5) }, () => words().join(" ")).join(". ");
    const embedding = Float32Array.from(centroids[t], (x) => x + 1.2 * gauss());
    memories.push({
      path, gist, body, type: pick(TYPES), embedding,
      createdAt: T0 + Math.floor(r() * 200) * 86_400_000 + i,
      accessedAt: r() < 0.5 ? null : T0 + Math.floor(r() * 200) * 86_400_000,
      accessCount: Math.floor(r() * 12),
      confidence: Math.round(r() * 1000) / 1000,
      outcomeScore: r() < 0.3 ? null : Math.round((r() * 2 - 1) * 1000) / 1000,
      reinforcementCount: Math.floor(r() * 6),
      contradictionCount: r() < 0.9 ? 0 : Math.floor(r() * 4),
    });
  }
  return memories;
}

/** Query texts and vectors drawn from the corpus's topics. */
export function makeQueries(memories, count, seed = 2) {
  const r = rng(seed);
  const out = [];
  for (let i = 0; i < count; i++) {
    const m = memories[Math.floor(r() * memories.length)];
    const words = m.gist.split(" ");
    const text = words.slice(0, 1 + Math.floor(r() * Math.min(3, words.length))).join(" ");
    const vector = Float32Array.from(m.embedding, (x) => x + 0.5 * (r() - 0.5));
    out.push({ text, vector });
  }
  return out;
}

// Inputs to fusion that the design leaves to its callers: the query's vector and the
// lexical arm's term scores. Production gets these from an embedding model and SQLite
// FTS5; the demo builds them here, and every number shown on the page (similarities,
// ranks, fused scores, contributions) is then computed by the wasm module.

const STOP = new Set("a an and are as at be by for from has in is it its of on or that the this to was were will with".split(" "));

export function tokenize(text) {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOP.has(t));
}

/** A tiny inverted index: per memory, term counts over gist (counted twice) and body. */
export function lexicalIndex(memories) {
  const docs = memories.map((m) => {
    const tf = new Map();
    for (const t of [...tokenize(m.gist), ...tokenize(m.gist), ...tokenize(m.body)]) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const df = new Map();
  for (const tf of docs) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = memories.length;
  const idf = (t) => Math.log(1 + n / (df.get(t) ?? n + 1));
  return { docs, idf };
}

/** Term-overlap score (tf x idf, saturating): a stand-in for FTS5 bm25, used only to order the lexical arm. */
export function lexicalScores(index, query) {
  const terms = [...new Set(tokenize(query))];
  return index.docs.map((tf) => {
    let s = 0;
    for (const t of terms) {
      const c = tf.get(t);
      if (c) s += index.idf(t) * (c / (c + 1.2));
    }
    return s;
  });
}

/**
 * The query's vector in the corpus's synthetic space: for every topic or sub-topic
 * whose keywords the query names, add that topic's centroid (0.62) and sub-topic
 * direction (0.5), then normalize. Returns null when the query names no topic.
 */
export function queryVector(query, topics, centroid, subdir, dim) {
  const terms = new Set(tokenize(query));
  const out = new Float64Array(dim);
  let hit = false;
  topics.forEach((topic, t) => {
    const topicWords = [...tokenize(topic.label), topic.id];
    const topicHit = topicWords.some((w) => terms.has(w));
    let subHit = false;
    topic.keywords.forEach((kw, s) => {
      if (kw.some((w) => terms.has(w)) || terms.has(topic.sub[s])) {
        subHit = true;
        const c = centroid(t), d = subdir(t, s);
        for (let i = 0; i < dim; i++) out[i] += 0.62 * c[i] + 0.5 * d[i];
      }
    });
    if (topicHit && !subHit) {
      const c = centroid(t);
      for (let i = 0; i < dim; i++) out[i] += 0.62 * c[i];
    }
    hit ||= topicHit || subHit;
  });
  if (!hit) return null;
  let s = 0;
  for (let i = 0; i < dim; i++) s += out[i] * out[i];
  const n = Math.sqrt(s);
  return Float32Array.from(out, (x) => x / n);
}

/** First two principal components of a few vectors (power iteration), for display only. */
export function project2d(vectors) {
  const n = vectors.length;
  if (n === 0) return [];
  const dim = vectors[0].length;
  const mean = new Float64Array(dim);
  for (const v of vectors) for (let i = 0; i < dim; i++) mean[i] += v[i] / n;
  const X = vectors.map((v) => Float64Array.from(v, (x, i) => x - mean[i]));
  const comps = [];
  for (let c = 0; c < 2; c++) {
    let w = Float64Array.from({ length: dim }, (_, i) => Math.sin(i * (c + 1.7)) + 0.1);
    for (let it = 0; it < 60; it++) {
      const next = new Float64Array(dim);
      for (const x of X) {
        let d = 0;
        for (let i = 0; i < dim; i++) d += x[i] * w[i];
        for (let i = 0; i < dim; i++) next[i] += d * x[i];
      }
      for (const p of comps) {
        let d = 0;
        for (let i = 0; i < dim; i++) d += next[i] * p[i];
        for (let i = 0; i < dim; i++) next[i] -= d * p[i];
      }
      let s = 0;
      for (let i = 0; i < dim; i++) s += next[i] * next[i];
      s = Math.sqrt(s) || 1;
      w = next.map((x) => x / s);
    }
    comps.push(w);
  }
  return X.map((x) => comps.map((p) => {
    let d = 0;
    for (let i = 0; i < dim; i++) d += x[i] * p[i];
    return d;
  }));
}

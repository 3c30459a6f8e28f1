// The synthetic example's query encoder: the synthetic corpus has no embedding model, so a
// query's vector is built from the topic and sub-topic words it names (the generator uses it
// for the preset queries; the worker for typed text on the synthetic example).

const STOP = new Set("a an and are as at be by for from has in is it its of on or that the this to was were will with".split(" "));

export function tokenize(text) {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOP.has(t));
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

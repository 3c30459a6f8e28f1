// Plain-JavaScript cosine and fusion written the way the reference is (the
// design's arithmetic, in order): the benchmark baseline and the tests' oracle.
export function refCosine(a, b) {
  const n = Math.min(a.length, b.length);
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < n; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  if (na === 0 || nb === 0) return 0;
  const s = dot / (Math.sqrt(na) * Math.sqrt(nb));
  if (Number.isNaN(s)) return 0;
  return Math.max(-1, Math.min(1, s));
}

export function refFuse(arms, weights, k = 60) {
  const out = new Map();
  arms.forEach((hits, i) => {
    const w = weights[i] ?? 0;
    if (w === 0) return;
    for (const h of hits) out.set(h.path, (out.get(h.path) ?? 0) + w / (h.rank + k));
  });
  return out;
}

/** Score descending, ties by path ascending; NaN scores last (the design's divergence). */
export function refRank(fused) {
  return [...fused].map(([path, score]) => ({ path, score })).sort((a, b) => {
    const na = Number.isNaN(a.score), nb = Number.isNaN(b.score);
    if (na !== nb) return na ? 1 : -1;
    if (!na && a.score !== b.score) return b.score - a.score;
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
}

// Ranking metrics of the relevance harness. A result list is an array of paths (or of hits with
// a `path` or `id`), best first; a path listed twice counts once, at its first position.
// Labels are graded: { path: grade } or a Map, grade > 0 relevant (the known target has 2).

const pathOf = (h) => (typeof h === "string" ? h : h?.path ?? h?.id);

/** The result list's paths, cut at n, each path once (its first position). */
export function topPaths(results, n = 10) {
  const out = [], seen = new Set();
  for (const h of results) {
    if (out.length >= n) break;
    const p = pathOf(h);
    if (p === undefined || seen.has(p)) continue;
    seen.add(p);
    out.push(p);
  }
  return out;
}

/** 1-based rank of `target` in the first n results, 0 when it is not there. */
export function rankOf(results, target, n = 10) {
  const i = topPaths(results, n).indexOf(target);
  return i < 0 ? 0 : i + 1;
}

/** Reciprocal rank of the target within the first n (MRR@n's term): 1/rank, 0 when absent. */
export function reciprocalRank(results, target, n = 10) {
  const r = rankOf(results, target, n);
  return r ? 1 / r : 0;
}

/** Known-item recall@n: 1 when the target is in the first n results, else 0. */
export function recallAt(results, target, n) {
  return rankOf(results, target, n) ? 1 : 0;
}

const gains = (relevant) => (relevant instanceof Map ? relevant : new Map(Object.entries(relevant)));

/**
 * nDCG@n with graded labels: DCG = sum over the first n results of (2^grade - 1) / log2(i + 1)
 * (i the 1-based position), divided by the DCG of the ideal order of ALL labels (not only those
 * retrieved); 0 when no label is positive.
 */
export function ndcgAt(results, relevant, n = 10) {
  const g = gains(relevant);
  let dcg = 0;
  topPaths(results, n).forEach((p, i) => {
    const grade = g.get(p) ?? 0;
    if (grade > 0) dcg += (2 ** grade - 1) / Math.log2(i + 2);
  });
  const ideal = [...g.values()].filter((x) => x > 0).sort((a, b) => b - a).slice(0, n);
  let idcg = 0;
  ideal.forEach((grade, i) => (idcg += (2 ** grade - 1) / Math.log2(i + 2)));
  return idcg > 0 ? dcg / idcg : 0;
}

/** The median (mean of the middle two for an even count); NaN for none. */
export function median(xs) {
  if (!xs.length) return NaN;
  const s = Float64Array.from(xs).sort();
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/**
 * Score result lists against their queries ({ target, relevant }): { mrr10, ndcg10, r1, r10,
 * perQuery: [{ rank, ndcg }] } (rank of the target in the top 10, 0 when absent).
 */
export function score(resultLists, queries) {
  if (resultLists.length !== queries.length) throw new RangeError(`score: ${resultLists.length} result lists for ${queries.length} queries`);
  let rr = 0, nd = 0, r1 = 0, r10 = 0;
  const perQuery = queries.map((q, i) => {
    const rank = rankOf(resultLists[i], q.target, 10);
    const ndcg = ndcgAt(resultLists[i], q.relevant, 10);
    rr += rank ? 1 / rank : 0;
    nd += ndcg;
    r1 += rank === 1 ? 1 : 0;
    r10 += rank ? 1 : 0;
    return { rank, ndcg };
  });
  const n = queries.length || 1;
  return { mrr10: rr / n, ndcg10: nd / n, r1: r1 / n, r10: r10 / n, perQuery };
}

/**
 * Run searchFn(query) (sync or async; results as above) over the queries, one at a time, timing
 * each: score()'s fields plus perQuery[i].ms, p50 and p90 (ms) and the results' top-10 paths.
 */
export async function evaluate(searchFn, queries) {
  const lists = [], ms = [];
  for (const q of queries) {
    const t = performance.now();
    const res = await searchFn(q);
    ms.push(performance.now() - t);
    lists.push(topPaths(res ?? [], 10));
  }
  const s = score(lists, queries);
  s.perQuery.forEach((p, i) => (p.ms = ms[i]));
  const sorted = Float64Array.from(ms).sort();
  return { ...s, p50: median(ms), p90: sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] : NaN, lists };
}

// Ranking metrics against relevance labels (query -> relevant paths with grades > 0).
// A result list is an array of paths, best first; k cuts it.

const gain = (g) => 2 ** g - 1;

/** nDCG@k: DCG of the list over the DCG of the ideal order of the labelled grades (exponential gain). */
export function ndcgAt(list, grades, k) {
  let dcg = 0;
  for (let i = 0; i < Math.min(k, list.length); i++) dcg += gain(grades[list[i]] ?? 0) / Math.log2(i + 2);
  const ideal = Object.values(grades).sort((a, b) => b - a).slice(0, k);
  let idcg = 0;
  ideal.forEach((g, i) => { idcg += gain(g) / Math.log2(i + 2); });
  return idcg > 0 ? dcg / idcg : 0;
}

/** recall@k: the share of the relevant paths found in the first k. */
export function recallAt(list, grades, k) {
  const n = Object.keys(grades).length;
  if (!n) return 0;
  let hit = 0;
  for (let i = 0; i < Math.min(k, list.length); i++) if (grades[list[i]] > 0) hit++;
  return hit / n;
}

/** Reciprocal rank of the first relevant path (0 when none is listed). */
export function reciprocalRank(list, grades) {
  const i = list.findIndex((p) => grades[p] > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** The three metrics per labelled query and their means. `lists` maps query id -> result paths. */
export function evaluate(queries, lists, k) {
  const rows = [];
  for (const q of queries) {
    if (!q.relevant || !Object.keys(q.relevant).length || !lists[q.id]) continue;
    const list = lists[q.id];
    rows.push({ id: q.id, ndcg: ndcgAt(list, q.relevant, k), recall: recallAt(list, q.relevant, k), mrr: reciprocalRank(list, q.relevant) });
  }
  const mean = (key) => (rows.length ? rows.reduce((a, r) => a + r[key], 0) / rows.length : null);
  return { k, rows, mean: { ndcg: mean("ndcg"), recall: mean("recall"), mrr: mean("mrr") } };
}

// The relevance harness's summary table (docs/RELEVANCE.md, "Calibration"): issue 39's rule, checked
// on every corpus and embedding of a run (run.mjs --write-docs writes it).
/**
 * The rule of issue 39, one row per corpus and embedding: the defaults (after the cache's own
 * calibration, without labels) against FTS5 alone and against the best single arm (at least 0.98 of
 * it), MRR@10 and nDCG@10 both; with the "oracle" (strong) embeddings, above the lexical arm too.
 */
export function summary(results) {
  const f = (x) => (Number.isFinite(x) ? x.toFixed(3) : "");
  const lines = ["| corpus | embeddings | defaults | uncalibrated | lexical alone | vector alone | FTS5 | minisearch | tuned (nDCG) | vector weight | meets the rule |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|"];
  for (const r of results) {
    const g = (n) => r.rows.find((x) => x.system === n && !x.error);
    const d = g("cache:defaults"), u = g("cache:uncalibrated"), l = g("cache:lexical"), v = g("cache:vector"), t = g("fts5"), m = g("minisearch"), tu = g("cache:tuned");
    if (!d || !l || !v || !t) continue;
    const miss = [];
    for (const [k, name] of [["mrr10", "MRR"], ["ndcg10", "nDCG"]]) {
      if (d[k] < t[k]) miss.push(`${name} below FTS5`);
      if (d[k] < 0.98 * Math.max(l[k], v[k])) miss.push(`${name} ${f(d[k])} < 0.98 x ${f(Math.max(l[k], v[k]))}`);
    }
    if (r.embedding === "oracle" && !(d.mrr10 > l.mrr10)) miss.push("not above the lexical arm");
    const w = /calibrated vector ([0-9.]+)/.exec(d.note ?? "")?.[1] ?? "";
    const pair = (x) => (x ? `${f(x.mrr10)} / ${f(x.ndcg10)}` : "");
    lines.push(`| ${r.corpus}${r.heldOut ? " (held-out)" : ""} | ${r.embedding} | ${pair(d)} | ${pair(u)} | ${pair(l)} | ${pair(v)} | ${pair(t)} | ${pair(m)} | ` +
      `${tu ? f(tu.ndcg10) : ""} | ${w} | ${miss.length ? miss.join("; ") : "yes"} |`);
  }
  return lines.join("\n");
}


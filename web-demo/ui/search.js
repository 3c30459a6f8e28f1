// Search: memdomain/cache's search() on the selected query, baseline and current side by side.
import { $, put, delta, el, fmt, move, moveMark, numberControl } from "./dom.js";

export const ARMS = ["lexical", "vector", "salience", "lateral"];
const NOTE = {
  lexical: "SQLite FTS5 bm25 over gist and body",
  vector: "exact cosine of the query vector, top depth (resident rows)",
  salience: "the lexical and vector pools by access count, outcome, reinforcement",
  lateral: "personalized PageRank seeded by the fused top hits (Graph handle)",
};

export function setup(ctx) {
  const box = $("#search-controls .fields");
  put(box, 
    ...ARMS.map((a) => numberControl(ctx, `search.weights.${a}`, `${a} weight`, { step: 0.05, note: NOTE[a] })),
    numberControl(ctx, "search.k", "k (rank offset: weight / (rank + k))", { step: 1, max: 200 }),
    numberControl(ctx, "search.depth", "depth (hits per arm)", { step: 1, max: 200 }),
    numberControl(ctx, "search.seeds", "seeds (fused top hits that seed the lateral walk)", { step: 1, max: 20 }),
    numberControl(ctx, "search.limit", "limit (results, and k of the metrics)", { step: 1, max: 50 }),
  );
}

export function runner(ctx) {
  return ctx.channel("search", () => ({ settings: ctx.settings(), baseline: ctx.baseline(), query: ctx.query() }), (r) => render(ctx, r));
}

function bars(row, max) {
  const bar = el("div", { class: "bar", title: "per-arm contribution to the fused score" });
  for (const a of ARMS) {
    const p = row.arms[a];
    if (!p) continue;
    bar.append(el("span", { style: `--c: var(--${a}); width: ${(100 * p.contribution) / max}%`, "data-arm": a, "data-value": String(p.contribution) }));
  }
  return bar;
}

function list(ctx, r, other, relevant, side) {
  const max = Math.max(1e-12, ...r.rows.map((x) => x.fused));
  const rankInOther = other ? new Map(other.rows.map((x) => [x.path, x.order])) : null;
  return el("ol", { class: "ranking", "data-side": side }, ...r.rows.map((row) => {
    const parts = ARMS.filter((a) => row.arms[a]).map((a) => `${a} #${row.arms[a].rank}`).join(" · ");
    let mark = null;
    if (rankInOther && side === "current") mark = moveMark(move(row.order, rankInOther.get(row.path) ?? null));
    else if (rankInOther && side === "baseline" && !rankInOther.has(row.path)) mark = el("span", { class: "move out", "data-move": "out", title: "not in the current list", text: "out" });
    const rel = relevant ? (relevant[row.path] ? el("span", { class: "rel", title: `labelled relevant (grade ${relevant[row.path]})`, text: "✓" }) : el("span", { class: "rel no" })) : null;
    return el("li", { "data-path": row.path, "data-score": String(row.fused), "data-rank": String(row.order), tabindex: 0,
      onclick: () => ctx.drill(row.path), onkeydown: (e) => { if (e.key === "Enter") ctx.drill(row.path); } },
    el("span", { class: "n", text: String(row.order) }), mark ?? el("span", { class: "move none" }), rel,
    el("div", { class: "what" }, el("div", { class: "gist", text: row.gist }),
      el("div", { class: "parts", text: `${row.path} · ${row.type}${parts ? ` · ${parts}` : ""}` })),
    el("div", { class: "scorecol" }, el("span", { class: "score", text: fmt(row.fused, 5) }), bars(row, max)));
  }));
}

function metricsStrip(m) {
  if (!m) return el("p", { class: "note", text: "This query has no relevance labels: no nDCG, recall or MRR for it (see Metrics; label queries in Data)." });
  const cell = (name, key) => el("div", { class: "metric", "data-metric": key },
    el("span", { class: "k", text: name }), el("b", { text: fmt(m.current?.[key], 3) }),
    m.baseline ? el("span", { class: "was", text: `baseline ${fmt(m.baseline[key], 3)}` }) : null,
    m.baseline ? delta(m.current?.[key], m.baseline[key], 3) : null);
  return el("div", { class: "metrics-strip" }, cell(`nDCG@${m.k}`, "ndcg"), cell(`recall@${m.k}`, "recall"), cell("MRR", "mrr"));
}

export function render(ctx, r) {
  const s = ctx.settings();
  const used = ARMS.map((a) => `${a} ${r.current.armSizes[a]}`).join(", ");
  const dark = ARMS.filter((a) => !(s.search.weights[a] > 0));
  $("#search-meta").textContent = `"${r.query.text}": ${r.current.ranked} candidates fused from ${used} hits; vector: ${r.query.vectorNote}.` +
    (dark.length ? ` Weight 0: ${dark.join(", ")} (absent from the fold).` : "") +
    ` Final order by applyMmr at λ = ${s.search.lambda}${s.search.rescale ? " on rescaled relevance" : ""} (MMR tab). Click a result for its details.`;
  if (r.metrics) r.metrics.k = s.search.limit;
  put($("#search-metrics"), metricsStrip(r.metrics));
  const rel = r.metrics?.relevant ?? null;
  const cols = [el("section", { class: "col current" }, el("h3", { text: r.baseline ? "Current" : "Results" }), list(ctx, r.current, r.baseline, rel, "current"))];
  if (r.baseline) cols.unshift(el("section", { class: "col baseline" }, el("h3", { text: "Baseline" }), list(ctx, r.baseline, r.current, rel, "baseline")));
  put($("#search-lists"), ...cols);
  $("#search-lists").classList.toggle("two", !!r.baseline);
  put($("#search-arms"), ...ARMS.map((a) => el("section", { style: `--c: var(--${a})`, "data-arm": a },
    el("h4", { text: `${a}${s.search.weights[a] > 0 ? "" : " (weight 0: not run)"}` }),
    r.current.armTop[a].length ? el("ol", {}, ...r.current.armTop[a].map((h) => el("li", { title: h.path, text: h.gist, onclick: () => ctx.drill(h.path) })))
      : el("p", { class: "note", text: "no hits" }))));
}

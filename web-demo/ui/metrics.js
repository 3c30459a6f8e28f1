// Metrics: nDCG@k, recall@k and MRR per labelled query and their means, baseline and current.
import { $, put, delta, el, fmt, numberControl } from "./dom.js";
import { lambdaSlider } from "./mmr.js";

export function setup(ctx) {
  const scope = "metrics";
  put($("#metrics-controls .fields"),
    ...["lexical", "vector", "salience", "lateral"].map((a) => numberControl(ctx, `search.weights.${a}`, `${a} weight`, { step: 0.05, scope })),
    numberControl(ctx, "search.k", "k", { step: 1, max: 200, scope }),
    numberControl(ctx, "search.depth", "depth", { step: 1, max: 200, scope }),
    numberControl(ctx, "search.seeds", "seeds", { step: 1, max: 20, scope }),
    numberControl(ctx, "search.lambda", "MMR λ", { ...lambdaSlider, scope }),
    numberControl(ctx, "search.limit", "limit = k of the metrics", { step: 1, max: 50, scope }));
}

export function runner(ctx) {
  return ctx.channel("metrics", () => ({ settings: ctx.settings(), baseline: ctx.baseline() }), (r) => render(ctx, r));
}

const KEYS = [["ndcg", "nDCG"], ["recall", "recall"], ["mrr", "MRR"]];

export function render(ctx, r) {
  const out = $("#metrics-out");
  if (!r.labelled) {
    put(out, el("p", { class: "empty", id: "metrics-none" },
      `This dataset has ${r.queries} queries and no relevance labels, so there is nothing to measure against. ` +
      "Import queries with a \"relevant\" list (Data tab) to see nDCG, recall and MRR here."));
    return;
  }
  const k = r.current.k;
  const cur = new Map(r.current.rows.map((x) => [x.id, x])), bas = r.baseline ? new Map(r.baseline.rows.map((x) => [x.id, x])) : null;
  const name = (n) => (n === "MRR" ? "MRR" : `${n}@${k}`);
  const head = el("tr", {}, el("th", { text: "query" }), ...KEYS.flatMap(([, n]) => bas
    ? [el("th", { class: "num bcol", text: `${name(n)} baseline` }), el("th", { class: "num", text: name(n) }), el("th", { class: "num", text: "Δ" })]
    : [el("th", { class: "num", text: name(n) })]));
  const cells = (c, b) => KEYS.flatMap(([key]) => bas
    ? [el("td", { class: "num bcol", text: fmt(b?.[key], 3) }), el("td", { class: "num", "data-key": key, text: fmt(c?.[key], 3) }), el("td", { class: "num" }, delta(c?.[key], b?.[key], 3))]
    : [el("td", { class: "num", "data-key": key, text: fmt(c?.[key], 3) })]);
  const mean = el("tr", { class: "mean", "data-query": "mean" }, el("th", { text: `mean of ${r.labelled} labelled queries` }), ...cells(r.current.mean, r.baseline?.mean));
  const rows = r.current.rows.map((x) => el("tr", { "data-query": x.id, onclick: () => { ctx.state.query = { id: x.id }; ctx.syncQuery?.(); } },
    el("td", { class: "gist", text: r.texts[x.id], title: `${x.id}: click to make it the selected query` }), ...cells(cur.get(x.id), bas?.get(x.id))));
  put(out, 
    el("p", { class: "note", text: `Over the final results (after MMR), k = limit = ${k}; nDCG with gain 2^grade − 1. ${r.queries - r.labelled} of ${r.queries} queries have no labels and are left out.` }),
    el("div", { class: "scroll-x" }, el("table", { class: "grid metrics", id: "metrics-table" }, el("thead", {}, head), el("tbody", {}, mean, ...rows))));
}

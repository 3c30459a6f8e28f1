// Metrics: nDCG@k, recall@k and MRR per labelled query and their means, baseline and current;
// and "Fit to my labels": memdomain/cache's tune() in the worker, fitted against pinned.
import { $, put, delta, el, fmt, numberControl } from "./dom.js";
import { searchDefaults, tidy } from "../lib/settings.js";
import { lambdaSlider, mmrControls } from "./mmr.js";
import { compositionControls, kControl } from "./search.js";

export function setup(ctx) {
  const scope = "metrics";
  put($("#metrics-controls .fields"),
    ...compositionControls(ctx, scope),
    ...["lexical", "vector", "salience", "lateral"].map((a) => numberControl(ctx, `search.weights.${a}`, `${a} weight`, { step: 0.05, scope })),
    kControl(ctx, "k", scope),
    numberControl(ctx, "search.depth", "depth", { step: 1, max: 200, scope }),
    numberControl(ctx, "search.seeds", "seeds", { step: 1, max: 20, scope }),
    ...mmrControls(ctx, scope),
    numberControl(ctx, "search.lambda", "MMR λ", { ...lambdaSlider, scope }),
    numberControl(ctx, "search.limit", "limit = k of the metrics", { step: 1, max: 50, scope }));
  $("#fit-run").onclick = () => fit(ctx);
  $("#cal-run").onclick = () => calibrateNow(ctx);
}

export function onData(ctx) {
  fitted = null;
  put($("#fit-out"));
  $("#fit-status").textContent = "";
  $("#cal-status").textContent = "";
  // the stored calibration (an imported database's, or the last sleep pass's)
  if (ctx) ctx.call("calibration").then((m) => renderCalibration(ctx, m.result, "stored"), () => {});
}

// ------------------------------------------------------------------ calibration: what the cache measured

async function calibrateNow(ctx) {
  const btn = $("#cal-run"), bar = $("#cal-progress"), status = $("#cal-status");
  btn.disabled = true;
  bar.hidden = false;
  bar.value = 0;
  status.textContent = "starting…";
  try {
    const m = await ctx.call("calibrate", {}, (p) => { bar.value = p.fraction; status.textContent = p.text; });
    ctx.demo.results.calibrate = m.result;
    status.textContent = `done in ${(m.ms / 1000).toFixed(1)} s`;
    renderCalibration(ctx, m.result, "measured");
  } catch (e) {
    status.textContent = "";
    put($("#cal-out"), el("p", { class: "error", id: "cal-error", text: e.message.split("\n")[0] }));
  } finally {
    btn.disabled = false;
    bar.hidden = true;
  }
}

/** The cache's calibration (or null: never calibrated): the weight it chose, why, and the table that chose it. */
function renderCalibration(ctx, c, how) {
  ctx.demo.results.calibration = c;
  if (!c) {
    put($("#cal-out"), el("p", { class: "note", id: "cal-chose", "data-vector": "none", text: "This database has not been calibrated: search uses the preset's vector weight. Calibrate to measure the arms on its own memories." }));
    return;
  }
  const where = how === "stored" ? "Stored in the database" : "Measured now and stored";
  const counts = `${c.queries} pseudo-queries and ${c.labels} labels over ${c.memories} memories, seed ${c.seed}`;
  if (c.vector === null) {
    put($("#cal-out"), el("p", { id: "cal-chose", "data-vector": "null", text: `${where}: nothing measured (${c.reason}); search keeps the preset's vector weight.` }));
    return;
  }
  const plateau = new Set(c.plateau);
  const rows = c.table.map((r) => el("tr", { class: r.vector === c.vector ? "changed" : "", "data-weight": String(r.vector) },
    el("th", { text: tidy(r.vector) }), el("td", { class: "num", text: fmt(r.mrr, 3) }), el("td", { class: "num", text: fmt(r.ndcg, 3) }),
    el("td", { class: "num", text: fmt(r.r10, 3) }),
    el("td", { text: [plateau.has(r.vector) ? "within one standard error of the best" : "", r.vector === c.vector ? "chosen" : ""].filter(Boolean).join(" · ") })));
  const arm = (name, a) => `${name} alone MRR@10 ${fmt(a.mrr, 3)}, nDCG@10 ${fmt(a.ndcg, 3)}`;
  put($("#cal-out"),
    el("p", { id: "cal-chose", "data-vector": String(c.vector), text: `${where}: vector weight ${tidy(c.vector)} (${counts}). ` +
      (c.vector === c.plateau[0] ? "The smallest weight within one standard error of the best."
        : `The weights within one standard error of the best start at ${tidy(c.plateau[0])}; without labels the weight is at most the preset's own, ${tidy(c.vector)}.`) }),
    el("p", { class: "note", id: "cal-arms", text: `${arm("the lexical arm", c.arms.lexical)}; ${arm("the vector arm", c.arms.vector)}.` }),
    el("table", { class: "grid", id: "cal-table" }, el("thead", {}, el("tr", {}, el("th", { text: "vector weight" }), el("th", { class: "num", text: "MRR@10" }),
      el("th", { class: "num", text: "nDCG@10" }), el("th", { class: "num", text: "recall@10" }), el("th", { text: "" }))), el("tbody", {}, ...rows)),
    el("div", { class: "row" }, el("button", { type: "button", id: "cal-apply", onclick: () => {
      const s = ctx.settings();
      ctx.replace({ ...s, search: { ...s.search, weights: { ...s.search.weights, vector: c.vector } } });
      $("#cal-status").textContent = "the calibrated vector weight is in use (undo restores the previous one)";
    } }, "Use the calibrated vector weight")));
}

export function runner(ctx) {
  return ctx.channel("metrics", () => ({ settings: ctx.settings(), baseline: ctx.baseline() }), (r) => render(ctx, r));
}

// ------------------------------------------------------------------ fit to my labels

let fitted = null; // { result, baseline (the search settings tune() started from and had to beat), limit }

/** The settings tune() must beat: the pinned baseline's search, when it is of the default composition; else the cache's defaults. */
function fitBaseline(ctx) {
  const b = ctx.baseline()?.search;
  if (b && b.preset === "default") return { settings: b, pinned: true, why: "the pinned baseline" };
  return { settings: { ...searchDefaults("default"), limit: ctx.settings().search.limit }, pinned: false,
    why: b ? "the cache's defaults (the pinned baseline is preset \"memhtml\"; tune() fits the default composition)" : "the cache's defaults (nothing is pinned)" };
}

async function fit(ctx) {
  const btn = $("#fit-run"), bar = $("#fit-progress"), status = $("#fit-status");
  const base = fitBaseline(ctx), limit = ctx.settings().search.limit;
  btn.disabled = true;
  bar.hidden = false;
  bar.value = 0;
  status.textContent = "starting…";
  ctx.demo.fitProgress = [];
  try {
    const m = await ctx.call("tune", { baseline: base.pinned ? base.settings : null, limit }, (p) => {
      bar.value = p.fraction;
      status.textContent = p.text;
      if (p.detail) ctx.demo.fitProgress.push(p.detail);
    });
    fitted = { result: m.result, baseline: base, limit };
    ctx.demo.results.tune = m.result;
    status.textContent = `done in ${(m.ms / 1000).toFixed(1)} s`;
    renderFit(ctx);
  } catch (e) {
    status.textContent = "";
    put($("#fit-out"), el("p", { class: "error", id: "fit-error", text: e.message.split("\n")[0] }));
  } finally {
    btn.disabled = false;
    bar.hidden = true;
  }
}

const ROWS = [
  ["fusion", (s) => s.fusion], ["lexical weight", (s) => s.weights.lexical], ["vector weight", (s) => s.weights.vector],
  ["salience weight", (s) => s.weights.salience], ["lateral weight", (s) => s.weights.lateral], ["k", (s) => s.k],
  ["depth", (s) => s.depth], ["λ", (s) => s.lambda], ["seeds", (s) => s.seeds], ["window", (s) => s.window],
  ["duplicate", (s) => (s.duplicate === null ? "off" : s.duplicate)],
];

function renderFit(ctx) {
  if (!fitted) return;
  const { result: r, baseline, limit } = fitted;
  const h = r.heldOut;
  const show = (v) => (v === undefined ? "—" : typeof v === "number" ? tidy(v) : String(v));
  const rows = ROWS.map(([name, f]) => {
    const a = f(baseline.settings), b = f(r.fitted);
    return el("tr", { class: a === b ? "" : "changed" }, el("th", { text: name }), el("td", { class: "num bcol", text: show(a) }), el("td", { class: "num", text: show(b) }));
  });
  const verdict = r.chose === "tuned"
    ? `chose "tuned": held out, the fitted settings beat the baseline by ${fmt(h.difference, 3)} (more than one standard error, ${fmt(h.standardError, 3)}).`
    : `chose "baseline": held out, the fitted settings do not beat the baseline by more than one standard error (difference ${fmt(h.difference, 3)}, standard error ${fmt(h.standardError, 3)}); tune() returns the baseline as its search settings.`;
  put($("#fit-out"),
    el("div", { class: "metrics-strip", id: "fit-scores" },
      el("div", { class: "metric", "data-metric": "fitted" }, el("span", { class: "k", text: `held-out nDCG@${limit}, fitted` }), el("b", { text: fmt(h.tuned, 3) }),
        delta(h.tuned, h.baseline, 3)),
      el("div", { class: "metric", "data-metric": "baseline" }, el("span", { class: "k", text: `held-out nDCG@${limit}, baseline` }), el("b", { text: fmt(h.baseline, 3) }))),
    el("p", { id: "fit-chose", "data-chose": r.chose, text: verdict }),
    el("p", { class: "note", text: `${h.queries} labelled queries, ${h.folds} folds, seed ${r.seed}, ${r.evaluations} evaluations; training nDCG@${limit} of the settings it returns: ${fmt(r.train, 3)}. Baseline: ${baseline.why}.` }),
    el("table", { class: "grid", id: "fit-table" }, el("thead", {}, el("tr", {}, el("th", { text: "setting" }), el("th", { class: "num bcol", text: "baseline" }), el("th", { class: "num", text: "fitted" }))),
      el("tbody", {}, ...rows)),
    el("div", { class: "row" }, el("button", { type: "button", id: "fit-apply", onclick: () => {
      const s = ctx.settings();
      ctx.replace({ ...s, search: { ...r.fitted, limit: s.search.limit } });
      $("#fit-status").textContent = "the fitted settings are in use (undo restores the previous ones)";
    } }, "Use the fitted settings")),
  );
}

// ------------------------------------------------------------------ the metrics table

const KEYS = [["ndcg", "nDCG"], ["recall", "recall"], ["mrr", "MRR"]];

export function render(ctx, r) {
  const out = $("#metrics-out");
  $("#fit-run").disabled = r.labelled < 2;
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

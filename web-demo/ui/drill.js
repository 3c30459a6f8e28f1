// The drill-down drawer: one memory under the current settings (and the baseline's):
// memdomain/cache's explain() for it and the selected query (each arm's rank, score and
// contribution, seed, fused rank, MMR place, duplicate, the step that lost it, in words), its eight
// retention signals times their weights, its community and PageRank, and the merge
// pairs it is in with the tokens that decided a veto.
import { $, put, el, fmt, tidy } from "./dom.js";
import { lostWords } from "../lib/lost.js";
import { ARMS, applies } from "../lib/settings.js";

let current = null;

export function setup() {
  $("#drill-close").onclick = close;
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && isOpen()) close(); });
}

export const isOpen = () => !$("#drill").hidden;

function close() {
  $("#drill").hidden = true;
  document.body.classList.remove("drilling");
  current = null;
}

export async function open(ctx, path) {
  current = path;
  $("#drill").hidden = false;
  document.body.classList.add("drilling");
  put($("#drill-body"), el("p", { class: "note", text: "computing…" }));
  await refresh(ctx);
  $("#drill-close").focus();
}

export async function refresh(ctx) {
  if (!current) return;
  const path = current;
  try {
    const m = await ctx.call("drill", { path, settings: ctx.settings(), baseline: ctx.baseline(), query: ctx.query() });
    if (path !== current) return;
    ctx.demo.results.drill = m.result;
    render(m.result, !!ctx.baseline());
  } catch (e) {
    put($("#drill-body"), el("p", { class: "error", text: e.message.split("\n")[0] }));
  }
}

const SETTINGS = [
  ["preset", (s) => s.preset], ["fusion", (s) => s.fusion], ["lexical weight", (s) => s.weights.lexical], ["vector weight", (s) => s.weights.vector],
  ["salience weight", (s) => s.weights.salience], ["lateral weight", (s) => s.weights.lateral], ["k", (s) => s.k], ["depth", (s) => s.depth],
  ["seeds", (s) => s.seeds], ["λ", (s) => s.lambda], ["window", (s) => s.window], ["duplicate", (s) => (s.duplicate === null ? "off" : s.duplicate)],
  ["limit", (s) => s.limit],
];

function render(r, comparing) {
  const m = r.memory, cur = r.current, bas = r.baseline;
  const both = (f) => (comparing ? [el("td", { class: "num bcol", text: f(bas) }), el("td", { class: "num", text: f(cur) })] : [el("td", { class: "num", text: f(cur) })]);
  const head = (...names) => el("thead", {}, el("tr", {}, ...names.map((n) => el("th", { text: n }))));
  const sides = comparing ? ["baseline", "current"] : [null];
  const col = (name) => (comparing ? sides.map((s) => `${name} (${s})`) : [name]);
  const raw = (a) => (a === "vector" ? fmt(cur.arms.vector.raw, 4) : a === "lateral" ? (cur.arms.lateral.raw === undefined ? "—" : fmt(cur.arms.lateral.raw, 5))
    : a === "salience" ? cur.arms.salience.raw : "bm25 (in SQLite)");
  const armRows = ARMS.map((a) => el("tr", { "data-arm": a }, el("th", { text: a }),
    ...both((s) => (s.arms[a].rank ? `#${s.arms[a].rank} of ${s.arms[a].listed}` : s.settings.weights[a] > 0 ? `— (${s.arms[a].listed} listed)` : "weight 0")),
    ...both((s) => (s.arms[a].score === null ? "—" : fmt(s.arms[a].score, 4))),
    el("td", { class: "num", text: raw(a) }),
    ...both((s) => fmt(s.arms[a].contribution, 5))));
  const x = (s) => s.explain;
  const stepRows = [
    ["seed of the lateral walk", (s) => (s.seeds ? (x(s).seed ? "yes" : "no") : "no seeds")],
    ["fused rank", (s) => (x(s).fused ? `${x(s).fused.rank} of ${s.candidates}` : "—")],
    ["fused score", (s) => (x(s).fused ? fmt(x(s).fused.score, 5) : "—")],
    ["MMR place", (s) => (x(s).mmr ? `${x(s).mmr} (window ${s.window})` : `— (window ${s.window})`)],
    ["duplicate of", (s) => x(s).duplicateOf ?? "—"],
    ["result", (s) => (x(s).rank ? `#${x(s).rank} of ${s.hits}` : `lost at ${x(s).lostAt}`)],
  ].map(([name, f]) => el("tr", {}, el("th", { text: name }), ...both(f)));
  const setRows = SETTINGS.map(([name, f]) => {
    const key = { "fusion": "fusion", "k": "k", "window": "window", "duplicate": "duplicate" }[name];
    const show = (s) => (f(s.settings) === undefined || (key && !applies(s.settings, key)) ? "—" : tidy(f(s.settings)));
    return el("tr", { class: comparing && show(cur) !== show(bas) ? "changed" : "" }, el("th", { text: name }), ...both(show));
  });
  const sigRows = cur.retention.error ? [] : cur.retention.signals.map((x, i) => el("tr", {}, el("th", { text: x.name }), el("td", { class: "num", text: fmt(x.value, 4) }),
    el("td", { class: "num", text: tidy(x.weight) }), el("td", { class: "num", text: fmt(x.product, 4) }),
    comparing && !bas.retention.error ? el("td", { class: "num bcol", text: `${tidy(bas.retention.signals[i].weight)} → ${fmt(bas.retention.signals[i].product, 4)}` }) : null));
  put($("#drill-body"),
    el("h3", { text: m.gist }),
    el("p", { class: "path", text: `${m.path} · ${m.type} · ${fmt(m.ageDays, 1)} days old · ${m.wordCount} words${m.hasEmbedding ? "" : " · no embedding"}` }),
    el("details", {}, el("summary", { text: "body" }), el("p", { class: "body", text: m.body })),
    el("h4", { text: `Search: "${r.query.text}"` }),
    el("p", { class: "lost", id: "drill-lost", "data-lost": String(cur.explain.lostAt) },
      el("b", { text: lostWords(cur.explain, cur.settings, cur.window) }),
      comparing ? ` (baseline: ${lostWords(bas.explain, bas.settings, bas.window)})` : "",
      r.query.relevant === null ? "" : r.query.relevant ? ` · labelled relevant (grade ${r.query.relevant})` : " · not labelled relevant"),
    el("p", { class: "note", text: "memdomain/cache's explain() for this memory: each arm's rank and contribution to the fused score, the seed, the fused rank, MMR's place and the step that lost it." }),
    el("table", { class: "grid drill-arms" }, head("arm", ...col("rank"), ...col("score [0, 1]"), "raw", ...col("contribution")), el("tbody", {}, ...armRows)),
    el("table", { class: "grid drill-steps" }, head("step", ...(comparing ? ["baseline", "current"] : ["value"])), el("tbody", {}, ...stepRows)),
    el("p", { class: "note", text: "Score [0, 1]: what fusion \"score\" adds, times the weight (bm25 / the best, (1 + cosine) / (1 + the best), PageRank / the best, salience by rank); \"—\" with reciprocal-rank fusion. Raw: vector = cosine to the query vector; salience = the signals its order reads; lateral = personalized PageRank from the seeds." }),
    el("details", { class: "drill-settings" }, el("summary", { text: comparing ? "Search settings: baseline and current" : "Search settings" }),
      el("table", { class: "grid" }, head("setting", ...(comparing ? ["baseline", "current"] : ["value"])), el("tbody", {}, ...setRows))),
    el("h4", { text: "Retention (after sleep()'s pass)" }),
    cur.retention.error ? el("p", { class: "error", text: cur.retention.error }) : el("p", {},
      el("b", { text: `${fmt(cur.retention.score, 4)} → ${cur.retention.band}` }),
      ` · confidence ${fmt(cur.retention.confidence.before, 4)}${cur.retention.confidence.after !== cur.retention.confidence.before ? ` → ${fmt(cur.retention.confidence.after, 4)} after the pass's decay` : " (no decay)"}`,
      comparing && !bas.retention.error ? ` (baseline ${fmt(bas.retention.score, 4)} → ${bas.retention.band})` : ""),
    cur.retention.error ? null : el("table", { class: "grid drill-signals" },
      head("signal", "value", "weight", "value × weight", ...(comparing ? ["baseline weight → product"] : [])), el("tbody", {}, ...sigRows)),
    el("h4", { text: "Graph (after sleep()'s pass)" }),
    cur.graph ? el("p", { text: `PageRank ${fmt(cur.graph.pagerank, 6)}; ${cur.graph.community ? `community of ${cur.graph.community.size} (labelled by its smallest member, ${cur.graph.community.label})` : "in no community (its group is below minCommunitySize)"}; ${cur.graph.bridges} cross-community edges.` +
      (comparing && bas.graph ? ` Baseline: PageRank ${fmt(bas.graph.pagerank, 6)}, ${bas.graph.community ? `community of ${bas.graph.community.size}` : "no community"}.` : "") })
      : el("p", { class: "note", text: cur.merged ? `The pass merges it into ${cur.merged.keepPath} (similarity ${fmt(cur.merged.similarity, 4)}): it leaves the graph.` : "Not in the pass's graph." }),
    el("h4", { text: `Merge candidates of the pass (${r.pairs.length})` }),
    r.pairs.length ? el("ul", { class: "pairs" }, ...r.pairs.map((p) => el("li", { "data-stage": p.stage },
      el("span", { class: `stage ${p.stage}`, text: p.stage }), ` ${fmt(p.similarity, 4)} with ${p.keepPath === m.path ? p.dropPath : p.keepPath} (${p.keepPath === m.path ? "this one kept" : "this one dropped"})`,
      ...p.tokens.map((t) => el("div", { class: "reason" }, el("b", { text: t.reason }), " ",
        ...[...t.keep, ...t.drop].map((w) => el("mark", { text: w.token }, el("sub", { text: w.in })))))))) : el("p", { class: "note", text: "No neighbour above the merge threshold." }),
  );
}

// Search: memdomain/cache's own search on the selected query (its explain(): the hits, each
// arm's list, the fused ranks, MMR's window and order), baseline and current side by side.
import { $, put, delta, el, fmt, move, moveMark, numberControl } from "./dom.js";
import { ARMS, notApplicable, switchComposition, tidy } from "../lib/settings.js";
import { lostWords } from "../lib/lost.js";
import { lambdaSlider, mmrControls } from "./mmr.js";

const NOTE = {
  lexical: "SQLite FTS5 bm25 over gist and body",
  vector: "exact cosine of the query vector, top depth (resident rows)",
  salience: "the lexical and vector pools by access count, outcome, reinforcement",
  lateral: "personalized PageRank seeded by the fused top hits (Graph handle)",
};
const PRESET_TEXT = { default: "default (measured)", memhtml: "memhtml (compatibility)" };
const FUSION_TEXT = { score: "score (weight × arm score)", rrf: "rrf (weight / (rank + k))" };

/** A choice among fixed values; `choose(value)` applies it. `off(settings)` says why it does not apply, or null. */
function selectControl(ctx, { id, path, label, options, read, choose, off, note }) {
  const sel = el("select", { id }, ...Object.entries(options).map(([v, text]) => el("option", { value: v, text })));
  const offNote = el("p", { class: "note off" });
  sel.onchange = () => choose(sel.value);
  const wrap = el("div", { class: "ctl", "data-path": path }, el("label", { for: id, text: label }), sel, offNote, note ? el("p", { class: "note", text: note }) : null);
  wrap.sync = () => {
    const why = off?.(ctx.settings()) ?? null;
    sel.disabled = why !== null;
    offNote.textContent = why ?? "";
    offNote.hidden = why === null;
    sel.value = read(ctx.settings()) ?? "";
  };
  wrap.sync();
  return wrap;
}

/** A new composition (preset or fusion): its defaults for every setting it has, as one undoable step. */
function compose(ctx, preset, fusion) {
  const s = ctx.settings();
  ctx.replace({ ...s, search: switchComposition(s.search, preset, fusion) });
}

/** The preset and fusion choices (Search and Metrics share them; `scope` keeps the ids apart). */
export function compositionControls(ctx, scope) {
  const id = (name) => `ctl-${scope ? `${scope}-` : ""}search-${name}`;
  return [
    selectControl(ctx, { id: id("preset"), path: "search.preset", label: "preset (the composition)", options: PRESET_TEXT,
      read: (s) => s.search.preset, choose: (v) => compose(ctx, v),
      note: "default: shared ranks for ties, silent arms, MMR over a window, duplicates skipped; memhtml: memhtml's reciprocal-rank composition, MMR over every candidate. Switching loads that preset's defaults (memdomain/cache's PRESETS) for every setting below; the limit stays." }),
    selectControl(ctx, { id: id("fusion"), path: "search.fusion", label: "fusion", options: FUSION_TEXT,
      read: (s) => s.search.fusion ?? "rrf", choose: (v) => compose(ctx, ctx.settings().search.preset, v),
      off: (s) => notApplicable(s.search, "fusion") }),
  ];
}

/** The k control: disabled, with the cache's reason, where search() would refuse k. */
export const kControl = (ctx, label, scope) => numberControl(ctx, "search.k", label, { step: 1, max: 200, scope,
  off: (s) => notApplicable(s.search, "k") });

export function setup(ctx) {
  const box = $("#search-controls .fields");
  put(box,
    ...compositionControls(ctx),
    ...ARMS.map((a) => numberControl(ctx, `search.weights.${a}`, `${a} weight`, { step: 0.05, note: NOTE[a] })),
    kControl(ctx, "k (rank offset: weight / (rank + k))"),
    numberControl(ctx, "search.depth", "depth (hits per arm)", { step: 1, max: 200 }),
    numberControl(ctx, "search.seeds", "seeds (fused top hits that seed the lateral walk)", { step: 1, max: 20 }),
    ...mmrControls(ctx),
    numberControl(ctx, "search.lambda", "MMR λ (1 = the fused order)", { ...lambdaSlider }),
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
    return el("li", { "data-path": row.path, "data-score": String(row.fused), "data-rank": String(row.order), "data-fused-rank": String(row.fusedRank), tabindex: 0,
      onclick: () => ctx.drill(row.path), onkeydown: (e) => { if (e.key === "Enter") ctx.drill(row.path); } },
    el("span", { class: "n", text: String(row.order) }), mark ?? el("span", { class: "move none" }), rel,
    el("div", { class: "what" }, el("div", { class: "gist", text: row.gist }),
      el("div", { class: "parts", text: `${row.path} · ${row.type} · fused #${row.fusedRank ?? "—"}${parts ? ` · ${parts}` : ""}` })),
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

/** What the cache's search did, in one paragraph (from its resolved settings). */
export function pipelineText(c) {
  const s = c.settings;
  const fusion = s.preset === "memhtml" ? `reciprocal-rank fusion (k = ${tidy(s.k)}) with fuseLateral for the graph walk (preset "memhtml")`
    : s.fusion === "score" ? "fusion by score (weight × each arm's score on [0, 1])" : `reciprocal-rank fusion (k = ${tidy(s.k)})`;
  const mmr = s.preset === "memhtml" ? `applyMmr over all ${c.windowSize} candidates on the raw fused scores at λ = ${tidy(s.lambda)}`
    : `MMR over the best ${c.windowSize} on relevance normalised by the cache (fused score / the best) at λ = ${tidy(s.lambda)}` +
      (s.duplicate === null ? ", near-duplicates kept" : `, ${c.duplicates.length} near-duplicate${c.duplicates.length === 1 ? "" : "s"} skipped (cosine > ${tidy(s.duplicate)})`);
  return `${fusion}; ${mmr}`;
}

export function render(ctx, r) {
  const s = ctx.settings(), c = r.current;
  const used = ARMS.map((a) => `${a} ${c.armSizes[a]}`).join(", ");
  const dark = ARMS.filter((a) => !(s.search.weights[a] > 0));
  $("#search-meta").textContent = `"${r.query.text}": ${c.candidates} candidates fused from ${used} hits; vector: ${r.query.vectorNote}. ` +
    `memdomain/cache: ${pipelineText(c)} (MMR tab).` + (dark.length ? ` Weight 0: ${dark.join(", ")} (not run).` : "") + " Click a result for its details.";
  if (r.metrics) r.metrics.k = s.search.limit;
  put($("#search-metrics"), metricsStrip(r.metrics));
  const rel = r.metrics?.relevant ?? null;
  const cols = [el("section", { class: "col current" }, el("h3", { text: r.baseline ? "Current" : "Results" }), list(ctx, c, r.baseline, rel, "current"))];
  if (r.baseline) cols.unshift(el("section", { class: "col baseline" }, el("h3", { text: "Baseline" }), list(ctx, r.baseline, c, rel, "baseline")));
  put($("#search-lists"), ...cols);
  $("#search-lists").classList.toggle("two", !!r.baseline);
  put($("#search-lost"), ...(rel && c.lost.length ? [
    el("h3", { text: `Labelled relevant, not returned (${c.lost.length})` }),
    el("ul", { class: "items lost" }, ...c.lost.map((p) => el("li", { "data-path": p.path, "data-lost": p.lostAt, tabindex: 0,
      onclick: () => ctx.drill(p.path), onkeydown: (e) => { if (e.key === "Enter") ctx.drill(p.path); } },
    el("span", { class: "gist", text: p.gist, title: p.path }), " — ", el("span", { class: "why", text: lostWords(p, c.settings, c.windowSize) })))),
  ] : []));
  put($("#search-arms"), ...ARMS.map((a) => el("section", { style: `--c: var(--${a})`, "data-arm": a },
    el("h4", { text: `${a}${s.search.weights[a] > 0 ? ` (${c.armSizes[a]} listed)` : " (weight 0: not run)"}` }),
    c.armTop[a].length ? el("ol", {}, ...c.armTop[a].map((h) => el("li", { title: `${h.path}${h.score === undefined ? "" : ` · score ${fmt(h.score, 4)}`}`,
      "data-rank": String(h.rank), onclick: () => ctx.drill(h.path) }, el("span", { class: "pill", text: `#${h.rank}` }), " ", h.gist)))
      : el("p", { class: "note", text: s.search.weights[a] > 0 ? "lists nothing for this query (no information: the cache leaves it out)" : "no hits" }))));
}

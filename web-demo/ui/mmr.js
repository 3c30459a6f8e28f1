// MMR: memdomain/cache's MMR step as it ran (its explain() trace): the window it reordered,
// its order, the picks with both terms of λ·relevance − (1−λ)·penalty on one scale, and λ
// with fine steps near 1. The cache normalises relevance itself (preset "default").
import { $, put, el, fmt, move, moveMark, numberControl, svg } from "./dom.js";
import { notApplicable, presets, tidy } from "../lib/settings.js";

// The slider's first half covers lambda 0..0.9, the second half 0.9..1 (ten times finer).
const toSlider = (l) => (l <= 0.9 ? (l / 0.9) * 500 : 500 + ((l - 0.9) / 0.1) * 500);
const fromSlider = (p) => (p <= 500 ? Math.round((p / 500) * 0.9 * 1000) / 1000 : Math.round((0.9 + ((p - 500) / 500) * 0.1) * 10000) / 10000);

export const lambdaSlider = { toSlider, fromSlider };

/** The MMR window and the near-duplicate threshold (with a box to turn it off: null). */
export function mmrControls(ctx, scope) {
  const id = `ctl-${scope ? `${scope}-` : ""}search-duplicate-on`;
  const on = el("input", { id, type: "checkbox" });
  on.onchange = () => ctx.set("search.duplicate", on.checked ? presets()[ctx.settings().search.preset].duplicate : null, true);
  const check = el("div", { class: "ctl check", "data-path": "search.duplicate" }, on, el("label", { for: id, text: "skip near-duplicates" }));
  check.sync = () => {
    const s = ctx.settings().search;
    on.checked = s.duplicate !== null && s.duplicate !== undefined;
    on.disabled = notApplicable(s, "duplicate") !== null;
  };
  check.sync();
  return [
    numberControl(ctx, "search.window", "window (the best candidates MMR reorders; at least limit)", { step: 1, max: 200, scope,
      off: (s) => notApplicable(s.search, "window") }),
    check,
    numberControl(ctx, "search.duplicate", "duplicate (skip a hit whose cosine to a hit above it is higher)", { step: 0.001, min: 0.8, scope,
      off: (s) => notApplicable(s.search, "duplicate") ?? (s.search.duplicate === null ? "off: no near-duplicate is skipped" : null) }),
  ];
}

export function setup(ctx) {
  const scope = "mmr";
  const lambda = numberControl(ctx, "search.lambda", "λ (1 = relevance only, 0 = diversity only)", { toSlider, fromSlider, scope,
    note: "The slider's right half spans 0.9 to 1 in steps of 0.0002; type any value in the box." });
  put($("#mmr-controls .fields"),
    lambda,
    ...mmrControls(ctx, scope),
    numberControl(ctx, "search.limit", "limit (picks)", { step: 1, max: 50, scope }),
    el("p", { class: "note", text: "Relevance is normalised by memdomain/cache itself (preset \"default\": each candidate's fused score over the best one), so λ weighs [0, 1] against cosine's [0, 1]; the page no longer rescales anything. Preset \"memhtml\" runs applyMmr over every candidate on the raw fused scores." }),
  );
}

export function runner(ctx) {
  return ctx.channel("mmr", () => ({ settings: ctx.settings(), baseline: ctx.baseline(), query: ctx.query() }), (r) => render(ctx, r));
}

/** λ·relevance and (1 − λ)·penalty as two bars on one 0..1 axis. */
function terms(rel, pen, lambda) {
  const W = 160, H = 22;
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "terms", role: "img", "aria-label": `λ·relevance ${fmt(lambda * rel, 4)}, (1−λ)·penalty ${fmt((1 - lambda) * pen, 4)}` });
  g.append(svg("rect", { x: 0, y: 2, width: Math.max(0.5, W * Math.min(1, lambda * rel)), height: 8, fill: "var(--lexical)" }));
  g.append(svg("rect", { x: 0, y: 12, width: Math.max(0, W * (1 - lambda) * pen), height: 8, fill: "var(--evict)" }));
  for (const x of [0, 0.5, 1]) g.append(svg("line", { x1: W * x, x2: W * x, y1: 0, y2: H, stroke: "#bbb", "stroke-width": 0.5 }));
  return g;
}

export function render(ctx, r) {
  const cur = r.current, s = cur.settings;
  const lambda = s.lambda, memhtml = s.preset === "memhtml";
  const relLo = cur.relevance.lo, relHi = cur.relevance.hi;
  const pens = cur.rows.filter((x) => x.mmrPlace > 1).map((x) => x.penalty);
  const penHi = pens.length ? Math.max(...pens) : 0, penLo = pens.length ? Math.min(...pens) : 0;
  const R = relHi - relLo, P = penHi - penLo;
  const balance = R + P > 0 ? P / (R + P) : null;
  put($("#mmr-explain"),
    el("p", {}, el("b", { text: "Both terms on one scale. " }),
      `Relevance ${memhtml ? "(the raw fused RRF score, preset memhtml)" : "(normalised by the cache: fused score / the best)"} spans ${fmt(relLo, 4)}–${fmt(relHi, 4)} over the ${cur.windowSize} candidates MMR reorders${memhtml ? " (every candidate)" : ` (the window: the best ${cur.windowSize} of ${cur.candidates})`}; the penalty (max cosine to what MMR placed before) spans ${fmt(penLo, 3)}–${fmt(penHi, 3)} over these picks. ` +
      (lambda >= 1 ? "At λ = 1 MMR keeps the fused order." : balance === null ? "" : `The two spreads weigh the same at λ ≈ ${fmt(balance, 4)}: below it, diversity decides almost every pick; above it, relevance does.`)),
    memhtml && R < 0.1 ? el("p", { class: "warn", text: `With memhtml's arithmetic the relevance spread (${fmt(R, 4)}) is tiny next to a cosine, so λ changes little until it is close to 1. The default preset normalises relevance first.` }) : null);
  const base = r.baseline;
  const inBase = base ? new Map(base.rows.map((x) => [x.path, x.order])) : null;
  put($("#mmr-table tbody"), ...cur.rows.map((p) => el("tr", { "data-path": p.path, onclick: () => ctx.drill(p.path) },
    el("td", { class: "num", text: String(p.order) }),
    el("td", {}, inBase ? moveMark(move(p.order, inBase.get(p.path) ?? null)) : null),
    el("td", { class: "num", text: String(p.fusedRank ?? "—") }),
    el("td", { class: "num", text: fmt(p.relevance, 4) }),
    el("td", { class: "num", text: p.mmrPlace === 1 ? "0 (first)" : fmt(p.penalty, 3), title: p.nearest ? `nearest earlier in MMR's order: ${p.nearest}` : "" }),
    el("td", { class: "termscell" }, p.relevance === null ? null : terms(p.relevance, p.penalty, lambda)),
    el("td", { class: "num", text: fmt(p.mmr, 4) }),
    el("td", { class: "gist", text: p.gist, title: p.path }))));
  put($("#mmr-window tbody"), ...cur.window.map((w) => el("tr", { "data-path": w.path, class: w.picked ? "picked" : w.duplicateOf ? "dup" : "", onclick: () => ctx.drill(w.path) },
    el("td", { class: "num", text: String(w.fusedRank) }),
    el("td", { class: "num", text: fmt(w.score, 5) }),
    el("td", { class: "num", text: fmt(w.relevance, 4) }),
    el("td", { class: "num", text: w.mmrPlace === null ? "—" : String(w.mmrPlace) }),
    el("td", { text: w.picked ? `result #${w.picked}` : w.duplicateOf ? `duplicate of ${w.duplicateOf}` : "not returned" }),
    el("td", { class: "gist", text: w.gist, title: w.path }))));
  $("#mmr-window-caption").textContent = `The window MMR reordered: the best ${cur.windowSize} of ${cur.candidates} fused candidates` +
    (cur.window.length < cur.windowSize ? ` (the first ${cur.window.length} shown)` : "") + `; MMR ordered ${cur.ordered} of them` +
    (memhtml ? "" : s.duplicate === null ? "." : `, skipping near-duplicates (cosine > ${tidy(s.duplicate)}).`);
  $("#mmr-baseline").hidden = !base;
  $("#mmr-lists").classList.toggle("two", !!base);
  $("#mmr-current-title").textContent = base ? "Current picks" : "Picks";
  if (base) {
    const inCur = new Set(cur.rows.map((x) => x.path));
    put($("#mmr-baseline-list"), ...base.rows.map((p) => el("li", { "data-path": p.path, onclick: () => ctx.drill(p.path) },
      el("span", { class: "pill", text: `#${p.order} · fused ${p.fusedRank}` }), inCur.has(p.path) ? " " : el("span", { class: "move out", text: " out " }), p.gist)));
  }
  const moved = cur.rows.filter((p) => p.fusedRank !== p.order).length;
  $("#mmr-meta").textContent = `MMR picked ${cur.rows.length} of ${cur.windowSize} candidates at λ = ${tidy(lambda)}; ${moved} picks are out of fused order.` +
    (base ? ` Baseline: λ = ${tidy(base.settings.lambda)}, picks ${base.rows.map((x) => x.fusedRank).join(", ")} of its fused order.` : "");
}

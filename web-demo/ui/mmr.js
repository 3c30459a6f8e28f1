// MMR: applyMmr's two terms on one scale, lambda with fine steps near 1, and the
// optional rescaling of relevance (the page's option, not the reference's arithmetic).
import { $, put, el, fmt, move, moveMark, numberControl, svg } from "./dom.js";

// The slider's first half covers lambda 0..0.9, the second half 0.9..1 (ten times finer).
const toSlider = (l) => (l <= 0.9 ? (l / 0.9) * 500 : 500 + ((l - 0.9) / 0.1) * 500);
const fromSlider = (p) => (p <= 500 ? Math.round((p / 500) * 0.9 * 1000) / 1000 : Math.round((0.9 + ((p - 500) / 500) * 0.1) * 10000) / 10000);

export const lambdaSlider = { toSlider, fromSlider };

export function setup(ctx) {
  const rescale = el("input", { id: "mmr-rescale", type: "checkbox" });
  rescale.onchange = () => ctx.set("search.rescale", rescale.checked, true);
  const lambda = numberControl(ctx, "search.lambda", "λ (1 = relevance only, 0 = diversity only)", { toSlider, fromSlider, scope: "mmr",
    note: "The slider's right half spans 0.9 to 1 in steps of 0.0002; type any value in the box." });
  put($("#mmr-controls .fields"), 
    lambda,
    numberControl(ctx, "search.limit", "limit (picks)", { step: 1, max: 50, scope: "mmr" }),
    el("div", { class: "ctl check" }, rescale, el("label", { for: "mmr-rescale", text: "Rescale relevance to [0, 1] before MMR" }),
      el("p", { class: "note", text: "Off (the default) is the reference's arithmetic: relevance is the fused RRF score. On, the page maps the candidates' fused scores to (s − min) / (max − min), so λ weighs two quantities on the same 0–1 scale. memdomain/cache does not do this; the exported snippet applies it itself when it is on." })),
  );
  setup.sync = () => { rescale.checked = ctx.settings().search.rescale; };
  setup.sync();
}
export const sync = () => setup.sync?.();

export function runner(ctx) {
  return ctx.channel("mmr", () => ({ settings: ctx.settings(), baseline: ctx.baseline(), query: ctx.query() }), (r) => render(ctx, r));
}

/** λ·relevance and (1 − λ)·penalty as two bars on one 0..1 axis. */
function terms(rel, pen, lambda) {
  const W = 160, H = 22;
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "terms", role: "img", "aria-label": `λ·relevance ${fmt(lambda * rel, 4)}, (1−λ)·penalty ${fmt((1 - lambda) * pen, 4)}` });
  g.append(svg("rect", { x: 0, y: 2, width: Math.max(0.5, W * lambda * rel), height: 8, fill: "var(--lexical)" }));
  g.append(svg("rect", { x: 0, y: 12, width: Math.max(0, W * (1 - lambda) * pen), height: 8, fill: "var(--evict)" }));
  for (const x of [0, 0.5, 1]) g.append(svg("line", { x1: W * x, x2: W * x, y1: 0, y2: H, stroke: "#bbb", "stroke-width": 0.5 }));
  return g;
}

export function render(ctx, r) {
  const s = ctx.settings().search, cur = r.current;
  const lambda = s.lambda;
  const relLo = s.rescale ? 0 : cur.scale.lo, relHi = s.rescale ? 1 : cur.scale.hi;
  const pens = cur.rows.slice(1).map((x) => x.penalty);
  const penHi = pens.length ? Math.max(...pens) : 0, penLo = pens.length ? Math.min(...pens) : 0;
  const R = relHi - relLo, P = penHi - penLo;
  const balance = R + P > 0 ? P / (R + P) : null;
  put($("#mmr-explain"), 
    el("p", {}, el("b", { text: "Both terms on one scale. " }),
      `Relevance ${s.rescale ? "(rescaled)" : "(the fused RRF score)"} spans ${fmt(relLo, 4)}–${fmt(relHi, 4)} over the ${cur.ranked} candidates; the penalty (max cosine to the earlier picks) spans ${fmt(penLo, 3)}–${fmt(penHi, 3)} over these picks. ` +
      (balance === null ? "" : `The two spreads weigh the same at λ ≈ ${fmt(balance, 4)}: below it, diversity decides almost every pick; above it, relevance does.`)),
    !s.rescale && R < 0.1 ? el("p", { class: "warn", text: `With the reference's arithmetic the relevance spread (${fmt(R, 4)}) is tiny next to a cosine, so λ changes little until it is close to 1. Tick "Rescale relevance" to compare on one scale, or try λ above 0.95.` }) : null);
  const base = r.baseline;
  const inBase = base ? new Map(base.rows.map((x) => [x.path, x.order])) : null;
  put($("#mmr-table tbody"), ...cur.rows.map((p) => el("tr", { "data-path": p.path, onclick: () => ctx.drill(p.path) },
    el("td", { class: "num", text: String(p.order) }),
    el("td", {}, inBase ? moveMark(move(p.order, inBase.get(p.path) ?? null)) : null),
    el("td", { class: "num", text: String(p.fusedRank) }),
    el("td", { class: "num", text: fmt(p.relevance, 4) }),
    el("td", { class: "num", text: p.order === 1 ? "0 (first)" : fmt(p.penalty, 3), title: p.nearest ? `nearest earlier pick: ${p.nearest}` : "" }),
    el("td", { class: "termscell" }, terms(p.relevance, p.penalty, lambda)),
    el("td", { class: "num", text: fmt(p.mmr, 4) }),
    el("td", { class: "gist", text: p.gist, title: p.path }))));
  $("#mmr-baseline").hidden = !base;
  $("#mmr-lists").classList.toggle("two", !!base);
  $("#mmr-current-title").textContent = base ? "Current picks" : "Picks";
  if (base) {
    const inCur = new Set(cur.rows.map((x) => x.path));
    put($("#mmr-baseline-list"), ...base.rows.map((p) => el("li", { "data-path": p.path, onclick: () => ctx.drill(p.path) },
      el("span", { class: "pill", text: `#${p.order} · fused ${p.fusedRank}` }), inCur.has(p.path) ? " " : el("span", { class: "move out", text: " out " }), p.gist)));
  }
  const moved = cur.rows.filter((p) => p.fusedRank !== p.order).length;
  $("#mmr-meta").textContent = `applyMmr picked ${cur.rows.length} of ${cur.ranked} fused candidates at λ = ${lambda}; ${moved} picks are out of fused order.` +
    (base ? ` Baseline: λ = ${ctx.baseline().search.lambda}${ctx.baseline().search.rescale ? " (rescaled)" : ""}, picks ${base.rows.map((x) => x.fusedRank).join(", ")} of its fused order.` : "");
}

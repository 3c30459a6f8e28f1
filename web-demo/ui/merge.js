// Merges: the pairs memdomain/cache's sleep() hands to mergeOutcomes (its neighbour pairs above
// the merge threshold, older memory kept), with their stages as the pass gives them, each vetoed
// pair's reasons and the tokens that decided them. The options are sleep()'s (the Sleep tab).
import { $, put, el, fmt, tidy } from "./dom.js";

let stage = "";
const STAGES = ["committed", "vetoed", "threshold", "role-guard", "cap", "self"];

export function setup(ctx) {
  const sel = el("select", { id: "merge-stage", onchange: (e) => { stage = e.target.value; if (ctx.demo.results.merge) render(ctx, ctx.demo.results.merge); } },
    el("option", { value: "", text: "all stages" }), ...STAGES.map((s) => el("option", { value: s, text: s })));
  put($("#merge-controls .fields"), el("div", { class: "ctl" }, el("label", { for: "merge-stage", text: "Show" }), sel));
}

export function runner(ctx) {
  return ctx.channel("merge", () => ({ settings: ctx.settings(), baseline: ctx.baseline() }), (r) => render(ctx, r));
}

const mark = (w) => el("mark", { title: `in the ${w.in}`, "data-in": w.in, text: w.token }, el("sub", { text: w.in }));

function reasonCell(x) {
  if (!x.reasons.length) return el("td", { class: "reasons empty", text: "—" });
  return el("td", { class: "reasons" }, ...x.tokens.map((t) => el("div", { class: "reason", "data-reason": t.reason },
    el("b", { text: t.reason }), " ",
    t.keep.length || t.drop.length
      ? [t.keep.length ? el("span", {}, "keep ", ...t.keep.map(mark)) : null,
        t.keep.length && t.drop.length ? " vs " : null,
        t.drop.length ? el("span", {}, "drop ", ...t.drop.map(mark)) : null]
      : el("span", { class: "note", text: "(no single token isolates it)" }))));
}

export function render(ctx, r) {
  const rows = r.rows.filter((x) => !stage || x.stage === stage).slice(0, 200);
  const fmtStages = (s) => STAGES.filter((k) => s[k]).map((k) => `${k} ${s[k]}`).join(", ") || "none";
  const o = r.options;
  put($("#merge-meta"),
    el("span", { id: "merge-summary", text: `sleep() at ${new Date(o.now).toISOString().slice(0, 10)}: ${r.total} pairs above merge.threshold ${tidy(o.merge.threshold)} ` +
      `among its neighbour pairs (floor ${tidy(o.floor)}, perSourceK ${o.perSourceK}; ${r.withVectors} memories with embeddings). ` +
      (r.ran ? `The pass: ${fmtStages(r.current)}.` : `Merges ran already in cycle ${r.cycle}: a pass at this date merges nothing; these are the next cycle's candidates.`) }),
    r.baseline ? el("span", { text: ` Baseline: ${r.baselineRan ? fmtStages(r.baseline) : "merges ran already this cycle"}.` }) : "",
    r.agrees ? "" : el("b", { class: "error", text: " These stages differ from the pass's own counts." }),
    ` Showing ${rows.length}${r.total > r.rows.length ? ` of the first ${r.rows.length}` : ""}. Negation and variant read gist and body; numeric reads the gist only; a marked word is the one that decided the veto.`);
  put($("#merge-table tbody"), ...rows.map((x) => el("tr", { "data-stage": x.stage, class: x.stage === "vetoed" ? "vetoed" : "" },
    el("td", { class: "num", text: String(x.i) }), el("td", { class: "num", text: fmt(x.similarity, 4) }),
    el("td", {}, el("span", { class: `stage ${x.stage}`, text: x.stage === "vetoed" ? "✕ vetoed" : x.stage }),
      x.baselineStage && x.baselineStage !== x.stage ? el("div", { class: "was", text: `baseline: ${x.baselineStage}` }) : null),
    reasonCell(x),
    el("td", { class: x.frame.conflict ? "conflict" : "empty", title: `keep: ${x.frame.keep ?? "null"}\ndrop: ${x.frame.drop ?? "null"}`,
      text: x.frame.conflict ? `conflict: "${x.frame.keep}"` : "—" }),
    el("td", { class: "gist wrap", onclick: () => ctx.drill(x.keepPath), title: x.keepPath, text: x.keepGist }),
    el("td", { class: "gist wrap", onclick: () => ctx.drill(x.dropPath), title: x.dropPath, text: x.dropGist }))));
}

// Sleep: memdomain/cache's sleep() at the dataset's "as of" date, previewed on a copy of the
// database in the worker (what a pass would change: decay, similarity edges, merges, bands,
// evictions, communities), its options (exactly sleep()'s), and "apply", which runs the same
// pass on the dataset (confirmed first, undoable).
import { $, el, fmt, numberControl, put, tidy } from "./dom.js";

// [key, label, the number, what it is]: the pass's report, one row each
const ROWS = [
  ["decayed", "confidence decays", (r) => r.decayed, (r) => `of ${r.memories} memories (whole cycles since each one's watermark)`],
  ["similar", "similar edges", (r) => r.edges.similar,
    (r) => `neighbour pairs at cosine ≥ floor ${tidy(r.options.floor)}, at most ${r.options.perSourceK} per memory`],
  ["nearDuplicate", "near-duplicate edges", (r) => r.edges.nearDuplicate, () => "neighbour pairs above the near-duplicate threshold"],
  ["links", "links", (r) => r.edges.links,
    () => "the data's own edges (link()), as the pass counts them (the graph drops those of merged memories)"],
  ["merged", "merged", (r) => r.merges.merged, (r) => (r.merges.ran ? "pairs committed by mergeOutcomes: the newer memory is superseded"
    : `merges ran already in cycle ${r.merges.cycle}: none this pass`)],
  ["keep", "keep", (r) => r.bands.keep, () => "retention band"],
  ["compress", "compress", (r) => r.bands.compress, () => "retention band"],
  ["evict", "evict", (r) => r.bands.evict, () => "retention band"],
  ["evicted", "deleted", (r) => r.evicted ?? 0, (r) => (!r.options.evict ? "evict is off: nothing is deleted"
    : r.evicted ? "the evict band, archived (evict: true): restore() brings a memory back" : "nothing: eviction ran already this cycle, the band is empty, or its memories are too new or reprieved")],
  ["communities", "communities", (r) => r.communities.count,
    (r) => `largest ${r.communities.largest}, ${r.communities.members} members (labelPropagation over links + similarity edges)`],
];

function sleepControls(ctx) {
  const evict = el("input", { type: "checkbox", id: "ctl-sleep-evict", onchange: (e) => ctx.set("sleep.evict", e.target.checked, true) });
  const evictCtl = el("div", { class: "ctl", "data-path": "sleep.evict" },
    el("label", { for: "ctl-sleep-evict", text: "evict (delete the evict band)" }), evict,
    el("p", { class: "note", text: "sleep({ evict: true }) archives the memories of the evict band that are old enough in the cache (policy.minAgeDays) and that the reprieve gate does not keep, once per cycle: out of every arm, restorable." }));
  evictCtl.sync = () => { evict.checked = ctx.settings().sleep.evict; };
  evictCtl.sync();
  return [
    numberControl(ctx, "sleep.floor", "floor (cosine for a neighbour pair: a similarity edge)", { step: 0.005 }),
    numberControl(ctx, "sleep.perSourceK", "perSourceK (neighbours per memory)", { step: 1 }),
    numberControl(ctx, "sleep.merge.threshold", "merge.threshold (near-duplicate: similarity > t)", { step: 0.005 }),
    numberControl(ctx, "sleep.merge.maxPairs", "merge.maxPairs (merges per cycle)", { step: 1 }),
    numberControl(ctx, "sleep.confidence.alpha", "confidence.alpha (decay per cycle)", { step: 0.01 }),
    numberControl(ctx, "sleep.confidence.floor", "confidence.floor (decay stops here)", { step: 0.01 }),
    numberControl(ctx, "sleep.cycleMs", "cycleMs (one decay and merge cycle, ms)", { step: 3_600_000 }),
    evictCtl,
  ];
}

export function setup(ctx) {
  put($("#sleep-controls .fields"), ...sleepControls(ctx));
  const now = $("#sleep-now");
  now.onchange = async () => {
    const t = Date.parse(`${now.value}Z`);
    if (!Number.isFinite(t)) return;
    const m = await ctx.call("setNow", { now: t });
    ctx.onData(m.result.summary, { fresh: false });
  };
  $("#sleep-apply").onclick = () => {
    const r = ctx.demo.results.sleep?.current;
    if (!r) return;
    put($("#sleep-confirm-text"), `sleep() on the dataset at ${iso(r.options.now)}: ${r.decayed} confidences decay, `,
      `${r.edges.similar + r.edges.nearDuplicate} similarity edges are stored, `,
      `${r.merges.merged} memories are merged away (superseded)`, r.options.evict ? `, ${r.evicted ?? 0} are deleted` : "",
      ". The search then runs on the result. You can undo it.");
    $("#sleep-confirm").hidden = false;
    $("#sleep-apply-confirm").focus();
  };
  $("#sleep-apply-cancel").onclick = () => { $("#sleep-confirm").hidden = true; };
  $("#sleep-apply-confirm").onclick = async () => {
    $("#sleep-confirm").hidden = true;
    ctx.status("sleep() on the dataset", 0.2, "busy");
    try {
      const m = await ctx.call("applySleep", { sleep: ctx.settings().sleep, policy: ctx.settings().retention.policy });
      const r = m.result.report;
      ctx.demo.results.applied = r;
      $("#sleep-applied").textContent = `Applied: sleep() merged ${r.merges.merged.length}, decayed ${r.confidence.decayed}, ` +
        `wrote ${r.written.memories} memories and ${r.written.edges} edges${r.evicted ? `, deleted ${r.evicted}` : ""} ` +
        `(${r.timings.total.toFixed(0)} ms). The preview above is the next pass at the same date.`;
      ctx.onData(m.result.summary, { fresh: false });
    } catch (e) {
      ctx.status(`sleep: ${e.message.split("\n")[0]}`, 0, "error");
    }
  };
  $("#sleep-undo").onclick = async () => {
    const m = await ctx.call("undoSleep");
    ctx.demo.results.applied = null;
    $("#sleep-applied").textContent = "The pass was undone: the dataset is what it was before it.";
    ctx.onData(m.result.summary, { fresh: false });
  };
}

const iso = (t) => `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;

export function onData(ctx) {
  sync(ctx);
}
export function sync(ctx) {
  if (!ctx.summary) return;
  $("#sleep-now").value = new Date(ctx.summary.now).toISOString().slice(0, 19);
  $("#sleep-undo").hidden = !ctx.summary.canUndoSleep;
}

export function runner(ctx) {
  return ctx.channel("sleep", () => ({ settings: ctx.settings(), baseline: ctx.baseline() }), (r) => render(ctx, r));
}

function render(ctx, r) {
  const cur = r.current, bas = r.baseline;
  const o = cur.options;
  const call = `sleep({ now: ${o.now} /* ${iso(o.now)} */, floor: ${tidy(o.floor)}, perSourceK: ${o.perSourceK}, ` +
    `cycleMs: ${o.cycleMs}, evict: ${o.evict}, confidence: { alpha: ${tidy(o.confidence.alpha)}, floor: ${tidy(o.confidence.floor)} }, ` +
    `merge: { threshold: ${tidy(o.merge.threshold)}, maxPairs: ${o.merge.maxPairs} } })`;
  put($("#sleep-meta"), "What memdomain/cache's ", el("code", { id: "sleep-call", text: call }),
    " would change, run on a copy of the database in the worker (the dataset is untouched until you apply it): ",
    `${cur.memories} memories now, ${cur.survivors} after its merges${o.evict ? `, ${cur.survivors - (cur.evicted ?? 0)} after it deletes ` +
      "the evict band (Communities, Retention and Merges show the pass's decision, before the deletion)" : ""}.`);
  $("#sleep-disagree").hidden = cur.agrees;
  $("#sleep-disagree").textContent = cur.agrees ? ""
    : "The merge candidates this page lists do not give the pass's own merge counts; the counts below are the pass's.";
  put($("#sleep-report"),
    el("thead", {}, el("tr", {}, el("th", { text: "the pass" }), bas ? el("th", { class: "num", text: "baseline" }) : null,
      el("th", { class: "num", text: "current" }), el("th", { text: "" }))),
    el("tbody", {}, ...ROWS.map(([key, label, f, note]) => el("tr", { "data-key": key },
      el("th", { text: label }), bas ? el("td", { class: "num bcol", text: String(f(bas)) }) : null,
      el("td", { class: `num cur${bas && f(bas) !== f(cur) ? " changed" : ""}`, text: String(f(cur)) }),
      el("td", { class: "note", text: note(cur) })))));
  put($("#sleep-decayed"), ...r.decayedSample.map((x) => el("li", { "data-path": x.path, onclick: () => ctx.drill(x.path) },
    el("span", { class: "pill", text: `${fmt(x.before, 3)} → ${fmt(x.after, 3)}` }), ` ${x.gist}`)));
  put($("#sleep-merged"), ...(cur.merges.pairs.length ? cur.merges.pairs.map((p) => el("li", { "data-keep": p.keepPath, "data-drop": p.dropPath },
    el("span", { class: "pill", text: fmt(p.similarity, 4) }), " ", el("b", { text: "keeps " }), p.keepGist, el("br"),
    el("b", { text: "supersedes " }), p.dropGist))
    : [el("li", { class: "note", text: cur.merges.ran ? "No pair is merged." : "Merges ran already in this cycle." })]));
  $("#sleep-apply").disabled = false;
  $("#sleep-undo").hidden = !r.canUndo;
}

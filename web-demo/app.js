// The workbench page: state, history, the URL, the worker channel, tabs, the query bar,
// the drill-down drawer and export/import of settings. All computation happens in
// worker.js (the memdomain wasm module); the views in ui/ only draw its answers.
import { $, $$, download, el, put, tabKeys } from "./ui/dom.js";
import { configure, fromHash, get as getPath, set as setPath, tidy, toHash } from "./lib/settings.js";
import { snippet } from "./lib/snippet.js";
import * as searchView from "./ui/search.js";
import * as mmrView from "./ui/mmr.js";
import * as metricsView from "./ui/metrics.js";
import * as sleepView from "./ui/sleep.js";
import * as graphView from "./ui/graph.js";
import * as retentionView from "./ui/retention.js";
import * as mergeView from "./ui/merge.js";
import * as dataView from "./ui/data.js";
import * as drillView from "./ui/drill.js";

const VIEWS = { search: searchView, mmr: mmrView, metrics: metricsView, sleep: sleepView, graph: graphView, retention: retentionView, merge: mergeView, data: dataView };
const TABS = ["search", "mmr", "metrics", "sleep", "graph", "retention", "merge", "data", "about"];
const clone = (x) => JSON.parse(JSON.stringify(x));

// The view and the query come from the URL now; the settings once the worker has handed over
// memdomain/cache's PRESETS (the search defaults), in main().
const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
const urlQuery = hash.get("q");
const state = {
  settings: null,
  baseline: null,
  view: TABS.includes(hash.get("view")) ? hash.get("view") : "search",
  query: urlQuery ? (urlQuery.startsWith("text:") ? { text: urlQuery.slice(5) } : { id: urlQuery }) : null,
  past: [], future: [],
  committed: null,
};
const demo = (window.demo = { state, results: {}, busy: {}, timings: {}, ready: false, errors: [], problems: [] });

// ------------------------------------------------------------------ worker

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
let nextId = 1;
const waiting = new Map();
const statusText = $("#status-text"), statusBar = $("#status-progress"), statusEl = $("#status");

function setStatus(text, fraction, cls = "") {
  statusText.textContent = text;
  statusBar.value = fraction ?? 0;
  statusBar.hidden = !(fraction > 0 && fraction < 1);
  statusEl.className = `status ${cls}`;
}

worker.onmessage = (ev) => {
  const m = ev.data;
  const w = waiting.get(m.id);
  if (m.type === "progress") {
    w?.onProgress?.(m);
    return setStatus(m.text, m.fraction, m.fraction < 1 ? "busy" : "");
  }
  if (!w) return;
  waiting.delete(m.id);
  if (m.type === "error") w.reject(new Error(m.message));
  else w.resolve(m);
};
worker.onerror = (e) => {
  setStatus(`worker failed: ${e.message}`, 0, "error");
  demo.errors.push(String(e.message));
};

/** Ask the worker; `onProgress` sees the request's progress messages ({ text, fraction, detail }). */
function call(op, params = {}, onProgress = null) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject, onProgress });
    worker.postMessage({ id, op, params });
  });
}

/** One request per op at a time; while one is in flight only the latest is kept (a dragged slider never queues). */
function channel(op, build, render) {
  let busy = false, pending = false;
  demo.timings[op] = [];
  const mark = () => { demo.busy[op] = busy || pending; };
  const run = async () => {
    if (busy) { pending = true; mark(); return; }
    busy = true;
    mark();
    const t0 = performance.now();
    try {
      const m = await call(op, build());
      demo.results[op] = m.result;
      render(m.result);
      const dt = performance.now() - t0;
      demo.timings[op].push(dt);
      setStatus(`${op} updated in ${dt.toFixed(0)} ms`, 1);
    } catch (e) {
      setStatus(`${op}: ${e.message.split("\n")[0]}`, 0, "error");
      demo.errors.push(`${op}: ${e.message}`);
    } finally {
      busy = false;
      if (pending) { pending = false; run(); }
      mark();
    }
  };
  return run;
}

// ------------------------------------------------------------------ settings, history, URL

function writeUrl() {
  if (state.settings === null) {
    // before the worker handed the settings over (a tab clicked while the page loads): only the view moves,
    // the URL's own settings stay for main() to read
    const p = new URLSearchParams(location.hash.replace(/^#/, ""));
    p.set("view", state.view);
    history.replaceState(null, "", `#${p}`);
    return;
  }
  const q = state.query?.id ?? (state.query?.text !== undefined ? `text:${state.query.text}` : null);
  history.replaceState(null, "", toHash({ view: state.view, query: q, settings: state.settings, baseline: state.baseline }));
}

/** Apply a valid value; `commit` (the move is finished) records it for undo and in the URL. */
function setSetting(path, value, commit) {
  const same = getPath(state.settings, path) === value; // a finished drag commits the value already shown
  setPath(state.settings, path, value);
  // the same setting may have a control in another view (limit): show it the new value
  for (const c of $$(`.ctl[data-path="${path}"]`)) if (!c.contains(document.activeElement)) c.sync?.();
  if (commit) commitSettings();
  if (!same) refresh();
}

function commitSettings() {
  const now = JSON.stringify(state.settings);
  if (now !== state.committed) {
    state.past.push(state.committed);
    if (state.past.length > 200) state.past.shift();
    state.future = [];
    state.committed = now;
  }
  writeUrl();
  syncHistoryButtons();
}

function replaceSettings(next, { record = true } = {}) {
  state.settings = next;
  if (record) commitSettings();
  else { state.committed = JSON.stringify(next); writeUrl(); }
  syncControls();
  refresh();
}

/** Undo (from past to future) or redo (from future to past): the settings one step away. */
function step(from, to) {
  if (!from.length) return;
  to.push(state.committed);
  state.committed = from.pop();
  state.settings = JSON.parse(state.committed);
  writeUrl();
  syncHistoryButtons();
  syncControls();
  refresh();
}
const undo = () => step(state.past, state.future);
const redo = () => step(state.future, state.past);
function syncHistoryButtons() {
  $("#undo").disabled = !state.past.length;
  $("#redo").disabled = !state.future.length;
  $("#undo").title = `Undo (${state.past.length})`;
  $("#redo").title = `Redo (${state.future.length})`;
}

function pin() {
  if (!demo.ready) return;
  state.baseline = clone(state.settings);
  showBaseline();
  writeUrl();
  refresh();
}
function unpin() {
  state.baseline = null;
  showBaseline();
  writeUrl();
  refresh();
}
function showBaseline() {
  $("#pin").textContent = state.baseline ? "Re-pin baseline" : "Pin baseline";
  $("#unpin").hidden = !state.baseline;
  document.body.classList.toggle("comparing", !!state.baseline);
  $("#baseline-note").textContent = state.baseline ? "Comparing with the pinned baseline" : "";
}

// ------------------------------------------------------------------ views

const ctx = {
  state, demo, call, channel,
  settings: () => state.settings,
  baseline: () => state.baseline,
  query: () => state.query,
  set: setSetting,
  replace: replaceSettings,
  commit: commitSettings,
  drill: (path) => drillView.open(ctx, path),
  design: null, summary: null,
  refresh: () => refresh(),
  status: setStatus,
  onData: null,
};

// What a collapsed control panel shows: the values in use.
function controlSummaries() {
  const s = state.settings, q = s.search, w = q.weights, t = tidy;
  const composition = q.preset === "memhtml" ? "preset memhtml" : `fusion ${q.fusion}`;
  const search = `${composition} · lexical ${t(w.lexical)} · vector ${t(w.vector)} · salience ${t(w.salience)} · lateral ${t(w.lateral)}` +
    `${q.k === undefined ? "" : ` · k ${t(q.k)}`} · depth ${q.depth} · seeds ${q.seeds} · limit ${q.limit}`;
  const mmr = `λ ${t(q.lambda)} · limit ${q.limit}` + (q.preset === "memhtml" ? " · every candidate"
    : ` · window ${q.window} · duplicate ${q.duplicate === null ? "off" : t(q.duplicate)}`);
  const p = s.retention.policy;
  const text = {
    search,
    mmr,
    metrics: `${search} · ${mmr}`,
    graph: `damping ${t(s.graph.damping)} · maxIterations ${s.graph.maxIterations} · minCommunitySize ${s.graph.minCommunitySize}`,
    retention: Object.keys(p).length ? `tuned: ${Object.keys(p).join(", ")}` : "the design's policy",
    sleep: `floor ${t(s.sleep.floor)} · perSourceK ${s.sleep.perSourceK} · threshold ${t(s.sleep.merge.threshold)} · maxPairs ${s.sleep.merge.maxPairs}` +
      ` · alpha ${t(s.sleep.confidence.alpha)} · confidence floor ${t(s.sleep.confidence.floor)} · cycleMs ${s.sleep.cycleMs}${s.sleep.evict ? " · evict" : ""}`,
  };
  for (const [v, x] of Object.entries(text)) {
    const el2 = $(`#view-${v} .controls > summary .vals`);
    if (el2) el2.textContent = x;
  }
}

const runners = {};
function refresh() {
  const v = VIEWS[state.view];
  if (!demo.ready) return;
  controlSummaries();
  if (!v) return;
  runners[state.view]();
  if (drillView.isOpen()) drillView.refresh(ctx);
}

function syncControls() {
  for (const c of $$(".ctl")) c.sync?.();
  for (const v of Object.values(VIEWS)) v.sync?.(ctx);
}

function show(view) {
  if (!TABS.includes(view)) view = "search";
  state.view = view;
  for (const t of TABS) {
    $(`#view-${t}`).hidden = t !== view;
    const tab = $(`#tab-${t}`);
    tab.setAttribute("aria-selected", String(t === view));
    tab.tabIndex = t === view ? 0 : -1;
  }
  $(`#tab-${view}`).scrollIntoView({ block: "nearest", inline: "nearest" });
  document.body.dataset.view = view;
  writeUrl();
  refresh();
}

// ------------------------------------------------------------------ query bar

/** The query bar for the dataset; `fresh`: a new dataset, whose first query is selected (nothing of the last one stays). */
function setupQuery(fresh = false) {
  const sel = $("#query-select"), text = $("#query-text");
  const qs = ctx.summary.queries;
  sel.replaceChildren(...qs.map((q) => el("option", { value: q.id, text: `${q.text}${q.relevant ? ` (${q.relevant} relevant)` : ""}` })),
    el("option", { value: "", text: "(typed text)" }));
  if (fresh || !state.query || (state.query.id && !qs.some((q) => q.id === state.query.id))) state.query = qs.length ? { id: qs[0].id } : { text: "" };
  // the dataset's query the text was edited from: typing its text back (Ctrl+Z in the box) selects it again, vector and labels
  let origin = state.query.id ?? null;
  const sync = () => {
    sel.value = state.query.id ?? "";
    text.value = state.query.id ? qs.find((q) => q.id === state.query.id)?.text ?? "" : state.query.text;
  };
  sync();
  sel.onchange = () => {
    state.query = sel.value ? { id: sel.value } : { text: text.value };
    origin = state.query.id ?? null;
    sync();
    writeUrl();
    refresh();
  };
  let timer = null;
  text.oninput = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const from = origin && qs.find((q) => q.id === origin);
      state.query = from && text.value === from.text ? { id: origin } : { text: text.value };
      sel.value = state.query.id ?? ""; // a typed query is no longer the dataset's
      writeUrl();
      refresh();
    }, 150);
  };
  ctx.syncQuery = sync;
}

// ------------------------------------------------------------------ export / import of settings

function exported() {
  return {
    memdomainWorkbench: 1,
    dataset: { name: ctx.summary.name, memories: ctx.summary.memories, now: new Date(ctx.summary.now).toISOString() },
    settings: clone(state.settings),
    search: clone(state.settings.search),
    sleep: { now: ctx.summary.now, ...clone(state.settings.sleep) },
    retentionPolicy: state.settings.retention.policy,
    notes: {
      search: "memdomain/cache search() options as they are (preset, fusion, weights, k, depth, lambda, seeds, window, duplicate, limit; what the composition does not take is absent)",
      sleep: "memdomain/cache sleep() options as they are, now = the dataset's \"as of\" date",
      retentionPolicy: "sleep({ policy }): what the pass scores and bands with (and scoreRetention's second argument)",
      graph: "PageRank (damping, maxIterations) and labelPropagation (minCommunitySize) options (sleep() uses the defaults)",
    },
  };
}

function setupExport() {
  const dlg = $("#export-dialog");
  const json = $("#export-json"), code = $("#export-snippet");
  $("#export-btn").onclick = () => {
    json.value = JSON.stringify(exported(), null, 2);
    code.value = snippet(state.settings, ctx.summary);
    $("#import-msg").textContent = "";
    dlg.showModal();
    for (const ta of [json, code]) { ta.scrollTop = 0; ta.setSelectionRange(0, 0); }
  };
  $("#export-close").onclick = () => dlg.close();
  $("#export-download").onclick = () => download("memdomain-settings.json", json.value, "application/json");
  $("#export-download-snippet").onclick = () => download("tuned.mjs", code.value, "text/javascript");
  $("#export-copy").onclick = async () => {
    try { await navigator.clipboard.writeText(json.value); $("#export-copy").textContent = "Copied"; } catch { json.select(); }
  };
  const importSettings = async (text) => {
    let parsed;
    try { parsed = JSON.parse(text); } catch (e) { $("#import-msg").textContent = `Not JSON: ${e.message}`; return false; }
    const n = (await call("normalize", { settings: parsed !== null && typeof parsed === "object" && "settings" in parsed ? parsed.settings : parsed })).result;
    replaceSettings(n.settings);
    $("#import-msg").textContent = n.problems.length
      ? `Imported, but these were refused (the defaults stand in for them): ${n.problems.join("; ")}`
      : "Imported: the settings are in use (undo restores the previous ones).";
    return true;
  };
  $("#import-settings-file").onchange = async (ev) => {
    const f = ev.target.files[0];
    if (f) importSettings(await f.text());
    ev.target.value = "";
  };
  $("#import-settings-apply").onclick = () => importSettings($("#import-settings-text").value);
  // a click on the backdrop (outside the dialog's box) closes it
  dlg.addEventListener("click", (e) => {
    const r = dlg.getBoundingClientRect();
    if (e.target === dlg && (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom)) dlg.close();
  });
  ctx.importSettings = importSettings;
}

// ------------------------------------------------------------------ main

function about(design) {
  const p = (t) => el("p", { text: t });
  const s = ctx.summary;
  put($("#about"), 
    el("h2", { text: "What this page is" }),
    p("A workbench for tuning memdomain's retrieval and sleep settings on your own memories: load them (Data), pick or type a query, change weights, pin a baseline and compare. Every score, rank, similarity, MMR pick, PageRank, community, bridge count, retention score, band and merge stage is computed by the memdomain WebAssembly module in a Web Worker; the page computes only the ranking metrics (nDCG, recall, MRR) against your labels."),
    el("h3", { text: "The dataset" }),
    p(`${s.name}: ${s.memories} memories (${s.withEmbedding} with ${s.dim ?? "no"}-dimensional embeddings), ${s.edges} edges, ${s.queries.length} queries (${s.labelled} with relevance labels). Stored by: ${s.backend}.`),
    s.note ? p(`How it was made: ${s.note}`) : null,
    s.source === "example" ? p("The synthetic example's embeddings are not from a model, and its relevance labels are the memories generated for each query's topic and sub-topic: good for seeing how the settings behave, not for choosing them. Load your own data in the Data tab.") : null,
    el("h3", { text: "Definitions" }),
    p("Search is memdomain/cache's own search, read through its explain(): the page draws the hits, each arm's ranked list, the fused ranks, the window MMR reordered and its order exactly as the cache computed them, and computes no ranking itself. Four arms (lexical: FTS5 bm25; vector: exact cosine; salience: access, outcome, reinforcement; lateral: personalized PageRank seeded by the fused top hits), each up to depth deep."),
    p(`The default composition (preset "default", chosen by measurement): tied items share a rank, an arm that carries no information lists nothing, the lateral arm keeps its seeds; fusion "score" adds weight × each arm's score on [0, 1] (fusion "rrf" adds weight / (rank + k) instead); MMR reorders a window of the best candidates on relevance normalised by the cache (fused score / the best), so λ weighs [0, 1] against cosine's [0, 1]; near-duplicates above the duplicate threshold are skipped. Preset "memhtml" is memhtml's composition: reciprocal-rank fusion with k (${design.RRF_K} by default), fuseLateral for the graph walk, applyMmr over every candidate on the raw fused scores (λ ${design.MMR_LAMBDA}).`),
    p("Fit to my labels (Metrics) runs the cache's tune() on the labelled queries in the worker: cross-validated coordinate ascent on nDCG, fitted settings against the pinned ones, both scored on held-out queries."),
    p("Sleep, Communities, Retention and Merges show memdomain/cache's own sleep() pass at the dataset's \"as of\" date, run on a copy of the database in the worker: confidence decay, the similarity edges it derives (neighbour pairs above its floor), near-duplicate merges (mergeOutcomes, older memory kept), PageRank, communities and bridges over the links and those edges, and retention bands. \"Apply\" runs the same pass on the dataset (undoable). The retention policy and the graph settings are not sleep() options: with the design's values the views show sleep's own numbers; with others, what scoreRetentionMany and the Graph give on the pass's inputs."),
    el("h3", { text: "Third-party code" }),
    p("The force layout is d3-force (ISC license, © Mike Bostock), bundled into build/demo/ with its LICENSE; nothing is fetched from a CDN."),
  );
}

function refreshDataset(fresh = false) {
  ctx.summary = demo.summary;
  $("#dataset-badge").textContent = `${ctx.summary.source === "example" ? "synthetic example" : ctx.summary.name} · ${ctx.summary.memories.toLocaleString("en")} memories`;
  $("#dataset-badge").title = ctx.summary.source === "example" ? "The synthetic example (first visit). Load your own memories in the Data tab." : ctx.summary.name;
  setupQuery(fresh);
  about(ctx.design);
  for (const v of Object.values(VIEWS)) v.onData?.(ctx);
}
/** A changed dataset: `fresh` for a new one (an import), not for a sleep pass on the same one. */
ctx.onData = (summary, { fresh = true } = {}) => {
  demo.summary = summary;
  refreshDataset(fresh);
  writeUrl();
  refresh();
};

async function main() {
  for (const t of TABS) $(`#tab-${t}`).onclick = () => show(t);
  $("#dataset-badge").onclick = () => show("data");
  tabKeys($("#tabs"), show);
  $("#pin").onclick = pin;
  $("#unpin").onclick = unpin;
  $("#undo").onclick = undo;
  $("#redo").onclick = redo;
  document.addEventListener("keydown", (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || ev.target.matches("input[type=text], input[type=search], input[type=number], textarea")) return;
    if (ev.key === "z" && !ev.shiftKey) { ev.preventDefault(); undo(); }
    else if (ev.key === "y" || (ev.key === "Z" && ev.shiftKey) || (ev.key === "z" && ev.shiftKey)) { ev.preventDefault(); redo(); }
  });
  setupExport();
  syncHistoryButtons();
  // on a narrow screen the control panels start closed (their summary line shows the values
  // in use), so the results are on the first screen; open one and it sits right above them
  const narrow = matchMedia("(max-width: 820px)");
  for (const d of $$(".controls")) {
    d.querySelector("summary").append(el("span", { class: "vals" }));
    d.open = !narrow.matches;
  }
  narrow.addEventListener("change", () => { for (const d of $$(".controls")) d.open = !narrow.matches; });
  let init;
  try {
    init = await call("init", { base: new URL("./", location.href).href });
  } catch (e) {
    setStatus(`could not start: ${e.message.split("\n")[0]}`, 0, "error");
    demo.errors.push(e.message);
    return;
  }
  // the defaults are memdomain/cache's (PRESETS, sleep()'s): only now can the URL's settings be read, and the
  // worker checks each value with the API itself
  configure(init.result);
  const fromUrl = fromHash(location.hash);
  const s = (await call("normalize", { settings: fromUrl.settings })).result;
  const b = fromUrl.baseline === undefined ? null : (await call("normalize", { settings: fromUrl.baseline })).result;
  state.settings = s.settings;
  state.baseline = b?.settings ?? null;
  state.committed = JSON.stringify(state.settings);
  demo.problems = [...fromUrl.problems, ...s.problems.map((x) => `URL: ${x}`), ...(b?.problems ?? []).map((x) => `URL baseline: ${x}`)];
  showBaseline();
  if (demo.problems.length) {
    $("#problems").hidden = false;
    put($("#problems"), el("b", { text: "Not used from the URL (the defaults stand in for them):" }),
      el("ul", {}, ...demo.problems.map((x) => el("li", { text: x }))));
  }
  ctx.design = init.result.design;
  demo.summary = ctx.summary = init.result.summary;
  demo.restored = init.result.restored;
  for (const [name, v] of Object.entries(VIEWS)) {
    v.setup(ctx);
    runners[name] = v.runner(ctx);
  }
  drillView.setup(ctx);
  refreshDataset();
  demo.ready = true;
  setStatus(`ready: ${ctx.summary.memories} memories${init.result.restored ? " (stored from an earlier visit)" : ""}`, 1);
  show(state.view);
}

main();

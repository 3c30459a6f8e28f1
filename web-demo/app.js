// The demo page's UI thread: controls, rendering, export. All computation happens in
// worker.js, which runs the memdomain wasm module; this file only draws its answers.

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "style") e.style.cssText = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
};
const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attrs = {}) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};
const fmt = (x, d = 5) => (x === null || x === undefined ? "—" : Number.isFinite(x) ? x.toFixed(d) : String(x));

const ARMS = ["lexical", "vector", "salience", "lateral"];
const ARM_NOTE = {
  lexical: "term overlap with the query (a stand-in for FTS5 bm25)",
  vector: "cosine (wasm) of the query vector to every memory",
  salience: "the lexical and vector pools ordered by access count",
  lateral: "personalized PageRank (wasm) seeded by the query's top 5",
};

// ------------------------------------------------------------------ state

const state = {
  view: "fusion",
  query: "",
  arms: {
    lexical: { weight: 1, k: 60, depth: 30 },
    vector: { weight: 1, k: 60, depth: 30 },
    salience: { weight: 0.5, k: 60, depth: 20 },
    lateral: { weight: 0.5, k: 60, depth: 20 },
  },
  mmr: { lambda: 0.5, limit: 8, pool: 30 },
  graph: { mode: "global", edges: "all" },
  retention: null, // filled from the package's own tables
  merge: { threshold: 0.92, maxPairs: 100, floor: 0.85, stage: "" },
  info: null,
};
const demo = (window.demo = { state, results: {}, busy: {}, timings: { fusion: [], mmr: [], graph: [], retention: [], merge: [] }, ready: false, errors: [] });

// ------------------------------------------------------------------ worker

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
let nextId = 1;
const waiting = new Map();
const statusEl = $("#status"), statusText = $("#status-text"), statusBar = $("#status-progress");

function setStatus(text, fraction, cls = "") {
  statusText.textContent = text;
  statusBar.value = fraction ?? 0;
  statusEl.className = `status ${cls}`;
}

worker.onmessage = (ev) => {
  const m = ev.data;
  if (m.type === "progress") {
    setStatus(m.text, m.fraction, m.fraction < 1 ? "busy" : "");
    return;
  }
  const w = waiting.get(m.id);
  if (!w) return;
  waiting.delete(m.id);
  if (m.type === "error") w.reject(new Error(m.message));
  else w.resolve(m);
};
worker.onerror = (e) => {
  setStatus(`worker failed: ${e.message}`, 0, "error");
  demo.errors.push(String(e.message));
};

function call(op, params = {}) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, op, params });
  });
}

/**
 * One request per view at a time: while one is in flight, only the latest
 * settings are kept and sent when it returns, so dragging a slider never queues.
 */
function channel(op, build, render) {
  let busy = false, pending = false, since = null;
  const idle = () => { demo.busy[op] = busy || pending; };
  const run = async () => {
    if (busy) { pending = true; idle(); return; }
    busy = true;
    idle();
    const t0 = since ?? performance.now();
    since = null;
    setStatus(`computing ${op}…`, 0.5, "busy");
    try {
      const m = await call(op, build());
      demo.results[op] = m.result;
      render(m.result);
      const dt = performance.now() - t0;
      demo.timings[op].push(dt);
      setStatus(`${op} updated in ${dt.toFixed(1)} ms (wasm work ${m.ms.toFixed(1)} ms)`, 1);
    } catch (e) {
      setStatus(`${op}: ${e.message.split("\n")[0]}`, 0, "error");
      demo.errors.push(`${op}: ${e.message}`);
    } finally {
      busy = false;
      if (pending) { pending = false; run(); }
      idle();
    }
  };
  return (t) => { if (since === null) since = t ?? performance.now(); run(); };
}

// ------------------------------------------------------------------ controls

function slider(id, label, { min, max, step, value, onInput, digits = 2 }) {
  const wrap = el("div", { class: "ctl" });
  const input = el("input", { id, type: "range", min, max, step });
  input.value = value;
  const out = el("output", { for: id, text: Number(value).toFixed(digits) });
  wrap.append(el("label", { for: id, text: label }), input, out);
  input.addEventListener("input", (ev) => {
    out.textContent = Number(input.value).toFixed(digits);
    onInput(Number(input.value), ev.timeStamp);
  });
  return wrap;
}
function bindRange(id, get, set, digits, onChange) {
  const input = $(`#${id}`), out = $(`output[for=${id}]`);
  input.value = get();
  out.textContent = Number(get()).toFixed(digits);
  input.addEventListener("input", (ev) => {
    set(Number(input.value));
    out.textContent = Number(input.value).toFixed(digits);
    onChange(ev.timeStamp);
  });
}

function buildArmControls() {
  const box = $("#arm-controls");
  box.textContent = "";
  for (const a of ARMS) {
    const s = state.arms[a];
    const div = el("div", { class: "arm", style: `--c: var(--${a})`, id: `arm-${a}` });
    div.append(el("h3", { text: a }), el("p", { class: "note", text: ARM_NOTE[a] }));
    div.append(slider(`w-${a}`, `${a} weight`, { min: 0, max: 2, step: 0.05, value: s.weight, onInput: (v, t) => { s.weight = v; refreshFusionFamily(t); } }));
    div.append(slider(`k-${a}`, `${a} k (rank offset)`, { min: 1, max: 200, step: 1, value: s.k, digits: 0, onInput: (v, t) => { s.k = v; refreshFusionFamily(t); } }));
    div.append(slider(`d-${a}`, `${a} list depth`, { min: 0, max: 100, step: 1, value: s.depth, digits: 0, onInput: (v, t) => { s.depth = v; refreshFusionFamily(t); } }));
    box.append(div);
  }
  $("#fusion-legend").replaceChildren(...ARMS.map((a) => el("span", { style: `--c: var(--${a})` }, el("i"), a)));
}

// ------------------------------------------------------------------ fusion view

const fusionRun = channel("fusion", () => ({ query: state.query, arms: state.arms, top: 20 }), renderFusion);

function renderFusion(r) {
  const list = $("#fusion-list");
  const max = r.rows.length ? r.rows[0].score : 1;
  list.replaceChildren(...r.rows.map((row) => {
    const bar = el("div", { class: "bar", title: "per-arm contribution" });
    const parts = [];
    for (const a of ARMS) {
      const p = row.parts[a];
      if (!p || p.value === null) continue;
      bar.append(el("span", { style: `--c: var(--${a}); width: ${(100 * p.value) / max}%`, "data-arm": a, "data-value": String(p.value) }));
      parts.push(`${a} #${p.rank}: ${fmt(p.value, 5)}`);
    }
    return el("li", { "data-path": row.path, "data-score": String(row.score) },
      el("span", { class: "n", text: String(row.rank) }), bar,
      el("span", { class: "score", text: fmt(row.score, 5) }),
      el("div", { class: "what" }, el("div", { class: "gist", text: row.gist }),
        el("div", { class: "parts", text: parts.join(" · ") || "no arm contributes" }),
        el("div", { class: "path", text: `${row.path} · ${row.type}` })));
  }));
  const RAW = { lexical: "term score", vector: "cosine", salience: "access count", lateral: "PPR score" };
  $("#fusion-arms").replaceChildren(...ARMS.map((a) => el("section", { style: `--c: var(--${a})`, "data-arm": a },
    el("h4", { text: `${a} (${RAW[a]})` }),
    r.armTop[a].length ? el("ol", {}, ...r.armTop[a].map((h) => el("li", { title: h.path, text: `${fmt(h.value, a === "salience" ? 0 : 4)}  ${h.gist}` })))
      : el("p", { class: "note", text: a === "lateral" && !demo.info.available.lateral ? "pagerank not available in this build" : "no hits" }))));
  const sizes = ARMS.map((a) => `${a} ${Math.min(r.armSizes[a], state.arms[a].depth)}/${r.armSizes[a]}`).join(", ");
  $("#fusion-meta").textContent = `${r.total} memories fused (${r.calls.join(" → ")}); hits used per arm: ${sizes}` +
    (r.hasQueryVector ? "" : "; the query names no topic, so the vector arm is empty") +
    (demo.info.available.lateral ? "" : "; lateral arm: pagerank not available in this build");
}

// ------------------------------------------------------------------ MMR view

const mmrRun = channel("mmr", () => ({ query: state.query, arms: state.arms, ...state.mmr }), renderMmr);

function renderMmr(r) {
  const plot = $("#mmr-plot");
  plot.replaceChildren();
  const W = 420, H = 300, P = 18;
  const xs = r.points.map((p) => p.x), ys = r.points.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const sx = (x) => P + ((x - x0) / (x1 - x0 || 1)) * (W - 2 * P), sy = (y) => H - P - ((y - y0) / (y1 - y0 || 1)) * (H - 2 * P);
  const picks = r.points.filter((p) => p.pick).sort((a, b) => a.pick - b.pick);
  if (picks.length > 1) plot.append(svg("polyline", { points: picks.map((p) => `${sx(p.x)},${sy(p.y)}`).join(" "), fill: "none", stroke: "#9334e6", "stroke-width": 1, "stroke-dasharray": "3 2" }));
  for (const p of r.points) {
    const g = svg("g", { "data-path": p.path, "data-pick": String(p.pick) });
    const c = svg("circle", { cx: sx(p.x), cy: sy(p.y), r: p.pick ? 8 : 4, fill: p.pick ? "#9334e6" : "#fff", stroke: p.pick ? "#5b1fa6" : "#80868b" });
    const title = svg("title");
    title.textContent = `${p.path} (fused #${p.fusedRank}${p.pick ? `, pick ${p.pick}` : ""})`;
    c.append(title);
    g.append(c);
    if (p.pick) {
      const t = svg("text", { x: sx(p.x), y: sy(p.y) + 3.5, "text-anchor": "middle", "font-size": 9, fill: "#fff" });
      t.textContent = String(p.pick);
      g.append(t);
    }
    plot.append(g);
  }
  const lam = state.mmr.lambda;
  $("#mmr-table tbody").replaceChildren(...r.picks.map((p) => el("tr", { "data-path": p.path },
    el("td", { class: "num", text: String(p.order) }), el("td", { class: "num", text: String(p.fusedRank) }),
    el("td", { class: "num", text: fmt(p.relevance, 5) }),
    el("td", { class: "num", text: p.order === 1 ? "0 (first)" : fmt(p.penalty, 4), title: p.nearest ? `nearest earlier pick: ${p.nearest}` : "" }),
    el("td", { class: "num", text: fmt(lam * p.relevance - (1 - lam) * p.penalty, 5) }),
    el("td", { class: "gist", text: p.gist, title: p.path }))));
  const moved = r.picks.filter((p) => p.fusedRank !== p.order).length;
  $("#mmr-meta").textContent = `applyMmr picked ${r.picks.length} of ${r.pool} candidates at λ = ${lam}; ${moved} picks differ from the fused order. ` +
    "Penalty = max cosine (wasm) to the earlier picks.";
}

// ------------------------------------------------------------------ communities view

let graphFresh = false;
const graphRun = channel("graph", () => { const fresh = graphFresh; graphFresh = false; return { mode: state.graph.mode, query: state.query, fresh }; }, renderGraph);
let layoutData = null;

function palette(i) {
  return i < 0 ? "#c4c7c5" : `hsl(${(i * 137.508) % 360} 65% 48%)`;
}

function drawGraph() {
  const r = demo.results.graph;
  const canvas = $("#graph-canvas");
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!r || !layoutData) {
    ctx.fillStyle = "#5f6368";
    ctx.font = "14px sans-serif";
    ctx.fillText(layoutData ? "computing…" : "force layout running in the worker…", 20, 30);
    return;
  }
  const { xy, src, dst, n } = layoutData;
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < n; i++) { x0 = Math.min(x0, xy[2 * i]); x1 = Math.max(x1, xy[2 * i]); y0 = Math.min(y0, xy[2 * i + 1]); y1 = Math.max(y1, xy[2 * i + 1]); }
  const P = 16, s = Math.min((canvas.width - 2 * P) / (x1 - x0 || 1), (canvas.height - 2 * P) / (y1 - y0 || 1));
  const ox = (canvas.width - s * (x1 - x0)) / 2, oy = (canvas.height - s * (y1 - y0)) / 2;
  const X = (i) => ox + (xy[2 * i] - x0) * s, Y = (i) => oy + (xy[2 * i + 1] - y0) * s;
  const mode = state.graph.edges;
  if (mode !== "none") {
    for (let e = 0; e < src.length; e++) {
      const a = src[e], b = dst[e];
      const cross = r.community[a] >= 0 && r.community[b] >= 0 && r.community[a] !== r.community[b];
      if (mode === "bridges" && !cross) continue;
      ctx.strokeStyle = cross ? "rgba(217,48,37,0.45)" : "rgba(120,120,120,0.18)";
      ctx.lineWidth = cross ? 0.9 : 0.6;
      ctx.beginPath(); ctx.moveTo(X(a), Y(a)); ctx.lineTo(X(b), Y(b)); ctx.stroke();
    }
  }
  let maxRank = 0;
  for (let i = 0; i < n; i++) maxRank = Math.max(maxRank, r.rank[i]);
  for (let i = 0; i < n; i++) {
    const rad = 1.8 + 10 * Math.sqrt(r.rank[i] / (maxRank || 1));
    ctx.beginPath(); ctx.arc(X(i), Y(i), rad, 0, 2 * Math.PI);
    ctx.fillStyle = palette(r.community[i]); ctx.fill();
    if (r.bridge[i] > 0) { ctx.lineWidth = 1.6; ctx.strokeStyle = "#202124"; ctx.stroke(); }
  }
  // personalized mode: the query's seeds get a blue ring
  for (const sd of r.seedIndex ?? []) {
    ctx.beginPath(); ctx.arc(X(sd), Y(sd), 14, 0, 2 * Math.PI);
    ctx.lineWidth = 3; ctx.strokeStyle = "#1a73e8"; ctx.stroke();
  }
}

function renderGraph(r) {
  drawGraph();
  $("#graph-top tbody").replaceChildren(...r.top.map((t, i) => el("tr", { "data-path": t.path },
    el("td", { class: "num", text: String(i + 1) }), el("td", { class: "num", text: fmt(t.score, 6) }),
    el("td", { class: "num", text: String(t.bridges) }), el("td", { class: "gist", text: t.gist, title: t.path }))));
  $("#graph-comms tbody").replaceChildren(...r.communities.slice(0, 12).map((c) => el("tr", {},
    el("td", { class: "gist", text: c.label, title: c.label }), el("td", { text: c.topic }), el("td", { class: "num", text: String(c.size) }))));
  $("#graph-meta").textContent = `${r.communities.length} communities (${r.unassigned} memories below MIN_COMMUNITY_SIZE), ` +
    `${r.bridgeNodes} bridge memories, ${r.bridgeEdges} cross-community edges; PageRank ${r.mode === "ppr" ? `personalized from ${r.seeds.length} query seeds` : "global"}, sum ${fmt(r.rankSum, 6)}; ${r.ms.toFixed(1)} ms in the worker.`;
}

async function ensureLayout() {
  if (layoutData || ensureLayout.started) return;
  ensureLayout.started = true;
  const m = await call("layout");
  layoutData = m.result;
  drawGraph();
  demo.layoutReady = true;
  setStatus(`force layout done: ${layoutData.n} nodes`, 1);
}

// ------------------------------------------------------------------ retention view

const retentionRun = channel("retention", () => ({ ...state.retention }), renderRetention);
const mergeRun = channel("merge", () => ({ threshold: state.merge.threshold, maxPairs: state.merge.maxPairs, floor: state.merge.floor }), renderMerge);

function buildRetentionControls() {
  const D = demo.info.corpus.defaults;
  state.retention = structuredClone({ profiles: D.profiles, halfLives: D.halfLives, keep: D.keep, evict: D.evict });
  const sel = $("#ret-type");
  sel.replaceChildren(...Object.keys(D.profiles).map((t) => el("option", { value: t, text: t === "default" ? "default (other types, e.g. task)" : t })));
  const weights = () => {
    const p = state.retention.profiles[sel.value];
    $("#ret-weights").replaceChildren(...D.signals.map((s) => slider(`rw-${s}`, `${s} weight`, {
      min: 0, max: 0.5, step: 0.01, value: p[s], onInput: (v, t) => { p[s] = v; retentionRun(t); },
    })));
  };
  sel.onchange = () => { weights(); if (demo.results.retention) renderRetention(demo.results.retention); };
  weights();
  $("#ret-halflives").replaceChildren(...Object.entries(state.retention.halfLives).map(([t, v]) => {
    const input = el("input", { id: `hl-${t}`, type: "number", min: "0.5", step: "0.5", placeholder: "none" });
    input.value = v === null ? "" : String(v);
    input.addEventListener("input", (ev) => {
      const x = input.value.trim() === "" ? null : Number(input.value);
      if (x !== null && !(x > 0)) return;
      state.retention.halfLives[t] = x;
      retentionRun(ev.timeStamp);
    });
    return el("label", { for: `hl-${t}` }, `${t}`, input);
  }));
  for (const [id, v] of [["ret-keep", state.retention.keep], ["ret-evict", state.retention.evict]]) {
    $(`#${id}`).value = v;
    $(`output[for=${id}]`).textContent = v.toFixed(2);
  }
}
function bindRetentionOnce() {
  bindRange("ret-keep", () => state.retention.keep, (v) => { state.retention.keep = v; }, 2, retentionRun);
  bindRange("ret-evict", () => state.retention.evict, (v) => { state.retention.evict = v; }, 2, retentionRun);
  $("#ret-reset").onclick = (ev) => { buildRetentionControls(); retentionRun(ev.timeStamp); };
}

function renderRetention(r) {
  const total = r.n;
  $("#ret-counts").replaceChildren(...["keep", "compress", "evict"].map((b) => el("div", { style: `--c: var(--${b})`, id: `count-${b}` },
    el("b", { text: String(r.counts[b]) }), `${b} (${((100 * r.counts[b]) / total).toFixed(1)}%)`)));
  const sumText = Object.entries(r.sums).map(([k, v]) => `${k} ${v === 1 ? "1" : fmt(v, 4)}`).join(", ");
  const cur = $("#ret-type").value;
  $("#ret-sum").innerHTML = "";
  $("#ret-sum").append(`profileWeightSum (${cur}): `, el("b", { text: String(r.sums[cur]) }),
    r.sums[cur] === 1 ? " (convex: composite stays in [0, 1])" : " (not 1: the composite is no longer a convex combination)");
  const H = $("#ret-hist");
  H.replaceChildren();
  const W = 440, Ht = 200, P = 24, bw = (W - 2 * P) / r.hist.length;
  const maxBin = Math.max(1, ...r.hist.map((b) => b.keep + b.compress + b.evict));
  r.hist.forEach((b, i) => {
    let y = Ht - P;
    for (const band of ["evict", "compress", "keep"]) {
      const h = ((Ht - 2 * P) * b[band]) / maxBin;
      if (h > 0) H.append(svg("rect", { x: P + i * bw + 0.5, y: y - h, width: bw - 1, height: h, fill: `var(--${band})`, "data-band": band, "data-count": b[band] }));
      y -= h;
    }
  });
  for (const [v, label] of [[state.retention.evict, "evict"], [state.retention.keep, "keep"]]) {
    const x = P + v * (W - 2 * P);
    H.append(svg("line", { x1: x, x2: x, y1: P - 6, y2: Ht - P, stroke: "#202124", "stroke-dasharray": "4 3" }));
    const t = svg("text", { x: x + 3, y: P - 8, "font-size": 10 });
    t.textContent = `${label} ${v}`;
    H.append(t);
  }
  for (const v of [0, 0.5, 1]) {
    const t = svg("text", { x: P + v * (W - 2 * P), y: Ht - 8, "font-size": 10, "text-anchor": "middle" });
    t.textContent = String(v);
    H.append(t);
  }
  $("#ret-types tbody").replaceChildren(...Object.entries(r.byType).sort().map(([t, c]) => el("tr", { "data-type": t },
    el("td", { text: t }), ...["keep", "compress", "evict"].map((b) => el("td", { class: "num", text: String(c[b]) })))));
  $("#ret-meta").textContent = `${total} memories scored (${r.exact} by scoreRetention as shipped, the rest by computeSignals + compositeScore with the edited settings). ` +
    `Profile sums: ${sumText}.` + (r.graphSignals ? "" : " Graph module not available: the pagerank and bridge signals read 0.") +
    ` Lowest: ${r.lowest.map((x) => `${fmt(x.score, 4)} ${x.path}`).join("; ")}.`;
}

function renderMerge(r) {
  const stage = state.merge.stage;
  const rows = r.rows.filter((x) => !stage || x.stage === stage).slice(0, 300);
  $("#merge-meta").textContent = `${r.pairs} unordered pairs from ${r.candidates} neighbour pairs (cosine ≥ ${state.merge.floor}); stages: ` +
    Object.entries(r.stages).map(([k, v]) => `${k} ${v}`).join(", ") + `. Showing ${rows.length}.`;
  $("#merge-table tbody").replaceChildren(...rows.map((x) => el("tr", { "data-stage": x.stage },
    el("td", { class: "num", text: String(x.i) }), el("td", { class: "num", text: fmt(x.similarity, 4) }),
    el("td", {}, el("span", { class: `stage ${x.stage}`, text: x.stage })),
    el("td", { text: x.reasons.join(", ") || "—" }),
    el("td", { class: x.frame?.conflict ? "conflict" : "", title: x.frame ? `keep: ${x.frame.keep ?? "null"}\ndrop: ${x.frame.drop ?? "null"}` : "",
      text: x.frame === null ? "n/a" : x.frame.conflict ? `conflict: "${x.frame.keep}"` : "—" }),
    el("td", { class: "gist", text: x.keepGist, title: `${x.keepPath}\n\n${x.keepBody}` }),
    el("td", { class: "gist", text: x.dropGist, title: `${x.dropPath}\n\n${x.dropBody}` }))));
  $("#merge-meta").append(" Hover a memory for its path and body (negation and variant read gist and body; numeric reads the gist only).");
}

// ------------------------------------------------------------------ views, query, export

const VIEWS = ["fusion", "mmr", "graph", "retention", "about"];
function refreshFusionFamily(t) {
  if (state.view === "fusion") fusionRun(t);
  else if (state.view === "mmr") mmrRun(t);
  else if (state.view === "graph" && state.graph.mode === "ppr") graphRun(t);
  demo.dirty = true;
}
function refreshView(t) {
  const a = demo.info.available;
  if (state.view === "fusion" && a.fusion) fusionRun(t);
  if (state.view === "mmr" && a.mmr && a.fusion) mmrRun(t);
  if (state.view === "graph" && a.graph) { ensureLayout(); graphRun(t); }
  if (state.view === "retention") {
    if (a.retention) retentionRun(t);
    if (a.merge) mergeRun(t);
  }
}
function show(view) {
  state.view = view;
  for (const v of VIEWS) {
    $(`#view-${v}`).hidden = v !== view;
    $(`#tab-${v}`).setAttribute("aria-selected", String(v === view));
  }
  refreshView();
}

function markUnavailable() {
  const { available, missing } = demo.info;
  const say = (box, names) => {
    box.hidden = false;
    box.textContent = `Module not available in this build: ${names.join(", ")} missing from the package. This view waits for it; nothing here is computed in its place.`;
  };
  if (!available.fusion) say($("#view-fusion > .unavailable"), missing.fusion);
  if (!available.mmr) say($("#view-mmr > .unavailable"), missing.mmr);
  if (!available.graph) say($("#view-graph > .unavailable"), missing.graph);
  if (!available.retention) say($("#view-retention > .unavailable"), missing.retention);
  if (!available.merge) say($(".merge-unavailable"), missing.merge);
  if (available.merge && !available.frame) $("#merge-meta").textContent = "frameKeyOf not available: the frame-key column reads n/a.";
}

function exportSettings() {
  const r = state.retention;
  return {
    generatedBy: "memdomain demo",
    fusion: {
      query: state.query,
      arms: Object.fromEntries(ARMS.map((a) => [a, { ...state.arms[a] }])),
      note: "fused = fuseArms([lexical, vector, salience], [weights], k) (per-arm k: fold each further arm with fuseLateral), then fuseLateral(fused, lateralOrder, lateral.weight, lateral.k); depth = hits taken from each arm's list",
    },
    mmr: { lambda: state.mmr.lambda, limit: state.mmr.limit, candidatePool: state.mmr.pool },
    retention: r && {
      weightProfiles: Object.fromEntries(Object.entries(r.profiles).filter(([k]) => k !== "default")),
      defaultWeights: r.profiles.default,
      halfLivesDays: r.halfLives,
      keepThreshold: r.keep,
      evictThreshold: r.evict,
    },
    merge: { nearDuplicateThreshold: state.merge.threshold, maxMergePairs: state.merge.maxPairs, neighborFloor: state.merge.floor },
    communities: { pagerankMode: state.graph.mode },
  };
}

function setupExport() {
  const dlg = $("#export-dialog");
  $("#export-btn").onclick = () => {
    $("#export-json").value = JSON.stringify(exportSettings(), null, 2);
    dlg.showModal();
  };
  $("#export-close").onclick = () => dlg.close();
  $("#export-copy").onclick = async () => {
    const ta = $("#export-json");
    ta.select();
    try { await navigator.clipboard.writeText(ta.value); $("#export-copy").textContent = "Copied"; } catch { document.execCommand?.("copy"); }
  };
  $("#export-download").onclick = () => {
    const url = URL.createObjectURL(new Blob([$("#export-json").value], { type: "application/json" }));
    const a = el("a", { href: url, download: "memdomain-settings.json" });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
}

function setupQuery() {
  const sel = $("#query-preset"), text = $("#query-text");
  const qs = demo.info.corpus.queries;
  sel.replaceChildren(...qs.map((q, i) => el("option", { value: String(i), text: q.text })));
  state.query = qs[0].text;
  text.value = state.query;
  $("#query-hint").textContent = "Embeddings are synthetic (topic centroids + noise; see About the data): the vector arm maps topic words to those directions.";
  sel.onchange = (ev) => { state.query = qs[Number(sel.value)].text; text.value = state.query; refreshView(ev.timeStamp); };
  let timer = null;
  text.addEventListener("input", (ev) => {
    clearTimeout(timer);
    const t = ev.timeStamp;
    timer = setTimeout(() => { state.query = text.value; refreshView(t); }, 150);
  });
}

function about() {
  const c = demo.info.corpus;
  const p = (t) => el("p", { text: t });
  $("#about").replaceChildren(
    el("h2", { text: "The corpus" }),
    p(`${c.memories} memories and ${c.edges} typed edges, generated deterministically (seed ${c.seed}) by web-demo/tools/gen-corpus.mjs at build time (make demo-assets). ` +
      `Types: ${c.types.join(", ")}. Kinds: ${Object.entries(c.counts).map(([k, v]) => `${k} ${v}`).join(", ")}.`),
    el("h3", { text: "How the embeddings were made" }),
    p(`${c.dim} dimensions. ${c.howMade}`),
    p("The query's vector is built the same way from the topics and sub-topics whose keywords the query names, and the lexical arm is a term-overlap score standing in for SQLite FTS5. These are the inputs; every similarity, rank, fused score, contribution, MMR pick, PageRank, community, bridge count, retention score, band and merge stage on the page is computed by the memdomain WebAssembly module, in a Web Worker."),
    el("h3", { text: "Third-party code" }),
    p("The force layout is d3-force (ISC license, © Mike Bostock), bundled from node_modules into build/demo/d3-force.js with its LICENSE beside it; nothing is fetched from a CDN."),
    el("h3", { text: "Package exports found" }),
    el("p", { class: "note", text: demo.info.exports.join(", ") }),
    el("h3", { text: "Views available in this build" }),
    p(Object.entries(demo.info.available).map(([k, v]) => `${k}: ${v ? "yes" : `no (missing ${demo.info.missing[k].join(", ")})`}`).join("; ")),
  );
}

async function main() {
  for (const v of VIEWS) $(`#tab-${v}`).onclick = () => show(v);
  setupExport();
  let init;
  try {
    init = await call("init", { base: new URL("./", location.href).href });
  } catch (e) {
    setStatus(`could not start: ${e.message.split("\n")[0]}`, 0, "error");
    demo.errors.push(e.message);
    return;
  }
  demo.info = init.result;
  state.mmr.lambda = demo.info.corpus.MMR_LAMBDA ?? 0.5;
  if (demo.info.corpus.mergeDefaults) Object.assign(state.merge, demo.info.corpus.mergeDefaults);
  buildArmControls();
  setupQuery();
  bindRange("mmr-lambda", () => state.mmr.lambda, (v) => { state.mmr.lambda = v; }, 2, mmrRun);
  bindRange("mmr-limit", () => state.mmr.limit, (v) => { state.mmr.limit = v; }, 0, mmrRun);
  bindRange("mmr-pool", () => state.mmr.pool, (v) => { state.mmr.pool = v; }, 0, mmrRun);
  for (const id of ["graph-mode-global", "graph-mode-ppr"]) $(`#${id}`).addEventListener("change", (ev) => { state.graph.mode = ev.target.value; graphRun(ev.timeStamp); });
  $("#graph-recompute").onclick = (ev) => { graphFresh = true; graphRun(ev.timeStamp); };
  $("#graph-edges").onchange = () => { state.graph.edges = $("#graph-edges").value; drawGraph(); };
  if (demo.info.available.retention) { buildRetentionControls(); bindRetentionOnce(); }
  bindRange("merge-threshold", () => state.merge.threshold, (v) => { state.merge.threshold = v; }, 3, mergeRun);
  bindRange("merge-cap", () => state.merge.maxPairs, (v) => { state.merge.maxPairs = v; }, 0, mergeRun);
  $("#merge-stage").onchange = () => { state.merge.stage = $("#merge-stage").value; if (demo.results.merge) renderMerge(demo.results.merge); };
  markUnavailable();
  about();
  setStatus(`ready: ${demo.info.corpus.memories} memories`, 1);
  demo.ready = true;
  show("fusion");
}

main();

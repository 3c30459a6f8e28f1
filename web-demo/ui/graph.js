// Communities: the graph memdomain/cache's sleep() builds (the memories after its merges, the
// data's links and the similarity edges the pass derives), in a d3-force layout, coloured by
// labelPropagation community (the largest eight get a colour key, the rest grey), sized by
// PageRank; hover, click, zoom and pan; bridges and seeds explained. Memories with no edge are
// left out of the layout: hidden (counted), or drawn apart in rows below it.
import { $, put, el, fmt, move, moveMark, numberControl, tidy } from "./dom.js";

const PALETTE = ["#1a73e8", "#e8710a", "#188038", "#d93025", "#9334e6", "#00838f", "#c2185b", "#795548"];
const OTHER = "#b0b4b8", NONE = "#e2e4e6";
const local = { mode: "global", edges: "all", isolated: false };
let layoutData = null, last = null;
const view = { k: 1, x: 0, y: 0 }; // zoom and pan on top of the fitted layout
let hover = -1;

export function setup(ctx) {
  const mode = el("fieldset", {}, el("legend", { text: "PageRank" }),
    ...[["global", "Global (uniform teleport)"], ["personalized", "Personalized: seeded by the query's fused top hits"]].map(([v, t]) =>
      el("label", {}, el("input", { type: "radio", name: "graph-mode", id: `graph-mode-${v}`, value: v, checked: v === local.mode,
        onchange: () => { local.mode = v; ctx.refresh(); } }), ` ${t}`)));
  const edges = el("select", { id: "graph-edges", onchange: (e) => { local.edges = e.target.value; draw(); } },
    el("option", { value: "all", text: "all edges" }), el("option", { value: "bridges", text: "cross-community edges only" }), el("option", { value: "none", text: "no edges" }));
  put($("#graph-controls .fields"), 
    numberControl(ctx, "graph.damping", "damping (PageRank teleport factor)", { step: 0.01, min: 0.5, max: 0.99 }),
    numberControl(ctx, "graph.maxIterations", "maxIterations (power-iteration cap)", { step: 1, max: 200 }),
    numberControl(ctx, "graph.minCommunitySize", "minCommunitySize (smaller groups are no community)", { step: 1, max: 30 }),
    mode,
    el("div", { class: "ctl" }, el("label", { for: "graph-edges", text: "Draw" }), edges),
    el("div", { class: "ctl" }, el("label", { for: "graph-isolated", id: "graph-isolated-label", text: "draw the memories with no edge, apart (below)" }),
      el("input", { type: "checkbox", id: "graph-isolated", onchange: (e) => { local.isolated = e.target.checked; if (last) edgesNote(last); draw(); } })),
  );
  const canvas = $("#graph-canvas");
  canvas.addEventListener("pointermove", (e) => onMove(ctx, e));
  canvas.addEventListener("pointerleave", () => { hover = -1; tooltip(); draw(); });
  canvas.addEventListener("click", (e) => { const i = pick(e); if (i >= 0) ctx.drill(layoutData.paths[i]); });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoomAt(e.deltaY < 0 ? 1.25 : 0.8, ...local2(e));
  }, { passive: false });
  let drag = null;
  canvas.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener("pointerup", () => { drag = null; });
  canvas.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    view.x = drag.vx + dx;
    view.y = drag.vy + dy;
    draw();
  });
  canvas.addEventListener("dblclick", () => { Object.assign(view, { k: 1, x: 0, y: 0 }); draw(); });
  $("#graph-zoom-in").onclick = () => zoomAt(1.5, canvas.clientWidth / 2, canvas.clientHeight / 2);
  $("#graph-zoom-out").onclick = () => zoomAt(1 / 1.5, canvas.clientWidth / 2, canvas.clientHeight / 2);
  $("#graph-zoom-reset").onclick = () => { Object.assign(view, { k: 1, x: 0, y: 0 }); draw(); };
  new ResizeObserver(() => draw()).observe(canvas);
}

export function runner(ctx) {
  return ctx.channel("graph", () => ({ settings: ctx.settings(), baseline: ctx.baseline(), query: ctx.query(), mode: local.mode }), (r) => {
    render(ctx, r);
    ensureLayout(ctx, r.key); // the pass's graph changes with sleep()'s options
  });
}

export function onData() {
  layoutData = null;
  last = null;
  Object.assign(view, { k: 1, x: 0, y: 0 });
}

async function ensureLayout(ctx, key) {
  if (layoutData?.key === key || ensureLayout.busy === key) return;
  ensureLayout.busy = key;
  ctx.demo.layoutReady = false;
  try {
    const m = await ctx.call("layout", { settings: ctx.settings() });
    if (m.result.key !== last?.key) return; // the settings moved on: the next result asks again
    layoutData = m.result;
    ctx.demo.layoutReady = true;
    ctx.status(`force layout done: ${layoutData.n} memories`, 1);
    draw();
  } finally {
    if (ensureLayout.busy === key) ensureLayout.busy = null;
    if (last && layoutData?.key !== last.key && ensureLayout.busy === null) ensureLayout(ctx, last.key);
  }
}

function local2(e) {
  const r = e.target.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}
function zoomAt(f, px, py) {
  const k = Math.min(20, Math.max(0.5, view.k * f));
  const g = k / view.k;
  view.x = px - (px - view.x) * g;
  view.y = py - (py - view.y) * g;
  view.k = k;
  draw();
}

/**
 * Screen positions of every node for the current canvas size, zoom and pan (NaN: not drawn).
 * The memories with no edge, when shown, sit in rows below the layout.
 */
function positions(W, H) {
  const { xy, n, isolated } = layoutData;
  const apart = local.isolated ? isolated.reduce((a, x) => a + x, 0) : 0;
  const P = 14, cols = Math.max(1, Math.floor((W - 2 * P) / 9)), rows = Math.ceil(apart / cols), strip = apart ? Math.min(H / 3, rows * 9 + P) : 0;
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < n; i++) {
    if (isolated[i]) continue;
    x0 = Math.min(x0, xy[2 * i]); x1 = Math.max(x1, xy[2 * i]); y0 = Math.min(y0, xy[2 * i + 1]); y1 = Math.max(y1, xy[2 * i + 1]);
  }
  if (!Number.isFinite(x0)) x0 = x1 = y0 = y1 = 0;
  const Hl = H - strip, s = Math.min((W - 2 * P) / (x1 - x0 || 1), (Hl - 2 * P) / (y1 - y0 || 1));
  const ox = (W - s * (x1 - x0)) / 2, oy = (Hl - s * (y1 - y0)) / 2;
  const X = new Float32Array(n).fill(NaN), Y = new Float32Array(n).fill(NaN);
  let k = 0;
  for (let i = 0; i < n; i++) {
    let x, y;
    if (isolated[i]) {
      if (!apart) continue;
      x = P + 4 + (k % cols) * 9;
      y = Hl + 4 + Math.floor(k / cols) * 9;
      k++;
    } else {
      x = ox + (xy[2 * i] - x0) * s;
      y = oy + (xy[2 * i + 1] - y0) * s;
    }
    X[i] = view.x + view.k * x;
    Y[i] = view.y + view.k * y;
  }
  return { X, Y, strip: apart ? view.y + view.k * Hl : null };
}

let sizeScale = 1; // smaller nodes on a narrow canvas
function radiusOf(i) {
  return (1.6 + 9 * Math.sqrt(last.rank[i] / (last.maxRank || 1))) * Math.sqrt(view.k) * sizeScale;
}

function pick(e) {
  if (!layoutData || !last || layoutData.key !== last.key) return -1;
  const [px, py] = local2(e);
  const c = $("#graph-canvas");
  const { X, Y } = positions(c.clientWidth, c.clientHeight);
  let best = -1, bd = Infinity;
  for (let i = 0; i < X.length; i++) {
    const d = (X[i] - px) ** 2 + (Y[i] - py) ** 2; // NaN for a node not drawn: never picked
    if (d < bd && d <= Math.max(36, radiusOf(i) ** 2)) { bd = d; best = i; }
  }
  return best;
}

function onMove(ctx, e) {
  const i = pick(e);
  if (i === hover) return;
  hover = i;
  tooltip(e, i);
  draw();
}

function tooltip(e, i = -1) {
  const t = $("#graph-tip");
  if (i < 0 || !last) { t.hidden = true; return; }
  const c = last.community[i];
  t.replaceChildren(el("b", { text: layoutData.gists[i] }), el("br"),
    `${layoutData.paths[i]} · PageRank ${last.rank[i].toPrecision(3)} · ${last.bridge[i]} cross-community edges · ` +
    (c < 0 ? "in no community" : `community #${c + 1} (${last.sizes[c]} members)`), el("br"), el("i", { text: "click for details" }));
  const r = $("#graph-canvas").getBoundingClientRect(), wrap = $("#graph-wrap").getBoundingClientRect();
  const [px, py] = local2(e);
  t.hidden = false;
  t.style.left = `${Math.min(px + 12, r.width - 240)}px`;
  t.style.top = `${py + 12 + (r.top - wrap.top)}px`;
}

function colourOf(c) {
  return c < 0 ? NONE : c < PALETTE.length ? PALETTE[c] : OTHER;
}

function draw() {
  const c = $("#graph-canvas");
  if (!c || c.offsetParent === null) return;
  const W = c.clientWidth, H = c.clientHeight, dpr = window.devicePixelRatio || 1;
  sizeScale = Math.max(0.4, Math.min(1, W / 900));
  if (c.width !== Math.round(W * dpr) || c.height !== Math.round(H * dpr)) { c.width = Math.round(W * dpr); c.height = Math.round(H * dpr); }
  const g = c.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, W, H);
  if (!layoutData || !last || layoutData.key !== last.key) {
    g.fillStyle = "#5f6368";
    g.font = "14px system-ui, sans-serif";
    g.fillText(layoutData ? "computing…" : "force layout running in the worker…", 16, 28);
    return;
  }
  const { X, Y, strip } = positions(W, H);
  const { src, dst } = layoutData;
  if (strip !== null) {
    g.strokeStyle = "#dadce0";
    g.beginPath(); g.moveTo(0, strip); g.lineTo(W, strip); g.stroke();
    g.fillStyle = "#5f6368";
    g.font = "11px system-ui, sans-serif";
    g.fillText("no edge:", 4, strip - 3);
  }
  if (local.edges !== "none") {
    for (let e = 0; e < src.length; e++) {
      const a = src[e], b = dst[e];
      const cross = last.community[a] >= 0 && last.community[b] >= 0 && last.community[a] !== last.community[b];
      if (local.edges === "bridges" && !cross) continue;
      g.strokeStyle = cross ? "rgba(217,48,37,0.35)" : "rgba(120,120,120,0.15)";
      g.lineWidth = cross ? 0.8 : 0.5;
      g.beginPath(); g.moveTo(X[a], Y[a]); g.lineTo(X[b], Y[b]); g.stroke();
    }
  }
  const n = X.length;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(X[i])) continue;
    g.beginPath(); g.arc(X[i], Y[i], radiusOf(i), 0, 2 * Math.PI);
    g.fillStyle = colourOf(last.community[i]);
    g.fill();
    if (last.bridge[i] >= last.ringAt) { g.lineWidth = 1.5; g.strokeStyle = "#202124"; g.stroke(); }
  }
  for (const s of last.seeds) {
    if (Number.isNaN(X[s.index])) continue;
    g.beginPath(); g.arc(X[s.index], Y[s.index], radiusOf(s.index) + 5, 0, 2 * Math.PI);
    g.lineWidth = 2.5; g.strokeStyle = "#1a73e8"; g.stroke();
  }
  if (hover >= 0) {
    g.beginPath(); g.arc(X[hover], Y[hover], radiusOf(hover) + 3, 0, 2 * Math.PI);
    g.lineWidth = 2; g.strokeStyle = "#000"; g.stroke();
  }
}

export function render(ctx, r) {
  // how many cross-community edges make a node worth outlining: about the top 3% of bridge counts (at least 2)
  const counts = r.bridge.filter((b) => b > 0).sort((a, b) => b - a);
  const ringAt = Math.max(2, (counts[Math.floor(r.n * 0.03)] ?? 1) + 1);
  const ringed = r.bridge.filter((b) => b >= ringAt).length;
  let maxRank = 0;
  for (const v of r.rank) maxRank = Math.max(maxRank, v);
  last = { ...r, maxRank, ringAt };
  draw();
  edgesNote(r);
  $("#graph-isolated-label").textContent = `draw the ${r.isolated} memories with no edge, apart (below)`;
  legend(ctx, r, ringAt, ringed, counts.length);
}

/** Where the graph's edges come from (the data's links, sleep()'s similarity edges) and what is drawn of the memories with none. */
function edgesNote(r) {
  const e = r.edges, derived = e.similar + e["near-duplicate"];
  put($("#graph-edges-note"), el("span", { id: "graph-edges-summary", "data-links": e.link, "data-derived": derived, "data-isolated": r.isolated,
    text: `${r.n} memories after sleep()'s merges (${r.merged} merged away); ${e.link} links from the data + ${derived} similarity edges sleep() derives ` +
      `(${e.similar} similar, ${e["near-duplicate"]} near-duplicate: neighbour pairs at cosine ≥ ${tidy(r.sleep.floor)}, at most ${r.sleep.perSourceK} per memory)` +
      `${e.link ? "" : ": the data has no edges, so these are all the graph has"}. ${r.isolated} memories have no edge: ` +
      `${local.isolated ? "drawn apart below the layout" : "not drawn (tick the box to draw them apart)"}.` }),
  r.graphDefault ? el("span", { text: ` The communities are sleep()'s own (${r.report.count}, largest ${r.report.largest}).` })
    : el("span", { text: ` sleep() computes them with the default graph settings (${r.report.count} communities, largest ${r.report.largest}); with these, what-if.` }));
}

function legend(ctx, r, ringAt, ringed, bridgeNodes) {
  put($("#graph-legend"), 
    ...r.communities.slice(0, PALETTE.length).map((c, i) => el("button", { type: "button", class: "key", title: `${c.label}: ${c.gist}`, onclick: () => ctx.drill(c.label) },
      el("i", { style: `background:${PALETTE[i]}` }), `#${i + 1} ${c.gist.slice(0, 28)}${c.gist.length > 28 ? "…" : ""} (${c.size})`)),
    el("span", { class: "key" }, el("i", { style: `background:${OTHER}` }), `${Math.max(0, r.current.communities - PALETTE.length)} smaller communities`),
    el("span", { class: "key" }, el("i", { style: `background:${NONE}` }), `${r.n - r.current.inCommunities} memories in no community (group below minCommunitySize; ${r.isolated} of them with no edge)`),
  );
  put($("#graph-explain"), 
    el("li", {}, el("b", { text: "Size" }), " is PageRank" + (r.mode === "personalized" ? " personalized by the query's seeds." : " (global).")),
    el("li", {}, el("b", { text: "Bridges: " }), `${bridgeNodes} memories have at least one edge into another community (bridgeCounts, the retention signal bridgeImportance). Outlined in black: the ${ringed} with ${ringAt} or more; red lines are cross-community edges.`),
    r.mode === "personalized" ? el("li", {}, el("b", { text: "Seeds: " }),
      r.seeds.length ? `the ${r.seeds.length} blue-ringed memories are the query's fused top hits; the personalized walk restarts from them (teleport weights = their fused scores), as the lateral arm does.` : "the query has no fused hits, so there is no seed: global PageRank is shown.") : null,
    el("li", {}, "Hover a node for its gist; click for details; wheel or the buttons zoom, drag pans, double-click resets."),
  );
  const sum = (s) => s && `${s.communities} communities holding ${s.inCommunities} memories (largest ${s.largest}), ${s.bridgeNodes} bridge memories`;
  put($("#graph-meta"), el("span", { id: "graph-summary", text: `Current: ${sum(r.current)}; ${r.current.ms.toFixed(1)} ms for PageRank, communities and bridges on the Graph handle.` }),
    r.baseline ? el("span", { text: ` Baseline: ${sum(r.baseline)}.` }) : "");
  const baseRank = r.baselineTop ? new Map(r.baselineTop.map((t, i) => [t.path, i + 1])) : null;
  put($("#graph-top tbody"), ...r.top.map((t, i) => el("tr", { "data-path": t.path, onclick: () => ctx.drill(t.path) },
    el("td", { class: "num", text: String(i + 1) }), el("td", {}, baseRank && r.mode === "global" ? moveMark(move(i + 1, baseRank.get(t.path) ?? null)) : null),
    el("td", { class: "num", text: fmt(t.score, 5) }), el("td", { class: "num", text: String(t.bridges) }), el("td", { class: "gist", text: t.gist, title: t.path }))));
}

// Retention: a RetentionPolicy editor (weight profiles, half-lives, band thresholds) and
// the bands scoreRetentionMany gives under it, baseline and current side by side.
import { $, delta, el, fmt, put, svg, tidy } from "./dom.js";

const DEFAULT_KEY = "(default)";
let selected = null;

const own = (o, k) => !!o && Object.prototype.hasOwnProperty.call(o, k);
const policyOf = (ctx) => ctx.settings().retention.policy;

/** The profile, half-life and thresholds in force for a type under a policy (what the core resolves). */
export function effective(design, p, type) {
  const weights = type === DEFAULT_KEY ? p.defaultWeights ?? design.defaultWeights
    : own(p.weights, type) ? p.weights[type] : own(design.profiles, type) ? design.profiles[type] : p.defaultWeights ?? design.defaultWeights;
  const halfLife = type === DEFAULT_KEY ? (p.defaultHalfLife === undefined ? design.defaultHalfLife : p.defaultHalfLife)
    : own(p.halfLives, type) ? p.halfLives[type] : own(design.halfLives, type) ? design.halfLives[type]
      : p.defaultHalfLife === undefined ? design.defaultHalfLife : p.defaultHalfLife;
  return { weights, halfLife, keep: p.keepThreshold ?? design.keep, evict: p.evictThreshold ?? design.evict };
}

function types(ctx) {
  const d = ctx.design;
  return [...new Set([...Object.keys(d.profiles), ...Object.keys(ctx.summary.types)])].sort();
}

/** A policy edit: a fresh copy with `edit` applied, committed (undo, URL) when `commit`. */
function edit(ctx, change, commit) {
  const before = JSON.stringify(policyOf(ctx));
  const p = JSON.parse(before);
  change(p);
  ctx.state.settings.retention.policy = p;
  if (commit) ctx.commit();
  if (JSON.stringify(p) !== before) ctx.refresh(); // a finished drag commits the value already shown
}

/** A number box (and slider) for one policy field; the caller sets `.value` (what is in force). */
function field(id, label, { min = 0, max = 1, step = 0.01, slider = true, onValue, check, placeholder }) {
  const range = slider ? el("input", { id: `${id}-range`, type: "range", min, max, step, "aria-label": `${label} (slider)` }) : null;
  const box = el("input", { id, type: "number", step: "any", class: "num", placeholder });
  const msg = el("span", { class: "msg", role: "alert" });
  const wrap = el("div", { class: "ctl" }, el("label", { for: id, text: label }), range ?? el("span"), box, msg);
  const show = (v) => {
    if (range) range.value = v ?? max;
    if (document.activeElement !== box) box.value = v === null ? "" : tidy(v);
  };
  const accept = (raw, commit, fromRange) => {
    const v = raw === "" ? null : Number(raw);
    const why = check(v);
    if (why) {
      box.setAttribute("aria-invalid", "true");
      msg.textContent = why;
      if (fromRange) show(wrap.value()); // a refused slider move snaps back to the value in force
      return;
    }
    box.removeAttribute("aria-invalid");
    msg.textContent = "";
    if (fromRange) box.value = tidy(v);
    onValue(v, commit);
  };
  range?.addEventListener("input", () => accept(range.value, false, true));
  range?.addEventListener("change", () => accept(range.value, true, true));
  box.addEventListener("input", () => accept(box.value.trim(), false, false));
  box.addEventListener("change", () => { if (box.getAttribute("aria-invalid") !== "true") accept(box.value.trim(), true, false); });
  box.addEventListener("blur", () => { if (box.getAttribute("aria-invalid") !== "true") show(wrap.value()); });
  wrap.sync = () => show(wrap.value());
  return wrap;
}

function weightControls(ctx) {
  const d = ctx.design, type = selected;
  return d.signals.map((s) => {
    const c = field(`rw-${s}`, `${s}`, {
      max: 0.5, step: 0.01,
      check: (v) => (v === null || !Number.isFinite(v) ? `${s}: enter a number` : v < 0 ? `${s}: a weight must be >= 0, got ${tidy(v)}` : null),
      onValue: (v, commit) => edit(ctx, (p) => {
        const cur = { ...effective(d, p, type).weights, [s]: v };
        if (type === DEFAULT_KEY) p.defaultWeights = cur;
        else (p.weights ??= {})[type] = cur;
      }, commit),
    });
    c.value = () => effective(d, policyOf(ctx), type).weights[s];
    c.sync();
    return c;
  });
}

function halfLifeControls(ctx) {
  const d = ctx.design;
  return [...types(ctx), DEFAULT_KEY].map((t) => {
    const c = field(`hl-${t.replace(/\W/g, "_")}`, t === DEFAULT_KEY ? "any other type" : t, {
      slider: false, placeholder: "no decay",
      check: (v) => (v !== null && !(v > 0 && Number.isFinite(v)) ? `${t}: a half-life must be a number of days > 0 (empty: no decay), got ${tidy(v)}` : null),
      onValue: (v, commit) => edit(ctx, (p) => {
        if (t === DEFAULT_KEY) p.defaultHalfLife = v;
        else (p.halfLives ??= {})[t] = v;
      }, commit),
    });
    c.value = () => effective(d, policyOf(ctx), t).halfLife;
    c.sync();
    return c;
  });
}

function thresholdControls(ctx) {
  const d = ctx.design;
  const make = (key, label) => {
    const c = field(`ret-${key}`, label, {
      min: 0, max: 1, step: 0.01,
      check: (v) => {
        if (v === null || !Number.isFinite(v)) return `${label}: enter a number`;
        const e = effective(d, policyOf(ctx), null);
        const keep = key === "keep" ? v : e.keep, evict = key === "evict" ? v : e.evict;
        return evict > keep ? `Refused: ${key} ${tidy(v)} would put evict (${tidy(evict)}) above keep (${tidy(keep)}); the bands would cross.` : null;
      },
      onValue: (v, commit) => edit(ctx, (p) => { p[key === "keep" ? "keepThreshold" : "evictThreshold"] = v; }, commit),
    });
    c.value = () => effective(d, policyOf(ctx), null)[key];
    c.sync();
    return c;
  };
  return [make("keep", "keep when score > keep threshold"), make("evict", "evict when score ≤ evict threshold")];
}

export function setup(ctx) {
  $("#ret-type").onchange = (e) => { selected = e.target.value; build(ctx); if (ctx.demo.results.retention) render(ctx, ctx.demo.results.retention); };
  $("#ret-reset").onclick = () => {
    edit(ctx, (p) => { for (const k of Object.keys(p)) delete p[k]; }, true);
    build(ctx);
  };
  build(ctx);
}
export function onData(ctx) {
  build(ctx);
}
export function sync(ctx) {
  build(ctx);
}

function build(ctx) {
  const ts = types(ctx);
  if (!selected || (selected !== DEFAULT_KEY && !ts.includes(selected))) selected = ts.includes("episodic") ? "episodic" : ts[0] ?? DEFAULT_KEY;
  put($("#ret-type"), ...ts.map((t) => el("option", { value: t, text: own(ctx.design.profiles, t) ? t : `${t} (no typed profile)` })),
    el("option", { value: DEFAULT_KEY, text: "default (every other type, task included)" }));
  $("#ret-type").value = selected;
  put($("#ret-weights"), ...weightControls(ctx));
  put($("#ret-halflives"), ...halfLifeControls(ctx));
  put($("#ret-thresholds"), ...thresholdControls(ctx));
}

export function runner(ctx) {
  return ctx.channel("retention", () => ({ settings: ctx.settings(), baseline: ctx.baseline() }), (r) => render(ctx, r));
}

const BANDS = ["keep", "compress", "evict"];

export function render(ctx, r) {
  const err = $("#ret-error");
  err.hidden = !r.error;
  err.textContent = r.error ? `The core refused this policy, so nothing below is updated: ${r.error}` : "";
  if (r.error) return;
  const sl = r.sleep;
  // the policy is sleep()'s own (sleep({ policy })); only the graph settings are not sleep options
  const what = sl.same ? [] : [sl.graphDefault ? null : "other graph settings"].filter(Boolean);
  put($("#ret-sleep"), `The memories after sleep()'s pass at the "as of" date (Sleep tab): ${sl.decayed} confidences decayed, ${sl.merged} merged away ` +
    `(${r.n} of ${sl.before} left), PageRank and bridges over ${sl.edges.links} links + ${sl.edges.similar + sl.edges.nearDuplicate} similarity edges. `,
  sl.same ? el("span", { id: "ret-whatif", text: "Every score here is the one the pass stores: these are sleep()'s own bands." })
    : el("span", { id: "ret-whatif", text: `With ${what.join(" and ") || "these settings"} these bands are what-if: sleep() does not take them, and gives keep ${sl.bands.keep}, compress ${sl.bands.compress}, evict ${sl.bands.evict}.` }));
  const key = selected === DEFAULT_KEY ? "(default)" : selected;
  const sum = r.sums[key];
  put($("#ret-sum"), `profileWeightSum: `, el("b", { id: "ret-sum-value", text: sum === null || sum === undefined ? "—" : tidy(sum) }),
    sum === 1 ? " (exactly 1: the composite stays in [0, 1])" : " (not 1: the composite is no longer a convex combination and can leave [0, 1])");
  const cur = r.current, bas = r.baseline && !r.baseline.error ? r.baseline : null;
  put($("#ret-counts"), ...BANDS.map((b) => el("div", { style: `--c: var(--${b})`, id: `count-${b}` },
    el("b", { text: String(cur.counts[b]) }), `${b} (${((100 * cur.counts[b]) / r.n).toFixed(1)}%)`,
    bas ? el("span", { class: "was" }, `baseline ${bas.counts[b]} `, delta(cur.counts[b], bas.counts[b], 0, { higherIsBetter: b !== "evict" })) : null)));
  // transitions baseline -> current
  const tr = $("#ret-moves");
  tr.hidden = !bas;
  if (bas) {
    put(tr, el("caption", { text: "Band moves: baseline (rows) → current (columns)" }),
      el("thead", {}, el("tr", {}, el("th"), ...BANDS.map((b) => el("th", { class: "num", text: b })))),
      el("tbody", {}, ...BANDS.map((a) => el("tr", {}, el("th", { text: a }),
        ...BANDS.map((b) => el("td", { class: `num${a !== b && r.moves[`${a}>${b}`] ? " changed" : ""}`, "data-move": `${a}>${b}`, text: String(r.moves[`${a}>${b}`] ?? 0) }))))));
  }
  // histogram: current bars, baseline as an outline
  const H = $("#ret-hist");
  put(H, );
  const W = 440, Ht = 200, P = 24, bw = (W - 2 * P) / cur.hist.length;
  const tot = (b) => b.keep + b.compress + b.evict;
  const maxBin = Math.max(1, ...cur.hist.map(tot), ...(bas ? bas.hist.map(tot) : []));
  cur.hist.forEach((b, i) => {
    let y = Ht - P;
    for (const band of ["evict", "compress", "keep"]) {
      const h = ((Ht - 2 * P) * b[band]) / maxBin;
      if (h > 0) H.append(svg("rect", { x: P + i * bw + 0.5, y: y - h, width: bw - 1, height: h, fill: `var(--${band})`, "data-band": band, "data-count": b[band] }));
      y -= h;
    }
  });
  if (bas) {
    const pts = bas.hist.flatMap((b, i) => { const y = Ht - P - ((Ht - 2 * P) * tot(b)) / maxBin; return [`${P + i * bw},${y}`, `${P + (i + 1) * bw},${y}`]; });
    H.append(svg("polyline", { points: pts.join(" "), fill: "none", stroke: "#202124", "stroke-width": 1.2, "stroke-dasharray": "3 2" }));
  }
  const e = effective(ctx.design, policyOf(ctx), null);
  for (const [v, label] of [[e.evict, "evict"], [e.keep, "keep"]]) {
    const x = P + Math.min(1, Math.max(0, v)) * (W - 2 * P);
    H.append(svg("line", { x1: x, x2: x, y1: P - 6, y2: Ht - P, stroke: "#202124", "stroke-dasharray": "4 3" }));
    H.append(svg("text", { x: x + 3, y: P - 8, "font-size": 10 }, `${label} ${tidy(v)}`));
  }
  for (const v of [0, 0.5, 1]) H.append(svg("text", { x: P + v * (W - 2 * P), y: Ht - 8, "font-size": 10, "text-anchor": "middle" }, String(v)));
  $("#ret-hist-caption").textContent = `Composite score of every memory in ${cur.hist.length} bins, coloured by band` + (bas ? "; the dashed outline is the baseline's histogram." : ".");
  // by type
  put($("#ret-types tbody"), ...Object.entries(cur.byType).sort().map(([t, c]) => el("tr", { "data-type": t },
    el("td", { text: t }), ...BANDS.map((b) => el("td", { class: "num" }, String(c[b]), bas ? el("span", { class: "sp" }) : null,
      bas ? delta(c[b], bas.byType[t]?.[b] ?? 0, 0, { higherIsBetter: b !== "evict" }) : null)))));
  const item = (x, extra) => el("li", { "data-path": x.path, onclick: () => ctx.drill(x.path) }, el("span", { class: `pill ${x.band ?? x.to}`, text: extra }), ` ${x.gist}`);
  put($("#ret-moved"), ...(r.moved.length ? r.moved.map((x) => item(x, `${x.from}→${x.to} ${fmt(x.before, 3)}→${fmt(x.after, 3)}`))
    : [el("li", { class: "note", text: bas ? "No memory changed band." : "Pin a baseline to see which memories change band." })]));
  put($("#ret-lowest"), ...r.lowest.map((x) => item(x, `${x.band} ${fmt(x.score, 4)}`)));
  $("#ret-meta").textContent = `${r.n} memories scored by scoreRetentionMany in one call (policy: ${Object.keys(policyOf(ctx)).length ? "tuned" : "the design's constants"}); PageRank and bridges from the pass's graph with the Communities settings.`;
}

// DOM helpers and the workbench's controls. A control edits one setting: it shows the
// value in use, marks what it cannot use (aria-invalid plus a message) and never
// hands an invalid value on.
import { FIELDS, get, invalid, tidy } from "../lib/settings.js";

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "style") e.style.cssText = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k);
  return e;
}

/** replaceChildren without the nulls and falses of conditional children. */
export function put(node, ...kids) {
  node.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
  return node;
}

/** Save `data` (text or bytes) as a file named `name`. */
export function download(name, data, type) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const SVGNS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A number for display: fixed decimals, or "—" when absent. */
export const fmt = (x, d = 4) => (x === null || x === undefined ? "—" : typeof x === "number" && Number.isFinite(x) ? x.toFixed(d) : String(x));
export { tidy };

/** A signed difference for display, with a class saying which way it went. */
export function delta(cur, base, d = 4, { higherIsBetter = true } = {}) {
  if (base === null || base === undefined || cur === null || cur === undefined) return null;
  const x = cur - base;
  const cls = Math.abs(x) < 1e-12 ? "same" : (x > 0) === higherIsBetter ? "better" : "worse";
  return el("span", { class: `delta ${cls}`, text: Math.abs(x) < 1e-12 ? "±0" : `${x > 0 ? "+" : "−"}${Math.abs(x).toFixed(d)}` });
}

/**
 * The rank-change mark of an item ranked `cur` now and `base` in the baseline (null: absent):
 * { kind: "up" | "down" | "same" | "new", by, text }.
 */
export function move(cur, base) {
  if (base === null || base === undefined) return { kind: "new", by: 0, text: "new" };
  if (base === cur) return { kind: "same", by: 0, text: "=" };
  return base > cur ? { kind: "up", by: base - cur, text: `▲${base - cur}` } : { kind: "down", by: cur - base, text: `▼${cur - base}` };
}
export const moveMark = (m) => el("span", { class: `move ${m.kind}`, "data-move": `${m.kind}${m.by ? `:${m.by}` : ""}`, title: m.kind === "new" ? "not in the baseline's list" : m.kind === "same" ? "same rank as the baseline" : `${m.by} place${m.by > 1 ? "s" : ""} ${m.kind === "up" ? "higher" : "lower"} than the baseline`, text: m.text });

/**
 * A numeric setting as a slider plus a box for exact values. `ctx.value(path)` reads it,
 * `ctx.set(path, v, commit)` applies a valid value (commit: the move is finished, so it
 * goes into undo history and the URL). A value the box cannot use is marked and ignored.
 * `off(settings)` says why the setting does not apply now (the control is disabled and
 * says so), or null.
 */
export function numberControl(ctx, path, label, { step = 0.01, min, max, toSlider, fromSlider, sliderStep, note, scope, off } = {}) {
  const f = FIELDS[path];
  const lo = min ?? f.min ?? f.lo, hi = max ?? f.max ?? f.hi; // the slider's span; the box takes what the call takes
  const id = `ctl-${scope ? `${scope}-` : ""}${path.replaceAll(".", "-")}`;
  const range = el("input", { id: `${id}-range`, type: "range", min: toSlider ? 0 : lo, max: toSlider ? 1000 : hi, step: toSlider ? 1 : (sliderStep ?? step), "aria-label": `${label} (slider)` });
  const box = el("input", { id, type: "number", min: Number.isFinite(f.lo) ? f.lo : null, max: Number.isFinite(f.hi) ? f.hi : null, step: "any", inputmode: "decimal", class: "num" });
  const msg = el("span", { class: "msg", role: "alert" });
  const offNote = el("p", { class: "note off" });
  const show = (v) => {
    const why = off?.(ctx.settings()) ?? null;
    range.disabled = box.disabled = why !== null;
    offNote.textContent = why ?? "";
    offNote.hidden = why === null;
    if (why !== null || v === undefined || v === null) {
      if (document.activeElement !== box) box.value = "";
      return;
    }
    range.value = toSlider ? toSlider(v) : v;
    if (document.activeElement !== box) box.value = tidy(v);
  };
  const sync = () => show(get(ctx.settings(), path));
  const fail = (why) => {
    box.setAttribute("aria-invalid", "true");
    msg.textContent = why;
  };
  const ok = () => {
    box.removeAttribute("aria-invalid");
    msg.textContent = "";
  };
  range.addEventListener("input", () => {
    let v = toSlider ? fromSlider(Number(range.value)) : Number(range.value);
    v = Number(v.toPrecision(12));
    ok();
    box.value = tidy(v);
    ctx.set(path, v, false);
  });
  range.addEventListener("change", () => ctx.set(path, get(ctx.settings(), path), true));
  box.addEventListener("input", () => {
    const raw = box.value.trim();
    const v = raw === "" ? NaN : Number(raw);
    const why = raw === "" ? `${label}: enter a number` : invalid(path, v) ?? ctx.check?.(path, v);
    if (why) return fail(why);
    ok();
    range.value = toSlider ? toSlider(v) : v;
    ctx.set(path, v, false);
  });
  box.addEventListener("change", () => {
    if (box.getAttribute("aria-invalid") !== "true") ctx.set(path, get(ctx.settings(), path), true);
  });
  box.addEventListener("blur", () => {
    if (box.getAttribute("aria-invalid") === "true") return;
    const v = get(ctx.settings(), path);
    box.value = v === undefined || v === null || off?.(ctx.settings()) ? "" : tidy(v);
  });
  const wrap = el("div", { class: "ctl", "data-path": path },
    el("label", { for: id, text: label }), range, box, msg, offNote, note ? el("p", { class: "note", text: note }) : null);
  wrap.sync = sync;
  wrap.fail = fail;
  sync();
  return wrap;
}

/** Arrow keys (and Home/End) move between the tabs of a tablist; Enter/Space are the buttons' own. */
export function tabKeys(list, onSelect) {
  list.addEventListener("keydown", (ev) => {
    const tabs = $$("[role=tab]", list);
    const i = tabs.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = (i + 1) % tabs.length;
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = (i - 1 + tabs.length) % tabs.length;
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = tabs.length - 1;
    if (j === null) return;
    ev.preventDefault();
    tabs[j].focus();
    onSelect(tabs[j].dataset.view);
  });
}

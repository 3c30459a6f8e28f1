// The workbench's settings: one plain object that the URL, undo/redo, the baseline,
// the exported JSON and an exported dataset's meta line all carry. Each section is
// what one memdomain call takes:
//   search            memdomain/cache search()'s options (a setting that does not apply to the
//                     composition is absent, as the cache would refuse it)
//   sleep             memdomain/cache sleep()'s options but `now` (the dataset's "as of") and onProgress
//   retention.policy  what scoreRetention / scoreRetentionMany take as `policy`
//   graph             Graph.pagerankScores' damping and maxIterations, labelPropagation's minCommunitySize
//
// The defaults are the cache's own (PRESETS, sleep's defaults, the core's constants: the worker
// hands them over at start): configure() must run before anything else here. Settings from
// outside the page (the URL, a pasted or imported file) go through normalize(), which asks the
// API itself (a `check` the worker gives it) about each value, so a value is refused exactly when
// the call would refuse it, with the call's own words.

/** The search arms, in the cache's order (memdomain/cache ARMS): the workbench's one list of them. */
export const ARMS = ["lexical", "vector", "salience", "lateral"];
export const SECTIONS = ["search", "sleep", "graph", "retention"];
let PRESETS = null;
/** search()'s own default limit (a query setting, not part of a preset): the cache's option schema's. */
let DEFAULT_LIMIT = null;
export let DEFAULTS = null;
/** Every numeric setting: the range the call takes (lo, hi, integer) and the slider's span (min, max). */
export let FIELDS = null;

/**
 * Take the cache's defaults: { presets (PRESETS), sleep (sleep()'s defaults, in the settings'
 * shape), graph ({ damping, maxIterations, minCommunitySize }), options (memdomain/cache's
 * CACHE_OPTIONS: the range of every search and sleep setting, and search()'s default limit) }.
 */
export function configure({ presets, sleep, graph, options }) {
  PRESETS = JSON.parse(JSON.stringify(presets));
  DEFAULT_LIMIT = options.search.limit.dflt;
  // the range the call takes, from its row ([lo, hi], integer); min and max are the slider's span, the page's own
  const range = (group, name, span = {}) => {
    const r = options[group][name];
    return { lo: r.lo ?? -Infinity, hi: r.hi ?? Infinity, ...(r.integer ? { integer: true } : {}), ...span };
  };
  DEFAULTS = Object.freeze({
    search: searchDefaults("default"),
    sleep: JSON.parse(JSON.stringify(sleep)),
    graph: { ...graph },
    retention: { policy: {} },
  });
  FIELDS = {
    "search.weights.lexical": range("weights", "lexical", { max: 5 }),
    "search.weights.vector": range("weights", "vector", { max: 5 }),
    "search.weights.salience": range("weights", "salience", { max: 5 }),
    "search.weights.lateral": range("weights", "lateral", { max: 5 }),
    "search.k": range("search", "k", { max: 1000 }),
    "search.depth": range("search", "depth", { max: 1000 }),
    "search.seeds": range("search", "seeds", { max: 100 }),
    "search.lambda": range("search", "lambda"),
    "search.window": range("search", "window"),
    "search.duplicate": range("search", "duplicate"),
    "search.limit": range("search", "limit", { max: 100 }),
    // the core takes any number here; these are the ranges where PageRank and label propagation mean something
    "graph.damping": { lo: 0, hi: 0.99 },
    "graph.maxIterations": { lo: 1, hi: 1000, integer: true },
    "graph.minCommunitySize": { lo: 1, hi: 1000, integer: true },
    "sleep.floor": range("sleep", "floor", { min: 0.5 }),
    "sleep.perSourceK": range("sleep", "perSourceK", { max: 20 }),
    "sleep.cycleMs": range("sleep", "cycleMs", { min: 3_600_000, max: 7 * 86_400_000 }),
    "sleep.confidence.alpha": range("confidence", "alpha"),
    "sleep.confidence.floor": range("confidence", "floor"),
    "sleep.merge.threshold": range("merge", "threshold", { min: 0.8 }),
    "sleep.merge.maxPairs": range("merge", "maxPairs", { max: 300 }),
  };
}
export const presets = () => PRESETS;

/** Which search settings apply: k only to reciprocal-rank fusion; fusion, window and duplicate only to the default composition. */
export function applies(search, key) {
  if (key === "k") return search.preset === "memhtml" || search.fusion === "rrf";
  if (key === "fusion" || key === "window" || key === "duplicate") return search.preset !== "memhtml";
  return true;
}

/** Why a search setting does not apply (the cache's own reason), or null. */
export function notApplicable(search, key) {
  if (applies(search, key)) return null;
  if (key === "k") return 'k applies to fusion "rrf" only (fusion "score" adds the arms\' scores; the cache refuses k with it)';
  return `${key} applies to the default composition only (preset "memhtml" fuses reciprocal ranks and runs MMR over every candidate)`;
}

/** The search options in search()'s order, holding only what applies. */
export function canonicalSearch(s) {
  const out = { preset: s.preset };
  if (applies(s, "fusion")) out.fusion = s.fusion;
  out.weights = { ...s.weights };
  if (applies(s, "k")) out.k = s.k;
  out.depth = s.depth;
  out.lambda = s.lambda;
  out.seeds = s.seeds;
  if (applies(s, "window")) out.window = s.window;
  if (applies(s, "duplicate")) out.duplicate = s.duplicate;
  out.limit = s.limit;
  return out;
}

/** A preset's search settings (with `fusion` for the default composition), limit included. */
export function searchDefaults(preset = "default", fusion) {
  const P = PRESETS[preset];
  return canonicalSearch({ ...P, preset, fusion: fusion ?? P.fusion, weights: { ...P.weights }, limit: DEFAULT_LIMIT });
}

/**
 * `search` moved to another preset or fusion: the new composition's defaults for every
 * setting of the composition; the limit stays.
 */
export function switchComposition(search, preset, fusion) {
  const next = searchDefaults(preset, preset === search.preset ? fusion : undefined);
  if (preset === search.preset && preset !== "memhtml") {
    // same composition, other fusion: keep what the fusion does not change; k comes or goes
    return canonicalSearch({ ...search, fusion, k: search.k ?? next.k });
  }
  return { ...next, limit: search.limit };
}

const clone = (x) => JSON.parse(JSON.stringify(x));
const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
export const get = (o, path) => path.split(".").reduce((a, k) => (a == null ? undefined : a[k]), o);
export function set(o, path, v) {
  const ks = path.split(".");
  let a = o;
  for (const k of ks.slice(0, -1)) a = a[k] ??= {};
  a[ks.at(-1)] = v;
}

/** Why `v` is not a valid value for `path` (a sentence, in the call's words), or null: the boxes' check as they are typed in. */
export function invalid(path, v) {
  const f = FIELDS[path];
  if (!f) return `${path} is not a setting`;
  if (path === "search.duplicate" && v === null) return null; // null: no near-duplicate is skipped
  if (typeof v !== "number" || Number.isNaN(v)) return `${path} must be a number, got ${JSON.stringify(v)}`;
  if (!Number.isFinite(v)) return `${path} must be a finite number, got ${v}`;
  if (f.integer && !Number.isInteger(v)) return `${path} must be an integer, got ${v}`;
  if (v < f.lo || v > f.hi) return `${path} must be in [${f.lo}, ${f.hi}], got ${v}`;
  return null;
}

/**
 * Settings from untrusted JSON (the URL, a pasted or imported file): { settings, problems }.
 * `check(section, value)` asks the API about one section's value (search()'s options, sleep()'s
 * options, a retention policy, the graph options) and resolves its error message or null. Each
 * value is checked on its own on top of the defaults, so every refused one is named (in the
 * API's words) and keeps its default, and every accepted one is used; nothing is dropped
 * without a word.
 */
export async function normalize(input, check) {
  const out = clone(DEFAULTS);
  const problems = [];
  if (input === undefined || input === null) return { settings: out, problems };
  if (!isObj(input)) return { settings: out, problems: [`settings must be an object, got ${JSON.stringify(input)?.slice(0, 60)}`] };
  for (const k of Object.keys(input)) {
    if (SECTIONS.includes(k) || k === "v") continue;
    problems.push(k === "merge"
      ? "merge is no longer a settings section: the merge settings are sleep()'s options (sleep.floor, sleep.perSourceK, sleep.merge.threshold, sleep.merge.maxPairs)"
      : `${k} is not a settings section (${SECTIONS.join(", ")})`);
  }
  if (input.search !== undefined) out.search = await normalizeSearch(input.search, problems, check);
  if (input.sleep !== undefined) out.sleep = await normalizeSleep(input.sleep, problems, check);
  if (input.graph !== undefined) out.graph = await normalizeGraph(input.graph, problems, check);
  if (input.retention !== undefined) out.retention.policy = await normalizePolicy(input.retention, problems, check);
  return { settings: out, problems };
}

/** Each [path, value] of `o` down to the leaves of the given object-valued keys (weights.lexical, merge.threshold, ...). */
function units(o, nested) {
  const out = [];
  for (const [k, v] of Object.entries(o)) {
    if (nested.includes(k) && isObj(v) && Object.keys(v).length) for (const [k2, v2] of Object.entries(v)) out.push([`${k}.${k2}`, v2]);
    else out.push([k, v]);
  }
  return out;
}

async function normalizeSearch(input, problems, check) {
  const why = isObj(input) ? null : await check("search", input);
  if (why) {
    problems.push(why);
    return searchDefaults("default");
  }
  // the composition first (it decides what else applies), then every other value on top of it
  let base = { preset: "default" };
  if (input.preset !== undefined) {
    const w = await check("search", { preset: input.preset });
    if (w) problems.push(w);
    else base.preset = input.preset;
  }
  if (input.fusion !== undefined) {
    const w = await check("search", { ...base, fusion: input.fusion });
    if (w) problems.push(w);
    else base.fusion = input.fusion;
  }
  const accepted = { ...base };
  for (const [path, v] of units(input, ["weights"])) {
    if (path === "preset" || path === "fusion") continue;
    if (path === "text" || path === "vector" || path === "timings") {
      problems.push(`search.${path} is part of a query, not a setting`);
      continue;
    }
    const candidate = clone(base);
    set(candidate, path, v);
    const w = await check("search", candidate);
    if (w) problems.push(path === "rescale" ? `${w} (the page's old rescale: the cache normalises relevance before MMR itself)` : w);
    else set(accepted, path, v);
  }
  const d = searchDefaults(accepted.preset, accepted.fusion);
  const out = canonicalSearch({ ...d, ...accepted, weights: { ...d.weights, ...accepted.weights } });
  const w = await check("search", out);
  if (w) {
    problems.push(`${w}; the search settings are the defaults`);
    return d;
  }
  return out;
}

async function normalizeSleep(input, problems, check) {
  const d = clone(DEFAULTS.sleep);
  const why = isObj(input) ? null : await check("sleep", input);
  if (why) {
    problems.push(why);
    return d;
  }
  const out = clone(d);
  for (const [path, v] of units(input, ["confidence", "merge"])) {
    if (path === "now" || path === "onProgress") {
      problems.push(`sleep.${path} is not a setting (the pass runs at the dataset's "as of" date)`);
      continue;
    }
    const candidate = clone(d);
    set(candidate, path, v);
    const w = await check("sleep", candidate);
    if (w) problems.push(w);
    else set(out, path, v);
  }
  const w = await check("sleep", out);
  if (w) {
    problems.push(`${w}; the sleep settings are the defaults`);
    return d;
  }
  return out;
}

async function normalizeGraph(input, problems, check) {
  const d = clone(DEFAULTS.graph);
  if (!isObj(input)) {
    problems.push(`graph must be an object, got ${JSON.stringify(input)?.slice(0, 60)}`);
    return d;
  }
  const out = clone(d);
  for (const [k, v] of Object.entries(input)) {
    if (!(k in d)) {
      problems.push(`graph.${k} is not a graph setting (${Object.keys(d).join(", ")})`);
      continue;
    }
    const w = (await check("graph", { ...d, [k]: v })) ?? invalid(`graph.${k}`, v);
    if (w) problems.push(w);
    else out[k] = v;
  }
  return out;
}

async function normalizePolicy(input, problems, check) {
  if (!isObj(input)) {
    problems.push(`retention must be an object ({ policy }), got ${JSON.stringify(input)?.slice(0, 60)}`);
    return {};
  }
  for (const k of Object.keys(input)) if (k !== "policy") problems.push(`retention.${k} is not a setting (retention holds policy)`);
  const p = input.policy;
  if (p === undefined) return {};
  const why = isObj(p) ? null : await check("retention", p);
  if (why) {
    problems.push(why);
    return {};
  }
  const out = {};
  for (const [path, v] of units(p, ["weights", "halfLives"])) {
    const candidate = {};
    set(candidate, path, v);
    const w = await check("retention", candidate);
    if (w) problems.push(w);
    else set(out, path, v);
  }
  const w = await check("retention", out);
  if (w) {
    problems.push(`${w}; the retention policy is the design's`);
    return {};
  }
  return out;
}

function diffPlain(s, d) {
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "policy") { if (Object.keys(v).length) out.policy = v; continue; }
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const sub = diffPlain(v, d?.[k] ?? {});
      if (Object.keys(sub).length) out[k] = sub;
    } else if (v !== d?.[k]) out[k] = v;
  }
  return out;
}

/**
 * What differs from the defaults (for a short URL), as a nested object. The search section
 * is compared with its own preset's defaults, and names its preset and fusion when they are
 * not the default ones.
 */
export function diff(s) {
  const { search, ...rest } = s;
  const out = diffPlain(rest, DEFAULTS);
  const sd = diffPlain(search, searchDefaults(search.preset, search.fusion));
  if (search.preset !== "default") sd.preset = search.preset;
  if (search.fusion !== undefined && search.fusion !== PRESETS[search.preset].fusion) sd.fusion = search.fusion;
  if (Object.keys(sd).length) out.search = sd;
  return out;
}

/** The URL hash for a view, a query, the settings and an optional baseline. */
export function toHash({ view, query, settings, baseline }) {
  const p = new URLSearchParams();
  if (view) p.set("view", view);
  if (query !== null && query !== undefined) p.set("q", query);
  const s = diff(settings);
  if (Object.keys(s).length) p.set("s", JSON.stringify(s));
  if (baseline) p.set("b", JSON.stringify(diff(baseline)));
  return `#${p.toString()}`;
}

/**
 * Read a URL hash: { view, query, settings, baseline (the raw JSON, for normalize()), problems }
 * (a part that is not JSON is a problem).
 */
export function fromHash(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const problems = [];
  const parse = (key) => {
    if (!p.has(key)) return undefined;
    try {
      return JSON.parse(p.get(key));
    } catch (e) {
      problems.push(`the URL's ${key}= is not JSON (${e.message}); the defaults are used`);
      return undefined;
    }
  };
  return { view: p.get("view"), query: p.get("q"), settings: parse("s"), baseline: parse("b"), problems };
}

/** A compact number for display: 0.95 rather than 0.9500000000000001 (12 significant digits). */
export const tidy = (x) => (typeof x === "number" && Number.isFinite(x) ? String(Number(x.toPrecision(12))) : String(x));

// The workbench's settings: one plain object that the URL, undo/redo, the baseline
// and the exported JSON all carry. `search` is exactly the options memdomain/cache's
// search() takes (a setting that does not apply to the composition is absent, as the
// cache would refuse it), `retention.policy` exactly what scoreRetention /
// scoreRetentionMany take, `graph` the PageRank and label-propagation options, `merge`
// the neighbour floor and the mergeOutcomes options.
//
// The search defaults are the cache's own PRESETS (memdomain/cache exports them; the
// worker hands them over at start): configure() must run before anything else here.

export const ARMS = ["lexical", "vector", "salience", "lateral"];
export const PRESET_NAMES = ["default", "memhtml"];
export const FUSIONS = ["score", "rrf"];
/** search()'s own default limit (a query setting, not part of a preset). */
const DEFAULT_LIMIT = 10;

let PRESETS = null;
export let DEFAULTS = null;

/** Take the cache's PRESETS ({ default, memhtml }) as the search defaults. */
export function configure(presets) {
  PRESETS = JSON.parse(JSON.stringify(presets));
  DEFAULTS = Object.freeze({
    search: searchDefaults("default"),
    graph: { damping: 0.85, maxIterations: 100, minCommunitySize: 3 },
    merge: { floor: 0.85, threshold: 0.92, maxPairs: 100 },
    retention: { policy: {} },
  });
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

// Every numeric setting: where it lives and what it may be.
export const FIELDS = {
  "search.weights.lexical": { lo: 0, hi: 5 },
  "search.weights.vector": { lo: 0, hi: 5 },
  "search.weights.salience": { lo: 0, hi: 5 },
  "search.weights.lateral": { lo: 0, hi: 5 },
  "search.k": { lo: 0, hi: 1000 },
  "search.depth": { lo: 1, hi: 1000, integer: true },
  "search.seeds": { lo: 0, hi: 100, integer: true },
  "search.lambda": { lo: 0, hi: 1 },
  "search.window": { lo: 1, hi: 1000, integer: true },
  "search.duplicate": { lo: -1, hi: 1 },
  "search.limit": { lo: 1, hi: 100, integer: true },
  "graph.damping": { lo: 0, hi: 0.99 },
  "graph.maxIterations": { lo: 1, hi: 1000, integer: true },
  "graph.minCommunitySize": { lo: 1, hi: 1000, integer: true },
  "merge.floor": { lo: 0, hi: 1 },
  "merge.threshold": { lo: 0, hi: 1 },
  "merge.maxPairs": { lo: 0, hi: 10000, integer: true },
};
const SEARCH_KEYS = ["preset", "fusion", "weights", "k", "depth", "lambda", "seeds", "window", "duplicate", "limit"];

const clone = (x) => JSON.parse(JSON.stringify(x));
export const get = (o, path) => path.split(".").reduce((a, k) => (a == null ? undefined : a[k]), o);
export function set(o, path, v) {
  const ks = path.split(".");
  let a = o;
  for (const k of ks.slice(0, -1)) a = a[k];
  a[ks.at(-1)] = v;
}

/** Why `v` is not a valid value for `path` (a sentence), or null. */
export function invalid(path, v) {
  const f = FIELDS[path];
  if (!f) return `${path} is not a setting`;
  if (path === "search.duplicate" && v === null) return null; // null: no near-duplicate is skipped
  if (typeof v !== "number" || !Number.isFinite(v)) return `${path} must be a number, got ${JSON.stringify(v)}`;
  if (v < f.lo || v > f.hi) return `${path} must be in [${f.lo}, ${f.hi}], got ${v}`;
  if (f.integer && !Number.isInteger(v)) return `${path} must be a whole number, got ${v}`;
  return null;
}

/** The search section from untrusted JSON: { search, problems }. */
function normalizeSearch(input, problems) {
  if (input === undefined) return searchDefaults("default");
  if (!input || typeof input !== "object" || Array.isArray(input)) {
    problems.push("search must be an object");
    return searchDefaults("default");
  }
  let preset = input.preset ?? "default";
  if (!PRESET_NAMES.includes(preset)) {
    problems.push(`search.preset must be "default" or "memhtml", got ${JSON.stringify(preset)}`);
    preset = "default";
  }
  let fusion = input.fusion;
  if (fusion !== undefined && preset !== "memhtml" && !FUSIONS.includes(fusion)) {
    problems.push(`search.fusion must be "score" or "rrf", got ${JSON.stringify(fusion)}`);
    fusion = undefined;
  }
  const out = searchDefaults(preset, preset === "memhtml" ? undefined : fusion);
  for (const k of Object.keys(input)) {
    if (k === "rescale") problems.push("search.rescale is no longer a setting: memdomain/cache normalises relevance before MMR itself");
    else if (!SEARCH_KEYS.includes(k)) problems.push(`search.${k} is not a search() option (options: ${SEARCH_KEYS.join(", ")})`);
    else if (k !== "preset" && k !== "weights" && input[k] !== undefined && !applies(out, k)) problems.push(`search.${notApplicable(out, k)}; ignored`);
  }
  if (input.weights !== undefined) {
    if (!input.weights || typeof input.weights !== "object" || Array.isArray(input.weights)) problems.push("search.weights must be an object");
    else for (const k of Object.keys(input.weights)) if (!ARMS.includes(k)) problems.push(`search.weights.${k} is not an arm (arms: ${ARMS.join(", ")})`);
  }
  for (const path of Object.keys(FIELDS)) {
    if (!path.startsWith("search.")) continue;
    const key = path.split(".")[1];
    const v = get({ search: input }, path);
    if (v === undefined || !applies(out, key)) continue;
    const why = invalid(path, v);
    if (why) problems.push(why);
    else set({ search: out }, path, v);
  }
  return out;
}

/**
 * Settings from untrusted JSON (the URL, an imported file): every valid field is
 * used, every invalid one is reported and keeps its default. The retention policy is
 * checked structurally here and by the core (scoreRetentionMany) in the worker.
 */
export function normalize(input) {
  const out = clone(DEFAULTS);
  const problems = [];
  if (input === undefined || input === null) return { settings: out, problems };
  if (typeof input !== "object" || Array.isArray(input)) return { settings: out, problems: ["settings must be an object"] };
  out.search = normalizeSearch(input.search, problems);
  for (const path of Object.keys(FIELDS)) {
    if (path.startsWith("search.")) continue;
    const v = get(input, path);
    if (v === undefined) continue;
    const why = invalid(path, v);
    if (why) problems.push(why);
    else set(out, path, v);
  }
  const p = input.retention?.policy;
  if (p !== undefined) {
    if (p && typeof p === "object" && !Array.isArray(p)) out.retention.policy = clone(p);
    else problems.push("retention.policy must be an object");
  }
  for (const k of Object.keys(input)) if (!(k in DEFAULTS) && k !== "v") problems.push(`${k} is not a settings section (search, graph, merge, retention)`);
  return { settings: out, problems };
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

/** Parse a URL hash: { view, query, settings, baseline, problems } (settings need configure() first). */
export function fromHash(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const problems = [];
  const parse = (key) => {
    if (!p.has(key)) return undefined;
    try {
      return JSON.parse(p.get(key));
    } catch {
      problems.push(`the URL's ${key}= is not JSON; ignored`);
      return undefined;
    }
  };
  const s = normalize(parse("s"));
  problems.push(...s.problems.map((x) => `URL: ${x}`));
  let baseline = null;
  const b = parse("b");
  if (b !== undefined) {
    const n = normalize(b);
    baseline = n.settings;
    problems.push(...n.problems.map((x) => `URL baseline: ${x}`));
  }
  return { view: p.get("view"), query: p.get("q"), settings: s.settings, baseline, problems };
}

/** A compact number for display: 0.95 rather than 0.9500000000000001 (12 significant digits). */
export const tidy = (x) => (typeof x === "number" && Number.isFinite(x) ? String(Number(x.toPrecision(12))) : String(x));

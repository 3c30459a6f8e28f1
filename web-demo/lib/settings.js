// The workbench's settings: one plain object that the URL, undo/redo, the baseline
// and the exported JSON all carry. `search` is exactly memdomain/cache's search()
// options (plus `rescale`, the page's MMR option), `retention.policy` exactly what
// scoreRetention / scoreRetentionMany take, `graph` the PageRank and label-propagation
// options, `merge` the neighbour floor and the mergeOutcomes options.

export const DEFAULTS = Object.freeze({
  search: { weights: { lexical: 1, vector: 1, salience: 0.5, lateral: 0.5 }, k: 60, depth: 50, seeds: 5, lambda: 0.5, limit: 10, rescale: false },
  graph: { damping: 0.85, maxIterations: 100, minCommunitySize: 3 },
  merge: { floor: 0.85, threshold: 0.92, maxPairs: 100 },
  retention: { policy: {} },
});

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
  "search.limit": { lo: 1, hi: 100, integer: true },
  "graph.damping": { lo: 0, hi: 0.99 },
  "graph.maxIterations": { lo: 1, hi: 1000, integer: true },
  "graph.minCommunitySize": { lo: 1, hi: 1000, integer: true },
  "merge.floor": { lo: 0, hi: 1 },
  "merge.threshold": { lo: 0, hi: 1 },
  "merge.maxPairs": { lo: 0, hi: 10000, integer: true },
};

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
  if (typeof v !== "number" || !Number.isFinite(v)) return `${path} must be a number, got ${JSON.stringify(v)}`;
  if (v < f.lo || v > f.hi) return `${path} must be in [${f.lo}, ${f.hi}], got ${v}`;
  if (f.integer && !Number.isInteger(v)) return `${path} must be a whole number, got ${v}`;
  return null;
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
  for (const path of Object.keys(FIELDS)) {
    const v = get(input, path);
    if (v === undefined) continue;
    const why = invalid(path, v);
    if (why) problems.push(why);
    else set(out, path, v);
  }
  if (input.search?.rescale !== undefined) {
    if (typeof input.search.rescale === "boolean") out.search.rescale = input.search.rescale;
    else problems.push("search.rescale must be true or false");
  }
  const p = input.retention?.policy;
  if (p !== undefined) {
    if (p && typeof p === "object" && !Array.isArray(p)) out.retention.policy = clone(p);
    else problems.push("retention.policy must be an object");
  }
  for (const k of Object.keys(input)) if (!(k in DEFAULTS) && k !== "v") problems.push(`${k} is not a settings section (search, graph, merge, retention)`);
  return { settings: out, problems };
}

/** What differs from the defaults (for a short URL), as a nested object. */
export function diff(s, d = DEFAULTS) {
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "policy") { if (Object.keys(v).length) out.policy = v; continue; }
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const sub = diff(v, d?.[k] ?? {});
      if (Object.keys(sub).length) out[k] = sub;
    } else if (v !== d?.[k]) out[k] = v;
  }
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

/** Parse a URL hash: { view, query, settings, baseline, problems }. */
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

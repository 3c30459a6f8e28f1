// memdomain/cache's option schema (js/cache/schema.js) against what restates it: the .d.ts
// declarations (js/types/cache.d.ts: every option of a group is declared, with a type the row
// allows), the generated option tables of docs/CACHE.md, the workbench's ranges
// (web-demo/lib/settings.js reads them from the schema), the constants derived from it, and the
// checks themselves (every number row refuses a value past its range in the call's words).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  ARMS, CACHE_OPTIONS, DEFAULT_LIMITS, DEFAULT_SLEEP, EDGE_ORIGINS, MAX_DEPTH, MAX_LIMIT, MAX_PATHS_PAGE, MAX_PER_SOURCE_K, MAX_WINDOW,
  PRESETS, checkOption, openMemoryCache,
} from "../../js/cache/index.js";
import { DEFAULT_POLICY } from "../../js/cache/policy.js";
import { FIELD_NAMES, PUT_FIELDS } from "../../js/cache/records.js";
import { DOC, rewrite } from "../../tools/gen-cache-options.mjs";
import { FIELDS, configure } from "../../web-demo/lib/settings.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DTS = readFileSync(`${ROOT}js/types/cache.d.ts`, "utf8") + readFileSync(`${ROOT}js/types/retention.d.ts`, "utf8");

/** The members of an exported interface (and of those it extends): name -> TypeScript type text. */
function members(name) {
  const at = DTS.search(new RegExp(`export interface ${name}\\b`));
  if (at < 0) throw new Error(`no interface ${name} in the .d.ts`);
  const open = DTS.indexOf("{", at);
  const header = DTS.slice(at, open);
  let depth = 0, i = open;
  for (; i < DTS.length; i++) {
    if (DTS[i] === "{") depth++;
    else if (DTS[i] === "}" && --depth === 0) break;
  }
  const body = DTS.slice(open + 1, i).replace(/\/\*[\s\S]*?\*\//g, "");
  const out = {};
  // top-level members only: `  readonly name?: type;` at two spaces
  for (const m of body.matchAll(/^ {2}(?:readonly )?(\w+)\??: ([\s\S]*?);\s*$/gm)) out[m[1]] = m[2];
  const ext = /extends ([\w, ]+)/.exec(header);
  if (ext && !header.includes("<")) for (const base of ext[1].split(",").map((s) => s.trim())) if (/^\w+$/.test(base)) Object.assign(out, { ...members(base), ...out });
  return out;
}

/** Type aliases of the .d.ts, expanded once (PresetName -> "default" | "memhtml"). */
function expand(t) {
  return t.replace(/\b([A-Z]\w+)\b/g, (w) => {
    const m = [...DTS.matchAll(new RegExp(`export type ${w} = ([^;]+);`, "g"))].find((x) => !/import\(/.test(x[1]));
    return m ? m[1] : w;
  });
}

/** Whether a TypeScript type text admits what a row says the option is. */
function admits(row, ts) {
  const t = expand(ts);
  switch (row.type) {
    case "number": case "count": return /\bnumber\b/.test(t) && (!row.nullable || /\bnull\b/.test(t));
    case "boolean": return /\bboolean\b/.test(t);
    case "enum": {
      const lits = [...t.matchAll(/"([^"]+)"/g)].map((m) => m[1]).sort();
      return JSON.stringify(lits) === JSON.stringify([...row.values].sort()) && (!row.nullable || /\bnull\b/.test(t));
    }
    case "time": return /\bTime\b|\bDate\b/.test(t);
    case "string": return /\bstring\b/.test(t);
    case "vector": return /Float32Array/.test(t);
    case "progress": return /=>/.test(t);
    default: return true; // "object" and "other": the row names what it is; the name is compared
  }
}

// each group declared as an interface: [group, interfaces, the schema rows it must declare]
const DECLARED = [
  ["open", ["OpenOptions"]], ["limits", ["CacheLimits"]], ["search", ["SearchQuery"]], ["sleep", ["SleepOptions"]],
  ["calibrate", ["CalibrateOptions"]], ["tune", ["TuneOptions"]], ["policy", ["CachePolicy"]], ["put", ["PutOptions"]],
  ["link", ["Link"]], ["labelled", ["LabelledQuery"]],
];

describe("the option schema and the .d.ts", () => {
  test.each(DECLARED)("%s: the same options, of the types the rows allow", (group, [iface]) => {
    const ts = members(iface), rows = CACHE_OPTIONS[group];
    expect(Object.keys(ts).sort()).toEqual(Object.keys(rows).sort());
    const wrong = Object.entries(rows).filter(([k, r]) => !admits(r, ts[k])).map(([k, r]) => `${k}: ${r.type} vs ${ts[k]}`);
    expect(wrong).toEqual([]);
  });

  test("put() takes the memory rows marked put, and MemoryInput declares them", () => {
    const put = Object.entries(CACHE_OPTIONS.memory).filter(([, r]) => r.put).map(([k]) => k);
    expect(PUT_FIELDS).toEqual(put);
    const input = members("MemoryInput");
    expect(Object.keys(input).sort()).toEqual([...put].sort());
    expect(put.filter((k) => !admits(CACHE_OPTIONS.memory[k], input[k]))).toEqual([]);
    // what get() returns: every field, importJsonl's too (times as ms)
    expect(Object.keys(members("StoredMemory")).sort()).toEqual(Object.keys(CACHE_OPTIONS.memory).sort());
    expect(FIELD_NAMES).toEqual(Object.keys(CACHE_OPTIONS.memory));
  });

  test("the schedule declares its own rows, and the sleep options it stores are sleep's", () => {
    const ts = members("SleepSchedule");
    for (const k of Object.keys(CACHE_OPTIONS.schedule)) expect(ts[k]).toBeDefined();
    expect(admits(CACHE_OPTIONS.schedule.every, ts.every)).toBe(true);
  });
});

describe("one place for each range and default", () => {
  test("the derived constants are the rows'", () => {
    expect(MAX_LIMIT).toBe(CACHE_OPTIONS.search.limit.hi);
    expect(MAX_DEPTH).toBe(CACHE_OPTIONS.search.depth.hi);
    expect(MAX_WINDOW).toBe(CACHE_OPTIONS.search.window.hi);
    expect(MAX_PER_SOURCE_K).toBe(CACHE_OPTIONS.sleep.perSourceK.hi);
    expect(MAX_PATHS_PAGE).toBe(CACHE_OPTIONS.paths.limit.hi);
    expect(DEFAULT_SLEEP).toEqual({ floor: CACHE_OPTIONS.sleep.floor.dflt, perSourceK: CACHE_OPTIONS.sleep.perSourceK.dflt,
      cycleMs: CACHE_OPTIONS.sleep.cycleMs.dflt });
    expect(DEFAULT_LIMITS).toEqual(Object.fromEntries(Object.entries(CACHE_OPTIONS.limits).map(([k, r]) => [k, r.dflt])));
    expect(DEFAULT_POLICY.minAgeDays).toBe(CACHE_OPTIONS.policy.minAgeDays.dflt);
    expect(DEFAULT_POLICY.reprieve.importance).toBe(CACHE_OPTIONS.reprieve.importance.dflt);
    expect(ARMS).toEqual(Object.keys(CACHE_OPTIONS.weights));
    expect(Object.keys(PRESETS)).toEqual(CACHE_OPTIONS.search.preset.values);
    expect(EDGE_ORIGINS).toEqual(CACHE_OPTIONS.edge.origin.values);
    // every preset gives every row that takes the preset's default (memhtml: the rows it applies to)
    for (const [k, r] of Object.entries(CACHE_OPTIONS.search)) if (r.preset) expect(PRESETS.default[k]).toBeDefined();
  });

  test("docs/CACHE.md's option tables are the schema's (node tools/gen-cache-options.mjs)", () => {
    const page = readFileSync(DOC, "utf8");
    expect(rewrite(page)).toBe(page);
    expect(page).toMatch(/\| `limit` \| integer \| \[1, 10,000\] \| `10` \|/);
  });

  test("the workbench's ranges are the schema's", () => {
    configure({ presets: PRESETS, sleep: {}, graph: {}, options: CACHE_OPTIONS });
    const row = { search: CACHE_OPTIONS.search, "search.weights": CACHE_OPTIONS.weights, sleep: CACHE_OPTIONS.sleep,
      "sleep.confidence": CACHE_OPTIONS.confidence, "sleep.merge": CACHE_OPTIONS.merge };
    let compared = 0;
    for (const [path, f] of Object.entries(FIELDS)) {
      const i = path.lastIndexOf("."), group = row[path.slice(0, i)];
      if (!group) continue; // graph: the page's own ranges (the core takes any number)
      const r = group[path.slice(i + 1)];
      expect({ path, lo: f.lo, hi: f.hi, integer: f.integer === true })
        .toEqual({ path, lo: r.lo ?? -Infinity, hi: r.hi ?? Infinity, integer: r.integer === true });
      compared++;
    }
    expect(compared).toBe(18);
  });
});

describe("the checks come from the rows", () => {
  const numberRows = Object.entries(CACHE_OPTIONS).flatMap(([g, rows]) => Object.entries(rows)
    .filter(([, r]) => r.type === "number" && Number.isFinite(r.hi)).map(([k, r]) => [`${g}.${k}`, r]));

  test.each(numberRows)("%s refuses a value past its range and a string", (name, r) => {
    expect(() => checkOption("fn", name, r, r.hi * 2 + 1)).toThrow(new RangeError(`fn: ${name} must be in [${r.lo}, ${r.hi}], got ${r.hi * 2 + 1}`));
    expect(() => checkOption("fn", name, r, "1")).toThrow(TypeError);
    expect(checkOption("fn", name, r, r.hi)).toBe(r.hi);
    if (r.integer && r.hi > r.lo + 1 && Math.abs(r.lo) < 2 ** 50) expect(() => checkOption("fn", name, r, r.lo + 0.5)).toThrow(/must be an integer/);
  });

  test("every enum row takes its values and names them when refusing another", () => {
    for (const [g, rows] of Object.entries(CACHE_OPTIONS)) {
      for (const [k, r] of Object.entries(rows)) {
        if (r.type !== "enum") continue;
        for (const v of r.values) expect(checkOption("fn", k, r, v)).toBe(v);
        expect(() => checkOption("fn", `${g}.${k}`, r, "nope")).toThrow(new RegExp(`fn: ${g}\\.${k} must be .*"${r.values.at(-1)}".*, got "nope"`));
      }
    }
  });

  test("the methods refuse in the schema's words", async () => {
    const cache = await openMemoryCache();
    try {
      await cache.put([{ path: "a", gist: "alpha beta", body: "", type: "semantic", createdAt: 1 }]);
      await expect(cache.search({ text: "alpha", limit: MAX_LIMIT + 1 })).rejects.toThrow(`search: query.limit must be in [1, ${MAX_LIMIT}], got ${MAX_LIMIT + 1}`);
      await expect(cache.search({ text: "alpha", depth: 0 })).rejects.toThrow("search: query.depth must be in [1, 10000], got 0");
      await expect(cache.search({ text: "alpha", bogus: 1 })).rejects.toThrow(/search: query\.bogus is not a known option \(known: text, vector, limit/);
      await expect(cache.sleep({ now: 1, perSourceK: 0 })).rejects.toThrow(`sleep: options.perSourceK must be in [1, ${MAX_PER_SOURCE_K}], got 0`);
      await expect(cache.sleep({ now: 1, merge: { maxPairs: -1 } })).rejects.toThrow("sleep: options.merge.maxPairs must be in [0, Infinity], got -1");
      await expect(cache.paths({ which: "some" })).rejects.toThrow('paths: options.which must be "live", "archived" or "all", got "some"');
      await expect(cache.count({ live: 1 })).rejects.toThrow("count: options.live must be a boolean, got 1");
      await expect(cache.reinforce(["a"], { now: 1, cooldownSeconds: -1 })).rejects.toThrow("reinforce: options.cooldownSeconds must be in [0, Infinity], got -1");
      await expect(cache.calibrate({ samples: 0 })).rejects.toThrow("calibrate: options.samples must be in [1, 100000], got 0");
      await expect(cache.importJsonl(`${JSON.stringify({ edge: { src: "a", dst: "a", type: "t", strength: 1, origin: null } })}\n`))
        .rejects.toThrow('importJsonl: text line 1 .edge.origin must be "link", "sleep", "merge" or "conflict", got null');
      await expect(cache.search({ text: "alpha", weights: { lexical: undefined } })).rejects.toThrow("search: query.weights.lexical must be a number, got undefined");
      expect(await cache.paths({})).toEqual({ paths: ["a"], next: null }); // defaults: limit 1000, which "live"
    } finally {
      await cache.close();
    }
    await expect(openMemoryCache({ limits: { path: 0 } })).rejects.toThrow("openMemoryCache: options.limits.path must be in [1, Infinity], got 0");
    // a limit given must hold a value (strict): undefined and null are refused, not the default
    await expect(openMemoryCache({ limits: { path: undefined } })).rejects.toThrow("openMemoryCache: options.limits.path must be a number, got undefined");
    await expect(openMemoryCache({ limits: { gist: null } })).rejects.toThrow("openMemoryCache: options.limits.gist must be a number, got null");
    await expect(openMemoryCache({ onExternalChange: "x" })).rejects.toThrow('openMemoryCache: options.onExternalChange must be "resync" or "error", got "x"');
  });
});

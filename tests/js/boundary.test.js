// The signature table (wasm/boundary.def) is the one statement of how every
// export crosses: this holds it against the C definitions (arity and kinds),
// against both builds' actual exports (a wasm function's .length is its
// parameter count), against the test build, and against every call the glue
// makes (js/src/*.js may call only what the table lists, test rows never).
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { cDefinitions, resultMatches, table } from "../../tools/boundary.mjs";
import { ROOT } from "./golden/runner.js";

const rows = table();
const byName = new Map(rows.map((r) => [r.name, r]));
const defs = cDefinitions();
const exportsOf = (file) => WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(`${ROOT}build/${file}`)))
  .filter((e) => e.kind === "function" && /^mdw?_/.test(e.name)).map((e) => e.name);

test("every row names a C definition with the same arguments and result", () => {
  expect(rows.length).toBeGreaterThan(50);
  for (const r of rows) {
    const d = defs.get(r.name);
    expect([r.name, d !== undefined]).toEqual([r.name, true]);
    expect([r.name, r.args.map((a) => a.type)]).toEqual([r.name, d.args]);
    expect([r.name, r.result, resultMatches(r, d.result)]).toEqual([r.name, r.result, true]);
  }
});

test("every MDW_EXPORT / MDW_HOT_EXPORT / MDW_TEST_EXPORT in wasm/ has its row, of its kind", () => {
  const marked = new Set();
  for (const f of readdirSync(`${ROOT}wasm`).filter((x) => x.endsWith(".c"))) {
    for (const m of readFileSync(`${ROOT}wasm/${f}`, "utf8").matchAll(/MDW_(TEST_|HOT_)?EXPORT\("([a-z0-9_]+)"\)/g)) {
      marked.add(m[2]);
      expect([m[2], byName.get(m[2])?.kind]).toEqual([m[2], m[1] === "TEST_" ? "test" : "export"]);
    }
  }
  // ...and every mdw_ row is marked in some wasm/*.c (a row with no definition there is not exported).
  for (const r of rows) if (r.name.startsWith("mdw_")) expect([r.name, marked.has(r.name)]).toEqual([r.name, true]);
});

test("the generated files (constants.js, boundary_gen.h, boundary_exports.mk, native_ops.h) are what tools/gen-boundary.mjs writes from the table", () => {
  const r = spawnSync(process.execPath, [`${ROOT}tools/gen-boundary.mjs`, "--check"], { encoding: "utf8" });
  expect([r.status, r.stderr]).toEqual([0, ""]);
});

test("each boundary function names only its own arguments (MDW_ARG_<function>_<argument>)", () => {
  let uses = 0;
  for (const f of readdirSync(`${ROOT}wasm`).filter((x) => x.endsWith(".c"))) {
    const src = readFileSync(`${ROOT}wasm/${f}`, "utf8");
    for (const m of src.matchAll(/^[a-z_0-9 *]+?\b(mdw_[a-z0-9_]+)\([^)]*\)\s*\{([\s\S]*?)^\}/gm)) {
      const id = m[1].replace(/^mdw_/, "");
      for (const a of m[2].matchAll(/\bMDW_ARG_([a-z0-9_]+)/g)) {
        uses++;
        const arg = a[1].startsWith(`${id}_`) ? a[1].slice(id.length + 1) : null;
        expect([m[1], a[0], byName.get(m[1])?.args.some((x) => x.name === arg)]).toEqual([m[1], a[0], true]);
      }
    }
  }
  expect(uses).toBeGreaterThan(10);
});

test("out slots fit the glue's slots block (16 u32), and the glue's shared readers agree with every row they read", async () => {
  for (const r of rows) for (const a of r.args) if (a.slots) expect([r.name, a.slots.length <= 16]).toEqual([r.name, true]);
  const c = await import("../../js/src/constants.js");
  // neighbors.js's topRows reads both rows' len through one constant.
  expect(c.OUT_ROWS_TOP_COSINE_LEN).toBe(c.OUT_TOP_COSINE_ROWS_F32_LEN);
  // A layout's first array starts the block (the glue reads it at the block's address).
  for (const [name, fields] of rows.layouts) expect([name, c[`AT_${name.toUpperCase()}_${fields[0].name.toUpperCase()}`]]).toEqual([name, 0]);
});

for (const [file, withTests] of [["memdomain.wasm", false], ["memdomain.emcc.wasm", false], ["memdomain.test.wasm", true],
  ["memdomain.emcc.test.wasm", true]]) {
  test(`${file} exports exactly the table's ${withTests ? "export and test" : "export"} rows, with their arity`, () => {
    if (!existsSync(`${ROOT}build/${file}`)) throw new Error(`build/${file} is missing: make wasm`);
    const want = rows.filter((r) => r.kind === "export" || withTests).map((r) => r.name).sort();
    expect(exportsOf(file).sort()).toEqual(want);
    const inst = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(`${ROOT}build/${file}`)),
      { env: { emscripten_notify_memory_growth() {} } });
    // wasm32 passes every argument as one value: .length is the row's argument count.
    for (const name of want) expect([name, inst.exports[name].length]).toEqual([name, byName.get(name).args.length]);
  });
}

/** The number of arguments of the call whose "(" is at src[open] (top-level commas; strings, templates, comments skipped). */
function argCount(src, open) {
  let depth = 0, n = 0, any = false;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === "/" && src[i + 1] === "/") { i = src.indexOf("\n", i); continue; }
    if (c === "/" && src[i + 1] === "*") { i = src.indexOf("*/", i) + 1; continue; }
    if (c === '"' || c === "'" || c === "`") { // a template's ${...} holds no top-level comma of this call
      for (i++; src[i] !== c; i++) if (src[i] === "\\") i++;
      any = true;
      continue;
    }
    if ("([{".includes(c)) { if (depth++ === 0) continue; }
    else if (")]}".includes(c)) { if (--depth === 0) return any ? n + 1 : 0; }
    else if (c === "," && depth === 1) { n++; continue; }
    if (depth >= 1 && !/\s/.test(c)) any = true;
  }
  throw new Error("unbalanced call");
}

// The glue's second calling style: a hot path or a scalar calls its export
// directly (exportsOf().md_rrf_score(...), ex.mdw_cosine(p, n, q, n)); each such
// call must name an export row and pass the row's argument count.
test("every direct call in the glue names an export row (never a test row) with the row's argument count", () => {
  let sites = 0;
  for (const dir of [`${ROOT}js/src/`, `${ROOT}js/cache/`]) for (const f of readdirSync(dir).filter((x) => x.endsWith(".js"))) {
    const src = readFileSync(dir + f, "utf8");
    for (const m of src.matchAll(/\.(mdw?_[a-z0-9_]+)\(/g)) {
      sites++;
      const row = byName.get(m[1]);
      expect([f, m[1], row?.kind]).toEqual([f, m[1], "export"]);
      expect([f, m[1], argCount(src, m.index + m[0].length - 1)]).toEqual([f, m[1], row.args.length]);
    }
    // The finalizer calls ex[free](ptr): one argument.
    for (const m of src.matchAll(/\bfree: "(mdw?_[a-z0-9_]+)"/g)) expect([f, m[1], byName.get(m[1])?.args.length]).toEqual([f, m[1], 1]);
  }
  expect(sites).toBeGreaterThan(40);
});

test("region rows: the glue adds every term of an offset it uses; records fit the 256-byte scratch block", async () => {
  const c = await import("../../js/src/constants.js");
  const up = (s) => s.toUpperCase();
  const glue = [`${ROOT}js/src/`].flatMap((d) => readdirSync(d).filter((x) => x.endsWith(".js") && x !== "constants.js")
    .map((f) => [f, readFileSync(d + f, "utf8").replace(/^import [^;]*;/gm, "")])); // a name imported is not yet used
  const uses = (src, name) => new RegExp(`\\b${name}\\b`).test(src);
  expect(rows.regions.size).toBeGreaterThan(5);
  for (const [name, fields] of rows.regions) {
    // Each field's terms (and the size's): AT_<R>_<F> and AT_<R>_<F>_<COUNT>, as generated.
    const counts = [...new Set(fields.map((x) => x.count).filter((x) => typeof x === "string"))];
    const groups = [...fields.map((x) => `AT_${up(name)}_${up(x.name)}`), `SIZE_${up(name)}`]
      .map((base) => [base, ...counts.map((k) => `${base}_${up(k)}`)].filter((n) => n in c));
    for (const g of groups) for (const [f, src] of glue) {
      if (g.some((n) => uses(src, n))) expect([f, g.filter((n) => !uses(src, n))]).toEqual([f, []]);
    }
    // The first array starts the region (the glue reads it at the region's address).
    expect([name, c[`AT_${up(name)}_${up(fields[0].name)}`]]).toEqual([name, 0]);
    if (counts.length === 0) expect([name, c[`SIZE_${up(name)}`] <= 256]).toEqual([name, true]);
  }
  // scoreRetention with a policy puts the scored record right after the policy record.
  expect(c.SIZE_RETENTION_POLICY + c.SIZE_SCORED).toBeLessThanOrEqual(256);
});

test("every call() the glue makes passes the argument kinds its row states (checked over the golden cases)", async () => {
  const md = await import("../../js/index.js");
  const { checkCalls } = await import("../../js/src/core.js");
  const { SIGNATURES } = await import("../../js/src/constants.js");
  const { IMPLEMENTED, loadCases, runCase } = await import("./golden/runner.js");
  md.initSync(readFileSync(`${ROOT}build/memdomain.wasm`));
  const seen = new Set(), wrong = [];
  checkCalls((name, kinds) => {
    seen.add(name);
    if (SIGNATURES[name] !== kinds) wrong.push(`${name}: the glue passed (${kinds}), the table says (${SIGNATURES[name]})`);
  });
  try {
    for (const m of IMPLEMENTED) for (const c of loadCases(m)) runCase(md, c);
    // The batch scorer is not in the reference's golden files: both of its rows here.
    const cols = { memoryType: ["episodic", "note"], ageDays: [1, 40], accessCount: [3, 0], confidence: [0.9, 0.4],
      graphRank: [0.1, 0], maxGraphRank: [0.2, 0.2], bridgeCount: [1, 0], reinforcementCount: [2, 0],
      wordCount: [120, 8], contradictionCount: [0, 1] };
    md.scoreRetentionMany(cols, { signals: true });
    md.scoreRetentionMany(cols, { policy: { halfLives: { note: 5 }, keepThreshold: 0.6 } });
    // Batch forms beyond the reference (no golden files either).
    md.frameKeysOf(["the capital of india is delhi"]);
    md.applyMmrPacked([0.9, 0.5], new Float64Array([1, 0, 0.6, 0.8]), 2);
    const m = new Float32Array([1, 0, 0.6, 0.8]), q = new Float32Array([1, 0]), o = { floor: -1, perSourceK: 1, limit: 5 };
    md.topNeighborPairsPacked(m, ["a", "b"], o);
    md.mergeNeighborTiles(["a", "b"], [md.neighborTile(m, ["a", "b"], 0, 2, o)], o);
    md.cosineRows(q, m);
    md.topCosineRows(q, m, 1);
    const lex = md.lexicalIndex([{ doc: 1, key: "a", len: 2, terms: Uint32Array.of(3), gist: Uint32Array.of(1), body: Uint32Array.of(0) }]);
    lex.put(2, "b", 1, Uint32Array.of(3), Uint32Array.of(0), Uint32Array.of(1));
    lex.top(Uint32Array.of(3), 2, { idf: Float64Array.of(1) });
    lex.top(Uint32Array.of(3), 2);
    lex.free();
    const resident = md.residentRows(m, 2);
    resident.cosineRows(q);
    resident.topCosineRows(q, 1);
    resident.free();
  } finally {
    checkCalls(null);
  }
  expect(wrong).toEqual([]);
  // Every export the glue reaches through call() ran at least once.
  const dir = `${ROOT}js/src/`;
  const sites = new Set();
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".js")))
    for (const m of readFileSync(dir + f, "utf8").matchAll(/\bcall\(fn, (?:[a-z]+ \? )?"(mdw?_[a-z0-9_]+)"(?: : "(mdw?_[a-z0-9_]+)")?/g))
      for (const n of [m[1], m[2]]) if (n) sites.add(n);
  expect(sites.size).toBeGreaterThan(8);
  expect([...sites].filter((n) => !seen.has(n))).toEqual([]);
});

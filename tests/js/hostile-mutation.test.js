// Hostile input one step away from valid: every golden case of every module
// (and the batch forms, the Graph handle's methods and the resident rows'
// methods) is called again with ONE value somewhere in its arguments replaced
// by a hostile one (wrong type, NaN/Infinity/negative/fractional/huge numbers,
// lone surrogates, throwing getters, detached or shared buffers, sparse
// arrays, ...). Random top-level junk (hostile.test.js) is rejected at the
// first check; these values get past the outer checks and reach the inner
// ones and the C core. Each call must return or throw a TypeError/RangeError
// whose message starts with the function's name (or let the caller's own
// exception through); the instance must answer every golden function
// correctly afterwards.
import fc from "fast-check";
import * as md from "../../js/index.js";
import { createNeighborPool, tileBounds, topNeighborPairsParallel } from "../../js/src/workers.js";
import { wasmBytes } from "./build.js";
import { CallerError, detached } from "./hostile-values.js";
import { decode } from "./golden/codec.js";
import { IMPLEMENTED, loadCases, runCase } from "./golden/runner.js";

const ex = md.initSync(wasmBytes());

const getterThrows = (base) => {
  const o = { ...base };
  const k = Object.keys(o)[0] ?? "x";
  Object.defineProperty(o, k, { get() { throw new CallerError("getter"); }, enumerable: true });
  return o;
};
const HOSTILE = [
  () => NaN, () => Infinity, () => -Infinity, () => -0, () => -1, () => 0.5, () => 3.7, () => 2 ** 31,
  () => 2 ** 32, () => 2 ** 32 + 1, () => 2 ** 53 + 2, () => 1e308, () => -1e-320, () => Number.MAX_SAFE_INTEGER,
  () => "\uD800", () => "a\uDC00b", () => "", () => "x".repeat(300), () => "\u0000", () => "12", () => null,
  () => undefined, () => true, () => ({}), () => [], () => [[]], () => [NaN], () => Symbol("s"), () => 10n,
  () => new Float32Array(0), () => new Float32Array([NaN, Infinity]), () => new Float64Array(3),
  () => new Float32Array(new SharedArrayBuffer(16)).fill(0.5), detached, () => new Uint8Array(3),
  () => { const a = [1, 2]; a[6] = 3; return a; }, () => new Map([["a", NaN]]), () => new Map([[1, 2]]),
  () => new Set(["a"]), () => new Date(NaN), () => new Date(8.64e15), () => Object.create(null),
  () => ({ length: 2 ** 32 - 1 }), () => new Array(5), () => new Array(2 ** 31), () => new Array(2 ** 32 - 1),
  () => function f() {},
  () => new Proxy([1, 2], { get(t, k) { if (k === "length") return 2; throw new CallerError("proxy"); } }),
];

// Every place a value sits inside `v` (arrays, plain objects, map values,
// typed-array elements), as a path of keys; [] is the value itself.
function paths(v, at = [], out = [], depth = 0) {
  out.push(at);
  if (depth > 4 || out.length > 400) return out;
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out, depth + 1));
  else if (v instanceof Map) [...v.keys()].forEach((k, i) => paths(v.get(k), [...at, { map: i }], out, depth + 1));
  else if (ArrayBuffer.isView(v) && !(v instanceof DataView)) for (let i = 0; i < Math.min(v.length, 4); i++) out.push([...at, i]);
  else if (v && typeof v === "object" && !(v instanceof Date)) for (const k of Object.keys(v)) paths(v[k], [...at, k], out, depth + 1);
  return out;
}

// A copy of `v` with the value at `path` replaced by `h` (or, at random, the
// containing object gets a throwing getter / the array grows a hole).
function replaced(v, path, h) {
  if (path.length === 0) return h;
  const [k, ...rest] = path;
  if (Array.isArray(v)) { const c = v.slice(); c[k] = replaced(v[k], rest, h); return c; }
  if (v instanceof Map) {
    const e = [...v.entries()];
    e[k.map] = [e[k.map][0], replaced(e[k.map][1], rest, h)];
    return new Map(e);
  }
  if (ArrayBuffer.isView(v)) {
    const c = v.slice();
    c[k] = typeof h === "number" ? h : NaN;
    return rest.length ? c : c;
  }
  return { ...v, [k]: replaced(v[k], rest, h) };
}

const byFn = new Map();
for (const m of IMPLEMENTED) for (const c of loadCases(m)) byFn.set(c.fn, [...(byFn.get(c.fn) ?? []), c]);
const sanity = [...byFn.values()].map((list) => list[0]);

function assertHealthy() {
  for (const c of sanity) {
    const why = runCase(md, c);
    if (why) throw new Error(`instance poisoned: ${c.fn}: ${why}`);
  }
}

function expectTyped(name, call) {
  try {
    const r = call();
    if (r && typeof r === "object" && typeof r.free === "function") r.free();
  } catch (e) {
    if (e instanceof CallerError) return;
    if (!(e instanceof TypeError || e instanceof RangeError)) throw new Error(`${name} threw ${e?.name}: ${e?.message}`);
    if (!e.message.startsWith(`${name}: `) && !e.message.startsWith(`${name}(`) && !e.message.startsWith(`${name}.`))
      throw new Error(`${name}: message does not name the function: ${e.message}`);
  }
}

const mutation = (args) => {
  const all = paths(args).filter((p) => p.length > 0);
  return fc.tuple(fc.nat(all.length - 1), fc.nat(HOSTILE.length - 1), fc.nat(2)).map(([i, j, how]) => {
    const p = all[i];
    if (how === 1 && p.length > 1) { // the containing object's first property throws
      const parent = p.slice(0, -1);
      let o = args;
      for (const k of parent) o = k?.map !== undefined ? [...o.values()][k.map] : o[k];
      if (o && typeof o === "object" && !Array.isArray(o) && !(o instanceof Map) && !ArrayBuffer.isView(o))
        return replaced(args, parent, getterThrows(o));
    }
    return replaced(args, p, HOSTILE[j]());
  });
};

// A retention policy with every field (weights and half-lives for a type of its own too).
const retentionPolicy = () => ({
  weights: { episodic: { ...md.DEFAULT_WEIGHTS }, note: { ...md.WEIGHT_PROFILES.arc } }, defaultWeights: { ...md.DEFAULT_WEIGHTS },
  halfLives: { arc: 5, note: null }, defaultHalfLife: 12, keepThreshold: 0.6, evictThreshold: 0.2,
});

// Batch forms built from valid inputs of the golden cases' shapes.
const rnd32 = (n) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 1.7 + 0.3));
const keys5 = ["a", "b", "c", "d", "e"];
const extra = {
  topNeighborPairsPacked: [[rnd32(15), keys5, { floor: 0.1, perSourceK: 2, limit: 10 }]],
  neighborTile: [[rnd32(15), keys5, 1, 4, { floor: 0.1, perSourceK: 2, limit: 10 }]],
  cosineRows: [[rnd32(3), rnd32(15)]],
  topCosineRows: [[rnd32(3), rnd32(15), 2]],
  residentRows: [[rnd32(15), 3]],
  lexicalIndex: [[[{ doc: 1, key: "a", len: 4, terms: Uint32Array.of(1, 2), gist: Uint32Array.of(1, 0), body: Uint32Array.of(0, 2) },
    { doc: 7, key: "b/é", len: 2, terms: Uint32Array.of(2), gist: Uint32Array.of(0), body: Uint32Array.of(1) }]]],
  applyMmrPacked: [[[0.9, 0.8, 0.5], new Float64Array([1, 0, 1, 0.1, 0, 1]), 2, 0.5]],
  mmrReorders: [[0.5, 3], [1, 3], [0.5, 1]],
  frameKeysOf: [[["The capital of France is Paris.", "x", "Alice's favourite colour is blue"]]],
  scoreRetentionMany: [[{ memoryType: ["episodic", "procedural"], ageDays: new Float64Array([10, 400]),
    accessCount: [4, 0], confidence: [0.9, 0.5], graphRank: [0.02, 0], maxGraphRank: [0.08, 0.08],
    bridgeCount: [1, 0], reinforcementCount: [2, 0], wordCount: [120, 8], contradictionCount: [0, 3] }, { signals: true }],
    [{ memoryType: ["episodic", "note"], ageDays: [10, 400], accessCount: [4, 0], confidence: [0.9, 0.5],
      graphRank: [0.02, 0], maxGraphRank: [0.08, 0.08], bridgeCount: [1, 0], reinforcementCount: [2, 0],
      wordCount: [120, 8], contradictionCount: [0, 3] }, { policy: retentionPolicy() }]],
  scoreRetention: [[{ memoryType: "note", ageDays: 10, accessCount: 4, confidence: 0.9, graphRank: 0.02,
    maxGraphRank: 0.08, bridgeCount: 1, reinforcementCount: 2, wordCount: 120, contradictionCount: 0 }, retentionPolicy()]],
  mergeNeighborTiles: [[keys5, [md.neighborTile(rnd32(15), keys5, 0, 5, { floor: 0.1, perSourceK: 2, limit: 10 })],
    { floor: 0.1, perSourceK: 2, limit: 10 }]],
};

const graphArgs = byFn.get("pagerank").filter((c) => decode(c.args[0]).length >= 3).slice(0, 20).map((c) => c.args.slice(0, 2).map(decode));
extra.Graph = graphArgs;
extra.buildGraph = graphArgs;
const targets = new Map();
for (const [fn, list] of byFn) targets.set(fn, list.slice(0, 40).map((c) => c.args.map(decode)));
for (const [fn, list] of Object.entries(extra)) targets.set(fn, [...(targets.get(fn) ?? []), ...list]);
const exported = Object.entries(md).filter(([n, f]) => typeof f === "function" && !["init", "initSync", "isInitialized"].includes(n));

test("every exported function has valid argument lists to mutate", () => {
  expect(exported.map(([n]) => n).filter((n) => !targets.has(n))).toEqual([]);
});

test.each(exported.map(([name]) => [name]))("%s: one hostile value inside valid arguments", (name) => {
  const f = md[name];
  const lists = targets.get(name) ?? [];
  let runs = 0;
  for (const args of lists) {
    if (paths(args).length < 2) continue;
    fc.assert(fc.property(mutation(args), (bad) => { runs++; expectTyped(name, () => f(...bad)); }),
      { numRuns: Math.max(20, Math.ceil(600 / lists.length)), seed: 20261130 });
  }
  expect(runs).toBeGreaterThan(0);
  assertHealthy();
});

test("a huge sparse array in any argument position of any export is a typed error or an answer, at once", () => {
  let calls = 0;
  for (const [name] of exported) {
    const args = targets.get(name)[0];
    for (let i = 0; i < Math.max(1, args.length); i++)
      for (const len of [2 ** 31, 2 ** 32 - 1]) {
        const bad = args.slice();
        bad[i] = new Array(len);
        const t = performance.now();
        expectTyped(name, () => md[name](...bad));
        expect(performance.now() - t).toBeLessThan(2000);
        calls++;
      }
  }
  expect(calls).toBeGreaterThan(2 * exported.length);
  assertHealthy();
});

const graphCase = byFn.get("pagerank").find((c) => decode(c.args[0]).length >= 3);
const [gNodes, gEdges] = graphCase.args.map(decode);

test("Graph: hostile nodes/edges and hostile arguments to every method", () => {
  fc.assert(fc.property(mutation([gNodes, gEdges]), (bad) => expectTyped("Graph", () => new md.Graph(...bad))),
    { numRuns: 400, seed: 1 });
  const g = new md.Graph(gNodes, gEdges);
  const communities = g.labelPropagation();
  const methods = {
    pagerank: [[{ damping: 0.85, maxIterations: 50, tolerance: 1e-6, seeds: new Map([[gNodes[0], 1]]) }]],
    pagerankScores: [[{ damping: 0.85, maxIterations: 50, tolerance: 1e-6, seeds: new Map([[gNodes[0], 1]]) }]],
    labelPropagation: [[{ maxSweeps: 10, minCommunitySize: 2 }]],
    bridgeCounts: [[communities]],
  };
  for (const [m, lists] of Object.entries(methods))
    for (const args of lists)
      fc.assert(fc.property(mutation(args), (bad) => expectTyped("Graph", () => g[m](...bad))), { numRuns: 400, seed: 2 });
  const fresh = md.pagerank(gNodes, gEdges);
  expect([...g.pagerank().values()]).toEqual([...fresh.values()]);
  g.free();
  for (const m of Object.keys(methods)) expectTyped("Graph", () => g[m]());
  expect(() => g.pagerank()).toThrow(RangeError);
  assertHealthy();
});

test("residentRows: hostile arguments to its methods", () => {
  const rows = md.residentRows(rnd32(15), 3);
  fc.assert(fc.property(mutation([rnd32(3)]), (bad) => expectTyped("residentRows", () => rows.cosineRows(...bad))),
    { numRuns: 300, seed: 3 });
  fc.assert(fc.property(mutation([rnd32(3), 2]), (bad) => expectTyped("residentRows", () => rows.topCosineRows(...bad))),
    { numRuns: 300, seed: 4 });
  fc.assert(fc.property(mutation([new Uint32Array([0, 4, 2]), [0.9, 0.5, 0.7], 2, 0.5]),
    (bad) => expectTyped("residentRows", () => rows.applyMmr(...bad))), { numRuns: 300, seed: 6 });
  fc.assert(fc.property(mutation([["a", "b", "c", "d", "e"], [{ src: "a", dst: "b" }, { src: "e", dst: "c" }],
    { floor: 0, perSourceK: 2, limit: 5 }]), (bad) => expectTyped("residentRows", () => rows.rankCandidatePairs(...bad))),
  { numRuns: 300, seed: 7 });
  expect(Array.from(rows.cosineRows(rnd32(3)))).toEqual(Array.from(md.cosineRows(rnd32(3), rnd32(15))));
  rows.free();
  expect(() => rows.cosineRows(rnd32(3))).toThrow(RangeError);
  assertHealthy();
});

test("memdomain/workers tileBounds: hostile arguments", () => {
  fc.assert(fc.property(mutation([10, 3]), (bad) => expectTyped("tileBounds", () => tileBounds(...bad))),
    { numRuns: 300, seed: 5 });
});

// Rejections of the async entry points, checked like expectTyped's throws.
async function expectTypedAsync(name, call) {
  try {
    await call();
  } catch (e) {
    if (e instanceof CallerError) return;
    if (!(e instanceof TypeError || e instanceof RangeError)) throw new Error(`${name} threw ${e?.name}: ${e?.message}`);
    if (!e.message.startsWith(`${name}: `)) throw new Error(`${name}: message does not name the function: ${e.message}`);
  }
}

test("memdomain/workers: hostile arguments to createNeighborPool, the pool and topNeighborPairsParallel", async () => {
  const wasm = wasmBytes();
  const valid = [rnd32(15), keys5, { floor: 0.1, perSourceK: 2, limit: 10 }];
  const want = md.topNeighborPairsPacked(...valid);
  const bad = fc.sample(mutation([...valid, { workers: 1, tiles: 2 }]), { numRuns: 25, seed: 6 });
  for (const args of bad) {
    await expectTypedAsync("topNeighborPairsParallel", () => {
      if (args[3] && typeof args[3] === "object" && !Array.isArray(args[3])) args[3] = { ...args[3], wasm };
      return topNeighborPairsParallel(...args);
    });
  }
  for (const opts of fc.sample(mutation([{ workers: 1 }]), { numRuns: 25, seed: 7 })) {
    // (No hostile value is a valid worker count other than 1: at most one thread starts.)
    let pool = null;
    await expectTypedAsync("createNeighborPool", async () => {
      const o = opts[0] && typeof opts[0] === "object" && !Array.isArray(opts[0]) ? { ...opts[0], wasm } : opts[0];
      pool = await createNeighborPool(o);
    });
    await pool?.close();
  }
  const pool = await createNeighborPool({ workers: 1, wasm });
  try {
    for (const args of fc.sample(mutation([...valid, { tiles: 2 }]), { numRuns: 40, seed: 8 }))
      await expectTypedAsync("topNeighborPairsParallel", () => pool.topNeighborPairs(...args));
    expect(await pool.topNeighborPairs(...valid, { tiles: 3 })).toEqual(want);
  } finally {
    await pool.close();
  }
  assertHealthy();
});

test("the memory does not grow under mutated traffic", () => {
  const before = ex.memory.buffer.byteLength;
  for (let round = 0; round < 3; round++)
    for (const [name, lists] of targets)
      for (const args of lists.slice(0, 3))
        fc.assert(fc.property(mutation(args), (bad) => { try { const r = md[name](...bad); r?.free?.(); } catch { /* typed, checked above */ } }),
          { numRuns: 10, seed: round });
  assertHealthy();
  expect(ex.memory.buffer.byteLength).toBeLessThanOrEqual(Math.max(before, 16 * 1024 * 1024));
});

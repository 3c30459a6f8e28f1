// Allocation failure at every allocation, through the JS API: on
// build/memdomain.allocfail.wasm (tests/wasm/alloc_hook.c counts every
// allocation the module makes, the glue's exchange region included, and fails
// the one chosen), each golden case below runs with its first, second, ...
// allocation failed until a run makes no more. A run the failure reached
// throws a RangeError naming the function (or, where a path can do without
// that allocation, answers exactly), never a trap or a wrong answer; the case
// then answers exactly again, and no block is left behind (the count of live
// blocks returns to where it was). The native twin is tests/c/test_alloc_fail.c.
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { ROOT, IMPLEMENTED, loadCases, runCase } from "./golden/runner.js";
import { decode, mismatch } from "./golden/codec.js";

const bytes = readFileSync(`${ROOT}build/memdomain.allocfail.wasm`);
let ex = md.initSync(bytes);
const live = () => ex.mdw_alloc_stats(2);

const size = (c) => JSON.stringify(c.args).length;

/** Per function, the K cases with the largest arguments (the most allocations), in file order. */
function sample(module, k) {
  const byFn = new Map();
  for (const c of loadCases(module)) byFn.set(c.fn, [...(byFn.get(c.fn) ?? []), c]);
  const out = [];
  for (const list of byFn.values()) {
    const big = [...list].sort((a, b) => size(b) - size(a) || a.line - b.line).slice(0, k);
    out.push(...big.sort((a, b) => a.line - b.line));
  }
  return out;
}

/** Run `run` with allocation n failed: { hit, error, value }. */
function withFailure(n, run) {
  ex.mdw_alloc_fail_at(n);
  let error = null, value, hit;
  try {
    value = run();
  } catch (e) {
    error = e;
  } finally {
    hit = ex.mdw_alloc_stats(0) === 1; // before disarming, which resets it
    ex.mdw_alloc_fail_at(-1);
  }
  return { hit, error, value };
}

/**
 * Fail allocation 0, 1, 2, ... of `run` until a run makes no more; `wrong(value)` says why an
 * answer is not the clean one (null when it is). Each failed run must throw a RangeError that
 * says memory could not be had, or answer exactly; the next run must answer exactly; the live
 * block count must return to what it was before (call after a clean run). Pushes to `problems`;
 * returns how many runs the failure reached.
 */
function failEach(where, run, wrong, problems) {
  const base = live();
  for (let n = 0; n <= 100000; n++) {
    const r = withFailure(n, run);
    const why = r.error ? null : wrong(r.value);
    if (!r.hit) {
      if (r.error || why) problems.push(`${where}: with no failure reached: ${r.error ?? why}`);
      return n;
    }
    if (r.error && !(r.error instanceof RangeError && /out of memory|could not be allocated/.test(r.error.message)))
      problems.push(`${where}: allocation ${n} failed: ${r.error.name}: ${r.error.message}`);
    else if (why) problems.push(`${where}: allocation ${n} failed and the answer is wrong: ${why}`);
    let again;
    try { again = wrong(run()); } catch (e) { again = `threw ${e}`; }
    if (again) problems.push(`${where}: after allocation ${n} failed, the next run: ${again}`);
    if (live() !== base) problems.push(`${where}: allocation ${n} failed: ${live() - base} blocks left behind`);
  }
  problems.push(`${where}: never stops allocating`);
  return 0;
}

/** A golden case as failEach takes it. */
const golden = (c) => [() => md[c.fn](...c.args.map(decode)), (v) => mismatch(v, c.expect)];

// The modules whose calls allocate inside C (the others work in the glue's exchange region alone).
const ALLOCATING = ["frame", "graph", "merge", "mmr", "neighbors", "rrf"];

for (const module of IMPLEMENTED) {
  const cases = sample(module, 3);
  test(`${module}: every allocation of ${cases.length} golden cases fails in turn, cleanly`, () => {
    let failed = 0;
    const problems = [];
    for (const c of cases) {
      // Twice without failures: the glue's exchange region settles, then the live count is the baseline.
      expect(runCase(md, c)).toBe(null);
      expect(runCase(md, c)).toBe(null);
      failed += failEach(`${module}.jsonl line ${c.line} (${c.fn})`, ...golden(c), problems);
    }
    expect(problems.slice(0, 10)).toEqual([]);
    if (ALLOCATING.includes(module)) expect(failed).toBeGreaterThan(0); // the cases did allocate
  });
}

test("a fresh instance's first call, its exchange region not allocated, fails cleanly and then answers", () => {
  const problems = [];
  let exercised = 0;
  for (const module of IMPLEMENTED) {
    const c = loadCases(module).reduce((a, b) => (size(b) > size(a) ? b : a)); // its largest case
    ex = md.initSync(bytes); // a new instance: no exchange region yet
    const r = withFailure(0, golden(c)[0]);
    if (!r.hit) continue; // a call on numbers alone, with no region
    exercised++;
    if (!(r.error instanceof RangeError) || !/could not be allocated|out of memory/.test(r.error.message))
      problems.push(`${module} ${c.fn}: ${r.error ? `${r.error.name}: ${r.error.message}` : "no error"}`);
    const again = runCase(md, c);
    if (again) problems.push(`${module} ${c.fn}: the next run: ${again}`);
  }
  expect(problems).toEqual([]);
  expect(exercised).toBeGreaterThanOrEqual(ALLOCATING.length);
});

// Beyond the golden files: the handles (Graph, residentRows) and the batch entry points, each a
// scenario returning a comparable answer. A scenario frees the handles it makes (in finally),
// so every block must come back; a handle made before is used under failure and must still answer.
const rnd = (() => { let x = 12345; return () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 4294967296); })();
const nodes = Array.from({ length: 300 }, (_, i) => `n${i}`);
const edges = Array.from({ length: 1500 }, () => ({ src: nodes[Math.floor(rnd() * 300)], dst: nodes[Math.floor(rnd() ** 2 * 300)], strength: 0.1 + rnd() }));
const seeds = new Map([["n3", 1], ["n40", 0.5]]);
const D = 32, R = 600;
const matrix = Float32Array.from({ length: R * D }, () => rnd() * 2 - 1);
const keys = Array.from({ length: R }, (_, i) => `k${(i * 7919) % R}`);
const query = matrix.slice(5 * D, 6 * D);
const opts = { floor: 0.2, perSourceK: 4, limit: 500 };
const pairs = Array.from({ length: 300 }, () => ({ src: keys[Math.floor(rnd() * R)], dst: keys[Math.floor(rnd() * R)] }));
const plain = (x) => JSON.stringify(x, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v instanceof Map ? [...v] : v));
let kept = null; // handles made before the scenarios that use them
const SCENARIOS = {
  "Graph: build, pagerank, communities, bridges, free": () => {
    const g = md.buildGraph(nodes, edges);
    try {
      const lp = g.labelPropagation();
      return plain([g.pagerankScores({ seeds }), g.pagerankScores(), lp, g.bridgeCounts(lp)]);
    } finally { g.free(); }
  },
  "Graph made before: a personalized walk and communities": () => plain([kept.graph.pagerankScores({ seeds }), kept.graph.labelPropagation()]),
  "residentRows: copy in, top k, every cosine, MMR, candidate pairs, free": () => {
    const r = md.residentRows(matrix, D);
    try {
      return plain([r.topCosineRows(query, 10), r.cosineRows(query), r.applyMmr(Uint32Array.from({ length: 50 }, (_, i) => i * 3), Array.from({ length: 50 }, (_, i) => 1 - i / 60), 10),
        r.rankCandidatePairs(keys, pairs, opts)]);
    } finally { r.free(); }
  },
  "residentRows made before: the top k and MMR": () => plain([kept.rows.topCosineRows(query, 10), kept.rows.topCosineRows(query, 400),
    kept.rows.applyMmr(Uint32Array.from({ length: 80 }, (_, i) => i * 7), Array.from({ length: 80 }, (_, i) => 1 - i / 90), 12)]),
  "packed pairs, a tile merged, the 1 x n arm, packed MMR, frame keys": () => {
    const m = matrix.subarray(0, 100 * D), k = keys.slice(0, 100); // the pairs allocate per source: 100 rows
    const half = md.neighborTile(m, k, 0, 50, opts), rest = md.neighborTile(m, k, 50, 100, opts);
    return plain([md.topNeighborPairsPacked(m, k, opts), md.mergeNeighborTiles(k, [half, rest], opts),
      md.topCosineRows(query, matrix, 10), md.cosineRows(query, matrix), md.applyMmrPacked(Array.from({ length: R }, (_, i) => 1 - i / R), matrix, 10, 0.7),
      md.frameKeysOf(["Deploy: on Fridays", "no frame here", "Cache: keys are paths"])]);
  },
};

test.each(Object.keys(SCENARIOS))("%s: every allocation fails in turn, cleanly", (name) => {
  ex = md.initSync(bytes);
  kept = { graph: md.buildGraph(nodes, edges), rows: md.residentRows(matrix, D) };
  const run = SCENARIOS[name];
  const want = run();
  expect(run()).toBe(want);
  const problems = [];
  const failed = failEach(name, run, (v) => (v === want ? null : "another answer"), problems);
  kept.graph.free();
  kept.rows.free();
  expect(problems.slice(0, 10)).toEqual([]);
  expect(failed).toBeGreaterThan(0);
});

test("the hook counts and fails allocations (the test above could not pass vacuously)", () => {
  const c = loadCases("graph").find((x) => x.fn === "pagerank");
  ex.mdw_alloc_fail_at(1000000);
  md.pagerank(...c.args.map(decode));
  const calls = ex.mdw_alloc_stats(1);
  ex.mdw_alloc_fail_at(-1);
  expect(calls).toBeGreaterThan(0);
  const r = withFailure(0, golden(c)[0]);
  expect(r.hit).toBe(true);
  expect(r.error).toBeInstanceOf(RangeError);
});

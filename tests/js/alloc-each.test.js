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
import { decode } from "./golden/codec.js";

const bytes = readFileSync(`${ROOT}build/memdomain.allocfail.wasm`);
let ex = md.initSync(bytes);
const live = () => ex.mdw_alloc_stats(2);

/** Per function, the K cases with the largest arguments (the most allocations), in file order. */
function sample(module, k) {
  const byFn = new Map();
  for (const c of loadCases(module)) byFn.set(c.fn, [...(byFn.get(c.fn) ?? []), c]);
  const out = [];
  for (const list of byFn.values()) {
    const size = (c) => JSON.stringify(c.args).length;
    const big = [...list].sort((a, b) => size(b) - size(a) || a.line - b.line).slice(0, k);
    out.push(...big.sort((a, b) => a.line - b.line));
  }
  return out;
}

/** Run case c with allocation n failed: { hit, error, why } (why: null when the answer is exact). */
function runFailing(c, n) {
  ex.mdw_alloc_fail_at(n);
  let error = null, why = null, hit;
  try {
    why = runCase({ [c.fn]: (...a) => { try { return md[c.fn](...a); } catch (e) { error = e; throw e; } } }, c);
  } finally {
    hit = ex.mdw_alloc_stats(0) === 1; // before disarming, which resets it
    ex.mdw_alloc_fail_at(-1);
  }
  return { hit, error, why };
}

// The modules whose calls allocate inside C (the others work in the glue's exchange region alone).
const ALLOCATING = ["frame", "graph", "merge", "mmr", "neighbors", "rrf"];

for (const module of IMPLEMENTED) {
  const cases = sample(module, 3);
  test(`${module}: every allocation of ${cases.length} golden cases fails in turn, cleanly`, () => {
    let failed = 0;
    const problems = [];
    for (const c of cases) {
      const where = `${module}.jsonl line ${c.line} (${c.fn})`;
      // Twice without failures: the glue's exchange region settles, then the live count is the baseline.
      expect(runCase(md, c)).toBe(null);
      expect(runCase(md, c)).toBe(null);
      const base = live();
      for (let n = 0; ; n++) {
        const r = runFailing(c, n);
        if (!r.hit) {
          if (r.why) problems.push(`${where}: with no failure reached: ${r.why}`);
          break;
        }
        failed++;
        // (No golden case expects a throw: any error here comes from the failed allocation.)
        if (r.error && !(r.error instanceof RangeError))
          problems.push(`${where}: allocation ${n} failed: ${r.error.name}: ${r.error.message}`);
        else if (r.error && !/out of memory|could not be allocated/.test(r.error.message))
          problems.push(`${where}: allocation ${n} failed: a RangeError without the reason: ${r.error.message}`);
        else if (!r.error && r.why)
          problems.push(`${where}: allocation ${n} failed and the answer is wrong: ${r.why}`);
        const again = runCase(md, c);
        if (again) problems.push(`${where}: after allocation ${n} failed, the next run: ${again}`);
        if (live() !== base) problems.push(`${where}: allocation ${n} failed: ${live() - base} blocks left behind`);
        if (n > 100000) { problems.push(`${where}: never stops allocating`); break; }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    if (ALLOCATING.includes(module)) expect(failed).toBeGreaterThan(0); // the cases did allocate
  });
}

test("a fresh instance's first call, its exchange region not allocated, fails cleanly and then answers", () => {
  const problems = [];
  let exercised = 0;
  for (const module of IMPLEMENTED) {
    const size = (x) => JSON.stringify(x.args).length;
    const c = loadCases(module).reduce((a, b) => (size(b) > size(a) ? b : a)); // its largest case
    ex = md.initSync(bytes); // a new instance: no exchange region yet
    const r = runFailing(c, 0);
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

test("the hook counts and fails allocations (the test above could not pass vacuously)", () => {
  const c = loadCases("graph").find((x) => x.fn === "pagerank");
  ex.mdw_alloc_fail_at(1000000);
  md.pagerank(...c.args.map(decode));
  const calls = ex.mdw_alloc_stats(1);
  ex.mdw_alloc_fail_at(-1);
  expect(calls).toBeGreaterThan(0);
  ex.mdw_alloc_fail_at(0);
  let err;
  try { md.pagerank(...c.args.map(decode)); } catch (e) { err = e; }
  ex.mdw_alloc_fail_at(-1);
  expect(err).toBeInstanceOf(RangeError);
});

// Hostile input at the JS boundary: arbitrary values thrown at every export.
// Each call must either return or throw a TypeError/RangeError whose message
// names the function (the argument follows the function name), or let the
// caller's own exception (a throwing getter) through; never a wasm trap, a
// hang or another kind of error, and the instance must still answer the
// golden cases correctly afterwards.
import fc from "fast-check";
import * as md from "../../js/index.js";
import { wasmBytes } from "./build.js";
import { CallerError, detached } from "./hostile-values.js";
import { IMPLEMENTED, loadCases, runCase } from "./golden/runner.js";

const ex = md.initSync(wasmBytes());

const throwingGetter = () => {
  const o = { path: "a", rank: 1, score: 1, src: "a", dst: "b", strength: 1 };
  for (const k of ["vec", "vector", "gist", "body", "key"])
    Object.defineProperty(o, k, { get() { throw new CallerError("getter"); }, enumerable: true });
  return o;
};
const shared = () => new Float32Array(new SharedArrayBuffer(16)).fill(0.5);
const sparse = () => { const a = [1, 2]; a[5] = 3; return a; };

const hostile = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.anything({ maxDepth: 2 }),
    fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, -1, 2 ** 32, 2 ** 53 + 2, 1e308, -1e-320, 3.7),
    fc.string({ unit: "binary" }),
    fc.constantFrom("\uD800", "\uDC00x", "a\uDBFF", "", "episodic", "positive", "The capital of X is Y."),
    fc.float32Array({ maxLength: 6 }),
    fc.array(fc.double(), { maxLength: 6 }),
    fc.constant(null).map(throwingGetter),
    fc.constant(null).map(detached),
    fc.constant(null).map(shared),
    fc.constant(null).map(sparse),
    fc.date({ noInvalidDate: false }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.array(fc.tuple(fc.string(), tie("value")), { maxLength: 4 }).map((e) => new Map(e)),
    fc.dictionary(fc.constantFrom("path", "rank", "src", "dst", "strength", "key", "vec", "vector", "score",
      "gist", "body", "keepPath", "dropPath", "similarity", "memoryType", "ageDays"), tie("value"), { maxKeys: 5 }),
  ),
})).value;

const fns = Object.entries(md).filter(([name, f]) => typeof f === "function" && !["init", "initSync", "isInitialized"].includes(name));
const sanity = IMPLEMENTED.flatMap((m) => {
  const seen = new Set();
  return loadCases(m).filter((c) => !seen.has(c.fn) && seen.add(c.fn));
});

function assertHealthy() {
  for (const c of sanity) {
    const why = runCase(md, c);
    if (why) throw new Error(`instance poisoned: ${c.fn}: ${why}`);
  }
}

test.each(fns.map(([name]) => [name]))("%s survives hostile arguments", (name) => {
  const f = md[name];
  fc.assert(fc.property(fc.array(hostile, { maxLength: 5 }), (args) => {
    try {
      const r = f(...args);
      if (r && typeof r === "object" && typeof r.free === "function") r.free();
    } catch (e) {
      if (e instanceof CallerError) return;
      if (!(e instanceof TypeError || e instanceof RangeError)) throw new Error(`${name} threw ${e?.name}: ${e?.message}`);
      if (!e.message.startsWith(`${name}: `) && !e.message.startsWith(`${name}(`))
        throw new Error(`${name}: message does not name the function: ${e.message}`);
    }
  }), { numRuns: 300, seed: 20261130 });
  assertHealthy();
});

test("the heap stays bounded under hostile traffic", () => {
  const before = ex.memory.buffer.byteLength;
  for (let i = 0; i < 3; i++) for (const [, f] of fns) { try { f([1, 2], new Float32Array(3), "x", 3); } catch { /* expected */ } }
  assertHealthy();
  expect(ex.memory.buffer.byteLength).toBeLessThanOrEqual(Math.max(before, 16 * 1024 * 1024));
});

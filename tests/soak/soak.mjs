// Bounded memory over millions of calls (issue 9): SOAK_CALLS (default ten
// million) mixed calls over every export of the package, with random small
// sizes from the seeded corpus (tests/runtimes/corpus.js: valid inputs, the
// design's quirks and some inputs the glue rejects), on one instance per wasm
// build. Checks, per build:
//   - the wasm memory (memory.buffer.byteLength) after all calls is no larger
//     than after the first 1,000;
//   - every call returns, or throws a TypeError/RangeError naming its function;
//   - the outputs of the last pass over the call pool are byte-identical to
//     those of the first pass (no state leaks from one call into the next), and
//     the golden cases still pass afterwards.
// Each build gets SOAK_CALLS calls (SOAK_CALLS_EMCC for the Emscripten build,
// default the same), in its own worker thread so the two builds run on both
// cores (about 40 s each on a quiet 2-core machine here). The clang build starts with 192 KiB of
// memory, so a leak of a few bytes per call would show; the Emscripten build
// starts with 16 MiB. Prints "soak: N passed, M failed".
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

if (isMainThread) {
  const calls = Number(process.env.SOAK_CALLS ?? 10_000_000);
  const callsEmcc = Number(process.env.SOAK_CALLS_EMCC ?? calls);
  const runs = [["clang", `${ROOT}build/memdomain.wasm`, calls], ["emcc", `${ROOT}build/memdomain.emcc.wasm`, callsEmcc]];
  let passed = 0, failed = 0;
  const t0 = performance.now();
  const results = await Promise.all(runs.map(([build, wasm, n]) => new Promise((resolve) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { build, wasm, calls: n, seed: 9 } });
    w.on("message", resolve);
    w.on("error", (e) => resolve({ build, checks: [[false, `worker crashed: ${e?.stack ?? e}`]] }));
  })));
  for (const r of results) {
    console.log(`== ${r.build}${r.stats ? `: ${r.stats}` : ""}`);
    for (const [ok, what] of r.checks) {
      console.log(`  ${ok ? "ok  " : "FAIL"} ${what}`);
      ok ? passed++ : failed++;
    }
  }
  console.log(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`soak: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
} else {
  const { build, wasm, calls, seed } = workerData;
  const md = await import(`${ROOT}js/index.js`);
  const { corpus, callExport } = await import(`${ROOT}tests/runtimes/corpus.js`);
  const { createHash } = await import("node:crypto");
  const { IMPLEMENTED, loadCases, runCase } = await import(`${ROOT}tests/js/golden/runner.js`);
  const ex = md.initSync(readFileSync(wasm));
  const checks = [];
  const check = (ok, what) => checks.push([!!ok, what]);

  const gen = corpus(seed);
  const exported = Object.keys(md).filter((k) => typeof md[k] === "function" && !["init", "initSync", "isInitialized"].includes(k));
  const uncovered = exported.filter((k) => !gen.names.includes(k));
  check(uncovered.length === 0, `the call mix covers all ${exported.length} exported functions${uncovered.length ? ` (missing ${uncovered.join(", ")})` : ""}`);

  // A pool of seeded random calls, replayed in a seeded random order.
  const POOL = 20000;
  const pool = Array.from({ length: POOL }, () => gen.next());
  let bad = 0, badMsg = "", errors = 0;
  const one = (c) => {
    try {
      callExport(md, c.fn, c.args);
    } catch (e) {
      errors++;
      const named = e?.message?.startsWith?.(`${c.fn}: `) || e?.message?.startsWith?.(`${c.fn}.`) ||
        ((c.fn === "Graph" || c.fn === "buildGraph") && e?.message?.startsWith?.("Graph"));
      if (!((e instanceof TypeError || e instanceof RangeError) && named) && bad++ === 0) badMsg = `${c.fn}: ${e?.name}: ${e?.message}`;
    }
  };
  // A canonical text of any output: numbers by their bits, maps/typed arrays/objects by content.
  // Every NaN is one value: JavaScript has one NaN, and the bits a typed array shows for it are the
  // engine's (V8's interpreter and its optimized code return a NaN from wasm with either sign: a
  // profile whose weights sum to NaN read 0xfff8... in the first pass and 0x7ff8... a million calls later).
  const f64 = new Float64Array(1), u32 = new Uint32Array(f64.buffer);
  const canon = (v) => {
    if (typeof v === "number" && v !== v) return "NaN";
    if (typeof v === "number") { f64[0] = v; return `n${u32[0].toString(16)}.${u32[1].toString(16)}`; }
    if (typeof v !== "object" || v === null) return `${typeof v}:${String(v)}`;
    if (Array.isArray(v) || ArrayBuffer.isView(v)) return `${v.constructor.name}[${Array.from(v, canon).join(",")}]`;
    if (v instanceof Map) return `Map[${[...v].map(([k, x]) => `${canon(k)}=>${canon(x)}`).join(",")}]`;
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(",")}}`;
  };
  const passHash = () => {
    const h = createHash("sha256");
    for (const c of pool) {
      let out;
      try { out = { v: callExport(md, c.fn, c.args) }; } catch (e) { out = { e: `${e?.name}: ${e?.message}` }; }
      h.update(canon(out));
    }
    return h.digest("hex");
  };

  for (let i = 0; i < 1000; i++) one(pool[i]);
  const after1000 = ex.memory.buffer.byteLength;
  const first = await passHash();
  let done = 1000 + POOL, peak = after1000;
  let x = seed >>> 0;
  const t = performance.now();
  while (done < calls - POOL) {
    const stop = Math.min(calls - POOL, done + 100000);
    for (; done < stop; done++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      one(pool[x % POOL]);
    }
    peak = Math.max(peak, ex.memory.buffer.byteLength);
  }
  const last = await passHash();
  done += POOL;
  const end = ex.memory.buffer.byteLength;
  const secs = (performance.now() - t) / 1000;

  check(bad === 0, `${done.toLocaleString("en")} calls: each returned or threw a TypeError/RangeError naming its function${bad ? ` (${bad} did not; first: ${badMsg})` : ""}`);
  check(end <= after1000, `wasm memory after ${done.toLocaleString("en")} calls (${end} B) <= after the first 1,000 (${after1000} B); peak ${peak} B`);
  check(first === last, `the last pass over the ${POOL.toLocaleString("en")}-call pool hashes as the first (${first.slice(0, 16)})`);
  const sick = [];
  for (const m of IMPLEMENTED) for (const c of loadCases(m)) { const why = runCase(md, c); if (why) sick.push(`${m}.${c.fn}: ${why}`); }
  check(sick.length === 0, `every golden case still passes afterwards${sick.length ? ` (${sick.length} fail; first: ${sick[0]})` : ""}`);
  parentPort.postMessage({ build, checks, stats: `${done.toLocaleString("en")} calls (${errors.toLocaleString("en")} rejected), ${secs.toFixed(1)} s, ${Math.round(done / secs).toLocaleString("en")} calls/s` });
}

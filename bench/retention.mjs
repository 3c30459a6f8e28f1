// Benchmark: scoreRetentionMany (wasm, typed-array columns) against a
// plain-JavaScript scorer written the way the reference is (one input object
// and one signals object per memory), same inputs, same run; plus the native
// C batch scorer. Usage:
//   make all && node bench/retention.mjs [n=100000] [reps=7] [--emcc]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as md from "../js/index.js";
import { refScoreRetention } from "../tests/oracles/retention-reference.mjs";
import { rng } from "../tests/oracles/rng.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const N = Number(args[0] ?? 100000);
const REPS = Number(args[1] ?? 7);
const wasmFile = process.argv.includes("--emcc") ? "build/memdomain.emcc.wasm" : "build/memdomain.wasm";
md.initSync(readFileSync(`${ROOT}${wasmFile}`));

// Seeded synthetic memories (mulberry32).
const rand = rng(0x2026);
const TYPES = ["episodic", "semantic", "procedural", "arc", "error_pattern", "task", "agent_insight"];
const inputs = Array.from({ length: N }, () => {
  const maxGraphRank = 0.5 + rand() * 0.5;
  return {
    memoryType: TYPES[Math.floor(rand() * TYPES.length)],
    ageDays: rand() * 3650,
    accessCount: Math.floor(rand() * 200),
    confidence: rand(),
    graphRank: rand() * maxGraphRank,
    maxGraphRank,
    bridgeCount: Math.floor(rand() * 8),
    reinforcementCount: Math.floor(rand() * 8),
    wordCount: Math.floor(rand() * 3000),
    contradictionCount: Math.floor(rand() * 4),
  };
});
const FIELDS = ["ageDays", "accessCount", "confidence", "graphRank", "maxGraphRank", "bridgeCount",
  "reinforcementCount", "wordCount", "contradictionCount"];
// What a caller holding one object per memory would do: fill typed columns.
function columnsOf(list) {
  const n = list.length;
  const cols = { memoryType: new Array(n) };
  for (const f of FIELDS) cols[f] = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = list[i];
    cols.memoryType[i] = x.memoryType;
    cols.ageDays[i] = x.ageDays; cols.accessCount[i] = x.accessCount; cols.confidence[i] = x.confidence;
    cols.graphRank[i] = x.graphRank; cols.maxGraphRank[i] = x.maxGraphRank; cols.bridgeCount[i] = x.bridgeCount;
    cols.reinforcementCount[i] = x.reinforcementCount; cols.wordCount[i] = x.wordCount;
    cols.contradictionCount[i] = x.contradictionCount;
  }
  return cols;
}
const columns = columnsOf(inputs);

function best(fn) {
  let ms = Infinity, out;
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    out = fn();
    ms = Math.min(ms, performance.now() - t0);
  }
  return { ms, out };
}

const ref = best(() => inputs.map(refScoreRetention));
const batch = best(() => md.scoreRetentionMany(columns));
const batchSignals = best(() => md.scoreRetentionMany(columns, { signals: true }));
const fromObjects = best(() => md.scoreRetentionMany(columnsOf(inputs)));
const perCall = best(() => inputs.map((m) => md.scoreRetention(m))); // not map(fn): its index would be the policy

// The two must agree bit for bit before their times mean anything.
let differ = 0;
for (let i = 0; i < N; i++) {
  const r = ref.out[i];
  if (!Object.is(r.score, batch.out.score[i]) || r.action !== md.TRIAGE_ACTIONS[batch.out.action[i]]) differ++;
}

const f = (ms) => `${ms.toFixed(2).padStart(9)} ms  ${(ms * 1e6 / N).toFixed(1).padStart(7)} ns/memory`;
let native = "native: skipped (no C compiler or build/libmemdomain.a; run `make lib`)";
try {
  const exe = `${ROOT}build/bench/retention_bench`;
  if (existsSync(`${ROOT}build/libmemdomain.a`)) {
    mkdirSync(`${ROOT}build/bench`, { recursive: true });
    execFileSync("cc", ["-std=c11", "-O2", "-ffp-contract=off", "-fno-fast-math", `-I${ROOT}include`,
      `${ROOT}bench/retention_bench.c`, `${ROOT}build/libmemdomain.a`, "-lm", "-o", exe]);
    native = execFileSync(exe, [String(N), String(REPS)], { encoding: "utf8" }).trim();
    const ms = Number(/best_ms=([0-9.]+)/.exec(native)?.[1]);
    if (ms > 0) native = `native md_score_retention_many (C, -O2)        ${f(ms)}`;
  }
} catch (e) {
  native = `native: failed (${e.message.split("\n")[0]})`;
}

console.log(`retention scoring, n = ${N}, best of ${REPS}, ${wasmFile}`);
console.log(`  plain JS, reference-style (one object per memory) ${f(ref.ms)}`);
console.log(`  scoreRetentionMany (Float64Array columns)         ${f(batch.ms)}`);
console.log(`  scoreRetentionMany + signals                      ${f(batchSignals.ms)}`);
console.log(`  scoreRetentionMany incl. building columns         ${f(fromObjects.ms)}`);
console.log(`  scoreRetention per memory (wasm, one call each)   ${f(perCall.ms)}`);
console.log(`  ${native}`);
console.log(`  results differing from the plain-JS scorer: ${differ}`);
console.log(`ratio plain-JS / scoreRetentionMany: ${(ref.ms / batch.ms).toFixed(2)}x` +
  ` (with signals ${(ref.ms / batchSignals.ms).toFixed(2)}x, incl. building columns ${(ref.ms / fromObjects.ms).toFixed(2)}x)`);
if (differ) process.exit(1);

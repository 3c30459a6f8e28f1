// Benchmark: decay folds over long counts that never settle (issue 12 item 7),
// memdomain (wasm, both builds) against the reference's own loop in plain
// JavaScript, side by side in one process, rounds interleaved, medians.
// Every answer is compared with the loop's (a mismatch exits 1).
//   make all && node bench/decay.mjs [rounds=3]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as md from "../js/index.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ROUNDS = Number(process.argv[2] ?? 3);
const builds = ["memdomain.wasm", "memdomain.emcc.wasm"].map((f) => readFileSync(`${ROOT}build/${f}`));

// decayConfidenceNFp and applyNegativeHitsFp as the reference writes them.
function refDecayN(alphaFp, confFp, floorFp, cycles) {
  let c = confFp;
  for (let i = 0; i < cycles; i++) c = Math.min(c, Math.floor((alphaFp * floorFp + (10000 - alphaFp) * c) / 10000));
  return c;
}
function refNegHits(alphaFp, prevFp, hits) {
  let v = prevFp;
  for (let i = 0; i < hits; i++) v = Math.floor((alphaFp * -10000 + (10000 - alphaFp) * v) / 10000);
  return v;
}

const CASES = [
  ["decayConfidenceNFp(0.01, 1e300, 0, 1e6)", "decayConfidenceNFp", refDecayN, [0.01, 1e300, 0, 1e6]],
  ["decayConfidenceNFp(0.01, 1e300, 0, 67108865)", "decayConfidenceNFp", refDecayN, [0.01, 1e300, 0, 67108865]],
  ["decayConfidenceNFp(1e-12, 1e9, 0, 2e8)", "decayConfidenceNFp", refDecayN, [1e-12, 1e9, 0, 2e8]],
  ["applyNegativeHitsFp(1e-12, 1e9, 67108867)", "applyNegativeHitsFp", refNegHits, [1e-12, 1e9, 67108867]],
];

const time = (f) => { const t = performance.now(); const v = f(); return [performance.now() - t, v]; };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
let bad = 0;
const rows = [];
for (const [label, fn, ref, args] of CASES) {
  const t = { js: [], clang: [], emcc: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const [tj, want] = time(() => ref(...args));
    t.js.push(tj);
    for (const [i, name] of ["clang", "emcc"].entries()) {
      md.initSync(builds[i]);
      const [tw, got] = time(() => md[fn](...args));
      t[name].push(tw);
      if (!Object.is(got, want)) { bad++; console.log(`MISMATCH ${name} ${label}: ${got} != ${want}`); }
    }
  }
  rows.push([label, median(t.js), median(t.clang), median(t.emcc)]);
}
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`decay folds that never settle: median of ${ROUNDS} interleaved rounds (load average ${load})`);
console.log("| call | plain JS loop | memdomain (clang) | memdomain (emcc) | JS / clang |");
console.log("|---|---|---|---|---|");
for (const [label, js, c, e] of rows)
  console.log(`| ${label} | ${js.toFixed(0)} ms | ${c.toFixed(0)} ms | ${e.toFixed(0)} ms | ${(js / c).toFixed(2)}x |`);
process.exit(bad ? 1 : 0);

// The all-pairs neighbour pass (md_neighbor_pairs_ranked, one thread, wasm) of this build
// against a reference build, side by side in one run: interleaved rounds on the same rows, the
// answers compared pair by pair (they must be identical), the median times and their ratio.
// Corpora: "cache" (tests/js/cache-corpus.js, what bench/sleep-big.mjs puts: 8 topic
// centroids plus noise and near-duplicates), "uniform" (bench/lib-vectors.mjs's stream:
// isotropic), "lsa:<name>" (build/relevance/<name>/embeddings.f32: real LSA vectors, d = 256).
// The reference is a test build of another commit, e.g.
//   mkdir -p build/ref/x && git archive <commit> | tar -x -C build/ref/x && make -C build/ref/x build/memdomain.test.wasm
//   node bench/prefix-pass.mjs --ref=build/ref/x/build/memdomain.test.wasm --n=30000 --corpus=cache --floor=0.8 --k=9
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import { ROOT, args, data } from "./lib-vectors.mjs";
import { rawModule } from "../tests/oracles/raw.mjs";
import { makeCorpus } from "../tests/js/cache-corpus.js";

const a = args();
const corpus = a.corpus ?? "cache", floor = +(a.floor ?? 0.8), k = +(a.k ?? 9), rounds = +(a.rounds ?? 3);
let n = +(a.n ?? 30000), d = +(a.d ?? 384), m;
if (corpus === "cache") {
  m = new Float32Array(n * d);
  makeCorpus(n, d, 31, { dupEvery: 50 }).forEach((x, i) => m.set(x.embedding, i * d));
} else if (corpus === "uniform") {
  m = data(n, d).m;
} else if (corpus.startsWith("lsa:")) {
  d = 256;
  const all = new Float32Array(readFileSync(`${ROOT}build/relevance/${corpus.slice(4)}/embeddings.f32`).buffer.slice(0));
  n = Math.min(n, all.length / d);
  m = all.subarray(0, n * d);
} else throw new Error(`unknown corpus ${corpus}`);

const builds = { new: rawModule(a.new ?? "clang") };
if (a.ref && existsSync(a.ref)) builds.ref = rawModule(a.ref);
const o = { floor, perSourceK: k, limit: 1e9 };
const passes = Object.fromEntries(Object.entries(builds).map(([name, md]) => [name, md.packed(m, d)]));
const times = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
const answers = {};
const load0 = os.loadavg()[0];
for (let r = 0; r < rounds; r++) {
  const order = Object.keys(builds);
  if (r % 2) order.reverse();
  for (const name of order) {
    const t = performance.now(), p = passes[name].pass(o);
    times[name].push(performance.now() - t);
    answers[name] ??= p;
  }
}
const same = (p, q) => p.sim.length === q.sim.length && p.sim.every((x, i) => Object.is(x, q.sim[i]) && p.src[i] === q.src[i] && p.dst[i] === q.dst[i]);
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const med = Object.fromEntries(Object.entries(times).map(([name, t]) => [name, median(t)]));
console.log(`${corpus} n=${n} d=${d} floor=${floor} k=${k}: ` +
  Object.entries(med).map(([name, t]) => `${name} ${(t / 1000).toFixed(2)} s`).join(", ") +
  (med.ref ? `, ref/new ${(med.ref / med.new).toFixed(2)}x, answers ${same(answers.new, answers.ref) ? "identical" : "DIFFER"}` : "") +
  `, pairs ${answers.new.sim.length}; load ${load0.toFixed(2)} -> ${os.loadavg()[0].toFixed(2)}`);
if (med.ref && !same(answers.new, answers.ref)) process.exitCode = 1;

// The boundary benchmark (issue 13): every call a search box or a sleep pass
// makes, memdomain against plain JavaScript written the way the reference is
// (tests/oracles/baseline-*.js), side by side in ONE process. Each row interleaves
// rounds (JS, memdomain, memdomain, JS, ...) and reports the median time per
// call of each side; every row first checks that both sides give the same
// answer.
//
//   node --expose-gc bench/boundary.mjs [--quick] [--only=fusion,cosine,...] [--wasm=build/memdomain.emcc.wasm]
//                                       [--ref=build/ref/main]
//
// --quick shrinks the big inputs (100k -> 10k, 1M -> 100k) for a fast look.
// --ref=DIR adds a third side, interleaved with the other two: the glue in
// DIR/js with DIR/build/memdomain.wasm (another checkout, e.g. main's; `make
// bench-ref REF=main` builds one under build/ref/ and runs this with it).
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as md from "../js/index.js";
import * as Option from "effect/Option";
import { refCosine, refFuse, refRank } from "../tests/oracles/baseline-fusion.js";
import * as text from "../tests/oracles/baseline-text.js";
import * as scalars from "../tests/oracles/baseline-scalars.js";
import { applyMmr as jsApplyMmr } from "../tests/oracles/baseline-mmr.js";
import * as graph from "../tests/oracles/baseline-graph.js";
import { refScoreRetention } from "../tests/oracles/retention-reference.mjs";
import { rng } from "../tests/oracles/rng.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const quick = process.argv.includes("--quick");
const only = arg("only")?.split(",");
const wasmFile = arg("wasm") ?? "build/memdomain.wasm";
md.initSync(readFileSync(`${ROOT}${wasmFile}`));
const refDir = arg("ref");
const refUrl = (file) => new URL(`${refDir.replace(/\/?$/, "/")}${file}`, `file://${ROOT}`).href;
const ref = refDir ? await import(refUrl("js/index.js")) : null;
if (ref) ref.initSync(readFileSync(new URL(refUrl("build/memdomain.wasm"))));

const rand = rng(13);
const pick = (a) => a[Math.floor(rand() * a.length)];
let sink = 0;

/** Median per-call ms of each side over interleaved rounds; `calls` calls per timed sample. */
function measure(sides, { rounds, calls }) {
  const sample = (fn) => {
    globalThis.gc?.();
    const t = performance.now();
    for (let i = 0; i < calls; i++) sink += fn() ? 1 : 0;
    return (performance.now() - t) / calls;
  };
  const names = Object.keys(sides), times = Object.fromEntries(names.map((k) => [k, []]));
  for (let w = 0; w < 2; w++) for (const k of names) sample(sides[k]);
  for (let r = 0; r < rounds; r++) {
    // Rotate the order every round so no side always runs first.
    for (let q = 0; q < names.length; q++) { const k = names[(q + r) % names.length]; times[k].push(sample(sides[k])); }
  }
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  return Object.fromEntries(names.map((k) => [k, med(times[k])]));
}

const rows = [];
const fmt = (ms) => (ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(2)} ms` : ms >= 0.001 ? `${(ms * 1000).toFixed(2)} us` : `${(ms * 1e6).toFixed(0)} ns`);
/** One row: `call(api)` runs the memdomain side on an API (ours, or the --ref one). */
function row(group, name, jsFn, call, opts, same) {
  if (only && !only.some((o) => group.includes(o))) return;
  if (!same()) throw new Error(`${name}: memdomain and the plain-JS baseline disagree`);
  const sides = { js: jsFn, md: () => call(md) };
  if (ref) sides.ref = () => call(ref);
  report(name, measure(sides, opts));
}

function report(name, m) {
  rows.push({ name, ...m });
  const extra = ref ? ` ${fmt(m.ref)} | ${(m.ref / m.md).toFixed(2)}x |` : "";
  console.log(`| ${name} | ${fmt(m.md)} | ${fmt(m.js)} | ${(m.js / m.md).toFixed(2)}x |${extra}`);
}

/**
 * The same as `measure` for a per-call row whose sides run in their own workers (bench/lib-percall-worker.mjs):
 * one isolate per side, rounds interleaved and rotated as in `measure`.
 */
async function measureApart(name, inputs, { rounds, calls }) {
  const sides = ["js", "md", ...(ref ? ["ref"] : [])];
  const workers = Object.fromEntries(sides.map((side) => [side, new Worker(new URL("./lib-percall-worker.mjs", import.meta.url),
    { workerData: { side, name, inputs, ...(side === "js" ? {} : side === "ref"
      ? { glue: refUrl("js/index.js"), wasm: refUrl("build/memdomain.wasm") }
      : { glue: new URL("../js/index.js", import.meta.url).href, wasm: pathToFileURL(`${ROOT}${wasmFile}`).href }) } })]));
  const next = (w) => new Promise((resolve, reject) => {
    const fail = (e) => reject(e);
    w.once("error", fail);
    w.once("message", (m) => { w.off("error", fail); resolve(m); });
  });
  await Promise.all(Object.values(workers).map(next));
  const sample = async (side) => { workers[side].postMessage(calls); return (await next(workers[side])).ms; };
  const times = Object.fromEntries(sides.map((k) => [k, []]));
  for (let w = 0; w < 2; w++) for (const k of sides) await sample(k);
  for (let r = 0; r < rounds; r++)
    for (let q = 0; q < sides.length; q++) { const k = sides[(q + r) % sides.length]; times[k].push(await sample(k)); }
  await Promise.all(Object.values(workers).map((w) => w.terminate()));
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  return Object.fromEntries(sides.map((k) => [k, med(times[k])]));
}

const sameList = (a, b) => a.length === b.length && a.every((x, i) => x.path === b[i].path && Object.is(x.score, b[i].score));
const sameMap = (a, b) => {
  if (a.size !== b.size) return false;
  const bi = b.entries();
  for (const [k, v] of a) { const [k2, v2] = bi.next().value; if (k !== k2 || !Object.is(v, v2)) return false; }
  return true;
};

let uptime = "";
try { uptime = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "); } catch {}
console.log(`memdomain boundary benchmark (${wasmFile}), node ${process.version}, load average ${uptime}`);
console.log(`median per call over interleaved rounds; ratio = plain JS / memdomain (>= 1: memdomain no slower)${ref ? `; memdomain vs ${refDir} = its time / ours` : ""}\n`);
console.log(`| call | memdomain | plain JS | ratio |${ref ? ` ${refDir} | memdomain vs it |` : ""}`);
console.log(`|---|---|---|---|${ref ? "---|---|" : ""}`);

// ---- fusion: what a search box does per keystroke
const corpus = Array.from({ length: 20000 }, (_, i) => `areas/topic${i % 97}/memory-${i}.html`);
function armsOf(nArms, hits) {
  const pool = corpus.slice(0, 2 * hits);
  return Array.from({ length: nArms }, () => Array.from({ length: hits }, (_, r) => ({ path: pick(pool), rank: r + 1 })));
}
for (const [nArms, hits, calls] of [[2, 50, 2000], [4, 1000, 40]]) {
  const arms = armsOf(nArms, hits), w = [1, 0.8, 0.5, 0.3].slice(0, nArms);
  row("fusion", `fuseArms + rankFused, ${nArms} arms x ${hits.toLocaleString("en")} hits`,
    () => refRank(refFuse(arms, w)).length, (api) => api.rankFused(api.fuseArms(arms, w)).length, { rounds: 15, calls },
    () => sameList(md.rankFused(md.fuseArms(arms, w)), refRank(refFuse(arms, w))));
}
{
  const arms = armsOf(4, 1000), w = [1, 0.8, 0.5, 0.3];
  row("fusion", "fuseArms alone, 4 arms x 1,000 hits", () => refFuse(arms, w).size, (api) => api.fuseArms(arms, w).size,
    { rounds: 15, calls: 40 }, () => sameMap(md.fuseArms(arms, w), refFuse(arms, w)));
}

// ---- cosine: one Float32Array pair per call
for (const [d, calls] of [[8, 200000], [384, 20000], [1536, 5000]]) {
  const a = new Float32Array(d).map(() => rand() - 0.5), b = new Float32Array(d).map(() => rand() - 0.5);
  row("cosine", `cosine, one Float32Array pair, d = ${d}`, () => refCosine(a, b), (api) => api.cosine(a, b),
    { rounds: 15, calls }, () => Object.is(md.cosine(a, b), refCosine(a, b)));
}

// ---- per-call scalars and small searches
{
  const ranks = Array.from({ length: 64 }, (_, i) => i - 3), weights = [1, 0.5, 0, -1, NaN];
  const confs = [0.9, 0.5, 0.21, 1, 0.35], cycles = [3, 1, 10, 0, 30];
  // One worker per side (measureApart): in one isolate, shared JIT feedback made the order decide.
  const apart = async (name, opts, same) => {
    if (only && !only.some((o) => "scalars".includes(o))) return;
    if (!same()) throw new Error(`${name}: memdomain and the plain-JS baseline disagree`);
    report(name, await measureApart(name, { ranks, weights, confs, cycles }, opts));
  };
  await apart("rrfContribution", { rounds: 15, calls: 1000000 }, () => ranks.every((r) => weights.every((w) => {
    const x = md.rrfContribution(r, w), y = scalars.rrfContribution(r, w);
    return Option.isSome(x) === Option.isSome(y) && (Option.isNone(x) || Object.is(Option.getOrThrow(x), Option.getOrThrow(y)));
  })));
  await apart("decayConfidenceN", { rounds: 15, calls: 200000 },
    () => confs.every((c) => cycles.every((n) => Object.is(md.decayConfidenceN(c, n), scalars.decayConfidenceN(c, n)))));
  const TYPES = ["episodic", "semantic", "procedural", "arc", "error_pattern", "task", "agent_insight"];
  const inputs = Array.from({ length: 64 }, () => ({ memoryType: pick(TYPES), ageDays: rand() * 400, accessCount: Math.floor(rand() * 50),
    confidence: rand(), graphRank: rand() * 0.01, maxGraphRank: 0.01, bridgeCount: Math.floor(rand() * 6),
    reinforcementCount: Math.floor(rand() * 6), wordCount: Math.floor(rand() * 500), contradictionCount: Math.floor(rand() * 4) }));
  let k = 0;
  row("scalars", "scoreRetention (single)", () => refScoreRetention(inputs[k++ & 63]).score,
    (api) => api.scoreRetention(inputs[k++ & 63]).score, { rounds: 15, calls: 50000 },
    () => inputs.every((x) => JSON.stringify(md.scoreRetention(x)) === JSON.stringify(refScoreRetention(x))));
  for (const [n, lim, calls] of [[50, 10, 2000], [1000, 20, 20]]) {
    const d = 384;
    const cands = Array.from({ length: n }, (_, c) => ({ path: `p${c}`, score: rand(),
      vector: Array.from({ length: d }, () => rand() - 0.5) }));
    row("scalars", `applyMmr, choose ${lim} of ${n.toLocaleString("en")} (d = ${d})`, () => jsApplyMmr(cands, lim).length,
      (api) => api.applyMmr(cands, lim).length, { rounds: 11, calls },
      () => { const x = md.applyMmr(cands, lim), y = jsApplyMmr(cands, lim); return x.length === y.length && x.every((c, q) => c === y[q]); });
  }
}

// ---- the sleep pass's batch calls
const big = quick ? 10 : 1;
{
  const n = 100000 / big;
  const keys = Array.from({ length: n }, (_, i) => `areas/topic${i % 50}/memory-${(i * 2654435761 >>> 0).toString(36)}.html`);
  const edges = Array.from({ length: n }, () => [pick(keys), pick(keys)]);
  const same = (x, y) => x.length === y.length && x.every((c, i) => c.length === y[i].length && c.every((m, q) => m === y[i][q]));
  row("components", `connectedComponents, ${n.toLocaleString("en")} string pairs`, () => text.connectedComponents(edges).length,
    (api) => api.connectedComponents(edges).length, { rounds: 11, calls: 1 }, () => same(md.connectedComponents(edges), text.connectedComponents(edges)));
}
{
  const WORDS = ["run", "the", "cutover", "during", "business", "hours", "draining", "does", "NOT", "complete", "retry",
    "3", "13", "times", "M1", "Pro", "deploy", "gateway", "isn't", "safe", "v2.10", "rc.1", "legacy", "port", "8080",
    "Zürich", "naïve", "ΣΟΦΙΑ", "café", "İstanbul"];
  const sentence = (n) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const textOf = () => ({ gist: sentence(8), body: `${sentence(30)}\n${sentence(30)}` });
  const paths = Array.from({ length: 5000 }, (_, i) => `areas/topic${i % 50}/memory-${i}.html`);
  const pairs = Array.from({ length: 100000 / big }, () => {
    const t = textOf();
    return { keepPath: pick(paths), dropPath: pick(paths), similarity: 0.9 + rand() * 0.1, keepText: t, dropText: rand() < 0.5 ? t : textOf() };
  });
  const opts = { maxPairs: Infinity };
  row("merge", `mergeOutcomes, ${pairs.length.toLocaleString("en")} pairs with texts`, () => text.mergeOutcomes(pairs, opts).length,
    (api) => api.mergeOutcomes(pairs, opts).length, { rounds: 3, calls: 1 },
    () => { const a = md.mergeOutcomes(pairs, opts), b = text.mergeOutcomes(pairs, opts); return a.every((o, i) => o.stage === b[i].stage); });
}
{
  const SUBJ = ["The capital", "The population", "The CEO", "Die Hauptstadt", "La capitale", "The retry limit",
    "The default port", "Le président", "Η πρωτεύουσα", "The owner"];
  const LINK = ["of", "is", "in", "to", "by", "as"];
  const OBJ = ["India", "France", "São Paulo", "the gateway", "the deploy script", "Zürich", "東京", "Ελλάδα"];
  const VAL = ["New Delhi", "42", "Marie Curie", "8080", "3 times", "Paris.", "not set", "v2.10 rc.1"];
  const claims = Array.from({ length: 1000000 / big }, (_, i) =>
    `${pick(SUBJ)} ${pick(LINK)} ${pick(OBJ)}${rand() < 0.5 ? " is" : ""} ${pick(VAL)}${rand() < 0.3 ? "." : ""} #${i}`);
  row("frame", `frameKeysOf, ${claims.length.toLocaleString("en")} claims`, () => claims.map(text.frameKeyOf).length,
    (api) => api.frameKeysOf(claims).length, { rounds: 3, calls: 1 },
    () => { const a = md.frameKeysOf(claims); return claims.every((c, i) => a[i] === text.frameKeyOf(c)); });
}
{
  const n = 100000 / big, m = 1000000 / big;
  const r = rng(n + m);
  const nodes = Array.from({ length: n }, (_, i) => `areas/notes/${(i * 2654435761 >>> 0).toString(36)}-${i}.html`);
  const edges = Array.from({ length: m }, () => ({ src: nodes[Math.floor(r() ** 1.5 * n)], dst: nodes[Math.floor(r() ** 3 * n)], strength: r() }));
  row("pagerank", `pagerank one-shot, ${n.toLocaleString("en")} nodes / ${m.toLocaleString("en")} edges`,
    () => graph.pagerank(nodes, edges).size, (api) => api.pagerank(nodes, edges).size, { rounds: 3, calls: 1 },
    () => sameMap(md.pagerank(nodes, edges), graph.pagerank(nodes, edges)));
  // The floor under any one-shot call on string edges: each edge end's node looked up in plain
  // JavaScript (a null-prototype object, the fastest of object / Map / a hand-rolled hash table measured),
  // with nothing else. A Graph handle (build once, run many) is the form that does not pay it per run.
  if (!only || only.some((o) => "pagerank".includes(o))) {
    const floor = measure({ lookups: () => {
      const index = Object.create(null);
      for (let i = 0; i < n; i++) index[nodes[i]] = i;
      let h = 0;
      for (let i = 0; i < m; i++) { const e = edges[i]; h += (index[e.src] ?? -1) + (index[e.dst] ?? -1); }
      return h;
    } }, { rounds: 3, calls: 1 }).lookups;
    console.log(`| (pagerank: the ${(2 * m).toLocaleString("en")} edge-end lookups alone, plain JS: the floor of a one-shot call) | | ${fmt(floor)} | |`);
  }
}
if (sink === 42) console.log("");
const slower = rows.filter((r) => r.js < r.md);
console.log(`\n${rows.length} rows; ${slower.length ? `slower than plain JS: ${slower.map((r) => r.name).join("; ")}` : "memdomain is no slower on any row"}`);

// The native build (build/libmemdomain.a) on the golden cases: Node writes the
// cases of the modules the C program covers as a binary list (the golden
// arguments after the JS glue's defaults and conversions: a Date becomes its
// time value, a missing k becomes RRF_K, ...), tests/runtimes/native_hash.c runs
// them through the C API and writes each output in the harness's canonical
// encoding; the per-function hashes must equal Node's (and so every runtime's).
// Covered natively: every function of cosine, decay, ranking, reinforce, rrf,
// retention, graph and neighbors except float32View (a JavaScript view over
// bytes; there is no C function). The same goes for the seeded random corpus
// the harness runs after the golden files (tests/runtimes/corpus.js): every
// corpus call of a covered function (scoreRetentionMany, the Graph handle and
// topNeighborPairsPacked included) runs natively too, and its per-function
// hash must equal Node's. frame and merge run only on wasm (their C parts
// have their own C unit tests and fuzz targets).
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { APP, BUILD, GOLDEN, RT, check, finish, reference, run } from "./lib.mjs";

const { CORPUS, hashGroups, parseCases } = await import(pathToFileURL(`${APP}harness/harness.js`).href);
const { corpus } = await import(pathToFileURL(`${APP}harness/corpus.js`).href);
const { decode } = await import(pathToFileURL(`${APP}harness/codec.js`).href);
const NATIVE_MODULES = ["cosine", "decay", "ranking", "reinforce", "rrf", "retention", "graph", "neighbors"];
const JS_ONLY = new Set(["neighbors.float32View"]);
const RRF_K = 60, COOLDOWN = 900, DECAY_ALPHA = 0.1, DECAY_FLOOR = 0.2;

class Writer {
  constructor() { this.chunks = []; }
  u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.chunks.push(b); }
  raw64(v) { const b = Buffer.alloc(8); b.writeDoubleLE(v); this.chunks.push(b); }
  tag(t) { this.chunks.push(Buffer.from(t, "latin1")); }
  rawStr(s) { const b = wtf8(s); this.u32(b.length); this.chunks.push(b); }
  d(v) { if (typeof v !== "number") throw new TypeError(`not a number: ${v}`); this.tag("d"); this.raw64(v); }
  D(list) { const a = Array.from(list); this.tag("D"); this.u32(a.length); for (const x of a) this.raw64(x); }
  S(list) { this.tag("S"); this.u32(list.length); for (const s of list) this.rawStr(s); }
  s(v) { this.tag("s"); this.rawStr(v); }
  U(list) { this.tag("U"); this.u32(list.length); this.chunks.push(Buffer.from(list)); }
  F(v) { const f = Float32Array.from(v); this.tag("F"); this.u32(f.length); this.chunks.push(Buffer.from(f.buffer)); }
  W(list) { this.tag("W"); this.u32(list.length); for (const x of list) this.u32(x); }
  V(vecs) { this.tag("V"); this.u32(vecs.length); for (const v of vecs) this.F(v); }
}
// The glue's key bytes: UTF-8, a lone surrogate as its own 3-byte (WTF-8) form.
function wtf8(s) {
  const out = [];
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Buffer.from(out);
}
const SIGNALS = ["recency", "accessFrequency", "confidence", "pagerank", "bridgeImportance", "reinforcementCount",
  "contentDensity", "contestedStatus"];
const FIELDS = ["ageDays", "accessCount", "confidence", "graphRank", "maxGraphRank", "bridgeCount",
  "reinforcementCount", "wordCount", "contradictionCount"];
const orDefault = (v, dflt) => (v === undefined || v === null ? dflt : v); // the graph options' optNum
const graphArg = (w, nodes, edges) => {
  w.S(nodes); w.S(edges.map((e) => e.src)); w.S(edges.map((e) => e.dst)); w.D(edges.map((e) => e.strength));
};
const retentionInput = (w, x) => { w.s(x.memoryType); w.D(FIELDS.map((k) => x[k])); };
const nopts = (w, o) => { w.d(o.floor); w.d(o.perSourceK); w.d(o.limit); };
const vectorsArg = (w, vectors) => { w.S(vectors.map((v) => v.key)); w.V(vectors.map((v) => v.vec)); };
// bridgeCounts' label ids per input node, as the glue's labelIds computes them.
const labelIds = (nodes, communities) => {
  const ids = new Map();
  return nodes.map((k) => {
    const l = communities.get(k);
    if (l === undefined) return 0xffffffff;
    if (!ids.has(l)) ids.set(l, ids.size);
    return ids.get(l);
  });
};
const kOr = (k, dflt) => (k === undefined ? dflt : k);
const ms = (date) => date.getTime();
const entries = (map) => ({ paths: [...map.keys()], scores: [...map.values()] });

// One emitter per golden function: the op of native_hash.c and its arguments.
const OPS = {
  cosine: [1, (w, a, b) => { const n = Math.min(a.length, b.length); w.D(Array.from(a).slice(0, n)); w.D(Array.from(b).slice(0, n)); }],
  cosineDistance: [2, (w, a, b) => { const n = Math.min(a.length, b.length); w.D(Array.from(a).slice(0, n)); w.D(Array.from(b).slice(0, n)); }],
  compensatedSum: [3, (w, v) => w.D(Array.from(v))],
  rrfContribution: [4, (w, rank, weight) => { w.d(rank); w.d(weight); }],
  rrfScore: [5, (w, rank, weight, k) => { w.d(rank); w.d(weight); w.d(kOr(k, RRF_K)); }],
  fuseArms: [6, (w, arms, weights, k) => {
    w.tag("A"); w.u32(arms.length);
    for (const hits of arms) { w.u32(hits.length); for (const h of hits) { w.rawStr(h.path); w.raw64(h.rank); } }
    w.D(arms.map((_, i) => weights[i] ?? 0)); w.d(kOr(k, RRF_K));
  }],
  rankFused: [7, (w, fused) => { const e = entries(fused); w.S(e.paths); w.D(e.scores); }],
  fuseLateral: [8, (w, fused, order, weight, k) => { const e = entries(fused); w.S(e.paths); w.D(e.scores); w.S(order); w.d(weight); w.d(kOr(k, RRF_K)); }],
  toFp: [9, (w, v) => w.d(v)],
  fromFp: [10, (w, v) => w.d(v)],
  ewmaStepFp: [11, (w, a, p, s) => { w.d(a); w.d(p); w.d(s); }],
  applyOutcomesFp: [12, (w, a, p, signals) => { w.d(a); w.d(p); w.D(signals); }],
  applyNegativeHitsFp: [13, (w, a, p, hits) => { w.d(a); w.d(p); w.d(hits); }],
  decayConfidenceFp: [14, (w, a, c, f) => { w.d(a); w.d(c); w.d(f); }],
  decayConfidenceNFp: [15, (w, a, c, f, n) => { w.d(a); w.d(c); w.d(f); w.d(n); }],
  decayConfidence: [16, (w, c, a, f) => { w.d(c); w.d(kOr(a, DECAY_ALPHA)); w.d(kOr(f, DECAY_FLOOR)); }],
  decayConfidenceN: [17, (w, c, n, a, f) => { w.d(c); w.d(n); w.d(kOr(a, DECAY_ALPHA)); w.d(kOr(f, DECAY_FLOOR)); }],
  isCommittableConfidenceChange: [18, (w, b, a) => { w.d(b); w.d(a); }],
  signalValue: [19, (w, s) => w.s(s)],
  shouldBumpAccess: [20, (w, last, now, cd) => { w.d(last === undefined ? 0 : 1); w.d(last === undefined ? 0 : ms(last)); w.d(ms(now)); w.d(kOr(cd, COOLDOWN)); }],
  partitionByCooldown: [21, (w, list, now, cd) => {
    w.S(list.map((e) => e.path));
    w.U(list.map((e) => (e.lastAccessedAt === undefined ? 0 : 1)));
    w.D(list.map((e) => (e.lastAccessedAt === undefined ? 0 : ms(e.lastAccessedAt))));
    w.d(ms(now)); w.d(kOr(cd, COOLDOWN));
  }],
  weightsFor: [22, (w, t) => w.s(t)],
  halfLifeFor: [23, (w, t) => w.s(t)],
  profileWeightSum: [24, (w, p) => w.D(SIGNALS.map((k) => p[k]))],
  computeSignals: [25, retentionInput],
  compositeScore: [26, (w, sg, p) => { w.D(SIGNALS.map((k) => sg[k])); w.D(SIGNALS.map((k) => p[k])); }],
  bandFor: [27, (w, x) => w.d(x)],
  scoreRetention: [28, retentionInput],
  scoreRetentionMany: [29, (w, cols, o) => { w.S(cols.memoryType); for (const k of FIELDS) w.D(cols[k]); w.d(o?.signals ? 1 : 0); }],
  reprieveScore: [30, (w, x) => { w.d(x.importance); w.d(x.accessCount); w.d(x.outcomeScore); w.d(x.hoursSinceAccess); w.d(kOr(x.decayRate, 0.01)); }],
  shouldReprieve: [31, (w, x) => { w.d(x.score); w.d(x.reprieveCount); w.d(kOr(x.floor, 0.5)); w.d(kOr(x.maxReprieves, 3)); }],
  pagerank: [32, (w, nodes, edges, o_) => {
    const o = o_ ?? {};
    graphArg(w, nodes, edges);
    w.d(orDefault(o.damping, 0.85)); w.d(orDefault(o.maxIterations, 100)); w.d(orDefault(o.tolerance, 1e-6));
    const seeds = o.seeds ?? null;
    if (seeds && [...seeds.keys()].some((k) => typeof k !== "string")) throw new TypeError("native: seed keys must be strings");
    w.d(seeds ? 1 : 0); w.S(seeds ? [...seeds.keys()] : []); w.D(seeds ? [...seeds.values()] : []);
  }],
  labelPropagation: [33, (w, nodes, edges, o_) => {
    const o = o_ ?? {};
    graphArg(w, nodes, edges); w.d(orDefault(o.minCommunitySize, 3)); w.d(orDefault(o.maxSweeps, 100));
  }],
  bridgeCounts: [34, (w, nodes, edges, communities) => { graphArg(w, nodes, edges); w.W(labelIds(nodes, communities)); }],
  Graph: [35, graphArg],
  buildGraph: [35, graphArg],
  topNeighborPairs: [36, (w, vectors, o) => { vectorsArg(w, vectors); nopts(w, o); }],
  rankCandidatePairs: [37, (w, pairs, vectors, o) => {
    w.S(pairs.map((p) => p.src)); w.S(pairs.map((p) => p.dst)); vectorsArg(w, vectors); nopts(w, o);
  }],
  topNeighborPairsPacked: [38, (w, m, keys, o) => { w.F(m); w.S(keys); w.d(keys.length ? m.length / keys.length : 0); nopts(w, o); }],
};

console.log("native build: golden cases through the C API");
const ref = reference();
const w = new Writer();
const keys = [];
const noOp = new Set();
for (const module of NATIVE_MODULES) {
  for (const c of parseCases(readFileSync(`${GOLDEN}${module}.jsonl`, "utf8"))) {
    const op = OPS[c.fn];
    if (JS_ONLY.has(`${module}.${c.fn}`)) continue;
    if (!op) { noOp.add(`${module}.${c.fn}`); continue; }
    w.u32(op[0]);
    op[1](w, ...c.args.map(decode));
    keys.push(`${module}.${c.fn}`);
  }
}
check(noOp.size === 0, `every golden function of ${NATIVE_MODULES.join(", ")} has a native op (except ${[...JS_ONLY].join(", ")})`,
  [...noOp].join(", "));
// The harness's corpus: every call of a function that has a native op.
const gen = corpus(CORPUS.seed);
let corpusCalls = 0;
for (let i = 0; i < CORPUS.count; i++) {
  const { fn, args } = gen.next();
  const op = OPS[fn];
  if (!op) continue;
  w.u32(op[0]);
  op[1](w, ...args);
  keys.push(`corpus.${fn}`);
  corpusCalls++;
}
mkdirSync(RT, { recursive: true });
const header = Buffer.alloc(8);
header.write("MDC1", 0, "latin1");
header.writeUInt32LE(keys.length, 4);
writeFileSync(`${RT}native-cases.bin`, Buffer.concat([header, ...w.chunks]));

const r = await run(`${BUILD}tests/native_hash`, [`${RT}native-cases.bin`], { timeoutMs: 120000 });
if (check(r.code === 0, `native_hash ran ${keys.length} cases`, r.stderr)) {
  const groups = {};
  let at = 0;
  for (const key of keys) {
    const n = r.stdout.readUInt32LE(at);
    (groups[key] ??= []).push(new Uint8Array(r.stdout.subarray(at + 4, at + 4 + n)));
    at += 4 + n;
  }
  check(at === r.stdout.length, "native_hash wrote one output per case");
  const { hashes } = await hashGroups(groups);
  const want = Object.keys(ref.hashes).filter((k) => (NATIVE_MODULES.includes(k.split(".")[0]) && !JS_ONLY.has(k)) ||
    (k.startsWith("corpus.") && OPS[k.slice(7)]));
  check(want.some((k) => k.startsWith("corpus.")), `${corpusCalls} calls of the seeded corpus ran natively`);
  const missing = want.filter((k) => !(k in hashes));
  check(missing.length === 0, `native covers all ${want.length} golden and corpus groups of ${NATIVE_MODULES.join(", ")} that Node ran`, missing.join(", "));
  const differ = Object.keys(hashes).filter((k) => hashes[k] !== ref.hashes[k]);
  check(differ.length === 0, `native output hashes of ${Object.keys(hashes).length} functions equal Node's`,
    differ.map((k) => `${k}: ${hashes[k]} != node ${ref.hashes[k] ?? "missing"}`).join("\n"));
  writeFileSync(`${RT}results/native.json`, JSON.stringify({ runtime: "native", cases: keys.length, hashes }, null, 1));
}
finish("runtime-native");

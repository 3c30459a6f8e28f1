// The native build (build/libmemdomain.a) on the golden cases: Node writes the
// cases of the modules the C program covers as a binary list (the golden
// arguments after the JS glue's defaults and conversions: a Date becomes its
// time value, a missing k becomes RRF_K, ...), tests/runtimes/native_hash.c runs
// them through the C API and writes each output in the harness's canonical
// encoding; the per-function hashes must equal Node's (and so every runtime's).
// Covered natively: every function of the foundation modules (cosine, decay,
// ranking, reinforce, rrf). The later modules run only on wasm; their C parts
// have their own C unit tests.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { APP, BUILD, GOLDEN, RT, check, finish, reference, run } from "./lib.mjs";

const { hashGroups, parseCases } = await import(pathToFileURL(`${APP}harness/harness.js`).href);
const { decode } = await import(pathToFileURL(`${APP}harness/codec.js`).href);
const NATIVE_MODULES = ["cosine", "decay", "ranking", "reinforce", "rrf"];
const RRF_K = 60, COOLDOWN = 900, DECAY_ALPHA = 0.1, DECAY_FLOOR = 0.2;

class Writer {
  constructor() { this.chunks = []; }
  u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.chunks.push(b); }
  raw64(v) { const b = Buffer.alloc(8); b.writeDoubleLE(v); this.chunks.push(b); }
  tag(t) { this.chunks.push(Buffer.from(t, "latin1")); }
  rawStr(s) { const b = Buffer.from(s, "utf8"); this.u32(b.length); this.chunks.push(b); }
  d(v) { if (typeof v !== "number") throw new TypeError(`not a number: ${v}`); this.tag("d"); this.raw64(v); }
  D(list) { const a = Array.from(list); this.tag("D"); this.u32(a.length); for (const x of a) this.raw64(x); }
  S(list) { this.tag("S"); this.u32(list.length); for (const s of list) this.rawStr(s); }
  s(v) { this.tag("s"); this.rawStr(v); }
  U(list) { this.tag("U"); this.u32(list.length); this.chunks.push(Buffer.from(list)); }
}
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
};

console.log("native build: golden cases through the C API");
const ref = reference();
const w = new Writer();
const keys = [];
const noOp = new Set();
for (const module of NATIVE_MODULES) {
  for (const c of parseCases(readFileSync(`${GOLDEN}${module}.jsonl`, "utf8"))) {
    const op = OPS[c.fn];
    if (!op) { noOp.add(`${module}.${c.fn}`); continue; }
    w.u32(op[0]);
    op[1](w, ...c.args.map(decode));
    keys.push(`${module}.${c.fn}`);
  }
}
check(noOp.size === 0, "every function of the foundation modules has a native op", [...noOp].join(", "));
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
  const want = Object.keys(ref.hashes).filter((k) => NATIVE_MODULES.includes(k.split(".")[0]));
  const missing = want.filter((k) => !(k in hashes));
  check(missing.length === 0, `native covers all ${want.length} functions of ${NATIVE_MODULES.join(", ")} that Node ran`, missing.join(", "));
  const differ = Object.keys(hashes).filter((k) => hashes[k] !== ref.hashes[k]);
  check(differ.length === 0, `native output hashes of ${Object.keys(hashes).length} functions equal Node's`,
    differ.map((k) => `${k}: ${hashes[k]} != node ${ref.hashes[k] ?? "missing"}`).join("\n"));
  writeFileSync(`${RT}results/native.json`, JSON.stringify({ runtime: "native", cases: keys.length, hashes }, null, 1));
}
finish("runtime-native");

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
import { OPS, opCode } from "./native-ops.mjs";

const { CORPUS, hashGroups, parseCases } = await import(pathToFileURL(`${APP}harness/harness.js`).href);
const { corpus } = await import(pathToFileURL(`${APP}harness/corpus.js`).href);
const { decode } = await import(pathToFileURL(`${APP}harness/codec.js`).href);
const NATIVE_MODULES = ["cosine", "decay", "ranking", "reinforce", "rrf", "retention", "graph", "neighbors"];
const JS_ONLY = new Set(["neighbors.float32View"]);

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
    w.u32(opCode(c.fn));
    op(w, ...c.args.map(decode));
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
  w.u32(opCode(fn));
  op(w, ...args);
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

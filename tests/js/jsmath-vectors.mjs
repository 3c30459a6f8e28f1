// JavaScript-exact math vectors: seeded inputs across the whole double range
// for Math.exp, Math.log1p and Math.round, with Node's own outputs as the
// expected values. Used three ways:
//   - `node tests/js/jsmath-vectors.mjs OUT.bin [wasm...]` writes the vectors
//     for the native checker (tests/c/jsmath_check.c) and compares every listed
//     wasm build's md_js_* exports (mk/jsmath.mk runs this);
//     and, first, that the vectors are seeded (deterministic) and cover the
//     special values, subnormals and huge magnitudes.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const COUNT = 1 << 20; // 1,048,576 inputs per function
export const SEED = 0x5eed2026;
export const FUNCS = [
  { name: "exp", js: Math.exp, wasm: "md_js_exp" },
  { name: "log1p", js: Math.log1p, wasm: "md_js_log1p" },
  { name: "round", js: Math.round, wasm: "md_js_round" },
];

// xoshiro128**: a small seeded 32-bit PRNG (splitmix32 seeding).
function rng(seed) {
  let s = seed >>> 0;
  const sm = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = sm(), b = sm(), c = sm(), d = sm();
  const next = () => {
    const r = Math.imul(((Math.imul(b, 5) << 7) | (Math.imul(b, 5) >>> 25)), 9) >>> 0;
    const t = b << 9;
    c ^= a; d ^= b; b ^= c; a ^= d; c ^= t;
    d = (d << 11) | (d >>> 21);
    return r;
  };
  const unit = () => (next() * 2 ** -32 + next()) * 2 ** -32; // [0, 1)
  return { next, unit, below: (n) => Math.floor(unit() * n) };
}

const wbuf = new DataView(new ArrayBuffer(8));
const fromWords = (hi, lo) => {
  wbuf.setUint32(0, hi >>> 0);
  wbuf.setUint32(4, lo >>> 0);
  return wbuf.getFloat64(0);
};
const hiWord = (x) => { wbuf.setFloat64(0, x); return wbuf.getUint32(0); };
const nextUp = (x, k) => { // x moved k ulps away from zero (or toward, k < 0), same sign
  wbuf.setFloat64(0, x);
  wbuf.setBigUint64(0, wbuf.getBigUint64(0) + BigInt(k));
  return wbuf.getFloat64(0);
};

const SPECIALS = [0, -0, Infinity, -Infinity, NaN, Number.MIN_VALUE, -Number.MIN_VALUE,
  Number.MAX_VALUE, -Number.MAX_VALUE, 2.2250738585072014e-308, -2.2250738585072014e-308,
  2.225073858507201e-308, 1, -1, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994,
  -0.49999999999999994, 2 ** 52, 2 ** 52 + 1, 2 ** 53, -(2 ** 52) - 1, 2 ** 52 - 0.5, -(2 ** 52) + 0.5,
  Math.LN2, -Math.LN2, Math.LN2 / 2, 1.5 * Math.LN2, 709.782712893384, 709.7827128933841,
  -745.1332191019411, -745.1332191019412, -708.3964185322641, -1 + 2 ** -53, -1 - 2 ** -52,
  Math.SQRT2 - 1, Math.SQRT1_2 - 1, 2 ** -28, 2 ** -29, 2 ** -54, -(2 ** -54), 1e-300, -1e-300,
  1e300, -1e300, 3, 10, 100, 1e6];

// Any double, sign and all: random bits (includes NaN payloads and subnormals).
const anyBits = (r) => fromWords(r.next(), r.next());
// Log-uniform magnitude over every exponent, random sign.
const anyMagnitude = (r) => fromWords(((r.below(2047) << 20) | (r.next() & 0xfffff)) ^ (r.next() & 0x80000000), r.next());
const subnormal = (r) => fromWords((r.next() & 0x800fffff), r.next());
const uniform = (r, lo, hi) => lo + (hi - lo) * r.unit();
const nearWord = (r, words) => { // a random low word under a boundary high word (+-1), random sign
  const w = words[r.below(words.length)] + r.below(3) - 1;
  return fromWords((w ^ (r.next() & 0x80000000)) >>> 0, r.next());
};
const ulpsFrom = (r, x) => nextUp(x, r.below(64) - 32 + (x === 0 ? 32 : 0));

const GEN = {
  exp(r) {
    switch (r.below(12)) {
      case 0: return anyBits(r);
      case 1: return anyMagnitude(r);
      case 2: return uniform(r, -746, 710);
      case 3: return uniform(r, -3, 3);
      case 4: return nearWord(r, [0x40862e42, 0x3fd62e42, 0x3ff0a2b2, 0x3e300000, 0x40874910, 0x7ff00000]);
      case 5: return ulpsFrom(r, [709.782712893384, -745.1332191019411, -708.3964185322641, 709.0895657128241][r.below(4)]);
      case 6: return ulpsFrom(r, (r.below(2150) - 1075 + 0.5) * Math.LN2); // where k rounds
      case 7: return (-Math.LN2 * uniform(r, 0, 5000)) / [10, 90, 30, 14][r.below(4)]; // recency arguments
      case 8: return -uniform(r, 0, 0.01) * uniform(r, 0, 1e4); // reprieve recency arguments
      case 9: return fromWords(((r.below(0x3e300000 - 0x3c000000) + 0x3c000000) ^ (r.next() & 0x80000000)) >>> 0, r.next()); // tiny
      case 10: return subnormal(r);
      default: return r.below(1500) - 750 + [0, 0.5, 0.25][r.below(3)];
    }
  },
  log1p(r) {
    switch (r.below(12)) {
      case 0: return anyBits(r);
      case 1: return Math.abs(anyMagnitude(r));
      case 2: return uniform(r, -1, 1);
      case 3: return -1 + uniform(r, 0, 1) * 2 ** -r.below(60); // near -1
      case 4: return nearWord(r, [0x3fda827a, 0xbfd2bec4, 0xbfd2bec3, 0x3e200000, 0x3c900000, 0x43400000, 0x3ff00000, 0x7ff00000]);
      case 5: { // 1 + x straddling the sqrt(2) normalization boundary of its binade
        const e = r.below(1070) - 30;
        const u = fromWords(((e + 1023) << 20) | (0x6a09e + r.below(3) - 1), r.next());
        return u - 1;
      }
      case 6: return 2 ** r.below(1024) - [1, 0, 2][r.below(3)] + (r.below(2) ? uniform(r, -1, 1) : 0);
      case 7: return r.below(1000000); // access counts
      case 8: return uniform(r, 0, 1000);
      case 9: return fromWords(((r.below(0x3e200000 - 0x3c000000) + 0x3c000000) ^ (r.next() & 0x80000000)) >>> 0, r.next());
      case 10: return subnormal(r);
      default: return uniform(r, -0.3, 0.42);
    }
  },
  round(r) {
    switch (r.below(10)) {
      case 0: return anyBits(r);
      case 1: return anyMagnitude(r);
      case 2: return (r.below(2 ** 21) - 2 ** 20) + 0.5; // halves, both signs
      case 3: return ulpsFrom(r, (r.below(2 ** 21) - 2 ** 20) + 0.5); // near halves
      case 4: return (r.below(2) ? 1 : -1) * (2 ** (51 + r.below(3)) + r.below(1 << 20) + [0, 0.5, 0.25][r.below(3)]);
      case 5: return uniform(r, -1, 1);
      case 6: return ulpsFrom(r, [0.5, -0.5, 1.5, -1.5, 0.49999999999999994, -0.49999999999999994][r.below(6)]);
      case 7: return uniform(r, 0, 1) * 1e4; // composite * 10^4
      case 8: return subnormal(r);
      default: return uniform(r, -1e6, 1e6);
    }
  },
};

/** The seeded inputs for one function, specials first. */
export function generate(name, count = COUNT, seed = SEED) {
  const r = rng(seed ^ (name.length * 0x9e3779b9) ^ name.charCodeAt(0));
  const xs = new Float64Array(count);
  let i = 0;
  for (const s of SPECIALS) if (i < count) xs[i++] = s;
  for (; i < count; i++) xs[i] = GEN[name](r);
  return xs;
}

/** Object.is-style equality that ignores NaN payloads. */
export const sameBits = (a, b) => (Number.isNaN(a) ? Number.isNaN(b) : Object.is(a, b));

/** Differences between `fn` over xs and the expected values (first few, and a count). */
export function compare(xs, expected, fn) {
  let count = 0;
  const first = [];
  for (let i = 0; i < xs.length; i++) {
    const got = fn(xs[i]);
    if (!sameBits(got, expected[i])) {
      if (count++ < 5) first.push({ x: xs[i], hi: hiWord(xs[i]).toString(16), got, want: expected[i] });
    }
  }
  return { count, first };
}

export function loadWasm(path) {
  const inst = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(path)),
    { env: { emscripten_notify_memory_growth() {} } });
  if (typeof inst.exports._initialize === "function") inst.exports._initialize();
  return inst.exports;
}

// ---------------------------------------------------------------- CLI

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [out, ...wasms] = process.argv.slice(2);
  if (!out) {
    console.error("usage: node tests/js/jsmath-vectors.mjs OUT.bin [build.wasm ...]");
    process.exit(2);
  }
  // Layout: "MDJSMATH", u32 function count, then per function (exp, log1p,
  // round): u32 count, f64 inputs[count], f64 expected[count]. Little-endian.
  const parts = [];
  const head = Buffer.alloc(12);
  head.write("MDJSMATH", 0, "latin1");
  head.writeUInt32LE(FUNCS.length, 8);
  parts.push(head);
  let failed = 0;
  const exps = wasms.map((w) => [w, loadWasm(w)]);
  for (const { name, js, wasm } of FUNCS) {
    const xs = generate(name);
    // The vectors themselves: seeded, every special value, subnormals and huge magnitudes.
    const again = generate(name, 1000);
    const specials = [0, -0, Infinity, -Infinity, NaN, Number.MIN_VALUE, -Number.MAX_VALUE];
    let subnormals = 0, huge = 0;
    for (const x of xs) {
      if (x !== 0 && Math.abs(x) < 2.2250738585072014e-308) subnormals++;
      if (Math.abs(x) > 1e300 && Number.isFinite(x)) huge++;
    }
    const cover = xs.length === COUNT && COUNT >= 1000000 && again.every((x, i) => sameBits(x, xs[i])) &&
      specials.every((sp) => xs.some((x) => sameBits(x, sp))) && subnormals > 1000 && huge > 100;
    console.log(`vectors ${name}: ${xs.length} seeded inputs, every special value, ${subnormals} subnormal, ${huge} huge: ${cover ? "ok" : "FAIL"}`);
    if (!cover) failed++;
    const want = xs.map(js);
    const n = Buffer.alloc(4);
    n.writeUInt32LE(xs.length);
    parts.push(n, Buffer.from(xs.buffer), Buffer.from(want.buffer));
    for (const [path, ex] of exps) {
      const { count, first } = compare(xs, want, ex[wasm]);
      console.log(`${path.split("/").pop()}: ${wasm}: ${xs.length} inputs, ${count} differ from Math.${name}`);
      for (const f of first) console.log(`  x=${f.x} (hi ${f.hi}) got ${f.got} want ${f.want}`);
      if (count) failed++;
    }
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, Buffer.concat(parts));
  console.log(`wrote ${out}`);
  process.exit(failed ? 1 : 0);
}

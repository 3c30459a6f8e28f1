// Runtime-neutral golden harness: runs the golden files of the given modules
// through a loaded memdomain API, checks every case with the golden codec's
// rules, and hashes a canonical encoding of every output, so that Node, Deno,
// workerd, Chromium and the native build can be compared by their hashes.
// Uses only what every runtime has: TextEncoder, DataView, crypto.subtle.
// It is copied next to codec.js into the scratch project (build/rt/app/harness/),
// so "effect" resolves to the copy the installed package uses.
import { Option } from "effect";
import { decode, mismatch } from "./codec.js";
import { callExport, corpus } from "./corpus.js";

/** The seeded random corpus every runtime runs after the golden files. */
export const CORPUS = { seed: 20261130, count: 3000 };

const utf8 = new TextEncoder();

/**
 * Canonical bytes of a value, written to `out` (an array of byte chunks).
 * Tags: n f64 (little-endian bits, every NaN as 0x7ff8...), s UTF-8 string,
 * t/f booleans, z null, u undefined, a array, F Float32Array (elements as f64),
 * D Float64Array, B Uint8Array, W Uint32Array (elements as u32), m Map (entries in order), T Set, d Date, N/S Option,
 * o object (keys in JavaScript order, undefined values dropped), E thrown error (name).
 * Counts and lengths are u32 little-endian.
 */
export function encodeValue(v, out) {
  if (typeof v === "number") return out.push(f64Bytes("n", v));
  if (typeof v === "string") return pushString(out, "s", v);
  if (v === true) return out.push(tag("t"));
  if (v === false) return out.push(tag("f"));
  if (v === null) return out.push(tag("z"));
  if (v === undefined) return out.push(tag("u"));
  if (Array.isArray(v)) {
    out.push(count("a", v.length));
    for (const x of v) encodeValue(x, out);
    return;
  }
  if (v instanceof Float32Array || v instanceof Float64Array) {
    out.push(count(v instanceof Float32Array ? "F" : "D", v.length));
    for (const x of v) out.push(f64Bytes("", x));
    return;
  }
  if (v instanceof Uint32Array) {
    out.push(count("W", v.length));
    for (const x of v) out.push(count("", x).subarray(1));
    return;
  }
  if (v instanceof Uint8Array) {
    out.push(count("B", v.length));
    out.push(new Uint8Array(v));
    return;
  }
  if (v instanceof Map) {
    out.push(count("m", v.size));
    for (const [k, x] of v) {
      encodeValue(k, out);
      encodeValue(x, out);
    }
    return;
  }
  if (v instanceof Date) return out.push(f64Bytes("d", v.getTime()));
  if (Option.isOption(v)) {
    if (Option.isNone(v)) return out.push(tag("N"));
    out.push(tag("S"));
    return encodeValue(v.value, out);
  }
  if (v instanceof Set) {
    out.push(count("T", v.size));
    for (const x of v) encodeValue(x, out);
    return;
  }
  const proto = typeof v === "object" ? Object.getPrototypeOf(v) : undefined;
  if (proto === Object.prototype || proto === null) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort();
    out.push(count("o", keys.length));
    for (const k of keys) {
      pushString(out, "s", k);
      encodeValue(v[k], out);
    }
    return;
  }
  // Not silently: a new kind of result needs its own tag here (and in native_hash.c).
  throw new Error(`harness: no canonical encoding for ${v?.constructor?.name ?? typeof v}`);
}

function tag(t) {
  return Uint8Array.of(t.charCodeAt(0));
}

function count(t, n) {
  const b = new Uint8Array(5);
  b[0] = t.charCodeAt(0);
  new DataView(b.buffer).setUint32(1, n, true);
  return b;
}

function f64Bytes(t, x) {
  const b = new Uint8Array(t ? 9 : 8);
  if (t) b[0] = t.charCodeAt(0);
  const dv = new DataView(b.buffer);
  if (Number.isNaN(x)) dv.setUint32(b.length - 4, 0x7ff80000, true); // the low word stays 0
  else dv.setFloat64(b.length - 8, x, true);
  return b;
}

function pushString(out, t, s) {
  const bytes = utf8.encode(s);
  out.push(count(t, bytes.length));
  out.push(bytes);
}

/** Canonical bytes of one case's outcome: its value, or E + the error's name. */
export function encodeOutcome(run) {
  const out = [];
  let value;
  try {
    value = run();
  } catch (e) {
    pushString(out, "E", String(e?.name ?? "Error"));
    return concat(out);
  }
  encodeValue(value, out); // an unencodable result throws out of the harness
  return concat(out);
}

export function concat(chunks) {
  let n = 0;
  for (const c of chunks) n += c.length;
  const all = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

export async function sha256(bytes) {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Parse a JSON Lines golden file. */
export function parseCases(text) {
  return text.split("\n").filter((l) => l.trim()).map((l, i) => ({ line: i + 1, ...JSON.parse(l) }));
}

/**
 * Hash per "module.fn" key: SHA-256 over the concatenated canonical outcomes of
 * that key's cases in file order; `total` hashes the sorted "key=hash" lines.
 */
export async function hashGroups(groups) {
  const hashes = {};
  for (const key of Object.keys(groups).sort()) hashes[key] = await sha256(concat(groups[key]));
  const lines = Object.keys(hashes).sort().map((k) => `${k}=${hashes[k]}\n`).join("");
  return { hashes, total: await sha256(utf8.encode(lines)) };
}

/**
 * Run the golden files of `modules` (and the constants those modules export)
 * on `api`. `readText(name)` returns the text of golden file `name`.
 * Resolves to { cases, failures, hashes, total }: failures lists every case
 * whose output differs from `expect` (at most 20 shown, with the count).
 */
export async function runGolden(api, readText, modules, constantModule) {
  const groups = {};
  const failures = [];
  let cases = 0, failed = 0;
  for (const module of modules) {
    for (const c of parseCases(await readText(`${module}.jsonl`))) {
      cases++;
      let actual, threw = null;
      const bytes = encodeOutcome(() => {
        const fn = api[c.fn];
        if (typeof fn !== "function") throw new ReferenceError(`${c.fn} is not exported`);
        try {
          return (actual = fn(...c.args.map(decode)));
        } catch (e) {
          threw = e;
          throw e;
        }
      });
      const why = threw ? `threw ${threw?.name}: ${threw?.message}` : mismatch(actual, c.expect);
      if (why && ++failed <= 20) failures.push(`${module}.jsonl line ${c.line} ${c.fn}: ${why}`);
      (groups[`${module}.${c.fn}`] ??= []).push(bytes);
    }
  }
  const [{ expect: want }] = parseCases(await readText("constants.jsonl"));
  const names = Object.keys(want).filter((k) => modules.includes(constantModule[k])).sort();
  for (const k of names) {
    cases++;
    const why = k in api ? mismatch(api[k], want[k], k) : `${k} is not exported`;
    if (why && ++failed <= 20) failures.push(`constants.jsonl ${k}: ${why}`);
    (groups.constants ??= []).push(concat([utf8.encode(k), encodeOutcome(() => api[k])]));
  }
  if (failed > 20) failures.push(`... ${failed} failing cases in all`);
  // The corpus: no expected values (only the hashes are compared across
  // runtimes), but every call must return an encodable value or throw a
  // TypeError/RangeError.
  const gen = corpus(CORPUS.seed);
  for (let i = 0; i < CORPUS.count; i++) {
    const { fn, args } = gen.next();
    cases++;
    let bad = null;
    const bytes = encodeOutcome(() => {
      try {
        return callExport(api, fn, args);
      } catch (e) {
        if (!(e instanceof TypeError || e instanceof RangeError)) bad = e;
        throw e;
      }
    });
    if (bad && ++failed <= 20) failures.push(`corpus call ${i} ${fn}: threw ${bad?.name}: ${bad?.message}`);
    (groups[`corpus.${fn}`] ??= []).push(bytes);
  }
  return { cases, failed, failures, ...(await hashGroups(groups)) };
}

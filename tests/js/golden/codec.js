// Decoding the golden files' JSON forms into JavaScript values, and comparing
// results with the README's rules (Object.is numbers, ordered Maps, Options).
import { Option } from "effect";

export function decode(v) {
  if (Array.isArray(v)) return v.map(decode);
  if (v === null || typeof v !== "object") return v;
  if ("$f64" in v) return { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity, "-0": -0 }[v.$f64];
  if ("$f32" in v) return new Float32Array(v.$f32.map(decode));
  if ("$u8" in v) {
    const off = v.offset ?? 0;
    const u8 = new Uint8Array(new ArrayBuffer(off + v.$u8.length + 3), off, v.$u8.length);
    u8.set(v.$u8);
    return u8;
  }
  if ("$map" in v) return new Map(v.$map.map(([k, x]) => [decode(k), decode(x)]));
  if ("$date" in v) return new Date(v.$date);
  if ("$undefined" in v) return undefined;
  if ("$none" in v) return Option.none();
  if ("$some" in v) return Option.some(decode(v.$some));
  const o = {};
  for (const [k, x] of Object.entries(v)) o[k] = decode(x);
  return o;
}

/** Why `actual` differs from the encoded `expect`, or null when it matches. */
export function mismatch(actual, expect, path = "$") {
  if (typeof expect === "number") {
    return typeof actual === "number" && Object.is(actual, expect) ? null : `${path}: ${show(actual)} != ${expect}`;
  }
  if (expect === null || typeof expect !== "object") {
    return actual === expect ? null : `${path}: ${show(actual)} != ${JSON.stringify(expect)}`;
  }
  if (Array.isArray(expect)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${show(actual)}`;
    if (actual.length !== expect.length) return `${path}: length ${actual.length} != ${expect.length}`;
    for (let i = 0; i < expect.length; i++) {
      const m = mismatch(actual[i], expect[i], `${path}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if ("$f64" in expect) {
    const want = decode(expect);
    return typeof actual === "number" && Object.is(actual, want) ? null : `${path}: ${show(actual)} != ${expect.$f64}`;
  }
  if ("$f32" in expect) {
    if (!(actual instanceof Float32Array)) return `${path}: expected a Float32Array, got ${show(actual)}`;
    return mismatch(Array.from(actual), expect.$f32, path);
  }
  if ("$map" in expect) {
    if (!(actual instanceof Map)) return `${path}: expected a Map, got ${show(actual)}`;
    const entries = [...actual];
    if (entries.length !== expect.$map.length) return `${path}: Map size ${entries.length} != ${expect.$map.length}`;
    for (let i = 0; i < entries.length; i++) {
      const mk = mismatch(entries[i][0], expect.$map[i][0], `${path}.key#${i}`);
      if (mk) return mk;
      const mv = mismatch(entries[i][1], expect.$map[i][1], `${path}.get(${JSON.stringify(entries[i][0])})`);
      if (mv) return mv;
    }
    return null;
  }
  if ("$undefined" in expect) return actual === undefined ? null : `${path}: ${show(actual)} != undefined`;
  if ("$none" in expect) return Option.isOption(actual) && Option.isNone(actual) ? null : `${path}: expected None, got ${show(actual)}`;
  if ("$some" in expect) {
    if (!Option.isOption(actual) || !Option.isSome(actual)) return `${path}: expected Some, got ${show(actual)}`;
    return mismatch(actual.value, expect.$some, `${path}.value`);
  }
  if ("$date" in expect) return actual instanceof Date && actual.getTime() === expect.$date ? null : `${path}: date mismatch`;
  if ("$u8" in expect) return mismatch(Array.from(actual ?? []), expect.$u8, path);
  // A plain object: same keys (an undefined value counts as absent), each matching.
  if (actual === null || typeof actual !== "object") return `${path}: expected an object, got ${show(actual)}`;
  const isAbsent = (x) => x === undefined || (x && typeof x === "object" && "$undefined" in x);
  const want = Object.keys(expect).filter((k) => !isAbsent(expect[k]));
  const have = Object.keys(actual).filter((k) => actual[k] !== undefined);
  const extra = have.filter((k) => !want.includes(k));
  if (extra.length) return `${path}: unexpected keys ${extra.join(", ")}`;
  for (const k of want) {
    const m = mismatch(actual[k], expect[k], `${path}.${k}`);
    if (m) return m;
  }
  return null;
}

function show(v) {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (v instanceof Map) return `Map(${JSON.stringify([...v])})`;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

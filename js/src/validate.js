// The argument checks of the glue and of memdomain/cache, in one wording. Every error names
// the function and the argument, and what it got:
//   TypeError  "fuseArms: armResults[0][1].rank must be a number, got a string"
//   RangeError "put: memories[3].gist has 5000 characters, more than the limit 4096"
// The checks here are JavaScript types only (C checks what C computes); memdomain/cache's
// field rules (js/cache/validate.js) are built on typeError, rangeError and arr.

export function typeError(fn, arg, expected, value) {
  return new TypeError(`${fn}: ${arg} must be ${expected}, got ${describe(value)}`);
}

export function rangeError(fn, arg, why) {
  return new RangeError(`${fn}: ${arg} ${why}`);
}

/** n, the entry count of `arg`; a RangeError past `max` (the core's index limit). */
export function count(fn, arg, n, max) {
  if (n > max) throw rangeError(fn, arg, `has ${n} entries, more than memdomain accepts`);
  return n;
}

const article = (name) => (/^[AEIOUaeiou]/.test(name) ? `an ${name}` : `a ${name}`);

/**
 * What an error says it got: null, undefined, a number as itself (NaN, -5, 0.7), an array, an
 * object by its constructor (an Object, a Float32Array, a Map), else the type with its article
 * (a string, a boolean, a function).
 */
export function describe(v) {
  if (v === null || v === undefined || typeof v === "number") return String(v);
  if (typeof v === "object") {
    try {
      if (Array.isArray(v)) return "an array";
      const ctor = v.constructor?.name;
      return typeof ctor === "string" && ctor ? article(ctor) : "an object";
    } catch {
      return "an object"; // a revoked Proxy or a throwing getter: the message is still built
    }
  }
  return article(typeof v);
}

// ---------------------------------------------------------------- checks

export function num(fn, arg, v) {
  if (typeof v !== "number") throw typeError(fn, arg, "a number", v);
  return v;
}

/** A number, or the default when undefined (a JavaScript default parameter: null is an error). */
export function numOr(fn, arg, v, dflt) {
  return v === undefined ? dflt : num(fn, arg, v);
}

/** A number, or the default when undefined or null (the reference reads the field with `??`). */
export function numNullish(fn, arg, v, dflt) {
  return v === undefined || v === null ? dflt : num(fn, arg, v);
}

export function str(fn, arg, v) {
  if (typeof v !== "string") throw typeError(fn, arg, "a string", v);
  return v;
}

export function arr(fn, arg, v) {
  if (!Array.isArray(v)) throw typeError(fn, arg, "an array", v);
  return v;
}

export function obj(fn, arg, v) {
  if (v === null || typeof v !== "object") throw typeError(fn, arg, "an object", v);
  return v;
}

export function map(fn, arg, v) {
  if (!(v instanceof Map)) throw typeError(fn, arg, "a Map", v);
  return v;
}

/** A Date's time value (NaN for an invalid Date). */
export function dateMs(fn, arg, v) {
  if (!(v instanceof Date)) throw typeError(fn, arg, "a Date", v);
  return Date.prototype.getTime.call(v);
}

/** matrix.length / by as a whole number of rows (0 when by and the matrix are 0); else a RangeError naming `matrix`. */
export function per(fn, matrix, by, what) {
  const q = by === 0 ? 0 : matrix.length / by;
  if (by === 0 ? matrix.length !== 0 : !Number.isInteger(q))
    throw rangeError(fn, "matrix", `has ${matrix.length} elements, not a multiple of ${what} (${by})`);
  return q;
}

export const MAX_ELEMENTS = 0x0fffffff; // 2^28: 2 GiB of f64, past what wasm32 can hold

/**
 * An ArrayLike<number> as doubles: a Float32Array is widened exactly, a
 * number[] (or any array-like of numbers) is copied. Throws for anything
 * that is not an array-like of numbers.
 */
export function vector(fn, arg, v) {
  if (v instanceof Float32Array || v instanceof Float64Array) return v; // a Float32Array is widened when written
  if (v === null || typeof v !== "object" || typeof v === "function")
    throw typeError(fn, arg, "an array-like of numbers", v);
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    if (v instanceof BigInt64Array || v instanceof BigUint64Array)
      throw typeError(fn, arg, "an array-like of numbers", v);
    return v;
  }
  const n = v.length;
  if (typeof n !== "number" || !(n >= 0) || n !== Math.floor(n))
    throw typeError(fn, arg, "an array-like of numbers", v);
  if (n > MAX_ELEMENTS) throw rangeError(fn, arg, `has ${n} elements, more than memdomain accepts`);
  for (let i = 0; i < n; i++) {
    if (typeof v[i] !== "number") throw typeError(fn, `${arg}[${i}]`, "a number", v[i]);
  }
  return v;
}

// ---------------------------------------------------------------- the table's checks

// wasm/boundary.def's `as` lines state every public function's arguments once; js/src/api.js
// (generated) holds them as ARGS: per function a list [fn, prefix, name, kind, default, ...],
// kind a type (tools/api.mjs: KIND) plus 16 (undefined takes the default), 32 (null does too),
// 1024 (a range: [default, lo, hi, integer] in the default's place) and 4096 times an array's most
// entries (`of at most N`: bitwise tests of the kind read only its low 32 bits, which keep the flags), an element kind times 64 for
// an array of numbers or strings; an object's fields (or an array's elements') a nested list of
// the same shape in the default's place.
const EXPECT = ["", "a number", "a string", "a boolean", "an array", "an object", "a Map", "a Date",
  "an array-like of numbers", "a Float32Array", "a Uint32Array", "a Float64Array or a Float32Array", "a Float64Array"];

function is(t, v) {
  switch (t) {
    case 0: return true; // a union the function checks itself
    case 1: return typeof v === "number";
    case 2: return typeof v === "string";
    case 3: return typeof v === "boolean";
    case 4: return Array.isArray(v);
    case 5: return v !== null && typeof v === "object";
    case 6: return v instanceof Map;
    case 9: return v instanceof Float32Array;
    case 10: return v instanceof Uint32Array;
    case 12: return v instanceof Float64Array;
    default: return v instanceof Float64Array || v instanceof Float32Array;
  }
}

/**
 * Argument i of descriptor d (ARGS.<fn>, or an object's nested list) checked: its default when
 * absent, the value when of its type (a Date's time value; an array-like of numbers as `vector`
 * checks it), else a TypeError naming it as the table does.
 */
export function arg(d, i, v) {
  const at = 2 + 3 * i, k = d[at + 1];
  if (v === undefined ? k & 16 : v === null && k & 32) return k & 1024 ? d[at + 2][0] : k & 15 ^ 5 ? d[at + 2] : undefined;
  const t = k & 15;
  if (t === 8) return v instanceof Float32Array || v instanceof Float64Array ? v : vector(d[0], d[1] + d[at], v);
  if (t === 7) return dateMs(d[0], d[1] + d[at], v);
  if (!is(t, v)) throw typeError(d[0], d[1] + d[at], EXPECT[t], v);
  if (k >= 4096 && v.length > Math.floor(k / 4096)) count(d[0], d[1] + d[at], v.length, Math.floor(k / 4096)); // `of at most N`
  if (k & 1024) { // a range: [default, lo, hi, integer]
    const [, lo, hi, int] = d[at + 2];
    if (!(v >= lo && v <= hi) || (int && !Number.isInteger(v)))
      throw rangeError(d[0], d[1] + d[at], `must be ${int ? "an integer " : ""}in [${lo}, ${hi}]`);
  }
  return v;
}

/** Array argument i whose elements are numbers or strings (`readonly number[]`): the array, each element checked. */
export function items(d, i, v) {
  const at = 2 + 3 * i, t = d[at + 1] >> 6 & 15;
  arg(d, i, v);
  for (let j = 0; j < v.length; j++) if (!is(t, v[j])) item(d, i, j, v[j]);
  return v;
}

/** Element j of array argument i is not of its kind: the TypeError naming it (`gists[3] must be a string`). */
export function item(d, i, j, v) {
  const at = 2 + 3 * i;
  throw typeError(d[0], `${d[1]}${d[at]}[${j}]`, EXPECT[d[at + 1] >> 6 & 15], v);
}

/**
 * Element j of array argument i whose elements are objects (`readonly { a: T, ... }[]` in the table): its
 * fields checked and in the table's order, as an array; a TypeError naming `arg[j]` or `arg[j].field`.
 */
export function element(d, i, j, v) {
  const f = d[4 + 3 * i], n = (f.length - 2) / 3, out = new Array(n);
  if (v === null || typeof v !== "object") elementBad(d, i, j, -1, v);
  for (let q = 0; q < n; q++) {
    const at = 2 + 3 * q, k = f[at + 1], t = k & 15, x = v[f[at]];
    if (x === undefined ? k & 16 : x === null && k & 32) { out[q] = k & 15 ^ 5 ? f[at + 2] : undefined; continue; }
    out[q] = t === 8 ? vector(d[0], `${f[1]}[${j}].${f[at]}`, x) : t === 7 ? dateMs(d[0], `${f[1]}[${j}].${f[at]}`, x)
      : is(t, x) ? x : elementBad(d, i, j, q, x);
  }
  return out;
}

/**
 * Field q of element j of array argument i (q = -1: the element itself) is not of its kind: the TypeError naming
 * it. For an array of arrays (`readonly (readonly { ... }[])[]`) j is [i, j]; [i] with q = -1: array i itself.
 */
export function elementBad(d, i, j, q, v) {
  const f = d[4 + 3 * i], at = typeof j === "number" ? j : j.join("][");
  if (q < 0) throw typeError(d[0], `${f[1]}[${at}]`, typeof j !== "number" && j.length === 1 ? "an array" : "an object", v);
  throw typeError(d[0], `${f[1]}[${at}].${f[2 + 3 * q]}`, EXPECT[f[3 + 3 * q] & 15], v);
}

/** An entry of Map argument i (`ReadonlyMap<string, number>`) is not of its kind: the TypeError naming its key or value. */
export function entryBad(d, i, key, v, isKey) {
  const at = 2 + 3 * i, name = d[1] + d[at];
  if (isKey) throw typeError(d[0], `${name} key`, "a string", key);
  throw typeError(d[0], `${name}.get(${JSON.stringify(key)})`, EXPECT[d[at + 1] >> 6 & 15], v);
}

/** The fields of object argument i (checked as `arg` checks them, read in the table's order), as an array. */
export function fields(d, i, o) {
  const f = d[4 + 3 * i], n = (f.length - 2) / 3, out = new Array(n);
  const absent = arg(d, i, o) === undefined;
  for (let j = 0; j < n; j++) out[j] = arg(f, j, absent ? undefined : o[f[2 + 3 * j]]);
  return out;
}

// memdomain/cache: argument checks. Every check runs before anything is read or
// written, and every error names the method and the field, in the glue's one wording
// (js/src/validate.js: typeError, rangeError, and arrays checked by its arr):
//   TypeError  "put: memories[3].gist must be a string, got a number"
//   RangeError "search: vector has 3 elements, not the cache's dimension 384"
import { arr, describe, rangeError, typeError } from "../src/validate.js";

export { arr, rangeError, typeError };

/**
 * Any value as an error message shows it, never throwing while the message is built (String() of
 * a null-prototype object throws, of a deeply nested array overflows the stack): a string quoted
 * (its first 80 characters), a number, boolean, bigint, null or undefined as itself, anything else
 * as describe() names it ("an Object", "an array").
 */
export function shown(v) {
  if (typeof v === "string") return JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}...` : v);
  if (v === null || v === undefined || typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  try {
    return describe(v);
  } catch {
    return "an object"; // a Proxy whose traps throw
  }
}

/** An error's message as text, whatever was thrown (a non-string message, an object that is not an Error). */
export function messageOf(e) {
  if (typeof e?.message === "string") return e.message;
  return typeof e === "string" ? e : shown(e);
}

export function record(fn, arg, v) {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw typeError(fn, arg, "an object", v);
  return v;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The index of the first lone surrogate of a string, or -1 (SQLite stores text as UTF-8, which has no lone surrogates). */
export function loneSurrogate(v) {
  if (typeof v.isWellFormed === "function" && v.isWellFormed()) return -1;
  const m = LONE_SURROGATE.exec(v);
  return m ? m.index : -1;
}

/**
 * A string of at most `max` UTF-16 units; `key` strings must also be non-empty. Every
 * stored string must be well-formed: SQLite keeps UTF-8, and each backend replaces a lone
 * surrogate with U+FFFD its own way (one character on sqlite-wasm, three on
 * better-sqlite3), so two paths would collide and a gist would differ between backends.
 * Nor may it hold U+0000: node:sqlite on Node 22 reads text only up to its first NUL
 * (`a\u0000b` and `a\u0000c` both read back as `a`), and SQLite's own length() and FTS5's
 * tokenizer stop there too. Keys and `text` (a stored gist or body) are checked; query text
 * is not (neither is a word there).
 */
export function string(fn, arg, v, max, { key = false, text = false } = {}) {
  if (typeof v !== "string") throw typeError(fn, arg, "a string", v);
  if (v.length > max) throw rangeError(fn, arg, `has ${v.length} characters, more than the limit ${max}`);
  if (key && v.length === 0) throw rangeError(fn, arg, "must not be empty");
  if (key || text) {
    const nul = v.indexOf("\u0000");
    if (nul >= 0) {
      throw rangeError(fn, arg, `holds a NUL character (U+0000) at index ${nul}, which SQLite does not read back alike on every ` +
        "driver (node:sqlite on Node 22 cuts the text there)");
    }
    const at = loneSurrogate(v);
    if (at >= 0) {
      throw rangeError(fn, arg, `holds a lone surrogate at index ${at}, which SQLite cannot store as text ` +
        `(it would become U+FFFD${key ? " and collide" : ""})`);
    }
  }
  return v;
}

/** A finite number in [lo, hi]; `undefined` (or null when `nullable`) takes `dflt`. */
export function finite(fn, arg, v, { lo = -Infinity, hi = Infinity, dflt, nullable = false, integer = false } = {}) {
  if (v === undefined || (v === null && (nullable || dflt !== undefined))) {
    if (dflt === undefined && !nullable) throw typeError(fn, arg, "a number", v);
    return v === null && nullable ? null : dflt ?? null;
  }
  if (typeof v !== "number") throw typeError(fn, arg, "a number", v);
  if (!Number.isFinite(v)) throw rangeError(fn, arg, `must be a finite number, got ${v}`);
  if (integer && !Number.isInteger(v)) throw rangeError(fn, arg, `must be an integer, got ${v}`);
  if (v < lo || v > hi) throw rangeError(fn, arg, `must be in [${lo}, ${hi}], got ${v}`);
  return v + 0; // -0 as 0: SQLite stores -0.0 as the integer 0, so the memory and the database agree
}

/** Milliseconds a Date can hold (±8.64e15): every time the cache stores, and all within the safe integers. */
export const MAX_TIME = 8.64e15;

/**
 * A time: a Date or milliseconds since the epoch, within a Date's range. Returns
 * milliseconds. (sqlite-wasm binds an integral number at or past 2^63 as a wrapped
 * 64-bit integer, so 1e19 would be stored negative and 1e308 as 0.)
 */
export function time(fn, arg, v, { optional = false } = {}) {
  if ((v === undefined || v === null) && optional) return null;
  if (v instanceof Date) v = v.getTime();
  else if (typeof v !== "number") throw typeError(fn, arg, "a Date or milliseconds since the epoch", v);
  if (!(Math.abs(v) <= MAX_TIME)) throw rangeError(fn, arg, `must be a time within ±8.64e15 ms (a Date's range), got ${v}`);
  return v + 0; // -0 as 0, as finite()
}

/** A count: an integer in [0, 2^53 - 1], which every backend stores exactly; `undefined` (or null) takes `dflt`. */
export function counter(fn, arg, v, dflt = 0) {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== "number") throw typeError(fn, arg, "a number", v);
  if (!Number.isSafeInteger(v) || v < 0) throw rangeError(fn, arg, `must be an integer in [0, ${Number.MAX_SAFE_INTEGER}], got ${v}`);
  return v + 0; // -0 as 0, as finite()
}

/**
 * A vector of exactly `dim` finite numbers (Float32Array, Float64Array or number[]), as a
 * fresh Float32Array. `nonzero`: an all-zero vector is refused (a query vector with no
 * direction: cosine is 0 against everything).
 */
export function embedding(fn, arg, v, dim, { nonzero = false } = {}) {
  if (!(v instanceof Float32Array || v instanceof Float64Array || Array.isArray(v)))
    throw typeError(fn, arg, "a Float32Array (or an array of numbers)", v);
  if (dim !== null && v.length !== dim) throw rangeError(fn, arg, `has ${v.length} elements, not the cache's dimension ${dim}`);
  if (v.length === 0) throw rangeError(fn, arg, "is empty");
  if (v.length > 65536) throw rangeError(fn, arg, `has ${v.length} elements, more than the limit 65536`);
  const out = new Float32Array(v.length);
  let any = false;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== "number") throw typeError(fn, `${arg}[${i}]`, "a number", x);
    if (!Number.isFinite(x)) throw rangeError(fn, `${arg}[${i}]`, `must be finite, got ${x}`);
    out[i] = x;
    if (!Number.isFinite(out[i])) throw rangeError(fn, `${arg}[${i}]`, `overflows a float32 (${x})`);
    if (out[i] !== 0) any = true;
  }
  if (nonzero && !any) {
    throw rangeError(fn, arg, "is all zeros: it has no direction, so cosine would rank every memory alike (leave " +
      `${arg} out to search without the vector arm)`);
  }
  return out;
}

/** Only the listed keys are allowed in an options object. */
export function known(fn, arg, o, keys) {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw rangeError(fn, `${arg}.${k}`, `is not a known option (known: ${keys.join(", ")})`);
}

/** An optional progress callback. */
export function progressFn(fn, v) {
  if (v === undefined || v === null) return () => {};
  if (typeof v !== "function") throw typeError(fn, "options.onProgress", "a function", v);
  return v;
}

/** JavaScript's string order (UTF-16 code units), the order every memdomain tie-break uses. */
export const byPath = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// Text tables for the batch text glue (frame, merge): the strings' UTF-8
// written by ONE TextEncoder.encodeInto plus each string's UTF-16 length,
// so no JavaScript loop walks characters; the C side (mdw_keys_utf16) finds
// the byte boundaries. Strings holding a lone surrogate fall back to the
// frame's WTF-8 key table (f.keys), which keeps them distinct.
import { views } from "./core.js";

const encoder = new TextEncoder();
const wellFormed = typeof String.prototype.isWellFormed === "function"
  ? (s) => s.isWellFormed()
  : (s) => !/[\uD800-\uDFFF]/.test(s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ""));

/** Plan a table for `strings` in frame f: { utf16, bytes, table, ... }. */
export function planText(f, strings) {
  for (let i = 0; i < strings.length; i++) {
    if (!wellFormed(strings[i])) {
      const kt = f.keys(strings);
      return { utf16: 0, kt, bytes: kt.bytes, table: kt.offs };
    }
  }
  const joined = strings.join("");
  return { utf16: 1, strings, joined, bytes: f.u8(3 * joined.length), table: f.u32(strings.length), nBytes: 0 };
}

/** After f.alloc(): write a planned table. Returns [bytesPtr, tablePtr, utf16, nBytes] for the call. */
export function writeText(f, t) {
  if (!t.utf16) return [f.at(t.bytes), f.at(t.table), 0, 0];
  const { u8, u32 } = views();
  const at = f.at(t.bytes);
  t.nBytes = encoder.encodeInto(t.joined, u8.subarray(at, at + 3 * t.joined.length)).written;
  const l = f.at(t.table) >>> 2, s = t.strings;
  for (let i = 0; i < s.length; i++) u32[l + i] = s[i].length;
  return [at, f.at(t.table), 1, t.nBytes];
}

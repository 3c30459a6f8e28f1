// The public JavaScript API as wasm/boundary.def states it: the `as` lines
// under a row, one per JavaScript function that calls the row's export.
//
//   as name(arg: Type [= DEFAULT | ?? DEFAULT], ...): Result [-- doc]
//
// Type is the TypeScript type the declarations show (`number`, `string`,
// `readonly string[]`, `ReadonlyMap<string, number>`, `Date`, `Float32Array`,
// `ArrayLike<number>`, an interface name, or `{ field: Type, ... }`, an object
// whose fields are read in that order, each with its own default); the check
// the glue makes follows from it (JavaScript types only: C checks ranges).
// `= D`: D when the argument is undefined (a JavaScript default parameter;
// null is an error); `?? D`: D when undefined or null (the reference reads
// it with `??`); `name?: T` without a default: undefined is allowed. D is a
// number or a constant of js/src/constants.js (a #define of the header).
//
// A function is GENERATED whole (js/src/api.js) when its row is a scalar one
// (no ptr argument) and its arguments, objects' fields in order, are the
// row's arguments one for one (numbers); its result is then the export's
// (a status row is not scalar), an mdw_ row's NaN naming the argument C's
// error record names, `: boolean` for a bool row, and `: (typeof NAMES)[number]`
// a name looked up in the constants' NAMES table; `... @ js/src/<file>.js` keeps
// a scalar one written by hand there (a fast path). Every other function is
// written by hand in js/src/<module>.js and takes its argument checks from
// the descriptor table (ARGS in js/src/api.js, read by validate.js's `arg`
// and `fields`).
import { readFileSync } from "node:fs";

const ROOT = new URL("../", import.meta.url);
const header = readFileSync(new URL("include/memdomain.h", ROOT), "utf8");

/** Split s at its top-level commas (outside (), [], {}, <>). */
function splitTop(s) {
  const out = [];
  let depth = 0, at = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if ("([{<".includes(c)) depth++;
    else if (")]}>".includes(c)) depth--;
    else if (c === "," && depth === 0) { out.push(s.slice(at, i).trim()); at = i + 1; }
  }
  if (s.slice(at).trim()) out.push(s.slice(at).trim());
  return out;
}

/** The checker's kind of a TypeScript type (validate.js: KIND). */
export const KIND = { number: 1, string: 2, boolean: 3, array: 4, object: 5, Map: 6, Date: 7, vector: 8,
  Float32Array: 9, Uint32Array: 10, floats: 11, Float64Array: 12 };
export const DEFAULT_UNDEFINED = 16, DEFAULT_NULL = 32, RANGED = 1024;
/** An array's most entries are the kind's multiple of this (its low bits, the flags above, stay as they are). */
export const MOST = 4096;

function kindOf(type) {
  const t = type.replace(/\s*\|\s*undefined$/, "").replace(/\s*\|\s*null$/, "").trim();
  // An array of numbers or strings: the element's kind too (validate.js's `items` checks each).
  const el = t.match(/^readonly (number|string)\[\]$/);
  if (el) return KIND.array | KIND[el[1]] << 6;
  if (/\|/.test(t.replace(/<[^>]*>|\{[\s\S]*\}|\([^)]*\)/g, "")) && t !== "Float64Array | Float32Array") return 0; // a union: checked by hand
  if (t === "number") return KIND.number;
  if (t === "unknown") return 0; // passed on as it is (the function or the callee checks it)
  if (t === "string") return KIND.string;
  if (t === "boolean") return KIND.boolean;
  if (t === "Date") return KIND.Date;
  if (t === "Float32Array" || t === "Uint32Array" || t === "Float64Array") return KIND[t];
  if (t === "Float64Array | Float32Array") return KIND.floats;
  if (t === "ArrayLike<number>") return KIND.vector;
  if (/^readonly\s+(?:[A-Z][A-Za-z]*\s*)?\{[\s\S]*\}\[\]$/.test(t)) return KIND.array;
  if (/^readonly\s+\(readonly\s+(?:[A-Z][A-Za-z]*\s*)?\{[\s\S]*\}\[\]\)\[\]$/.test(t)) return KIND.array;
  if (/^(?:readonly\s+)?.*\[\]$/.test(t) || /^(?:Readonly)?Array</.test(t)) return KIND.array;
  const mv = t.match(/^(?:Readonly)?Map<string, (number|string)>$/);
  if (mv) return KIND.Map | KIND[mv[1]] << 6; // string keys, and values of that kind (validate.js's `entryBad`)
  if (/^(?:Readonly)?Map</.test(t)) return KIND.Map;
  if (t.startsWith("{") || /^[A-Z][A-Za-z]*(?:\s*\{[\s\S]*\})?$/.test(t)) return KIND.object;
  throw new Error(`wasm/boundary.def: no check for the type "${type}"`);
}

/** A constant's value: a number, or MD_<NAME> of the header. */
function valueOf(d) {
  if (/^-?[0-9.]+(?:e-?[0-9]+)?$/.test(d)) return Number(d);
  if (d === "true" || d === "false") return d === "true";
  const m = header.match(new RegExp(`^#define MD_${d}\\s+\\(?(-?[0-9.e+-]+)\\)?\\s*$`, "m"));
  if (!m) throw new Error(`wasm/boundary.def: the default ${d} is neither a number nor a #define MD_${d} of include/memdomain.h`);
  return Number(m[1]);
}

function parseArg(text, where) {
  const m = text.match(/^(\.\.\.)?([A-Za-z_$][\w$]*)(\?)?:\s*([\s\S]+?)(?:\s*(=|\?\?)\s*([A-Za-z0-9_.-]+))?$/);
  if (!m) throw new Error(`wasm/boundary.def: cannot read argument "${text}" of ${where}`);
  let [, spread, name, q, type, how, dflt] = m;
  // `n: number integer in [lo, hi]`: a range the glue checks (a RangeError "must be an integer in [lo, hi]").
  // `T[] of at most N`: an array the glue refuses past N entries (the core's index width; a RangeError "has n entries").
  let most = null;
  const mo = type.match(/\s+of at most\s+(\S+)$/);
  if (mo) {
    most = valueOf(mo[1]);
    if (!Number.isInteger(most) || most < 1 || most > 2 ** 32) throw new Error(`wasm/boundary.def: "of at most ${mo[1]}" of ${where}: not a count`);
    type = type.slice(0, mo.index);
  }
  let range = null;
  const rg = type.match(/\s+(integer\s+)?in\s+\[([^,\]]+),\s*([^\]]+)\]$/);
  if (rg) { range = { integer: !!rg[1], lo: valueOf(rg[2].trim()), hi: valueOf(rg[3].trim()) }; type = type.slice(0, rg.index); }
  // `name?: T | null`: undefined and null are both absent (no default: the function reads it as absent).
  const orNull = !!q && !how && /\|\s*null$/.test(type);
  const a = { name, type: type.trim().replace(orNull ? /\s*\|\s*null$/ : /$^/, ""), kind: kindOf(type), optional: !!q || !!how || /\|\s*undefined$/.test(type),
    nullish: how === "??" || orNull, range, most, spread: !!spread, dflt: dflt ?? null, value: dflt === undefined ? undefined : valueOf(dflt), fields: null, iface: null };
  // `readonly Name { fields }[]`: an array of objects whose fields each element is checked for (validate.js's `element`).
  // `readonly (readonly Name { fields }[])[]`: arrays of such arrays (element j of array i: `name[i][j].field`).
  const els2 = a.type.match(/^readonly\s+\(readonly\s+(?:([A-Z][A-Za-z]*)\s*)?(\{[\s\S]*\})\[\]\)\[\]$/);
  const els = els2 ?? a.type.match(/^readonly\s+(?:([A-Z][A-Za-z]*)\s*)?(\{[\s\S]*\})\[\]$/);
  if (els) {
    a.type = els2 ? `readonly (readonly ${els[1] ?? els[2]}[])[]` : `readonly ${els[1] ?? els[2]}[]`;
    a.depth = els2 ? 2 : 1;
    a.elem = splitTop(els[2].slice(1, -1)).map((f) => parseArg(f, where));
    return a;
  }
  // `Name { fields }`: an object whose declaration (interface Name) the table writes too.
  const named = a.type.match(/^([A-Z][A-Za-z]*)\s*(\{[\s\S]*\})$/);
  if (named) { a.iface = named[1]; a.type = named[2]; }
  if (a.type.startsWith("{")) a.fields = splitTop(a.type.slice(1, -1)).map((f) => parseArg(f, where));
  return a;
}

/** One `as` line: { name, args, result, doc }. */
export function parseApi(text) {
  const doc = text.includes(" -- ") ? text.slice(text.indexOf(" -- ") + 4).trim() : "";
  let sig = doc ? text.slice(0, text.indexOf(" -- ")).trim() : text;
  // `read arg`: a hot path reads that object argument's fields through generated code (args.js: read<Fn><Arg>).
  const read = sig.match(/\s+read\s+(\w+)$/)?.[1] ?? null;
  if (read) sig = sig.slice(0, sig.lastIndexOf(" read ")).trim();
  // `@ file`: written by hand there even though the row is scalar (a fast path in JavaScript).
  const home = sig.match(/\s+@\s+(\S+)$/)?.[1] ?? null;
  if (home) sig = sig.slice(0, sig.lastIndexOf("@")).trim();
  const m = sig.match(/^([A-Za-z_$][\w$.]*)\(([\s\S]*)\):\s*([\s\S]+)$/);
  if (!m) throw new Error(`wasm/boundary.def: cannot read "as ${text}"`);
  // `T in NAMES`: the result is NAMES[the export's result] (a name table of js/src/constants.js), typed T.
  const r = m[3].trim().match(/^([\s\S]+?)(?:\s+in\s+([A-Z_]+))?$/);
  return { name: m[1], args: splitTop(m[2]).map((a) => parseArg(a, m[1])), result: r[1], names: r[2] ?? null, doc, home, read };
}

/** The leaves (arguments, objects' fields, array elements' fields as `name[i].field`) in reading order, each with its path. */
export function leaves(args, prefix = "") {
  return args.flatMap((a) => (a.fields ? leaves(a.fields, a.spread ? prefix : `${prefix}${a.name}.`)
    : a.elem ? [{ ...a, path: `${prefix}${a.name}` }, ...leaves(a.elem, `${prefix}${a.name}${a.depth === 2 ? "[i][j]" : "[i]"}.`)] : [{ ...a, path: `${prefix}${a.name}` }]));
}

/** Whether the function is generated whole: a scalar row, its leaves the row's arguments one for one. */
export function generated(fn, row) {
  if (fn.name.includes(".") || fn.home) return false;
  if (row.args.some((a) => a.type === "ptr") || row.result === "status" || row.result === "ptr") return false;
  const l = leaves(fn.args);
  return l.length === row.args.length && l.every((a) => a.kind === KIND.number) &&
    fn.args.every((a) => a.kind === KIND.number || (a.fields && !a.optional));
}

/** Every `as` line of the table, parsed, with its row. */
export function apiOf(table) {
  const seen = new Set();
  return table.api.map(({ row, text }) => {
    const fn = parseApi(text);
    if (seen.has(fn.name)) throw new Error(`wasm/boundary.def: ${fn.name} stated twice`);
    seen.add(fn.name);
    return { ...fn, row, generated: generated(fn, row) };
  });
}

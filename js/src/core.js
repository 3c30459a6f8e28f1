// The boundary protocol's JavaScript half (docs/ARCHITECTURE.md, "The
// boundary protocol"): the instance, one exchange region reused by every
// call, typed-array views rebuilt only when memory has grown (the argument
// checks are in validate.js), the error record C fills,
// the one key-table writer, and the intern table that lets strings cross as
// integers.

import { rangeError } from "./validate.js";
import { ARG_NAMES, ERR_INVALID, ERR_NOMEM, ERR_RANGE, OK, STATUS_LAST } from "./constants.js";

/** @type {any} */
let wasm = null;
/** @type {WebAssembly.Memory | null} */
let memory = null;
const EMPTY = new Uint8Array(0);
/** Views over linear memory; `u8.byteLength === 0` means memory grew (the old buffer is detached). */
export const heap = { buffer: null, u8: EMPTY, u32: new Uint32Array(0), i32: new Int32Array(0),
  f32: new Float32Array(0), f64: new Float64Array(0) };

// The Emscripten build imports this no-op when its memory can grow; the clang
// build imports nothing. Extra imports are ignored by instantiation.
const IMPORTS = { env: { emscripten_notify_memory_growth() {} } };

// Per instance: a fixed 256-byte block for scalar calls (arguments and out-values), the
// error record's address and the exchange region (status names are read from C when an error needs one).
let scratchPtr = 0;
let errPtr = 0;
let xPtr = 0, xCap = 0, xBusy = false;
const X_KEEP = 1 << 20; // exchange regions up to this size stay between calls
const TOO_LARGE = "is too large for WebAssembly memory";

function adopt(instance) {
  const ex = instance.exports;
  if (typeof ex._initialize === "function") ex._initialize();
  wasm = ex;
  memory = ex.memory;
  heap.buffer = null;
  heap.u8 = EMPTY;
  xPtr = xCap = 0;
  xBusy = false;
  scratchPtr = ex.md_alloc(256) >>> 0;
  errPtr = ex.mdw_error();
  internReset();
  return ex;
}

function cString(u8, p) {
  let e = p;
  while (u8[e] !== 0) e++;
  return decoder.decode(u8.subarray(p, e));
}

/** Address of a 256-byte scratch block for scalar calls' arguments and results. */
export function scratch() {
  exportsOf();
  return scratchPtr;
}

function isModule(x) {
  return typeof WebAssembly !== "undefined" && x instanceof WebAssembly.Module;
}

function isBytes(x) {
  return x instanceof ArrayBuffer || ArrayBuffer.isView(x) ||
    (typeof SharedArrayBuffer !== "undefined" && x instanceof SharedArrayBuffer);
}

function defaultUrl() {
  return new URL("../memdomain.wasm", import.meta.url);
}

const loadError = (where, why) => new Error(`memdomain: could not load ${where}: ${why}`);

async function readUrl(url) {
  if (url.protocol === "file:" && typeof process !== "undefined" && process.versions?.node &&
      typeof Deno === "undefined") {
    // Not a literal import("node:fs/promises"): bundlers that target browsers
    // or workers (esbuild, wrangler, Vite) would fail to resolve it.
    const fs = process.getBuiltinModule?.("node:fs/promises") ??
      (await import(/* webpackIgnore: true */ /* @vite-ignore */ ["node:fs", "promises"].join("/")));
    try {
      return await fs.readFile(url);
    } catch (e) {
      throw loadError(decodeURIComponent(url.pathname), e.code ?? e.message);
    }
  }
  let res;
  try {
    res = await fetch(url);
  } catch (e) {
    throw loadError(url, e.message);
  }
  if (!res.ok) throw loadError(url, `HTTP ${res.status}`);
  return res;
}

async function fromResponse(res) {
  if (typeof WebAssembly.instantiateStreaming === "function") {
    try {
      const { instance } = await WebAssembly.instantiateStreaming(res.clone(), IMPORTS);
      return instance;
    } catch (e) {
      // A wrong MIME type defeats streaming; compile from the bytes instead.
      if (!(e instanceof TypeError)) throw e;
    }
  }
  return (await WebAssembly.instantiate(await res.arrayBuffer(), IMPORTS)).instance;
}

/**
 * Load and instantiate the module. `source` may be omitted (the .wasm next to
 * the glue), a URL or URL string, a Response (or a promise of one), the bytes
 * (ArrayBuffer / typed array), or a compiled WebAssembly.Module.
 * Resolves to the module's exports; calling it again replaces the instance.
 */
export async function init(source) {
  let src = await source;
  if (src === undefined || src === null) src = defaultUrl();
  if (typeof src === "string") src = new URL(src, typeof location !== "undefined" ? location.href : import.meta.url);
  if (src instanceof URL) src = await readUrl(src);
  if (isModule(src)) return adopt(await WebAssembly.instantiate(src, IMPORTS));
  if (isBytes(src)) return adopt((await WebAssembly.instantiate(src, IMPORTS)).instance);
  if (typeof Response !== "undefined" && src instanceof Response) return adopt(await fromResponse(src));
  throw new TypeError("init: source must be a URL, a Response, bytes or a WebAssembly.Module");
}

/**
 * Instantiate synchronously from a compiled WebAssembly.Module or the bytes.
 * (Edge runtimes such as workerd import the .wasm as a Module.)
 */
export function initSync(moduleOrBytes) {
  let mod = moduleOrBytes;
  if (mod && typeof mod === "object" && "module" in mod && !isModule(mod) && !isBytes(mod)) mod = mod.module;
  if (isBytes(mod)) mod = new WebAssembly.Module(mod);
  if (!isModule(mod)) throw new TypeError("initSync: moduleOrBytes must be a WebAssembly.Module or bytes");
  return adopt(new WebAssembly.Instance(mod, IMPORTS));
}

/** True once init() or initSync() has succeeded. */
export function isInitialized() {
  return wasm !== null;
}

function notInitialized() {
  throw new Error("memdomain: call `await init()` (or initSync(module)) first");
}

/** The raw exports. Throws before init. */
export function exportsOf() {
  if (wasm === null) notInitialized();
  return wasm;
}

/** Current typed-array views over linear memory (rebuilt after growth). */
export function views() {
  if (heap.u8.byteLength !== 0) return heap;
  if (memory === null) notInitialized();
  const buf = memory.buffer;
  heap.buffer = buf;
  heap.u8 = new Uint8Array(buf);
  heap.u32 = new Uint32Array(buf);
  heap.i32 = new Int32Array(buf);
  heap.f32 = new Float32Array(buf);
  heap.f64 = new Float64Array(buf);
  return heap;
}

/**
 * Frees a forgotten handle's block when the handle is collected:
 * `finalizer?.register(handle, { ex, ptr, free }, token)` calls ex[free](ptr)
 * if ex is still the current instance (a replaced instance's memory goes with it).
 */
export const finalizer = typeof FinalizationRegistry === "function"
  ? new FinalizationRegistry(({ ex, ptr, free }) => { if (wasm === ex) ex[free](ptr); })
  : null;

/**
 * The lifetime of `handle`, which owns block `ptr` of instance `ex` (released by ex[free](ptr)):
 * alive(name) gives back the name while the handle may be used, else throws the RangeError naming
 * `this` (freed, or its instance replaced by a later init()); usable says the same without
 * throwing; free() releases the block once. A forgotten handle's block is released when collected.
 */
export function lifetime(handle, ex, ptr, free) {
  let live = true;
  finalizer?.register(handle, { ex, ptr, free }, handle);
  return {
    alive(name) {
      if (!live) throw rangeError(name, "this", "was freed");
      if (wasm !== ex) throw rangeError(name, "this", "belongs to an instance replaced by a later init()");
      return name;
    },
    get usable() { return live && wasm === ex; },
    free() {
      if (!live) return;
      live = false;
      finalizer?.unregister(handle);
      if (wasm === ex) ex[free](ptr);
    },
  };
}

// ---------------------------------------------------------------- the exchange region

/**
 * The exchange region: one block per instance, at least `bytes` long, reused
 * by every call (grown when a call needs more). A call writes its arguments
 * there, calls into wasm and reads its results before anything else runs.
 * Regions above 1 MiB are released by `done()` so one big call does not pin
 * memory. Growing keeps the first `keep` bytes. Returns the region's address
 * (8-byte aligned).
 */
export function region(fn, bytes, keep = 0) {
  if (bytes <= xCap) return xPtr;
  const ex = exportsOf();
  if (bytes > 0xfff00000) throw rangeError(fn, "input", TOO_LARGE);
  if (xPtr && !keep) { ex.md_free(xPtr); xPtr = 0; xCap = 0; }
  const want = Math.max(bytes, 4096);
  const p = alloc(fn, "input", want);
  if (xPtr) { // growing with `keep` bytes already written: carry them over
    views().u8.copyWithin(p, xPtr, xPtr + keep);
    ex.md_free(xPtr);
  }
  xPtr = p;
  xCap = want;
  return p;
}

/** After a call that used a large region: give the memory back. */
export function done() {
  if (xCap > X_KEEP && wasm !== null) {
    wasm.md_free(xPtr);
    xPtr = 0;
    xCap = 0;
  }
}

// ---------------------------------------------------------------- errors

/** The md_status names, read from C at init ("ok", "null pointer", ...). */
export function statusName(status) {
  return status >= OK && status <= STATUS_LAST ? cString(views().u8, exportsOf().mdw_status_string(status)) : `status ${status}`;
}

function errorFor(status, msg) {
  if (status === ERR_INVALID) return new TypeError(msg);
  if (status === ERR_NOMEM || status === ERR_RANGE) return new RangeError(msg);
  return new Error(`${msg} (internal error in memdomain)`);
}

/**
 * Throw the error C recorded for export `name`: the record's argument index
 * picks the JavaScript name wasm/boundary.def gives that argument (ARG_NAMES),
 * and `values` optionally gives the arguments' values (in the row's order) for the message.
 */
export function raiseRecord(fn, name, values) {
  const { i32, u32, u8 } = views();
  const at = errPtr >>> 2;
  const code = i32[at], arg = i32[at + 1], msgPtr = u32[at + 2];
  i32[at] = 0;
  if (code === OK) return;
  const msg = msgPtr ? cString(u8, msgPtr) : statusName(code);
  const js = ARG_NAMES[name]?.[arg];
  const shown = js && values && values[arg] !== undefined ? ` (${values[arg]})` : "";
  throw errorFor(code, `${fn}: ${js ? js + shown + " " : ""}${msg}`);
}

/** Clear a recorded error without throwing (a call that handled its status itself). */
export function clearRecord() {
  if (errPtr) views().i32[errPtr >>> 2] = 0;
}

/** Turn a nonzero md_status into the JavaScript error the API documents. */
export function raise(status, fn) {
  clearRecord();
  throw errorFor(status, `${fn}: ${statusName(status)}`);
}

/** An allocation of `bytes` for `arg` failed. */
export const noMemory = (fn, arg, bytes) =>
  rangeError(fn, arg, `needs ${bytes} bytes of WebAssembly memory, which could not be allocated`);

/** A block of `bytes` of linear memory for `arg` of fn (freed with `free`); a RangeError naming it when there is none. */
export function alloc(fn, arg, bytes) {
  const p = exportsOf().md_alloc(bytes) >>> 0; // an address past 2^31 comes back negative from an i32
  if (!p) throw noMemory(fn, arg, bytes);
  return p;
}

/** Give back a block from `alloc` (or one C handed back); 0 is nothing. */
export function free(p) {
  if (p && wasm !== null) wasm.md_free(p);
}

// ---------------------------------------------------------------- strings: the one key table

const encoder = new TextEncoder();

/** Encode s as WTF-8 at u8[at]; returns the byte count. Lone surrogates keep
 * their own 3-byte form, so distinct JavaScript strings stay distinct. */
export function encodeWtf8(s, u8, at) {
  let p = at;
  for (const ch of s) { // code points; a lone surrogate is one of its own
    const c = ch.codePointAt(0);
    if (c < 0x80) { u8[p++] = c; continue; }
    const k = c < 0x800 ? 1 : c < 0x10000 ? 2 : 3; // continuation bytes
    u8[p++] = (0xff00 >> (k + 1)) & 0xff | (c >> (6 * k));
    for (let j = k - 1; j >= 0; j--) u8[p++] = 0x80 | ((c >> (6 * j)) & 63);
  }
  return p - at;
}

// Every runtime the README supports has String.prototype.isWellFormed (Node 20,
// Deno 2, current browsers); without it a table takes the WTF-8 path (same bytes, slower).
const wellFormed = (s) => s.isWellFormed?.();

/** The total UTF-16 length of the strings (one pass over .length). */
export function unitsOf(strings) {
  let u = 0;
  for (let i = 0; i < strings.length; i++) u += strings[i].length;
  return u;
}

/**
 * A planned key table (the one format every boundary function takes: the
 * strings' WTF-8 bytes back to back plus n + 1 u32 byte offsets).
 * `call` writes it: the strings are joined a chunk at a time (short
 * strings the young generation collects cheaply, never one huge one), each
 * chunk checked for lone surrogates once and encoded with one
 * TextEncoder.encodeInto (room for 1.125 bytes per UTF-16 unit first, grown in
 * place when that is short); when the bytes are not all ASCII, C turns the
 * UTF-16 lengths into byte offsets (mdw_key_offsets). A table holding a lone
 * surrogate is written as WTF-8 by JavaScript, so distinct strings stay
 * distinct.
 */
const CHUNK_UNITS = 1 << 14; // UTF-16 units per joined chunk (32 KiB at most)

/** Write key table t (a keys Arg: offsets at f.base + t.off, its room at f.base + t.bytes); may grow the frame's block. */
function writeTable(f, t, k) {
  let { u8, u32 } = views();
  u32[(f.base + t.off) >>> 2] = 0;
  const { values: strings, n } = t;
  if (n === 0) return;
  let written = 0, ascii = true, wtf = false;
  for (let i0 = 0, done = 0; i0 < n;) {
    let i1 = i0 + 1, units = strings[i0].length;
    while (i1 < n && units < CHUNK_UNITS) units += strings[i1++].length;
    const chunk = i1 - i0 === 1 ? strings[i0] : strings.slice(i0, i1).join("");
    if (!wellFormed(chunk)) { wtf = true; break; }
    let at = f.base + t.bytes + written;
    const r = encoder.encodeInto(chunk, u8.subarray(at, f.base + t.bytes + t.room));
    let w = r.written;
    if (r.read < chunk.length) {
      // Short: room for the rest at 3 bytes a unit, keeping what is written.
      growTable(f, k, written + w + 3 * (t.units - done - r.read), t.bytes + written + w);
      ({ u8, u32 } = views());
      at = f.base + t.bytes + written + w;
      w += encoder.encodeInto(chunk.substring(r.read), u8.subarray(at, f.base + t.bytes + t.room)).written;
    }
    ascii &&= w === chunk.length;
    written += w;
    done += chunk.length;
    i0 = i1;
  }
  if (!wtf) {
    const o = (f.base + t.off) >>> 2;
    if (ascii) { // offsets are the lengths' running sums
      let end = 0;
      for (let i = 0; i < n; i++) u32[o + i + 1] = end += strings[i].length;
      return;
    }
    // Not ASCII: the UTF-16 lengths go where the offsets end up, and C converts them.
    for (let i = 0; i < n; i++) u32[o + i + 1] = strings[i].length;
    if (exportsOf().mdw_key_offsets(f.base + t.bytes, written, f.base + t.off + 4, n, f.base + t.off) === 0) return;
    // Two strings that each end or start with a lone half of one surrogate
    // pair joined into a well-formed pair: write them one by one as WTF-8.
    clearRecord();
  }
  if (t.room < 3 * t.units) growTable(f, k, 3 * t.units, t.bytes);
  ({ u8, u32 } = views());
  let at = f.base + t.bytes;
  const o = (f.base + t.off) >>> 2;
  for (let i = 0; i < n; i++) {
    at += encodeWtf8(strings[i], u8, at);
    u32[o + i + 1] = at - f.base - t.bytes;
  }
}

const decoder = new TextDecoder("utf-8", { fatal: false });

/** Decode WTF-8 bytes (as the core returns them) back to a JavaScript string. */
export function decodeWtf8(u8, at, len) {
  const bytes = u8.subarray(at, at + len), utf8 = decoder.decode(bytes);
  // A lone surrogate's bytes decode as U+FFFD: only then (or for a real U+FFFD) decode by hand.
  if (!utf8.includes("\ufffd")) return utf8;
  let s = "";
  for (let i = 0; i < len;) {
    const b = bytes[i++], k = b < 0x80 ? 0 : b < 0xe0 ? 1 : b < 0xf0 ? 2 : 3; // continuation bytes
    let c = k ? b & (0x3f >> k) : b;
    for (let j = 0; j < k; j++) c = (c << 6) | (bytes[i++] & 63);
    s += String.fromCodePoint(c);
  }
  return s;
}

// ---------------------------------------------------------------- the intern table

// Strings that C only needs to tell apart (never to order or hash) cross as
// u32 ids: one lookup per string, as plain JavaScript would do anyway, and
// the table is reused across calls, so a path seen by the previous keystroke
// costs a lookup, not an insertion. The table is a null-prototype object, not
// a Map: every string ("__proto__" and "123" included) is an ordinary own key
// there, and V8 answers the lookup in about 60% of a Map's time (the
// difference between fuseArms at and above plain JavaScript). Bounded: a call
// that finds the table past INTERN_MAX entries starts it afresh.
// `internSlots` is the id space's scratch for C (u32 per id, all 0xFFFFFFFF
// between calls).
const INTERN_MAX = 1 << 16;
let internIds = Object.create(null);
let internKeys = [];
let slotsPtr = 0, slotsCap = 0;

function internReset() {
  internIds = Object.create(null);
  internKeys = [];
  slotsPtr = slotsCap = 0;
}

/** Start a call that interns: the table restarts when it has grown past its bound. */
export function internBegin() {
  if (internKeys.length > INTERN_MAX) {
    internIds = Object.create(null);
    internKeys.length = 0;
  }
  return internIds;
}

/** The id of string s (interned now if new). */
export function internId(ids, s) {
  let id = ids[s];
  if (id === undefined) {
    id = internKeys.length;
    ids[s] = id;
    internKeys.push(s);
  }
  return id;
}

/** The interned strings, by id. */
export function internStrings() {
  return internKeys;
}

/** A u32 per id (all 0xFFFFFFFF), kept by the instance for C's scratch. */
export function internSlots(fn) {
  const need = internKeys.length;
  if (need <= slotsCap) return slotsPtr;
  const cap = Math.max(need, 1024) * 2;
  const p = alloc(fn, "input", 4 * cap);
  free(slotsPtr);
  slotsPtr = p;
  slotsCap = cap;
  views().u32.fill(0xffffffff, p >>> 2, (p >>> 2) + cap);
  return p;
}

// ---------------------------------------------------------------- calls

/**
 * An argument that `call` places in the exchange region and passes by
 * address: an input array (f64, f32, u32, u8: a typed array or an array of
 * numbers), a key table (keys: two addresses, the bytes then the offsets),
 * an output region (out.f64 ... out.u8, n elements), or the out slots (slots:
 * 16 u32 a boundary function writes result addresses and counts into).
 */
class Arg {
  constructor(kind, type, values, n) {
    this.kind = kind; // "in", "keys", "out", "slots"
    this.type = type; // "f64", "f32", "u32", "u8"
    this.values = values;
    this.n = n;
    this.off = 0;
  }
}

const input = (type) => (values, n = values.length) => new Arg("in", type, values, n);
export const f64 = input("f64"), f32 = input("f32"), u32 = input("u32"), u8 = input("u8");
export const keys = (strings) => new Arg("keys", null, strings, strings.length);
const sized = (kind) => ({ f64: (n) => new Arg(kind, "f64", null, n), f32: (n) => new Arg(kind, "f32", null, n),
  u32: (n) => new Arg(kind, "u32", null, n), u8: (n) => new Arg(kind, "u8", null, n) });
/** An output region of n elements (out.f64(n) ... out.u8(n)). */
export const out = sized("out");
/** An input region the caller's `write` fills in place (no copy through a JavaScript array). */
export const fill = sized("fill");
export const slots = new Arg("slots", null, null, 16);
/** An address the glue holds (a handle C returned earlier), passed as it is. */
export const addr = (p) => new Arg("addr", null, p, 0);

const SHIFT = { f64: 3, f32: 2, u32: 2, u8: 0 };

/** The first n numbers of v (a typed array, an array or any array-like) into view[at..]. */
export function put(view, at, v, n) {
  if (n === 0) return; // also keeps a detached (length 0) view from throwing
  if (ArrayBuffer.isView(v)) view.set(n === v.length ? v : v.subarray(0, n), at);
  else if (n === v.length && Array.isArray(v)) view.set(v, at);
  else for (let i = 0; i < n; i++) view[at + i] = v[i];
}

/** x rounded up to a multiple of 8 (exact past 2^31, where `& ~7` is not). */
export const align8 = (x) => x + (-x & 7);

/**
 * One call's frame (call() makes it; `base` is its block): `size` the
 * planned bytes, `tables` its key tables (their bytes go after every other
 * region), `results` the blocks C handed back (freed after `read`), `own`
 * when the exchange region was busy (a call from inside another call's
 * `write` or `read`): the frame then has a block of its own.
 */
function placeTables(f, k) {
  const ts = f.tables;
  let size = k === 0 ? f.size : ts[k - 1].bytes + ts[k - 1].room;
  for (let i = k; i < ts.length; i++) {
    ts[i].bytes = size = align8(size);
    size += ts[i].room;
  }
  if (size > 0xfff00000) throw rangeError(f.fn, "input", TOO_LARGE);
  return size;
}

/** A block of at least `size` bytes for frame f, keeping its first `keep` bytes. */
function reserve(f, size, keep) {
  if (!f.own) return f.base = region(f.fn, size, keep);
  if (size <= f.cap) return;
  const p = alloc(f.fn, "input", size);
  if (keep) views().u8.copyWithin(p, f.base, f.base + keep);
  free(f.base);
  f.base = p;
  f.cap = size;
}

/** Table k needs `room` bytes: place it and the later ones again and grow, keeping `keep` bytes. */
function growTable(f, k, room, keep) {
  f.tables[k].room = room;
  reserve(f, placeTables(f, k), keep);
}

/** What `read` sees after a call: the output regions, the out slots, result blocks. */
class Results {
  constructor(f) { this.f = f; }
  /** An output region (or input) as a view over WebAssembly memory: valid only inside `read`. */
  view(arg) {
    const s = SHIFT[arg.type], p = (this.f.base + arg.off) >>> s;
    return views()[arg.type].subarray(p, p + arg.n);
  }
  /** u32 out slot i. */
  slot(i) { return views().u32[(this.f.base >>> 2) + i]; }
  /** The block C handed back in out slot i (freed after `read`). */
  block(i) {
    const p = this.slot(i);
    if (p) this.f.results.push(p);
    return p;
  }
  get heap() { return views(); }
}

// The tests hold every call's argument kinds to the signature table
// (SIGNATURES in js/src/constants.js, generated from wasm/boundary.def): the
// table stays out of the shipped glue, which has a size budget.
let callCheck = null;
/** Test hook: `check(name, kinds)` sees each call's export name and argument kinds ("p"/"n" each). */
export function checkCalls(check) {
  callCheck = check;
}

/**
 * One call into wasm with its array arguments placed in the exchange region:
 * `name` is an export row of wasm/boundary.def, `args` its arguments in the
 * table's order (numbers as they are, Arg values for what crosses by
 * address; a key table is two of the row's arguments). An error from C names
 * the argument as the row does (ARG_NAMES). The tests check the argument kinds against the table (checkCalls). `write(results)`, when given,
 * fills the `fill` regions before the call. On success returns
 * `read(results)`; otherwise throws the error C recorded.
 *
 * The layout: 64 bytes of out slots (zeroed), each array region 8-aligned,
 * then the key tables' bytes; no allocation unless the region must grow.
 */
export function call(fn, name, args, read, write) {
  const f = { fn, size: 64, base: 0, cap: 0, own: xBusy, tables: [], results: [] };
  xBusy = true;
  try {
    if (callCheck)
      callCheck(name, args.map((a) => (!(a instanceof Arg) ? "n" : a.kind === "keys" ? "pp" : "p")).join(""));
    for (const a of args) {
      if (!(a instanceof Arg) || a.kind === "slots" || a.kind === "addr") continue;
      a.off = f.size;
      if (a.kind === "keys") {
        a.units = unitsOf(a.values);
        a.room = a.units + (a.units >>> 3) + 16;
        f.tables.push(a);
      }
      f.size = align8(f.size + (a.kind === "keys" ? 4 * a.n + 8 : a.n * (1 << SHIFT[a.type])));
      if (f.size > 0xfff00000) throw rangeError(fn, "input", TOO_LARGE);
    }
    reserve(f, placeTables(f, 0), 0);
    for (let k = 0; k < f.tables.length; k++) writeTable(f, f.tables[k], k);
    views().u8.fill(0, f.base, f.base + 64);
    const flat = [], own = []; // own[j]: the argument flat[j] comes from
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      own.push(i);
      if (!(a instanceof Arg)) { flat.push(a); continue; }
      const kind = a.kind;
      if (kind === "keys") { flat.push(f.base + a.bytes); own.push(i); }
      flat.push(kind === "addr" ? a.values : kind === "slots" ? f.base : f.base + a.off);
      if (kind === "in") put(views()[a.type], (f.base + a.off) >>> SHIFT[a.type], a.values, a.n);
    }
    const r = new Results(f);
    if (write) write(r);
    const st = exportsOf()[name](...flat);
    if (st !== OK) {
      if (views().i32[errPtr >>> 2] !== OK)
        raiseRecord(fn, name, own.map((i, j) => (args[i] instanceof Arg ? undefined : flat[j])));
      raise(st, fn);
    }
    return read(r);
  } finally {
    if (wasm) for (const p of f.results) wasm.md_free(p);
    if (!f.own) { xBusy = false; done(); }
    else if (f.base && wasm) wasm.md_free(f.base);
  }
}

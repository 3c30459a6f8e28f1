// The wasm instance, linear-memory frames, argument checks and errors.
// Hand-written glue: compile once, instantiate cheaply, rebuild typed-array
// views after any call that can grow memory, validate before calling into
// wasm, free in `finally`.

/** @type {any} */
let wasm = null;
/** @type {WebAssembly.Memory | null} */
let memory = null;
let heap = { buffer: null, u8: null, u32: null, f64: null, f32: null };

// The Emscripten build imports this no-op when its memory can grow; the clang
// build imports nothing. Extra imports are ignored by instantiation.
const IMPORTS = { env: { emscripten_notify_memory_growth() {} } };

let scratchPtr = 0;

function adopt(instance) {
  const ex = instance.exports;
  if (typeof ex._initialize === "function") ex._initialize();
  wasm = ex;
  memory = ex.memory;
  heap.buffer = null;
  scratchPtr = ex.md_alloc(64); // one block per instance for scalar out-values
  return ex;
}

/** Address of a 64-byte scratch block for scalar results (out-parameters). */
export function scratch() {
  exportsOf();
  return scratchPtr;
}

/** The f64 a call stored at scratch() + 8 * i. */
export function scratchF64(i = 0) {
  return views().f64[(scratchPtr >>> 3) + i];
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

async function readUrl(url) {
  if (url.protocol === "file:" && typeof process !== "undefined" && process.versions?.node &&
      typeof Deno === "undefined") {
    // Not a literal import("node:fs/promises"): bundlers that target browsers
    // or workers (esbuild, wrangler, Vite) would fail to resolve it.
    const fs = process.getBuiltinModule?.("node:fs/promises") ??
      (await import(/* webpackIgnore: true */ /* @vite-ignore */ ["node:fs", "promises"].join("/")));
    return fs.readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`memdomain: could not load ${url}: HTTP ${res.status}`);
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
  if (isModule(src)) return adopt(await WebAssembly.instantiate(src, IMPORTS));
  if (isBytes(src)) return adopt((await WebAssembly.instantiate(src, IMPORTS)).instance);
  if (typeof src === "string") src = new URL(src, typeof location !== "undefined" ? location.href : import.meta.url);
  if (src instanceof URL) src = await readUrl(src);
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

/** The raw exports (for the batch APIs and tests). Throws before init. */
export function exportsOf() {
  if (!wasm) throw new Error("memdomain: call init() or initSync() before using the library");
  return wasm;
}

/** Current typed-array views over linear memory (rebuilt after growth). */
export function views() {
  const buf = memory.buffer;
  if (heap.buffer !== buf) {
    heap = {
      buffer: buf,
      u8: new Uint8Array(buf),
      u32: new Uint32Array(buf),
      f64: new Float64Array(buf),
      f32: new Float32Array(buf),
    };
  }
  return heap;
}

// ---------------------------------------------------------------- errors

const STATUS = ["ok", "null pointer", "out of memory", "count or size out of range", "invalid argument"];

/** Turn a nonzero md_status into the JavaScript error the API documents. */
export function raise(status, fn, what) {
  const text = STATUS[status] ?? `status ${status}`;
  const msg = `${fn}: ${what ? what + ": " : ""}${text}`;
  if (status === 4) throw new TypeError(msg);
  if (status === 2 || status === 3) throw new RangeError(msg);
  throw new Error(`${msg} (internal error in memdomain)`);
}

export function typeError(fn, arg, expected, value) {
  return new TypeError(`${fn}: ${arg} must be ${expected}, got ${describe(value)}`);
}

export function rangeError(fn, arg, why) {
  return new RangeError(`${fn}: ${arg} ${why}`);
}

function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return v.constructor?.name ? `a ${v.constructor.name}` : "an object";
  if (typeof v === "string") return "a string";
  return typeof v === "number" ? String(v) : typeof v;
}

// ---------------------------------------------------------------- checks

export function num(fn, arg, v) {
  if (typeof v !== "number") throw typeError(fn, arg, "a number", v);
  return v;
}

/** A number, or the default when undefined (as a JS default parameter). */
export function numOr(fn, arg, v, dflt) {
  return v === undefined ? dflt : num(fn, arg, v);
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

const MAX_ELEMENTS = 0x0fffffff; // 2^28: 2 GiB of f64, past what wasm32 can hold

/**
 * An ArrayLike<number> as doubles: a Float32Array is widened exactly, a
 * number[] (or any array-like of numbers) is copied. Throws for anything
 * that is not an array-like of numbers.
 */
export function vector(fn, arg, v) {
  if (v instanceof Float64Array) return v;
  if (v instanceof Float32Array) return v; // widened when written
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

// ---------------------------------------------------------------- strings

const encoder = new TextEncoder();
const hasWellFormed = typeof String.prototype.isWellFormed === "function";

function isWellFormed(s) {
  if (hasWellFormed) return s.isWellFormed();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c >= 0xdc00 || i + 1 >= s.length) return false;
      const d = s.charCodeAt(i + 1);
      if (d < 0xdc00 || d > 0xdfff) return false;
      i++;
    }
  }
  return true;
}

/** Encode s as WTF-8 at u8[at]; returns the byte count. Lone surrogates keep
 * their own 3-byte form, so distinct JavaScript strings stay distinct. */
function encodeAt(s, u8, at) {
  if (isWellFormed(s)) return encoder.encodeInto(s, u8.subarray(at, at + 3 * s.length)).written;
  let p = at;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) u8[p++] = c;
    else if (c < 0x800) { u8[p++] = 0xc0 | (c >> 6); u8[p++] = 0x80 | (c & 63); }
    else if (c < 0x10000) {
      u8[p++] = 0xe0 | (c >> 12); u8[p++] = 0x80 | ((c >> 6) & 63); u8[p++] = 0x80 | (c & 63);
    } else {
      u8[p++] = 0xf0 | (c >> 18); u8[p++] = 0x80 | ((c >> 12) & 63);
      u8[p++] = 0x80 | ((c >> 6) & 63); u8[p++] = 0x80 | (c & 63);
    }
  }
  return p - at;
}

const SURROGATE = /[\uD800-\uDFFF]/;
const ASCII = /^[\x00-\x7F]*$/;

/** The exact WTF-8 byte length of the strings, end to end. */
function wtf8Length(strings) {
  const joined = strings.length === 1 ? strings[0] : strings.join("");
  if (ASCII.test(joined)) return joined.length;
  let n = 0;
  for (let j = 0; j < joined.length; j++) {
    const c = joined.charCodeAt(j);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3; // a surrogate pair counts 3 + 3 >= its 4 bytes
  }
  return n;
}

/** Write a key table: the strings' WTF-8 bytes at u8[start] and n + 1 byte
 * offsets at u32[offs]. Without surrogates the keys are encoded in one
 * encodeInto call (and, all ASCII, their offsets are their lengths). */
function writeKeys(strings, u8, u32, start, offs) {
  const n = strings.length;
  u32[offs] = 0;
  if (n === 0) return;
  const joined = n === 1 ? strings[0] : strings.join("");
  if (!SURROGATE.test(joined)) {
    const written = encoder.encodeInto(joined, u8.subarray(start)).written;
    let at = 0;
    if (written === joined.length) {
      for (let i = 0; i < n; i++) u32[offs + i + 1] = at += strings[i].length;
    } else {
      for (let i = 0; i < n; i++) {
        const s = strings[i];
        for (let j = 0; j < s.length; j++) {
          const c = s.charCodeAt(j);
          at += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        }
        u32[offs + i + 1] = at;
      }
    }
    return;
  }
  let at = start;
  for (let i = 0; i < n; i++) {
    at += encodeAt(strings[i], u8, at);
    u32[offs + i + 1] = at - start;
  }
}

const decoder = new TextDecoder("utf-8", { fatal: false });

/** Decode WTF-8 bytes (as the core returns them) back to a JavaScript string. */
export function decodeWtf8(u8, at, len) {
  const bytes = u8.subarray(at, at + len);
  let wtf = false;
  for (let i = 0; i + 1 < len; i++) if (bytes[i] === 0xed && bytes[i + 1] >= 0xa0) { wtf = true; break; }
  if (!wtf) return decoder.decode(bytes.slice());
  let s = "";
  for (let i = 0; i < len;) {
    const b = bytes[i];
    let c, n;
    if (b < 0x80) { c = b; n = 1; }
    else if (b < 0xe0) { c = ((b & 31) << 6) | (bytes[i + 1] & 63); n = 2; }
    else if (b < 0xf0) { c = ((b & 15) << 12) | ((bytes[i + 1] & 63) << 6) | (bytes[i + 2] & 63); n = 3; }
    else { c = ((b & 7) << 18) | ((bytes[i + 1] & 63) << 12) | ((bytes[i + 2] & 63) << 6) | (bytes[i + 3] & 63); n = 4; }
    s += String.fromCodePoint(c);
    i += n;
  }
  return s;
}

// ---------------------------------------------------------------- frames

/**
 * One call's linear-memory layout. Plan every region first (f64, f32, u32,
 * u8 and key tables), then `alloc()` reserves them with ONE md_alloc, the
 * caller fills them, makes its call, and `free()` releases the block and any
 * result blocks the call handed back. The first 64 bytes are `out` slots the
 * boundary writes result addresses and sizes into.
 */
export class Frame {
  constructor(fn) {
    this.fn = fn;
    this.size = 64;
    this.base = 0;
    this.results = [];
    this.pendingKeys = [];
  }
  _region(bytes, align) {
    this.size = (this.size + align - 1) & ~(align - 1);
    const off = this.size;
    this.size += bytes;
    if (this.size > 0xfff00000) throw rangeError(this.fn, "input", "is too large for WebAssembly memory");
    return off;
  }
  f64(n) { return this._region(n * 8, 8); }
  f32(n) { return this._region(n * 4, 8); }
  u32(n) { return this._region(n * 4, 8); }
  u8(n) { return this._region(n, 8); }
  /** Plan a key table for `strings`: n + 1 u32 offsets and the WTF-8 bytes. */
  keys(strings) {
    const t = { n: strings.length, offs: this.u32(strings.length + 1), bytes: 0, strings };
    t.bytes = this.u8(wtf8Length(strings));
    this.pendingKeys.push(t);
    return t;
  }
  /** Reserve the planned block (one md_alloc) and write the key tables. */
  alloc() {
    const ex = exportsOf();
    const p = ex.md_alloc(this.size);
    if (!p) throw rangeError(this.fn, "input", `needs ${this.size} bytes of WebAssembly memory, which could not be allocated`);
    this.base = p;
    const { u8, u32 } = views();
    u8.fill(0, p, p + 64);
    for (const t of this.pendingKeys) writeKeys(t.strings, u8, u32, p + t.bytes, (p + t.offs) >>> 2);
    return this;
  }
  /** Absolute address of a planned region. */
  at(off) { return this.base + off; }
  /** Address of out slot i (u32 slots). */
  out(i = 0) { return this.base + 4 * i; }
  outU32(i) { return views().u32[(this.base >>> 2) + i]; }
  /** Check a status and remember result blocks to free. */
  check(status, what) {
    if (status !== 0) raise(status, this.fn, what);
  }
  /** A result block the frame frees in free(). */
  result(ptr) { if (ptr) this.results.push(ptr); return ptr; }
  /** Write the first n (default: all) numbers of an array-like as f64. */
  writeF64(off, values, n = values.length) {
    if (n === 0) return; // also keeps a detached (length 0) view from throwing
    const { f64 } = views();
    const at = (this.base + off) >>> 3;
    if (n === values.length) f64.set(values, at);
    else if (ArrayBuffer.isView(values)) f64.set(values.subarray(0, n), at);
    else for (let i = 0; i < n; i++) f64[at + i] = values[i];
  }
  writeF32(off, values, n = values.length) {
    if (n === 0) return;
    const { f32 } = views();
    const at = (this.base + off) >>> 2;
    if (n === values.length) f32.set(values, at);
    else if (ArrayBuffer.isView(values)) f32.set(values.subarray(0, n), at);
    else for (let i = 0; i < n; i++) f32[at + i] = values[i];
  }
  writeU32(off, values) {
    const { u32 } = views();
    u32.set(values, (this.base + off) >>> 2);
  }
  free() {
    if (!wasm) return;
    for (const r of this.results) wasm.md_free(r);
    this.results.length = 0;
    if (this.base) wasm.md_free(this.base);
    this.base = 0;
  }
}

/** Run `body(frame)` with a frame that is always freed. */
export function withFrame(fn, body) {
  const f = new Frame(fn);
  try {
    return body(f);
  } finally {
    f.free();
  }
}

// Our NFC and toLowerCase (C, through the wasm build tests/js/build.js selects) against Node's own
// String.prototype.normalize("NFC") and toLowerCase(): every code point, and
// 100,000 random mixed-script strings. Zero differences: our tables are
// Unicode 17.0 (tools/gen_unicode.mjs), the version the runtimes our users run
// implement (Node 20 with ICU 78, current Chromium and Deno), so the Node
// running the tests must implement 17.0 too.
import { decodeWtf8 } from "../../js/src/core.js";
import { BUILD, testWasmBytes as wasmBytes } from "./build.js";
import { rng } from "../oracles/rng.js";

// Global names read in the hot loops are bound here once: under Jest a test
// module runs in a vm context whose global lookups are slow (2.5x this suite's time).
const { String, Math, Uint8Array, JSON } = globalThis;
const ASSIGNED = /\p{Assigned}/u;

function wtf8(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}

/** One instance per build, driven through its raw exports. */
function textApi() {
  const ex = new WebAssembly.Instance(new WebAssembly.Module(wasmBytes()), {
    env: { emscripten_notify_memory_growth() {} },
  }).exports;
  if (typeof ex._initialize === "function") ex._initialize();
  const out = ex.md_alloc(16);
  const call = (name, s) => {
    const bytes = wtf8(s);
    const p = ex.md_alloc(bytes.length);
    new Uint8Array(ex.memory.buffer).set(bytes, p);
    const st = ex[name](p, bytes.length, out);
    ex.md_free(p);
    if (st !== 0) throw new Error(`${name} returned status ${st}`);
    const u32 = new Uint32Array(ex.memory.buffer);
    const block = u32[out >>> 2], len = u32[(out >>> 2) + 1];
    const r = decodeWtf8(new Uint8Array(ex.memory.buffer), block, len);
    ex.md_free(block);
    return r;
  };
  return { nfc: (s) => call("mdw_nfc", s), lower: (s) => call("mdw_to_lower", s), ex };
}


// Code point pools for mixed-script strings: the characters whose NFC or
// lowercase is interesting, plus the cases the final-sigma rule reads.
const RANGES = [
  [0x41, 0x5a], [0x61, 0x7a], [0x20, 0x40], [0xc0, 0x24f], [0x300, 0x36f], [0x370, 0x3ff],
  [0x400, 0x52f], [0x531, 0x587], [0x591, 0x5c7], [0x610, 0x65f], [0x900, 0x97f], [0x9bc, 0x9d7],
  [0xe00, 0xe5b], [0xf71, 0xf84], [0x1100, 0x11ff], [0x10a0, 0x10ff], [0x13a0, 0x13fd], [0x1c80, 0x1cbf],
  [0x1e00, 0x1fff], [0x2000, 0x206f], [0x2100, 0x214f], [0x2c00, 0x2c7f], [0x3040, 0x30ff],
  [0x302a, 0x302f], [0x3099, 0x309a], [0xa640, 0xa69f], [0xa720, 0xa7ff], [0xac00, 0xd7a3],
  [0xfb00, 0xfb4f], [0xff00, 0xff5e], [0x10400, 0x1044f], [0x10c80, 0x10cff], [0x11099, 0x110ba],
  [0x1d15e, 0x1d1c0], [0x1e900, 0x1e94b], [0x1f300, 0x1f64f], [0x2f800, 0x2fa1d], [0xe0001, 0xe007f],
  [0xe0100, 0xe01ef],
];
const SPECIAL = [0x3a3, 0x3a3, 0x3a3, 0x3c3, 0x3c2, 0x130, 0x212a, 0x212b, 0x2126, 0x345, 0xad, 0x27, 0x2e,
  0x3a, 0xb7, 0x2019, 0x200d, 0x307, 0x1100, 0x1161, 0x11a8, 0x20, 0x0a, 0xd800, 0xdc00, 0xdbff];

function randomString(next) {
  const n = Math.floor(next() * 24);
  let s = "";
  for (let i = 0; i < n; i++) {
    let c;
    const r = next();
    if (r < 0.25) c = SPECIAL[Math.floor(next() * SPECIAL.length)];
    else if (r < 0.9) {
      const [a, b] = RANGES[Math.floor(next() * RANGES.length)];
      c = a + Math.floor(next() * (b - a + 1));
    } else c = Math.floor(next() * 0x110000);
    if (!(c >= 0xd800 && c <= 0xdfff) && !ASSIGNED.test(String.fromCodePoint(c))) c = 0x3a3;
    s += String.fromCodePoint(c);
  }
  return s;
}

  describe(`Unicode (${BUILD})`, () => {
    const api = textApi();

    test("the runtime implements the tables' Unicode version (17.0)", () => {
      expect(process.versions.unicode).toBe("17.0");
    });

    test("known mappings", () => {
      expect(api.lower("\u0130")).toBe("i\u0307");
      expect(api.lower("\u212a")).toBe("k");
      expect(api.lower("ΟΔΟΣ")).toBe("οδος".slice(0, 3) + "ς");
      expect(api.lower("Σ")).toBe("σ");
      expect(api.lower("AΣ\u00ad")).toBe("aς\u00ad");
      expect(api.lower("AΣ\u00adB")).toBe("aσ\u00adb");
      // U+0345 and U+02B0 are cased AND case-ignorable: ICU (V8) skips them as ignorable.
      expect(api.lower("\u0345Σ")).toBe("\u0345σ");
      expect(api.lower("\u02b0Σ")).toBe("\u02b0σ");
      expect(api.lower("AΣ\u0345")).toBe("aς\u0345");
      expect(api.lower("AΣ\ud800")).toBe("aς\ud800");
      // Changed after Unicode 15.0 (issue 12): U+0295 is Lo, no longer Cased, since
      // 16.0; U+1171E is Mc, no longer Case_Ignorable; U+1C89 CYRILLIC CAPITAL
      // LETTER TJE (new in 16.0) lowercases to U+1C8A.
      expect(api.lower("AΣʕ")).toBe("aςʕ");
      expect(api.lower("A\u{1171E}Σ")).toBe("a\u{1171E}σ");
      expect(api.lower("\u1C89")).toBe("\u1C8A");
      expect(api.nfc("e\u0301")).toBe("\u00e9");
      expect(api.nfc("\u212b")).toBe("\u00c5");
      expect(api.nfc("\u1100\u1161\u11a8")).toBe("\uac01");
      expect(api.nfc("a\u0323\u0307b\u0307\u0323")).toBe("a\u0323\u0307b\u0323\u0307".normalize("NFC"));
      expect(api.nfc("\ud800x\udfff")).toBe("\ud800x\udfff");
    });

    test("every code point: NFC and toLowerCase as Node", () => {
      const divergent = [];
      let compared = 0;
      for (let start = 0; start < 0x110000; start += 0x1000) {
        // One call per block: "\n" neither composes nor is cased, so it
        // separates the code points for both transforms.
        // (The first block holds "\n" itself: one call per code point there.)
        const cps = [];
        for (let c = start; c < start + 0x1000; c++) cps.push(String.fromCodePoint(c));
        const joined = cps.join("\n");
        const ours = start === 0
          ? { nfc: cps.map(api.nfc), lower: cps.map(api.lower) }
          : { nfc: api.nfc(joined).split("\n"), lower: api.lower(joined).split("\n") };
        expect(ours.nfc.length).toBe(cps.length);
        expect(ours.lower.length).toBe(cps.length);
        for (let i = 0; i < cps.length; i++) {
          const s = cps[i], c = start + i;
          for (const [kind, theirs] of [["nfc", s.normalize("NFC")], ["lower", s.toLowerCase()]]) {
            compared++;
            if (ours[kind][i] === theirs) continue;
            divergent.push({ c, kind, ours: ours[kind][i], theirs });
          }
        }
      }
      expect(compared).toBe(2 * 0x110000);
      expect(divergent.slice(0, 10)).toEqual([]);
      expect(divergent.length).toBe(0);
    });

    test("100,000 random mixed-script strings: identical output", () => {
      const next = rng(0x5eed0001);
      const bad = [];
      for (let i = 0; i < 100000; i++) {
        const s = randomString(next);
        const n = api.nfc(s), l = api.lower(s);
        if (n !== s.normalize("NFC") || l !== s.toLowerCase()) bad.push(JSON.stringify(s));
        // The pipeline the merge tokens use.
        if (i % 4 === 0 && api.lower(api.nfc(s)) !== s.normalize("NFC").toLowerCase()) bad.push(`pipeline ${JSON.stringify(s)}`);
      }
      expect(bad.slice(0, 10)).toEqual([]);
    });
  });

// Keys across the wasm boundary (on the build tests/js/build.js selects): WTF-8 keeps lone
// surrogates distinct, results hand back the very same strings, keys from
// every plane survive, and md_key_compare orders keys exactly as
// JavaScript's sort() does (UTF-16 code units).
import fc from "fast-check";
import * as md from "../../js/index.js";
import { call, keys, out, slots } from "../../js/src/core.js";
import { BUILD, testWasmBytes as wasmBytes } from "./build.js";

function mdSort(strings) {
  const po = out.u32(strings.length);
  return call("mdSort", "mdw_sort_keys", [keys(strings), strings.length, po],
    (r) => Array.from(r.view(po), (i) => strings[i]));
}

function mdCompare(a, b) {
  return call("mdCompare", "mdw_key_compare", [keys([a, b]), 2, 0, 1, slots], (r) => r.slot(0) | 0);
}

const jsCompare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// One code unit or code point from every region that orders differently:
// ASCII, the rest of the BMP below the surrogates, lone high and low
// surrogates, U+E000..U+FFFF (above every surrogate pair), and each of the
// 16 supplementary planes.
const unit = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xd7ff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0xe000, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 1, max: 16 }).chain((plane) =>
    fc.integer({ min: plane * 0x10000, max: plane * 0x10000 + 0xffff }).map((c) => String.fromCodePoint(c))),
);
const key = fc.array(unit, { maxLength: 6 }).map((u) => u.join(""));
// Keys that share prefixes, so comparisons reach the interesting unit.
const prefixed = fc.tuple(fc.constantFrom("", "a", "\ud83d", "\ud83d\ude00", "\uffff"), key).map(([p, k]) => p + k);

  describe(`keys (${BUILD})`, () => {
    beforeAll(() => md.initSync(wasmBytes()));

    test("md_key_compare agrees with JavaScript's < on keys from every plane", () => {
      fc.assert(fc.property(prefixed, prefixed, (a, b) => mdCompare(a, b) === jsCompare(a, b)), { numRuns: 3000 });
    });

    test("sorting by md_key_compare equals Array.prototype.sort()", () => {
      fc.assert(fc.property(fc.array(prefixed, { maxLength: 40 }), (keys) => {
        expect(mdSort(keys)).toEqual([...keys].sort());
      }), { numRuns: 500 });
      // The classic trap: a surrogate pair sorts below U+E000..U+FFFF.
      expect(mdSort(["\uff5e", "\u{1f600}", "\ue000", "\ud7ff"])).toEqual(["\ud7ff", "\u{1f600}", "\ue000", "\uff5e"]);
    });

    test("large sorts (the radix levels over each key's 16 bytes after the common prefix) are stable and JavaScript's order", () => {
      const order = (strings) => {
        const po = out.u32(strings.length);
        return call("mdSort", "mdw_sort_keys", [keys(strings), strings.length, po], (r) => Array.from(r.view(po)));
      };
      const stable = (strings) => strings.map((_, i) => i)
        .sort((a, b) => (strings[a] < strings[b] ? -1 : strings[a] > strings[b] ? 1 : a - b));
      // Keys built from parts: a shared root, a short varying part, long shared middles (so buckets
      // outlive the 16 bytes and rec_cmp reads on), characters that need the UTF-16 remap (astral
      // against U+E000..U+FFFF), NULs that look like the records' padding, prefixes of other keys and repeats.
      const part = fc.constantFrom("", "a", "b", "ab", "\u0000", "\u0000\u0000", "z", "\u{1F600}", "\uE000", "\uFFFF", "é", "é",
        "0", "10", "9", "/", "-", "0123456789abcdef", "0123456789abcdeg", "x".repeat(20), "x".repeat(21));
      const keyArb = fc.tuple(fc.constantFrom("", "areas/topic", "areas/topic1", "\u{1F600}"), fc.array(part, { maxLength: 5 }))
        .map(([root, parts]) => root + parts.join(""));
      const sized = fc.integer({ min: 32, max: 3000 }).chain((n) => fc.array(keyArb, { minLength: n, maxLength: n }));
      fc.assert(fc.property(sized, fc.integer({ min: 0, max: 3 }), (ks, dup) => {
        const strings = dup ? ks.concat(ks.slice(0, ks.length >> dup)) : ks;
        expect(order(strings)).toEqual(stable(strings));
      }), { numRuns: 150 });
      // Many keys equal in their first 16 bytes after the common prefix but not later (the merge sort's tie path).
      const long = Array.from({ length: 5000 }, (_, i) => `r/${"m".repeat(i % 3 ? 20 : 3)}/${(i * 7919) % 1000}`);
      expect(order(long)).toEqual(stable(long));
    });

    test("without String.prototype.isWellFormed (older runtimes) key tables take the WTF-8 path and sort the same", () => {
      const own = Object.getOwnPropertyDescriptor(String.prototype, "isWellFormed");
      const samples = fc.sample(fc.array(prefixed, { maxLength: 40 }), { numRuns: 100, seed: 13 });
      const before = samples.map(mdSort);
      delete String.prototype.isWellFormed;
      try {
        expect(samples.map(mdSort)).toEqual(before);
        expect(samples.map((k) => [...k].sort())).toEqual(before);
      } finally {
        if (own) Object.defineProperty(String.prototype, "isWellFormed", own);
      }
    });

    test("lone surrogates stay distinct and come back as the same strings", () => {
      const lone = ["\ud800", "\ud801", "\udc00", "\udfff", "a\ud800", "a\udc00b", "\ufffd"];
      // Not merged into one node: each edge is its own component.
      const comps = md.connectedComponents([[lone[0], lone[1]], [lone[2], lone[3]], [lone[4], lone[5]], [lone[6], "z"]]);
      const flat = comps.flat();
      expect(new Set(flat).size).toBe(8);
      for (const k of lone) expect(flat).toContain(k);
      expect(comps).toEqual([[lone[4], lone[5]], ["z", lone[6]], [lone[0], lone[1]], [lone[2], lone[3]]].map((c) => [...c].sort()).sort((x, y) => jsCompare(x[0], y[0])));
      // Two different lone surrogates are not a self-merge (TextEncoder would make both U+FFFD).
      const out = md.mergeOutcomes([{ keepPath: "\ud800", dropPath: "\ud801", similarity: 0.99 },
        { keepPath: "\ufffd", dropPath: "\ud800", similarity: 0.99 }]);
      expect(out.map((o) => o.stage)).toEqual(["committed", "role-guard"]);
      expect(md.excludeSelfSupersede("\ud800", ["\ud801", "\ud800", "\ufffd", "\udc00"])).toEqual(["\ud801", "\ufffd", "\udc00"]);
      const dec = md.mergeCandidates([{ keepPath: "x\udbff", dropPath: "x\udfff", similarity: 1 }]);
      expect(dec).toEqual([{ keepPath: "x\udbff", dropPath: "x\udfff", similarity: 1 }]);
    });

    test("keys in every plane round-trip through connectedComponents", () => {
      fc.assert(fc.property(fc.array(fc.tuple(key, key), { maxLength: 30 }), (edges) => {
        const comps = md.connectedComponents(edges);
        const members = comps.flat();
        // Every distinct key exactly once, as the same string, members sorted as JavaScript sorts.
        expect(new Set(members)).toEqual(new Set(edges.flat()));
        expect(members.length).toBe(new Set(edges.flat()).size);
        for (const c of comps) expect(c).toEqual([...c].sort());
        expect(comps.map((c) => c[0])).toEqual(comps.map((c) => c[0]).sort());
      }), { numRuns: 300 });
    });
  });

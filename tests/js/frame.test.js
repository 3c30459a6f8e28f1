// frameKeyOf (on the build tests/js/build.js selects): against a plain-JavaScript port written the way
// the reference is (the regex, split(" "), toLowerCase), on random claims
// built to hit the rule's edges; and bad input.
import fc from "fast-check";
import * as md from "../../js/index.js";
import { BUILD, wasmBytes } from "./build.js";

function refFrameKeyOf(gist) {
  const s = gist.replace(/\s+/g, " ").trim();
  const m = s.match(/^(.*\b(?:of|is|in|to|by|as)\b)\s+(.+?)\.?$/);
  if (!m) return null;
  const [, frame, value] = m;
  if (frame.split(" ").length < 3) return null;
  const n = value.split(" ").length;
  if (n < 1 || n > 6) return null;
  return frame.toLowerCase();
}

const WORDS = ["of", "is", "in", "to", "by", "as", "IS", "Of", "iS", "The", "capital", "India", "New", "Delhi",
  "of.", "is.", ".", "..", "x", "ΣΟΦΙΑ", "ΤΟΥ", "İstanbul", "\u212aelvin", "é", "is_", "_is", "1is", "is1",
  "of-", "-of", "😀", "\ud800", "city's", "São", "ΑΣ", "Ωmega", "inis", "toby", "a.b", "ﬁn"];
const SPACES = [" ", " ", " ", "  ", "\t", "\n", "\r\n", "\u000b", "\f", "\u00a0", "\u1680", "\u2000", "\u200a",
  "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff",
  // not \s: these must stay inside tokens
  "\u0085", "\u200b", "\u180e", "\u2060", ""];
const claim = fc.array(fc.tuple(fc.constantFrom(...SPACES), fc.constantFrom(...WORDS)), { maxLength: 14 })
  .chain((parts) => fc.constantFrom(...SPACES).map((tail) => parts.map(([s, w]) => s + w).join("") + tail));

  describe(`frameKeyOf (${BUILD})`, () => {
    beforeAll(() => md.initSync(wasmBytes()));

    test("the design's example and the rule's edges", () => {
      expect(md.frameKeyOf("The capital of India is New Delhi")).toBe("the capital of india is");
      expect(md.frameKeyOf("The Capital of India is X")).toBe(md.frameKeyOf("the capital of India is Y"));
      expect(md.frameKeyOf("Water is wet")).toBeNull(); // frame of two tokens
      expect(md.frameKeyOf("a b is 1 2 3 4 5 6")).toBe("a b is");
      expect(md.frameKeyOf("a b is 1 2 3 4 5 6 7")).toBeNull(); // seven value tokens
      expect(md.frameKeyOf("a b is 1 2 3 4 5 6.")).toBe("a b is");
      expect(md.frameKeyOf("a b IS c")).toBeNull(); // linking tokens are lowercase only
      expect(md.frameKeyOf("a b éis c")).toBe("a b éis"); // "é" is not an ASCII word character
      expect(md.frameKeyOf("a b cis d")).toBeNull();
      expect(md.frameKeyOf("a éis c d")).toBeNull(); // a frame of two tokens
      expect(md.frameKeyOf("a b is c\u200bd is e")).toBe("a b is c\u200bd is"); // U+200B is not \s
      expect(md.frameKeyOf("a b is x\ud800 y")).toBe("a b is");
      expect(md.frameKeyOf("\ud800 \udc00 is v")).toBe("\ud800 \udc00 is");
      expect(md.frameKeyOf("")).toBeNull();
    });

    test("Unicode 17.0 casing (issue 12: the three cases that Unicode 15.0 tables got wrong)", () => {
      // Expected values from the issue (the reference on Node 20 / ICU 78).
      expect(md.frameKeyOf("AΣʕ b c is v")).toBe("aςʕ b c is");
      expect(md.frameKeyOf("A\u{1171E}Σ b c is v")).toBe("a\u{1171E}σ b c is");
      expect(md.frameKeyOf("ab\u1C89 c d is v")).toBe("ab\u1C8A c d is");
      for (const s of ["AΣʕ b c is v", "A\u{1171E}Σ b c is v", "ab\u1C89 c d is v"]) expect(md.frameKeyOf(s)).toBe(refFrameKeyOf(s));
    });

    test("agrees with the reference regex on random claims", () => {
      fc.assert(fc.property(claim, (s) => {
        expect(md.frameKeyOf(s)).toBe(refFrameKeyOf(s));
      }), { numRuns: 20000 });
    });

    test("agrees on arbitrary strings", () => {
      fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 40 }), (s) => {
        expect(md.frameKeyOf(s)).toBe(refFrameKeyOf(s));
      }), { numRuns: 5000 });
    });

    test("frameKeysOf (the batch form) equals frameKeyOf claim by claim", () => {
      fc.assert(fc.property(fc.array(fc.oneof(claim, fc.string({ unit: "binary", maxLength: 20 })), { maxLength: 30 }), (gists) => {
        expect(md.frameKeysOf(gists)).toEqual(gists.map((g) => md.frameKeyOf(g)));
      }), { numRuns: 1000 });
      expect(md.frameKeysOf([])).toEqual([]);
      expect(md.frameKeysOf(["a b is \ud800 y", "a \udc00 of x", "x"])).toEqual(["a b is", "a \udc00 of", null]);
      expect(() => md.frameKeysOf(["a", 3])).toThrow(/frameKeysOf: gists\[1\]/);
      expect(() => md.frameKeysOf("a")).toThrow(TypeError);
    });

    test("bad input throws a TypeError naming the argument", () => {
      for (const bad of [undefined, null, 42, {}, ["a"]]) expect(() => md.frameKeyOf(bad)).toThrow(/frameKeyOf: gist/);
      expect(() => md.frameKeyOf(1)).toThrow(TypeError);
      expect(md.frameKeyOf("x y of z")).toBe("x y of"); // still usable after throwing
    });
  });

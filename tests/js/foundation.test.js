// The foundation modules through the JS API (on the build tests/js/build.js picks): bad input
// throws a named TypeError/RangeError (and leaves the instance usable),
// properties from the design, and agreement with a plain-JavaScript
// reference written from the design.
import fc from "fast-check";
import * as md from "../../js/index.js";
import { wasmBytes } from "./build.js";
import { refCosine, refFuse, refRank } from "../oracles/baseline-fusion.js";

const exportsObj = md.initSync(wasmBytes());

const same = (x, y) => expect(Object.is(x, y) || (Number.isNaN(x) && Number.isNaN(y))).toBe(true);
const keyArb = fc.constantFrom("a", "b", "B", "é", "\u{1F600}", "\uFF5E", "\uD800", "\uDC00", "a b", "", "__proto__", "0", "constructor");
const dbl = fc.oneof(fc.double(), fc.double({ min: -10, max: 10, noNaN: true }), fc.constantFrom(0, -0, NaN, Infinity, 1e-160, 3e-162));

describe("bad input throws a named error and leaves the instance usable", () => {
  const cases = [
    ["cosine", () => md.cosine("abc", [1]), TypeError, /cosine: a /],
    ["cosine", () => md.cosine([1], { length: 1, 0: "x" }), TypeError, /cosine: b\[0\]/],
    ["cosine", () => md.cosine([1], null), TypeError, /cosine: b /],
    ["cosineDistance", () => md.cosineDistance([1], 5), TypeError, /cosineDistance: b /],
    ["compensatedSum", () => md.compensatedSum("12"), TypeError, /compensatedSum: values/],
    ["compensatedSum", () => md.compensatedSum([1, "2"]), TypeError, /compensatedSum: values\[1\]/],
    ["rrfContribution", () => md.rrfContribution("1", 1), TypeError, /rrfContribution: rank/],
    ["rrfScore", () => md.rrfScore(1, 1, "60"), TypeError, /rrfScore: k/],
    ["fuseArms", () => md.fuseArms("x", []), TypeError, /fuseArms: armResults/],
    ["fuseArms", () => md.fuseArms([[{ path: 1, rank: 1 }]], [1]), TypeError, /armResults\[0\]\[0\]\.path/],
    ["fuseArms", () => md.fuseArms([[{ path: "a", rank: "1" }]], [1]), TypeError, /armResults\[0\]\[0\]\.rank/],
    ["fuseArms", () => md.fuseArms([[]], ["1"]), TypeError, /weights\[0\]/],
    ["fuseArms", () => md.fuseArms([[]], null), TypeError, /fuseArms: weights/],
    ["rankFused", () => md.rankFused({}), TypeError, /rankFused: fused/],
    ["rankFused", () => md.rankFused(new Map([["a", "1"]])), TypeError, /rankFused: fused/],
    ["fuseLateral", () => md.fuseLateral(new Map(), "abc", 1), TypeError, /fuseLateral: order/],
    ["fuseLateral", () => md.fuseLateral(new Map(), [3], 1), TypeError, /fuseLateral: order\[0\]/],
    ["shouldBumpAccess", () => md.shouldBumpAccess("2020-01-01", new Date()), TypeError, /lastAccessedAt/],
    ["shouldBumpAccess", () => md.shouldBumpAccess(undefined, { getTime: () => 0 }), TypeError, /shouldBumpAccess: now/],
    ["partitionByCooldown", () => md.partitionByCooldown([{ path: "a", lastAccessedAt: 5 }], new Date()), TypeError, /entries\[0\]\.lastAccessedAt/],
    ["partitionByCooldown", () => md.partitionByCooldown([null], new Date()), TypeError, /entries\[0\]/],
    ["signalValue", () => md.signalValue(5), TypeError, /signalValue: signal/],
    ["toFp", () => md.toFp("0.5"), TypeError, /toFp: value/],
    ["applyOutcomesFp", () => md.applyOutcomesFp(1, 1, [1, null]), TypeError, /signalsFp\[1\]/],
    ["applyNegativeHitsFp", () => md.applyNegativeHitsFp(1, 1, 2 ** 32), RangeError, /applyNegativeHitsFp: hits/],
    ["decayConfidenceNFp", () => md.decayConfidenceNFp(1e-12, 1e9, 0, Infinity), RangeError, /decayConfidenceNFp: cycles/],
    ["decayConfidenceN", () => md.decayConfidenceN(0.5, "3"), TypeError, /decayConfidenceN: cycles/],
  ];
  test.each(cases)("%s", (_name, call, type, message) => {
    expect(call).toThrow(type);
    expect(call).toThrow(message);
    expect(md.cosine([1, 0], [0.5, 0.5])).toBe(0.7071067811865475);
  });

  test("a huge hits count that settles answers without building the array", () => {
    expect(md.applyNegativeHitsFp(1, 5000, 2 ** 32 - 1)).toBe(-10000);
    expect(md.decayConfidenceNFp(1000, 9000, 2000, Infinity)).toBe(2000);
  });

  test("every finite count is folded to its end, as the reference loops (issue 12)", () => {
    // The reference returns this after 67,108,865 steps.
    expect(md.decayConfidenceNFp(0.01, 1e300, 0, 67108865)).toBe(7.161032925508409e+270);
    // Past 2^26 steps without settling: with alpha 1e-12 each step moves the
    // value down by exactly one grid step, floor((SCALE - 1e-12) * v / SCALE) = v - 1
    // (a loop in the test itself would take a minute under Jest's vm context).
    const n = 2 ** 26 + 3;
    expect(md.applyNegativeHitsFp(1e-12, 1e9, n)).toBe(1e9 - n);
    expect(md.decayConfidenceNFp(1e-12, 1e9, 0, n - 0.5)).toBe(1e9 - n);
    // Only an endless count whose value never settles is refused (the reference never returns).
    expect(() => md.decayConfidenceNFp(1e-12, 1e9, 0, 2 ** 53 + 2)).toThrow(/decayConfidenceNFp: cycles \(9007199254740994\) never ends/);
  });
});

describe("properties", () => {
  test("cosine is total, clamped and equals the reference bit for bit (number[] and Float32Array)", () => {
    fc.assert(fc.property(fc.array(dbl, { maxLength: 12 }), fc.array(dbl, { maxLength: 12 }), (a, b) => {
      const s = md.cosine(a, b);
      expect(s >= -1 && s <= 1).toBe(true);
      same(s, refCosine(a, b));
      same(md.cosineDistance(a, b), 1 - s);
      const fa = new Float32Array(a), fb = new Float32Array(b);
      same(md.cosine(fa, fb), refCosine(fa, fb));
    }), { numRuns: 2000 });
  });

  test("fuseArms and rankFused equal the reference fold and sort", () => {
    const hit = fc.record({ path: keyArb, rank: fc.oneof(fc.integer({ min: -3, max: 50 }), dbl) });
    fc.assert(fc.property(fc.array(fc.array(hit, { maxLength: 6 }), { maxLength: 5 }),
      fc.array(fc.oneof(dbl, fc.constant(0)), { maxLength: 6 }), fc.oneof(fc.constant(60), dbl),
      (arms, weights, k) => {
        const got = md.fuseArms(arms, weights, k), want = refFuse(arms, weights, k);
        expect([...got.keys()]).toEqual([...want.keys()]);
        for (const [p, s] of want) same(got.get(p), s);
        const r = md.rankFused(got), rr = refRank(want);
        expect(r.map((x) => x.path)).toEqual(rr.map((x) => x.path));
      }), { numRuns: 1500 });
  });

  test("fusion is order-insensitive across arms (two arms swap to the same bits)", () => {
    const arm = fc.uniqueArray(fc.record({ path: keyArb, rank: fc.integer({ min: 1, max: 30 }) }), { selector: (h) => h.path, maxLength: 6 });
    fc.assert(fc.property(arm, arm, fc.double({ min: 0.01, max: 3 }), fc.double({ min: 0.01, max: 3 }), (a, b, wa, wb) => {
      const x = md.fuseArms([a, b], [wa, wb]), y = md.fuseArms([b, a], [wb, wa]);
      expect(x.size).toBe(y.size);
      for (const [p, s] of x) same(y.get(p), s);
    }), { numRuns: 1000 });
  });

  test("fuseArms' intern table (a null-prototype object kept across calls) treats every string as a plain key", () => {
    // Names an object gives meaning to (prototype members, array indices and their near misses), then
    // more distinct paths than the table's bound (65,536), so it restarts mid-sequence.
    const special = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "0", "1", "01", "-0", "-1",
      "4294967294", "4294967295", "4294967296", "1e3", "NaN", "Infinity", "length", "", " ", "\uD800", "prototype"];
    const paths = [...special, ...Array.from({ length: 70000 }, (_, i) => `p/${i}.html`)];
    const r = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { numRuns: 1, seed: 7 })[0];
    let x = r;
    const next = (m) => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) % m;
    let at = 0;
    for (let call = 0; call < 60; call++) {
      const arms = Array.from({ length: 3 }, () => Array.from({ length: 1 + next(3000) }, (_, j) => {
        // Mostly fresh paths (the table fills and restarts), a special name in about one hit in eight.
        const path = next(8) === 0 ? special[next(special.length)] : next(2) ? paths[(at++) % paths.length] : paths[next(paths.length)];
        return { path, rank: j + 1 };
      }));
      const got = md.fuseArms(arms, [1, 0.5, 0.25]), want = refFuse(arms, [1, 0.5, 0.25]);
      expect([...got.keys()]).toEqual([...want.keys()]);
      for (const [p, s] of want) same(got.get(p), s);
    }
    expect(at).toBeGreaterThan(65536); // the table went past its bound
  });

  test("lone surrogates stay distinct keys and come back unchanged", () => {
    const keys = ["\uD800", "\uDC00", "\uDBFF\uDFFF", "\uD83D", "\uD83D\uDE00", "\uDE00\uD83D", "x\uD800y"];
    const fused = md.fuseArms([keys.map((path, i) => ({ path, rank: i + 1 }))], [1]);
    expect([...fused.keys()]).toEqual(keys);
    const ranked = md.rankFused(new Map(keys.map((k) => [k, 1])));
    expect(ranked.map((r) => r.path)).toEqual([...keys].sort());
  });

  test("decay is non-increasing and a batch equals single steps", () => {
    const fp = fc.integer({ min: -10000, max: 10000 });
    fc.assert(fc.property(fc.integer({ min: 0, max: 10000 }), fp, fp, fc.array(fp, { maxLength: 10 }), (a, c, f, sig) => {
      expect(md.decayConfidenceFp(a, c, f) <= c).toBe(true);
      same(md.decayConfidenceFp(a, c, f), Math.min(c, Math.floor((a * f + (10000 - a) * c) / 10000)));
      let v = c;
      for (const s of sig) v = md.ewmaStepFp(a, v, s);
      same(md.applyOutcomesFp(a, c, sig), v);
    }), { numRuns: 2000 });
  });

  test("shouldBumpAccess: a stamp exactly the cooldown old is bumpable", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2e12 }), fc.integer({ min: 1, max: 100000 }), (t, cd) => {
      expect(md.shouldBumpAccess(new Date(t), new Date(t + cd * 1000), cd)).toBe(true);
      expect(md.shouldBumpAccess(new Date(t), new Date(t + cd * 1000 - 1), cd)).toBe(false);
    }));
  });
});

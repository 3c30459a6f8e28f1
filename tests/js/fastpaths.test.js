// The JavaScript fast paths (js/src/fastpaths.js) against the wasm exports
// they stand in for, bit for bit, on random and edge-case inputs: if one
// ever disagrees, the package would answer differently for short and long
// inputs. Runs on the test build (it exports md_rrf_contribution too).
import fc from "fast-check";
import * as md from "../../js/index.js";
import { exportsOf, region, views } from "../../js/src/core.js";
import * as Option from "effect/Option";
import { COSINE_JS_MAX, DECAY_JS_MAX, cosineSmall } from "../../js/src/fastpaths.js";
import { BUILD, testWasmBytes } from "./build.js";

const same = (a, b) => Object.is(a, b);
const special = fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 5e-324, -5e-324, 1e-160, 1e160, 1.7976931348623157e308, 0.5, -0.5, 1, -1);
const num = fc.oneof(fc.double(), special, fc.double({ min: -2, max: 2, noNaN: true }));
const f32 = fc.oneof(fc.float(), fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1e-40, -1e-40, 3.4e38));

describe(`JavaScript fast paths = wasm (${BUILD})`, () => {
  beforeAll(() => md.initSync(testWasmBytes()));

  test("cosine over Float32Array and number[] vectors up to COSINE_JS_MAX elements", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: COSINE_JS_MAX }), fc.array(f32, { minLength: 64, maxLength: 64 }),
      fc.array(num, { minLength: 64, maxLength: 64 }), (n, fa, da) => {
        const a = new Float32Array(fa.slice(0, n)), b = new Float32Array(fa.slice(32, 32 + n));
        const ex = exportsOf();
        const p = region("test", 16 * n + 16), q = p + 8 * n + 8;
        views().f32.set(a, p >>> 2);
        views().f32.set(b, q >>> 2);
        const wasm32 = ex.mdw_cosine_f32(p, n, q, n);
        if (!same(cosineSmall(a, b, n), wasm32) || !same(md.cosine(a, b), wasm32)) return false;
        const x = da.slice(0, n), y = da.slice(32, 32 + n);
        views().f64.set(x, p >>> 3);
        views().f64.set(y, q >>> 3);
        const wasm64 = ex.mdw_cosine(p, n, q, n);
        return same(cosineSmall(x, y, n), wasm64) && same(md.cosine(x, y), wasm64);
      }), { numRuns: 3000 });
  });

  test("rrfContribution = md_rrf_contribution", () => {
    const ex = exportsOf();
    const at = region("test", 16);
    fc.assert(fc.property(fc.oneof(num, fc.integer({ min: -5, max: 200 })), num, (rank, weight) => {
      const some = ex.md_rrf_contribution(rank, weight, at) !== 0;
      const o = md.rrfContribution(rank, weight);
      return some ? Option.isSome(o) && same(o.value, views().f64[at >>> 3]) : Option.isNone(o);
    }), { numRuns: 20000 });
  });

  test("decayConfidenceN up to DECAY_JS_MAX cycles = mdw_decay_confidence_n", () => {
    const ex = exportsOf();
    const cycles = fc.oneof(fc.integer({ min: -3, max: DECAY_JS_MAX }), fc.double({ min: -5, max: DECAY_JS_MAX, noNaN: true }),
      fc.constantFrom(-Infinity, 0, -0, DECAY_JS_MAX));
    fc.assert(fc.property(num, cycles, num, num, (c, n, a, f) =>
      same(md.decayConfidenceN(c, n, a, f), ex.mdw_decay_confidence_n(c, n, a, f))), { numRuns: 20000 });
    // realistic ranges too: confidences and rates in [0, 1]
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(fc.property(unit, fc.integer({ min: 0, max: DECAY_JS_MAX }), unit, unit, (c, n, a, f) =>
      same(md.decayConfidenceN(c, n, a, f), ex.mdw_decay_confidence_n(c, n, a, f))), { numRuns: 20000 });
    // and on the grid (fast-check's doubles in [0, 1] are mostly its edge values)
    const grid = fc.integer({ min: 0, max: 10000 }).map((g) => g / 10000);
    fc.assert(fc.property(grid, fc.integer({ min: 0, max: DECAY_JS_MAX }), grid, grid, (c, n, a, f) =>
      same(md.decayConfidenceN(c, n, a, f), ex.mdw_decay_confidence_n(c, n, a, f))), { numRuns: 20000 });
  });

  test("decayConfidenceN's integer path (everything on the grid in [0, 1]) = mdw_decay_confidence_n at its edges", () => {
    const ex = exportsOf();
    // Values on, just inside and just outside the integer path's range (v, a, f in [0, GRID], v >= 1),
    // half-way points of the grid's rounding, -0 and NaN.
    const edge = [NaN, -1e-5, -0.00005, -0, 0, 0.00004, 0.00005, 0.00006, 0.0001, 0.2, 0.5, 0.99994, 0.99995, 0.99996, 1,
      1.00004, 1.00005, 1.0001, 2];
    const bad = [];
    let checked = 0;
    for (const c of edge) for (const a of edge) for (const f of edge) for (const n of [0, 1, 2, 3, 7, 30, DECAY_JS_MAX]) {
      checked++;
      if (!same(md.decayConfidenceN(c, n, a, f), ex.mdw_decay_confidence_n(c, n, a, f))) bad.push([c, n, a, f]);
    }
    // Every 7th alpha on the grid (every one at its ends), from the top of the range to a fixed point, with a floor above and below.
    for (let g = 0; g <= 10000; g += g < 20 || g > 9980 ? 1 : 7) for (const f of [0, 0.2, 0.99995, 1]) for (const c of [1, 0.0001]) {
      checked++;
      if (!same(md.decayConfidenceN(c, DECAY_JS_MAX, g / 10000, f), ex.mdw_decay_confidence_n(c, DECAY_JS_MAX, g / 10000, f)))
        bad.push([c, DECAY_JS_MAX, g / 10000, f]);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(50000);
  });

  test("decayConfidenceN's default alpha and floor (literals in js/src/decay.js) are C's", () => {
    const ex = exportsOf();
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(fc.property(unit, fc.integer({ min: 1, max: DECAY_JS_MAX }), (c, n) =>
      same(md.decayConfidenceN(c, n), ex.mdw_decay_confidence_n(c, n, md.DEFAULT_CONFIDENCE_DECAY_ALPHA, md.DEFAULT_CONFIDENCE_FLOOR))),
    { numRuns: 5000 });
    // and with one of the two given, the other still defaults
    expect(md.decayConfidenceN(0.9, 12, 0.3)).toBe(ex.mdw_decay_confidence_n(0.9, 12, 0.3, md.DEFAULT_CONFIDENCE_FLOOR));
    expect(md.decayConfidenceN(0.05, 3)).toBe(ex.mdw_decay_confidence_n(0.05, 3, md.DEFAULT_CONFIDENCE_DECAY_ALPHA, md.DEFAULT_CONFIDENCE_FLOOR));
  });

  test("the fast paths hand over to wasm past their bounds", () => {
    const long = new Float32Array(COSINE_JS_MAX + 1).fill(1);
    expect(md.cosine(long, long)).toBe(1);
    expect(md.decayConfidenceN(0.9, DECAY_JS_MAX + 1)).toBe(exportsOf().mdw_decay_confidence_n(0.9, DECAY_JS_MAX + 1, 0.1, 0.2));
  });
});

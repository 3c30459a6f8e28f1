// retention through the JS API (on the build tests/js/build.js picks; make
// test-js runs every suite on both): the design's invariants as
// fast-check properties, agreement with a plain-JavaScript port of the
// reference (tests/oracles/retention-reference.mjs), the batch scorer's bit-identity
// and constant boundary crossings, and argument errors.
import fc from "fast-check";
import * as md from "../../js/index.js";
import { BUILD, wasmBytes } from "./build.js";
import { decode, mismatch } from "./golden/codec.js";
import { loadCases } from "./golden/runner.js";
import {
  refCompositeScore, refComputeSignals, refHalfLifeFor, refReprieveScore, refScoreRetention, refWeightsFor,
} from "../oracles/retention-reference.mjs";

const SEED = 20261130;
const RUNS = { seed: SEED, numRuns: 2000 };
const same = (a, b) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

const TYPES = ["episodic", "semantic", "procedural", "arc", "error_pattern", "task"];
const arbType = fc.oneof(
  fc.constantFrom(...TYPES),
  fc.constantFrom("toString", "__proto__", "constructor", "hasOwnProperty", "valueOf", "Episodic",
    "episodic ", "", "error-pattern", "\uD800", "task\uDC00", "😀"),
  fc.string({ unit: "binary", maxLength: 12 }),
);
const arbAny = fc.double(); // NaN, ±0, ±Infinity, subnormals included
const arbNum = (lo, hi) => fc.oneof({ weight: 4, arbitrary: fc.double({ min: lo, max: hi, noNaN: true }) }, { weight: 1, arbitrary: arbAny });
const arbInput = fc.record({
  memoryType: arbType,
  ageDays: arbNum(0, 5000),
  accessCount: arbNum(0, 50),
  confidence: arbNum(-0.5, 1.5),
  graphRank: arbNum(0, 1),
  maxGraphRank: arbNum(0, 1),
  bridgeCount: arbNum(0, 10),
  reinforcementCount: arbNum(0, 10),
  wordCount: arbNum(0, 300),
  contradictionCount: arbNum(0, 6),
});
// In-contract inputs: every raw quantity in its documented range.
const arbValidInput = fc.record({
  memoryType: arbType,
  ageDays: fc.double({ min: 0, max: 1e5, noNaN: true }),
  accessCount: fc.nat(1e6),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  graphRank: fc.double({ min: 0, max: 1, noNaN: true }),
  maxGraphRank: fc.double({ min: 0, max: 1, noNaN: true }),
  bridgeCount: fc.nat(100),
  reinforcementCount: fc.nat(100),
  wordCount: fc.nat(1e5),
  contradictionCount: fc.nat(20),
});
const arbSignals = fc.record(Object.fromEntries(md.SIGNAL_NAMES.map((n) => [n, fc.double({ min: 0, max: 1, noNaN: true })])));
const PROFILES = [...Object.values(md.WEIGHT_PROFILES), md.DEFAULT_WEIGHTS];
const FIELDS = ["ageDays", "accessCount", "confidence", "graphRank", "maxGraphRank", "bridgeCount",
  "reinforcementCount", "wordCount", "contradictionCount"];

function toColumns(inputs, make = (xs) => Float64Array.from(xs)) {
  const cols = { memoryType: inputs.map((x) => x.memoryType) };
  for (const f of FIELDS) cols[f] = make(inputs.map((x) => x[f]));
  return cols;
}

function expectBatchMatches(inputs, batch) {
  expect(batch.score).toBeInstanceOf(Float64Array);
  expect(batch.action).toBeInstanceOf(Uint8Array);
  expect(batch.score.length).toBe(inputs.length);
  const bad = [];
  inputs.forEach((x, i) => {
    const one = md.scoreRetention(x);
    if (!same(one.score, batch.score[i]) || one.action !== md.TRIAGE_ACTIONS[batch.action[i]]) bad.push(i);
    if (batch.signals) for (const n of md.SIGNAL_NAMES) if (!same(one.signals[n], batch.signals[n][i])) bad.push(`${i}.${n}`);
  });
  expect(bad).toEqual([]);
}

describe(`${BUILD} build`, () => {
  beforeAll(() => md.initSync(wasmBytes()));

  describe("profiles and types", () => {
    test("every profile sums to exactly 1 under compensatedSum (and naively not, for two of six)", () => {
      for (const p of PROFILES) {
        expect(md.profileWeightSum(p)).toBe(1);
        expect(md.compensatedSum(md.SIGNAL_NAMES.map((n) => p[n]))).toBe(1);
      }
      const naive = PROFILES.filter((p) => md.SIGNAL_NAMES.reduce((s, n) => s + p[n], 0) !== 1);
      expect(naive.length).toBe(2);
    });

    test("a type lookup is an own-key lookup", () => {
      for (const t of ["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf", "isPrototypeOf"]) {
        expect(md.weightsFor(t)).toBe(md.DEFAULT_WEIGHTS);
        expect(md.halfLifeFor(t)).toBe(md.DEFAULT_HALF_LIFE_DAYS);
      }
      for (const t of Object.keys(md.WEIGHT_PROFILES)) expect(md.weightsFor(t)).toBe(md.WEIGHT_PROFILES[t]);
      for (const t of Object.keys(md.HALF_LIVES_DAYS)) expect(md.halfLifeFor(t)).toBe(md.HALF_LIVES_DAYS[t]);
      expect(md.weightsFor("task")).toBe(md.DEFAULT_WEIGHTS);
      fc.assert(fc.property(arbType, (t) => {
        expect(md.weightsFor(t)).toBe(refWeightsFor(t) === refWeightsFor("x") ? md.DEFAULT_WEIGHTS : md.WEIGHT_PROFILES[t]);
        expect(md.halfLifeFor(t)).toBe(refHalfLifeFor(t));
      }), RUNS);
    });

    test("the tables are frozen", () => {
      expect(Object.isFrozen(md.WEIGHT_PROFILES)).toBe(true);
      expect(Object.isFrozen(md.WEIGHT_PROFILES.episodic)).toBe(true);
      expect(Object.isFrozen(md.DEFAULT_WEIGHTS)).toBe(true);
      expect(Object.isFrozen(md.HALF_LIVES_DAYS)).toBe(true);
      expect(Object.isFrozen(md.SIGNAL_NAMES)).toBe(true);
    });
  });

  describe("scorer properties", () => {
    test("the composite of [0, 1] signals lies in [0, 1] under every shipped profile", () => {
      fc.assert(fc.property(arbSignals, fc.constantFrom(...PROFILES), (s, p) => {
        const c = md.compositeScore(s, p);
        expect(c >= 0 && c <= 1).toBe(true);
        expect(Math.round(c * 1e4) / 1e4).toBe(c);
      }), RUNS);
    });

    test("compositeScore of any signals and any profile equals the plain-JS port (Neumaier, Math.round)", () => {
      const arbVec = fc.record(Object.fromEntries(md.SIGNAL_NAMES.map((n) => [n, fc.oneof(arbAny, fc.double({ min: -1, max: 1, noNaN: true }))])));
      fc.assert(fc.property(arbVec, arbVec, (s, p) => {
        expect(same(md.compositeScore(s, p), refCompositeScore(s, p))).toBe(true);
      }), { seed: SEED, numRuns: 5000 });
    });

    test("in-contract inputs give signals and a composite in [0, 1], banded by bandFor", () => {
      fc.assert(fc.property(arbValidInput, (x) => {
        const r = md.scoreRetention(x);
        for (const n of md.SIGNAL_NAMES) expect(r.signals[n] >= 0 && r.signals[n] <= 1).toBe(true);
        expect(r.score >= 0 && r.score <= 1).toBe(true);
        expect(r.action).toBe(md.bandFor(r.score));
      }), RUNS);
    });

    test("the bands partition [0, 1], each boundary owned by the lower band", () => {
      expect(md.bandFor(0.7)).toBe("compress");
      expect(md.bandFor(0.3)).toBe("evict");
      expect(md.bandFor(0.7000000000000001)).toBe("keep");
      expect(md.bandFor(0.30000000000000004)).toBe("compress");
      expect(md.bandFor(NaN)).toBe("evict");
      const rank = { keep: 2, compress: 1, evict: 0 };
      fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
        const band = md.bandFor(a);
        expect(band).toBe(a > md.KEEP_THRESHOLD ? "keep" : a <= md.EVICT_THRESHOLD ? "evict" : "compress");
        if (a <= b) expect(rank[band] <= rank[md.bandFor(b)]).toBe(true);
      }), RUNS);
    });

    test("recency is exactly 0.5 at the half-life", () => {
      for (const [t, h] of Object.entries(md.HALF_LIVES_DAYS)) {
        const base = { memoryType: t, accessCount: 0, confidence: 0, graphRank: 0, maxGraphRank: 0, bridgeCount: 0, reinforcementCount: 0, wordCount: 0, contradictionCount: 0 };
        const r = md.computeSignals({ ...base, ageDays: h ?? 10 });
        expect(r.recency).toBe(h === null ? 1 : 0.5);
      }
      const other = md.computeSignals({ memoryType: "toString", ageDays: 30, accessCount: 0, confidence: 0, graphRank: 0, maxGraphRank: 0, bridgeCount: 0, reinforcementCount: 0, wordCount: 0, contradictionCount: 0 });
      expect(other.recency).toBe(0.5);
    });

    test("scoreRetention = compositeScore(computeSignals, weightsFor) banded, and equals a plain-JS port of the reference", () => {
      fc.assert(fc.property(arbInput, (x) => {
        const r = md.scoreRetention(x);
        const s = md.computeSignals(x);
        expect(r.signals).toEqual(s);
        expect(same(md.compositeScore(s, md.weightsFor(x.memoryType)), r.score)).toBe(true);
        expect(r.action).toBe(md.bandFor(r.score));
        const ref = refScoreRetention(x);
        expect(same(r.score, ref.score)).toBe(true);
        expect(r.action).toBe(ref.action);
        for (const n of md.SIGNAL_NAMES) expect(same(r.signals[n], ref.signals[n])).toBe(true);
        expect(Object.keys(r.signals)).toEqual([...md.SIGNAL_NAMES]);
        const refS = refComputeSignals(x);
        for (const n of md.SIGNAL_NAMES) expect(same(s[n], refS[n])).toBe(true);
      }), { seed: SEED, numRuns: 5000 });
    });
  });

  describe("reprieve", () => {
    const arbRep = fc.record({
      importance: arbNum(-5, 15), accessCount: arbNum(-5, 1e4), outcomeScore: arbNum(-2, 2),
      hoursSinceAccess: arbNum(-10, 1e4),
    });
    const arbRepRate = fc.record({
      importance: arbNum(-5, 15), accessCount: arbNum(-5, 1e4), outcomeScore: arbNum(-2, 2),
      hoursSinceAccess: arbNum(-10, 1e4), decayRate: arbNum(0, 1),
    });

    test("equals the plain-JS port (V8's log1p and exp) with and without decayRate", () => {
      fc.assert(fc.property(fc.oneof(arbRep, arbRepRate), (x) => {
        expect(same(md.reprieveScore(x), refReprieveScore(x))).toBe(true);
      }), { seed: SEED, numRuns: 5000 });
      expect(md.reprieveScore({ importance: 5, accessCount: 3, outcomeScore: 0.5, hoursSinceAccess: 10, decayRate: undefined }))
        .toBe(md.reprieveScore({ importance: 5, accessCount: 3, outcomeScore: 0.5, hoursSinceAccess: 10, decayRate: md.SALIENCE_DECAY_RATE }));
    });

    test("monotone in each input, and a negative outcome contributes exactly 0", () => {
      const fin = (lo, hi) => fc.double({ min: lo, max: hi, noNaN: true });
      fc.assert(fc.property(fin(-5, 15), fin(-5, 1e4), fin(-2, 2), fin(-10, 1e4), fin(0, 100), fin(0.001, 2),
        (importance, accessCount, outcomeScore, hoursSinceAccess, d, negative) => {
          const x = { importance, accessCount, outcomeScore, hoursSinceAccess };
          const s = md.reprieveScore(x);
          expect(md.reprieveScore({ ...x, importance: importance + d }) >= s).toBe(true);
          expect(md.reprieveScore({ ...x, accessCount: accessCount + d }) >= s).toBe(true);
          expect(md.reprieveScore({ ...x, outcomeScore: outcomeScore + d }) >= s).toBe(true);
          expect(md.reprieveScore({ ...x, hoursSinceAccess: hoursSinceAccess + d }) <= s).toBe(true);
          expect(md.reprieveScore({ ...x, outcomeScore: -negative })).toBe(md.reprieveScore({ ...x, outcomeScore: 0 }));
          expect(s > 0).toBe(true);
        }), RUNS);
    });

    test("maxReprieves: 0 never reprieves; the floor is inclusive and the cap exclusive", () => {
      fc.assert(fc.property(arbAny, arbAny, fc.option(arbAny, { nil: undefined }), (score, reprieveCount, floor) => {
        expect(md.shouldReprieve({ score, reprieveCount: Math.abs(reprieveCount) % 10, floor, maxReprieves: 0 })).toBe(false);
        expect(md.shouldReprieve({ score, reprieveCount, floor }))
          .toBe(score >= (floor ?? md.REPRIEVE_FLOOR) && reprieveCount < md.MAX_REPRIEVES);
      }), RUNS);
      expect(md.shouldReprieve({ score: 0.5, reprieveCount: 2 })).toBe(true);
      expect(md.shouldReprieve({ score: 0.49999999999999994, reprieveCount: 0 })).toBe(false);
      expect(md.shouldReprieve({ score: 1, reprieveCount: 3 })).toBe(false);
    });
  });

  describe("scoreRetentionMany", () => {
    test("bit-identical to scoreRetention per memory, signals on request", () => {
      fc.assert(fc.property(fc.array(arbInput, { maxLength: 60 }), (inputs) => {
        expectBatchMatches(inputs, md.scoreRetentionMany(toColumns(inputs), { signals: true }));
        const plain = md.scoreRetentionMany(toColumns(inputs, (xs) => xs));
        expect(plain.signals).toBeUndefined();
        expectBatchMatches(inputs, plain);
      }), { seed: SEED, numRuns: 300 });
    });

    test("every scoreRetention case of the golden file, scored as one batch (in both lane positions)", () => {
      const cases = loadCases("retention").filter((c) => c.fn === "scoreRetention");
      expect(cases.length).toBeGreaterThan(300);
      for (const shift of [0, 1]) { // the wasm batch pairs memories: put each case in both lanes
        const inputs = [...cases.slice(0, shift).map((c) => decode(c.args[0])), ...cases.map((c) => decode(c.args[0]))];
        const r = md.scoreRetentionMany(toColumns(inputs), { signals: true });
        const bad = [];
        cases.forEach((c, j) => {
          const i = j + shift;
          const got = { score: r.score[i], action: md.TRIAGE_ACTIONS[r.action[i]],
            signals: Object.fromEntries(md.SIGNAL_NAMES.map((n) => [n, r.signals[n][i]])) };
          const why = mismatch(got, c.expect);
          if (why) bad.push(`line ${c.line}: ${why}`);
        });
        expect(bad).toEqual([]);
      }
    });

    test("a large batch with every kind of column (typed arrays of each kind, plain arrays)", () => {
      const inputs = fc.sample(arbInput, { seed: SEED, numRuns: 20000 });
      for (const x of inputs) x.wordCount = Math.trunc(Math.abs(x.wordCount) % 300) || 0;
      const cols = toColumns(inputs);
      cols.wordCount = Int32Array.from(inputs.map((x) => x.wordCount));
      cols.accessCount = Array.from(cols.accessCount);
      cols.bridgeCount = Float32Array.from(inputs.map((x) => x.bridgeCount));
      inputs.forEach((x, i) => { x.bridgeCount = cols.bridgeCount[i]; });
      expectBatchMatches(inputs, md.scoreRetentionMany(cols, { signals: true }));
    });

    test("empty columns give empty results", () => {
      const r = md.scoreRetentionMany(toColumns([]), { signals: true });
      expect(r.score.length).toBe(0);
      expect(r.action.length).toBe(0);
      expect(r.signals.recency.length).toBe(0);
    });
  });

  describe("argument errors name the argument", () => {
    const good = { memoryType: "arc", ageDays: 1, accessCount: 1, confidence: 1, graphRank: 1, maxGraphRank: 1, bridgeCount: 1, reinforcementCount: 1, wordCount: 1, contradictionCount: 1 };
    test("scalar functions", () => {
      expect(() => md.scoreRetention(null)).toThrow(TypeError);
      expect(() => md.scoreRetention({ ...good, memoryType: 5 })).toThrow(/input\.memoryType/);
      expect(() => md.computeSignals({ ...good, ageDays: "1" })).toThrow(/input\.ageDays/);
      expect(() => md.computeSignals({ ...good, contradictionCount: undefined })).toThrow(/input\.contradictionCount/);
      expect(() => md.weightsFor(undefined)).toThrow(/memoryType/);
      expect(() => md.halfLifeFor({})).toThrow(TypeError);
      expect(() => md.bandFor("0.5")).toThrow(/score/);
      expect(() => md.compositeScore({ ...md.DEFAULT_WEIGHTS, pagerank: "1" }, md.DEFAULT_WEIGHTS)).toThrow(/signals\.pagerank/);
      expect(() => md.compositeScore(md.DEFAULT_WEIGHTS, null)).toThrow(/profile/);
      expect(() => md.profileWeightSum({ recency: 1 })).toThrow(/profile\.accessFrequency/);
      expect(() => md.reprieveScore({ importance: 1, accessCount: 1, outcomeScore: 1, hoursSinceAccess: 1, decayRate: "0.1" })).toThrow(/input\.decayRate/);
      expect(() => md.shouldReprieve({ score: 1 })).toThrow(/input\.reprieveCount/);
      expect(() => md.shouldReprieve({ score: 1, reprieveCount: 0, floor: "0.5" })).toThrow(/input\.floor/);
    });

    test("the batch scorer", () => {
      const cols = toColumns([good, good, good, good]);
      expect(() => md.scoreRetentionMany(null)).toThrow(/columns/);
      expect(() => md.scoreRetentionMany({ ...cols, memoryType: "arc" })).toThrow(/columns\.memoryType/);
      expect(() => md.scoreRetentionMany({ ...cols, memoryType: ["arc", "arc", "arc", 7] })).toThrow(/columns\.memoryType\[3\]/);
      expect(() => md.scoreRetentionMany({ ...cols, memoryType: [null, null, null, null] })).toThrow(/columns\.memoryType\[0\]/);
      expect(() => md.scoreRetentionMany({ ...cols, memoryType: [undefined, "arc", "arc", "arc"] })).toThrow(/columns\.memoryType\[0\]/);
      expect(() => md.scoreRetentionMany({ ...cols, wordCount: [1, "2", 3, 4] })).toThrow(/columns\.wordCount\[1\]/);
      expect(() => md.scoreRetentionMany({ ...cols, ageDays: undefined })).toThrow(/columns\.ageDays/);
      expect(() => md.scoreRetentionMany({ ...cols, ageDays: new BigInt64Array(4) })).toThrow(TypeError);
      expect(() => md.scoreRetentionMany({ ...cols, confidence: new Float64Array(3) })).toThrow(RangeError);
      expect(() => md.scoreRetentionMany({ ...cols, confidence: new Float64Array(3) })).toThrow(/columns\.confidence/);
      expect(() => md.scoreRetentionMany(cols, { signals: 1 })).toThrow(/options\.signals/);
      expect(() => md.scoreRetentionMany(cols, 5)).toThrow(/options/);
    });
  });
});

describe("scoreRetentionMany crosses the wasm boundary a constant number of times", () => {
  let calls = 0;
  beforeAll(() => {
    const Real = WebAssembly.Instance;
    WebAssembly.Instance = function (mod, imports) {
      const inst = new Real(mod, imports);
      const counted = {};
      for (const [key, v] of Object.entries(inst.exports))
        counted[key] = typeof v === "function" ? (...args) => { calls++; return v(...args); } : v;
      return { exports: counted };
    };
    try {
      md.initSync(wasmBytes());
    } finally {
      WebAssembly.Instance = Real;
    }
  });

  test("the same count for 10 and 50,000 memories, and for many distinct new types", () => {
    const make = (n, typeOf) => fc.sample(arbInput, { seed: n, numRuns: n }).map((x, i) => ({ ...x, memoryType: typeOf(i) }));
    const count = (inputs) => {
      const before = calls;
      const r = md.scoreRetentionMany(toColumns(inputs), { signals: true });
      expect(r.score.length).toBe(inputs.length);
      return calls - before;
    };
    const known = (i) => TYPES[i % TYPES.length];
    count(make(TYPES.length, known)); // warm the type cache
    const small = count(make(10, known));
    const large = count(make(50000, known));
    // The exchange region may need to grow for the big call (md_free + md_alloc), never per memory.
    expect(small).toBeLessThanOrEqual(4);
    expect(large).toBeLessThanOrEqual(4);
    // types never seen: one classification round trip, however many distinct strings
    const fresh10 = count(make(10, (i) => `new-a-${i}`));
    const fresh5000 = count(make(50000, (i) => `new-b-${i % 5000}`));
    // (plus the region growing for the classification and the scoring: still no call per memory)
    expect(fresh10).toBeLessThanOrEqual(8);
    expect(fresh5000).toBeLessThanOrEqual(8);
  });
});

// The retention policy (memdomain's addition): scoreRetention(input, policy)
// and scoreRetentionMany(columns, { policy }). Without a policy, with {} and
// with the design's own tables spelled out, every result is today's, bit for
// bit; a tuned policy agrees with a plain-JavaScript implementation of the
// same arithmetic (tests/oracles/retention-reference.mjs); a bad policy is a
// TypeError or RangeError naming the field.
import fc from "fast-check";
import * as md from "../../js/index.js";
import { BUILD, wasmBytes } from "./build.js";
import { decode } from "./golden/codec.js";
import { loadCases } from "./golden/runner.js";
import { refScoreRetentionPolicy } from "../oracles/retention-reference.mjs";

const SEED = 1515;
const TYPES = ["episodic", "semantic", "procedural", "arc", "error_pattern", "task"];
const CUSTOM = ["note", "fact", "toString", "__proto__", "", "\uD800"];
const FIELDS = ["ageDays", "accessCount", "confidence", "graphRank", "maxGraphRank", "bridgeCount",
  "reinforcementCount", "wordCount", "contradictionCount"];
const same = (a, b) => Object.is(a, b);

const arbNum = (lo, hi) => fc.oneof({ weight: 6, arbitrary: fc.double({ min: lo, max: hi, noNaN: true }) },
  { weight: 1, arbitrary: fc.double() });
const arbInput = fc.record({
  memoryType: fc.oneof(fc.constantFrom(...TYPES, ...CUSTOM), fc.string({ maxLength: 6 })),
  ageDays: arbNum(0, 500), accessCount: arbNum(0, 20), confidence: arbNum(0, 1), graphRank: arbNum(0, 1),
  maxGraphRank: arbNum(0, 1), bridgeCount: arbNum(0, 8), reinforcementCount: arbNum(0, 8),
  wordCount: arbNum(0, 200), contradictionCount: arbNum(0, 5),
});
const arbWeight = fc.oneof(fc.double({ min: 0, max: 0.5, noNaN: true }), fc.constantFrom(0, -0, 0.1, 0.25, 3));
const arbProfile = fc.record(Object.fromEntries(md.SIGNAL_NAMES.map((s) => [s, arbWeight])));
const arbHalfLife = fc.oneof(fc.constant(null), fc.double({ min: 1e-3, max: 400, noNaN: true }), fc.constantFrom(1, 7, 30));
// Tables built with JSON.parse so that "__proto__" is an own key, as it is for a user's imported JSON.
const arbTable = (value) => fc.dictionary(fc.constantFrom(...TYPES, ...CUSTOM), value, { maxKeys: 5 })
  .map((d) => JSON.parse(JSON.stringify(d)));
const arbPolicy = fc.record({
  weights: arbTable(arbProfile), defaultWeights: arbProfile, halfLives: arbTable(arbHalfLife),
  defaultHalfLife: arbHalfLife,
  thresholds: fc.tuple(fc.double({ min: -0.2, max: 1.2, noNaN: true }), fc.double({ min: -0.2, max: 1.2, noNaN: true })),
}, { requiredKeys: [] }).map(({ thresholds, ...p }) => {
  if (thresholds) [p.evictThreshold, p.keepThreshold] = [Math.min(...thresholds), Math.max(...thresholds)];
  return p;
});

const toColumns = (inputs) => {
  const cols = { memoryType: inputs.map((x) => x.memoryType) };
  for (const f of FIELDS) cols[f] = Float64Array.from(inputs.map((x) => x[f]));
  return cols;
};
const sameResult = (a, b) => same(a.score, b.score) && a.action === b.action
  && md.SIGNAL_NAMES.every((n) => same(a.signals[n], b.signals[n]));
function batchRow(r, i) {
  return { score: r.score[i], action: md.TRIAGE_ACTIONS[r.action[i]],
    signals: Object.fromEntries(md.SIGNAL_NAMES.map((n) => [n, r.signals[n][i]])) };
}

// The design's settings, spelled out as a policy.
const DESIGN = {
  weights: md.WEIGHT_PROFILES, defaultWeights: md.DEFAULT_WEIGHTS, halfLives: md.HALF_LIVES_DAYS,
  defaultHalfLife: md.DEFAULT_HALF_LIFE_DAYS, keepThreshold: md.KEEP_THRESHOLD, evictThreshold: md.EVICT_THRESHOLD,
};

describe(`${BUILD} build`, () => {
  beforeAll(() => md.initSync(wasmBytes()));

  test("no policy, {} and the design's tables as a policy: today's results, bit for bit (golden inputs and random ones)", () => {
    const golden = loadCases("retention").filter((c) => c.fn === "scoreRetention").map((c) => decode(c.args[0]));
    const inputs = [...golden, ...fc.sample(arbInput, { seed: SEED, numRuns: 3000 })];
    const bad = [];
    for (const policy of [{}, DESIGN]) {
      inputs.forEach((x, i) => { if (!sameResult(md.scoreRetention(x, policy), md.scoreRetention(x))) bad.push(i); });
      const plain = md.scoreRetentionMany(toColumns(inputs), { signals: true });
      const tuned = md.scoreRetentionMany(toColumns(inputs), { signals: true, policy });
      inputs.forEach((_, i) => { if (!sameResult(batchRow(tuned, i), batchRow(plain, i))) bad.push(`batch ${i}`); });
    }
    expect(bad).toEqual([]);
  });

  test("a tuned policy agrees with the plain-JS arithmetic, scalar and batch (both lane positions)", () => {
    fc.assert(fc.property(arbPolicy, fc.array(arbInput, { minLength: 1, maxLength: 40 }), (policy, inputs) => {
      const batch = md.scoreRetentionMany(toColumns(inputs), { signals: true, policy });
      const shifted = md.scoreRetentionMany(toColumns([inputs[0], ...inputs]), { policy });
      inputs.forEach((x, i) => {
        const want = refScoreRetentionPolicy(x, policy);
        const got = md.scoreRetention(x, policy);
        if (!sameResult(got, want)) throw new Error(`scalar ${JSON.stringify({ x, policy, got, want })}`);
        if (!sameResult(batchRow(batch, i), want)) throw new Error(`batch row ${i}`);
        if (!same(shifted.score[i + 1], want.score)) throw new Error(`shifted batch row ${i}`);
      });
    }), { seed: SEED, numRuns: 400 });
  });

  test("what the policy gives changes exactly what it names", () => {
    const x = { memoryType: "episodic", ageDays: 10, accessCount: 4, confidence: 0.9, graphRank: 0.02,
      maxGraphRank: 0.08, bridgeCount: 1, reinforcementCount: 2, wordCount: 120, contradictionCount: 0 };
    expect(md.scoreRetention(x).signals.recency).toBe(0.5);
    expect(md.scoreRetention(x, { halfLives: { episodic: 5 } }).signals.recency).toBe(0.25);
    expect(md.scoreRetention(x, { halfLives: { episodic: null } }).signals.recency).toBe(1);
    expect(md.scoreRetention(x, { halfLives: { semantic: 5 } }).signals.recency).toBe(0.5);
    expect(md.scoreRetention(x, { defaultHalfLife: 1 }).signals.recency).toBe(0.5); // episodic has its own
    expect(md.scoreRetention({ ...x, memoryType: "note" }, { defaultHalfLife: 5 }).signals.recency).toBe(0.25);
    expect(md.scoreRetention({ ...x, memoryType: "task" }, { defaultHalfLife: 5 }).signals.recency).toBe(1); // task: null
    // "task" takes the default profile, so defaultWeights moves it; a typed profile does not move
    const allRecency = Object.fromEntries(md.SIGNAL_NAMES.map((s) => [s, s === "recency" ? 1 : 0]));
    expect(md.scoreRetention({ ...x, memoryType: "task" }, { defaultWeights: allRecency }).score).toBe(1);
    expect(md.scoreRetention(x, { defaultWeights: allRecency }).score).toBe(md.scoreRetention(x).score);
    expect(md.scoreRetention(x, { weights: { episodic: allRecency } }).score).toBe(0.5);
    // the bands: 0.56 compresses by default, keeps above a lower keep threshold, evicts at its own value
    expect(md.scoreRetention(x).action).toBe("compress");
    expect(md.scoreRetention(x, { keepThreshold: 0.5 }).action).toBe("keep");
    expect(md.scoreRetention(x, { keepThreshold: 0.56 }).action).toBe("compress");
    expect(md.scoreRetention(x, { evictThreshold: 0.56, keepThreshold: 0.56 }).action).toBe("evict");
  });

  test("a type lookup is an own-key lookup, for the policy's tables as for the design's", () => {
    const x = { memoryType: "toString", ageDays: 30, accessCount: 0, confidence: 1, graphRank: 0, maxGraphRank: 0,
      bridgeCount: 0, reinforcementCount: 0, wordCount: 0, contradictionCount: 0 };
    const inherited = Object.create({ toString: 1, episodic: 1 });
    expect(md.scoreRetention(x, { halfLives: inherited }).signals.recency).toBe(0.5); // the default 30 days
    expect(md.scoreRetention(x, { halfLives: JSON.parse('{"toString": 15}') }).signals.recency).toBe(0.25);
    const proto = JSON.parse('{"__proto__": 15}');
    expect(md.scoreRetention({ ...x, memoryType: "__proto__" }, { halfLives: proto }).signals.recency).toBe(0.25);
    expect(md.scoreRetention(x, { halfLives: proto }).signals.recency).toBe(0.5);
  });

  const x = { memoryType: "arc", ageDays: 3, accessCount: 1, confidence: 0.5, graphRank: 0, maxGraphRank: 0,
    bridgeCount: 0, reinforcementCount: 0, wordCount: 50, contradictionCount: 0 };
  const full = (over) => ({ ...md.DEFAULT_WEIGHTS, ...over });
  const BAD = [
    [{ weights: { arc: full({ recency: -0.1 }) } }, RangeError, /policy\.weights\.arc\.recency must be a finite weight >= 0, got -0\.1/],
    [{ weights: { arc: full({ pagerank: NaN }) } }, RangeError, /policy\.weights\.arc\.pagerank .* got NaN/],
    [{ weights: { arc: full({ confidence: Infinity }) } }, RangeError, /policy\.weights\.arc\.confidence .* got Infinity/],
    [{ weights: { note: full({ contestedStatus: -Infinity }) } }, RangeError, /policy\.weights\.note\.contestedStatus/],
    [{ defaultWeights: full({ recency: -1 }) }, RangeError, /policy\.defaultWeights\.recency/],
    [{ weights: { arc: full({ recency: "0.1" }) } }, TypeError, /policy\.weights\.arc\.recency must be a number, got a string/],
    [{ weights: { arc: { recency: 1 } } }, TypeError, /policy\.weights\.arc\.accessFrequency must be a number, got undefined/],
    [{ weights: { arc: full({ recncy: 0.1 }) } }, RangeError, /policy\.weights\.arc\.recncy is not one of recency, accessFrequency, confidence, pagerank, bridgeImportance, reinforcementCount, contentDensity, contestedStatus$/],
    [{ weights: { arc: null } }, TypeError, /policy\.weights\.arc must be an object, got null/],
    [{ weights: 5 }, TypeError, /policy\.weights must be an object/],
    [{ halfLives: { arc: -5 } }, RangeError, /policy\.halfLives\.arc must be a finite number of days > 0, or null, got -5/],
    [{ halfLives: { arc: 0 } }, RangeError, /policy\.halfLives\.arc .* got 0/],
    [{ halfLives: { arc: Infinity } }, RangeError, /policy\.halfLives\.arc .* got Infinity/],
    [{ halfLives: { arc: NaN } }, RangeError, /policy\.halfLives\.arc .* got NaN/],
    [{ halfLives: { arc: "30" } }, TypeError, /policy\.halfLives\.arc must be a number of days or null, got a string/],
    [{ halfLives: { arc: undefined } }, TypeError, /policy\.halfLives\.arc must be a number of days or null, got undefined/],
    [{ defaultHalfLife: -1 }, RangeError, /policy\.defaultHalfLife/],
    [{ evictThreshold: 0.8 }, RangeError, /policy\.evictThreshold would cross the bands \(evict 0\.8 > keep 0\.7\)$/],
    [{ keepThreshold: 0.2 }, RangeError, /policy\.keepThreshold would cross the bands \(evict 0\.3 > keep 0\.2\)$/],
    [{ keepThreshold: 0.4, evictThreshold: 0.5 }, RangeError, /policy\.evictThreshold would cross the bands \(evict 0\.5 > keep 0\.4\)/],
    [{ keepThreshold: NaN }, RangeError, /policy\.keepThreshold must be a finite number, got NaN/],
    [{ evictThreshold: -Infinity }, RangeError, /policy\.evictThreshold must be a finite number/],
    [{ keepThreshold: "0.7" }, TypeError, /policy\.keepThreshold must be a number/],
    [{ keepThresold: 0.9 }, RangeError, /policy\.keepThresold is not one of weights, defaultWeights, halfLives, defaultHalfLife, keepThreshold, evictThreshold$/],
    [{ halfLifes: {} }, RangeError, /policy\.halfLifes is not one of weights/],
    [null, TypeError, /policy must be an object, got null/],
    [0.7, TypeError, /policy must be an object, got 0\.7/],
  ];

  test.each(BAD.map((b, i) => [i, ...b]))("bad policy %i is refused, naming the field", (_, policy, Err, message) => {
    expect(() => md.scoreRetention(x, policy)).toThrow(Err);
    expect(() => md.scoreRetention(x, policy)).toThrow(new RegExp(`^scoreRetention: ${message.source}`));
    const cols = toColumns([x, x, x]);
    const batchMessage = new RegExp(`^scoreRetentionMany: ${message.source.replace(/^policy/, "options\\.policy")}`);
    expect(() => md.scoreRetentionMany(cols, { policy })).toThrow(Err);
    expect(() => md.scoreRetentionMany(cols, { policy })).toThrow(batchMessage);
    expect(md.scoreRetention(x)).toEqual(md.scoreRetention(x, {})); // the instance is still healthy
  });

  test("any hostile value at any place of a policy is an answer or a TypeError/RangeError naming the function", () => {
    const policy = { weights: { episodic: { ...md.DEFAULT_WEIGHTS }, note: { ...md.WEIGHT_PROFILES.arc } },
      defaultWeights: { ...md.DEFAULT_WEIGHTS }, halfLives: { arc: 5, note: null }, defaultHalfLife: 12,
      keepThreshold: 0.6, evictThreshold: 0.2 };
    const hostile = [NaN, -0, -1, 2 ** 53, 1e308, "", "1", null, undefined, true, {}, [], [1], Symbol("s"), 1n,
      new Float64Array(8), Object.create(null), new Map(), () => 1];
    const places = [[]];
    for (const [k, v] of Object.entries(policy)) {
      places.push([k]);
      if (v && typeof v === "object") for (const [k2, v2] of Object.entries(v)) {
        places.push([k, k2]);
        if (v2 && typeof v2 === "object") for (const k3 of Object.keys(v2)) places.push([k, k2, k3]);
      }
    }
    const put = (o, [k, ...rest], h) => (k === undefined ? h : { ...o, [k]: put(o[k], rest, h) });
    const inputs = [{ ...x, memoryType: "note" }, x, { ...x, memoryType: "episodic" }];
    let answers = 0, errors = 0;
    for (const place of places) for (const h of hostile) {
      const bad = put(policy, place, h);
      for (const [fn, call] of [["scoreRetention", () => md.scoreRetention(inputs[0], bad)],
        ["scoreRetentionMany", () => md.scoreRetentionMany(toColumns(inputs), { policy: bad })]]) {
        try {
          call();
          answers++;
        } catch (e) {
          errors++;
          expect([TypeError, RangeError]).toContain(e.constructor);
          expect(e.message.startsWith(`${fn}: `)).toBe(true);
        }
      }
    }
    expect(answers).toBeGreaterThan(0);
    expect(errors).toBeGreaterThan(places.length);
    expect(md.scoreRetention(x, policy)).toEqual(refScoreRetentionPolicy(x, policy));
  });

  test("a policy naming more types of one batch than the byte codes hold is a RangeError; 249 is fine", () => {
    const policyFor = (k) => ({ halfLives: Object.fromEntries(Array.from({ length: k }, (_, i) => [`t${i}`, i + 1])) });
    const inputs = (k) => Array.from({ length: k }, (_, i) => ({ ...x, memoryType: `t${i}`, ageDays: i + 1 }));
    const ok = md.scoreRetentionMany(toColumns(inputs(249)), { policy: policyFor(300), signals: true });
    const bad = [];
    inputs(249).forEach((m, i) => { // each type at its own half-life
      if (!same(ok.signals.recency[i], Math.exp((-Math.LN2 * m.ageDays) / (i + 1)))) bad.push(i);
    });
    expect(bad).toEqual([]);
    expect(ok.signals.recency[3]).toBe(0.5);
    expect(() => md.scoreRetentionMany(toColumns(inputs(250)), { policy: policyFor(250) }))
      .toThrow(/^scoreRetentionMany: options\.policy names over 249 types of this batch beyond the design's six$/);
  });
});


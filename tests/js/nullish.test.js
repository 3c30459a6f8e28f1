// Issue 12, items 3, 5 and 8: where the reference reads an optional field
// with `??`, null means "use the default" (data read from JSON carries nulls);
// default PARAMETERS apply for undefined only, so null there stays a
// TypeError (a documented divergence); signalValue of another string is
// undefined; error messages read as English; calling before init says how.
import * as md from "../../js/index.js";
import { wasmBytes, BUILD } from "./build.js";

describe(`nullish optional fields (${BUILD})`, () => {
  beforeAll(() => md.initSync(wasmBytes()));

  test("reprieveScore: decayRate null is the default rate", () => {
    const base = { importance: 7, accessCount: 3, outcomeScore: -0.4, hoursSinceAccess: 48 };
    expect(md.reprieveScore({ ...base, decayRate: null })).toBe(0.7577666475165812);
    expect(md.reprieveScore({ ...base, decayRate: null })).toBe(md.reprieveScore(base));
    expect(md.reprieveScore({ ...base, decayRate: 0.5 })).not.toBe(md.reprieveScore(base));
  });

  test("shouldReprieve: floor and maxReprieves null are the defaults", () => {
    expect(md.shouldReprieve({ score: 0.5, reprieveCount: 2, floor: null, maxReprieves: null })).toBe(true);
    expect(md.shouldReprieve({ score: 0.49, reprieveCount: 0, floor: null })).toBe(false);
    expect(md.shouldReprieve({ score: 1, reprieveCount: 3, maxReprieves: null })).toBe(false);
    expect(md.shouldReprieve({ score: 1, reprieveCount: 3, maxReprieves: 4 })).toBe(true);
  });

  test("merge options: maxPairs and threshold null are the defaults", () => {
    const pairs = Array.from({ length: 101 }, (_, i) => ({ keepPath: `k${i}`, dropPath: `d${i}`, similarity: 0.93 }));
    const stages = (o) => md.mergeOutcomes(pairs, o).map((x) => x.stage);
    expect(stages({ maxPairs: null, threshold: null })).toEqual(stages(undefined));
    expect(stages({ maxPairs: null }).at(-1)).toBe("cap");
    expect(stages({ threshold: null })[0]).toBe("committed");
    expect(stages({ threshold: 0.95 })[0]).toBe("threshold");
    expect(md.mergeCandidates(pairs, { maxPairs: null, threshold: null }).length).toBe(100);
  });

  test("fuseArms: a null weight is 0 (weights[i] ?? 0)", () => {
    const arms = [[{ path: "a", rank: 1 }], [{ path: "b", rank: 1 }]];
    expect([...md.fuseArms(arms, [1, null]).keys()]).toEqual(["a"]);
  });

  test("default parameters: null is still a TypeError (listed in the README's divergences)", () => {
    expect(() => md.rrfScore(1, 1, null)).toThrow(TypeError);
    expect(() => md.rrfScore(1, 1, null)).toThrow(/rrfScore: k/);
    expect(() => md.decayConfidence(0.9, null)).toThrow(/decayConfidence: alpha/);
    expect(md.rrfScore(1, 1, undefined)).toBe(1 / 61);
  });

  test("signalValue of any other string is undefined; a non-string is a TypeError", () => {
    expect(md.signalValue("other")).toBeUndefined();
    expect(md.signalValue("toString")).toBeUndefined();
    expect(md.signalValue("positive")).toBe(1);
    expect(() => md.signalValue(null)).toThrow(/signalValue: signal/);
  });

  test("messages read as English: an Object, an Error, a Map", () => {
    expect(() => md.cosine({}, [1])).toThrow(/got an Object/);
    expect(() => md.frameKeyOf(new Error("x"))).toThrow(/got an Error/);
    expect(() => md.frameKeyOf(new Map())).toThrow(/got a Map/);
    expect(() => md.frameKeyOf(true)).toThrow(/got a boolean$/);
    expect(() => md.frameKeyOf(() => 1)).toThrow(/got a function$/);
  });
});

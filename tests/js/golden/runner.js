// Runs the golden files of every implemented module through the JS API on
// one wasm build. Each module's file must pass 100% (quirk cases included).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { decode, mismatch } from "./codec.js";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const GOLDEN = process.env.MEMDOMAIN_GOLDEN ?? `${ROOT}tests/golden/`;

// A module joins this list when all its cases pass; never to skip cases.
export const IMPLEMENTED = [
  "cosine",
  "decay",
  "frame",
  "graph",
  "merge",
  "mmr",
  "neighbors",
  "ranking",
  "reinforce",
  "retention",
  "rrf",
];

// Which module exports each constant in constants.jsonl.
export const CONSTANT_MODULE = {
  CONFIDENCE_COMMIT_DELTA: "decay", DEFAULT_CONFIDENCE_DECAY_ALPHA: "decay", DEFAULT_CONFIDENCE_FLOOR: "decay",
  DEFAULT_EWMA_ALPHA: "decay", NEG_ONE_FP: "decay", POS_ONE_FP: "decay", SCALE: "decay",
  MMR_LAMBDA: "ranking", REINFORCE_COOLDOWN_S: "ranking", RRF_K: "ranking",
  REINFORCE_SIGNALS: "reinforce",
  DEFAULT_HALF_LIFE_DAYS: "retention", DEFAULT_WEIGHTS: "retention", EVICT_THRESHOLD: "retention",
  HALF_LIVES_DAYS: "retention", KEEP_THRESHOLD: "retention", LN2: "retention", MAX_REPRIEVES: "retention",
  REPRIEVE_DAYS: "retention", REPRIEVE_FLOOR: "retention", REPRIEVE_W_ACCESS: "retention",
  REPRIEVE_W_IMPORTANCE: "retention", REPRIEVE_W_OUTCOME: "retention", REPRIEVE_W_RECENCY: "retention",
  SALIENCE_DECAY_RATE: "retention", SCORE_PRECISION: "retention", SIGNAL_NAMES: "retention",
  TRIAGE_ACTIONS: "retention", WEIGHT_PROFILES: "retention",
  LABEL_PROPAGATION_MAX_SWEEPS: "graph", MIN_COMMUNITY_SIZE: "graph", PAGERANK_DAMPING: "graph",
  PAGERANK_MAX_ITERATIONS: "graph", PAGERANK_TOLERANCE: "graph",
  MAX_MERGE_PAIRS: "merge", NEAR_DUPLICATE_THRESHOLD: "merge",
};

export function loadCases(module) {
  return readFileSync(`${GOLDEN}${module}.jsonl`, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => ({ line: i + 1, ...JSON.parse(l) }));
}

/** Run one case; returns null on a match, or a description of the failure. */
export function runCase(api, c) {
  const fn = api[c.fn];
  if (typeof fn !== "function") return `${c.fn} is not exported`;
  let actual;
  try {
    actual = fn(...c.args.map(decode));
  } catch (e) {
    return `threw ${e?.name}: ${e?.message}`;
  }
  return mismatch(actual, c.expect);
}

/** Register Jest tests for every implemented module on `api` (after init). */
export function goldenSuite(label, api, modules = IMPLEMENTED) {
  for (const module of modules) {
    describe(`${label}: ${module}.jsonl`, () => {
      const cases = loadCases(module);
      const byFn = new Map();
      for (const c of cases) byFn.set(c.fn, [...(byFn.get(c.fn) ?? []), c]);
      for (const [fn, list] of byFn) {
        test(`${fn}: ${list.length} cases bit-exact`, () => {
          const failures = [];
          for (const c of list) {
            const why = runCase(api, c);
            if (why) failures.push(`line ${c.line}${c.note ? ` (${c.note})` : ""}: ${why}`);
          }
          expect(failures.slice(0, 10)).toEqual([]);
          expect(failures.length).toBe(0);
        });
      }
    });
  }
  describe(`${label}: constants.jsonl`, () => {
    const [{ expect: want }] = loadCases("constants");
    const names = Object.keys(want).filter((k) => modules.includes(CONSTANT_MODULE[k]));
    test(`${names.length} constants of the implemented modules`, () => {
      expect(Object.keys(want).filter((k) => !(k in CONSTANT_MODULE))).toEqual([]);
      const bad = names.map((k) => (k in api ? mismatch(api[k], want[k], k) : `${k} is not exported`)).filter(Boolean);
      expect(bad).toEqual([]);
    });
  });
}

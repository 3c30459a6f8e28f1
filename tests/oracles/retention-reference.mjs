// A plain-JavaScript retention scorer written the way the reference
// (@memhtml/domain's retention.ts) is: one input object and one signals
// object per memory, Math.exp / Math.log1p, a Neumaier sum over the signal
// names, Math.round to 4 places. It is the baseline of bench/retention.mjs and
// an independent oracle for tests/js/retention.test.js. Not part of the package.
const SIGNAL_NAMES = ["recency", "accessFrequency", "confidence", "pagerank",
  "bridgeImportance", "reinforcementCount", "contentDensity", "contestedStatus"];
const p = (...w) => Object.fromEntries(SIGNAL_NAMES.map((n, i) => [n, w[i]]));
const WEIGHT_PROFILES = {
  episodic: p(0.25, 0.15, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1),
  semantic: p(0.05, 0.15, 0.2, 0.2, 0.15, 0.1, 0.1, 0.05),
  procedural: p(0.0, 0.2, 0.15, 0.15, 0.1, 0.2, 0.1, 0.1),
  arc: p(0.1, 0.1, 0.15, 0.15, 0.15, 0.15, 0.1, 0.1),
  error_pattern: p(0.2, 0.15, 0.1, 0.05, 0.05, 0.2, 0.1, 0.15),
};
const DEFAULT_WEIGHTS = p(0.15, 0.15, 0.15, 0.15, 0.1, 0.1, 0.1, 0.1);
const HALF_LIVES_DAYS = { episodic: 10, semantic: 90, procedural: null, arc: 30, error_pattern: 14, task: null };
const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

export const refWeightsFor = (t) => (own(WEIGHT_PROFILES, t) ? WEIGHT_PROFILES[t] : DEFAULT_WEIGHTS);
export const refHalfLifeFor = (t) => (own(HALF_LIVES_DAYS, t) ? HALF_LIVES_DAYS[t] : 30);

export function refCompensatedSum(values) {
  let sum = 0, c = 0;
  for (const v of values) {
    const t = sum + v;
    if (Math.abs(sum) >= Math.abs(v)) c += sum - t + v;
    else c += v - t + sum;
    sum = t;
  }
  return sum + c;
}

const clamp01 = (v) => Math.max(0, Math.min(1, v));

export function refComputeSignals(input) {
  const halfLife = refHalfLifeFor(input.memoryType);
  const recency = halfLife === null || input.ageDays <= 0 ? 1 : Math.exp((-Math.LN2 * input.ageDays) / halfLife);
  const w = Math.max(0, input.wordCount);
  return {
    recency: clamp01(recency),
    accessFrequency: Math.min(1, Math.max(0, input.accessCount) / 10),
    confidence: clamp01(input.confidence),
    pagerank: input.maxGraphRank > 0 ? clamp01(Math.max(0, input.graphRank) / input.maxGraphRank) : 0,
    bridgeImportance: Math.min(1, Math.max(0, input.bridgeCount) / 5),
    reinforcementCount: Math.min(1, Math.max(0, input.reinforcementCount) / 5),
    contentDensity: clamp01(w < 10 ? w ** 2 / 1000 : Math.min(1, w / 100)),
    contestedStatus: 1 - Math.min(1, Math.max(0, input.contradictionCount) / 3),
  };
}

export function refCompositeScore(signals, profile) {
  const total = refCompensatedSum(SIGNAL_NAMES.map((n) => signals[n] * profile[n]));
  const factor = 10 ** 4;
  return Math.round(total * factor) / factor;
}

export const refBandFor = (score) => (score > 0.7 ? "keep" : score > 0.3 ? "compress" : "evict");

export function refScoreRetention(input) {
  const signals = refComputeSignals(input);
  const score = refCompositeScore(signals, refWeightsFor(input.memoryType));
  return { score, action: refBandFor(score), signals };
}

export function refReprieveScore({ importance, accessCount, outcomeScore, hoursSinceAccess, decayRate = 0.01 }) {
  const imp = Math.max(1, Math.min(10, importance)) / 10;
  const access = Math.log1p(Math.max(0, accessCount));
  const outcome = Math.max(0, outcomeScore);
  const recency = Math.exp(-decayRate * Math.max(0, hoursSinceAccess));
  return 0.4 * imp + 0.3 * access + 0.2 * outcome + 0.1 * recency;
}

// The same arithmetic under a RetentionPolicy (memdomain's addition), written
// plainly: the policy's profile and half-life for the type when it has an own
// key, else the design's table, else the policy's default, else the design's.
export function refScoreRetentionPolicy(input, policy) {
  const t = input.memoryType;
  const pick = (table, fallback, dflt) => (table && own(table, t) ? table[t] : own(fallback, t) ? fallback[t] : dflt);
  const profile = pick(policy.weights, WEIGHT_PROFILES, policy.defaultWeights ?? DEFAULT_WEIGHTS);
  const halfLife = pick(policy.halfLives, HALF_LIVES_DAYS, policy.defaultHalfLife === undefined ? 30 : policy.defaultHalfLife);
  const signals = refComputeSignals({ ...input, memoryType: "procedural" }); // no decay; recency below
  const recency = halfLife === null || input.ageDays <= 0 ? 1 : Math.exp((-Math.LN2 * input.ageDays) / halfLife);
  signals.recency = clamp01(recency);
  const score = refCompositeScore(signals, profile);
  const keep = policy.keepThreshold ?? 0.7, evict = policy.evictThreshold ?? 0.3;
  return { score, action: score > keep ? "keep" : score > evict ? "compress" : "evict", signals };
}

// memdomain/cache: the retention policy sleep() applies. The design's scorer and bands are
// the core's (scoreRetentionMany with a RetentionPolicy, bit-identical to scoreRetention); what
// the cache adds is what it feeds them and what it does with a band:
//   - evict: whether the pass archives the evict band at all (default false: it only reports it);
//   - archiveBelow: of the evict band, only memories scoring at or below this are archived (0.2;
//     null: the whole band), chosen by the forgetting benchmark;
//   - minAgeDays: no memory is archived before it has been in the cache this long, counted from
//     the first pass that saw it (a corpus imported yesterday with old createdAt is not emptied);
//   - reprieve: the design's gate before a memory leaves (reprieveScore, shouldReprieve): a
//     memory whose score clears `floor` and that was reprieved fewer than `maxReprieves` times
//     stays `days` more (REPRIEVE_DAYS), counted in reprieveCount and validUntil;
//   - purgeAfterDays: archived memories are deleted after this many days (null: never; purge()
//     deletes on request).
// The policy is one object, the same the workbench tunes and exports: the RetentionPolicy fields
// (weights, defaultWeights, halfLives, defaultHalfLife, keepThreshold, evictThreshold) beside
// these. sleep({ policy }) stores it with the cache; later passes use the stored one.
import { scoreRetention } from "../index.js";
import { CACHE_OPTIONS, DEFAULT_ARCHIVE_BELOW, DEFAULT_MIN_AGE_DAYS, checkOptions, defaultsOf } from "./schema.js";
import { rangeError, record } from "./validate.js";
import { onlyKnown } from "./records.js";

export const SCORING_FIELDS = Object.freeze(["weights", "defaultWeights", "halfLives", "defaultHalfLife", "keepThreshold", "evictThreshold"]);
export const POLICY_FIELDS = Object.freeze(Object.keys(CACHE_OPTIONS.policy));
export const REPRIEVE_FIELDS = Object.freeze(Object.keys(CACHE_OPTIONS.reprieve));

/**
 * The cache's default policy (the schema's defaults): the design's scorer, bands and reprieve gate;
 * archive only when asked (evict: false), never a memory younger in the cache than
 * DEFAULT_MIN_AGE_DAYS, of the evict band only what scores at or below DEFAULT_ARCHIVE_BELOW, never purge.
 */
export const DEFAULT_POLICY = defaultsOf("policy");
export { DEFAULT_ARCHIVE_BELOW, DEFAULT_MIN_AGE_DAYS };

const PROBE = { memoryType: "semantic", ageDays: 1, accessCount: 0, confidence: 1, graphRank: 0, maxGraphRank: 0, bridgeCount: 0,
  reinforcementCount: 0, wordCount: 10, contradictionCount: 0 };

/**
 * A policy, checked whole (each error names its field), resolved against `base` (the stored one,
 * else DEFAULT_POLICY): { scoring (the RetentionPolicy part, for scoreRetentionMany), evict,
 * minAgeDays, reprieve: { floor, maxReprieves, days, decayRate, importance }, purgeAfterDays,
 * stored (what to store: base with the given fields) }.
 */
export function checkPolicy(fn, arg, p, base = {}) {
  record(fn, arg, p);
  onlyKnown(fn, arg, p, POLICY_FIELDS, "policy field");
  const merged = { ...base };
  for (const k of POLICY_FIELDS) if (p[k] !== undefined) merged[k] = p[k];
  return resolvePolicy(fn, arg, merged);
}

/** The resolved form of a stored (or merged) policy object; see checkPolicy. */
export function resolvePolicy(fn, arg, merged) {
  const scoring = {};
  for (const k of SCORING_FIELDS) if (merged[k] !== undefined) scoring[k] = merged[k];
  try {
    scoreRetention(PROBE, scoring); // the core's own checks of the scorer's fields
  } catch (e) {
    const msg = String(e?.message ?? e).replace(/^scoreRetention: policy/, `${fn}: ${arg}`);
    throw e instanceof TypeError ? new TypeError(msg) : new RangeError(msg);
  }
  const c = checkOptions(fn, arg, merged, "policy", { skip: ["reprieve"], names: false });
  const rp = merged.reprieve === undefined ? {} : record(fn, `${arg}.reprieve`, merged.reprieve);
  onlyKnown(fn, `${arg}.reprieve`, rp, REPRIEVE_FIELDS, "reprieve field");
  const reprieve = checkOptions(fn, `${arg}.reprieve`, rp, "reprieve", { names: false });
  const stored = {};
  for (const k of POLICY_FIELDS) if (merged[k] !== undefined) stored[k] = merged[k];
  return { scoring, evict: c.evict, minAgeDays: c.minAgeDays, archiveBelow: c.archiveBelow, reprieve, purgeAfterDays: c.purgeAfterDays, stored };
}

/** The stored policy (md_meta.policy) as an object, or {} (the defaults); a row that is not ours is a RangeError. */
export function storedPolicy(fn, value) {
  if (value === undefined || value === null) return {};
  let v;
  try {
    v = JSON.parse(value);
  } catch {
    throw rangeError(fn, "the stored policy (md_meta.policy)", "is not JSON");
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw rangeError(fn, "the stored policy (md_meta.policy)", "is not an object");
  return v;
}

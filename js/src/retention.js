// retention module: the eight-signal scorer, the triage bands, the reprieve
// gate, and a batch scorer over typed-array columns. Every number is computed
// in C (src/retention.c); this file validates arguments, classifies memory
// types once per distinct string (cached), and shapes the results.
import { addr, call, exportsOf, f64, fill, keys, out, raise, scratch, u8, views } from "./core.js";
import { arg, fields as fieldsOf, item, num, obj, rangeError, typeError } from "./validate.js";
import { ARGS, readComputeSignalsInput, readScoreRetentionInput } from "./args.js";

import { DEFAULT_HALF_LIFE_DAYS, DEFAULT_PROFILE, EVICT_THRESHOLD, HALF_LIFE_TABLE, KEEP_THRESHOLD, MAX_REPRIEVES,
  MEMORY_TYPE_NAMES, PROFILE_TABLE, REPRIEVE_DAYS, REPRIEVE_FLOOR, REPRIEVE_W_ACCESS, REPRIEVE_W_IMPORTANCE,
  REPRIEVE_W_OUTCOME, REPRIEVE_W_RECENCY, SALIENCE_DECAY_RATE, SCORE_PRECISION, SIGNAL_NAMES,
  OK, TRIAGE_ACTIONS, AT_COMPOSITE_SCORE_WEIGHTS, AT_RETENTION_POLICY_EVICT, AT_RETENTION_POLICY_KEEP, AT_SCORED_ACTION,
  AT_SCORED_SIGNALS, SIZE_RETENTION_POLICY } from "./constants.js";

export { DEFAULT_HALF_LIFE_DAYS, EVICT_THRESHOLD, KEEP_THRESHOLD, MAX_REPRIEVES, REPRIEVE_DAYS, REPRIEVE_FLOOR,
  REPRIEVE_W_ACCESS, REPRIEVE_W_IMPORTANCE, REPRIEVE_W_OUTCOME, REPRIEVE_W_RECENCY, SALIENCE_DECAY_RATE,
  SCORE_PRECISION, SIGNAL_NAMES, TRIAGE_ACTIONS };

const freeze = Object.freeze;
const profile = (w) => freeze(Object.fromEntries(SIGNAL_NAMES.map((n, i) => [n, w[i]])));
// The tables as the design exports them, built from C's own (js/src/constants.js).
export const WEIGHT_PROFILES = freeze(Object.fromEntries(PROFILE_TABLE.map(([name, w]) => [name, profile(w)])));
export const DEFAULT_WEIGHTS = profile(DEFAULT_PROFILE);
export const HALF_LIVES_DAYS = freeze(Object.fromEntries(MEMORY_TYPE_NAMES.map((name, i) => [name, HALF_LIFE_TABLE[i]])));
export const LN2 = Math.LN2;

// md_memory_type codes: the five profiles in this order, then task, then any other type.
const PROFILE_BY_CODE = [...PROFILE_TABLE.map(([name]) => WEIGHT_PROFILES[name]), DEFAULT_WEIGHTS, DEFAULT_WEIGHTS];

// ---------------------------------------------------------------- memory types

// memoryType string -> md_memory_type code, as C classifies it (an own-key
// lookup: "toString" or "__proto__" are ordinary unknown types). Classification
// does not depend on the instance, so the cache survives init().
const typeCache = new Map();
const TYPE_CACHE_MAX = 4096;

/** The codes of the distinct strings of `names` that are not cached (one wasm
 * call), as a Map; they join the cache while it has room. */
function classify(fn, names) {
  const fresh = [...new Set(names.filter((s) => !typeCache.has(s)))];
  const codes = new Map();
  if (fresh.length === 0) return codes;
  const types = out.u8(fresh.length);
  call(fn, "mdw_memory_types_of", [keys(fresh), fresh.length, types],
    (r) => {
      const t = r.view(types);
      for (let i = 0; i < fresh.length; i++) codes.set(fresh[i], t[i]);
    });
  if (typeCache.size + codes.size > TYPE_CACHE_MAX) typeCache.clear();
  if (codes.size <= TYPE_CACHE_MAX) for (const [s, c] of codes) typeCache.set(s, c);
  return codes;
}

function typeCode(d, i, memoryType) {
  arg(d, i, memoryType);
  const code = typeCache.get(memoryType);
  return code !== undefined ? code : classify(d[0], [memoryType]).get(memoryType);
}

// ---------------------------------------------------------------- the scorer

/** The weight profile for a memory type (the shared, frozen table entry). */
export function weightsFor(memoryType) {
  return PROFILE_BY_CODE[typeCode(ARGS.weightsFor, 0, memoryType)];
}

/** The recency half-life in days for a memory type; null means no time decay. */
export function halfLifeFor(memoryType) {
  const code = typeCode(ARGS.halfLifeFor, 0, memoryType);
  const ex = exportsOf();
  const at = scratch();
  return ex.md_half_life_for(code, at) ? views().f64[at >>> 3] : null;
}

function readProfile(d, i, p, f64, at) {
  const fn = d[0], arg = d[1] + d[2 + 3 * i];
  obj(fn, arg, p);
  for (let k = 0; k < 8; k++) {
    const name = SIGNAL_NAMES[k];
    f64[at + k] = num(fn, `${arg}.${name}`, p[name]);
  }
}

/** A profile's weight sum under compensated summation. */
export function profileWeightSum(profile) {
  const ex = exportsOf();
  const at = scratch();
  readProfile(ARGS.profileWeightSum, 0, profile, views().f64, at >>> 3);
  return ex.md_profile_weight_sum(at);
}

// The RetentionInput fields in the table's order (memoryType, then the nine numbers mdw_retention takes),
// memoryType as its class code.
function readInput(fn, a) {
  const t = a[0], code = typeCache.get(t);
  a[0] = code !== undefined ? code : classify(fn, [t]).get(t);
  return a;
}

function signalsAt(f64, i) {
  return {
    recency: f64[i], accessFrequency: f64[i + 1], confidence: f64[i + 2], pagerank: f64[i + 3],
    bridgeImportance: f64[i + 4], reinforcementCount: f64[i + 5], contentDensity: f64[i + 6],
    contestedStatus: f64[i + 7],
  };
}

/** Normalize the raw inputs to their [0, 1] signal values. */
export function computeSignals(input) {
  const fn = "computeSignals";
  const a = readInput(fn, readComputeSignalsInput(input));
  const at = scratch();
  const st = exportsOf().mdw_retention(0, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], at);
  if (st !== OK) raise(st, fn);
  return signalsAt(views().f64, at >>> 3);
}

/** The weighted composite, rounded to SCORE_PRECISION places. */
export function compositeScore(signals, profile) {
  const d = ARGS.compositeScore;
  const ex = exportsOf();
  const at = scratch();
  const { f64 } = views();
  readProfile(d, 0, signals, f64, at >>> 3); // region composite_score
  readProfile(d, 1, profile, f64, (at >>> 3) + (AT_COMPOSITE_SCORE_WEIGHTS >> 3));
  return ex.mdw_composite_score(at, at + AT_COMPOSITE_SCORE_WEIGHTS);
}

/**
 * Score one memory: normalize, weight by its type's profile, band the
 * composite. With a RetentionPolicy, its weights, half-lives and thresholds
 * replace the design's where it gives them.
 */
export function scoreRetention(input, policy) {
  const fn = "scoreRetention";
  const a = readInput(fn, readScoreRetentionInput(input));
  if (policy !== undefined) return scorePolicy(fn, a, input.memoryType, readPolicy(fn, "policy", policy));
  const at = scratch();
  const action = exportsOf().mdw_retention(1, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], at);
  const { f64 } = views();
  const i = at >>> 3; // region scored
  return { score: f64[i], action: TRIAGE_ACTIONS[action], signals: signalsAt(f64, i + (AT_SCORED_SIGNALS >> 3)) };
}

// ---------------------------------------------------------------- policy

// A RetentionPolicy, checked whole (each error names its field) and resolved
// against the design's tables: what it does not give keeps the design's value,
// and a type lookup is an own-key lookup, as in the design's tables. C takes a
// policy as class records of 9 doubles (8 weights, then the half-life with 0
// for "no decay"), then the keep and evict thresholds.
const POLICY_FIELDS = ["weights", "defaultWeights", "halfLives", "defaultHalfLife", "keepThreshold", "evictThreshold"];
const KNOWN_TYPES = MEMORY_TYPE_NAMES; // codes 0-5; 6: any other
const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const row = (p) => SIGNAL_NAMES.map((s) => p[s]);
const DESIGN_ROWS = new Map(Object.keys(WEIGHT_PROFILES).map((t) => [t, row(WEIGHT_PROFILES[t])]));
const DEFAULT_ROW = row(DEFAULT_WEIGHTS);
const NO_TYPES = new Map();

function fields(fn, arg, o, known) {
  obj(fn, arg, o);
  for (const k in o) if (own(o, k) && !known.includes(k)) throw rangeError(fn, `${arg}.${k}`, `is not one of ${known.join(", ")}`);
  return o;
}
const bad = (fn, arg, what, v) => rangeError(fn, arg, `must be ${what}, got ${v}`);

function policyProfile(fn, arg, p) {
  fields(fn, arg, p, SIGNAL_NAMES);
  const out = new Array(8);
  for (let k = 0; k < 8; k++) {
    const w = p[SIGNAL_NAMES[k]];
    if (typeof w !== "number" || !(w >= 0 && w < Infinity)) {
      num(fn, `${arg}.${SIGNAL_NAMES[k]}`, w);
      throw bad(fn, `${arg}.${SIGNAL_NAMES[k]}`, "a finite weight >= 0", w);
    }
    out[k] = w;
  }
  return out;
}

function policyHalfLife(fn, arg, h) {
  if (h === null) return 0;
  if (typeof h !== "number") throw typeError(fn, arg, "a number of days or null", h);
  if (!(h > 0 && h < Infinity)) throw bad(fn, arg, "a finite number of days > 0, or null", h);
  return h;
}

function policyThreshold(fn, arg, v) {
  if (!Number.isFinite(num(fn, arg, v))) throw bad(fn, arg, "a finite number", v);
  return v;
}

function policyTable(fn, arg, t, read) {
  if (t === undefined) return NO_TYPES;
  const out = new Map();
  for (const k of Object.keys(obj(fn, arg, t))) out.set(k, read(fn, `${arg}.${k}`, t[k]));
  return out;
}

function readPolicy(fn, arg, p) {
  fields(fn, arg, p, POLICY_FIELDS);
  const weights = policyTable(fn, `${arg}.weights`, p.weights, policyProfile);
  const halfLives = policyTable(fn, `${arg}.halfLives`, p.halfLives, policyHalfLife);
  const given = (k, read, dflt, v = p[k]) => (v === undefined ? dflt : read(fn, `${arg}.${k}`, v)); // one read of p[k]
  const defaultWeights = given("defaultWeights", policyProfile, DEFAULT_ROW);
  const defaultHalfLife = given("defaultHalfLife", policyHalfLife, DEFAULT_HALF_LIFE_DAYS);
  const keep = given("keepThreshold", policyThreshold, KEEP_THRESHOLD);
  const evict = given("evictThreshold", policyThreshold, EVICT_THRESHOLD);
  if (evict > keep)
    throw rangeError(fn, `${arg}.${p.evictThreshold === undefined ? "keepThreshold" : "evictThreshold"}`,
      `would cross the bands (evict ${evict} > keep ${keep})`);
  const extra = new Set();
  for (const t of [...weights.keys(), ...halfLives.keys()]) if (!KNOWN_TYPES.includes(t)) extra.add(t);
  return { weights, halfLives, defaultWeights, defaultHalfLife, keep, evict, extra };
}

/** Write the class record of memory type `t` (null: a type neither the design nor the policy names) at f64[i]. */
function writeClass(pol, t, f64, i) {
  f64.set(pol.weights.get(t) ?? DESIGN_ROWS.get(t) ?? pol.defaultWeights, i);
  f64[i + 8] = pol.halfLives.has(t) ? pol.halfLives.get(t) : own(HALF_LIVES_DAYS, t) ? HALF_LIVES_DAYS[t] ?? 0 : pol.defaultHalfLife;
}

// Region retention_policy at the scratch block, then the region scored C fills.
function scorePolicy(fn, a, memoryType, pol) {
  const at = scratch(), i = at >>> 3, o = i + (SIZE_RETENTION_POLICY >> 3);
  let { f64 } = views();
  writeClass(pol, memoryType, f64, i);
  f64[i + (AT_RETENTION_POLICY_KEEP >> 3)] = pol.keep;
  f64[i + (AT_RETENTION_POLICY_EVICT >> 3)] = pol.evict;
  const st = exportsOf().mdw_score_retention_policy(at, a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], at + SIZE_RETENTION_POLICY);
  if (st !== OK) raise(st, fn);
  f64 = views().f64;
  return { score: f64[o], action: TRIAGE_ACTIONS[f64[o + (AT_SCORED_ACTION >> 3)]], signals: signalsAt(f64, o + (AT_SCORED_SIGNALS >> 3)) };
}

// ---------------------------------------------------------------- batch

const NOT_A_TYPE = Symbol("no previous memoryType");
const COLUMNS = ["ageDays", "accessCount", "confidence", "graphRank", "maxGraphRank", "bridgeCount",
  "reinforcementCount", "wordCount", "contradictionCount"];

/**
 * scoreRetention over n memories given as columns: `columns.memoryType` an
 * array of n strings, every other RetentionInput field an array or typed array
 * of n numbers. Returns { score: Float64Array, action: Uint8Array } (0 keep,
 * 1 compress, 2 evict) and, with `{ signals: true }`, `signals`: one
 * Float64Array per signal name. With `{ policy }` (a RetentionPolicy), each
 * memory is scored as scoreRetention(input, policy) scores it. Bit-identical
 * to scoreRetention per memory; a constant number of calls into WebAssembly
 * whatever n is.
 */
export function scoreRetentionMany(columns, options) {
  const fn = "scoreRetentionMany", d = ARGS.scoreRetentionMany;
  arg(d, 0, columns);
  const [wantSignals, policy] = fieldsOf(d, 1, options);
  const [types, ...cols] = fieldsOf(d, 0, columns), n = types.length; // memoryType, then the nine number columns
  cols.forEach((v, k) => {
    if (v.length !== n) throw rangeError(fn, `columns.${COLUMNS[k]}`, `has length ${v.length}, but columns.memoryType has ${n}`);
  });
  const pol = policy === undefined ? null : readPolicy(fn, "options.policy", policy);

  // Type codes: one cache lookup per memory, one classification call for the
  // strings never seen before.
  const codes = new Uint8Array(n);
  let missing = null;
  let prev = NOT_A_TYPE, prevCode = 0; // consecutive equal strings skip the cache lookup
  for (let i = 0; i < n; i++) {
    const t = types[i];
    if (t === prev) { codes[i] = prevCode; continue; }
    if (typeof t !== "string") item(d[4], 0, i, t);
    const c = typeCache.get(t);
    if (c === undefined) { (missing ??= []).push(i); continue; }
    codes[i] = prevCode = c;
    prev = t;
  }
  if (missing) {
    const fresh = classify(fn, missing.map((i) => types[i]));
    for (const i of missing) codes[i] = fresh.get(types[i]) ?? typeCache.get(types[i]);
  }
  // Under a policy: the design's seven classes with its settings, then a class
  // for each type of this batch that it names beyond the design's.
  let classes = null;
  if (pol) {
    classes = [...KNOWN_TYPES, null];
    const extra = new Map();
    for (let i = 0; pol.extra.size && i < n; i++) {
      const t = types[i];
      if (!pol.extra.has(t)) continue;
      if (!extra.has(t)) {
        if (classes.length === 256) throw rangeError(fn, "options.policy", "names over 249 types of this batch beyond the design's six");
        extra.set(t, classes.push(t) - 1);
      }
      codes[i] = extra.get(t);
    }
  }

  const score = out.f64(n), action = out.u8(n), signals = wantSignals ? out.f64(8 * n) : null;
  const args = [n, u8(codes), ...cols.map((c) => f64(c, n)), score, action, signals ?? addr(0)]; // NULL: no signals
  // Under a policy: each class as 9 doubles in md_retention_class's layout, then the thresholds.
  const table = classes ? fill.f64(9 * classes.length + 2) : null;
  if (classes) {
    args.push(table, classes.length);
  }
  return call(fn, classes ? "mdw_score_retention_many_policy" : "mdw_score_retention_many", args, (r) => {
    const res = { score: r.view(score).slice(), action: r.view(action).slice() };
    if (signals) {
      const all = r.view(signals).slice();
      res.signals = Object.fromEntries(SIGNAL_NAMES.map((name, k) => [name, all.subarray(k * n, (k + 1) * n)]));
    }
    return res;
  }, table && ((r) => {
    const t = r.view(table), k = classes.length;
    classes.forEach((c, j) => writeClass(pol, c, t, 9 * j));
    t[9 * k] = pol.keep;
    t[9 * k + 1] = pol.evict;
  }));
}

// ---------------------------------------------------------------- reprieve


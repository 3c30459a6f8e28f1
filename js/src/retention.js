// retention module: the eight-signal scorer, the triage bands, the reprieve
// gate, and a batch scorer over typed-array columns. Every number is computed
// in C (src/retention.c); this file validates arguments, classifies memory
// types once per distinct string (cached), and shapes the results.
import { arr, exportsOf, num, numOr, obj, raise, rangeError, scratch, str, typeError, vector, views, withFrame } from "./core.js";

const freeze = Object.freeze;

export const SIGNAL_NAMES = freeze(["recency", "accessFrequency", "confidence", "pagerank",
  "bridgeImportance", "reinforcementCount", "contentDensity", "contestedStatus"]);
export const TRIAGE_ACTIONS = freeze(["keep", "compress", "evict"]);

const profile = (...w) => freeze(Object.fromEntries(SIGNAL_NAMES.map((n, i) => [n, w[i]])));
export const WEIGHT_PROFILES = freeze({
  episodic: profile(0.25, 0.15, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1),
  semantic: profile(0.05, 0.15, 0.2, 0.2, 0.15, 0.1, 0.1, 0.05),
  procedural: profile(0.0, 0.2, 0.15, 0.15, 0.1, 0.2, 0.1, 0.1),
  arc: profile(0.1, 0.1, 0.15, 0.15, 0.15, 0.15, 0.1, 0.1),
  error_pattern: profile(0.2, 0.15, 0.1, 0.05, 0.05, 0.2, 0.1, 0.15),
});
export const DEFAULT_WEIGHTS = profile(0.15, 0.15, 0.15, 0.15, 0.1, 0.1, 0.1, 0.1);
export const HALF_LIVES_DAYS = freeze({ episodic: 10, semantic: 90, procedural: null, arc: 30, error_pattern: 14, task: null });
export const DEFAULT_HALF_LIFE_DAYS = 30;
export const LN2 = Math.LN2;
export const KEEP_THRESHOLD = 0.7;
export const EVICT_THRESHOLD = 0.3;
export const SCORE_PRECISION = 4;

export const REPRIEVE_FLOOR = 0.5;
export const REPRIEVE_DAYS = 14;
export const MAX_REPRIEVES = 3;
export const SALIENCE_DECAY_RATE = 0.01;
export const REPRIEVE_W_IMPORTANCE = 0.4;
export const REPRIEVE_W_ACCESS = 0.3;
export const REPRIEVE_W_OUTCOME = 0.2;
export const REPRIEVE_W_RECENCY = 0.1;

// md_memory_type codes: the five profiles in this order, then task, then any other type.
const PROFILE_BY_CODE = [WEIGHT_PROFILES.episodic, WEIGHT_PROFILES.semantic, WEIGHT_PROFILES.procedural,
  WEIGHT_PROFILES.arc, WEIGHT_PROFILES.error_pattern, DEFAULT_WEIGHTS, DEFAULT_WEIGHTS];

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
  withFrame(fn, (f) => {
    const kt = f.keys(fresh), pt = f.u8(fresh.length);
    f.alloc();
    f.check(exportsOf().mdw_memory_types_of(f.at(kt.bytes), f.at(kt.offs), fresh.length, f.at(pt)));
    const { u8 } = views();
    for (let i = 0; i < fresh.length; i++) codes.set(fresh[i], u8[f.at(pt) + i]);
  });
  if (typeCache.size + codes.size > TYPE_CACHE_MAX) typeCache.clear();
  if (codes.size <= TYPE_CACHE_MAX) for (const [s, c] of codes) typeCache.set(s, c);
  return codes;
}

function typeCode(fn, arg, memoryType) {
  str(fn, arg, memoryType);
  const code = typeCache.get(memoryType);
  return code !== undefined ? code : classify(fn, [memoryType]).get(memoryType);
}

// A per-instance block for the scalar entry points' out-values (9 doubles,
// 16 inputs of compositeScore, or a one-class policy and its 10 out-values);
// scratch() holds only 8.
let blockOwner = null;
let blockPtr = 0;
function block() {
  const ex = exportsOf();
  if (blockOwner !== ex) {
    blockPtr = ex.md_alloc(256);
    if (!blockPtr) throw new RangeError("memdomain: could not allocate WebAssembly memory");
    blockOwner = ex;
  }
  return blockPtr;
}

// ---------------------------------------------------------------- the scorer

/** The weight profile for a memory type (the shared, frozen table entry). */
export function weightsFor(memoryType) {
  return PROFILE_BY_CODE[typeCode("weightsFor", "memoryType", memoryType)];
}

/** The recency half-life in days for a memory type; null means no time decay. */
export function halfLifeFor(memoryType) {
  const code = typeCode("halfLifeFor", "memoryType", memoryType);
  const ex = exportsOf();
  const at = scratch();
  return ex.md_half_life_for(code, at) ? views().f64[at >>> 3] : null;
}

function readProfile(fn, arg, p, f64, at) {
  obj(fn, arg, p);
  for (let k = 0; k < 8; k++) {
    const name = SIGNAL_NAMES[k];
    f64[at + k] = num(fn, `${arg}.${name}`, p[name]);
  }
}

/** A profile's weight sum under compensated summation. */
export function profileWeightSum(profile) {
  const fn = "profileWeightSum";
  const ex = exportsOf();
  const at = block();
  readProfile(fn, "profile", profile, views().f64, at >>> 3);
  return ex.md_profile_weight_sum(at);
}

function readInput(fn, input) {
  obj(fn, "input", input);
  return [
    typeCode(fn, "input.memoryType", input.memoryType),
    num(fn, "input.ageDays", input.ageDays),
    num(fn, "input.accessCount", input.accessCount),
    num(fn, "input.confidence", input.confidence),
    num(fn, "input.graphRank", input.graphRank),
    num(fn, "input.maxGraphRank", input.maxGraphRank),
    num(fn, "input.bridgeCount", input.bridgeCount),
    num(fn, "input.reinforcementCount", input.reinforcementCount),
    num(fn, "input.wordCount", input.wordCount),
    num(fn, "input.contradictionCount", input.contradictionCount),
  ];
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
  const a = readInput(fn, input);
  const at = block();
  const st = exportsOf().mdw_compute_signals(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], at);
  if (st !== 0) raise(st, fn);
  return signalsAt(views().f64, at >>> 3);
}

/** The weighted composite, rounded to SCORE_PRECISION places. */
export function compositeScore(signals, profile) {
  const fn = "compositeScore";
  const ex = exportsOf();
  const at = block();
  const { f64 } = views();
  readProfile(fn, "signals", signals, f64, at >>> 3);
  readProfile(fn, "profile", profile, f64, (at >>> 3) + 8);
  return ex.mdw_composite_score(at, at + 64);
}

/** The band a composite falls in; boundaries belong to the lower band. */
export function bandFor(score) {
  return TRIAGE_ACTIONS[exportsOf().md_band_for(num("bandFor", "score", score))];
}

/**
 * Score one memory: normalize, weight by its type's profile, band the
 * composite. With a RetentionPolicy, its weights, half-lives and thresholds
 * replace the design's where it gives them.
 */
export function scoreRetention(input, policy) {
  const fn = "scoreRetention";
  const a = readInput(fn, input);
  if (policy !== undefined) return scorePolicy(fn, a, input.memoryType, readPolicy(fn, "policy", policy));
  const at = block();
  const action = exportsOf().mdw_score_retention(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], at);
  const { f64 } = views();
  const i = at >>> 3;
  return { score: f64[i], action: TRIAGE_ACTIONS[action], signals: signalsAt(f64, i + 1) };
}

// ---------------------------------------------------------------- policy

// A RetentionPolicy, checked whole (each error names its field) and resolved
// against the design's tables: what it does not give keeps the design's value,
// and a type lookup is an own-key lookup, as in the design's tables. C takes a
// policy as class records of 9 doubles (8 weights, then the half-life with 0
// for "no decay"), then the keep and evict thresholds.
const POLICY_FIELDS = ["weights", "defaultWeights", "halfLives", "defaultHalfLife", "keepThreshold", "evictThreshold"];
const KNOWN_TYPES = ["episodic", "semantic", "procedural", "arc", "error_pattern", "task"]; // codes 0-5; 6: any other
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

const given = (fn, arg, v, read, dflt) => (v === undefined ? dflt : read(fn, arg, v));

function readPolicy(fn, arg, p) {
  fields(fn, arg, p, POLICY_FIELDS);
  const weights = policyTable(fn, `${arg}.weights`, p.weights, policyProfile);
  const halfLives = policyTable(fn, `${arg}.halfLives`, p.halfLives, policyHalfLife);
  const defaultWeights = given(fn, `${arg}.defaultWeights`, p.defaultWeights, policyProfile, DEFAULT_ROW);
  const defaultHalfLife = given(fn, `${arg}.defaultHalfLife`, p.defaultHalfLife, policyHalfLife, DEFAULT_HALF_LIFE_DAYS);
  const keep = given(fn, `${arg}.keepThreshold`, p.keepThreshold, policyThreshold, KEEP_THRESHOLD);
  const evict = given(fn, `${arg}.evictThreshold`, p.evictThreshold, policyThreshold, EVICT_THRESHOLD);
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

function scorePolicy(fn, a, memoryType, pol) {
  const at = block(), i = at >>> 3;
  let { f64 } = views();
  writeClass(pol, memoryType, f64, i);
  f64[i + 9] = pol.keep;
  f64[i + 10] = pol.evict;
  const st = exportsOf().mdw_score_retention_policy(at, a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], at + 88);
  if (st !== 0) raise(st, fn);
  f64 = views().f64;
  return { score: f64[i + 11], action: TRIAGE_ACTIONS[f64[i + 20]], signals: signalsAt(f64, i + 12) };
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
  const fn = "scoreRetentionMany";
  obj(fn, "columns", columns);
  if (options !== undefined) obj(fn, "options", options);
  const wantSignals = options?.signals === undefined ? false : options.signals;
  if (typeof wantSignals !== "boolean") throw typeError(fn, "options.signals", "a boolean", wantSignals);
  const types = arr(fn, "columns.memoryType", columns.memoryType);
  const n = types.length;
  const cols = COLUMNS.map((name) => {
    const v = vector(fn, `columns.${name}`, columns[name]);
    if (v.length !== n)
      throw rangeError(fn, `columns.${name}`, `has length ${v.length}, but columns.memoryType has ${n}`);
    return v;
  });
  const pol = options?.policy === undefined ? null : readPolicy(fn, "options.policy", options.policy);

  // Type codes: one cache lookup per memory, one classification call for the
  // strings never seen before.
  const codes = new Uint8Array(n);
  let missing = null;
  let prev = NOT_A_TYPE, prevCode = 0; // consecutive equal strings skip the cache lookup
  for (let i = 0; i < n; i++) {
    const t = types[i];
    if (t === prev) { codes[i] = prevCode; continue; }
    if (typeof t !== "string") throw typeError(fn, `columns.memoryType[${i}]`, "a string", t);
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

  return withFrame(fn, (f) => {
    const pt = f.u8(n);
    const pc = cols.map(() => f.f64(n));
    const ps = f.f64(n), pa = f.u8(n), pg = wantSignals ? f.f64(8 * n) : 0;
    const pp = classes ? f.f64(9 * classes.length + 2) : 0;
    f.alloc();
    views().u8.set(codes, f.at(pt));
    for (let k = 0; k < cols.length; k++) f.writeF64(pc[k], cols[k]);
    const at = pc.map((p) => f.at(p));
    const args = [n, f.at(pt), ...at, f.at(ps), f.at(pa), wantSignals ? f.at(pg) : 0];
    if (classes) {
      const { f64 } = views(), i = f.at(pp) >>> 3;
      classes.forEach((t, c) => writeClass(pol, t, f64, i + 9 * c));
      f64[i + 9 * classes.length] = pol.keep;
      f64[i + 9 * classes.length + 1] = pol.evict;
    }
    f.check(classes ? exportsOf().mdw_score_retention_many_policy(...args, f.at(pp), classes.length)
      : exportsOf().mdw_score_retention_many(...args));
    const { f64, u8 } = views();
    const out = {
      score: f64.slice(f.at(ps) >>> 3, (f.at(ps) >>> 3) + n),
      action: u8.slice(f.at(pa), f.at(pa) + n),
    };
    if (wantSignals) {
      const all = f64.slice(f.at(pg) >>> 3, (f.at(pg) >>> 3) + 8 * n);
      out.signals = Object.fromEntries(SIGNAL_NAMES.map((name, k) => [name, all.subarray(k * n, (k + 1) * n)]));
    }
    return out;
  });
}

// ---------------------------------------------------------------- reprieve

/** The four-term reprieve score (not convex: the log1p(accessCount) term is unbounded). */
export function reprieveScore(input) {
  const fn = "reprieveScore";
  obj(fn, "input", input);
  return exportsOf().md_reprieve_score(num(fn, "input.importance", input.importance),
    num(fn, "input.accessCount", input.accessCount), num(fn, "input.outcomeScore", input.outcomeScore),
    num(fn, "input.hoursSinceAccess", input.hoursSinceAccess),
    numOr(fn, "input.decayRate", input.decayRate, SALIENCE_DECAY_RATE));
}

/** The bounded reprieve gate: score >= floor and reprieveCount < maxReprieves. */
export function shouldReprieve(input) {
  const fn = "shouldReprieve";
  obj(fn, "input", input);
  return exportsOf().md_should_reprieve(num(fn, "input.score", input.score),
    num(fn, "input.reprieveCount", input.reprieveCount), numOr(fn, "input.floor", input.floor, REPRIEVE_FLOOR),
    numOr(fn, "input.maxReprieves", input.maxReprieves, MAX_REPRIEVES)) !== 0;
}

/**
 * A memory type: the six the tables name (completion offers them) or any
 * other string, which takes DEFAULT_WEIGHTS and DEFAULT_HALF_LIFE_DAYS.
 */
export type MemoryType = "episodic" | "semantic" | "procedural" | "arc" | "error_pattern" | "task" | (string & {});

// retention module: the eight-signal scorer, triage bands, reprieve gate, and
// the batch scorer scoreRetentionMany (memdomain's addition).

/** The eight signals, in the fixed order every weight profile keys on. */
export declare const SIGNAL_NAMES: readonly ["recency", "accessFrequency", "confidence", "pagerank",
  "bridgeImportance", "reinforcementCount", "contentDensity", "contestedStatus"];
export type SignalName = typeof SIGNAL_NAMES[number];
/** A full set of normalized signal values, each unitless in [0, 1]. */
export type Signals = { readonly [K in SignalName]: number };
/** One coefficient per signal, the eight summing to exactly 1.0. */
export type WeightProfile = { readonly [K in SignalName]: number };

/** The triage verdicts; scoreRetentionMany's action codes index this array. */
export declare const TRIAGE_ACTIONS: readonly ["keep", "compress", "evict"];
export type TriageAction = typeof TRIAGE_ACTIONS[number];

export declare const WEIGHT_PROFILES: Readonly<Record<string, WeightProfile>>;
export declare const DEFAULT_WEIGHTS: WeightProfile;
export declare const HALF_LIVES_DAYS: Readonly<Record<string, number | null>>;
export declare const DEFAULT_HALF_LIFE_DAYS: 30;
export declare const LN2: number;
export declare const KEEP_THRESHOLD: 0.7;
export declare const EVICT_THRESHOLD: 0.3;
export declare const SCORE_PRECISION: 4;

export declare const REPRIEVE_FLOOR: 0.5;
export declare const REPRIEVE_DAYS: 14;
export declare const MAX_REPRIEVES: 3;
export declare const SALIENCE_DECAY_RATE: 0.01;
export declare const REPRIEVE_W_IMPORTANCE: 0.4;
export declare const REPRIEVE_W_ACCESS: 0.3;
export declare const REPRIEVE_W_OUTCOME: 0.2;
export declare const REPRIEVE_W_RECENCY: 0.1;

/** The raw per-memory inputs the SQL phase gathers. */
export interface RetentionInput {
  readonly memoryType: MemoryType;
  readonly ageDays: number;
  readonly accessCount: number;
  readonly confidence: number;
  readonly graphRank: number;
  readonly maxGraphRank: number;
  readonly bridgeCount: number;
  readonly reinforcementCount: number;
  readonly wordCount: number;
  readonly contradictionCount: number;
}

/** The scoring result: the composite, its band, and the normalized signals behind it. */
export interface RetentionScore {
  readonly score: number;
  readonly action: "keep" | "compress" | "evict";
  readonly signals: Signals;
}

/** The weight profile for a memory type (own-key lookup; others take DEFAULT_WEIGHTS). */
export declare function weightsFor(memoryType: MemoryType): WeightProfile;
/** The recency half-life in days for a memory type; null means no time decay. */
export declare function halfLifeFor(memoryType: MemoryType): number | null;
/** A profile's weight sum under compensated summation. */
export declare function profileWeightSum(profile: WeightProfile): number;
/** Normalize the raw inputs to their [0, 1] signal values. */
export declare function computeSignals(input: RetentionInput): Signals;
/** The weighted composite, unitless in [0, 1], rounded to SCORE_PRECISION places. */
export declare function compositeScore(signals: Signals, profile: WeightProfile): number;
/**
 * Tuned retention settings (memdomain's addition). Anything not given keeps
 * the design's value; a type lookup is an own-key lookup, as in the design's
 * tables, so a type the design does not list can get settings of its own.
 * Every weight is a finite number >= 0 (a profile gives all eight signals and
 * nothing else; it need not sum to 1, but the composite then leaves [0, 1]),
 * a half-life is a finite number of days > 0 or null for no decay, the
 * thresholds are finite and evictThreshold <= keepThreshold. Unknown fields
 * are refused. Errors are TypeError (wrong type) or RangeError (out of range,
 * unknown field, crossing thresholds) naming the field, e.g.
 * "scoreRetention: policy.halfLives.arc must be a finite number of days > 0, or null, got -5".
 */
export interface RetentionPolicy {
  /** Weight profiles by memory type (WEIGHT_PROFILES). */
  readonly weights?: Readonly<Record<string, WeightProfile>>;
  /** The profile of every type without one (DEFAULT_WEIGHTS, which "task" uses too). */
  readonly defaultWeights?: WeightProfile;
  /** Recency half-lives in days by memory type, null for no decay (HALF_LIVES_DAYS). */
  readonly halfLives?: Readonly<Record<string, number | null>>;
  /** The half-life of every type without one (DEFAULT_HALF_LIFE_DAYS, 30), or null. */
  readonly defaultHalfLife?: number | null;
  /** Keep when score > keepThreshold (KEEP_THRESHOLD, 0.7). */
  readonly keepThreshold?: number;
  /** Evict when score <= evictThreshold (EVICT_THRESHOLD, 0.3); compress in between. */
  readonly evictThreshold?: number;
}

/**
 * Score one memory: normalize, weight by its type's profile, band the
 * composite. With a policy, its settings replace the design's where it gives
 * them; without one (or with {}), the design's constants, bit for bit.
 */
export declare function scoreRetention(input: RetentionInput, policy?: RetentionPolicy): RetentionScore;

/** A numeric column: a plain array or any non-BigInt typed array. */
export type NumberColumn = ArrayLike<number>;

/** n memories as columns: each RetentionInput field as an array of length n. */
export interface RetentionColumns {
  readonly memoryType: readonly MemoryType[];
  readonly ageDays: NumberColumn;
  readonly accessCount: NumberColumn;
  readonly confidence: NumberColumn;
  readonly graphRank: NumberColumn;
  readonly maxGraphRank: NumberColumn;
  readonly bridgeCount: NumberColumn;
  readonly reinforcementCount: NumberColumn;
  readonly wordCount: NumberColumn;
  readonly contradictionCount: NumberColumn;
}

export interface RetentionBatch {
  /** The composite per memory. */
  readonly score: Float64Array;
  /** The band per memory as an index into TRIAGE_ACTIONS: 0 keep, 1 compress, 2 evict. */
  readonly action: Uint8Array;
}

export interface RetentionBatchWithSignals extends RetentionBatch {
  /** One column per signal (views of one buffer). */
  readonly signals: { readonly [K in SignalName]: Float64Array };
}

/**
 * scoreRetention over whole columns, bit-identical to calling it per memory,
 * with a constant number of calls into WebAssembly. `options.policy` scores
 * every memory as scoreRetention(input, policy) would. Throws TypeError for a
 * wrong type (naming the column and index) and RangeError for a column whose
 * length differs from memoryType's.
 */
export declare function scoreRetentionMany(columns: RetentionColumns,
  options: { readonly signals: true; readonly policy?: RetentionPolicy }): RetentionBatchWithSignals;
export declare function scoreRetentionMany(columns: RetentionColumns,
  options?: { readonly signals?: boolean; readonly policy?: RetentionPolicy }): RetentionBatch;

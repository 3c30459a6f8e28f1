/*
 * memdomain: the pure math of an agent-memory system (retrieval and sleep
 * maintenance), bit-identical to the TypeScript package @memhtml/domain.
 *
 * One public header, prefix md_. Conventions (see README.md, "C API"):
 *
 *  - Every function that can fail returns an md_status. The library never
 *    prints, never exits, never asserts on caller input.
 *  - Inputs are (pointer, length) pairs. A NULL pointer with a zero length is
 *    an empty input; a NULL pointer with a nonzero length is MD_ERR_NULL.
 *  - Strings (path keys, texts) are md_str: UTF-8 bytes plus a length, not
 *    NUL-terminated. Lone surrogates encoded as 3-byte sequences (WTF-8) are
 *    accepted, so every JavaScript string has a distinct encoding. Keys are
 *    ordered as JavaScript orders strings: by UTF-16 code units
 *    (md_key_compare).
 *  - Numbers follow JavaScript semantics bit for bit: every value is an IEEE
 *    double, counts may be fractional, NaN and infinities are inputs like any
 *    other (the design's documented behaviour applies to them).
 *  - Results the library allocates are owned by the caller and released with
 *    the matching md_*_free function (or md_free for plain arrays). Strings in
 *    results are borrowed from the caller's inputs unless documented otherwise.
 */
#ifndef MEMDOMAIN_H
#define MEMDOMAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MD_VERSION_MAJOR 0
#define MD_VERSION_MINOR 1
#define MD_VERSION_PATCH 0
/** The version as one number: major * 10000 + minor * 100 + patch. */
#define MD_VERSION (MD_VERSION_MAJOR * 10000 + MD_VERSION_MINOR * 100 + MD_VERSION_PATCH)
#define MD_VERSION_STRING "0.1.0"

/** The version of the library actually linked, as MD_VERSION encodes it. */
uint32_t md_version(void);
/** The linked library's version as a static string, e.g. "0.1.0". */
const char *md_version_string(void);

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

typedef enum md_status {
    MD_OK = 0,
    /** A required pointer is NULL (or an input pointer is NULL with a nonzero length). */
    MD_ERR_NULL = 1,
    /** Memory could not be allocated. Nothing was leaked; the call may be retried. */
    MD_ERR_NOMEM = 2,
    /** A count or size is out of range (negative, too large to allocate, overflow). */
    MD_ERR_RANGE = 3,
    /** An argument is outside its domain (an unknown name, malformed UTF-8, ...). */
    MD_ERR_INVALID = 4
} md_status;

/** A constant English description of a status ("ok", "null pointer", ...). Never NULL. */
const char *md_status_string(md_status status);

/** A UTF-8 (or WTF-8) string that is not NUL-terminated. ptr may be NULL when len is 0. */
typedef struct md_str {
    const char *ptr;
    size_t len;
} md_str;

/**
 * Compare two keys the way JavaScript's `<` compares strings: by UTF-16 code
 * units. Returns <0, 0 or >0. Differs from byte order only for code points
 * >= U+10000, which sort below U+E000..U+FFFF. A byte that starts no
 * well-formed sequence sorts after every code unit, so the order stays total
 * and distinct strings never compare equal.
 */
int md_key_compare(md_str a, md_str b);

/**
 * Allocate n bytes with the library's allocator (a valid pointer even for
 * n == 0), or NULL when memory is exhausted. Release with md_free. The wasm
 * glue uses this pair to place inputs in linear memory.
 */
void *md_alloc(size_t n);
/** Release memory the library allocated (a result array, an md_alloc block). NULL is a no-op. */
void md_free(void *ptr);

/* ======================================================================== */
/* cosine                                                                    */
/* ======================================================================== */

/**
 * Cosine similarity, total and clamped to [-1, 1]: sums dot, |a|^2, |b|^2 in
 * index order over min(na, nb) elements; a zero norm gives 0; NaN gives 0.
 * a/b: NULL allowed only with length 0. out: receives the similarity.
 * Returns MD_OK, or MD_ERR_NULL.
 */
md_status md_cosine(const double *a, size_t na, const double *b, size_t nb, double *out);
/** md_cosine over float32 inputs, each element widened to double first (same bits). */
md_status md_cosine_f32(const float *a, size_t na, const float *b, size_t nb, double *out);
/** 1 - md_cosine(a, b), in [0, 2]. Same inputs and statuses as md_cosine. */
md_status md_cosine_distance(const double *a, size_t na, const double *b, size_t nb, double *out);
/**
 * Neumaier compensated summation of values[0..n) in order.
 * Returns MD_OK, or MD_ERR_NULL (values NULL with n > 0, or out NULL).
 */
md_status md_compensated_sum(const double *values, size_t n, double *out);

/* ======================================================================== */
/* ranking                                                                   */
/* ======================================================================== */

#define MD_RRF_K 60
#define MD_MMR_LAMBDA 0.5
#define MD_REINFORCE_COOLDOWN_S 900

/**
 * One arm's RRF contribution, weight / (rank + RRF_K). Returns false (the
 * design's None) when rank is not finite, rank < 1 or weight <= 0; otherwise
 * true and, when out is not NULL, stores the contribution.
 */
bool md_rrf_contribution(double rank, double weight, double *out);

/* ======================================================================== */
/* rrf                                                                       */
/* ======================================================================== */

/** weight / (rank + k). Pure double arithmetic; any input is accepted. */
double md_rrf_score(double rank, double weight, double k);

/** One arm's hit: a path and its 1-based rank within that arm. */
typedef struct md_arm_hit {
    md_str path;
    double rank;
} md_arm_hit;

/** One arm's ranked list. hits may be NULL when n_hits is 0. */
typedef struct md_arm {
    const md_arm_hit *hits;
    size_t n_hits;
} md_arm;

/**
 * A fused path -> score map in first-insertion order. paths[i] borrows the
 * bytes of the caller's input strings (valid as long as those are). Release
 * with md_fused_free.
 */
typedef struct md_fused {
    size_t len;
    md_str *paths;
    double *scores;
} md_fused;

/** Release a md_fused's arrays and zero it. NULL is a no-op. */
void md_fused_free(md_fused *fused);

/**
 * fuseArms: arm i uses weights[i] (0 when i >= n_weights); an arm whose weight
 * is exactly 0 is skipped; each hit adds weight / (rank + k) to its path, in
 * arm order then hit order. out must point to a md_fused (its previous
 * contents are ignored). Returns MD_OK, MD_ERR_NULL or MD_ERR_NOMEM (out is
 * then empty).
 */
md_status md_fuse_arms(const md_arm *arms, size_t n_arms, const double *weights, size_t n_weights,
                       double k, md_fused *out);

/**
 * rankFused: writes into order[0..n) the permutation of 0..n-1 that lists the
 * entries score descending, ties by path ascending (JavaScript order); NaN
 * scores go last, ordered by path. order must hold n entries.
 * Returns MD_OK, MD_ERR_NULL or MD_ERR_NOMEM.
 */
md_status md_rank_fused(const md_str *paths, const double *scores, size_t n, size_t *order);

/**
 * fuseLateral: a copy of (paths, scores) in which order[i] adds
 * weight / (i + 1 + k); new paths are appended. Unchanged copy when
 * weight <= 0 or n_order == 0. Duplicate input paths behave as in
 * `new Map(entries)`: the first position, the last value. Returns MD_OK, MD_ERR_NULL or MD_ERR_NOMEM.
 */
md_status md_fuse_lateral(const md_str *paths, const double *scores, size_t n, const md_str *order,
                          size_t n_order, double weight, double k, md_fused *out);

/* ======================================================================== */
/* reinforce                                                                 */
/* ======================================================================== */

/** The reinforcement signals in REINFORCE_SIGNALS order. */
typedef enum md_reinforce_signal {
    MD_REINFORCE_POSITIVE = 0,
    MD_REINFORCE_NEGATIVE = 1,
    MD_REINFORCE_NEUTRAL = 2
} md_reinforce_signal;

/** The signal names in order: "positive", "negative", "neutral". */
extern const char *const md_reinforce_signals[3];

/**
 * signalValue: 1, -1 or 0. Returns MD_OK, MD_ERR_NULL (out NULL) or
 * MD_ERR_INVALID (signal not one of the three).
 */
md_status md_signal_value(md_reinforce_signal signal, double *out);

/**
 * shouldBumpAccess: true when has_last is false, otherwise when
 * (now_ms - last_ms) / 1000 >= cooldown_s. Times are milliseconds since the
 * epoch as Date.getTime() gives them (NaN for an invalid Date, which never
 * bumps).
 */
bool md_should_bump_access(bool has_last, double last_ms, double now_ms, double cooldown_s);

/**
 * partitionByCooldown in one pass: bumped[i] = 1 when entry i may be bumped,
 * 0 when it is cooling down. has_last[i] nonzero means last_ms[i] is its stamp.
 * Returns MD_OK or MD_ERR_NULL.
 */
md_status md_partition_by_cooldown(const uint8_t *has_last, const double *last_ms, size_t n,
                                   double now_ms, double cooldown_s, uint8_t *bumped);

/* ======================================================================== */
/* decay                                                                     */
/* ======================================================================== */

#define MD_SCALE 10000
#define MD_POS_ONE_FP 10000
#define MD_NEG_ONE_FP (-10000)
#define MD_DEFAULT_EWMA_ALPHA 0.3
#define MD_DEFAULT_CONFIDENCE_FLOOR 0.2
#define MD_DEFAULT_CONFIDENCE_DECAY_ALPHA 0.1
#define MD_CONFIDENCE_COMMIT_DELTA 0.005

/* Grid values are JavaScript numbers (doubles), exactly as in the reference:
 * every input, NaN and fractional counts included, gets the reference's
 * answer. Counts follow JavaScript loops: a fractional count runs
 * ceil(count) times, NaN and counts <= 0 run none. A finite count is always
 * followed to its end, as the reference does (no step budget); folds stop
 * early once the value repeats (a fixed point or a cycle), which gives the
 * same answer. Only an endless count (infinite, or beyond 2^53 where the
 * reference's counter stops moving), for which the reference never returns,
 * can fail: MD_ERR_RANGE when the value has not settled within
 * MD_FOLD_BUDGET steps. */
#define MD_FOLD_BUDGET (1 << 26)

/** Math.round(value * SCALE). */
double md_to_fp(double value);
/** value_fp / SCALE. */
double md_from_fp(double value_fp);
/** floor((alpha * signal + (SCALE - alpha) * prev) / SCALE). */
double md_ewma_step_fp(double alpha_fp, double prev_fp, double signal_fp);
/**
 * Fold signals[0..n) through md_ewma_step_fp. Returns MD_OK or MD_ERR_NULL
 * (signals NULL with n > 0, or out NULL).
 */
md_status md_apply_outcomes_fp(double alpha_fp, double prev_fp, const double *signals, size_t n,
                               double *out);
/**
 * hits <= 0 (or NaN) -> prev; else fold trunc(hits) signals of NEG_ONE_FP.
 * The reference builds an array of that length, which JavaScript refuses
 * from 2^32 on: that case returns MD_ERR_RANGE. Every count below 2^32 is
 * folded to its end (a cycle or fixed point is skipped over exactly).
 * Otherwise MD_OK (or MD_ERR_NULL when out is NULL).
 */
md_status md_apply_negative_hits_fp(double alpha_fp, double prev_fp, double hits, double *out);
/** min(conf, ewmaStepFp(alpha, conf, floor)), with JavaScript's Math.min. */
double md_decay_confidence_fp(double alpha_fp, double conf_fp, double floor_fp);
/**
 * md_decay_confidence_fp folded `cycles` times (a JavaScript loop bound:
 * ceil(cycles) steps, none for NaN or cycles <= 0). Returns MD_OK,
 * MD_ERR_NULL (out NULL), or MD_ERR_RANGE only for an endless count
 * (infinite, or beyond 2^53 where the reference's counter stops moving) whose
 * value has not settled after MD_FOLD_BUDGET steps: the reference never
 * returns there. Every finite count is folded to its end (time proportional
 * to the steps taken before the value settles).
 */
md_status md_decay_confidence_n_fp(double alpha_fp, double conf_fp, double floor_fp, double cycles,
                                   double *out);
/** fromFp(decayConfidenceFp(toFp(alpha), toFp(confidence), toFp(floor))). */
double md_decay_confidence(double confidence, double alpha, double floor);
/**
 * fromFp(decayConfidenceNFp(toFp(alpha), toFp(confidence), toFp(floor), cycles)).
 * Statuses as md_decay_confidence_n_fp.
 */
md_status md_decay_confidence_n(double confidence, double cycles, double alpha, double floor,
                                double *out);
/** abs(before - after) >= CONFIDENCE_COMMIT_DELTA. */
bool md_is_committable_confidence_change(double before, double after);

/* ======================================================================== */
/* JavaScript-exact math                                                     */
/* ======================================================================== */

/** Math.round: half toward +infinity; -0 for x in [-0.5, -0]. */
double md_js_round(double x);
/**
 * Math.exp exactly as V8 computes it (fdlibm's e_exp.c algorithm: argument
 * reduction by k*ln2 in two parts, then the published degree-5 polynomial),
 * including V8's exp(1) == 2.718281828459045. Bit-identical to Node on every
 * input; C exp() (glibc, musl) differs in the last bit on some.
 */
double md_js_exp(double x);
/**
 * Math.log1p exactly as V8 computes it (fdlibm's s_log1p.c algorithm).
 * log1p(-1) is -Infinity, x < -1 and NaN give NaN, -0 gives -0.
 */
double md_js_log1p(double x);
/**
 * Math.log exactly as V8 computes it (fdlibm's e_log.c algorithm). log(0) is
 * -Infinity, x < 0 and NaN give NaN, +Infinity gives +Infinity.
 */
double md_js_log(double x);

/* ======================================================================== */
/* retention                                                                 */
/* ======================================================================== */

/* The eight-signal retention scorer, its triage bands and the reprieve gate.
 * Every function here is total: NaN, infinities and out-of-range values are
 * inputs like any other and get the reference's JavaScript arithmetic
 * (Math.max/min semantics, V8's exp and log1p, Math.round). Nothing is
 * allocated; nothing is retained after a call returns. */

#define MD_DEFAULT_HALF_LIFE_DAYS 30
#define MD_KEEP_THRESHOLD 0.7
#define MD_EVICT_THRESHOLD 0.3
#define MD_SCORE_PRECISION 4
/** Math.LN2, the recency decay constant. */
#define MD_LN2 0.6931471805599453
#define MD_REPRIEVE_FLOOR 0.5
#define MD_REPRIEVE_DAYS 14
#define MD_MAX_REPRIEVES 3
#define MD_SALIENCE_DECAY_RATE 0.01
#define MD_REPRIEVE_W_IMPORTANCE 0.4
#define MD_REPRIEVE_W_ACCESS 0.3
#define MD_REPRIEVE_W_OUTCOME 0.2
#define MD_REPRIEVE_W_RECENCY 0.1

/** The eight signals, in SIGNAL_NAMES order (the order every profile keys on). */
typedef enum md_signal_name {
    MD_SIGNAL_RECENCY = 0,
    MD_SIGNAL_ACCESS_FREQUENCY = 1,
    MD_SIGNAL_CONFIDENCE = 2,
    MD_SIGNAL_PAGERANK = 3,
    MD_SIGNAL_BRIDGE_IMPORTANCE = 4,
    MD_SIGNAL_REINFORCEMENT_COUNT = 5,
    MD_SIGNAL_CONTENT_DENSITY = 6,
    MD_SIGNAL_CONTESTED_STATUS = 7
} md_signal_name;
#define MD_SIGNAL_COUNT 8

/** The signal names in order: "recency", "accessFrequency", ..., "contestedStatus". */
extern const char *const md_signal_names[MD_SIGNAL_COUNT];

/** A full set of signal values, indexed by md_signal_name. */
typedef struct md_signals {
    double value[MD_SIGNAL_COUNT];
} md_signals;

/** A weight profile: one coefficient per signal, indexed by md_signal_name. */
typedef struct md_weight_profile {
    double weight[MD_SIGNAL_COUNT];
} md_weight_profile;

/** The triage verdict, in TRIAGE_ACTIONS order. */
typedef enum md_triage_action {
    MD_ACTION_KEEP = 0,
    MD_ACTION_COMPRESS = 1,
    MD_ACTION_EVICT = 2
} md_triage_action;

/** The action names in order: "keep", "compress", "evict". */
extern const char *const md_triage_actions[3];

/**
 * A memory type as far as retention is concerned: the five typed profiles,
 * "task" (default weights, no decay), and every other string. Classify a
 * name with md_memory_type_of.
 */
typedef enum md_memory_type {
    MD_MEMORY_EPISODIC = 0,
    MD_MEMORY_SEMANTIC = 1,
    MD_MEMORY_PROCEDURAL = 2,
    MD_MEMORY_ARC = 3,
    MD_MEMORY_ERROR_PATTERN = 4,
    MD_MEMORY_TASK = 5,
    /** Any other name: DEFAULT_WEIGHTS and DEFAULT_HALF_LIFE_DAYS. */
    MD_MEMORY_OTHER = 6
} md_memory_type;
#define MD_MEMORY_TYPE_COUNT 7

/**
 * The type a memoryType string names: an exact, case-sensitive match of the
 * whole string against "episodic", "semantic", "procedural", "arc",
 * "error_pattern" and "task" (the reference's own-key lookup, so "toString",
 * "__proto__", "Episodic" or "episodic " are MD_MEMORY_OTHER). name.ptr may
 * be NULL when name.len is 0; a NULL ptr with a nonzero len is MD_MEMORY_OTHER.
 */
md_memory_type md_memory_type_of(md_str name);

/**
 * md_memory_type_of over names[0..n) into types[0..n) (one byte each).
 * Returns MD_OK or MD_ERR_NULL (names or types NULL with n > 0).
 */
md_status md_memory_types_of(const md_str *names, size_t n, uint8_t *types);

/** The five typed profiles, in md_memory_type order (WEIGHT_PROFILES). */
extern const md_weight_profile md_weight_profiles[5];
/** The profile of every other type (DEFAULT_WEIGHTS). */
extern const md_weight_profile md_default_weights;

/**
 * weightsFor: the static profile of a type (never NULL; a value outside the
 * enum gets the default profile). The pointer is to library constants.
 */
const md_weight_profile *md_weights_for(md_memory_type type);

/**
 * halfLifeFor: returns false when the type does not decay (procedural and
 * task: the reference's null), otherwise true and, when days is not NULL,
 * stores the half-life in days (episodic 10, semantic 90, arc 30,
 * error_pattern 14, any other type 30).
 */
bool md_half_life_for(md_memory_type type, double *days);

/**
 * profileWeightSum: Neumaier compensated sum of the eight weights in signal
 * order (exactly 1 for every shipped profile). profile NULL gives NaN.
 */
double md_profile_weight_sum(const md_weight_profile *profile);

/** The raw per-memory inputs (RetentionInput), memory type already classified. */
typedef struct md_retention_input {
    md_memory_type memory_type;
    double age_days;
    double access_count;
    double confidence;
    double graph_rank;
    double max_graph_rank;
    double bridge_count;
    double reinforcement_count;
    double word_count;
    double contradiction_count;
} md_retention_input;

/**
 * computeSignals: normalize the raw inputs to their signal values (see the
 * design; FACTS.md section 3 spells the curves out). Returns MD_OK or
 * MD_ERR_NULL (input or out NULL).
 */
md_status md_compute_signals(const md_retention_input *input, md_signals *out);

/**
 * compositeScore: Neumaier sum of signal * weight in signal order, then
 * Math.round(total * 10^4) / 10^4. Any profile is accepted, not only the
 * shipped ones. Returns MD_OK or MD_ERR_NULL (any pointer NULL).
 */
md_status md_composite_score(const md_signals *signals, const md_weight_profile *profile, double *out);

/** bandFor: > 0.7 keep, else > 0.3 compress, else evict (NaN evicts). */
md_triage_action md_band_for(double score);

/** The scoring result (RetentionScore). */
typedef struct md_retention_score {
    double score;
    md_triage_action action;
    md_signals signals;
} md_retention_score;

/**
 * scoreRetention: computeSignals, compositeScore under the type's profile,
 * bandFor. Returns MD_OK or MD_ERR_NULL (input or out NULL).
 */
md_status md_score_retention(const md_retention_input *input, md_retention_score *out);

/**
 * Batch scoreRetention over n memories given as columns (structure of
 * arrays). memory_type[i] is an md_memory_type code (md_memory_types_of
 * classifies names); the nine double columns hold the RetentionInput fields.
 * Every input pointer may be NULL only when n is 0.
 */
typedef struct md_retention_columns {
    size_t n;
    const uint8_t *memory_type;
    const double *age_days;
    const double *access_count;
    const double *confidence;
    const double *graph_rank;
    const double *max_graph_rank;
    const double *bridge_count;
    const double *reinforcement_count;
    const double *word_count;
    const double *contradiction_count;
} md_retention_columns;

/**
 * scoreRetention for every memory of `columns`, bit-identical to
 * md_score_retention on each row. Outputs are caller buffers:
 *  - score: n doubles (required unless n is 0);
 *  - action: n bytes holding md_triage_action codes (required unless n is 0);
 *  - signals: NULL, or 8 * n doubles, column-major: signal k of memory i at
 *    signals[k * n + i] (k in md_signal_name order).
 * Outputs may not overlap inputs. Every build scores two memories at a time
 * in two-double vector lanes (wasm f64x2; natively SSE2 or vector
 * extensions; V8's exp per lane); the bits are the scalar scorer's.
 * Nothing is allocated. Returns MD_OK, MD_ERR_NULL (columns NULL,
 * or a required pointer NULL with n > 0), or MD_ERR_INVALID (a memory_type
 * code >= MD_MEMORY_TYPE_COUNT; the outputs are then unspecified).
 */
md_status md_score_retention_many(const md_retention_columns *columns, double *score, uint8_t *action,
                                  double *signals);

/**
 * One memory type's settings under a retention policy: its weight profile and
 * its recency half-life in days (> 0, or 0 for no time decay, the design's
 * null). The profile need not sum to 1: the composite is then no longer a
 * convex combination, and may leave [0, 1].
 */
typedef struct md_retention_class {
    md_weight_profile weights;
    double half_life_days;
} md_retention_class;

/**
 * A retention policy (RetentionPolicy in the JS API): settings per type class
 * and the band thresholds. Under a policy, a memory's type code
 * (md_retention_input.memory_type, the bytes of md_retention_columns.memory_type)
 * indexes classes[0..n_classes): the md_memory_type codes index the design's
 * seven classes in md_default_retention_classes, and a policy may append
 * classes of its own for other type names (the batch's byte codes reach 255).
 * A memory keeps when score > keep_threshold, evicts when
 * score <= evict_threshold, and compresses in between, so each boundary
 * belongs to the lower band as in bandFor.
 *
 * A policy is valid when classes is non-NULL (or n_classes is 0), every
 * weight is finite and >= 0, every half-life is finite and >= 0, both
 * thresholds are finite, and evict_threshold <= keep_threshold.
 */
typedef struct md_retention_policy {
    const md_retention_class *classes;
    size_t n_classes;
    double keep_threshold;
    double evict_threshold;
} md_retention_policy;

/** The design's classes in md_memory_type order: WEIGHT_PROFILES / DEFAULT_WEIGHTS and HALF_LIVES_DAYS. */
extern const md_retention_class md_default_retention_classes[MD_MEMORY_TYPE_COUNT];
/** The design's policy: md_default_retention_classes, KEEP_THRESHOLD and EVICT_THRESHOLD. */
extern const md_retention_policy md_default_retention_policy;

/**
 * Check a policy against the rules above. Returns MD_OK, MD_ERR_NULL (policy
 * NULL, or classes NULL with n_classes > 0) or MD_ERR_INVALID (a weight or
 * half-life negative or not finite, a threshold not finite, or
 * evict_threshold > keep_threshold).
 */
md_status md_retention_policy_check(const md_retention_policy *policy);

/**
 * scoreRetention under a policy: the signals with the half-life of class
 * input->memory_type, the composite under its weights, the band by the
 * policy's thresholds. With md_default_retention_policy the result is
 * md_score_retention's, bit for bit. Returns MD_OK, MD_ERR_NULL (a pointer
 * NULL), MD_ERR_INVALID (input->memory_type >= n_classes) or
 * md_retention_policy_check's status (out is then untouched).
 */
md_status md_score_retention_policy(const md_retention_input *input, const md_retention_policy *policy,
                                    md_retention_score *out);

/**
 * md_score_retention_many under a policy: memory_type[i] indexes
 * policy->classes. Bit-identical to md_score_retention_policy per memory.
 * Returns md_score_retention_many's statuses (MD_ERR_INVALID for a code
 * >= n_classes) or md_retention_policy_check's.
 */
md_status md_score_retention_many_policy(const md_retention_columns *columns, const md_retention_policy *policy,
                                         double *score, uint8_t *action, double *signals);

/**
 * reprieveScore: 0.4 * max(1, min(10, importance)) / 10
 *   + 0.3 * log1p(max(0, access_count)) + 0.2 * max(0, outcome_score)
 *   + 0.1 * exp(-decay_rate * max(0, hours_since_access)), summed left to
 * right. Pass MD_SALIENCE_DECAY_RATE for the reference's default decay rate.
 */
double md_reprieve_score(double importance, double access_count, double outcome_score,
                         double hours_since_access, double decay_rate);

/**
 * shouldReprieve: score >= floor && reprieve_count < max_reprieves. Pass
 * MD_REPRIEVE_FLOOR and MD_MAX_REPRIEVES for the reference's defaults;
 * max_reprieves 0 never reprieves.
 */
bool md_should_reprieve(double score, double reprieve_count, double floor, double max_reprieves);

/* ======================================================================== */
/* neighbors                                                                 */
/* ======================================================================== */

/** The selection knobs (JavaScript numbers, the reference's semantics):
 *  floor: a pair enters when sim >= floor (a NaN sim or floor never does);
 *  per_source_k: each source keeps at most floor(per_source_k) neighbours
 *    (none when negative; unbounded when NaN or +infinity);
 *  limit: the final list is slice(0, limit) (truncated toward zero, a negative
 *    limit counts from the end, NaN keeps none). */
typedef struct md_neighbor_options {
    double floor;
    double per_source_k;
    double limit;
} md_neighbor_options;

/** One decoded vector under its key. vec may be NULL when len is 0. */
typedef struct md_keyed_vector {
    md_str key;
    const float *vec;
    size_t len;
} md_keyed_vector;

/** One enumerated candidate pair, oriented by the caller. */
typedef struct md_candidate_pair {
    md_str src;
    md_str dst;
} md_candidate_pair;

/** One selected pair: src and dst are indices into the input vectors (their
 * keys are the pair's keys); sim is in [-1, 1]. */
typedef struct md_neighbor_pair {
    size_t src;
    size_t dst;
    double sim;
} md_neighbor_pair;

/** A list of pairs in the final order. Release with md_neighbor_pairs_free. */
typedef struct md_neighbor_pairs {
    size_t len;
    md_neighbor_pair *pairs;
} md_neighbor_pairs;

/** Release a md_neighbor_pairs' array and zero it. NULL is a no-op. */
void md_neighbor_pairs_free(md_neighbor_pairs *pairs);

/**
 * topNeighborPairs: every unordered pair (i < j) once, offered to both ends.
 * Equal-length pairs use hoisted norms (zero norm -> 0, else
 * dot / (|a| * |b|) clamped, NaN kept, so a vector carrying NaN or infinity
 * enters no neighbourhood); mismatched lengths use md_cosine_f32. Final
 * order sim desc, src key asc, dst key asc (JavaScript order), then the
 * limit. Duplicate keys behave as the reference (one neighbourhood per key).
 * Returns MD_OK, MD_ERR_NULL, MD_ERR_NOMEM (out is then empty).
 */
md_status md_top_neighbor_pairs(const md_keyed_vector *vectors, size_t n,
                                md_neighbor_options options, md_neighbor_pairs *out);

/**
 * rankCandidatePairs: the same similarity, floor, per-source top-k (src side
 * only), order and limit over an enumerated pair list. A pair naming a key
 * without a vector is skipped; with duplicate keys the last vector wins.
 * Statuses as md_top_neighbor_pairs.
 */
md_status md_rank_candidate_pairs(const md_candidate_pair *pairs, size_t n_pairs,
                                  const md_keyed_vector *vectors, size_t n,
                                  md_neighbor_options options, md_neighbor_pairs *out);

/**
 * topNeighborPairs over a packed row-major matrix of n rows by d floats
 * (row i has key keys[i]); bit-identical to md_top_neighbor_pairs over the
 * same rows. Keys must be unique: a duplicate is MD_ERR_INVALID and, when
 * dup is not NULL, *dup receives the index of its second occurrence.
 * Statuses: MD_OK, MD_ERR_NULL, MD_ERR_RANGE (n * d overflows),
 * MD_ERR_INVALID, MD_ERR_NOMEM.
 */
md_status md_top_neighbor_pairs_packed(const float *matrix, size_t n, size_t d, const md_str *keys,
                                       md_neighbor_options options, md_neighbor_pairs *out,
                                       size_t *dup);

/**
 * One tile of the packed all-pairs pass: the pairs (i, j), i in
 * [row_begin, row_end), j > i, offered to both ends, each source keeping its
 * top per_source_k (floor applied, no limit). The result lists every kept
 * pair (src, dst, sim) grouped by src; merging the tiles of any partition of
 * [0, n) with md_merge_neighbor_pairs gives md_top_neighbor_pairs_packed's
 * answer exactly. Statuses as md_top_neighbor_pairs_packed (MD_ERR_RANGE
 * also for row_begin > row_end or row_end > n).
 */
md_status md_neighbor_tile_packed(const float *matrix, size_t n, size_t d, const md_str *keys,
                                  size_t row_begin, size_t row_end, md_neighbor_options options,
                                  md_neighbor_pairs *out, size_t *dup);

/**
 * Merge candidate pairs (src, dst, sim, indices into keys[0..n)) the way
 * the pass selects: per src the top per_source_k by sim desc then dst key
 * asc, then the final order and the limit. The floor is applied again.
 * Statuses as md_top_neighbor_pairs_packed (MD_ERR_RANGE for an index >= n).
 */
md_status md_merge_neighbor_pairs(const md_neighbor_pair *pairs, size_t n_pairs, const md_str *keys,
                                  size_t n, md_neighbor_options options, md_neighbor_pairs *out,
                                  size_t *dup);

/**
 * The 1 x n arm: out[i] = md_cosine_f32(query, d, row i, d) for the n rows
 * of a packed matrix (cosine's semantics: zero norm or NaN -> 0, clamped).
 * out must hold n doubles. Statuses: MD_OK, MD_ERR_NULL, MD_ERR_RANGE,
 * MD_ERR_NOMEM.
 */
md_status md_cosine_rows_f32(const float *query, const float *matrix, size_t n, size_t d,
                             double *out);

/**
 * The top-k form of the 1 x n arm: the k best rows (fewer when n < k) by
 * cosine desc, row index asc, as indices and similarities. idx and sims must
 * hold min(k, n) entries; *len receives the count. Statuses as
 * md_cosine_rows_f32.
 */
md_status md_top_cosine_rows_f32(const float *query, const float *matrix, size_t n, size_t d,
                                 size_t k, size_t *idx, double *sims, size_t *len);

/* ------------------------------------------------------------------------ */
/* Flat forms: pointers, lengths, uint32_t indices, scalar options          */
/* ------------------------------------------------------------------------ */

/* These take only pointers, lengths, uint32_t indices and doubles, so a
 * binding (the wasm module) can export them as they are. Keys enter as RANKS:
 * rank[i] is the position of vector i's key among the distinct keys in
 * JavaScript (UTF-16) order, equal keys sharing a rank (so rank[i] < n);
 * md_key_ranks computes them from a key table, and a JavaScript caller may
 * compute them itself by sorting its strings with `<`. rank NULL means the
 * vector order is the key order (rank[i] = i). Options are the three
 * numbers of md_neighbor_options. Results are md_neighbor_pairs (on wasm32:
 * len, then a pointer to len records of {u32 src, u32 dst, f64 sim}),
 * released with md_neighbor_pairs_free (or md_free of .pairs). A rank >= n
 * is MD_ERR_RANGE. */

/**
 * Key ranks from a key table: key i is the WTF-8 bytes
 * [offsets[i], offsets[i + 1]) of bytes (n + 1 offsets). rank must hold n.
 * *dup (may be NULL) gets the index of a later occurrence of a repeated
 * key, or UINT32_MAX. Returns MD_OK, MD_ERR_NULL, MD_ERR_RANGE (decreasing
 * offsets, n >= 2^32 - 1) or MD_ERR_NOMEM.
 */
md_status md_key_ranks(const uint8_t *bytes, const uint32_t *offsets, size_t n, uint32_t *rank,
                       uint32_t *dup);

/**
 * topNeighborPairs over vectors laid out back to back: vector i is elements
 * [offsets[i] - offsets[0], offsets[i + 1] - offsets[0]) of data (n + 1
 * offsets; lengths may differ). Ranks may repeat (duplicate keys share one
 * neighbourhood, as in the reference). The _f64 form takes doubles as the
 * reference's plain number arrays hold them (products of doubles round, so
 * its kernels never fuse them); float32 input widened to double gives the
 * _f32 form's bits. Bit-identical to md_top_neighbor_pairs. Statuses:
 * MD_OK, MD_ERR_NULL, MD_ERR_RANGE, MD_ERR_NOMEM.
 */
md_status md_top_neighbor_pairs_f32(const float *data, const uint32_t *offsets, size_t n,
                                    const uint32_t *rank, double floor, double per_source_k,
                                    double limit, md_neighbor_pairs *out);
md_status md_top_neighbor_pairs_f64(const double *data, const uint32_t *offsets, size_t n,
                                    const uint32_t *rank, double floor, double per_source_k,
                                    double limit, md_neighbor_pairs *out);

/**
 * rankCandidatePairs over the same layout: pair p is (src[p], dst[p]),
 * vector indices; an index >= n names a key without a vector (the pair is
 * skipped). Resolving keys to vectors (the last vector under a key wins) is
 * the caller's. Statuses as md_top_neighbor_pairs_f32.
 */
md_status md_rank_candidate_pairs_f32(const float *data, const uint32_t *offsets, size_t n,
                                      const uint32_t *rank, const uint32_t *src, const uint32_t *dst,
                                      size_t n_pairs, double floor, double per_source_k, double limit,
                                      md_neighbor_pairs *out);
md_status md_rank_candidate_pairs_f64(const double *data, const uint32_t *offsets, size_t n,
                                      const uint32_t *rank, const uint32_t *src, const uint32_t *dst,
                                      size_t n_pairs, double floor, double per_source_k, double limit,
                                      md_neighbor_pairs *out);

/**
 * The packed all-pairs pass over n rows of d floats with unique ranks:
 * final = true is md_top_neighbor_pairs_packed (sorted, limited); final =
 * false is md_neighbor_tile_packed over sources [row_begin, row_end). A
 * repeated rank is MD_ERR_INVALID. Pruned when it pays (see
 * md_top_neighbor_pairs_packed), bit-identical either way.
 */
md_status md_neighbor_pairs_ranked(const float *matrix, size_t n, size_t d, const uint32_t *rank,
                                   size_t row_begin, size_t row_end, double floor, double per_source_k,
                                   double limit, bool final, md_neighbor_pairs *out);

/** md_merge_neighbor_pairs with unique ranks for keys. */
md_status md_merge_neighbor_pairs_ranked(const md_neighbor_pair *pairs, size_t n_pairs,
                                         const uint32_t *rank, size_t n, double floor,
                                         double per_source_k, double limit, md_neighbor_pairs *out);

/**
 * The packed pass in parts, for a pool of workers taking tiles from a shared
 * queue: md_pairs_pass_new sets the pass up once over a matrix (which must
 * stay in place until md_pairs_pass_free) with unique ranks for keys (NULL:
 * row order); each md_pairs_pass_add adds the pairs (i, j), i in
 * [row_begin, row_end), j > i. The lists and the pruning bounds persist
 * between parts, so many small parts cost about what one range does.
 * md_pairs_pass_pairs gives the lists so far (final: sorted and limited;
 * otherwise grouped by src as md_neighbor_pairs_ranked's tiles, for
 * md_merge_neighbor_pairs_ranked): for sources forming a partition of
 * [0, n), the single pass's answer exactly. Statuses as
 * md_neighbor_pairs_ranked; md_pairs_pass_add is MD_ERR_RANGE for a row
 * already added (its pairs would count twice); after a failed part every
 * call returns that part's status.
 */
typedef struct md_pairs_pass md_pairs_pass;
md_status md_pairs_pass_new(const float *matrix, size_t n, size_t d, const uint32_t *rank, double floor,
                            double per_source_k, md_pairs_pass **out);
md_status md_pairs_pass_add(md_pairs_pass *pass, size_t row_begin, size_t row_end);
md_status md_pairs_pass_pairs(md_pairs_pass *pass, bool final, double limit, md_neighbor_pairs *out);
/**
 * Passes over one matrix with the same ranks, floor and per_source_k whose
 * lists are merged into one answer (workers splitting one pass) can share
 * what they learned: bounds holds n floats, per row a similarity that
 * per_source_k pairs of some such pass are known to reach (start with
 * -INFINITY: nothing known); md_pairs_pass_share raises this pass's
 * thresholds to them and writes back the higher of the two, for the next
 * pass. Each then prunes as if it had seen the others' pairs (those pairs
 * are in the others' lists, hence in the merge). Bounds from anything else
 * can drop pairs the answer needs. MD_ERR_NULL for a NULL pass or array.
 */
md_status md_pairs_pass_share(md_pairs_pass *pass, float *bounds);
/**
 * Workers splitting the setup too (each pass's int16 copies, norms and
 * scales cost about 5% of a pass, repeated by every worker):
 * md_pairs_pass_new_part is md_pairs_pass_new that computes that data for
 * rows [part_begin, part_end) only; md_pairs_pass_rows with take = false
 * writes rows [row_begin, row_end) of it to buf, ROW records of 24 + 2 dp
 * bytes each (dp = d rounded up to a multiple of 32), and with take = true
 * reads such records, written by a pass over the same matrix and ranks,
 * into this one. Rows neither computed nor taken are computed at the first
 * add, share or pairs, which also ends the exchange (md_pairs_pass_rows is
 * then a no-op, as it is for a pass that does not prune). MD_ERR_RANGE for
 * a range past n.
 */
md_status md_pairs_pass_new_part(const float *matrix, size_t n, size_t d, const uint32_t *rank, double floor,
                                 double per_source_k, size_t part_begin, size_t part_end, md_pairs_pass **out);
md_status md_pairs_pass_rows(md_pairs_pass *pass, void *buf, size_t row_begin, size_t row_end, bool take);
/** Release a pass (NULL is a no-op). */
void md_pairs_pass_free(md_pairs_pass *pass);

/* ------------------------------------------------------------------------ */
/* Resident rows: a matrix held by the library for many queries              */
/* ------------------------------------------------------------------------ */

/**
 * Rows of d floats copied in once, kept in sync by append / set / remove,
 * each with its in-order sum of squares computed once (the same bits the
 * 1 x n arm computes per query) and a filter copy (int8 with a per-row scale
 * and a rounded-up residual bound) for pruned top-k queries. Rows are named
 * by their position, 0 .. count - 1, as uint32_t (at most 2^32 - 1 rows).
 * Queries never modify the handle: concurrent queries are safe; a query
 * concurrent with an update is not. Release with md_rows_free.
 */
typedef struct md_rows md_rows;

/**
 * An empty handle for rows of d floats. Returns MD_OK, MD_ERR_NULL (out
 * NULL), MD_ERR_RANGE (d == 0 or too large) or MD_ERR_NOMEM.
 */
md_status md_rows_new(size_t d, md_rows **out);
/** Release a handle. NULL is a no-op. */
void md_rows_free(md_rows *r);
/** Rows held (0 for NULL). */
size_t md_rows_count(const md_rows *r);
/** The dimension d (0 for NULL). */
size_t md_rows_dim(const md_rows *r);
/** The rows as held, count x d floats row-major, borrowed until the next update (NULL when empty or r is NULL). */
const float *md_rows_data(const md_rows *r);
/**
 * Append n rows (row-major, n x d floats; NULL allowed when n == 0). Any
 * float is accepted (NaN, infinities and zero rows answer as cosine does).
 * Returns MD_OK, MD_ERR_NULL, MD_ERR_RANGE (past 2^32 - 1 rows) or
 * MD_ERR_NOMEM (the handle is unchanged).
 */
md_status md_rows_append(md_rows *r, const float *rows, size_t n);
/**
 * Insert n rows (n x d floats) before position i (0 <= i <= count): rows
 * from i on move up by n (O((count - i) d)), so a caller that keeps its rows
 * in key order can insert in place instead of rebuilding. Statuses as
 * md_rows_append, and MD_ERR_RANGE for i > count.
 */
md_status md_rows_insert(md_rows *r, size_t i, const float *rows, size_t n);
/** Overwrite row i with d floats. Returns MD_OK, MD_ERR_NULL or MD_ERR_RANGE (i >= count). */
md_status md_rows_set(md_rows *r, size_t i, const float *row);
/** Remove row i; rows after it move down by one (O((count - i) d)). Statuses as md_rows_set. */
md_status md_rows_remove(md_rows *r, size_t i);
/** Remove row i in O(d): the last row moves into position i (unless i is the last). Statuses as md_rows_set. */
md_status md_rows_swap_remove(md_rows *r, size_t i);
/**
 * out[i] = md_cosine_f32(query, d, row i, d) for every row (out holds count
 * doubles); bit-identical to md_cosine_rows_f32 over the same matrix.
 * Returns MD_OK, MD_ERR_NULL or MD_ERR_NOMEM.
 */
md_status md_rows_cosine(const md_rows *r, const float *query, double *out);
/**
 * The k rows most similar to query (d floats): cosine desc, row index asc,
 * min(k, count) of them in idx (uint32_t) and sims; *len gets the count.
 * Bit-identical to md_top_cosine_rows_f32 over the same matrix. Pruned: an
 * integer pass bounds every row's cosine rigorously and only rows whose
 * bound reaches the k-th best get the exact double sum; when pruning does
 * not pay (k above count / 4, fewer than 512 rows, d outside [16, 8192], a
 * query with NaN, infinity or zero norm, or nearly every row surviving the
 * bound, as when all rows are nearly equal), every row is computed exactly. Returns MD_OK, MD_ERR_NULL or
 * MD_ERR_NOMEM.
 */
md_status md_rows_top_cosine(const md_rows *r, const float *query, size_t k, uint32_t *idx,
                             double *sims, size_t *len);
/**
 * rankCandidatePairs over resident rows: pair p is rows (src[p], dst[p])
 * (an index >= count is a key without a vector: skipped), keys ordered by
 * rank (NULL: row order; see "Flat forms"), norms from the resident sums of
 * squares. Bit-identical to md_rank_candidate_pairs_f32 over the same rows.
 * Statuses as md_top_neighbor_pairs_f32.
 */
md_status md_rows_rank_candidate_pairs(const md_rows *r, const uint32_t *rank, const uint32_t *src,
                                       const uint32_t *dst, size_t n_pairs, double floor,
                                       double per_source_k, double limit, md_neighbor_pairs *out);
/**
 * applyMmr over resident rows: candidate i has score scores[i] and vector
 * row rows[i] (as widened doubles), read in place with its resident sum of
 * squares; out (room for n) gets the chosen candidate positions in order,
 * *len their count. Bit-identical to md_apply_mmr over the same vectors.
 * Returns MD_OK, MD_ERR_NULL, MD_ERR_RANGE (a row >= count) or MD_ERR_NOMEM.
 */
md_status md_rows_apply_mmr(const md_rows *r, const uint32_t *rows, const double *scores, size_t n,
                            double limit, double lambda, uint32_t *out, size_t *len);
/**
 * The all-pairs pass (or one tile) over the resident rows, keys by unique
 * rank (NULL: row order): md_neighbor_pairs_ranked over md_rows_data.
 */
md_status md_rows_neighbor_pairs(const md_rows *r, const uint32_t *rank, size_t row_begin,
                                 size_t row_end, double floor, double per_source_k, double limit,
                                 bool final, md_neighbor_pairs *out);

/* ======================================================================== */
/* mmr                                                                       */
/* ======================================================================== */

/** A candidate: its fused relevance and its vector (doubles), if any. */
typedef struct md_mmr_candidate {
    double score;
    const double *vector; /* may be NULL when len is 0 */
    size_t len;
    bool has_vector;
} md_mmr_candidate;

/**
 * Whether MMR reorders n candidates at this lambda: false when lambda >= 1
 * (relevance alone decides, so the order is the input's) or n <= 1; true
 * otherwise (a NaN lambda too: every comparison fails and the rounds pick
 * the first remaining). The one statement of that rule: md_apply_mmr, the
 * packed and resident-row forms and the glue's applyMmr ask it.
 */
bool md_mmr_reorders(double lambda, double n);

/**
 * applyMmr: limit <= 0 -> none; !md_mmr_reorders(lambda, n) -> slice(0, limit) in
 * input order; otherwise greedy rounds while count < limit, each picking the
 * first remaining candidate with the strictly greatest
 * lambda * score - (1 - lambda) * penalty (the first remaining when none
 * compares greater, e.g. NaN), where penalty is the running Math.max of
 * md_cosine to every selected candidate with a vector (0 without one).
 * Writes the chosen input indices in order to out (room for n) and the
 * count to *len. Statuses: MD_OK, MD_ERR_NULL, MD_ERR_NOMEM.
 */
md_status md_apply_mmr(const md_mmr_candidate *candidates, size_t n, double limit, double lambda,
                       size_t *out, size_t *len);

/**
 * applyMmr over a packed matrix: candidate i has score scores[i] and vector
 * row i (d doubles). Bit-identical to md_apply_mmr over the same
 * candidates. Statuses as md_apply_mmr, and MD_ERR_RANGE when n * d overflows.
 */
md_status md_apply_mmr_packed(const double *scores, const double *matrix, size_t n, size_t d,
                              double limit, double lambda, size_t *out, size_t *len);

/* ======================================================================== */
/* graph                                                                     */
/* ======================================================================== */

#define MD_PAGERANK_DAMPING 0.85
#define MD_PAGERANK_MAX_ITERATIONS 100
#define MD_PAGERANK_TOLERANCE 1e-6
#define MD_MIN_COMMUNITY_SIZE 3
#define MD_LABEL_PROPAGATION_MAX_SWEEPS 100
/** "No node" / "no community" (undefined) in the graph functions' index outputs. */
#define MD_GRAPH_NONE SIZE_MAX
/** Iteration and sweep counts up to this many always run in full; past it, a
 * run that has not settled stops with MD_ERR_RANGE once it has done about
 * 2^34 units of work (an iteration costs nodes + edges + 1). */
#define MD_GRAPH_MIN_BUDGET 65536.0

/** One directed weighted edge (the design's GraphEdge). strength is nominally
 * in [0, 1]; any double is accepted and follows JavaScript arithmetic. */
typedef struct md_graph_edge {
    md_str src;
    md_str dst;
    double strength;
} md_graph_edge;

/**
 * A graph normalized once, for any number of pagerank / labelPropagation /
 * bridgeCounts runs (each identical to the design's one-shot function over
 * the same nodes and edges). Nodes are deduplicated and sorted in JavaScript
 * string order (node i below means the i-th in that order); edges that are
 * self-loops or name an absent node are dropped; parallel (src, dst) edges
 * fold to the first of maximum strength, by the pair itself (so ("a b", "c")
 * and ("a", "b c") never collide). The handle owns copies of the keys and is
 * immutable: concurrent runs on one handle are safe. Release with md_graph_free.
 */
typedef struct md_graph md_graph;

/**
 * Build a graph. nodes[0..n_nodes) (duplicates allowed); edges[0..n_edges).
 * *out receives the handle (NULL on failure). Returns MD_OK, MD_ERR_NULL (out
 * NULL, or a NULL pointer with a nonzero length, a key's included),
 * MD_ERR_RANGE (2^32 - 1 nodes or edges or more) or MD_ERR_NOMEM.
 */
md_status md_graph_new(const md_str *nodes, size_t n_nodes, const md_graph_edge *edges,
                       size_t n_edges, md_graph **out);
/**
 * md_graph_new with the edges' ends given as indices into nodes (any index
 * >= n_nodes names an absent node) and strengths in a parallel array.
 */
md_status md_graph_new_indexed(const md_str *nodes, size_t n_nodes, const uint32_t *src,
                               const uint32_t *dst, const double *strength, size_t n_edges,
                               md_graph **out);
/** Release a graph. NULL is a no-op. */
void md_graph_free(md_graph *g);
/** Distinct nodes (0 for NULL). */
size_t md_graph_node_count(const md_graph *g);
/** Edges left after dropping and folding (0 for NULL). */
size_t md_graph_edge_count(const md_graph *g);
/** Node i's key, borrowed from the handle ({NULL, 0} when out of range). */
md_str md_graph_node(const md_graph *g, size_t i);
/** The first index in the build's input list that names node i (MD_GRAPH_NONE when out of range). */
size_t md_graph_node_input(const md_graph *g, size_t i);
/** The node that input entry j names (MD_GRAPH_NONE when out of range). */
size_t md_graph_node_of_input(const md_graph *g, size_t j);
/** Look a key up: true and *index (may be NULL) = its node when present. */
bool md_graph_find(const md_graph *g, md_str key, size_t *index);

/** pagerank's options; md_pagerank_options_default sets the design's defaults. */
typedef struct md_pagerank_options {
    double damping;        /* PAGERANK_DAMPING */
    double max_iterations; /* a JavaScript loop bound: ceil, NaN/<= 0 run none */
    double tolerance;      /* stop after the iteration whose L1 change < tolerance * nodes */
    bool has_seeds;        /* personalized: the teleport is the seeds */
    /* Seeds as a Map: node indices (>= node count: absent, dropped) and
     * weights; a repeated node counts once, at its first position, with its
     * last weight. Weights that are not > 0 drop; the rest are normalized by
     * their sum in order. No seed left: the uniform prior. */
    const size_t *seed_nodes;
    const double *seed_weights;
    size_t n_seeds;
} md_pagerank_options;

void md_pagerank_options_default(md_pagerank_options *options);

/**
 * PageRank by power iteration (FACTS section 7). options NULL means the
 * defaults. scores receives md_graph_node_count(g) values, node order.
 * Returns MD_OK, MD_ERR_NULL, MD_ERR_NOMEM, or MD_ERR_RANGE when the
 * iteration cannot end: the count is infinite (or beyond 2^53, where the
 * reference's counter sticks) and the states cycle (period >= 2) without
 * converging, or the work budget (MD_GRAPH_MIN_BUDGET) ran out. States are
 * compared bit for bit after each step (Brent's algorithm) when the count
 * exceeds MD_GRAPH_MIN_BUDGET: a fixed point ends the run with its exact
 * value, and a huge finite count over a cycle lands on the exact phase.
 */
md_status md_graph_pagerank(const md_graph *g, const md_pagerank_options *options, double *scores);

/**
 * The k best nodes of md_graph_pagerank's answer for the same options (the
 * same scores, bit for bit): nodes with a score > 0, by score desc, then node
 * index asc; with skip_seeds, the seeds (nodes whose last seed weight is > 0)
 * are left out. nodes and scores have room for k; *count receives how many
 * were written, *reached how many nodes besides the seeds have a score > 0.
 * A personalized run whose max_iterations needs no cycle watch (at most
 * MD_GRAPH_MIN_BUDGET) steps over the nodes holding mass only: its work is the
 * neighbourhood the walk reaches, plus O(node count) to clear two arrays.
 * Statuses as md_graph_pagerank.
 */
md_status md_graph_pagerank_top(const md_graph *g, const md_pagerank_options *options, size_t k, bool skip_seeds,
                                size_t *nodes, double *scores, size_t *count, size_t *reached);

/**
 * Label propagation (FACTS section 7). community receives, per node, the
 * index of its community's smallest member, or MD_GRAPH_NONE (undefined)
 * when the community has fewer than min_community_size members (compared as
 * doubles, so NaN makes every community undefined). max_sweeps is a
 * JavaScript loop bound. Statuses as md_graph_pagerank.
 */
md_status md_graph_label_propagation(const md_graph *g, double min_community_size, double max_sweeps,
                                     size_t *community);

/**
 * bridgeCounts: community[i] is node i's label id (MD_GRAPH_NONE for
 * undefined; equal ids mean the same label). Every folded edge whose ends
 * have defined, different labels adds 1 to both ends' counts[].
 * Returns MD_OK or MD_ERR_NULL.
 */
md_status md_graph_bridge_counts(const md_graph *g, const size_t *community, size_t *counts);

/* ======================================================================== */
/* text: the Unicode JavaScript's string methods use (frame and merge)       */
/* ======================================================================== */

/**
 * A string the library produced: WTF-8 bytes owned by the caller, released
 * with md_text_free. ptr is never NULL after MD_OK (an empty result is a
 * valid zero-length allocation); after an error ptr is NULL and len 0.
 */
typedef struct md_text {
    char *ptr;
    size_t len;
} md_text;

/** Release a md_text's bytes and zero it. NULL is a no-op. */
void md_text_free(md_text *text);

/** The Unicode version of the text tables ("17.0.0", as Node 20 / ICU 78, Chromium and Deno). */
const char *md_unicode_version(void);

/**
 * String.prototype.normalize("NFC"). s is UTF-8 or WTF-8 (a lone surrogate
 * passes through unchanged, as in JavaScript). Returns MD_OK, MD_ERR_NULL
 * (out NULL, or s.ptr NULL with s.len > 0), MD_ERR_INVALID (malformed
 * UTF-8) or MD_ERR_NOMEM.
 */
md_status md_nfc(md_str s, md_text *out);

/**
 * String.prototype.toLowerCase(): full default lowercasing, so U+0130
 * becomes "i" + U+0307, U+212A becomes "k", and capital sigma becomes final
 * sigma after a cased letter when no cased letter follows (case-ignorable
 * characters skipped). Statuses as md_nfc.
 */
md_status md_to_lower(md_str s, md_text *out);

/* ======================================================================== */
/* frame                                                                     */
/* ======================================================================== */

/**
 * frameKeyOf: collapse every run of JavaScript whitespace to one space and
 * trim; take the frame up to the LAST linking token (of, is, in, to, by, as;
 * lowercase only, ASCII word boundaries) that is followed by a value; drop
 * at most one final "." from the value; the key is the lowercased frame when
 * the frame has at least 3 space-separated tokens and the value 1..6.
 * *found is false (the reference's null) otherwise, and out is then an empty
 * md_text. Returns MD_OK, MD_ERR_NULL, MD_ERR_INVALID (malformed UTF-8) or
 * MD_ERR_NOMEM.
 */
md_status md_frame_key_of(md_str gist, md_text *out, bool *found);

/* ======================================================================== */
/* merge                                                                     */
/* ======================================================================== */

#define MD_NEAR_DUPLICATE_THRESHOLD 0.92
#define MD_MAX_MERGE_PAIRS 100

/** The two texts the veto reads for one memory: its claim and its article. */
typedef struct md_merge_text {
    md_str gist;
    md_str body;
} md_merge_text;

/**
 * joinMergeText: gist + "\n" + body into a fresh md_text. Returns MD_OK,
 * MD_ERR_NULL or MD_ERR_NOMEM.
 */
md_status md_join_merge_text(const md_merge_text *text, md_text *out);

/*
 * The divergence predicates. Each tokenizes its texts as the reference does
 * (NFC, toLowerCase, the contraction expansions, then [a-z0-9]+(\.[0-9]+)*)
 * and stores the answer in *out. Returns MD_OK, MD_ERR_NULL, MD_ERR_INVALID
 * (malformed UTF-8) or MD_ERR_NOMEM.
 */
/** Exactly one side carries a negation marker. */
md_status md_negation_divergent(md_str a, md_str b, bool *out);
/** Either side has a token holding a digit, and the two sets of such tokens differ. */
md_status md_numeric_token_divergent(md_str a, md_str b, bool *out);
/** The sets of variant qualifiers differ. */
md_status md_variant_qualifier_divergent(md_str a, md_str b, bool *out);

/** mergeVetoReasons as bits, in the reference's order. */
#define MD_VETO_NEGATION 1u
#define MD_VETO_NUMERIC 2u
#define MD_VETO_VARIANT 4u

/**
 * mergeVetoReasons: negation and variant over joinMergeText of each side,
 * numeric over the gists alone; *reasons gets the MD_VETO_* bits that fire
 * (0: mergeVetoed is false). Statuses as the predicates.
 */
md_status md_merge_veto_reasons(const md_merge_text *a, const md_merge_text *b, unsigned *reasons);

/** One oriented candidate pair; a NULL text means the text is absent. */
typedef struct md_merge_pair {
    md_str keep_path;
    md_str drop_path;
    double similarity;
    const md_merge_text *keep_text;
    const md_merge_text *drop_text;
} md_merge_pair;

/** Where a pair stopped in mergeOutcomes, in the filter's order. */
typedef enum md_merge_stage {
    MD_STAGE_CAP = 0,
    MD_STAGE_THRESHOLD = 1,
    MD_STAGE_VETOED = 2,
    MD_STAGE_SELF = 3,
    MD_STAGE_ROLE_GUARD = 4,
    MD_STAGE_COMMITTED = 5
} md_merge_stage;

/** The stage names as the design spells them ("cap", ..., "committed"). */
extern const char *const md_merge_stage_names[6];

/**
 * mergeOutcomes: stages[i] (an md_merge_stage) for every pair, applying in
 * order the cap (committed count >= max_pairs), the threshold
 * (similarity <= threshold), the veto (both texts present), self
 * (keep == drop) and the role guard (drop already dropped or kept, keep
 * already dropped). max_pairs is a JavaScript number (MD_MAX_MERGE_PAIRS by
 * default; NaN never caps). stages must hold n entries. Returns MD_OK,
 * MD_ERR_NULL, MD_ERR_INVALID (malformed UTF-8 in a text) or MD_ERR_NOMEM.
 */
md_status md_merge_outcomes(const md_merge_pair *pairs, size_t n, double max_pairs, double threshold,
                            uint8_t *stages);

/** A pair without that text, in md_merge_outcomes_indexed. */
#define MD_MERGE_NO_TEXT UINT32_MAX

/**
 * mergeOutcomes over interned paths and texts: pair i keeps path id
 * keep_path[i] and drops drop_path[i] (ids < n_paths; equal ids are equal
 * paths), with similarity[i] and the texts keep_text[i] and drop_text[i]
 * (ids < n_texts, or MD_MERGE_NO_TEXT); text t's gist is texts[2 t] and its
 * body texts[2 t + 1]. Each text is tokenized at most once, however many
 * pairs name it. stages as md_merge_outcomes. Returns MD_OK, MD_ERR_NULL,
 * MD_ERR_INVALID (an id out of range, or malformed UTF-8 in a text a pair
 * reads) or MD_ERR_NOMEM.
 */
md_status md_merge_outcomes_indexed(const md_str *texts, size_t n_texts, const uint32_t *keep_path,
                                    const uint32_t *drop_path, size_t n_paths, const uint32_t *keep_text,
                                    const uint32_t *drop_text, const double *similarity, size_t n,
                                    double max_pairs, double threshold, uint8_t *stages);

/**
 * mergeCandidates: the indices of the committed pairs, in input order, in
 * committed[0..*n_committed). committed must hold n entries. Statuses as
 * md_merge_outcomes.
 */
md_status md_merge_candidates(const md_merge_pair *pairs, size_t n, double max_pairs, double threshold,
                              size_t *committed, size_t *n_committed);

/**
 * connectedComponents as a partition of the distinct keys: members holds
 * every distinct key once (borrowed from the input), component by component,
 * each component's members sorted (JavaScript order), components ordered by
 * their root (their smallest member); component i is
 * members[starts[i] .. starts[i + 1]). Release with md_components_free.
 */
typedef struct md_components {
    size_t n_members;
    md_str *members;
    size_t n_components;
    size_t *starts; /* n_components + 1 entries */
} md_components;

void md_components_free(md_components *c);

/**
 * connectedComponents: ends[2 * i] and ends[2 * i + 1] are edge i's two
 * keys. Union-find in which the smaller key (JavaScript order) is always
 * the root, so any order and orientation of one edge set gives one result.
 * Returns MD_OK, MD_ERR_NULL, MD_ERR_RANGE or MD_ERR_NOMEM (out then empty).
 */
md_status md_connected_components(const md_str *ends, size_t n_edges, md_components *out);

/**
 * excludeSelfSupersede: keep[i] = 1 for the members that are not the
 * canonical, else 0 (order is the caller's). Returns MD_OK or MD_ERR_NULL.
 */
md_status md_exclude_self_supersede(md_str canonical, const md_str *members, size_t n, uint8_t *keep);

/* ======================================================================== */
/* lexindex: the resident lexical index (the cache's lexical arm)            */
/* ======================================================================== */

/* Posting lists per term, in blocks of up to MD_LEXINDEX_BLOCK postings in
 * document order, each block with the bounds its scores cannot pass (the
 * most gist and body hits, the fewest tokens of its documents, and a few
 * points of hits and tokens every posting is within); kept in
 * place by put and delete, with the corpus statistics bm25 reads (documents,
 * tokens, each term's documents). A top-k query scores by FTS5's bm25 for the
 * OR query of its terms (fts5Bm25Function): per term
 *   ci = idf * ((f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)))
 * with k1 = 1.2, b = 0.75, f = gist_weight * gist hits + body hits, D the
 * document's tokens, avgdl = tokens / documents, idf = log((N - n + 0.5) /
 * (n + 0.5)) (1e-6 when not above 0), N the documents and n the term's
 * documents; a document's score is -1.0 * (((0.0 + c0) + c1) + ...) over the
 * query's terms in query order (a term the document lacks adds nothing).
 * log is md_js_log (fdlibm), so every runtime gives the same bits; where the
 * platform's log() (what SQLite calls) gives the same idf, the scores are
 * FTS5's bit for bit. The top-k is exact: the order of scoring every posting
 * (score ascending, then key in byte order = SQLite's BINARY order of UTF-8,
 * then document id), found by block-max MaxScore over windows of blocks
 * taken largest bound first (a window's blocks whose bounds cannot reach the
 * k-th score are skipped;
 * bounds are compared with a relative margin of 2^-40, far above the
 * rounding of the sums, so no document that could enter is ever skipped).
 * Documents and terms are numbers the caller assigns (below 2^30). */

#define MD_LEXINDEX_BLOCK 128
#define MD_LEXINDEX_MAX_ID (1u << 30)

typedef struct md_lexindex md_lexindex;

/** An empty index. Returns MD_OK, MD_ERR_NULL (out NULL) or MD_ERR_NOMEM. */
md_status md_lexindex_new(md_lexindex **out);
/** Release an index. NULL is a no-op. */
void md_lexindex_free(md_lexindex *ix);
/**
 * Put document `doc` (replacing it if present): its key (key_len bytes, UTF-8;
 * the tie-break; NULL allowed when key_len == 0), its tokens `len` (FTS5's
 * row size, every column), and n distinct terms with their hits in the gist
 * and in the body (gist and body NULL: no hits there; each term needs at least
 * one hit). Returns MD_OK, MD_ERR_NULL, MD_ERR_RANGE (doc or a term >=
 * MD_LEXINDEX_MAX_ID), MD_ERR_INVALID (a term repeated or without hits; the
 * index is then as before, `doc` absent) or MD_ERR_NOMEM (`doc` absent, the
 * rest as before).
 */
md_status md_lexindex_put(md_lexindex *ix, uint32_t doc, const uint8_t *key, size_t key_len, uint32_t len,
                          const uint32_t *terms, const uint32_t *gist, const uint32_t *body, size_t n);
/** Delete document `doc`. Returns MD_OK, MD_ERR_NULL or MD_ERR_RANGE (not in the index). */
md_status md_lexindex_delete(md_lexindex *ix, uint32_t doc);
/** Documents held (0 for NULL). */
size_t md_lexindex_count(const md_lexindex *ix);
/** Documents holding `term` (0 for NULL or an unknown term). */
size_t md_lexindex_df(const md_lexindex *ix, uint32_t term);
/** Bytes the index holds (postings, blocks, documents), 0 for NULL. */
size_t md_lexindex_bytes(const md_lexindex *ix);
/**
 * The best k documents holding any of terms[0..n_terms) (a term may repeat: it
 * counts once per occurrence, as FTS5 counts phrases), the gist weighted
 * gist_weight (finite, >= 0): docs[i] and scores[i] (bm25, smaller is better)
 * best first, out[0] how many (min(k, documents matched)), out[1] the
 * postings scored (a measure of the pruning). idf: NULL, or each term's idf
 * (finite, > 0) in place of the one computed with md_js_log: a caller holding
 * FTS5's own (SQLite's ln() over md_lexindex_df and md_lexindex_count gives
 * the same bits as FTS5's log()) gets FTS5's scores bit for bit. docs and
 * scores hold k entries (NULL allowed when k == 0). Returns MD_OK,
 * MD_ERR_NULL, MD_ERR_RANGE (gist_weight or an idf) or MD_ERR_NOMEM.
 */
md_status md_lexindex_top(const md_lexindex *ix, const uint32_t *terms, size_t n_terms, const double *idf,
                          double gist_weight, size_t k, uint32_t *docs, double *scores, size_t *out);
/** md_lexindex_top by scoring every posting of the terms (the reference the pruned top-k is held to). */
md_status md_lexindex_top_full(const md_lexindex *ix, const uint32_t *terms, size_t n_terms, const double *idf,
                               double gist_weight, size_t k, uint32_t *docs, double *scores, size_t *out);

#ifdef __cplusplus
}
#endif

#endif /* MEMDOMAIN_H */

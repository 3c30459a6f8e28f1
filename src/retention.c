/* retention module: the eight-signal scorer, the triage bands and the
 * reprieve gate. Each expression follows the reference's JavaScript operation
 * by operation (Math.max/min via mdi_js_max/min, V8's exp and log1p, Math.round),
 * so NaN and infinities get the reference's answers without special cases. */
#include "internal.h"
#include "f64x2.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Math.max / Math.min. WebAssembly's f64.max / f64.min instructions have
 * exactly JavaScript's semantics (NaN propagates, -0 < +0), so on wasm the
 * scorer's hot path uses them inline instead of calling mdi_js_max/min in
 * another translation unit (about 20 calls per memory). Natively it calls the
 * shared helpers. The JS tests hold both against Math.max/min on NaN and +-0. */
#if defined(__wasm__)
#define js_max(a, b) __builtin_wasm_max_f64((a), (b))
#define js_min(a, b) __builtin_wasm_min_f64((a), (b))
#else
#define js_max(a, b) mdi_js_max((a), (b))
#define js_min(a, b) mdi_js_min((a), (b))
#endif

const char *const md_signal_names[MD_SIGNAL_COUNT] = {
    "recency", "accessFrequency", "confidence", "pagerank",
    "bridgeImportance", "reinforcementCount", "contentDensity", "contestedStatus",
};

const char *const md_triage_actions[3] = {"keep", "compress", "evict"};

/* rec, acc, conf, pr, bridge, reinf, dens, contested */
#define EPISODIC {{0.25, 0.15, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}}
#define SEMANTIC {{0.05, 0.15, 0.2, 0.2, 0.15, 0.1, 0.1, 0.05}}
#define PROCEDURAL {{0.0, 0.2, 0.15, 0.15, 0.1, 0.2, 0.1, 0.1}}
#define ARC {{0.1, 0.1, 0.15, 0.15, 0.15, 0.15, 0.1, 0.1}}
#define ERROR_PATTERN {{0.2, 0.15, 0.1, 0.05, 0.05, 0.2, 0.1, 0.15}}
#define DEFAULT_WEIGHTS {{0.15, 0.15, 0.15, 0.15, 0.1, 0.1, 0.1, 0.1}}

const md_weight_profile md_weight_profiles[5] = {EPISODIC, SEMANTIC, PROCEDURAL, ARC, ERROR_PATTERN};
const md_weight_profile md_default_weights = DEFAULT_WEIGHTS;

/* md_memory_type order; a half-life of 0 marks "no decay" (the reference's null). */
const md_retention_class md_default_retention_classes[MD_MEMORY_TYPE_COUNT] = {
    {EPISODIC, 10}, {SEMANTIC, 90}, {PROCEDURAL, 0}, {ARC, 30}, {ERROR_PATTERN, 14},
    {DEFAULT_WEIGHTS, 0} /* task */, {DEFAULT_WEIGHTS, MD_DEFAULT_HALF_LIFE_DAYS} /* any other type */,
};

const md_retention_policy md_default_retention_policy = {
    md_default_retention_classes, MD_MEMORY_TYPE_COUNT, MD_KEEP_THRESHOLD, MD_EVICT_THRESHOLD,
};

/* An md_memory_type outside the enum is any other type, as md_memory_type_of would say. */
static inline md_memory_type known(md_memory_type type) {
    return (unsigned)type < MD_MEMORY_TYPE_COUNT ? type : MD_MEMORY_OTHER;
}

static const struct { const char *name; size_t len; } type_names[MD_MEMORY_OTHER] = {
    {"episodic", 8}, {"semantic", 8}, {"procedural", 10}, {"arc", 3}, {"error_pattern", 13}, {"task", 4},
};

md_memory_type md_memory_type_of(md_str name) {
    if (MDI_BAD_IN(name.ptr, name.len)) return MD_MEMORY_OTHER;
    for (int t = 0; t < MD_MEMORY_OTHER; t++)
        if (name.len == type_names[t].len && memcmp(name.ptr, type_names[t].name, name.len) == 0)
            return (md_memory_type)t;
    return MD_MEMORY_OTHER;
}

MDI_SMALL md_status md_memory_types_of(const md_str *names, size_t n, uint8_t *types) {
    if (MDI_BAD_IN(names, n) || MDI_BAD_IN(types, n)) return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++) types[i] = (uint8_t)md_memory_type_of(names[i]);
    return MD_OK;
}

const md_weight_profile *md_weights_for(md_memory_type type) {
    if ((unsigned)type < 5) return &md_weight_profiles[type];
    return &md_default_weights;
}

bool md_half_life_for(md_memory_type type, double *days) {
    double h = md_default_retention_classes[known(type)].half_life_days;
    if (h == 0) return false;
    if (days) *days = h;
    return true;
}

double md_profile_weight_sum(const md_weight_profile *profile) {
    if (!profile) return NAN;
    double sum;
    md_compensated_sum(profile->weight, MD_SIGNAL_COUNT, &sum); /* cannot fail: both pointers are valid */
    return sum;
}

/* md_compensated_sum over eight terms, inline and with the Neumaier branch as
 * a select (both candidates are computed, the same one is kept): the same
 * operations, so the same bits (test_retention checks it against
 * md_compensated_sum, NaN and infinities included). */
static inline double neumaier8(const double v[MD_SIGNAL_COUNT]) {
    double sum = 0, c = 0;
    for (int k = 0; k < MD_SIGNAL_COUNT; k++) {
        double t = sum + v[k];
        double big = (sum - t) + v[k], small = (v[k] - t) + sum;
        c += fabs(sum) >= fabs(v[k]) ? big : small;
        sum = t;
    }
    return sum + c;
}

static inline double clamp01(double v) { return js_max(0, js_min(1, v)); }

/* The recency curve before its clamp: 1 without decay or for ageDays <= 0. */
static inline double recency_of(double half_life, double age_days) {
    return (half_life == 0 || age_days <= 0) ? 1 : md_js_exp((-MD_LN2 * age_days) / half_life);
}

/* One copy in wasm: inlined into its three callers it adds ~600 B to the
 * module (the batch's hot path is score_pair, which does not call it). */
#if defined(__wasm__)
#define COMPUTE_SIGNALS_ATTR static __attribute__((noinline))
#else
#define COMPUTE_SIGNALS_ATTR static inline
#endif
/* The signals of `in` with the half-life of its class (in->memory_type is ignored). */
COMPUTE_SIGNALS_ATTR void compute_signals(const md_retention_input *in, double half_life, double s[MD_SIGNAL_COUNT]) {
    s[MD_SIGNAL_RECENCY] = clamp01(recency_of(half_life, in->age_days));
    s[MD_SIGNAL_ACCESS_FREQUENCY] = js_min(1, js_max(0, in->access_count) / 10);
    s[MD_SIGNAL_CONFIDENCE] = clamp01(in->confidence);
    s[MD_SIGNAL_PAGERANK] = in->max_graph_rank > 0 ? clamp01(js_max(0, in->graph_rank) / in->max_graph_rank) : 0;
    s[MD_SIGNAL_BRIDGE_IMPORTANCE] = js_min(1, js_max(0, in->bridge_count) / 5);
    s[MD_SIGNAL_REINFORCEMENT_COUNT] = js_min(1, js_max(0, in->reinforcement_count) / 5);
    double w = js_max(0, in->word_count);
    /* w ** 2 is w * w: V8's pow squares exactly for an exponent of 2 */
    s[MD_SIGNAL_CONTENT_DENSITY] = clamp01(w < 10 ? (w * w) / 1000 : js_min(1, w / 100));
    s[MD_SIGNAL_CONTESTED_STATUS] = 1 - js_min(1, js_max(0, in->contradiction_count) / 3);
}

static inline double composite(const double s[MD_SIGNAL_COUNT], const double w[MD_SIGNAL_COUNT]) {
    double terms[MD_SIGNAL_COUNT];
    for (int k = 0; k < MD_SIGNAL_COUNT; k++) terms[k] = s[k] * w[k];
    double factor = 10000; /* 10 ** SCORE_PRECISION */
    return md_js_round(neumaier8(terms) * factor) / factor;
}

MDI_SMALL md_status md_compute_signals(const md_retention_input *input, md_signals *out) {
    if (!input || !out) return MD_ERR_NULL;
    compute_signals(input, md_default_retention_classes[known(input->memory_type)].half_life_days, out->value);
    return MD_OK;
}

md_status md_composite_score(const md_signals *signals, const md_weight_profile *profile, double *out) {
    if (!signals || !profile || !out) return MD_ERR_NULL;
    *out = composite(signals->value, profile->weight);
    return MD_OK;
}

/* bandFor with the policy's edges: each boundary belongs to the lower band, NaN evicts. */
static inline md_triage_action band(double score, const md_retention_policy *p) {
    if (score > p->keep_threshold) return MD_ACTION_KEEP;
    if (score > p->evict_threshold) return MD_ACTION_COMPRESS;
    return MD_ACTION_EVICT;
}

md_triage_action md_band_for(double score) { return band(score, &md_default_retention_policy); }

static inline bool finite_nonneg(double v) { return v >= 0 && v <= DBL_MAX; }

MDI_SMALL md_status md_retention_policy_check(const md_retention_policy *policy) {
    if (!policy || MDI_BAD_IN(policy->classes, policy->n_classes)) return MD_ERR_NULL;
    for (size_t c = 0; c < policy->n_classes; c++) {
        const md_retention_class *cls = &policy->classes[c];
        for (int k = 0; k < MD_SIGNAL_COUNT; k++)
            if (!finite_nonneg(cls->weights.weight[k])) return MD_ERR_INVALID;
        if (!finite_nonneg(cls->half_life_days)) return MD_ERR_INVALID;
    }
    double keep = policy->keep_threshold, evict = policy->evict_threshold;
    if (!isfinite(keep) || !isfinite(evict) || evict > keep) return MD_ERR_INVALID;
    return MD_OK;
}

static void score_one(const md_retention_input *input, const md_retention_class *cls, const md_retention_policy *p,
                      md_retention_score *out) {
    compute_signals(input, cls->half_life_days, out->signals.value);
    out->score = composite(out->signals.value, cls->weights.weight);
    out->action = band(out->score, p);
}

md_status md_score_retention(const md_retention_input *input, md_retention_score *out) {
    if (!input || !out) return MD_ERR_NULL;
    score_one(input, &md_default_retention_classes[known(input->memory_type)], &md_default_retention_policy, out);
    return MD_OK;
}

md_status md_score_retention_policy(const md_retention_input *input, const md_retention_policy *policy,
                                    md_retention_score *out) {
    if (!input || !out) return MD_ERR_NULL;
    md_status st = md_retention_policy_check(policy);
    if (st != MD_OK) return st;
    if ((size_t)(unsigned)input->memory_type >= policy->n_classes) return MD_ERR_INVALID;
    score_one(input, &policy->classes[input->memory_type], policy, out);
    return MD_OK;
}

/* The batch scorer two memories at a time, in the f64x2 lanes of f64x2.h
 * (wasm SIMD128; natively SSE2 or vector extensions): the scalar path's
 * operations lane by lane (min/max are Math.min/max, both arms of a
 * conditional computed and one selected, Math.round spelled out), so the
 * bits are the scalar scorer's; only V8's exp stays scalar, once per lane.
 * tests/c/test_retention_x2.c holds it to score_column (the scalar twin) bit
 * for bit natively, and tests/js/retention.test.js holds scoreRetentionMany
 * (this path on wasm) against scoreRetention. */
static inline f64x2 clamp01x2(f64x2 v) { return X2_MAX(X2(0), X2_MIN(X2(1), v)); }

/* min(1, max(0, v) / d) */
static inline f64x2 ratio1x2(f64x2 v, double d) { return X2_MIN(X2(1), X2_DIV(X2_MAX(X2(0), v), X2(d))); }

/* md_js_round per lane: finite nonzero lanes get floor(x) (+1 when
 * x - floor(x) >= 0.5) with a zero result taking x's sign; other lanes x. */
static inline f64x2 js_round_x2(f64x2 x) {
    f64x2 r = X2_FLOOR(x);
    r = X2_SELECT(X2_ADD(r, X2(1)), r, X2_GE(X2_SUB(x, r), X2(0.5)));
    r = X2_SELECT(X2_SIGN(x), r, X2_EQ(r, X2(0)));
    m64x2 keep_x = M2_OR(M2_NOT(X2_LT(X2_ABS(x), X2(INFINITY))), X2_EQ(x, X2(0)));
    return X2_SELECT(x, r, keep_x);
}

#define LOAD(col) X2_LOAD((col) + i)

/* Memories i and i + 1 of a checked batch. */
static void score_pair(const md_retention_columns *c, const md_retention_policy *p, size_t i, double *score,
                       uint8_t *action, double *signals) {
    const md_retention_class *c0 = &p->classes[c->memory_type[i]], *c1 = &p->classes[c->memory_type[i + 1]];
    f64x2 s[MD_SIGNAL_COUNT];
    s[MD_SIGNAL_RECENCY] = clamp01x2(X2_MAKE(recency_of(c0->half_life_days, c->age_days[i]),
                                             recency_of(c1->half_life_days, c->age_days[i + 1])));
    s[MD_SIGNAL_ACCESS_FREQUENCY] = ratio1x2(LOAD(c->access_count), 10);
    s[MD_SIGNAL_CONFIDENCE] = clamp01x2(LOAD(c->confidence));
    f64x2 max_rank = LOAD(c->max_graph_rank);
    f64x2 pagerank = clamp01x2(X2_DIV(X2_MAX(X2(0), LOAD(c->graph_rank)), max_rank));
    s[MD_SIGNAL_PAGERANK] = X2_SELECT(pagerank, X2(0), X2_GT(max_rank, X2(0)));
    s[MD_SIGNAL_BRIDGE_IMPORTANCE] = ratio1x2(LOAD(c->bridge_count), 5);
    s[MD_SIGNAL_REINFORCEMENT_COUNT] = ratio1x2(LOAD(c->reinforcement_count), 5);
    f64x2 w = X2_MAX(X2(0), LOAD(c->word_count));
    f64x2 short_body = X2_DIV(X2_MUL(w, w), X2(1000));
    f64x2 long_body = X2_MIN(X2(1), X2_DIV(w, X2(100)));
    s[MD_SIGNAL_CONTENT_DENSITY] = clamp01x2(X2_SELECT(short_body, long_body, X2_LT(w, X2(10))));
    s[MD_SIGNAL_CONTESTED_STATUS] = X2_SUB(X2(1), ratio1x2(LOAD(c->contradiction_count), 3));

    /* composite: Neumaier over the eight terms, then Math.round(total * 10^4) / 10^4 */
    const double *w0 = c0->weights.weight, *w1 = c1->weights.weight;
    f64x2 sum = X2(0), comp = X2(0);
    for (int k = 0; k < MD_SIGNAL_COUNT; k++) {
        f64x2 v = X2_MUL(s[k], X2_MAKE(w0[k], w1[k]));
        f64x2 t = X2_ADD(sum, v);
        f64x2 big = X2_ADD(X2_SUB(sum, t), v);
        f64x2 small = X2_ADD(X2_SUB(v, t), sum);
        comp = X2_ADD(comp, X2_SELECT(big, small, X2_GE(X2_ABS(sum), X2_ABS(v))));
        sum = t;
    }
    f64x2 total = X2_ADD(sum, comp);
    f64x2 sc = X2_DIV(js_round_x2(X2_MUL(total, X2(10000))), X2(10000));
    X2_STORE(score + i, sc);
    action[i] = (uint8_t)band(X2_LANE(sc, 0), p);
    action[i + 1] = (uint8_t)band(X2_LANE(sc, 1), p);
    if (signals)
        for (int k = 0; k < MD_SIGNAL_COUNT; k++) X2_STORE(signals + (size_t)k * c->n + i, s[k]);
}
#undef LOAD

/* Memory i of a checked batch, one at a time: the scalar twin of score_pair. */
static inline void score_column(const md_retention_columns *c, const md_retention_policy *p, size_t i,
                                double *score, uint8_t *action, double *signals) {
    md_retention_input in = {
        (md_memory_type)c->memory_type[i], c->age_days[i], c->access_count[i], c->confidence[i],
        c->graph_rank[i], c->max_graph_rank[i], c->bridge_count[i], c->reinforcement_count[i],
        c->word_count[i], c->contradiction_count[i],
    };
    const md_retention_class *cls = &p->classes[c->memory_type[i]];
    double s[MD_SIGNAL_COUNT];
    compute_signals(&in, cls->half_life_days, s);
    score[i] = composite(s, cls->weights.weight);
    action[i] = (uint8_t)band(score[i], p);
    if (signals)
        for (int k = 0; k < MD_SIGNAL_COUNT; k++) signals[(size_t)k * c->n + i] = s[k];
}

#if !defined(__wasm__)
/* For the native tests (tests/c/test_retention_x2.c). */
void mdi_retention_score_pair(const md_retention_columns *c, const md_retention_policy *p, size_t i,
                              double *score, uint8_t *action, double *signals) {
    score_pair(c, p, i, score, action, signals);
}
void mdi_retention_score_column(const md_retention_columns *c, const md_retention_policy *p, size_t i,
                                double *score, uint8_t *action, double *signals) {
    score_column(c, p, i, score, action, signals);
}
#endif

/* The batch under a valid policy. */
static md_status score_many(const md_retention_columns *columns, const md_retention_policy *p, double *score,
                            uint8_t *action, double *signals) {
    if (!columns) return MD_ERR_NULL;
    const md_retention_columns *c = columns;
    size_t n = c->n;
    if (MDI_BAD_IN(c->memory_type, n) || MDI_BAD_IN(c->age_days, n) || MDI_BAD_IN(c->access_count, n) ||
        MDI_BAD_IN(c->confidence, n) || MDI_BAD_IN(c->graph_rank, n) || MDI_BAD_IN(c->max_graph_rank, n) ||
        MDI_BAD_IN(c->bridge_count, n) || MDI_BAD_IN(c->reinforcement_count, n) ||
        MDI_BAD_IN(c->word_count, n) || MDI_BAD_IN(c->contradiction_count, n) || MDI_BAD_IN(score, n) ||
        MDI_BAD_IN(action, n))
        return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++)
        if (c->memory_type[i] >= p->n_classes) return MD_ERR_INVALID;
    size_t i = 0;
    for (; i + 1 < n; i += 2) score_pair(c, p, i, score, action, signals);
    for (; i < n; i++) score_column(c, p, i, score, action, signals);
    return MD_OK;
}

md_status md_score_retention_many(const md_retention_columns *columns, double *score, uint8_t *action,
                                  double *signals) {
    return score_many(columns, &md_default_retention_policy, score, action, signals);
}

md_status md_score_retention_many_policy(const md_retention_columns *columns, const md_retention_policy *policy,
                                         double *score, uint8_t *action, double *signals) {
    md_status st = md_retention_policy_check(policy);
    return st != MD_OK ? st : score_many(columns, policy, score, action, signals);
}

MDI_SMALL double md_reprieve_score(double importance, double access_count, double outcome_score,
                         double hours_since_access, double decay_rate) {
    double imp = js_max(1, js_min(10, importance)) / 10;
    double access = md_js_log1p(js_max(0, access_count));
    double outcome = js_max(0, outcome_score);
    double recency = md_js_exp(-decay_rate * js_max(0, hours_since_access));
    return MD_REPRIEVE_W_IMPORTANCE * imp + MD_REPRIEVE_W_ACCESS * access + MD_REPRIEVE_W_OUTCOME * outcome +
           MD_REPRIEVE_W_RECENCY * recency;
}

MDI_SMALL bool md_should_reprieve(double score, double reprieve_count, double floor_, double max_reprieves) {
    return score >= floor_ && reprieve_count < max_reprieves;
}

/* retention module: the eight-signal scorer, the triage bands and the
 * reprieve gate. Each expression follows the reference's JavaScript operation
 * by operation (Math.max/min via mdi_js_max/min, V8's exp and log1p, Math.round),
 * so NaN and infinities get the reference's answers without special cases. */
#include "internal.h"

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
const md_weight_profile md_weight_profiles[5] = {
    {{0.25, 0.15, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}},      /* episodic */
    {{0.05, 0.15, 0.2, 0.2, 0.15, 0.1, 0.1, 0.05}},    /* semantic */
    {{0.0, 0.2, 0.15, 0.15, 0.1, 0.2, 0.1, 0.1}},      /* procedural */
    {{0.1, 0.1, 0.15, 0.15, 0.15, 0.15, 0.1, 0.1}},    /* arc */
    {{0.2, 0.15, 0.1, 0.05, 0.05, 0.2, 0.1, 0.15}},    /* error_pattern */
};

const md_weight_profile md_default_weights = {{0.15, 0.15, 0.15, 0.15, 0.1, 0.1, 0.1, 0.1}};

/* Half-lives in md_memory_type order; 0 marks "no decay" (the reference's null). */
static const double half_lives[MD_MEMORY_TYPE_COUNT] = {10, 90, 0, 30, 14, 0, MD_DEFAULT_HALF_LIFE_DAYS};

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

md_status md_memory_types_of(const md_str *names, size_t n, uint8_t *types) {
    if (MDI_BAD_IN(names, n) || MDI_BAD_IN(types, n)) return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++) types[i] = (uint8_t)md_memory_type_of(names[i]);
    return MD_OK;
}

const md_weight_profile *md_weights_for(md_memory_type type) {
    if ((unsigned)type < 5) return &md_weight_profiles[type];
    return &md_default_weights;
}

bool md_half_life_for(md_memory_type type, double *days) {
    double h = (unsigned)type < MD_MEMORY_TYPE_COUNT ? half_lives[type] : MD_DEFAULT_HALF_LIFE_DAYS;
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

static inline const double *weights_of(md_memory_type type) {
    return ((unsigned)type < 5 ? &md_weight_profiles[type] : &md_default_weights)->weight;
}

static inline void compute_signals(const md_retention_input *in, double s[MD_SIGNAL_COUNT]) {
    double half_life = (unsigned)in->memory_type < MD_MEMORY_TYPE_COUNT ? half_lives[in->memory_type]
                                                                       : MD_DEFAULT_HALF_LIFE_DAYS;
    double recency = (half_life == 0 || in->age_days <= 0) ? 1 : md_js_exp((-MD_LN2 * in->age_days) / half_life);
    s[MD_SIGNAL_RECENCY] = clamp01(recency);
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

md_status md_compute_signals(const md_retention_input *input, md_signals *out) {
    if (!input || !out) return MD_ERR_NULL;
    compute_signals(input, out->value);
    return MD_OK;
}

md_status md_composite_score(const md_signals *signals, const md_weight_profile *profile, double *out) {
    if (!signals || !profile || !out) return MD_ERR_NULL;
    *out = composite(signals->value, profile->weight);
    return MD_OK;
}

md_triage_action md_band_for(double score) {
    if (score > MD_KEEP_THRESHOLD) return MD_ACTION_KEEP;
    if (score > MD_EVICT_THRESHOLD) return MD_ACTION_COMPRESS;
    return MD_ACTION_EVICT;
}

md_status md_score_retention(const md_retention_input *input, md_retention_score *out) {
    if (!input || !out) return MD_ERR_NULL;
    compute_signals(input, out->signals.value);
    out->score = composite(out->signals.value, weights_of(input->memory_type));
    out->action = md_band_for(out->score);
    return MD_OK;
}

md_status md_score_retention_many(const md_retention_columns *columns, double *score, uint8_t *action,
                                  double *signals) {
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
        if (c->memory_type[i] >= MD_MEMORY_TYPE_COUNT) return MD_ERR_INVALID;
    for (size_t i = 0; i < n; i++) {
        md_retention_input in = {
            (md_memory_type)c->memory_type[i], c->age_days[i], c->access_count[i], c->confidence[i],
            c->graph_rank[i], c->max_graph_rank[i], c->bridge_count[i], c->reinforcement_count[i],
            c->word_count[i], c->contradiction_count[i],
        };
        double s[MD_SIGNAL_COUNT];
        compute_signals(&in, s);
        score[i] = composite(s, weights_of(in.memory_type));
        action[i] = (uint8_t)md_band_for(score[i]);
        if (signals)
            for (int k = 0; k < MD_SIGNAL_COUNT; k++) signals[(size_t)k * n + i] = s[k];
    }
    return MD_OK;
}

double md_reprieve_score(double importance, double access_count, double outcome_score,
                         double hours_since_access, double decay_rate) {
    double imp = js_max(1, js_min(10, importance)) / 10;
    double access = md_js_log1p(js_max(0, access_count));
    double outcome = js_max(0, outcome_score);
    double recency = md_js_exp(-decay_rate * js_max(0, hours_since_access));
    return MD_REPRIEVE_W_IMPORTANCE * imp + MD_REPRIEVE_W_ACCESS * access + MD_REPRIEVE_W_OUTCOME * outcome +
           MD_REPRIEVE_W_RECENCY * recency;
}

bool md_should_reprieve(double score, double reprieve_count, double floor_, double max_reprieves) {
    return score >= floor_ && reprieve_count < max_reprieves;
}

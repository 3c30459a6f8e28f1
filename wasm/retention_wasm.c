/* Boundary for the retention module: scalar entry points taking the memory
 * type as its md_memory_type code (the glue classifies each distinct string
 * once with mdw_memory_types_of and caches the code), and the batch scorer
 * over columns already in linear memory. */
#include "boundary.h"

#include <stdlib.h>

/* The n keys of a key table -> n md_memory_type codes. */
MDW_EXPORT("mdw_memory_types_of")
int mdw_memory_types_of(const uint8_t *bytes, const uint32_t *offsets, size_t n, uint8_t *types) {
    md_str *keys = NULL;
    md_status st = mdw_keys(bytes, offsets, n, &keys);
    if (st == MD_OK) st = md_memory_types_of(keys, n, types);
    free(keys);
    return st;
}

static md_retention_input input_of(uint32_t type, double age_days, double access_count, double confidence,
                                   double graph_rank, double max_graph_rank, double bridge_count,
                                   double reinforcement_count, double word_count, double contradiction_count) {
    md_retention_input in = {
        type < MD_MEMORY_TYPE_COUNT ? (md_memory_type)type : MD_MEMORY_OTHER,
        age_days, access_count, confidence, graph_rank, max_graph_rank, bridge_count,
        reinforcement_count, word_count, contradiction_count,
    };
    return in;
}

/* The record a score comes back as (wasm/boundary.def's region scored), by double. */
enum { SCORED_SCORE = MDW_AT_scored_score / 8, SCORED_SIGNALS = MDW_AT_scored_signals / 8, SCORED_ACTION = MDW_AT_scored_action / 8 };

/* computeSignals and scoreRetention over one argument list: with score = 0
 * the eight signals to out[0..8), returning the status; with score = 1 the
 * score and the signals as the region scored lays them out (no action),
 * returning the action code. */
MDW_EXPORT("mdw_retention")
int mdw_retention(bool score, uint32_t type, double age_days, double access_count, double confidence,
                  double graph_rank, double max_graph_rank, double bridge_count, double reinforcement_count,
                  double word_count, double contradiction_count, double *out) {
    md_retention_input in = input_of(type, age_days, access_count, confidence, graph_rank, max_graph_rank,
                                     bridge_count, reinforcement_count, word_count, contradiction_count);
    if (!score) return md_compute_signals(&in, (md_signals *)out);
    md_retention_score r;
    md_score_retention(&in, &r);
    out[SCORED_SCORE] = r.score;
    for (int k = 0; k < MD_SIGNAL_COUNT; k++) out[SCORED_SIGNALS + k] = r.signals.value[k];
    return (int)r.action;
}

/* compositeScore over 8 signals and 8 weights. */
MDW_EXPORT("mdw_composite_score")
double mdw_composite_score(const double *signals, const double *weights) {
    double out = 0;
    md_composite_score((const md_signals *)signals, (const md_weight_profile *)weights, &out);
    return out;
}

/* The batch scorer with its columns as separate pointers (no struct layout
 * shared with the glue). */
MDW_EXPORT("mdw_score_retention_many")
int mdw_score_retention_many(size_t n, const uint8_t *memory_type, const double *age_days,
                             const double *access_count, const double *confidence, const double *graph_rank,
                             const double *max_graph_rank, const double *bridge_count,
                             const double *reinforcement_count, const double *word_count,
                             const double *contradiction_count, double *score, uint8_t *action,
                             double *signals) {
    md_retention_columns c = {
        n, memory_type, age_days, access_count, confidence, graph_rank, max_graph_rank,
        bridge_count, reinforcement_count, word_count, contradiction_count,
    };
    return md_score_retention_many(&c, score, action, signals);
}

/* A policy as the glue lays it out: n_classes md_retention_class records (8
 * weights, then the half-life; 9 doubles each, the struct's own layout), then
 * keep_threshold and evict_threshold. */
_Static_assert(sizeof(md_retention_class) == 9 * sizeof(double), "md_retention_class is 9 doubles");
_Static_assert(MDW_AT_retention_policy_keep == sizeof(md_retention_class) &&
                   MDW_AT_retention_policy_evict == MDW_AT_retention_policy_keep + sizeof(double),
               "region retention_policy: one class record, then the thresholds as policy_of reads them");
static md_retention_policy policy_of(const double *flat, size_t n_classes) {
    md_retention_policy p = {
        (const md_retention_class *)flat, n_classes, flat[9 * n_classes], flat[9 * n_classes + 1],
    };
    return p;
}

/* scoreRetention under a one-class policy (the glue resolves the memory's
 * type to its class): out is the region scored (the action as a double).
 * Returns an md_status. */
MDW_EXPORT("mdw_score_retention_policy")
int mdw_score_retention_policy(const double *policy, double age_days, double access_count, double confidence,
                               double graph_rank, double max_graph_rank, double bridge_count,
                               double reinforcement_count, double word_count, double contradiction_count,
                               double *out) {
    md_retention_policy p = policy_of(policy, 1);
    md_retention_input in = input_of(0, age_days, access_count, confidence, graph_rank, max_graph_rank,
                                     bridge_count, reinforcement_count, word_count, contradiction_count);
    md_retention_score r;
    md_status st = md_score_retention_policy(&in, &p, &r);
    if (st != MD_OK) return st;
    out[SCORED_SCORE] = r.score;
    for (int k = 0; k < MD_SIGNAL_COUNT; k++) out[SCORED_SIGNALS + k] = r.signals.value[k];
    out[SCORED_ACTION] = (double)r.action;
    return MD_OK;
}

/* The batch scorer under a policy of n_classes classes (laid out as above);
 * memory_type holds class codes. */
MDW_EXPORT("mdw_score_retention_many_policy")
int mdw_score_retention_many_policy(size_t n, const uint8_t *memory_type, const double *age_days,
                                    const double *access_count, const double *confidence,
                                    const double *graph_rank, const double *max_graph_rank,
                                    const double *bridge_count, const double *reinforcement_count,
                                    const double *word_count, const double *contradiction_count, double *score,
                                    uint8_t *action, double *signals, const double *policy, size_t n_classes) {
    if (!policy) return MD_ERR_NULL;
    md_retention_columns c = {
        n, memory_type, age_days, access_count, confidence, graph_rank, max_graph_rank,
        bridge_count, reinforcement_count, word_count, contradiction_count,
    };
    md_retention_policy p = policy_of(policy, n_classes);
    return md_score_retention_many_policy(&c, &p, score, action, signals);
}

/* Boundary for the decay module: folds return their f64 result directly;
 * a fold that cannot answer promptly returns NaN with the error record
 * naming the count argument (its index in the signature table). */
#include "boundary.h"

#include <math.h>

/* A fold refuses only a count the reference's loop never finishes. */
static const char *const ENDLESS =
    "never ends (infinite, or beyond 2^53), and the value does not settle within 2^26 steps: the reference never returns";

static double value_or_fail(md_status st, double v, int arg, const char *msg) {
    if (st == MD_OK) return v;
    mdw_fail(st, arg, msg);
    return NAN;
}

MDW_EXPORT("mdw_apply_outcomes_fp")
double mdw_apply_outcomes_fp(double alpha_fp, double prev_fp, const double *signals, size_t n) {
    double v = 0;
    return value_or_fail(md_apply_outcomes_fp(alpha_fp, prev_fp, signals, n, &v), v, MDW_ARG_apply_outcomes_fp_signals, NULL);
}

MDW_EXPORT("mdw_apply_negative_hits_fp")
double mdw_apply_negative_hits_fp(double alpha_fp, double prev_fp, double hits) {
    double v = 0;
    md_status st = md_apply_negative_hits_fp(alpha_fp, prev_fp, hits, &v);
    return value_or_fail(st, v, MDW_ARG_apply_negative_hits_fp_hits, "is not a valid array length");
}

MDW_EXPORT("mdw_decay_confidence_n_fp")
double mdw_decay_confidence_n_fp(double alpha_fp, double conf_fp, double floor_fp, double cycles) {
    double v = 0;
    return value_or_fail(md_decay_confidence_n_fp(alpha_fp, conf_fp, floor_fp, cycles, &v), v, MDW_ARG_decay_confidence_n_fp_cycles, ENDLESS);
}

MDW_EXPORT("mdw_decay_confidence_n")
double mdw_decay_confidence_n(double confidence, double cycles, double alpha, double floor_) {
    double v = 0;
    return value_or_fail(md_decay_confidence_n(confidence, cycles, alpha, floor_, &v), v, MDW_ARG_decay_confidence_n_cycles, ENDLESS);
}

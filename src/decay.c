/* decay module: the fixed-point grid, the outcome EWMA and confidence decay.
 * Values are JavaScript numbers (doubles); "integer" arithmetic is double
 * arithmetic exactly as the reference performs it. */
#include "internal.h"

#include <math.h>

#define S ((double)MD_SCALE)

double md_to_fp(double value) { return md_js_round(value * S); }

double md_from_fp(double value_fp) { return value_fp / S; }

double md_ewma_step_fp(double alpha_fp, double prev_fp, double signal_fp) {
    return floor((alpha_fp * signal_fp + (S - alpha_fp) * prev_fp) / S);
}

md_status md_apply_outcomes_fp(double alpha_fp, double prev_fp, const double *signals, size_t n,
                               double *out) {
    if (MDI_BAD_IN(signals, n) || !out) return MD_ERR_NULL;
    double v = prev_fp;
    for (size_t i = 0; i < n; i++) v = md_ewma_step_fp(alpha_fp, v, signals[i]);
    *out = v;
    return MD_OK;
}

/* ---- folding a step a JavaScript-counted number of times ---- */

/* Object.is-style identity of two states (any NaN equals any NaN). */
static inline bool same(double a, double b) {
    if (a != a || b != b) return a != a && b != b;
    return a == b && signbit(a) == signbit(b);
}

static inline double neg_hit_step(double alpha, double x) { return md_ewma_step_fp(alpha, x, MD_NEG_ONE_FP); }

/* The reference loops `times` times with no early exit. A finite count is
 * always followed to the end (no step budget: the reference returns, so we
 * do), but once the state repeats the rest of the loop is known: a fixed point
 * stays put, a cycle of length lam repeats. Steps are inlined (no call per
 * step), so a fold that never settles runs at a few ns per step natively. */

/* decayConfidenceFp is min(x, ...): the states never increase, so the only
 * repetition is a fixed point and comparing with the previous state finds it.
 * `times` is a whole number of steps (<= 2^53) or infinite. */
static bool fold_decay(double alpha, double x0, double floor_fp, double times, double *out) {
    double v = x0;
    if (!(times > 0)) { *out = v; return true; }
    if (isinf(times)) {
        /* The reference never returns; a value that settles is still the only
         * answer it could converge to, so give it when it comes promptly. */
        for (uint64_t k = 0; k < (uint64_t)MD_FOLD_BUDGET; k++) {
            double nx = md_decay_confidence_fp(alpha, v, floor_fp);
            if (same(nx, v)) { *out = v; return true; }
            v = nx;
        }
        return false;
    }
    uint64_t n = (uint64_t)times;
    for (uint64_t k = 0; k < n; k++) {
        double nx = md_decay_confidence_fp(alpha, v, floor_fp);
        if (same(nx, v)) break;
        v = nx;
    }
    *out = v;
    return true;
}

/* ewmaStepFp toward NEG_ONE_FP can cycle (an alpha outside [0, SCALE]
 * overshoots), so Brent's cycle detection: x[i] == x[i - lam] means the states
 * repeat with period lam from i - lam on, and the answer is read off the cycle.
 * `times` is a whole number below 2^32 (the reference's array length). */
static double fold_neg_hits(double alpha, double x0, uint64_t times) {
    if (times == 0) return x0;
    double tortoise = x0, hare = neg_hit_step(alpha, x0);
    uint64_t i = 1, power = 1, lam = 1; /* i: the hare's index */
    while (!same(tortoise, hare)) {
        if (i >= times) return hare;
        if (power == lam) { tortoise = hare; power *= 2; lam = 0; }
        hare = neg_hit_step(alpha, hare);
        i++;
        lam++;
    }
    if (lam == 1) return hare; /* a fixed point */
    uint64_t left = (times - (i - lam)) % lam;
    double v = tortoise;
    for (uint64_t k = 0; k < left; k++) v = neg_hit_step(alpha, v);
    return v;
}

/* The number of times `for (let i = 0; i < n; i++)` runs; infinite when the
 * loop never ends (n infinite, or beyond 2^53 where i++ stops moving). */
static double loop_count(double n) {
    if (!(n > 0)) return 0;
    if (n > 9007199254740992.0) return INFINITY;
    return ceil(n);
}

md_status md_apply_negative_hits_fp(double alpha_fp, double prev_fp, double hits, double *out) {
    if (!out) return MD_ERR_NULL;
    if (hits <= 0 || isnan(hits)) { *out = prev_fp; return MD_OK; }
    /* Array.from({ length: hits }): ToLength truncates, and an array length
     * from 2^32 on is a RangeError in JavaScript. */
    double len = trunc(hits);
    if (len >= 4294967296.0) return MD_ERR_RANGE;
    *out = fold_neg_hits(alpha_fp, prev_fp, (uint64_t)len);
    return MD_OK;
}

double md_decay_confidence_fp(double alpha_fp, double conf_fp, double floor_fp) {
    return mdi_js_min(conf_fp, md_ewma_step_fp(alpha_fp, conf_fp, floor_fp));
}

md_status md_decay_confidence_n_fp(double alpha_fp, double conf_fp, double floor_fp, double cycles,
                                   double *out) {
    if (!out) return MD_ERR_NULL;
    return fold_decay(alpha_fp, conf_fp, floor_fp, loop_count(cycles), out) ? MD_OK : MD_ERR_RANGE;
}

double md_decay_confidence(double confidence, double alpha, double floor_) {
    return md_from_fp(md_decay_confidence_fp(md_to_fp(alpha), md_to_fp(confidence), md_to_fp(floor_)));
}

md_status md_decay_confidence_n(double confidence, double cycles, double alpha, double floor_,
                                double *out) {
    if (!out) return MD_ERR_NULL;
    double v;
    md_status st = md_decay_confidence_n_fp(md_to_fp(alpha), md_to_fp(confidence), md_to_fp(floor_),
                                            cycles, &v);
    if (st != MD_OK) return st;
    *out = md_from_fp(v);
    return MD_OK;
}

bool md_is_committable_confidence_change(double before, double after) {
    return fabs(before - after) >= MD_CONFIDENCE_COMMIT_DELTA;
}

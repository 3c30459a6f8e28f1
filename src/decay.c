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

typedef struct fold_ctx {
    double alpha, arg; /* the step's fixed arguments */
    double (*step)(const struct fold_ctx *c, double x);
} fold_ctx;

static double neg_hit_step(const fold_ctx *c, double x) { return md_ewma_step_fp(c->alpha, x, MD_NEG_ONE_FP); }
static double decay_step(const fold_ctx *c, double x) { return md_decay_confidence_fp(c->alpha, x, c->arg); }

/* Object.is-style identity of two states (any NaN equals any NaN). */
static bool same(double a, double b) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return a == b && signbit(a) == signbit(b);
}

/* Apply the step `times` times (a whole number >= 0, possibly infinite).
 * Brent's cycle detection stops as soon as the states repeat, so a fixed point
 * or a cycle answers in time proportional to its length, not to `times`.
 * Returns false when no answer can be given promptly: `times` is infinite and
 * the states cycle without settling, or more than MD_FOLD_BUDGET steps would
 * be needed (the reference would run that long, or forever). */
static bool fold(const fold_ctx *c, double x0, double times, double *out) {
    if (times <= 0) { *out = x0; return true; }
    if (times <= 64) { /* short folds: the plain loop is cheaper than watching for a cycle */
        double v = x0;
        for (double k = 0; k < times; k++) v = c->step(c, v);
        *out = v;
        return true;
    }
    double tortoise = x0, hare = c->step(c, x0);
    double i = 1; /* the hare's index */
    double power = 1, lam = 1;
    while (!same(tortoise, hare)) {
        if (i >= times) { *out = hare; return true; }
        if (i >= MD_FOLD_BUDGET) return false;
        if (power == lam) { tortoise = hare; power *= 2; lam = 0; }
        hare = c->step(c, hare);
        i += 1;
        lam += 1;
    }
    /* x[i] == x[i - lam]: periodic with period lam from index i - lam on. */
    if (lam == 1) { *out = hare; return true; } /* a fixed point */
    if (isinf(times)) return false;
    double start = i - lam;
    double left = fmod(times - start, lam);
    double v = tortoise;
    for (double k = 0; k < left; k++) v = c->step(c, v);
    *out = v;
    return true;
}


md_status md_apply_negative_hits_fp(double alpha_fp, double prev_fp, double hits, double *out) {
    if (!out) return MD_ERR_NULL;
    if (hits <= 0 || isnan(hits)) { *out = prev_fp; return MD_OK; }
    /* Array.from({ length: hits }): ToLength truncates, and an array length
     * from 2^32 on is a RangeError in JavaScript. */
    double len = trunc(hits);
    if (len >= 4294967296.0) return MD_ERR_RANGE;
    fold_ctx c = {alpha_fp, 0, neg_hit_step};
    return fold(&c, prev_fp, len, out) ? MD_OK : MD_ERR_RANGE;
}

double md_decay_confidence_fp(double alpha_fp, double conf_fp, double floor_fp) {
    return mdi_js_min(conf_fp, md_ewma_step_fp(alpha_fp, conf_fp, floor_fp));
}

md_status md_decay_confidence_n_fp(double alpha_fp, double conf_fp, double floor_fp, double cycles,
                                   double *out) {
    if (!out) return MD_ERR_NULL;
    fold_ctx c = {alpha_fp, floor_fp, decay_step};
    return fold(&c, conf_fp, mdi_js_loop_count(cycles), out) ? MD_OK : MD_ERR_RANGE;
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

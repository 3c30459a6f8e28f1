/* mmr: md_apply_mmr against a naive transcription of the design (every
 * round recomputes every penalty from scratch, O(k^2 n) cosines), the packed
 * form against the candidate form, and the shortcuts. */
#include "check.h"
#include "memdomain.h"

#include <stdlib.h>

static check_rng rng = {77};

static double jsmax(double a, double b) {
    if (isnan(a) || isnan(b)) return NAN;
    if (a == 0 && b == 0) return signbit(a) ? b : a;
    return a > b ? a : b;
}

static size_t slice_len(size_t len, double end) {
    if (isnan(end)) return 0;
    double t = trunc(end);
    if (t < 0) return (double)len + t <= 0 ? 0 : (size_t)((double)len + t);
    return t >= (double)len ? len : (size_t)t;
}

static size_t naive(const md_mmr_candidate *c, size_t n, double limit, double lambda, size_t *out) {
    if (limit <= 0) return 0;
    if (lambda >= 1 || n <= 1) {
        size_t k = slice_len(n, limit);
        for (size_t i = 0; i < k; i++) out[i] = i;
        return k;
    }
    char *taken = calloc(n + 1, 1);
    size_t count = 0;
    while ((double)count < limit && count < n) {
        size_t best = SIZE_MAX;
        double best_value = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            if (taken[i]) continue;
            if (best == SIZE_MAX) best = i; /* the first remaining when none compares greater */
            double penalty = 0;
            for (size_t s = 0; s < count; s++) {
                const md_mmr_candidate *p = &c[out[s]];
                if (!c[i].has_vector || !p->has_vector) continue;
                double sim;
                md_cosine(c[i].vector, c[i].len, p->vector, p->len, &sim);
                penalty = jsmax(penalty, sim);
            }
            double value = lambda * c[i].score - (1 - lambda) * penalty;
            if (value > best_value) { best_value = value; best = i; }
        }
        taken[best] = 1;
        out[count++] = best;
    }
    free(taken);
    return count;
}

static const double LIMITS[] = {0, 1, 2, 3, 5, 50, 2.5, 0.5, -1, NAN, INFINITY};
static const double LAMBDAS[] = {0, 0.25, 0.5, 0.7, 1, 1.5, -1, NAN};

static void test_random(void) {
    for (int iter = 0; iter < check_iters(1500); iter++) {
        /* a third of the runs draw from tiny value sets: many exact ties in
         * scores, cosines and values, where the first-index rule decides */
        int tiny = iter % 3 == 0;
        size_t n = rng_below(&rng, tiny ? 60 : 30), d = tiny ? 1 + rng_below(&rng, 3) : rng_below(&rng, 10);
        int ragged = rng_below(&rng, 4) == 0, vectorless = rng_below(&rng, 3) == 0;
        double *data = malloc((n * (d + 2) + 1) * sizeof(double));
        md_mmr_candidate *c = malloc((n + 1) * sizeof(md_mmr_candidate));
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            size_t len = ragged ? d + rng_below(&rng, 3) : d;
            c[i].score = (tiny || rng_below(&rng, 4) == 0) ? (double)rng_below(&rng, 3) / 2 : rng_unit(&rng);
            if (rng_below(&rng, 40) == 0) c[i].score = NAN;
            c[i].has_vector = !(vectorless && rng_below(&rng, 3) == 0);
            c[i].vector = data + at;
            c[i].len = c[i].has_vector ? len : 0;
            for (size_t k = 0; k < c[i].len; k++) {
                data[at + k] = tiny ? (double)rng_below(&rng, 3) - 1
                               : rng_below(&rng, 3) == 0 ? (double)(int)rng_range(&rng, -3, 4) : rng_range(&rng, -1, 1);
                if (rng_below(&rng, 200) == 0) data[at + k] = NAN;
            }
            if (i > 0 && rng_below(&rng, 5) == 0 && c[i - 1].has_vector && c[i].has_vector && c[i - 1].len == c[i].len)
                for (size_t k = 0; k < c[i].len; k++) data[at + k] = c[i - 1].vector[k];
            at += c[i].len;
        }
        double limit = LIMITS[rng_below(&rng, 11)], lambda = LAMBDAS[rng_below(&rng, 8)];
        if (rng_below(&rng, 2)) lambda = tiny ? (double)rng_below(&rng, 5) / 4 - 0.25 : rng_unit(&rng);
        if (rng_below(&rng, 50) == 0) lambda = -1e308; /* huge values: +-infinity, never NaN */
        size_t *want = malloc((n + 1) * sizeof(size_t)), *got = malloc((n + 1) * sizeof(size_t));
        size_t nw = naive(c, n, limit, lambda, want), ng = 99;
        CHECK(md_apply_mmr(c, n, limit, lambda, got, &ng) == MD_OK);
        CHECK(ng == nw);
        for (size_t i = 0; i < nw && i < ng; i++) CHECK(got[i] == want[i]);
        if (!ragged && !vectorless) {
            double *scores = malloc((n + 1) * sizeof(double)), *m = malloc((n * d + 1) * sizeof(double));
            for (size_t i = 0; i < n; i++) {
                scores[i] = c[i].score;
                for (size_t k = 0; k < d; k++) m[i * d + k] = c[i].vector[k];
            }
            CHECK(md_apply_mmr_packed(scores, m, n, d, limit, lambda, got, &ng) == MD_OK);
            CHECK(ng == nw);
            for (size_t i = 0; i < nw && i < ng; i++) CHECK(got[i] == want[i]);
            free(scores);
            free(m);
        }
        free(want); free(got); free(c); free(data);
    }
}

static void test_errors(void) {
    size_t out[2], len = 5;
    md_mmr_candidate c[2] = {{1, NULL, 3, true}, {0.5, NULL, 0, false}};
    CHECK(md_apply_mmr(c, 2, 2, 0.5, out, NULL) == MD_ERR_NULL);
    CHECK(md_apply_mmr(c, 2, 2, 0.5, out, &len) == MD_ERR_NULL && len == 0);
    CHECK(md_apply_mmr(NULL, 0, 2, 0.5, NULL, &len) == MD_OK && len == 0);
    CHECK(md_apply_mmr_packed(NULL, NULL, SIZE_MAX / 2, 4, 1, 0.5, out, &len) == MD_ERR_RANGE);
}

/* The rule every MMR form asks: lambda >= 1 or n <= 1 keeps the input order. */
static void test_reorders(void) {
    CHECK(md_mmr_reorders(0.5, 2) && md_mmr_reorders(0.999, 1e9) && md_mmr_reorders(-INFINITY, 3));
    CHECK(md_mmr_reorders(NAN, 2)); /* NaN >= 1 is false: the rounds run */
    CHECK(!md_mmr_reorders(1, 2) && !md_mmr_reorders(INFINITY, 2) && !md_mmr_reorders(2, 50));
    CHECK(!md_mmr_reorders(0.5, 1) && !md_mmr_reorders(0.5, 0) && !md_mmr_reorders(0.5, NAN));
    /* and md_apply_mmr keeps the input order exactly when it says so */
    double v[6] = {1, 0, 0.9, 0.1, 0, 1};
    md_mmr_candidate c[3] = {{0.1, v, 2, true}, {0.9, v + 2, 2, true}, {0.5, v + 4, 2, true}};
    size_t out[3], len = 0;
    CHECK(md_apply_mmr(c, 3, 3, 1, out, &len) == MD_OK && len == 3 && out[0] == 0 && out[1] == 1 && out[2] == 2);
    CHECK(md_apply_mmr(c, 3, 3, 0.5, out, &len) == MD_OK && len == 3 && out[0] == 1);
}

int main(void) {
    test_reorders();
    test_random();
    test_errors();
    return check_report("test_mmr");
}

/* Resident rows: the pruned top-k (forced, and as chosen automatically) and
 * the resident 1 x n arm against the unpruned exact path over a plain copy
 * of the same matrix (md_top_cosine_rows_f32 / md_cosine_rows_f32), bit for
 * bit, over thousands of seeds of random, clustered, duplicated-row and
 * adversarial inputs (near-ties at the threshold, constant vectors, NaN,
 * infinite and zero rows, NaN and zero queries, k = 0, k >= n, n = 0,
 * d = 1), through appends, overwrites and removals. The filter's bound is
 * also checked directly: lb <= exact <= ub on every row. */
#include "check.h"
#include "filter.h"
#include "kernels.h"
#include "memdomain.h"
#include "rows.h"

#include <float.h>
#include <stdlib.h>

static check_rng rng = {16};
#include "vectors.h"

static const size_t DIMS[] = {1, 2, 3, 7, 16, 17, 31, 33, 64, 100, 384};
#define NDIMS (sizeof DIMS / sizeof DIMS[0])

static size_t pruned_runs; /* queries that actually pruned (the property is not vacuous) */

/* Every form of the top-k query against the unpruned exact path. */
static void check_queries(const md_rows *r, const float *m, size_t n, size_t d, int kind) {
    float *q = malloc(d * sizeof(float));
    size_t ks[] = {0, 1, 2, 5, 50, n ? n - 1 : 0, n, n + 3, rng_below(&rng, n + 1)};
    size_t kmax = n + 3;
    size_t *want_idx = malloc((kmax + 1) * sizeof(size_t));
    double *want = malloc((kmax + 1) * sizeof(double)), *got = malloc((kmax + 1) * sizeof(double));
    uint32_t *got_idx = malloc((kmax + 1) * sizeof(uint32_t));
    double *all = malloc((n + 1) * sizeof(double)), *all2 = malloc((n + 1) * sizeof(double));
    for (int qn = 0; qn < 2; qn++) {
        make_query(q, m, n, d, kind);
        CHECK(md_cosine_rows_f32(q, m, n, d, all) == MD_OK);
        CHECK(md_rows_cosine(r, q, all2) == MD_OK);
        for (size_t j = 0; j < n; j++) CHECK_SAME(all2[j], all[j]);
        size_t k = ks[rng_below(&rng, sizeof ks / sizeof ks[0])];
        size_t wl, keep = k < n ? k : n;
        CHECK(md_top_cosine_rows_f32(q, m, n, d, k, want_idx, want, &wl) == MD_OK);
        CHECK(wl == keep);
        for (int mode = 0; mode < 3; mode++) {
            size_t gl = 99;
            mdi_top_stats st;
            CHECK(mdi_rows_top_cosine(r, q, k, got_idx, got, &gl, mode, &st) == MD_OK);
            CHECK(gl == keep);
            if (gl != keep) continue;
            for (size_t i = 0; i < keep; i++) {
                CHECK(got_idx[i] == want_idx[i]);
                CHECK_SAME(got[i], want[i]);
            }
            if (mode == MDI_TOP_PRUNED && st.pruned) pruned_runs++;
            if (mode == MDI_TOP_EXACT) CHECK(!st.pruned);
        }
    }
    free(q); free(want_idx); free(want); free(got); free(got_idx); free(all); free(all2);
}

static void test_queries(void) {
    for (int seed = 0, seeds = check_iters(2500); seed < seeds; seed++) {
        int kind = (int)rng_below(&rng, KINDS);
        size_t d = DIMS[rng_below(&rng, NDIMS)];
        if (rng_below(&rng, 3) == 0) d = 16 + rng_below(&rng, 80);
        size_t n = rng_below(&rng, 5) == 0 ? rng_below(&rng, 4) : rng_below(&rng, d > 100 ? 120 : 400);
        float *m = malloc((n * d + 1) * sizeof(float));
        make_rows(m, n, d, kind);
        md_rows *r;
        CHECK(md_rows_new(d, &r) == MD_OK);
        /* appended in one go, or in pieces */
        size_t at = 0;
        while (at < n) {
            size_t c = rng_below(&rng, 3) == 0 ? n - at : 1 + rng_below(&rng, n - at);
            CHECK(md_rows_append(r, m + at * d, c) == MD_OK);
            at += c;
        }
        CHECK(md_rows_append(r, NULL, 0) == MD_OK);
        CHECK(md_rows_count(r) == n && md_rows_dim(r) == d);
        check_queries(r, m, n, d, kind);
        md_rows_free(r);
        free(m);
    }
    printf("pruned queries checked: %zu\n", pruned_runs);
    CHECK(pruned_runs > (size_t)check_iters(2500) * 3 / 5);
}

/* Updates keep the handle equal to a plain copy of the same rows. */
static void test_updates(void) {
    for (int seed = 0, seeds = check_iters(300); seed < seeds; seed++) {
        int kind = (int)rng_below(&rng, KINDS);
        size_t d = 16 + rng_below(&rng, 50), cap = 400;
        float *m = malloc(cap * d * sizeof(float)), *fresh = malloc(d * sizeof(float));
        size_t n = 100 + rng_below(&rng, 200);
        make_rows(m, n, d, kind);
        md_rows *r;
        CHECK(md_rows_new(d, &r) == MD_OK);
        CHECK(md_rows_append(r, m, n) == MD_OK);
        for (int op = 0; op < 20; op++) {
            size_t i = n ? rng_below(&rng, n) : 0;
            switch (rng_below(&rng, 5)) {
            case 4: /* insert in place */
                if (n + 3 > cap) break;
                {
                    size_t c = 1 + rng_below(&rng, 3), at = rng_below(&rng, n + 1);
                    memmove(m + (at + c) * d, m + at * d, (n - at) * d * sizeof(float));
                    make_rows(m + at * d, c, d, kind);
                    CHECK(md_rows_insert(r, at, m + at * d, c) == MD_OK);
                    n += c;
                }
                break;
            case 0: /* overwrite */
                if (!n) break;
                make_rows(fresh, 1, d, kind);
                CHECK(md_rows_set(r, i, fresh) == MD_OK);
                memcpy(m + i * d, fresh, d * sizeof(float));
                break;
            case 1: /* order-preserving removal */
                if (!n) break;
                CHECK(md_rows_remove(r, i) == MD_OK);
                memmove(m + i * d, m + (i + 1) * d, (n - i - 1) * d * sizeof(float));
                n--;
                break;
            case 2: /* swap removal */
                if (!n) break;
                CHECK(md_rows_swap_remove(r, i) == MD_OK);
                if (i != n - 1) memcpy(m + i * d, m + (n - 1) * d, d * sizeof(float));
                n--;
                break;
            default: /* append */
                if (n + 5 > cap) break;
                make_rows(m + n * d, 5, d, kind);
                CHECK(md_rows_append(r, m + n * d, 5) == MD_OK);
                n += 5;
            }
        }
        CHECK(md_rows_count(r) == n);
        CHECK(n == 0 || memcmp(md_rows_data(r), m, n * d * sizeof(float)) == 0);
        check_queries(r, m, n, d, kind);
        md_rows_free(r);
        free(m);
        free(fresh);
    }
}

/* The bound itself: for random rows and queries, lb <= the exact cosine <= ub
 * (the bound derived in filter.h, recomputed here in double from the
 * quantized integers, and the float arithmetic the pass uses). */
static void test_bound(void) {
    for (int iter = 0, iters = check_iters(400); iter < iters; iter++) {
        size_t d = 16 + rng_below(&rng, 400), dp = mdi_filter_dp(d);
        int kind = (int)rng_below(&rng, KINDS);
        float *x = malloc(d * sizeof(float)), *q = malloc(d * sizeof(float));
        make_rows(x, 1, d, kind);
        make_rows(q, 1, d, kind == NEAR_TIES ? NEAR_TIES : RANDOM);
        int8_t *a = malloc(dp);
        int16_t *b = malloc(dp * sizeof(int16_t));
        float wx, rx, vq, rq;
        double sx = mdi_sum_sq_f32(x, d), sq = mdi_sum_sq_f32(q, d);
        bool fx = mdi_quantize(x, d, dp, sx, 8, 0, a, &wx, &rx);
        bool fq = mdi_quantize(q, d, dp, sq, 16, mdi_q8_query_cap2(d), b, &vq, &rq);
        double exact;
        md_cosine_f32(q, d, x, d, &exact);
        if (!fq) continue; /* a flagged query never prunes */
        int32_t I;
        mdi_q8_dots_scalar(b, a, 1, dp, &I);
        const float alpha = mdi_float_up(1.0 + (double)rq), beta = mdi_float_up((double)rq + (double)MDI_FILTER_MARGIN);
        const float e = (float)I * (wx * vq), sl = rx * alpha + beta;
        CHECK(e + sl >= exact);
        CHECK(e - sl <= exact);
        if (fx) CHECK(rx <= 0.5f && sl < 0.1f); /* and it is tight enough to prune */
        else CHECK(exact == 0); /* a flagged row's cosine is 0 */
        free(x); free(q); free(a); free(b);
    }
}

static void test_errors(void) {
    md_rows *r = NULL;
    float row[4] = {1, 2, 3, 4};
    uint32_t idx[2];
    double sims[2], out[2];
    size_t len = 7;
    CHECK(md_rows_new(0, &r) == MD_ERR_RANGE && r == NULL);
    CHECK(md_rows_new(4, NULL) == MD_ERR_NULL);
    CHECK(md_rows_new(4, &r) == MD_OK);
    CHECK(md_rows_append(NULL, row, 1) == MD_ERR_NULL);
    CHECK(md_rows_append(r, NULL, 1) == MD_ERR_NULL);
    CHECK(md_rows_append(r, row, SIZE_MAX) == MD_ERR_RANGE);
    CHECK(md_rows_set(r, 0, row) == MD_ERR_RANGE);
    CHECK(md_rows_remove(r, 0) == MD_ERR_RANGE);
    CHECK(md_rows_swap_remove(r, 0) == MD_ERR_RANGE);
    CHECK(md_rows_insert(r, 1, row, 1) == MD_ERR_RANGE);
    CHECK(md_rows_insert(r, 0, NULL, 1) == MD_ERR_NULL);
    CHECK(md_rows_insert(r, 0, NULL, 0) == MD_OK);
    CHECK(md_rows_top_cosine(r, row, 5, idx, sims, &len) == MD_OK && len == 0);
    CHECK(md_rows_append(r, row, 1) == MD_OK);
    CHECK(md_rows_set(r, 0, NULL) == MD_ERR_NULL);
    CHECK(md_rows_top_cosine(r, NULL, 1, idx, sims, &len) == MD_ERR_NULL);
    CHECK(md_rows_top_cosine(r, row, 1, NULL, sims, &len) == MD_ERR_NULL);
    CHECK(md_rows_top_cosine(r, row, 1, idx, sims, NULL) == MD_ERR_NULL);
    CHECK(md_rows_top_cosine(r, row, 1, idx, sims, &len) == MD_OK && len == 1 && idx[0] == 0 && sims[0] == 1);
    CHECK(md_rows_cosine(r, row, NULL) == MD_ERR_NULL);
    CHECK(md_rows_cosine(NULL, row, out) == MD_ERR_NULL);
    CHECK(md_rows_count(NULL) == 0 && md_rows_dim(NULL) == 0 && md_rows_data(NULL) == NULL);
    md_rows_free(r);
    md_rows_free(NULL);
}

int main(void) {
    printf("kernel variant: %s\n", mdi_kernel_isa());
    test_errors();
    test_bound();
    test_queries();
    test_updates();
    return check_report("test_rows");
}

/* Every kernel variant this CPU runs (scalar twin, baseline SIMD, AVX2+FMA,
 * AVX-512, as compiled in) against the scalar twin and against a naive
 * transcription, bit for bit: exact kernels on random and adversarial data
 * (NaN, infinities, subnormals, zero vectors, dims that are not a multiple
 * of any block), filter kernels on random and extreme integers (the sums
 * wrap modulo 2^32 identically). The batch entry points (which run the
 * selected variant) are held to md_cosine_f32. */
#include "check.h"
#include "kernels.h"
#include "memdomain.h"

#include <float.h>
#include <stdlib.h>

static check_rng rng = {20261130};

/* A float: mostly ordinary, sometimes adversarial. */
static float pick_float(int adversarial) {
    if (adversarial) {
        switch (rng_below(&rng, 12)) {
        case 0: return NAN;
        case 1: return INFINITY;
        case 2: return -INFINITY;
        case 3: return 1e-45f;                 /* smallest subnormal */
        case 4: return -3e-39f;                /* subnormal */
        case 5: return 0.0f;
        case 6: return -0.0f;
        case 7: return FLT_MAX;
        case 8: return -FLT_MAX / 3;
        case 9: return 1.17549435e-38f;        /* FLT_MIN */
        default: break;
        }
    }
    return (float)rng_range(&rng, -2, 2);
}

static void fill(float *v, size_t n, int mode) {
    for (size_t i = 0; i < n; i++) v[i] = pick_float(mode == 1 && rng_below(&rng, 4) == 0);
    if (mode == 2) for (size_t i = 0; i < n; i++) v[i] = 0; /* a zero vector */
    if (mode == 3) for (size_t i = 0; i < n; i++) v[i] = (float)rng_range(&rng, -1, 1) * 1e-41f; /* all subnormal */
}

static const size_t DIMS[] = {0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 384};
#define NDIMS (sizeof DIMS / sizeof DIMS[0])

static void test_block(const mdi_kernels *K) {
    const size_t P = K->p, R = K->r;
    for (int iter = 0; iter < check_iters(300); iter++) {
        size_t d = DIMS[rng_below(&rng, NDIMS)];
        size_t r = 1 + rng_below(&rng, R), cnt = 1 + rng_below(&rng, P);
        int mode = (int)rng_below(&rng, 4);
        float *a32 = malloc((R * d + 1) * sizeof(float)), *b32 = malloc((P * d + 1) * sizeof(float));
        double *a = malloc((R * d + 1) * sizeof(double)), *panel = malloc((P * d + 1) * sizeof(double));
        double o1[MDI_RMAX * MDI_PMAX], o2[MDI_RMAX * MDI_PMAX];
        fill(a32, R * d, mode);
        fill(b32, P * d, (int)rng_below(&rng, 4));
        for (size_t i = 0; i < R * d; i++) a[i] = (double)a32[i];
        mdi_pack_panel_f32(P, b32, d, cnt, d, panel);
        for (int exact = 0; exact < 2; exact++) {
            mdi_block_scalar(P, a, d, r, panel, d, o1);
            K->block(a, d, r, panel, d, o2, exact);
            for (size_t i = 0; i < r; i++)
                for (size_t p = 0; p < cnt; p++) {
                    double want = 0;
                    for (size_t k = 0; k < d; k++) want += (double)a32[i * d + k] * (double)b32[p * d + k];
                    CHECK_SAME(o1[i * P + p], want);
                    CHECK_SAME(o2[i * P + p], want);
                }
        }
        /* doubles that are not widened floats: products round, so no FMA (exact = 0) */
        for (size_t i = 0; i < R * d; i++) a[i] = rng_range(&rng, -3, 3);
        double *b = malloc((P * d + 1) * sizeof(double));
        for (size_t i = 0; i < P * d; i++) b[i] = rng_range(&rng, -3, 3);
        mdi_pack_panel_f64(P, b, d, cnt, d, panel);
        mdi_block_scalar(P, a, d, r, panel, d, o1);
        K->block(a, d, r, panel, d, o2, 0);
        for (size_t i = 0; i < r; i++)
            for (size_t p = 0; p < cnt; p++) {
                double want = 0;
                for (size_t k = 0; k < d; k++) want += a[i * d + k] * b[p * d + k];
                CHECK_SAME(o1[i * P + p], want);
                CHECK_SAME(o2[i * P + p], want);
            }
        free(b);
        free(a32); free(b32); free(a); free(panel);
    }
}

static void test_row(const mdi_kernels *K) {
    const size_t P = K->p;
    for (int iter = 0; iter < check_iters(200); iter++) {
        size_t d = DIMS[rng_below(&rng, NDIMS)];
        size_t m = 1 + rng_below(&rng, MDI_M);
        int exact = (int)rng_below(&rng, 2);
        size_t rows = m * P;
        float *b32 = malloc((rows * d + 1) * sizeof(float)), *q32 = malloc((d + 1) * sizeof(float));
        double *q = malloc((d + 1) * sizeof(double)), *panels = malloc((rows * d + 1) * sizeof(double));
        double o1[MDI_M * MDI_PMAX], o2[MDI_M * MDI_PMAX];
        fill(b32, rows * d, (int)rng_below(&rng, 4));
        fill(q32, d, (int)rng_below(&rng, 4));
        for (size_t k = 0; k < d; k++) q[k] = (double)q32[k];
        for (size_t g = 0; g < m; g++) mdi_pack_panel_f32(P, b32 + g * P * d, d, P, d, panels + g * d * P);
        mdi_row_scalar(P, q, panels, m, d, o1);
        K->row(q, panels, m, d, o2, exact);
        for (size_t j = 0; j < rows; j++) {
            double want = 0;
            for (size_t k = 0; k < d; k++) want += q[k] * (double)b32[j * d + k];
            CHECK_SAME(o1[j], want);
            CHECK_SAME(o2[j], want);
        }
        free(b32); free(q32); free(q); free(panels);
    }
}

static void test_rows_kernel(const mdi_kernels *K) {
    for (int iter = 0; iter < check_iters(200); iter++) {
        size_t d = DIMS[rng_below(&rng, NDIMS)], n = rng_below(&rng, 45);
        float *m = malloc((n * d + 1) * sizeof(float)), *q32 = malloc((d + 1) * sizeof(float));
        double *q = malloc((d + 1) * sizeof(double));
        double *d1 = malloc((n + 1) * sizeof(double)), *d2 = malloc((n + 1) * sizeof(double));
        double *s1 = malloc((n + 1) * sizeof(double)), *s2 = malloc((n + 1) * sizeof(double));
        double *d3 = malloc((n + 1) * sizeof(double)), *d4 = malloc((n + 1) * sizeof(double));
        const float **ptr = malloc((n + 1) * sizeof(float *));
        for (size_t i = 0; i < n; i++) fill(m + i * d, d, (int)rng_below(&rng, 4));
        fill(q32, d, (int)rng_below(&rng, 4));
        for (size_t k = 0; k < d; k++) q[k] = (double)q32[k];
        /* the pointer form gets the rows shuffled, repeated */
        for (size_t j = 0; j < n; j++) ptr[j] = m + rng_below(&rng, n) * d;
        mdi_rows_f32_scalar(q, m, n, d, d1, s1);
        K->rows_f32(q, m, n, d, d2, s2);
        mdi_dots_f32_scalar(q, ptr, n, d, d3);
        K->dots_f32(q, ptr, n, d, d4);
        for (size_t j = 0; j < n; j++) {
            double want = 0, wss = 0, wp = 0;
            for (size_t k = 0; k < d; k++) {
                want += q[k] * (double)m[j * d + k];
                wss += (double)m[j * d + k] * (double)m[j * d + k];
                wp += q[k] * (double)ptr[j][k];
            }
            CHECK_SAME(d1[j], want);
            CHECK_SAME(d2[j], want);
            CHECK_SAME(s1[j], wss);
            CHECK_SAME(s2[j], wss);
            CHECK_SAME(d3[j], wp);
            CHECK_SAME(d4[j], wp);
        }
        free(m); free(q32); free(q); free(d1); free(d2); free(s1); free(s2); free(d3); free(d4); free(ptr);
    }
}

/* An int16 in the filter's range: random, or at the extremes the callers allow. */
static int16_t pick_i16(int extreme) {
    if (extreme) return rng_below(&rng, 2) ? 32767 : -32767;
    return (int16_t)((int)rng_below(&rng, 65535) - 32767);
}
static int8_t pick_i8(int extreme) {
    if (extreme) return rng_below(&rng, 2) ? 127 : -127;
    return (int8_t)((int)rng_below(&rng, 255) - 127);
}

static void test_q8(const mdi_kernels *K) {
    for (int iter = 0; iter < check_iters(200); iter++) {
        size_t dp = MDI_QALIGN * (1 + rng_below(&rng, 14)), n = rng_below(&rng, 23);
        int extreme = rng_below(&rng, 4) == 0;
        int16_t *q = malloc(dp * sizeof(int16_t));
        int8_t *rows = malloc(n * dp + 1);
        int32_t *o1 = malloc((n + 1) * sizeof(int32_t)), *o2 = malloc((n + 1) * sizeof(int32_t));
        for (size_t k = 0; k < dp; k++) q[k] = pick_i16(extreme);
        for (size_t i = 0; i < n * dp; i++) rows[i] = pick_i8(extreme);
        mdi_q8_dots_scalar(q, rows, n, dp, o1);
        K->q8_dots(q, rows, n, dp, o2);
        for (size_t j = 0; j < n; j++) {
            int64_t want = 0;
            for (size_t k = 0; k < dp; k++) want += (int64_t)q[k] * rows[j * dp + k];
            CHECK(o1[j] == (int32_t)(uint32_t)(uint64_t)want);
            CHECK(o2[j] == o1[j]);
        }
        free(q); free(rows); free(o1); free(o2);
    }
}

static void test_q16(const mdi_kernels *K) {
    const size_t QP = K->qp, QR = K->qr;
    for (int iter = 0; iter < check_iters(200); iter++) {
        size_t dp = 2 * (1 + rng_below(&rng, 200)), r = 1 + rng_below(&rng, QR), cnt = 1 + rng_below(&rng, QP);
        int extreme = rng_below(&rng, 4) == 0;
        int16_t *a = malloc(QR * dp * sizeof(int16_t)), *b = malloc(QP * dp * sizeof(int16_t));
        int16_t *panel = malloc(QP * dp * sizeof(int16_t));
        int32_t o1[MDI_QRMAX * MDI_QPMAX], o2[MDI_QRMAX * MDI_QPMAX];
        for (size_t i = 0; i < QR * dp; i++) a[i] = pick_i16(extreme);
        for (size_t i = 0; i < QP * dp; i++) b[i] = pick_i16(extreme);
        mdi_pack_panel_i16(QP, b, dp, cnt, dp, panel);
        mdi_q16_block_scalar(QP, a, dp, r, panel, dp, o1);
        K->q16_block(a, dp, r, panel, dp, o2);
        for (size_t i = 0; i < r; i++)
            for (size_t p = 0; p < QP; p++) {
                int64_t want = 0;
                if (p < cnt)
                    for (size_t k = 0; k < dp; k++) want += (int64_t)a[i * dp + k] * b[p * dp + k];
                CHECK(o1[i * QP + p] == (int32_t)(uint32_t)(uint64_t)want);
                CHECK(o2[i * QP + p] == o1[i * QP + p]);
            }
        free(a); free(b); free(panel);
    }
}

/* The filter screen: every variant's mask equals the scalar twin's (the
 * same float operations in the same order), thresholds at -inf / +inf too. */
static void test_screen(const mdi_kernels *K) {
    const size_t QP = K->qp;
    for (int iter = 0; iter < check_iters(300); iter++) {
        int32_t dots[MDI_QPMAX];
        float wj[MDI_QPMAX], rj[MDI_QPMAX], tj[MDI_QPMAX];
        for (size_t q = 0; q < QP; q++) {
            dots[q] = (int32_t)(rng_next(&rng) >> (rng_below(&rng, 2) ? 33 : 40)) * (rng_below(&rng, 2) ? 1 : -1);
            wj[q] = (float)rng_range(&rng, 0, 1e-4);
            rj[q] = rng_below(&rng, 20) == 0 ? INFINITY : (float)rng_range(&rng, 0, 0.01);
            tj[q] = rng_below(&rng, 10) == 0 ? (rng_below(&rng, 2) ? INFINITY : -INFINITY) : (float)rng_range(&rng, -1, 1);
        }
        const float wi = (float)rng_range(&rng, 0, 1e-4), ai = 1 + (float)rng_range(&rng, 0, 0.01);
        const float bi = (float)rng_range(&rng, 0, 0.01), ti = rng_below(&rng, 4) ? (float)rng_range(&rng, -1, 1) : INFINITY;
        uint64_t want = mdi_q16_screen_scalar(QP, dots, wi, ai, bi, ti, wj, rj, tj);
        CHECK(K->q16_screen(dots, wi, ai, bi, ti, wj, rj, tj) == want);
        uint64_t naive = 0;
        for (size_t q = 0; q < QP; q++) {
            float ub = (float)dots[q] * (wi * wj[q]) + (rj[q] * ai + bi);
            if (ub >= ti || ub >= tj[q]) naive |= (uint64_t)1 << q;
        }
        CHECK(want == naive);
    }
}

/* The prefix screen: the scalar twin's mask (the same float operations in
 * the same order) and the naive formula's, residual norms from 0 to 1. */
static void test_screen_r(const mdi_kernels *K) {
    const size_t QP = K->qp;
    for (int iter = 0; iter < check_iters(300); iter++) {
        int32_t dots[MDI_QPMAX];
        float wj[MDI_QPMAX], rj[MDI_QPMAX], tj[MDI_QPMAX], uj[MDI_QPMAX];
        for (size_t q = 0; q < QP; q++) {
            dots[q] = (int32_t)(rng_next(&rng) >> (rng_below(&rng, 2) ? 33 : 40)) * (rng_below(&rng, 2) ? 1 : -1);
            wj[q] = (float)rng_range(&rng, 0, 1e-4);
            rj[q] = rng_below(&rng, 20) == 0 ? INFINITY : (float)rng_range(&rng, 0, 0.01);
            tj[q] = rng_below(&rng, 10) == 0 ? (rng_below(&rng, 2) ? INFINITY : -INFINITY) : (float)rng_range(&rng, -1, 1);
            uj[q] = rng_below(&rng, 8) == 0 ? (float)rng_below(&rng, 2) : (float)rng_range(&rng, 0, 1);
        }
        const float wi = (float)rng_range(&rng, 0, 1e-4), ai = 1 + (float)rng_range(&rng, 0, 0.01);
        const float bi = (float)rng_range(&rng, 0, 0.01), ti = rng_below(&rng, 4) ? (float)rng_range(&rng, -1, 1) : INFINITY;
        const float ui = (float)rng_range(&rng, 0, 1);
        uint64_t want = mdi_q16_screen_r_scalar(QP, dots, wi, ai, bi, ti, ui, wj, rj, tj, uj);
        CHECK(K->q16_screen_r(dots, wi, ai, bi, ti, ui, wj, rj, tj, uj) == want);
        uint64_t naive = 0;
        for (size_t q = 0; q < QP; q++) {
            float e = (float)dots[q] * (wi * wj[q]);
            float ub = (e + (rj[q] * ai + bi)) + uj[q] * ui;
            if (ub >= ti || ub >= tj[q]) naive |= (uint64_t)1 << q;
        }
        CHECK(want == naive);
    }
}

/* One pair's i16 dot at every length (tails included), extreme values
 * (sums that wrap modulo 2^32 too): the exact integer sum modulo 2^32. */
static void test_q16_dot(const mdi_kernels *K) {
    for (int iter = 0; iter < check_iters(300); iter++) {
        size_t n = rng_below(&rng, 8) == 0 ? rng_below(&rng, 8) : rng_below(&rng, 400);
        int extreme = rng_below(&rng, 3) == 0;
        int16_t *a = malloc((n + 1) * sizeof(int16_t)), *b = malloc((n + 1) * sizeof(int16_t));
        for (size_t k = 0; k < n; k++) {
            a[k] = pick_i16(extreme);
            b[k] = pick_i16(extreme);
        }
        int64_t want = 0;
        for (size_t k = 0; k < n; k++) want += (int64_t)a[k] * b[k];
        const int32_t s = mdi_q16_dot_scalar(a, b, n);
        CHECK(s == (int32_t)(uint32_t)(uint64_t)want);
        CHECK(K->q16_dot(a, b, n) == s);
        free(a); free(b);
    }
}

/* The batch paths (which run the selected kernels) against md_cosine_f32. */
static void test_against_cosine(void) {
    for (int iter = 0; iter < 60; iter++) {
        size_t d = DIMS[rng_below(&rng, NDIMS)], n = rng_below(&rng, 40);
        float *m = malloc((n * d + 1) * sizeof(float)), *q = malloc((d + 1) * sizeof(float));
        for (size_t i = 0; i < n; i++) fill(m + i * d, d, (int)rng_below(&rng, 4));
        fill(q, d, (int)rng_below(&rng, 4));
        double *sims = malloc((n + 1) * sizeof(double));
        CHECK(md_cosine_rows_f32(q, m, n, d, sims) == MD_OK);
        for (size_t i = 0; i < n; i++) {
            double want;
            md_cosine_f32(q, d, m + i * d, d, &want);
            CHECK_SAME(sims[i], want);
        }
        /* all pairs: every finite pair's sim is cosine's; NaN/infinite rows never appear */
        md_str *keys = malloc((n + 1) * sizeof(md_str));
        char (*names)[8] = malloc((n + 1) * 8);
        for (size_t i = 0; i < n; i++) {
            names[i][0] = 'k'; names[i][1] = (char)('A' + i / 26); names[i][2] = (char)('a' + i % 26);
            keys[i].ptr = names[i]; keys[i].len = 3;
        }
        md_neighbor_options o = {-INFINITY, INFINITY, INFINITY};
        md_neighbor_pairs res;
        CHECK(md_top_neighbor_pairs_packed(m, n, d, keys, o, &res, NULL) == MD_OK);
        size_t finite_pairs = 0;
        int *finite = malloc((n + 1) * sizeof(int));
        for (size_t i = 0; i < n; i++) {
            finite[i] = 1;
            for (size_t k = 0; k < d; k++) if (!isfinite(m[i * d + k])) finite[i] = 0;
        }
        for (size_t i = 0; i < res.len; i++) {
            size_t a = res.pairs[i].src, b = res.pairs[i].dst;
            double want;
            md_cosine_f32(m + a * d, d, m + b * d, d, &want);
            if (finite[a] && finite[b]) CHECK_SAME(res.pairs[i].sim, want);
            CHECK(!isnan(res.pairs[i].sim));
        }
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                double na = 0, nb = 0;
                for (size_t k = 0; k < d; k++) { na += (double)m[a*d+k] * m[a*d+k]; nb += (double)m[b*d+k] * m[b*d+k]; }
                /* a zero norm gives 0 even next to NaN; otherwise finite pairs enter */
                if ((finite[a] && finite[b]) || na == 0 || nb == 0) finite_pairs++;
            }
        CHECK(res.len <= 2 * n * (n ? n - 1 : 0) / 2);
        CHECK(res.len >= 2 * finite_pairs);
        md_neighbor_pairs_free(&res);
        free(finite); free(keys); free(names); free(sims); free(m); free(q);
    }
}

int main(void) {
    size_t nk;
    const mdi_kernels *const *all = mdi_kernels_all(&nk);
    printf("selected kernel variant: %s\n", mdi_kernel_isa());
    int ran = 0;
    for (size_t i = 0; i < nk; i++) {
        const mdi_kernels *K = all[i];
        int ok = mdi_kernel_supported(K);
        printf("variant %-14s p=%zu r=%zu qp=%zu qr=%zu: %s\n", K->name, K->p, K->r, K->qp, K->qr,
               ok ? "tested against the scalar twin" : "not supported by this CPU (skipped)");
        CHECK(K->p <= MDI_PMAX && K->r <= MDI_RMAX && K->qp <= MDI_QPMAX && K->qr <= MDI_QRMAX);
        if (!ok) continue;
        ran++;
        test_block(K);
        test_row(K);
        test_rows_kernel(K);
        test_q8(K);
        test_q16(K);
        test_screen(K);
        test_screen_r(K);
        test_q16_dot(K);
    }
    CHECK(ran >= 2); /* the scalar twin and the baseline always run */
    CHECK(mdi_kernel_supported(mdi_kern()));
    test_against_cosine();
    return check_report("test_kernels");
}

/* The SIMD kernels against the scalar kernels, and both against md_cosine:
 * bit for bit on random and adversarial data (NaN, infinities, subnormals,
 * zero vectors, dims that are not a multiple of any block). */
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

static void test_block(void) {
    for (int iter = 0; iter < check_iters(400); iter++) {
        size_t d = DIMS[rng_below(&rng, NDIMS)];
        size_t r = 1 + rng_below(&rng, MDI_R), cnt = 1 + rng_below(&rng, MDI_P);
        int mode = (int)rng_below(&rng, 4);
        float *a32 = malloc((MDI_R * d + 1) * sizeof(float)), *b32 = malloc((MDI_P * d + 1) * sizeof(float));
        double *a = malloc((MDI_R * d + 1) * sizeof(double)), *panel = malloc((MDI_P * d + 1) * sizeof(double));
        double o1[MDI_R * MDI_P], o2[MDI_R * MDI_P];
        fill(a32, MDI_R * d, mode);
        fill(b32, MDI_P * d, (int)rng_below(&rng, 4));
        for (size_t i = 0; i < MDI_R * d; i++) a[i] = (double)a32[i];
        mdi_pack_panel_f32(b32, d, cnt, d, panel);
        for (int exact = 0; exact < 2; exact++) {
            mdi_block_scalar(a, d, r, panel, d, o1, exact);
            mdi_block_simd(a, d, r, panel, d, o2, exact);
            for (size_t i = 0; i < r; i++)
                for (size_t p = 0; p < cnt; p++) {
                    double want = 0;
                    for (size_t k = 0; k < d; k++) want += (double)a32[i * d + k] * (double)b32[p * d + k];
                    CHECK_SAME(o1[i * MDI_P + p], want);
                    CHECK_SAME(o2[i * MDI_P + p], want);
                }
        }
        /* doubles that are not widened floats: products round, so no FMA (exact = 0) */
        for (size_t i = 0; i < MDI_R * d; i++) a[i] = rng_range(&rng, -3, 3);
        double *b = malloc((MDI_P * d + 1) * sizeof(double));
        for (size_t i = 0; i < MDI_P * d; i++) b[i] = rng_range(&rng, -3, 3);
        mdi_pack_panel_f64(b, d, cnt, d, panel);
        mdi_block_scalar(a, d, r, panel, d, o1, 0);
        mdi_block_simd(a, d, r, panel, d, o2, 0);
        for (size_t i = 0; i < r; i++)
            for (size_t p = 0; p < cnt; p++) {
                double want = 0;
                for (size_t k = 0; k < d; k++) want += a[i * d + k] * b[p * d + k];
                CHECK_SAME(o1[i * MDI_P + p], want);
                CHECK_SAME(o2[i * MDI_P + p], want);
            }
        free(b);
        free(a32); free(b32); free(a); free(panel);
    }
}

static void test_row(void) {
    for (int iter = 0; iter < check_iters(300); iter++) {
        size_t d = DIMS[rng_below(&rng, NDIMS)];
        size_t m = 1 + rng_below(&rng, MDI_M);
        int exact = (int)rng_below(&rng, 2);
        size_t rows = m * MDI_P;
        float *b32 = malloc((rows * d + 1) * sizeof(float)), *q32 = malloc((d + 1) * sizeof(float));
        double *q = malloc((d + 1) * sizeof(double)), *panels = malloc((rows * d + 1) * sizeof(double));
        double o1[MDI_M * MDI_P], o2[MDI_M * MDI_P];
        fill(b32, rows * d, (int)rng_below(&rng, 4));
        fill(q32, d, (int)rng_below(&rng, 4));
        for (size_t k = 0; k < d; k++) q[k] = (double)q32[k];
        for (size_t g = 0; g < m; g++) mdi_pack_panel_f32(b32 + g * MDI_P * d, d, MDI_P, d, panels + g * d * MDI_P);
        mdi_row_scalar(q, panels, m, d, o1, exact);
        mdi_row_simd(q, panels, m, d, o2, exact);
        for (size_t j = 0; j < rows; j++) {
            double want = 0;
            for (size_t k = 0; k < d; k++) want += q[k] * (double)b32[j * d + k];
            CHECK_SAME(o1[j], want);
            CHECK_SAME(o2[j], want);
        }
        free(b32); free(q32); free(q); free(panels);
    }
}

static void test_rows_kernel(void) {
    for (int iter = 0; iter < check_iters(300); iter++) {
        size_t d = DIMS[rng_below(&rng, NDIMS)], n = rng_below(&rng, 45);
        float *m = malloc((n * d + 1) * sizeof(float)), *q32 = malloc((d + 1) * sizeof(float));
        double *q = malloc((d + 1) * sizeof(double));
        double *d1 = malloc((n + 1) * sizeof(double)), *d2 = malloc((n + 1) * sizeof(double));
        double *s1 = malloc((n + 1) * sizeof(double)), *s2 = malloc((n + 1) * sizeof(double));
        for (size_t i = 0; i < n; i++) fill(m + i * d, d, (int)rng_below(&rng, 4));
        fill(q32, d, (int)rng_below(&rng, 4));
        for (size_t k = 0; k < d; k++) q[k] = (double)q32[k];
        mdi_rows_f32_scalar(q, m, n, d, d1, s1);
        mdi_rows_f32_simd(q, m, n, d, d2, s2);
        for (size_t j = 0; j < n; j++) {
            double want = 0, wss = 0;
            for (size_t k = 0; k < d; k++) {
                want += q[k] * (double)m[j * d + k];
                wss += (double)m[j * d + k] * (double)m[j * d + k];
            }
            CHECK_SAME(d1[j], want);
            CHECK_SAME(d2[j], want);
            CHECK_SAME(s1[j], wss);
            CHECK_SAME(s2[j], wss);
        }
        free(m); free(q32); free(q); free(d1); free(d2); free(s1); free(s2);
    }
}

/* The batch paths (which run the SIMD kernels) against md_cosine_f32. */
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
    printf("kernel variant: %s (W=%d, R=%d, P=%d)\n", mdi_kernel_isa(), MDI_W, MDI_R, MDI_P);
    test_block();
    test_row();
    test_rows_kernel();
    test_against_cosine();
    return check_report("test_kernels");
}

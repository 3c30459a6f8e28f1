/* The scalar kernels: the definition every variant must reproduce, and the
 * panel packing every variant shares. */
#include "kernels.h"

MDI_SMALL void mdi_pack_panel_f32(size_t p, const float *rows, size_t ld, size_t cnt, size_t d, double *panel) {
    for (size_t k = 0; k < d; k++) {
        double *dst = panel + k * p;
        size_t q = 0;
        for (; q < cnt; q++) dst[q] = (double)rows[q * ld + k];
        for (; q < p; q++) dst[q] = 0;
    }
}

MDI_SMALL void mdi_pack_panel_f64(size_t p, const double *rows, size_t ld, size_t cnt, size_t d, double *panel) {
    for (size_t k = 0; k < d; k++) {
        double *dst = panel + k * p;
        size_t q = 0;
        for (; q < cnt; q++) dst[q] = rows[q * ld + k];
        for (; q < p; q++) dst[q] = 0;
    }
}

MDI_SMALL void mdi_pack_panel_i16(size_t qp, const int16_t *rows, size_t ld, size_t cnt, size_t dp,
                        int16_t *panel) {
    for (size_t kk = 0; kk < dp / 2; kk++) {
        int16_t *dst = panel + kk * qp * 2;
        size_t q = 0;
        for (; q < cnt; q++) {
            dst[2 * q] = rows[q * ld + 2 * kk];
            dst[2 * q + 1] = rows[q * ld + 2 * kk + 1];
        }
        for (; q < qp; q++) dst[2 * q] = dst[2 * q + 1] = 0;
    }
}

/* A product and an add, each rounded: with exact products a fused
 * multiply-add gives the same bits, so one scalar twin serves both modes. */
MDI_SMALL void mdi_block_scalar(size_t p, const double *a, size_t lda, size_t r, const double *panel,
                      size_t d, double *out) {
    for (size_t i = 0; i < r; i++) {
        for (size_t q = 0; q < p; q++) {
            double s = 0;
            for (size_t k = 0; k < d; k++) s += a[i * lda + k] * panel[k * p + q];
            out[i * p + q] = s;
        }
    }
}

MDI_SMALL void mdi_row_scalar(size_t p, const double *a, const double *panels, size_t m, size_t d,
                    double *out) {
    for (size_t t = 0; t < m; t++) mdi_block_scalar(p, a, 0, 1, panels + t * d * p, d, out + t * p);
}

MDI_SMALL void mdi_rows_f32_scalar(const double *q, const float *rows, size_t n, size_t d, double *dot,
                         double *sumsq) {
    for (size_t j = 0; j < n; j++) {
        const float *r = rows + j * d;
        double s = 0, ss = 0;
        for (size_t k = 0; k < d; k++) {
            double x = (double)r[k];
            s += q[k] * x;
            ss += x * x;
        }
        dot[j] = s;
        sumsq[j] = ss;
    }
}

MDI_SMALL void mdi_dots_f32_scalar(const double *q, const float *const *rows, size_t n, size_t d,
                         double *dot) {
    for (size_t j = 0; j < n; j++) {
        const float *r = rows[j];
        double s = 0;
        for (size_t k = 0; k < d; k++) s += q[k] * (double)r[k];
        dot[j] = s;
    }
}

/* Integer sums wrap modulo 2^32 (unsigned arithmetic: no undefined overflow). */
MDI_SMALL void mdi_q8_dots_scalar(const int16_t *q, const int8_t *rows, size_t n, size_t dp, int32_t *out) {
    for (size_t j = 0; j < n; j++) {
        const int8_t *r = rows + j * dp;
        uint32_t s = 0;
        for (size_t k = 0; k < dp; k++) s += (uint32_t)((int32_t)q[k] * (int32_t)r[k]);
        out[j] = (int32_t)s;
    }
}

MDI_SMALL void mdi_q16_block_scalar(size_t qp, const int16_t *a, size_t lda, size_t r, const int16_t *panel,
                          size_t dp, int32_t *out) {
    for (size_t i = 0; i < r; i++)
        for (size_t q = 0; q < qp; q++) {
            uint32_t s = 0;
            for (size_t kk = 0; kk < dp / 2; kk++) {
                const int16_t *b = panel + (kk * qp + q) * 2;
                s += (uint32_t)((int32_t)a[i * lda + 2 * kk] * b[0]);
                s += (uint32_t)((int32_t)a[i * lda + 2 * kk + 1] * b[1]);
            }
            out[i * qp + q] = (int32_t)s;
        }
}

MDI_SMALL uint64_t mdi_q16_screen_scalar(size_t qp, const int32_t *dots, float wi, float ai, float bi, float ti,
                               const float *wj, const float *rj, const float *tj) {
    uint64_t bits = 0;
    for (size_t q = 0; q < qp; q++) {
        const float e = (float)dots[q] * (wi * wj[q]);
        const float ub = e + (rj[q] * ai + bi);
        if (ub >= ti || ub >= tj[q]) bits |= (uint64_t)1 << q;
    }
    return bits;
}

MDI_SMALL uint64_t mdi_q16_screen_r_scalar(size_t qp, const int32_t *dots, float wi, float ai, float bi, float ti,
                                 float ui, const float *wj, const float *rj, const float *tj, const float *uj) {
    uint64_t bits = 0;
    for (size_t q = 0; q < qp; q++) {
        const float e = (float)dots[q] * (wi * wj[q]);
        const float ub = (e + (rj[q] * ai + bi)) + uj[q] * ui;
        if (ub >= ti || ub >= tj[q]) bits |= (uint64_t)1 << q;
    }
    return bits;
}

MDI_SMALL int32_t mdi_q16_dot_scalar(const int16_t *a, const int16_t *b, size_t n) {
    uint32_t s = 0;
    for (size_t k = 0; k < n; k++) s += (uint32_t)((int32_t)a[k] * b[k]);
    return (int32_t)s;
}

/* ---- the scalar variant as a table entry (natively: tests hold every
 * variant to it; the wasm build has only SIMD128 and these tails) ---- */
#ifndef __wasm__

#define SP 4
#define SQP 8

static void block_s(const double *a, size_t lda, size_t r, const double *panel, size_t d,
                    double *out, int exact) {
    (void)exact;
    mdi_block_scalar(SP, a, lda, r, panel, d, out);
}
static void row_s(const double *a, const double *panels, size_t m, size_t d, double *out, int exact) {
    (void)exact;
    mdi_row_scalar(SP, a, panels, m, d, out);
}
static void q16_s(const int16_t *a, size_t lda, size_t r, const int16_t *panel, size_t dp,
                  int32_t *out) {
    mdi_q16_block_scalar(SQP, a, lda, r, panel, dp, out);
}
static uint64_t screen_s(const int32_t *dots, float wi, float ai, float bi, float ti, const float *wj,
                         const float *rj, const float *tj) {
    return mdi_q16_screen_scalar(SQP, dots, wi, ai, bi, ti, wj, rj, tj);
}
static uint64_t screen_r_s(const int32_t *dots, float wi, float ai, float bi, float ti, float ui, const float *wj,
                           const float *rj, const float *tj, const float *uj) {
    return mdi_q16_screen_r_scalar(SQP, dots, wi, ai, bi, ti, ui, wj, rj, tj, uj);
}

const mdi_kernels mdi_kernels_scalar = {
    "scalar", SP, 4, SQP, 4,
    block_s, row_s, mdi_rows_f32_scalar, mdi_dots_f32_scalar, mdi_q8_dots_scalar, q16_s, screen_s,
    screen_r_s, mdi_q16_dot_scalar,
};
#endif

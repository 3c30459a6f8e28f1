/* The scalar kernels: the definition every SIMD variant must reproduce. */
#include "kernels.h"

#include <string.h>

void mdi_pack_panel_f32(const float *rows, size_t ld, size_t cnt, size_t d, double *panel) {
    for (size_t k = 0; k < d; k++) {
        double *dst = panel + k * MDI_P;
        size_t p = 0;
        for (; p < cnt; p++) dst[p] = (double)rows[p * ld + k];
        for (; p < MDI_P; p++) dst[p] = 0;
    }
}

void mdi_pack_panel_f64(const double *rows, size_t ld, size_t cnt, size_t d, double *panel) {
    for (size_t k = 0; k < d; k++) {
        double *dst = panel + k * MDI_P;
        size_t p = 0;
        for (; p < cnt; p++) dst[p] = rows[p * ld + k];
        for (; p < MDI_P; p++) dst[p] = 0;
    }
}

void mdi_block_scalar(const double *a, size_t lda, size_t r, const double *panel, size_t d,
                      double *out, int exact) {
    (void)exact; /* a product and an add, each rounded: FMA gives these bits only when exact */
    for (size_t i = 0; i < r; i++) {
        for (size_t p = 0; p < MDI_P; p++) {
            double s = 0;
            for (size_t k = 0; k < d; k++) s += a[i * lda + k] * panel[k * MDI_P + p];
            out[i * MDI_P + p] = s;
        }
    }
}

void mdi_row_scalar(const double *a, const double *panels, size_t m, size_t d, double *out,
                    int exact) {
    (void)exact;
    for (size_t q = 0; q < m; q++) {
        const double *panel = panels + q * d * MDI_P;
        for (size_t p = 0; p < MDI_P; p++) {
            double s = 0;
            for (size_t k = 0; k < d; k++) s += a[k] * panel[k * MDI_P + p];
            out[q * MDI_P + p] = s;
        }
    }
}

void mdi_rows_f32_scalar(const double *q, const float *rows, size_t n, size_t d, double *dot,
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

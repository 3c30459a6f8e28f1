/* Dot-product kernels for the vector modules (internal, prefix mdi_).
 *
 * Every similarity in the design is one sequential double sum in index order,
 * so a kernel may not split one sum across lanes. It vectorizes ACROSS
 * independent pairs instead: the destinations are packed into panels of
 * MDI_P rows interleaved by index (panel[k * MDI_P + p] = row_p[k]), each
 * SIMD lane holds a different destination, and each lane's sum still runs
 * k = 0, 1, 2, ... one rounding per add. A kernel is register-blocked over up
 * to MDI_R sources and one panel (mdi_block_*), or one source and up to
 * MDI_M panels (mdi_row_*).
 *
 * `exact` says every product is exact in double (both factors are widened
 * floats: 24 + 24 significant bits), which is the one place a fused
 * multiply-add gives the same bits; the SIMD kernel uses FMA only then.
 * The scalar kernel is the definition; mdi_*_simd must return its bits. */
#ifndef MEMDOMAIN_KERNELS_H
#define MEMDOMAIN_KERNELS_H

#include <stddef.h>

/* The SIMD variant is chosen at build time: the widest the target offers. */
#if defined(__wasm_simd128__)
#define MDI_KERNEL_ISA "wasm-simd128"
#define MDI_W 2
#define MDI_R 4
#elif defined(__AVX512F__)
#define MDI_KERNEL_ISA "avx512f"
#define MDI_W 8
#define MDI_R 6
#elif defined(__AVX2__) && defined(__FMA__)
#define MDI_KERNEL_ISA "avx2+fma"
#define MDI_W 4
#define MDI_R 6
#elif defined(__GNUC__) && !defined(MDI_NO_VECTOR_EXT)
#define MDI_KERNEL_ISA "vector-extensions"
#define MDI_W 2
#define MDI_R 4
#else
#define MDI_KERNEL_ISA "scalar"
#define MDI_W 2
#define MDI_R 4
#endif

/* Lanes per panel (two vectors), panels per row-kernel call. */
#define MDI_P (2 * MDI_W)
#define MDI_M 4

/* A name for the selected variant, e.g. "avx512f" or "wasm-simd128". */
const char *mdi_kernel_isa(void);

/* Pack `cnt` (<= MDI_P) rows of length d, `ld` elements apart, into one
 * panel of d * MDI_P doubles; lanes past cnt are zero. */
void mdi_pack_panel_f32(const float *rows, size_t ld, size_t cnt, size_t d, double *panel);
void mdi_pack_panel_f64(const double *rows, size_t ld, size_t cnt, size_t d, double *panel);

/* out[i * MDI_P + p] = sum over k ascending of a[i * lda + k] * panel[k * MDI_P + p],
 * for i < r (1 <= r <= MDI_R). */
void mdi_block_scalar(const double *a, size_t lda, size_t r, const double *panel, size_t d,
                      double *out, int exact);
void mdi_block_simd(const double *a, size_t lda, size_t r, const double *panel, size_t d,
                    double *out, int exact);

/* out[q * MDI_P + p] = sum over k ascending of a[k] * panels[q * d * MDI_P + k * MDI_P + p],
 * for q < m (1 <= m <= MDI_M): one source against m consecutive panels. */
void mdi_row_scalar(const double *a, const double *panels, size_t m, size_t d, double *out,
                    int exact);
void mdi_row_simd(const double *a, const double *panels, size_t m, size_t d, double *out,
                  int exact);

/* The 1 x n arm over row-major floats: dot[j] = sum over k ascending of
 * q[k] * (double)rows[j * d + k] and sumsq[j] = the row's own in-order sum of
 * squares, for j < n. The SIMD variant transposes small tiles of rows in
 * registers so each lane is a different row (no packing pass). q holds
 * widened floats, so every product is exact. */
void mdi_rows_f32_scalar(const double *q, const float *rows, size_t n, size_t d, double *dot,
                         double *sumsq);
void mdi_rows_f32_simd(const double *q, const float *rows, size_t n, size_t d, double *dot,
                       double *sumsq);

#endif

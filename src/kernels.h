/* Kernels for the vector modules (internal, prefix mdi_).
 *
 * Two families.
 *
 * EXACT kernels (doubles). Every similarity in the design is one sequential
 * double sum in index order, so a kernel may not split one sum across lanes.
 * It vectorizes ACROSS independent pairs instead: destinations are packed
 * into panels of p rows interleaved by index (panel[k * p + q] = row_q[k]),
 * each SIMD lane holds a different destination, and each lane's sum still
 * runs k = 0, 1, 2, ... one rounding per add. `exact` says every product is
 * exact in double (both factors are widened floats: 24 + 24 significant
 * bits), the one case where a fused multiply-add gives the same bits; the
 * SIMD kernels use FMA only then. Every variant returns the scalar twin's
 * bits.
 *
 * FILTER kernels (integers). The pruned passes (neighbors_pass.c, rows.c) bound
 * each similarity from a quantized copy of the rows before paying for the
 * exact sum. Their dot products are exact integer arithmetic modulo 2^32
 * (the callers scale so the true value fits in an int32), so every variant
 * returns the scalar twin's integers.
 *
 * Natively the variant is chosen at run time from the CPU (mdi_kern):
 * AVX-512 (F+BW), AVX2+FMA, or the baseline (SSE2 on x86-64, NEON on arm64,
 * through GCC vector extensions and SSE2 intrinsics); the library itself is
 * built for the baseline ISA, and each wider variant lives in its own file
 * with per-function target attributes. In wasm the SIMD128 variant is the
 * only one (fixed at build time). */
#ifndef MEMDOMAIN_KERNELS_H
#define MEMDOMAIN_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef MDI_SMALL
#if defined(__wasm__) && defined(__clang__)
#define MDI_SMALL __attribute__((minsize))
#else
#define MDI_SMALL
#endif
#endif

/* Bounds on every variant's block shapes (for stack buffers). */
#define MDI_PMAX 16  /* exact: lanes per panel */
#define MDI_RMAX 6   /* exact: sources per block */
#define MDI_M 4      /* exact: panels per row-kernel call */
#define MDI_QPMAX 64 /* filter: destinations per i16 panel */
#define MDI_QRMAX 6  /* filter: sources per i16 block */
/* Filter rows are padded with zeros to a multiple of this many elements. */
#define MDI_QALIGN 32

typedef struct mdi_kernels {
    const char *name;
    size_t p, r;   /* exact panels: lanes per panel, sources per block */
    size_t qp, qr; /* i16 panels: destinations per panel, sources per block */

    /* out[i * p + q] = sum over k ascending of a[i * lda + k] * panel[k * p + q],
     * for i < r (1 <= r <= this->r). */
    void (*block)(const double *a, size_t lda, size_t r, const double *panel, size_t d,
                  double *out, int exact);
    /* out[t * p + q] = sum over k ascending of a[k] * panels[t * d * p + k * p + q],
     * for t < m (1 <= m <= MDI_M): one source against m consecutive panels. */
    void (*row)(const double *a, const double *panels, size_t m, size_t d, double *out,
                int exact);
    /* The 1 x n arm over row-major floats: dot[j] = sum over k ascending of
     * q[k] * (double)rows[j * d + k], and sumsq[j] the row's own in-order sum
     * of squares. q holds widened floats, so every product is exact. */
    void (*rows_f32)(const double *q, const float *rows, size_t n, size_t d, double *dot,
                     double *sumsq);
    /* dot[j] = sum over k ascending of q[k] * (double)rows[j][k], j < n: the
     * same sums over rows given by pointers (q holds widened floats). */
    void (*dots_f32)(const double *q, const float *const *rows, size_t n, size_t d, double *dot);

    /* Filter, one query against rows of int8: out[j] = sum over k < dp of
     * q[k] * rows[j * dp + k], modulo 2^32 (dp a multiple of MDI_QALIGN). */
    void (*q8_dots)(const int16_t *q, const int8_t *rows, size_t n, size_t dp, int32_t *out);
    /* Filter, sources against an i16 panel of qp destinations, laid out by
     * pairs of k: panel[(kk * qp + q) * 2 + h] = row_q[2 * kk + h].
     * out[i * qp + q] = sum over k < dp of a[i * lda + k] * row_q[k], modulo
     * 2^32, for i < r (1 <= r <= this->qr). */
    void (*q16_block)(const int16_t *a, size_t lda, size_t r, const int16_t *panel, size_t dp,
                      int32_t *out);
    /* Filter screen for one source against qp destinations (float math, in
     * this order for every variant): e = (float)dots[q] * (wi * wj[q]),
     * ub = e + (rj[q] * ai + bi); bit q of the result is ub >= ti || ub >= tj[q]. */
    uint64_t (*q16_screen)(const int32_t *dots, float wi, float ai, float bi, float ti,
                           const float *wj, const float *rj, const float *tj);
    /* The same screen for dots over a prefix of the dimensions (filter.h, the
     * prefix bound): ub = (e + (rj[q] * ai + bi)) + uj[q] * ui, ui and uj the
     * rows' residual norms past the prefix (relative, rounded up). */
    uint64_t (*q16_screen_r)(const int32_t *dots, float wi, float ai, float bi, float ti, float ui,
                             const float *wj, const float *rj, const float *tj, const float *uj);
    /* Filter, one pair of i16 rows: sum over k < n of a[k] * b[k], modulo 2^32. */
    int32_t (*q16_dot)(const int16_t *a, const int16_t *b, size_t n);
} mdi_kernels;

/* The variant for this CPU (wasm: SIMD128). Cheap enough to call per pass. */
const mdi_kernels *mdi_kern(void);
/* The name of that variant, e.g. "avx512" or "wasm-simd128". */
const char *mdi_kernel_isa(void);

/* Every variant compiled into this build, the scalar twin first; *n gets
 * the count. mdi_kernel_supported says whether this CPU can run one. */
const mdi_kernels *const *mdi_kernels_all(size_t *n);
bool mdi_kernel_supported(const mdi_kernels *k);

/* The scalar twins: the definition every variant must reproduce. They take
 * the panel width explicitly so a test can hold any variant to them. */
void mdi_block_scalar(size_t p, const double *a, size_t lda, size_t r, const double *panel,
                      size_t d, double *out);
void mdi_row_scalar(size_t p, const double *a, const double *panels, size_t m, size_t d,
                    double *out);
void mdi_rows_f32_scalar(const double *q, const float *rows, size_t n, size_t d, double *dot,
                         double *sumsq);
void mdi_dots_f32_scalar(const double *q, const float *const *rows, size_t n, size_t d,
                         double *dot);
void mdi_q8_dots_scalar(const int16_t *q, const int8_t *rows, size_t n, size_t dp, int32_t *out);
void mdi_q16_block_scalar(size_t qp, const int16_t *a, size_t lda, size_t r, const int16_t *panel,
                          size_t dp, int32_t *out);
uint64_t mdi_q16_screen_scalar(size_t qp, const int32_t *dots, float wi, float ai, float bi, float ti,
                               const float *wj, const float *rj, const float *tj);
uint64_t mdi_q16_screen_r_scalar(size_t qp, const int32_t *dots, float wi, float ai, float bi, float ti,
                                 float ui, const float *wj, const float *rj, const float *tj, const float *uj);
int32_t mdi_q16_dot_scalar(const int16_t *a, const int16_t *b, size_t n);

/* Pack `cnt` (<= p) rows of length d, `ld` elements apart, into one panel of
 * d * p doubles; lanes past cnt are zero. */
void mdi_pack_panel_f32(size_t p, const float *rows, size_t ld, size_t cnt, size_t d, double *panel);
void mdi_pack_panel_f64(size_t p, const double *rows, size_t ld, size_t cnt, size_t d, double *panel);
/* Pack `cnt` (<= qp) i16 rows of dp elements (dp even), `ld` apart, into one
 * i16 panel (the q16_block layout); destinations past cnt are zero. */
void mdi_pack_panel_i16(size_t qp, const int16_t *rows, size_t ld, size_t cnt, size_t dp,
                        int16_t *panel);

#endif

/* The SIMD kernels: the scalar kernels' bits, several pairs at a time.
 * Each lane of an accumulator is a different (source, destination) pair and
 * its sum runs k = 0, 1, 2, ... exactly as the scalar loop does. The
 * variant is chosen at build time (see kernels.h). */
#include "kernels.h"

#include <string.h>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
typedef v128_t vec;
#define VZERO() wasm_f64x2_splat(0.0)
#define VLOAD(p) wasm_v128_load(p)
#define VSPLAT(p) wasm_v128_load64_splat(p)
#define VMUL(a, b) wasm_f64x2_mul(a, b)
#define VADD(a, b) wasm_f64x2_add(a, b)
#define VSTORE(p, v) wasm_v128_store(p, v)
#define HAVE_FMA 0
#elif defined(__AVX512F__)
#include <immintrin.h>
typedef __m512d vec;
#define VZERO() _mm512_setzero_pd()
#define VLOAD(p) _mm512_loadu_pd(p)
#define VSPLAT(p) _mm512_set1_pd(*(p))
#define VMUL(a, b) _mm512_mul_pd(a, b)
#define VADD(a, b) _mm512_add_pd(a, b)
#define VFMA(a, b, c) _mm512_fmadd_pd(a, b, c)
#define VSTORE(p, v) _mm512_storeu_pd(p, v)
#define HAVE_FMA 1
#elif defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
typedef __m256d vec;
#define VZERO() _mm256_setzero_pd()
#define VLOAD(p) _mm256_loadu_pd(p)
#define VSPLAT(p) _mm256_broadcast_sd(p)
#define VMUL(a, b) _mm256_mul_pd(a, b)
#define VADD(a, b) _mm256_add_pd(a, b)
#define VFMA(a, b, c) _mm256_fmadd_pd(a, b, c)
#define VSTORE(p, v) _mm256_storeu_pd(p, v)
#define HAVE_FMA 1
#elif defined(__GNUC__) && !defined(MDI_NO_VECTOR_EXT)
/* GCC/clang vector extensions: SSE2 on any x86-64, NEON on arm64. With
 * -ffp-contract=off the compiler keeps every product and add separate. */
typedef double vec __attribute__((vector_size(MDI_W * sizeof(double))));
static inline vec vload(const double *p) { vec v; memcpy(&v, p, sizeof v); return v; }
static inline vec vsplat(const double *p) { vec v; for (int i = 0; i < MDI_W; i++) v[i] = *p; return v; }
static inline void vstore(double *p, vec v) { memcpy(p, &v, sizeof v); }
#define VZERO() ((vec){0})
#define VLOAD(p) vload(p)
#define VSPLAT(p) vsplat(p)
#define VMUL(a, b) ((a) * (b))
#define VADD(a, b) ((a) + (b))
#define VSTORE(p, v) vstore(p, v)
#define HAVE_FMA 0
#else
#define MDI_SIMD_IS_SCALAR 1
#endif

const char *mdi_kernel_isa(void) { return MDI_KERNEL_ISA; }

#if defined(__wasm_simd128__)

/* Eight rows at a time, four k at a time: each group of four rows is loaded
 * as four f32x4, transposed with two interleaving shuffles per pair of rows,
 * and widened lane pair by lane pair, so lane p of every accumulator is row
 * j + p and its sums still run k = 0, 1, 2, ... */
#define ROWS_STEP(lo01, lo23, base)                                           \
    do {                                                                      \
        const v128_t x01 = wasm_f64x2_promote_low_f32x4(lo01);                \
        const v128_t x23 = wasm_f64x2_promote_low_f32x4(lo23);                \
        d##base##01 = wasm_f64x2_add(d##base##01, wasm_f64x2_mul(qk, x01));   \
        d##base##23 = wasm_f64x2_add(d##base##23, wasm_f64x2_mul(qk, x23));   \
        s##base##01 = wasm_f64x2_add(s##base##01, wasm_f64x2_mul(x01, x01));  \
        s##base##23 = wasm_f64x2_add(s##base##23, wasm_f64x2_mul(x23, x23));  \
    } while (0)

#define ROWS_GROUP(base, r0, r1, r2, r3)                                      \
    do {                                                                      \
        const v128_t a0 = wasm_v128_load(r0 + k), a1 = wasm_v128_load(r1 + k); \
        const v128_t a2 = wasm_v128_load(r2 + k), a3 = wasm_v128_load(r3 + k); \
        const v128_t lo01 = wasm_i32x4_shuffle(a0, a1, 0, 4, 1, 5);           \
        const v128_t lo23 = wasm_i32x4_shuffle(a2, a3, 0, 4, 1, 5);           \
        const v128_t hi01 = wasm_i32x4_shuffle(a0, a1, 2, 6, 3, 7);           \
        const v128_t hi23 = wasm_i32x4_shuffle(a2, a3, 2, 6, 3, 7);           \
        v128_t qk = wasm_v128_load64_splat(q + k);                            \
        ROWS_STEP(lo01, lo23, base);                                          \
        qk = wasm_v128_load64_splat(q + k + 1);                               \
        ROWS_STEP(wasm_i64x2_shuffle(lo01, lo01, 1, 1), wasm_i64x2_shuffle(lo23, lo23, 1, 1), base); \
        qk = wasm_v128_load64_splat(q + k + 2);                               \
        ROWS_STEP(hi01, hi23, base);                                          \
        qk = wasm_v128_load64_splat(q + k + 3);                               \
        ROWS_STEP(wasm_i64x2_shuffle(hi01, hi01, 1, 1), wasm_i64x2_shuffle(hi23, hi23, 1, 1), base); \
    } while (0)

void mdi_rows_f32_simd(const double *q, const float *rows, size_t n, size_t d, double *dot,
                       double *sumsq) {
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const float *r0 = rows + j * d, *r1 = r0 + d, *r2 = r1 + d, *r3 = r2 + d;
        const float *r4 = r3 + d, *r5 = r4 + d, *r6 = r5 + d, *r7 = r6 + d;
        v128_t dA01 = wasm_f64x2_splat(0.0), dA23 = dA01, sA01 = dA01, sA23 = dA01;
        v128_t dB01 = dA01, dB23 = dA01, sB01 = dA01, sB23 = dA01;
        size_t k = 0;
        for (; k + 4 <= d; k += 4) {
            ROWS_GROUP(A, r0, r1, r2, r3);
            ROWS_GROUP(B, r4, r5, r6, r7);
        }
        for (; k < d; k++) {
            const v128_t qk = wasm_v128_load64_splat(q + k);
            const v128_t xa01 = wasm_f64x2_make((double)r0[k], (double)r1[k]);
            const v128_t xa23 = wasm_f64x2_make((double)r2[k], (double)r3[k]);
            const v128_t xb01 = wasm_f64x2_make((double)r4[k], (double)r5[k]);
            const v128_t xb23 = wasm_f64x2_make((double)r6[k], (double)r7[k]);
            dA01 = wasm_f64x2_add(dA01, wasm_f64x2_mul(qk, xa01));
            dA23 = wasm_f64x2_add(dA23, wasm_f64x2_mul(qk, xa23));
            dB01 = wasm_f64x2_add(dB01, wasm_f64x2_mul(qk, xb01));
            dB23 = wasm_f64x2_add(dB23, wasm_f64x2_mul(qk, xb23));
            sA01 = wasm_f64x2_add(sA01, wasm_f64x2_mul(xa01, xa01));
            sA23 = wasm_f64x2_add(sA23, wasm_f64x2_mul(xa23, xa23));
            sB01 = wasm_f64x2_add(sB01, wasm_f64x2_mul(xb01, xb01));
            sB23 = wasm_f64x2_add(sB23, wasm_f64x2_mul(xb23, xb23));
        }
        wasm_v128_store(dot + j, dA01);
        wasm_v128_store(dot + j + 2, dA23);
        wasm_v128_store(dot + j + 4, dB01);
        wasm_v128_store(dot + j + 6, dB23);
        wasm_v128_store(sumsq + j, sA01);
        wasm_v128_store(sumsq + j + 2, sA23);
        wasm_v128_store(sumsq + j + 4, sB01);
        wasm_v128_store(sumsq + j + 6, sB23);
    }
    mdi_rows_f32_scalar(q, rows + j * d, n - j, d, dot + j, sumsq + j);
}

#elif !defined(MDI_SIMD_IS_SCALAR)

/* Natively: 2 * MDI_W rows at a time, each k gathering one element per row
 * into the lanes (vector extensions; the products are exact, no FMA needed). */
typedef double rvec __attribute__((vector_size(MDI_W * sizeof(double))));

void mdi_rows_f32_simd(const double *q, const float *rows, size_t n, size_t d, double *dot,
                       double *sumsq) {
    size_t j = 0;
    for (; j + 2 * MDI_W <= n; j += 2 * MDI_W) {
        const float *r = rows + j * d;
        rvec d0 = {0}, d1 = {0}, s0 = {0}, s1 = {0};
        for (size_t k = 0; k < d; k++) {
            rvec x0 = {0}, x1 = {0}, qk = {0}; /* every lane is set below */
            for (int p = 0; p < MDI_W; p++) {
                x0[p] = (double)r[p * d + k];
                x1[p] = (double)r[(MDI_W + p) * d + k];
                qk[p] = q[k];
            }
            d0 = d0 + qk * x0;
            d1 = d1 + qk * x1;
            s0 = s0 + x0 * x0;
            s1 = s1 + x1 * x1;
        }
        memcpy(dot + j, &d0, sizeof d0);
        memcpy(dot + j + MDI_W, &d1, sizeof d1);
        memcpy(sumsq + j, &s0, sizeof s0);
        memcpy(sumsq + j + MDI_W, &s1, sizeof s1);
    }
    mdi_rows_f32_scalar(q, rows + j * d, n - j, d, dot + j, sumsq + j);
}

#endif

#ifdef MDI_SIMD_IS_SCALAR

void mdi_rows_f32_simd(const double *q, const float *rows, size_t n, size_t d, double *dot,
                       double *sumsq) {
    mdi_rows_f32_scalar(q, rows, n, d, dot, sumsq);
}

void mdi_block_simd(const double *a, size_t lda, size_t r, const double *panel, size_t d,
                    double *out, int exact) {
    mdi_block_scalar(a, lda, r, panel, d, out, exact);
}
void mdi_row_simd(const double *a, const double *panels, size_t m, size_t d, double *out,
                  int exact) {
    mdi_row_scalar(a, panels, m, d, out, exact);
}

#else

#ifndef VFMA
#define VFMA(a, b, c) VADD(c, VMUL(a, b))
#endif

/* One k step of the R x P block: lane p of acc0[i]/acc1[i] is pair (i, p). */
#define BLOCK_LOOP(STEP)                                                      \
    for (size_t k = 0; k < d; k++) {                                          \
        const vec b0 = VLOAD(panel + k * MDI_P), b1 = VLOAD(panel + k * MDI_P + MDI_W); \
        _Pragma("GCC unroll 16") for (size_t i = 0; i < MDI_R; i++) {         \
            const vec x = VSPLAT(ap[i] + k);                                  \
            acc0[i] = STEP(x, b0, acc0[i]);                                   \
            acc1[i] = STEP(x, b1, acc1[i]);                                   \
        }                                                                     \
    }
#define MULADD(x, b, acc) VADD(acc, VMUL(x, b))

void mdi_block_simd(const double *a, size_t lda, size_t r, const double *panel, size_t d,
                    double *out, int exact) {
    const double *ap[MDI_R];
    vec acc0[MDI_R], acc1[MDI_R];
    _Pragma("GCC unroll 16") for (size_t i = 0; i < MDI_R; i++) {
        ap[i] = a + (i < r ? i : 0) * lda; /* rows past r repeat row 0; discarded */
        acc0[i] = VZERO();
        acc1[i] = VZERO();
    }
    if (exact && HAVE_FMA) {
        BLOCK_LOOP(VFMA)
    } else {
        BLOCK_LOOP(MULADD)
    }
    for (size_t i = 0; i < r; i++) {
        VSTORE(out + i * MDI_P, acc0[i]);
        VSTORE(out + i * MDI_P + MDI_W, acc1[i]);
    }
}

#define ROW_LOOP(STEP)                                                        \
    for (size_t k = 0; k < d; k++) {                                          \
        const vec x = VSPLAT(a + k);                                          \
        _Pragma("GCC unroll 16") for (size_t q = 0; q < MDI_M; q++) {         \
            acc0[q] = STEP(x, VLOAD(pp[q] + k * MDI_P), acc0[q]);             \
            acc1[q] = STEP(x, VLOAD(pp[q] + k * MDI_P + MDI_W), acc1[q]);     \
        }                                                                     \
    }

void mdi_row_simd(const double *a, const double *panels, size_t m, size_t d, double *out,
                  int exact) {
    const double *pp[MDI_M];
    vec acc0[MDI_M], acc1[MDI_M];
    _Pragma("GCC unroll 16") for (size_t q = 0; q < MDI_M; q++) {
        pp[q] = panels + (q < m ? q : 0) * d * MDI_P;
        acc0[q] = VZERO();
        acc1[q] = VZERO();
    }
    if (exact && HAVE_FMA) {
        ROW_LOOP(VFMA)
    } else {
        ROW_LOOP(MULADD)
    }
    for (size_t q = 0; q < m; q++) {
        VSTORE(out + q * MDI_P, acc0[q]);
        VSTORE(out + q * MDI_P + MDI_W, acc1[q]);
    }
}

#endif

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

#ifdef MDI_SIMD_IS_SCALAR

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

/* The AVX2+FMA variant (x86-64 only; chosen at run time by kernels.c). The
 * library is built for baseline x86-64: only these functions carry the
 * target attribute, and nothing calls them unless the CPU has AVX2 and FMA. */
#include "kernels.h"

#if (defined(__x86_64__) || defined(__i386__)) && !defined(MDI_NO_X86_VARIANTS)
#include <immintrin.h>

#define KFN(name) name##_avx2
#define KATTR __attribute__((target("avx2,fma")))

typedef __m256d vd;
#define VD 4
#define VD_ZERO() _mm256_setzero_pd()
#define VD_LOAD(p) _mm256_loadu_pd(p)
#define VD_SPLAT(p) _mm256_broadcast_sd(p)
#define VD_MUL(a, b) _mm256_mul_pd(a, b)
#define VD_ADD(a, b) _mm256_add_pd(a, b)
#define VD_FMA(a, b, c) _mm256_fmadd_pd(a, b, c)
#define VD_STORE(p, v) _mm256_storeu_pd(p, v)
#define HAVE_FMA 1
#define KR 6

typedef __m256i vi;
#define VI_LANES 8
KATTR static inline vi vi_splat32(const int16_t *p) { int32_t x; __builtin_memcpy(&x, p, 4); return _mm256_set1_epi32(x); }
#define VI_ZERO() _mm256_setzero_si256()
#define VI_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VI_SPLAT32(p) vi_splat32(p)
#define VI_MADD(a, b) _mm256_madd_epi16(a, b)
#define VI_ADD(a, b) _mm256_add_epi32(a, b)
#define VI_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define QPV 2
#define QR 6
typedef __m256 vf;
typedef __m256 vm;
#define VF_LOAD(p) _mm256_loadu_ps(p)
#define VF_SPLAT(x) _mm256_set1_ps(x)
#define VF_FROM_I(v) _mm256_cvtepi32_ps(v)
#define VF_MUL(a, b) _mm256_mul_ps(a, b)
#define VF_ADD(a, b) _mm256_add_ps(a, b)
#define VF_GE(a, b) _mm256_cmp_ps(a, b, _CMP_GE_OQ)
#define VM_OR(a, b) _mm256_or_ps(a, b)
#define VM_BITS(m) _mm256_movemask_ps(m)

/* Four rows, four k at a time: a 4 x 4 transpose puts row p in lane p, each
 * column widened to doubles; every lane's sums still run k = 0, 1, 2, ... */
KATTR static inline void rows4(const double *q, const float *r0, const float *r1, const float *r2,
                               const float *r3, size_t d, double *dot, double *ss, int sq) {
    __m256d acc = _mm256_setzero_pd(), sacc = _mm256_setzero_pd();
    size_t k = 0;
    for (; k + 4 <= d; k += 4) {
        __m128 a = _mm_loadu_ps(r0 + k), b = _mm_loadu_ps(r1 + k), c = _mm_loadu_ps(r2 + k), e = _mm_loadu_ps(r3 + k);
        _MM_TRANSPOSE4_PS(a, b, c, e);
        const __m128 col[4] = {a, b, c, e};
        for (int m = 0; m < 4; m++) {
            const __m256d x = _mm256_cvtps_pd(col[m]);
            acc = _mm256_add_pd(acc, _mm256_mul_pd(_mm256_broadcast_sd(q + k + m), x));
            if (sq) sacc = _mm256_add_pd(sacc, _mm256_mul_pd(x, x));
        }
    }
    for (; k < d; k++) {
        const __m256d x = _mm256_set_pd((double)r3[k], (double)r2[k], (double)r1[k], (double)r0[k]);
        acc = _mm256_add_pd(acc, _mm256_mul_pd(_mm256_broadcast_sd(q + k), x));
        if (sq) sacc = _mm256_add_pd(sacc, _mm256_mul_pd(x, x));
    }
    _mm256_storeu_pd(dot, acc);
    if (sq) _mm256_storeu_pd(ss, sacc);
}

KATTR static void rows_f32_avx2(const double *q, const float *rows, size_t n, size_t d, double *dot,
                                double *sumsq) {
    size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const float *r = rows + j * d;
        rows4(q, r, r + d, r + 2 * d, r + 3 * d, d, dot + j, sumsq + j, 1);
    }
    mdi_rows_f32_scalar(q, rows + j * d, n - j, d, dot + j, sumsq + j);
}

KATTR static void dots_f32_avx2(const double *q, const float *const *rows, size_t n, size_t d,
                                double *dot) {
    size_t j = 0;
    for (; j + 4 <= n; j += 4) rows4(q, rows[j], rows[j + 1], rows[j + 2], rows[j + 3], d, dot + j, NULL, 0);
    mdi_dots_f32_scalar(q, rows + j, n - j, d, dot + j);
}

KATTR static inline int32_t hsum8(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
}

/* Filter: 16 int8 per row per step, sign-extended by vpmovsxbw. */
KATTR static void q8_dots_avx2(const int16_t *q, const int8_t *rows, size_t n, size_t dp, int32_t *out) {
    size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const int8_t *r = rows + j * dp;
        __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
        for (size_t k = 0; k < dp; k += 16) {
            const __m256i qk = _mm256_loadu_si256((const __m256i *)(const void *)(q + k));
#define Q8(acc, rr) acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)((rr) + k))), qk))
            Q8(a0, r);
            Q8(a1, r + dp);
            Q8(a2, r + 2 * dp);
            Q8(a3, r + 3 * dp);
#undef Q8
        }
        out[j] = hsum8(a0);
        out[j + 1] = hsum8(a1);
        out[j + 2] = hsum8(a2);
        out[j + 3] = hsum8(a3);
    }
    mdi_q8_dots_scalar(q, rows + j * dp, n - j, dp, out + j);
}

#include "kernels_vec.h"

KTABLE(mdi_kernels_avx2, "avx2+fma");

#endif

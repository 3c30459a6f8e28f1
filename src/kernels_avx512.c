/* The AVX-512 (F + BW) variant (x86-64 only; chosen at run time by
 * kernels.c). The library is built for baseline x86-64: only these
 * functions carry the target attribute, and nothing calls them unless the
 * CPU (and the OS, which must save the zmm state) supports AVX-512F and BW. */
#include "kernels.h"

#if (defined(__x86_64__) || defined(__i386__)) && !defined(MDI_NO_X86_VARIANTS)
#include <immintrin.h>

#ifdef MDI_AVX512_VNNI /* kernels_avx512vnni.c: this file again, the int16 products by vpdpwssd */
#define KFN(name) name##_avx512vnni
#define KATTR __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define VI_MAC(c, a, b) _mm512_dpwssd_epi32(c, a, b)
#define KTABLE_NAME mdi_kernels_avx512vnni
#define KTABLE_LABEL "avx512vnni"
#else
#define KFN(name) name##_avx512
#define KATTR __attribute__((target("avx512f,avx512bw")))
#define VI_MAC(c, a, b) _mm512_add_epi32(c, _mm512_madd_epi16(a, b))
#define KTABLE_NAME mdi_kernels_avx512
#define KTABLE_LABEL "avx512"
#endif
#define KROWS8 /* kernels_vec.h builds rows_f32 and dots_f32 from rows8 */

typedef __m512d vd;
#define VD 8
#define VD_ZERO() _mm512_setzero_pd()
#define VD_LOAD(p) _mm512_loadu_pd(p)
#define VD_SPLAT(p) _mm512_set1_pd(*(p))
#define VD_MUL(a, b) _mm512_mul_pd(a, b)
#define VD_ADD(a, b) _mm512_add_pd(a, b)
#define VD_FMA(a, b, c) _mm512_fmadd_pd(a, b, c)
#define VD_STORE(p, v) _mm512_storeu_pd(p, v)
#define HAVE_FMA 1
#define KR 6

typedef __m512i vi;
#define VI_LANES 16
KATTR static inline vi vi_splat32(const int16_t *p) { int32_t x; __builtin_memcpy(&x, p, 4); return _mm512_set1_epi32(x); }
#define VI_ZERO() _mm512_setzero_si512()
#define VI_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VI_SPLAT32(p) vi_splat32(p)
#define VI_MADD(a, b) _mm512_madd_epi16(a, b)
#define VI_ADD(a, b) _mm512_add_epi32(a, b)
#define VI_STORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define QPV 4
#define QR 6
typedef __m512 vf;
typedef __mmask16 vm;
#define VF_LOAD(p) _mm512_loadu_ps(p)
#define VF_SPLAT(x) _mm512_set1_ps(x)
#define VF_FROM_I(v) _mm512_cvtepi32_ps(v)
#define VF_MUL(a, b) _mm512_mul_ps(a, b)
#define VF_ADD(a, b) _mm512_add_ps(a, b)
#define VF_GE(a, b) _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ)
#define VM_OR(a, b) ((vm)((a) | (b)))
#define VM_BITS(m) ((unsigned)(m))

/* Eight rows, eight k at a time: an 8 x 8 transpose of floats puts row p in
 * lane p, each column widened to eight doubles; every lane's sums still run
 * k = 0, 1, 2, ... */
KATTR static inline void rows8(const double *q, const float *const *r, size_t d, double *dot,
                               double *ss, int sq) {
    __m512d acc = _mm512_setzero_pd(), sacc = _mm512_setzero_pd();
    size_t k = 0;
    for (; k + 8 <= d; k += 8) {
        __m256 x0 = _mm256_loadu_ps(r[0] + k), x1 = _mm256_loadu_ps(r[1] + k);
        __m256 x2 = _mm256_loadu_ps(r[2] + k), x3 = _mm256_loadu_ps(r[3] + k);
        __m256 x4 = _mm256_loadu_ps(r[4] + k), x5 = _mm256_loadu_ps(r[5] + k);
        __m256 x6 = _mm256_loadu_ps(r[6] + k), x7 = _mm256_loadu_ps(r[7] + k);
        const __m256 t0 = _mm256_unpacklo_ps(x0, x1), t1 = _mm256_unpackhi_ps(x0, x1);
        const __m256 t2 = _mm256_unpacklo_ps(x2, x3), t3 = _mm256_unpackhi_ps(x2, x3);
        const __m256 t4 = _mm256_unpacklo_ps(x4, x5), t5 = _mm256_unpackhi_ps(x4, x5);
        const __m256 t6 = _mm256_unpacklo_ps(x6, x7), t7 = _mm256_unpackhi_ps(x6, x7);
        const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xee);
        const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xee);
        const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xee);
        const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xee);
        const __m256 col[8] = {
            _mm256_permute2f128_ps(u0, u4, 0x20), _mm256_permute2f128_ps(u1, u5, 0x20),
            _mm256_permute2f128_ps(u2, u6, 0x20), _mm256_permute2f128_ps(u3, u7, 0x20),
            _mm256_permute2f128_ps(u0, u4, 0x31), _mm256_permute2f128_ps(u1, u5, 0x31),
            _mm256_permute2f128_ps(u2, u6, 0x31), _mm256_permute2f128_ps(u3, u7, 0x31),
        };
        for (int m = 0; m < 8; m++) {
            const __m512d x = _mm512_cvtps_pd(col[m]);
            acc = _mm512_add_pd(acc, _mm512_mul_pd(_mm512_set1_pd(q[k + m]), x));
            if (sq) sacc = _mm512_add_pd(sacc, _mm512_mul_pd(x, x));
        }
    }
    for (; k < d; k++) {
        double xs[8];
        for (int p = 0; p < 8; p++) xs[p] = (double)r[p][k];
        const __m512d x = _mm512_loadu_pd(xs);
        acc = _mm512_add_pd(acc, _mm512_mul_pd(_mm512_set1_pd(q[k]), x));
        if (sq) sacc = _mm512_add_pd(sacc, _mm512_mul_pd(x, x));
    }
    _mm512_storeu_pd(dot, acc);
    if (sq) _mm512_storeu_pd(ss, sacc);
}


/* Filter: 32 int8 per row per step, sign-extended by vpmovsxbw (zmm). */
KATTR static void KFN(q8_dots)(const int16_t *q, const int8_t *rows, size_t n, size_t dp, int32_t *out) {
    size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const int8_t *r = rows + j * dp;
        __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
        for (size_t k = 0; k < dp; k += 32) {
            const __m512i qk = _mm512_loadu_si512((const void *)(q + k));
#define Q8(acc, rr) acc = VI_MAC(acc, _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)((rr) + k))), qk)
            Q8(a0, r);
            Q8(a1, r + dp);
            Q8(a2, r + 2 * dp);
            Q8(a3, r + 3 * dp);
#undef Q8
        }
        out[j] = _mm512_reduce_add_epi32(a0);
        out[j + 1] = _mm512_reduce_add_epi32(a1);
        out[j + 2] = _mm512_reduce_add_epi32(a2);
        out[j + 3] = _mm512_reduce_add_epi32(a3);
    }
    mdi_q8_dots_scalar(q, rows + j * dp, n - j, dp, out + j);
}

#include "kernels_vec.h"

KTABLE(KTABLE_NAME, KTABLE_LABEL);

#endif

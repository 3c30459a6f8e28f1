/* The SIMD variant every build has: wasm SIMD128 in the wasm builds, and
 * natively the baseline of the target (SSE2 on x86-64, NEON on arm64, GCC
 * vector extensions elsewhere), so the library needs no flag beyond the
 * target's default. Wider x86 variants live in kernels_avx2.c and
 * kernels_avx512.c; kernels.c picks one at run time. */
#include "kernels.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#endif

#define KFN(name) name##_base
#define KATTR

/* ---------------------------------------------------------------- doubles */

#if defined(__wasm_simd128__)
typedef v128_t vd;
#define VD 2
#define VD_ZERO() wasm_f64x2_splat(0.0)
#define VD_LOAD(p) wasm_v128_load(p)
#define VD_SPLAT(p) wasm_v128_load64_splat(p)
#define VD_MUL(a, b) wasm_f64x2_mul(a, b)
#define VD_ADD(a, b) wasm_f64x2_add(a, b)
#define VD_STORE(p, v) wasm_v128_store(p, v)
#else
/* GCC/clang vector extensions; with -ffp-contract=off every product and add
 * stays separate. */
typedef double vd __attribute__((vector_size(2 * sizeof(double))));
#define VD 2
static inline vd vd_load(const double *p) { vd v; __builtin_memcpy(&v, p, sizeof v); return v; }
static inline vd vd_splat(const double *p) { vd v = {*p, *p}; return v; }
static inline void vd_store(double *p, vd v) { __builtin_memcpy(p, &v, sizeof v); }
#define VD_ZERO() ((vd){0})
#define VD_LOAD(p) vd_load(p)
#define VD_SPLAT(p) vd_splat(p)
#define VD_MUL(a, b) ((a) * (b))
#define VD_ADD(a, b) ((a) + (b))
#define VD_STORE(p, v) vd_store(p, v)
#endif
#define HAVE_FMA 0
#define KR 4

/* ---------------------------------------------------------------- int32 lanes */

#define QPV 2
#if defined(__wasm_simd128__)
#define QR 4 /* V8 allocates 15 vector registers: 6 x 2 accumulators spill (measured 17% slower) */
#else
#define QR 6
#endif
#if defined(__wasm_simd128__)
typedef v128_t vi;
#define VI_LANES 4
#define VI_ZERO() wasm_i32x4_splat(0)
#define VI_LOAD(p) wasm_v128_load(p)
#define VI_SPLAT32(p) wasm_v128_load32_splat(p)
#define VI_MADD(a, b) wasm_i32x4_dot_i16x8(a, b)
#define VI_ADD(a, b) wasm_i32x4_add(a, b)
#define VI_STORE(p, v) wasm_v128_store(p, v)
typedef v128_t vf;
typedef v128_t vm;
#define VF_LOAD(p) wasm_v128_load(p)
#define VF_SPLAT(x) wasm_f32x4_splat(x)
#define VF_FROM_I(v) wasm_f32x4_convert_i32x4(v)
#define VF_MUL(a, b) wasm_f32x4_mul(a, b)
#define VF_ADD(a, b) wasm_f32x4_add(a, b)
#define VF_GE(a, b) wasm_f32x4_ge(a, b)
#define VM_OR(a, b) wasm_v128_or(a, b)
#define VM_BITS(m) wasm_i32x4_bitmask(m)
#elif defined(__SSE2__)
typedef __m128i vi;
#define VI_LANES 4
static inline vi vi_splat32(const int16_t *p) { int32_t x; __builtin_memcpy(&x, p, 4); return _mm_set1_epi32(x); }
#define VI_ZERO() _mm_setzero_si128()
#define VI_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define VI_SPLAT32(p) vi_splat32(p)
#define VI_MADD(a, b) _mm_madd_epi16(a, b)
#define VI_ADD(a, b) _mm_add_epi32(a, b)
#define VI_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
typedef __m128 vf;
typedef __m128 vm;
#define VF_LOAD(p) _mm_loadu_ps(p)
#define VF_SPLAT(x) _mm_set1_ps(x)
#define VF_FROM_I(v) _mm_cvtepi32_ps(v)
#define VF_MUL(a, b) _mm_mul_ps(a, b)
#define VF_ADD(a, b) _mm_add_ps(a, b)
#define VF_GE(a, b) _mm_cmpge_ps(a, b)
#define VM_OR(a, b) _mm_or_ps(a, b)
#define VM_BITS(m) _mm_movemask_ps(m)
#elif defined(__aarch64__) && defined(__ARM_NEON)
typedef int32x4_t vi;
#define VI_LANES 4
static inline vi vi_splat32(const int16_t *p) { int32_t x; __builtin_memcpy(&x, p, 4); return vdupq_n_s32(x); }
static inline vi vi_madd(vi a, vi b) {
    int16x8_t x = vreinterpretq_s16_s32(a), y = vreinterpretq_s16_s32(b);
    return vpaddq_s32(vmull_s16(vget_low_s16(x), vget_low_s16(y)), vmull_high_s16(x, y));
}
#define VI_ZERO() vdupq_n_s32(0)
#define VI_LOAD(p) vreinterpretq_s32_s16(vld1q_s16(p))
#define VI_SPLAT32(p) vi_splat32(p)
#define VI_MADD(a, b) vi_madd(a, b)
#define VI_ADD(a, b) vaddq_s32(a, b)
#define VI_STORE(p, v) vst1q_s32(p, v)
typedef float32x4_t vf;
typedef uint32x4_t vm;
static inline unsigned vm_bits(vm m) {
    const uint32x4_t weight = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32(m, weight));
}
#define VF_LOAD(p) vld1q_f32(p)
#define VF_SPLAT(x) vdupq_n_f32(x)
#define VF_FROM_I(v) vcvtq_f32_s32(v)
#define VF_MUL(a, b) vmulq_f32(a, b)
#define VF_ADD(a, b) vaddq_f32(a, b)
#define VF_GE(a, b) vcgeq_f32(a, b)
#define VM_OR(a, b) vorrq_u32(a, b)
#define VM_BITS(m) vm_bits(m)
#else
/* Portable vector extensions (wrapping int32 adds are defined for vector types). */
typedef int32_t vi __attribute__((vector_size(16)));
typedef int16_t vs __attribute__((vector_size(16)));
#define VI_LANES 4
static inline vi vi_load(const void *p) { vi v; __builtin_memcpy(&v, p, sizeof v); return v; }
static inline vi vi_splat32(const int16_t *p) { int32_t x; __builtin_memcpy(&x, p, 4); vi v = {x, x, x, x}; return v; }
static inline vi vi_madd(vi a, vi b) {
    vs x = (vs)a, y = (vs)b;
    vi r;
    for (int l = 0; l < 4; l++)
        r[l] = (int32_t)((uint32_t)(x[2 * l] * y[2 * l]) + (uint32_t)(x[2 * l + 1] * y[2 * l + 1]));
    return r;
}
static inline void vi_store(int32_t *p, vi v) { __builtin_memcpy(p, &v, sizeof v); }
#define VI_ZERO() ((vi){0})
#define VI_LOAD(p) vi_load(p)
#define VI_SPLAT32(p) vi_splat32(p)
#define VI_MADD(a, b) vi_madd(a, b)
#define VI_ADD(a, b) ((vi)((__typeof__(a))((a) + (b))))
#define VI_STORE(p, v) vi_store(p, v)
typedef float vf __attribute__((vector_size(16)));
typedef int32_t vm __attribute__((vector_size(16)));
static inline vf vf_load(const float *p) { vf v; __builtin_memcpy(&v, p, sizeof v); return v; }
static inline vf vf_splat(float x) { vf v = {x, x, x, x}; return v; }
static inline unsigned vm_bits(vm m) { return (unsigned)((m[0] & 1) | (m[1] & 2) | (m[2] & 4) | (m[3] & 8)); }
#define VF_LOAD(p) vf_load(p)
#define VF_SPLAT(x) vf_splat(x)
#define VF_FROM_I(v) __builtin_convertvector(v, vf)
#define VF_MUL(a, b) ((a) * (b))
#define VF_ADD(a, b) ((a) + (b))
#define VF_GE(a, b) ((a) >= (b))
#define VM_OR(a, b) ((a) | (b))
#define VM_BITS(m) vm_bits(m)
#endif

/* ---------------------------------------------------------------- 1 x n rows */

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
        if (SQ) {                                                             \
            s##base##01 = wasm_f64x2_add(s##base##01, wasm_f64x2_mul(x01, x01)); \
            s##base##23 = wasm_f64x2_add(s##base##23, wasm_f64x2_mul(x23, x23)); \
        }                                                                     \
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

/* Rows r[0..8): dot (and, when SQ, the sums of squares) into dot[0..8),
 * ss[0..8). One copy for both uses (a predictable branch per step; the
 * module has a size budget). */
__attribute__((noinline)) static void rows8(const double *q, const float *const *r, size_t d,
                                            double *dot, double *ss, const int SQ) {
    const float *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3];
    const float *r4 = r[4], *r5 = r[5], *r6 = r[6], *r7 = r[7];
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
        if (SQ) {
            sA01 = wasm_f64x2_add(sA01, wasm_f64x2_mul(xa01, xa01));
            sA23 = wasm_f64x2_add(sA23, wasm_f64x2_mul(xa23, xa23));
            sB01 = wasm_f64x2_add(sB01, wasm_f64x2_mul(xb01, xb01));
            sB23 = wasm_f64x2_add(sB23, wasm_f64x2_mul(xb23, xb23));
        }
    }
    wasm_v128_store(dot, dA01);
    wasm_v128_store(dot + 2, dA23);
    wasm_v128_store(dot + 4, dB01);
    wasm_v128_store(dot + 6, dB23);
    if (SQ) {
        wasm_v128_store(ss, sA01);
        wasm_v128_store(ss + 2, sA23);
        wasm_v128_store(ss + 4, sB01);
        wasm_v128_store(ss + 6, sB23);
    }
}


/* Filter: int8 loaded and sign-extended to i16 eight at a time
 * (v128.load8x8_s: one instruction) and multiplied with the query's i16 by
 * the pairwise dot, four accumulators per row. The rows are read one after
 * another, front to back, so memory is one ascending stream: reading four
 * rows side by side (four streams 1 row apart) left the hardware prefetcher
 * idle and the scan bound by the misses in flight, 2x slower at 100k rows
 * (bench/resident.mjs). Four rows' sums are stored together by a
 * transpose-add. */
static void q8_dots_base(const int16_t *q, const int8_t *rows, size_t n, size_t dp, int32_t *out) {
    size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        v128_t acc[4];
        for (int u = 0; u < 4; u++) {
            const int8_t *r = rows + (j + u) * dp;
            v128_t a0 = wasm_i32x4_splat(0), a1 = a0, a2 = a0, a3 = a0;
            for (size_t k = 0; k < dp; k += 32) {
#define Q8_STEP(acc, o) acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(wasm_i16x8_load8x8(r + k + o), wasm_v128_load(q + k + o)))
                Q8_STEP(a0, 0);
                Q8_STEP(a1, 8);
                Q8_STEP(a2, 16);
                Q8_STEP(a3, 24);
#undef Q8_STEP
            }
            acc[u] = wasm_i32x4_add(wasm_i32x4_add(a0, a1), wasm_i32x4_add(a2, a3));
        }
        /* transpose-add: lane l of the result is row j + l's sum */
        const v128_t t01 = wasm_i32x4_add(wasm_i32x4_shuffle(acc[0], acc[1], 0, 4, 1, 5), wasm_i32x4_shuffle(acc[0], acc[1], 2, 6, 3, 7));
        const v128_t t23 = wasm_i32x4_add(wasm_i32x4_shuffle(acc[2], acc[3], 0, 4, 1, 5), wasm_i32x4_shuffle(acc[2], acc[3], 2, 6, 3, 7));
        const v128_t s = wasm_i32x4_add(wasm_i64x2_shuffle(t01, t23, 0, 2), wasm_i64x2_shuffle(t01, t23, 1, 3));
        wasm_v128_store(out + j, s);
    }
    mdi_q8_dots_scalar(q, rows + j * dp, n - j, dp, out + j);
}

#define KROWS8 /* kernels_vec.h builds rows_f32 and dots_f32 from rows8 */

#else /* native baseline */

/* 2 * VD rows at a time, each k gathering one element per row into the
 * lanes (the products are exact: no FMA needed). */
#define GATHER_ROWS(ROWPTR, SQ)                                                  \
    size_t j = 0;                                                                \
    for (; j + 2 * VD <= n; j += 2 * VD) {                                       \
        vd d0 = VD_ZERO(), d1 = VD_ZERO(), s0 = VD_ZERO(), s1 = VD_ZERO();       \
        for (size_t k = 0; k < d; k++) {                                         \
            double x0a[VD], x1a[VD];                                             \
            for (int p = 0; p < VD; p++) {                                       \
                x0a[p] = (double)ROWPTR(j + p)[k];                               \
                x1a[p] = (double)ROWPTR(j + VD + p)[k];                          \
            }                                                                    \
            const vd qk = VD_SPLAT(q + k), x0 = VD_LOAD(x0a), x1 = VD_LOAD(x1a); \
            d0 = VD_ADD(d0, VD_MUL(qk, x0));                                     \
            d1 = VD_ADD(d1, VD_MUL(qk, x1));                                     \
            if (SQ) {                                                            \
                s0 = VD_ADD(s0, VD_MUL(x0, x0));                                 \
                s1 = VD_ADD(s1, VD_MUL(x1, x1));                                 \
            }                                                                    \
        }                                                                        \
        VD_STORE(dot + j, d0);                                                   \
        VD_STORE(dot + j + VD, d1);                                              \
        if (SQ) {                                                                \
            VD_STORE(sumsq + j, s0);                                             \
            VD_STORE(sumsq + j + VD, s1);                                        \
        }                                                                        \
    }

static void rows_f32_base(const double *q, const float *rows, size_t n, size_t d, double *dot,
                          double *sumsq) {
#define CONTIG(i) (rows + (i) * d)
    GATHER_ROWS(CONTIG, 1)
#undef CONTIG
    mdi_rows_f32_scalar(q, rows + j * d, n - j, d, dot + j, sumsq + j);
}

static void dots_f32_base(const double *q, const float *const *rows, size_t n, size_t d, double *dot) {
    double *sumsq = NULL;
    (void)sumsq;
#define PTRS(i) (rows[i])
    GATHER_ROWS(PTRS, 0)
#undef PTRS
    mdi_dots_f32_scalar(q, rows + j, n - j, d, dot + j);
}

#if defined(__SSE2__)
/* SSE2 has no sign extension instruction: interleave a byte with itself and
 * shift right arithmetically by 8. */
static void q8_dots_base(const int16_t *q, const int8_t *rows, size_t n, size_t dp, int32_t *out) {
    for (size_t j = 0; j < n; j++) {
        const int8_t *r = rows + j * dp;
        __m128i acc = _mm_setzero_si128();
        for (size_t k = 0; k < dp; k += 16) {
            const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(r + k));
            const __m128i lo = _mm_srai_epi16(_mm_unpacklo_epi8(x, x), 8);
            const __m128i hi = _mm_srai_epi16(_mm_unpackhi_epi8(x, x), 8);
            acc = _mm_add_epi32(acc, _mm_madd_epi16(lo, _mm_loadu_si128((const __m128i *)(const void *)(q + k))));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(hi, _mm_loadu_si128((const __m128i *)(const void *)(q + k + 8))));
        }
        acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 0x4e));
        acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 0xb1));
        out[j] = _mm_cvtsi128_si32(acc);
    }
}
#else
static void q8_dots_base(const int16_t *q, const int8_t *rows, size_t n, size_t dp, int32_t *out) {
    mdi_q8_dots_scalar(q, rows, n, dp, out);
}
#endif

#endif /* native baseline */

#include "kernels_vec.h"

#if defined(__wasm_simd128__)
KTABLE(mdi_kernels_base, "wasm-simd128");
#elif defined(__SSE2__)
KTABLE(mdi_kernels_base, "sse2");
#elif defined(__aarch64__) && defined(__ARM_NEON)
KTABLE(mdi_kernels_base, "neon");
#else
KTABLE(mdi_kernels_base, "vector-extensions");
#endif

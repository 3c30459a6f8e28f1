/* The vector kernels, written once over a few vector operations and
 * instantiated per instruction set by kernels_simd.c (wasm SIMD128, or the
 * baseline: SSE2 on x86-64, NEON on arm64), kernels_avx2.c and
 * kernels_avx512.c. Each lane of an accumulator is a different (source,
 * destination) pair and its sum runs k = 0, 1, 2, ... exactly as the scalar
 * twin's loop does (kernels.h).
 *
 * The includer defines:
 *   KFN(name)   the variant's function name (e.g. name##_avx2)
 *   KATTR       a target attribute for every function (or nothing)
 *   VD, vd      doubles per vector and the vector type; VD_ZERO(), VD_LOAD(p),
 *               VD_SPLAT(p), VD_ADD(a, b), VD_MUL(a, b), VD_STORE(p, v), and
 *               VD_FMA(a, b, c) (a * b + c, one rounding) when HAVE_FMA is 1
 *   KR          exact sources per block (panels are 2 * VD lanes)
 *   vi          an int32 vector of VI_LANES lanes; VI_ZERO(), VI_LOAD(p),
 *               VI_SPLAT32(p) (the 4 bytes at p in every lane), VI_MADD(a, b)
 *               (i16 lanes multiplied, adjacent pairs added into i32 lanes),
 *               VI_ADD(a, b) (i32, wrapping), VI_STORE(p, v)
 *   QPV, QR     i16 panel vectors per panel and sources per block
 * and, before including, the functions KFN(rows_f32), KFN(dots_f32) and
 * KFN(q8_dots) (their best form differs per instruction set). */

#define KP (2 * VD)
#define KQP (QPV * VI_LANES)

#if !HAVE_FMA
#undef VD_FMA
#define VD_FMA(a, b, c) VD_ADD(c, VD_MUL(a, b))
#endif
#define KMULADD(a, b, c) VD_ADD(c, VD_MUL(a, b))

/* One k step of the KR x KP block: lane q of acc0[i]/acc1[i] is pair (i, q). */
#define KBLOCK_LOOP(STEP)                                                        \
    for (size_t k = 0; k < d; k++) {                                             \
        const vd b0 = VD_LOAD(panel + k * KP), b1 = VD_LOAD(panel + k * KP + VD); \
        _Pragma("GCC unroll 16") for (size_t i = 0; i < KR; i++) {               \
            const vd x = VD_SPLAT(ap[i] + k);                                    \
            acc0[i] = STEP(x, b0, acc0[i]);                                      \
            acc1[i] = STEP(x, b1, acc1[i]);                                      \
        }                                                                        \
    }

KATTR static void KFN(block)(const double *a, size_t lda, size_t r, const double *panel, size_t d,
                             double *out, int exact) {
    const double *ap[KR];
    vd acc0[KR], acc1[KR];
    _Pragma("GCC unroll 16") for (size_t i = 0; i < KR; i++) {
        ap[i] = a + (i < r ? i : 0) * lda; /* rows past r repeat row 0; discarded */
        acc0[i] = VD_ZERO();
        acc1[i] = VD_ZERO();
    }
    if (exact && HAVE_FMA) {
        KBLOCK_LOOP(VD_FMA)
    } else {
        KBLOCK_LOOP(KMULADD)
    }
    for (size_t i = 0; i < r; i++) {
        VD_STORE(out + i * KP, acc0[i]);
        VD_STORE(out + i * KP + VD, acc1[i]);
    }
}

#define KROW_LOOP(STEP)                                                          \
    for (size_t k = 0; k < d; k++) {                                             \
        const vd x = VD_SPLAT(a + k);                                            \
        _Pragma("GCC unroll 16") for (size_t t = 0; t < MDI_M; t++) {            \
            acc0[t] = STEP(x, VD_LOAD(pp[t] + k * KP), acc0[t]);                 \
            acc1[t] = STEP(x, VD_LOAD(pp[t] + k * KP + VD), acc1[t]);            \
        }                                                                        \
    }

KATTR static void KFN(row)(const double *a, const double *panels, size_t m, size_t d, double *out,
                           int exact) {
    const double *pp[MDI_M];
    vd acc0[MDI_M], acc1[MDI_M];
    _Pragma("GCC unroll 16") for (size_t t = 0; t < MDI_M; t++) {
        pp[t] = panels + (t < m ? t : 0) * d * KP;
        acc0[t] = VD_ZERO();
        acc1[t] = VD_ZERO();
    }
    if (exact && HAVE_FMA) {
        KROW_LOOP(VD_FMA)
    } else {
        KROW_LOOP(KMULADD)
    }
    for (size_t t = 0; t < m; t++) {
        VD_STORE(out + t * KP, acc0[t]);
        VD_STORE(out + t * KP + VD, acc1[t]);
    }
}

/* Filter: sources against one i16 panel. Each VI_MADD adds two products of
 * one (source, destination) pair into that pair's i32 lane. */
KATTR static void KFN(q16_block)(const int16_t *a, size_t lda, size_t r, const int16_t *panel,
                                 size_t dp, int32_t *out) {
    const int16_t *ap[QR];
    vi acc[QR][QPV];
    _Pragma("GCC unroll 16") for (size_t i = 0; i < QR; i++) {
        ap[i] = a + (i < r ? i : 0) * lda;
        _Pragma("GCC unroll 16") for (size_t v = 0; v < QPV; v++) acc[i][v] = VI_ZERO();
    }
    for (size_t kk = 0; kk < dp / 2; kk++) {
        const int16_t *pk = panel + kk * KQP * 2;
        vi b[QPV];
        _Pragma("GCC unroll 16") for (size_t v = 0; v < QPV; v++) b[v] = VI_LOAD(pk + v * VI_LANES * 2);
        _Pragma("GCC unroll 16") for (size_t i = 0; i < QR; i++) {
            const vi x = VI_SPLAT32(ap[i] + 2 * kk);
            _Pragma("GCC unroll 16") for (size_t v = 0; v < QPV; v++) acc[i][v] = VI_ADD(acc[i][v], VI_MADD(x, b[v]));
        }
    }
    for (size_t i = 0; i < r; i++)
        for (size_t v = 0; v < QPV; v++) VI_STORE(out + i * KQP + v * VI_LANES, acc[i][v]);
}

#define KTABLE(var, label)                                                              \
    const mdi_kernels var = {                                                           \
        label, KP, KR, KQP, QR,                                                         \
        KFN(block), KFN(row), KFN(rows_f32), KFN(dots_f32), KFN(q8_dots), KFN(q16_block), \
    }

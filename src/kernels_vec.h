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
 *               VI_ADD(a, b) (i32, wrapping), VI_STORE(p, v), and optionally
 *               VI_MAC(c, a, b) (c + VI_MADD(a, b) in one instruction, as
 *               AVX-512 VNNI's vpdpwssd: the same i32 lanes, wrapping)
 *   QPV, QR     i16 panel vectors per panel and sources per block
 *   vf, vm      a float vector of VI_LANES lanes and its compare result;
 *               VF_LOAD(p), VF_SPLAT(x), VF_FROM_I(v) (int32 lanes to float),
 *               VF_MUL, VF_ADD, VF_GE(a, b), VM_OR(a, b), VM_BITS(m) (lane l
 *               true -> bit l)
 * and, before including, the functions KFN(q8_dots) and either KFN(rows_f32)
 * and KFN(dots_f32) (their best form differs per instruction set) or, with
 * KROWS8 defined, an 8-row kernel rows8(q, r, d, dot, ss, sq) (rows r[0..8)'s
 * dot products with q, and their sums of squares when sq) from which this
 * file builds those two. */

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

/* Filter: up to QR (4 or 6) sources against one i16 panel. Each VI_MADD
 * adds two products of one (source, destination) pair into that pair's i32
 * lane. The accumulators are named variables (an array of them is spilled
 * to the stack by some compilers). */
#if (QR != 4 && QR != 6) || (QPV != 2 && QPV != 4)
#error "q16_block is written for 4 or 6 sources and 2 or 4 panel vectors"
#endif
#if QPV == 4
#define QB_VECS(M, I) M(I, 0) M(I, 1) M(I, 2) M(I, 3)
#else
#define QB_VECS(M, I) M(I, 0) M(I, 1)
#endif
#if QR == 6
#define QB_ROWS(M) M(0) M(1) M(2) M(3) M(4) M(5)
#else
#define QB_ROWS(M) M(0) M(1) M(2) M(3)
#endif

KATTR static void KFN(q16_block)(const int16_t *a, size_t lda, size_t r, const int16_t *panel,
                                 size_t dp, int32_t *out) {
    /* rows past r repeat row 0; their sums are discarded */
#define QB_PTR(I) const int16_t *a##I = a + (r > (I) ? (I) * lda : 0);
#define QB_ACC(I, v) vi c##I##_##v = VI_ZERO();
#define QB_DECL(I) QB_VECS(QB_ACC, I)
    QB_ROWS(QB_PTR)
    QB_ROWS(QB_DECL)
    for (size_t kk = 0; kk < dp / 2; kk++) {
        const int16_t *pk = panel + kk * KQP * 2;
#define QB_LOAD(I, v) const vi b##v = VI_LOAD(pk + (v) * VI_LANES * 2);
        QB_VECS(QB_LOAD, 0)
#ifndef VI_MAC
#define VI_MAC(c, a, b) VI_ADD(c, VI_MADD(a, b))
#endif
#define QB_MAC(I, v) c##I##_##v = VI_MAC(c##I##_##v, x##I, b##v);
#define QB_ROW(I)                                                  \
        {                                                          \
            const vi x##I = VI_SPLAT32(a##I + 2 * kk);             \
            QB_VECS(QB_MAC, I)                                     \
        }
        QB_ROWS(QB_ROW)
    }
#define QB_STORE(I, v) VI_STORE(out + (I) * KQP + (v) * VI_LANES, c##I##_##v);
#define QB_STORE_ROW(I) if (r > (I)) { QB_VECS(QB_STORE, I) }
    QB_ROWS(QB_STORE_ROW)
}

/* Filter screen: the float bound of filter.h on every destination of a
 * panel, in the scalar twin's order of operations. */
KATTR static uint64_t KFN(q16_screen)(const int32_t *dots, float wi, float ai, float bi, float ti,
                                      const float *wj, const float *rj, const float *tj) {
    const vf w = VF_SPLAT(wi), a = VF_SPLAT(ai), b = VF_SPLAT(bi), t = VF_SPLAT(ti);
    uint64_t bits = 0;
    _Pragma("GCC unroll 16") for (size_t v = 0; v < QPV; v++) {
        const size_t o = v * VI_LANES;
        const vf e = VF_MUL(VF_FROM_I(VI_LOAD(dots + o)), VF_MUL(w, VF_LOAD(wj + o)));
        const vf ub = VF_ADD(e, VF_ADD(VF_MUL(VF_LOAD(rj + o), a), b));
        bits |= (uint64_t)VM_BITS(VM_OR(VF_GE(ub, t), VF_GE(ub, VF_LOAD(tj + o)))) << o;
    }
    return bits;
}

/* The screen of a prefix's dots (filter.h), in the scalar twin's order. */
KATTR static uint64_t KFN(q16_screen_r)(const int32_t *dots, float wi, float ai, float bi, float ti, float ui,
                                        const float *wj, const float *rj, const float *tj, const float *uj) {
    const vf w = VF_SPLAT(wi), a = VF_SPLAT(ai), b = VF_SPLAT(bi), t = VF_SPLAT(ti), u = VF_SPLAT(ui);
    uint64_t bits = 0;
    _Pragma("GCC unroll 16") for (size_t v = 0; v < QPV; v++) {
        const size_t o = v * VI_LANES;
        const vf e = VF_MUL(VF_FROM_I(VI_LOAD(dots + o)), VF_MUL(w, VF_LOAD(wj + o)));
        const vf ub = VF_ADD(VF_ADD(e, VF_ADD(VF_MUL(VF_LOAD(rj + o), a), b)), VF_MUL(VF_LOAD(uj + o), u));
        bits |= (uint64_t)VM_BITS(VM_OR(VF_GE(ub, t), VF_GE(ub, VF_LOAD(tj + o)))) << o;
    }
    return bits;
}

/* One pair of i16 rows: two accumulators of VI_LANES wrapping i32 lanes,
 * their lanes summed modulo 2^32, the scalar twin for a tail. */
KATTR static int32_t KFN(q16_dot)(const int16_t *a, const int16_t *b, size_t n) {
    const size_t L = 2 * VI_LANES;
    vi c0 = VI_ZERO(), c1 = VI_ZERO();
    size_t k = 0;
    for (; k + 2 * L <= n; k += 2 * L) {
        c0 = VI_MAC(c0, VI_LOAD(a + k), VI_LOAD(b + k));
        c1 = VI_MAC(c1, VI_LOAD(a + k + L), VI_LOAD(b + k + L));
    }
    if (k + L <= n) {
        c0 = VI_MAC(c0, VI_LOAD(a + k), VI_LOAD(b + k));
        k += L;
    }
    int32_t lanes[VI_LANES];
    VI_STORE(lanes, VI_ADD(c0, c1));
    uint32_t s = (uint32_t)mdi_q16_dot_scalar(a + k, b + k, n - k);
    for (size_t l = 0; l < VI_LANES; l++) s += (uint32_t)lanes[l];
    return (int32_t)s;
}

#ifdef KROWS8
/* rows_f32 and dots_f32 from rows8: blocks of 8 rows, the scalar twin for the rest. */
KATTR static void KFN(rows_f32)(const double *q, const float *rows, size_t n, size_t d, double *dot,
                                double *sumsq) {
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const float *r[8];
        for (int p = 0; p < 8; p++) r[p] = rows + (j + p) * d;
        rows8(q, r, d, dot + j, sumsq + j, 1);
    }
    mdi_rows_f32_scalar(q, rows + j * d, n - j, d, dot + j, sumsq + j);
}

KATTR static void KFN(dots_f32)(const double *q, const float *const *rows, size_t n, size_t d, double *dot) {
    size_t j = 0;
    for (; j + 8 <= n; j += 8) rows8(q, rows + j, d, dot + j, NULL, 0);
    mdi_dots_f32_scalar(q, rows + j, n - j, d, dot + j);
}
#endif

#define KTABLE(var, label)                                                              \
    const mdi_kernels var = {                                                           \
        label, KP, KR, KQP, QR,                                                         \
        KFN(block), KFN(row), KFN(rows_f32), KFN(dots_f32), KFN(q8_dots), KFN(q16_block), \
        KFN(q16_screen), KFN(q16_screen_r), KFN(q16_dot),                               \
    }

/* Two doubles in one vector, the same kernel source on every build: wasm
 * SIMD128 (each operation one f64x2 / v128 instruction) and natively GCC/clang
 * vector extensions (SSE2 on x86-64, NEON on arm64, plain scalar pairs
 * elsewhere). Every operation is lane-wise and rounds as its scalar twin does;
 * the library is built with -ffp-contract=off, so no product and add fuse.
 *
 *   f64x2 / m64x2       two doubles / two lane masks (all ones = true)
 *   X2(v), X2_MAKE(a, b), X2_LOAD(p), X2_STORE(p, v), X2_LANE(v, l)
 *   X2_ADD, X2_SUB, X2_MUL, X2_DIV
 *   X2_MIN, X2_MAX      Math.min / Math.max per lane: NaN propagates, -0 < +0
 *   X2_FLOOR, X2_ABS, X2_SIGN (the sign bits of v, as a double: +-0 or NaN/x)
 *   X2_GE, X2_GT, X2_LT, X2_EQ  ordered compares (false for NaN) -> m64x2
 *   X2_SELECT(a, b, m)  m ? a : b per lane (bitwise, no branch)
 *   M2_OR, M2_NOT       on masks
 * Used by retention.c's batch scorer; tests/c/test_retention_x2.c holds it to
 * the scalar scorer bit for bit. */
#ifndef MEMDOMAIN_F64X2_H
#define MEMDOMAIN_F64X2_H

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

typedef v128_t f64x2;
typedef v128_t m64x2;
#define X2(v) wasm_f64x2_splat(v)
#define X2_MAKE(a, b) wasm_f64x2_make(a, b)
#define X2_LOAD(p) wasm_v128_load(p)
#define X2_STORE(p, v) wasm_v128_store(p, v)
#define X2_LANE(v, l) wasm_f64x2_extract_lane(v, l)
#define X2_ADD(a, b) wasm_f64x2_add(a, b)
#define X2_SUB(a, b) wasm_f64x2_sub(a, b)
#define X2_MUL(a, b) wasm_f64x2_mul(a, b)
#define X2_DIV(a, b) wasm_f64x2_div(a, b)
#define X2_MIN(a, b) wasm_f64x2_min(a, b) /* exactly Math.min */
#define X2_MAX(a, b) wasm_f64x2_max(a, b) /* exactly Math.max */
#define X2_FLOOR(v) wasm_f64x2_floor(v)
#define X2_ABS(v) wasm_f64x2_abs(v)
#define X2_SIGN(v) wasm_v128_and(v, X2(-0.0))
#define X2_GE(a, b) wasm_f64x2_ge(a, b)
#define X2_GT(a, b) wasm_f64x2_gt(a, b)
#define X2_LT(a, b) wasm_f64x2_lt(a, b)
#define X2_EQ(a, b) wasm_f64x2_eq(a, b)
#define X2_SELECT(a, b, m) wasm_v128_bitselect(a, b, m)
#define M2_OR(a, b) wasm_v128_or(a, b)
#define M2_NOT(m) wasm_v128_not(m)

#else
#include <math.h>
#include <stdint.h>

typedef double f64x2 __attribute__((vector_size(16)));
typedef long long m64x2 __attribute__((vector_size(16))); /* what a compare of two f64x2 gives */

static inline f64x2 x2_load(const double *p) { f64x2 v; __builtin_memcpy(&v, p, sizeof v); return v; }
static inline void x2_store(double *p, f64x2 v) { __builtin_memcpy(p, &v, sizeof v); }
static inline f64x2 x2_select(f64x2 a, f64x2 b, m64x2 m) {
    return (f64x2)(((m64x2)a & m) | ((m64x2)b & ~m));
}
/* Math.max: NaN if either lane is NaN; of equal lanes (+0 and -0) the AND of
 * the bits (+0 wins); otherwise the greater. */
static inline f64x2 x2_js_max(f64x2 a, f64x2 b) {
    f64x2 r = x2_select(a, b, (m64x2)(a > b));
    r = x2_select((f64x2)((m64x2)a & (m64x2)b), r, (m64x2)(a == b));
    return x2_select((f64x2){NAN, NAN}, r, (m64x2)((a != a) | (b != b)));
}
/* Math.min: as x2_js_max with the OR of equal lanes' bits (-0 wins). */
static inline f64x2 x2_js_min(f64x2 a, f64x2 b) {
    f64x2 r = x2_select(a, b, (m64x2)(a < b));
    r = x2_select((f64x2)((m64x2)a | (m64x2)b), r, (m64x2)(a == b));
    return x2_select((f64x2){NAN, NAN}, r, (m64x2)((a != a) | (b != b)));
}
static inline f64x2 x2_floor(f64x2 v) { return (f64x2){floor(v[0]), floor(v[1])}; } /* SSE2 has no roundpd */

#define X2(v) ((f64x2){(v), (v)})
#define X2_MAKE(a, b) ((f64x2){(a), (b)})
#define X2_LOAD(p) x2_load(p)
#define X2_STORE(p, v) x2_store(p, v)
#define X2_LANE(v, l) ((v)[l])
#define X2_ADD(a, b) ((a) + (b))
#define X2_SUB(a, b) ((a) - (b))
#define X2_MUL(a, b) ((a) * (b))
#define X2_DIV(a, b) ((a) / (b))
#define X2_MIN(a, b) x2_js_min(a, b)
#define X2_MAX(a, b) x2_js_max(a, b)
#define X2_FLOOR(v) x2_floor(v)
#define X2_ABS(v) ((f64x2)((m64x2)(v) & (m64x2){INT64_MAX, INT64_MAX}))
#define X2_SIGN(v) ((f64x2)((m64x2)(v) & (m64x2){INT64_MIN, INT64_MIN}))
#define X2_GE(a, b) ((m64x2)((a) >= (b)))
#define X2_GT(a, b) ((m64x2)((a) > (b)))
#define X2_LT(a, b) ((m64x2)((a) < (b)))
#define X2_EQ(a, b) ((m64x2)((a) == (b)))
#define X2_SELECT(a, b, m) x2_select(a, b, m)
#define M2_OR(a, b) ((a) | (b))
#define M2_NOT(m) (~(m))
#endif

#endif

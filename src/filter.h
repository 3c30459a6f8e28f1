/* The filter of the pruned exact passes (internal, prefix mdi_).
 *
 * A pruned pass computes, for every candidate pair, an upper bound ub and a
 * lower bound lb of the similarity the exact pass would compute, from
 * integer copies of the rows, and pays for the exact double sum only where
 * ub can reach the answer. The answer is the exact pass's, bit for bit, as
 * long as lb <= sim <= ub holds for every pair. Why it holds:
 *
 * Quantization. A finite nonzero row x (floats, exact reals) is stored as
 * integers a with a scale s: x = s a + e. rho >= |e| / |x| is stored rounded
 * UP (below), and w ~ s / |x| as a float (relative error <= 2^-24 (1 + 2^-12):
 * |x| is known as the reference's norm sqrt(sum x_k^2), whose relative error
 * is <= (d + 3) 2^-53 for d <= 2^16). The same for the other side y = t b + f.
 *
 * Bound. With T = <a, b> s t / (|x| |y|) (I = <a, b> is exact integer
 * arithmetic, modulo 2^32 but the scales keep |I| < 2^31, so exact) and
 * C = <x, y> / (|x| |y|) the real cosine:
 *     <x, y> = s t <a, b> + <e, t b> + <x, f>, and by Cauchy-Schwarz
 *     |C - T| <= rho_x (1 + rho_y) + rho_y                       (1)
 * since |t b| <= |y| + |f|.
 *
 * The reference's own error. The exact pass computes sim from in-order
 * double sums (products of widened floats are exact; an addition never
 * underflows inexactly), a square root, a product and a quotient, then
 * clamps to [-1, 1] (which can only move it toward C): |sim - C| <= 2
 * gamma_d + 6 u with u = 2^-53, below 2^-38 for d <= MDI_FILTER_MAX_D.
 *
 * The float arithmetic of the bound. ub = fl(fl(fl(I) fl(w_x v_y)) +
 * fl(fl(rho_x alpha) + beta)) with alpha >= 1 + rho_y and beta >= rho_y +
 * MDI_FILTER_MARGIN (rounded up). The product term carries five roundings of
 * 2^-24 (two scales, their product, I's conversion, the product), <= 5.1 *
 * 2^-24 relative on |T| <= (1 + rho_x)(1 + rho_y) <= 1.36 * 1.001 (rho <=
 * sqrt(d) / 254 <= 0.357 for int8 rows at d <= 8192; int16 rows and queries
 * are far below); the slack and the sum add three more roundings on values
 * <= 1.8: in all less than 5.7e-7 < MARGIN - 2^-38 (MARGIN = 2^-19 = 1.9e-6).
 * So ub >= C + margin - 5.7e-7 >= sim, and lb <= sim symmetrically.
 *
 * The prefix bound (the all-pairs pass, neighbors_pass.c). Over the first
 * P dimensions only (P a multiple of MDI_QALIGN), with x = x_P + x_R:
 * <x, y> = <x_P, y_P> + <x_R, y_R> <= <x_P, y_P> + |x_R| |y_R| (Cauchy-
 * Schwarz), and <x_P, y_P> = s t <a_P, b_P> + <e_P, t b_P> + <x_P, f_P>
 * with |e_P| <= |e|, |t b_P| <= |y| + |f|: so C <= T_P + rho_x (1 + rho_y)
 * + rho_y + u_x u_y, T_P as T over the prefix (|T_P| <= (1 + rho_x)(1 +
 * rho_y) as for T) and u_x >= |x_R| / |x| per row: the tail's sum of
 * squares in double (every square exact, relative error <= d 2^-53), over
 * the reference's sum of squares, its square root times (1 + 2^-30) rounded
 * UP to a float, and at most 1 (the true ratio is). ub_P = fl(fl(e + sl) +
 * fl(u_x u_y)) adds two roundings on values <= 2.1 (int16 rows: rho <
 * 0.0015) to the ones above, 1.9e-7, inside the margin; the pass adds 2^-21
 * more to beta all the same. Only an upper bound is taken from a prefix.
 *
 * A row whose bound would be useless or unproven (rho > 0.5, which the
 * rounding above never produces) gets rho = +infinity: ub = +inf, lb = -inf,
 * always a candidate. A row with a NaN or infinite component, or a zero
 * row, is FLAGGED: its integers, w and rho are 0 and the pass handles it
 * from what the reference computes for it (see rows.c and neighbors_pass.c). */
#ifndef MEMDOMAIN_FILTER_H
#define MEMDOMAIN_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MDI_FILTER_MIN_D 16
#define MDI_FILTER_MAX_D 8192
#define MDI_FILTER_MARGIN 0x1p-19f

/* Filter rows of d elements are stored padded to this many (zeros). */
static inline size_t mdi_filter_dp(size_t d) { return (d + 31) / 32 * 32; }

/* The largest |a|^2 for int16 rows that meet int16 rows: |a| |b| < 2^31. */
#define MDI_Q16_CAP2 2147395600.0 /* 46340^2 */

/* The largest |b|^2 for an int16 query against int8 rows of d elements
 * (|a|^2 <= 127^2 d): |a| |b| < 2^31. */
double mdi_q8_query_cap2(size_t d);

/*
 * Quantize x[0..d) (the reference's in-order sum of squares is ss) to
 * integers of `bits` (8: |a_k| <= 127, int8_t out; 16: |a_k| <= 32767,
 * int16_t out) with sum a_k^2 <= cap2 (cap2 <= 0: no cap), zero-padded to
 * dp. *w = the scale over the norm (float), *rho = the residual bound
 * (float, rounded up). Returns false, with zeros everywhere, for a flagged
 * row (a NaN or infinite component, or all zero).
 */
bool mdi_quantize(const float *x, size_t d, size_t dp, double ss, int bits, double cap2, void *out,
                  float *w, float *rho);

/* A float >= x (x a double; +inf stays, NaN gives +inf). */
float mdi_float_up(double x);
/* A float <= x (x a double; -inf stays, NaN gives -inf). */
float mdi_float_down(double x);

/* A min-heap of floats h[0..*n): the k largest lower bounds seen, whose top
 * is the pruning threshold once it holds k. */
void mdi_heap_push(float *h, size_t *n, float v);
/* Replace the top (the smallest) with v and restore the heap. */
void mdi_heap_replace_top(float *h, size_t n, float v);

/* The in-order sum of squares of d floats (the reference's, bit for bit). */
double mdi_sum_sq_f32(const float *v, size_t d);

#endif

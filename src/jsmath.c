/* JavaScript-exact math: Math.round, and Math.exp / Math.log1p / Math.log as V8
 * computes them. V8's ieee754::exp, log1p and log are ports of FreeBSD msun's
 * e_exp.c, s_log1p.c and e_log.c (fdlibm 5.3 lineage); we follow the same operations in
 * the same order with the published coefficients, so every IEEE-754 runtime
 * (native with -ffp-contract=off, wasm) produces V8's bits. libm's exp and
 * log1p (glibc, musl) are more accurate and therefore differ in last bits.
 *
 * ====================================================
 * Copyright (C) 1993-2004 by Sun Microsystems, Inc. All rights reserved.
 *
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 */
#include "internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

double md_js_round(double x) {
    if (!isfinite(x) || x == 0) return x;
    double r = floor(x);
    if (x - r >= 0.5) r += 1;
    if (r == 0) return copysign(0.0, x); /* a zero result keeps the sign of x */
    return r;
}

/* ---- word access (memcpy: no aliasing games, no UB) ---- */

static inline uint32_t hi_word(double x) {
    uint64_t b;
    memcpy(&b, &x, 8);
    return (uint32_t)(b >> 32);
}

static inline uint32_t lo_word(double x) {
    uint64_t b;
    memcpy(&b, &x, 8);
    return (uint32_t)b;
}

static inline double from_words(uint32_t hi, uint32_t lo) {
    uint64_t b = ((uint64_t)hi << 32) | lo;
    double x;
    memcpy(&x, &b, 8);
    return x;
}

static inline double with_hi_word(double x, uint32_t hi) { return from_words(hi, lo_word(x)); }

/* ---- exp: e_exp.c ---- */

static const double
    exp_halF[2] = {0.5, -0.5},
    exp_o_threshold = 7.09782712893383973096e+02,  /* 0x40862E42, 0xFEFA39EF */
    exp_u_threshold = -7.45133219101941108420e+02, /* 0xC0874910, 0xD52D3051 */
    exp_ln2HI[2] = {6.93147180369123816490e-01,    /* 0x3FE62E42, 0xFEE00000 */
                    -6.93147180369123816490e-01},  /* 0xBFE62E42, 0xFEE00000 */
    exp_ln2LO[2] = {1.90821492927058770002e-10,    /* 0x3DEA39EF, 0x35793C76 */
                    -1.90821492927058770002e-10},  /* 0xBDEA39EF, 0x35793C76 */
    exp_invln2 = 1.44269504088896338700e+00,       /* 0x3FF71547, 0x652B82FE */
    exp_P1 = 1.66666666666666019037e-01,           /* 0x3FC55555, 0x5555553E */
    exp_P2 = -2.77777777770155933842e-03,          /* 0xBF66C16C, 0x16BEBD93 */
    exp_P3 = 6.61375632143793436117e-05,           /* 0x3F11566A, 0xAF25DE2C */
    exp_P4 = -1.65339022054652515390e-06,          /* 0xBEBBBD41, 0xC5D26BF1 */
    exp_P5 = 4.13813679705723846039e-08,           /* 0x3E663769, 0x72BEA4D0 */
    exp_E = 2.718281828459045,                     /* 0x4005BF0A, 0x8B145769 */
    exp_twom1000 = 9.33263618503218878990e-302,    /* 2**-1000 */
    exp_two1023 = 8.988465674311579539e307;        /* 0x1p1023 */

double md_js_exp(double x) {
    double y, hi = 0.0, lo = 0.0, c, t, twopk;
    int32_t k = 0;
    uint32_t hx = hi_word(x);
    int xsb = (int)((hx >> 31) & 1); /* sign bit of x */
    hx &= 0x7FFFFFFF;                /* high word of |x| */

    /* filter out non-finite argument */
    if (hx >= 0x40862E42) { /* |x| >= 709.78... */
        if (hx >= 0x7FF00000) {
            if (((hx & 0xFFFFF) | lo_word(x)) != 0) return x + x; /* NaN */
            return xsb == 0 ? x : 0.0;                           /* exp(+-inf) = {inf, 0} */
        }
        if (x > exp_o_threshold) return INFINITY; /* overflow */
        if (x < exp_u_threshold) return 0.0;      /* underflow */
    }

    /* argument reduction */
    if (hx > 0x3FD62E42) {     /* |x| > 0.5 ln2 */
        if (hx < 0x3FF0A2B2) { /* and |x| < 1.5 ln2 */
            if (x == 1.0) return exp_E; /* V8 special-cases e: the reduction below is 1 ulp off */
            hi = x - exp_ln2HI[xsb];
            lo = exp_ln2LO[xsb];
            k = 1 - xsb - xsb;
        } else {
            k = (int32_t)(exp_invln2 * x + exp_halF[xsb]);
            t = k;
            hi = x - t * exp_ln2HI[0]; /* t * ln2HI is exact here */
            lo = t * exp_ln2LO[0];
        }
        x = hi - lo;
    } else if (hx < 0x3E300000) { /* |x| < 2**-28 */
        return 1.0 + x;           /* (fdlibm's `huge + x > one` is always true here) */
    } else {
        k = 0;
    }

    /* x is now in primary range */
    t = x * x;
    if (k >= -1021) twopk = from_words((uint32_t)(0x3FF00000 + k * (1 << 20)), 0);
    else twopk = from_words((uint32_t)(0x3FF00000 + (k + 1000) * (1 << 20)), 0);
    c = x - t * (exp_P1 + t * (exp_P2 + t * (exp_P3 + t * (exp_P4 + t * exp_P5))));
    if (k == 0) return 1.0 - ((x * c) / (c - 2.0) - x);
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if (k >= -1021) {
        if (k == 1024) return y * 2.0 * exp_two1023;
        return y * twopk;
    }
    return y * twopk * exp_twom1000;
}

/* ---- log1p: s_log1p.c ---- */

static const double
    l1p_ln2_hi = 6.93147180369123816490e-01, /* 3fe62e42 fee00000 */
    l1p_ln2_lo = 1.90821492927058770002e-10, /* 3dea39ef 35793c76 */
    l1p_Lp1 = 6.666666666666735130e-01,      /* 3FE55555 55555593 */
    l1p_Lp2 = 3.999999999940941908e-01,      /* 3FD99999 9997FA04 */
    l1p_Lp3 = 2.857142874366239149e-01,      /* 3FD24924 94229359 */
    l1p_Lp4 = 2.222219843214978396e-01,      /* 3FCC71C5 1D8E78AF */
    l1p_Lp5 = 1.818357216161805012e-01,      /* 3FC74664 96CB03DE */
    l1p_Lp6 = 1.531383769920937332e-01,      /* 3FC39A09 D078C69F */
    l1p_Lp7 = 1.479819860511658591e-01;      /* 3FC2F112 DF3E5244 */

double md_js_log1p(double x) {
    double hfsq, f = 0, c = 0, s, z, R, u;
    int32_t k, hu = 0;
    int32_t hx = (int32_t)hi_word(x);
    int32_t ax = hx & 0x7FFFFFFF;

    k = 1;
    if (hx < 0x3FDA827A) {        /* 1 + x < sqrt(2)+ */
        if (ax >= 0x3FF00000) {   /* x <= -1.0 (or a negative NaN) */
            if (x == -1.0) return -INFINITY; /* log1p(-1) = -inf */
            return NAN;                      /* log1p(x < -1) = NaN */
        }
        if (ax < 0x3E200000) {                  /* |x| < 2**-29 */
            if (ax < 0x3C900000) return x;      /* |x| < 2**-54 */
            return x - x * x * 0.5;
        }
        if (hx > 0 || hx <= (int32_t)0xBFD2BEC4) { /* sqrt(2)/2- <= 1 + x < sqrt(2)+ */
            k = 0;
            f = x;
            hu = 1;
        }
    } else if (hx >= 0x7FF00000) {
        return x + x; /* +inf or NaN */
    }
    if (k != 0) {
        if (hx < 0x43400000) {
            u = 1.0 + x;
            hu = (int32_t)hi_word(u);
            k = (hu >> 20) - 1023;
            c = (k > 0) ? 1.0 - (u - x) : x - (u - 1.0); /* correction term */
            c /= u;
        } else {
            u = x;
            hu = (int32_t)hi_word(u);
            k = (hu >> 20) - 1023;
            c = 0;
        }
        hu &= 0x000FFFFF;
        if (hu < 0x6A09E) { /* u ~< sqrt(2) */
            u = with_hi_word(u, (uint32_t)hu | 0x3FF00000); /* normalize u */
        } else {
            k += 1;
            u = with_hi_word(u, (uint32_t)hu | 0x3FE00000); /* normalize u/2 */
            hu = (0x00100000 - hu) >> 2;
        }
        f = u - 1.0;
    }
    hfsq = 0.5 * f * f;
    if (hu == 0) { /* |f| < 2**-20 */
        if (f == 0.0) {
            if (k == 0) return 0.0;
            c += k * l1p_ln2_lo;
            return k * l1p_ln2_hi + c;
        }
        R = hfsq * (1.0 - 0.66666666666666666 * f);
        if (k == 0) return f - R;
        return k * l1p_ln2_hi - ((R - (k * l1p_ln2_lo + c)) - f);
    }
    s = f / (2.0 + f);
    z = s * s;
    R = z * (l1p_Lp1 + z * (l1p_Lp2 + z * (l1p_Lp3 + z * (l1p_Lp4 + z * (l1p_Lp5 + z * (l1p_Lp6 + z * l1p_Lp7))))));
    if (k == 0) return f - (hfsq - s * (hfsq + R));
    return k * l1p_ln2_hi - ((hfsq - (s * (hfsq + R) + (k * l1p_ln2_lo + c))) - f);
}

/* ---- log: e_log.c ---- */

static const double
    log_ln2_hi = 6.93147180369123816490e-01, /* 3fe62e42 fee00000 */
    log_ln2_lo = 1.90821492927058770002e-10, /* 3dea39ef 35793c76 */
    log_two54 = 1.80143985094819840000e+16,  /* 43500000 00000000 */
    log_Lg1 = 6.666666666666735130e-01,      /* 3FE55555 55555593 */
    log_Lg2 = 3.999999999940941908e-01,      /* 3FD99999 9997FA04 */
    log_Lg3 = 2.857142874366239149e-01,      /* 3FD24924 94229359 */
    log_Lg4 = 2.222219843214978396e-01,      /* 3FCC71C5 1D8E78AF */
    log_Lg5 = 1.818357216161805012e-01,      /* 3FC74664 96CB03DE */
    log_Lg6 = 1.531383769920937332e-01,      /* 3FC39A09 D078C69F */
    log_Lg7 = 1.479819860511658591e-01;      /* 3FC2F112 DF3E5244 */

double md_js_log(double x) {
    double hfsq, f, s, z, R, w, t1, t2, dk;
    int32_t k, hx, i, j;
    uint32_t lx;

    hx = (int32_t)hi_word(x);
    lx = lo_word(x);
    k = 0;
    if (hx < 0x00100000) { /* x < 2**-1022 */
        if (((hx & 0x7fffffff) | (int32_t)lx) == 0) return -INFINITY; /* log(+-0) = -inf */
        if (hx < 0) return NAN;                                        /* log(-#) = NaN */
        k -= 54;
        x *= log_two54; /* subnormal number, scale up x */
        hx = (int32_t)hi_word(x);
    }
    if (hx >= 0x7ff00000) return x + x;
    k += (hx >> 20) - 1023;
    hx &= 0x000fffff;
    i = (hx + 0x95f64) & 0x100000;
    x = with_hi_word(x, (uint32_t)(hx | (i ^ 0x3ff00000))); /* normalize x or x/2 */
    k += (i >> 20);
    f = x - 1.0;
    if ((0x000fffff & (2 + hx)) < 3) { /* -2**-20 <= f < 2**-20 */
        if (f == 0.0) {
            if (k == 0) return 0.0;
            dk = (double)k;
            return dk * log_ln2_hi + dk * log_ln2_lo;
        }
        R = f * f * (0.5 - 0.33333333333333333 * f);
        if (k == 0) return f - R;
        dk = (double)k;
        return dk * log_ln2_hi - ((R - dk * log_ln2_lo) - f);
    }
    s = f / (2.0 + f);
    dk = (double)k;
    z = s * s;
    i = hx - 0x6147a;
    w = z * z;
    j = 0x6b851 - hx;
    t1 = w * (log_Lg2 + w * (log_Lg4 + w * log_Lg6));
    t2 = z * (log_Lg1 + w * (log_Lg3 + w * (log_Lg5 + w * log_Lg7)));
    i |= j;
    R = t2 + t1;
    if (i > 0) {
        hfsq = 0.5 * f * f;
        if (k == 0) return f - (hfsq - s * (hfsq + R));
        return dk * log_ln2_hi - ((hfsq - (s * (hfsq + R) + dk * log_ln2_lo)) - f);
    }
    if (k == 0) return f - s * (f - R);
    return dk * log_ln2_hi - ((s * (f - R) - dk * log_ln2_lo) - f);
}

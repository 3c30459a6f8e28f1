/* JavaScript-exact math: properties and special values of md_js_exp,
 * md_js_log1p and md_js_round that hold independently of Node. The bit-for-bit
 * comparison with Node over 2^20 inputs per function is `make test-jsmath`. */
#include "memdomain.h"
#include "check.h"

#include <math.h>

static double next_up(double x) { return nextafter(x, INFINITY); }

int main(void) {
    /* ---- exp: special values ---- */
    CHECK(isnan(md_js_exp(NAN)));
    CHECK_SAME(md_js_exp(INFINITY), INFINITY);
    CHECK_SAME(md_js_exp(-INFINITY), 0.0);
    CHECK_SAME(md_js_exp(0.0), 1.0);
    CHECK_SAME(md_js_exp(-0.0), 1.0);
    CHECK_SAME(md_js_exp(710), INFINITY);
    CHECK_SAME(md_js_exp(-746), 0.0);
    CHECK_SAME(md_js_exp(1e-300), 1.0);
    /* the overflow threshold: the largest finite result and the first infinite one */
    CHECK(isfinite(md_js_exp(7.09782712893383973096e+02)));
    CHECK_SAME(md_js_exp(next_up(7.09782712893383973096e+02)), INFINITY);
    /* below the underflow threshold everything is +0; just above, a subnormal */
    CHECK_SAME(md_js_exp(nextafter(-7.45133219101941108420e+02, -INFINITY)), 0.0);
    CHECK(md_js_exp(-7.45133219101941108420e+02) > 0);
    CHECK(md_js_exp(-740) < 2.2250738585072014e-308 && md_js_exp(-740) > 0);
    /* V8 returns Math.E for exp(1) (fdlibm alone is 1 ulp above) */
    CHECK_SAME(md_js_exp(1.0), 2.718281828459045);
    /* exp(-LN2) is exactly 0.5: the retention recency curve at its half-life */
    CHECK_SAME(md_js_exp(-0.6931471805599453), 0.5);

    /* ---- exp against libm and monotonicity over seeded inputs ---- */
    check_rng r = {0x1234};
    int far = 0, nonmono = 0;
    for (int i = 0; i < check_iters(200000); i++) {
        double x = rng_range(&r, -745, 709.7);
        double a = md_js_exp(x), b = exp(x);
        if (fabs(a - b) > fabs(b) * 0x1p-51 + 0x1p-1074) far++;
        if (md_js_exp(next_up(x)) < a) nonmono++;
    }
    CHECK(far == 0);
    CHECK(nonmono == 0);

    /* ---- log1p: special values ---- */
    CHECK(isnan(md_js_log1p(NAN)));
    CHECK(isnan(md_js_log1p(-NAN)));
    CHECK(isnan(md_js_log1p(-1.5)));
    CHECK(isnan(md_js_log1p(-INFINITY)));
    CHECK_SAME(md_js_log1p(-1.0), -INFINITY);
    CHECK_SAME(md_js_log1p(INFINITY), INFINITY);
    CHECK_SAME(md_js_log1p(0.0), 0.0);
    CHECK_SAME(md_js_log1p(-0.0), -0.0);
    CHECK_SAME(md_js_log1p(1e-300), 1e-300);   /* |x| < 2^-54: log1p(x) == x */
    CHECK_SAME(md_js_log1p(-4.9e-324), -4.9e-324);
    CHECK(isfinite(md_js_log1p(1.7976931348623157e308)));
    CHECK(md_js_log1p(1.7976931348623157e308) > 709.78);
    r.s = 0x5678;
    far = 0, nonmono = 0;
    for (int i = 0; i < check_iters(200000); i++) {
        double x = (i & 1) ? rng_range(&r, -1, 1) : ldexp(rng_unit(&r), (int)rng_below(&r, 2000) - 1000);
        double a = md_js_log1p(x), b = log1p(x);
        if (fabs(a - b) > fabs(b) * 0x1p-51 + 0x1p-1074) far++;
        if (md_js_log1p(next_up(x)) < a) nonmono++;
    }
    CHECK(far == 0);
    CHECK(nonmono == 0);

    /* ---- round: Math.round's definition ---- */
    CHECK_SAME(md_js_round(2.5), 3.0);
    CHECK_SAME(md_js_round(-2.5), -2.0);
    CHECK_SAME(md_js_round(-0.5), -0.0);
    CHECK_SAME(md_js_round(-0.4), -0.0);
    CHECK_SAME(md_js_round(-0.0), -0.0);
    CHECK_SAME(md_js_round(0.49999999999999994), 0.0);
    CHECK_SAME(md_js_round(4503599627370497.0), 4503599627370497.0); /* 2^52 + 1 */
    CHECK_SAME(md_js_round(-4503599627370497.0), -4503599627370497.0);
    CHECK(isnan(md_js_round(NAN)));
    CHECK_SAME(md_js_round(-INFINITY), -INFINITY);
    r.s = 0x9abc;
    int wrong = 0;
    for (int i = 0; i < check_iters(200000); i++) {
        double x = (i & 1) ? rng_range(&r, -1e6, 1e6) : (double)((int64_t)rng_below(&r, 2000000) - 1000000) + 0.5;
        double y = md_js_round(x);
        /* the integer nearest x, halves toward +infinity, zero carrying x's sign */
        double want = (x - floor(x) >= 0.5) ? floor(x) + 1 : floor(x);
        if (want == 0) want = copysign(0.0, x);
        if (!same_bits(y, want) || y - x > 0.5 || x - y >= 0.5) wrong++;
    }
    CHECK(wrong == 0);
    return check_report("test_jsmath");
}

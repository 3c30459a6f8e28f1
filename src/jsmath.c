/* JavaScript-exact math: Math.round here; exp and log1p follow fdlibm. */
#include "internal.h"

#include <math.h>

double md_js_round(double x) {
    if (!isfinite(x) || x == 0) return x;
    double r = floor(x);
    if (x - r >= 0.5) r += 1;
    if (r == 0) return copysign(0.0, x); /* a zero result keeps the sign of x */
    return r;
}

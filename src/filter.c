/* Quantization for the pruned passes; the bound is derived in filter.h. */
#include "filter.h"
#include "internal.h"

#include <math.h>
#include <string.h>

double mdi_sum_sq_f32(const float *v, size_t d) {
    double s = 0;
    for (size_t i = 0; i < d; i++) {
        double x = (double)v[i];
        s += x * x;
    }
    return s;
}

MDI_SMALL float mdi_float_up(double x) {
    if (isnan(x)) return INFINITY;
    float f = (float)x;
    if ((double)f < x) f = nextafterf(f, INFINITY);
    return f;
}

MDI_SMALL float mdi_float_down(double x) {
    if (isnan(x)) return -INFINITY;
    float f = (float)x;
    if ((double)f > x) f = nextafterf(f, -INFINITY);
    return f;
}

MDI_SMALL double mdi_q8_query_cap2(size_t d) {
    /* |I|^2 <= |a|^2 |b|^2 <= 127^2 d cap2 < 2^62, with a margin for the
     * double arithmetic of the comparison */
    return floor(0x1p62 * 0.999 / (16129.0 * (double)(d ? d : 1)));
}

bool mdi_quantize(const float *x, size_t d, size_t dp, double ss, int bits, double cap2, void *out,
                  float *w, float *rho) {
    const size_t width = bits == 8 ? 1 : 2;
    memset(out, 0, dp * width);
    *w = 0;
    *rho = 0;
    if (!(ss > 0) || !isfinite(ss)) return false; /* zero, NaN or infinite: flagged */
    const double qmax = bits == 8 ? 127 : 32767;
    float mf = 0;
    for (size_t k = 0; k < d; k++) {
        float a = fabsf(x[k]);
        mf = a > mf ? a : mf;
    }
    const double nb = sqrt(ss);
    double s = (double)mf / qmax;
    if (cap2 > 0) {
        /* |a| <= |x| / s + sqrt(d) / 2: choose s so that this is <= sqrt(cap2) */
        double room = sqrt(cap2) - sqrt((double)d) / 2 - 1;
        if (!(room > 0)) {
            *rho = INFINITY; /* no useful scale: always a candidate */
            return true;
        }
        double smin = nb * (1 + 0x1p-20) / room;
        if (s < smin) s = smin;
    }
    /* Any integers give a valid bound (the residual is measured from the
     * ones chosen); rounding to nearest keeps it small. The residual
     * e = x - s a is computed in double: each e_k within 2 u (|x_k| +
     * s |a_k|) <= 4 u nb of the real one. */
    double e2 = 0;
    for (int attempt = 0;; attempt++) {
        const double inv = 1 / s;
        uint64_t norm2 = 0;
        e2 = 0;
        for (size_t k = 0; k < d; k++) {
            double v = (double)x[k] * inv;
            v = v < -qmax ? -qmax : (v > qmax ? qmax : v);
            /* half away from zero; copysign(0.5, v) is (v >= 0 ? 0.5 : -0.5) for every
             * v here (-0 rounds to 0 either way) without a branch on the sign, which
             * mispredicted on every other element */
            int32_t qi = (int32_t)(v + copysign(0.5, v));
            norm2 += (uint64_t)((int64_t)qi * qi);
            double e = (double)x[k] - s * (double)qi;
            e2 += e * e;
            if (bits == 8) ((int8_t *)out)[k] = (int8_t)qi;
            else ((int16_t *)out)[k] = (int16_t)qi;
        }
        if (cap2 <= 0 || (double)norm2 <= cap2) break;
        if (attempt == 8) { /* not reached with the choice above; kept for safety */
            memset(out, 0, dp * width);
            *rho = INFINITY;
            return true;
        }
        s *= 1.0625;
    }
    /* rho = |e| / |x| <= sqrt(e2) (1 + (d + 3) u) / (nb (1 - (d + 3) u)) + 4 sqrt(d) u:
     * (1 + 2^-28) and 2^-40 cover both for d <= 2^16. */
    double r = sqrt(e2) / nb * (1 + 0x1p-28) + 0x1p-40;
    *rho = r > 0.5 ? INFINITY : mdi_float_up(r);
    *w = (float)(s / nb);
    return true;
}

void mdi_heap_push(float *h, size_t *n, float v) {
    size_t at = (*n)++;
    h[at] = v;
    while (at > 0 && h[(at - 1) / 2] > h[at]) {
        float t = h[at];
        h[at] = h[(at - 1) / 2];
        h[(at - 1) / 2] = t;
        at = (at - 1) / 2;
    }
}

void mdi_heap_replace_top(float *h, size_t n, float v) {
    h[0] = v;
    for (size_t at = 0;;) {
        size_t l = 2 * at + 1, r = l + 1, m = at;
        if (l < n && h[l] < h[m]) m = l;
        if (r < n && h[r] < h[m]) m = r;
        if (m == at) return;
        float t = h[at];
        h[at] = h[m];
        h[m] = t;
        at = m;
    }
}

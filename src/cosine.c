/* cosine module: cosine, cosineDistance, compensatedSum. Each similarity is
 * one sequential double sum in index order (the reference's bits). */
#include "internal.h"

#include <math.h>

double mdi_cosine_finish(double dot, double sa, double sb) {
    if (sa == 0 || sb == 0) return 0;
    double s = dot / (sqrt(sa) * sqrt(sb));
    if (isnan(s)) return 0;
    return mdi_js_max(-1, mdi_js_min(1, s));
}

md_status md_cosine(const double *a, size_t na, const double *b, size_t nb, double *out) {
    if (MDI_BAD_IN(a, na) || MDI_BAD_IN(b, nb) || !out) return MD_ERR_NULL;
    size_t n = na < nb ? na : nb;
    double dot = 0, sa = 0, sb = 0;
    for (size_t i = 0; i < n; i++) {
        double x = a[i], y = b[i];
        dot += x * y;
        sa += x * x;
        sb += y * y;
    }
    *out = mdi_cosine_finish(dot, sa, sb);
    return MD_OK;
}

md_status md_cosine_f32(const float *a, size_t na, const float *b, size_t nb, double *out) {
    if (MDI_BAD_IN(a, na) || MDI_BAD_IN(b, nb) || !out) return MD_ERR_NULL;
    size_t n = na < nb ? na : nb;
    double dot = 0, sa = 0, sb = 0;
    for (size_t i = 0; i < n; i++) {
        double x = (double)a[i], y = (double)b[i];
        dot += x * y;
        sa += x * x;
        sb += y * y;
    }
    *out = mdi_cosine_finish(dot, sa, sb);
    return MD_OK;
}

md_status md_cosine_distance(const double *a, size_t na, const double *b, size_t nb, double *out) {
    double s;
    md_status st = md_cosine(a, na, b, nb, &s);
    if (st != MD_OK) return st;
    *out = 1 - s;
    return MD_OK;
}

md_status md_compensated_sum(const double *values, size_t n, double *out) {
    if (MDI_BAD_IN(values, n) || !out) return MD_ERR_NULL;
    double sum = 0, c = 0;
    for (size_t i = 0; i < n; i++) {
        double v = values[i], t = sum + v;
        if (fabs(sum) >= fabs(v)) c += (sum - t) + v;
        else c += (v - t) + sum;
        sum = t;
    }
    *out = sum + c;
    return MD_OK;
}

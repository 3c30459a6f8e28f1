/* Boundary for the cosine module: the similarity comes back as the call's
 * f64 result (no out-parameter), from vectors the glue wrote into its
 * exchange region. Pointers are never NULL here: the glue passes regions. */
#include "boundary.h"

MDW_EXPORT("mdw_cosine")
double mdw_cosine(const double *a, size_t na, const double *b, size_t nb) {
    double s = 0;
    md_cosine(a, na, b, nb, &s);
    return s;
}

MDW_EXPORT("mdw_cosine_f32")
double mdw_cosine_f32(const float *a, size_t na, const float *b, size_t nb) {
    double s = 0;
    md_cosine_f32(a, na, b, nb, &s);
    return s;
}

MDW_EXPORT("mdw_compensated_sum")
double mdw_compensated_sum(const double *values, size_t n) {
    double s = 0;
    md_compensated_sum(values, n, &s);
    return s;
}

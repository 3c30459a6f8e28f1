/* Row generators shared by the vector tests (include after defining a
 * check_rng named rng): random, clustered, duplicated, near-tie, constant
 * and special (NaN, infinite, zero, subnormal, huge) rows, and queries. */
#ifndef MD_TEST_VECTORS_H
#define MD_TEST_VECTORS_H

#include <stdlib.h>
#include <string.h>

enum { RANDOM, CLUSTERED, DUPLICATED, NEAR_TIES, CONSTANT, SPECIAL, KINDS };

/* Roughly normal (a sum of uniforms): cheap, and the tests need no more. */
static inline double gauss(void) {
    return (rng_unit(&rng) + rng_unit(&rng) + rng_unit(&rng) + rng_unit(&rng) - 2) * 1.7320508075688772;
}

/* n rows of d floats of the given kind into m. */
static inline void make_rows(float *m, size_t n, size_t d, int kind) {
    size_t centroids = kind == CLUSTERED ? 1 + rng_below(&rng, 100) : 0;
    float *c = malloc((centroids * d + 1) * sizeof(float));
    for (size_t i = 0; i < centroids * d; i++) c[i] = (float)gauss();
    double spread = rng_below(&rng, 2) ? 0.05 : 0.5;
    float *base = malloc((d + 1) * sizeof(float));
    for (size_t k = 0; kind == NEAR_TIES && k < d; k++) base[k] = (float)gauss();
    for (size_t i = 0; i < n; i++) {
        float *x = m + i * d;
        switch (kind) {
        case RANDOM:
            for (size_t k = 0; k < d; k++) x[k] = (float)rng_range(&rng, -1, 1);
            break;
        case CLUSTERED: {
            const float *cc = c + rng_below(&rng, centroids) * d;
            for (size_t k = 0; k < d; k++) x[k] = cc[k] + (float)(spread * gauss());
            break;
        }
        case DUPLICATED:
            if (i > 0 && rng_below(&rng, 2)) memcpy(x, m + rng_below(&rng, i) * d, d * sizeof(float));
            else for (size_t k = 0; k < d; k++) x[k] = (float)gauss();
            break;
        case NEAR_TIES: /* one direction, a few ulps apart: every cosine within the filter's slack */
            for (size_t k = 0; k < d; k++) {
                float v = base[k] * (float)(1 + 1e-3 * (double)(i % 3));
                for (size_t u = rng_below(&rng, 4); u > 0; u--) v = nextafterf(v, rng_below(&rng, 2) ? INFINITY : -INFINITY);
                x[k] = v;
            }
            break;
        case CONSTANT: { /* every component equal: all cosines equal up to rounding */
            float v = (float)rng_range(&rng, -3, 3);
            if (rng_below(&rng, 3) == 0) v = (float)(rng_below(&rng, 2) ? 1 : -1);
            for (size_t k = 0; k < d; k++) x[k] = v;
            break;
        }
        default: /* SPECIAL: ordinary rows mixed with NaN, infinite, zero, tiny and huge rows */
            for (size_t k = 0; k < d; k++) x[k] = (float)gauss();
            switch (rng_below(&rng, 8)) {
            case 0: x[rng_below(&rng, d)] = NAN; break;
            case 1: x[rng_below(&rng, d)] = rng_below(&rng, 2) ? INFINITY : -INFINITY; break;
            case 2: memset(x, 0, d * sizeof(float)); break;
            case 3: for (size_t k = 0; k < d; k++) x[k] *= 1e-41f; break; /* subnormal */
            case 4: for (size_t k = 0; k < d; k++) x[k] = (float)(x[k] * 1e37); break;
            case 5: memset(x, 0, d * sizeof(float)); x[rng_below(&rng, d)] = (float)gauss(); break;
            default: break;
            }
        }
    }
    free(base);
    free(c);
}

static inline void make_query(float *q, const float *m, size_t n, size_t d, int kind) {
    switch (rng_below(&rng, 10)) {
    case 0: for (size_t k = 0; k < d; k++) q[k] = 0; return;
    case 1: for (size_t k = 0; k < d; k++) q[k] = (float)gauss(); q[rng_below(&rng, d)] = NAN; return;
    case 2: for (size_t k = 0; k < d; k++) q[k] = (float)gauss(); q[0] = INFINITY; return;
    case 3: case 4: case 5:
        if (n) { /* a row itself, perhaps nudged */
            memcpy(q, m + rng_below(&rng, n) * d, d * sizeof(float));
            if (rng_below(&rng, 2)) q[rng_below(&rng, d)] += 1e-3f;
            return;
        }
        break;
    default: break;
    }
    if (kind == CONSTANT && rng_below(&rng, 2)) {
        for (size_t k = 0; k < d; k++) q[k] = 0.5f;
        return;
    }
    for (size_t k = 0; k < d; k++) q[k] = (float)gauss();
}

#endif

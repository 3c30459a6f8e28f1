/* A tiny test harness: CHECK records a failure and goes on; main returns the
 * count. Seeded PRNG for property tests. Prints "N passed, N failed". */
#ifndef MD_CHECK_H
#define MD_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) check_passed++;                                                    \
        else { check_failed++; fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); } \
    } while (0)

/* Bitwise (Object.is) equality of two doubles; any NaN equals any NaN. */
static inline int same_bits(double a, double b) {
    if (isnan(a) && isnan(b)) return 1;
    uint64_t x, y;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    return x == y;
}

#define CHECK_SAME(a, b)                                                              \
    do {                                                                              \
        double check_a_ = (a), check_b_ = (b);                                        \
        if (same_bits(check_a_, check_b_)) check_passed++;                            \
        else { check_failed++; fprintf(stderr, "%s:%d: %s = %.17g, expected %.17g\n", __FILE__, __LINE__, #a, check_a_, check_b_); } \
    } while (0)

/* Property-loop iterations: n, or n / 8 (at least 1) when
 * MD_TEST_UNDER_VALGRIND is set (make test-valgrind): memcheck runs the same
 * code paths some 50 times slower, and the sanitizer run (make test-c) still
 * does all n. */
static inline int check_iters(int n) {
    int k = getenv("MD_TEST_UNDER_VALGRIND") ? n / 8 : n;
    return k > 0 ? k : 1;
}
/* Under valgrind (as above): for tests that also shrink their inputs. */
static inline int check_quick(void) { return getenv("MD_TEST_UNDER_VALGRIND") != NULL; }

/* splitmix64: a seeded, portable PRNG. */
typedef struct { uint64_t s; } check_rng;
static inline uint64_t rng_next(check_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* uniform in [0, 1) */
static inline double rng_unit(check_rng *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }
static inline double rng_range(check_rng *r, double lo, double hi) { return lo + (hi - lo) * rng_unit(r); }
static inline size_t rng_below(check_rng *r, size_t n) { return n ? (size_t)(rng_next(r) % n) : 0; }



static inline int check_report(const char *name) {
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif

/* Shared by the native benchmark programs: the xorshift32 stream the JS
 * benchmarks use too (bench/lib-vectors.mjs `stream`), and a millisecond clock. */
#ifndef MD_BENCH_NATIVE_COMMON_H
#define MD_BENCH_NATIVE_COMMON_H

#include <stdint.h>
#include <time.h>

static uint32_t state = 2463534242u;
static double next_unit(void) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return (double)state / 4294967296.0 * 2 - 1;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#endif

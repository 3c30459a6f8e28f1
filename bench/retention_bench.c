/* Native timing of md_score_retention_many (bench/retention.mjs builds and
 * runs this): n memories of seeded synthetic inputs, best of `reps` runs.
 * Prints one line: "native n=<n> best_ms=<ms> checksum=<sum of scores>". */
#define _POSIX_C_SOURCE 199309L
#include "memdomain.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t s = 0x2026;
static double unit(void) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    uint8_t *type = malloc(n), *action = malloc(n);
    double *col[9], *score = malloc(n * sizeof(double));
    for (int k = 0; k < 9; k++) col[k] = malloc(n * sizeof(double));
    if (!type || !action || !score) return 1;
    for (size_t i = 0; i < n; i++) {
        type[i] = (uint8_t)(unit() * MD_MEMORY_TYPE_COUNT);
        col[0][i] = unit() * 3650;
        col[1][i] = (double)(int)(unit() * 200);
        col[2][i] = unit();
        col[4][i] = 0.5 + unit() * 0.5;
        col[3][i] = unit() * col[4][i];
        col[5][i] = (double)(int)(unit() * 8);
        col[6][i] = (double)(int)(unit() * 8);
        col[7][i] = (double)(int)(unit() * 3000);
        col[8][i] = (double)(int)(unit() * 4);
    }
    md_retention_columns c = {n, type, col[0], col[1], col[2], col[3], col[4], col[5], col[6], col[7], col[8]};
    double best = 1e300, sum = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        if (md_score_retention_many(&c, score, action, NULL) != MD_OK) return 1;
        double dt = now_ms() - t0;
        if (dt < best) best = dt;
    }
    for (size_t i = 0; i < n; i++) sum += score[i];
    printf("native n=%zu best_ms=%.3f checksum=%.6f\n", n, best, sum);
    return 0;
}

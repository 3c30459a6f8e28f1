/* Where pruning stops paying (native; bench/pruning.mjs builds and runs it).
 * For each scenario: the exact (unpruned) pass, the pruned pass forced on,
 * and the automatic choice the library makes, with the rows that needed the
 * exact sum. The automatic choice must never be much slower than the better
 * of the two; every answer is checked equal to the exact pass's.
 *   prune-cost          prints a JSON array, one object per scenario */
#define _POSIX_C_SOURCE 199309L
#include "kernels.h"
#include "memdomain.h"
#include "rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "native-common.h"

enum { UNIFORM, NEAR_EQUAL };

static float *rows_of(size_t n, size_t d, int kind) {
    float *m = malloc(n * d * sizeof(float) + 4);
    for (size_t i = 0; i < n * d; i++) m[i] = (float)next_unit();
    if (kind == NEAR_EQUAL) /* one direction plus noise 1e-4: every cosine within 1e-6 of the others */
        for (size_t i = 1; i < n; i++)
            for (size_t k = 0; k < d; k++) m[i * d + k] = m[k] + (float)(1e-4 * next_unit());
    return m;
}

static int first = 1;
static void emit(const char *what, size_t n, size_t d, double k, double exact, double pruned, double autom,
                 int auto_pruned, size_t survivors, int same) {
    char ks[32];
    if (isinf(k)) snprintf(ks, sizeof ks, "\"Infinity\"");
    else snprintf(ks, sizeof ks, "%g", k);
    printf("%s{\"scenario\":\"%s\",\"n\":%zu,\"d\":%zu,\"k\":%s,\"exact\":%.2f,\"pruned\":%.2f,\"auto\":%.2f,"
           "\"autoPruned\":%s,\"survivors\":%zu,\"identical\":%s}\n",
           first ? "[" : ",", what, n, d, ks, exact, pruned, autom,
           auto_pruned < 0 ? "null" : auto_pruned ? "true" : "false", survivors,
           same ? "true" : "false");
    first = 0;
}

/* Resident top-k: exact, forced pruned and automatic, the median of 5 queries each. */
static void resident(const char *what, size_t n, size_t d, size_t k, int kind) {
    float *m = rows_of(n, d, kind);
    md_rows *r;
    md_rows_new(d, &r);
    md_rows_append(r, m, n);
    uint32_t *i1 = malloc(k * 4 + 4), *i2 = malloc(k * 4 + 4);
    double *s1 = malloc(k * 8 + 8), *s2 = malloc(k * 8 + 8), t[3][5];
    size_t len, survivors = 0;
    int same = 1, auto_pruned = 0;
    float *q = malloc(d * sizeof(float));
    for (int rep = 0; rep < 5; rep++) {
        for (size_t t2 = 0; t2 < d; t2++) q[t2] = kind == NEAR_EQUAL ? m[t2] + (float)(1e-4 * next_unit()) : (float)next_unit();
        for (int mode = 0; mode < 3; mode++) {
            mdi_top_stats st;
            double t0 = now();
            mdi_rows_top_cosine(r, q, k, mode == 0 ? i1 : i2, mode == 0 ? s1 : s2, &len,
                                mode == 0 ? MDI_TOP_EXACT : mode == 1 ? MDI_TOP_PRUNED : MDI_TOP_AUTO, &st);
            t[mode][rep] = now() - t0;
            if (mode == 1) survivors = st.exact;
            if (mode == 2) auto_pruned = st.pruned;
            if (mode) same &= memcmp(i1, i2, len * 4) == 0 && memcmp(s1, s2, len * 8) == 0;
        }
    }
    for (int mode = 0; mode < 3; mode++) /* medians */
        for (int a = 1; a < 5; a++)
            for (int b = a; b > 0 && t[mode][b] < t[mode][b - 1]; b--) { double x = t[mode][b]; t[mode][b] = t[mode][b - 1]; t[mode][b - 1] = x; }
    emit(what, n, d, (double)k, t[0][2], t[1][2], t[2][2], auto_pruned, survivors, same);
    md_rows_free(r);
    free(m); free(q); free(i1); free(i2); free(s1); free(s2);
}

/* The packed all-pairs pass: exact, forced pruned and automatic. */
static void allpairs(const char *what, size_t n, size_t d, double k, double floor, int kind) {
    float *m = rows_of(n, d, kind);
    char (*names)[16] = malloc(n * 16);
    md_str *keys = malloc(n * sizeof(md_str));
    for (size_t i = 0; i < n; i++) {
        keys[i].ptr = names[i];
        keys[i].len = (size_t)snprintf(names[i], 16, "k%010zu", i);
    }
    md_neighbor_options o = {floor, k, 1e9};
    md_neighbor_pairs res[3];
    double t[3];
    for (int mode = 0; mode < 3; mode++) {
        double t0 = now();
        mdi_packed_pass(m, n, d, keys, 0, n, o, true, &res[mode], NULL,
                        mode == 0 ? MDI_TOP_EXACT : mode == 1 ? MDI_TOP_PRUNED : MDI_TOP_AUTO);
        t[mode] = now() - t0;
    }
    int same = 1;
    for (int mode = 1; mode < 3; mode++)
        same &= res[mode].len == res[0].len && memcmp(res[mode].pairs, res[0].pairs, res[0].len * sizeof(md_neighbor_pair)) == 0;
    /* the all-pairs pass does not report its choice: -1 prints as unknown */
    emit(what, n, d, k, t[0], t[1], t[2], -1, 0, same);
    for (int mode = 0; mode < 3; mode++) md_neighbor_pairs_free(&res[mode]);
    free(m); free(names); free(keys);
}

int main(void) {
    const size_t n = 50000;
    fprintf(stderr, "prune-cost: kernel %s\n", mdi_kernel_isa());
    resident("resident top-50, uniform rows", n, 384, 50, UNIFORM);
    resident("resident top-k, k = n/16", n, 384, n / 16, UNIFORM);
    resident("resident top-k, k = n/4 (the automatic limit)", n, 384, n / 4, UNIFORM);
    resident("resident top-k, k = n/2 (k close to n)", n, 384, n / 2, UNIFORM);
    resident("resident top-50, all rows nearly equal", n, 384, 50, NEAR_EQUAL);
    resident("resident top-50, d = 16 (the smallest filtered d)", n, 16, 50, UNIFORM);
    resident("resident top-50, d = 8 (no filter below 16)", n, 8, 50, UNIFORM);
    allpairs("all pairs top-5, uniform rows", 3000, 384, 5, 0, UNIFORM);
    allpairs("all pairs top-5, all rows nearly equal", 3000, 384, 5, 0, NEAR_EQUAL);
    allpairs("all pairs, every pair above floor 0 (k = infinity)", 1500, 384, INFINITY, 0, UNIFORM);
    allpairs("all pairs, near duplicates (floor 0.92, k = infinity)", 3000, 384, INFINITY, 0.92, UNIFORM);
    allpairs("all pairs top-5, d = 16", 3000, 16, 5, 0, UNIFORM);
    printf("]\n");
    return 0;
}

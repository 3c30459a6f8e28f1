/* Native C timings for bench/graph.mjs: the same generated graph (same keys,
 * same mulberry32 stream), built with md_graph_new from string keys, then
 * pagerank (uniform, personalized) and label propagation. Prints one JSON
 * line of median milliseconds.   usage: graph_native N M */
#define _POSIX_C_SOURCE 199309L
#include "memdomain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static uint32_t seed_state;
static double rnd(void) { /* mulberry32, as bench/graph.mjs */
    seed_state += 0x6d2b79f5u;
    uint32_t t = seed_state;
    t = (t ^ (t >> 15)) * (1u | t);
    t = (t + ((t ^ (t >> 7)) * (61u | t))) ^ t;
    return (double)(t ^ (t >> 14)) / 4294967296.0;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int k) { qsort(v, (size_t)k, sizeof(double), cmp_d); return v[k / 2]; }

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    size_t n = strtoul(argv[1], NULL, 10), m = strtoul(argv[2], NULL, 10);
    seed_state = (uint32_t)(n + m);
    char *buf = malloc(n * 48);
    md_str *nodes = malloc(n * sizeof(md_str));
    for (size_t i = 0; i < n; i++) {
        uint32_t h = (uint32_t)((uint64_t)i * 2654435761u);
        char b36[16];
        int l = 0;
        do { b36[l++] = "0123456789abcdefghijklmnopqrstuvwxyz"[h % 36]; h /= 36; } while (h);
        char rev[16];
        for (int k = 0; k < l; k++) rev[k] = b36[l - 1 - k];
        rev[l] = 0;
        int len = snprintf(buf + i * 48, 48, "areas/notes/%s-%zu.html", rev, i);
        nodes[i].ptr = buf + i * 48;
        nodes[i].len = (size_t)len;
    }
    md_graph_edge *edges = malloc(m * sizeof(md_graph_edge));
    for (size_t i = 0; i < m; i++) {
        double a = rnd(), b = rnd();
        edges[i].src = nodes[(size_t)floor(pow(a, 1.5) * (double)n)];
        edges[i].dst = nodes[(size_t)floor(pow(b, 3) * (double)n)];
        edges[i].strength = rnd();
    }
    enum { REPS = 5 };
    double tb[REPS], tp[REPS], tq[REPS], tl[REPS];
    double *scores = malloc(n * sizeof(double));
    size_t *comm = malloc(n * sizeof(size_t));
    size_t seeds[10];
    double sw[10];
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ms();
        md_graph *g = NULL;
        if (md_graph_new(nodes, n, edges, m, &g) != MD_OK) return 1;
        double t1 = now_ms();
        md_graph_pagerank(g, NULL, scores);
        double t2 = now_ms();
        md_pagerank_options o;
        md_pagerank_options_default(&o);
        for (int k = 0; k < 10; k++) { seeds[k] = (size_t)(rnd() * (double)n); sw[k] = 0.2 + rnd(); }
        o.has_seeds = true; o.seed_nodes = seeds; o.seed_weights = sw; o.n_seeds = 10;
        md_graph_pagerank(g, &o, scores);
        double t3 = now_ms();
        md_graph_label_propagation(g, MD_MIN_COMMUNITY_SIZE, MD_LABEL_PROPAGATION_MAX_SWEEPS, comm);
        double t4 = now_ms();
        md_graph_free(g);
        tb[r] = t1 - t0; tp[r] = t2 - t1; tq[r] = t3 - t2; tl[r] = t4 - t3;
    }
    printf("{\"build\":%.3f,\"pagerank\":%.3f,\"personalized\":%.3f,\"labelPropagation\":%.3f}\n",
           median(tb, REPS), median(tp, REPS), median(tq, REPS), median(tl, REPS));
    return 0;
}

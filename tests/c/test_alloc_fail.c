/* Allocation failure, one allocation at a time, the way SQLite tests its
 * malloc failures: for each entry point below, the Nth allocation the library
 * makes (malloc, calloc or realloc, wrapped at link time: see the Makefile) is
 * failed, for N = 0, 1, 2, ... until a run makes no more than N allocations
 * (each entry point must have made at least one).
 * A run the failure reached returns MD_ERR_NOMEM with its outputs empty and a
 * handle it updates unchanged (or MD_OK with the answer of a run without
 * failures); the run it did not reach equals that answer. LeakSanitizer
 * (make test-c runs every C test with detect_leaks=1) reports any allocation a
 * failed run left behind (MD_ALLOC_COUNTS=1 prints how many allocations each
 * entry point made). The graph and the resident rows are what
 * memdomain/cache holds at 100k-1M memories. */
#include "check.h"
#include "memdomain.h"

#include <stdbool.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

static long fail_at = -1, calls; /* fail_at < 0: no failure */
static bool hit;

static bool fail_now(void) {
    if (fail_at < 0 || calls++ != fail_at) return false;
    hit = true;
    return true;
}
void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return fail_now() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }

static void arm(long n) { fail_at = n; calls = 0; hit = false; }
static void disarm(void) { fail_at = -1; }

/* Far more than any entry point below allocates: a run that never stops
 * reaching its failure is a failure of the test. */
enum { MAX_ALLOCS = 100000 };

/* Runs `call` (a statement assigning `st`) with allocation N failed, for every
 * N; `failed` checks a run that returned MD_ERR_NOMEM, `ok` one that returned
 * MD_OK (the answer), `reset` frees what a run made. `*runs` counts them. */
#define EACH_FAILURE(runs, call, failed, ok, reset)                                    \
    do {                                                                               \
        for (long n_ = 0;; n_++) {                                                     \
            md_status st;                                                              \
            arm(n_);                                                                   \
            call;                                                                      \
            disarm();                                                                  \
            bool reached_ = hit;                                                       \
            if (reached_) CHECK(st == MD_ERR_NOMEM || st == MD_OK);                    \
            else CHECK(st == MD_OK);                                                   \
            if (st == MD_ERR_NOMEM) { failed; } else if (st == MD_OK) { ok; }          \
            reset;                                                                     \
            (*(runs))++;                                                               \
            if (!reached_ || n_ >= MAX_ALLOCS) {                                       \
                CHECK(n_ >= 1 && n_ < MAX_ALLOCS); /* it allocated, and stopped */     \
                if (getenv("MD_ALLOC_COUNTS")) fprintf(stderr, "line %d: %ld allocations\n", __LINE__, n_); \
                break;                                                                 \
            }                                                                          \
        }                                                                              \
    } while (0)

/* ------------------------------------------------------------------ graph */

typedef struct gdata {
    size_t n, m;
    char (*names)[12];
    md_str *nodes;
    md_graph_edge *edges;
} gdata;

static gdata make_graph(check_rng *r, size_t n, size_t m) {
    gdata g = {n, m, malloc(n * 12), malloc(n * sizeof(md_str)), malloc(m * sizeof(md_graph_edge))};
    for (size_t i = 0; i < n; i++) {
        int len = snprintf(g.names[i], 12, "n%zu", i);
        g.nodes[i].ptr = g.names[i];
        g.nodes[i].len = (size_t)len;
    }
    for (size_t e = 0; e < m; e++) {
        size_t s = rng_below(r, n), d = (size_t)(pow(rng_unit(r), 2) * (double)n);
        g.edges[e].src = g.nodes[s];
        g.edges[e].dst = g.nodes[d];
        g.edges[e].strength = rng_range(r, 0.1, 1);
    }
    return g;
}

static bool same_doubles(const double *a, const double *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!same_bits(a[i], b[i])) return false;
    return true;
}

static void test_graph(void) {
    check_rng r = {99};
    gdata gd = make_graph(&r, 600, 3000);
    long runs = 0;

    /* Building: *out stays NULL on failure. */
    md_graph *g = NULL;
    CHECK(md_graph_new(gd.nodes, gd.n, gd.edges, gd.m, &g) == MD_OK);
    md_graph *h = NULL;
    EACH_FAILURE(&runs, st = md_graph_new(gd.nodes, gd.n, gd.edges, gd.m, &h),
                 CHECK(h == NULL),
                 CHECK(h && md_graph_edge_count(h) == md_graph_edge_count(g)),
                 (md_graph_free(h), h = NULL));
    /* md_graph_new_indexed too (the wasm boundary builds through it). */
    uint32_t *src = malloc(gd.m * sizeof(uint32_t)), *dst = malloc(gd.m * sizeof(uint32_t));
    double *w = malloc(gd.m * sizeof(double));
    for (size_t e = 0; e < gd.m; e++) {
        src[e] = (uint32_t)atoi(gd.edges[e].src.ptr + 1);
        dst[e] = (uint32_t)atoi(gd.edges[e].dst.ptr + 1);
        w[e] = gd.edges[e].strength;
    }
    EACH_FAILURE(&runs, st = md_graph_new_indexed(gd.nodes, gd.n, src, dst, w, gd.m, &h),
                 CHECK(h == NULL),
                 CHECK(h && md_graph_edge_count(h) == md_graph_edge_count(g)),
                 (md_graph_free(h), h = NULL));

    size_t n = md_graph_node_count(g);
    double *want = malloc(n * sizeof(double)), *got = malloc(n * sizeof(double));
    md_pagerank_options o;
    size_t seeds[] = {3, 17};
    double sw[] = {1, 0.5};
    /* Uniform, personalized (sparse steps, then dense ones), and an infinite
     * count (the cycle watch's snapshot). */
    for (int mode = 0; mode < 3; mode++) {
        md_pagerank_options_default(&o);
        if (mode >= 1) { o.has_seeds = true; o.seed_nodes = seeds; o.seed_weights = sw; o.n_seeds = 2; }
        if (mode == 2) o.max_iterations = INFINITY;
        CHECK(md_graph_pagerank(g, &o, want) == MD_OK);
        EACH_FAILURE(&runs, st = md_graph_pagerank(g, &o, got), (void)0,
                     CHECK(same_doubles(got, want, n)), (void)0);
    }

    /* The top k: *count 0 on failure. */
    md_pagerank_options_default(&o);
    o.has_seeds = true; o.seed_nodes = seeds; o.seed_weights = sw; o.n_seeds = 2;
    size_t tk[20], wk[20], count = 0, wcount = 0, reached = 0, wreached = 0;
    double ts[20], ws[20];
    CHECK(md_graph_pagerank_top(g, &o, 20, true, wk, ws, &wcount, &wreached) == MD_OK);
    CHECK(wcount == 20);
    EACH_FAILURE(&runs, st = md_graph_pagerank_top(g, &o, 20, true, tk, ts, &count, &reached),
                 CHECK(count == 0),
                 CHECK(count == wcount && reached == wreached && memcmp(tk, wk, sizeof tk) == 0 && same_doubles(ts, ws, 20)),
                 count = 0);

    /* Communities (md_graph_bridge_counts allocates nothing). */
    size_t *wc = malloc(n * sizeof(size_t)), *gc = malloc(n * sizeof(size_t));
    CHECK(md_graph_label_propagation(g, 2, 100, wc) == MD_OK);
    EACH_FAILURE(&runs, st = md_graph_label_propagation(g, 2, 100, gc), (void)0,
                 CHECK(memcmp(gc, wc, n * sizeof(size_t)) == 0), (void)0);

    printf("graph: %ld runs\n", runs);
    md_graph_free(g);
    free(want); free(got); free(wc); free(gc);
    free(src); free(dst); free(w);
    free(gd.names); free(gd.nodes); free(gd.edges);
}

/* ------------------------------------------------------------------- rows */

static md_rows *rows_of(const float *m, size_t n, size_t d) {
    md_rows *r = NULL;
    CHECK(md_rows_new(d, &r) == MD_OK);
    CHECK(md_rows_append(r, m, n) == MD_OK);
    return r;
}

/* The handle holds exactly rows m[0..n) (n x d floats). */
static bool holds(const md_rows *r, const float *m, size_t n, size_t d) {
    return md_rows_count(r) == n && (n == 0 || memcmp(md_rows_data(r), m, n * d * sizeof(float)) == 0);
}

/* md_pairs_pass over rows [0, n) in two parts, then the final pairs; the
 * first status other than MD_OK is sticky. */
static md_status pass_in_parts(const float *m, size_t n, size_t d, md_neighbor_pairs *out) {
    md_pairs_pass *pass = NULL;
    md_status st = md_pairs_pass_new(m, n, d, NULL, 0.3, 5, &pass);
    if (st != MD_OK) { CHECK(pass == NULL); return st; }
    md_status a = md_pairs_pass_add(pass, 0, n / 2);
    md_status b = md_pairs_pass_add(pass, n / 2, n);
    md_status c = md_pairs_pass_pairs(pass, true, INFINITY, out);
    md_pairs_pass_free(pass);
    if (a != MD_OK) CHECK(b == a && c == a);
    else if (b != MD_OK) CHECK(c == b);
    return c;
}

static void test_rows(void) {
    check_rng rg = {7};
    const size_t d = 32, n = 2000;
    const size_t e = n; /* rows added at once: past any spare room, so the handle grows */
    float *m = malloc((n + e) * d * sizeof(float));
    for (size_t i = 0; i < (n + e) * d; i++) m[i] = (float)rng_range(&rg, -1, 1);
    const float *extra = m + n * d;
    long runs = 0;

    /* A new handle: *out stays NULL. */
    md_rows *x = NULL;
    EACH_FAILURE(&runs, st = md_rows_new(d, &x), CHECK(x == NULL), CHECK(x != NULL), (md_rows_free(x), x = NULL));

    /* Updates: a failed one leaves the handle as it was. */
    md_rows *r = rows_of(m, n, d);
    float *expect = malloc((n + e) * d * sizeof(float));
    EACH_FAILURE(&runs, st = md_rows_append(r, extra, e),
                 CHECK(holds(r, m, n, d)),
                 CHECK(holds(r, m, n + e, d)),
                 (md_rows_free(r), r = rows_of(m, n, d)));
    memcpy(expect, m, 100 * d * sizeof(float));
    memcpy(expect + 100 * d, extra, e * d * sizeof(float));
    memcpy(expect + (100 + e) * d, m + 100 * d, (n - 100) * d * sizeof(float));
    EACH_FAILURE(&runs, st = md_rows_insert(r, 100, extra, e),
                 CHECK(holds(r, m, n, d)),
                 CHECK(holds(r, expect, n + e, d)),
                 (md_rows_free(r), r = rows_of(m, n, d)));
    CHECK(holds(r, m, n, d));

    /* Queries: the pruned top k (k <= n / 4), the exact one (k > n / 4), every cosine. */
    const float *q = m + 5 * d;
    for (size_t k = 10; k <= 1000; k += 990) {
        uint32_t *wi = malloc(k * sizeof(uint32_t)), *gi = malloc(k * sizeof(uint32_t));
        double *ws = malloc(k * sizeof(double)), *gs = malloc(k * sizeof(double));
        size_t wl = 0, gl = 0;
        CHECK(md_rows_top_cosine(r, q, k, wi, ws, &wl) == MD_OK && wl == k);
        EACH_FAILURE(&runs, st = md_rows_top_cosine(r, q, k, gi, gs, &gl),
                     CHECK(gl == 0),
                     CHECK(gl == wl && memcmp(gi, wi, k * sizeof(uint32_t)) == 0 && same_doubles(gs, ws, k)),
                     gl = 0);
        free(wi); free(gi); free(ws); free(gs);
    }
    double *wc = malloc(n * sizeof(double)), *gc = malloc(n * sizeof(double));
    CHECK(md_rows_cosine(r, q, wc) == MD_OK);
    EACH_FAILURE(&runs, st = md_rows_cosine(r, q, gc), (void)0, CHECK(same_doubles(gc, wc, n)), (void)0);

    /* MMR over resident rows. */
    uint32_t cand[40], wo[40], go[40];
    double sc[40];
    for (int i = 0; i < 40; i++) { cand[i] = (uint32_t)(i * 37 % n); sc[i] = rng_unit(&rg); }
    size_t wl = 0, gl = 0;
    CHECK(md_rows_apply_mmr(r, cand, sc, 40, 10, 0.7, wo, &wl) == MD_OK && wl == 10);
    EACH_FAILURE(&runs, st = md_rows_apply_mmr(r, cand, sc, 40, 10, 0.7, go, &gl),
                 CHECK(gl == 0), CHECK(gl == wl && memcmp(go, wo, wl * sizeof(uint32_t)) == 0), gl = 0);

    /* The all-pairs pass over 200 of the rows, and candidate pairs: out stays empty. */
    md_rows *p = rows_of(m, 200, d);
    md_neighbor_pairs want = {0, NULL}, got = {0, NULL};
    CHECK(md_rows_neighbor_pairs(p, NULL, 0, 200, 0.3, 5, INFINITY, true, &want) == MD_OK && want.len > 0);
    EACH_FAILURE(&runs, st = md_rows_neighbor_pairs(p, NULL, 0, 200, 0.3, 5, INFINITY, true, &got),
                 CHECK(got.len == 0 && got.pairs == NULL),
                 CHECK(got.len == want.len && memcmp(got.pairs, want.pairs, want.len * sizeof(md_neighbor_pair)) == 0),
                 md_neighbor_pairs_free(&got));
    md_neighbor_pairs_free(&want);
    uint32_t ps[300], pd[300];
    for (int i = 0; i < 300; i++) { ps[i] = (uint32_t)rng_below(&rg, 200); pd[i] = (uint32_t)rng_below(&rg, 200); }
    CHECK(md_rows_rank_candidate_pairs(p, NULL, ps, pd, 300, 0, 3, INFINITY, &want) == MD_OK && want.len > 0);
    EACH_FAILURE(&runs, st = md_rows_rank_candidate_pairs(p, NULL, ps, pd, 300, 0, 3, INFINITY, &got),
                 CHECK(got.len == 0 && got.pairs == NULL),
                 CHECK(got.len == want.len && memcmp(got.pairs, want.pairs, want.len * sizeof(md_neighbor_pair)) == 0),
                 md_neighbor_pairs_free(&got));
    md_neighbor_pairs_free(&want);

    /* The pass in parts (what sleep's workers run): new, two adds, the pairs.
     * After a failed part every later call returns its status, and the
     * answer equals the one-shot pass's. */
    const float *pm = md_rows_data(p);
    CHECK(md_neighbor_pairs_ranked(pm, 200, d, NULL, 0, 200, 0.3, 5, INFINITY, true, &want) == MD_OK && want.len > 0);
    EACH_FAILURE(&runs, st = pass_in_parts(pm, 200, d, &got),
                 CHECK(got.len == 0 && got.pairs == NULL),
                 CHECK(got.len == want.len && memcmp(got.pairs, want.pairs, want.len * sizeof(md_neighbor_pair)) == 0),
                 md_neighbor_pairs_free(&got));
    md_neighbor_pairs_free(&want);

    printf("rows: %ld runs\n", runs);
    md_rows_free(p);
    md_rows_free(r);
    free(m); free(expect); free(wc); free(gc);
}

int main(void) {
    /* The wrapper fails nothing until armed: a run without failures first. */
    void *probe = malloc(16);
    CHECK(probe != NULL);
    free(probe);
    arm(0);
    probe = malloc(16);
    CHECK(probe == NULL && hit);
    disarm();
    test_graph();
    test_rows();
    printf("test_alloc_fail: %d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}

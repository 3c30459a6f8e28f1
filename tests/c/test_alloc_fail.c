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
 * memdomain/cache holds at 100k-1M memories; then every other module's
 * entry points that allocate (neighbour pairs, MMR, fusion, text, merges,
 * components). */
#include "check.h"
#include "lexindex.h"
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


/* ------------------------------------------------------ the other modules */

#define S(lit) ((md_str){lit, sizeof(lit) - 1})

static bool same_pairs(const md_neighbor_pairs *a, const md_neighbor_pairs *b) {
    return a->len == b->len && (a->len == 0 || memcmp(a->pairs, b->pairs, a->len * sizeof(md_neighbor_pair)) == 0);
}
static bool same_text(const md_text *a, const md_text *b) {
    return a->len == b->len && memcmp(a->ptr, b->ptr, a->len) == 0;
}
static bool same_fused(const md_fused *a, const md_fused *b) {
    if (a->len != b->len) return false;
    for (size_t i = 0; i < a->len; i++)
        if (a->paths[i].len != b->paths[i].len || memcmp(a->paths[i].ptr, b->paths[i].ptr, a->paths[i].len) != 0 ||
            !same_bits(a->scores[i], b->scores[i]))
            return false;
    return true;
}

static void test_others(void) {
    check_rng rg = {3};
    long runs = 0;
    enum { N = 60, D = 16 };
    float *m = malloc(N * D * sizeof(float));
    for (size_t i = 0; i < N * D; i++) m[i] = (float)rng_range(&rg, -1, 1);
    char names[N][8];
    md_str keys[N];
    md_keyed_vector kv[N];
    for (int i = 0; i < N; i++) {
        int len = snprintf(names[i], 8, "k%d", (i * 37) % N);
        keys[i] = (md_str){names[i], (size_t)len};
        kv[i] = (md_keyed_vector){keys[i], m + i * D, i % 13 == 5 ? D / 2 : D}; /* some mismatched lengths */
    }
    md_neighbor_options opt = {0.05, 3, INFINITY};
    md_neighbor_pairs want = {0, NULL}, got = {0, NULL};
    size_t dup = 0;

    /* Neighbour pairs: keyed, candidates, packed, a tile merged. */
    CHECK(md_top_neighbor_pairs(kv, N, opt, &want) == MD_OK && want.len > 0);
    EACH_FAILURE(&runs, st = md_top_neighbor_pairs(kv, N, opt, &got),
                 CHECK(got.len == 0 && got.pairs == NULL), CHECK(same_pairs(&got, &want)), md_neighbor_pairs_free(&got));
    md_neighbor_pairs_free(&want);
    md_candidate_pair cp[150];
    for (int i = 0; i < 150; i++) cp[i] = (md_candidate_pair){keys[rng_below(&rg, N)], keys[rng_below(&rg, N)]};
    CHECK(md_rank_candidate_pairs(cp, 150, kv, N, opt, &want) == MD_OK && want.len > 0);
    EACH_FAILURE(&runs, st = md_rank_candidate_pairs(cp, 150, kv, N, opt, &got),
                 CHECK(got.len == 0 && got.pairs == NULL), CHECK(same_pairs(&got, &want)), md_neighbor_pairs_free(&got));
    md_neighbor_pairs_free(&want);
    CHECK(md_top_neighbor_pairs_packed(m, N, D, keys, opt, &want, &dup) == MD_OK && want.len > 0);
    EACH_FAILURE(&runs, st = md_top_neighbor_pairs_packed(m, N, D, keys, opt, &got, &dup),
                 CHECK(got.len == 0 && got.pairs == NULL), CHECK(same_pairs(&got, &want)), md_neighbor_pairs_free(&got));
    md_neighbor_pairs tile = {0, NULL};
    CHECK(md_neighbor_tile_packed(m, N, D, keys, 0, N, opt, &tile, &dup) == MD_OK && tile.len > 0);
    EACH_FAILURE(&runs, st = md_merge_neighbor_pairs(tile.pairs, tile.len, keys, N, opt, &got, &dup),
                 CHECK(got.len == 0 && got.pairs == NULL), CHECK(same_pairs(&got, &want)), md_neighbor_pairs_free(&got));
    md_neighbor_pairs_free(&tile);
    md_neighbor_pairs_free(&want);

    /* The 1 x n arm's top k, and key ranks. */
    size_t wi[5], gi[5], wl = 0, gl = 0;
    double ws[5], gs[5];
    CHECK(md_top_cosine_rows_f32(m, m, N, D, 5, wi, ws, &wl) == MD_OK && wl == 5);
    EACH_FAILURE(&runs, st = md_top_cosine_rows_f32(m, m, N, D, 5, gi, gs, &gl), CHECK(gl == 0),
                 CHECK(gl == wl && memcmp(gi, wi, sizeof wi) == 0 && same_doubles(gs, ws, 5)), gl = 0);
    uint8_t bytes[N * 8];
    uint32_t off[N + 1], wr[N], gr[N], wd = 0, gd = 0;
    off[0] = 0;
    for (int i = 0; i < N; i++) { memcpy(bytes + off[i], keys[i].ptr, keys[i].len); off[i + 1] = off[i] + (uint32_t)keys[i].len; }
    CHECK(md_key_ranks(bytes, off, N, wr, &wd) == MD_OK);
    EACH_FAILURE(&runs, st = md_key_ranks(bytes, off, N, gr, &gd), (void)0, CHECK(memcmp(gr, wr, sizeof wr) == 0), (void)0);

    /* MMR, with vectors as candidates and packed. */
    double *md = malloc(N * D * sizeof(double)), sc[N];
    md_mmr_candidate cand[N];
    for (int i = 0; i < N; i++) {
        sc[i] = rng_unit(&rg);
        for (int t = 0; t < D; t++) md[i * D + t] = m[i * D + t];
        cand[i] = (md_mmr_candidate){sc[i], md + i * D, D, i % 7 != 3};
    }
    size_t wo[N], go[N];
    CHECK(md_apply_mmr(cand, N, 10, 0.7, wo, &wl) == MD_OK && wl == 10);
    EACH_FAILURE(&runs, st = md_apply_mmr(cand, N, 10, 0.7, go, &gl), CHECK(gl == 0),
                 CHECK(gl == wl && memcmp(go, wo, wl * sizeof(size_t)) == 0), gl = 0);
    CHECK(md_apply_mmr_packed(sc, md, N, D, 10, 0.7, wo, &wl) == MD_OK && wl == 10);
    EACH_FAILURE(&runs, st = md_apply_mmr_packed(sc, md, N, D, 10, 0.7, go, &gl), CHECK(gl == 0),
                 CHECK(gl == wl && memcmp(go, wo, wl * sizeof(size_t)) == 0), gl = 0);

    /* Fusion. */
    md_arm_hit h1[N], h2[N];
    for (int i = 0; i < N; i++) { h1[i] = (md_arm_hit){keys[i], i + 1}; h2[i] = (md_arm_hit){keys[(i * 7) % N], i + 1}; }
    md_arm arms[2] = {{h1, N}, {h2, N / 2}};
    double aw[2] = {1, 0.5};
    md_fused wf = {0}, gf = {0};
    CHECK(md_fuse_arms(arms, 2, aw, 2, 60, &wf) == MD_OK && wf.len == N);
    EACH_FAILURE(&runs, st = md_fuse_arms(arms, 2, aw, 2, 60, &gf), CHECK(gf.len == 0 && gf.paths == NULL),
                 CHECK(same_fused(&gf, &wf)), md_fused_free(&gf));
    size_t wrk[N], grk[N];
    CHECK(md_rank_fused(wf.paths, wf.scores, wf.len, wrk) == MD_OK);
    EACH_FAILURE(&runs, st = md_rank_fused(wf.paths, wf.scores, wf.len, grk), (void)0,
                 CHECK(memcmp(grk, wrk, wf.len * sizeof(size_t)) == 0), (void)0);
    md_fused wl2 = {0};
    CHECK(md_fuse_lateral(wf.paths, wf.scores, wf.len, keys + 10, 20, 0.1, 60, &wl2) == MD_OK);
    EACH_FAILURE(&runs, st = md_fuse_lateral(wf.paths, wf.scores, wf.len, keys + 10, 20, 0.1, 60, &gf),
                 CHECK(gf.len == 0 && gf.paths == NULL), CHECK(same_fused(&gf, &wl2)), md_fused_free(&gf));
    md_fused_free(&wl2);
    md_fused_free(&wf);

    /* Text: NFC, lower case, frame keys, merge texts, vetoes. */
    md_str text = S("Do NOT deploy v2.1 on Friday \xC3\x89t\xC3\xA9 \x41\xCC\x8A caf\xC3\xA9s can't");
    md_text wt = {0}, gt = {0};
    CHECK(md_nfc(text, &wt) == MD_OK);
    EACH_FAILURE(&runs, st = md_nfc(text, &gt), CHECK(gt.ptr == NULL && gt.len == 0), CHECK(same_text(&gt, &wt)), md_text_free(&gt));
    md_text_free(&wt);
    CHECK(md_to_lower(text, &wt) == MD_OK);
    EACH_FAILURE(&runs, st = md_to_lower(text, &gt), CHECK(gt.ptr == NULL && gt.len == 0), CHECK(same_text(&gt, &wt)), md_text_free(&gt));
    md_text_free(&wt);
    bool wfound = false, gfound = false;
    md_str gist = S("Deploy: the release train leaves on Fridays");
    CHECK(md_frame_key_of(gist, &wt, &wfound) == MD_OK);
    EACH_FAILURE(&runs, st = md_frame_key_of(gist, &gt, &gfound), CHECK(gt.ptr == NULL && gt.len == 0),
                 CHECK(gfound == wfound && (!wfound || same_text(&gt, &wt))), md_text_free(&gt));
    md_text_free(&wt);
    md_merge_text ta = {S("We deploy v2.1 on Friday"), S("The release is not blocked; staging passed.")};
    md_merge_text tb = {S("We deploy v2.2 on Friday"), S("The release is blocked in staging.")};
    CHECK(md_join_merge_text(&ta, &wt) == MD_OK);
    EACH_FAILURE(&runs, st = md_join_merge_text(&ta, &gt), CHECK(gt.ptr == NULL && gt.len == 0), CHECK(same_text(&gt, &wt)), md_text_free(&gt));
    md_text_free(&wt);
    unsigned wv = 0, gv = 0;
    CHECK(md_merge_veto_reasons(&ta, &tb, &wv) == MD_OK && wv != 0);
    EACH_FAILURE(&runs, st = md_merge_veto_reasons(&ta, &tb, &gv), (void)0, CHECK(gv == wv), gv = 0);

    /* Merges and components. */
    md_merge_pair mp[6] = {
        {keys[0], keys[1], 0.95, &ta, &tb}, {keys[2], keys[3], 0.97, &ta, &ta}, {keys[3], keys[4], 0.93, NULL, &tb},
        {keys[5], keys[5], 0.99, &ta, &ta}, {keys[6], keys[2], 0.96, &tb, &tb}, {keys[7], keys[8], 0.5, &ta, &tb}};
    uint8_t wst[6], gst[6];
    CHECK(md_merge_outcomes(mp, 6, MD_MAX_MERGE_PAIRS, MD_NEAR_DUPLICATE_THRESHOLD, wst) == MD_OK);
    EACH_FAILURE(&runs, st = md_merge_outcomes(mp, 6, MD_MAX_MERGE_PAIRS, MD_NEAR_DUPLICATE_THRESHOLD, gst), (void)0,
                 CHECK(memcmp(gst, wst, 6) == 0), (void)0);
    size_t wcm[6], gcm[6], wnc = 0, gnc = 0;
    CHECK(md_merge_candidates(mp, 6, MD_MAX_MERGE_PAIRS, MD_NEAR_DUPLICATE_THRESHOLD, wcm, &wnc) == MD_OK);
    EACH_FAILURE(&runs, st = md_merge_candidates(mp, 6, MD_MAX_MERGE_PAIRS, MD_NEAR_DUPLICATE_THRESHOLD, gcm, &gnc),
                 CHECK(gnc == 0), CHECK(gnc == wnc && memcmp(gcm, wcm, wnc * sizeof(size_t)) == 0), gnc = 0);
    md_str ends[2 * 40];
    for (int i = 0; i < 2 * 40; i++) ends[i] = keys[rng_below(&rg, N)];
    md_components wcc = {0}, gcc = {0};
    CHECK(md_connected_components(ends, 40, &wcc) == MD_OK);
    EACH_FAILURE(&runs, st = md_connected_components(ends, 40, &gcc),
                 CHECK(gcc.n_members == 0 && gcc.members == NULL && gcc.starts == NULL),
                 CHECK(gcc.n_members == wcc.n_members && gcc.n_components == wcc.n_components &&
                       memcmp(gcc.starts, wcc.starts, (wcc.n_components + 1) * sizeof(size_t)) == 0 &&
                       memcmp(gcc.members, wcc.members, wcc.n_members * sizeof(md_str)) == 0),
                 md_components_free(&gcc));
    md_components_free(&wcc);

    printf("other modules: %ld runs\n", runs);
    free(m);
    free(md);
}

/* ------------------------------------------------------------------ lexical index */

/* A document of the lexical index: terms 0..39 skewed, a few hits each. */
static size_t lex_doc(check_rng *r, uint32_t *t, uint32_t *g, uint32_t *b) {
    size_t n = 1 + rng_below(r, 12), k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = (uint32_t)(rng_unit(r) * rng_unit(r) * 40), dup = 0;
        for (size_t j = 0; j < k; j++) dup |= t[j] == x;
        if (dup) continue;
        t[k] = x;
        g[k] = (uint32_t)rng_below(r, 2);
        b[k++] = 1 + (uint32_t)rng_below(r, 3);
    }
    return k;
}

static md_lexindex *ix2_;

static void test_lexindex(void) {
    check_rng r = {44};
    md_lexindex *ix;
    CHECK(md_lexindex_new(&ix) == MD_OK);
    uint32_t t[16], g[16], b[16];
    /* 600 documents: full blocks on the common terms, so a put in the middle splits one */
    for (uint32_t d = 0; d < 1200; d += 2) {
        size_t n = lex_doc(&r, t, g, b);
        CHECK(md_lexindex_put(ix, d, (const uint8_t *)"key", 1 + d % 3, 30, t, g, b, n) == MD_OK);
    }
    uint32_t q[3] = {0, 1, 5}, want_d[20], got_d[20];
    double want_s[20], got_s[20];
    size_t want[2], got[2];
    CHECK(md_lexindex_top(ix, q, 3, NULL, 3.0, 20, want_d, want_s, want) == MD_OK && want[0] == 20);
    long runs = 0;
    size_t before = md_lexindex_count(ix);
    size_t n = lex_doc(&r, t, g, b);
    /* a put in the middle of every list (doc 601): a failed one leaves it absent, the rest unchanged */
    EACH_FAILURE(&runs, st = md_lexindex_put(ix, 601, (const uint8_t *)"k", 1, 30, t, g, b, n),
        CHECK(md_lexindex_count(ix) == before && md_lexindex_delete(ix, 601) == MD_ERR_RANGE),
        CHECK(md_lexindex_count(ix) == before + 1 && md_lexindex_delete(ix, 601) == MD_OK),
        CHECK(mdi_lexindex_check(ix) == 0));
    CHECK(md_lexindex_top(ix, q, 3, NULL, 3.0, 20, got_d, got_s, got) == MD_OK && got[0] == want[0]);
    CHECK(memcmp(got_d, want_d, sizeof want_d) == 0 && same_doubles(got_s, want_s, 20));
    /* the top-k and the full scoring: a failed one answers nothing */
    EACH_FAILURE(&runs, st = md_lexindex_top(ix, q, 3, NULL, 3.0, 20, got_d, got_s, got),
        CHECK(got[0] == 0),
        CHECK(got[0] == want[0] && memcmp(got_d, want_d, sizeof want_d) == 0 && same_doubles(got_s, want_s, 20)),
        (void)0);
    EACH_FAILURE(&runs, st = md_lexindex_top_full(ix, q, 3, NULL, 3.0, 20, got_d, got_s, got),
        CHECK(got[0] == 0),
        CHECK(got[0] == want[0] && memcmp(got_d, want_d, sizeof want_d) == 0 && same_doubles(got_s, want_s, 20)),
        (void)0);
    EACH_FAILURE(&runs, st = md_lexindex_new(&ix2_), (void)0, md_lexindex_free(ix2_), (void)0);
    CHECK(runs > 10);
    md_lexindex_free(ix);
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
    test_others();
    test_lexindex();
    printf("test_alloc_fail: %d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}

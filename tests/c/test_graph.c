/* C unit tests for the graph module: the handle, the design's rules and its
 * properties, statuses for bad input and unending counts. */
#include "check.h"
#include "memdomain.h"

#include <stdlib.h>

static md_str S(const char *s) { md_str r = {s, strlen(s)}; return r; }

static md_graph *build(const char *const *nodes, size_t n, const md_graph_edge *edges, size_t m) {
    md_str *keys = malloc((n ? n : 1) * sizeof(md_str));
    for (size_t i = 0; i < n; i++) keys[i] = S(nodes[i]);
    md_graph *g = NULL;
    md_status st = md_graph_new(keys, n, edges, m, &g);
    CHECK(st == MD_OK && g != NULL);
    free(keys);
    return g;
}

static bool node_is(const md_graph *g, size_t i, const char *s) {
    md_str k = md_graph_node(g, i);
    return k.len == strlen(s) && memcmp(k.ptr, s, k.len) == 0;
}

static void test_nodes_and_folding(void) {
    /* UTF-16 order: U+1F600 (a surrogate pair) sorts below U+FF5E. */
    const char *nodes[] = {"\xef\xbd\x9e", "b", "a b", "\xf0\x9f\x98\x80", "a", "b", "c", "b c"};
    md_graph_edge edges[] = {
        {S("a b"), S("c"), 0.9},  /* "a b" -> "c" and "a" -> "b c" must not collide */
        {S("a"), S("b c"), 0.1},
        {S("a"), S("a"), 1},      /* self-loop: dropped */
        {S("a"), S("zz"), 1},     /* absent end: dropped */
        {S("b"), S("c"), 0.2},    /* parallel: folds to 0.7 */
        {S("b"), S("c"), 0.7},
        {S("b"), S("c"), 0.3},
    };
    md_graph *g = build(nodes, 8, edges, 7);
    CHECK(md_graph_node_count(g) == 7);
    CHECK(md_graph_edge_count(g) == 3);
    const char *want[] = {"a", "a b", "b", "b c", "c", "\xf0\x9f\x98\x80", "\xef\xbd\x9e"};
    for (size_t i = 0; i < 7; i++) CHECK(node_is(g, i, want[i]));
    CHECK(md_graph_node_input(g, 2) == 1);         /* "b" first appears at input 1 */
    CHECK(md_graph_node_of_input(g, 5) == 2);      /* input 5 is "b" again */
    CHECK(md_graph_node_input(g, 99) == MD_GRAPH_NONE);
    size_t at = 0;
    CHECK(md_graph_find(g, S("b c"), &at) && at == 3);
    CHECK(!md_graph_find(g, S("zz"), NULL));
    md_str none = md_graph_node(g, 7);
    CHECK(none.ptr == NULL && none.len == 0);

    /* b -> c folds to the maximum strength: same as one edge of 0.7. */
    md_graph_edge one[] = {{S("a b"), S("c"), 0.9}, {S("a"), S("b c"), 0.1}, {S("b"), S("c"), 0.7}};
    md_graph *h = build(nodes, 8, one, 3);
    double x[7], y[7];
    CHECK(md_graph_pagerank(g, NULL, x) == MD_OK);
    CHECK(md_graph_pagerank(h, NULL, y) == MD_OK);
    for (size_t i = 0; i < 7; i++) CHECK_SAME(x[i], y[i]);
    md_graph_free(g);
    md_graph_free(h);
}

static void test_pagerank_values(void) {
    /* A case of the golden file (graph.jsonl, line 3). */
    const char *nodes[] = {"a/ba/bk", "alpha", "beta7", "K\xc3\xa9" "a_"};
    md_graph_edge edges[] = {
        {S("a/ba/bk"), S("beta7"), 0.5}, {S("alpha"), S("K\xc3\xa9" "a_"), 0.5},
        {S("K\xc3\xa9" "a_"), S("a/ba/bk"), 0.5}};
    md_graph *g = build(nodes, 4, edges, 3);
    double s[4];
    CHECK(md_graph_pagerank(g, NULL, s) == MD_OK);
    /* Sorted: "Kéa_" (K < a), "a/ba/bk", "alpha", "beta7". */
    CHECK(node_is(g, 0, "K\xc3\xa9" "a_"));
    CHECK_SAME(s[0], 0.21488785520742984);
    CHECK_SAME(s[1], 0.2988109016680539);
    CHECK_SAME(s[2], 0.11615558155321364);
    CHECK_SAME(s[3], 0.3701456615713026);
    /* maxIterations 0: the teleport itself; NaN and negatives run none. */
    md_pagerank_options o;
    md_pagerank_options_default(&o);
    double nans[] = {0, NAN, -2};
    for (int k = 0; k < 3; k++) {
        o.max_iterations = nans[k];
        CHECK(md_graph_pagerank(g, &o, s) == MD_OK);
        for (int i = 0; i < 4; i++) CHECK_SAME(s[i], 0.25);
    }
    /* A fractional count rounds up. */
    double a[4], b[4];
    o.tolerance = 0;
    o.max_iterations = 2.1;
    CHECK(md_graph_pagerank(g, &o, a) == MD_OK);
    o.max_iterations = 3;
    CHECK(md_graph_pagerank(g, &o, b) == MD_OK);
    for (int i = 0; i < 4; i++) CHECK_SAME(a[i], b[i]);
    md_graph_free(g);
}

static void test_seeds(void) {
    const char *nodes[] = {"a", "b", "c", "d"};
    md_graph_edge edges[] = {{S("a"), S("b"), 1}, {S("b"), S("c"), 0.5}, {S("c"), S("a"), 0.25}};
    md_graph *g = build(nodes, 4, edges, 3);
    md_pagerank_options o;
    md_pagerank_options_default(&o);
    double u[4], s1[4], s2[4];
    CHECK(md_graph_pagerank(g, NULL, u) == MD_OK);
    /* All absent (or not > 0): the uniform prior. */
    size_t absent[] = {7, MD_GRAPH_NONE, 1};
    double aw[] = {1, 2, -1};
    o.has_seeds = true; o.seed_nodes = absent; o.seed_weights = aw; o.n_seeds = 3;
    CHECK(md_graph_pagerank(g, &o, s1) == MD_OK);
    for (int i = 0; i < 4; i++) CHECK_SAME(s1[i], u[i]);
    o.n_seeds = 0;
    CHECK(md_graph_pagerank(g, &o, s1) == MD_OK);
    for (int i = 0; i < 4; i++) CHECK_SAME(s1[i], u[i]);
    /* Absent seeds drop; a repeated node counts once (first position, last weight). */
    size_t n1[] = {3, 9, 0, 3};
    double w1[] = {5, 1, 1, 2};
    size_t n2[] = {3, 0};
    double w2[] = {2, 1};
    o.seed_nodes = n1; o.seed_weights = w1; o.n_seeds = 4;
    CHECK(md_graph_pagerank(g, &o, s1) == MD_OK);
    o.seed_nodes = n2; o.seed_weights = w2; o.n_seeds = 2;
    CHECK(md_graph_pagerank(g, &o, s2) == MD_OK);
    for (int i = 0; i < 4; i++) CHECK_SAME(s1[i], s2[i]);
    CHECK(s1[1] > 0 && s1[2] > 0);
    /* d is isolated and unseeded: personalized mass never reaches it. */
    CHECK_SAME(s1[3] > 0 ? 1 : 0, 1); /* d is seeded here (weight 2) */
    size_t n3[] = {0};
    double w3[] = {1};
    o.seed_nodes = n3; o.seed_weights = w3; o.n_seeds = 1;
    CHECK(md_graph_pagerank(g, &o, s1) == MD_OK);
    CHECK_SAME(s1[3], 0);
    /* NULL seed arrays with a count. */
    o.seed_nodes = NULL;
    CHECK(md_graph_pagerank(g, &o, s1) == MD_ERR_NULL);
    md_graph_free(g);
}

/* A random graph over n nodes named "n<i>" in a random input order. */
typedef struct rgraph {
    size_t n, m;
    char (*names)[16];
    md_str *nodes;
    md_graph_edge *edges;
} rgraph;

static rgraph rgraph_make(check_rng *r, size_t n, size_t m, bool distinct_pairs) {
    rgraph g = {n, 0, malloc(n * 16), malloc(n * sizeof(md_str)), malloc((m ? m : 1) * sizeof(md_graph_edge))};
    for (size_t i = 0; i < n; i++) {
        int len = 0;
        size_t v = i;
        char tmp[16];
        do { tmp[len++] = (char)('0' + v % 10); v /= 10; } while (v);
        g.names[i][0] = 'n';
        for (int k = 0; k < len; k++) g.names[i][1 + k] = tmp[len - 1 - k];
        g.nodes[i].ptr = g.names[i];
        g.nodes[i].len = (size_t)len + 1;
    }
    for (size_t e = 0; e < m; e++) {
        size_t s = rng_below(r, n), d = rng_below(r, n);
        if (s % 5 == 2) continue; /* dangling nodes */
        if (distinct_pairs) {
            bool dup = false;
            for (size_t k = 0; k < g.m && !dup; k++)
                dup = g.edges[k].src.ptr == g.nodes[s].ptr && g.edges[k].dst.ptr == g.nodes[d].ptr;
            if (dup) continue;
        }
        g.edges[g.m].src = g.nodes[s];
        g.edges[g.m].dst = g.nodes[d];
        g.edges[g.m].strength = rng_unit(r) < 0.1 ? 0 : rng_range(r, 1e-6, 1);
        g.m++;
    }
    return g;
}

static void rgraph_free(rgraph *g) { free(g->names); free(g->nodes); free(g->edges); }

static void test_properties(void) {
    check_rng r = {42};
    for (int round = 0; round < 60; round++) {
        size_t n = 1 + rng_below(&r, 60), m = rng_below(&r, 200);
        rgraph rg = rgraph_make(&r, n, m, true);
        md_graph *g = NULL;
        CHECK(md_graph_new(rg.nodes, n, rg.edges, rg.m, &g) == MD_OK);
        double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
        size_t *ca = malloc(n * sizeof(size_t)), *cb = malloc(n * sizeof(size_t));
        size_t *ba = malloc(n * sizeof(size_t)), *bb = malloc(n * sizeof(size_t));
        /* Scores sum to 1, uniform and personalized, with dangling nodes. */
        md_pagerank_options o;
        md_pagerank_options_default(&o);
        size_t seeds[3] = {rng_below(&r, n), rng_below(&r, n), n + 4};
        double sw[3] = {rng_range(&r, 0.1, 3), rng_range(&r, 0.1, 3), 1};
        for (int pers = 0; pers < 2; pers++) {
            o.has_seeds = pers;
            o.seed_nodes = seeds; o.seed_weights = sw; o.n_seeds = 3;
            CHECK(md_graph_pagerank(g, &o, a) == MD_OK);
            double sum = 0;
            for (size_t i = 0; i < n; i++) sum += a[i];
            CHECK(fabs(sum - 1) <= 1e-12);
        }
        /* Shuffled nodes and edges give the same bits. */
        md_graph_pagerank(g, &o, a);
        CHECK(md_graph_label_propagation(g, 2, 100, ca) == MD_OK);
        CHECK(md_graph_bridge_counts(g, ca, ba) == MD_OK);
        for (size_t i = n; i > 1; i--) { size_t j = rng_below(&r, i); md_str t = rg.nodes[i - 1]; rg.nodes[i - 1] = rg.nodes[j]; rg.nodes[j] = t; }
        for (size_t i = rg.m; i > 1; i--) { size_t j = rng_below(&r, i); md_graph_edge t = rg.edges[i - 1]; rg.edges[i - 1] = rg.edges[j]; rg.edges[j] = t; }
        md_graph *h = NULL;
        CHECK(md_graph_new(rg.nodes, n, rg.edges, rg.m, &h) == MD_OK);
        md_graph_pagerank(h, &o, b);
        for (size_t i = 0; i < n; i++) CHECK_SAME(a[i], b[i]);
        CHECK(md_graph_label_propagation(h, 2, 100, cb) == MD_OK);
        CHECK(md_graph_bridge_counts(h, cb, bb) == MD_OK);
        for (size_t i = 0; i < n; i++) CHECK(ca[i] == cb[i] && ba[i] == bb[i]);
        /* Below the floor: undefined, and no bridges. */
        CHECK(md_graph_label_propagation(g, 3, 100, ca) == MD_OK);
        CHECK(md_graph_bridge_counts(g, ca, ba) == MD_OK);
        for (size_t i = 0; i < n; i++) if (ca[i] == MD_GRAPH_NONE) CHECK(ba[i] == 0);
        /* A canonical label is the community's smallest member. */
        for (size_t i = 0; i < n; i++) if (ca[i] != MD_GRAPH_NONE) CHECK(ca[i] <= i && ca[ca[i]] == ca[i]);
        md_graph_free(g);
        md_graph_free(h);
        free(a); free(b); free(ca); free(cb); free(ba); free(bb);
        rgraph_free(&rg);
    }
}

/* md_graph_pagerank_top is md_graph_pagerank's answer, sorted and cut: scores
 * > 0 by score desc then node asc, seeds left out on request, and how many
 * nodes besides the seeds the walk reached. */
static void test_pagerank_top(void) {
    check_rng r = {7};
    for (int round = 0; round < 80; round++) {
        size_t n = 1 + rng_below(&r, 300), m = rng_below(&r, 2 * n);
        rgraph rg = rgraph_make(&r, n, m, false);
        md_graph *g = NULL;
        CHECK(md_graph_new(rg.nodes, n, rg.edges, rg.m, &g) == MD_OK);
        md_pagerank_options o;
        md_pagerank_options_default(&o);
        size_t seeds[4] = {rng_below(&r, n), rng_below(&r, n), rng_below(&r, n), n + 1};
        double sw[4] = {rng_range(&r, 0.1, 2), round % 3 ? 0.5 : 0, rng_range(&r, 0.1, 2), 1};
        o.has_seeds = round % 5 != 0; /* every fifth: the uniform walk */
        o.seed_nodes = seeds; o.seed_weights = sw; o.n_seeds = 4;
        o.max_iterations = round % 4 == 0 ? 100 : (double)(1 + round % 7);
        bool seed[300] = {false};
        for (size_t i = 0; i < 4; i++) if (o.has_seeds && seeds[i] < n) seed[seeds[i]] = sw[i] > 0;
        double *all = malloc(n * sizeof(double)), *ts = malloc(n * sizeof(double));
        size_t *tn = malloc(n * sizeof(size_t));
        CHECK(md_graph_pagerank(g, &o, all) == MD_OK);
        for (int skip = 0; skip < 2; skip++) {
            size_t k = round % 2 ? n : 1 + rng_below(&r, 10), count = 99, reached = 99;
            CHECK(md_graph_pagerank_top(g, &o, k, skip, tn, ts, &count, &reached) == MD_OK);
            /* the expectation: every positive, eligible node, selection-sorted */
            size_t want = 0, want_reached = 0;
            for (size_t v = 0; v < n; v++) if (all[v] > 0 && !seed[v]) want_reached++;
            CHECK(reached == want_reached);
            bool *used = calloc(n, sizeof(bool));
            for (size_t i = 0; i < k; i++) {
                size_t best = SIZE_MAX;
                for (size_t v = 0; v < n; v++) {
                    if (used[v] || !(all[v] > 0) || (skip && seed[v])) continue;
                    if (best == SIZE_MAX || all[v] > all[best]) best = v;
                }
                if (best == SIZE_MAX) break;
                used[best] = true;
                CHECK(i < count && tn[i] == best);
                if (i < count) CHECK_SAME(ts[i], all[best]);
                want++;
            }
            CHECK(count == want);
            free(used);
        }
        size_t count = 9, reached = 9;
        CHECK(md_graph_pagerank_top(g, &o, 0, false, NULL, NULL, &count, &reached) == MD_OK && count == 0);
        CHECK(md_graph_pagerank_top(g, &o, 3, false, NULL, ts, &count, &reached) == MD_ERR_NULL);
        CHECK(md_graph_pagerank_top(g, &o, 3, false, tn, ts, NULL, &reached) == MD_ERR_NULL);
        CHECK(md_graph_pagerank_top(NULL, &o, 3, false, tn, ts, &count, &reached) == MD_ERR_NULL);
        md_graph_free(g);
        free(all); free(ts); free(tn);
        rgraph_free(&rg);
    }
}

static void test_label_propagation(void) {
    /* Two triangles joined by one weak edge, plus an isolated pair. */
    const char *nodes[] = {"a", "b", "c", "d", "e", "f", "x", "y"};
    md_graph_edge edges[] = {
        {S("a"), S("b"), 1}, {S("b"), S("c"), 1}, {S("c"), S("a"), 1},
        {S("d"), S("e"), 1}, {S("e"), S("f"), 1}, {S("f"), S("d"), 1},
        {S("c"), S("d"), 0.1}, {S("x"), S("y"), 1}, {S("y"), S("c"), 0.05}};
    md_graph *g = build(nodes, 8, edges, 9);
    size_t c[8], b[8];
    CHECK(md_graph_label_propagation(g, MD_MIN_COMMUNITY_SIZE, MD_LABEL_PROPAGATION_MAX_SWEEPS, c) == MD_OK);
    size_t want[] = {0, 0, 0, 3, 3, 3, MD_GRAPH_NONE, MD_GRAPH_NONE};
    for (int i = 0; i < 8; i++) CHECK(c[i] == want[i]);
    CHECK(md_graph_bridge_counts(g, c, b) == MD_OK);
    size_t wb[] = {0, 0, 1, 1, 0, 0, 0, 0};
    for (int i = 0; i < 8; i++) CHECK(b[i] == wb[i]);
    /* NaN floor: every community undefined. Zero sweeps: singletons. */
    CHECK(md_graph_label_propagation(g, NAN, 100, c) == MD_OK);
    for (int i = 0; i < 8; i++) CHECK(c[i] == MD_GRAPH_NONE);
    CHECK(md_graph_label_propagation(g, 1, 0, c) == MD_OK);
    for (int i = 0; i < 8; i++) CHECK(c[i] == (size_t)i);
    /* Infinite sweeps end at the fixed point. */
    CHECK(md_graph_label_propagation(g, 3, INFINITY, c) == MD_OK);
    for (int i = 0; i < 8; i++) CHECK(c[i] == want[i]);
    md_graph_free(g);
}

static void test_unending_counts(void) {
    /* damping 1 on a 2-cycle from a one-sided start oscillates forever. */
    const char *nodes[] = {"a", "b"};
    md_graph_edge edges[] = {{S("a"), S("b"), 1}, {S("b"), S("a"), 1}};
    md_graph *g = build(nodes, 2, edges, 2);
    md_pagerank_options o;
    md_pagerank_options_default(&o);
    size_t seed[] = {0};
    double w[] = {1};
    o.damping = 1; o.tolerance = 0;
    o.has_seeds = true; o.seed_nodes = seed; o.seed_weights = w; o.n_seeds = 1;
    double s[2];
    o.max_iterations = INFINITY;
    CHECK(md_graph_pagerank(g, &o, s) == MD_ERR_RANGE);
    o.max_iterations = 1e300; /* beyond 2^53: the reference's counter sticks */
    CHECK(md_graph_pagerank(g, &o, s) == MD_ERR_RANGE);
    o.max_iterations = 1e15 + 1; /* odd: all mass on b */
    CHECK(md_graph_pagerank(g, &o, s) == MD_OK);
    CHECK_SAME(s[0], 0);
    CHECK_SAME(s[1], 1);
    o.max_iterations = 1e15;
    CHECK(md_graph_pagerank(g, &o, s) == MD_OK);
    CHECK_SAME(s[0], 1);
    CHECK_SAME(s[1], 0);
    /* A contraction with tolerance 0 reaches a fixed point: infinite is fine. */
    o.damping = 0.85; o.has_seeds = false;
    o.max_iterations = INFINITY;
    CHECK(md_graph_pagerank(g, &o, s) == MD_OK);
    CHECK_SAME(s[0], 0.5);
    md_graph_free(g);
}

/* Many keys (the sort's prefix fast path) mixing ASCII, U+E000..U+FFFF and
 * astral code points, plus WTF-8 lone surrogates (the slow path): the node
 * order must be md_key_compare's. */
static void test_key_order(void) {
    static const char *parts[] = {"a", "b", "/", "\xc3\xa9", "\xef\xbd\x9e", "\xee\x80\x80",
                                  "\xf0\x9f\x98\x80", "\xf0\x90\x80\x80", "\xed\x9f\xbf", "z", ""};
    check_rng r = {7};
    for (int round = 0; round < 2; round++) {
        size_t n = 300;
        char (*buf)[64] = malloc(n * 64);
        md_str *keys = malloc(n * sizeof(md_str));
        for (size_t i = 0; i < n; i++) {
            size_t len = 0;
            const char *pre = "areas/";
            memcpy(buf[i], pre, 6); len = 6;
            size_t parts_n = 1 + rng_below(&r, 5);
            for (size_t p = 0; p < parts_n; p++) {
                const char *x = parts[rng_below(&r, 11)];
                memcpy(buf[i] + len, x, strlen(x)); len += strlen(x);
            }
            if (round == 1 && i % 50 == 0) { memcpy(buf[i] + len, "\xed\xa0\x80", 3); len += 3; } /* lone D800 */
            keys[i].ptr = buf[i]; keys[i].len = len;
        }
        md_graph *g = NULL;
        CHECK(md_graph_new(keys, n, NULL, 0, &g) == MD_OK);
        size_t cnt = md_graph_node_count(g);
        CHECK(cnt > 100);
        for (size_t i = 1; i < cnt; i++) CHECK(md_key_compare(md_graph_node(g, i - 1), md_graph_node(g, i)) < 0);
        for (size_t j = 0; j < n; j++) {
            md_str k = md_graph_node(g, md_graph_node_of_input(g, j));
            CHECK(k.len == keys[j].len && memcmp(k.ptr, keys[j].ptr, k.len) == 0);
        }
        md_graph_free(g);
        free(buf); free(keys);
    }
}

static void test_bad_input(void) {
    md_graph *g = (md_graph *)1;
    md_str k[] = {{"a", 1}, {NULL, 3}};
    CHECK(md_graph_new(NULL, 2, NULL, 0, &g) == MD_ERR_NULL && g == NULL);
    CHECK(md_graph_new(k, 1, NULL, 0, NULL) == MD_ERR_NULL);
    CHECK(md_graph_new(k, 2, NULL, 0, &g) == MD_ERR_NULL && g == NULL);
    CHECK(md_graph_new(k, 1, NULL, 3, &g) == MD_ERR_NULL);
    uint32_t src[] = {0, 5}, dst[] = {7, 0};
    double st[] = {1, 1};
    CHECK(md_graph_new_indexed(k, 1, src, NULL, st, 2, &g) == MD_ERR_NULL);
    CHECK(md_graph_new_indexed(k, 1, src, dst, st, 2, &g) == MD_OK);
    CHECK(md_graph_edge_count(g) == 0); /* both edges name an absent node */
    double s[1];
    size_t c[1];
    CHECK(md_graph_pagerank(NULL, NULL, s) == MD_ERR_NULL);
    CHECK(md_graph_pagerank(g, NULL, NULL) == MD_ERR_NULL);
    CHECK(md_graph_label_propagation(g, 3, 100, NULL) == MD_ERR_NULL);
    CHECK(md_graph_bridge_counts(g, NULL, c) == MD_ERR_NULL);
    CHECK(md_graph_pagerank(g, NULL, s) == MD_OK);
    CHECK_SAME(s[0], 1);
    md_graph_free(g);
    md_graph_free(NULL);
    CHECK(md_graph_node_count(NULL) == 0);
    /* The empty graph. */
    CHECK(md_graph_new(NULL, 0, NULL, 0, &g) == MD_OK);
    CHECK(md_graph_node_count(g) == 0);
    CHECK(md_graph_pagerank(g, NULL, NULL) == MD_OK);
    CHECK(md_graph_label_propagation(g, 3, 100, NULL) == MD_OK);
    md_graph_free(g);
}

int main(void) {
    test_nodes_and_folding();
    test_pagerank_values();
    test_seeds();
    test_properties();
    test_pagerank_top();
    test_label_propagation();
    test_unending_counts();
    test_key_order();
    test_bad_input();
    return check_report("test_graph");
}

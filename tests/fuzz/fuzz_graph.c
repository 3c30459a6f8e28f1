/* The graph module on arbitrary keys (any bytes, or a valid-UTF-8 alphabet
 * so the sort's prefix path runs), indexed edges (some naming no node) and
 * numbers, through the wasm boundary exactly as the glue calls it: nodes come
 * back in md_key_compare order, the boundary's handle agrees bit for bit with
 * one the C API builds from string edges, and only an unending count may fail
 * (MD_ERR_RANGE). */
#include <math.h>
#include <stdlib.h>

#include "boundary.h"
#include "fuzz_input.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

int mdw_graph_new(const uint8_t *bytes, const uint32_t *offsets, size_t n_nodes, const uint32_t *src,
                  const uint32_t *dst, const double *strength, size_t n_edges, uint32_t *first_out, size_t *out);
void mdw_graph_free(md_graph *g);
int mdw_graph_pagerank(const md_graph *g, double damping, double max_iterations, double tolerance, int has_seeds,
                       const uint32_t *seed_inputs, const double *seed_weights, size_t n_seeds, double *scores);
int mdw_graph_label_propagation(const md_graph *g, double min_size, double max_sweeps, uint32_t *community);
int mdw_graph_bridge_counts(const md_graph *g, const uint32_t *labels, uint32_t *counts);
enum { MAXN = 90, MAXE = 200, MAXS = 6 };

static bool same(double a, double b) { return memcmp(&a, &b, 8) == 0 || (isnan(a) && isnan(b)); }

/* A count that is usually small, sometimes a quirk (fractional, NaN, huge, infinite). */
static double take_count(fuzz_in *in) {
    uint8_t k = take_u8(in);
    if (k < 200) return (double)(k % 40) + (k & 1 ? 0.5 : 0);
    double x = take_num(in);
    return fabs(x) > 60000 && fabs(x) < 1e15 ? 1e15 + (k & 1) : x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    static const char *alpha[] = {"a", "b", "/", "\xc3\xa9", "\xef\xbd\x9e", "\xf0\x9f\x98\x80", "\xed\x9f\xbf", " "};
    uint8_t mode = take_u8(&in);
    size_t n = take_u8(&in) % MAXN;
    uint8_t bytes[MAXN * 32];
    uint32_t offs[MAXN + 1] = {0};
    for (size_t i = 0; i < n; i++) {
        size_t at = offs[i];
        if (mode & 1) {
            const uint8_t *s;
            size_t len = take_str(&in, &s);
            memcpy(bytes + at, s, len);
            at += len;
        } else {
            for (size_t p = take_u8(&in) % 6; p > 0; p--) {
                const char *x = alpha[take_u8(&in) % 8];
                memcpy(bytes + at, x, strlen(x));
                at += strlen(x);
            }
        }
        offs[i + 1] = (uint32_t)at;
    }
    size_t m = take_u8(&in) % MAXE;
    uint32_t src[MAXE], dst[MAXE];
    double w[MAXE];
    for (size_t e = 0; e < m; e++) {
        src[e] = n ? take_u8(&in) % (n + 2) : 0; /* n and n + 1: absent */
        dst[e] = n ? take_u8(&in) % (n + 2) : 1;
        w[e] = take_u8(&in) < 200 ? (double)take_u8(&in) / 255 : take_num(&in);
    }
    double damping = take_u8(&in) < 200 ? 0.85 : take_num(&in);
    double iters = take_count(&in), tol = take_u8(&in) < 128 ? 1e-6 : take_num(&in);
    double floor_ = take_u8(&in) < 200 ? 3 : take_num(&in), sweeps = take_count(&in);
    size_t ns = take_u8(&in) % MAXS;
    uint32_t seeds[MAXS];
    double sw[MAXS];
    for (size_t i = 0; i < ns; i++) {
        seeds[i] = take_u8(&in) < 240 && n ? take_u8(&in) % n : 0xFFFFFFFFu;
        sw[i] = take_num(&in);
    }
    int has_seeds = take_u8(&in) & 1;

    size_t out[16] = {0};
    uint32_t first[MAXN];
    REQUIRE(mdw_graph_new(bytes, offs, n, src, dst, w, m, first, out) == MD_OK);
    md_graph *g = (md_graph *)out[0];
    size_t cnt = out[1];
    REQUIRE(cnt <= n && out[2] <= m);
    for (size_t i = 0; i < cnt; i++) REQUIRE(first[i] < n);
    for (size_t i = 1; i < cnt; i++) {
        md_str a = {(const char *)bytes + offs[first[i - 1]], offs[first[i - 1] + 1] - offs[first[i - 1]]};
        md_str b = {(const char *)bytes + offs[first[i]], offs[first[i] + 1] - offs[first[i]]};
        REQUIRE(md_key_compare(a, b) < 0);
    }

    /* The same graph from string edges (an absent end: a key longer than any node). */
    static const char absent[] = "an end that names no node: longer than any key";
    md_str keys[MAXN];
    md_graph_edge edges[MAXE];
    for (size_t i = 0; i < n; i++) keys[i] = (md_str){(const char *)bytes + offs[i], offs[i + 1] - offs[i]};
    for (size_t e = 0; e < m; e++) {
        edges[e].src = src[e] < n ? keys[src[e]] : (md_str){absent, sizeof absent - 1};
        edges[e].dst = dst[e] < n ? keys[dst[e]] : (md_str){absent, sizeof absent - 1};
        edges[e].strength = w[e];
    }
    md_graph *g2 = NULL;
    REQUIRE(md_graph_new(keys, n, edges, m, &g2) == MD_OK);
    REQUIRE(md_graph_node_count(g2) == cnt && md_graph_edge_count(g2) == out[2]);
    for (size_t i = 0; i < cnt; i++) REQUIRE(mdi_key_equal(md_graph_node(g2, i), keys[first[i]]));

    double s1[MAXN], s2[MAXN];
    size_t seed_nodes[MAXS];
    for (size_t i = 0; i < ns; i++) seed_nodes[i] = seeds[i] < n ? md_graph_node_of_input(g2, seeds[i]) : MD_GRAPH_NONE;
    md_pagerank_options o;
    md_pagerank_options_default(&o);
    o.damping = damping;
    o.max_iterations = iters;
    o.tolerance = tol;
    o.has_seeds = has_seeds;
    o.seed_nodes = seed_nodes;
    o.seed_weights = sw;
    o.n_seeds = ns;
    int st1 = mdw_graph_pagerank(g, damping, iters, tol, has_seeds, seeds, sw, ns, s1);
    int st2 = md_graph_pagerank(g2, &o, s2);
    REQUIRE(st1 == st2);
    REQUIRE(st1 == MD_OK || (st1 == MD_ERR_RANGE && iters > 65536));
    if (st1 == MD_OK)
        for (size_t i = 0; i < cnt; i++) REQUIRE(same(s1[i], s2[i]));

    uint32_t c1[MAXN];
    size_t c2[MAXN];
    st1 = mdw_graph_label_propagation(g, floor_, sweeps, c1);
    st2 = md_graph_label_propagation(g2, floor_, sweeps, c2);
    REQUIRE(st1 == st2);
    REQUIRE(st1 == MD_OK || (st1 == MD_ERR_RANGE && sweeps > 65536));
    if (st1 == MD_OK) {
        for (size_t i = 0; i < cnt; i++) {
            REQUIRE(c1[i] == (c2[i] == MD_GRAPH_NONE ? 0xFFFFFFFFu : c2[i]));
            REQUIRE(c1[i] == 0xFFFFFFFFu || (c1[i] <= i && c1[c1[i]] == c1[i]));
        }
        uint32_t b1[MAXN];
        size_t b2[MAXN];
        REQUIRE(mdw_graph_bridge_counts(g, c1, b1) == MD_OK);
        REQUIRE(md_graph_bridge_counts(g2, c2, b2) == MD_OK);
        for (size_t i = 0; i < cnt; i++) {
            REQUIRE(b1[i] == b2[i]);
            if (c1[i] == 0xFFFFFFFFu) REQUIRE(b1[i] == 0);
        }
    }
    md_graph_free(g2);
    mdw_graph_free(g);
    return 0;
}

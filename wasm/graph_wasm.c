/* Boundary for the graph module: a handle built once from a key table and
 * indexed edges (the glue's one-shot calls build, run and free one). Node
 * indices crossing the boundary are u32; UINT32_MAX means "none" (an absent
 * node, an undefined community). */
#include "boundary.h"

#include <stdlib.h>

#define NONE32 UINT32_MAX

static md_status build(const uint8_t *bytes, const uint32_t *offsets, size_t n_nodes,
                       const uint32_t *src, const uint32_t *dst, const double *strength,
                       size_t n_edges, md_graph **g) {
    md_str *keys = NULL;
    md_status st = mdw_keys(bytes, offsets, n_nodes, &keys);
    if (st == MD_OK) st = md_graph_new_indexed(keys, n_nodes, src, dst, strength, n_edges, g);
    free(keys);
    return st;
}

/* first_out[i] (room for n_nodes): the first input index naming node i. */
static void write_first(const md_graph *g, uint32_t *first_out) {
    size_t n = md_graph_node_count(g);
    for (size_t i = 0; i < n; i++) first_out[i] = (uint32_t)md_graph_node_input(g, i);
}

/* Build a handle. out: [handle, node count, folded edge count]. */
MDW_HOT_EXPORT("mdw_graph_new")
int mdw_graph_new(const uint8_t *bytes, const uint32_t *offsets, size_t n_nodes, const uint32_t *src,
                  const uint32_t *dst, const double *strength, size_t n_edges, uint32_t *first_out,
                  size_t *out) {
    md_graph *g = NULL;
    md_status st = build(bytes, offsets, n_nodes, src, dst, strength, n_edges, &g);
    if (st != MD_OK) return mdw_fail(st, MDW_ARG_NONE, NULL);
    write_first(g, first_out);
    out[MDW_OUT_graph_new_graph] = (size_t)g;
    out[MDW_OUT_graph_new_nodes] = md_graph_node_count(g);
    out[MDW_OUT_graph_new_edges] = md_graph_edge_count(g);
    return MD_OK;
}

MDW_EXPORT("mdw_graph_free")
void mdw_graph_free(md_graph *g) { md_graph_free(g); }

/* seed_inputs: input indices of the build (NONE32 or out of range: absent). */
static md_status run_pagerank(const md_graph *g, double damping, double max_iterations, double tolerance,
                              int has_seeds, const uint32_t *seed_inputs, const double *seed_weights,
                              size_t n_seeds, double *scores) {
    md_pagerank_options o;
    md_pagerank_options_default(&o);
    o.damping = damping;
    o.max_iterations = max_iterations;
    o.tolerance = tolerance;
    size_t *seeds = NULL;
    if (has_seeds) {
        seeds = mdi_alloc_array(n_seeds, sizeof(size_t));
        if (!seeds) return MD_ERR_NOMEM;
        for (size_t i = 0; i < n_seeds; i++)
            seeds[i] = seed_inputs[i] == NONE32 ? MD_GRAPH_NONE : md_graph_node_of_input(g, seed_inputs[i]);
        o.has_seeds = true;
        o.seed_nodes = seeds;
        o.seed_weights = seed_weights;
        o.n_seeds = n_seeds;
    }
    md_status st = md_graph_pagerank(g, &o, scores);
    free(seeds);
    return st;
}

/* An iteration count the core refuses: the count argument, and why. */
static const char *const ENDLESS = "leaves an iteration that never converges or runs past memdomain's work budget";

MDW_EXPORT("mdw_graph_pagerank")
int mdw_graph_pagerank(const md_graph *g, double damping, double max_iterations, double tolerance,
                       int has_seeds, const uint32_t *seed_inputs, const double *seed_weights,
                       size_t n_seeds, double *scores) {
    md_status st = run_pagerank(g, damping, max_iterations, tolerance, has_seeds, seed_inputs, seed_weights,
                                n_seeds, scores);
    return st == MD_OK ? MD_OK : mdw_fail(st, st == MD_ERR_RANGE ? MDW_ARG_graph_pagerank_max_iterations : MDW_ARG_NONE, st == MD_ERR_RANGE ? ENDLESS : NULL);
}

static md_status run_lp(const md_graph *g, double min_size, double max_sweeps, uint32_t *community) {
    size_t n = md_graph_node_count(g);
    size_t *c = mdi_alloc_array(n, sizeof(size_t));
    if (!c) return MD_ERR_NOMEM;
    md_status st = md_graph_label_propagation(g, min_size, max_sweeps, c);
    if (st == MD_OK)
        for (size_t i = 0; i < n; i++) community[i] = c[i] == MD_GRAPH_NONE ? NONE32 : (uint32_t)c[i];
    free(c);
    return st;
}

/* community (node count): the community's smallest member, NONE32 undefined. */
MDW_EXPORT("mdw_graph_label_propagation")
int mdw_graph_label_propagation(const md_graph *g, double min_size, double max_sweeps, uint32_t *community) {
    md_status st = run_lp(g, min_size, max_sweeps, community);
    return st == MD_OK ? MD_OK : mdw_fail(st, st == MD_ERR_RANGE ? MDW_ARG_graph_label_propagation_max_sweeps : MDW_ARG_NONE, st == MD_ERR_RANGE ? ENDLESS : NULL);
}

static md_status run_bridges(const md_graph *g, const uint32_t *labels, uint32_t *counts) {
    size_t n = md_graph_node_count(g);
    size_t *c = mdi_alloc_array(n, sizeof(size_t));
    size_t *k = mdi_alloc_array(n, sizeof(size_t));
    md_status st = c && k ? MD_OK : MD_ERR_NOMEM;
    if (st == MD_OK) {
        for (size_t i = 0; i < n; i++) c[i] = labels[i] == NONE32 ? MD_GRAPH_NONE : labels[i];
        st = md_graph_bridge_counts(g, c, k);
    }
    if (st == MD_OK)
        for (size_t i = 0; i < n; i++) counts[i] = (uint32_t)k[i];
    free(c); free(k);
    return st;
}

/* labels (node count): label ids per node, NONE32 undefined. */
MDW_EXPORT("mdw_graph_bridge_counts")
int mdw_graph_bridge_counts(const md_graph *g, const uint32_t *labels, uint32_t *counts) {
    md_status st = run_bridges(g, labels, counts);
    return st == MD_OK ? MD_OK : mdw_fail(st, MDW_ARG_NONE, NULL);
}

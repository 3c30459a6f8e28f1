/* graph module: PageRank, label propagation and bridge counts over a graph
 * normalized once (../shared/FACTS.md section 7) into a reusable handle. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct md_graph {
    size_t n;            /* distinct nodes, in JavaScript string order */
    size_t n_input;      /* nodes as given (with duplicates) */
    char *bytes;         /* the keys' bytes, owned */
    md_str *keys;        /* keys[i]: sorted node i */
    uint32_t *first;     /* first[i]: the first input index naming node i */
    uint32_t *of_input;  /* of_input[j]: the node input j names */
    size_t m;            /* folded edges */
    /* Folded edges by (src, dst): the out-adjacency. */
    uint32_t *out_off;   /* n + 1 */
    uint32_t *out_dst;   /* m */
    double *out_w;       /* m */
    double *out_weight;  /* n: sum of out-strengths in dst order, from 0 */
    uint32_t *out_src;   /* m: each edge's source, when no source with edges has out-weight 0; else NULL */
    uint32_t *dangling;  /* nodes whose out-weight is exactly 0, ascending */
    size_t n_dangling;
    bool finite;         /* every folded strength and out-weight is finite */
};

void md_pagerank_options_default(md_pagerank_options *o) {
    if (!o) return;
    o->damping = MD_PAGERANK_DAMPING;
    o->max_iterations = MD_PAGERANK_MAX_ITERATIONS;
    o->tolerance = MD_PAGERANK_TOLERANCE;
    o->has_seeds = false;
    o->seed_nodes = NULL;
    o->seed_weights = NULL;
    o->n_seeds = 0;
}

void md_graph_free(md_graph *g) {
    if (!g) return;
    free(g->bytes); free(g->keys); free(g->first); free(g->of_input);
    free(g->out_off); free(g->out_dst); free(g->out_w);
    free(g->out_weight); free(g->out_src); free(g->dangling);
    free(g);
}

size_t md_graph_node_count(const md_graph *g) { return g ? g->n : 0; }
size_t md_graph_edge_count(const md_graph *g) { return g ? g->m : 0; }

md_str md_graph_node(const md_graph *g, size_t i) {
    md_str none = {NULL, 0};
    return g && i < g->n ? g->keys[i] : none;
}

size_t md_graph_node_input(const md_graph *g, size_t i) {
    return g && i < g->n ? g->first[i] : MD_GRAPH_NONE;
}

size_t md_graph_node_of_input(const md_graph *g, size_t j) {
    return g && j < g->n_input ? g->of_input[j] : MD_GRAPH_NONE;
}

bool md_graph_find(const md_graph *g, md_str key, size_t *index) {
    if (!g) return false;
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = md_key_compare(g->keys[mid], key);
        if (c == 0) { if (index) *index = mid; return true; }
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    return false;
}

/* ------------------------------------------------------------------ build */

/* Sort the nodes (JavaScript order, stable), drop repeats (adjacent once
 * sorted; the first input naming a node stays its `first`), and copy the
 * distinct keys' bytes into the handle. */
MDI_SMALL static md_status build_nodes(md_graph *g, const md_str *nodes, size_t n_in) {
    size_t total = 0;
    for (size_t j = 0; j < n_in; j++) {
        if (MDI_BAD_IN(nodes[j].ptr, nodes[j].len)) return MD_ERR_NULL;
        total += nodes[j].len;
    }
    size_t *order = mdi_alloc_array(n_in, sizeof(size_t));
    g->bytes = mdi_alloc_array(total, 1);
    g->keys = mdi_alloc_array(n_in, sizeof(md_str));
    g->first = mdi_alloc_array(n_in, sizeof(uint32_t));
    g->of_input = mdi_alloc_array(n_in, sizeof(uint32_t));
    md_status st = order && g->bytes && g->keys && g->first && g->of_input ? MD_OK : MD_ERR_NOMEM;
    if (st == MD_OK) st = mdi_sort_keys(nodes, n_in, order);
    if (st == MD_OK) {
        size_t n = 0, at = 0;
        for (size_t r = 0; r < n_in; r++) {
            md_str k = nodes[order[r]];
            if (n == 0 || !mdi_key_equal(g->keys[n - 1], k)) {
                if (k.len) memcpy(g->bytes + at, k.ptr, k.len);
                g->keys[n].ptr = g->bytes + at;
                g->keys[n].len = k.len;
                g->first[n] = (uint32_t)order[r];
                at += k.len;
                n++;
            }
            g->of_input[order[r]] = (uint32_t)(n - 1);
        }
        g->n = n;
        g->n_input = n_in;
    }
    free(order);
    return st;
}

/* An out-edge while building. */
typedef struct edge_rec {
    uint32_t dst;
    double w;
} edge_rec;

/* Stable sort of r[0..k) by dst: insertion for short runs, else a bottom-up
 * merge through tmp (room for k). */
static void sort_by_dst(edge_rec *r, size_t k, edge_rec *tmp) {
    if (k <= 24) {
        for (size_t i = 1; i < k; i++) {
            edge_rec x = r[i];
            size_t j = i;
            while (j > 0 && r[j - 1].dst > x.dst) { r[j] = r[j - 1]; j--; }
            r[j] = x;
        }
        return;
    }
    for (size_t i = 0; i < k; i += 16) sort_by_dst(r + i, k - i < 16 ? k - i : 16, tmp);
    edge_rec *from = r, *to = tmp;
    for (size_t width = 16; width < k; width *= 2) {
        for (size_t lo = 0; lo < k; lo += 2 * width) {
            size_t mid = lo + width < k ? lo + width : k, hi = lo + 2 * width < k ? lo + 2 * width : k;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) to[o++] = from[j].dst < from[i].dst ? from[j++] : from[i++];
            while (i < mid) to[o++] = from[i++];
            while (j < hi) to[o++] = from[j++];
        }
        edge_rec *t = from; from = to; to = t;
    }
    if (from != r) memcpy(r, from, k * sizeof(edge_rec));
}

/* Keep valid edges, fold parallel ones (the first of maximum strength, by the
 * (src, dst) pair itself), and lay them out by (src, dst): one counting pass
 * by source, then each source's short list sorted by destination. */
static md_status build_edges(md_graph *g, const uint32_t *src, const uint32_t *dst,
                             const double *strength, size_t m_in) {
    size_t n = g->n, n_in = g->n_input;
    md_status st = MD_OK;
    uint32_t *ends = mdi_alloc_array(m_in, 2 * sizeof(uint32_t)); /* valid edges' (src, dst), in order */
    uint32_t *keep = mdi_alloc_array(m_in, sizeof(uint32_t));     /* their input positions */
    uint32_t *pos = mdi_calloc_array(n + 1, sizeof(uint32_t));
    g->out_off = mdi_calloc_array(n + 1, sizeof(uint32_t));
    g->out_weight = mdi_alloc_array(n, sizeof(double));
    edge_rec *rec = NULL, *tmp = NULL;
    if (!ends || !keep || !pos || !g->out_off || !g->out_weight) st = MD_ERR_NOMEM;
    size_t k = 0;
    if (st == MD_OK) {
        for (size_t e = 0; e < m_in; e++) {
            /* Input indices may name duplicates: map them onto nodes. */
            if (src[e] >= n_in || dst[e] >= n_in) continue;
            uint32_t s = g->of_input[src[e]], d = g->of_input[dst[e]];
            if (s == d) continue;
            ends[2 * k] = s;
            ends[2 * k + 1] = d;
            keep[k++] = (uint32_t)e;
            pos[s + 1]++;
        }
        for (size_t v = 0; v < n; v++) pos[v + 1] += pos[v];
        size_t widest = 0;
        for (size_t v = 0; v < n; v++)
            if (pos[v + 1] - pos[v] > widest) widest = pos[v + 1] - pos[v];
        rec = mdi_alloc_array(k, sizeof(edge_rec));
        tmp = mdi_alloc_array(widest, sizeof(edge_rec));
        if (!rec || !tmp) st = MD_ERR_NOMEM;
    }
    if (st == MD_OK) {
        /* By source, each source's edges in input order. */
        uint32_t *at = g->out_off; /* borrowed as the fill cursor; rebuilt below */
        memcpy(at, pos, (n + 1) * sizeof(uint32_t));
        for (size_t i = 0; i < k; i++) {
            edge_rec *r = &rec[at[ends[2 * i]]++];
            r->dst = ends[2 * i + 1];
            r->w = strength[keep[i]];
        }
        /* Sort each source's list by destination (stable), fold runs of one
         * (src, dst), and pack the lists from the front. */
        size_t m = 0;
        g->out_off[0] = 0;
        for (size_t u = 0; u < n; u++) {
            edge_rec *r = rec + pos[u];
            size_t len = pos[u + 1] - pos[u], m0 = m;
            sort_by_dst(r, len, tmp);
            double w = 0;
            for (size_t i = 0; i < len; i++) {
                if (m > m0 && rec[m - 1].dst == r[i].dst) {
                    if (r[i].w > rec[m - 1].w) rec[m - 1].w = r[i].w;
                } else {
                    rec[m++] = r[i];
                }
            }
            for (size_t i = m0; i < m; i++) w += rec[i].w;
            g->out_weight[u] = w;
            g->out_off[u + 1] = (uint32_t)m;
        }
        g->m = m;
        g->out_dst = mdi_alloc_array(m, sizeof(uint32_t));
        g->out_w = mdi_alloc_array(m, sizeof(double));
        if (!g->out_dst || !g->out_w) st = MD_ERR_NOMEM;
        else {
            g->finite = true;
            for (size_t i = 0; i < m; i++) {
                g->out_dst[i] = rec[i].dst;
                g->out_w[i] = rec[i].w;
                if (!isfinite(rec[i].w)) g->finite = false;
            }
            for (size_t u = 0; u < n; u++)
                if (!isfinite(g->out_weight[u])) g->finite = false;
        }
    }
    if (st == MD_OK) {
        /* The edges' sources, for the dense step's single loop over the edges
         * (no branch per node). A source with edges and out-weight 0 skips
         * them in the step: then the nested loop runs instead. */
        bool flat = true;
        for (size_t u = 0; u < n; u++)
            if (g->out_weight[u] == 0 && g->out_off[u + 1] > g->out_off[u]) flat = false;
        g->out_src = flat ? mdi_alloc_array(g->m, sizeof(uint32_t)) : NULL;
        if (flat && g->m && !g->out_src) st = MD_ERR_NOMEM;
        for (size_t u = 0; g->out_src && u < n; u++)
            for (uint32_t e = g->out_off[u]; e < g->out_off[u + 1]; e++) g->out_src[e] = (uint32_t)u;
    }
    if (st == MD_OK) {
        size_t nd = 0;
        for (size_t u = 0; u < n; u++) nd += g->out_weight[u] == 0;
        g->dangling = mdi_alloc_array(nd, sizeof(uint32_t));
        if (!g->dangling) st = MD_ERR_NOMEM;
        else {
            nd = 0;
            for (size_t u = 0; u < n; u++)
                if (g->out_weight[u] == 0) g->dangling[nd++] = (uint32_t)u;
            g->n_dangling = nd;
        }
    }
    free(ends); free(keep); free(pos); free(rec); free(tmp);
    return st;
}

MDI_SMALL md_status md_graph_new_indexed(const md_str *nodes, size_t n_nodes, const uint32_t *src,
                               const uint32_t *dst, const double *strength, size_t n_edges,
                               md_graph **out) {
    if (!out) return MD_ERR_NULL;
    *out = NULL;
    if (MDI_BAD_IN(nodes, n_nodes) || MDI_BAD_IN(src, n_edges) || MDI_BAD_IN(dst, n_edges) ||
        MDI_BAD_IN(strength, n_edges))
        return MD_ERR_NULL;
    /* Indices and offsets are u32: refuse what they cannot address. */
    if (n_nodes >= UINT32_MAX || n_edges >= UINT32_MAX) return MD_ERR_RANGE;
    md_graph *g = calloc(1, sizeof(md_graph));
    if (!g) return MD_ERR_NOMEM;
    md_status st = build_nodes(g, nodes, n_nodes);
    if (st == MD_OK) st = build_edges(g, src, dst, strength, n_edges);
    if (st != MD_OK) { md_graph_free(g); return st; }
    *out = g;
    return MD_OK;
}

MDI_SMALL md_status md_graph_new(const md_str *nodes, size_t n_nodes, const md_graph_edge *edges,
                       size_t n_edges, md_graph **out) {
    if (!out) return MD_ERR_NULL;
    *out = NULL;
    if (MDI_BAD_IN(nodes, n_nodes) || MDI_BAD_IN(edges, n_edges)) return MD_ERR_NULL;
    if (n_nodes >= UINT32_MAX || n_edges >= UINT32_MAX) return MD_ERR_RANGE;
    mdi_keymap map;
    md_status st = mdi_keymap_init(&map, n_nodes);
    if (st != MD_OK) return st;
    uint32_t *s = mdi_alloc_array(n_edges, sizeof(uint32_t));
    uint32_t *d = mdi_alloc_array(n_edges, sizeof(uint32_t));
    double *w = mdi_alloc_array(n_edges, sizeof(double));
    if (!s || !d || !w) st = MD_ERR_NOMEM;
    for (size_t j = 0; j < n_nodes && st == MD_OK; j++) {
        if (MDI_BAD_IN(nodes[j].ptr, nodes[j].len)) { st = MD_ERR_NULL; break; }
        st = mdi_keymap_put(&map, nodes[j], j, NULL, NULL);
    }
    for (size_t e = 0; e < n_edges && st == MD_OK; e++) {
        if (MDI_BAD_IN(edges[e].src.ptr, edges[e].src.len) ||
            MDI_BAD_IN(edges[e].dst.ptr, edges[e].dst.len)) { st = MD_ERR_NULL; break; }
        size_t a, b;
        s[e] = mdi_keymap_get(&map, edges[e].src, &a) ? (uint32_t)a : UINT32_MAX;
        d[e] = mdi_keymap_get(&map, edges[e].dst, &b) ? (uint32_t)b : UINT32_MAX;
        w[e] = edges[e].strength;
    }
    mdi_keymap_free(&map);
    if (st == MD_OK) st = md_graph_new_indexed(nodes, n_nodes, s, d, w, n_edges, out);
    free(s); free(d); free(w);
    return st;
}

/* ------------------------------------------------------------- iteration */


/* Steps allowed before a run that has not settled gives up: every count up
 * to 2^16 runs in full; beyond that, about 2^34 units of work. */
static double step_budget(const md_graph *g) {
    double per = (double)g->n + (double)g->m + 1;
    double b = floor(17179869184.0 / per);
    return b > MD_GRAPH_MIN_BUDGET ? b : MD_GRAPH_MIN_BUDGET;
}

/* Brent's cycle detection over whole states (bitwise), so huge or infinite
 * counts answer as soon as the states repeat. */
typedef struct cycle_watch {
    void *snap;
    size_t bytes;
    double snap_at, power;
    bool found;
} cycle_watch;

/* After step `it` produced `state`: returns the cycle length once the state
 * repeats a snapshot, else 0. */
static double watch(cycle_watch *w, const void *state, double it) {
    if (w->found || !w->snap) return 0;
    if (it - w->snap_at <= w->power && memcmp(w->snap, state, w->bytes) == 0) {
        w->found = true;
        return it - w->snap_at;
    }
    if (it - w->snap_at >= w->power) {
        memcpy(w->snap, state, w->bytes);
        w->snap_at = it;
        w->power *= 2;
    }
    return 0;
}

/* One PageRank iteration from cur into nxt; returns delta. Mass is pushed
 * along out-edges in the design's order (sources ascending, each source's
 * edges by destination), so each next[v] sums its terms as the reference
 * does. */
static double pagerank_step(const md_graph *g, double d, double one_minus_d, const double *tele,
                            double t_uniform, const double *cur, double *nxt) {
    size_t n = g->n;
    double dangling = 0;
    for (size_t i = 0; i < g->n_dangling; i++) dangling += cur[g->dangling[i]];
    const uint32_t *off = g->out_off, *dst = g->out_dst;
    const double *w = g->out_w, *ow = g->out_weight;
    for (size_t v = 0; v < n; v++) nxt[v] = 0;
    if (g->out_src) { /* the same terms in the same order, one loop */
        const uint32_t *src = g->out_src;
        for (size_t e = 0, m = g->m; e < m; e++) nxt[dst[e]] += (cur[src[e]] * w[e]) / ow[src[e]];
    } else {
        for (size_t u = 0; u < n; u++) {
            double wu = ow[u], mass = cur[u];
            if (wu == 0) continue; /* dangling: its mass went to `dangling` */
            for (uint32_t e = off[u]; e < off[u + 1]; e++) nxt[dst[e]] += (mass * w[e]) / wu;
        }
    }
    double delta = 0;
    for (size_t v = 0; v < n; v++) {
        double t = tele ? tele[v] : t_uniform;
        double value = d * (nxt[v] + dangling * t) + one_minus_d * t;
        delta += fabs(value - cur[v]);
        nxt[v] = value;
    }
    return delta;
}

/* The active nodes of a personalized run: those holding mass, ascending. The
 * dense step computes every node, but a node with no mass, no teleport share
 * and no incoming push gets exactly 0 and adds exactly 0 to every sum, so a
 * step over the active nodes and those they push to, in ascending order,
 * gives the dense step's bits (sparse_step). A bitmap orders them: its words
 * between the lowest and the highest node written are scanned once a step. */
typedef struct sparse_run {
    uint32_t *active, *next;
    size_t n_active;
    uint64_t *bits;
    uint32_t *tele_nodes; /* the nodes with a teleport share: a step with dangling mass reaches them */
    size_t n_tele;
    bool want_active; /* on return, active lists every node with a score other than 0 */
} sparse_run;

/* The dangling mass of a sparse step, summed as the dense step sums it (the
 * dangling list is ascending, and its nodes without mass add exactly 0). */
static double sparse_dangling(const md_graph *g, const double *cur, const sparse_run *r) {
    double dangling = 0;
    MDI_AS_WRITTEN
    for (size_t i = 0; i < r->n_active; i++)
        if (g->out_weight[r->active[i]] == 0) dangling += cur[r->active[i]];
    return dangling;
}

/* One personalized step from cur into nxt over the active nodes (nxt is 0
 * everywhere on entry; cur is 0 off the active nodes, and is 0 everywhere
 * on return: the caller swaps the two). Returns delta, summed as the dense
 * step sums it. */
static double sparse_step(const md_graph *g, double d, double one_minus_d, const double *tele,
                          double dangling, double *cur, double *nxt, sparse_run *r) {
    const uint32_t *off = g->out_off, *dst = g->out_dst;
    const double *w = g->out_w, *ow = g->out_weight;
    size_t lo = SIZE_MAX, hi = 0;
    MDI_AS_WRITTEN
    for (size_t i = 0; i < r->n_active; i++) {
        uint32_t u = r->active[i];
        r->bits[u >> 6] |= (uint64_t)1 << (u & 63);
        if (u >> 6 < lo) lo = u >> 6;
        if (u >> 6 > hi) hi = u >> 6;
    }
    MDI_AS_WRITTEN
    for (size_t i = 0; i < r->n_active; i++) {
        uint32_t u = r->active[i];
        double wu = ow[u], mass = cur[u];
        if (wu == 0) continue;
        MDI_AS_WRITTEN
        for (uint32_t e = off[u]; e < off[u + 1]; e++) {
            uint32_t v = dst[e];
            r->bits[v >> 6] |= (uint64_t)1 << (v & 63);
            if (v >> 6 < lo) lo = v >> 6;
            if (v >> 6 > hi) hi = v >> 6;
            nxt[v] += (mass * w[e]) / wu;
        }
    }
    /* Dangling mass goes to every node with a teleport share, held mass or not
     * (at damping 1, or with a share that underflows, such a node can be out of
     * the active set while the dense step still gives it dangling * t). */
    if (dangling != 0) {
        MDI_AS_WRITTEN
        for (size_t i = 0; i < r->n_tele; i++) {
            uint32_t v = r->tele_nodes[i];
            r->bits[v >> 6] |= (uint64_t)1 << (v & 63);
            if (v >> 6 < lo) lo = v >> 6;
            if (v >> 6 > hi) hi = v >> 6;
        }
    }
    double delta = 0;
    size_t na = 0;
    MDI_AS_WRITTEN
    for (size_t word = lo; lo != SIZE_MAX && word <= hi; word++) {
        uint64_t b = r->bits[word];
        r->bits[word] = 0;
        MDI_AS_WRITTEN
        while (b) {
            size_t v = (word << 6) | (size_t)__builtin_ctzll(b);
            b &= b - 1;
            double t = tele[v];
            double value = d * (nxt[v] + dangling * t) + one_minus_d * t;
            delta += fabs(value - cur[v]);
            cur[v] = 0;
            nxt[v] = value;
            if (value != 0) r->next[na++] = (uint32_t)v;
        }
    }
    uint32_t *swap = r->active; r->active = r->next; r->next = swap;
    r->n_active = na;
    return delta;
}

/* PageRank into scores (node order). With `r`, a personalized run whose count
 * needs no cycle watch goes step by step over the active nodes only, and r
 * holds the nodes with a score other than 0 on return (ascending). */
static md_status pagerank_run(const md_graph *g, const md_pagerank_options *options, double *scores, sparse_run *r) {
    if (!g) return MD_ERR_NULL;
    size_t n = g->n;
    if (MDI_BAD_IN(scores, n)) return MD_ERR_NULL;
    md_pagerank_options o;
    if (options) o = *options; else md_pagerank_options_default(&o);
    if (o.has_seeds && (MDI_BAD_IN(o.seed_nodes, o.n_seeds) || MDI_BAD_IN(o.seed_weights, o.n_seeds)))
        return MD_ERR_NULL;
    if (r) r->n_active = 0;
    if (n == 0) return MD_OK;
    double nn = (double)n;
    double t_uniform = 1 / nn;
    double *tele = NULL, *other = mdi_alloc_array(n, sizeof(double));
    if (!other) return MD_ERR_NOMEM;
    md_status st = MD_OK;
    if (o.has_seeds && o.n_seeds) {
        /* A Map's semantics: each node once, at its first position, with its
         * last weight; absent nodes and weights that are not > 0 drop; the
         * rest are normalized by their sum in that order. */
        size_t *last = mdi_alloc_array(n, sizeof(size_t));
        if (!last) { free(other); return MD_ERR_NOMEM; }
        double total = 0;
        MDI_AS_WRITTEN
        for (int pass = 0; pass < 2; pass++) {
            MDI_AS_WRITTEN
            for (size_t i = 0; i < n; i++) last[i] = SIZE_MAX;
            MDI_AS_WRITTEN
            for (size_t i = 0; i < o.n_seeds; i++)
                if (o.seed_nodes[i] < n) last[o.seed_nodes[i]] = i;
            MDI_AS_WRITTEN
            for (size_t i = 0; i < o.n_seeds; i++) {
                size_t v = o.seed_nodes[i];
                if (v >= n || last[v] == SIZE_MAX) continue; /* absent, or seen */
                double w = o.seed_weights[last[v]];
                last[v] = SIZE_MAX;
                if (!(w > 0)) continue;
                if (pass == 0) total += w;
                else tele[v] = w / total;
            }
            if (pass == 0) {
                if (!(total > 0)) break; /* all absent: the uniform prior */
                tele = mdi_calloc_array(n, sizeof(double));
                if (!tele) { free(last); free(other); return MD_ERR_NOMEM; }
            }
        }
        free(last);
    }
    double *cur = scores, *nxt = other;
    MDI_AS_WRITTEN
    for (size_t v = 0; v < n; v++) cur[v] = tele ? tele[v] : t_uniform;
    double times = mdi_js_loop_count(o.max_iterations);
    double d = o.damping, one_minus_d = 1 - d;
    double threshold = o.tolerance * nn;
    double it = 0;
    /* Personalized, and a count that runs in full: step over the active nodes
     * until the walk holds mass on more than an eighth of the nodes, where
     * dense steps are cheaper. Both give the same bits. */
    bool sparse = r && tele && times <= MD_GRAPH_MIN_BUDGET && g->finite && isfinite(d) && isfinite(one_minus_d);
    if (sparse) {
        r->active = mdi_alloc_array(n, sizeof(uint32_t));
        r->next = mdi_alloc_array(n, sizeof(uint32_t));
        r->bits = mdi_calloc_array((n + 63) / 64, sizeof(uint64_t));
        r->tele_nodes = mdi_alloc_array(n, sizeof(uint32_t));
        if (!r->active || !r->next || !r->bits || !r->tele_nodes) st = MD_ERR_NOMEM;
        MDI_AS_WRITTEN
        for (size_t v = 0; st == MD_OK && v < n; v++) {
            nxt[v] = 0;
            if (cur[v] != 0) r->active[r->n_active++] = (uint32_t)v;
            if (tele[v] != 0) r->tele_nodes[r->n_tele++] = (uint32_t)v;
        }
    }
    double budget = step_budget(g);
    cycle_watch cw = {NULL, n * sizeof(double), 0, 1, false};
    if (times > MD_GRAPH_MIN_BUDGET) {
        cw.snap = mdi_alloc_array(n, sizeof(double));
        if (!cw.snap) st = MD_ERR_NOMEM;
        else memcpy(cw.snap, cur, n * sizeof(double));
    }
    while (st == MD_OK && it < times) {
        /* A node without mass adds exactly 0 only while every term is finite: a
         * non-finite dangling mass (or strength, or damping) reaches every node. */
        double dangling = sparse ? sparse_dangling(g, cur, r) : 0;
        if (sparse && !isfinite(dangling)) sparse = false;
        double delta = sparse ? sparse_step(g, d, one_minus_d, tele, dangling, cur, nxt, r)
                              : pagerank_step(g, d, one_minus_d, tele, t_uniform, cur, nxt);
        double *t = cur; cur = nxt; nxt = t;
        it += 1;
        if (delta < threshold) break;
        if (sparse && r->n_active > n / 8) sparse = false;
        double lam = watch(&cw, cur, it);
        if (lam == 1) break; /* a fixed point: every later step repeats it */
        if (lam > 0) {
            /* Periodic from here on, and no step of the cycle converged. */
            if (isinf(times)) { st = MD_ERR_RANGE; break; }
            it += floor((times - it) / lam) * lam;
        } else if (it >= budget && it < times && !cw.found) {
            st = MD_ERR_RANGE;
        }
    }
    free(cw.snap);
    if (r) {
        free(r->next); free(r->bits); free(r->tele_nodes);
        r->next = NULL;
        r->bits = NULL;
        r->tele_nodes = NULL;
        if (!sparse && r->want_active && st == MD_OK) { /* dense steps ran: the nodes with a score other than 0 */
            if (!r->active) r->active = mdi_alloc_array(n, sizeof(uint32_t));
            if (!r->active) st = MD_ERR_NOMEM;
            r->n_active = 0;
            MDI_AS_WRITTEN
            for (size_t v = 0; st == MD_OK && v < n; v++)
                if (cur[v] != 0) r->active[r->n_active++] = (uint32_t)v;
        }
    }
    if (st == MD_OK && cur != scores) memcpy(scores, cur, n * sizeof(double));
    free(tele);
    free(other);
    return st;
}

md_status md_graph_pagerank(const md_graph *g, const md_pagerank_options *options, double *scores) {
    sparse_run r = {0};
    md_status st = pagerank_run(g, options, scores, &r);
    free(r.active);
    return st;
}

md_status md_graph_pagerank_top(const md_graph *g, const md_pagerank_options *options, size_t k, bool skip_seeds,
                                size_t *nodes, double *scores, size_t *count, size_t *reached) {
    if (!g || !count || !reached) return MD_ERR_NULL;
    if (MDI_BAD_IN(nodes, k) || MDI_BAD_IN(scores, k)) return MD_ERR_NULL;
    *count = 0;
    *reached = 0;
    size_t n = g->n;
    if (n == 0) return MD_OK;
    double *all = mdi_alloc_array(n, sizeof(double));
    bool *seed = mdi_calloc_array(n, sizeof(bool));
    if (!all || !seed) { free(all); free(seed); return MD_ERR_NOMEM; }
    sparse_run r = {0};
    r.want_active = true;
    md_status st = pagerank_run(g, options, all, &r);
    if (st == MD_OK && options && options->has_seeds) /* a Map: a node's last weight decides */
        for (size_t i = 0; i < options->n_seeds; i++)
            if (options->seed_nodes[i] < n) seed[options->seed_nodes[i]] = options->seed_weights[i] > 0;
    if (st == MD_OK) {
        /* The top k by score desc, node asc (insertion into a sorted prefix). */
        size_t c = 0;
        for (size_t i = 0; i < r.n_active; i++) {
            size_t v = r.active[i];
            double x = all[v];
            if (!(x > 0)) continue;
            if (!seed[v]) (*reached)++;
            if ((skip_seeds && seed[v]) || k == 0 || (c == k && !(x > scores[k - 1]))) continue;
            size_t j = c == k ? k - 1 : c++;
            while (j > 0 && x > scores[j - 1]) {
                scores[j] = scores[j - 1];
                nodes[j] = nodes[j - 1];
                j--;
            }
            scores[j] = x;
            nodes[j] = v;
        }
        *count = c;
    }
    free(r.active);
    free(all);
    free(seed);
    return st;
}

/* ------------------------------------------------------- label propagation */

typedef struct lp_work {
    double *weight;   /* per label: the sum for the node being visited */
    uint8_t *seen;    /* per label: touched for the node being visited */
    uint32_t *touched;
} lp_work;

static inline void lp_add(lp_work *w, size_t *nt, uint32_t label, double s) {
    if (!w->seen[label]) {
        w->seen[label] = 1;
        w->weight[label] = 0 + s;
        w->touched[(*nt)++] = label;
    } else {
        w->weight[label] += s;
    }
}

/* The in-adjacency (the folded edges by (dst, src)), which only label
 * propagation reads: built per call from the out-lists. */
typedef struct in_adj {
    uint32_t *off; /* n + 1 */
    uint32_t *src; /* m */
    double *w;     /* m */
} in_adj;

static void in_adj_free(in_adj *a) {
    free(a->off); free(a->src); free(a->w);
}

MDI_SMALL static md_status in_adj_build(const md_graph *g, in_adj *a) {
    size_t n = g->n, m = g->m;
    a->off = mdi_calloc_array(n + 1, sizeof(uint32_t));
    a->src = mdi_alloc_array(m, sizeof(uint32_t));
    a->w = mdi_alloc_array(m, sizeof(double));
    uint32_t *at = mdi_alloc_array(n + 1, sizeof(uint32_t));
    if (!a->off || !a->src || !a->w || !at) { free(at); return MD_ERR_NOMEM; } /* the caller frees *a */
    for (size_t i = 0; i < m; i++) a->off[g->out_dst[i] + 1]++;
    for (size_t v = 0; v < n; v++) a->off[v + 1] += a->off[v];
    memcpy(at, a->off, (n + 1) * sizeof(uint32_t));
    /* Sources ascending, so each in-list fills in source order. */
    for (size_t u = 0; u < n; u++) {
        for (uint32_t e = g->out_off[u]; e < g->out_off[u + 1]; e++) {
            uint32_t k = at[g->out_dst[e]]++;
            a->src[k] = (uint32_t)u;
            a->w[k] = g->out_w[e];
        }
    }
    free(at);
    return MD_OK;
}

/* One in-place sweep in sorted order; returns whether a label changed. */
static bool lp_sweep(const md_graph *g, const in_adj *in, uint32_t *label, lp_work *w) {
    bool changed = false;
    for (size_t k = 0; k < g->n; k++) {
        uint32_t i0 = in->off[k], i1 = in->off[k + 1];
        uint32_t o0 = g->out_off[k], o1 = g->out_off[k + 1];
        if (i0 == i1 && o0 == o1) continue;
        size_t nt = 0;
        /* Neighbours in folded-edge order: in-edges from smaller sources,
         * then out-edges, then in-edges from larger sources. */
        uint32_t i = i0;
        for (; i < i1 && in->src[i] < k; i++) lp_add(w, &nt, label[in->src[i]], in->w[i]);
        for (uint32_t e = o0; e < o1; e++) lp_add(w, &nt, label[g->out_dst[e]], g->out_w[e]);
        for (; i < i1; i++) lp_add(w, &nt, label[in->src[i]], in->w[i]);
        /* The first label in sorted order with strictly greatest weight
         * (labels are node indices, so sorted order is numeric order). */
        uint32_t best = UINT32_MAX;
        double best_w = -INFINITY;
        for (size_t t = 0; t < nt; t++) {
            uint32_t l = w->touched[t];
            double x = w->weight[l];
            if (x > best_w || (x == best_w && best != UINT32_MAX && l < best)) { best = l; best_w = x; }
            w->seen[l] = 0;
        }
        if (best != UINT32_MAX && best != label[k]) { label[k] = best; changed = true; }
    }
    return changed;
}

MDI_SMALL md_status md_graph_label_propagation(const md_graph *g, double min_community_size, double max_sweeps,
                                     size_t *community) {
    if (!g) return MD_ERR_NULL;
    size_t n = g->n;
    if (MDI_BAD_IN(community, n)) return MD_ERR_NULL;
    if (n == 0) return MD_OK;
    md_status st = MD_OK;
    uint32_t *label = mdi_alloc_array(n, sizeof(uint32_t));
    lp_work w = {mdi_alloc_array(n, sizeof(double)), mdi_calloc_array(n, 1), mdi_alloc_array(n, sizeof(uint32_t))};
    in_adj in = {NULL, NULL, NULL};
    if (!label || !w.weight || !w.seen || !w.touched) st = MD_ERR_NOMEM;
    if (st == MD_OK) st = in_adj_build(g, &in);
    double times = mdi_js_loop_count(max_sweeps);
    cycle_watch cw = {NULL, n * sizeof(uint32_t), 0, 1, false};
    if (st == MD_OK) {
        for (size_t i = 0; i < n; i++) label[i] = (uint32_t)i;
        if (times > MD_GRAPH_MIN_BUDGET) {
            cw.snap = mdi_alloc_array(n, sizeof(uint32_t));
            if (!cw.snap) st = MD_ERR_NOMEM;
            else memcpy(cw.snap, label, n * sizeof(uint32_t));
        }
    }
    double budget = step_budget(g), it = 0;
    while (st == MD_OK && it < times) {
        bool changed = lp_sweep(g, &in, label, &w);
        it += 1;
        if (!changed) break;
        double lam = watch(&cw, label, it);
        if (lam > 0) { /* lam >= 2: a fixed point stopped the loop already */
            if (isinf(times)) { st = MD_ERR_RANGE; break; }
            it += floor((times - it) / lam) * lam;
        } else if (it >= budget && it < times && !cw.found) {
            st = MD_ERR_RANGE;
        }
    }
    if (st == MD_OK) {
        /* Canonical label: the community's smallest member (the first in
         * sorted order); undefined below the size floor. */
        uint32_t *first = mdi_alloc_array(n, sizeof(uint32_t));
        uint32_t *size = mdi_calloc_array(n, sizeof(uint32_t));
        if (!first || !size) st = MD_ERR_NOMEM;
        else {
            for (size_t k = 0; k < n; k++) {
                uint32_t l = label[k];
                if (size[l]++ == 0) first[l] = (uint32_t)k;
            }
            for (size_t k = 0; k < n; k++) {
                uint32_t l = label[k];
                community[k] = (double)size[l] >= min_community_size ? first[l] : MD_GRAPH_NONE;
            }
        }
        free(first); free(size);
    }
    free(cw.snap);
    in_adj_free(&in);
    free(label); free(w.weight); free(w.seen); free(w.touched);
    return st;
}

MDI_SMALL md_status md_graph_bridge_counts(const md_graph *g, const size_t *community, size_t *counts) {
    if (!g) return MD_ERR_NULL;
    size_t n = g->n;
    if (MDI_BAD_IN(community, n) || MDI_BAD_IN(counts, n)) return MD_ERR_NULL;
    for (size_t v = 0; v < n; v++) counts[v] = 0;
    for (size_t u = 0; u < n; u++) {
        size_t a = community[u];
        if (a == MD_GRAPH_NONE) continue;
        for (uint32_t e = g->out_off[u]; e < g->out_off[u + 1]; e++) {
            uint32_t v = g->out_dst[e];
            size_t b = community[v];
            if (b != MD_GRAPH_NONE && a != b) { counts[u]++; counts[v]++; }
        }
    }
    return MD_OK;
}

/* neighbors module, candidate ranking: rankCandidatePairs (keyed, flat and
 * over resident rows) offers only the given pairs to the neighbour lists
 * (neighbors_lists.c); the 1 x n arm (cosineRows, topCosineRows) ranks
 * every row against one query. */
#include "internal.h"
#include "kernels.h"
#include "neighbors.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* rankCandidatePairs' loop: norms from ss (resident sums of squares) when
 * given, else computed once. */
MDI_SMALL static md_status rank_pairs(const vset *v, const double *ss, const uint32_t *src, const uint32_t *dst,
                            size_t n_pairs, selector *s) {
    double *norm = NULL;
    md_status st = ss ? MD_OK : mdi_vnorms(v, &norm);
    for (size_t p = 0; p < n_pairs && st == MD_OK; p++) {
        size_t a = src[p], b = dst[p];
        if (a >= v->n || b >= v->n) continue; /* a key without a vector */
        double sim = ss ? mdi_pair_sim(v, a, b, sqrt(ss[a]), sqrt(ss[b])) : mdi_pair_sim(v, a, b, norm[a], norm[b]);
        if (!(sim >= s->floor)) continue;
        s->src[s->rank[a]] = a;
        st = mdi_offer(s, s->rank[a], b, sim);
    }
    free(norm);
    return st;
}

MDI_SMALL md_status md_rank_candidate_pairs(const md_candidate_pair *pairs, size_t n_pairs,
                                  const md_keyed_vector *vectors, size_t n,
                                  md_neighbor_options options, md_neighbor_pairs *out) {
    if (!out) return MD_ERR_NULL;
    clear_out(out);
    if (MDI_BAD_IN(pairs, n_pairs)) return MD_ERR_NULL;
    vset v;
    md_str *keys;
    size_t *rank = NULL;
    uint32_t *a = NULL, *b = NULL;
    selector s;
    memset(&s, 0, sizeof s);
    mdi_keymap map = {0, 0, NULL, NULL};
    md_status st = mdi_keyed_vset(vectors, n, &v, &keys);
    if (st == MD_OK && n >= UINT32_MAX) st = MD_ERR_RANGE;
    if (st == MD_OK) st = mdi_keymap_init(&map, n);
    /* new Map(entries): the last vector under a key wins */
    for (size_t i = n; st == MD_OK && i-- > 0;) st = mdi_keymap_put(&map, keys[i], i, NULL, NULL);
    if (st == MD_OK) {
        a = mdi_alloc_array(n_pairs, sizeof(uint32_t));
        b = mdi_alloc_array(n_pairs, sizeof(uint32_t));
        if (!a || !b) st = MD_ERR_NOMEM;
    }
    for (size_t p = 0; p < n_pairs && st == MD_OK; p++) {
        size_t x = SIZE_MAX, y = SIZE_MAX;
        mdi_keymap_get(&map, pairs[p].src, &x);
        mdi_keymap_get(&map, pairs[p].dst, &y);
        a[p] = x == SIZE_MAX ? UINT32_MAX : (uint32_t)x;
        b[p] = y == SIZE_MAX ? UINT32_MAX : (uint32_t)y;
    }
    if (st == MD_OK) st = mdi_prepare_keys(keys, n, options, &rank, &s, NULL, false);
    if (st == MD_OK) st = rank_pairs(&v, NULL, a, b, n_pairs, &s);
    if (st == MD_OK) st = mdi_sel_finish(&s, true, options.limit, out);
    mdi_sel_free(&s);
    mdi_keymap_free(&map);
    free(a);
    free(b);
    free(rank);
    free(keys);
    mdi_vset_free(&v);
    return st;
}

MDI_SMALL md_status mdi_rank_pairs_ranked(const vset *v, const double *ss, const uint32_t *rank,
                                const uint32_t *src, const uint32_t *dst, size_t n_pairs, double floor,
                                double k, double limit, md_neighbor_pairs *out) {
    size_t *r = NULL;
    selector s;
    memset(&s, 0, sizeof s);
    md_status st = mdi_widen_ranks(rank, v->n, &r);
    if (st == MD_OK) st = mdi_prepare_ranks(r, v->n, opts3(floor, k, limit), &s, NULL, false);
    if (st == MD_OK) st = rank_pairs(v, ss, src, dst, n_pairs, &s);
    if (st == MD_OK) st = mdi_sel_finish(&s, true, limit, out);
    mdi_sel_free(&s);
    free(r);
    return st;
}

MDI_SMALL static md_status flat_rank(const void *data, bool f32, const uint32_t *offsets, size_t n,
                           const uint32_t *rank, const uint32_t *src, const uint32_t *dst,
                           size_t n_pairs, double floor, double k, double limit, md_neighbor_pairs *out) {
    if (!out) return MD_ERR_NULL;
    clear_out(out);
    if (MDI_BAD_IN(src, n_pairs) || MDI_BAD_IN(dst, n_pairs)) return MD_ERR_NULL;
    vset v;
    md_status st = mdi_flat_vset(data, f32, offsets, n, &v);
    if (st == MD_OK) st = mdi_rank_pairs_ranked(&v, NULL, rank, src, dst, n_pairs, floor, k, limit, out);
    mdi_vset_free(&v);
    return st;
}

MDI_SMALL md_status md_rank_candidate_pairs_f32(const float *data, const uint32_t *offsets, size_t n,
                                      const uint32_t *rank, const uint32_t *src, const uint32_t *dst,
                                      size_t n_pairs, double floor, double per_source_k, double limit,
                                      md_neighbor_pairs *out) {
    return flat_rank(data, true, offsets, n, rank, src, dst, n_pairs, floor, per_source_k, limit, out);
}

MDI_SMALL md_status md_rank_candidate_pairs_f64(const double *data, const uint32_t *offsets, size_t n,
                                      const uint32_t *rank, const uint32_t *src, const uint32_t *dst,
                                      size_t n_pairs, double floor, double per_source_k, double limit,
                                      md_neighbor_pairs *out) {
    return flat_rank(data, false, offsets, n, rank, src, dst, n_pairs, floor, per_source_k, limit, out);
}

/* ---------------------------------------------------------------- 1 x n */

MDI_SMALL md_status md_cosine_rows_f32(const float *query, const float *matrix, size_t n, size_t d,
                             double *out) {
    if (d != 0 && n > SIZE_MAX / d) return MD_ERR_RANGE;
    if (MDI_BAD_IN(query, d) || MDI_BAD_IN(matrix, n * d) || MDI_BAD_IN(out, n)) return MD_ERR_NULL;
    enum { CHUNK = 1024 };
    const mdi_kernels *K = mdi_kern();
    double *q = mdi_alloc_array(d, sizeof(double));
    double *ss = mdi_alloc_array(CHUNK, sizeof(double));
    if (!q || !ss) {
        free(q);
        free(ss);
        return MD_ERR_NOMEM;
    }
    double qs = 0;
    for (size_t k = 0; k < d; k++) {
        q[k] = (double)query[k];
        qs += q[k] * q[k];
    }
    for (size_t j0 = 0; j0 < n; j0 += CHUNK) {
        size_t cnt = n - j0 < CHUNK ? n - j0 : CHUNK;
        /* dots land in out, then become cosines in place */
        K->rows_f32(q, matrix + j0 * d, cnt, d, out + j0, ss);
        for (size_t j = 0; j < cnt; j++) out[j0 + j] = mdi_cosine_finish(out[j0 + j], qs, ss[j]);
    }
    free(ss);
    free(q);
    return MD_OK;
}

typedef struct top_ctx {
    const double *sims;
} top_ctx;

static int top_cmp(const void *vctx, size_t a, size_t b) {
    const top_ctx *c = vctx;
    if (c->sims[a] != c->sims[b]) return c->sims[a] > c->sims[b] ? -1 : 1;
    return a < b ? -1 : (a > b ? 1 : 0);
}

MDI_SMALL md_status mdi_sort_top(size_t *order, size_t m, const double *sims) {
    top_ctx c = {sims};
    return mdi_sort_indices(order, m, top_cmp, &c);
}

/* The k best of sims[0..m) by value desc, position asc, as positions in
 * pos[0..k) (k <= m): bounded insertion for a small k, else a stable sort.
 * The values are never NaN (cosine's), so the order is total. */
MDI_SMALL md_status mdi_select_top(const double *sims, size_t m, size_t k, size_t *pos, double *top) {
    if (k <= 64) {
        size_t held = 0;
        for (size_t t = 0; t < m; t++) {
            double v = sims[t];
            if (held == k && !(v > top[held - 1])) continue; /* a tie loses: its position is later */
            size_t at = held < k ? held++ : k - 1;
            while (at > 0 && v > top[at - 1]) {
                top[at] = top[at - 1];
                pos[at] = pos[at - 1];
                at--;
            }
            top[at] = v;
            pos[at] = t;
        }
        return MD_OK;
    }
    size_t *order = mdi_alloc_array(m, sizeof(size_t));
    if (!order) return MD_ERR_NOMEM;
    for (size_t t = 0; t < m; t++) order[t] = t;
    md_status st = mdi_sort_top(order, m, sims);
    if (st == MD_OK)
        for (size_t t = 0; t < k; t++) {
            pos[t] = order[t];
            top[t] = sims[order[t]];
        }
    free(order);
    return st;
}

md_status md_top_cosine_rows_f32(const float *query, const float *matrix, size_t n, size_t d,
                                 size_t k, size_t *idx, double *sims, size_t *len) {
    if (!len) return MD_ERR_NULL;
    *len = 0;
    size_t keep = k < n ? k : n;
    if (MDI_BAD_IN(idx, keep) || MDI_BAD_IN(sims, keep)) return MD_ERR_NULL;
    double *all = mdi_alloc_array(n, sizeof(double));
    if (!all) return MD_ERR_NOMEM;
    md_status st = md_cosine_rows_f32(query, matrix, n, d, all);
    if (st == MD_OK && keep > 0) st = mdi_select_top(all, n, keep, idx, sims);
    if (st == MD_OK) *len = keep;
    free(all);
    return st;
}

/* Boundary for the neighbors module. Pair results are packed into one block
 * [f64 sim[len]][u32 src[len]][u32 dst[len]] (src/dst index the input
 * vectors); out[0] = block, out[1] = len, out[2] = a duplicate key's index. */
#include "boundary.h"

#include <stdlib.h>

static md_status pack_pairs(const md_neighbor_pairs *p, size_t *out) {
    size_t len = p->len;
    uint8_t *block = malloc(len * (sizeof(double) + 2 * sizeof(uint32_t)) + 8);
    if (!block) return MD_ERR_NOMEM;
    double *sim = (double *)block;
    uint32_t *src = (uint32_t *)(block + len * sizeof(double));
    uint32_t *dst = src + len;
    for (size_t i = 0; i < len; i++) {
        sim[i] = p->pairs[i].sim;
        src[i] = (uint32_t)p->pairs[i].src;
        dst[i] = (uint32_t)p->pairs[i].dst;
    }
    out[0] = (size_t)block;
    out[1] = len;
    return MD_OK;
}

/* Vectors laid out back to back in `data`; lens[i] floats each. */
static md_status keyed(const md_str *keys, size_t n, const float *data, const uint32_t *lens,
                       md_keyed_vector **out) {
    md_keyed_vector *v = mdi_alloc_array(n, sizeof(md_keyed_vector));
    if (!v) return MD_ERR_NOMEM;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        v[i].key = keys[i];
        v[i].vec = data ? data + at : NULL;
        v[i].len = lens[i];
        at += lens[i];
    }
    *out = v;
    return MD_OK;
}

static md_neighbor_options opts(double floor, double k, double limit) {
    md_neighbor_options o = {floor, k, limit};
    return o;
}

MDW_EXPORT("mdw_top_neighbor_pairs")
int mdw_top_neighbor_pairs(const uint8_t *bytes, const uint32_t *offsets, size_t n, const float *data,
                           const uint32_t *lens, double floor, double k, double limit, size_t *out) {
    md_str *keys = NULL;
    md_keyed_vector *v = NULL;
    md_neighbor_pairs res = {0, NULL};
    md_status st = mdw_keys(bytes, offsets, n, &keys);
    if (st == MD_OK) st = keyed(keys, n, data, lens, &v);
    if (st == MD_OK) st = md_top_neighbor_pairs(v, n, opts(floor, k, limit), &res);
    if (st == MD_OK) st = pack_pairs(&res, out);
    md_neighbor_pairs_free(&res);
    free(v);
    free(keys);
    return st;
}

/* keys: the n vector keys, then each pair's src and dst (2 * n_pairs). */
MDW_EXPORT("mdw_rank_candidate_pairs")
int mdw_rank_candidate_pairs(const uint8_t *bytes, const uint32_t *offsets, size_t n, const float *data,
                             const uint32_t *lens, size_t n_pairs, double floor, double k, double limit,
                             size_t *out) {
    md_str *keys = NULL;
    md_keyed_vector *v = NULL;
    md_candidate_pair *pairs = NULL;
    md_neighbor_pairs res = {0, NULL};
    if (n_pairs > (SIZE_MAX - n) / 2) return MD_ERR_RANGE;
    md_status st = mdw_keys(bytes, offsets, n + 2 * n_pairs, &keys);
    if (st == MD_OK) st = keyed(keys, n, data, lens, &v);
    if (st == MD_OK) {
        pairs = mdi_alloc_array(n_pairs, sizeof(md_candidate_pair));
        if (!pairs) st = MD_ERR_NOMEM;
    }
    if (st == MD_OK) {
        for (size_t i = 0; i < n_pairs; i++) {
            pairs[i].src = keys[n + 2 * i];
            pairs[i].dst = keys[n + 2 * i + 1];
        }
        st = md_rank_candidate_pairs(pairs, n_pairs, v, n, opts(floor, k, limit), &res);
    }
    if (st == MD_OK) st = pack_pairs(&res, out);
    md_neighbor_pairs_free(&res);
    free(pairs);
    free(v);
    free(keys);
    return st;
}

/* row_end == SIZE_MAX: the whole pass, final order and limit; otherwise one
 * tile [row_begin, row_end), grouped by source, no limit. */
MDW_EXPORT("mdw_neighbors_packed")
int mdw_neighbors_packed(const uint8_t *bytes, const uint32_t *offsets, size_t n, const float *matrix,
                         size_t d, size_t row_begin, size_t row_end, double floor, double k,
                         double limit, size_t *out) {
    md_str *keys = NULL;
    md_neighbor_pairs res = {0, NULL};
    size_t dup = SIZE_MAX;
    md_status st = mdw_keys(bytes, offsets, n, &keys);
    if (st == MD_OK) {
        if (row_end == SIZE_MAX)
            st = md_top_neighbor_pairs_packed(matrix, n, d, keys, opts(floor, k, limit), &res, &dup);
        else
            st = md_neighbor_tile_packed(matrix, n, d, keys, row_begin, row_end, opts(floor, k, limit),
                                         &res, &dup);
    }
    out[2] = dup;
    if (st == MD_OK) st = pack_pairs(&res, out);
    md_neighbor_pairs_free(&res);
    free(keys);
    return st;
}

/* Candidate pairs as three arrays (sim, src, dst). */
MDW_EXPORT("mdw_merge_neighbor_pairs")
int mdw_merge_neighbor_pairs(const uint8_t *bytes, const uint32_t *offsets, size_t n, const double *sim,
                             const uint32_t *src, const uint32_t *dst, size_t m, double floor, double k,
                             double limit, size_t *out) {
    md_str *keys = NULL;
    md_neighbor_pair *pairs = NULL;
    md_neighbor_pairs res = {0, NULL};
    size_t dup = SIZE_MAX;
    md_status st = mdw_keys(bytes, offsets, n, &keys);
    if (st == MD_OK) {
        pairs = mdi_alloc_array(m, sizeof(md_neighbor_pair));
        if (!pairs) st = MD_ERR_NOMEM;
    }
    if (st == MD_OK) {
        for (size_t i = 0; i < m; i++) {
            pairs[i].sim = sim[i];
            pairs[i].src = src[i];
            pairs[i].dst = dst[i];
        }
        st = md_merge_neighbor_pairs(pairs, m, keys, n, opts(floor, k, limit), &res, &dup);
    }
    out[2] = dup;
    if (st == MD_OK) st = pack_pairs(&res, out);
    md_neighbor_pairs_free(&res);
    free(pairs);
    free(keys);
    return st;
}

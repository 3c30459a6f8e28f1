/* Boundary for the neighbors module. Pair results are packed into one block
 * laid out as wasm/boundary.def's `layout pairs` ([f64 sim[len]][u32 src[len]]
 * [u32 dst[len]]; src/dst index the input vectors), in the out slots
 * [block:pairs len]. */
#include "boundary.h"

#include <stdlib.h>

static md_status pack_pairs(const md_neighbor_pairs *p, size_t *out) {
    size_t len = p->len;
    uint8_t *block = malloc(len * MDW_SIZE_pairs + 8);
    if (!block) return MD_ERR_NOMEM;
    double *sim = (double *)block;
    uint32_t *src = (uint32_t *)(block + len * MDW_AT_pairs_src);
    uint32_t *dst = src + len; /* MDW_AT_pairs_dst */
    _Static_assert(MDW_AT_pairs_sim == 0 && MDW_AT_pairs_dst == MDW_AT_pairs_src + sizeof(uint32_t), "layout pairs");
    for (size_t i = 0; i < len; i++) {
        sim[i] = p->pairs[i].sim;
        src[i] = (uint32_t)p->pairs[i].src;
        dst[i] = (uint32_t)p->pairs[i].dst;
    }
    out[MDW_OUT_pairs_block] = (size_t)block;
    out[MDW_OUT_pairs_len] = len;
    return MD_OK;
}

#if SIZE_MAX == UINT32_MAX /* wasm32: md_neighbor_pair as the region neighbor_pair the tile worker reads */
_Static_assert(offsetof(md_neighbor_pair, src) == MDW_AT_neighbor_pair_src && offsetof(md_neighbor_pair, dst) ==
                   MDW_AT_neighbor_pair_dst && offsetof(md_neighbor_pair, sim) == MDW_AT_neighbor_pair_sim &&
                   sizeof(md_neighbor_pair) == MDW_SIZE_neighbor_pair, "region neighbor_pair");
#endif

static md_neighbor_options opts(double floor, double k, double limit) {
    md_neighbor_options o = {floor, k, limit};
    return o;
}

/* topNeighborPairs (mode bit 1 clear) and rankCandidatePairs (set: pair p
 * is vectors src[p], dst[p]; an index >= n is a key without a vector) over
 * the flat forms: vector i is elements [voff[i], voff[i + 1]) of data,
 * floats or, when mode bit 0 is set, doubles (plain number arrays); with
 * mode bit 2, rankCandidatePairs over the md_rows handle `data` (n rows).
 * The keys table gives the ranks. */
MDW_EXPORT("mdw_neighbor_pairs")
int mdw_neighbor_pairs(const uint8_t *bytes, const uint32_t *offsets, size_t n, const void *data,
                       uint32_t mode, const uint32_t *voff, const uint32_t *src, const uint32_t *dst,
                       size_t n_pairs, double floor, double k, double limit, size_t *out) {
    md_neighbor_pairs res = {0, NULL};
    uint32_t *rank = mdi_alloc_array(n, sizeof(uint32_t));
    md_status st = rank ? md_key_ranks(bytes, offsets, n, rank, NULL) : MD_ERR_NOMEM;
    if (st == MD_OK) {
        if (mode & 4)
            st = md_rows_rank_candidate_pairs(data, rank, src, dst, n_pairs, floor, k, limit, &res);
        else if (mode & 2)
            st = mode & 1 ? md_rank_candidate_pairs_f64(data, voff, n, rank, src, dst, n_pairs, floor, k, limit, &res)
                          : md_rank_candidate_pairs_f32(data, voff, n, rank, src, dst, n_pairs, floor, k, limit, &res);
        else
            st = mode & 1 ? md_top_neighbor_pairs_f64(data, voff, n, rank, floor, k, limit, &res)
                          : md_top_neighbor_pairs_f32(data, voff, n, rank, floor, k, limit, &res);
    }
    if (st == MD_OK) st = pack_pairs(&res, out);
    md_neighbor_pairs_free(&res);
    free(rank);
    return st;
}

/* The packed forms take unique keys (C finds a repeat; the glue only checks types). */
static const char DUP[] = "must be unique: a key appears more than once";

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
    if (st == MD_OK) st = pack_pairs(&res, out);
    md_neighbor_pairs_free(&res);
    free(keys);
    return st != MD_OK && dup != SIZE_MAX ? mdw_fail(MD_ERR_RANGE, MDW_ARG_neighbors_packed_bytes, DUP) : st;
}

/* Candidate pairs as three arrays (sim, src, dst); an index >= n is named as tiles'. */
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
    if (st == MD_OK) st = pack_pairs(&res, out);
    md_neighbor_pairs_free(&res);
    free(pairs);
    free(keys);
    if (st != MD_OK && dup != SIZE_MAX) return mdw_fail(MD_ERR_RANGE, MDW_ARG_merge_neighbor_pairs_bytes, DUP);
    return st == MD_ERR_RANGE ? mdw_fail(st, MDW_ARG_merge_neighbor_pairs_sim, "name a key index >= keys.length") : st;
}

/* applyMmr over a resident md_rows handle (md_rows_apply_mmr), naming `rows`
 * when one of them is not a row of the handle. */
MDW_EXPORT("mdw_rows_apply_mmr")
int mdw_rows_apply_mmr(const md_rows *r, const uint32_t *rows, const double *scores, size_t n, double limit,
                       double lambda, uint32_t *out, size_t *len) {
    md_status st = md_rows_apply_mmr(r, rows, scores, n, limit, lambda, out, len);
    return st == MD_ERR_RANGE ? mdw_fail(st, MDW_ARG_rows_apply_mmr_rows, "names a row >= n") : st;
}

/* Boundary for the rrf module. fuseArms crosses as interned ids (the glue's
 * intern table: one Map lookup per hit, no string bytes), rankFused as
 * scores only (C orders by score; the glue breaks ties inside equal-score
 * runs with JavaScript's own string order). The string-keyed forms are
 * test exports the fuzz target holds against the C API. */
#include "boundary.h"

#include <stdlib.h>
#include <string.h>

/* Pack a md_fused as wasm/boundary.def's `layout fused` ([f64 scores[len]]
 * [u32 key index[len]]) into one block, in the out slots [block:fused len]. */
static md_status pack_fused(const md_fused *f, const md_str *keys, size_t n_keys, size_t *out) {
    size_t len = f->len;
    uint8_t *block = malloc(len * MDW_SIZE_fused + 8);
    if (!block) return MD_ERR_NOMEM;
    double *scores = (double *)block;
    uint32_t *index = (uint32_t *)(block + len * MDW_AT_fused_key);
    _Static_assert(MDW_AT_fused_score == 0, "layout fused");
    for (size_t i = 0; i < len; i++) {
        scores[i] = f->scores[i];
        index[i] = (uint32_t)mdw_key_index(keys, n_keys, f->paths[i]);
    }
    out[MDW_OUT_fused_block] = (size_t)block;
    out[MDW_OUT_fused_len] = len;
    return MD_OK;
}

/* keys: every hit's path, arm-major; ranks: every hit's rank; arm_lens[i]
 * hits belong to arm i. out: [block, len]. */
MDW_TEST_EXPORT("mdw_fuse_arms")
int mdw_fuse_arms(const uint8_t *bytes, const uint32_t *offsets, size_t n_keys, const double *ranks,
                  const uint32_t *arm_lens, size_t n_arms, const double *weights, size_t n_weights,
                  double k, size_t *out) {
    md_str *keys = NULL;
    md_arm *arms = NULL;
    md_arm_hit *hits = NULL;
    md_fused fused = {0, NULL, NULL};
    md_status st = mdw_keys(bytes, offsets, n_keys, &keys);
    if (st == MD_OK) {
        arms = mdi_alloc_array(n_arms, sizeof(md_arm));
        hits = mdi_alloc_array(n_keys, sizeof(md_arm_hit));
        if (!arms || !hits) st = MD_ERR_NOMEM;
    }
    if (st == MD_OK) {
        size_t at = 0;
        for (size_t i = 0; i < n_arms && st == MD_OK; i++) {
            if (arm_lens[i] > n_keys - at) { st = MD_ERR_INVALID; break; }
            arms[i].hits = hits + at;
            arms[i].n_hits = arm_lens[i];
            for (size_t j = 0; j < arm_lens[i]; j++, at++) {
                hits[at].path = keys[at];
                hits[at].rank = ranks[at];
            }
        }
        if (st == MD_OK && at != n_keys) st = MD_ERR_INVALID;
    }
    if (st == MD_OK) st = md_fuse_arms(arms, n_arms, weights, n_weights, k, &fused);
    if (st == MD_OK) st = pack_fused(&fused, keys, n_keys, out);
    md_fused_free(&fused);
    free(hits);
    free(arms);
    free(keys);
    return st;
}

/* keys: the fused map's paths in order. order_out: n entries, the ranking. */
MDW_TEST_EXPORT("mdw_rank_fused")
int mdw_rank_fused(const uint8_t *bytes, const uint32_t *offsets, size_t n, const double *scores,
                   size_t *order_out) {
    md_str *keys = NULL;
    md_status st = mdw_keys(bytes, offsets, n, &keys);
    if (st == MD_OK) st = md_rank_fused(keys, scores, n, order_out);
    free(keys);
    return st;
}

/* keys: the fused map's n_fused paths, then the n_order paths of `order`.
 * out: [block, len] as fuseArms. */
MDW_EXPORT("mdw_fuse_lateral")
int mdw_fuse_lateral(const uint8_t *bytes, const uint32_t *offsets, size_t n_fused,
                     const double *scores, size_t n_order, double weight, double k, size_t *out) {
    md_str *keys = NULL;
    md_fused fused = {0, NULL, NULL};
    if (n_order > SIZE_MAX - n_fused) return MD_ERR_RANGE;
    md_status st = mdw_keys(bytes, offsets, n_fused + n_order, &keys);
    if (st == MD_OK)
        st = md_fuse_lateral(keys, scores, n_fused, keys + n_fused, n_order, weight, k, &fused);
    if (st == MD_OK) st = pack_fused(&fused, keys, n_fused + n_order, out);
    md_fused_free(&fused);
    free(keys);
    return st;
}

/* fuseArms over ids: hits arm-major (ids[i], ranks[i]); arm_lens[a] hits in
 * arm a; slot: n_space u32, all 0xFFFFFFFF (restored on return); out_ids and
 * out_scores: room for n hits. Returns the fused count, or -1 with the error
 * record filled (an id >= n_space, or arm lengths that overrun n). */
MDW_EXPORT("mdw_fuse_ids")
int mdw_fuse_ids(const uint32_t *ids, const double *ranks, size_t n, const size_t *arm_lens, size_t n_arms,
                 const double *weights, size_t n_weights, double k, uint32_t *slot, size_t n_space,
                 uint32_t *out_ids, double *out_scores) {
    size_t total = 0;
    for (size_t a = 0; a < n_arms; a++) {
        if (arm_lens[a] > n - total) return -mdw_fail(MD_ERR_INVALID, MDW_ARG_fuse_ids_ids, "arm lengths overrun the hits");
        total += arm_lens[a];
    }
    if (total != n) return -mdw_fail(MD_ERR_INVALID, MDW_ARG_fuse_ids_ids, "arm lengths do not cover the hits");
    for (size_t i = 0; i < n; i++)
        if (ids[i] >= n_space) return -mdw_fail(MD_ERR_INVALID, MDW_ARG_fuse_ids_ids, "names an id outside the intern table");
    return (int)mdi_fuse_ids(ids, ranks, arm_lens, n_arms, weights, n_weights, k, slot, out_ids, out_scores);
}

/* rankFused's order by score alone: order[0..n) by score descending, NaN
 * last, ties in input order. */
MDW_EXPORT("mdw_rank_scores")
int mdw_rank_scores(const double *scores, size_t n, size_t *order) {
    md_status st = mdi_rank_scores(scores, n, order);
    return st == MD_OK ? MD_OK : mdw_fail(st, MDW_ARG_rank_scores_scores, NULL);
}

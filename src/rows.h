/* Internals of the resident rows (rows.c) shared with the tests and the
 * other vector modules. */
#ifndef MEMDOMAIN_ROWS_H
#define MEMDOMAIN_ROWS_H

#include "memdomain.h"

/* A set of vectors as the reference holds them: floats (f) or doubles (g),
 * vector i of len[i] elements; or float rows in one block (base, each of
 * `stride` elements: the resident rows). */
typedef struct vset {
    size_t n;
    const float *const *f;
    const double *const *g;
    const size_t *len;
    const float *base;
    size_t stride;
} vset;

/* How md_rows_top_cosine answers: AUTO prunes when it pays (and falls back
 * to the exact pass when it stops paying), EXACT never prunes, PRUNED always
 * does (tests hold it to EXACT on inputs where AUTO would not prune). */
enum { MDI_TOP_AUTO = 0, MDI_TOP_EXACT = 1, MDI_TOP_PRUNED = 2 };

/* What a query did (for tests and benchmarks): whether it pruned, the
 * candidates the scan kept, and the rows that got the exact sum. */
typedef struct mdi_top_stats {
    int pruned;
    size_t candidates, exact;
} mdi_top_stats;

md_status mdi_rows_top_cosine(const md_rows *r, const float *query, size_t k, uint32_t *idx,
                              double *sims, size_t *len, int mode, mdi_top_stats *stats);

/* The packed all-pairs pass (whole, or one tile when !final) with the
 * pruning mode forced: md_top_neighbor_pairs_packed and
 * md_neighbor_tile_packed are this with MDI_TOP_AUTO. */
md_status mdi_packed_pass(const float *matrix, size_t n, size_t d, const md_str *keys,
                          size_t row_begin, size_t row_end, md_neighbor_options options,
                          bool final, md_neighbor_pairs *out, size_t *dup, int mode);

/* md_pairs_pass_new with the pruning mode forced (AUTO: pruned when it pays
 * and the probe agrees; PRUNED: whenever a bound exists; EXACT: never). */
md_status mdi_pairs_pass_new(const float *matrix, size_t n, size_t d, const uint32_t *rank, double floor,
                             double per_source_k, int mode, size_t part_begin, size_t part_end,
                             md_pairs_pass **out);

/* md_top_neighbor_pairs with the pruning mode forced. */
md_status mdi_top_neighbor_pairs(const md_keyed_vector *vectors, size_t n,
                                 md_neighbor_options options, md_neighbor_pairs *out, int mode);

/* rankCandidatePairs over vector indices (an index >= v->n names a key
 * without a vector: skipped), ranks (NULL: row order), with ss[i] each
 * vector's in-order sum of squares (NULL: computed). */
md_status mdi_rank_pairs_ranked(const vset *v, const double *ss, const uint32_t *rank,
                                const uint32_t *src, const uint32_t *dst, size_t n_pairs, double floor,
                                double per_source_k, double limit, md_neighbor_pairs *out);
/* The packed all-pairs pass over float rows in one block (n x d), ranks
 * unique (NULL: row order). */
md_status mdi_neighbor_pairs_block(const float *matrix, size_t n, size_t d, const uint32_t *rank,
                                   size_t row_begin, size_t row_end, double floor, double per_source_k,
                                   double limit, bool final, md_neighbor_pairs *out);

/* applyMmr over float rows given by index (mmr.c; see md_rows_apply_mmr). */
md_status mdi_apply_mmr_rows(const float *rows, size_t n_rows, size_t d, const double *ss,
                             const uint32_t *row, const double *scores, size_t n, double limit,
                             double lambda, size_t *out, size_t *len);

/* Sort positions 0..m-1 by sims desc, then position asc (defined in neighbors.c). */
md_status mdi_sort_top(size_t *order, size_t m, const double *sims);
/* The k (<= m) best positions of sims[0..m) in that order, and their values. */
md_status mdi_select_top(const double *sims, size_t m, size_t k, size_t *pos, double *top);

#endif

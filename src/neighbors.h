/* Internals of the neighbors module (neighbors_lists.c, neighbors_pass.c,
 * neighbors_rank.c) shared between its files, with the resident rows
 * (rows.c) and with the tests. The lists file is the base: the pass and the
 * ranking call into it, never the other way, and nothing here calls rows.c. */
#ifndef MEMDOMAIN_NEIGHBORS_H
#define MEMDOMAIN_NEIGHBORS_H

#include "internal.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

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

/* How a pass answers (md_rows_top_cosine, the all-pairs passes): AUTO prunes when it pays (and falls back
 * to the exact pass when it stops paying), EXACT never prunes, PRUNED always
 * does (tests hold it to EXACT on inputs where AUTO would not prune). */
enum { MDI_TOP_AUTO = 0, MDI_TOP_EXACT = 1, MDI_TOP_PRUNED = 2 };

/* The pruned all-pairs passes' prefix bound (neighbors_pass.c): 0 chooses
 * the prefix by the pass's rule, 1 never uses one, a larger value forces
 * that prefix (rounded down to a multiple of MDI_QALIGN; none if not below
 * the padded length). For the tests; the library never sets it. */
extern size_t mdi_prefix_force;

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

/* Sort positions 0..m-1 by sims desc, then position asc. */
md_status mdi_sort_top(size_t *order, size_t m, const double *sims);
/* The k (<= m) best positions of sims[0..m) in that order, and their values. */
md_status mdi_select_top(const double *sims, size_t m, size_t k, size_t *pos, double *top);

/* ---------------------------------------------------------------- shared by the module's files */

/* topNeighborPairs' hoisted form: norms are square roots already; NaN stays. */
static inline double hoisted(double dot, double na, double nb) {
    if (na == 0 || nb == 0) return 0;
    return mdi_js_max(-1, mdi_js_min(1, dot / (na * nb)));
}

/* One float pair's dot product: widened, one sequential double sum. */
static inline double dot_f32(const float *a, const float *b, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += (double)a[i] * (double)b[i];
    return s;
}

/* Vectors as the reference's arrays: floats (widened, so every product is
 * exact) or doubles (products round, so no FMA anywhere), each with its own
 * length (vset, above). */
static inline const float *vrow(const vset *v, size_t i) {
    return v->base ? v->base + i * v->stride : v->f[i];
}
static inline size_t vlen(const vset *v, size_t i) { return v->base ? v->stride : v->len[i]; }
static inline bool vfloat(const vset *v) { return v->base || v->f; }
static inline double vx(const vset *v, size_t i, size_t k) {
    return vfloat(v) ? (double)vrow(v, i)[k] : v->g[i][k];
}

MDI_SMALL static inline double vsum_sq(const vset *v, size_t i) {
    double s = 0;
    for (size_t k = 0; k < vlen(v, i); k++) {
        double x = vx(v, i, k);
        s += x * x;
    }
    return s;
}

typedef struct entry {
    double sim;
    size_t dst;
} entry;

/* Per-source bounded lists: sim desc, then dst key asc; a candidate equal in
 * both to a held one goes after it. A list is identified by its source's key
 * rank, so duplicate keys share one neighbourhood as the reference's Map does. */
typedef struct selector {
    size_t cap;
    double floor;
    const size_t *rank; /* key rank of every vector index */
    size_t n_lists;
    entry **items;
    size_t *len, *room;
    size_t *src; /* a vector index carrying each list's key */
} selector;

MDI_SMALL static inline void clear_out(md_neighbor_pairs *out) {
    out->len = 0;
    out->pairs = NULL;
}

MDI_SMALL static inline md_neighbor_options opts3(double floor, double k, double limit) {
    md_neighbor_options o = {floor, k, limit};
    return o;
}

/* Vectors (neighbors_lists.c). pair_sim: the pair's similarity as
 * topNeighborPairs computes it (equal lengths: the hoisted norms, NaN kept;
 * others: cosine). vnorms: every vector's norm (*norm freed by the caller).
 * keyed_vset / flat_vset: a vset over keyed vectors, or over data laid out
 * back to back (offsets; floats when f32); vset_free frees what they made. */
double mdi_pair_sim(const vset *v, size_t a, size_t b, double na, double nb);
md_status mdi_vnorms(const vset *v, double **norm);
md_status mdi_keyed_vset(const md_keyed_vector *vectors, size_t n, vset *v, md_str **keys);
md_status mdi_flat_vset(const void *data, bool f32, const uint32_t *offsets, size_t n, vset *v);
void mdi_vset_free(vset *v);

/* Lists (neighbors_lists.c). key_ranks: rank[i], keys[i]'s position among the
 * distinct keys in JavaScript order (*dup: a repeated key's later index, or
 * SIZE_MAX). prepare_ranks: one list per distinct rank (unique: a repeated
 * rank is MD_ERR_INVALID, *dup its later index); prepare_keys: ranks from
 * keys, then the lists (*rank freed by the caller); widen_ranks: caller ranks
 * as size_t (NULL: row order). offer: (list, dst, sim) into a list, the
 * caller having checked sim >= floor. sel_finish: every held pair, sorted and
 * limited when `final`. */
md_status mdi_key_ranks(const md_str *keys, size_t n, size_t *rank, size_t *dup);
md_status mdi_prepare_ranks(const size_t *rank, size_t n, md_neighbor_options o, selector *s, size_t *dup,
                            bool unique);
md_status mdi_prepare_keys(const md_str *keys, size_t n, md_neighbor_options o, size_t **rank, selector *s,
                           size_t *dup, bool unique);
md_status mdi_widen_ranks(const uint32_t *rank, size_t n, size_t **out);
md_status mdi_offer(selector *s, size_t list, size_t dst, double sim);
md_status mdi_sel_finish(selector *s, bool final, double limit, md_neighbor_pairs *out);
void mdi_sel_free(selector *s);

#endif

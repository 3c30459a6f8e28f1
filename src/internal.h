/* Shared internals of the C core. Not part of the public API: prefix mdi_. */
#ifndef MEMDOMAIN_INTERNAL_H
#define MEMDOMAIN_INTERNAL_H

#include "memdomain.h"

#include <stddef.h>
#include <math.h>
#include <stdint.h>

/* ---- allocation: overflow-checked, never aborts ---- */

/* malloc(n * size) with overflow check; NULL on overflow or failure.
 * A zero-byte request returns a valid, freeable pointer. */
void *mdi_alloc_array(size_t n, size_t size);
void *mdi_calloc_array(size_t n, size_t size);

/* Code that is not a hot loop: in the wasm build, optimized for size (the
 * module has a size budget); natively, as everything else. */
#if defined(__wasm__) && defined(__clang__)
#define MDI_SMALL __attribute__((minsize))
#else
#define MDI_SMALL
#endif

/* A loop marked MDI_AS_WRITTEN stays as written: unrolled or vectorized, the
 * byte loops of the text paths cost module bytes (the wasm has a size
 * budget) for no measured gain. */
#if defined(__clang__)
#define MDI_AS_WRITTEN _Pragma("clang loop unroll(disable) vectorize(disable)")
#else
#define MDI_AS_WRITTEN
#endif

/* true when a pointer/length input is invalid (NULL with nonzero length). */
#define MDI_BAD_IN(ptr, n) ((ptr) == NULL && (n) != 0)

/* ---- JavaScript number semantics ---- */

/* Math.max / Math.min: NaN propagates, -0 < +0. Inline: folds call them once
 * per step. */
static inline double mdi_js_max(double a, double b) {
    if (isnan(a) || isnan(b)) return NAN;
    if (a == b) return signbit(a) ? b : a; /* +0 wins over -0 */
    return a > b ? a : b;
}
static inline double mdi_js_min(double a, double b) {
    if (isnan(a) || isnan(b)) return NAN;
    if (a == b) return signbit(a) ? a : b; /* -0 wins over +0 */
    return a < b ? a : b;
}

/* The number of times `for (let i = 0; i < n; i++)` runs; infinite when the
 * loop never ends (n infinite, or beyond 2^53 where i++ stops moving). */
double mdi_js_loop_count(double n);
/* The length of arr.slice(0, end) for an array of len elements, with
 * JavaScript's ToIntegerOrInfinity (NaN -> 0, truncation, negative from the end). */
size_t mdi_js_slice_len(size_t len, double end);

/* cosine's finishing step over in-order sums (cosine.c): zero norm -> 0,
 * NaN -> 0, clamp. Every similarity in the library ends here. */
double mdi_cosine_finish(double dot, double sa, double sb);

/* ---- keys: hashing and a string -> index map ---- */

uint64_t mdi_key_hash(md_str s);
bool mdi_key_equal(md_str a, md_str b);

/* Open-addressing map from md_str (borrowed) to a size_t value. */
typedef struct mdi_keymap {
    size_t cap;  /* power of two, or 0 */
    size_t len;
    md_str *keys;
    size_t *vals;
} mdi_keymap;

/* Prepare an empty map with room for about `expect` keys. MD_OK or MD_ERR_NOMEM. */
md_status mdi_keymap_init(mdi_keymap *m, size_t expect);
void mdi_keymap_free(mdi_keymap *m);
/* Look a key up: returns true and stores its value when present. */
bool mdi_keymap_get(const mdi_keymap *m, md_str key, size_t *val);
/* Find or insert: *val gets the existing value, or `fresh` which is stored.
 * *inserted tells which. MD_OK or MD_ERR_NOMEM. */
md_status mdi_keymap_put(mdi_keymap *m, md_str key, size_t fresh, size_t *val, bool *inserted);

/* ---- sorting ---- */

/* order[0..n) := the indices of keys in JavaScript string order (UTF-16 code
 * units), stable. Plain UTF-8 key sets sort on 8-byte prefixes first (byte
 * order with the lead bytes of U+10000.. moved below U+E000..U+FFFF), then
 * md_key_compare. MD_OK or MD_ERR_NOMEM. */
md_status mdi_sort_keys(const md_str *keys, size_t n, size_t *order);

/* Records for mdi_sort_records: 16 order-preserving bytes (hi, then lo,
 * compared as unsigned integers) and an index. */
typedef struct mdi_rec {
    uint64_t hi, lo;
    size_t i;
} mdi_rec;

/* Stable sort of r[0..n) by (hi, lo), ties in index order: the radix sort
 * of mdi_sort_keys' plain keys (keys.c). MD_OK or MD_ERR_NOMEM (r unchanged
 * then). */
md_status mdi_sort_records(mdi_rec *r, size_t n);

/* Stable merge sort of idx[0..n) by cmp(ctx, a, b) (<0 means a first).
 * MD_OK or MD_ERR_NOMEM (idx unchanged then). */
typedef int (*mdi_cmp_fn)(const void *ctx, size_t a, size_t b);
md_status mdi_sort_indices(size_t *idx, size_t n, mdi_cmp_fn cmp, const void *ctx);

/* ---- fusion over interned ids (rrf.c; md_fuse_arms and the wasm boundary) ----
 *
 * fuseArms over hits given as ids (arm-major, arm i has arm_lens[i] hits):
 * out_ids/out_scores receive the fused map in first-insertion order, and the
 * count is returned. slot[id] must be UINT32_MAX for every id on entry; it
 * is again on return. Both outputs must hold as many entries as there are
 * distinct ids. */
size_t mdi_fuse_ids(const uint32_t *ids, const double *ranks, const size_t *arm_lens, size_t n_arms,
                    const double *weights, size_t n_weights, double k, uint32_t *slot, uint32_t *out_ids,
                    double *out_scores);
/* order[0..n): indices by score descending, NaN last, ties in input order
 * (rankFused before its path tie-break). MD_OK or MD_ERR_NOMEM. */
md_status mdi_rank_scores(const double *scores, size_t n, size_t *order);

/* retention.c's batch scorer for memory i and i + 1 of a checked batch (the
 * two-lane kernel of f64x2.h), and for memory i alone (its scalar twin):
 * exported so the native tests can hold one to the other. */
void mdi_retention_score_pair(const md_retention_columns *c, const md_retention_policy *p, size_t i,
                              double *score, uint8_t *action, double *signals);
void mdi_retention_score_column(const md_retention_columns *c, const md_retention_policy *p, size_t i,
                                double *score, uint8_t *action, double *signals);

#endif

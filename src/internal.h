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

/* Stable merge sort of idx[0..n) by cmp(ctx, a, b) (<0 means a first).
 * MD_OK or MD_ERR_NOMEM (idx unchanged then). */
typedef int (*mdi_cmp_fn)(const void *ctx, size_t a, size_t b);
md_status mdi_sort_indices(size_t *idx, size_t n, mdi_cmp_fn cmp, const void *ctx);

#endif

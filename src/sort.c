/* A stable merge sort over index arrays: every ordering in the design is a
 * stable sort (Array.prototype.sort is stable) with a total tie-break. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static void merge_pass(size_t *restrict dst, const size_t *restrict src, size_t n, size_t width,
                       mdi_cmp_fn cmp, const void *ctx) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
        size_t mid = lo + width < n ? lo + width : n;
        size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
        size_t i = lo, j = mid, k = lo;
        while (i < mid && j < hi) dst[k++] = cmp(ctx, src[j], src[i]) < 0 ? src[j++] : src[i++];
        while (i < mid) dst[k++] = src[i++];
        while (j < hi) dst[k++] = src[j++];
    }
}

md_status mdi_sort_indices(size_t *idx, size_t n, mdi_cmp_fn cmp, const void *ctx) {
    if (n < 2) return MD_OK;
    /* Insertion-sort small runs first: fewer passes and allocations for short lists. */
    const size_t run = 16;
    for (size_t lo = 0; lo < n; lo += run) {
        size_t hi = lo + run < n ? lo + run : n;
        for (size_t i = lo + 1; i < hi; i++) {
            size_t v = idx[i], j = i;
            while (j > lo && cmp(ctx, v, idx[j - 1]) < 0) { idx[j] = idx[j - 1]; j--; }
            idx[j] = v;
        }
    }
    if (n <= run) return MD_OK;
    size_t *tmp = mdi_alloc_array(n, sizeof(size_t));
    if (!tmp) return MD_ERR_NOMEM;
    size_t *src = idx, *dst = tmp;
    for (size_t width = run; width < n; width *= 2) {
        merge_pass(dst, src, n, width, cmp, ctx);
        size_t *t = src; src = dst; dst = t;
    }
    if (src != idx) memcpy(idx, src, n * sizeof(size_t));
    free(tmp);
    return MD_OK;
}

/* Shared helpers of the wasm boundary. */
#include "boundary.h"

#include <stdlib.h>

md_status mdw_keys(const uint8_t *bytes, const uint32_t *offsets, size_t n, md_str **out) {
    *out = NULL;
    if (MDI_BAD_IN(offsets, n)) return MD_ERR_NULL;
    md_str *keys = mdi_alloc_array(n, sizeof(md_str));
    if (!keys) return MD_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        uint32_t a = offsets[i], b = offsets[i + 1];
        if (b < a || (bytes == NULL && b != a)) { free(keys); return MD_ERR_INVALID; }
        keys[i].ptr = (const char *)bytes + a;
        keys[i].len = b - a;
    }
    *out = keys;
    return MD_OK;
}

size_t mdw_key_index(const md_str *keys, size_t n, md_str s) {
    size_t lo = 0, hi = n; /* first key whose start is >= s.ptr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid].ptr < s.ptr) lo = mid + 1; else hi = mid;
    }
    while (lo + 1 < n && keys[lo].len != s.len && keys[lo + 1].ptr == s.ptr) lo++;
    return lo;
}

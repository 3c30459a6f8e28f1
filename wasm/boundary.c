/* Shared helpers of the wasm boundary: the error record and key tables. */
#include "boundary.h"

#include <stdlib.h>
#include <string.h>

mdw_error_record mdw_err = {0, MDW_ARG_NONE, NULL};

int mdw_fail(md_status st, int arg, const char *message) {
    mdw_err.code = (int32_t)st;
    mdw_err.arg = st == MD_ERR_NOMEM ? MDW_ARG_NONE : arg;
    mdw_err.message = message ? message : md_status_string(st);
    return (int)st;
}

/* The error record's address (the glue reads code, arg and message there). */
MDW_EXPORT("mdw_error")
mdw_error_record *mdw_error(void) { return &mdw_err; }

/* md_status_string for the glue's status names (they come from C, once). */
MDW_EXPORT("mdw_status_string")
const char *mdw_status_string(int status) { return md_status_string((md_status)status); }

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

/* The glue encodes well-formed keys with ONE TextEncoder.encodeInto of their
 * concatenation and records each key's UTF-16 length, so no JavaScript loop
 * walks characters; this turns those lengths (lens[0..n)) into the n + 1
 * byte offsets of the key table. offsets may be lens - 1 (the glue writes the
 * lengths where offsets 1..n go: each is read before it is overwritten). Returns
 * MD_ERR_INVALID when the lengths do not fit the n_bytes bytes. */
MDW_HOT_EXPORT("mdw_key_offsets")
int mdw_key_offsets(const uint8_t *bytes, size_t n_bytes, const uint32_t *lens, size_t n, uint32_t *offsets) {
    if (MDI_BAD_IN(lens, n) || MDI_BAD_IN(bytes, n_bytes) || !offsets) return mdw_fail(MD_ERR_NULL, MDW_ARG_NONE, NULL);
    size_t pos = 0;
    offsets[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t units = lens[i];
        while (units > 0) {
            if (units >= 8 && n_bytes - pos >= 8) { /* eight ASCII bytes: eight units */
                uint64_t w;
                memcpy(&w, bytes + pos, 8);
                if (!(w & 0x8080808080808080ull)) { pos += 8; units -= 8; continue; }
            }
            if (pos >= n_bytes) return mdw_fail(MD_ERR_INVALID, MDW_ARG_NONE, "key table: lengths exceed the bytes");
            uint8_t b = bytes[pos];
            size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
            size_t u = len == 4 ? 2 : 1;
            if (u > units || len > n_bytes - pos) return mdw_fail(MD_ERR_INVALID, MDW_ARG_NONE, "key table: lengths exceed the bytes");
            units -= u;
            pos += len;
        }
        offsets[i + 1] = (uint32_t)pos;
    }
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

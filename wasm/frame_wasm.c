/* Boundary for the frame module. */
#include "text_wasm.h"

#include <stdlib.h>
#include <string.h>

/* out: [block, len, found]; block holds the lowercased frame (WTF-8). */
MDW_EXPORT("mdw_frame_key_of")
int mdw_frame_key_of(const char *s, size_t len, size_t *out) {
    md_text t;
    bool found = false;
    md_str in = {s, len};
    md_status st = md_frame_key_of(in, &t, &found);
    if (st != MD_OK) return st;
    out[0] = (size_t)t.ptr;
    out[1] = t.len;
    out[2] = found;
    return MD_OK;
}

/* frameKeysOf, the batch form: keys i in [0, n) from the glue's key table
 * (mdw_text_keys: byte offsets, or UTF-16 lengths when utf16).
 * out: [block, n]; block = u32 info[4n] (byte start, byte length or
 * 0xFFFFFFFF for null, UTF-16 start, UTF-16 length) then the keys' bytes,
 * back to back, from block + 16n. out[2] = 1 when a key holds a lone
 * surrogate (the glue then decodes key by key). */
MDW_EXPORT("mdw_frame_keys_of")
int mdw_frame_keys_of(const uint8_t *bytes, const uint32_t *table, size_t n, int utf16, size_t n_bytes,
                      size_t *out) {
    md_str *k = NULL;
    md_status st = mdw_text_keys(bytes, table, n, utf16, n_bytes, &k);
    if (st != MD_OK) return st;
    if (n > SIZE_MAX / 16) { free(k); return MD_ERR_RANGE; }
    size_t cap = 16 * n + 64, used = 16 * n, u16 = 0;
    uint8_t *block = malloc(cap);
    bool wtf = false;
    if (!block) st = MD_ERR_NOMEM;
    for (size_t i = 0; i < n && st == MD_OK; i++) {
        md_text t;
        bool found = false;
        st = md_frame_key_of(k[i], &t, &found);
        if (st != MD_OK) break;
        uint32_t *info = (uint32_t *)block + 4 * i;
        if (!found) {
            info[0] = (uint32_t)used; info[1] = 0xFFFFFFFFu; info[2] = (uint32_t)u16; info[3] = 0;
            md_text_free(&t);
            continue;
        }
        if (t.len > cap - used) {
            size_t nc = cap * 2 > used + t.len ? cap * 2 : used + t.len;
            uint8_t *b = realloc(block, nc);
            if (!b) { md_text_free(&t); st = MD_ERR_NOMEM; break; }
            block = b;
            cap = nc;
            info = (uint32_t *)block + 4 * i;
        }
        size_t units = 0;
        for (size_t j = 0; j < t.len; j++) {
            uint8_t c = (uint8_t)t.ptr[j];
            units += (c & 0xC0) != 0x80;
            units += c >= 0xF0;
            wtf |= c == 0xED && j + 1 < t.len && (uint8_t)t.ptr[j + 1] >= 0xA0;
        }
        memcpy(block + used, t.ptr, t.len);
        info[0] = (uint32_t)used; info[1] = (uint32_t)t.len; info[2] = (uint32_t)u16; info[3] = (uint32_t)units;
        used += t.len;
        u16 += units;
        md_text_free(&t);
    }
    free(k);
    if (st != MD_OK) { free(block); return st; }
    out[0] = (size_t)block;
    out[1] = used;
    out[2] = wtf;
    return MD_OK;
}

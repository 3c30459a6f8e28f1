/* Boundary for the frame module. */
#include "boundary.h"
#include "unicode.h"

#include <stdlib.h>
#include <string.h>

/* frameKeyOf: the claim's UTF-8 at s[0..len); out: [block, len, found]; block
 * holds the lowercased frame (freed by the glue). */
MDW_EXPORT("mdw_frame_key_of")
int mdw_frame_key_of(const char *s, size_t len, size_t *out) {
    md_text t;
    bool found = false;
    md_str in = {s, len};
    md_status st = md_frame_key_of(in, &t, &found);
    if (st != MD_OK) return mdw_fail(st, 0, st == MD_ERR_INVALID ? "is not valid UTF-8" : NULL);
    out[0] = (size_t)t.ptr;
    out[1] = t.len;
    out[2] = found;
    return MD_OK;
}

/* frameKeysOf, the batch form, over a key table of n claims. out: [block,
 * used, wtf]; block = u32 info[4n] (byte start, byte length or 0xFFFFFFFF
 * for null, UTF-16 start, UTF-16 length) then the keys' bytes back to back
 * from block + 16n. wtf = 1 when a key holds a lone surrogate (the glue then
 * decodes key by key). One work buffer serves every claim. */
MDW_EXPORT("mdw_frame_keys_of")
int mdw_frame_keys_of(const uint8_t *bytes, const uint32_t *offsets, size_t n, size_t *out) {
    md_str *k = NULL;
    md_status st = mdw_keys(bytes, offsets, n, &k);
    if (st != MD_OK) return mdw_fail(st, 0, NULL);
    if (n > SIZE_MAX / 16) { free(k); return mdw_fail(MD_ERR_RANGE, 0, NULL); }
    size_t cap = 16 * n + 64, used = 16 * n, u16 = 0, work_cap = 0;
    uint8_t *block = malloc(cap), *work = NULL;
    bool wtf = false;
    if (!block) st = MD_ERR_NOMEM;
    for (size_t i = 0; i < n && st == MD_OK; i++) {
        const uint8_t *s = (const uint8_t *)k[i].ptr;
        size_t len = k[i].len, klen = 0;
        bool found = false;
        if (!mdi_utf8_valid(s, len)) { st = MD_ERR_INVALID; break; }
        if (len > (SIZE_MAX - 8) / 3) { st = MD_ERR_RANGE; break; }
        if (mdi_frame_work_size(len) > work_cap) {
            size_t nc = mdi_frame_work_size(len) > 2 * work_cap ? mdi_frame_work_size(len) : 2 * work_cap;
            free(work);
            work = malloc(nc);
            work_cap = work ? nc : 0;
            if (!work) { st = MD_ERR_NOMEM; break; }
        }
        mdi_frame_key_into(s, len, work, &klen, &found);
        uint32_t *info = (uint32_t *)block + 4 * i;
        if (!found) {
            info[0] = (uint32_t)used; info[1] = 0xFFFFFFFFu; info[2] = (uint32_t)u16; info[3] = 0;
            continue;
        }
        if (klen > cap - used) {
            size_t nc = cap * 2 > used + klen ? cap * 2 : used + klen;
            uint8_t *b = realloc(block, nc);
            if (!b) { st = MD_ERR_NOMEM; break; }
            block = b;
            cap = nc;
            info = (uint32_t *)block + 4 * i;
        }
        size_t units = 0;
        for (size_t j = 0; j < klen; j++) {
            uint8_t c = work[j];
            units += (c & 0xC0) != 0x80;
            units += c >= 0xF0;
            wtf |= c == 0xED && j + 1 < klen && work[j + 1] >= 0xA0;
        }
        memcpy(block + used, work, klen);
        info[0] = (uint32_t)used; info[1] = (uint32_t)klen; info[2] = (uint32_t)u16; info[3] = (uint32_t)units;
        used += klen;
        u16 += units;
    }
    free(work);
    free(k);
    if (st != MD_OK) { free(block); return mdw_fail(st, 0, NULL); }
    out[0] = (size_t)block;
    out[1] = used;
    out[2] = wtf;
    return MD_OK;
}

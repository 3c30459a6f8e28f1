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
    if (st != MD_OK) return mdw_fail(st, MDW_ARG_frame_key_of_s, st == MD_ERR_INVALID ? "is not valid UTF-8" : NULL);
    out[MDW_OUT_frame_key_of_text] = (size_t)t.ptr;
    out[MDW_OUT_frame_key_of_len] = t.len;
    out[MDW_OUT_frame_key_of_found] = found;
    return MD_OK;
}

/* Keys already written, by their bytes: slot[h] is a claim index + 1 (0:
 * empty). Claims often share a frame (that is what the key is for), so each
 * distinct key crosses back once. */
typedef struct seen_keys {
    uint32_t *slot;
    size_t cap, len;
} seen_keys;

static md_str key_at(const uint8_t *block, size_t i) {
    const uint32_t *info = (const uint32_t *)block + 4 * i;
    return (md_str){(const char *)block + info[0], info[1]};
}

/* The claim holding key s already, or SIZE_MAX after recording claim i as
 * its first; false when memory runs out. */
static bool seen_find_or_add(seen_keys *t, const uint8_t *block, md_str s, size_t i, size_t *first) {
    if ((t->len + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        uint32_t *slot = mdi_calloc_array(cap, sizeof(uint32_t));
        if (!slot) return false;
        for (size_t j = 0; j < t->cap; j++) {
            if (!t->slot[j]) continue;
            size_t h = (size_t)mdi_key_hash(key_at(block, t->slot[j] - 1)) & (cap - 1);
            while (slot[h]) h = (h + 1) & (cap - 1);
            slot[h] = t->slot[j];
        }
        free(t->slot);
        t->slot = slot;
        t->cap = cap;
    }
    size_t h = (size_t)mdi_key_hash(s) & (t->cap - 1);
    for (; t->slot[h]; h = (h + 1) & (t->cap - 1)) {
        if (mdi_key_equal(key_at(block, t->slot[h] - 1), s)) { *first = t->slot[h] - 1; return true; }
    }
    t->slot[h] = (uint32_t)i + 1;
    t->len++;
    *first = SIZE_MAX;
    return true;
}

/* frameKeysOf, the batch form, over a key table of n claims. out: [block,
 * used, wtf]; block = u32 info[4n] then the distinct keys' bytes back to back
 * from block + 16n. info[4i..4i+4) for claim i: (byte start, byte length,
 * UTF-16 start, UTF-16 length) of its key, or (byte start, 0xFFFFFFFF, ...)
 * for null, or (byte start, 0xFFFFFFFE, j, 0) when claim j < i has the same
 * key (byte starts never decrease). wtf = 1 when a key holds a lone
 * surrogate (the glue then decodes key by key). One work buffer serves every
 * claim. */
MDW_HOT_EXPORT("mdw_frame_keys_of")
int mdw_frame_keys_of(const uint8_t *bytes, const uint32_t *offsets, size_t n, size_t *out) {
    md_str *k = NULL;
    md_status st = mdw_keys(bytes, offsets, n, &k);
    if (st != MD_OK) return mdw_fail(st, MDW_ARG_frame_keys_of_bytes, NULL);
    if (n > UINT32_MAX / 16) { free(k); return mdw_fail(MD_ERR_RANGE, MDW_ARG_frame_keys_of_bytes, NULL); }
    size_t cap = 16 * n + 64, used = 16 * n, u16 = 0, work_cap = 0;
    uint8_t *block = malloc(cap), *work = NULL;
    seen_keys seen = {NULL, 0, 0};
    bool wtf = false;
    if (!block) st = MD_ERR_NOMEM;
    for (size_t i = 0; i < n && st == MD_OK; i++) {
        const uint8_t *s = (const uint8_t *)k[i].ptr;
        size_t len = k[i].len, klen = 0;
        bool found = false;
        if (len > (SIZE_MAX - 8) / 3) { st = MD_ERR_RANGE; break; }
        if (mdi_frame_work_size(len) > work_cap) {
            size_t nc = mdi_frame_work_size(len) > 2 * work_cap ? mdi_frame_work_size(len) : 2 * work_cap;
            free(work);
            work = malloc(nc);
            work_cap = work ? nc : 0;
            if (!work) { st = MD_ERR_NOMEM; break; }
        }
        if (!mdi_frame_key_into(s, len, work, &klen, &found)) { st = MD_ERR_INVALID; break; }
        uint32_t *info = (uint32_t *)block + 4 * i;
        if (!found) {
            info[0] = (uint32_t)used; info[1] = 0xFFFFFFFFu; info[2] = (uint32_t)u16; info[3] = 0;
            continue;
        }
        size_t first;
        if (!seen_find_or_add(&seen, block, (md_str){(const char *)work, klen}, i, &first)) { st = MD_ERR_NOMEM; break; }
        if (first != SIZE_MAX) {
            info[0] = (uint32_t)used; info[1] = 0xFFFFFFFEu; info[2] = (uint32_t)first; info[3] = 0;
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
    free(seen.slot);
    free(work);
    free(k);
    if (st != MD_OK) { free(block); return mdw_fail(st, MDW_ARG_frame_keys_of_bytes, NULL); }
    out[MDW_OUT_frame_keys_of_block] = (size_t)block;
    out[MDW_OUT_frame_keys_of_used] = used;
    out[MDW_OUT_frame_keys_of_wtf] = wtf;
    return MD_OK;
}

/* Path keys: JavaScript (UTF-16 code unit) ordering over UTF-8/WTF-8 bytes,
 * hashing, and a string -> index map. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* A cursor that yields the UTF-16 code units of a UTF-8/WTF-8 string. */
typedef struct unit_cursor {
    const uint8_t *p;
    size_t n, i;
    int pending; /* a low surrogate still owed, or -1 */
} unit_cursor;

/* Decode one code point at s[i]; returns its length in bytes (>= 1). A byte
 * that starts no well-formed sequence decodes, one byte long, as a value
 * above every code unit (MALFORMED + byte), so malformed strings still order
 * totally and never compare equal to a different well-formed string. */
#define MALFORMED 0x110000u
static size_t decode_cp(const uint8_t *s, size_t n, size_t i, uint32_t *cp) {
    uint8_t b = s[i];
    if (b < 0x80) { *cp = b; return 1; }
    size_t len;
    uint32_t v, min;
    if (b >= 0xC2 && b <= 0xDF) { len = 2; v = b & 0x1F; min = 0x80; }
    else if (b >= 0xE0 && b <= 0xEF) { len = 3; v = b & 0x0F; min = 0x800; }
    else if (b >= 0xF0 && b <= 0xF4) { len = 4; v = b & 0x07; min = 0x10000; }
    else { *cp = MALFORMED + b; return 1; }
    if (i + len > n) { *cp = MALFORMED + b; return 1; }
    for (size_t k = 1; k < len; k++) {
        uint8_t c = s[i + k];
        if ((c & 0xC0) != 0x80) { *cp = MALFORMED + b; return 1; }
        v = (v << 6) | (c & 0x3F);
    }
    if (v < min || v > 0x10FFFF) { *cp = MALFORMED + b; return 1; }
    *cp = v;
    return len;
}

static int next_unit(unit_cursor *c) {
    if (c->pending >= 0) { int u = c->pending; c->pending = -1; return u; }
    if (c->i >= c->n) return -1;
    uint32_t cp;
    c->i += decode_cp(c->p, c->n, c->i, &cp);
    if (cp < 0x10000 || cp >= MALFORMED) return (int)cp;
    cp -= 0x10000;
    c->pending = (int)(0xDC00 + (cp & 0x3FF));
    return (int)(0xD800 + (cp >> 10));
}

int md_key_compare(md_str a, md_str b) {
    const uint8_t *pa = (const uint8_t *)a.ptr, *pb = (const uint8_t *)b.ptr;
    size_t n = a.len < b.len ? a.len : b.len;
    size_t i = 0;
    /* Skip the common prefix, then back up to a byte that starts a code point
     * in both strings (a continuation byte on either side means the sequence
     * began earlier; a truncated sequence decodes differently from a whole one). */
    while (i < n && pa[i] == pb[i]) i++;
    if (i == n && a.len == b.len) return 0;
    while (i > 0 && ((i < a.len && (pa[i] & 0xC0) == 0x80) || (i < b.len && (pb[i] & 0xC0) == 0x80))) i--;
    unit_cursor ca = {pa, a.len, i, -1}, cb = {pb, b.len, i, -1};
    for (;;) {
        int ua = next_unit(&ca), ub = next_unit(&cb);
        if (ua != ub) return ua < ub ? -1 : 1; /* -1 (end) sorts first */
        if (ua < 0) return 0;
    }
}

uint64_t mdi_key_hash(md_str s) {
    uint64_t h = 1469598103934665603ull;
    const uint8_t *p = (const uint8_t *)s.ptr;
    for (size_t i = 0; i < s.len; i++) { h ^= p[i]; h *= 1099511628211ull; }
    return h ^ (h >> 29);
}

bool mdi_key_equal(md_str a, md_str b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

md_status mdi_keymap_init(mdi_keymap *m, size_t expect) {
    size_t cap = 16;
    while (cap < expect * 2 + 2) {
        if (cap > SIZE_MAX / 4) return MD_ERR_NOMEM;
        cap <<= 1;
    }
    m->keys = mdi_alloc_array(cap, sizeof(md_str));
    m->vals = mdi_alloc_array(cap, sizeof(size_t));
    if (!m->keys || !m->vals) {
        free(m->keys); free(m->vals);
        m->keys = NULL; m->vals = NULL; m->cap = m->len = 0;
        return MD_ERR_NOMEM;
    }
    for (size_t i = 0; i < cap; i++) m->vals[i] = SIZE_MAX; /* empty slot */
    m->cap = cap;
    m->len = 0;
    return MD_OK;
}

void mdi_keymap_free(mdi_keymap *m) {
    free(m->keys); free(m->vals);
    m->keys = NULL; m->vals = NULL; m->cap = m->len = 0;
}

static size_t find_slot(const mdi_keymap *m, md_str key) {
    size_t mask = m->cap - 1, i = (size_t)mdi_key_hash(key) & mask;
    while (m->vals[i] != SIZE_MAX && !mdi_key_equal(m->keys[i], key)) i = (i + 1) & mask;
    return i;
}

bool mdi_keymap_get(const mdi_keymap *m, md_str key, size_t *val) {
    if (m->cap == 0) return false;
    size_t i = find_slot(m, key);
    if (m->vals[i] == SIZE_MAX) return false;
    if (val) *val = m->vals[i];
    return true;
}

static md_status grow(mdi_keymap *m) {
    mdi_keymap bigger;
    md_status st = mdi_keymap_init(&bigger, m->cap);
    if (st != MD_OK) return st;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->vals[i] == SIZE_MAX) continue;
        size_t j = find_slot(&bigger, m->keys[i]);
        bigger.keys[j] = m->keys[i];
        bigger.vals[j] = m->vals[i];
    }
    bigger.len = m->len;
    mdi_keymap_free(m);
    *m = bigger;
    return MD_OK;
}

md_status mdi_keymap_put(mdi_keymap *m, md_str key, size_t fresh, size_t *val, bool *inserted) {
    if (m->cap == 0 || (m->len + 1) * 2 > m->cap) {
        md_status st = m->cap == 0 ? mdi_keymap_init(m, 8) : grow(m);
        if (st != MD_OK) return st;
    }
    size_t i = find_slot(m, key);
    if (m->vals[i] != SIZE_MAX) {
        if (val) *val = m->vals[i];
        if (inserted) *inserted = false;
        return MD_OK;
    }
    m->keys[i] = key;
    m->vals[i] = fresh;
    m->len++;
    if (val) *val = fresh;
    if (inserted) *inserted = true;
    return MD_OK;
}

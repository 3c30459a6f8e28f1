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

/* Eight bytes a step (a multiply and a shift each), then murmur3's 64-bit
 * finalizer so the low bits a table masks depend on every byte. Only
 * lookups use it: no result depends on its values. */
uint64_t mdi_key_hash(md_str s) {
    const uint8_t *p = (const uint8_t *)s.ptr;
    size_t n = s.len;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n, w;
    MDI_AS_WRITTEN
    for (; n >= 8; n -= 8, p += 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    w = 0;
    MDI_AS_WRITTEN
    for (size_t i = 0; i < n; i++) w |= (uint64_t)p[i] << (8 * i);
    h ^= w;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
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

/* ---- sorting keys: the one key sort (graph nodes, components, neighbour
 * key ranks, the test build's mdw_sort_keys) ---- */

typedef struct key_sort {
    const md_str *keys;
} key_sort;

static inline uint8_t utf16_rank(uint8_t b) {
    if (b >= 0xF0 && b <= 0xF4) return (uint8_t)(b - 2);  /* F0..F4 -> EE..F2 */
    if (b == 0xEE || b == 0xEF) return (uint8_t)(b + 5);  /* EE, EF -> F3, F4 */
    return b;
}

static int key_cmp(const void *ctx, size_t a, size_t b) {
    const key_sort *c = ctx;
    return md_key_compare(c->keys[a], c->keys[b]);
}

/* True when every key is well-formed UTF-8 without surrogates. For such keys,
 * byte order is code point order, and UTF-16 order differs from it only in
 * putting U+10000.. (lead bytes F0-F4) below U+E000..U+FFFF (EE, EF): after
 * swapping those lead-byte ranges, plain byte order is JavaScript's order.
 * *remap: some key holds one of those lead bytes. */
static bool plain_utf8(const md_str *k, size_t n, bool *remap) {
    bool moved = false;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = (const uint8_t *)k[i].ptr;
        size_t len = k[i].len, j = 0;
        while (j < len) {
            if (j + 8 <= len) { /* eight ASCII bytes at a time */
                uint64_t w;
                memcpy(&w, p + j, 8);
                if (!(w & 0x8080808080808080u)) { j += 8; continue; }
            }
            uint8_t b = p[j];
            if (b < 0x80) { j++; continue; }
            size_t need;
            uint32_t min, v;
            if (b >= 0xC2 && b <= 0xDF) { need = 1; min = 0x80; v = b & 0x1F; }
            else if (b >= 0xE0 && b <= 0xEF) { need = 2; min = 0x800; v = b & 0x0F; }
            else if (b >= 0xF0 && b <= 0xF4) { need = 3; min = 0x10000; v = b & 0x07; }
            else return false;
            if (j + need >= len) return false;
            for (size_t t = 1; t <= need; t++) {
                if ((p[j + t] & 0xC0) != 0x80) return false;
                v = (v << 6) | (p[j + t] & 0x3F);
            }
            if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return false;
            moved |= b >= 0xEE;
            j += need + 1;
        }
    }
    *remap = moved;
    return true;
}

/* Plain UTF-8 keys sort as records: 16 order-preserving bytes of each key
 * after the keys' common prefix (big-endian, lead bytes remapped when any key
 * needs it, a shorter key padded with 0), compared inline, and only ties
 * read the keys: the bytes after those 16, then the length (the shorter one
 * is then a prefix of the other), then the index (stable). */
typedef mdi_rec key_rec;

typedef struct plain_sort {
    const md_str *keys; /* NULL: records alone (mdi_sort_records), ties by index */
    size_t from; /* the keys' bytes from here on are not in the records */
    bool remap;
} plain_sort;

static int rec_cmp(const plain_sort *c, const key_rec *x, const key_rec *y) {
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    if (!c->keys) return x->i < y->i ? -1 : x->i > y->i ? 1 : 0;
    md_str p = c->keys[x->i], q = c->keys[y->i];
    size_t n = p.len < q.len ? p.len : q.len;
    if (c->from < n) {
        const uint8_t *a = (const uint8_t *)p.ptr, *b = (const uint8_t *)q.ptr;
        if (!c->remap) {
            int r = memcmp(a + c->from, b + c->from, n - c->from);
            if (r) return r;
        } else {
            for (size_t k = c->from; k < n; k++)
                if (a[k] != b[k]) return utf16_rank(a[k]) < utf16_rank(b[k]) ? -1 : 1;
        }
    }
    if (p.len != q.len) return p.len < q.len ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i ? 1 : 0;
}

static uint64_t be_bytes(const uint8_t *p, size_t len, size_t at, bool remap) {
    uint64_t v = 0;
    for (size_t j = 0; j < 8; j++) {
        uint8_t b = at + j < len ? p[at + j] : 0;
        v = (v << 8) | (remap ? utf16_rank(b) : b);
    }
    return v;
}

/* Insertion sort of r[0..n) by rec_cmp (short runs). */
static void rec_insertion(const plain_sort *c, key_rec *r, size_t n) {
    for (size_t i = 1; i < n; i++) {
        key_rec x = r[i];
        size_t j = i;
        while (j > 0 && rec_cmp(c, &r[j - 1], &x) > 0) { r[j] = r[j - 1]; j--; }
        r[j] = x;
    }
}

/* Stable merge sort of r[0..n) by rec_cmp (t: scratch of n): insertion-sorted
 * runs of 16, then bottom-up merges; the result is left in r. */
static void rec_merge_sort(const plain_sort *c, key_rec *r, key_rec *t, size_t n) {
    for (size_t lo = 0; lo < n; lo += 16) rec_insertion(c, r + lo, n - lo < 16 ? n - lo : 16);
    key_rec *from = r, *to = t;
    for (size_t width = 16; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) to[o++] = rec_cmp(c, &from[j], &from[i]) < 0 ? from[j++] : from[i++];
            while (i < mid) to[o++] = from[i++];
            while (j < hi) to[o++] = from[j++];
        }
        key_rec *x = from; from = to; to = x;
    }
    if (from != r) memcpy(r, from, n * sizeof *r);
}

/* Byte `depth` (0..15) of a record's 16 order-preserving bytes. */
static inline uint8_t rec_byte(const key_rec *x, unsigned depth) {
    uint64_t w = depth < 8 ? x->hi : x->lo;
    return (uint8_t)(w >> (56 - 8 * (depth & 7)));
}

#define REC_SMALL 32

/* Stable most-significant-byte-first radix sort of r[0..n) on the records'
 * 16 bytes from byte `depth` on (the bytes before are equal across r), t
 * scratch of n. Each level is one sequential pass over the records, never
 * the keys: a level where every record has the same byte moves nothing.
 * Buckets of at most REC_SMALL records, and records whose 16 bytes are all
 * equal, are finished by rec_cmp (which reads the keys only on such ties).
 * Recursion is at most 16 levels deep. The order is rec_cmp's: the radix
 * levels order by the same 16 bytes rec_cmp compares first, and a stable
 * scatter keeps equal records in index order. */
static void rec_radix(const plain_sort *c, key_rec *r, key_rec *t, size_t n, unsigned depth) {
    for (; n > REC_SMALL && depth < 16; depth++) {
        size_t at[256] = {0}; /* counts, then each bucket's start, then its end */
        MDI_AS_WRITTEN
        for (size_t i = 0; i < n; i++) at[rec_byte(&r[i], depth)]++;
        if (at[rec_byte(&r[0], depth)] == n) continue; /* one bucket: the next byte */
        MDI_AS_WRITTEN
        for (size_t b = 0, sum = 0; b < 256; b++) { size_t k = at[b]; at[b] = sum; sum += k; }
        MDI_AS_WRITTEN
        for (size_t i = 0; i < n; i++) t[at[rec_byte(&r[i], depth)]++] = r[i];
        memcpy(r, t, n * sizeof *r);
        for (size_t b = 0, lo = 0; b < 256; lo = at[b++])
            if (at[b] - lo > 1) rec_radix(c, r + lo, t + lo, at[b] - lo, depth + 1);
        return;
    }
    if (n <= REC_SMALL) rec_insertion(c, r, n);
    else rec_merge_sort(c, r, t, n); /* all 16 bytes equal: rec_cmp reads on */
}

/* A stable sort of plain UTF-8 keys; false when memory runs out. */
static bool sort_plain(const md_str *k, size_t n, bool remap, size_t *order) {
    key_rec *r = mdi_alloc_array(n, sizeof(key_rec)), *t = mdi_alloc_array(n, sizeof(key_rec));
    if (!r || !t) { free(r); free(t); return false; }
    size_t lcp = k[0].len;
    for (size_t i = 1; i < n && lcp; i++) {
        size_t l = k[i].len < lcp ? k[i].len : lcp, j = 0;
        while (j < l && k[i].ptr[j] == k[0].ptr[j]) j++;
        lcp = j;
    }
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = (const uint8_t *)k[i].ptr;
        r[i].hi = be_bytes(p, k[i].len, lcp, remap);
        r[i].lo = be_bytes(p, k[i].len, lcp + 8, remap);
        r[i].i = i;
    }
    plain_sort c = {k, lcp + 16, remap};
    rec_radix(&c, r, t, n, 0);
    for (size_t i = 0; i < n; i++) order[i] = r[i].i;
    free(r);
    free(t);
    return true;
}

md_status mdi_sort_records(mdi_rec *r, size_t n) {
    if (n < 2) return MD_OK;
    key_rec *t = mdi_alloc_array(n, sizeof(key_rec));
    if (!t) return MD_ERR_NOMEM;
    plain_sort c = {NULL, 0, false};
    rec_radix(&c, r, t, n, 0);
    free(t);
    return MD_OK;
}

md_status mdi_sort_keys(const md_str *keys, size_t n, size_t *order) {
    bool remap = false;
    if (n >= 32 && plain_utf8(keys, n, &remap) && sort_plain(keys, n, remap, order)) return MD_OK;
    for (size_t i = 0; i < n; i++) order[i] = i;
    key_sort ks = {keys};
    return mdi_sort_indices(order, n, key_cmp, &ks);
}

/* Unicode for the text modules: WTF-8, NFC and toLowerCase over the
 * generated tables (src/unicode_tables.c). */
#include "unicode.h"

#include <stdlib.h>
#include <string.h>

#define SBASE 0xAC00u
#define LBASE 0x1100u
#define VBASE 0x1161u
#define TBASE 0x11A7u
#define LCOUNT 19u
#define VCOUNT 21u
#define TCOUNT 28u
#define NCOUNT (VCOUNT * TCOUNT)
#define SCOUNT (LCOUNT * NCOUNT)

static inline const mdi_uni_record *record(uint32_t c) {
    if (c >= 0x110000) c = 0xFFFF; /* never reached for decoded input */
    size_t block = mdi_uni_rec_stage1[c >> MDI_UNI_SHIFT];
    return &mdi_uni_records[mdi_uni_rec_stage2[(block << MDI_UNI_SHIFT) | (c & ((1u << MDI_UNI_SHIFT) - 1))]];
}

static inline unsigned ccc(uint32_t c) { return record(c)->ccc; }

static inline uint16_t dec_index(uint32_t c) {
    size_t block = mdi_uni_dec_stage1[c >> MDI_UNI_SHIFT];
    return mdi_uni_dec_stage2[(block << MDI_UNI_SHIFT) | (c & ((1u << MDI_UNI_SHIFT) - 1))];
}

void md_text_free(md_text *text) {
    if (!text) return;
    free(text->ptr);
    text->ptr = NULL;
    text->len = 0;
}

const char *md_unicode_version(void) { return mdi_uni_version; }

md_status mdi_utf8_decode(md_str s, uint32_t **out, size_t *n) {
    *out = NULL;
    *n = 0;
    if (MDI_BAD_IN(s.ptr, s.len)) return MD_ERR_NULL;
    uint32_t *v = mdi_alloc_array(s.len, sizeof(uint32_t));
    if (!v) return MD_ERR_NOMEM;
    const uint8_t *p = (const uint8_t *)s.ptr;
    size_t i = 0, k = 0;
    while (i < s.len) {
        uint8_t b = p[i];
        if (b < 0x80) { v[k++] = b; i++; continue; }
        size_t len;
        uint32_t c, min;
        if (b >= 0xC2 && b <= 0xDF) { len = 2; c = b & 0x1F; min = 0x80; }
        else if (b >= 0xE0 && b <= 0xEF) { len = 3; c = b & 0x0F; min = 0x800; }
        else if (b >= 0xF0 && b <= 0xF4) { len = 4; c = b & 0x07; min = 0x10000; }
        else { free(v); return MD_ERR_INVALID; }
        if (len > s.len - i) { free(v); return MD_ERR_INVALID; }
        for (size_t j = 1; j < len; j++) {
            uint8_t t = p[i + j];
            if ((t & 0xC0) != 0x80) { free(v); return MD_ERR_INVALID; }
            c = (c << 6) | (t & 0x3F);
        }
        if (c < min || c > 0x10FFFF) { free(v); return MD_ERR_INVALID; }
        v[k++] = c; /* surrogates (WTF-8) are accepted as lone code units */
        i += len;
    }
    *out = v;
    *n = k;
    return MD_OK;
}

md_status mdi_utf8_encode(const uint32_t *cps, size_t n, md_text *out) {
    out->ptr = NULL;
    out->len = 0;
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) bytes += cps[i] < 0x80 ? 1 : cps[i] < 0x800 ? 2 : cps[i] < 0x10000 ? 3 : 4;
    uint8_t *b = malloc(bytes ? bytes : 1);
    if (!b) return MD_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = cps[i];
        if (c < 0x80) b[k++] = (uint8_t)c;
        else if (c < 0x800) { b[k++] = (uint8_t)(0xC0 | (c >> 6)); b[k++] = (uint8_t)(0x80 | (c & 63)); }
        else if (c < 0x10000) {
            b[k++] = (uint8_t)(0xE0 | (c >> 12)); b[k++] = (uint8_t)(0x80 | ((c >> 6) & 63));
            b[k++] = (uint8_t)(0x80 | (c & 63));
        } else {
            b[k++] = (uint8_t)(0xF0 | (c >> 18)); b[k++] = (uint8_t)(0x80 | ((c >> 12) & 63));
            b[k++] = (uint8_t)(0x80 | ((c >> 6) & 63)); b[k++] = (uint8_t)(0x80 | (c & 63));
        }
    }
    out->ptr = (char *)b;
    out->len = k;
    return MD_OK;
}

/* ---------------------------------------------------------------- NFC */

/* Append the full canonical decomposition of c at d; returns the count. */
static size_t decompose(uint32_t c, uint32_t *d) {
    if (c >= SBASE && c < SBASE + SCOUNT) {
        uint32_t s = c - SBASE;
        d[0] = LBASE + s / NCOUNT;
        d[1] = VBASE + (s % NCOUNT) / TCOUNT;
        if (s % TCOUNT == 0) return 2;
        d[2] = TBASE + s % TCOUNT;
        return 3;
    }
    uint16_t at = c < 0x110000 ? dec_index(c) : 0;
    if (!at) { d[0] = c; return 1; }
    const uint16_t *u = mdi_uni_dec_pool + at + 1;
    size_t units = mdi_uni_dec_pool[at], k = 0;
    for (size_t i = 0; i < units; i++) {
        uint32_t x = u[i];
        if (x >= 0xD800 && x <= 0xDBFF) { x = 0x10000 + ((x - 0xD800) << 10) + (u[i + 1] - 0xDC00); i++; }
        d[k++] = x;
    }
    return k;
}

/* The primary composite of (a, b), or 0. */
static uint32_t compose(uint32_t a, uint32_t b) {
    if (a >= LBASE && a < LBASE + LCOUNT && b >= VBASE && b < VBASE + VCOUNT)
        return SBASE + ((a - LBASE) * VCOUNT + (b - VBASE)) * TCOUNT;
    if (a >= SBASE && a < SBASE + SCOUNT && (a - SBASE) % TCOUNT == 0 && b > TBASE && b < TBASE + TCOUNT)
        return a + (b - TBASE);
    size_t lo = 0, hi = mdi_uni_n_comp;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t f = mdi_uni_comp_first[mid], s = mdi_uni_comp_second[mid];
        if (f < a || (f == a && s < b)) lo = mid + 1; else hi = mid;
    }
    if (lo < mdi_uni_n_comp && mdi_uni_comp_first[lo] == a && mdi_uni_comp_second[lo] == b)
        return mdi_uni_comp_result[lo];
    return 0;
}

bool mdi_is_nfc(const uint32_t *cps, size_t n) {
    unsigned last = 0;
    for (size_t i = 0; i < n; i++) {
        if (cps[i] < 0x300) { last = 0; continue; } /* NFC_QC Yes, class 0 */
        const mdi_uni_record *r = record(cps[i]);
        if ((r->flags & MDI_UNI_NFC_MAYBE) || (r->ccc && last > r->ccc)) return false;
        last = r->ccc;
    }
    return true;
}

md_status mdi_nfc(const uint32_t *in, size_t n, uint32_t **out, size_t *n_out) {
    *out = NULL;
    *n_out = 0;
    if (mdi_is_nfc(in, n)) {
        uint32_t *v = mdi_alloc_array(n, sizeof(uint32_t));
        if (!v) return MD_ERR_NOMEM;
        if (n) memcpy(v, in, n * sizeof(uint32_t));
        *out = v;
        *n_out = n;
        return MD_OK;
    }
    size_t max = mdi_uni_max_decomp < 3 ? 3 : mdi_uni_max_decomp;
    if (n > SIZE_MAX / max) return MD_ERR_RANGE;
    uint32_t *d = mdi_alloc_array(n * max, sizeof(uint32_t));
    if (!d) return MD_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (in[i] < 0xC0) { d[k++] = in[i]; continue; } /* nothing below U+00C0 decomposes */
        size_t start = k;
        k += decompose(in[i], d + k);
        /* Canonical ordering: insertion sort of each new mark into the run
         * of nonzero classes before it (stable, by class). */
        for (size_t j = start; j < k; j++) {
            unsigned cj = ccc(d[j]);
            if (cj == 0) continue;
            size_t m = j;
            uint32_t x = d[j];
            while (m > 0 && ccc(d[m - 1]) > cj) { d[m] = d[m - 1]; m--; }
            d[m] = x;
        }
    }
    /* Canonical composition (UAX #15). */
    if (k > 0) {
        size_t starter = 0, w = 1;
        uint32_t starter_ch = d[0];
        unsigned last = ccc(starter_ch) ? 256 : 0;
        for (size_t r = 1; r < k; r++) {
            uint32_t ch = d[r];
            unsigned cc = ccc(ch);
            uint32_t comp = (last < cc || last == 0) ? compose(starter_ch, ch) : 0;
            if (comp && (last < cc || last == 0)) {
                d[starter] = comp;
                starter_ch = comp;
            } else {
                if (cc == 0) { starter = w; starter_ch = ch; }
                last = cc;
                d[w++] = ch;
            }
        }
        k = w;
    }
    *out = d;
    *n_out = k;
    return MD_OK;
}

/* ---------------------------------------------------------------- lowercase */

static inline bool cased(uint32_t c) { return record(c)->flags & MDI_UNI_CASED; }
static inline bool ignorable(uint32_t c) { return record(c)->flags & MDI_UNI_IGNORABLE; }

/* ICU's context test (the one V8 uses): skip case-ignorable characters (a
 * character that is both counts as ignorable), then is the next one cased? */
static bool cased_before(const uint32_t *s, size_t i) {
    while (i > 0) {
        uint32_t c = s[--i];
        if (ignorable(c)) continue;
        return cased(c);
    }
    return false;
}

static bool cased_after(const uint32_t *s, size_t n, size_t i) {
    for (i++; i < n; i++) {
        uint32_t c = s[i];
        if (ignorable(c)) continue;
        return cased(c);
    }
    return false;
}

md_status mdi_to_lower(const uint32_t *in, size_t n, uint32_t **out, size_t *n_out) {
    *out = NULL;
    *n_out = 0;
    if (n > SIZE_MAX / 2) return MD_ERR_RANGE;
    uint32_t *v = mdi_alloc_array(2 * n, sizeof(uint32_t));
    if (!v) return MD_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = in[i];
        if (c < 0x80) { v[k++] = (c >= 'A' && c <= 'Z') ? c + 32 : c; continue; }
        if (c == 0x130) { v[k++] = 0x69; v[k++] = 0x307; continue; }
        if (c == 0x3A3) {
            v[k++] = (cased_before(in, i) && !cased_after(in, n, i)) ? 0x3C2 : 0x3C3;
            continue;
        }
        if (c >= 0x110000) { v[k++] = c; continue; }
        v[k++] = (uint32_t)((int32_t)c + mdi_uni_deltas[record(c)->delta]);
    }
    *out = v;
    *n_out = k;
    return MD_OK;
}

/* ---------------------------------------------------------------- bytes */

/* Decode the (valid) sequence at s[i]; returns its length. */
static inline size_t cp_at(const uint8_t *s, size_t i, uint32_t *cp) {
    uint8_t b = s[i];
    if (b < 0x80) { *cp = b; return 1; }
    if (b < 0xE0) { *cp = ((uint32_t)(b & 0x1F) << 6) | (s[i + 1] & 0x3F); return 2; }
    if (b < 0xF0) {
        *cp = ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
        return 3;
    }
    *cp = ((uint32_t)(b & 0x07) << 18) | ((uint32_t)(s[i + 1] & 0x3F) << 12) | ((uint32_t)(s[i + 2] & 0x3F) << 6) |
          (s[i + 3] & 0x3F);
    return 4;
}

static inline size_t put_cp(uint8_t *b, uint32_t c) {
    if (c < 0x80) { b[0] = (uint8_t)c; return 1; }
    if (c < 0x800) { b[0] = (uint8_t)(0xC0 | (c >> 6)); b[1] = (uint8_t)(0x80 | (c & 63)); return 2; }
    if (c < 0x10000) {
        b[0] = (uint8_t)(0xE0 | (c >> 12)); b[1] = (uint8_t)(0x80 | ((c >> 6) & 63)); b[2] = (uint8_t)(0x80 | (c & 63));
        return 3;
    }
    b[0] = (uint8_t)(0xF0 | (c >> 18)); b[1] = (uint8_t)(0x80 | ((c >> 12) & 63));
    b[2] = (uint8_t)(0x80 | ((c >> 6) & 63)); b[3] = (uint8_t)(0x80 | (c & 63));
    return 4;
}

bool mdi_utf8_valid(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t b = p[i];
        if (b < 0x80) { i++; continue; }
        size_t len;
        uint32_t c, min;
        if (b >= 0xC2 && b <= 0xDF) { len = 2; c = b & 0x1F; min = 0x80; }
        else if (b >= 0xE0 && b <= 0xEF) { len = 3; c = b & 0x0F; min = 0x800; }
        else if (b >= 0xF0 && b <= 0xF4) { len = 4; c = b & 0x07; min = 0x10000; }
        else return false;
        if (len > n - i) return false;
        for (size_t j = 1; j < len; j++) {
            if ((p[i + j] & 0xC0) != 0x80) return false;
            c = (c << 6) | (p[i + j] & 0x3F);
        }
        if (c < min || c > 0x10FFFF) return false;
        i += len;
    }
    return true;
}

bool mdi_is_nfc_utf8(const uint8_t *s, size_t n) {
    unsigned last = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] < 0xCC) { last = 0; i += s[i] < 0x80 ? 1 : 2; continue; } /* below U+0300 */
        uint32_t c;
        i += cp_at(s, i, &c);
        const mdi_uni_record *r = record(c);
        if ((r->flags & MDI_UNI_NFC_MAYBE) || (r->ccc && last > r->ccc)) return false;
        last = r->ccc;
    }
    return true;
}

/* The final-sigma context over bytes, as cased_before / cased_after. */
static bool cased_before_utf8(const uint8_t *s, size_t i) {
    while (i > 0) {
        size_t j = i - 1;
        while (j > 0 && (s[j] & 0xC0) == 0x80) j--;
        uint32_t c;
        cp_at(s, j, &c);
        i = j;
        if (ignorable(c)) continue;
        return cased(c);
    }
    return false;
}

static bool cased_after_utf8(const uint8_t *s, size_t n, size_t i) {
    while (i < n) {
        uint32_t c;
        i += cp_at(s, i, &c);
        if (ignorable(c)) continue;
        return cased(c);
    }
    return false;
}

size_t mdi_lower_utf8(const uint8_t *s, size_t n, uint8_t *out) {
    const uint64_t ones = 0x0101010101010101ull, high = ones * 0x80;
    size_t k = 0;
    MDI_AS_WRITTEN
    for (size_t i = 0; i < n;) {
        if (i + 8 <= n) { /* eight ASCII bytes at a time: 0x20 added to each of A..Z */
            uint64_t x;
            memcpy(&x, s + i, 8);
            if (!(x & high)) {
                uint64_t upper = (x + ones * (0x80 - 'A')) & ~(x + ones * (0x80 - 'Z' - 1)) & high;
                x |= upper >> 2;
                memcpy(out + k, &x, 8);
                i += 8;
                k += 8;
                continue;
            }
        }
        uint8_t b = s[i];
        if (b < 0x80) { out[k++] = (b >= 'A' && b <= 'Z') ? (uint8_t)(b + 32) : b; i++; continue; }
        uint32_t c;
        size_t len = cp_at(s, i, &c);
        if (c == 0x130) { out[k++] = 0x69; out[k++] = 0xCC; out[k++] = 0x87; }
        else if (c == 0x3A3) k += put_cp(out + k, (cased_before_utf8(s, i) && !cased_after_utf8(s, n, i + len)) ? 0x3C2 : 0x3C3);
        else k += put_cp(out + k, (uint32_t)((int32_t)c + mdi_uni_deltas[record(c)->delta]));
        i += len;
    }
    return k;
}

/* ---------------------------------------------------------------- public */

typedef md_status (*cp_transform)(const uint32_t *, size_t, uint32_t **, size_t *);

static md_status transform(md_str s, md_text *out, cp_transform f) {
    if (!out) return MD_ERR_NULL;
    out->ptr = NULL;
    out->len = 0;
    uint32_t *cps = NULL, *res = NULL;
    size_t n = 0, m = 0;
    md_status st = mdi_utf8_decode(s, &cps, &n);
    if (st == MD_OK) st = f(cps, n, &res, &m);
    if (st == MD_OK) st = mdi_utf8_encode(res, m, out);
    free(cps);
    free(res);
    return st;
}

md_status md_nfc(md_str s, md_text *out) { return transform(s, out, mdi_nfc); }
md_status md_to_lower(md_str s, md_text *out) {
    if (!out) return MD_ERR_NULL;
    out->ptr = NULL;
    out->len = 0;
    if (MDI_BAD_IN(s.ptr, s.len)) return MD_ERR_NULL;
    if (!mdi_utf8_valid((const uint8_t *)s.ptr, s.len)) return MD_ERR_INVALID;
    if (s.len > (SIZE_MAX - 4) / 2) return MD_ERR_RANGE;
    uint8_t *b = malloc(s.len + s.len / 2 + 4);
    if (!b) return MD_ERR_NOMEM;
    out->ptr = (char *)b;
    out->len = mdi_lower_utf8((const uint8_t *)s.ptr, s.len, b);
    return MD_OK;
}

size_t mdi_token_fold_utf8(const uint8_t *s, size_t n, bool check_nfc, uint8_t *out) {
    unsigned last = 0;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        uint8_t b = s[i];
        if (b < 0x80) {
            out[k++] = (b >= 'A' && b <= 'Z') ? (uint8_t)(b + 32) : b;
            last = 0;
            i++;
            continue;
        }
        size_t len;
        uint32_t c, min;
        if (b >= 0xC2 && b <= 0xDF) { len = 2; c = b & 0x1F; min = 0x80; }
        else if (b >= 0xE0 && b <= 0xEF) { len = 3; c = b & 0x0F; min = 0x800; }
        else if (b >= 0xF0 && b <= 0xF4) { len = 4; c = b & 0x07; min = 0x10000; }
        else return MDI_FOLD_MALFORMED;
        if (len > n - i) return MDI_FOLD_MALFORMED;
        for (size_t j = 1; j < len; j++) {
            if ((s[i + j] & 0xC0) != 0x80) return MDI_FOLD_MALFORMED;
            c = (c << 6) | (s[i + j] & 0x3F);
        }
        if (c < min || c > 0x10FFFF) return MDI_FOLD_MALFORMED;
        const mdi_uni_record *r = record(c);
        if (check_nfc && ((r->flags & MDI_UNI_NFC_MAYBE) || (r->ccc && last > r->ccc))) return MDI_FOLD_NOT_NFC;
        last = r->ccc;
        /* toLowerCase as mdi_lower_utf8 does it, keeping only what is ASCII:
         * U+0130 lowers to i + U+0307; every other character to one code
         * point (final sigma's choice is between two non-ASCII ones). */
        if (c == 0x130) { out[k++] = 'i'; out[k++] = 0x80; }
        else {
            int32_t l = (int32_t)c + mdi_uni_deltas[r->delta];
            out[k++] = l < 0x80 ? (uint8_t)l : 0x80;
        }
        i += len;
    }
    return k;
}

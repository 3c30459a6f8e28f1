/* frame module: frameKeyOf without a regex engine.
 *
 * The reference collapses \s runs to one space, trims, and matches
 * ^(.*\b(?:of|is|in|to|by|as)\b)\s+(.+?)\.?$ . After the collapse every \s
 * run is one space and nothing is a line terminator, so the match is: the
 * LAST linking token preceded by the start or an ASCII non-word character
 * and followed by a space (greedy .*; a value always follows because the
 * string is trimmed); the value is the rest, less one final "." when
 * something remains before it (lazy .+? then \.?$). Works on the bytes:
 * every byte of a non-ASCII character is a non-word character to \b. */
#include "unicode.h"

#include <stdlib.h>
#include <string.h>

static bool linking_token(uint8_t a, uint8_t b) {
    switch (a) {
    case 'o': return b == 'f';
    case 'i': return b == 's' || b == 'n';
    case 't': return b == 'o';
    case 'b': return b == 'y';
    case 'a': return b == 's';
    default: return false;
    }
}

/* The byte length of the JavaScript whitespace character at s[i], or 0. */
static size_t space_at(const uint8_t *s, size_t n, size_t i) {
    uint8_t b = s[i];
    if (b < 0x80) return (b == ' ' || (b >= 0x09 && b <= 0x0D)) ? 1 : 0;
    if (b == 0xC2) return i + 1 < n && s[i + 1] == 0xA0 ? 2 : 0;
    if (b < 0xE1 || b > 0xEF || i + 2 >= n) return 0;
    uint32_t c = ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
    return mdi_is_js_space(c) ? 3 : 0;
}

#define ONES 0x0101010101010101ull
#define LOW7 (ONES * 0x7F)

/* The 8 bytes at p with p[0] in the low byte, whatever the host's byte order
 * (where a flag's bit position must name its byte). */
static inline uint64_t load_le64(const uint8_t *p) {
    uint64_t x;
    memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    return x;
}

/* 0x80 in each byte of x that is zero (exact: no carry crosses a byte). */
static inline uint64_t zero_bytes(uint64_t x) { return ~(((x & LOW7) + LOW7) | x | LOW7); }

/* Whether the \s+ collapse would change s[0..n) beyond dropping one space at
 * either end (a tab or line break, two spaces in a row, a non-ASCII space):
 * 1, 0, or -1 when s is not valid UTF-8. Eight bytes at a time; only text
 * with a non-ASCII byte is validated and searched for non-ASCII spaces. */
static int needs_collapse(const uint8_t *s, size_t n) {
    uint64_t bad = 0, lead = 0, x;
    size_t i = 0, first = n; /* first: where the non-ASCII bytes start (word-aligned) */
    MDI_AS_WRITTEN
    for (; i + 8 <= n; i += 8) {
        memcpy(&x, s + i, 8);
        uint64_t sp = zero_bytes(x ^ (ONES * ' ')), lo = x & LOW7;
        /* ASCII bytes in [0x09, 0x0E): at least 0x09, not at least 0x0E. */
        bad |= (lo + ONES * (0x80 - 0x09)) & ~(lo + ONES * (0x80 - 0x0E)) & ~x & (ONES * 0x80);
        bad |= (sp & (sp >> 8)) | (i && s[i - 1] == ' ' && s[i] == ' ');
        if (x & (ONES * 0x80)) {
            if (first == n) first = i;
            /* Bytes that may lead a non-ASCII space: C2, E0..E3 (E1..E3 lead some), EF. */
            lead |= zero_bytes(x ^ (ONES * 0xC2)) | zero_bytes((x & (ONES * 0xFC)) ^ (ONES * 0xE0)) |
                    zero_bytes(x ^ (ONES * 0xEF));
        }
    }
    MDI_AS_WRITTEN
    for (; i < n; i++) {
        unsigned b = s[i];
        bad |= (b - 0x09u < 5u) | (i && s[i - 1] == ' ' && b == ' ');
        if (b >= 0x80 && first == n) first = i;
        lead |= b == 0xC2 || (b & 0xFC) == 0xE0 || b == 0xEF;
    }
    if (first == n) return bad != 0;
    if (!mdi_utf8_valid(s + first, n - first)) return -1;
    if (bad) return 1;
    if (!lead) return 0; /* no byte that could start a non-ASCII space */
    for (i = first; i < n; i++) { /* the lead bytes of the non-ASCII spaces */
        unsigned b = s[i];
        if ((b == 0xC2 || b - 0xE1u < 3u || b == 0xEF) && space_at(s, n, i)) return 1;
    }
    return 0;
}

/* Each \s run of s[0..n) as one space, none leading, into w; returns the
 * length. For the few claims needs_collapse flags: built for size. */
MDI_SMALL __attribute__((noinline)) static size_t collapse_into(const uint8_t *s, size_t n, uint8_t *w) {
    size_t m = 0;
    for (size_t i = 0; i < n;) {
        size_t sp = space_at(s, n, i);
        if (sp) {
            if (m > 0 && w[m - 1] != ' ') w[m++] = ' ';
            i += sp;
        } else {
            w[m++] = s[i++];
        }
    }
    return m;
}

/* The frame key of s[0..n) into work, which must hold mdi_frame_work_size(n)
 * bytes: the key is work[0..*len) when *found. False when s is not valid
 * UTF-8. */
bool mdi_frame_key_into(const uint8_t *s, size_t n, uint8_t *work, size_t *len, bool *found) {
    *len = 0;
    *found = false;
    const uint8_t *c = s;
    size_t m = n;
    int collapse = needs_collapse(s, n);
    if (collapse < 0) return false;
    if (collapse) {
        m = collapse_into(s, n, work);
        c = work;
    } else if (m && c[0] == ' ') { /* at most one space at each end */
        c++;
        m--;
    }
    if (m > 0 && c[m - 1] == ' ') m--;

    /* The last token position p: c[p..p+2) links, c[p+2] is the space. The
     * value's tokens are the spaces after p + 2, plus one: past five such
     * spaces no earlier token can qualify either. */
    size_t p = SIZE_MAX, after = 0;
    /* The spaces c[q] (q from m - 1 down to 2), eight bytes at a time: each
     * word's spaces from its highest address down. */
    size_t q = m; /* the positions below q are left */
    MDI_AS_WRITTEN
    while (p == SIZE_MAX && q > 2) {
        uint64_t x, sp;
        size_t base;
        if (q >= 10) {
            base = q - 8;
            x = load_le64(c + base);
            sp = zero_bytes(x ^ (ONES * ' '));
        } else {
            base = 2;
            sp = 0;
            MDI_AS_WRITTEN
            for (size_t j = 2; j < q; j++) sp |= (uint64_t)(c[j] == ' ') << (8 * (j - 2) + 7);
        }
        q = base;
        while (sp) {
            size_t i = base + (size_t)(63 - __builtin_clzll(sp)) / 8 - 2; /* c[i + 2] is the space */
            sp &= ~(0x80ull << (8 * (i + 2 - base)));
            if (linking_token(c[i], c[i + 1]) && (i == 0 || !mdi_is_ascii_word(c[i - 1]))) {
                p = i;
                break;
            }
            if (++after > 5) return true;
        }
    }
    if (p == SIZE_MAX) return true;
    /* The frame needs three tokens: two spaces before p + 2. */
    const uint8_t *sp = memchr(c, ' ', p);
    if (!sp || !memchr(sp + 1, ' ', p - (size_t)(sp + 1 - c))) return true;
    /* The key goes to work[0..): past the collapsed text when that is there. */
    uint8_t *key = c == work ? work + n : work;
    size_t k = mdi_lower_utf8(c, p + 2, key);
    if (key != work) memmove(work, key, k);
    *len = k;
    *found = true;
    return true;
}

MDI_SMALL md_status md_frame_key_of(md_str gist, md_text *out, bool *found) {
    if (!out || !found) return MD_ERR_NULL;
    out->ptr = NULL;
    out->len = 0;
    *found = false;
    if (MDI_BAD_IN(gist.ptr, gist.len)) return MD_ERR_NULL;
    const uint8_t *s = (const uint8_t *)gist.ptr;
    size_t n = gist.len;
    if (!mdi_utf8_valid(s, n)) return MD_ERR_INVALID;
    if (n > (SIZE_MAX - 8) / 3) return MD_ERR_RANGE;
    /* One block: the collapsed text, then room for its lowercased frame. */
    uint8_t *c = malloc(mdi_frame_work_size(n));
    if (!c) return MD_ERR_NOMEM;
    size_t len;
    (void)mdi_frame_key_into(s, n, c, &len, found); /* s is valid */
    out->ptr = (char *)c;
    out->len = len;
    return MD_OK;
}

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

/* The frame key of s[0..n) (valid UTF-8) into work, which must hold
 * mdi_frame_work_size(n) bytes: the key is work[0..*len) when *found. */
void mdi_frame_key_into(const uint8_t *s, size_t n, uint8_t *c, size_t *len, bool *found) {
    *len = 0;
    *found = false;
    size_t m = 0;
    for (size_t i = 0; i < n;) {
        size_t w = space_at(s, n, i);
        if (w) {
            if (m > 0 && c[m - 1] != ' ') c[m++] = ' ';
            i += w;
        } else {
            c[m++] = s[i++];
        }
    }
    if (m > 0 && c[m - 1] == ' ') m--;

    /* The last token position p: c[p..p+2) links, c[p+2] is the space. */
    size_t p = SIZE_MAX;
    for (size_t i = m >= 3 ? m - 2 : 0; i-- > 0;) {
        if (c[i + 2] == ' ' && linking_token(c[i], c[i + 1]) && (i == 0 || !mdi_is_ascii_word(c[i - 1]))) {
            p = i;
            break;
        }
    }
    if (p == SIZE_MAX) return;
    size_t frame_len = p + 2, v0 = p + 3, v1 = m;
    if (v1 - v0 >= 2 && c[v1 - 1] == '.') v1--;
    size_t frame_tokens = 1, value_tokens = 1;
    for (size_t i = 0; i < frame_len; i++) frame_tokens += c[i] == ' ';
    for (size_t i = v0; i < v1; i++) value_tokens += c[i] == ' ';
    if (frame_tokens < 3 || value_tokens > 6) return;
    uint8_t *key = c + n;
    size_t k = mdi_lower_utf8(c, frame_len, key);
    memmove(c, key, k);
    *len = k;
    *found = true;
}

md_status md_frame_key_of(md_str gist, md_text *out, bool *found) {
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
    mdi_frame_key_into(s, n, c, &len, found);
    out->ptr = (char *)c;
    out->len = len;
    return MD_OK;
}

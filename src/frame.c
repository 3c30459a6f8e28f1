/* frame module: frameKeyOf without a regex engine.
 *
 * The reference collapses \s runs to one space, trims, and matches
 * ^(.*\b(?:of|is|in|to|by|as)\b)\s+(.+?)\.?$ . After the collapse every \s
 * run is one space and nothing is a line terminator, so the match is: the
 * LAST linking token preceded by the start or an ASCII non-word character
 * and followed by a space (greedy .*; a value always follows because the
 * string is trimmed); the value is the rest, less one final "." when
 * something remains before it (lazy .+? then \.?$). */
#include "unicode.h"

#include <stdlib.h>

static bool linking_token(uint32_t a, uint32_t b) {
    switch (a) {
    case 'o': return b == 'f';
    case 'i': return b == 's' || b == 'n';
    case 't': return b == 'o';
    case 'b': return b == 'y';
    case 'a': return b == 's';
    default: return false;
    }
}

md_status md_frame_key_of(md_str gist, md_text *out, bool *found) {
    if (!out || !found) return MD_ERR_NULL;
    out->ptr = NULL;
    out->len = 0;
    *found = false;
    uint32_t *cps = NULL, *lower = NULL;
    size_t n = 0, n_lower = 0;
    md_status st = mdi_utf8_decode(gist, &cps, &n);
    if (st != MD_OK) return st;

    /* Collapse whitespace runs to one space and trim, in place. */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (mdi_is_js_space(cps[i])) {
            if (m > 0 && cps[m - 1] != ' ') cps[m++] = ' ';
        } else {
            cps[m++] = cps[i];
        }
    }
    if (m > 0 && cps[m - 1] == ' ') m--;

    /* The last token position p: s[p..p+2) links, s[p+2] is the space. */
    size_t p = SIZE_MAX;
    for (size_t i = m >= 3 ? m - 3 + 1 : 0; i-- > 0;) {
        if (cps[i + 2] == ' ' && linking_token(cps[i], cps[i + 1]) &&
            (i == 0 || !mdi_is_ascii_word(cps[i - 1]))) {
            p = i;
            break;
        }
    }
    if (p != SIZE_MAX) {
        size_t frame_len = p + 2, v0 = p + 3, v1 = m;
        if (v1 - v0 >= 2 && cps[v1 - 1] == '.') v1--;
        size_t frame_tokens = 1, value_tokens = 1;
        for (size_t i = 0; i < frame_len; i++) frame_tokens += cps[i] == ' ';
        for (size_t i = v0; i < v1; i++) value_tokens += cps[i] == ' ';
        if (frame_tokens >= 3 && value_tokens <= 6) {
            st = mdi_to_lower(cps, frame_len, &lower, &n_lower);
            if (st == MD_OK) st = mdi_utf8_encode(lower, n_lower, out);
            if (st == MD_OK) *found = true;
        }
    }
    if (st == MD_OK && !*found) {
        out->ptr = malloc(1);
        if (!out->ptr) st = MD_ERR_NOMEM;
    }
    free(cps);
    free(lower);
    return st;
}

/* C tests of the text module: NFC and toLowerCase on the cases that make
 * them hard (U+0130, U+212A, final sigma, Hangul, canonical reordering,
 * composition exclusions), WTF-8 input, malformed input, and properties
 * (NFC idempotent, random bytes never read out of bounds). The exhaustive
 * comparison with JavaScript is tests/js/unicode.test.js. */
#include "check.h"
#include "internal.h"

#include <stdlib.h>

#define S(lit) ((md_str){lit, sizeof(lit) - 1})

static int text_is(md_status (*f)(md_str, md_text *), md_str in, const char *want, size_t want_len) {
    md_text t;
    if (f(in, &t) != MD_OK) return 0;
    int ok = t.len == want_len && (want_len == 0 || memcmp(t.ptr, want, want_len) == 0);
    if (!ok) {
        fprintf(stderr, "  got:");
        for (size_t i = 0; i < t.len; i++) fprintf(stderr, " %02x", (unsigned char)t.ptr[i]);
        fprintf(stderr, "\n");
    }
    md_text_free(&t);
    return ok;
}
#define LOWER_IS(in, want) CHECK(text_is(md_to_lower, S(in), want, sizeof(want) - 1))
#define NFC_IS(in, want) CHECK(text_is(md_nfc, S(in), want, sizeof(want) - 1))

static void test_lower(void) {
    LOWER_IS("ABC xyz 09", "abc xyz 09");
    LOWER_IS("\xC4\xB0", "i\xCC\x87");                 /* U+0130 -> i + U+0307 */
    LOWER_IS("\xE2\x84\xAA", "k");                      /* U+212A KELVIN SIGN */
    LOWER_IS("\xCE\xA3", "\xCF\x83");                   /* lone capital sigma: sigma */
    LOWER_IS("\xCE\x9F\xCE\xA3", "\xCE\xBF\xCF\x82");   /* word-final: final sigma */
    LOWER_IS("\xCE\x9F\xCE\xA3\xCE\x91", "\xCE\xBF\xCF\x83\xCE\xB1");
    LOWER_IS("A\xCE\xA3\xC2\xAD", "a\xCF\x82\xC2\xAD"); /* soft hyphen is case-ignorable */
    LOWER_IS("A\xCE\xA3\xC2\xAD" "B", "a\xCF\x83\xC2\xAD" "b");
    LOWER_IS("\xCD\x85\xCE\xA3", "\xCD\x85\xCF\x83");   /* U+0345: ignorable wins, as in ICU */
    LOWER_IS("A\xCE\xA3\xED\xA0\x80", "a\xCF\x82\xED\xA0\x80"); /* a lone surrogate ends the word */
    LOWER_IS("\xED\xA0\x80\xED\xB0\x80", "\xED\xA0\x80\xED\xB0\x80");
    LOWER_IS("\xF0\x90\x90\x80", "\xF0\x90\x90\xA8");   /* U+10400 DESERET -> U+10428 */
    LOWER_IS("\xEF\xBC\xAE", "\xEF\xBD\x8E");           /* fullwidth N -> fullwidth n */
    LOWER_IS("", "");
    /* Unicode 17.0 (issue 12): U+0295 is no longer Cased (Lo since 16.0), so
     * the sigma before it is final; U+1171E is no longer Case_Ignorable (Mc),
     * so a sigma after it is not; U+1C89 (new in 16.0) lowercases to U+1C8A. */
    LOWER_IS("A\xCE\xA3\xCA\x95", "a\xCF\x82\xCA\x95");
    LOWER_IS("A\xF0\x91\x9C\x9E\xCE\xA3", "a\xF0\x91\x9C\x9E\xCF\x83");
    LOWER_IS("\xE1\xB2\x89", "\xE1\xB2\x8A");
}

static void test_nfc(void) {
    NFC_IS("cafe\xCC\x81", "caf\xC3\xA9");
    NFC_IS("\xE2\x84\xAB", "\xC3\x85");                  /* U+212B ANGSTROM -> U+00C5 */
    NFC_IS("\xE2\x84\xAA", "K");                         /* U+212A -> K (singleton) */
    NFC_IS("\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8", "\xEA\xB0\x81"); /* L V T -> U+AC01 */
    NFC_IS("\xEA\xB0\x80\xE1\x86\xA8", "\xEA\xB0\x81");  /* LV + T */
    NFC_IS("\xE0\xA5\x98", "\xE0\xA4\x95\xE0\xA4\xBC");  /* U+0958 is excluded from composition */
    NFC_IS("\xCD\x84", "\xCC\x88\xCC\x81");              /* U+0344 -> U+0308 U+0301 */
    NFC_IS("a\xCC\x87\xCC\xA3", "\xE1\xBA\xA1\xCC\x87"); /* reorder dot below first, then compose */
    NFC_IS("\xC4\xB0\xCC\xA3", "\xE1\xBB\x8A\xCC\x87");  /* U+0130 + U+0323 -> U+1ECA U+0307 */
    NFC_IS("\xCC\x81" "e", "\xCC\x81" "e");              /* a leading mark composes with nothing */
    NFC_IS("\xED\xA0\x80\xCC\x81", "\xED\xA0\x80\xCC\x81");
    NFC_IS("", "");
}

static void test_invalid(void) {
    md_text t;
    const char *bad[] = {"\xC0\x80", "\xC1\xBF", "\xE0\x80\x80", "\xF5\x80\x80\x80", "\xF8\x88\x80\x80\x80",
                         "\xE2\x82", "\x80", "\xF4\x90\x80\x80", "a\xFF"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        md_str s = {bad[i], strlen(bad[i])};
        CHECK(md_nfc(s, &t) == MD_ERR_INVALID && t.ptr == NULL);
        CHECK(md_to_lower(s, &t) == MD_ERR_INVALID && t.ptr == NULL);
    }
    CHECK(md_nfc((md_str){NULL, 3}, &t) == MD_ERR_NULL);
    CHECK(md_nfc(S("x"), NULL) == MD_ERR_NULL);
    CHECK(md_to_lower((md_str){NULL, 0}, &t) == MD_OK && t.len == 0);
    md_text_free(&t);
    md_text_free(NULL);
    CHECK(strcmp(md_unicode_version(), "17.0.0") == 0);
}

static size_t put_cp(char *b, uint32_t c) {
    if (c < 0x80) { b[0] = (char)c; return 1; }
    if (c < 0x800) { b[0] = (char)(0xC0 | (c >> 6)); b[1] = (char)(0x80 | (c & 63)); return 2; }
    if (c < 0x10000) {
        b[0] = (char)(0xE0 | (c >> 12)); b[1] = (char)(0x80 | ((c >> 6) & 63)); b[2] = (char)(0x80 | (c & 63));
        return 3;
    }
    b[0] = (char)(0xF0 | (c >> 18)); b[1] = (char)(0x80 | ((c >> 12) & 63));
    b[2] = (char)(0x80 | ((c >> 6) & 63)); b[3] = (char)(0x80 | (c & 63));
    return 4;
}

static void test_properties(void) {
    check_rng r = {42};
    static const uint32_t pool[] = {'A', 'e', 0x301, 0x323, 0x307, 0x130, 0x3A3, 0x391, 0x345, 0x1100, 0x1161,
                                    0x11A8, 0xAC00, 0x212A, 0x212B, 0x958, 0x93C, 0x1E0A, 0xD800, 0x1D15E, ' '};
    char buf[128];
    for (int it = 0; it < check_iters(20000); it++) {
        size_t n = 0, len = rng_below(&r, 12);
        for (size_t i = 0; i < len; i++) n += put_cp(buf + n, pool[rng_below(&r, sizeof pool / sizeof pool[0])]);
        md_text a, b;
        md_str s = {buf, n};
        CHECK(md_nfc(s, &a) == MD_OK);
        md_str sa = {a.ptr, a.len};
        CHECK(md_nfc(sa, &b) == MD_OK);
        CHECK(a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0); /* NFC is idempotent */
        md_text_free(&a);
        md_text_free(&b);
        CHECK(md_to_lower(s, &a) == MD_OK);
        md_text_free(&a);
    }
    /* Arbitrary bytes: a status, never an out-of-bounds read (ASan watches). */
    for (int it = 0; it < check_iters(20000); it++) {
        size_t n = rng_below(&r, 16);
        char *p = malloc(n ? n : 1);
        for (size_t i = 0; i < n; i++) p[i] = (char)(rng_below(&r, 4) ? 0x80 + rng_below(&r, 0x80) : rng_below(&r, 0x100));
        md_text t;
        md_status st = md_nfc((md_str){p, n}, &t);
        CHECK(st == MD_OK || st == MD_ERR_INVALID);
        md_text_free(&t);
        st = md_to_lower((md_str){p, n}, &t);
        CHECK(st == MD_OK || st == MD_ERR_INVALID);
        md_text_free(&t);
        free(p);
    }
}

int main(void) {
    test_lower();
    test_nfc();
    test_invalid();
    test_properties();
    return check_report("test_unicode");
}

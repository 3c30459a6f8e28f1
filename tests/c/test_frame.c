/* C tests of frameKeyOf: the design's cases, the rule's edges, whitespace
 * insensitivity as a property, malformed input. The agreement with the
 * reference regex on random claims is tests/js/frame.test.js. */
#include "check.h"
#include "internal.h"

#include <stdlib.h>

#define S(lit) ((md_str){lit, sizeof(lit) - 1})

static int key_is(md_str in, const char *want) {
    md_text t;
    bool found;
    if (md_frame_key_of(in, &t, &found) != MD_OK) return 0;
    int ok = want ? (found && t.len == strlen(want) && memcmp(t.ptr, want, t.len) == 0) : (!found && t.len == 0);
    if (!ok) fprintf(stderr, "  got %s \"%.*s\"\n", found ? "key" : "null", (int)t.len, t.ptr ? t.ptr : "");
    md_text_free(&t);
    return ok;
}
#define KEY_IS(in, want) CHECK(key_is(S(in), want))

static void test_cases(void) {
    KEY_IS("The capital of India is New Delhi", "the capital of india is");
    KEY_IS("The capital of India is New Delhi.", "the capital of india is");
    KEY_IS("the capital of India is  Grosseto", "the capital of india is");
    KEY_IS("Water is wet", NULL);
    KEY_IS("", NULL);
    KEY_IS(" ", NULL);
    KEY_IS("of is in", NULL);
    KEY_IS("The capital of India IS New Delhi", "the capital of");
    KEY_IS("a b is 1 2 3 4 5 6", "a b is");
    KEY_IS("a b is 1 2 3 4 5 6 7", NULL); /* the last token leaves seven value tokens: no fallback */
    KEY_IS("a b is x.", "a b is");
    KEY_IS("a b is .", "a b is");        /* the value keeps a lone "." */
    KEY_IS("a b is x..", "a b is");
    KEY_IS("a b cis d", NULL);           /* "cis" is not a token */
    KEY_IS("a b \xC3\xA9is d", "a b \xC3\xA9is"); /* but "éis" is: é is not an ASCII word char */
    KEY_IS("a b is_ d", NULL);
    KEY_IS("a b is\xE3\x80\x80" "d", "a b is");   /* U+3000 is \s */
    KEY_IS("a b is\xE2\x80\x8B" "d e", NULL);     /* U+200B is not */
    KEY_IS("\xE2\x80\xA8 a\tb\r\nof\xC2\xA0x \xEF\xBB\xBF", "a b of");
    KEY_IS("\xC4\xB0\xC4\xB0 currency as French", "i\xCC\x87i\xCC\x87 currency as");
    KEY_IS("\xCE\xA3\xCE\x9F\xCE\xA6\xCE\x99\xCE\x91 \xCE\xA4\xCE\x9F\xCE\xA5 wife in is",
           "\xCF\x83\xCE\xBF\xCF\x86\xCE\xB9\xCE\xB1 \xCF\x84\xCE\xBF\xCF\x85 wife in");
    KEY_IS("x \xED\xA0\x80 is v", "x \xED\xA0\x80 is"); /* a lone surrogate passes through */
}

static void test_invalid(void) {
    md_text t;
    bool found;
    CHECK(md_frame_key_of(S("a b is \xFF"), &t, &found) == MD_ERR_INVALID);
    CHECK(md_frame_key_of((md_str){NULL, 2}, &t, &found) == MD_ERR_NULL);
    CHECK(md_frame_key_of(S("x"), NULL, &found) == MD_ERR_NULL);
    CHECK(md_frame_key_of(S("x"), &t, NULL) == MD_ERR_NULL);
    CHECK(md_frame_key_of((md_str){NULL, 0}, &t, &found) == MD_OK && !found);
    md_text_free(&t);
}

/* Replacing any single space with a run of other \s characters, or adding
 * whitespace at either end, never changes the key. */
static void test_whitespace_property(void) {
    static const char *const words[] = {"of", "is", "in", "to", "by", "as", "IS", "x", "The", "capital", "\xC3\xA9",
                                        "of.", ".", "\xCE\xA3", "city"};
    static const char *const spaces[] = {"\t", "\n", "\r\n", "\xC2\xA0", "\xE3\x80\x80", "\xE2\x80\xA8", "  ",
                                         "\xEF\xBB\xBF", "\x0B\x0C"};
    check_rng r = {7};
    char a[256], b[512];
    for (int it = 0; it < check_iters(20000); it++) {
        size_t na = 0, nb = 0, n = 1 + rng_below(&r, 9);
        for (size_t i = 0; i < n; i++) {
            const char *w = words[rng_below(&r, sizeof words / sizeof words[0])];
            if (i) {
                a[na++] = ' ';
                const char *s = rng_below(&r, 2) ? " " : spaces[rng_below(&r, sizeof spaces / sizeof spaces[0])];
                memcpy(b + nb, s, strlen(s));
                nb += strlen(s);
            }
            memcpy(a + na, w, strlen(w)); na += strlen(w);
            memcpy(b + nb, w, strlen(w)); nb += strlen(w);
        }
        if (rng_below(&r, 2)) { memcpy(b + nb, "\xE2\x80\xA9", 3); nb += 3; }
        md_text ta, tb;
        bool fa, fb;
        CHECK(md_frame_key_of((md_str){a, na}, &ta, &fa) == MD_OK);
        CHECK(md_frame_key_of((md_str){b, nb}, &tb, &fb) == MD_OK);
        CHECK(fa == fb && ta.len == tb.len && memcmp(ta.ptr, tb.ptr, ta.len) == 0);
        md_text_free(&ta);
        md_text_free(&tb);
    }
}

int main(void) {
    test_cases();
    test_invalid();
    test_whitespace_property();
    return check_report("test_frame");
}

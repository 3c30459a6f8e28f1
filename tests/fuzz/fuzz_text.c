/* NFC and toLowerCase on arbitrary bytes (invalid UTF-8 included): a status
 * and never an out-of-bounds read; valid input gives valid WTF-8 out; NFC is
 * idempotent; the wasm boundary answers exactly as the C API. */
#include <stdlib.h>

#include "boundary.h"
#include "unicode.h"
#include "fuzz_input.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

int mdw_nfc(const char *s, size_t len, size_t *out);
int mdw_to_lower(const char *s, size_t len, size_t *out);

static void check(md_status (*f)(md_str, md_text *), int (*w)(const char *, size_t, size_t *), md_str s, int idem) {
    md_text t;
    md_status st = f(s, &t);
    REQUIRE(st == MD_OK || st == MD_ERR_INVALID);
    size_t out[4] = {0};
    int wst = w(s.ptr, s.len, out);
    REQUIRE(wst == (int)st);
    if (st != MD_OK) { REQUIRE(t.ptr == NULL); return; }
    REQUIRE(out[1] == t.len && memcmp((void *)out[0], t.ptr, t.len) == 0);
    free((void *)out[0]);
    md_text again;
    md_str ts = {t.ptr, t.len};
    REQUIRE(f(ts, &again) == MD_OK); /* the output is valid WTF-8 */
    if (idem) REQUIRE(again.len == t.len && memcmp(again.ptr, t.ptr, t.len) == 0);
    md_text_free(&again);
    md_text_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    md_str s = {(const char *)data, size};
    check(md_nfc, mdw_nfc, s, 1);
    check(md_to_lower, mdw_to_lower, s, 0);
    /* the byte-level lowercasing equals the code point one */
    uint32_t *cps = NULL, *low = NULL;
    size_t n = 0, m = 0;
    if (mdi_utf8_decode(s, &cps, &n) == MD_OK) {
        md_text a, b;
        REQUIRE(mdi_to_lower(cps, n, &low, &m) == MD_OK && mdi_utf8_encode(low, m, &a) == MD_OK);
        REQUIRE(md_to_lower(s, &b) == MD_OK && a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0);
        REQUIRE(mdi_is_nfc(cps, n) == mdi_is_nfc_utf8(data, size));
        md_text_free(&a);
        md_text_free(&b);
    }
    free(cps);
    free(low);
    return 0;
}

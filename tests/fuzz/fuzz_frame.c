/* frameKeyOf on arbitrary bytes: a status, never an out-of-bounds read; a
 * key holds at least three tokens and ends in a linking token;
 * the wasm boundary answers exactly as the C API. */
#include <stdlib.h>

#include "boundary.h"
#include "fuzz_input.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

int mdw_frame_key_of(const char *s, size_t len, size_t *out);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    md_str s = {(const char *)data, size};
    md_text t;
    bool found = true;
    md_status st = md_frame_key_of(s, &t, &found);
    REQUIRE(st == MD_OK || st == MD_ERR_INVALID);
    size_t out[4] = {0};
    REQUIRE(mdw_frame_key_of(s.ptr, s.len, out) == (int)st);
    if (st != MD_OK) return 0;
    REQUIRE(out[2] == found && out[1] == t.len && memcmp((void *)out[0], t.ptr, t.len) == 0);
    free((void *)out[0]);
    if (found) {
        size_t spaces = 0;
        for (size_t i = 0; i < t.len; i++) spaces += t.ptr[i] == ' ';
        REQUIRE(spaces >= 2 && t.len >= 6 && t.ptr[0] != ' ');
        /* the last two bytes are the linking token (the byte before it may
         * be anything: U+212A, a non-word character, lowercases to "k") */
        static const char *const tokens[] = {"of", "is", "in", "to", "by", "as"};
        int ok = 0;
        for (int i = 0; i < 6; i++) ok |= memcmp(t.ptr + t.len - 2, tokens[i], 2) == 0;
        REQUIRE(ok && t.ptr[t.len - 1] != ' ');
    } else {
        REQUIRE(t.len == 0);
    }
    md_text_free(&t);
    return 0;
}

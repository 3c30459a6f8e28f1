/* frameKeyOf on arbitrary bytes: a status, never an out-of-bounds read; a
 * key holds at least three tokens and ends in a linking token;
 * the wasm boundary answers exactly as the C API, the batch form
 * (mdw_frame_keys_of, which validates inside the frame scan) included. */
#include <stdlib.h>

#include "boundary.h"
#include "fuzz_input.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

int mdw_frame_key_of(const char *s, size_t len, size_t *out);
int mdw_frame_keys_of(const uint8_t *bytes, const uint32_t *offsets, size_t n, size_t *out);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    md_str s = {(const char *)data, size};
    md_text t;
    bool found = true;
    md_status st = md_frame_key_of(s, &t, &found);
    REQUIRE(st == MD_OK || st == MD_ERR_INVALID);
    size_t out[4] = {0};
    REQUIRE(mdw_frame_key_of(s.ptr, s.len, out) == (int)st);
    /* The input as a one-claim key table: the same status and key. */
    uint32_t offsets[2] = {0, (uint32_t)size};
    size_t batch[4] = {0};
    REQUIRE(size > UINT32_MAX || (mdw_frame_keys_of(data, offsets, 1, batch) == 0) == (st == MD_OK));
    if (batch[0]) {
        const uint32_t *info = (const uint32_t *)batch[0];
        REQUIRE(info[1] == 0xFFFFFFFFu ? !found : (found && info[1] == t.len &&
                                                  memcmp((const uint8_t *)batch[0] + info[0], t.ptr, t.len) == 0));
        free((void *)batch[0]);
    }
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

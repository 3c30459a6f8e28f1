/* The merge tokenizer and guards on arbitrary bytes, and mergeOutcomes /
 * connectedComponents on fuzzed keys, through the C API and the wasm
 * boundary: statuses only, predicates symmetric, role-guard invariants,
 * every distinct key in exactly one component. */
#include <stdlib.h>

#include "boundary.h"
#include "unicode.h"
#include "fuzz_input.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

int mdw_merge_predicate(const uint8_t *bytes, const uint32_t *offsets, size_t n, int which, size_t *out);
int mdw_merge_outcomes(const uint8_t *bytes, const uint32_t *offsets, size_t n, const double *similarity,
                       const uint8_t *texts, double max_pairs, double threshold, uint8_t *stages_out);
int mdw_connected_components(const uint8_t *bytes, const uint32_t *offsets, size_t n_edges, size_t *out);

enum { MAXP = 12 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    /* predicates over two texts, both orders */
    const uint8_t *pa, *pb;
    size_t la = take_str(&in, &pa), lb = take_str(&in, &pb);
    md_str a = {(const char *)pa, la}, b = {(const char *)pb, lb};
    md_status (*preds[3])(md_str, md_str, bool *) = {md_negation_divergent, md_numeric_token_divergent,
                                                      md_variant_qualifier_divergent};
    for (int k = 0; k < 3; k++) {
        bool x = false, y = false;
        md_status s1 = preds[k](a, b, &x), s2 = preds[k](b, a, &y);
        REQUIRE(s1 == s2 && (s1 == MD_OK || s1 == MD_ERR_INVALID));
        REQUIRE(x == y);
    }

    /* the tokens themselves: [a-z0-9.] separated by single spaces */
    md_text tk;
    md_status ts = mdi_merge_tokens(a, &tk);
    REQUIRE(ts == MD_OK || ts == MD_ERR_INVALID);
    if (ts == MD_OK) {
        for (size_t i = 0; i < tk.len; i++) {
            char c = tk.ptr[i];
            REQUIRE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || (c == ' ' && i && i + 1 < tk.len));
        }
        md_text_free(&tk);
    }

    /* mergeOutcomes through the boundary: six keys per pair */
    size_t n = take_u8(&in) % MAXP;
    uint8_t bytes[MAXP * 6 * 8];
    uint32_t offs[MAXP * 6 + 1] = {0};
    double sims[MAXP];
    uint8_t texts[MAXP], stages[MAXP];
    for (size_t i = 0; i < 6 * n; i++) {
        const uint8_t *s;
        size_t len = take_str(&in, &s);
        if (i % 6 < 2) len %= 3; /* short paths collide often */
        memcpy(bytes + offs[i], s, len);
        offs[i + 1] = offs[i] + (uint32_t)len;
    }
    for (size_t i = 0; i < n; i++) { sims[i] = take_num(&in); texts[i] = take_u8(&in) & 3; }
    double cap = take_num(&in), threshold = take_u8(&in) % 2 ? 0.92 : take_num(&in);
    int st = mdw_merge_outcomes(bytes, offs, n, sims, texts, cap, threshold, stages);
    REQUIRE(st == MD_OK || st == MD_ERR_INVALID);
    if (st == MD_OK) {
        for (size_t i = 0; i < n; i++) {
            REQUIRE(stages[i] <= MD_STAGE_COMMITTED);
            if (stages[i] != MD_STAGE_COMMITTED) continue;
            md_str ki = {(const char *)bytes + offs[6 * i], offs[6 * i + 1] - offs[6 * i]};
            md_str di = {(const char *)bytes + offs[6 * i + 1], offs[6 * i + 2] - offs[6 * i + 1]};
            REQUIRE(!mdi_key_equal(ki, di));
            for (size_t j = 0; j < i; j++) {
                if (stages[j] != MD_STAGE_COMMITTED) continue;
                md_str kj = {(const char *)bytes + offs[6 * j], offs[6 * j + 1] - offs[6 * j]};
                md_str dj = {(const char *)bytes + offs[6 * j + 1], offs[6 * j + 2] - offs[6 * j + 1]};
                REQUIRE(!mdi_key_equal(dj, di) && !mdi_key_equal(kj, di) && !mdi_key_equal(dj, ki));
            }
        }
    }

    /* connectedComponents over the same key table read as 3n edges */
    size_t out[4] = {0};
    REQUIRE(mdw_connected_components(bytes, offs, 3 * n, out) == MD_OK);
    uint32_t *block = (uint32_t *)out[0];
    size_t members = out[1], comps = out[2];
    REQUIRE(members <= 6 * n && comps <= members && block[members] == 0 && block[members + comps] == members);
    for (size_t i = 0; i < members; i++) REQUIRE(block[i] < 6 * n);
    free(block);
    return 0;
}

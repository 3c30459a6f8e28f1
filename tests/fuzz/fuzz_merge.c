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
int mdw_merge_outcomes(const uint8_t *bytes, const uint32_t *offsets, size_t n_texts, const uint32_t *keep_path,
                       const uint32_t *drop_path, size_t n_paths, const uint32_t *keep_text,
                       const uint32_t *drop_text, const double *similarity, size_t n, double max_pairs,
                       double threshold, uint8_t *stages_out);
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

    /* mergeOutcomes through the boundary: a table of texts (gist, body) and
     * pairs naming path ids (few, so they collide) and texts or none; the
     * string-keyed C API over the same pairs must agree. */
    size_t n = take_u8(&in) % MAXP, nt = take_u8(&in) % MAXP;
    uint8_t bytes[MAXP * 6 * 8];
    uint32_t offs[MAXP * 6 + 1] = {0};
    for (size_t i = 0; i < 2 * nt; i++) {
        const uint8_t *s;
        size_t len = take_str(&in, &s);
        memcpy(bytes + offs[i], s, len);
        offs[i + 1] = offs[i] + (uint32_t)len;
    }
    uint32_t kp[MAXP], dp[MAXP], kt[MAXP], dt[MAXP];
    double sims[MAXP];
    uint8_t stages[MAXP], stages2[MAXP];
    for (size_t i = 0; i < n; i++) {
        kp[i] = take_u8(&in) % 4;
        dp[i] = take_u8(&in) % 4;
        uint8_t t = take_u8(&in);
        kt[i] = nt && (t & 1) ? (uint32_t)(t >> 1) % nt : MD_MERGE_NO_TEXT;
        dt[i] = nt && (t & 2) ? (uint32_t)(t >> 2) % nt : MD_MERGE_NO_TEXT;
        sims[i] = take_num(&in);
    }
    double cap = take_num(&in), threshold = take_u8(&in) % 2 ? 0.92 : take_num(&in);
    int st = mdw_merge_outcomes(bytes, offs, nt, kp, dp, 4, kt, dt, sims, n, cap, threshold, stages);
    REQUIRE(st == MD_OK || st == MD_ERR_INVALID);
    if (st == MD_OK) {
        for (size_t i = 0; i < n; i++) {
            REQUIRE(stages[i] <= MD_STAGE_COMMITTED);
            if (stages[i] != MD_STAGE_COMMITTED) continue;
            REQUIRE(kp[i] != dp[i]);
            for (size_t j = 0; j < i; j++)
                if (stages[j] == MD_STAGE_COMMITTED) REQUIRE(dp[j] != dp[i] && kp[j] != dp[i] && dp[j] != kp[i]);
        }
    }
    {
        static const char *const names[4] = {"p0", "p1", "p2", "p3"};
        md_merge_text tx[MAXP];
        md_merge_pair mp[MAXP];
        for (size_t t = 0; t < nt; t++) {
            tx[t].gist = (md_str){(const char *)bytes + offs[2 * t], offs[2 * t + 1] - offs[2 * t]};
            tx[t].body = (md_str){(const char *)bytes + offs[2 * t + 1], offs[2 * t + 2] - offs[2 * t + 1]};
        }
        for (size_t i = 0; i < n; i++) {
            mp[i].keep_path = (md_str){names[kp[i]], 2};
            mp[i].drop_path = (md_str){names[dp[i]], 2};
            mp[i].similarity = sims[i];
            mp[i].keep_text = kt[i] == MD_MERGE_NO_TEXT ? NULL : &tx[kt[i]];
            mp[i].drop_text = dt[i] == MD_MERGE_NO_TEXT ? NULL : &tx[dt[i]];
        }
        md_status st2 = md_merge_outcomes(mp, n, cap, threshold, stages2);
        REQUIRE((int)st2 == st);
        if (st == MD_OK) REQUIRE(n == 0 || memcmp(stages, stages2, n) == 0);
    }

    /* connectedComponents over the text table read as nt edges */
    size_t out[4] = {0};
    REQUIRE(mdw_connected_components(bytes, offs, nt, out) == MD_OK);
    uint32_t *block = (uint32_t *)out[0];
    size_t members = out[1], comps = out[2];
    REQUIRE(members <= 2 * nt && comps <= members && block[members] == 0 && block[members + comps] == members);
    for (size_t i = 0; i < members; i++) REQUIRE(block[i] < 2 * nt);
    free(block);
    return 0;
}

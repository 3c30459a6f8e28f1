/* retention and JavaScript-exact math on arbitrary bytes and doubles: the
 * memory-type classifier on arbitrary (possibly malformed) strings, directly
 * and through the wasm boundary's key table; the scorer on arbitrary inputs,
 * where the batch must equal the per-memory scorer bit for bit and the
 * composite is on the 10^-4 grid (or NaN); the reprieve gate. Nothing may trap. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "memdomain.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

int mdw_memory_types_of(const uint8_t *bytes, const uint32_t *offsets, size_t n, uint8_t *types);
int mdw_score_retention_policy(const double *policy, double age_days, double access_count, double confidence,
                               double graph_rank, double max_graph_rank, double bridge_count,
                               double reinforcement_count, double word_count, double contradiction_count,
                               double *out);

static int same(double a, double b) { return (isnan(a) && isnan(b)) || memcmp(&a, &b, 8) == 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    /* classification: a name is a known type only when it is exactly one */
    enum { K = 4 };
    md_str names[K];
    uint8_t bytes[K * 8];
    uint32_t offs[K + 1] = {0};
    for (int i = 0; i < K; i++) {
        const uint8_t *s;
        size_t len = take_str(&in, &s);
        memcpy(bytes + offs[i], s, len);
        offs[i + 1] = offs[i] + (uint32_t)len;
        names[i].ptr = (const char *)bytes + offs[i];
        names[i].len = len;
        md_memory_type t = md_memory_type_of(names[i]);
        REQUIRE((unsigned)t < MD_MEMORY_TYPE_COUNT);
        static const char *known[6] = {"episodic", "semantic", "procedural", "arc", "error_pattern", "task"};
        if (t != MD_MEMORY_OTHER) REQUIRE(len == strlen(known[t]) && memcmp(s, known[t], len) == 0);
    }
    uint8_t direct[K], boundary[K];
    REQUIRE(md_memory_types_of(names, K, direct) == MD_OK);
    REQUIRE(mdw_memory_types_of(bytes, offs, K, boundary) == MD_OK);
    REQUIRE(memcmp(direct, boundary, K) == 0);

    /* the scorer: batch == per-memory, bands from the score */
    enum { N = 3 };
    uint8_t type[N];
    double col[9][N], score[N], sig[8 * N];
    uint8_t action[N];
    for (int i = 0; i < N; i++) {
        type[i] = take_u8(&in) % MD_MEMORY_TYPE_COUNT;
        for (int k = 0; k < 9; k++) col[k][i] = take_num(&in);
    }
    md_retention_columns c = {N, type, col[0], col[1], col[2], col[3], col[4], col[5], col[6], col[7], col[8]};
    REQUIRE(md_score_retention_many(&c, score, action, sig) == MD_OK);
    for (int i = 0; i < N; i++) {
        md_retention_input x = {(md_memory_type)type[i], col[0][i], col[1][i], col[2][i], col[3][i],
                                col[4][i], col[5][i], col[6][i], col[7][i], col[8][i]};
        md_retention_score r;
        REQUIRE(md_score_retention(&x, &r) == MD_OK);
        REQUIRE(same(r.score, score[i]) && (uint8_t)r.action == action[i]);
        REQUIRE(r.action == md_band_for(r.score));
        REQUIRE(isnan(r.score) || same(md_js_round(r.score * 10000) / 10000, r.score));
        for (int k = 0; k < 8; k++) REQUIRE(same(r.signals.value[k], sig[k * N + i]));
    }
    /* an out-of-range type code is rejected, not read past a table */
    type[N - 1] = (uint8_t)(MD_MEMORY_TYPE_COUNT + take_u8(&in) % 200);
    REQUIRE(md_score_retention_many(&c, score, action, NULL) == MD_ERR_INVALID);

    /* the reprieve gate and V8-exact math on arbitrary doubles */
    double a = take_num(&in), b = take_num(&in), d = take_num(&in), e = take_num(&in), f = take_num(&in);
    double rs = md_reprieve_score(a, b, d, e, f);
    /* a sum of non-negative terms, the importance term at least 0.4 * 0.1 */
    REQUIRE(isnan(rs) || rs >= 0.04 - 1e-17);
    /* NaN only from a NaN input or 0 * infinity in the recency exponent */
    if (isfinite(a) && isfinite(b) && isfinite(d) && isfinite(e) && isfinite(f)) REQUIRE(!isnan(rs));
    /* with maxReprieves 0 only a negative count could pass the cap */
    REQUIRE(!md_should_reprieve(a, b, d, 0) || b < 0);
    REQUIRE(md_should_reprieve(a, b, d, e) == (a >= d && b < e));
    double x = take_f64(&in);
    double ex = md_js_exp(x), l = md_js_log1p(x);
    REQUIRE(isnan(x) ? isnan(ex) : ex >= 0);
    REQUIRE(!(x > -1) || !isnan(l));
    REQUIRE(!(x < -1) || isnan(l));

    /* a policy from the input (mostly valid: a byte below 250 is a small
     * non-negative value, otherwise any double): the check accepts it exactly
     * when the rules hold, and then the batch equals the per-memory scorer */
    enum { NC = 2 };
    double v[NC * 9 + 2];
    for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
        uint8_t b = take_u8(&in);
        v[k] = b < 250 ? b / 64.0 : take_num(&in);
    }
    md_retention_class cls[NC];
    memcpy(cls, v, sizeof cls);
    md_retention_policy pol = {cls, NC, v[NC * 9], v[NC * 9 + 1]};
    int valid = isfinite(pol.keep_threshold) && isfinite(pol.evict_threshold) && pol.evict_threshold <= pol.keep_threshold;
    for (int k = 0; k < NC * 9; k++) valid &= v[k] >= 0 && isfinite(v[k]);
    REQUIRE((md_retention_policy_check(&pol) == MD_OK) == valid);
    int in_range = 1;
    for (int i = 0; i < N; i++) {
        type[i] = take_u8(&in) % (NC + 1);
        in_range &= type[i] < NC;
    }
    md_status st = md_score_retention_many_policy(&c, &pol, score, action, sig);
    REQUIRE(st == (valid && in_range ? MD_OK : MD_ERR_INVALID));
    if (st == MD_OK)
        for (int i = 0; i < N; i++) {
            md_retention_input x1 = {(md_memory_type)type[i], col[0][i], col[1][i], col[2][i], col[3][i],
                                     col[4][i], col[5][i], col[6][i], col[7][i], col[8][i]};
            md_retention_score r;
            REQUIRE(md_score_retention_policy(&x1, &pol, &r) == MD_OK);
            REQUIRE(same(r.score, score[i]) && (uint8_t)r.action == action[i]);
            REQUIRE(r.action == (r.score > pol.keep_threshold ? MD_ACTION_KEEP
                                 : r.score > pol.evict_threshold ? MD_ACTION_COMPRESS : MD_ACTION_EVICT));
            for (int k = 0; k < 8; k++) REQUIRE(same(r.signals.value[k], sig[k * N + i]));
        }
    /* the glue's scalar entry point: class 0 then the thresholds, flat */
    double flat[11], out[10];
    memcpy(flat, v, 9 * sizeof(double));
    flat[9] = pol.keep_threshold;
    flat[10] = pol.evict_threshold;
    md_retention_policy one = {cls, 1, pol.keep_threshold, pol.evict_threshold};
    md_retention_input x0 = {0, col[0][0], col[1][0], col[2][0], col[3][0], col[4][0], col[5][0], col[6][0],
                             col[7][0], col[8][0]};
    md_retention_score r0;
    md_status s0 = md_score_retention_policy(&x0, &one, &r0);
    REQUIRE(mdw_score_retention_policy(flat, x0.age_days, x0.access_count, x0.confidence, x0.graph_rank,
                                       x0.max_graph_rank, x0.bridge_count, x0.reinforcement_count, x0.word_count,
                                       x0.contradiction_count, out) == (int)s0);
    if (s0 == MD_OK) {
        REQUIRE(same(out[0], r0.score) && out[9] == (double)r0.action);
        for (int k = 0; k < 8; k++) REQUIRE(same(out[1 + k], r0.signals.value[k]));
    }
    return 0;
}

/* cosine, compensatedSum, rrfContribution, reinforce and every decay entry
 * point on arbitrary doubles: invariants must hold and nothing may trap. */
#include <math.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "memdomain.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    size_t na = take_u8(&in) % 17, nb = take_u8(&in) % 17;
    double a[16], b[16];
    float af[16], bf[16];
    for (size_t i = 0; i < 16; i++) { a[i] = take_num(&in); b[i] = take_num(&in); af[i] = (float)a[i]; bf[i] = (float)b[i]; }
    double s, d, t;
    REQUIRE(md_cosine(a, na, b, nb, &s) == MD_OK && s >= -1 && s <= 1);
    REQUIRE(md_cosine_distance(a, na, b, nb, &d) == MD_OK && d >= 0 && d <= 2);
    REQUIRE(md_cosine_f32(af, na, bf, nb, &t) == MD_OK && t >= -1 && t <= 1);
    REQUIRE(md_compensated_sum(a, na, &t) == MD_OK);
    REQUIRE(md_cosine(NULL, na + 1, b, nb, &s) == MD_ERR_NULL);

    double x = take_num(&in), y = take_num(&in), z = take_num(&in), w = take_num(&in);
    double c;
    if (md_rrf_contribution(x, y, &c)) REQUIRE(isfinite(x) && x >= 1 && !(y <= 0));
    (void)md_rrf_score(x, y, z);
    (void)md_should_bump_access(take_u8(&in) & 1, x, y, z);

    (void)md_to_fp(x);
    (void)md_from_fp(x);
    double e = md_ewma_step_fp(x, y, z);
    (void)e;
    double dc = md_decay_confidence_fp(x, y, z);
    REQUIRE(isnan(dc) || isnan(y) || dc <= y);
    /* the early-stopping folds agree with a plain loop for small counts */
    double cycles = fmod(fabs(w), 40);
    if (isnan(cycles)) cycles = 0;
    double loop = y, folded;
    for (double i = 0; i < cycles; i++) loop = md_decay_confidence_fp(x, loop, z);
    REQUIRE(md_decay_confidence_n_fp(x, y, z, cycles, &folded) == MD_OK);
    REQUIRE((isnan(loop) && isnan(folded)) || memcmp(&loop, &folded, 8) == 0);
    double hits = trunc(cycles), hl = y, hf;
    for (double i = 0; i < hits; i++) hl = md_ewma_step_fp(x, hl, MD_NEG_ONE_FP);
    REQUIRE(md_apply_negative_hits_fp(x, y, hits, &hf) == MD_OK);
    REQUIRE((isnan(hl) && isnan(hf)) || memcmp(&hl, &hf, 8) == 0);
    /* arbitrary counts: a status. A finite count is folded to its end (as the
     * reference loops), so finite counts are kept below 2^16 steps here; NaN,
     * infinities, negatives and fractions pass through. Only an endless count
     * may be refused, and only by the decay fold. */
    double wn = isfinite(w) ? fmod(w, 65536.0) : w;
    md_status st = md_decay_confidence_n_fp(x, y, z, wn, &folded);
    REQUIRE(st == MD_OK || (st == MD_ERR_RANGE && !(fabs(wn) <= 9007199254740992.0)));
    st = md_apply_negative_hits_fp(x, y, wn, &hf);
    REQUIRE(st == MD_OK || (st == MD_ERR_RANGE && wn >= 4294967296.0));
    REQUIRE(md_apply_outcomes_fp(x, y, a, na, &t) == MD_OK);
    (void)md_decay_confidence(x, y, z);
    st = md_decay_confidence_n(x, wn, y, z, &t);
    REQUIRE(st == MD_OK || (st == MD_ERR_RANGE && !(fabs(wn) <= 9007199254740992.0)));
    (void)md_js_round(x);
    return 0;
}

/* C tests of the merge module: the design's cases, the predicates and the
 * veto symmetric, connectedComponents invariant under shuffle and mirror,
 * mergeOutcomes' role-guard invariants and mergeCandidates as its committed
 * subset, NULL handling. Agreement with a JavaScript port of the reference
 * is tests/js/merge.test.js. */
#include "check.h"
#include "internal.h"

#include <stdlib.h>

#define S(lit) ((md_str){lit, sizeof(lit) - 1})

static bool pred(md_status (*f)(md_str, md_str, bool *), md_str a, md_str b) {
    bool out = false;
    CHECK(f(a, b, &out) == MD_OK);
    return out;
}

static void test_cases(void) {
    CHECK(pred(md_negation_divergent, S("X is safe"), S("X is NOT safe")));
    CHECK(!pred(md_negation_divergent, S("not safe"), S("never safe")));
    CHECK(pred(md_negation_divergent, S("it isn't"), S("it is")));      /* isn't -> is not */
    CHECK(pred(md_negation_divergent, S("xcannot"), S("x")));           /* -> "xcan not" */
    CHECK(!pred(md_negation_divergent, S("\xEF\xBC\xAE\xEF\xBC\xAF\xEF\xBC\xB4"), S("x"))); /* fullwidth NOT */
    CHECK(pred(md_negation_divergent, S("\xC4\xB0NVALID"), S("valid")) == false); /* i + U+0307 breaks the token */
    CHECK(pred(md_numeric_token_divergent, S("retry 3 times"), S("retry 13 times")));
    CHECK(!pred(md_numeric_token_divergent, S("no numbers"), S("none")));
    CHECK(!pred(md_numeric_token_divergent, S("v2.10 and 3"), S("3 then v2.10 v2.10")));
    CHECK(pred(md_numeric_token_divergent, S("rc.1"), S("rc 1")));
    CHECK(pred(md_variant_qualifier_divergent, S("M1"), S("M1 Pro")));
    CHECK(!pred(md_variant_qualifier_divergent, S("pro max"), S("MAX, PRO pro")));
    CHECK(!pred(md_variant_qualifier_divergent, S("proactive"), S("x")));
    CHECK(pred(md_variant_qualifier_divergent, S("pro-active"), S("x")));
    /* U+212A KELVIN SIGN lowercases to k: "\u212Aey" is the token "key". */
    CHECK(!pred(md_variant_qualifier_divergent, S("\xE2\x84\xAA" "ey"), S("key")));

    md_merge_text a = {S("x 1"), S("draining does NOT complete")}, b = {S("x 2"), S("pro")};
    unsigned r = 0;
    CHECK(md_merge_veto_reasons(&a, &b, &r) == MD_OK && r == (MD_VETO_NEGATION | MD_VETO_NUMERIC | MD_VETO_VARIANT));
    md_merge_text c = {S("x"), S("retry 3")}, d = {S("x"), S("retry 13")};
    CHECK(md_merge_veto_reasons(&c, &d, &r) == MD_OK && r == 0); /* numbers in bodies do not count */

    md_text j;
    CHECK(md_join_merge_text(&a, &j) == MD_OK && j.len == 3 + 1 + 26 && j.ptr[3] == '\n');
    md_text_free(&j);

    /* (gf -> a) then (b -> gf): the keeper gf is never dropped. */
    md_merge_pair chain[2] = {{S("gf"), S("a"), 1, NULL, NULL}, {S("b"), S("gf"), 1, NULL, NULL}};
    uint8_t st[8];
    CHECK(md_merge_outcomes(chain, 2, 100, 0.92, st) == MD_OK && st[0] == MD_STAGE_COMMITTED &&
          st[1] == MD_STAGE_ROLE_GUARD);
    md_merge_pair keeper[3] = {{S("k"), S("a"), 1, NULL, NULL}, {S("k"), S("b"), 1, NULL, NULL},
                               {S("k"), S("k"), 1, NULL, NULL}};
    CHECK(md_merge_outcomes(keeper, 3, 100, 0.92, st) == MD_OK && st[0] == MD_STAGE_COMMITTED &&
          st[1] == MD_STAGE_COMMITTED && st[2] == MD_STAGE_SELF);
    CHECK(md_merge_outcomes(keeper, 3, 1, 0.92, st) == MD_OK && st[0] == MD_STAGE_COMMITTED && st[1] == MD_STAGE_CAP);
    CHECK(md_merge_outcomes(keeper, 3, NAN, 1, st) == MD_OK && st[0] == MD_STAGE_THRESHOLD);
    keeper[0].similarity = NAN; /* NaN is not <= threshold: it passes that stage */
    CHECK(md_merge_outcomes(keeper, 1, 100, 0.92, st) == MD_OK && st[0] == MD_STAGE_COMMITTED);
    md_merge_pair vet = {S("k"), S("d"), 1, &a, &b};
    CHECK(md_merge_outcomes(&vet, 1, 100, 0.92, st) == MD_OK && st[0] == MD_STAGE_VETOED);
    vet.drop_text = NULL; /* only when both texts are present */
    CHECK(md_merge_outcomes(&vet, 1, 100, 0.92, st) == MD_OK && st[0] == MD_STAGE_COMMITTED);
    CHECK(strcmp(md_merge_stage_names[MD_STAGE_ROLE_GUARD], "role-guard") == 0);

    md_str members[4] = {S("a"), S("c"), S("b"), S("c")};
    uint8_t keep[4];
    CHECK(md_exclude_self_supersede(S("c"), members, 4, keep) == MD_OK && keep[0] && !keep[1] && keep[2] && !keep[3]);
}

static void test_null(void) {
    bool b;
    unsigned r;
    uint8_t st[1];
    md_components c;
    CHECK(md_negation_divergent((md_str){NULL, 1}, S("x"), &b) == MD_ERR_NULL);
    CHECK(md_numeric_token_divergent(S("x"), S("y"), NULL) == MD_ERR_NULL);
    CHECK(md_variant_qualifier_divergent(S("\xC0"), S("y"), &b) == MD_ERR_INVALID);
    CHECK(md_merge_veto_reasons(NULL, NULL, &r) == MD_ERR_NULL);
    CHECK(md_merge_outcomes(NULL, 1, 100, 0.92, st) == MD_ERR_NULL);
    CHECK(md_merge_outcomes(NULL, 0, 100, 0.92, NULL) == MD_OK);
    CHECK(md_connected_components(NULL, 1, &c) == MD_ERR_NULL);
    CHECK(md_connected_components(NULL, 0, &c) == MD_OK && c.n_members == 0 && c.n_components == 0);
    md_components_free(&c);
    md_components_free(NULL);
}

/* ---- random inputs ---- */

static const char *const WORDS[] = {"not", "NOT", "never", "cannot", "isn't", "don't", "n't", "pro", "Pro", "max",
                                    "beta", "rc.1", "RC", "preview", "3", "13", "v2.10", "1.2.3", "safe", "retry",
                                    "the", "\xC4\xB0NVALID", "\xE2\x84\xAA" "ey", "cafe\xCC\x81", "\xCE\xA3"};
static const char *const SEPS[] = {" ", "\n", ", ", "'", ".", ""};

static size_t random_text(check_rng *r, char *buf) {
    size_t n = 0, k = rng_below(r, 8);
    for (size_t i = 0; i < k; i++) {
        const char *w = WORDS[rng_below(r, sizeof WORDS / sizeof WORDS[0])];
        const char *s = SEPS[rng_below(r, sizeof SEPS / sizeof SEPS[0])];
        memcpy(buf + n, w, strlen(w)); n += strlen(w);
        memcpy(buf + n, s, strlen(s)); n += strlen(s);
    }
    return n;
}

static void test_symmetry(void) {
    check_rng r = {11};
    char ga[256], ba[256], gb[256], bb[256];
    for (int it = 0; it < check_iters(5000); it++) {
        md_str a = {ga, random_text(&r, ga)}, b = {gb, random_text(&r, gb)};
        CHECK(pred(md_negation_divergent, a, b) == pred(md_negation_divergent, b, a));
        CHECK(pred(md_numeric_token_divergent, a, b) == pred(md_numeric_token_divergent, b, a));
        CHECK(pred(md_variant_qualifier_divergent, a, b) == pred(md_variant_qualifier_divergent, b, a));
        CHECK(!pred(md_numeric_token_divergent, a, a) && !pred(md_negation_divergent, a, a));
        md_merge_text ta = {a, {ba, random_text(&r, ba)}}, tb = {b, {bb, random_text(&r, bb)}};
        unsigned r1 = 9, r2 = 9;
        CHECK(md_merge_veto_reasons(&ta, &tb, &r1) == MD_OK && md_merge_veto_reasons(&tb, &ta, &r2) == MD_OK);
        CHECK(r1 == r2);
    }
}

static const md_str KEYS[] = {{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}, {"K", 1}, {"\xC3\xA9", 2},
                              {"\xED\xA0\x80", 3}, {"\xF0\x9F\x98\x80", 4}, {"\xEF\xBD\x9E", 3}, {"", 0}};
#define N_KEYS (sizeof KEYS / sizeof KEYS[0])

static bool same_components(const md_components *x, const md_components *y) {
    if (x->n_members != y->n_members || x->n_components != y->n_components) return false;
    for (size_t i = 0; i < x->n_members; i++)
        if (!mdi_key_equal(x->members[i], y->members[i])) return false;
    for (size_t i = 0; i <= x->n_components; i++)
        if (x->starts[i] != y->starts[i]) return false;
    return true;
}

static void test_components(void) {
    check_rng r = {23};
    md_str ends[64], moved[64];
    for (int it = 0; it < check_iters(3000); it++) {
        size_t n = rng_below(&r, 30);
        for (size_t i = 0; i < 2 * n; i++) ends[i] = KEYS[rng_below(&r, N_KEYS)];
        md_components base, other;
        CHECK(md_connected_components(ends, n, &base) == MD_OK);
        /* shuffle the edges and flip some of them */
        memcpy(moved, ends, 2 * n * sizeof(md_str));
        for (size_t i = n; i > 1; i--) {
            size_t j = rng_below(&r, i);
            md_str t0 = moved[2 * (i - 1)], t1 = moved[2 * (i - 1) + 1];
            moved[2 * (i - 1)] = moved[2 * j]; moved[2 * (i - 1) + 1] = moved[2 * j + 1];
            moved[2 * j] = t0; moved[2 * j + 1] = t1;
        }
        for (size_t i = 0; i < n; i++)
            if (rng_below(&r, 2)) { md_str t = moved[2 * i]; moved[2 * i] = moved[2 * i + 1]; moved[2 * i + 1] = t; }
        CHECK(md_connected_components(moved, n, &other) == MD_OK);
        CHECK(same_components(&base, &other));
        md_components_free(&other);
        /* members sorted; components ordered by root; each edge inside one component */
        for (size_t c = 0; c < base.n_components; c++) {
            for (size_t i = base.starts[c] + 1; i < base.starts[c + 1]; i++)
                CHECK(md_key_compare(base.members[i - 1], base.members[i]) < 0);
            if (c) CHECK(md_key_compare(base.members[base.starts[c - 1]], base.members[base.starts[c]]) < 0);
        }
        for (size_t e = 0; e < n; e++) {
            size_t ca = SIZE_MAX, cb = SIZE_MAX;
            for (size_t c = 0; c < base.n_components; c++)
                for (size_t i = base.starts[c]; i < base.starts[c + 1]; i++) {
                    if (mdi_key_equal(base.members[i], ends[2 * e])) ca = c;
                    if (mdi_key_equal(base.members[i], ends[2 * e + 1])) cb = c;
                }
            CHECK(ca != SIZE_MAX && ca == cb);
        }
        md_components_free(&base);
    }
}

static void test_outcomes(void) {
    check_rng r = {31};
    md_merge_pair pairs[40];
    md_merge_text texts[80];
    char bufs[80][256];
    uint8_t stages[40];
    size_t committed[40], n_committed;
    static const double sims[] = {0.92, 0.93, 1, 0.5, NAN, INFINITY, -INFINITY};
    static const double caps[] = {0, 1, 2, 2.5, 100, NAN, -1};
    for (int it = 0; it < check_iters(3000); it++) {
        size_t n = rng_below(&r, 40);
        for (size_t i = 0; i < n; i++) {
            pairs[i].keep_path = KEYS[rng_below(&r, 6)];
            pairs[i].drop_path = KEYS[rng_below(&r, 6)];
            pairs[i].similarity = sims[rng_below(&r, 7)];
            for (int k = 0; k < 2; k++) {
                md_merge_text *t = &texts[2 * i + k];
                t->gist = (md_str){bufs[2 * i + k], random_text(&r, bufs[2 * i + k])};
                t->body = (md_str){"", 0};
            }
            pairs[i].keep_text = rng_below(&r, 3) ? NULL : &texts[2 * i];
            pairs[i].drop_text = rng_below(&r, 3) ? NULL : &texts[2 * i + 1];
        }
        double cap = caps[rng_below(&r, 7)];
        CHECK(md_merge_outcomes(pairs, n, cap, 0.92, stages) == MD_OK);
        CHECK(md_merge_candidates(pairs, n, cap, 0.92, committed, &n_committed) == MD_OK);
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            CHECK(stages[i] <= MD_STAGE_COMMITTED);
            if (stages[i] != MD_STAGE_COMMITTED) continue;
            CHECK(k < n_committed && committed[k] == i); /* the committed subset, in order */
            k++;
            for (size_t j = 0; j < i; j++) {
                if (stages[j] != MD_STAGE_COMMITTED) continue;
                CHECK(!mdi_key_equal(pairs[j].drop_path, pairs[i].drop_path)); /* never dropped twice */
                CHECK(!mdi_key_equal(pairs[j].keep_path, pairs[i].drop_path)); /* a keeper is never dropped */
                CHECK(!mdi_key_equal(pairs[j].drop_path, pairs[i].keep_path)); /* a dropped path is never kept */
            }
            CHECK(!mdi_key_equal(pairs[i].keep_path, pairs[i].drop_path));
        }
        CHECK(k == n_committed);
        CHECK(isnan(cap) || (double)n_committed <= (cap < 0 ? 0 : ceil(cap)));
    }
}

int main(void) {
    test_cases();
    test_null();
    test_symmetry();
    test_components();
    test_outcomes();
    return check_report("test_merge");
}

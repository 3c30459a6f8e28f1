/* The pruned all-pairs pass (forced, and as chosen automatically) against
 * the unpruned pass, bit for bit, over thousands of seeds: random,
 * clustered, duplicated-row and adversarial rows (near-ties, constant
 * vectors, NaN, infinite, zero, subnormal and huge rows), keys whose order
 * is not the row order (some outside the BMP), every kind of floor,
 * perSourceK and limit, whole passes and tiles of random splits merged, and
 * duplicate keys through the reference-shaped call. The unpruned pass is
 * itself held to a transcription of the design in test_neighbors.c. */
#include "check.h"
#include "kernels.h"
#include "memdomain.h"
#include "neighbors.h"
#include "rows.h"

#include <math.h>
#include <stdlib.h>

static check_rng rng = {1600};
#include "vectors.h"

static const double FLOORS[] = {-INFINITY, -1, -0.2, 0, 0.05, 0.3, 0.9, 1, NAN};
static const double KS[] = {0, 1, 2, 3, 5, 10, 64, 65, 1.5, -1, INFINITY, NAN};
static const double LIMITS[] = {0, 1, 7, 1e9, -3, NAN, INFINITY};
#define COUNT(a) (sizeof a / sizeof a[0])

static md_neighbor_options random_options(void) {
    md_neighbor_options o = {FLOORS[rng_below(&rng, COUNT(FLOORS))], KS[rng_below(&rng, COUNT(KS))],
                             LIMITS[rng_below(&rng, COUNT(LIMITS))]};
    if (rng_below(&rng, 3) == 0) o.floor = rng_range(&rng, -0.5, 0.99);
    return o;
}

/* n distinct keys whose JavaScript order differs from the row order. */
static void make_keys(md_str *keys, char (*names)[12], size_t n, int dup) {
    for (size_t i = 0; i < n; i++) {
        size_t len = 0, v = (i * 7919u) % 100003u;
        if (rng_below(&rng, 5) == 0) { names[i][len++] = (char)0xF0; names[i][len++] = (char)0x9F; names[i][len++] = (char)0x98; names[i][len++] = (char)0x80; }
        else if (rng_below(&rng, 5) == 0) { names[i][len++] = (char)0xEF; names[i][len++] = (char)0xBD; names[i][len++] = (char)0x9E; }
        for (int c = 0; c < 5; c++, v /= 26) names[i][len++] = (char)('a' + v % 26);
        keys[i].ptr = names[i];
        keys[i].len = len;
    }
    if (dup && n > 2) /* a few rows share a key with an earlier row */
        for (int t = 0; t < 3; t++) {
            size_t a = rng_below(&rng, n), b = rng_below(&rng, n);
            keys[a] = keys[b];
        }
}

static int same(const md_neighbor_pairs *a, const md_neighbor_pairs *b, const md_str *keys, int by_key) {
    if (a->len != b->len) return 0;
    for (size_t i = 0; i < a->len; i++) {
        const md_neighbor_pair *x = &a->pairs[i], *y = &b->pairs[i];
        if (memcmp(&x->sim, &y->sim, 8) != 0) return 0;
        if (by_key ? (md_key_compare(keys[x->src], keys[y->src]) || md_key_compare(keys[x->dst], keys[y->dst]))
                   : (x->src != y->src || x->dst != y->dst))
            return 0;
    }
    return 1;
}

static size_t pruned_checked;

static void test_packed(void) {
    for (int seed = 0, seeds = check_iters(500); seed < seeds; seed++) {
        int kind = (int)rng_below(&rng, KINDS);
        size_t d = rng_below(&rng, 6) == 0 ? 384 : 16 + rng_below(&rng, 60);
        md_neighbor_options o = random_options();
        /* every pair kept (a large or NaN k): lists of n, so fewer rows */
        bool big = !(o.per_source_k <= 64);
        size_t n = rng_below(&rng, 8) == 0 ? rng_below(&rng, 4) : 2 + rng_below(&rng, big || check_quick() ? 50 : d > 100 ? 80 : 180);
        float *m = malloc((n * d + 1) * sizeof(float));
        make_rows(m, n, d, kind);
        md_str *keys = malloc((n + 1) * sizeof(md_str));
        char (*names)[12] = malloc((n + 1) * 12);
        make_keys(keys, names, n, 0);
        md_neighbor_pairs want, got;
        CHECK(mdi_packed_pass(m, n, d, keys, 0, n, o, true, &want, NULL, MDI_TOP_EXACT) == MD_OK);
        for (int mode = MDI_TOP_AUTO; mode <= MDI_TOP_PRUNED; mode += 2) {
            CHECK(mdi_packed_pass(m, n, d, keys, 0, n, o, true, &got, NULL, mode) == MD_OK);
            CHECK(same(&got, &want, keys, 0));
            md_neighbor_pairs_free(&got);
        }
        pruned_checked++;
        /* tiles of a random split, each pruned on its own, merged */
        size_t cuts[6] = {0}, nc = 1 + rng_below(&rng, 4);
        for (size_t c = 1; c < nc; c++) cuts[c] = rng_below(&rng, n + 1);
        cuts[nc] = n;
        for (size_t c = 1; c < nc; c++)
            for (size_t e = c; e > 0 && cuts[e] < cuts[e - 1]; e--) { size_t t = cuts[e]; cuts[e] = cuts[e - 1]; cuts[e - 1] = t; }
        md_neighbor_pair *all = NULL;
        size_t na = 0;
        for (size_t c = 0; c < nc; c++) {
            md_neighbor_pairs tile;
            int mode = rng_below(&rng, 2) ? MDI_TOP_PRUNED : MDI_TOP_AUTO;
            CHECK(mdi_packed_pass(m, n, d, keys, cuts[c], cuts[c + 1], o, false, &tile, NULL, mode) == MD_OK);
            all = realloc(all, (na + tile.len + 1) * sizeof(md_neighbor_pair));
            memcpy(all + na, tile.pairs, tile.len * sizeof(md_neighbor_pair));
            na += tile.len;
            md_neighbor_pairs_free(&tile);
        }
        CHECK(md_merge_neighbor_pairs(all, na, keys, n, o, &got, NULL) == MD_OK);
        CHECK(same(&got, &want, keys, 0));
        md_neighbor_pairs_free(&got);
        free(all);
        md_neighbor_pairs_free(&want);
        free(keys); free(names); free(m);
    }
}

/* The reference-shaped call, duplicate keys included (one neighbourhood
 * per key): the same keys and similarities as the unpruned pass. */
static void test_shaped(void) {
    for (int seed = 0, seeds = check_iters(200); seed < seeds; seed++) {
        int kind = (int)rng_below(&rng, KINDS);
        md_neighbor_options o = random_options();
        size_t d = 16 + rng_below(&rng, 40), n = 2 + rng_below(&rng, o.per_source_k <= 64 ? 200 : 60);
        float *m = malloc(n * d * sizeof(float));
        make_rows(m, n, d, kind);
        md_str *keys = malloc(n * sizeof(md_str));
        char (*names)[12] = malloc(n * 12);
        make_keys(keys, names, n, (int)rng_below(&rng, 2));
        md_keyed_vector *v = malloc(n * sizeof(md_keyed_vector));
        for (size_t i = 0; i < n; i++) v[i] = (md_keyed_vector){keys[i], m + i * d, d};
        md_neighbor_pairs want, got;
        CHECK(mdi_top_neighbor_pairs(v, n, o, &want, MDI_TOP_EXACT) == MD_OK);
        CHECK(mdi_top_neighbor_pairs(v, n, o, &got, MDI_TOP_PRUNED) == MD_OK);
        CHECK(same(&got, &want, keys, 1));
        md_neighbor_pairs_free(&got);
        CHECK(md_top_neighbor_pairs(v, n, o, &got) == MD_OK);
        CHECK(same(&got, &want, keys, 1));
        md_neighbor_pairs_free(&got);
        md_neighbor_pairs_free(&want);
        free(v); free(keys); free(names); free(m);
    }
}

/* One larger pass where the automatic choice prunes (enough pairs), with
 * the candidate buffer overflowing (many near-ties), so compaction, the
 * flush and the give-up rule all run. */
static void test_large(void) {
    for (int kind = 0; kind < KINDS; kind += check_quick() ? 3 : 1) {
        size_t n = 300, d = 24; /* 44,850 pairs: the automatic choice probes and prunes */
        float *m = malloc(n * d * sizeof(float));
        make_rows(m, n, d, kind);
        md_str *keys = malloc(n * sizeof(md_str));
        char (*names)[12] = malloc(n * 12);
        make_keys(keys, names, n, 0);
        md_neighbor_options o = {kind == CONSTANT ? -INFINITY : 0, 3, 1e9};
        md_neighbor_pairs want, got;
        CHECK(mdi_packed_pass(m, n, d, keys, 0, n, o, true, &want, NULL, MDI_TOP_EXACT) == MD_OK);
        for (int mode = MDI_TOP_AUTO; mode <= MDI_TOP_PRUNED; mode += 2) {
            CHECK(mdi_packed_pass(m, n, d, keys, 0, n, o, true, &got, NULL, mode) == MD_OK);
            CHECK(same(&got, &want, keys, 0));
            md_neighbor_pairs_free(&got);
        }
        md_neighbor_pairs_free(&want);
        free(keys); free(names); free(m);
    }
}

/* The pass in parts (md_pairs_pass): tiles of a random split handed in a
 * random order to one to three passes (as workers taking tiles from a
 * queue), passes sharing what they learned (bounds) at random points, each
 * pass's lists merged: the unpruned single pass exactly, for each pruning
 * mode; one pass given every tile answers the final list itself. Then the
 * misuse statuses. */
static void ranks_of(const md_str *keys, size_t n, uint32_t *rank) {
    for (size_t i = 0; i < n; i++) {
        uint32_t r = 0;
        for (size_t j = 0; j < n; j++) r += md_key_compare(keys[j], keys[i]) < 0;
        rank[i] = r;
    }
}

static void parts_case(const float *m, size_t n, size_t d, const md_str *keys, md_neighbor_options o, int mode,
                       const md_neighbor_pairs *want) {
    uint32_t *rank = malloc((n + 1) * sizeof(uint32_t));
    ranks_of(keys, n, rank);
    size_t cuts[18] = {0}, nc = 1 + rng_below(&rng, 16), order[17];
    for (size_t c = 1; c < nc; c++) cuts[c] = rng_below(&rng, n + 1);
    cuts[nc] = n;
    for (size_t c = 1; c < nc; c++)
        for (size_t e = c; e > 0 && cuts[e] < cuts[e - 1]; e--) { size_t t = cuts[e]; cuts[e] = cuts[e - 1]; cuts[e - 1] = t; }
    for (size_t c = 0; c < nc; c++) order[c] = c;
    for (size_t c = nc; c > 1; c--) { size_t r = rng_below(&rng, c), t = order[c - 1]; order[c - 1] = order[r]; order[r] = t; }
    size_t np = 1 + rng_below(&rng, 3);
    md_pairs_pass *pass[3] = {NULL, NULL, NULL};
    /* the setup split too: each pass computes a share of the rows' data and
     * takes some of the others' (the rest it computes itself) */
    size_t part[4] = {0, n, n, n};
    bool split = np > 1 && rng_below(&rng, 2);
    if (split)
        for (size_t w = 1; w < np; w++) part[w] = part[w - 1] + rng_below(&rng, n - part[w - 1] + 1);
    for (size_t w = 0; w < np; w++)
        CHECK(mdi_pairs_pass_new(m, n, d, rank, o.floor, o.per_source_k, mode, split ? part[w] : 0,
                                 split ? (w + 1 < np ? part[w + 1] : n) : n, &pass[w]) == MD_OK);
    if (split && n > 0) {
        size_t rec = 24 + 2 * ((d + 31) / 32 * 32);
        uint8_t *buf = malloc(n * rec);
        for (size_t w = 0; w < np; w++) { /* each hands over its share, then takes the others' (some skipped) */
            size_t b = part[w], e = w + 1 < np ? part[w + 1] : n;
            CHECK(md_pairs_pass_rows(pass[w], buf + b * rec, b, e, false) == MD_OK);
        }
        for (size_t w = 0; w < np; w++)
            for (size_t q = 0; q < np; q++) {
                size_t b = part[q], e = q + 1 < np ? part[q + 1] : n;
                if (q != w && rng_below(&rng, 4)) CHECK(md_pairs_pass_rows(pass[w], buf + b * rec, b, e, true) == MD_OK);
            }
        free(buf);
    }
    float *bounds = malloc((n + 1) * sizeof(float));
    for (size_t j = 0; j < n; j++) bounds[j] = -INFINITY;
    for (size_t c = 0; c < nc; c++) {
        size_t w = rng_below(&rng, np);
        CHECK(md_pairs_pass_add(pass[w], cuts[order[c]], cuts[order[c] + 1]) == MD_OK);
        if (np > 1 && rng_below(&rng, 3)) CHECK(md_pairs_pass_share(pass[w], bounds) == MD_OK); /* as workers share */
    }
    free(bounds);
    md_neighbor_pair *all = NULL;
    size_t na = 0;
    md_neighbor_pairs got;
    for (size_t w = 0; w < np; w++) {
        md_neighbor_pairs part;
        CHECK(md_pairs_pass_pairs(pass[w], false, o.limit, &part) == MD_OK);
        all = realloc(all, (na + part.len + 1) * sizeof(md_neighbor_pair));
        memcpy(all + na, part.pairs, part.len * sizeof(md_neighbor_pair));
        na += part.len;
        md_neighbor_pairs_free(&part);
        if (np == 1) {
            CHECK(md_pairs_pass_pairs(pass[w], true, o.limit, &got) == MD_OK);
            CHECK(same(&got, want, keys, 0));
            md_neighbor_pairs_free(&got);
        }
        md_pairs_pass_free(pass[w]);
    }
    CHECK(md_merge_neighbor_pairs_ranked(all, na, rank, n, o.floor, o.per_source_k, o.limit, &got) == MD_OK);
    CHECK(same(&got, want, keys, 0));
    md_neighbor_pairs_free(&got);
    free(all);
    free(rank);
}

static void test_parts(void) {
    for (int seed = 0, seeds = check_iters(160); seed < seeds; seed++) {
        int kind = (int)rng_below(&rng, KINDS);
        size_t d = rng_below(&rng, 6) == 0 ? 384 : 16 + rng_below(&rng, 60);
        md_neighbor_options o = random_options();
        bool big = !(o.per_source_k <= 64);
        size_t n = rng_below(&rng, 8) == 0 ? rng_below(&rng, 4) : 2 + rng_below(&rng, big || check_quick() ? 50 : 150);
        if (seed % 16 == 0 && !big && !check_quick()) n = 300; /* enough pairs: AUTO probes and prunes */
        float *m = malloc((n * d + 1) * sizeof(float));
        make_rows(m, n, d, kind);
        md_str *keys = malloc((n + 1) * sizeof(md_str));
        char (*names)[12] = malloc((n + 1) * 12);
        make_keys(keys, names, n, 0);
        md_neighbor_pairs want;
        CHECK(mdi_packed_pass(m, n, d, keys, 0, n, o, true, &want, NULL, MDI_TOP_EXACT) == MD_OK);
        for (int mode = MDI_TOP_AUTO; mode <= MDI_TOP_PRUNED; mode++) parts_case(m, n, d, keys, o, mode, &want);
        md_neighbor_pairs_free(&want);
        free(keys); free(names); free(m);
    }
    /* misuse */
    float m[4 * 16] = {0};
    for (size_t i = 0; i < 64; i++) m[i] = (float)((i * 37) % 11) - 5;
    uint32_t dup[4] = {0, 1, 1, 3}, bad[4] = {0, 1, 2, 4};
    md_pairs_pass *p = NULL;
    md_neighbor_pairs out = {1, NULL};
    CHECK(md_pairs_pass_new(m, 4, 16, NULL, 0, 2, NULL) == MD_ERR_NULL);
    CHECK(md_pairs_pass_new(NULL, 4, 16, NULL, 0, 2, &p) == MD_ERR_NULL && p == NULL);
    CHECK(md_pairs_pass_new(m, 4, 16, dup, 0, 2, &p) == MD_ERR_INVALID && p == NULL);
    CHECK(md_pairs_pass_new(m, 4, 16, bad, 0, 2, &p) == MD_ERR_RANGE && p == NULL);
    CHECK(md_pairs_pass_new_part(m, 4, 16, NULL, 0, 2, 3, 2, &p) == MD_ERR_RANGE && p == NULL);
    CHECK(md_pairs_pass_new_part(m, 4, 16, NULL, 0, 2, 0, 5, &p) == MD_ERR_RANGE && p == NULL);
    CHECK(md_pairs_pass_rows(NULL, m, 0, 1, true) == MD_ERR_NULL);
    CHECK(md_pairs_pass_add(NULL, 0, 1) == MD_ERR_NULL);
    CHECK(md_pairs_pass_pairs(NULL, true, 10, &out) == MD_ERR_NULL && out.len == 0);
    CHECK(md_pairs_pass_new(m, 4, 16, NULL, 0, 2, &p) == MD_OK);
    CHECK(md_pairs_pass_add(p, 2, 1) == MD_ERR_RANGE);
    CHECK(md_pairs_pass_add(p, 0, 5) == MD_ERR_RANGE);
    CHECK(md_pairs_pass_add(p, 1, 3) == MD_OK);
    CHECK(md_pairs_pass_add(p, 2, 4) == MD_ERR_RANGE); /* row 2 again */
    CHECK(md_pairs_pass_add(p, 0, 1) == MD_OK);
    CHECK(md_pairs_pass_add(p, 3, 3) == MD_OK);
    CHECK(md_pairs_pass_pairs(p, true, 10, NULL) == MD_ERR_NULL);
    float b4[4] = {-INFINITY, 0.5f, -INFINITY, 2};
    CHECK(md_pairs_pass_share(NULL, b4) == MD_ERR_NULL && md_pairs_pass_share(p, NULL) == MD_ERR_NULL);
    CHECK(md_pairs_pass_share(p, b4) == MD_OK && b4[0] == -INFINITY && b4[1] == 0.5f); /* 4 rows: never pruned, nothing learned */
    md_pairs_pass_free(p);
    md_pairs_pass_free(NULL);
}

/* ---- the prefix bound (neighbors_pass.c): every prefix forced, and the rule ---- */

enum { TAIL = KINDS, HEAD, NEAR_FLOOR, SCALED, PREFIX_KINDS };

static double cos_f32(const float *x, const float *y, size_t d) {
    double s = 0, a = 0, b = 0;
    for (size_t k = 0; k < d; k++) {
        s += (double)x[k] * y[k];
        a += (double)x[k] * x[k];
        b += (double)y[k] * y[k];
    }
    return s / sqrt(a * b);
}

/* Rows for the prefix bound: the shared kinds, energy in the tail (the
 * prefix holds almost none: nothing may be ruled out on it) or in the head,
 * pairs whose cosine sits on the floor within a few ulps (differing in the
 * tail dimensions only, or everywhere), and rows of magnitudes 2^-100 to
 * 2^100 with zero rows among them. */
static void make_prefix_rows(float *m, size_t n, size_t d, int kind, double floor) {
    if (kind < KINDS) {
        make_rows(m, n, d, kind);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        float *x = m + i * d;
        for (size_t k = 0; k < d; k++) x[k] = (float)gauss();
        if (kind == TAIL)
            for (size_t k = 0; k < d - d / 8; k++) x[k] *= 1e-3f;
        if (kind == HEAD)
            for (size_t k = d / 4; k < d; k++) x[k] *= 1e-2f;
        if (kind == SCALED) {
            if (rng_below(&rng, 10) == 0) memset(x, 0, d * sizeof(float));
            const float sc = ldexpf(1, (int)rng_below(&rng, 201) - 100);
            for (size_t k = 0; k < d; k++) x[k] *= sc;
        }
        if (kind == NEAR_FLOOR && i % 2 == 1) {
            /* x = the previous row plus t z (z on the tail only, or everywhere), t bisected to the floor */
            const float *y = x - d;
            float *z = malloc(d * sizeof(float));
            const size_t from = rng_below(&rng, 2) ? d / 2 : 0;
            for (size_t k = 0; k < d; k++) z[k] = k >= from ? (float)gauss() : 0;
            const double f = floor > -1 && floor < 1 ? floor : 0.8;
            double lo = 0, hi = 64;
            for (int it = 0; it < 80; it++) {
                const double t = (lo + hi) / 2;
                for (size_t k = 0; k < d; k++) x[k] = (float)(y[k] + t * z[k]);
                if (cos_f32(x, y, d) >= f) lo = t;
                else hi = t;
            }
            for (size_t k = 0; k < d; k++) x[k] = (float)(y[k] + lo * z[k]);
            for (size_t u = rng_below(&rng, 3); u > 0; u--) {
                const size_t k = rng_below(&rng, d);
                x[k] = nextafterf(x[k], rng_below(&rng, 2) ? INFINITY : -INFINITY);
            }
            free(z);
        }
    }
}

static const double PREFIX_FLOORS[] = {0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 0.3, 0, -1};
static const double PREFIX_KS[] = {1, 3, 9, 64, INFINITY};

static void test_prefix(void) {
    size_t forced = 0;
    for (int seed = 0, seeds = check_iters(400); seed < seeds; seed++) {
        int kind = (int)rng_below(&rng, PREFIX_KINDS);
        static const size_t DS[] = {64, 65, 96, 100, 128, 200, 256, 384};
        size_t d = DS[rng_below(&rng, COUNT(DS))];
        md_neighbor_options o = {PREFIX_FLOORS[rng_below(&rng, COUNT(PREFIX_FLOORS))],
                                 PREFIX_KS[rng_below(&rng, COUNT(PREFIX_KS))], 1e9};
        bool big = !(o.per_source_k <= 64);
        size_t n = 2 + rng_below(&rng, big || check_quick() ? 40 : d > 200 ? 90 : 160);
        float *m = malloc((n * d + 1) * sizeof(float));
        make_prefix_rows(m, n, d, kind, o.floor);
        md_str *keys = malloc((n + 1) * sizeof(md_str));
        char (*names)[12] = malloc((n + 1) * 12);
        make_keys(keys, names, n, 0);
        md_neighbor_pairs want, got;
        mdi_prefix_force = 1; /* the reference: the unpruned pass (the prefix setting does not reach it) */
        CHECK(mdi_packed_pass(m, n, d, keys, 0, n, o, true, &want, NULL, MDI_TOP_EXACT) == MD_OK);
        /* the pruned pass with every prefix below the padded length, and the rule's */
        const size_t dp = (d + 31) / 32 * 32;
        for (size_t pre = 0; pre < dp; pre += 32) {
            mdi_prefix_force = pre == 0 ? 0 : pre;
            CHECK(mdi_packed_pass(m, n, d, keys, 0, n, o, true, &got, NULL, MDI_TOP_PRUNED) == MD_OK);
            CHECK(same(&got, &want, keys, 0));
            md_neighbor_pairs_free(&got);
            forced += pre > 0;
        }
        /* a random prefix through tiles and the pass in parts */
        mdi_prefix_force = 32 * (1 + rng_below(&rng, dp / 32 - 1));
        size_t cut = rng_below(&rng, n + 1);
        md_neighbor_pairs t1, t2;
        CHECK(mdi_packed_pass(m, n, d, keys, 0, cut, o, false, &t1, NULL, MDI_TOP_PRUNED) == MD_OK);
        CHECK(mdi_packed_pass(m, n, d, keys, cut, n, o, false, &t2, NULL, MDI_TOP_PRUNED) == MD_OK);
        md_neighbor_pair *all = malloc((t1.len + t2.len + 1) * sizeof(md_neighbor_pair));
        memcpy(all, t1.pairs, t1.len * sizeof(md_neighbor_pair));
        memcpy(all + t1.len, t2.pairs, t2.len * sizeof(md_neighbor_pair));
        CHECK(md_merge_neighbor_pairs(all, t1.len + t2.len, keys, n, o, &got, NULL) == MD_OK);
        CHECK(same(&got, &want, keys, 0));
        md_neighbor_pairs_free(&got);
        md_neighbor_pairs_free(&t1);
        md_neighbor_pairs_free(&t2);
        free(all);
        parts_case(m, n, d, keys, o, MDI_TOP_PRUNED, &want);
        mdi_prefix_force = 0;
        md_neighbor_pairs_free(&want);
        free(keys); free(names); free(m);
    }
    printf("prefix passes checked: %zu\n", forced);
    CHECK(forced > 0);
}

int main(void) {
    printf("kernel variant: %s\n", mdi_kernel_isa());
    test_packed();
    test_shaped();
    test_large();
    test_parts();
    test_prefix();
    printf("pruned passes checked: %zu\n", pruned_checked);
    return check_report("test_allpairs");
}

/* neighbors: the fast paths against a naive transcription of the design
 * (every pair's sim, per-source sort, final sort, slice), the packed form
 * against the reference shape, tiles + merge against the whole pass, the
 * 1 x n arm against md_cosine_f32, and error statuses. */
#include "check.h"
#include "memdomain.h"

#include <stdlib.h>

static check_rng rng = {5};

typedef struct { size_t src, dst; double sim; } npair;

static const md_str *g_keys;
static int by_sim_dst(const void *x, const void *y) {
    const npair *a = x, *b = y;
    if (a->sim != b->sim) return a->sim > b->sim ? -1 : 1;
    return md_key_compare(g_keys[a->dst], g_keys[b->dst]);
}
static int by_final(const void *x, const void *y) {
    const npair *a = x, *b = y;
    if (a->sim != b->sim) return a->sim > b->sim ? -1 : 1;
    int c = md_key_compare(g_keys[a->src], g_keys[b->src]);
    return c ? c : md_key_compare(g_keys[a->dst], g_keys[b->dst]);
}

static size_t slice_len(size_t len, double end) {
    if (isnan(end)) return 0;
    double t = trunc(end);
    if (t < 0) return (double)len + t <= 0 ? 0 : (size_t)((double)len + t);
    return t >= (double)len ? len : (size_t)t;
}

static double sim_of(const float *a, size_t la, const float *b, size_t lb) {
    if (la != lb) { double s; md_cosine_f32(a, la, b, lb, &s); return s; }
    double dot = 0, na = 0, nb = 0;
    for (size_t k = 0; k < la; k++) dot += (double)a[k] * b[k];
    for (size_t k = 0; k < la; k++) na += (double)a[k] * a[k];
    for (size_t k = 0; k < lb; k++) nb += (double)b[k] * b[k];
    na = sqrt(na); nb = sqrt(nb);
    if (na == 0 || nb == 0) return 0;
    double s = dot / (na * nb);
    return isnan(s) ? s : (s > 1 ? 1 : (s < -1 ? -1 : s));
}

/* The design, literally: unique keys. */
static size_t naive(const md_keyed_vector *v, size_t n, md_neighbor_options o, const md_str *keys, npair *out) {
    g_keys = keys;
    npair *cand = malloc((n * n + 1) * sizeof(npair));
    npair *kept = malloc((n * n + 1) * sizeof(npair));
    size_t nk = 0;
    double cap = isnan(o.per_source_k) ? INFINITY : (o.per_source_k < 0 ? 0 : floor(o.per_source_k));
    for (size_t s = 0; s < n; s++) {
        size_t nc = 0;
        for (size_t t = 0; t < n; t++) {
            if (t == s) continue;
            double sim = sim_of(v[s].vec, v[s].len, v[t].vec, v[t].len);
            if (sim >= o.floor) cand[nc++] = (npair){s, t, sim};
        }
        qsort(cand, nc, sizeof(npair), by_sim_dst);
        for (size_t i = 0; i < nc && (double)i < cap; i++) kept[nk++] = cand[i];
    }
    qsort(kept, nk, sizeof(npair), by_final);
    size_t len = slice_len(nk, o.limit);
    for (size_t i = 0; i < len; i++) out[i] = kept[i];
    free(cand);
    free(kept);
    return len;
}

static const double FLOORS[] = {-INFINITY, -1, -0.3, 0, 0.1, 0.5, 0.9, 1, NAN};
static const double KS[] = {0, 1, 2, 3, 5, 1.5, -1, INFINITY, NAN, 100};
static const double LIMITS[] = {0, 1, 3, 10, 1000, 2.5, -1, -4, NAN, INFINITY, -INFINITY};

static md_neighbor_options random_options(void) {
    md_neighbor_options o = {FLOORS[rng_below(&rng, 9)], KS[rng_below(&rng, 10)], LIMITS[rng_below(&rng, 11)]};
    if (rng_below(&rng, 3) == 0) o.floor = rng_range(&rng, -1, 1);
    return o;
}

static float value(void) {
    switch (rng_below(&rng, 40)) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return 0;
    default: return (float)(rng_below(&rng, 3) == 0 ? (double)(int)rng_range(&rng, -3, 4) : rng_range(&rng, -2, 2));
    }
}

static void same_pairs(const md_neighbor_pairs *a, const npair *b, size_t nb) {
    CHECK(a->len == nb);
    if (a->len != nb) return;
    for (size_t i = 0; i < nb; i++) {
        CHECK(a->pairs[i].src == b[i].src && a->pairs[i].dst == b[i].dst);
        CHECK_SAME(a->pairs[i].sim, b[i].sim);
    }
}

static void test_random(void) {
    char names[64][6];
    md_str keys[64];
    for (int iter = 0; iter < check_iters(400); iter++) {
        size_t n = rng_below(&rng, 24), d = rng_below(&rng, 12);
        int ragged = rng_below(&rng, 5) == 0;
        /* distinct keys, some outside the BMP so UTF-16 order matters */
        for (size_t i = 0; i < n; i++) {
            size_t len = 0;
            if (rng_below(&rng, 4) == 0) { names[i][len++] = (char)0xF0; names[i][len++] = (char)0x9F; names[i][len++] = (char)0x98; names[i][len++] = (char)0x80; }
            else if (rng_below(&rng, 4) == 0) { names[i][len++] = (char)0xEF; names[i][len++] = (char)0xBD; names[i][len++] = (char)0x9E; }
            names[i][len++] = (char)('a' + i);
            keys[i].ptr = names[i];
            keys[i].len = len;
        }
        float *m = malloc((n * (d + 2) + 1) * sizeof(float));
        md_keyed_vector v[64];
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            size_t len = ragged ? d + rng_below(&rng, 3) : d;
            v[i].key = keys[i];
            v[i].vec = m + at;
            v[i].len = len;
            for (size_t k = 0; k < len; k++) m[at + k] = value();
            if (rng_below(&rng, 6) == 0 && i > 0 && v[i - 1].len == len) /* an exact duplicate: ties */
                for (size_t k = 0; k < len; k++) m[at + k] = v[i - 1].vec[k];
            at += len;
        }
        md_neighbor_options o = random_options();
        npair *want = malloc((n * n + 1) * sizeof(npair));
        size_t nw = naive(v, n, o, keys, want);
        md_neighbor_pairs got;
        CHECK(md_top_neighbor_pairs(v, n, o, &got) == MD_OK);
        same_pairs(&got, want, nw);
        md_neighbor_pairs_free(&got);
        if (!ragged) {
            size_t dup = 0;
            CHECK(md_top_neighbor_pairs_packed(m, n, d, keys, o, &got, &dup) == MD_OK);
            CHECK(dup == SIZE_MAX);
            same_pairs(&got, want, nw);
            md_neighbor_pairs_free(&got);
            /* any partition into tiles, merged, is the same answer */
            size_t cuts[6] = {0}, nc = 1 + rng_below(&rng, 4);
            for (size_t c = 1; c < nc; c++) cuts[c] = rng_below(&rng, n + 1);
            cuts[nc] = n;
            for (size_t c = 1; c < nc; c++) /* sort the cuts */
                for (size_t e = c; e > 0 && cuts[e] < cuts[e - 1]; e--) { size_t t = cuts[e]; cuts[e] = cuts[e - 1]; cuts[e - 1] = t; }
            md_neighbor_pair *all = malloc((n * n * 2 + 1) * sizeof(md_neighbor_pair));
            size_t na = 0;
            for (size_t c = 0; c < nc; c++) {
                md_neighbor_pairs tile;
                CHECK(md_neighbor_tile_packed(m, n, d, keys, cuts[c], cuts[c + 1], o, &tile, NULL) == MD_OK);
                for (size_t i = 0; i < tile.len; i++) all[na++] = tile.pairs[i];
                md_neighbor_pairs_free(&tile);
            }
            CHECK(md_merge_neighbor_pairs(all, na, keys, n, o, &got, NULL) == MD_OK);
            same_pairs(&got, want, nw);
            md_neighbor_pairs_free(&got);
            free(all);
        }
        /* rankCandidatePairs over every ordered pair equals the src-side selection */
        md_candidate_pair *cp = malloc((n * n + 1) * sizeof(md_candidate_pair));
        size_t ncp = 0;
        for (size_t s = 0; s < n; s++)
            for (size_t t = 0; t < n; t++)
                if (s != t) cp[ncp++] = (md_candidate_pair){keys[s], keys[t]};
        CHECK(md_rank_candidate_pairs(cp, ncp, v, n, o, &got) == MD_OK);
        same_pairs(&got, want, nw);
        md_neighbor_pairs_free(&got);
        free(cp);
        free(want);
        free(m);
    }
}

static void test_errors(void) {
    md_neighbor_options o = {0, 5, 10};
    md_neighbor_pairs out;
    float m[6] = {1, 0, 0, 1, 1, 1};
    md_str keys[3] = {{"a", 1}, {"b", 1}, {"a", 1}};
    size_t dup = 0;
    CHECK(md_top_neighbor_pairs(NULL, 1, o, &out) == MD_ERR_NULL);
    CHECK(md_top_neighbor_pairs(NULL, 0, o, NULL) == MD_ERR_NULL);
    CHECK(md_top_neighbor_pairs(NULL, 0, o, &out) == MD_OK && out.len == 0);
    md_neighbor_pairs_free(&out);
    CHECK(md_top_neighbor_pairs_packed(m, 3, 2, keys, o, &out, &dup) == MD_ERR_INVALID);
    CHECK(dup == 2);
    CHECK(md_top_neighbor_pairs_packed(NULL, 3, 2, keys, o, &out, NULL) == MD_ERR_NULL);
    CHECK(md_top_neighbor_pairs_packed(m, SIZE_MAX / 2, 4, keys, o, &out, NULL) == MD_ERR_RANGE);
    CHECK(md_neighbor_tile_packed(m, 2, 2, keys, 1, 3, o, &out, NULL) == MD_ERR_RANGE);
    md_neighbor_pair bad = {0, 7, 0.5};
    CHECK(md_merge_neighbor_pairs(&bad, 1, keys, 2, o, &out, NULL) == MD_ERR_RANGE);
    double sims[3];
    CHECK(md_cosine_rows_f32(NULL, m, 3, 2, sims) == MD_ERR_NULL);
    size_t idx[3], len = 9;
    CHECK(md_top_cosine_rows_f32(m, m, 3, 2, 2, NULL, sims, &len) == MD_ERR_NULL);
    CHECK(md_top_cosine_rows_f32(m, m, 3, 2, 0, idx, sims, &len) == MD_OK && len == 0);
}

static void test_rows(void) {
    for (int iter = 0; iter < check_iters(100); iter++) {
        size_t n = rng_below(&rng, 70), d = rng_below(&rng, 20);
        float *m = malloc((n * d + 1) * sizeof(float)), q[20];
        for (size_t i = 0; i < n * d; i++) m[i] = value();
        for (size_t k = 0; k < d; k++) q[k] = value();
        if (n > 3) for (size_t k = 0; k < d; k++) m[3 * d + k] = m[k]; /* a tie */
        double *all = malloc((n + 1) * sizeof(double)), *sims = malloc((n + 1) * sizeof(double));
        size_t *idx = malloc((n + 1) * sizeof(size_t));
        CHECK(md_cosine_rows_f32(q, m, n, d, all) == MD_OK);
        for (size_t i = 0; i < n; i++) {
            double want;
            md_cosine_f32(q, d, m + i * d, d, &want);
            CHECK_SAME(all[i], want);
        }
        size_t k = rng_below(&rng, 3) == 0 ? 100 : rng_below(&rng, n + 2), len;
        size_t keep = k < n ? k : n;
        CHECK(md_top_cosine_rows_f32(q, m, n, d, k, idx, sims, &len) == MD_OK);
        CHECK(len == keep);
        /* the order: sim desc, index asc, and nothing better left out */
        for (size_t i = 0; i < len; i++) {
            CHECK_SAME(sims[i], all[idx[i]]);
            if (i > 0) CHECK(sims[i - 1] > sims[i] || (sims[i - 1] == sims[i] && idx[i - 1] < idx[i]));
        }
        if (len > 0 && len < n) {
            size_t better = 0;
            for (size_t j = 0; j < n; j++)
                if (all[j] > sims[len - 1] || (all[j] == sims[len - 1] && j <= idx[len - 1])) better++;
            CHECK(better == len);
        }
        free(m); free(all); free(sims); free(idx);
    }
}

int main(void) {
    test_random();
    test_errors();
    test_rows();
    return check_report("test_neighbors");
}

/* The flat forms (keys as ranks, vectors back to back, scalar options) and
 * the passes over resident rows, against the reference-shaped calls and
 * against md_cosine / md_apply_mmr directly:
 *  - md_key_ranks orders keys as md_key_compare does (duplicates share a rank);
 *  - md_top_neighbor_pairs_f32 / md_rank_candidate_pairs_f32 equal the
 *    md_keyed_vector calls; md_neighbor_pairs_ranked (whole and tiles) and
 *    md_rows_neighbor_pairs equal md_top_neighbor_pairs_packed;
 *  - the double-input path on random doubles (not float values): every
 *    pair's similarity is md_cosine of the two arrays, bit for bit, and on
 *    widened floats it gives the float path's bits;
 *  - md_rows_rank_candidate_pairs and md_rows_apply_mmr equal the plain
 *    calls over the same vectors. */
#include "check.h"
#include "memdomain.h"

#include <stdlib.h>

static check_rng rng = {12};
#include "vectors.h"

/* Keys: short strings over a few letters (so some repeat when `dups`), some outside the BMP. */
static void make_keys(size_t n, int dups, char (*names)[8], md_str *keys, uint8_t *bytes, uint32_t *offs) {
    size_t at = 0;
    offs[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = 0;
        if (rng_below(&rng, 6) == 0) { names[i][len++] = (char)0xF0; names[i][len++] = (char)0x9F; names[i][len++] = (char)0x98; names[i][len++] = (char)0x80; }
        size_t v = dups ? rng_below(&rng, 5) : i;
        names[i][len++] = (char)('a' + v % 26);
        names[i][len++] = (char)('a' + (v / 26) % 26);
        keys[i].ptr = names[i];
        keys[i].len = len;
        memcpy(bytes + at, names[i], len);
        at += len;
        offs[i + 1] = (uint32_t)at;
    }
}

static int same_pairs(const md_neighbor_pairs *a, const md_neighbor_pairs *b) {
    if (a->len != b->len) return 0;
    for (size_t i = 0; i < a->len; i++)
        if (a->pairs[i].src != b->pairs[i].src || a->pairs[i].dst != b->pairs[i].dst ||
            memcmp(&a->pairs[i].sim, &b->pairs[i].sim, 8) != 0)
            return 0;
    return 1;
}

static void test_key_ranks(void) {
    for (int iter = 0; iter < 200; iter++) {
        size_t n = rng_below(&rng, 40);
        char names[40][8];
        md_str keys[40];
        uint8_t bytes[40 * 8];
        uint32_t offs[41], rank[40], dup;
        make_keys(n, (int)rng_below(&rng, 2), names, keys, bytes, offs);
        CHECK(md_key_ranks(bytes, offs, n, rank, &dup) == MD_OK);
        int any_dup = 0;
        for (size_t i = 0; i < n; i++) {
            CHECK(rank[i] < n);
            for (size_t j = 0; j < n; j++) {
                int c = md_key_compare(keys[i], keys[j]);
                CHECK((c < 0) == (rank[i] < rank[j]) && (c == 0) == (rank[i] == rank[j]));
                if (c == 0 && i < j) any_dup = 1;
            }
        }
        CHECK(any_dup ? dup < n && dup > 0 : dup == UINT32_MAX);
    }
    uint32_t r[2];
    CHECK(md_key_ranks(NULL, NULL, 0, NULL, NULL) == MD_OK);
    CHECK(md_key_ranks(NULL, NULL, 2, r, NULL) == MD_ERR_NULL);
    uint32_t bad[3] = {0, 2, 1};
    CHECK(md_key_ranks((const uint8_t *)"abc", bad, 2, r, NULL) == MD_ERR_RANGE);
}

static md_neighbor_options random_options(void) {
    static const double F[] = {-INFINITY, -0.5, 0, 0.3, NAN}, K[] = {0, 1, 2, 5, INFINITY, 1.5}, L[] = {0, 3, 1e9, -2, NAN};
    md_neighbor_options o = {F[rng_below(&rng, 5)], K[rng_below(&rng, 6)], L[rng_below(&rng, 5)]};
    return o;
}

/* Ragged float vectors: the flat f32 forms against the keyed calls; the
 * f64 forms over the widened copies give the same answer. */
static void test_flat_f32(void) {
    for (int iter = 0, iters = check_iters(300); iter < iters; iter++) {
        size_t n = rng_below(&rng, 30), base = 1 + rng_below(&rng, 20);
        int ragged = rng_below(&rng, 3) == 0, dups = rng_below(&rng, 3) == 0;
        char names[30][8];
        md_str keys[30];
        uint8_t bytes[30 * 8];
        uint32_t koffs[31], rank[30], offs[31];
        make_keys(n, dups, names, keys, bytes, koffs);
        CHECK(md_key_ranks(bytes, koffs, n, rank, NULL) == MD_OK);
        float *data = malloc((n * (base + 2) + 1) * sizeof(float));
        double *wide = malloc((n * (base + 2) + 1) * sizeof(double));
        md_keyed_vector v[30];
        offs[0] = 0;
        for (size_t i = 0; i < n; i++) {
            size_t len = ragged ? base + rng_below(&rng, 3) : base;
            make_rows(data + offs[i], 1, len, (int)rng_below(&rng, KINDS));
            v[i] = (md_keyed_vector){keys[i], data + offs[i], len};
            offs[i + 1] = offs[i] + (uint32_t)len;
        }
        for (size_t t = 0; t < offs[n]; t++) wide[t] = (double)data[t];
        md_neighbor_options o = random_options();
        md_neighbor_pairs want, got;
        CHECK(md_top_neighbor_pairs(v, n, o, &want) == MD_OK);
        CHECK(md_top_neighbor_pairs_f32(data, offs, n, rank, o.floor, o.per_source_k, o.limit, &got) == MD_OK);
        CHECK(same_pairs(&got, &want));
        md_neighbor_pairs_free(&got);
        CHECK(md_top_neighbor_pairs_f64(wide, offs, n, rank, o.floor, o.per_source_k, o.limit, &got) == MD_OK);
        CHECK(same_pairs(&got, &want));
        md_neighbor_pairs_free(&got);
        md_neighbor_pairs_free(&want);
        /* candidate pairs, some naming a key without a vector */
        size_t np = rng_below(&rng, 60);
        md_candidate_pair cp[60];
        uint32_t src[60], dst[60];
        static const md_str missing = {"zz", 2};
        for (size_t p = 0; p < np && n; p++) {
            size_t a = rng_below(&rng, n), b = rng_below(&rng, n);
            int gone = rng_below(&rng, 8) == 0;
            cp[p] = (md_candidate_pair){gone ? missing : keys[a], keys[b]};
            /* the last vector under a key wins, as in new Map(entries) */
            size_t la = a, lb = b;
            for (size_t i = 0; i < n; i++) {
                if (!md_key_compare(keys[i], keys[a])) la = i;
                if (!md_key_compare(keys[i], keys[b])) lb = i;
            }
            src[p] = gone ? UINT32_MAX : (uint32_t)la;
            dst[p] = (uint32_t)lb;
        }
        if (!n) np = 0;
        CHECK(md_rank_candidate_pairs(cp, np, v, n, o, &want) == MD_OK);
        CHECK(md_rank_candidate_pairs_f32(data, offs, n, rank, src, dst, np, o.floor, o.per_source_k, o.limit, &got) == MD_OK);
        CHECK(same_pairs(&got, &want));
        md_neighbor_pairs_free(&got);
        CHECK(md_rank_candidate_pairs_f64(wide, offs, n, rank, src, dst, np, o.floor, o.per_source_k, o.limit, &got) == MD_OK);
        CHECK(same_pairs(&got, &want));
        md_neighbor_pairs_free(&got);
        md_neighbor_pairs_free(&want);
        free(data);
        free(wide);
    }
}

/* Random doubles that are not float values: each pair's similarity is
 * md_cosine of the two arrays (the hoisted form equals cosine on finite
 * vectors), and a pair is in the answer exactly when the design keeps it. */
static void test_f64_cosine(void) {
    for (int iter = 0, iters = check_iters(300); iter < iters; iter++) {
        size_t n = 2 + rng_below(&rng, 25), d = 1 + rng_below(&rng, 40);
        double *g = malloc(n * d * sizeof(double));
        uint32_t offs[28];
        for (size_t i = 0; i < n * d; i++) g[i] = rng_range(&rng, -1, 1) * (rng_below(&rng, 4) ? 1 : 1e-3);
        if (rng_below(&rng, 4) == 0) memset(g, 0, d * sizeof(double)); /* a zero vector */
        for (size_t i = 0; i <= n; i++) offs[i] = (uint32_t)(i * d);
        md_neighbor_pairs got;
        CHECK(md_top_neighbor_pairs_f64(g, offs, n, NULL, -INFINITY, INFINITY, INFINITY, &got) == MD_OK);
        CHECK(got.len == n * (n - 1)); /* every ordered pair, each with cosine's value */
        for (size_t p = 0; p < got.len; p++) {
            double want;
            md_cosine(g + got.pairs[p].src * d, d, g + got.pairs[p].dst * d, d, &want);
            CHECK_SAME(got.pairs[p].sim, want);
        }
        md_neighbor_pairs_free(&got);
        /* and through rankCandidatePairs: src-side pairs only */
        uint32_t src[40], dst[40];
        size_t np = 1 + rng_below(&rng, 40);
        for (size_t p = 0; p < np; p++) { src[p] = (uint32_t)rng_below(&rng, n); dst[p] = (uint32_t)rng_below(&rng, n); }
        CHECK(md_rank_candidate_pairs_f64(g, offs, n, NULL, src, dst, 0, -INFINITY, INFINITY, INFINITY, &got) == MD_OK &&
              got.len == 0);
        md_neighbor_pairs_free(&got);
        CHECK(md_rank_candidate_pairs_f64(g, offs, n, NULL, src, dst, np, -INFINITY, INFINITY, INFINITY, &got) == MD_OK);
        CHECK(got.len == np);
        for (size_t p = 0; p < got.len; p++) {
            double want;
            md_cosine(g + got.pairs[p].src * d, d, g + got.pairs[p].dst * d, d, &want);
            CHECK_SAME(got.pairs[p].sim, want);
        }
        md_neighbor_pairs_free(&got);
        free(g);
    }
}

/* Ranked packed passes and the resident passes against the keyed packed call. */
static void test_ranked_and_resident(void) {
    for (int iter = 0, iters = check_iters(150); iter < iters; iter++) {
        size_t n = rng_below(&rng, 200), d = 16 + rng_below(&rng, 40);
        char (*names)[8] = malloc((n + 1) * 8);
        md_str *keys = malloc((n + 1) * sizeof(md_str));
        uint8_t *bytes = malloc(n * 8 + 1);
        uint32_t *koffs = malloc((n + 1) * sizeof(uint32_t)), *rank = malloc((n + 1) * sizeof(uint32_t));
        make_keys(n, 0, names, keys, bytes, koffs);
        for (size_t i = 0; i < n; i++) { /* make them unique: append the index */
            names[i][keys[i].len] = (char)('A' + i % 26);
            names[i][keys[i].len + 1] = (char)('A' + i / 26 % 26);
            keys[i].len += 2;
        }
        size_t at = 0;
        for (size_t i = 0; i < n; i++) { memcpy(bytes + at, keys[i].ptr, keys[i].len); at += keys[i].len; koffs[i + 1] = (uint32_t)at; }
        uint32_t dup;
        CHECK(md_key_ranks(bytes, koffs, n, rank, &dup) == MD_OK && dup == UINT32_MAX);
        float *m = malloc((n * d + 1) * sizeof(float));
        make_rows(m, n, d, (int)rng_below(&rng, KINDS));
        md_rows *r;
        CHECK(md_rows_new(d, &r) == MD_OK);
        CHECK(md_rows_append(r, m, n) == MD_OK);
        md_neighbor_options o = random_options();
        md_neighbor_pairs want, got;
        CHECK(md_top_neighbor_pairs_packed(m, n, d, keys, o, &want, NULL) == MD_OK);
        CHECK(md_neighbor_pairs_ranked(m, n, d, rank, 0, n, o.floor, o.per_source_k, o.limit, true, &got) == MD_OK);
        CHECK(same_pairs(&got, &want));
        md_neighbor_pairs_free(&got);
        CHECK(md_rows_neighbor_pairs(r, rank, 0, n, o.floor, o.per_source_k, o.limit, true, &got) == MD_OK);
        CHECK(same_pairs(&got, &want));
        md_neighbor_pairs_free(&got);
        /* two tiles, merged by rank */
        size_t cut = rng_below(&rng, n + 1);
        md_neighbor_pairs t1, t2;
        CHECK(md_neighbor_pairs_ranked(m, n, d, rank, 0, cut, o.floor, o.per_source_k, o.limit, false, &t1) == MD_OK);
        CHECK(md_rows_neighbor_pairs(r, rank, cut, n, o.floor, o.per_source_k, o.limit, false, &t2) == MD_OK);
        md_neighbor_pair *all = malloc((t1.len + t2.len + 1) * sizeof(md_neighbor_pair));
        memcpy(all, t2.pairs, t2.len * sizeof(md_neighbor_pair));
        memcpy(all + t2.len, t1.pairs, t1.len * sizeof(md_neighbor_pair));
        CHECK(md_merge_neighbor_pairs_ranked(all, t1.len + t2.len, rank, n, o.floor, o.per_source_k, o.limit, &got) == MD_OK);
        CHECK(same_pairs(&got, &want));
        md_neighbor_pairs_free(&got);
        md_neighbor_pairs_free(&t1);
        md_neighbor_pairs_free(&t2);
        free(all);
        md_neighbor_pairs_free(&want);
        /* rankCandidatePairs on the resident norms */
        size_t np = rng_below(&rng, 300);
        uint32_t *src = malloc((np + 1) * sizeof(uint32_t)), *dst = malloc((np + 1) * sizeof(uint32_t));
        uint32_t *offs = malloc((n + 1) * sizeof(uint32_t));
        for (size_t p = 0; p < np; p++) {
            src[p] = (uint32_t)(n ? rng_below(&rng, n + 1) : 0); /* n: no vector */
            dst[p] = (uint32_t)(n ? rng_below(&rng, n) : 0);
        }
        for (size_t i = 0; i <= n; i++) offs[i] = (uint32_t)(i * d);
        CHECK(md_rank_candidate_pairs_f32(m, offs, n, rank, src, dst, np, o.floor, o.per_source_k, o.limit, &want) == MD_OK);
        CHECK(md_rows_rank_candidate_pairs(r, rank, src, dst, np, o.floor, o.per_source_k, o.limit, &got) == MD_OK);
        CHECK(same_pairs(&got, &want));
        md_neighbor_pairs_free(&got);
        md_neighbor_pairs_free(&want);
        /* applyMmr on the resident rows against md_apply_mmr over widened copies */
        size_t nc = rng_below(&rng, n + 1);
        uint32_t *rows = malloc((nc + 1) * sizeof(uint32_t)), *picked = malloc((nc + 1) * sizeof(uint32_t));
        double *scores = malloc((nc + 1) * sizeof(double)), *wide = malloc((nc * d + 1) * sizeof(double));
        md_mmr_candidate *c = malloc((nc + 1) * sizeof(md_mmr_candidate));
        size_t *want_idx = malloc((nc + 1) * sizeof(size_t));
        for (size_t i = 0; i < nc; i++) {
            rows[i] = (uint32_t)rng_below(&rng, n);
            scores[i] = rng_below(&rng, 20) == 0 ? NAN : rng_range(&rng, 0, 1);
            for (size_t k = 0; k < d; k++) wide[i * d + k] = (double)m[rows[i] * d + k];
            c[i] = (md_mmr_candidate){scores[i], wide + i * d, d, true};
        }
        static const double LAMBDAS[] = {0.5, 0, 0.9, 1, NAN, -1};
        double lambda = LAMBDAS[rng_below(&rng, 6)], limit = (double)rng_below(&rng, nc + 3);
        size_t wl, gl;
        CHECK(md_apply_mmr(c, nc, limit, lambda, want_idx, &wl) == MD_OK);
        CHECK(md_rows_apply_mmr(r, rows, scores, nc, limit, lambda, picked, &gl) == MD_OK);
        CHECK(wl == gl);
        for (size_t i = 0; i < wl && i < gl; i++) CHECK(picked[i] == want_idx[i]);
        free(rows); free(picked); free(scores); free(wide); free(c); free(want_idx);
        free(src); free(dst); free(offs);
        md_rows_free(r);
        free(m); free(names); free(keys); free(bytes); free(koffs); free(rank);
    }
}

static void test_errors(void) {
    md_neighbor_pairs out;
    float m[4] = {1, 0, 0, 1};
    uint32_t offs[3] = {0, 2, 4}, rank[2] = {0, 0}, bad_rank[2] = {0, 5};
    CHECK(md_top_neighbor_pairs_f32(m, offs, 2, NULL, 0, 5, 10, NULL) == MD_ERR_NULL);
    CHECK(md_top_neighbor_pairs_f32(NULL, offs, 2, NULL, 0, 5, 10, &out) == MD_ERR_NULL);
    CHECK(md_top_neighbor_pairs_f32(m, NULL, 2, NULL, 0, 5, 10, &out) == MD_ERR_NULL);
    CHECK(md_top_neighbor_pairs_f32(m, offs, 2, bad_rank, 0, 5, 10, &out) == MD_ERR_RANGE);
    CHECK(md_top_neighbor_pairs_f32(m, offs, 2, rank, -1, 5, 10, &out) == MD_OK && out.len == 2);
    md_neighbor_pairs_free(&out);
    CHECK(md_neighbor_pairs_ranked(m, 2, 2, rank, 0, 2, 0, 5, 10, true, &out) == MD_ERR_INVALID);
    CHECK(md_neighbor_pairs_ranked(m, 2, 2, NULL, 1, 3, 0, 5, 10, true, &out) == MD_ERR_RANGE);
    uint32_t src[1] = {0};
    CHECK(md_rank_candidate_pairs_f64(NULL, NULL, 0, NULL, src, NULL, 1, 0, 5, 10, &out) == MD_ERR_NULL);
    md_rows *r;
    CHECK(md_rows_new(2, &r) == MD_OK && md_rows_append(r, m, 2) == MD_OK);
    uint32_t rows[1] = {2}, picked[1];
    double sc[1] = {1};
    size_t len;
    CHECK(md_rows_apply_mmr(r, rows, sc, 1, 1, 0.5, picked, &len) == MD_ERR_RANGE);
    CHECK(md_rows_apply_mmr(NULL, rows, sc, 1, 1, 0.5, picked, &len) == MD_ERR_NULL);
    CHECK(md_rows_rank_candidate_pairs(NULL, NULL, src, src, 1, 0, 5, 10, &out) == MD_ERR_NULL);
    CHECK(md_rows_neighbor_pairs(r, NULL, 0, 2, 0, 5, 10, true, NULL) == MD_ERR_NULL);
    md_rows_free(r);
}

int main(void) {
    test_key_ranks();
    test_flat_f32();
    test_f64_cosine();
    test_ranked_and_resident();
    test_errors();
    return check_report("test_flat");
}

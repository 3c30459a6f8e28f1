/* fuseArms, rankFused and fuseLateral on arbitrary keys (any bytes) and
 * numbers, through the public C API and through the wasm boundary functions
 * exactly as the glue calls them. */
#include <math.h>
#include <stdlib.h>

#include "boundary.h"
#include "fuzz_input.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

int mdw_fuse_arms(const uint8_t *bytes, const uint32_t *offsets, size_t n_keys, const double *ranks,
                  const uint32_t *arm_lens, size_t n_arms, const double *weights, size_t n_weights,
                  double k, size_t *out);
int mdw_rank_fused(const uint8_t *bytes, const uint32_t *offsets, size_t n, const double *scores, size_t *order_out);
int mdw_fuse_lateral(const uint8_t *bytes, const uint32_t *offsets, size_t n_fused, const double *scores,
                     size_t n_order, double weight, double k, size_t *out);

enum { MAXK = 40 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    size_t n_arms = take_u8(&in) % 5, n_keys = 0;
    uint32_t lens[5], offs[MAXK + 1] = {0};
    uint8_t bytes[MAXK * 8];
    double ranks[MAXK], weights[5];
    md_str keys[MAXK];
    for (size_t a = 0; a < n_arms; a++) {
        lens[a] = take_u8(&in) % 9;
        if (n_keys + lens[a] > MAXK) lens[a] = (uint32_t)(MAXK - n_keys);
        for (uint32_t h = 0; h < lens[a]; h++, n_keys++) {
            const uint8_t *s;
            size_t len = take_str(&in, &s);
            memcpy(bytes + offs[n_keys], s, len);
            offs[n_keys + 1] = offs[n_keys] + (uint32_t)len;
            ranks[n_keys] = take_num(&in);
        }
        weights[a] = take_u8(&in) % 3 == 0 ? 0 : take_num(&in);
    }
    for (size_t i = 0; i < n_keys; i++) keys[i] = (md_str){(const char *)bytes + offs[i], offs[i + 1] - offs[i]};
    double k = take_num(&in);

    /* boundary, as the glue calls it */
    size_t out[16] = {0};
    int st = mdw_fuse_arms(bytes, offs, n_keys, ranks, lens, n_arms, weights, n_arms, k, out);
    REQUIRE(st == MD_OK);
    size_t len = out[1];
    REQUIRE(len <= n_keys);
    double *scores = (double *)out[0];
    uint32_t *index = (uint32_t *)((uint8_t *)out[0] + mdw_align8(len * sizeof(double)));
    for (size_t i = 0; i < len; i++) REQUIRE(index[i] < n_keys);

    /* public API agrees with the boundary */
    md_arm arms[5];
    md_arm_hit hits[MAXK];
    size_t at = 0;
    for (size_t a = 0; a < n_arms; a++) {
        arms[a].hits = hits + at;
        arms[a].n_hits = lens[a];
        for (uint32_t h = 0; h < lens[a]; h++, at++) hits[at] = (md_arm_hit){keys[at], ranks[at]};
    }
    md_fused f;
    REQUIRE(md_fuse_arms(arms, n_arms, weights, n_arms, k, &f) == MD_OK && f.len == len);
    for (size_t i = 0; i < len; i++) {
        REQUIRE(memcmp(&f.scores[i], &scores[i], 8) == 0 || (isnan(f.scores[i]) && isnan(scores[i])));
        REQUIRE(md_key_compare(f.paths[i], keys[index[i]]) == 0);
    }

    /* rankFused: a permutation, ordered by score desc then key, NaN last */
    size_t order[MAXK];
    REQUIRE(md_rank_fused(f.paths, f.scores, f.len, order) == MD_OK);
    uint8_t seen[MAXK] = {0};
    for (size_t i = 0; i < f.len; i++) { REQUIRE(order[i] < f.len && !seen[order[i]]); seen[order[i]] = 1; }
    for (size_t i = 1; i < f.len; i++) {
        double x = f.scores[order[i - 1]], y = f.scores[order[i]];
        REQUIRE(!isnan(y) || isnan(x) || 1);
        if (isnan(x)) REQUIRE(isnan(y));
        else if (!isnan(y)) {
            REQUIRE(x >= y);
            if (x == y) REQUIRE(md_key_compare(f.paths[order[i - 1]], f.paths[order[i]]) <= 0);
        }
    }
    size_t border[MAXK];
    uint32_t foffs[MAXK + 1] = {0};
    uint8_t fbytes[MAXK * 8];
    for (size_t i = 0; i < f.len; i++) {
        memcpy(fbytes + foffs[i], f.paths[i].ptr, f.paths[i].len);
        foffs[i + 1] = foffs[i] + (uint32_t)f.paths[i].len;
    }
    REQUIRE(mdw_rank_fused(fbytes, foffs, f.len, f.scores, border) == MD_OK);
    for (size_t i = 0; i < f.len; i++) REQUIRE(border[i] == order[i]);

    /* fuseLateral over the fused map and the first keys as the order */
    size_t n_order = take_u8(&in) % (n_keys + 1);
    double weight = take_num(&in);
    md_fused g;
    REQUIRE(md_fuse_lateral(f.paths, f.scores, f.len, keys, n_order, weight, k, &g) == MD_OK);
    REQUIRE(g.len >= f.len && g.len <= f.len + n_order);
    if (weight <= 0 || n_order == 0) REQUIRE(g.len == f.len);
    /* and through the boundary: fused keys then order keys in one table */
    uint32_t loffs[2 * MAXK + 1] = {0};
    uint8_t lbytes[2 * MAXK * 8];
    md_str all[2 * MAXK];
    size_t nl = 0;
    for (size_t i = 0; i < f.len; i++) all[nl++] = f.paths[i];
    for (size_t i = 0; i < n_order; i++) all[nl++] = keys[i];
    for (size_t i = 0; i < nl; i++) {
        memcpy(lbytes + loffs[i], all[i].ptr, all[i].len);
        loffs[i + 1] = loffs[i] + (uint32_t)all[i].len;
    }
    size_t lout[16] = {0};
    REQUIRE(mdw_fuse_lateral(lbytes, loffs, f.len, f.scores, n_order, weight, k, lout) == MD_OK);
    REQUIRE(lout[1] == g.len);
    md_free((void *)lout[0]);
    md_fused_free(&g);
    md_fused_free(&f);
    md_free((void *)out[0]);
    return 0;
}

/* The vector modules on arbitrary keys, vectors and options: every shape of
 * the same question gives the same answer (reference-shaped, packed, tiles
 * merged in any split, the wasm boundary), results are ordered as the
 * design says, and the 1 x n arm and MMR agree with their plain forms. */
#include <math.h>
#include <stdlib.h>

#include "boundary.h"
#include "fuzz_input.h"
#include "memdomain.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)
#define MAXN 24
#define MAXD 9

int mdw_top_neighbor_pairs(const uint8_t *bytes, const uint32_t *offsets, size_t n, const float *data,
                           const uint32_t *lens, double floor, double k, double limit, size_t *out);

static int same_pairs(const md_neighbor_pairs *a, const md_neighbor_pairs *b) {
    if (a->len != b->len) return 0;
    for (size_t i = 0; i < a->len; i++) {
        const md_neighbor_pair *x = &a->pairs[i], *y = &b->pairs[i];
        if (x->src != y->src || x->dst != y->dst || memcmp(&x->sim, &y->sim, 8) != 0) return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    size_t n = take_u8(&in) % (MAXN + 1), d = take_u8(&in) % (MAXD + 1);
    int ragged = take_u8(&in) % 4 == 0;
    md_neighbor_options o = {take_num(&in), take_num(&in), take_num(&in)};
    uint8_t bytes[MAXN * 8];
    uint32_t offs[MAXN + 1], lens[MAXN];
    md_str keys[MAXN];
    float vals[MAXN * (MAXD + 2)];
    md_keyed_vector vec[MAXN];
    size_t at = 0, kb = 0;
    offs[0] = 0;
    int unique = 1;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *s;
        size_t len = take_str(&in, &s);
        if (len > 8) len = 8;
        memcpy(bytes + kb, s, len);
        keys[i].ptr = (const char *)bytes + kb;
        keys[i].len = len;
        kb += len;
        offs[i + 1] = (uint32_t)kb;
        for (size_t j = 0; j < i; j++) if (md_key_compare(keys[i], keys[j]) == 0) unique = 0;
        size_t l = ragged ? d + take_u8(&in) % 3 : d;
        for (size_t k = 0; k < l; k++) vals[at + k] = (float)take_num(&in);
        vec[i].key = keys[i];
        vec[i].vec = vals + at;
        vec[i].len = l;
        lens[i] = (uint32_t)l;
        at += l;
    }
    md_neighbor_pairs ref;
    REQUIRE(md_top_neighbor_pairs(vec, n, o, &ref) == MD_OK);
    for (size_t i = 0; i < ref.len; i++) {
        const md_neighbor_pair *p = &ref.pairs[i];
        /* with duplicate keys src is any vector carrying the key, maybe dst itself */
        REQUIRE(p->src < n && p->dst < n && (p->src != p->dst || !unique));
        REQUIRE(p->sim >= -1 && p->sim <= 1 && p->sim >= o.floor);
        if (i > 0) {
            const md_neighbor_pair *q = &ref.pairs[i - 1];
            int c = q->sim != p->sim ? (q->sim > p->sim ? -1 : 1) : md_key_compare(keys[q->src], keys[p->src]);
            if (c == 0) c = md_key_compare(keys[q->dst], keys[p->dst]);
            REQUIRE(c <= 0);
        }
    }
    /* the wasm boundary over the same table gives the same pairs */
    size_t out[4] = {0};
    REQUIRE(mdw_top_neighbor_pairs(bytes, offs, n, vals, lens, o.floor, o.per_source_k, o.limit, out) == MD_OK);
    REQUIRE(out[1] == ref.len);
    free((void *)out[0]);
    if (!ragged && unique) {
        md_neighbor_pairs packed, merged;
        REQUIRE(md_top_neighbor_pairs_packed(vals, n, d, keys, o, &packed, NULL) == MD_OK);
        REQUIRE(same_pairs(&packed, &ref));
        size_t cut = n ? take_u8(&in) % (n + 1) : 0;
        md_neighbor_pairs t1, t2;
        REQUIRE(md_neighbor_tile_packed(vals, n, d, keys, 0, cut, o, &t1, NULL) == MD_OK);
        REQUIRE(md_neighbor_tile_packed(vals, n, d, keys, cut, n, o, &t2, NULL) == MD_OK);
        md_neighbor_pair *all = malloc((t1.len + t2.len + 1) * sizeof(md_neighbor_pair));
        memcpy(all, t2.pairs, t2.len * sizeof(md_neighbor_pair));
        memcpy(all + t2.len, t1.pairs, t1.len * sizeof(md_neighbor_pair));
        REQUIRE(md_merge_neighbor_pairs(all, t1.len + t2.len, keys, n, o, &merged, NULL) == MD_OK);
        REQUIRE(same_pairs(&merged, &ref));
        free(all);
        md_neighbor_pairs_free(&t1);
        md_neighbor_pairs_free(&t2);
        md_neighbor_pairs_free(&merged);
        md_neighbor_pairs_free(&packed);
        /* the 1 x n arm against cosine, with row 0 as the query */
        if (n > 0) {
            double sims[MAXN];
            REQUIRE(md_cosine_rows_f32(vals, vals, n, d, sims) == MD_OK);
            for (size_t i = 0; i < n; i++) {
                double want;
                md_cosine_f32(vals, d, vals + i * d, d, &want);
                REQUIRE(memcmp(&want, &sims[i], 8) == 0);
            }
        }
    }
    md_neighbor_pairs_free(&ref);
    /* MMR over the same vectors (as doubles), object form against packed form */
    double lambda = take_num(&in), limit = take_num(&in);
    double dv[MAXN * (MAXD + 2)], scores[MAXN];
    md_mmr_candidate c[MAXN];
    for (size_t i = 0; i < at; i++) dv[i] = (double)vals[i];
    for (size_t i = 0, p = 0; i < n; i++) {
        scores[i] = take_num(&in);
        c[i].score = scores[i];
        c[i].vector = dv + p;
        c[i].len = vec[i].len;
        c[i].has_vector = true;
        p += vec[i].len;
    }
    size_t a[MAXN], b[MAXN], la = 0, lb = 0;
    REQUIRE(md_apply_mmr(c, n, limit, lambda, a, &la) == MD_OK);
    REQUIRE(la <= n);
    for (size_t i = 0; i < la; i++)
        for (size_t j = 0; j < i; j++) REQUIRE(a[i] != a[j] && a[i] < n);
    if (!ragged) {
        REQUIRE(md_apply_mmr_packed(scores, dv, n, d, limit, lambda, b, &lb) == MD_OK);
        REQUIRE(la == lb && memcmp(a, b, la * sizeof(size_t)) == 0);
    }
    return 0;
}

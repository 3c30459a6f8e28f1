/* The vector modules on arbitrary keys, vectors and options: every shape of
 * the same question gives the same answer (reference-shaped, packed, tiles
 * merged in any split, the wasm boundary, the flat f32 / f64 forms with key
 * ranks, the pruned passes forced on against the unpruned ones, resident
 * rows through updates), results are ordered as the design says, and the
 * 1 x n arm and MMR agree with their plain forms. */
#include <math.h>
#include <stdlib.h>

#include "boundary.h"
#include "fuzz_input.h"
#include "memdomain.h"
#include "rows.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)
#define MAXN 24
#define MAXD 9

int mdw_neighbor_pairs(const uint8_t *bytes, const uint32_t *offsets, size_t n, const void *data,
                       uint32_t mode, const uint32_t *voff, const uint32_t *src, const uint32_t *dst,
                       size_t n_pairs, double floor, double k, double limit, size_t *out);

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
    uint32_t offs[MAXN + 1], lens[MAXN], voff[MAXN + 1];
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
        voff[i] = (uint32_t)at;
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
    voff[n] = (uint32_t)at;
    /* the wasm boundary over the same table (keys ranked there) gives the same pairs */
    size_t out[4] = {0};
    REQUIRE(mdw_neighbor_pairs(bytes, offs, n, vals, 0, voff, NULL, NULL, 0, o.floor, o.per_source_k, o.limit, out) ==
            MD_OK);
    REQUIRE(out[1] == ref.len);
    for (size_t i = 0; i < ref.len; i++) {
        const uint32_t *idx = (const uint32_t *)((const double *)out[0] + ref.len);
        /* with duplicate keys either vector carrying the key may be named: compare keys */
        REQUIRE(idx[i] < n && md_key_compare(keys[idx[i]], keys[ref.pairs[i].src]) == 0);
        REQUIRE(idx[ref.len + i] < n && md_key_compare(keys[idx[ref.len + i]], keys[ref.pairs[i].dst]) == 0);
        REQUIRE(memcmp((const double *)out[0] + i, &ref.pairs[i].sim, 8) == 0);
    }
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
    /* the flat forms with ranks from the key table, as floats and as widened doubles */
    {
        uint32_t rank[MAXN], voffs[MAXN + 1];
        double wide[MAXN * (MAXD + 2)];
        REQUIRE(md_key_ranks(bytes, offs, n, rank, NULL) == MD_OK);
        voffs[0] = 0;
        for (size_t i = 0; i < n; i++) voffs[i + 1] = voffs[i] + lens[i];
        for (size_t i = 0; i < at; i++) wide[i] = (double)vals[i];
        md_neighbor_pairs flat;
        REQUIRE(md_top_neighbor_pairs_f32(vals, voffs, n, rank, o.floor, o.per_source_k, o.limit, &flat) == MD_OK);
        REQUIRE(same_pairs(&flat, &ref));
        md_neighbor_pairs_free(&flat);
        REQUIRE(md_top_neighbor_pairs_f64(wide, voffs, n, rank, o.floor, o.per_source_k, o.limit, &flat) == MD_OK);
        REQUIRE(same_pairs(&flat, &ref));
        md_neighbor_pairs_free(&flat);
    }
    md_neighbor_pairs_free(&ref);
    /* Wider rows built from the same values (d2 >= 16, so the filter
     * exists): the pruned passes forced on equal the unpruned ones, and
     * resident rows answer as the one-shot arm through updates. */
    if (n > 0 && unique) {
        enum { WD = 40 };
        size_t d2 = 16 + take_u8(&in) % (WD - 15);
        float wrows[MAXN * WD];
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < d2; k++)
                wrows[i * d2 + k] = vec[i].len ? vec[i].vec[k % vec[i].len] * (float)(1 + (double)k / 64) : 0.0f;
        md_neighbor_pairs e, p;
        REQUIRE(mdi_packed_pass(wrows, n, d2, keys, 0, n, o, true, &e, NULL, MDI_TOP_EXACT) == MD_OK);
        REQUIRE(mdi_packed_pass(wrows, n, d2, keys, 0, n, o, true, &p, NULL, MDI_TOP_PRUNED) == MD_OK);
        REQUIRE(same_pairs(&e, &p));
        md_neighbor_pairs_free(&p);
        md_neighbor_pairs_free(&e);
        md_rows *r;
        REQUIRE(md_rows_new(d2, &r) == MD_OK);
        REQUIRE(md_rows_append(r, wrows, n) == MD_OK);
        size_t nr = n;
        if (take_u8(&in) & 1) { /* an update: overwrite, then remove one way or the other */
            size_t i = take_u8(&in) % nr;
            REQUIRE(md_rows_set(r, i, wrows + ((i + 1) % nr) * d2) == MD_OK);
            memcpy(wrows + i * d2, wrows + ((i + 1) % nr) * d2, d2 * sizeof(float));
            size_t j = take_u8(&in) % nr;
            if (take_u8(&in) & 1) {
                REQUIRE(md_rows_remove(r, j) == MD_OK);
                memmove(wrows + j * d2, wrows + (j + 1) * d2, (nr - j - 1) * d2 * sizeof(float));
            } else {
                REQUIRE(md_rows_swap_remove(r, j) == MD_OK);
                if (j != nr - 1) memcpy(wrows + j * d2, wrows + (nr - 1) * d2, d2 * sizeof(float));
            }
            nr--;
        }
        REQUIRE(md_rows_count(r) == nr);
        size_t k = take_u8(&in) % (MAXN + 2), wl, gl;
        size_t widx[MAXN + 2];
        uint32_t gidx[MAXN + 2];
        double wsim[MAXN + 2], gsim[MAXN + 2];
        float q[WD];
        for (size_t t = 0; t < d2; t++) q[t] = nr ? wrows[(take_u8(&in) % nr) * d2 + t] : 1.0f;
        REQUIRE(md_top_cosine_rows_f32(q, wrows, nr, d2, k, widx, wsim, &wl) == MD_OK);
        for (int mode = 0; mode < 3; mode++) {
            REQUIRE(mdi_rows_top_cosine(r, q, k, gidx, gsim, &gl, mode, NULL) == MD_OK);
            REQUIRE(gl == wl);
            for (size_t i = 0; i < gl; i++) REQUIRE(gidx[i] == widx[i] && memcmp(&gsim[i], &wsim[i], 8) == 0);
        }
        /* rankCandidatePairs on the resident norms against the flat call */
        uint32_t src[8], dst[8], woffs[MAXN + 1];
        for (int t = 0; t < 8; t++) {
            src[t] = (uint32_t)(take_u8(&in) % (nr + 1));
            dst[t] = (uint32_t)(nr ? take_u8(&in) % nr : 0);
        }
        for (size_t i = 0; i <= nr; i++) woffs[i] = (uint32_t)(i * d2);
        md_neighbor_pairs a1, a2;
        REQUIRE(md_rank_candidate_pairs_f32(wrows, woffs, nr, NULL, src, dst, 8, o.floor, o.per_source_k, o.limit, &a1) == MD_OK);
        REQUIRE(md_rows_rank_candidate_pairs(r, NULL, src, dst, 8, o.floor, o.per_source_k, o.limit, &a2) == MD_OK);
        REQUIRE(same_pairs(&a1, &a2));
        md_neighbor_pairs_free(&a1);
        md_neighbor_pairs_free(&a2);
        md_rows_free(r);
    }
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

/* neighbors module, the neighbour lists: the per-source bounded lists every
 * pass fills (sim desc, then dst key asc) and their final order, key ranks,
 * the vector sets the passes read (vset: keyed, flat or packed vectors, with
 * the reference's norms and pair similarity), and the merge of pairs
 * computed elsewhere (tiles, workers). The passes (neighbors_pass.c) and the
 * candidate ranking (neighbors_rank.c) build on this file; it calls neither. */
#include "internal.h"
#include "neighbors.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- vectors */

/* The pair's similarity as topNeighborPairs computes it: equal lengths use
 * the hoisted norms (NaN kept), others call cosine. */
MDI_SMALL double mdi_pair_sim(const vset *v, size_t a, size_t b, double na, double nb) {
    size_t la = vlen(v, a), lb = vlen(v, b);
    double s;
    if (la != lb) {
        if (vfloat(v)) md_cosine_f32(vrow(v, a), la, vrow(v, b), lb, &s);
        else md_cosine(v->g[a], la, v->g[b], lb, &s);
        return s;
    }
    double dot = 0;
    if (vfloat(v)) dot = dot_f32(vrow(v, a), vrow(v, b), la);
    else
        for (size_t k = 0; k < la; k++) dot += v->g[a][k] * v->g[b][k];
    return hoisted(dot, na, nb);
}

MDI_SMALL md_status mdi_vnorms(const vset *v, double **norm) {
    *norm = mdi_alloc_array(v->n, sizeof(double));
    if (!*norm) return MD_ERR_NOMEM;
    for (size_t i = 0; i < v->n; i++) (*norm)[i] = sqrt(vsum_sq(v, i));
    return MD_OK;
}

/* A vset over keyed vectors (pointer and length arrays, freed by the caller). */
MDI_SMALL md_status mdi_keyed_vset(const md_keyed_vector *vectors, size_t n, vset *v, md_str **keys) {
    memset(v, 0, sizeof *v);
    *keys = NULL;
    if (MDI_BAD_IN(vectors, n)) return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++)
        if (MDI_BAD_IN(vectors[i].vec, vectors[i].len)) return MD_ERR_NULL;
    const float **f = mdi_alloc_array(n, sizeof(float *));
    size_t *len = mdi_alloc_array(n, sizeof(size_t));
    *keys = mdi_alloc_array(n, sizeof(md_str));
    v->n = n;
    v->f = f;
    v->len = len;
    if (!f || !len || !*keys) return MD_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        f[i] = vectors[i].vec;
        len[i] = vectors[i].len;
        (*keys)[i] = vectors[i].key;
    }
    return MD_OK;
}

MDI_SMALL void mdi_vset_free(vset *v) {
    free((void *)v->f);
    free((void *)v->g);
    free((void *)v->len);
}

/* A vset over data laid out back to back: vector i is elements
 * [offsets[i] - offsets[0], offsets[i + 1] - offsets[0]) of data (floats
 * when f32, else doubles). */
MDI_SMALL md_status mdi_flat_vset(const void *data, bool f32, const uint32_t *offsets, size_t n, vset *v) {
    memset(v, 0, sizeof *v);
    if (MDI_BAD_IN(offsets, n ? n + 1 : 0)) return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++)
        if (offsets[i + 1] < offsets[i]) return MD_ERR_RANGE;
    if (MDI_BAD_IN(data, n ? offsets[n] - offsets[0] : 0)) return MD_ERR_NULL;
    size_t *len = mdi_alloc_array(n, sizeof(size_t));
    const void **p = mdi_alloc_array(n, sizeof(void *));
    v->n = n;
    v->len = len;
    if (f32) v->f = (const float *const *)p;
    else v->g = (const double *const *)p;
    if (!len || !p) return MD_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        size_t at = offsets[i] - offsets[0];
        p[i] = !data ? NULL : f32 ? (const void *)((const float *)data + at) : (const void *)((const double *)data + at);
        len[i] = offsets[i + 1] - offsets[i];
    }
    return MD_OK;
}

/* ---------------------------------------------------------------- key ranks */

/* rank[i]: the position of keys[i] among the distinct keys in JavaScript
 * order (equal keys share a rank). *dup: the index of some repeated key's
 * later occurrence, or SIZE_MAX. */
MDI_SMALL md_status mdi_key_ranks(const md_str *keys, size_t n, size_t *rank, size_t *dup) {
    *dup = SIZE_MAX;
    size_t *order = mdi_alloc_array(n, sizeof(size_t));
    if (!order) return MD_ERR_NOMEM;
    md_status st = mdi_sort_keys(keys, n, order);
    if (st == MD_OK) {
        size_t r = 0;
        for (size_t i = 0; i < n; i++) {
            if (i > 0) {
                if (md_key_compare(keys[order[i - 1]], keys[order[i]]) != 0) r++;
                else if (*dup == SIZE_MAX) *dup = order[i];
            }
            rank[order[i]] = r;
        }
    }
    free(order);
    return st;
}

/* ---------------------------------------------------------------- selection */

/* How many neighbours a list holds: the reference inserts, then pops while
 * length > perSourceK, so floor(k) for k >= 0, none below, all for NaN. */
MDI_SMALL static size_t cap_of(double k) {
    if (isnan(k)) return SIZE_MAX;
    if (k < 0) return 0;
    if (k >= 0x1p63) return SIZE_MAX;
    return (size_t)floor(k);
}

MDI_SMALL void mdi_sel_free(selector *s) {
    if (s->items)
        for (size_t i = 0; i < s->n_lists; i++) free(s->items[i]);
    free(s->items);
    free(s->len);
    free(s->room);
    free(s->src);
    memset(s, 0, sizeof *s);
}

MDI_SMALL static md_status sel_init(selector *s, size_t n_lists, md_neighbor_options o, const size_t *rank) {
    memset(s, 0, sizeof *s);
    s->cap = cap_of(o.per_source_k);
    s->floor = o.floor;
    s->rank = rank;
    s->n_lists = n_lists;
    s->items = mdi_calloc_array(n_lists, sizeof(entry *));
    s->len = mdi_calloc_array(n_lists, sizeof(size_t));
    s->room = mdi_calloc_array(n_lists, sizeof(size_t));
    s->src = mdi_calloc_array(n_lists, sizeof(size_t));
    if (!s->items || !s->len || !s->room || !s->src) {
        mdi_sel_free(s);
        return MD_ERR_NOMEM;
    }
    return MD_OK;
}

/* Offer (list's source, dst, sim); the caller has checked sim >= floor. */
__attribute__((noinline)) md_status mdi_offer(selector *s, size_t list, size_t dst, double sim) {
    size_t cap = s->cap, len = s->len[list];
    if (cap == 0) return MD_OK;
    entry *e = s->items[list];
    size_t rd = s->rank[dst];
    if (len == cap) {
        const entry *last = &e[len - 1];
        if (!(sim > last->sim || (sim == last->sim && rd < s->rank[last->dst]))) return MD_OK;
    } else if (len == s->room[list]) {
        /* len < cap here, so room > len; doubling stops at cap and at what size_t can count */
        size_t room = len < 4 ? 4 : (len > SIZE_MAX / 2 ? SIZE_MAX : 2 * len);
        if (room > cap) room = cap;
        if (room > SIZE_MAX / sizeof(entry)) return MD_ERR_NOMEM;
        entry *grown = realloc(e, room * sizeof(entry));
        if (!grown) return MD_ERR_NOMEM;
        s->items[list] = e = grown;
        s->room[list] = room;
    }
    size_t at = len < cap ? len : len - 1; /* when full, the last is dropped */
    while (at > 0 && (sim > e[at - 1].sim || (sim == e[at - 1].sim && rd < s->rank[e[at - 1].dst]))) {
        e[at] = e[at - 1];
        at--;
    }
    e[at].sim = sim;
    e[at].dst = dst;
    if (len < cap) s->len[list] = len + 1;
    return MD_OK;
}

typedef struct final_ctx {
    const md_neighbor_pair *pairs;
    const size_t *rank;
} final_ctx;

static int final_cmp(const void *vctx, size_t a, size_t b) {
    const final_ctx *c = vctx;
    const md_neighbor_pair *x = &c->pairs[a], *y = &c->pairs[b];
    if (x->sim != y->sim) return x->sim > y->sim ? -1 : 1;
    size_t xs = c->rank[x->src], ys = c->rank[y->src];
    if (xs != ys) return xs < ys ? -1 : 1;
    size_t xd = c->rank[x->dst], yd = c->rank[y->dst];
    return xd < yd ? -1 : (xd > yd ? 1 : 0);
}

/* Unsigned integers in final_cmp's order of sims (never NaN): larger sims
 * first, -0 and 0 equal. */
static uint64_t sim_desc(double sim) {
    if (sim == 0) sim = 0;
    uint64_t b;
    memcpy(&b, &sim, sizeof b);
    b = b >> 63 ? ~b : b | (uint64_t)1 << 63; /* ascending */
    return ~b;
}

/* order[0..m) := all[0..m) in final_cmp's order, stable: as records of
 * (sim, src rank, dst rank) for the radix sort when ranks fit 32 bits, else
 * by the comparator. */
MDI_SMALL static md_status final_order(const md_neighbor_pair *all, size_t m, const size_t *rank, size_t *order) {
    mdi_rec *r = mdi_alloc_array(m, sizeof(mdi_rec));
    bool fits = r != NULL;
    for (size_t i = 0; fits && i < m; i++) {
        uint64_t rs = rank[all[i].src], rd = rank[all[i].dst];
        fits = rs <= UINT32_MAX && rd <= UINT32_MAX;
        r[i].hi = sim_desc(all[i].sim);
        r[i].lo = rs << 32 | rd;
        r[i].i = i;
    }
    md_status st = fits ? mdi_sort_records(r, m) : MD_ERR_RANGE;
    if (st == MD_OK)
        for (size_t i = 0; i < m; i++) order[i] = r[i].i;
    free(r);
    if (st == MD_OK) return MD_OK;
    for (size_t i = 0; i < m; i++) order[i] = i;
    final_ctx c = {all, rank};
    return mdi_sort_indices(order, m, final_cmp, &c);
}

/* Every held pair, grouped by list; sorted and limited when `final`. */
MDI_SMALL md_status mdi_sel_finish(selector *s, bool final, double limit, md_neighbor_pairs *out) {
    size_t total = 0;
    for (size_t l = 0; l < s->n_lists; l++) total += s->len[l];
    md_neighbor_pair *all = mdi_alloc_array(total, sizeof(md_neighbor_pair));
    if (!all) return MD_ERR_NOMEM;
    size_t at = 0;
    for (size_t l = 0; l < s->n_lists; l++)
        for (size_t i = 0; i < s->len[l]; i++) {
            all[at].src = s->src[l];
            all[at].dst = s->items[l][i].dst;
            all[at].sim = s->items[l][i].sim;
            at++;
        }
    if (!final) {
        out->len = total;
        out->pairs = all;
        return MD_OK;
    }
    size_t keep = mdi_js_slice_len(total, limit);
    size_t *order = mdi_alloc_array(total, sizeof(size_t));
    md_neighbor_pair *res = mdi_alloc_array(keep, sizeof(md_neighbor_pair));
    md_status st = (order && res) ? final_order(all, total, s->rank, order) : MD_ERR_NOMEM;
    if (st == MD_OK) {
        for (size_t i = 0; i < keep; i++) res[i] = all[order[i]];
        out->len = keep;
        out->pairs = res;
        res = NULL;
    }
    free(res);
    free(order);
    free(all);
    return st;
}

MDI_SMALL void md_neighbor_pairs_free(md_neighbor_pairs *pairs) {
    if (!pairs) return;
    free(pairs->pairs);
    pairs->pairs = NULL;
    pairs->len = 0;
}

/* ---------------------------------------------------------------- lists from ranks */

/* One list per distinct rank, each with a representative index (the
 * first). With `unique`, a repeated rank is MD_ERR_INVALID and *dup gets
 * the later index. Ranks must be < n (MD_ERR_RANGE). */
MDI_SMALL md_status mdi_prepare_ranks(const size_t *rank, size_t n, md_neighbor_options o, selector *s,
                               size_t *dup, bool unique) {
    if (dup) *dup = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (rank[i] >= n) return MD_ERR_RANGE;
    md_status st = sel_init(s, n, o, rank);
    if (st != MD_OK) return st;
    for (size_t i = n; i-- > 0;) s->src[rank[i]] = i;
    if (unique)
        for (size_t i = 0; i < n; i++)
            if (s->src[rank[i]] != i) {
                if (dup) *dup = i;
                mdi_sel_free(s);
                return MD_ERR_INVALID;
            }
    return MD_OK;
}

/* Ranks from keys, then the lists. *rank is freed by the caller. */
MDI_SMALL md_status mdi_prepare_keys(const md_str *keys, size_t n, md_neighbor_options o, size_t **rank,
                         selector *s, size_t *dup, bool unique) {
    *rank = mdi_alloc_array(n, sizeof(size_t));
    if (!*rank) return MD_ERR_NOMEM;
    size_t d0;
    md_status st = mdi_key_ranks(keys, n, *rank, &d0);
    if (st == MD_OK) st = mdi_prepare_ranks(*rank, n, o, s, dup, unique);
    return st;
}

/* Caller ranks as size_t (NULL: the row order is the key order). */
MDI_SMALL md_status mdi_widen_ranks(const uint32_t *rank, size_t n, size_t **out) {
    *out = mdi_alloc_array(n, sizeof(size_t));
    if (!*out) return MD_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) (*out)[i] = rank ? rank[i] : i;
    return MD_OK;
}

MDI_SMALL md_status md_key_ranks(const uint8_t *bytes, const uint32_t *offsets, size_t n, uint32_t *rank,
                       uint32_t *dup) {
    if (dup) *dup = UINT32_MAX;
    if (MDI_BAD_IN(offsets, n ? n + 1 : 0) || MDI_BAD_IN(rank, n)) return MD_ERR_NULL;
    if (n >= UINT32_MAX) return MD_ERR_RANGE;
    for (size_t i = 0; i < n; i++)
        if (offsets[i + 1] < offsets[i]) return MD_ERR_RANGE;
    if (n && offsets[n] > offsets[0] && !bytes) return MD_ERR_NULL;
    md_str *keys = mdi_alloc_array(n, sizeof(md_str));
    size_t *r = mdi_alloc_array(n, sizeof(size_t));
    md_status st = keys && r ? MD_OK : MD_ERR_NOMEM;
    size_t d0 = SIZE_MAX;
    if (st == MD_OK) {
        for (size_t i = 0; i < n; i++) {
            keys[i].ptr = (const char *)bytes + offsets[i];
            keys[i].len = offsets[i + 1] - offsets[i];
        }
        st = mdi_key_ranks(keys, n, r, &d0);
    }
    if (st == MD_OK) {
        for (size_t i = 0; i < n; i++) rank[i] = (uint32_t)r[i];
        if (dup && d0 != SIZE_MAX) *dup = (uint32_t)d0;
    }
    free(r);
    free(keys);
    return st;
}

/* ---------------------------------------------------------------- merge */

MDI_SMALL static md_status merge_ranked(const md_neighbor_pair *pairs, size_t n_pairs, const size_t *rank,
                              size_t n, md_neighbor_options options, md_neighbor_pairs *out, size_t *dup) {
    if (MDI_BAD_IN(pairs, n_pairs)) return MD_ERR_NULL;
    for (size_t p = 0; p < n_pairs; p++)
        if (pairs[p].src >= n || pairs[p].dst >= n) return MD_ERR_RANGE;
    selector s;
    memset(&s, 0, sizeof s);
    md_status st = mdi_prepare_ranks(rank, n, options, &s, dup, true);
    for (size_t p = 0; p < n_pairs && st == MD_OK; p++) {
        if (!(pairs[p].sim >= s.floor)) continue;
        st = mdi_offer(&s, rank[pairs[p].src], pairs[p].dst, pairs[p].sim);
    }
    if (st == MD_OK) st = mdi_sel_finish(&s, true, options.limit, out);
    mdi_sel_free(&s);
    return st;
}

MDI_SMALL md_status md_merge_neighbor_pairs(const md_neighbor_pair *pairs, size_t n_pairs, const md_str *keys,
                                  size_t n, md_neighbor_options options, md_neighbor_pairs *out,
                                  size_t *dup) {
    if (dup) *dup = SIZE_MAX;
    if (!out) return MD_ERR_NULL;
    clear_out(out);
    if (MDI_BAD_IN(pairs, n_pairs) || MDI_BAD_IN(keys, n)) return MD_ERR_NULL;
    size_t *rank = mdi_alloc_array(n, sizeof(size_t)), d0;
    md_status st = rank ? mdi_key_ranks(keys, n, rank, &d0) : MD_ERR_NOMEM;
    if (st == MD_OK) st = merge_ranked(pairs, n_pairs, rank, n, options, out, dup);
    free(rank);
    return st;
}

MDI_SMALL md_status md_merge_neighbor_pairs_ranked(const md_neighbor_pair *pairs, size_t n_pairs,
                                         const uint32_t *rank, size_t n, double floor,
                                         double per_source_k, double limit, md_neighbor_pairs *out) {
    if (!out) return MD_ERR_NULL;
    clear_out(out);
    size_t *r = NULL;
    md_status st = mdi_widen_ranks(rank, n, &r);
    if (st == MD_OK) st = merge_ranked(pairs, n_pairs, r, n, opts3(floor, per_source_k, limit), out, NULL);
    free(r);
    return st;
}

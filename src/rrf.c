/* rrf module: the reference reciprocal-rank fusion fold. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

double md_rrf_score(double rank, double weight, double k) { return weight / (rank + k); }

void md_fused_free(md_fused *fused) {
    if (!fused) return;
    free(fused->paths);
    free(fused->scores);
    fused->paths = NULL;
    fused->scores = NULL;
    fused->len = 0;
}

/* A Map<string, number> under construction: insertion order plus an index. */
typedef struct fused_builder {
    md_fused out;
    mdi_keymap index;
} fused_builder;

static md_status builder_init(fused_builder *b, size_t cap) {
    b->out.len = 0;
    b->out.paths = mdi_alloc_array(cap, sizeof(md_str));
    b->out.scores = mdi_alloc_array(cap, sizeof(double));
    md_status st = (b->out.paths && b->out.scores) ? mdi_keymap_init(&b->index, cap) : MD_ERR_NOMEM;
    if (st != MD_OK) {
        md_fused_free(&b->out);
        b->index.cap = 0;
    }
    return st;
}

/* map.set(path, (map.get(path) ?? 0) + add), or set to `value` when replace. */
static md_status builder_add(fused_builder *b, md_str path, double value, bool replace) {
    size_t at;
    bool fresh;
    md_status st = mdi_keymap_put(&b->index, path, b->out.len, &at, &fresh);
    if (st != MD_OK) return st;
    if (fresh) {
        b->out.paths[at] = path;
        b->out.scores[at] = replace ? value : 0 + value;
        b->out.len++;
    } else {
        b->out.scores[at] = replace ? value : b->out.scores[at] + value;
    }
    return MD_OK;
}

static md_status builder_finish(fused_builder *b, md_status st, md_fused *out) {
    mdi_keymap_free(&b->index);
    if (st != MD_OK) {
        md_fused_free(&b->out);
        out->len = 0; out->paths = NULL; out->scores = NULL;
        return st;
    }
    *out = b->out;
    return MD_OK;
}

size_t mdi_fuse_ids(const uint32_t *ids, const double *ranks, const size_t *arm_lens, size_t n_arms,
                    const double *weights, size_t n_weights, double k, uint32_t *slot, uint32_t *out_ids,
                    double *out_scores) {
    size_t len = 0, at = 0;
    for (size_t i = 0; i < n_arms; i++) {
        double w = i < n_weights ? weights[i] : 0;
        size_t end = at + arm_lens[i];
        if (w == 0) { at = end; continue; } /* a disabled arm is absent, not a neutral term */
        for (; at < end; at++) {
            uint32_t id = ids[at];
            double add = md_rrf_score(ranks[at], w, k);
            uint32_t s = slot[id];
            if (s == UINT32_MAX) {
                slot[id] = (uint32_t)len;
                out_ids[len] = id;
                out_scores[len++] = 0 + add; /* (map.get(path) ?? 0) + add: -0 becomes +0 */
            } else {
                out_scores[s] += add;
            }
        }
    }
    for (size_t i = 0; i < len; i++) slot[out_ids[i]] = UINT32_MAX;
    return len;
}

md_status md_fuse_arms(const md_arm *arms, size_t n_arms, const double *weights, size_t n_weights,
                       double k, md_fused *out) {
    if (!out) return MD_ERR_NULL;
    out->len = 0; out->paths = NULL; out->scores = NULL;
    if (MDI_BAD_IN(arms, n_arms) || MDI_BAD_IN(weights, n_weights)) return MD_ERR_NULL;
    size_t total = 0;
    for (size_t i = 0; i < n_arms; i++) {
        if (MDI_BAD_IN(arms[i].hits, arms[i].n_hits)) return MD_ERR_NULL;
        if (arms[i].n_hits > SIZE_MAX - total) return MD_ERR_RANGE;
        total += arms[i].n_hits;
    }
    if (total >= UINT32_MAX) return MD_ERR_RANGE;
    /* Intern the paths as ids (first occurrence order), then fold the ids:
     * the same fold the wasm boundary runs over the glue's ids. */
    mdi_keymap map = {0, 0, NULL, NULL};
    uint32_t *ids = mdi_alloc_array(total, sizeof(uint32_t)), *slot = NULL, *fused_ids = NULL;
    double *ranks = mdi_alloc_array(total, sizeof(double));
    size_t *lens = mdi_alloc_array(n_arms, sizeof(size_t));
    md_str *paths = mdi_alloc_array(total, sizeof(md_str));
    md_status st = ids && ranks && lens && paths ? mdi_keymap_init(&map, total) : MD_ERR_NOMEM;
    size_t n_ids = 0, at = 0;
    for (size_t i = 0; i < n_arms && st == MD_OK; i++) {
        lens[i] = arms[i].n_hits;
        for (size_t j = 0; j < arms[i].n_hits && st == MD_OK; j++, at++) {
            size_t id;
            bool fresh;
            st = mdi_keymap_put(&map, arms[i].hits[j].path, n_ids, &id, &fresh);
            if (st != MD_OK) break;
            if (fresh) paths[n_ids++] = arms[i].hits[j].path;
            ids[at] = (uint32_t)id;
            ranks[at] = arms[i].hits[j].rank;
        }
    }
    mdi_keymap_free(&map);
    if (st == MD_OK) {
        slot = mdi_alloc_array(n_ids, sizeof(uint32_t));
        fused_ids = mdi_alloc_array(n_ids, sizeof(uint32_t));
        out->scores = mdi_alloc_array(n_ids, sizeof(double));
        out->paths = mdi_alloc_array(n_ids, sizeof(md_str));
        if (!slot || !fused_ids || !out->scores || !out->paths) st = MD_ERR_NOMEM;
    }
    if (st == MD_OK) {
        for (size_t i = 0; i < n_ids; i++) slot[i] = UINT32_MAX;
        out->len = mdi_fuse_ids(ids, ranks, lens, n_arms, weights, n_weights, k, slot, fused_ids, out->scores);
        for (size_t i = 0; i < out->len; i++) out->paths[i] = paths[fused_ids[i]];
    } else {
        md_fused_free(out);
    }
    free(ids); free(ranks); free(lens); free(paths); free(slot); free(fused_ids);
    return st;
}

typedef struct rank_ctx {
    const md_str *paths;
    const double *scores;
} rank_ctx;

/* Score descending, NaN scores last (the design's deliberate divergence);
 * 0 for a tie (equal scores, or both NaN). */
static int score_cmp(double sa, double sb) {
    bool na = isnan(sa), nb = isnan(sb);
    if (na != nb) return na ? 1 : -1;
    if (!na && sa != sb) return sa > sb ? -1 : 1;
    return 0;
}

static int rank_cmp(const void *vctx, size_t a, size_t b) {
    const rank_ctx *c = vctx;
    int s = score_cmp(c->scores[a], c->scores[b]);
    return s ? s : md_key_compare(c->paths[a], c->paths[b]);
}

static int score_only_cmp(const void *vctx, size_t a, size_t b) {
    const rank_ctx *c = vctx;
    return score_cmp(c->scores[a], c->scores[b]);
}

md_status mdi_rank_scores(const double *scores, size_t n, size_t *order) {
    for (size_t i = 0; i < n; i++) order[i] = i;
    rank_ctx c = {NULL, scores};
    return mdi_sort_indices(order, n, score_only_cmp, &c);
}

md_status md_rank_fused(const md_str *paths, const double *scores, size_t n, size_t *order) {
    if (MDI_BAD_IN(paths, n) || MDI_BAD_IN(scores, n) || MDI_BAD_IN(order, n)) return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++) order[i] = i;
    rank_ctx c = {paths, scores};
    return mdi_sort_indices(order, n, rank_cmp, &c);
}

MDI_SMALL md_status md_fuse_lateral(const md_str *paths, const double *scores, size_t n, const md_str *order,
                          size_t n_order, double weight, double k, md_fused *out) {
    if (!out) return MD_ERR_NULL;
    out->len = 0; out->paths = NULL; out->scores = NULL;
    if (MDI_BAD_IN(paths, n) || MDI_BAD_IN(scores, n) || MDI_BAD_IN(order, n_order))
        return MD_ERR_NULL;
    bool active = !(weight <= 0) && n_order > 0;
    if (active && n_order > SIZE_MAX - n) return MD_ERR_RANGE;
    fused_builder b;
    md_status st = builder_init(&b, n + (active ? n_order : 0));
    if (st != MD_OK) return st;
    for (size_t i = 0; i < n && st == MD_OK; i++) st = builder_add(&b, paths[i], scores[i], true);
    if (active)
        for (size_t i = 0; i < n_order && st == MD_OK; i++)
            st = builder_add(&b, order[i], weight / ((double)i + 1 + k), false);
    return builder_finish(&b, st, out);
}

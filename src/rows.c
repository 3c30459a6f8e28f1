/* Resident rows (part of the neighbors module): a row-major float matrix
 * copied in once, with each row's in-order sum of squares (the same bits as
 * the 1 x n arm computes per query) and an int8 filter copy, kept in sync by
 * append / set / remove. A top-k query scans the filter copy, bounds every
 * row's cosine (filter.h), and pays for the exact double sum only on the
 * rows whose upper bound reaches the k-th best lower bound: the answer is
 * the exact pass's, bit for bit. */
#include "filter.h"
#include "internal.h"
#include "kernels.h"
#include "mmr.h"
#include "rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct md_rows {
    size_t d, dp;   /* dimension; filter row stride (0: no filter) */
    size_t n, cap;  /* rows held; rows allocated */
    float *data;    /* n x d, exactly as given */
    double *ss;     /* per row: the in-order sum of squares */
    int8_t *q8;     /* n x dp filter copy (NULL when dp == 0) */
    float *w, *rho; /* per row: filter scale over norm, residual bound */
};

/* Rows past this count cannot be named by a uint32_t index. */
#define MAX_ROWS ((size_t)UINT32_MAX)

MDI_SMALL md_status md_rows_new(size_t d, md_rows **out) {
    if (!out) return MD_ERR_NULL;
    *out = NULL;
    if (d == 0 || d > SIZE_MAX / 64) return MD_ERR_RANGE;
    md_rows *r = calloc(1, sizeof *r);
    if (!r) return MD_ERR_NOMEM;
    r->d = d;
    r->dp = d >= MDI_FILTER_MIN_D && d <= MDI_FILTER_MAX_D ? mdi_filter_dp(d) : 0;
    *out = r;
    return MD_OK;
}

MDI_SMALL void md_rows_free(md_rows *r) {
    if (!r) return;
    free(r->data);
    free(r->ss);
    free(r->q8);
    free(r->w);
    free(r->rho);
    free(r);
}

MDI_SMALL size_t md_rows_count(const md_rows *r) { return r ? r->n : 0; }
MDI_SMALL size_t md_rows_dim(const md_rows *r) { return r ? r->d : 0; }
MDI_SMALL const float *md_rows_data(const md_rows *r) { return r ? r->data : NULL; }

MDI_SMALL static md_status grow(md_rows *r, size_t need) {
    if (need <= r->cap) return MD_OK;
    size_t cap = r->cap < 16 ? 16 : r->cap;
    while (cap < need) cap = cap > SIZE_MAX / 2 ? need : 2 * cap;
    if (cap > MAX_ROWS) cap = MAX_ROWS;
    if (cap > SIZE_MAX / sizeof(float) / r->d || (r->dp && cap > SIZE_MAX / r->dp)) return MD_ERR_RANGE;
    /* each array is replaced only once every allocation succeeded */
    float *data = realloc(r->data, cap * r->d * sizeof(float));
    if (!data) return MD_ERR_NOMEM;
    r->data = data;
    double *ss = realloc(r->ss, cap * sizeof(double));
    if (!ss) return MD_ERR_NOMEM;
    r->ss = ss;
    if (r->dp) {
        int8_t *q8 = realloc(r->q8, cap * r->dp);
        if (!q8) return MD_ERR_NOMEM;
        r->q8 = q8;
        float *w = realloc(r->w, cap * sizeof(float));
        if (!w) return MD_ERR_NOMEM;
        r->w = w;
        float *rho = realloc(r->rho, cap * sizeof(float));
        if (!rho) return MD_ERR_NOMEM;
        r->rho = rho;
    }
    r->cap = cap;
    return MD_OK;
}

/* Row i's derived data from its floats. */
MDI_SMALL static void derive(md_rows *r, size_t i) {
    const float *x = r->data + i * r->d;
    r->ss[i] = mdi_sum_sq_f32(x, r->d);
    if (r->dp) mdi_quantize(x, r->d, r->dp, r->ss[i], 8, 0, r->q8 + i * r->dp, &r->w[i], &r->rho[i]);
}

/* Copy row `from`'s data and derived data over row `to`. */
MDI_SMALL static void move_rows(md_rows *r, size_t to, size_t from, size_t count) {
    memmove(r->data + to * r->d, r->data + from * r->d, count * r->d * sizeof(float));
    memmove(r->ss + to, r->ss + from, count * sizeof(double));
    if (r->dp) {
        memmove(r->q8 + to * r->dp, r->q8 + from * r->dp, count * r->dp);
        memmove(r->w + to, r->w + from, count * sizeof(float));
        memmove(r->rho + to, r->rho + from, count * sizeof(float));
    }
}

MDI_SMALL md_status md_rows_append(md_rows *r, const float *rows, size_t n) {
    if (!r) return MD_ERR_NULL;
    if (n > MAX_ROWS - r->n) return MD_ERR_RANGE;
    if (n > SIZE_MAX / r->d) return MD_ERR_RANGE;
    if (MDI_BAD_IN(rows, n * r->d)) return MD_ERR_NULL;
    md_status st = grow(r, r->n + n);
    if (st != MD_OK) return st;
    if (n) memcpy(r->data + r->n * r->d, rows, n * r->d * sizeof(float));
    for (size_t i = r->n; i < r->n + n; i++) derive(r, i);
    r->n += n;
    return MD_OK;
}

MDI_SMALL md_status md_rows_insert(md_rows *r, size_t i, const float *rows, size_t n) {
    if (!r) return MD_ERR_NULL;
    if (i > r->n) return MD_ERR_RANGE;
    if (n > MAX_ROWS - r->n || n > SIZE_MAX / r->d) return MD_ERR_RANGE;
    if (MDI_BAD_IN(rows, n * r->d)) return MD_ERR_NULL;
    md_status st = grow(r, r->n + n);
    if (st != MD_OK || n == 0) return st;
    move_rows(r, i + n, i, r->n - i);
    memcpy(r->data + i * r->d, rows, n * r->d * sizeof(float));
    r->n += n;
    for (size_t j = i; j < i + n; j++) derive(r, j);
    return MD_OK;
}

MDI_SMALL md_status md_rows_set(md_rows *r, size_t i, const float *row) {
    if (!r || !row) return MD_ERR_NULL;
    if (i >= r->n) return MD_ERR_RANGE;
    memmove(r->data + i * r->d, row, r->d * sizeof(float));
    derive(r, i);
    return MD_OK;
}

MDI_SMALL md_status md_rows_remove(md_rows *r, size_t i) {
    if (!r) return MD_ERR_NULL;
    if (i >= r->n) return MD_ERR_RANGE;
    move_rows(r, i, i + 1, r->n - i - 1);
    r->n--;
    return MD_OK;
}

MDI_SMALL md_status md_rows_swap_remove(md_rows *r, size_t i) {
    if (!r) return MD_ERR_NULL;
    if (i >= r->n) return MD_ERR_RANGE;
    if (i != r->n - 1) move_rows(r, i, r->n - 1, 1);
    r->n--;
    return MD_OK;
}

/* ---------------------------------------------------------------- queries */

/* The query widened, and its in-order sum of squares. */
MDI_SMALL static md_status widen(const md_rows *r, const float *query, double **qd, double *qs) {
    *qd = mdi_alloc_array(r->d, sizeof(double));
    if (!*qd) return MD_ERR_NOMEM;
    double s = 0;
    for (size_t k = 0; k < r->d; k++) {
        (*qd)[k] = (double)query[k];
        s += (*qd)[k] * (*qd)[k];
    }
    *qs = s;
    return MD_OK;
}

/* Exact cosines of rows idx[0..m) (NULL: rows 0..m-1) into out, through the
 * dots kernel in chunks of row pointers. */
MDI_SMALL static void exact_cosines(const md_rows *r, const mdi_kernels *K, const double *qd, double qs,
                          const uint32_t *idx, size_t first, size_t m, double *out) {
    enum { CHUNK = 256 };
    const float *ptr[CHUNK];
    double dot[CHUNK];
    for (size_t c0 = 0; c0 < m; c0 += CHUNK) {
        size_t cnt = m - c0 < CHUNK ? m - c0 : CHUNK;
        for (size_t t = 0; t < cnt; t++) {
            size_t j = idx ? idx[c0 + t] : first + c0 + t;
            ptr[t] = r->data + j * r->d;
        }
        K->dots_f32(qd, ptr, cnt, r->d, dot);
        for (size_t t = 0; t < cnt; t++) {
            size_t j = idx ? idx[c0 + t] : first + c0 + t;
            out[c0 + t] = mdi_cosine_finish(dot[t], qs, r->ss[j]);
        }
    }
}

MDI_SMALL md_status md_rows_cosine(const md_rows *r, const float *query, double *out) {
    if (!r) return MD_ERR_NULL;
    if (!query || MDI_BAD_IN(out, r->n)) return MD_ERR_NULL;
    double *qd, qs;
    md_status st = widen(r, query, &qd, &qs);
    if (st != MD_OK) return st;
    exact_cosines(r, mdi_kern(), qd, qs, NULL, 0, r->n, out);
    free(qd);
    return MD_OK;
}

/* The k best of m (sims[t], ids[t]) by sim desc, id asc (ids ascending in
 * t; NULL: ids are the positions). */
MDI_SMALL static md_status select_top(const double *sims, const uint32_t *ids, size_t m, size_t k,
                                      uint32_t *idx, double *out_sims) {
    size_t *pos = mdi_alloc_array(k, sizeof(size_t));
    if (!pos) return MD_ERR_NOMEM;
    md_status st = mdi_select_top(sims, m, k, pos, out_sims);
    for (size_t t = 0; st == MD_OK && t < k; t++) idx[t] = ids ? ids[pos[t]] : (uint32_t)pos[t];
    free(pos);
    return st;
}

/* Every row exactly, then the top k (the unpruned path). */
MDI_SMALL static md_status top_exact(const md_rows *r, const double *qd, double qs, size_t keep,
                           uint32_t *idx, double *sims) {
    double *all = mdi_alloc_array(r->n, sizeof(double));
    if (!all) return MD_ERR_NOMEM;
    exact_cosines(r, mdi_kern(), qd, qs, NULL, 0, r->n, all);
    md_status st = select_top(all, NULL, r->n, keep, idx, sims);
    free(all);
    return st;
}

/* Every row's upper bound (filter.h) from its integer dot: a loop the
 * compiler vectorizes (the scan's per-row work beside the kernel). */
static void upper_bounds(const int32_t *dots, const float *w, const float *rho, size_t cnt, float vq,
                         float alpha, float beta, float *ub) {
    for (size_t t = 0; t < cnt; t++) ub[t] = (float)dots[t] * (w[t] * vq) + (rho[t] * alpha + beta);
}

/* Whether any of ub[0..16) is >= tau (a loop the compiler vectorizes: most
 * groups of rows hold no candidate, and this skips them). */
static bool any_reaches(const float *ub, float tau) {
    int any = 0;
    for (int t = 0; t < 16; t++) any |= ub[t] >= tau;
    return any;
}

/* The pruned top-k; returns MD_ERR_RANGE (nothing written) when pruning
 * stopped paying (the caller runs the exact path). */
MDI_SMALL static md_status top_pruned(const md_rows *r, const float *query, const double *qd, double qs,
                            size_t keep, uint32_t *idx, double *sims, int no_giving_up,
                            mdi_top_stats *stats) {
    const size_t n = r->n, dp = r->dp;
    const mdi_kernels *K = mdi_kern();
    enum { B = 1024 };
    int16_t *qb = mdi_alloc_array(dp, sizeof(int16_t));
    float *heap = mdi_alloc_array(keep, sizeof(float));
    int32_t *dots = mdi_alloc_array(B, sizeof(int32_t));
    float *ubs = mdi_alloc_array(B, sizeof(float));
    size_t room = 4 * keep + 1024, m = 0;
    uint32_t *cid = mdi_alloc_array(room, sizeof(uint32_t));
    float *cub = mdi_alloc_array(room, sizeof(float));
    double *csim = NULL;
    md_status st = (qb && heap && dots && ubs && cid && cub) ? MD_OK : MD_ERR_NOMEM;
    float vq = 0, rq = 0;
    if (st == MD_OK && !mdi_quantize(query, r->d, dp, qs, 16, mdi_q8_query_cap2(r->d), qb, &vq, &rq))
        st = MD_ERR_RANGE; /* flagged query: the exact path answers */
    if (st == MD_OK && !(rq <= 0.01f)) st = MD_ERR_RANGE;
    if (st != MD_OK) goto done;
    {
        const float alpha = mdi_float_up(1.0 + (double)rq);
        const float beta = mdi_float_up((double)rq + (double)MDI_FILTER_MARGIN);
        size_t hn = 0, hot = 0; /* hot: blocks in a row where nearly every row was a candidate */
        float tau = -INFINITY;
        for (size_t j0 = 0; j0 < n && st == MD_OK; j0 += B) {
            size_t cnt = n - j0 < B ? n - j0 : B, m0 = m;
            const bool full = hn == keep;
            K->q8_dots(qb, r->q8 + j0 * dp, cnt, dp, dots);
            const float *w = r->w + j0, *rho = r->rho + j0;
            upper_bounds(dots, w, rho, cnt, vq, alpha, beta, ubs);
            for (size_t t = 0; t < cnt; t++) {
                if (t % 16 == 0 && t + 16 <= cnt && !any_reaches(ubs + t, tau)) {
                    t += 15; /* no row of these 16 is a candidate */
                    continue;
                }
                if (!(ubs[t] >= tau)) continue;
                const float e = (float)dots[t] * (w[t] * vq), sl = rho[t] * alpha + beta;
                const float ub = e + sl; /* = ubs[t]: the same operations */
                if (m == room) {
                    size_t nroom = room * 2;
                    uint32_t *a = realloc(cid, nroom * sizeof(uint32_t));
                    if (a) cid = a;
                    float *b = a ? realloc(cub, nroom * sizeof(float)) : NULL;
                    if (b) cub = b;
                    if (!a || !b) { st = MD_ERR_NOMEM; break; }
                    room = nroom;
                }
                cid[m] = (uint32_t)(j0 + t);
                cub[m++] = ub;
                const float lb = e - sl;
                if (hn < keep) {
                    mdi_heap_push(heap, &hn, lb);
                    if (hn == keep) tau = heap[0];
                } else if (lb > tau) {
                    mdi_heap_replace_top(heap, hn, lb);
                    tau = heap[0];
                }
            }
            /* The scan reads a quarter of the exact pass's bytes and a
             * survivor costs about one row of the exact pass, so pruning pays
             * unless nearly every row survives. Candidates thin out as the
             * threshold rises (about k / rows seen, plus the rows within the
             * bound's slack); when four blocks in a row after the first k
             * rows are still nearly all candidates (every row nearly equal),
             * give up and let the caller run the exact pass. */
            hot = full && (m - m0) * 8 > cnt * 7 ? hot + 1 : 0;
            if (!no_giving_up && hot >= 4) st = MD_ERR_RANGE;
        }
        if (st != MD_OK) goto done;
        /* the final tau prunes what an earlier, lower tau let through */
        size_t kept = 0;
        for (size_t t = 0; t < m; t++)
            if (cub[t] >= tau) cid[kept++] = cid[t];
        if (stats) {
            stats->candidates = m;
            stats->exact = kept;
        }
        /* the rows whose lower bounds set tau all survive, so kept >= keep;
         * were it ever not so, the exact pass answers */
        if (kept < keep) {
            st = MD_ERR_RANGE;
            goto done;
        }
        csim = mdi_alloc_array(kept, sizeof(double));
        if (!csim) { st = MD_ERR_NOMEM; goto done; }
        exact_cosines(r, K, qd, qs, cid, 0, kept, csim);
        st = select_top(csim, cid, kept, keep, idx, sims);
    }
done:
    free(csim);
    free(cub);
    free(cid);
    free(ubs);
    free(dots);
    free(heap);
    free(qb);
    return st;
}

MDI_SMALL md_status mdi_rows_top_cosine(const md_rows *r, const float *query, size_t k, uint32_t *idx,
                              double *sims, size_t *len, int mode, mdi_top_stats *stats) {
    mdi_top_stats local;
    if (!stats) stats = &local;
    memset(stats, 0, sizeof *stats);
    if (!len) return MD_ERR_NULL;
    *len = 0;
    if (!r || !query) return MD_ERR_NULL;
    size_t keep = k < r->n ? k : r->n;
    if (MDI_BAD_IN(idx, keep) || MDI_BAD_IN(sims, keep)) return MD_ERR_NULL;
    if (keep == 0) return MD_OK;
    double *qd, qs;
    md_status st = widen(r, query, &qd, &qs);
    if (st != MD_OK) return st;
    /* Pruning pays when the filter exists, k is at most n / 4, and n is
     * large enough that the scan, not the setup, is the cost
     * (bench/pruning.mjs measures the boundary). */
    bool prune = r->dp && (mode == MDI_TOP_PRUNED || (mode == MDI_TOP_AUTO && r->n >= 512 && keep <= r->n / 4));
    st = MD_ERR_RANGE;
    if (prune) st = top_pruned(r, query, qd, qs, keep, idx, sims, mode == MDI_TOP_PRUNED, stats);
    stats->pruned = st != MD_ERR_RANGE;
    if (st == MD_ERR_RANGE) {
        st = top_exact(r, qd, qs, keep, idx, sims);
        stats->exact = r->n;
    }
    if (st == MD_OK) *len = keep;
    free(qd);
    return st;
}

MDI_SMALL md_status md_rows_top_cosine(const md_rows *r, const float *query, size_t k, uint32_t *idx,
                             double *sims, size_t *len) {
    return mdi_rows_top_cosine(r, query, k, idx, sims, len, MDI_TOP_AUTO, NULL);
}

/* ---------------------------------------------------------------- other passes over resident rows */

MDI_SMALL md_status md_rows_rank_candidate_pairs(const md_rows *r, const uint32_t *rank, const uint32_t *src,
                                       const uint32_t *dst, size_t n_pairs, double floor,
                                       double per_source_k, double limit, md_neighbor_pairs *out) {
    if (!out) return MD_ERR_NULL;
    out->len = 0;
    out->pairs = NULL;
    if (!r || MDI_BAD_IN(src, n_pairs) || MDI_BAD_IN(dst, n_pairs)) return MD_ERR_NULL;
    vset v = {r->n, NULL, NULL, NULL, r->data, r->d};
    return mdi_rank_pairs_ranked(&v, r->ss, rank, src, dst, n_pairs, floor, per_source_k, limit, out);
}

MDI_SMALL md_status md_rows_apply_mmr(const md_rows *r, const uint32_t *rows, const double *scores, size_t n,
                            double limit, double lambda, uint32_t *out, size_t *len) {
    if (!len) return MD_ERR_NULL;
    *len = 0;
    if (!r || MDI_BAD_IN(out, n)) return MD_ERR_NULL;
    size_t *picked = mdi_alloc_array(n, sizeof(size_t));
    if (!picked) return MD_ERR_NOMEM;
    md_status st = mdi_apply_mmr_rows(r->data, r->n, r->d, r->ss, rows, scores, n, limit, lambda, picked, len);
    for (size_t i = 0; st == MD_OK && i < *len; i++) out[i] = (uint32_t)picked[i];
    free(picked);
    return st;
}

MDI_SMALL md_status md_rows_neighbor_pairs(const md_rows *r, const uint32_t *rank, size_t row_begin,
                                 size_t row_end, double floor, double per_source_k, double limit,
                                 bool final, md_neighbor_pairs *out) {
    if (!out) return MD_ERR_NULL;
    out->len = 0;
    out->pairs = NULL;
    if (!r) return MD_ERR_NULL;
    return mdi_neighbor_pairs_block(r->data, r->n, r->d, rank, row_begin, row_end, floor, per_source_k,
                                    limit, final, out);
}

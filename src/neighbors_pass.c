/* neighbors module, the all-pairs pass (topNeighborPairs and its packed,
 * tiled and flat forms, the pass in parts): every pair of rows offered to the
 * neighbour lists (neighbors_lists.c), unpruned or pruned by int16 bounds.
 * Similarities come from the kernels (kernels.h), whose bits are the
 * reference's one sequential double sum per pair. */
#include "filter.h"
#include "internal.h"
#include "kernels.h"
#include "neighbors.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double sum_sq_f32(const float *v, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double x = (double)v[i];
        s += x * x;
    }
    return s;
}

/* Vector i (length d) as doubles into out. */
MDI_SMALL static void widen_row(const vset *v, size_t i, size_t d, double *out) {
    if (vfloat(v)) {
        const float *r = vrow(v, i);
        for (size_t k = 0; k < d; k++) out[k] = (double)r[k];
    } else {
        memcpy(out, v->g[i], d * sizeof(double));
    }
}

/* ---------------------------------------------------------------- all pairs */

/* Destination rows per cache tile: a tile (TILE_ROWS rows of d doubles)
 * stays in L2 while every source block streams over it. */
#define TILE_ROWS 128

/* The all-pairs pass over n rows of d values (all of length d), sources
 * [row_begin, row_end), destinations j > i, each pair offered to both ends
 * (list = rank of the row's key). Offer order does not matter: lists are
 * ordered by (sim, dst key), and pairs equal in both are the same output. */
MDI_SMALL __attribute__((noinline)) static md_status all_pairs_rows(const vset *v, size_t d, size_t row_begin,
                                                          size_t row_end, selector *s) {
    if (row_begin >= row_end) return MD_OK;
    const size_t n = v->n;
    const mdi_kernels *K = mdi_kern();
    const size_t P = K->p, R = K->r;
    const int exact = v->f != NULL; /* products of widened floats are exact: FMA allowed */
    size_t jb = row_begin + 1; /* the first destination any source here can have */
    size_t n_src = row_end - row_begin, n_dst = n - jb;
    size_t n_panels = (n_dst + P - 1) / P;
    if (d != 0 && (n_src > SIZE_MAX / sizeof(double) / d ||
                   n_panels > SIZE_MAX / sizeof(double) / P / d))
        return MD_ERR_RANGE;
    double *src = mdi_alloc_array(n_src * d, sizeof(double));
    double *panels = mdi_alloc_array(n_panels * d * P, sizeof(double));
    double *norm = mdi_alloc_array(n, sizeof(double));
    double *tmp = mdi_alloc_array(d, sizeof(double));
    double block[MDI_RMAX * MDI_PMAX];
    md_status st = (src && panels && norm && tmp) ? MD_OK : MD_ERR_NOMEM;
    if (st != MD_OK) goto done;
    for (size_t i = row_begin; i < n; i++) norm[i] = sqrt(vsum_sq(v, i));
    for (size_t i = 0; i < n_src; i++) widen_row(v, row_begin + i, d, src + i * d);
    for (size_t q = 0; q < n_panels; q++) {
        size_t j0 = jb + q * P, cnt = n - j0 < P ? n - j0 : P;
        double *panel = panels + q * d * P;
        for (size_t p = 0; p < P; p++) {
            if (p < cnt) widen_row(v, j0 + p, d, tmp);
            for (size_t k = 0; k < d; k++) panel[k * P + p] = p < cnt ? tmp[k] : 0;
        }
    }
    const size_t tile_panels = TILE_ROWS / P ? TILE_ROWS / P : 1;
    const double floor = s->floor;
    for (size_t qt = 0; qt < n_panels && st == MD_OK; qt += tile_panels) {
        size_t qe = qt + tile_panels < n_panels ? qt + tile_panels : n_panels;
        size_t tile_end_row = jb + qe * P; /* rows of this tile are < tile_end_row */
        for (size_t i0 = row_begin; i0 < row_end && i0 + 1 < tile_end_row && st == MD_OK; i0 += R) {
            size_t r = row_end - i0 < R ? row_end - i0 : R;
            size_t q0 = (i0 + 1 - jb) / P; /* the panel holding row i0 + 1 */
            if (q0 < qt) q0 = qt;
            for (size_t q = q0; q < qe && st == MD_OK; q++) {
                K->block(src + (i0 - row_begin) * d, d, r, panels + q * d * P, d, block, exact);
                size_t j0 = jb + q * P;
                for (size_t i = 0; i < r; i++) {
                    size_t a = i0 + i;
                    for (size_t p = 0; p < P; p++) {
                        size_t b = j0 + p;
                        if (b >= n) break;
                        if (b <= a) continue;
                        double sim = hoisted(block[i * P + p], norm[a], norm[b]);
                        if (!(sim >= floor)) continue;
                        st = mdi_offer(s, s->rank[a], b, sim);
                        if (st == MD_OK) st = mdi_offer(s, s->rank[b], a, sim);
                        if (st != MD_OK) break;
                    }
                    if (st != MD_OK) break;
                }
            }
        }
    }
done:
    free(tmp);
    free(norm);
    free(panels);
    free(src);
    return st;
}

/* ---------------------------------------------------------------- pruned all pairs */

/* The same pass, pruned. An integer pass over int16 copies of the rows
 * (q16 kernels, at matrix-multiply speed) bounds every pair's similarity
 * (filter.h: lb <= sim <= ub). Each row keeps a heap of the largest lower
 * bounds of its pairs; once it holds k, its top tau is a value k pairs are
 * known to reach, so a pair whose ub is below tau at both ends can enter
 * neither list (its sim is below k others at each end) and is never
 * computed. The survivors are computed exactly and offered as the unpruned
 * pass offers them; lists ordered by (sim, dst key) do not depend on offer
 * order, so the lists are the unpruned pass's. Rows with a NaN or infinite
 * component (every pair NaN: never offered) and zero rows (every pair 0)
 * are answered from what the reference computes for them, not bounded. */

#define HEAP_MAX 64     /* per-row heaps of lower bounds up to this k */
#define PAIRS_MIN 32768 /* fewer pairs than this: the unpruned pass is as fast */

enum { ROW_REGULAR = 0, ROW_ZERO = 1, ROW_BAD = 2 };

typedef struct pruner {
    const float *const *rows;
    size_t n, d, dp, row_begin, row_end;
    const mdi_kernels *K;
    selector *s;
    double *norm;
    uint8_t *flag, *shared;
    float *w, *rho, *ai, *bi, *tau; /* per row (padded past n: never a candidate) */
    size_t heap_cap;
    float *heap, floor_f;
    uint32_t *hn;
    /* candidates found by the scan, waiting for their exact similarity */
    uint32_t *ci, *cj;
    float *cub;
    size_t cm, croom, cmax, found, screened;
    bool flushed, keep_going; /* keep_going: never give up (tests, passes in parts) */
    int16_t *a, *panels;      /* int16 rows [row_begin, n) and the destination panels */
    /* the prefix bound (filter.h): 0, or the scan's int16 dots run over the
     * first `pre` dimensions, then a survivor's over `chunk` more at a time,
     * screened again at every boundary pre + c chunk < dp (c < nb), up to dp */
    size_t pre, chunk, nb;
    float *u0; /* per row (padded): the residual norm past pre (relative, rounded up) */
    float *ub; /* row j's residual norms past the later boundaries: ub[j * (nb - 1) + c - 1] */
} pruner;

MDI_SMALL static void pruner_free(pruner *p) {
    free(p->a);
    free(p->panels);
    free(p->norm);
    free(p->flag);
    free(p->shared);
    free(p->w);
    free(p->rho);
    free(p->ai);
    free(p->bi);
    free(p->tau);
    free(p->heap);
    free(p->hn);
    free(p->ci);
    free(p->cj);
    free(p->cub);
    free(p->u0);
    free(p->ub);
}

/* A pair (i, j) known to reach lb: row i's heap (and tau) learn it. */
MDI_SMALL static inline void learn(pruner *p, size_t i, float lb) {
    if (!p->heap_cap || p->shared[i]) return;
    float *h = p->heap + i * p->heap_cap;
    size_t hn = p->hn[i];
    if (hn < p->heap_cap) {
        mdi_heap_push(h, &hn, lb);
        p->hn[i] = (uint32_t)hn;
        if (hn < p->heap_cap) return;
    } else if (lb > h[0]) {
        mdi_heap_replace_top(h, hn, lb);
    } else {
        return;
    }
    const float t = h[0] > p->floor_f ? h[0] : p->floor_f;
    if (t > p->tau[i]) p->tau[i] = t; /* never below a bound another pass shared */
}

/* Keep only the candidates the current taus do not rule out. */
MDI_SMALL static void compact(pruner *p) {
    size_t kept = 0;
    for (size_t t = 0; t < p->cm; t++)
        if (p->cub[t] >= p->tau[p->ci[t]] || p->cub[t] >= p->tau[p->cj[t]]) {
            p->ci[kept] = p->ci[t];
            p->cj[kept] = p->cj[t];
            p->cub[kept] = p->cub[t];
            kept++;
        }
    p->cm = kept;
}

/* Every buffered candidate gets its exact similarity and is offered to both
 * ends, grouped by source so one widened source row serves many dots. */
/* Dot products of pairs of float rows (both sides vary), four at a time:
 * each pair's sum runs in index order; interleaving four independent sums
 * hides the add latency. */
MDI_SMALL static void pair_dots(const float *const *a, const float *const *b, size_t m, size_t d, double *out) {
    size_t t = 0;
    for (; t + 4 <= m; t += 4) {
        const float *a0 = a[t], *a1 = a[t + 1], *a2 = a[t + 2], *a3 = a[t + 3];
        const float *b0 = b[t], *b1 = b[t + 1], *b2 = b[t + 2], *b3 = b[t + 3];
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (size_t k = 0; k < d; k++) {
            s0 += (double)a0[k] * (double)b0[k];
            s1 += (double)a1[k] * (double)b1[k];
            s2 += (double)a2[k] * (double)b2[k];
            s3 += (double)a3[k] * (double)b3[k];
        }
        out[t] = s0;
        out[t + 1] = s1;
        out[t + 2] = s2;
        out[t + 3] = s3;
    }
    for (; t < m; t++) out[t] = dot_f32(a[t], b[t], d);
}

enum { FLUSH_CHUNK = 128 };

/* A batch of exact pairs waiting for their dots. */
typedef struct pair_batch {
    const float *a[FLUSH_CHUNK], *b[FLUSH_CHUNK];
    uint32_t i[FLUSH_CHUNK], j[FLUSH_CHUNK];
    double dot[FLUSH_CHUNK];
    size_t m;
} pair_batch;

/* Offer the batch's pairs (dots already computed) to both ends. */
MDI_SMALL static md_status offer_batch(pruner *p, pair_batch *b) {
    md_status st = MD_OK;
    for (size_t t = 0; t < b->m && st == MD_OK; t++) {
        const size_t i = b->i[t], j = b->j[t];
        const double sim = hoisted(b->dot[t], p->norm[i], p->norm[j]);
        if (!(sim >= p->s->floor)) continue;
        st = mdi_offer(p->s, p->s->rank[i], j, sim);
        if (st == MD_OK) st = mdi_offer(p->s, p->s->rank[j], i, sim);
    }
    b->m = 0;
    return st;
}

/* Every buffered candidate gets its exact similarity and is offered to both
 * ends. Grouped by source: a source with eight or more candidates widens
 * its row once for the row kernel; the rest go by pairs. */
MDI_SMALL static md_status flush(pruner *p) {
    const size_t m = p->cm, d = p->d, nsrc = p->row_end - p->row_begin;
    p->flushed = true;
    if (m == 0) return MD_OK;
    size_t *start = mdi_calloc_array(nsrc + 1, sizeof(size_t));
    uint32_t *order = mdi_alloc_array(m, sizeof(uint32_t));
    double *qd = mdi_alloc_array(d, sizeof(double));
    pair_batch *rows = mdi_alloc_array(2, sizeof(pair_batch)), *pairs = rows + 1;
    md_status st = (start && order && qd && rows) ? MD_OK : MD_ERR_NOMEM;
    if (st == MD_OK) {
        rows->m = pairs->m = 0;
        for (size_t t = 0; t < m; t++) start[p->ci[t] - p->row_begin + 1]++;
        for (size_t i = 0; i < nsrc; i++) start[i + 1] += start[i];
        for (size_t t = 0; t < m; t++) order[start[p->ci[t] - p->row_begin]++] = (uint32_t)t;
        size_t at = 0;
        while (at < m && st == MD_OK) {
            const size_t i = p->ci[order[at]];
            size_t end = at;
            while (end < m && p->ci[order[end]] == i) end++;
            size_t full = end - at >= 8 ? at + (end - at) / 8 * 8 : at;
            if (full > at)
                for (size_t k = 0; k < d; k++) qd[k] = (double)p->rows[i][k];
            for (size_t c0 = at; c0 < full && st == MD_OK; c0 += FLUSH_CHUNK) {
                size_t cnt = full - c0 < FLUSH_CHUNK ? full - c0 : FLUSH_CHUNK;
                for (size_t t = 0; t < cnt; t++) {
                    rows->j[t] = p->cj[order[c0 + t]];
                    rows->i[t] = (uint32_t)i;
                    rows->b[t] = p->rows[rows->j[t]];
                }
                rows->m = cnt;
                p->K->dots_f32(qd, rows->b, cnt, d, rows->dot);
                st = offer_batch(p, rows);
            }
            for (size_t t = full; t < end && st == MD_OK; t++) {
                const size_t j = p->cj[order[t]];
                pairs->a[pairs->m] = p->rows[i];
                pairs->b[pairs->m] = p->rows[j];
                pairs->i[pairs->m] = (uint32_t)i;
                pairs->j[pairs->m++] = (uint32_t)j;
                if (pairs->m == FLUSH_CHUNK) {
                    pair_dots(pairs->a, pairs->b, pairs->m, d, pairs->dot);
                    st = offer_batch(p, pairs);
                }
            }
            at = end;
        }
        if (st == MD_OK && pairs->m) {
            pair_dots(pairs->a, pairs->b, pairs->m, d, pairs->dot);
            st = offer_batch(p, pairs);
        }
    }
    free(rows);
    free(qd);
    free(order);
    free(start);
    p->cm = 0;
    return st;
}

/* A larger candidate buffer (up to cmax), or false when there is none. */
MDI_SMALL static bool grow_candidates(pruner *p) {
    const size_t room = p->croom > p->cmax / 2 ? p->cmax : 2 * p->croom;
    if (room <= p->croom || room > SIZE_MAX / sizeof(uint32_t)) return false;
    uint32_t *ci = realloc(p->ci, room * sizeof(uint32_t));
    if (ci) p->ci = ci;
    uint32_t *cj = ci ? realloc(p->cj, room * sizeof(uint32_t)) : NULL;
    if (cj) p->cj = cj;
    float *cub = cj ? realloc(p->cub, room * sizeof(float)) : NULL;
    if (!cub) return false; /* the arrays kept so far hold croom each: still usable */
    p->cub = cub;
    p->croom = room;
    return true;
}

/* Room for one more candidate: compact, and if still half full, grow the
 * buffer (up to cmax) rather than flush: a candidate's exact similarity is
 * computed only if the thresholds, higher by then, still let it through
 * (a flush while the rows' thresholds are young, as after the first rows
 * of a part, computes many the final ones prune); flush once it cannot grow.
 * MD_ERR_RANGE: pruning does not pay (most pairs survive) and nothing was
 * offered yet, so the caller can run the unpruned pass instead. */
MDI_SMALL static md_status make_room(pruner *p) {
    compact(p);
    if (p->cm <= p->croom / 2) return MD_OK;
    if (!p->flushed && !p->keep_going && p->found * 10 > p->screened * 9) return MD_ERR_RANGE;
    if (grow_candidates(p)) return MD_OK;
    return flush(p);
}

MDI_SMALL __attribute__((noinline)) static md_status candidate(pruner *p, size_t i, size_t j, int32_t dot) {
    if (p->flag[i] | p->flag[j]) return MD_OK; /* answered without bounds */
    const float e = (float)dot * (p->w[i] * p->w[j]), sl = p->rho[j] * p->ai[i] + p->bi[i];
    const float ub = e + sl, lb = e - sl;
    if (p->cm == p->croom) {
        md_status st = make_room(p);
        if (st != MD_OK) return st;
        if (!(ub >= p->tau[i] || ub >= p->tau[j])) return MD_OK;
    }
    p->ci[p->cm] = (uint32_t)i;
    p->cj[p->cm] = (uint32_t)j;
    p->cub[p->cm++] = ub;
    p->found++;
    learn(p, i, lb);
    learn(p, j, lb);
    return MD_OK;
}

/* Pairs with a zero row: similarity 0 (the hoisted form checks the norms
 * first, so even next to a NaN row). */
MDI_SMALL static md_status zero_pairs(pruner *p, size_t b, size_t e) {
    if (!(0 >= p->s->floor)) return MD_OK;
    size_t nz = 0;
    for (size_t j = p->row_begin; j < p->n; j++) nz += p->flag[j] == ROW_ZERO;
    if (nz == 0) return MD_OK;
    size_t *zero = mdi_alloc_array(nz, sizeof(size_t)), at = 0;
    if (!zero) return MD_ERR_NOMEM;
    for (size_t j = p->row_begin; j < p->n; j++)
        if (p->flag[j] == ROW_ZERO) zero[at++] = j;
    md_status st = MD_OK;
    for (size_t i = b, z0 = 0; i < e && st == MD_OK; i++) {
        while (z0 < nz && zero[z0] <= i) z0++; /* the zero rows after i */
        if (p->flag[i] == ROW_ZERO) {
            for (size_t j = i + 1; j < p->n && st == MD_OK; j++) {
                st = mdi_offer(p->s, p->s->rank[i], j, 0);
                if (st == MD_OK) st = mdi_offer(p->s, p->s->rank[j], i, 0);
            }
            continue;
        }
        for (size_t z = z0; z < nz && st == MD_OK; z++) {
            st = mdi_offer(p->s, p->s->rank[i], zero[z], 0);
            if (st == MD_OK) st = mdi_offer(p->s, p->s->rank[zero[z]], i, 0);
        }
    }
    free(zero);
    return st;
}

MDI_SMALL static md_status pruner_init(pruner *p, const float *const *rows, size_t n, size_t d, size_t row_begin,
                             size_t row_end, selector *s, size_t cap) {
    memset(p, 0, sizeof *p);
    p->rows = rows;
    p->n = n;
    p->d = d;
    p->dp = mdi_filter_dp(d);
    p->row_begin = row_begin;
    p->row_end = row_end;
    p->K = mdi_kern();
    p->s = s;
    p->heap_cap = cap <= HEAP_MAX ? cap : 0;
    p->floor_f = mdi_float_down(s->floor);
    const size_t np = n + MDI_QPMAX; /* per-row arrays, padded for whole panels */
    p->norm = mdi_alloc_array(n, sizeof(double));
    p->flag = mdi_calloc_array(np, 1);
    p->shared = mdi_calloc_array(np, 1);
    p->w = mdi_calloc_array(np, sizeof(float));
    p->rho = mdi_calloc_array(np, sizeof(float));
    p->ai = mdi_calloc_array(np, sizeof(float));
    p->bi = mdi_calloc_array(np, sizeof(float));
    p->tau = mdi_alloc_array(np, sizeof(float));
    p->hn = mdi_calloc_array(np, sizeof(uint32_t));
    p->heap = p->heap_cap ? mdi_alloc_array(n, p->heap_cap * sizeof(float)) : NULL;
    p->croom = (n < 64 ? 64 : n) * 8; /* candidates between compactions */
    p->cmax = p->croom * 4;             /* grown to (12 bytes each): about 1/4 of a 384-d matrix */
    p->ci = mdi_alloc_array(p->croom, sizeof(uint32_t));
    p->cj = mdi_alloc_array(p->croom, sizeof(uint32_t));
    p->cub = mdi_alloc_array(p->croom, sizeof(float));
    if (!p->norm || !p->flag || !p->shared || !p->w || !p->rho || !p->ai || !p->bi || !p->tau || !p->hn ||
        (p->heap_cap && !p->heap) || !p->ci || !p->cj || !p->cub)
        return MD_ERR_NOMEM;
    for (size_t j = 0; j < np; j++) p->tau[j] = INFINITY;
    /* a key held by two rows shares one list: never pruned from that side */
    for (size_t j = 0; j < n; j++)
        if (s->src[s->rank[j]] != j) p->shared[j] = p->shared[s->src[s->rank[j]]] = 1;
    return MD_OK;
}

MDI_SMALL static void pruner_pack(pruner *p, int16_t *a, int16_t *panels);

/* Row j's bounds and threshold from its flag and rho. */
MDI_SMALL static void pruner_derive(pruner *p, size_t j) {
    if (p->flag[j]) return;
    p->ai[j] = mdi_float_up(1.0 + (double)p->rho[j]);
    p->bi[j] = mdi_float_up((double)p->rho[j] + (double)MDI_FILTER_MARGIN);
    p->tau[j] = p->shared[j] ? -INFINITY : p->floor_f;
}

/* Norms, flags and int16 copies (a, row-major from row_begin) of rows [b, e). */
MDI_SMALL __attribute__((noinline)) static void pruner_row_data(pruner *p, int16_t *a, size_t b, size_t e) {
    const size_t d = p->d, dp = p->dp;
    for (size_t j = b; j < e; j++) {
        double ss = sum_sq_f32(p->rows[j], d);
        p->norm[j] = sqrt(ss);
        if (!mdi_quantize(p->rows[j], d, dp, ss, 16, MDI_Q16_CAP2, a + (j - p->row_begin) * dp, &p->w[j], &p->rho[j]))
            p->flag[j] = ss == 0 ? ROW_ZERO : ROW_BAD;
        pruner_derive(p, j);
    }
}

/* Norms, flags, int16 copies of rows [row_begin, n) (a, row-major) and
 * their destination panels. */
MDI_SMALL __attribute__((noinline)) static void pruner_rows(pruner *p, int16_t *a, int16_t *panels) {
    pruner_row_data(p, a, p->row_begin, p->n);
    pruner_pack(p, a, panels);
}

/* The destination panels of a's rows from row_begin + 1. */
MDI_SMALL static void pruner_pack(pruner *p, int16_t *a, int16_t *panels) {
    const size_t n = p->n, dp = p->dp, QP = p->K->qp, row_begin = p->row_begin, jb = row_begin + 1;
    const size_t n_panels = (n - jb + QP - 1) / QP;
    for (size_t q = 0; q < n_panels; q++) {
        size_t j0 = jb + q * QP, cnt = n - j0 < QP ? n - j0 : QP;
        mdi_pack_panel_i16(QP, a + (j0 - row_begin) * dp, dp, cnt, dp, panels + q * QP * dp);
    }
}

MDI_SMALL /* Whether the pass will pay: about 32 sources (blocks of consecutive rows,
 * one kernel call per panel, spread over the tile), each against every
 * later row as the pass will see them (bounds, a heap of the k largest
 * lower bounds, the floor), give the share of pairs whose upper bound
 * reaches the threshold. Survivors cost several times an unpruned pair
 * (gathered rows, bookkeeping), so the pass pays only when few survive:
 * rows nearly equal, or a floor and k that keep most pairs, run the
 * unpruned pass instead. Costs about 32 / n of the pass. */
MDI_SMALL __attribute__((noinline)) static bool probe_pays(const pruner *p, const int16_t *a, const int16_t *panels) {
    const size_t n = p->n, dp = p->dp, QP = p->K->qp, QR = p->K->qr, jb = p->row_begin + 1;
    const size_t n_src = p->row_end - p->row_begin, cap = p->heap_cap;
    const size_t blocks = (32 + QR - 1) / QR;
    int32_t dots[MDI_QRMAX * MDI_QPMAX];
    float *heap = mdi_alloc_array(QR * (cap ? cap : 1), sizeof(float)), *ubs = mdi_alloc_array(QR, n * sizeof(float));
    size_t hn[MDI_QRMAX], m[MDI_QRMAX];
    double pairs = 0, survivors = 0;
    for (size_t b = 0; heap && ubs && b < blocks; b++) {
        const size_t i0 = p->row_begin + b * n_src / blocks, r = p->row_end - i0 < QR ? p->row_end - i0 : QR;
        if (b > 0 && i0 < p->row_begin + (b - 1) * n_src / blocks + QR) continue; /* a small tile: overlapping blocks */
        for (size_t ii = 0; ii < r; ii++) hn[ii] = m[ii] = 0;
        for (size_t q = (i0 + 1 - jb) / QP; jb + q * QP < n; q++) {
            const size_t j0 = jb + q * QP;
            p->K->q16_block(a + (i0 - p->row_begin) * dp, dp, r, panels + q * QP * dp, dp, dots);
            for (size_t ii = 0; ii < r; ii++) {
                const size_t i = i0 + ii;
                float *h = heap + ii * (cap ? cap : 1);
                for (size_t l = 0; !p->flag[i] && l < QP && j0 + l < n; l++) {
                    const size_t j = j0 + l;
                    if (j <= i || p->flag[j]) continue;
                    const float e = (float)dots[ii * QP + l] * (p->w[i] * p->w[j]), sl = p->rho[j] * p->ai[i] + p->bi[i];
                    ubs[ii * n + m[ii]++] = e + sl;
                    if (!cap) continue;
                    if (hn[ii] < cap) mdi_heap_push(h, &hn[ii], e - sl);
                    else if (e - sl > h[0]) mdi_heap_replace_top(h, hn[ii], e - sl);
                }
            }
        }
        for (size_t ii = 0; ii < r; ii++) {
            const float *h = heap + ii * (cap ? cap : 1);
            const float tau = cap && hn[ii] == cap && h[0] > p->floor_f ? h[0] : p->floor_f;
            for (size_t u = 0; u < m[ii]; u++) survivors += ubs[ii * n + u] >= tau;
            pairs += (double)m[ii];
        }
    }
    free(heap);
    free(ubs);
    return survivors <= 0.1 * pairs;
}

/* ---------------------------------------------------------------- the prefix bound */

/* With a high floor most pairs are ruled out by their first dimensions:
 * cos(x, y) <= cos over a prefix + |x_rest| |y_rest| / (|x| |y|) (filter.h),
 * so the scan's int16 dots run over a prefix of pre dimensions, screened
 * with each row's residual norm past it, and only a pair that survives gets
 * its dot over the rest, chunk by chunk, screened again at every chunk's
 * end with the residual norms past it; a pair that reaches dp has the full
 * int16 dot the unpruned scan computes and goes to candidate() as there.
 * Every screen is a rigorous upper bound, so what it rules out is below the
 * threshold at both ends, as what candidate() rules out: the lists are the
 * exact pass's. The prefix is chosen by a rule (choose_prefix), not fixed. */

/* (a build for benchmarks may fix it: -DMDI_PREFIX_FORCE=1 is the scan without the prefix) */
#ifndef MDI_PREFIX_FORCE
#define MDI_PREFIX_FORCE 0
#endif
size_t mdi_prefix_force = MDI_PREFIX_FORCE;

/* The relative residual norm of a tail whose sum of squares is t, of a row
 * whose sum of squares is ss, rounded up (filter.h) and at most 1. */
MDI_SMALL static float tail_norm(double t, double ss) {
    if (!(t > 0)) return 0;
    const float f = mdi_float_up(sqrt(t / ss) * (1 + 0x1p-30));
    return f < 1 ? f : 1;
}

/* Row j's relative residual norms past positions pos[0..m) (ascending):
 * out[c] >= |x[pos[c]..d)| / |x|. The tails' sums of squares are summed
 * from the end in double (every square exact). */
MDI_SMALL static void tail_norms(const pruner *p, size_t j, const size_t *pos, size_t m, float *out) {
    const float *x = p->rows[j];
    const double ss = p->norm[j] * p->norm[j];
    double t = 0;
    size_t k = p->d;
    for (size_t c = m; c-- > 0;) {
        for (; k > pos[c]; k--) t += (double)x[k - 1] * (double)x[k - 1];
        out[c] = tail_norm(t, ss);
    }
}

/* The stages' bound (q16_screen_r's, in its order of operations). */
MDI_SMALL static inline float prefix_ub(const pruner *p, size_t i, size_t j, int32_t dot, float bi, float ui, float uj) {
    const float e = (float)dot * (p->w[i] * p->w[j]);
    return (e + (p->rho[j] * p->ai[i] + bi)) + uj * ui;
}

/* The source's bi for the prefix screens: one more rounding's room (filter.h). */
MDI_SMALL static inline float prefix_bi(const pruner *p, size_t i) { return nextafterf(p->bi[i] + 0x1p-21f, INFINITY); }

/* The chunk after a prefix of pre: at most 12 chunks to dp, multiples of MDI_QALIGN. */
MDI_SMALL static size_t prefix_chunk(size_t dp, size_t pre) {
    const size_t c = (dp - pre + 11) / 12;
    return (c + MDI_QALIGN - 1) / MDI_QALIGN * MDI_QALIGN;
}

/* Relative costs of the rule, in dimensions of one pair of the blocked
 * prefix scan: a survivor's chunks (pair by pair, its rows gathered) per
 * dimension, the fixed cost of a survivor and of each screen after a
 * chunk. Measured (wasm SIMD128 in Node and AVX-512 natively, 384-d): a
 * survivor costs from 4 to 12 whole pairs of the blocked scan (scattered
 * rows, a branch per survivor and per chunk), so the rule takes a prefix
 * few pairs survive rather than the shortest that prunes most. */
#define PRE_COST_CHUNK 2.0
#define PRE_COST_SURVIVOR 1500.0
#define PRE_COST_SCREEN 32.0
#define PRE_SAMPLE_SRC 32
#define PRE_SAMPLE_DST 2048

/* The prefix for this pass (0: none). A sample of the pass's pairs (about
 * 32 sources against 2048 destinations spread over the rows) is screened
 * as the scan would screen it, for every prefix from MDI_QALIGN to 3/4 of
 * dp at the floor (the thresholds only rise), which gives each prefix's
 * cost per pair from the costs above: the cheapest wins if it costs under
 * 4/5 of the full scan (a low floor, or rows whose first dimensions hold
 * little of their energy: no prefix). */
MDI_SMALL __attribute__((noinline)) static size_t choose_prefix(const pruner *p) {
    const size_t dp = p->dp, n = p->n, rb = p->row_begin;
    if (mdi_prefix_force == 1) return 0;
    if (mdi_prefix_force > 1) {
        const size_t f = mdi_prefix_force / MDI_QALIGN * MDI_QALIGN;
        return f < dp ? f : 0;
    }
    const size_t g = dp / MDI_QALIGN, top = dp * 3 / 4 / MDI_QALIGN; /* prefixes 1..top (x MDI_QALIGN) */
    if (top < 1) return 0;
    const size_t n_src = p->row_end - rb, n_dst = n - rb;
    const size_t ns = n_src < PRE_SAMPLE_SRC ? n_src : PRE_SAMPLE_SRC, nd = n_dst < PRE_SAMPLE_DST ? n_dst : PRE_SAMPLE_DST;
    size_t *pos = mdi_alloc_array(g, sizeof(size_t)), *row = mdi_alloc_array(ns + nd, sizeof(size_t));
    float *tails = mdi_alloc_array((ns + nd) * g, sizeof(float));
    int32_t *cum = mdi_alloc_array(g, sizeof(int32_t));
    double *cost = mdi_calloc_array(top + 1, sizeof(double));
    size_t best = 0;
    if (!pos || !row || !tails || !cum || !cost) goto done;
    for (size_t c = 0; c < g; c++) pos[c] = (c + 1) * MDI_QALIGN; /* pos[g - 1] = dp: tail 0 */
    for (size_t s = 0; s < ns + nd; s++) {
        row[s] = s < ns ? rb + s * n_src / ns : rb + (s - ns) * n_dst / nd;
        if (!p->flag[row[s]]) tail_norms(p, row[s], pos, g, tails + s * g);
    }
    double pairs = 0;
    const float tau = p->floor_f;
    for (size_t s = 0; s < ns; s++) {
        const size_t i = row[s];
        if (p->flag[i] || p->shared[i]) continue;
        const int16_t *x = p->a + (i - rb) * dp;
        const float bi = prefix_bi(p, i);
        for (size_t t = ns; t < ns + nd; t++) {
            const size_t j = row[t];
            if (j == i || p->flag[j] || p->shared[j]) continue;
            const int16_t *y = p->a + (j - rb) * dp;
            uint32_t acc = 0;
            for (size_t c = 0; c < g; c++) {
                acc += (uint32_t)p->K->q16_dot(x + c * MDI_QALIGN, y + c * MDI_QALIGN, MDI_QALIGN);
                cum[c] = (int32_t)acc;
            }
            pairs++;
            const float *ti = tails + s * g, *tj = tails + t * g;
            for (size_t q = 1; q <= top; q++) {
                const size_t pre = q * MDI_QALIGN, ch = prefix_chunk(dp, pre);
                double c = (double)pre;
                size_t at = pre;
                if (prefix_ub(p, i, j, cum[at / MDI_QALIGN - 1], bi, ti[at / MDI_QALIGN - 1], tj[at / MDI_QALIGN - 1]) >= tau) {
                    c += PRE_COST_SURVIVOR;
                    for (;;) {
                        const size_t next = at + ch < dp ? at + ch : dp;
                        c += PRE_COST_CHUNK * (double)(next - at);
                        at = next;
                        if (at == dp) break;
                        c += PRE_COST_SCREEN;
                        const size_t ix = at / MDI_QALIGN - 1;
                        if (!(prefix_ub(p, i, j, cum[ix], bi, ti[ix], tj[ix]) >= tau)) break;
                    }
                }
                cost[q] += c;
            }
        }
    }
    if (pairs < 1) goto done;
    double least = 0.8 * (double)dp * pairs;
    for (size_t q = 1; q <= top; q++)
        if (cost[q] < least) {
            least = cost[q];
            best = q * MDI_QALIGN;
        }
done:
    free(cost);
    free(cum);
    free(tails);
    free(row);
    free(pos);
    return best;
}

/* The prefix chosen and every row's residual norms: p->pre stays 0 (the
 * full int16 scan) when none pays or their room cannot be had. */
MDI_SMALL __attribute__((noinline)) static void prefix_init(pruner *p) {
    const size_t dp = p->dp, pre = choose_prefix(p);
    if (pre == 0) return;
    const size_t ch = prefix_chunk(dp, pre), nb = (dp - pre + ch - 1) / ch, n = p->n;
    size_t pos[13];
    for (size_t c = 0; c < nb; c++) pos[c] = pre + c * ch;
    float *u0 = mdi_calloc_array(n + MDI_QPMAX, sizeof(float));
    float *ub = nb > 1 ? mdi_calloc_array(n, (nb - 1) * sizeof(float)) : NULL;
    float t[13];
    if (!u0 || (nb > 1 && !ub)) {
        free(u0);
        free(ub);
        return;
    }
    for (size_t j = p->row_begin; j < n; j++) {
        if (p->flag[j]) continue;
        tail_norms(p, j, pos, nb, t);
        u0[j] = t[0];
        for (size_t c = 1; c < nb; c++) ub[j * (nb - 1) + c - 1] = t[c];
    }
    p->pre = pre;
    p->chunk = ch;
    p->nb = nb;
    p->u0 = u0;
    p->ub = ub;
}

/* A pair that survived the prefix: its dot over the chunks after it, each
 * screened again, then (if it reaches dp) the full int16 dot's candidate. */
MDI_SMALL static md_status extend(pruner *p, size_t i, size_t j, int32_t dot, float bi) {
    const size_t dp = p->dp, nb = p->nb, ch = p->chunk;
    const int16_t *x = p->a + (i - p->row_begin) * dp, *y = p->a + (j - p->row_begin) * dp;
    size_t at = p->pre;
    for (size_t c = 1; c < nb; c++, at += ch) {
        dot = (int32_t)((uint32_t)dot + (uint32_t)p->K->q16_dot(x + at, y + at, ch));
        const float ub = prefix_ub(p, i, j, dot, bi, p->ub[i * (nb - 1) + c - 1], p->ub[j * (nb - 1) + c - 1]);
        if (!(ub >= p->tau[i] || ub >= p->tau[j])) return MD_OK;
    }
    dot = (int32_t)((uint32_t)dot + (uint32_t)p->K->q16_dot(x + at, y + at, dp - at));
    return candidate(p, i, j, dot);
}

/* prune_scan with the prefix bound: the panels' first pre dimensions. */
MDI_SMALL __attribute__((noinline)) static md_status prune_scan_prefix(pruner *p, const int16_t *a, const int16_t *panels,
                                                             size_t b, size_t e) {
    const size_t n = p->n, dp = p->dp, QP = p->K->qp, QR = p->K->qr, jb = p->row_begin + 1, pre = p->pre;
    const size_t n_panels = (n - jb + QP - 1) / QP;
    md_status st = MD_OK;
    /* the unpruned scan's tiles: the panels' prefixes and the int16 rows a
     * survivor reads stay in L2 (tiles by the prefix's length measured no faster) */
    size_t tile_panels = (256 * 1024) / (QP * dp * sizeof(int16_t));
    if (tile_panels == 0) tile_panels = 1;
    int32_t dots[MDI_QRMAX * MDI_QPMAX];
    for (size_t qt = 0; qt < n_panels && st == MD_OK; qt += tile_panels) {
        size_t qe = qt + tile_panels < n_panels ? qt + tile_panels : n_panels;
        size_t tile_end_row = jb + qe * QP;
        for (size_t i0 = b; i0 < e && i0 + 1 < tile_end_row && st == MD_OK; i0 += QR) {
            size_t r = e - i0 < QR ? e - i0 : QR;
            size_t q0 = (i0 + 1 - jb) / QP;
            if (q0 < qt) q0 = qt;
            for (size_t q = q0; q < qe && st == MD_OK; q++) {
                const size_t j0 = jb + q * QP;
                p->K->q16_block(a + (i0 - p->row_begin) * dp, dp, r, panels + q * QP * dp, pre, dots);
                const size_t hi = n - j0 < QP ? n - j0 : QP;
                for (size_t ii = 0; ii < r && st == MD_OK; ii++) {
                    const size_t i = i0 + ii;
                    if (p->flag[i]) continue;
                    const size_t lo = i + 1 > j0 ? i + 1 - j0 : 0;
                    if (lo >= hi) continue;
                    p->screened += hi - lo;
                    const float bi = prefix_bi(p, i);
                    uint64_t bits = p->K->q16_screen_r(dots + ii * QP, p->w[i], p->ai[i], bi, p->tau[i], p->u0[i],
                                                       p->w + j0, p->rho + j0, p->tau + j0, p->u0 + j0);
                    bits &= (hi == 64 ? ~(uint64_t)0 : (((uint64_t)1 << hi) - 1)) & ~(((uint64_t)1 << lo) - 1);
                    while (bits && st == MD_OK) {
                        const size_t t = (size_t)__builtin_ctzll(bits);
                        bits &= bits - 1;
                        st = extend(p, i, j0 + t, dots[ii * QP + t], bi);
                    }
                }
            }
        }
    }
    return st;
}

/* The pruned scan of sources [b, e) (inside the pruner's rows) against
 * every later row: int16 panel dots, screened by the bounds, survivors
 * buffered as candidates (flushed when the buffer fills and at the end). */
MDI_SMALL __attribute__((noinline)) static md_status prune_scan(pruner *p, const int16_t *a, const int16_t *panels,
                                                      size_t b, size_t e) {
    if (p->pre) return prune_scan_prefix(p, a, panels, b, e);
    const size_t n = p->n, dp = p->dp, QP = p->K->qp, QR = p->K->qr, jb = p->row_begin + 1;
    const size_t n_panels = (n - jb + QP - 1) / QP;
    md_status st = MD_OK;
    /* destination tiles of about 256 KB of panels stay in L2 while the sources stream */
    size_t tile_panels = (256 * 1024) / (QP * dp * sizeof(int16_t));
    if (tile_panels == 0) tile_panels = 1;
    int32_t dots[MDI_QRMAX * MDI_QPMAX];
    for (size_t qt = 0; qt < n_panels && st == MD_OK; qt += tile_panels) {
        size_t qe = qt + tile_panels < n_panels ? qt + tile_panels : n_panels;
        size_t tile_end_row = jb + qe * QP;
        for (size_t i0 = b; i0 < e && i0 + 1 < tile_end_row && st == MD_OK; i0 += QR) {
            size_t r = e - i0 < QR ? e - i0 : QR;
            size_t q0 = (i0 + 1 - jb) / QP;
            if (q0 < qt) q0 = qt;
            for (size_t q = q0; q < qe && st == MD_OK; q++) {
                const size_t j0 = jb + q * QP;
                p->K->q16_block(a + (i0 - p->row_begin) * dp, dp, r, panels + q * QP * dp, dp, dots);
                const size_t hi = n - j0 < QP ? n - j0 : QP;
                for (size_t ii = 0; ii < r && st == MD_OK; ii++) {
                    const size_t i = i0 + ii;
                    if (p->flag[i]) continue;
                    const size_t lo = i + 1 > j0 ? i + 1 - j0 : 0;
                    if (lo >= hi) continue;
                    p->screened += hi - lo;
                    uint64_t bits = p->K->q16_screen(dots + ii * QP, p->w[i], p->ai[i], p->bi[i], p->tau[i],
                                                     p->w + j0, p->rho + j0, p->tau + j0);
                    bits &= (hi == 64 ? ~(uint64_t)0 : (((uint64_t)1 << hi) - 1)) & ~(((uint64_t)1 << lo) - 1);
                    while (bits && st == MD_OK) {
                        const size_t t = (size_t)__builtin_ctzll(bits);
                        bits &= bits - 1;
                        st = candidate(p, i, j0 + t, dots[ii * QP + t]);
                    }
                }
            }
        }
    }
    return st;
}

/* The pruner's rows set up: p->a (int16 rows [row_begin, n)) and p->panels
 * (destination panels from row_begin + 1), then norms, flags and bounds. */
MDI_SMALL static md_status pruner_alloc(pruner *p, const float *const *rows, size_t n, size_t d, size_t row_begin,
                              size_t row_end, selector *s) {
    md_status st = pruner_init(p, rows, n, d, row_begin, row_end, s, s->cap);
    if (st != MD_OK) return st;
    const size_t QP = p->K->qp, n_panels = (n - row_begin - 1 + QP - 1) / QP;
    p->a = mdi_alloc_array(n - row_begin, p->dp * sizeof(int16_t));
    p->panels = mdi_alloc_array(n_panels * QP, p->dp * sizeof(int16_t));
    return p->a && p->panels ? MD_OK : MD_ERR_NOMEM;
}

MDI_SMALL static md_status pruner_setup(pruner *p, const float *const *rows, size_t n, size_t d, size_t row_begin,
                              size_t row_end, selector *s) {
    md_status st = pruner_alloc(p, rows, n, d, row_begin, row_end, s);
    if (st == MD_OK) pruner_rows(p, p->a, p->panels);
    return st;
}

__attribute__((noinline)) static md_status all_pairs_pruned(const float *const *rows, size_t n, size_t d,
                                                            size_t row_begin, size_t row_end, selector *s,
                                                            bool keep_going) {
    pruner p;
    md_status st = pruner_setup(&p, rows, n, d, row_begin, row_end, s);
    p.keep_going = keep_going;
    if (st == MD_OK && !keep_going && !probe_pays(&p, p.a, p.panels))
        st = MD_ERR_RANGE; /* nothing offered yet: the caller runs the unpruned pass */
    if (st == MD_OK) prefix_init(&p);
    if (st == MD_OK) st = prune_scan(&p, p.a, p.panels, row_begin, row_end);
    if (st == MD_OK) {
        compact(&p);
        st = flush(&p);
    }
    if (st == MD_OK) st = zero_pairs(&p, row_begin, row_end);
    pruner_free(&p);
    return st;
}

/* Whether a bound exists (the filter's d, a list to fill, a usable floor). */
MDI_SMALL static bool can_prune(size_t n, size_t d, const selector *s) {
    return d >= MDI_FILTER_MIN_D && d <= MDI_FILTER_MAX_D && s->cap > 0 && !isnan(s->floor) &&
           n <= UINT32_MAX - MDI_QPMAX;
}

/* Whether the pruned pass can pay: a bound exists for this d, enough pairs,
 * and something to prune with (a heap for a small k, or a floor). */
MDI_SMALL static bool prune_pays(size_t n, size_t d, size_t row_begin, size_t row_end, const selector *s) {
    if (d < MDI_FILTER_MIN_D || d > MDI_FILTER_MAX_D || n > UINT32_MAX - MDI_QPMAX) return false;
    if (s->cap == 0 || isnan(s->floor)) return false;
    if (s->cap > HEAP_MAX && !(s->floor > -1)) return false;
    if (s->cap >= n - 1 && !(s->floor > -1)) return false;
    double pairs = 0;
    for (size_t i = row_begin; i < row_end && pairs < PAIRS_MIN; i++) pairs += (double)(n - 1 - i);
    return pairs >= PAIRS_MIN;
}

/* The all-pairs pass: pruned when it pays, else (or when pruning gives up
 * before offering anything) the unpruned pass. `mode` as in neighbors.h. */
static md_status all_pairs(const vset *v, size_t d, size_t row_begin, size_t row_end, selector *s,
                           int mode) {
    if (row_begin >= row_end) return MD_OK;
    const size_t n = v->n;
    const float *const *rows = v->f;
    if (!rows) mode = MDI_TOP_EXACT; /* the bound is for float rows */
    bool forced = mode == MDI_TOP_PRUNED;
    bool prune = forced ? can_prune(n, d, s) : mode == MDI_TOP_AUTO && prune_pays(n, d, row_begin, row_end, s);
    if (prune) {
        md_status st = all_pairs_pruned(rows, n, d, row_begin, row_end, s, forced);
        if (st != MD_ERR_RANGE) return st;
    }
    return all_pairs_rows(v, d, row_begin, row_end, s);
}

/* Ragged vectors: equal lengths use the hoisted form, others cosine. */
MDI_SMALL static md_status all_pairs_ragged(const vset *v, selector *s) {
    double *norm;
    md_status st = mdi_vnorms(v, &norm);
    for (size_t i = 0; i < v->n && st == MD_OK; i++) {
        for (size_t j = i + 1; j < v->n && st == MD_OK; j++) {
            double sim = mdi_pair_sim(v, i, j, norm[i], norm[j]);
            if (!(sim >= s->floor)) continue;
            st = mdi_offer(s, s->rank[i], j, sim);
            if (st == MD_OK) st = mdi_offer(s, s->rank[j], i, sim);
        }
    }
    free(norm);
    return st;
}

/* Every pair of every vector (topNeighborPairs): the packed pass when all
 * lengths are equal, else pair by pair. */
MDI_SMALL static md_status every_pair(const vset *v, selector *s, int mode) {
    bool same = true;
    for (size_t i = 1; i < v->n && same; i++) same = vlen(v, i) == vlen(v, 0);
    return same ? all_pairs(v, v->n ? vlen(v, 0) : 0, 0, v->n, s, mode) : all_pairs_ragged(v, s);
}
MDI_SMALL md_status md_top_neighbor_pairs(const md_keyed_vector *vectors, size_t n,
                                md_neighbor_options options, md_neighbor_pairs *out) {
    return mdi_top_neighbor_pairs(vectors, n, options, out, MDI_TOP_AUTO);
}

MDI_SMALL md_status mdi_top_neighbor_pairs(const md_keyed_vector *vectors, size_t n,
                                 md_neighbor_options options, md_neighbor_pairs *out, int mode) {
    if (!out) return MD_ERR_NULL;
    clear_out(out);
    vset v;
    md_str *keys;
    size_t *rank = NULL;
    selector s;
    memset(&s, 0, sizeof s);
    md_status st = mdi_keyed_vset(vectors, n, &v, &keys);
    if (st == MD_OK) st = mdi_prepare_keys(keys, n, options, &rank, &s, NULL, false);
    if (st == MD_OK) st = every_pair(&v, &s, mode);
    if (st == MD_OK) st = mdi_sel_finish(&s, true, options.limit, out);
    mdi_sel_free(&s);
    free(rank);
    free(keys);
    mdi_vset_free(&v);
    return st;
}

MDI_SMALL static md_status flat_top(const void *data, bool f32, const uint32_t *offsets, size_t n,
                          const uint32_t *rank, double floor, double k, double limit,
                          md_neighbor_pairs *out) {
    if (!out) return MD_ERR_NULL;
    clear_out(out);
    vset v;
    size_t *r = NULL;
    selector s;
    memset(&s, 0, sizeof s);
    md_status st = mdi_flat_vset(data, f32, offsets, n, &v);
    if (st == MD_OK) st = mdi_widen_ranks(rank, n, &r);
    if (st == MD_OK) st = mdi_prepare_ranks(r, n, opts3(floor, k, limit), &s, NULL, false);
    if (st == MD_OK) st = every_pair(&v, &s, MDI_TOP_AUTO);
    if (st == MD_OK) st = mdi_sel_finish(&s, true, limit, out);
    mdi_sel_free(&s);
    free(r);
    mdi_vset_free(&v);
    return st;
}

MDI_SMALL md_status md_top_neighbor_pairs_f32(const float *data, const uint32_t *offsets, size_t n,
                                    const uint32_t *rank, double floor, double per_source_k,
                                    double limit, md_neighbor_pairs *out) {
    return flat_top(data, true, offsets, n, rank, floor, per_source_k, limit, out);
}

MDI_SMALL md_status md_top_neighbor_pairs_f64(const double *data, const uint32_t *offsets, size_t n,
                                    const uint32_t *rank, double floor, double per_source_k,
                                    double limit, md_neighbor_pairs *out) {
    return flat_top(data, false, offsets, n, rank, floor, per_source_k, limit, out);
}

/* ---------------------------------------------------------------- packed */

MDI_SMALL static md_status packed_vset(const float *matrix, size_t n, size_t d, vset *v) {
    memset(v, 0, sizeof *v);
    if (d != 0 && n > SIZE_MAX / d) return MD_ERR_RANGE;
    if (MDI_BAD_IN(matrix, n * d)) return MD_ERR_NULL;
    const float **f = mdi_alloc_array(n, sizeof(float *));
    size_t *len = mdi_alloc_array(n, sizeof(size_t));
    v->n = n;
    v->f = f;
    v->len = len;
    if (!f || !len) return MD_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        f[i] = matrix ? matrix + i * d : NULL;
        len[i] = d;
    }
    return MD_OK;
}

/* The packed pass over ranked rows (unique ranks). */
MDI_SMALL static md_status packed_ranked(const float *matrix, size_t n, size_t d, const size_t *rank,
                               size_t row_begin, size_t row_end, md_neighbor_options options,
                               bool final, md_neighbor_pairs *out, size_t *dup, int mode) {
    vset v;
    selector s;
    memset(&s, 0, sizeof s);
    md_status st = packed_vset(matrix, n, d, &v);
    if (st == MD_OK) st = mdi_prepare_ranks(rank, n, options, &s, dup, true);
    if (st == MD_OK) st = all_pairs(&v, d, row_begin, row_end, &s, mode);
    if (st == MD_OK) st = mdi_sel_finish(&s, final, options.limit, out);
    mdi_sel_free(&s);
    mdi_vset_free(&v);
    return st;
}

MDI_SMALL md_status mdi_packed_pass(const float *matrix, size_t n, size_t d, const md_str *keys,
                          size_t row_begin, size_t row_end, md_neighbor_options options,
                          bool final, md_neighbor_pairs *out, size_t *dup, int mode) {
    if (dup) *dup = SIZE_MAX;
    if (!out) return MD_ERR_NULL;
    clear_out(out);
    if (row_begin > row_end || row_end > n) return MD_ERR_RANGE;
    if (d != 0 && n > SIZE_MAX / d) return MD_ERR_RANGE;
    if (MDI_BAD_IN(matrix, n * d) || MDI_BAD_IN(keys, n)) return MD_ERR_NULL;
    size_t *rank = mdi_alloc_array(n, sizeof(size_t)), d0;
    md_status st = rank ? mdi_key_ranks(keys, n, rank, &d0) : MD_ERR_NOMEM;
    if (st == MD_OK) st = packed_ranked(matrix, n, d, rank, row_begin, row_end, options, final, out, dup, mode);
    free(rank);
    return st;
}

MDI_SMALL md_status md_top_neighbor_pairs_packed(const float *matrix, size_t n, size_t d, const md_str *keys,
                                       md_neighbor_options options, md_neighbor_pairs *out,
                                       size_t *dup) {
    return mdi_packed_pass(matrix, n, d, keys, 0, n, options, true, out, dup, MDI_TOP_AUTO);
}

MDI_SMALL md_status md_neighbor_tile_packed(const float *matrix, size_t n, size_t d, const md_str *keys,
                                  size_t row_begin, size_t row_end, md_neighbor_options options,
                                  md_neighbor_pairs *out, size_t *dup) {
    return mdi_packed_pass(matrix, n, d, keys, row_begin, row_end, options, false, out, dup, MDI_TOP_AUTO);
}

MDI_SMALL md_status md_neighbor_pairs_ranked(const float *matrix, size_t n, size_t d, const uint32_t *rank,
                                   size_t row_begin, size_t row_end, double floor, double per_source_k,
                                   double limit, bool final, md_neighbor_pairs *out) {
    return mdi_neighbor_pairs_block(matrix, n, d, rank, row_begin, row_end, floor, per_source_k, limit,
                                    final, out);
}

MDI_SMALL md_status mdi_neighbor_pairs_block(const float *matrix, size_t n, size_t d, const uint32_t *rank,
                                   size_t row_begin, size_t row_end, double floor, double per_source_k,
                                   double limit, bool final, md_neighbor_pairs *out) {
    if (!out) return MD_ERR_NULL;
    clear_out(out);
    if (row_begin > row_end || row_end > n) return MD_ERR_RANGE;
    size_t *r = NULL;
    md_status st = mdi_widen_ranks(rank, n, &r);
    if (st == MD_OK)
        st = packed_ranked(matrix, n, d, r, row_begin, row_end, opts3(floor, per_source_k, limit), final,
                           out, NULL, MDI_TOP_AUTO);
    free(r);
    return st;
}

/* ---------------------------------------------------------------- a pass in parts */

/* The packed pass computed in parts (memdomain.h). The pruner is set up once
 * for every row (int16 copies, panels, norms); its bounds and the lists
 * persist between parts, so splitting the sources costs what one pass over
 * them costs. A bound only comes from a pair the pass computed, which stays
 * in its lists, so what a part prunes is below k pairs the pass keeps: the
 * lists equal the single pass's over the union of the parts' sources. */
struct md_pairs_pass {
    vset v;
    selector s;
    pruner p;
    size_t *rank, d;
    uint8_t *added;   /* sources already added */
    uint8_t *have;    /* rows whose data is in (pending passes) */
    md_status failed; /* a part that failed leaves the lists incomplete */
    bool pruned, pending; /* pending: panels and the AUTO probe wait for every row's data */
    int mode;
};

MDI_SMALL void md_pairs_pass_free(md_pairs_pass *pp) {
    if (!pp) return;
    if (pp->pruned) pruner_free(&pp->p);
    mdi_sel_free(&pp->s);
    mdi_vset_free(&pp->v);
    free(pp->rank);
    free(pp->added);
    free(pp->have);
    free(pp);
}

MDI_SMALL md_status mdi_pairs_pass_new(const float *matrix, size_t n, size_t d, const uint32_t *rank, double floor,
                             double per_source_k, int mode, size_t part_begin, size_t part_end,
                             md_pairs_pass **out) {
    if (!out) return MD_ERR_NULL;
    *out = NULL;
    if (part_begin > part_end || part_end > n) return MD_ERR_RANGE;
    md_pairs_pass *pp = mdi_calloc_array(1, sizeof *pp);
    if (!pp) return MD_ERR_NOMEM;
    pp->d = d;
    pp->mode = mode;
    md_status st = packed_vset(matrix, n, d, &pp->v);
    if (st == MD_OK) st = mdi_widen_ranks(rank, n, &pp->rank);
    if (st == MD_OK) st = mdi_prepare_ranks(pp->rank, n, opts3(floor, per_source_k, 0), &pp->s, NULL, true);
    if (st == MD_OK) {
        pp->added = mdi_calloc_array(n, 1);
        if (!pp->added) st = MD_ERR_NOMEM;
    }
    const selector *s = &pp->s;
    bool prune = mode == MDI_TOP_PRUNED ? can_prune(n, d, s) : mode == MDI_TOP_AUTO && prune_pays(n, d, 0, n, s);
    if (st == MD_OK && n > 1 && prune) {
        pp->pruned = pp->pending = true;
        st = pruner_alloc(&pp->p, pp->v.f, n, d, 0, n, &pp->s);
        pp->have = mdi_calloc_array(n, 1);
        if (st == MD_OK && !pp->have) st = MD_ERR_NOMEM;
        if (st == MD_OK) {
            pruner_row_data(&pp->p, pp->p.a, part_begin, part_end);
            memset(pp->have + part_begin, 1, part_end - part_begin);
        }
        pp->p.keep_going = true; /* parts cannot fall back once one has offered pairs */
    }
    if (st != MD_OK) {
        md_pairs_pass_free(pp);
        return st;
    }
    *out = pp;
    return MD_OK;
}

MDI_SMALL md_status md_pairs_pass_new(const float *matrix, size_t n, size_t d, const uint32_t *rank, double floor,
                            double per_source_k, md_pairs_pass **out) {
    return mdi_pairs_pass_new(matrix, n, d, rank, floor, per_source_k, MDI_TOP_AUTO, 0, n, out);
}

MDI_SMALL md_status md_pairs_pass_new_part(const float *matrix, size_t n, size_t d, const uint32_t *rank,
                                 double floor, double per_source_k, size_t part_begin, size_t part_end,
                                 md_pairs_pass **out) {
    return mdi_pairs_pass_new(matrix, n, d, rank, floor, per_source_k, MDI_TOP_AUTO, part_begin, part_end, out);
}

/* Before the first part: every row's data is in, so the panels are packed
 * and (AUTO) the probe decides whether the pass prunes. */
MDI_SMALL static void pass_ready(md_pairs_pass *pp) {
    if (!pp->pending) return;
    pp->pending = false;
    for (size_t j = 0; j < pp->v.n; j++) /* rows no other pass handed over: computed here */
        if (!pp->have[j]) pruner_row_data(&pp->p, pp->p.a, j, j + 1);
    pruner_pack(&pp->p, pp->p.a, pp->p.panels);
    if (pp->mode == MDI_TOP_AUTO && !probe_pays(&pp->p, pp->p.a, pp->p.panels)) {
        pruner_free(&pp->p);
        pp->pruned = false;
    }
    if (pp->pruned) prefix_init(&pp->p);
}

/* One row's record for md_pairs_pass_rows: norm (f64), w and rho (f32), flag, then the int16 copy. */
#define ROW_HEAD 24
MDI_SMALL md_status md_pairs_pass_rows(md_pairs_pass *pp, void *buf, size_t row_begin, size_t row_end, bool take) {
    if (!pp || !buf) return MD_ERR_NULL;
    if (row_begin > row_end || row_end > pp->v.n) return MD_ERR_RANGE;
    if (!pp->pending) return MD_OK; /* not pruned, or the rows are in use: nothing to exchange */
    pruner *p = &pp->p;
    const size_t dp = p->dp;
    for (size_t j = row_begin; j < row_end; j++) {
        uint8_t *r = (uint8_t *)buf + (j - row_begin) * (ROW_HEAD + 2 * dp);
        if (take) {
            memcpy(&p->norm[j], r, 8);
            memcpy(&p->w[j], r + 8, 4);
            memcpy(&p->rho[j], r + 12, 4);
            p->flag[j] = r[16] <= ROW_BAD ? r[16] : ROW_BAD;
            memcpy(p->a + j * dp, r + ROW_HEAD, 2 * dp);
            pruner_derive(p, j);
            pp->have[j] = 1;
        } else {
            memcpy(r, &p->norm[j], 8);
            memcpy(r + 8, &p->w[j], 4);
            memcpy(r + 12, &p->rho[j], 4);
            r[16] = p->flag[j];
            memcpy(r + ROW_HEAD, p->a + j * dp, 2 * dp);
        }
    }
    return MD_OK;
}

MDI_SMALL md_status md_pairs_pass_add(md_pairs_pass *pp, size_t row_begin, size_t row_end) {
    if (!pp) return MD_ERR_NULL;
    pass_ready(pp);
    if (pp->failed != MD_OK) return pp->failed;
    if (row_begin > row_end || row_end > pp->v.n) return MD_ERR_RANGE;
    for (size_t i = row_begin; i < row_end; i++)
        if (pp->added[i]) return MD_ERR_RANGE; /* a source added twice would offer its pairs twice */
    memset(pp->added + row_begin, 1, row_end - row_begin);
    md_status st = pp->pruned ? prune_scan(&pp->p, pp->p.a, pp->p.panels, row_begin, row_end)
                              : all_pairs_rows(&pp->v, pp->d, row_begin, row_end, &pp->s);
    if (st == MD_OK && pp->pruned) st = zero_pairs(&pp->p, row_begin, row_end);
    pp->failed = st;
    return st;
}

MDI_SMALL md_status md_pairs_pass_share(md_pairs_pass *pp, float *bounds) {
    if (!pp || MDI_BAD_IN(bounds, pp->v.n)) return MD_ERR_NULL;
    pass_ready(pp);
    if (pp->failed != MD_OK) return pp->failed;
    for (size_t j = 0; pp->pruned && j < pp->v.n; j++) {
        if (pp->p.flag[j] || pp->p.shared[j]) continue;
        float *t = &pp->p.tau[j];
        if (bounds[j] > *t) *t = bounds[j];
        else bounds[j] = *t;
    }
    return MD_OK;
}

MDI_SMALL md_status md_pairs_pass_pairs(md_pairs_pass *pp, bool final, double limit, md_neighbor_pairs *out) {
    if (!out) return MD_ERR_NULL;
    clear_out(out);
    if (!pp) return MD_ERR_NULL;
    pass_ready(pp);
    if (pp->failed != MD_OK) return pp->failed;
    md_status st = MD_OK;
    if (pp->pruned) {
        compact(&pp->p);
        st = flush(&pp->p);
    }
    if (st == MD_OK) st = mdi_sel_finish(&pp->s, final, limit, out);
    pp->failed = st;
    return st;
}

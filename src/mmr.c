/* mmr module: applyMmr, greedy with a cached per-candidate max similarity
 * (O(k * n) cosines at most).
 *
 * Two exact strategies. The lazy one (finite lambda and scores): a
 * candidate's value lambda * score - (1 - lambda) * penalty can only fall as
 * its penalty (a max) grows, because 1 - lambda > 0 and rounding is
 * monotone, so a cached value is an upper bound. A heap orders candidates by
 * (cached value desc, input index asc); the top is brought up to date
 * (folding in only the selections it has not seen) until the top is current,
 * which then is the first remaining candidate with the greatest value, the
 * reference's pick. The eager one (anything else, e.g. NaN values): every
 * round scans every remaining candidate, as the reference does, with the
 * round's cosines from the row kernel when every vector has one length. */
#include "internal.h"
#include "kernels.h"
#include "mmr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct mmr_state {
    const md_mmr_candidate *c;
    size_t n;
    size_t d;          /* the common vector length (fast path) */
    bool packed;       /* every vector has length d: use the kernel */
    size_t nv;         /* candidates with a vector */
    size_t *vidx;      /* their input indices, in order */
    size_t *slot;      /* input index -> position in vidx, or SIZE_MAX */
    double *panels;    /* their vectors, packed (fast path) */
    double *sumsq;     /* each vector's in-order sum of squares (fast path) */
    double *sims;      /* this round's cosine per vidx position */
    const mdi_kernels *k; /* the kernel variant, and its panel width */
    size_t p;
} mmr_state;

static void state_free(mmr_state *s) {
    free(s->vidx);
    free(s->slot);
    free(s->panels);
    free(s->sumsq);
    free(s->sims);
}

static md_status state_init(mmr_state *s, const md_mmr_candidate *c, size_t n) {
    memset(s, 0, sizeof *s);
    s->c = c;
    s->n = n;
    s->packed = true;
    s->k = mdi_kern();
    s->p = s->k->p;
    const size_t P = s->p;
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (!c[i].has_vector) continue;
        if (first) s->d = c[i].len;
        else if (c[i].len != s->d) s->packed = false;
        first = false;
        s->nv++;
    }
    size_t d = s->d, nv = s->nv;
    size_t n_panels = (nv + P - 1) / P;
    if (s->packed && d != 0 && n_panels > SIZE_MAX / sizeof(double) / P / d) s->packed = false;
    s->vidx = mdi_alloc_array(nv, sizeof(size_t));
    s->slot = mdi_alloc_array(n, sizeof(size_t));
    s->sims = mdi_alloc_array(n_panels * P, sizeof(double));
    if (!s->vidx || !s->slot || !s->sims) return MD_ERR_NOMEM;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        s->slot[i] = c[i].has_vector ? at : SIZE_MAX;
        if (c[i].has_vector) s->vidx[at++] = i;
    }
    if (!s->packed) return MD_OK;
    s->panels = mdi_alloc_array(n_panels * d * P, sizeof(double));
    s->sumsq = mdi_alloc_array(nv, sizeof(double));
    if (!s->panels || !s->sumsq) {
        /* fall back to pair-by-pair cosines rather than fail */
        free(s->panels);
        free(s->sumsq);
        s->panels = s->sumsq = NULL;
        s->packed = false;
        return MD_OK;
    }
    for (size_t q = 0; q < n_panels; q++) {
        double *panel = s->panels + q * d * P;
        for (size_t k = 0; k < d; k++)
            for (size_t p = 0; p < P; p++) {
                size_t v = q * P + p;
                panel[k * P + p] = v < nv ? c[s->vidx[v]].vector[k] : 0;
            }
    }
    for (size_t v = 0; v < nv; v++) {
        const double *x = c[s->vidx[v]].vector;
        double ss = 0;
        for (size_t k = 0; k < d; k++) ss += x[k] * x[k];
        s->sumsq[v] = ss;
    }
    return MD_OK;
}

/* sims[v] = cosine(vector v, picked vector) for every vector (fast path). */
static void round_sims(mmr_state *s, size_t picked) {
    const size_t P = s->p;
    size_t d = s->d, nv = s->nv, n_panels = (nv + P - 1) / P;
    const double *a = s->c[picked].vector;
    double dots[MDI_M * MDI_PMAX];
    double sp = s->sumsq[s->slot[picked]];
    for (size_t q = 0; q < n_panels; q += MDI_M) {
        size_t m = n_panels - q < MDI_M ? n_panels - q : MDI_M;
        /* vectors are doubles: their products are not exact, so no FMA */
        s->k->row(a, s->panels + q * d * P, m, d, dots, 0);
        for (size_t t = 0; t < m * P; t++) {
            size_t v = q * P + t;
            if (v >= nv) break;
            s->sims[v] = mdi_cosine_finish(dots[t], s->sumsq[v], sp);
        }
    }
}

/* ---------------------------------------------------------------- lazy */

typedef struct hnode {
    double value;
    size_t i;
} hnode;

static inline bool before(const hnode *a, const hnode *b) {
    return a->value > b->value || (a->value == b->value && a->i < b->i);
}

static void sift_down(hnode *h, size_t n, size_t at) {
    for (;;) {
        size_t l = 2 * at + 1, r = l + 1, top = at;
        if (l < n && before(&h[l], &h[top])) top = l;
        if (r < n && before(&h[r], &h[top])) top = r;
        if (top == at) return;
        hnode t = h[at];
        h[at] = h[top];
        h[top] = t;
        at = top;
    }
}

typedef struct lazy_ctx {
    const md_mmr_candidate *c;
    double *sumsq; /* per candidate, computed on first use */
    uint8_t *have_sumsq;
    /* resident rows: candidate i's vector is float row row[i] of rows (d
     * each), ss[row[i]] its in-order sum of squares */
    const float *rows;
    size_t d;
    const uint32_t *row;
    const double *ss;
} lazy_ctx;

MDI_SMALL static double sum_sq(lazy_ctx *x, size_t i) {
    if (x->rows) return x->ss[x->row[i]];
    if (!x->have_sumsq[i]) {
        const double *v = x->c[i].vector;
        double s = 0;
        for (size_t k = 0; k < x->c[i].len; k++) s += v[k] * v[k];
        x->sumsq[i] = s;
        x->have_sumsq[i] = 1;
    }
    return x->sumsq[i];
}

/* cosine(c[a].vector, c[b].vector), bit for bit. */
MDI_SMALL static double lazy_cosine(lazy_ctx *x, size_t a, size_t b) {
    if (x->rows) { /* widened floats: the products are exact, the order is cosine's */
        const float *ra = x->rows + (size_t)x->row[a] * x->d, *rb = x->rows + (size_t)x->row[b] * x->d;
        double dot = 0;
        for (size_t k = 0; k < x->d; k++) dot += (double)ra[k] * (double)rb[k];
        return mdi_cosine_finish(dot, sum_sq(x, a), sum_sq(x, b));
    }
    const md_mmr_candidate *ca = &x->c[a], *cb = &x->c[b];
    if (ca->len != cb->len) {
        double s;
        md_cosine(ca->vector, ca->len, cb->vector, cb->len, &s);
        return s;
    }
    double dot = 0;
    for (size_t k = 0; k < ca->len; k++) dot += ca->vector[k] * cb->vector[k];
    return mdi_cosine_finish(dot, sum_sq(x, a), sum_sq(x, b));
}

static md_status apply_lazy(const md_mmr_candidate *c, size_t n, double limit, double lambda,
                            size_t *out, size_t *len, const lazy_ctx *rows) {
    hnode *heap = mdi_alloc_array(n, sizeof(hnode));
    double *penalty = mdi_alloc_array(n, sizeof(double));
    size_t *seen = mdi_alloc_array(n, sizeof(size_t)); /* selections folded into penalty[i] */
    lazy_ctx x = {c, mdi_alloc_array(n, sizeof(double)), mdi_calloc_array(n, 1), NULL, 0, NULL, NULL};
    if (rows) {
        x.rows = rows->rows;
        x.d = rows->d;
        x.row = rows->row;
        x.ss = rows->ss;
    }
    md_status st = (heap && penalty && seen && x.sumsq && x.have_sumsq) ? MD_OK : MD_ERR_NOMEM;
    if (st == MD_OK) {
        for (size_t i = 0; i < n; i++) {
            penalty[i] = 0;
            seen[i] = 0;
            heap[i].i = i;
            heap[i].value = lambda * c[i].score - (1 - lambda) * penalty[i];
        }
        for (size_t i = n / 2; i-- > 0;) sift_down(heap, n, i);
        size_t size = n, count = 0;
        while ((double)count < limit && size > 0) {
            size_t i = heap[0].i;
            if (!c[i].has_vector || seen[i] == count) {
                out[count++] = i;
                heap[0] = heap[--size];
                sift_down(heap, size, 0);
                continue;
            }
            for (size_t s = seen[i]; s < count; s++) {
                size_t p = out[s];
                if (c[p].has_vector) penalty[i] = mdi_js_max(penalty[i], lazy_cosine(&x, i, p));
            }
            seen[i] = count;
            heap[0].value = lambda * c[i].score - (1 - lambda) * penalty[i];
            sift_down(heap, size, 0);
        }
        *len = count;
    }
    free(x.have_sumsq);
    free(x.sumsq);
    free(seen);
    free(penalty);
    free(heap);
    return st;
}

/* ---------------------------------------------------------------- eager */

bool md_mmr_reorders(double lambda, double n) {
    return !(lambda >= 1) && n > 1;
}

md_status md_apply_mmr(const md_mmr_candidate *candidates, size_t n, double limit, double lambda,
                       size_t *out, size_t *len) {
    if (!len) return MD_ERR_NULL;
    *len = 0;
    if (MDI_BAD_IN(candidates, n) || MDI_BAD_IN(out, n)) return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++)
        if (candidates[i].has_vector && MDI_BAD_IN(candidates[i].vector, candidates[i].len))
            return MD_ERR_NULL;
    if (limit <= 0) return MD_OK;
    if (!md_mmr_reorders(lambda, (double)n)) {
        size_t keep = mdi_js_slice_len(n, limit);
        for (size_t i = 0; i < keep; i++) out[i] = i;
        *len = keep;
        return MD_OK;
    }
    /* The lazy strategy needs values that are never NaN: finite lambda and scores. */
    bool lazy = isfinite(lambda);
    for (size_t i = 0; i < n && lazy; i++) lazy = isfinite(candidates[i].score);
    if (lazy) return apply_lazy(candidates, n, limit, lambda, out, len, NULL);
    mmr_state s;
    size_t *remaining = mdi_alloc_array(n, sizeof(size_t));
    double *penalty = mdi_alloc_array(n, sizeof(double));
    md_status st = state_init(&s, candidates, n);
    if (st == MD_OK && (!remaining || !penalty)) st = MD_ERR_NOMEM;
    if (st == MD_OK) {
        for (size_t i = 0; i < n; i++) {
            remaining[i] = i;
            penalty[i] = 0;
        }
        size_t rem = n, count = 0;
        while ((double)count < limit && rem > 0) {
            size_t best = 0;
            double best_value = -INFINITY;
            for (size_t r = 0; r < rem; r++) {
                size_t i = remaining[r];
                double value = lambda * candidates[i].score - (1 - lambda) * penalty[i];
                if (value > best_value) {
                    best_value = value;
                    best = r;
                }
            }
            size_t picked = remaining[best];
            memmove(remaining + best, remaining + best + 1, (rem - best - 1) * sizeof(size_t));
            rem--;
            out[count++] = picked;
            const md_mmr_candidate *pc = &candidates[picked];
            if (!pc->has_vector) continue;
            if (s.packed) round_sims(&s, picked);
            for (size_t r = 0; r < rem; r++) {
                size_t i = remaining[r];
                if (!candidates[i].has_vector) continue;
                double sim;
                if (s.packed) sim = s.sims[s.slot[i]];
                else md_cosine(candidates[i].vector, candidates[i].len, pc->vector, pc->len, &sim);
                penalty[i] = mdi_js_max(penalty[i], sim);
            }
        }
        *len = count;
    }
    state_free(&s);
    free(penalty);
    free(remaining);
    return st;
}

md_status md_apply_mmr_packed(const double *scores, const double *matrix, size_t n, size_t d,
                              double limit, double lambda, size_t *out, size_t *len) {
    if (!len) return MD_ERR_NULL;
    *len = 0;
    if (d != 0 && n > SIZE_MAX / d) return MD_ERR_RANGE;
    if (MDI_BAD_IN(scores, n) || MDI_BAD_IN(matrix, n * d) || MDI_BAD_IN(out, n)) return MD_ERR_NULL;
    md_mmr_candidate *c = mdi_alloc_array(n, sizeof(md_mmr_candidate));
    if (!c) return MD_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        c[i].score = scores[i];
        c[i].vector = matrix ? matrix + i * d : NULL;
        c[i].len = d;
        c[i].has_vector = true;
    }
    md_status st = md_apply_mmr(c, n, limit, lambda, out, len);
    free(c);
    return st;
}

/* applyMmr over resident rows (candidate i: scores[i], float row row[i]):
 * the lazy strategy reads the rows in place with their resident sums of
 * squares; anything else (non-finite lambda or scores) runs md_apply_mmr
 * over widened copies. Both give md_apply_mmr's answer over the widened
 * vectors. */
MDI_SMALL md_status mdi_apply_mmr_rows(const float *rows, size_t n_rows, size_t d, const double *ss,
                             const uint32_t *row, const double *scores, size_t n, double limit,
                             double lambda, size_t *out, size_t *len) {
    if (!len) return MD_ERR_NULL;
    *len = 0;
    if (MDI_BAD_IN(row, n) || MDI_BAD_IN(scores, n) || MDI_BAD_IN(out, n)) return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++)
        if (row[i] >= n_rows) return MD_ERR_RANGE;
    if (limit <= 0) return MD_OK;
    md_mmr_candidate *c = mdi_alloc_array(n, sizeof(md_mmr_candidate));
    if (!c) return MD_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        c[i].score = scores[i];
        c[i].vector = NULL;
        c[i].len = d;
        c[i].has_vector = true;
    }
    bool lazy = isfinite(lambda) && md_mmr_reorders(lambda, (double)n);
    for (size_t i = 0; i < n && lazy; i++) lazy = isfinite(scores[i]);
    md_status st = MD_OK;
    if (lazy) {
        lazy_ctx x = {NULL, NULL, NULL, rows, d, row, ss};
        st = apply_lazy(c, n, limit, lambda, out, len, &x);
    } else {
        double *copy = mdi_alloc_array(n, d * sizeof(double));
        if (!copy && n && d) st = MD_ERR_NOMEM;
        for (size_t i = 0; i < n && st == MD_OK; i++) {
            for (size_t k = 0; k < d; k++) copy[i * d + k] = (double)rows[(size_t)row[i] * d + k];
            c[i].vector = copy + i * d;
        }
        if (st == MD_OK) st = md_apply_mmr(c, n, limit, lambda, out, len);
        free(copy);
    }
    free(c);
    return st;
}

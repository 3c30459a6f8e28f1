/* The resident lexical index: the pruned top-k (md_lexindex_top) against
 * scoring every posting (md_lexindex_top_full), and both against a plain
 * model of the corpus scored here from the documented formula and sorted,
 * bit for bit, over random corpora and adversarial ones (every score tied,
 * one term in every document, keys that tie, k past the matches, empty and
 * repeated queries, unknown terms, gist weights 0, 1, 2.5, 64); the index
 * after random puts, rewrites and deletes against one built fresh from what
 * is left (postings, counts, totals, answers); the structural invariants
 * after every step; the errors; and md_js_log against the C library's log
 * (within one ulp; the JavaScript suite holds it to Math.log bit for bit). */
#include "check.h"
#include "lexindex.h"
#include "memdomain.h"

#include <float.h>
#include <stdlib.h>

static check_rng rng = {44};

#define MAXT 24 /* terms per document at most */

typedef struct mdoc {
    int live;
    uint32_t len, nt;
    uint32_t term[MAXT], g[MAXT], b[MAXT];
    char key[12];
    uint32_t key_len;
} mdoc;

typedef struct model {
    mdoc *d;
    size_t n; /* document slots */
    size_t vocab;
} model;

static size_t pruned_queries, skipped_postings;

/* A random document: `kind` 0 random, 1 every score tied (same length, one hit
 * each of a few terms), 2 one term in every document plus random ones. */
static void random_doc(mdoc *x, size_t vocab, int kind, uint32_t id) {
    memset(x, 0, sizeof *x);
    x->live = 1;
    uint32_t nt = kind == 1 ? 1 + (uint32_t)rng_below(&rng, 3) : (uint32_t)rng_below(&rng, MAXT + 1);
    if (nt > vocab) nt = (uint32_t)vocab;
    uint32_t hits = 0;
    if (kind == 2 && nt == 0) nt = 1;
    for (uint32_t i = 0; i < nt; i++) {
        uint32_t t;
        int again;
        do { /* skewed: small term ids are common */
            t = (kind == 2 && i == 0) ? 0 : (uint32_t)(rng_unit(&rng) * rng_unit(&rng) * (double)vocab);
            again = 0;
            for (uint32_t j = 0; j < i; j++) again |= x->term[j] == t;
        } while (again);
        x->term[i] = t;
        if (kind == 1) {
            x->g[i] = 0;
            x->b[i] = 1;
        } else {
            uint32_t r = (uint32_t)rng_below(&rng, 4);
            x->g[i] = r == 0 ? 1 + (uint32_t)rng_below(&rng, 3) : 0;
            x->b[i] = r == 1 && x->g[i] ? 0 : 1 + (uint32_t)(rng_below(&rng, 8) == 0 ? rng_below(&rng, 40) : rng_below(&rng, 3));
        }
        hits += x->g[i] + x->b[i];
    }
    x->nt = nt;
    x->len = kind == 1 ? 8 : hits + (uint32_t)rng_below(&rng, 30);
    /* keys: few letters, so that they tie often on a prefix; some equal keys (then the id decides) */
    uint32_t kl = (uint32_t)rng_below(&rng, 6);
    for (uint32_t i = 0; i < kl; i++) x->key[i] = (char)('a' + rng_below(&rng, 3));
    if (rng_below(&rng, 50) == 0) kl = 0;
    x->key_len = kl;
    (void)id;
}

static md_status put_doc(md_lexindex *ix, uint32_t id, const mdoc *x) {
    return md_lexindex_put(ix, id, (const uint8_t *)x->key, x->key_len, x->len, x->term, x->g, x->b, x->nt);
}

typedef struct ref_hit {
    double sum;
    uint32_t doc;
    const mdoc *x;
} ref_hit;

static int ref_cmp(const void *pa, const void *pb) {
    const ref_hit *a = pa, *b = pb;
    if (a->sum != b->sum) return a->sum > b->sum ? -1 : 1;
    uint32_t n = a->x->key_len < b->x->key_len ? a->x->key_len : b->x->key_len;
    int c = n ? memcmp(a->x->key, b->x->key, n) : 0;
    if (c) return c;
    if (a->x->key_len != b->x->key_len) return a->x->key_len < b->x->key_len ? -1 : 1;
    return a->doc < b->doc ? -1 : 1;
}

/* The answer from the model: every live document scored by the formula, sorted. */
static size_t ref_top(const model *m, const uint32_t *q, size_t nq, double w, size_t k, uint32_t *docs, double *scores) {
    size_t N = 0;
    double tokens = 0;
    for (size_t i = 0; i < m->n; i++)
        if (m->d[i].live) {
            N++;
            tokens += m->d[i].len;
        }
    if (N == 0 || nq == 0) return 0;
    double avgdl = tokens / (double)N;
    double *idf = malloc(nq * sizeof *idf);
    for (size_t j = 0; j < nq; j++) {
        size_t df = 0;
        for (size_t i = 0; i < m->n; i++)
            if (m->d[i].live)
                for (uint32_t t = 0; t < m->d[i].nt; t++) df += m->d[i].term[t] == q[j];
        idf[j] = mdi_bm25_idf((double)N, (double)df);
    }
    ref_hit *h = malloc((m->n + 1) * sizeof *h);
    size_t nh = 0;
    for (size_t i = 0; i < m->n; i++) {
        const mdoc *x = &m->d[i];
        if (!x->live) continue;
        double s = 0.0;
        int any = 0;
        for (size_t j = 0; j < nq; j++)
            for (uint32_t t = 0; t < x->nt; t++)
                if (x->term[t] == q[j]) {
                    s += mdi_bm25_term(idf[j], w * x->g[t] + x->b[t], x->len, avgdl);
                    any = 1;
                }
        if (any) h[nh++] = (ref_hit){s, (uint32_t)i, x};
    }
    qsort(h, nh, sizeof *h, ref_cmp);
    size_t n = nh < k ? nh : k;
    for (size_t i = 0; i < n; i++) {
        docs[i] = h[i].doc;
        scores[i] = -1.0 * h[i].sum;
    }
    free(h);
    free(idf);
    return n;
}

/* One query three ways: pruned, full, model. */
static void check_query(const md_lexindex *ix, const model *m, const uint32_t *q, size_t nq, double w, size_t k) {
    size_t cap = k + 1;
    uint32_t *d1 = malloc(cap * 4), *d2 = malloc(cap * 4), *d3 = malloc(cap * 4);
    double *s1 = malloc(cap * 8), *s2 = malloc(cap * 8), *s3 = malloc(cap * 8);
    size_t o1[2] = {99, 99}, o2[2] = {99, 99};
    CHECK(md_lexindex_top(ix, q, nq, NULL, w, k, d1, s1, o1) == MD_OK);
    CHECK(md_lexindex_top_full(ix, q, nq, NULL, w, k, d2, s2, o2) == MD_OK);
    size_t n3 = ref_top(m, q, nq, w, k, d3, s3);
    CHECK(o1[0] == n3);
    CHECK(o2[0] == n3);
    size_t bad = 0;
    for (size_t i = 0; i < n3 && i < o1[0] && i < o2[0]; i++)
        bad += d1[i] != d3[i] || d2[i] != d3[i] || !same_bits(s1[i], s3[i]) || !same_bits(s2[i], s3[i]);
    CHECK(bad == 0);
    CHECK(o1[1] <= o2[1]);
    /* the caller's idfs (any positive ones, as FTS5's from SQLite's ln()): pruned == full */
    double idf[8];
    for (size_t i = 0; i < nq && i < 8; i++) idf[i] = rng_below(&rng, 4) ? rng_range(&rng, 1e-6, 5) : 1e-6;
    size_t o4[2] = {99, 99};
    if (nq <= 8) {
        CHECK(md_lexindex_top(ix, q, nq, idf, w, k, d1, s1, o4) == MD_OK);
        CHECK(md_lexindex_top_full(ix, q, nq, idf, w, k, d2, s2, o2) == MD_OK);
        size_t bad2 = o4[0] != o2[0];
        for (size_t i = 0; i < o4[0] && i < o2[0]; i++) bad2 += d1[i] != d2[i] || !same_bits(s1[i], s2[i]);
        CHECK(bad2 == 0);
    }
    if (o1[1] < o2[1]) {
        pruned_queries++;
        skipped_postings += o2[1] - o1[1];
    }
    free(d1), free(d2), free(d3), free(s1), free(s2), free(s3);
}

static void random_query(const model *m, uint32_t *q, size_t *nq) {
    size_t n = rng_below(&rng, 7);
    for (size_t i = 0; i < n; i++) {
        uint32_t t = (uint32_t)(rng_unit(&rng) * rng_unit(&rng) * (double)m->vocab);
        if (rng_below(&rng, 10) == 0) t = (uint32_t)(m->vocab + rng_below(&rng, 5)); /* unknown */
        if (i > 0 && rng_below(&rng, 8) == 0) t = q[rng_below(&rng, i)];            /* repeated */
        q[i] = t;
    }
    *nq = n;
}

static const double WEIGHTS[] = {1.0, 1.0, 0.0, 2.5, 64.0};

static void run_queries(const md_lexindex *ix, const model *m, int count) {
    uint32_t q[8];
    size_t nq;
    for (int i = 0; i < count; i++) {
        random_query(m, q, &nq);
        size_t ks[] = {0, 1, 3, 10, 50, m->n, m->n + 5};
        size_t k = ks[rng_below(&rng, sizeof ks / sizeof ks[0])];
        check_query(ix, m, q, nq, WEIGHTS[rng_below(&rng, 5)], k);
    }
}

/* Random corpora of each kind: the three answers agree. */
static void test_corpora(void) {
    int rounds = check_iters(24);
    for (int r = 0; r < rounds; r++) {
        int kind = r % 3;
        model m = {0};
        m.n = (size_t)(r < 6 ? 1 + rng_below(&rng, 40) : 200 + rng_below(&rng, 1500));
        m.vocab = kind == 1 ? 3 : 5 + rng_below(&rng, 200);
        m.d = calloc(m.n, sizeof *m.d);
        md_lexindex *ix;
        CHECK(md_lexindex_new(&ix) == MD_OK);
        for (size_t i = 0; i < m.n; i++) {
            random_doc(&m.d[i], m.vocab, kind, (uint32_t)i);
            if (rng_below(&rng, 20) == 0) m.d[i].live = 0; /* a gap in the ids */
            else CHECK(put_doc(ix, (uint32_t)i, &m.d[i]) == MD_OK);
        }
        CHECK(mdi_lexindex_check(ix) == 0);
        run_queries(ix, &m, check_iters(60));
        /* every term alone, every term together, the heaviest twice */
        uint32_t all[64];
        size_t na = m.vocab < 64 ? m.vocab : 64;
        for (size_t t = 0; t < na; t++) all[t] = (uint32_t)t;
        check_query(ix, &m, all, na, 1.0, 10);
        check_query(ix, &m, all, na, 1.0, m.n + 1);
        uint32_t twice[2] = {0, 0};
        check_query(ix, &m, twice, 2, 1.0, 7);
        check_query(ix, &m, twice, 0, 1.0, 7);
        md_lexindex_free(ix);
        free(m.d);
    }
}

/* Puts, rewrites and deletes at random, then a fresh build of what is left. */
static void test_incremental(void) {
    int rounds = check_iters(12);
    for (int r = 0; r < rounds; r++) {
        model m = {0};
        m.n = 50 + rng_below(&rng, 1200);
        m.vocab = 4 + rng_below(&rng, 100);
        m.d = calloc(m.n, sizeof *m.d);
        md_lexindex *ix, *fresh;
        CHECK(md_lexindex_new(&ix) == MD_OK);
        int steps = (int)(3 * m.n), bad = 0;
        for (int s = 0; s < steps; s++) {
            /* ids mostly rising (a cache's rowids), some rewritten or reused */
            uint32_t id = (uint32_t)(rng_below(&rng, 3) ? (size_t)s * m.n / (size_t)steps : rng_below(&rng, m.n));
            if (m.d[id].live && rng_below(&rng, 2)) {
                bad += md_lexindex_delete(ix, id) != MD_OK;
                m.d[id].live = 0;
            } else {
                random_doc(&m.d[id], m.vocab, rng_below(&rng, 4) == 0 ? 2 : 0, id);
                bad += put_doc(ix, id, &m.d[id]) != MD_OK;
            }
            if (s % 97 == 0) bad += mdi_lexindex_check(ix) != 0;
            if (s % 211 == 0) run_queries(ix, &m, 2);
        }
        CHECK(bad == 0);
        CHECK(mdi_lexindex_check(ix) == 0);
        CHECK(md_lexindex_new(&fresh) == MD_OK);
        for (size_t i = 0; i < m.n; i++)
            if (m.d[i].live) CHECK(put_doc(fresh, (uint32_t)i, &m.d[i]) == MD_OK);
        CHECK(md_lexindex_count(ix) == md_lexindex_count(fresh));
        CHECK(mdi_lexindex_tokens(ix) == mdi_lexindex_tokens(fresh));
        size_t nt = mdi_lexindex_terms(ix) > mdi_lexindex_terms(fresh) ? mdi_lexindex_terms(ix) : mdi_lexindex_terms(fresh);
        uint32_t *a[3], *b[3];
        for (int j = 0; j < 3; j++) {
            a[j] = malloc(m.n * 4);
            b[j] = malloc(m.n * 4);
        }
        size_t differ = 0;
        for (uint32_t t = 0; t < nt; t++) {
            size_t na = mdi_lexindex_postings(ix, t, a[0], a[1], a[2], m.n);
            size_t nb = mdi_lexindex_postings(fresh, t, b[0], b[1], b[2], m.n);
            differ += na != nb || md_lexindex_df(ix, t) != na;
            for (size_t i = 0; i < na && i < nb; i++) differ += a[0][i] != b[0][i] || a[1][i] != b[1][i] || a[2][i] != b[2][i];
        }
        CHECK(differ == 0);
        for (int j = 0; j < 3; j++) {
            free(a[j]);
            free(b[j]);
        }
        /* the same answers as the fresh index, bit for bit */
        uint32_t q[8];
        size_t nq, mism = 0;
        for (int i = 0; i < check_iters(40); i++) {
            random_query(&m, q, &nq);
            size_t k = 1 + rng_below(&rng, 60);
            uint32_t d1[64], d2[64];
            double s1[64], s2[64];
            size_t o1[2], o2[2];
            CHECK(md_lexindex_top(ix, q, nq, NULL, 1.0, k, d1, s1, o1) == MD_OK);
            CHECK(md_lexindex_top(fresh, q, nq, NULL, 1.0, k, d2, s2, o2) == MD_OK);
            mism += o1[0] != o2[0];
            for (size_t j = 0; j < o1[0] && j < o2[0]; j++) mism += d1[j] != d2[j] || !same_bits(s1[j], s2[j]);
        }
        CHECK(mism == 0);
        run_queries(ix, &m, check_iters(20));
        /* everything deleted: an empty index answers nothing */
        for (size_t i = 0; i < m.n; i++)
            if (m.d[i].live) {
                CHECK(md_lexindex_delete(ix, (uint32_t)i) == MD_OK);
                m.d[i].live = 0;
            }
        CHECK(md_lexindex_count(ix) == 0 && mdi_lexindex_check(ix) == 0 && mdi_lexindex_tokens(ix) == 0);
        for (uint32_t t = 0; t < nt; t++) CHECK(md_lexindex_df(ix, t) == 0);
        run_queries(ix, &m, 3);
        md_lexindex_free(ix);
        md_lexindex_free(fresh);
        free(m.d);
    }
}

/* One term in 20,000 documents with lengths and hits spread: the pruned
 * top-k scores far fewer postings than the full pass (the index skips). */
static void test_skips(void) {
    model m = {0};
    m.n = check_quick() ? 4000 : 20000;
    m.vocab = 3;
    m.d = calloc(m.n, sizeof *m.d);
    md_lexindex *ix;
    CHECK(md_lexindex_new(&ix) == MD_OK);
    for (size_t i = 0; i < m.n; i++) {
        mdoc *x = &m.d[i];
        x->live = 1;
        x->nt = 1 + (uint32_t)rng_below(&rng, 3);
        for (uint32_t t = 0; t < x->nt; t++) {
            x->term[t] = t;
            x->b[t] = 1 + (uint32_t)(rng_below(&rng, 100) == 0 ? rng_below(&rng, 9) : 0);
        }
        x->len = 5 + (uint32_t)rng_below(&rng, 200);
        x->key_len = (uint32_t)snprintf(x->key, sizeof x->key, "k%zu", i % 977);
        CHECK(put_doc(ix, (uint32_t)i, x) == MD_OK);
    }
    uint32_t q[3] = {0, 1, 2};
    uint32_t d1[10], d2[10];
    double s1[10], s2[10];
    size_t o1[2], o2[2];
    CHECK(md_lexindex_top(ix, q, 3, NULL, 1.0, 10, d1, s1, o1) == MD_OK);
    CHECK(md_lexindex_top_full(ix, q, 3, NULL, 1.0, 10, d2, s2, o2) == MD_OK);
    CHECK(o1[0] == 10 && o2[0] == 10 && memcmp(d1, d2, sizeof d1) == 0);
    for (int i = 0; i < 10; i++) CHECK_SAME(s1[i], s2[i]);
    CHECK(o1[1] * 4 < o2[1]);
    printf("one query over %zu documents: %zu postings scored pruned, %zu in full\n", m.n, o1[1], o2[1]);
    check_query(ix, &m, q, 3, 2.0, 25);
    md_lexindex_free(ix);
    free(m.d);
}

/* One term in every document, two in most, with hits 1-3 and lengths
 * spread (issue 44's common words: a block's most hits and fewest tokens are
 * seldom one posting's, so that bound nearly always reached the k-th score):
 * the blocks' covers and the windows taken best bound first skip most of the
 * postings, the answers those of the full pass. */
static void test_common(void) {
    model m = {0};
    m.n = check_quick() ? 8000 : 40000;
    m.vocab = 2;
    m.d = calloc(m.n, sizeof *m.d);
    md_lexindex *ix;
    CHECK(md_lexindex_new(&ix) == MD_OK);
    for (size_t i = 0; i < m.n; i++) {
        mdoc *x = &m.d[i];
        x->live = 1;
        x->nt = rng_below(&rng, 5) == 0 ? 1 : 2;
        uint32_t hits = 0;
        for (uint32_t t = 0; t < x->nt; t++) {
            x->term[t] = t;
            x->g[t] = rng_below(&rng, 4) == 0;
            x->b[t] = 1 + (uint32_t)rng_below(&rng, 3);
            hits += x->g[t] + x->b[t];
        }
        x->len = hits + 4 + (uint32_t)rng_below(&rng, 40);
        x->key_len = (uint32_t)snprintf(x->key, sizeof x->key, "c%zu", i % 211);
        CHECK(put_doc(ix, (uint32_t)i, x) == MD_OK);
    }
    CHECK(mdi_lexindex_check(ix) == 0);
    static const uint32_t qs[3][2] = {{0, 0}, {1, 0}, {0, 1}};
    size_t pruned = 0, full = 0;
    for (int j = 0; j < 3; j++)
        for (int wi = 0; wi < 3; wi++) {
            double w = wi == 0 ? 1.0 : wi == 1 ? 3.0 : 0.0;
            size_t nq = j == 0 ? 1 : 2, o1[2], o2[2];
            uint32_t d1[50], d2[50];
            double s1[50], s2[50];
            CHECK(md_lexindex_top(ix, qs[j], nq, NULL, w, 50, d1, s1, o1) == MD_OK);
            CHECK(md_lexindex_top_full(ix, qs[j], nq, NULL, w, 50, d2, s2, o2) == MD_OK);
            CHECK(o1[0] == 50 && o2[0] == 50 && memcmp(d1, d2, sizeof d1) == 0);
            for (int i = 0; i < 50; i++) CHECK_SAME(s1[i], s2[i]);
            pruned += o1[1];
            full += o2[1];
            check_query(ix, &m, qs[j], nq, w, 50);
        }
    /* fewer documents fill fewer blocks, so a smaller share is skipped: under valgrind's 8,000
     * the pruned pass scores 59% (the full size's 40,000: 44%; before the covers 66% there) */
    if (check_quick()) CHECK(pruned * 3 < full * 2);
    else CHECK(pruned * 2 < full);
    printf("common words over %zu documents: %zu postings scored pruned, %zu in full\n", m.n, pruned, full);
    md_lexindex_free(ix);
    free(m.d);
}

/* Blocks whose postings no posting dominates (hits up as lengths go up:
 * more such postings than a cover holds, so runs of them are merged), hits
 * past 16 bits (no cover), and deletes that repack them in place (a cover of
 * at most the points it had): every posting within its block's cover after
 * each step, the answers the model's at gist weights 0 to 64. */
static void test_cover(void) {
    model m = {0};
    m.n = 3000;
    m.vocab = 3;
    m.d = calloc(m.n, sizeof *m.d);
    md_lexindex *ix;
    CHECK(md_lexindex_new(&ix) == MD_OK);
    for (size_t i = 0; i < m.n; i++) {
        mdoc *x = &m.d[i];
        uint32_t r = (uint32_t)(i % 128);
        x->live = 1;
        x->nt = 2 + (i % 7 == 0);
        x->term[0] = 0; /* an antichain in each block: gist hits up, body hits down, length up */
        x->g[0] = r;
        x->b[0] = 1 + 127 - r;
        x->term[1] = 1; /* body hits only, length up with them */
        x->g[1] = 0;
        x->b[1] = 1 + (uint32_t)rng_below(&rng, 60);
        if (x->nt == 3) { /* hits past 16 bits */
            x->term[2] = 2;
            x->g[2] = 70000 + (uint32_t)rng_below(&rng, 1000);
            x->b[2] = (uint32_t)rng_below(&rng, 3);
        }
        uint32_t hits = 0;
        for (uint32_t t = 0; t < x->nt; t++) hits += x->g[t] + x->b[t];
        x->len = hits + (uint32_t)rng_below(&rng, 5);
        x->key_len = (uint32_t)snprintf(x->key, sizeof x->key, "v%zu", i % 13);
        CHECK(put_doc(ix, (uint32_t)i, x) == MD_OK);
    }
    static const uint32_t qs[4][3] = {{0}, {1}, {0, 1}, {2, 0, 1}};
    static const size_t nqs[4] = {1, 1, 2, 3};
    for (int round = 0; round < 4; round++) {
        CHECK(mdi_lexindex_check(ix) == 0);
        for (int j = 0; j < 4; j++)
            for (size_t wi = 0; wi < sizeof WEIGHTS / sizeof *WEIGHTS; wi++) check_query(ix, &m, qs[j], nqs[j], WEIGHTS[wi], 20);
        for (size_t i = 0; i < m.n; i++) /* deletes everywhere: blocks repacked, some merged */
            if (m.d[i].live && rng_below(&rng, 3) == 0) {
                CHECK(md_lexindex_delete(ix, (uint32_t)i) == MD_OK);
                m.d[i].live = 0;
            }
    }
    md_lexindex_free(ix);
    free(m.d);
}

static void test_errors(void) {
    md_lexindex *ix;
    CHECK(md_lexindex_new(NULL) == MD_ERR_NULL);
    CHECK(md_lexindex_new(&ix) == MD_OK);
    uint32_t t[3] = {1, 2, 1}, g[3] = {1, 0, 0}, b[3] = {0, 2, 1};
    size_t out[2];
    uint32_t d[4];
    double s[4];
    CHECK(md_lexindex_put(NULL, 0, NULL, 0, 3, t, g, b, 2) == MD_ERR_NULL);
    CHECK(md_lexindex_put(ix, 0, NULL, 2, 3, t, g, b, 2) == MD_ERR_NULL);
    CHECK(md_lexindex_put(ix, 0, NULL, 0, 3, NULL, g, b, 2) == MD_ERR_NULL);
    CHECK(md_lexindex_put(ix, MD_LEXINDEX_MAX_ID, NULL, 0, 3, t, g, b, 2) == MD_ERR_RANGE);
    uint32_t big[1] = {MD_LEXINDEX_MAX_ID};
    CHECK(md_lexindex_put(ix, 0, NULL, 0, 3, big, g, b, 1) == MD_ERR_RANGE);
    uint32_t zero[2] = {0, 0};
    CHECK(md_lexindex_put(ix, 0, NULL, 0, 3, t, zero, zero, 2) == MD_ERR_INVALID);
    CHECK(md_lexindex_put(ix, 0, NULL, 0, 3, t, NULL, NULL, 1) == MD_ERR_INVALID);
    /* a repeated term: refused, nothing of the document left */
    CHECK(md_lexindex_put(ix, 5, (const uint8_t *)"x", 1, 4, t, g, b, 3) == MD_ERR_INVALID);
    CHECK(md_lexindex_count(ix) == 0 && md_lexindex_df(ix, 1) == 0 && md_lexindex_df(ix, 2) == 0);
    CHECK(mdi_lexindex_check(ix) == 0);
    CHECK(md_lexindex_delete(ix, 5) == MD_ERR_RANGE);
    CHECK(md_lexindex_delete(ix, 1u << 31) == MD_ERR_RANGE);
    CHECK(md_lexindex_delete(NULL, 0) == MD_ERR_NULL);
    /* gist NULL: body hits only; an empty document counts toward the totals */
    uint32_t b2[2] = {1, 2};
    CHECK(md_lexindex_put(ix, 5, (const uint8_t *)"x", 1, 4, t, NULL, b2, 2) == MD_OK);
    CHECK(md_lexindex_put(ix, 6, NULL, 0, 0, NULL, NULL, NULL, 0) == MD_OK);
    CHECK(md_lexindex_count(ix) == 2 && md_lexindex_df(ix, 2) == 1 && mdi_lexindex_tokens(ix) == 4);
    CHECK(md_lexindex_top(NULL, t, 1, NULL, 1.0, 4, d, s, out) == MD_ERR_NULL);
    CHECK(md_lexindex_top(ix, NULL, 1, NULL, 1.0, 4, d, s, out) == MD_ERR_NULL);
    CHECK(md_lexindex_top(ix, t, 1, NULL, 1.0, 4, NULL, s, out) == MD_ERR_NULL);
    CHECK(md_lexindex_top(ix, t, 1, NULL, 1.0, 4, d, s, NULL) == MD_ERR_NULL);
    CHECK(md_lexindex_top(ix, t, 1, NULL, -1.0, 4, d, s, out) == MD_ERR_RANGE);
    CHECK(md_lexindex_top(ix, t, 1, NULL, NAN, 4, d, s, out) == MD_ERR_RANGE);
    CHECK(md_lexindex_top_full(ix, t, 1, NULL, INFINITY, 4, d, s, out) == MD_ERR_RANGE);
    double idf0[2] = {1.0, 0.0}, idfn[1] = {NAN};
    CHECK(md_lexindex_top(ix, t, 2, idf0, 1.0, 4, d, s, out) == MD_ERR_RANGE);
    CHECK(md_lexindex_top_full(ix, t, 1, idfn, 1.0, 4, d, s, out) == MD_ERR_RANGE);
    CHECK(md_lexindex_top(ix, t, 1, idf0, 1.0, 4, d, s, out) == MD_OK && out[0] == 1);
    CHECK_SAME(s[0], -1.0 * (0.0 + 1.0 * ((1 * 2.2) / (1 + 1.2 * (0.25 + 0.75 * 4 / 2.0)))));
    CHECK(md_lexindex_top(ix, t, 1, NULL, 1.0, 0, NULL, NULL, out) == MD_OK && out[0] == 0);
    CHECK(md_lexindex_top(ix, t, 2, NULL, 1.0, 4, d, s, out) == MD_OK && out[0] == 1 && d[0] == 5);
    /* FTS5's formula by hand: N = 2, avgdl = 2, term 1 (f = 1, D = 4) and term 2 (f = 2) */
    double idf = md_js_log((2 - 1 + 0.5) / (1 + 0.5));
    CHECK(idf == 0.0);
    CHECK_SAME(s[0], -1.0 * ((0.0 + 1e-6 * ((1 * 2.2) / (1 + 1.2 * (0.25 + 0.75 * 4 / 2.0)))) +
                             1e-6 * ((2 * 2.2) / (2 + 1.2 * (0.25 + 0.75 * 4 / 2.0)))));
    CHECK(md_lexindex_bytes(ix) > 0 && md_lexindex_bytes(NULL) == 0 && md_lexindex_count(NULL) == 0);
    md_lexindex_free(ix);
    md_lexindex_free(NULL);
}

static void test_log(void) {
    size_t off = 0, n = 0;
    CHECK_SAME(md_js_log(1.0), 0.0);
    CHECK_SAME(md_js_log(0.0), -INFINITY);
    CHECK(isnan(md_js_log(-1.0)) && isnan(md_js_log(NAN)));
    CHECK_SAME(md_js_log(INFINITY), INFINITY);
    CHECK_SAME(md_js_log(0x1p-1074), log(0x1p-1074));
    for (int i = 0; i < check_iters(200000); i++) {
        double x = i % 2 ? rng_range(&rng, 0, 4) : exp(rng_range(&rng, -700, 700));
        if (i % 5 == 0) x = (rng_below(&rng, 200000) + 0.5) / (rng_below(&rng, 200000) + 0.5);
        double a = md_js_log(x), b = log(x);
        n++;
        if (a != b) off++;
        CHECK(fabs(a - b) <= nextafter(fabs(b), INFINITY) - fabs(b) || a == b);
    }
    printf("md_js_log: %zu of %zu inputs differ from the C library's log by one ulp\n", off, n);
}

/* Packed blocks at their extremes: gaps up to 2^29, hits up to UINT32_MAX, one
 * of the two hits 0, writes in the middle of packed blocks; every posting
 * reads back as put. And packed postings take well under their 12 plain bytes. */
static void test_packed(void) {
    enum { N = 700 };
    static uint32_t ids[N], g[N], b[N], rd[N], rg[N], rb[N];
    static uint8_t live[N];
    md_lexindex *ix = NULL;
    CHECK(md_lexindex_new(&ix) == MD_OK);
    uint32_t id = 0;
    for (int i = 0; i < N; i++) {
        uint32_t kind = (uint32_t)rng_below(&rng, 4);
        id += 1 + (kind == 0 ? (uint32_t)rng_below(&rng, 1u << 20) : kind == 1 ? 0 : (uint32_t)rng_below(&rng, 9));
        ids[i] = id;
        g[i] = rng_below(&rng, 3) == 0 ? 0 : rng_below(&rng, 50) == 0 ? UINT32_MAX - (uint32_t)rng_below(&rng, 9) : 1 + (uint32_t)rng_below(&rng, 3);
        b[i] = g[i] == 0 || rng_below(&rng, 2) ? 1 + (uint32_t)(rng_below(&rng, 20) == 0 ? rng_below(&rng, 1u << 31) : rng_below(&rng, 5)) : 0;
    }
    CHECK(id < MD_LEXINDEX_MAX_ID);
    /* every other document first, in order; then the rest, into the middle of packed blocks */
    for (int pass = 0; pass < 2; pass++)
        for (int i = pass; i < N; i += 2) {
            uint32_t t = 7;
            CHECK(md_lexindex_put(ix, ids[i], NULL, 0, 1 + (uint32_t)(i % 13), &t, &g[i], &b[i], 1) == MD_OK);
            live[i] = 1;
        }
    for (int round = 0; round < 4; round++) {
        for (int j = 0; j < N / 3; j++) { /* deletes and puts anywhere */
            int i = (int)rng_below(&rng, N);
            if (live[i]) CHECK(md_lexindex_delete(ix, ids[i]) == MD_OK);
            else {
                uint32_t t = 7;
                CHECK(md_lexindex_put(ix, ids[i], NULL, 0, 1 + (uint32_t)(i % 13), &t, &g[i], &b[i], 1) == MD_OK);
            }
            live[i] = !live[i];
        }
        CHECK(mdi_lexindex_check(ix) == 0);
        size_t n = mdi_lexindex_postings(ix, 7, rd, rg, rb, N), want = 0, bad = 0;
        for (int i = 0; i < N; i++) {
            if (!live[i]) continue;
            if (want >= n || rd[want] != ids[i] || rg[want] != g[i] || rb[want] != b[i]) bad++;
            want++;
        }
        CHECK(n == want && bad == 0);
        CHECK(md_lexindex_df(ix, 7) == want);
    }
    md_lexindex_free(ix);
    /* 1280 documents of the same 8 terms, one hit each */
    CHECK(md_lexindex_new(&ix) == MD_OK);
    uint32_t terms[8] = {0, 1, 2, 3, 4, 5, 6, 7}, ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    for (uint32_t d = 0; d < 1280; d++) CHECK(md_lexindex_put(ix, d, NULL, 0, 8, terms, ones, ones, 8) == MD_OK);
    CHECK(mdi_lexindex_check(ix) == 0);
    /* plain, the postings alone took 12 bytes each, beside the memories' slots */
    CHECK(md_lexindex_bytes(ix) < 1280 * 8 * 12);
    md_lexindex_free(ix);
}

int main(void) {
    test_log();
    test_errors();
    test_corpora();
    test_incremental();
    test_skips();
    test_common();
    test_cover();
    test_packed();
    CHECK(pruned_queries > 0);
    printf("pruned queries: %zu, postings skipped: %zu\n", pruned_queries, skipped_postings);
    return check_report("test_lexindex");
}

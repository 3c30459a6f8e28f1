/* The resident lexical index: posting lists per term in blocks of at most
 * MD_LEXINDEX_BLOCK postings (document order), each block with the most gist
 * hits, the most body hits and the fewest tokens of its documents and, once
 * packed, a cover of a few points (hits, tokens) that every posting is within,
 * so that a query bounds every score in a block from those numbers under any
 * corpus statistics (the idf and the average length change with every write;
 * the bound is computed at query time by the same arithmetic as the scores).
 * A write moves postings within one block per term; nothing is rebuilt.
 *
 * The top-k (block-max MaxScore over windows): a window is a range of
 * documents in which every query term's postings lie in one block, its bound
 * those blocks' bounds added; the windows are taken largest bound first, so
 * the k-th score rises early and the search stops at the first window whose
 * bound cannot reach it. In a window the terms are ordered by their block's
 * bound, and the longest prefix whose bounds add up below the k-th score
 * cannot put a document in the top-k on their own ("non-essential"): only
 * documents of the other terms are candidates, each skipped unscored when the
 * bounds of the terms holding it cannot reach the k-th score, then looked up
 * in the non-essential terms while its bound can. Scores are then summed in
 * query order, as FTS5 sums them. */
#include "internal.h"
#include "lexindex.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LEX_MIN_CAP 4

/* A block is plain (cap > 0: p holds cap documents, cap gist hits, cap body
 * hits) or packed (cap == 0: z holds zlen bytes). Only a term's last block
 * grows plain, and it is packed when it fills; a write to a packed block
 * decodes it and packs it again. Packed: the document gaps after `first`,
 * each as an order-ek exponential-Golomb code (a gap's code never grows when
 * two gaps merge, so a delete repacks in place and never allocates), then
 * the gist hits in gw bits each, then the body hits in bw bits each (widths
 * of the block's largest hits). */
typedef struct lex_block {
    uint32_t n, cap;
    uint32_t first, last;           /* its first and last documents */
    uint32_t max_g, max_b, min_len; /* bounds over its postings */
    uint32_t zlen;
    uint8_t ek, gw, bw;
    uint8_t ns; /* packed: cover points at the end of z (0: the bounds above alone) */
    uint32_t *p;
    uint8_t *z;
} lex_block;

/* A block's postings decoded (room for two blocks and one more). */
typedef struct lex_run {
    uint32_t d[2 * MD_LEXINDEX_BLOCK + 1], g[2 * MD_LEXINDEX_BLOCK + 1], b[2 * MD_LEXINDEX_BLOCK + 1];
} lex_run;

typedef struct lex_term {
    size_t nb, capb; /* blocks held, allocated */
    size_t df;       /* postings */
    lex_block *b;
} lex_term;

typedef struct lex_doc {
    uint8_t *data; /* nt term ids as LEB128 varints (tbytes), then the key's bytes */
    uint32_t len, nt, key_len, live, tbytes;
} lex_doc;

/* The term id at data[*at] (advanced past it). */
static inline uint32_t doc_term(const uint8_t *data, uint32_t *at) {
    uint32_t v = 0;
    unsigned sh = 0;
    uint8_t c;
    do {
        c = data[(*at)++];
        v |= (uint32_t)(c & 0x7f) << sh;
        sh += 7;
    } while (c & 0x80);
    return v;
}

struct md_lexindex {
    lex_term *terms;
    size_t n_terms; /* term ids below this have a slot */
    lex_doc *docs;
    size_t n_docs;  /* document ids below this have a slot */
    size_t live;    /* documents held */
    double tokens;  /* their tokens (an integer below 2^53) */
};

static inline uint32_t *bdoc(const lex_block *k) { return k->p; }
static inline uint32_t *bgist(const lex_block *k) { return k->p + k->cap; }
static inline uint32_t *bbody(const lex_block *k) { return k->p + 2 * (size_t)k->cap; }
static inline const uint8_t *doc_key(const lex_doc *d) { return d->data + d->tbytes; }

double mdi_bm25_idf(double N, double n) {
    double idf = md_js_log((N - n + 0.5) / (n + 0.5));
    return idf <= 0.0 ? 1e-6 : idf;
}

MDI_SMALL md_status md_lexindex_new(md_lexindex **out) {
    if (!out) return MD_ERR_NULL;
    *out = calloc(1, sizeof **out);
    return *out ? MD_OK : MD_ERR_NOMEM;
}

MDI_SMALL void md_lexindex_free(md_lexindex *ix) {
    if (!ix) return;
    for (size_t t = 0; t < ix->n_terms; t++) {
        for (size_t i = 0; i < ix->terms[t].nb; i++) {
            free(ix->terms[t].b[i].p);
            free(ix->terms[t].b[i].z);
        }
        free(ix->terms[t].b);
    }
    for (size_t d = 0; d < ix->n_docs; d++) free(ix->docs[d].data);
    free(ix->terms);
    free(ix->docs);
    free(ix);
}

MDI_SMALL size_t md_lexindex_count(const md_lexindex *ix) { return ix ? ix->live : 0; }

MDI_SMALL size_t md_lexindex_df(const md_lexindex *ix, uint32_t term) {
    return ix && term < ix->n_terms ? ix->terms[term].df : 0;
}

MDI_SMALL size_t md_lexindex_bytes(const md_lexindex *ix) {
    if (!ix) return 0;
    size_t bytes = sizeof *ix + ix->n_terms * sizeof(lex_term) + ix->n_docs * sizeof(lex_doc);
    for (size_t t = 0; t < ix->n_terms; t++) {
        const lex_term *tm = &ix->terms[t];
        bytes += tm->capb * sizeof(lex_block);
        for (size_t i = 0; i < tm->nb; i++) bytes += 3 * sizeof(uint32_t) * (size_t)tm->b[i].cap + tm->b[i].zlen;
    }
    for (size_t d = 0; d < ix->n_docs; d++)
        if (ix->docs[d].live) bytes += ix->docs[d].tbytes + ix->docs[d].key_len;
    return bytes;
}

/* ---- blocks ---- */

#define LB MD_LEXINDEX_BLOCK

static inline unsigned bits32(uint32_t x) { return x ? 32u - (unsigned)__builtin_clz(x) : 0u; }

/* 64 bits of z from bit `at` on (z holds 8 bytes past its last bit). */
static inline uint64_t bits_at(const uint8_t *z, size_t at) {
    uint64_t v;
    memcpy(&v, z + (at >> 3), 8);
    return v >> (at & 7);
}

/* OR the low w (<= 33) bits of v into zeroed z at bit `at`. */
static inline void bits_put(uint8_t *z, size_t at, uint64_t v, unsigned w) {
    uint64_t cur;
    if (w == 0) return;
    memcpy(&cur, z + (at >> 3), 8);
    cur |= (v & ((1ull << w) - 1)) << (at & 7);
    memcpy(z + (at >> 3), &cur, 8);
}

/* The bits of gap value v (a document gap less one) in order ek. */
static inline size_t eg_bits(uint32_t v, unsigned ek) {
    uint64_t w = (uint64_t)v + (1ull << ek);
    unsigned L = 63u - (unsigned)__builtin_clzll(w);
    return 2 * (size_t)L - ek + 1;
}

static size_t run_bits(const uint32_t *d, uint32_t n, unsigned ek, unsigned gw, unsigned bw) {
    size_t bits = (size_t)n * (gw + bw);
    for (uint32_t i = 1; i < n; i++) bits += eg_bits(d[i] - d[i - 1] - 1, ek);
    return bits;
}

static void run_write(uint8_t *z, const uint32_t *d, const uint32_t *g, const uint32_t *b, uint32_t n, unsigned ek,
                      unsigned gw, unsigned bw) {
    size_t at = 0;
    for (uint32_t i = 1; i < n; i++) {
        uint64_t w = (uint64_t)(d[i] - d[i - 1] - 1) + (1ull << ek);
        unsigned L = 63u - (unsigned)__builtin_clzll(w);
        at += L - ek; /* zeros */
        bits_put(z, at, 1 | ((w - (1ull << L)) << 1), L + 1);
        at += L + 1;
    }
    for (uint32_t i = 0; i < n; i++, at += gw) bits_put(z, at, g[i], gw);
    for (uint32_t i = 0; i < n; i++, at += bw) bits_put(z, at, b[i], bw);
}

/* A block's postings into d / g / b (room for its n). */
static void block_decode(const lex_block *k, uint32_t *d, uint32_t *g, uint32_t *b) {
    if (k->cap) {
        memcpy(d, k->p, k->n * sizeof *d);
        memcpy(g, k->p + k->cap, k->n * sizeof *g);
        memcpy(b, k->p + 2 * (size_t)k->cap, k->n * sizeof *b);
        return;
    }
    const uint8_t *z = k->z;
    const unsigned ek = k->ek, gw = k->gw, bw = k->bw;
    size_t at = 0;
    uint32_t prev = k->first;
    d[0] = prev;
    for (uint32_t i = 1; i < k->n; i++) {
        unsigned zc = (unsigned)__builtin_ctzll(bits_at(z, at));
        at += zc + 1;
        unsigned L = zc + ek;
        uint64_t w = (1ull << L) | (bits_at(z, at) & ((1ull << L) - 1));
        at += L;
        prev += (uint32_t)(w - (1ull << ek)) + 1;
        d[i] = prev;
    }
    const uint64_t gm = (1ull << gw) - 1, bm = (1ull << bw) - 1;
    for (uint32_t i = 0; i < k->n; i++, at += gw) g[i] = (uint32_t)(bits_at(z, at) & gm);
    for (uint32_t i = 0; i < k->n; i++, at += bw) b[i] = (uint32_t)(bits_at(z, at) & bm);
}

/* A block's count, ends and bounds from its postings (n >= 1). */
static void block_head(lex_block *k, const uint32_t *d, const uint32_t *g, const uint32_t *b, uint32_t n,
                       const lex_doc *docs) {
    uint32_t mg = 0, mb = 0, ml = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (g[i] > mg) mg = g[i];
        if (b[i] > mb) mb = b[i];
        if (docs[d[i]].len < ml) ml = docs[d[i]].len;
    }
    k->n = n;
    k->first = d[0];
    k->last = d[n - 1];
    k->max_g = mg;
    k->max_b = mb;
    k->min_len = ml;
}

/* A packed block's cover: at most LEX_COVER points (gist hits, body hits,
 * tokens: u16, u16, u32 in 8 bytes at the end of z) such that every posting
 * has a point with at least its hits and at most its tokens. Its bound is the
 * best score of a point (under any idf, gist weight and average length, as
 * the score grows with the hits and falls with the tokens), much closer to
 * the block's best score than its most hits over its fewest tokens, which
 * are seldom one posting's. The points: the postings no other dominates, by
 * tokens; past LEX_COVER of them, runs of them (by tokens) merged into their
 * most hits and fewest tokens. No points (ns 0) when one posting dominates
 * all (the three bounds are its own) or a hit count is past 16 bits. */
#define LEX_COVER 8
#define LEX_POINT 8

static int u64_cmp(const void *pa, const void *pb) {
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* Up to cap cover points of the postings into out (cap * LEX_POINT bytes); how many. */
static unsigned block_cover(const uint32_t *d, const uint32_t *g, const uint32_t *b, uint32_t n, const lex_doc *docs,
                            unsigned cap, uint8_t *out) {
    uint64_t key[LB + 1];
    uint32_t sg[LB + 1], sb[LB + 1], sl[LB + 1];
    if (cap == 0 || n < 2 || n > LB + 1) return 0;
    for (uint32_t i = 0; i < n; i++) {
        if (g[i] > 0xffff || b[i] > 0xffff) return 0;
        /* by tokens, then the most gist hits, then the most body hits */
        key[i] = (uint64_t)docs[d[i]].len << 32 | (uint64_t)(0xffff - g[i]) << 16 | (0xffff - b[i]);
    }
    qsort(key, n, sizeof *key, u64_cmp);
    unsigned ns = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = 0xffff - (uint32_t)(key[i] >> 16 & 0xffff), y = 0xffff - (uint32_t)(key[i] & 0xffff);
        unsigned j = 0;
        while (j < ns && !(sg[j] >= x && sb[j] >= y)) j++;
        if (j < ns) continue; /* an earlier one (no more tokens) has as many hits */
        sg[ns] = x;
        sb[ns] = y;
        sl[ns++] = (uint32_t)(key[i] >> 32);
    }
    if (ns < 2) return 0;
    unsigned np = ns < cap ? ns : cap;
    for (unsigned p = 0; p < np; p++) {
        unsigned a = (unsigned)((size_t)p * ns / np), e = (unsigned)((size_t)(p + 1) * ns / np);
        uint16_t mg = 0, mb = 0;
        for (unsigned j = a; j < e; j++) {
            if (sg[j] > mg) mg = (uint16_t)sg[j];
            if (sb[j] > mb) mb = (uint16_t)sb[j];
        }
        memcpy(out + p * LEX_POINT, &mg, 2);
        memcpy(out + p * LEX_POINT + 2, &mb, 2);
        memcpy(out + p * LEX_POINT + 4, &sl[a], 4);
    }
    return np;
}

/* k packed anew from n >= 1 postings (k unchanged when out of memory). */
static md_status block_pack(lex_block *k, const uint32_t *d, const uint32_t *g, const uint32_t *b, uint32_t n,
                            const lex_doc *docs) {
    lex_block x = {0};
    uint8_t pts[LEX_COVER * LEX_POINT];
    block_head(&x, d, g, b, n, docs);
    uint32_t mean = n > 1 ? (x.last - x.first - (n - 1)) / (n - 1) : 0;
    unsigned ek = mean ? bits32(mean) - 1 : 0;
    unsigned gw = bits32(x.max_g), bw = bits32(x.max_b);
    unsigned ns = block_cover(d, g, b, n, docs, LEX_COVER, pts);
    /* the points (or 8 bytes) after the bits: a read of 64 bits stays inside */
    size_t bytes = (run_bits(d, n, ek, gw, bw) + 7) / 8 + (ns ? ns * LEX_POINT : 8);
    x.z = mdi_calloc_array(bytes, 1);
    if (!x.z) return MD_ERR_NOMEM;
    run_write(x.z, d, g, b, n, ek, gw, bw);
    if (ns) memcpy(x.z + bytes - ns * LEX_POINT, pts, ns * LEX_POINT);
    x.zlen = (uint32_t)bytes;
    x.ek = (uint8_t)ek;
    x.gw = (uint8_t)gw;
    x.bw = (uint8_t)bw;
    x.ns = (uint8_t)ns;
    free(k->p);
    free(k->z);
    *k = x;
    return MD_OK;
}

/* Packed k holds fewer postings now (a subset of what it held): packed again
 * in its own bytes. Its order ek stays; a removed posting takes its hits'
 * gw + bw >= 1 bits (each posting has a hit) and at least one gap's code,
 * or merges two gaps, whose one code is at most one bit longer than the two:
 * the bits never grow. Its cover takes at most the points it had (at the
 * end of z, where 8 bytes or more stay after the bits). */
static void block_repack(lex_block *k, const uint32_t *d, const uint32_t *g, const uint32_t *b, uint32_t n,
                         const lex_doc *docs) {
    uint8_t pts[LEX_COVER * LEX_POINT];
    block_head(k, d, g, b, n, docs);
    k->gw = (uint8_t)bits32(k->max_g);
    k->bw = (uint8_t)bits32(k->max_b);
    unsigned ns = block_cover(d, g, b, n, docs, k->ns, pts);
    memset(k->z, 0, k->zlen);
    run_write(k->z, d, g, b, n, k->ek, k->gw, k->bw);
    if (ns) memcpy(k->z + k->zlen - ns * LEX_POINT, pts, ns * LEX_POINT);
    k->ns = (uint8_t)ns;
}

/* Resize plain block k's arrays to cap (>= its postings). */
static md_status block_resize(lex_block *k, uint32_t cap) {
    uint32_t *p = mdi_alloc_array(3 * (size_t)cap, sizeof *p);
    if (!p) return MD_ERR_NOMEM;
    if (k->p) {
        memcpy(p, bdoc(k), k->n * sizeof *p);
        memcpy(p + cap, bgist(k), k->n * sizeof *p);
        memcpy(p + 2 * (size_t)cap, bbody(k), k->n * sizeof *p);
        free(k->p);
    }
    k->p = p;
    k->cap = cap;
    return MD_OK;
}

/* The first position in a[lo..n) holding a value >= x (n if none). */
static inline uint32_t lower_bound(const uint32_t *a, uint32_t lo, uint32_t n, uint32_t x) {
    uint32_t hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The first block of t whose last document is >= doc (t->nb if none). */
static size_t find_block(const lex_term *t, uint32_t doc) {
    size_t lo = 0, hi = t->nb;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->b[mid].last < doc) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Room for one more block at position at (its slot zeroed). */
static md_status blocks_open(lex_term *t, size_t at) {
    if (t->nb == t->capb) {
        size_t cap = t->capb ? 2 * t->capb : 1;
        lex_block *b = realloc(t->b, cap * sizeof *b);
        if (!b) return MD_ERR_NOMEM;
        t->b = b;
        t->capb = cap;
    }
    memmove(t->b + at + 1, t->b + at, (t->nb - at) * sizeof *t->b);
    memset(t->b + at, 0, sizeof *t->b);
    t->nb++;
    return MD_OK;
}

static void blocks_close(lex_term *t, size_t at) {
    free(t->b[at].p);
    free(t->b[at].z);
    memmove(t->b + at, t->b + at + 1, (t->nb - at - 1) * sizeof *t->b);
    t->nb--;
    if (t->nb == 0) {
        free(t->b);
        t->b = NULL;
        t->capb = 0;
    }
}

static void run_insert(lex_run *r, uint32_t n, uint32_t pos, uint32_t doc, uint32_t g, uint32_t b) {
    uint32_t tail = n - pos;
    memmove(r->d + pos + 1, r->d + pos, tail * sizeof *r->d);
    memmove(r->g + pos + 1, r->g + pos, tail * sizeof *r->g);
    memmove(r->b + pos + 1, r->b + pos, tail * sizeof *r->b);
    r->d[pos] = doc;
    r->g[pos] = g;
    r->b[pos] = b;
}

static void run_remove(lex_run *r, uint32_t n, uint32_t pos) {
    uint32_t tail = n - pos - 1;
    memmove(r->d + pos, r->d + pos + 1, tail * sizeof *r->d);
    memmove(r->g + pos, r->g + pos + 1, tail * sizeof *r->g);
    memmove(r->b + pos, r->b + pos + 1, tail * sizeof *r->b);
}

/* Add (doc, g, b) to a term's postings; MD_ERR_INVALID when doc is there
 * already. Out of memory, the term is unchanged. */
static md_status term_insert(lex_term *t, uint32_t doc, uint32_t g, uint32_t b, const lex_doc *docs) {
    md_status st;
    lex_block *k;
    if (t->nb == 0 || doc > t->b[t->nb - 1].last) { /* past the end: the plain last block, or a new one */
        k = t->nb ? &t->b[t->nb - 1] : NULL;
        if (!k || !k->cap || k->n == LB) {
            if ((st = blocks_open(t, t->nb)) != MD_OK) return st;
            if ((st = block_resize(&t->b[t->nb - 1], LEX_MIN_CAP)) != MD_OK) {
                blocks_close(t, t->nb - 1);
                return st;
            }
        }
        k = &t->b[t->nb - 1];
        if (k->n == k->cap && (st = block_resize(k, 2 * k->cap < LB ? 2 * k->cap : LB)) != MD_OK) return st;
        uint32_t len = docs[doc].len;
        if (k->n == 0) {
            k->max_g = g;
            k->max_b = b;
            k->min_len = len;
            k->first = doc;
        } else {
            if (g > k->max_g) k->max_g = g;
            if (b > k->max_b) k->max_b = b;
            if (len < k->min_len) k->min_len = len;
        }
        bdoc(k)[k->n] = doc;
        bgist(k)[k->n] = g;
        bbody(k)[k->n] = b;
        k->last = doc;
        k->n++;
        t->df++;
        if (k->n == LB) /* sealed; without memory it stays plain */
            (void)block_pack(k, bdoc(k), bgist(k), bbody(k), k->n, docs);
        return MD_OK;
    }
    size_t bi = find_block(t, doc);
    k = &t->b[bi];
    if (k->cap && k->n < LB) { /* plain with room */
        uint32_t pos = lower_bound(bdoc(k), 0, k->n, doc);
        if (pos < k->n && bdoc(k)[pos] == doc) return MD_ERR_INVALID;
        if (k->n == k->cap && (st = block_resize(k, 2 * k->cap < LB ? 2 * k->cap : LB)) != MD_OK) return st;
        uint32_t tail = k->n - pos, *pd = bdoc(k), *pg = bgist(k), *pb = bbody(k);
        memmove(pd + pos + 1, pd + pos, tail * sizeof *pd);
        memmove(pg + pos + 1, pg + pos, tail * sizeof *pg);
        memmove(pb + pos + 1, pb + pos, tail * sizeof *pb);
        pd[pos] = doc;
        pg[pos] = g;
        pb[pos] = b;
        block_head(k, pd, pg, pb, k->n + 1, docs);
        t->df++;
        return MD_OK;
    }
    lex_run r;
    block_decode(k, r.d, r.g, r.b);
    uint32_t pos = lower_bound(r.d, 0, k->n, doc);
    if (pos < k->n && r.d[pos] == doc) return MD_ERR_INVALID;
    run_insert(&r, k->n, pos, doc, g, b);
    uint32_t n = k->n + 1;
    if (n <= LB) {
        if ((st = block_pack(k, r.d, r.g, r.b, n, docs)) != MD_OK) return st;
        t->df++;
        return MD_OK;
    }
    /* full: two halves */
    lex_block lo = {0}, hi = {0};
    uint32_t keep = n / 2;
    if ((st = block_pack(&lo, r.d, r.g, r.b, keep, docs)) != MD_OK) return st;
    if ((st = block_pack(&hi, r.d + keep, r.g + keep, r.b + keep, n - keep, docs)) != MD_OK ||
        (st = blocks_open(t, bi + 1)) != MD_OK) {
        free(lo.z);
        free(hi.z);
        return st;
    }
    free(t->b[bi].p);
    free(t->b[bi].z);
    t->b[bi] = lo;
    t->b[bi + 1] = hi;
    t->df++;
    return MD_OK;
}

/* Remove doc from a term's postings (never allocates but to merge a sparse
 * block into its neighbour, which it does without when out of memory). */
static void term_remove(lex_term *t, uint32_t doc, const lex_doc *docs) {
    size_t bi = find_block(t, doc);
    if (bi == t->nb) return;
    lex_block *k = &t->b[bi];
    lex_run r;
    block_decode(k, r.d, r.g, r.b);
    uint32_t pos = lower_bound(r.d, 0, k->n, doc);
    if (pos == k->n || r.d[pos] != doc) return;
    run_remove(&r, k->n, pos);
    uint32_t n = k->n - 1;
    t->df--;
    if (n == 0) {
        blocks_close(t, bi);
        return;
    }
    if (k->cap) {
        memcpy(bdoc(k), r.d, n * sizeof *r.d);
        memcpy(bgist(k), r.g, n * sizeof *r.g);
        memcpy(bbody(k), r.b, n * sizeof *r.b);
        block_head(k, r.d, r.g, r.b, n, docs);
    } else {
        block_repack(k, r.d, r.g, r.b, n, docs);
    }
    /* a neighbour with room takes what is left of a sparse block */
    if (n <= LB / 4 && bi + 1 < t->nb && t->b[bi + 1].n + n <= LB / 2) {
        lex_block *h = &t->b[bi + 1], x = {0};
        uint32_t need = n + h->n;
        block_decode(h, r.d + n, r.g + n, r.b + n);
        md_status st;
        if (h->cap) { /* the plain last block stays plain */
            if ((st = block_resize(&x, need)) == MD_OK) {
                memcpy(bdoc(&x), r.d, need * sizeof *r.d);
                memcpy(bgist(&x), r.g, need * sizeof *r.g);
                memcpy(bbody(&x), r.b, need * sizeof *r.b);
                block_head(&x, r.d, r.g, r.b, need, docs);
            }
        } else {
            st = block_pack(&x, r.d, r.g, r.b, need, docs);
        }
        if (st == MD_OK) {
            free(t->b[bi].p);
            free(t->b[bi].z);
            t->b[bi] = x;
            blocks_close(t, bi + 1);
        }
    }
}

/* Grow a zeroed array of slots (elements of size `size`) to hold index `need`. */
static md_status grow_slots(void **a, size_t *n, size_t need, size_t size) {
    if (need < *n) return MD_OK;
    size_t cap = *n ? *n : 16;
    while (cap <= need) cap *= 2;
    void *p = realloc(*a, cap * size);
    if (!p) return MD_ERR_NOMEM;
    memset((char *)p + *n * size, 0, (cap - *n) * size);
    *a = p;
    *n = cap;
    return MD_OK;
}

/* ---- put and delete ---- */

static void doc_drop(md_lexindex *ix, uint32_t doc) {
    lex_doc *d = &ix->docs[doc];
    for (uint32_t i = 0, at = 0; i < d->nt; i++) term_remove(&ix->terms[doc_term(d->data, &at)], doc, ix->docs);
    ix->live--;
    ix->tokens -= d->len;
    free(d->data);
    memset(d, 0, sizeof *d);
}

md_status md_lexindex_delete(md_lexindex *ix, uint32_t doc) {
    if (!ix) return MD_ERR_NULL;
    if (doc >= ix->n_docs || !ix->docs[doc].live) return MD_ERR_RANGE;
    doc_drop(ix, doc);
    return MD_OK;
}

md_status md_lexindex_put(md_lexindex *ix, uint32_t doc, const uint8_t *key, size_t key_len, uint32_t len,
                          const uint32_t *terms, const uint32_t *gist, const uint32_t *body, size_t n) {
    if (!ix || MDI_BAD_IN(key, key_len) || MDI_BAD_IN(terms, n)) return MD_ERR_NULL;
    if (doc >= MD_LEXINDEX_MAX_ID || n > UINT32_MAX || key_len > UINT32_MAX) return MD_ERR_RANGE;
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++) {
        if (terms[i] >= MD_LEXINDEX_MAX_ID) return MD_ERR_RANGE;
        if ((gist ? gist[i] : 0) == 0 && (body ? body[i] : 0) == 0) return MD_ERR_INVALID;
        if (terms[i] > top) top = terms[i];
    }
    if (n && grow_slots((void **)&ix->terms, &ix->n_terms, top, sizeof *ix->terms) != MD_OK) return MD_ERR_NOMEM;
    if (grow_slots((void **)&ix->docs, &ix->n_docs, doc, sizeof *ix->docs) != MD_OK) return MD_ERR_NOMEM;
    size_t tbytes = 0;
    for (size_t i = 0; i < n; i++) tbytes += terms[i] < 1u << 7 ? 1 : terms[i] < 1u << 14 ? 2 : terms[i] < 1u << 21 ? 3 : 4;
    if (tbytes + key_len > UINT32_MAX) return MD_ERR_RANGE;
    uint8_t *data = NULL;
    if (tbytes + key_len) {
        data = mdi_alloc_array(tbytes + key_len, 1);
        if (!data) return MD_ERR_NOMEM;
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t v = terms[i];
            while (v >= 0x80) {
                data[at++] = (uint8_t)(v | 0x80);
                v >>= 7;
            }
            data[at++] = (uint8_t)v;
        }
        if (key_len) memcpy(data + tbytes, key, key_len);
    }
    if (ix->docs[doc].live) doc_drop(ix, doc);
    lex_doc *d = &ix->docs[doc];
    d->data = data;
    d->len = len;
    d->nt = 0; /* the terms whose postings hold it so far */
    d->key_len = (uint32_t)key_len;
    d->tbytes = (uint32_t)tbytes;
    d->live = 1;
    ix->live++;
    ix->tokens += len;
    for (size_t i = 0; i < n; i++) {
        md_status st = term_insert(&ix->terms[terms[i]], doc, gist ? gist[i] : 0, body ? body[i] : 0, ix->docs);
        if (st != MD_OK) { /* its postings so far go again: the document is absent */
            doc_drop(ix, doc);
            return st;
        }
        d->nt++;
    }
    return MD_OK;
}

/* ---- the top-k ---- */

typedef struct lex_hit {
    double sum; /* the sum of the terms' scores (bm25 = -1.0 * sum) */
    uint32_t doc;
} lex_hit;

/* Is hit a better than b: a larger sum, then the smaller key (bytes), then the smaller document. */
static inline int better(const md_lexindex *ix, lex_hit a, lex_hit b) {
    if (a.sum != b.sum) return a.sum > b.sum;
    const lex_doc *x = &ix->docs[a.doc], *y = &ix->docs[b.doc];
    uint32_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = n ? memcmp(doc_key(x), doc_key(y), n) : 0;
    if (c != 0) return c < 0;
    if (x->key_len != y->key_len) return x->key_len < y->key_len;
    return a.doc < b.doc;
}

/* The k best so far: a heap with the worst at its root. */
typedef struct lex_heap {
    lex_hit *h;
    size_t n, k;
} lex_heap;

static void heap_offer(const md_lexindex *ix, lex_heap *hp, lex_hit x) {
    size_t i;
    if (hp->n < hp->k) {
        i = hp->n++;
        while (i > 0) {
            size_t p = (i - 1) / 2;
            if (!better(ix, hp->h[p], x)) break;
            hp->h[i] = hp->h[p];
            i = p;
        }
        hp->h[i] = x;
        return;
    }
    if (!better(ix, x, hp->h[0])) return;
    i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= hp->n) break;
        if (c + 1 < hp->n && better(ix, hp->h[c], hp->h[c + 1])) c++;
        if (!better(ix, x, hp->h[c])) break;
        hp->h[i] = hp->h[c];
        i = c;
    }
    hp->h[i] = x;
}

/* The heap's hits best first into docs / scores (the heap is spent). */
static size_t heap_finish(const md_lexindex *ix, lex_heap *hp, uint32_t *docs, double *scores) {
    size_t n = hp->n;
    for (size_t m = n; m > 0; m--) {
        lex_hit worst = hp->h[0], x = hp->h[m - 1];
        hp->n = m - 1;
        size_t i = 0;
        for (;;) { /* sift x down from the root over the first m - 1 */
            size_t c = 2 * i + 1;
            if (c >= hp->n) break;
            if (c + 1 < hp->n && better(ix, hp->h[c], hp->h[c + 1])) c++;
            if (!better(ix, x, hp->h[c])) break;
            hp->h[i] = hp->h[c];
            i = c;
        }
        if (hp->n) hp->h[i] = x;
        docs[m - 1] = worst.doc;
        scores[m - 1] = -1.0 * worst.sum;
    }
    return n;
}

/* Can a document whose scores add up to at most x (as rounded in some order)
 * not reach theta? The margin (2^-40 of x) is far above what summing up to
 * 2^32 terms in another order, and each bound's rounding, can move a sum. */
static inline int below(double x, double theta) { return x + x * 0x1p-40 < theta; }

typedef struct lex_cur {
    const lex_term *t; /* NULL: the term holds nothing */
    double idf;
    size_t bi;   /* current block */
    uint32_t pi; /* position in it (once decoded) */
    size_t dec;  /* the block d / g / b hold (SIZE_MAX: none) */
    const uint32_t *d, *g, *b;
    uint32_t *buf; /* room to decode a block */
    int has;     /* the candidate is in this term's list: its score part c */
    double c, u; /* the candidate's score part; the window's bound */
} lex_cur;

typedef struct lex_query {
    const md_lexindex *ix;
    lex_cur *cur;
    size_t m;
    double w, avgdl;
} lex_query;

static md_status query_open(const md_lexindex *ix, const uint32_t *terms, size_t n_terms, const double *idf, double w,
                            size_t k, uint32_t *docs, double *scores, size_t *out, lex_query *q, lex_heap *hp) {
    if (!ix || !out || MDI_BAD_IN(terms, n_terms) || (k && (!docs || !scores))) return MD_ERR_NULL;
    out[0] = out[1] = 0;
    if (!(w >= 0.0) || !isfinite(w)) return MD_ERR_RANGE;
    for (size_t i = 0; idf && i < n_terms; i++)
        if (!(idf[i] > 0.0) || !isfinite(idf[i])) return MD_ERR_RANGE;
    memset(q, 0, sizeof *q);
    memset(hp, 0, sizeof *hp);
    q->ix = ix;
    q->w = w;
    q->m = n_terms;
    hp->k = k < ix->live ? k : ix->live;
    if (hp->k == 0 || n_terms == 0) return MD_OK;
    q->avgdl = ix->tokens / (double)ix->live;
    q->cur = mdi_calloc_array(n_terms, sizeof *q->cur);
    hp->h = mdi_alloc_array(hp->k, sizeof *hp->h);
    if (!q->cur || !hp->h) {
        free(q->cur);
        free(hp->h);
        return MD_ERR_NOMEM;
    }
    for (size_t i = 0; i < n_terms; i++) {
        lex_cur *c = &q->cur[i];
        c->t = terms[i] < ix->n_terms && ix->terms[terms[i]].nb ? &ix->terms[terms[i]] : NULL;
        if (c->t) c->idf = idf ? idf[i] : mdi_bm25_idf((double)ix->live, (double)c->t->df);
        c->dec = SIZE_MAX;
    }
    return MD_OK;
}

/* The score part of posting i of the cursor's block. */
static inline double posting_score(const lex_query *q, const lex_cur *c, uint32_t i) {
    double f = q->w * (double)c->g[i] + (double)c->b[i];
    return mdi_bm25_term(c->idf, f, (double)q->ix->docs[c->d[i]].len, q->avgdl);
}

/* The cursor's block decoded (a plain one is read where it is), at its
 * first document >= lo. Only the blocks the top-k does not skip are. */
static inline void cur_load(lex_cur *c, uint32_t lo) {
    if (c->dec == c->bi) return;
    const lex_block *kb = &c->t->b[c->bi];
    if (kb->cap) {
        c->d = bdoc(kb);
        c->g = bgist(kb);
        c->b = bbody(kb);
    } else {
        block_decode(kb, c->buf, c->buf + LB, c->buf + 2 * LB);
        c->d = c->buf;
        c->g = c->buf + LB;
        c->b = c->buf + 2 * LB;
    }
    c->dec = c->bi;
    c->pi = lower_bound(c->d, 0, kb->n, lo);
}

static inline double block_bound(const lex_query *q, const lex_cur *c, const lex_block *k) {
    if (!k->ns)
        return mdi_bm25_term(c->idf, q->w * (double)k->max_g + (double)k->max_b, (double)k->min_len, q->avgdl);
    const uint8_t *pt = k->z + k->zlen - (size_t)k->ns * LEX_POINT;
    double u = 0.0;
    for (unsigned i = 0; i < k->ns; i++, pt += LEX_POINT) {
        uint16_t g, b;
        uint32_t len;
        memcpy(&g, pt, 2);
        memcpy(&b, pt + 2, 2);
        memcpy(&len, pt + 4, 4);
        double x = mdi_bm25_term(c->idf, q->w * (double)g + (double)b, (double)len, q->avgdl);
        if (x > u) u = x;
    }
    return u;
}

/* The candidate's sum in query order, from the cursors' parts. */
static inline double query_sum(const lex_query *q) {
    double s = 0.0;
    for (size_t i = 0; i < q->m; i++)
        if (q->cur[i].has) s += q->cur[i].c;
    return s;
}

md_status md_lexindex_top_full(const md_lexindex *ix, const uint32_t *terms, size_t n_terms, const double *idf,
                               double gist_weight, size_t k, uint32_t *docs, double *scores, size_t *out) {
    lex_query q;
    lex_heap hp;
    md_status st = query_open(ix, terms, n_terms, idf, gist_weight, k, docs, scores, out, &q, &hp);
    if (st != MD_OK || hp.k == 0 || n_terms == 0) return st;
    double *acc = mdi_alloc_array(ix->n_docs, sizeof *acc);
    uint8_t *mark = mdi_calloc_array(ix->n_docs, 1);
    uint32_t *touched = mdi_alloc_array(ix->live, sizeof *touched);
    uint32_t *buf = mdi_alloc_array(3 * LB, sizeof *buf);
    if (!acc || !mark || !touched || !buf) {
        st = MD_ERR_NOMEM;
        goto done;
    }
    size_t nt = 0, scored = 0;
    for (size_t i = 0; i < n_terms; i++) {
        lex_cur *c = &q.cur[i];
        if (!c->t) continue;
        c->buf = buf;
        for (c->bi = 0; c->bi < c->t->nb; c->bi++) {
            const lex_block *kb = &c->t->b[c->bi];
            cur_load(c, 0);
            for (uint32_t j = 0; j < kb->n; j++) {
                uint32_t d = c->d[j];
                if (!mark[d]) {
                    mark[d] = 1;
                    acc[d] = 0.0;
                    touched[nt++] = d;
                }
                acc[d] += posting_score(&q, c, j);
                scored++;
            }
        }
    }
    for (size_t i = 0; i < nt; i++) heap_offer(ix, &hp, (lex_hit){acc[touched[i]], touched[i]});
    out[0] = heap_finish(ix, &hp, docs, scores);
    out[1] = scored;
done:
    free(acc);
    free(mark);
    free(touched);
    free(buf);
    free(q.cur);
    free(hp.h);
    return st;
}

/* A window: documents lo..hi, in which each term's postings lie in one of its
 * blocks, and those blocks' bounds added. */
typedef struct lex_win {
    uint32_t lo, hi;
    double u;
} lex_win;

/* Sift w[i] down the max-heap w[0..n) (by bound). */
static void win_down(lex_win *w, size_t n, size_t i) {
    lex_win x = w[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && w[c + 1].u > w[c].u) c++;
        if (!(w[c].u > x.u)) break;
        w[i] = w[c];
        i = c;
    }
    w[i] = x;
}

static inline double theta_of(const lex_heap *hp) { return hp->n == hp->k ? hp->h[0].sum : -INFINITY; }

/* The window lo..hi into the heap (MaxScore): its terms ordered by their
 * blocks' bounds; the longest prefix whose bounds add up below the k-th score
 * (longer as it rises) is non-essential: only the others' documents are
 * candidates, each skipped unscored while the bounds of the terms holding it
 * and the prefix cannot reach the k-th score, then looked up in the prefix
 * (largest bound first) while its score so far can. */
static void top_window(lex_query *q, lex_heap *hp, uint32_t lo, uint32_t hi, size_t *ord, double *pre,
                       size_t *scored) {
    size_t m = q->m, live = 0;
    for (size_t i = 0; i < m; i++) {
        lex_cur *c = &q->cur[i];
        c->has = 0;
        if (!c->t) continue;
        size_t bi = find_block(c->t, lo);
        if (bi == c->t->nb || c->t->b[bi].first > hi) continue;
        const lex_block *kb = &c->t->b[bi];
        c->bi = bi;
        if (c->dec == bi) { /* decoded for another window: from lo */
            c->pi = lower_bound(c->d, 0, kb->n, lo);
            if (c->pi == kb->n || c->d[c->pi] > hi) continue;
        }
        c->u = block_bound(q, c, kb);
        size_t j = live++; /* by bound, ascending (insertion: few terms) */
        while (j > 0 && q->cur[ord[j - 1]].u > c->u) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = i;
    }
    double theta = theta_of(hp);
    size_t ne = 0;
    pre[0] = 0.0;
    while (ne < live && below(pre[ne] + q->cur[ord[ne]].u, theta)) {
        pre[ne + 1] = pre[ne] + q->cur[ord[ne]].u;
        ne++;
    }
    while (ne < live) {
        uint32_t d = UINT32_MAX;
        for (size_t j = ne; j < live; j++) {
            lex_cur *c = &q->cur[ord[j]];
            cur_load(c, lo);
            if (c->pi < c->t->b[c->bi].n && c->d[c->pi] <= hi && c->d[c->pi] < d) d = c->d[c->pi];
        }
        if (d == UINT32_MAX) break;
        double ub = pre[ne];
        for (size_t j = ne; j < live; j++) {
            lex_cur *c = &q->cur[ord[j]];
            c->has = c->pi < c->t->b[c->bi].n && c->d[c->pi] == d;
            if (c->has) ub += c->u;
        }
        if (below(ub, theta)) { /* the terms holding it cannot lift it to the k-th score */
            for (size_t j = ne; j < live; j++) {
                lex_cur *c = &q->cur[ord[j]];
                if (c->has) c->pi++;
                c->has = 0;
            }
            continue;
        }
        double bound = 0.0;
        for (size_t j = ne; j < live; j++) {
            lex_cur *c = &q->cur[ord[j]];
            if (!c->has) continue;
            c->c = posting_score(q, c, c->pi);
            c->pi++;
            (*scored)++;
            bound += c->c;
        }
        for (size_t j = 0; j < ne; j++) q->cur[ord[j]].has = 0;
        int out_of_reach = below(bound + pre[ne], theta);
        for (size_t j = ne; j-- > 0 && !out_of_reach;) { /* the non-essential terms, largest bound first */
            lex_cur *c = &q->cur[ord[j]];
            const lex_block *kb = &c->t->b[c->bi];
            if (kb->first > d) { /* not in this block: no need to decode it */
                out_of_reach = below(bound + pre[j], theta);
                continue;
            }
            cur_load(c, lo);
            c->pi = lower_bound(c->d, c->pi, kb->n, d);
            if (c->pi < kb->n && c->d[c->pi] == d) {
                c->c = posting_score(q, c, c->pi);
                c->has = 1;
                (*scored)++;
                bound += c->c;
            }
            out_of_reach = below(bound + pre[j], theta);
        }
        if (!out_of_reach) {
            heap_offer(q->ix, hp, (lex_hit){query_sum(q), d});
            theta = theta_of(hp);
            while (ne < live && below(pre[ne] + q->cur[ord[ne]].u, theta)) {
                pre[ne + 1] = pre[ne] + q->cur[ord[ne]].u;
                ne++;
            }
        }
        for (size_t j = 0; j < live; j++) q->cur[ord[j]].has = 0;
    }
}

/* The windows of the terms' blocks (each block's bound computed once), then
 * each window by its bound, largest first (a heap: the first windows lift
 * the k-th score, so the later ones are mostly skipped), until the next one's
 * bound cannot reach the k-th score. */
md_status md_lexindex_top(const md_lexindex *ix, const uint32_t *terms, size_t n_terms, const double *idf,
                          double gist_weight, size_t k, uint32_t *docs, double *scores, size_t *out) {
    lex_query q;
    lex_heap hp;
    md_status st = query_open(ix, terms, n_terms, idf, gist_weight, k, docs, scores, out, &q, &hp);
    if (st != MD_OK || hp.k == 0 || n_terms == 0) return st;
    size_t m = n_terms, scored = 0, nw = 1;
    for (size_t i = 0; i < m; i++)
        if (q.cur[i].t) nw += q.cur[i].t->nb;
    size_t *ord = mdi_alloc_array(m, sizeof *ord);     /* the window's terms by bound, ascending */
    double *pre = mdi_alloc_array(m + 1, sizeof *pre); /* pre[j]: the bounds of ord[0..j) added */
    uint32_t *buf = mdi_alloc_array(m * 3 * LB, sizeof *buf);
    lex_win *win = mdi_alloc_array(nw, sizeof *win);
    if (!ord || !pre || !buf || !win) {
        st = MD_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < m; i++) {
        lex_cur *c = &q.cur[i];
        c->buf = buf + i * 3 * LB;
        c->bi = 0;
        if (c->t) c->u = block_bound(&q, c, &c->t->b[0]);
    }
    size_t n_win = 0;
    for (uint32_t lo = 0;;) { /* [lo, hi]: hi the first end of a current block */
        uint32_t hi = UINT32_MAX;
        int any = 0;
        for (size_t i = 0; i < m; i++) {
            const lex_cur *c = &q.cur[i];
            if (!c->t || c->bi == c->t->nb) continue;
            any = 1;
            if (c->t->b[c->bi].last < hi) hi = c->t->b[c->bi].last;
        }
        if (!any) break;
        double u = 0.0;
        for (size_t i = 0; i < m; i++) {
            lex_cur *c = &q.cur[i];
            if (!c->t || c->bi == c->t->nb) continue;
            const lex_block *kb = &c->t->b[c->bi];
            if (kb->first <= hi) u += c->u;
            if (kb->last == hi && ++c->bi < c->t->nb) c->u = block_bound(&q, c, &c->t->b[c->bi]);
        }
        win[n_win++] = (lex_win){lo, hi, u};
        if (hi == UINT32_MAX) break;
        lo = hi + 1;
    }
    for (size_t i = n_win / 2; i-- > 0;) win_down(win, n_win, i);
    while (n_win) {
        lex_win x = win[0];
        win[0] = win[--n_win];
        if (n_win) win_down(win, n_win, 0);
        if (below(x.u, theta_of(&hp))) break; /* nor can any window left */
        top_window(&q, &hp, x.lo, x.hi, ord, pre, &scored);
    }
    out[0] = heap_finish(ix, &hp, docs, scores);
    out[1] = scored;
done:
    free(ord);
    free(pre);
    free(buf);
    free(win);
    free(q.cur);
    free(hp.h);
    return st;
}

/* ---- what the tests look at ---- */

size_t mdi_lexindex_postings(const md_lexindex *ix, uint32_t term, uint32_t *docs, uint32_t *gist, uint32_t *body,
                             size_t cap) {
    if (!ix || term >= ix->n_terms) return 0;
    const lex_term *t = &ix->terms[term];
    size_t n = 0;
    lex_run r;
    for (size_t bi = 0; bi < t->nb; bi++) {
        block_decode(&t->b[bi], r.d, r.g, r.b);
        for (uint32_t i = 0; i < t->b[bi].n; i++, n++) {
            if (n >= cap) continue;
            if (docs) docs[n] = r.d[i];
            if (gist) gist[n] = r.g[i];
            if (body) body[n] = r.b[i];
        }
    }
    return n;
}

size_t mdi_lexindex_terms(const md_lexindex *ix) { return ix ? ix->n_terms : 0; }
double mdi_lexindex_tokens(const md_lexindex *ix) { return ix ? ix->tokens : 0; }

/* Is doc in block bi of t (*got)? */
static void mdi_lexindex_postings_block(const lex_term *t, size_t bi, uint32_t doc, uint32_t *got) {
    lex_run r;
    block_decode(&t->b[bi], r.d, r.g, r.b);
    uint32_t pos = lower_bound(r.d, 0, t->b[bi].n, doc);
    *got = pos < t->b[bi].n && r.d[pos] == doc;
}

int mdi_lexindex_check(const md_lexindex *ix) {
    size_t live = 0, postings = 0, held = 0;
    double tokens = 0;
    for (size_t d = 0; d < ix->n_docs; d++) {
        const lex_doc *x = &ix->docs[d];
        if (!x->live) continue;
        live++;
        tokens += x->len;
        held += x->nt;
        for (uint32_t i = 0, at = 0; i < x->nt; i++) {
            uint32_t id = doc_term(x->data, &at);
            if (id >= ix->n_terms) return 1;
            const lex_term *t = &ix->terms[id];
            size_t bi = find_block(t, (uint32_t)d);
            if (bi == t->nb) return 2;
            uint32_t got = 0;
            mdi_lexindex_postings_block(t, bi, (uint32_t)d, &got);
            if (!got) return 2;
        }
    }
    if (live != ix->live || tokens != ix->tokens) return 3;
    for (size_t tt = 0; tt < ix->n_terms; tt++) {
        const lex_term *t = &ix->terms[tt];
        size_t n = 0;
        uint32_t prev = 0;
        for (size_t bi = 0; bi < t->nb; bi++) {
            const lex_block *k = &t->b[bi];
            if (k->n == 0 || k->n > LB || (k->cap && k->n > k->cap) || k->cap > LB || !k->p == !k->z) return 4;
            if (k->ns > LEX_COVER || (k->cap && k->ns) || (k->ns && k->n < 2)) return 4;
            lex_run r;
            block_decode(k, r.d, r.g, r.b);
            if (r.d[0] != k->first || r.d[k->n - 1] != k->last) return 5;
            for (uint32_t i = 0; i < k->n; i++, n++) {
                uint32_t d = r.d[i];
                if (n > 0 && d <= prev) return 5;
                prev = d;
                if (d >= ix->n_docs || !ix->docs[d].live) return 6;
                if (r.g[i] > k->max_g || r.b[i] > k->max_b || ix->docs[d].len < k->min_len) return 7;
                if (r.g[i] == 0 && r.b[i] == 0) return 8;
                if (k->ns) { /* a cover point with at least its hits and at most its tokens */
                    const uint8_t *pt = k->z + k->zlen - (size_t)k->ns * LEX_POINT;
                    int covered = 0;
                    for (unsigned p = 0; p < k->ns && !covered; p++, pt += LEX_POINT) {
                        uint16_t pg, pb;
                        uint32_t pl;
                        memcpy(&pg, pt, 2);
                        memcpy(&pb, pt + 2, 2);
                        memcpy(&pl, pt + 4, 4);
                        covered = r.g[i] <= pg && r.b[i] <= pb && ix->docs[d].len >= pl;
                    }
                    if (!covered) return 11;
                }
            }
        }
        if (n != t->df) return 9;
        postings += n;
    }
    return postings == held ? 0 : 10;
}

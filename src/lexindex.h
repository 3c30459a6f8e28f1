/* lexindex internals shared with the tests: the per-term score and a
 * structural check of the index. */
#ifndef MEMDOMAIN_LEXINDEX_H
#define MEMDOMAIN_LEXINDEX_H

#include "internal.h"

#define MDI_BM25_K1 1.2
#define MDI_BM25_B 0.75

/* One term's part of a document's bm25 (fts5Bm25Function's terms, in its
 * order of operations): f weighted hits, D the document's tokens. Increasing
 * in f and decreasing in D in the reals; rounded, non-increasing in D exactly
 * and within a few ulps of monotone in f (the bounds' margin covers that). */
static inline double mdi_bm25_term(double idf, double f, double D, double avgdl) {
    return idf * ((f * (MDI_BM25_K1 + 1.0)) / (f + MDI_BM25_K1 * (1 - MDI_BM25_B + MDI_BM25_B * D / avgdl)));
}

/* FTS5's idf of a term in n of N documents: log((N - n + 0.5) / (n + 0.5)),
 * 1e-6 when that is not above 0. */
double mdi_bm25_idf(double N, double n);

/* The postings of `term`: up to cap of them into docs / gist / body (NULL:
 * only counted); returns how many there are. */
size_t mdi_lexindex_postings(const md_lexindex *ix, uint32_t term, uint32_t *docs, uint32_t *gist, uint32_t *body,
                             size_t cap);
/* The term ids the index has room for (every term id held is below). */
size_t mdi_lexindex_terms(const md_lexindex *ix);
/* The index's tokens in all documents. */
double mdi_lexindex_tokens(const md_lexindex *ix);
/* 0 when every invariant holds (blocks in document order, 1..MD_LEXINDEX_BLOCK
 * postings each, each block's bounds hold every posting, each term's count,
 * each document's terms hold it, the totals); else a number saying which failed. */
int mdi_lexindex_check(const md_lexindex *ix);

#endif

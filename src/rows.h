/* Internals of the resident rows (rows.c) shared with the tests; the
 * neighbors module's internals (neighbors.h), which rows.c calls, come with
 * it. */
#ifndef MEMDOMAIN_ROWS_H
#define MEMDOMAIN_ROWS_H

#include "neighbors.h"

/* What a query did (for tests and benchmarks): whether it pruned, the
 * candidates the scan kept, and the rows that got the exact sum. */
typedef struct mdi_top_stats {
    int pruned;
    size_t candidates, exact;
} mdi_top_stats;

md_status mdi_rows_top_cosine(const md_rows *r, const float *query, size_t k, uint32_t *idx,
                              double *sims, size_t *len, int mode, mdi_top_stats *stats);

#endif

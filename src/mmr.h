/* Internals of the mmr module (mmr.c) used by the resident rows (rows.c):
 * rows.c calls mmr.c, never the other way. */
#ifndef MEMDOMAIN_MMR_H
#define MEMDOMAIN_MMR_H

#include "memdomain.h"

/* applyMmr over float rows given by index (mmr.c; see md_rows_apply_mmr). */
md_status mdi_apply_mmr_rows(const float *rows, size_t n_rows, size_t d, const double *ss,
                             const uint32_t *row, const double *scores, size_t n, double limit,
                             double lambda, size_t *out, size_t *len);

#endif

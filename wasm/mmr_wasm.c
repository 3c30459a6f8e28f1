/* Boundary for the mmr module. */
#include "boundary.h"

#include <stdlib.h>

/* Candidate i: scores[i]; has[i] nonzero when it has a vector of lens[i]
 * doubles, laid out back to back in data. out: room for n indices;
 * *len receives the count. */
MDW_EXPORT("mdw_apply_mmr")
int mdw_apply_mmr(const double *scores, const uint8_t *has, const uint32_t *lens, const double *data,
                  size_t n, double limit, double lambda, size_t *out, size_t *len) {
    md_mmr_candidate *c = mdi_alloc_array(n, sizeof(md_mmr_candidate));
    if (!c) return MD_ERR_NOMEM;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        c[i].score = scores[i];
        c[i].has_vector = has[i] != 0;
        c[i].len = c[i].has_vector ? lens[i] : 0;
        c[i].vector = data ? data + at : NULL;
        at += c[i].len;
    }
    md_status st = md_apply_mmr(c, n, limit, lambda, out, len);
    free(c);
    return st;
}

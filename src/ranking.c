/* ranking module: the production constants and rrfContribution. */
#include "internal.h"

#include <math.h>

bool md_rrf_contribution(double rank, double weight, double *out) {
    if (!isfinite(rank) || rank < 1 || weight <= 0) return false;
    if (out) *out = weight / (rank + MD_RRF_K);
    return true;
}

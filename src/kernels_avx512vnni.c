/* The AVX-512 VNNI variant: kernels_avx512.c compiled again with the int16
 * filter's multiply-adds as vpdpwssd (one instruction for vpmaddwd and
 * vpaddd: the same wrapping i32 lanes, so the same bits). Chosen at run time
 * by kernels.c on CPUs with AVX-512 F, BW and VNNI. */
#define MDI_AVX512_VNNI 1
#include "kernels_avx512.c"

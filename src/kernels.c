/* Run-time kernel selection: the widest variant this CPU runs. The wasm
 * builds have one SIMD variant (SIMD128 is fixed at build time). */
#include "kernels.h"

extern const mdi_kernels mdi_kernels_base;
#ifndef __wasm__
extern const mdi_kernels mdi_kernels_scalar;
#endif

#if (defined(__x86_64__) || defined(__i386__)) && !defined(MDI_NO_X86_VARIANTS) && \
    (defined(__GNUC__) || defined(__clang__))
#define MDI_X86_DISPATCH 1
extern const mdi_kernels mdi_kernels_avx2;
extern const mdi_kernels mdi_kernels_avx512;
extern const mdi_kernels mdi_kernels_avx512vnni;
#endif

static const mdi_kernels *const all[] = {
#ifndef __wasm__
    &mdi_kernels_scalar,
#endif
    &mdi_kernels_base,
#ifdef MDI_X86_DISPATCH
    &mdi_kernels_avx2,
    &mdi_kernels_avx512,
    &mdi_kernels_avx512vnni,
#endif
};

const mdi_kernels *const *mdi_kernels_all(size_t *n) {
    *n = sizeof all / sizeof all[0];
    return all;
}

bool mdi_kernel_supported(const mdi_kernels *k) {
#ifdef MDI_X86_DISPATCH
    /* __builtin_cpu_supports also checks that the OS saves the ymm/zmm state. */
    __builtin_cpu_init();
    if (k == &mdi_kernels_avx512vnni)
        return mdi_kernel_supported(&mdi_kernels_avx512) && __builtin_cpu_supports("avx512vnni");
    if (k == &mdi_kernels_avx512) return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    if (k == &mdi_kernels_avx2) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
#ifndef __wasm__
    if (k == &mdi_kernels_scalar) return true;
#endif
    return k == &mdi_kernels_base;
}

const mdi_kernels *mdi_kern(void) {
#ifdef MDI_X86_DISPATCH
    if (mdi_kernel_supported(&mdi_kernels_avx512vnni)) return &mdi_kernels_avx512vnni;
    if (mdi_kernel_supported(&mdi_kernels_avx512)) return &mdi_kernels_avx512;
    if (mdi_kernel_supported(&mdi_kernels_avx2)) return &mdi_kernels_avx2;
#endif
    return &mdi_kernels_base;
}

const char *mdi_kernel_isa(void) { return mdi_kern()->name; }

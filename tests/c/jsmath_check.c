/* Native half of the JavaScript-exact math check: reads the vectors that
 * tests/js/jsmath-vectors.mjs wrote (inputs and Node's Math.exp / Math.log1p /
 * Math.round outputs) and compares md_js_exp, md_js_log1p and md_js_round bit
 * for bit (any NaN equals any NaN). Exit status 1 on any difference. */
#include "memdomain.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same_bits(double a, double b) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return memcmp(&a, &b, 8) == 0;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s VECTORS.bin\n", argv[0]); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    char magic[8];
    uint32_t nfn;
    if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "MDJSMATH", 8) != 0 || fread(&nfn, 4, 1, f) != 1 || nfn != 3) {
        fprintf(stderr, "%s: not a jsmath vector file\n", argv[1]);
        return 2;
    }
    static const char *names[3] = {"md_js_exp", "md_js_log1p", "md_js_round"};
    double (*fns[3])(double) = {md_js_exp, md_js_log1p, md_js_round};
    int failed = 0;
    for (uint32_t k = 0; k < nfn; k++) {
        uint32_t n;
        if (fread(&n, 4, 1, f) != 1) { fprintf(stderr, "truncated file\n"); return 2; }
        double *xs = malloc((size_t)n * 8), *want = malloc((size_t)n * 8);
        if (!xs || !want || fread(xs, 8, n, f) != n || fread(want, 8, n, f) != n) {
            fprintf(stderr, "truncated file or out of memory\n");
            return 2;
        }
        size_t bad = 0;
        for (uint32_t i = 0; i < n; i++) {
            double got = fns[k](xs[i]);
            if (!same_bits(got, want[i]) && bad++ < 5)
                fprintf(stderr, "  %s(%.17g) = %.17g, Node gives %.17g\n", names[k], xs[i], got, want[i]);
        }
        printf("native: %s: %u inputs, %zu differ from Node\n", names[k], n, bad);
        if (bad) failed++;
        free(xs);
        free(want);
    }
    fclose(f);
    return failed ? 1 : 0;
}

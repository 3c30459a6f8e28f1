/* Reading typed values off a fuzzer's byte string. */
#ifndef MD_FUZZ_INPUT_H
#define MD_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fuzz_in {
    const uint8_t *p;
    size_t n;
} fuzz_in;

static inline uint8_t take_u8(fuzz_in *in) {
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

static inline double take_f64(fuzz_in *in) {
    double d = 0;
    if (in->n >= 8) { memcpy(&d, in->p, 8); in->p += 8; in->n -= 8; }
    else { uint8_t b = take_u8(in); d = (double)b - 128; }
    return d;
}

/* A double that is often a small integer or a special value, so branches are reached. */
static inline double take_num(fuzz_in *in) {
    uint8_t k = take_u8(in);
    switch (k % 8) {
    case 0: return (double)(int8_t)take_u8(in);
    case 1: return (double)((int)take_u8(in) * 40 - 5000);
    case 2: return 0.0 / 0.0;
    case 3: return k & 8 ? 1.0 / 0.0 : -1.0 / 0.0;
    case 4: return k & 8 ? 0.0 : -0.0;
    default: return take_f64(in);
    }
}

/* A short string of the input's bytes (not necessarily valid UTF-8). */
static inline size_t take_str(fuzz_in *in, const uint8_t **s) {
    size_t len = take_u8(in) % 9;
    if (len > in->n) len = in->n;
    *s = in->p;
    in->p += len;
    in->n -= len;
    return len;
}

#endif

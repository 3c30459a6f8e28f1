/*
 * The golden cases on the native build (build/libmemdomain.a): reads the case
 * list tests/runtimes/native.test.mjs writes (the golden arguments after the JS
 * glue's defaults and conversions, in a simple binary form), calls the C API
 * and writes each case's output in the canonical encoding of
 * tests/runtimes/harness.js (u32 length, then the bytes), so Node can hash the
 * outputs exactly as every runtime does and compare.
 *
 *   native_hash CASES.bin > OUT.bin
 *
 * Input, little-endian: "MDC1", u32 case count; per case u32 op, then the op's
 * arguments, each a tag byte and its payload: 'd' f64; 'D' u32 n, n f64;
 * 'S' u32 n, n times (u32 len, bytes); 's' u32 len, bytes; 'U' u32 n, n bytes;
 * 'A' (arms) u32 n, n times (u32 hits, hits times (u32 len, bytes, f64 rank)).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memdomain.h"

enum {
    OP_COSINE = 1, OP_COSINE_DISTANCE, OP_COMPENSATED_SUM, OP_RRF_CONTRIBUTION, OP_RRF_SCORE,
    OP_FUSE_ARMS, OP_RANK_FUSED, OP_FUSE_LATERAL, OP_TO_FP, OP_FROM_FP, OP_EWMA_STEP_FP,
    OP_APPLY_OUTCOMES_FP, OP_APPLY_NEGATIVE_HITS_FP, OP_DECAY_CONFIDENCE_FP, OP_DECAY_CONFIDENCE_N_FP,
    OP_DECAY_CONFIDENCE, OP_DECAY_CONFIDENCE_N, OP_IS_COMMITTABLE, OP_SIGNAL_VALUE,
    OP_SHOULD_BUMP_ACCESS, OP_PARTITION_BY_COOLDOWN
};

static void die(const char *why) {
    fprintf(stderr, "native_hash: %s\n", why);
    exit(2);
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) die("out of memory");
    return p;
}

/* ---- input ---- */

static const uint8_t *in, *in_end;

static void need(size_t n) {
    if ((size_t)(in_end - in) < n) die("truncated case list");
}
static uint32_t rd_u32(void) {
    uint32_t v;
    need(4);
    memcpy(&v, in, 4);
    in += 4;
    return v;
}
static double rd_raw_f64(void) {
    double v;
    need(8);
    memcpy(&v, in, 8);
    in += 8;
    return v;
}
static void rd_tag(char t) {
    need(1);
    if (*in != (uint8_t)t) {
        fprintf(stderr, "native_hash: expected argument tag '%c', got '%c'\n", t, *in);
        exit(2);
    }
    in++;
}
static double rd_f64(void) {
    rd_tag('d');
    return rd_raw_f64();
}
static double *rd_f64s(size_t *n) {
    rd_tag('D');
    *n = rd_u32();
    double *v = xmalloc(*n * sizeof *v);
    for (size_t i = 0; i < *n; i++) v[i] = rd_raw_f64();
    return v;
}
static md_str rd_raw_str(void) {
    md_str s;
    s.len = rd_u32();
    need(s.len);
    s.ptr = (const char *)in;
    in += s.len;
    return s;
}
static md_str rd_str(void) {
    rd_tag('s');
    return rd_raw_str();
}
static md_str *rd_strs(size_t *n) {
    rd_tag('S');
    *n = rd_u32();
    md_str *v = xmalloc(*n * sizeof *v);
    for (size_t i = 0; i < *n; i++) v[i] = rd_raw_str();
    return v;
}
static uint8_t *rd_u8s(size_t *n) {
    rd_tag('U');
    *n = rd_u32();
    need(*n);
    uint8_t *v = xmalloc(*n);
    memcpy(v, in, *n);
    in += *n;
    return v;
}

/* ---- output: the canonical encoding of harness.js ---- */

static uint8_t *out;
static size_t out_len, out_cap;

static void put(const void *p, size_t n) {
    if (out_len + n > out_cap) {
        out_cap = (out_len + n) * 2 + 64;
        out = realloc(out, out_cap);
        if (!out) die("out of memory");
    }
    memcpy(out + out_len, p, n);
    out_len += n;
}
static void put_tag(char t) {
    put(&t, 1);
}
static void put_count(char t, size_t n) {
    uint32_t v = (uint32_t)n;
    put_tag(t);
    put(&v, 4);
}
static void put_num(double x) {
    uint64_t bits;
    if (isnan(x)) bits = UINT64_C(0x7ff8000000000000); /* a NaN's payload does not matter */
    else memcpy(&bits, &x, 8);
    put_tag('n');
    put(&bits, 8);
}
static void put_str(md_str s) {
    put_count('s', s.len);
    put(s.ptr, s.len);
}
static void put_cstr(const char *s) {
    md_str m = {s, strlen(s)};
    put_str(m);
}
static void put_bool(int b) {
    put_tag(b ? 't' : 'f');
}
/* A thrown error, named as the glue names it (core.js raise, decay's RangeError). */
static void put_error(md_status st) {
    const char *name = st == MD_ERR_INVALID ? "TypeError"
                     : (st == MD_ERR_NOMEM || st == MD_ERR_RANGE) ? "RangeError" : "Error";
    out_len = 0;
    put_count('E', strlen(name));
    put(name, strlen(name));
}
static void put_fused(const md_fused *f) {
    put_count('m', f->len);
    for (size_t i = 0; i < f->len; i++) {
        put_str(f->paths[i]);
        put_num(f->scores[i]);
    }
}
/* Call with a status computed BEFORE (x is an out-value of that call). */
static void put_num_or_error(md_status st, double x) {
    if (st != MD_OK) put_error(st);
    else put_num(x);
}

static void run_case(uint32_t op) {
    double x = 0, a, b, c, d;
    md_status st;
    size_t n, m, k;
    switch (op) {
    case OP_COSINE:
    case OP_COSINE_DISTANCE: {
        double *va = rd_f64s(&n), *vb = rd_f64s(&m);
        st = (op == OP_COSINE ? md_cosine : md_cosine_distance)(va, n, vb, m, &x);
        put_num_or_error(st, x);
        free(va);
        free(vb);
        break;
    }
    case OP_COMPENSATED_SUM: {
        double *v = rd_f64s(&n);
        st = md_compensated_sum(v, n, &x);
        put_num_or_error(st, x);
        free(v);
        break;
    }
    case OP_RRF_CONTRIBUTION:
        a = rd_f64();
        b = rd_f64();
        if (md_rrf_contribution(a, b, &x)) {
            put_tag('S');
            put_num(x);
        } else put_tag('N');
        break;
    case OP_RRF_SCORE:
        a = rd_f64();
        b = rd_f64();
        c = rd_f64();
        put_num(md_rrf_score(a, b, c));
        break;
    case OP_FUSE_ARMS: {
        rd_tag('A');
        size_t n_arms = rd_u32();
        md_arm *arms = xmalloc(n_arms * sizeof *arms);
        for (size_t i = 0; i < n_arms; i++) {
            arms[i].n_hits = rd_u32();
            md_arm_hit *hits = xmalloc(arms[i].n_hits * sizeof *hits);
            for (size_t j = 0; j < arms[i].n_hits; j++) {
                hits[j].path = rd_raw_str();
                hits[j].rank = rd_raw_f64();
            }
            arms[i].hits = hits;
        }
        double *w = rd_f64s(&n);
        md_fused f = {0, NULL, NULL};
        st = md_fuse_arms(arms, n_arms, w, n, rd_f64(), &f);
        if (st != MD_OK) put_error(st);
        else put_fused(&f);
        md_fused_free(&f);
        for (size_t i = 0; i < n_arms; i++) free((void *)arms[i].hits);
        free(arms);
        free(w);
        break;
    }
    case OP_RANK_FUSED: {
        md_str *paths = rd_strs(&n);
        double *scores = rd_f64s(&m);
        if (m != n) die("rankFused: paths and scores differ in length");
        size_t *order = xmalloc(n * sizeof *order);
        st = md_rank_fused(paths, scores, n, order);
        if (st != MD_OK) put_error(st);
        else {
            put_count('a', n);
            for (size_t i = 0; i < n; i++) {
                put_count('o', 2);
                put_cstr("path");
                put_str(paths[order[i]]);
                put_cstr("score");
                put_num(scores[order[i]]);
            }
        }
        free(order);
        free(paths);
        free(scores);
        break;
    }
    case OP_FUSE_LATERAL: {
        md_str *paths = rd_strs(&n);
        double *scores = rd_f64s(&m);
        md_str *order = rd_strs(&k);
        if (m != n) die("fuseLateral: paths and scores differ in length");
        a = rd_f64();
        b = rd_f64();
        md_fused f = {0, NULL, NULL};
        st = md_fuse_lateral(paths, scores, n, order, k, a, b, &f);
        if (st != MD_OK) put_error(st);
        else put_fused(&f);
        md_fused_free(&f);
        free(paths);
        free(scores);
        free(order);
        break;
    }
    case OP_TO_FP:
        put_num(md_to_fp(rd_f64()));
        break;
    case OP_FROM_FP:
        put_num(md_from_fp(rd_f64()));
        break;
    case OP_EWMA_STEP_FP:
        a = rd_f64();
        b = rd_f64();
        put_num(md_ewma_step_fp(a, b, rd_f64()));
        break;
    case OP_APPLY_OUTCOMES_FP: {
        a = rd_f64();
        b = rd_f64();
        double *v = rd_f64s(&n);
        st = md_apply_outcomes_fp(a, b, v, n, &x);
        put_num_or_error(st, x);
        free(v);
        break;
    }
    case OP_APPLY_NEGATIVE_HITS_FP:
        a = rd_f64();
        b = rd_f64();
        st = md_apply_negative_hits_fp(a, b, rd_f64(), &x);
        put_num_or_error(st, x);
        break;
    case OP_DECAY_CONFIDENCE_FP:
        a = rd_f64();
        b = rd_f64();
        put_num(md_decay_confidence_fp(a, b, rd_f64()));
        break;
    case OP_DECAY_CONFIDENCE_N_FP:
        a = rd_f64();
        b = rd_f64();
        c = rd_f64();
        st = md_decay_confidence_n_fp(a, b, c, rd_f64(), &x);
        put_num_or_error(st, x);
        break;
    case OP_DECAY_CONFIDENCE:
        a = rd_f64();
        b = rd_f64();
        put_num(md_decay_confidence(a, b, rd_f64()));
        break;
    case OP_DECAY_CONFIDENCE_N:
        a = rd_f64();
        b = rd_f64();
        c = rd_f64();
        d = rd_f64();
        st = md_decay_confidence_n(a, b, c, d, &x);
        put_num_or_error(st, x);
        break;
    case OP_IS_COMMITTABLE:
        a = rd_f64();
        put_bool(md_is_committable_confidence_change(a, rd_f64()));
        break;
    case OP_SIGNAL_VALUE: {
        md_str s = rd_str();
        int which = -1;
        for (int i = 0; i < 3; i++)
            if (strlen(md_reinforce_signals[i]) == s.len && memcmp(md_reinforce_signals[i], s.ptr, s.len) == 0)
                which = i;
        st = which < 0 ? MD_ERR_INVALID : md_signal_value((md_reinforce_signal)which, &x);
        put_num_or_error(st, x);
        break;
    }
    case OP_SHOULD_BUMP_ACCESS:
        a = rd_f64();
        b = rd_f64();
        c = rd_f64();
        put_bool(md_should_bump_access(a != 0, b, c, rd_f64()));
        break;
    case OP_PARTITION_BY_COOLDOWN: {
        md_str *paths = rd_strs(&n);
        uint8_t *has = rd_u8s(&m);
        double *last = rd_f64s(&k);
        if (m != n || k != n) die("partitionByCooldown: lengths differ");
        a = rd_f64();
        b = rd_f64();
        uint8_t *bumped = xmalloc(n);
        st = md_partition_by_cooldown(has, last, n, a, b, bumped);
        if (st != MD_OK) put_error(st);
        else {
            size_t nb = 0;
            for (size_t i = 0; i < n; i++) nb += bumped[i] != 0;
            put_count('o', 2);
            put_cstr("bumped");
            put_count('a', nb);
            for (size_t i = 0; i < n; i++)
                if (bumped[i]) put_str(paths[i]);
            put_cstr("cooledDown");
            put_count('a', n - nb);
            for (size_t i = 0; i < n; i++)
                if (!bumped[i]) put_str(paths[i]);
        }
        free(bumped);
        free(paths);
        free(has);
        free(last);
        break;
    }
    default:
        fprintf(stderr, "native_hash: unknown op %u\n", op);
        exit(2);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) die("usage: native_hash CASES.bin > OUT.bin");
    FILE *f = fopen(argv[1], "rb");
    if (!f) die("cannot open the case list");
    size_t cap = 1 << 20, len = 0;
    uint8_t *buf = xmalloc(cap);
    for (size_t got; (got = fread(buf + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap) {
            buf = realloc(buf, cap *= 2);
            if (!buf) die("out of memory");
        }
    }
    fclose(f);
    in = buf;
    in_end = buf + len;
    need(4);
    if (memcmp(in, "MDC1", 4) != 0) die("not a case list (magic MDC1)");
    in += 4;
    uint32_t cases = rd_u32();
    for (uint32_t i = 0; i < cases; i++) {
        out_len = 0;
        run_case(rd_u32());
        uint32_t n = (uint32_t)out_len;
        if (fwrite(&n, 4, 1, stdout) != 1 || fwrite(out, 1, out_len, stdout) != out_len) die("write failed");
    }
    if (in != in_end) die("trailing bytes after the last case");
    free(buf);
    free(out);
    return fflush(stdout) == 0 ? 0 : 1;
}

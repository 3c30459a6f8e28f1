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
 * Input, little-endian: "MDC1", u32 case count; per case u32 op (OP_*,
 * native_ops.h, generated from native-ops.mjs's order), then the op's
 * arguments, each a tag byte and its payload: 'd' f64; 'D' u32 n, n f64;
 * 'S' u32 n, n times (u32 len, bytes); 's' u32 len, bytes; 'U' u32 n, n bytes;
 * 'A' (arms) u32 n, n times (u32 hits, hits times (u32 len, bytes, f64 rank));
 * 'F' u32 n, n f32; 'W' u32 n, n u32; 'V' (keyed vectors' floats) u32 n, n times 'F'.
 * Strings are WTF-8 (a lone surrogate as its 3-byte form, as the glue writes
 * it); strings in the output are written as TextEncoder writes them (each
 * lone surrogate as U+FFFD), so they hash as in every JavaScript runtime.
 *
 * Covered: every function of cosine, decay, ranking, reinforce, rrf,
 * retention (scoreRetentionMany included), graph (the one-shot functions and
 * the Graph handle) and neighbors (topNeighborPairs, rankCandidatePairs,
 * topNeighborPairsPacked).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memdomain.h"
#include "native_ops.h" /* OP_<FUNCTION>, generated from tests/runtimes/native-ops.mjs */

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

static float *rd_f32s(size_t *n) {
    rd_tag('F');
    *n = rd_u32();
    need(*n * 4);
    float *v = xmalloc(*n * sizeof *v);
    memcpy(v, in, *n * 4);
    in += *n * 4;
    return v;
}
static uint32_t *rd_u32s(size_t *n) {
    rd_tag('W');
    *n = rd_u32();
    uint32_t *v = xmalloc(*n * sizeof *v);
    for (size_t i = 0; i < *n; i++) v[i] = rd_u32();
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
/* TextEncoder's bytes for a WTF-8 string: a lone surrogate (ED A0..BF xx,
 * which valid UTF-8 never has) becomes U+FFFD (EF BF BD), same length. */
static void put_str(md_str s) {
    put_count('s', s.len);
    for (size_t i = 0; i < s.len;) {
        const uint8_t *b = (const uint8_t *)s.ptr + i;
        if (b[0] == 0xED && i + 2 < s.len && b[1] >= 0xA0) {
            put("\xEF\xBF\xBD", 3);
            i += 3;
        } else {
            put(b, 1);
            i++;
        }
    }
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


/* ---- retention, graph, neighbors ---- */

static md_memory_type rd_type(void) {
    return md_memory_type_of(rd_str());
}
static void rd_input(md_retention_input *x) {
    x->memory_type = rd_type();
    size_t n;
    double *v = rd_f64s(&n);
    if (n != 9) die("retention input: 9 numbers expected");
    x->age_days = v[0];
    x->access_count = v[1];
    x->confidence = v[2];
    x->graph_rank = v[3];
    x->max_graph_rank = v[4];
    x->bridge_count = v[5];
    x->reinforcement_count = v[6];
    x->word_count = v[7];
    x->contradiction_count = v[8];
    free(v);
}
static void rd_eight(double *w) {
    size_t n;
    double *v = rd_f64s(&n);
    if (n != 8) die("8 numbers expected");
    memcpy(w, v, 8 * sizeof *w);
    free(v);
}
/* An object of the eight signal names, in the harness's sorted key order. */
static const int SORTED_SIGNALS[8] = {
    MD_SIGNAL_ACCESS_FREQUENCY, MD_SIGNAL_BRIDGE_IMPORTANCE, MD_SIGNAL_CONFIDENCE, MD_SIGNAL_CONTENT_DENSITY,
    MD_SIGNAL_CONTESTED_STATUS, MD_SIGNAL_PAGERANK, MD_SIGNAL_RECENCY, MD_SIGNAL_REINFORCEMENT_COUNT};
static void put_eight(const double *v) {
    put_count('o', 8);
    for (int k = 0; k < 8; k++) {
        put_cstr(md_signal_names[SORTED_SIGNALS[k]]);
        put_num(v[SORTED_SIGNALS[k]]);
    }
}
static void put_f64_array(const double *v, size_t n) {
    put_count('D', n);
    for (size_t i = 0; i < n; i++) {
        double x = v[i];
        uint64_t bits;
        if (isnan(x)) bits = UINT64_C(0x7ff8000000000000);
        else memcpy(&bits, &x, 8);
        put(&bits, 8);
    }
}

/* A graph argument: nodes, then the edges' src, dst, strength. */
typedef struct {
    md_str *nodes;
    size_t n;
    md_graph_edge *edges;
    size_t m;
} graph_arg;
static void rd_graph(graph_arg *g) {
    size_t a, b, c;
    g->nodes = rd_strs(&g->n);
    md_str *src = rd_strs(&a), *dst = rd_strs(&b);
    double *w = rd_f64s(&c);
    if (a != b || a != c) die("edges: lengths differ");
    g->m = a;
    g->edges = xmalloc(a * sizeof *g->edges);
    for (size_t i = 0; i < a; i++) {
        g->edges[i].src = src[i];
        g->edges[i].dst = dst[i];
        g->edges[i].strength = w[i];
    }
    free(src);
    free(dst);
    free(w);
}
static void free_graph_arg(graph_arg *g) {
    free(g->nodes);
    free(g->edges);
}
static void put_node_map_nums(const md_graph *g, const double *v) {
    size_t n = md_graph_node_count(g);
    put_count('m', n);
    for (size_t i = 0; i < n; i++) {
        put_str(md_graph_node(g, i));
        put_num(v[i]);
    }
}
static void put_node_map_counts(const md_graph *g, const size_t *v) {
    size_t n = md_graph_node_count(g);
    put_count('m', n);
    for (size_t i = 0; i < n; i++) {
        put_str(md_graph_node(g, i));
        put_num((double)v[i]);
    }
}
static void put_node_map_labels(const md_graph *g, const size_t *c) {
    size_t n = md_graph_node_count(g);
    put_count('m', n);
    for (size_t i = 0; i < n; i++) {
        put_str(md_graph_node(g, i));
        if (c[i] == MD_GRAPH_NONE) put_tag('u');
        else put_str(md_graph_node(g, c[i]));
    }
}

/* Keyed vectors: keys 'S', then 'V'. */
typedef struct {
    md_keyed_vector *v;
    float **data;
    size_t n;
} vectors_arg;
static void rd_vectors(vectors_arg *x) {
    md_str *keys = rd_strs(&x->n);
    rd_tag('V');
    if (rd_u32() != x->n) die("vectors: lengths differ");
    x->v = xmalloc(x->n * sizeof *x->v);
    x->data = xmalloc(x->n * sizeof *x->data);
    for (size_t i = 0; i < x->n; i++) {
        x->v[i].key = keys[i];
        x->data[i] = rd_f32s(&x->v[i].len);
        x->v[i].vec = x->data[i];
    }
    free(keys);
}
static void free_vectors(vectors_arg *x) {
    for (size_t i = 0; i < x->n; i++) free(x->data[i]);
    free(x->data);
    free(x->v);
}
static md_neighbor_options rd_nopts(void) {
    md_neighbor_options o;
    o.floor = rd_f64();
    o.per_source_k = rd_f64();
    o.limit = rd_f64();
    return o;
}
static void put_pairs(md_status st, const md_neighbor_pairs *p, const md_str *keys) {
    if (st != MD_OK) {
        put_error(st);
        return;
    }
    put_count('a', p->len);
    for (size_t i = 0; i < p->len; i++) {
        put_count('o', 3);
        put_cstr("dst");
        put_str(keys[p->pairs[i].dst]);
        put_cstr("sim");
        put_num(p->pairs[i].sim);
        put_cstr("src");
        put_str(keys[p->pairs[i].src]);
    }
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
    case OP_IS_COMMITTABLE_CONFIDENCE_CHANGE:
        a = rd_f64();
        put_bool(md_is_committable_confidence_change(a, rd_f64()));
        break;
    case OP_SIGNAL_VALUE: {
        md_str s = rd_str();
        int which = -1;
        for (int i = 0; i < 3; i++)
            if (strlen(md_reinforce_signals[i]) == s.len && memcmp(md_reinforce_signals[i], s.ptr, s.len) == 0)
                which = i;
        /* Any other string: undefined, as the reference's lookup gives (issue 12 item 5). */
        if (which < 0) {
            put_tag('u');
            break;
        }
        st = md_signal_value((md_reinforce_signal)which, &x);
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
    case OP_WEIGHTS_FOR:
        put_eight(md_weights_for(rd_type())->weight);
        break;
    case OP_HALF_LIFE_FOR:
        if (md_half_life_for(rd_type(), &x)) put_num(x);
        else put_tag('z');
        break;
    case OP_PROFILE_WEIGHT_SUM: {
        md_weight_profile p;
        rd_eight(p.weight);
        put_num(md_profile_weight_sum(&p));
        break;
    }
    case OP_COMPUTE_SIGNALS: {
        md_retention_input ri;
        md_signals sg;
        rd_input(&ri);
        st = md_compute_signals(&ri, &sg);
        if (st != MD_OK) put_error(st);
        else put_eight(sg.value);
        break;
    }
    case OP_COMPOSITE_SCORE: {
        md_signals sg;
        md_weight_profile p;
        rd_eight(sg.value);
        rd_eight(p.weight);
        st = md_composite_score(&sg, &p, &x);
        put_num_or_error(st, x);
        break;
    }
    case OP_BAND_FOR:
        put_cstr(md_triage_actions[md_band_for(rd_f64())]);
        break;
    case OP_SCORE_RETENTION: {
        md_retention_input ri;
        md_retention_score rs;
        rd_input(&ri);
        st = md_score_retention(&ri, &rs);
        if (st != MD_OK) put_error(st);
        else {
            put_count('o', 3);
            put_cstr("action");
            put_cstr(md_triage_actions[rs.action]);
            put_cstr("score");
            put_num(rs.score);
            put_cstr("signals");
            put_eight(rs.signals.value);
        }
        break;
    }
    case OP_SCORE_RETENTION_MANY: {
        md_str *names = rd_strs(&n);
        double *col[9];
        for (int j = 0; j < 9; j++) {
            col[j] = rd_f64s(&m);
            if (m != n) die("scoreRetentionMany: column lengths differ");
        }
        int want = rd_f64() != 0;
        uint8_t *types = xmalloc(n), *action = xmalloc(n);
        double *score = xmalloc(n * sizeof *score), *sig = want ? xmalloc(8 * n * sizeof *sig) : NULL;
        md_retention_columns cols = {n, types, col[0], col[1], col[2], col[3], col[4], col[5], col[6], col[7], col[8]};
        st = md_memory_types_of(names, n, types);
        if (st == MD_OK) st = md_score_retention_many(&cols, score, action, sig);
        if (st != MD_OK) put_error(st);
        else {
            put_count('o', want ? 3 : 2);
            put_cstr("action");
            put_count('B', n);
            put(action, n);
            put_cstr("score");
            put_f64_array(score, n);
            if (want) {
                put_cstr("signals");
                put_count('o', 8);
                for (int k = 0; k < 8; k++) {
                    put_cstr(md_signal_names[SORTED_SIGNALS[k]]);
                    put_f64_array(sig + (size_t)SORTED_SIGNALS[k] * n, n);
                }
            }
        }
        for (int j = 0; j < 9; j++) free(col[j]);
        free(names);
        free(types);
        free(action);
        free(score);
        free(sig);
        break;
    }
    case OP_REPRIEVE_SCORE: {
        double e;
        a = rd_f64();
        b = rd_f64();
        c = rd_f64();
        d = rd_f64();
        e = rd_f64();
        put_num(md_reprieve_score(a, b, c, d, e));
        break;
    }
    case OP_SHOULD_REPRIEVE:
        a = rd_f64();
        b = rd_f64();
        c = rd_f64();
        put_bool(md_should_reprieve(a, b, c, rd_f64()));
        break;
    case OP_PAGERANK:
    case OP_LABEL_PROPAGATION:
    case OP_BRIDGE_COUNTS:
    case OP_GRAPH:
    case OP_BUILD_GRAPH: {
        graph_arg ga;
        md_graph *g = NULL;
        rd_graph(&ga);
        md_pagerank_options po;
        md_pagerank_options_default(&po);
        double lp_min = MD_MIN_COMMUNITY_SIZE, lp_sweeps = MD_LABEL_PROPAGATION_MAX_SWEEPS;
        md_str *seed_keys = NULL;
        double *seed_w = NULL;
        size_t *seed_nodes = NULL;
        uint32_t *labels = NULL;
        if (op == OP_PAGERANK) {
            po.damping = rd_f64();
            po.max_iterations = rd_f64();
            po.tolerance = rd_f64();
            po.has_seeds = rd_f64() != 0;
            seed_keys = rd_strs(&n);
            seed_w = rd_f64s(&m);
            if (m != n) die("seeds: lengths differ");
            po.n_seeds = n;
            po.seed_weights = seed_w;
        } else if (op == OP_LABEL_PROPAGATION) {
            lp_min = rd_f64();
            lp_sweeps = rd_f64();
        } else if (op == OP_BRIDGE_COUNTS) {
            labels = rd_u32s(&n);
            if (n != ga.n) die("bridgeCounts: one label per input node");
        }
        st = md_graph_new(ga.nodes, ga.n, ga.edges, ga.m, &g);
        size_t nn = md_graph_node_count(g);
        double *scores = xmalloc(nn * sizeof *scores), *scores2 = xmalloc(nn * sizeof *scores2);
        size_t *comm = xmalloc(nn * sizeof *comm), *counts = xmalloc(nn * sizeof *counts);
        if (st == MD_OK && op == OP_PAGERANK) {
            seed_nodes = xmalloc(po.n_seeds * sizeof *seed_nodes);
            for (size_t i = 0; i < po.n_seeds; i++)
                if (!md_graph_find(g, seed_keys[i], &seed_nodes[i])) seed_nodes[i] = MD_GRAPH_NONE;
            po.seed_nodes = seed_nodes;
            st = md_graph_pagerank(g, &po, scores);
            if (st != MD_OK) put_error(st);
            else put_node_map_nums(g, scores);
        } else if (st == MD_OK && op == OP_LABEL_PROPAGATION) {
            st = md_graph_label_propagation(g, lp_min, lp_sweeps, comm);
            if (st != MD_OK) put_error(st);
            else put_node_map_labels(g, comm);
        } else if (st == MD_OK && op == OP_BRIDGE_COUNTS) {
            for (size_t i = 0; i < nn; i++) {
                uint32_t l = labels[md_graph_node_input(g, i)];
                comm[i] = l == 0xffffffffu ? MD_GRAPH_NONE : l;
            }
            st = md_graph_bridge_counts(g, comm, counts);
            if (st != MD_OK) put_error(st);
            else put_node_map_counts(g, counts);
        } else if (st == MD_OK) { /* the Graph handle, as corpus.js's callExport runs it */
            md_pagerank_options p2;
            md_pagerank_options_default(&p2);
            p2.damping = 0.5;
            p2.max_iterations = 20;
            st = md_graph_label_propagation(g, 2, MD_LABEL_PROPAGATION_MAX_SWEEPS, comm);
            if (st == MD_OK) st = md_graph_pagerank(g, &po, scores);
            if (st == MD_OK) st = md_graph_pagerank(g, &p2, scores2);
            if (st == MD_OK) st = md_graph_bridge_counts(g, comm, counts);
            if (st != MD_OK) put_error(st);
            else {
                put_count('o', 7);
                put_cstr("bridges");
                put_node_map_counts(g, counts);
                put_cstr("edgeCount");
                put_num((double)md_graph_edge_count(g));
                put_cstr("lp");
                put_node_map_labels(g, comm);
                put_cstr("nodeCount");
                put_num((double)nn);
                put_cstr("nodes");
                put_count('a', nn);
                for (size_t i = 0; i < nn; i++) put_str(md_graph_node(g, i));
                put_cstr("pagerank");
                put_node_map_nums(g, scores);
                put_cstr("scores");
                put_f64_array(scores2, nn);
            }
        } else put_error(st);
        md_graph_free(g);
        free(scores);
        free(scores2);
        free(comm);
        free(counts);
        free(seed_keys);
        free(seed_w);
        free(seed_nodes);
        free(labels);
        free_graph_arg(&ga);
        break;
    }
    case OP_TOP_NEIGHBOR_PAIRS: {
        vectors_arg va;
        rd_vectors(&va);
        md_neighbor_options o = rd_nopts();
        md_neighbor_pairs p = {0, NULL};
        st = md_top_neighbor_pairs(va.v, va.n, o, &p);
        md_str *keys = calloc(va.n + 1, sizeof *keys);
        if (!keys) die("out of memory");
        for (size_t i = 0; i < va.n; i++) keys[i] = va.v[i].key;
        put_pairs(st, &p, keys);
        md_neighbor_pairs_free(&p);
        free(keys);
        free_vectors(&va);
        break;
    }
    case OP_RANK_CANDIDATE_PAIRS: {
        md_str *ps = rd_strs(&n), *pd = rd_strs(&m);
        if (m != n) die("rankCandidatePairs: pair lengths differ");
        md_candidate_pair *cp = xmalloc(n * sizeof *cp);
        for (size_t i = 0; i < n; i++) {
            cp[i].src = ps[i];
            cp[i].dst = pd[i];
        }
        vectors_arg va;
        rd_vectors(&va);
        md_neighbor_options o = rd_nopts();
        md_neighbor_pairs p = {0, NULL};
        st = md_rank_candidate_pairs(cp, n, va.v, va.n, o, &p);
        md_str *keys = calloc(va.n + 1, sizeof *keys);
        if (!keys) die("out of memory");
        for (size_t i = 0; i < va.n; i++) keys[i] = va.v[i].key;
        put_pairs(st, &p, keys);
        md_neighbor_pairs_free(&p);
        free(keys);
        free_vectors(&va);
        free(cp);
        free(ps);
        free(pd);
        break;
    }
    case OP_TOP_NEIGHBOR_PAIRS_PACKED: {
        float *mat = rd_f32s(&m);
        md_str *keys = rd_strs(&n);
        size_t dim = (size_t)rd_f64();
        md_neighbor_options o = rd_nopts();
        md_neighbor_pairs p = {0, NULL};
        size_t dup = 0;
        st = md_top_neighbor_pairs_packed(mat, n, dim, keys, o, &p, &dup);
        put_pairs(st, &p, keys);
        md_neighbor_pairs_free(&p);
        free(mat);
        free(keys);
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

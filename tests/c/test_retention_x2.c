/* retention's two-lane batch kernel (src/f64x2.h: SSE2 / vector extensions
 * here, wasm SIMD128 in the wasm builds) against its scalar twin, bit for bit:
 * mdi_retention_score_pair on memories (i, i + 1) and
 * mdi_retention_score_column on each alone must write the same score and
 * signal bits and the same action. Signals and actions are compared with
 * memcmp; a score is compared with memcmp too, except that two NaN scores
 * match whatever their payloads (wasm leaves NaN payloads unspecified, so
 * JavaScript cannot rely on them; none of the design's scores is NaN unless an
 * input is). Inputs: random spreads, edge values (NaN, +-Inf, +-0, huge, tiny,
 * negative counts, word counts around 10, max_graph_rank 0 / negative / NaN),
 * every memory type, policies with odd weights (negative, NaN, huge: outside
 * md_retention_policy_check, which the kernel does not need) so the composite
 * lands on Math.round's half-way cases on both sides of zero. Then the public
 * batch (kernel plus scalar tail, odd and even n) against md_score_retention. */
#include "internal.h"
#include "check.h"

#include <float.h>

#define MAXN 67

static double edge_value(check_rng *r) {
    static const double E[] = {
        NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, 2.5, 0.49999999999999994,
        DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, 4.9e-324, -4.9e-324, 1e300, 1e-300, 9.999999999999998, 10.0,
        10.000000000000002, 9.5, 100.0, 99.99999999999999, 1e15, 4503599627370497.0, 3.0, 5.0, 0.00005,
        0.12345, 0.99995, -0.00005, -0.12345, 1.00005, 0.30000000000000004,
    };
    return E[rng_below(r, sizeof E / sizeof E[0])];
}

/* A column value: random in [lo, hi), an edge value, or a value x.xxxx5 away
 * from a multiple of 10^-4 (Math.round's half-way cases once weighted by 1). */
static double value(check_rng *r, double lo, double hi) {
    switch (rng_below(r, 8)) {
    case 0: case 1: return edge_value(r);
    case 2: return ((double)(int64_t)rng_range(r, -20000, 20000) + 0.5) / 10000;
    case 3: return -rng_range(r, lo, hi);
    case 4: return rng_range(r, lo, hi) * 1e8;
    case 5: return (double)(int64_t)rng_range(r, lo, hi);
    default: return rng_range(r, lo, hi);
    }
}

typedef struct {
    uint8_t type[MAXN];
    double col[9][MAXN];
    md_retention_columns c;
} batch;

static void fill(batch *b, check_rng *r, size_t n, size_t n_classes) {
    static const double LO[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const double HI[9] = {400, 20, 1, 1, 1, 8, 8, 30, 5};
    for (size_t i = 0; i < n; i++) {
        b->type[i] = (uint8_t)rng_below(r, n_classes);
        for (int f = 0; f < 9; f++) b->col[f][i] = value(r, LO[f], HI[f]);
        if (rng_below(r, 4) == 0) b->col[3][i] = b->col[4][i] * rng_unit(r); /* graph_rank <= max */
        if (rng_below(r, 6) == 0) b->col[7][i] = 10 + (double)rng_below(r, 3) - 1; /* 9, 10, 11 words */
    }
    md_retention_columns c = {n, b->type, b->col[0], b->col[1], b->col[2], b->col[3], b->col[4],
                              b->col[5], b->col[6], b->col[7], b->col[8]};
    b->c = c;
}

static double weight(check_rng *r) {
    switch (rng_below(r, 10)) {
    case 0: return edge_value(r);
    case 1: return 0;
    case 2: return -rng_unit(r);
    case 3: return 1;
    default: return rng_unit(r) * 0.3;
    }
}

static int same_score(double a, double b) { return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0; }

/* Kernel on every pair, twin on every memory; both must agree bit for bit. */
static void compare(const batch *b, const md_retention_policy *p, int with_signals) {
    size_t n = b->c.n;
    double s1[MAXN], s2[MAXN], g1[8 * MAXN], g2[8 * MAXN];
    uint8_t a1[MAXN], a2[MAXN];
    for (size_t i = 0; i + 1 < n; i += 2)
        mdi_retention_score_pair(&b->c, p, i, s1, a1, with_signals ? g1 : NULL);
    for (size_t i = 0; i < n; i++) mdi_retention_score_column(&b->c, p, i, s2, a2, with_signals ? g2 : NULL);
    size_t m = n & ~(size_t)1;
    int ok = 1;
    for (size_t i = 0; i < m; i++) {
        if (!same_score(s1[i], s2[i]) || a1[i] != a2[i]) {
            ok = 0;
            fprintf(stderr, "memory %zu type %u: pair %.17g/%u, scalar %.17g/%u\n", i, b->type[i], s1[i], a1[i], s2[i],
                    a2[i]);
        }
        if (with_signals)
            for (int k = 0; k < MD_SIGNAL_COUNT; k++)
                if (memcmp(&g1[(size_t)k * n + i], &g2[(size_t)k * n + i], sizeof(double)) != 0) {
                    ok = 0;
                    fprintf(stderr, "memory %zu signal %d: pair %.17g, scalar %.17g\n", i, k, g1[(size_t)k * n + i],
                            g2[(size_t)k * n + i]);
                }
    }
    CHECK(ok);
}

int main(void) {
    check_rng r = {0x13f};
    static batch b;
    int iters = check_iters(3000);

    /* The design's classes and thresholds. */
    for (int it = 0; it < iters; it++) {
        fill(&b, &r, 2 + rng_below(&r, MAXN - 1), MD_MEMORY_TYPE_COUNT);
        compare(&b, &md_default_retention_policy, it & 1);
    }

    /* Policies with odd weights, half-lives and thresholds; some classes put
     * all the weight on confidence (weight 1 or -1), so the composite is
     * Math.round(+-confidence * 10^4) / 10^4 and hits the half-way cases. */
    md_retention_class cls[12];
    for (int it = 0; it < iters; it++) {
        size_t nc = 1 + rng_below(&r, 12);
        for (size_t k = 0; k < nc; k++) {
            for (int s = 0; s < MD_SIGNAL_COUNT; s++) cls[k].weights.weight[s] = weight(&r);
            if (rng_below(&r, 3) == 0) {
                for (int s = 0; s < MD_SIGNAL_COUNT; s++) cls[k].weights.weight[s] = 0;
                cls[k].weights.weight[MD_SIGNAL_CONFIDENCE] = rng_below(&r, 2) ? 1 : -1;
            }
            double h[] = {0, 10, 90, 1e-300, 1e300, INFINITY, NAN, -5};
            cls[k].half_life_days = rng_below(&r, 2) ? rng_range(&r, 0, 400) : h[rng_below(&r, 8)];
        }
        double keep = rng_below(&r, 4) ? rng_range(&r, 0, 1) : edge_value(&r);
        md_retention_policy p = {cls, nc, keep, keep - rng_unit(&r)};
        fill(&b, &r, 2 + rng_below(&r, MAXN - 1), nc);
        compare(&b, &p, it & 1);
    }

    /* Exact half-way composites, both signs: confidence c with weight +-1
     * scores Math.round(+-c * 10^4) / 10^4. */
    {
        for (int s = 0; s < MD_SIGNAL_COUNT; s++) cls[0].weights.weight[s] = cls[1].weights.weight[s] = 0;
        cls[0].weights.weight[MD_SIGNAL_CONFIDENCE] = 1;
        cls[1].weights.weight[MD_SIGNAL_CONFIDENCE] = -1;
        cls[0].half_life_days = cls[1].half_life_days = 0;
        md_retention_policy p = {cls, 2, 0.7, 0.4};
        size_t n = MAXN;
        for (size_t i = 0; i < n; i++) {
            b.type[i] = (uint8_t)(i & 1);
            for (int f = 0; f < 9; f++) b.col[f][i] = 0;
            b.col[2][i] = ((double)(i / 2) + 0.5) / 10000; /* 0.00005, 0.00015, ... */
        }
        b.col[2][0] = b.col[2][1] = 0.49999999999999994;
        b.col[2][2] = b.col[2][3] = -0.0;
        md_retention_columns c = {n, b.type, b.col[0], b.col[1], b.col[2], b.col[3], b.col[4],
                                  b.col[5], b.col[6], b.col[7], b.col[8]};
        b.c = c;
        compare(&b, &p, 1);
        double s[MAXN];
        uint8_t a[MAXN];
        /* Node: Math.round(0.00025 * 1e4) / 1e4 is 0.0003, Math.round(-0.00025 * 1e4) / 1e4 is -0.0002 */
        mdi_retention_score_pair(&b.c, &p, 4, s, a, NULL); /* confidence 0.00025 weighted +1 and -1 */
        CHECK_SAME(s[4], 0.0003);
        CHECK_SAME(s[5], -0.0002);
        mdi_retention_score_pair(&b.c, &p, 2, s, a, NULL); /* -0 confidence clamps to +0; 0 + -0 is +0 */
        CHECK_SAME(s[2], 0.0);
        CHECK_SAME(s[3], 0.0);
    }

    /* The public batch (pairs, then the scalar tail for odd n) against
     * md_score_retention one memory at a time. */
    for (int it = 0; it < iters / 4; it++) {
        size_t n = rng_below(&r, MAXN + 1);
        fill(&b, &r, n, MD_MEMORY_TYPE_COUNT);
        double score[MAXN], sig[8 * MAXN];
        uint8_t action[MAXN];
        int with = it & 1;
        CHECK(md_score_retention_many(&b.c, score, action, with ? sig : NULL) == MD_OK);
        int ok = 1;
        for (size_t i = 0; i < n; i++) {
            md_retention_input in = {(md_memory_type)b.type[i], b.col[0][i], b.col[1][i], b.col[2][i], b.col[3][i],
                                     b.col[4][i], b.col[5][i], b.col[6][i], b.col[7][i], b.col[8][i]};
            md_retention_score one;
            if (md_score_retention(&in, &one) != MD_OK || !same_score(score[i], one.score) ||
                action[i] != (uint8_t)one.action)
                ok = 0;
            if (with)
                for (int k = 0; k < MD_SIGNAL_COUNT; k++)
                    if (memcmp(&sig[(size_t)k * n + i], &one.signals.value[k], sizeof(double)) != 0) ok = 0;
        }
        CHECK(ok);
    }
    return check_report("retention_x2");
}

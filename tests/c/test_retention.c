/* retention: the design's invariants as properties over seeded random inputs,
 * plus the exact-boundary facts the design states. Values from the golden
 * files are not repeated here: the golden suite checks those through JS. */
#include "memdomain.h"
#include "check.h"

#include <float.h>
#include <stdlib.h>

static md_str S(const char *s) { md_str r = {s, strlen(s)}; return r; }

static const md_memory_type ALL_TYPES[MD_MEMORY_TYPE_COUNT] = {
    MD_MEMORY_EPISODIC, MD_MEMORY_SEMANTIC, MD_MEMORY_PROCEDURAL, MD_MEMORY_ARC,
    MD_MEMORY_ERROR_PATTERN, MD_MEMORY_TASK, MD_MEMORY_OTHER,
};

/* A value from a spread that includes specials and out-of-contract inputs. */
static double wild(check_rng *r, double lo, double hi) {
    switch (rng_below(r, 16)) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return 0.0;
    case 4: return -0.0;
    case 5: return -rng_range(r, 0, hi);
    case 6: return rng_range(r, lo, hi) * 1e6;
    case 7: return (double)(int64_t)rng_range(r, lo, hi);
    default: return rng_range(r, lo, hi);
    }
}

static md_retention_input random_input(check_rng *r, int allow_wild) {
    md_retention_input in;
    in.memory_type = ALL_TYPES[rng_below(r, MD_MEMORY_TYPE_COUNT)];
    double (*g)(check_rng *, double, double) = allow_wild ? wild : rng_range;
    in.age_days = g(r, 0, 400);
    in.access_count = g(r, 0, 20);
    in.confidence = g(r, 0, 1);
    in.max_graph_rank = g(r, 0, 1);
    in.graph_rank = allow_wild ? g(r, 0, 1) : in.max_graph_rank * rng_unit(r);
    in.bridge_count = g(r, 0, 8);
    in.reinforcement_count = g(r, 0, 8);
    in.word_count = g(r, 0, 200);
    in.contradiction_count = g(r, 0, 5);
    return in;
}

static void test_types(void) {
    CHECK(md_memory_type_of(S("episodic")) == MD_MEMORY_EPISODIC);
    CHECK(md_memory_type_of(S("semantic")) == MD_MEMORY_SEMANTIC);
    CHECK(md_memory_type_of(S("procedural")) == MD_MEMORY_PROCEDURAL);
    CHECK(md_memory_type_of(S("arc")) == MD_MEMORY_ARC);
    CHECK(md_memory_type_of(S("error_pattern")) == MD_MEMORY_ERROR_PATTERN);
    CHECK(md_memory_type_of(S("task")) == MD_MEMORY_TASK);
    /* an own-key lookup: inherited names and near misses are ordinary unknown types */
    const char *others[] = {"toString", "__proto__", "constructor", "hasOwnProperty", "Episodic",
                            "episodic ", "ar", "error-pattern", "", "task\xe2\x80\x8b"};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        CHECK(md_memory_type_of(S(others[i])) == MD_MEMORY_OTHER);
    md_str embedded_nul = {"arc\0x", 4};
    CHECK(md_memory_type_of(embedded_nul) == MD_MEMORY_OTHER);
    md_str bad = {NULL, 3};
    CHECK(md_memory_type_of(bad) == MD_MEMORY_OTHER);
    md_str empty = {NULL, 0};
    CHECK(md_memory_type_of(empty) == MD_MEMORY_OTHER);

    md_str names[3] = {S("semantic"), S("toString"), S("task")};
    uint8_t codes[3];
    CHECK(md_memory_types_of(names, 3, codes) == MD_OK);
    CHECK(codes[0] == MD_MEMORY_SEMANTIC && codes[1] == MD_MEMORY_OTHER && codes[2] == MD_MEMORY_TASK);
    CHECK(md_memory_types_of(NULL, 3, codes) == MD_ERR_NULL);
    CHECK(md_memory_types_of(names, 3, NULL) == MD_ERR_NULL);
    CHECK(md_memory_types_of(NULL, 0, NULL) == MD_OK);

    /* profiles: the five typed ones, default for task and others (and out-of-enum values) */
    for (int t = 0; t < 5; t++) CHECK(md_weights_for((md_memory_type)t) == &md_weight_profiles[t]);
    CHECK(md_weights_for(MD_MEMORY_TASK) == &md_default_weights);
    CHECK(md_weights_for(MD_MEMORY_OTHER) == &md_default_weights);
    CHECK(md_weights_for((md_memory_type)99) == &md_default_weights);
    CHECK(md_weight_profiles[MD_MEMORY_PROCEDURAL].weight[MD_SIGNAL_RECENCY] == 0); /* a procedure does not stale */

    /* half-lives: null for procedural and task */
    double d = -1;
    CHECK(!md_half_life_for(MD_MEMORY_PROCEDURAL, &d) && d == -1);
    CHECK(!md_half_life_for(MD_MEMORY_TASK, NULL));
    CHECK(md_half_life_for(MD_MEMORY_EPISODIC, &d) && d == 10);
    CHECK(md_half_life_for(MD_MEMORY_SEMANTIC, &d) && d == 90);
    CHECK(md_half_life_for(MD_MEMORY_ARC, &d) && d == 30);
    CHECK(md_half_life_for(MD_MEMORY_ERROR_PATTERN, &d) && d == 14);
    CHECK(md_half_life_for(MD_MEMORY_OTHER, &d) && d == MD_DEFAULT_HALF_LIFE_DAYS);
    CHECK(md_half_life_for((md_memory_type)99, &d) && d == MD_DEFAULT_HALF_LIFE_DAYS);
    CHECK(strcmp(md_signal_names[MD_SIGNAL_CONTESTED_STATUS], "contestedStatus") == 0);
    CHECK(strcmp(md_triage_actions[MD_ACTION_COMPRESS], "compress") == 0);
}

static void test_profiles_sum_to_one(void) {
    for (int t = 0; t < MD_MEMORY_TYPE_COUNT; t++) {
        const md_weight_profile *p = md_weights_for(ALL_TYPES[t]);
        CHECK_SAME(md_profile_weight_sum(p), 1.0);
        for (int k = 0; k < MD_SIGNAL_COUNT; k++) CHECK(p->weight[k] >= 0);
    }
    /* compensation matters: the naive left-to-right sum is off for some profile */
    int naive_off = 0;
    for (int t = 0; t < 5; t++) {
        double s = 0;
        for (int k = 0; k < MD_SIGNAL_COUNT; k++) s += md_weight_profiles[t].weight[k];
        if (s != 1.0) naive_off++;
    }
    double s = 0;
    for (int k = 0; k < MD_SIGNAL_COUNT; k++) s += md_default_weights.weight[k];
    if (s != 1.0) naive_off++;
    CHECK(naive_off == 2); /* the design: "0.9999999999999999 for two of the six" */
    CHECK(isnan(md_profile_weight_sum(NULL)));
}

static void test_bands(void) {
    /* the boundaries belong to the lower band */
    CHECK(md_band_for(0.7) == MD_ACTION_COMPRESS);
    CHECK(md_band_for(nextafter(0.7, 1)) == MD_ACTION_KEEP);
    CHECK(md_band_for(0.3) == MD_ACTION_EVICT);
    CHECK(md_band_for(nextafter(0.3, 1)) == MD_ACTION_COMPRESS);
    CHECK(md_band_for(NAN) == MD_ACTION_EVICT);
    CHECK(md_band_for(0) == MD_ACTION_EVICT && md_band_for(1) == MD_ACTION_KEEP);
    /* a partition of [0, 1]: each score has one band, and bands are monotone in the score */
    check_rng r = {42};
    int bad = 0;
    for (int i = 0; i < check_iters(100000); i++) {
        double a = rng_unit(&r), b = rng_unit(&r);
        if (a > b) { double t = a; a = b; b = t; }
        md_triage_action x = md_band_for(a), y = md_band_for(b);
        if ((int)x < (int)y) bad++; /* a higher score never lands in a lower band */
        int keep = a > 0.7, evict = a <= 0.3, compress = !keep && !evict;
        if ((x == MD_ACTION_KEEP) != keep || (x == MD_ACTION_EVICT) != evict || (x == MD_ACTION_COMPRESS) != compress) bad++;
    }
    CHECK(bad == 0);
}

static void test_signals(void) {
    /* recency is exactly 0.5 at the half-life and 0.25 at twice it */
    for (int t = 0; t < MD_MEMORY_TYPE_COUNT; t++) {
        double h;
        if (!md_half_life_for(ALL_TYPES[t], &h)) continue;
        md_retention_input in = {ALL_TYPES[t], h, 0, 0, 0, 0, 0, 0, 0, 0};
        md_signals s;
        CHECK(md_compute_signals(&in, &s) == MD_OK);
        CHECK_SAME(s.value[MD_SIGNAL_RECENCY], 0.5);
        in.age_days = 2 * h;
        md_compute_signals(&in, &s);
        CHECK_SAME(s.value[MD_SIGNAL_RECENCY], 0.25);
        in.age_days = 0;
        md_compute_signals(&in, &s);
        CHECK_SAME(s.value[MD_SIGNAL_RECENCY], 1.0);
    }
    /* no decay for procedural and task, whatever the age */
    md_retention_input in = {MD_MEMORY_PROCEDURAL, 1e9, 0, 0, 0, 0, 0, 0, 0, 0};
    md_signals s;
    md_compute_signals(&in, &s);
    CHECK_SAME(s.value[MD_SIGNAL_RECENCY], 1.0);
    /* content density joins the line exactly at 10 words: 0.1 on both sides */
    in.word_count = 10;
    md_compute_signals(&in, &s);
    CHECK_SAME(s.value[MD_SIGNAL_CONTENT_DENSITY], 0.1);
    in.word_count = 9;
    md_compute_signals(&in, &s);
    CHECK_SAME(s.value[MD_SIGNAL_CONTENT_DENSITY], 81.0 / 1000);
    /* maxGraphRank <= 0 or NaN: pagerank 0 */
    in.graph_rank = 0.5;
    in.max_graph_rank = 0;
    md_compute_signals(&in, &s);
    CHECK_SAME(s.value[MD_SIGNAL_PAGERANK], 0.0);
    in.max_graph_rank = NAN;
    md_compute_signals(&in, &s);
    CHECK_SAME(s.value[MD_SIGNAL_PAGERANK], 0.0);
    /* NaN propagates through Math.min/max: a NaN confidence is a NaN signal, and the score evicts */
    in.confidence = NAN;
    md_retention_score rs;
    CHECK(md_score_retention(&in, &rs) == MD_OK);
    CHECK(isnan(rs.signals.value[MD_SIGNAL_CONFIDENCE]));
    CHECK(isnan(rs.score) && rs.action == MD_ACTION_EVICT);
    CHECK(md_compute_signals(NULL, &s) == MD_ERR_NULL && md_compute_signals(&in, NULL) == MD_ERR_NULL);
    CHECK(md_score_retention(NULL, &rs) == MD_ERR_NULL && md_score_retention(&in, NULL) == MD_ERR_NULL);

    /* every signal and the composite lie in [0, 1] for in-contract inputs; the
     * composite is on the 10^-4 grid and the action is its band */
    check_rng r = {7};
    int bad = 0;
    for (int i = 0; i < check_iters(200000); i++) {
        md_retention_input x = random_input(&r, 0);
        md_score_retention(&x, &rs);
        for (int k = 0; k < MD_SIGNAL_COUNT; k++)
            if (!(rs.signals.value[k] >= 0 && rs.signals.value[k] <= 1)) bad++;
        if (!(rs.score >= 0 && rs.score <= 1)) bad++;
        if (md_js_round(rs.score * 10000) / 10000 != rs.score) bad++;
        if (rs.action != md_band_for(rs.score)) bad++;
        double c;
        md_composite_score(&rs.signals, md_weights_for(x.memory_type), &c);
        if (!same_bits(c, rs.score)) bad++;
    }
    CHECK(bad == 0);
    /* the composite of all-ones signals is exactly 1 under every profile, all-zeros exactly 0 */
    md_signals ones, zeros;
    for (int k = 0; k < MD_SIGNAL_COUNT; k++) { ones.value[k] = 1; zeros.value[k] = 0; }
    for (int t = 0; t < MD_MEMORY_TYPE_COUNT; t++) {
        double c;
        md_composite_score(&ones, md_weights_for(ALL_TYPES[t]), &c);
        CHECK_SAME(c, 1.0);
        md_composite_score(&zeros, md_weights_for(ALL_TYPES[t]), &c);
        CHECK_SAME(c, 0.0);
    }
    /* the composite is Math.round(compensatedSum(terms) * 10^4) / 10^4 with the
     * library's md_compensated_sum, bit for bit, for any signals and profile
     * (NaN, infinities, negative and huge weights included) */
    int differ = 0;
    for (int i = 0; i < check_iters(200000); i++) {
        md_signals sg;
        md_weight_profile wp;
        double terms[MD_SIGNAL_COUNT], sum, got;
        for (int k = 0; k < MD_SIGNAL_COUNT; k++) {
            sg.value[k] = (i & 1) ? wild(&r, 0, 1) : rng_unit(&r);
            wp.weight[k] = (i & 2) ? wild(&r, -1, 1) * ((i & 4) ? 1e16 : 1) : rng_unit(&r);
            terms[k] = sg.value[k] * wp.weight[k];
        }
        md_compensated_sum(terms, MD_SIGNAL_COUNT, &sum);
        md_composite_score(&sg, &wp, &got);
        if (!same_bits(got, md_js_round(sum * 10000) / 10000)) differ++;
    }
    CHECK(differ == 0);
    double c;
    CHECK(md_composite_score(NULL, &md_default_weights, &c) == MD_ERR_NULL);
    CHECK(md_composite_score(&ones, NULL, &c) == MD_ERR_NULL);
    CHECK(md_composite_score(&ones, &md_default_weights, NULL) == MD_ERR_NULL);
}

/* n random memories (wild values included), type codes below n_types: as columns (the
 * buffers allocated here, released with free_columns) and as inputs in `*ins`. */
static md_retention_columns random_columns(check_rng *r, size_t n, unsigned n_types, md_retention_input **ins) {
    uint8_t *types = malloc(n);
    double *cols[9];
    for (int k = 0; k < 9; k++) cols[k] = malloc(n * sizeof(double));
    *ins = malloc(n * sizeof **ins);
    for (size_t i = 0; i < n; i++) {
        md_retention_input x = random_input(r, 1);
        x.memory_type = (md_memory_type)rng_below(r, n_types);
        (*ins)[i] = x;
        types[i] = (uint8_t)x.memory_type;
        double v[9] = {x.age_days, x.access_count, x.confidence, x.graph_rank, x.max_graph_rank,
                       x.bridge_count, x.reinforcement_count, x.word_count, x.contradiction_count};
        for (int k = 0; k < 9; k++) cols[k][i] = v[k];
    }
    md_retention_columns c = {n, types, cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7], cols[8]};
    return c;
}

static void free_columns(md_retention_columns *c, md_retention_input *ins) {
    free((void *)c->memory_type);
    const double *cols[9] = {c->age_days, c->access_count, c->confidence, c->graph_rank, c->max_graph_rank,
                             c->bridge_count, c->reinforcement_count, c->word_count, c->contradiction_count};
    for (int k = 0; k < 9; k++) free((void *)cols[k]);
    free(ins);
}

static void test_batch(void) {
    enum { N = 5000 };
    check_rng r = {99};
    md_retention_input *ins;
    md_retention_columns c = random_columns(&r, N, MD_MEMORY_TYPE_COUNT, &ins);
    uint8_t *types = (uint8_t *)c.memory_type;
    double *score = malloc(N * sizeof(double)), *sig = malloc(8 * N * sizeof(double)), *score2 = malloc(N * sizeof(double));
    uint8_t *action = malloc(N), *action2 = malloc(N);
    CHECK(md_score_retention_many(&c, score, action, sig) == MD_OK);
    CHECK(md_score_retention_many(&c, score2, action2, NULL) == MD_OK);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        md_retention_score one;
        md_score_retention(&ins[i], &one);
        if (!same_bits(one.score, score[i]) || one.action != action[i]) bad++;
        if (!same_bits(score2[i], score[i]) || action2[i] != action[i]) bad++;
        for (int k = 0; k < MD_SIGNAL_COUNT; k++)
            if (!same_bits(one.signals.value[k], sig[(size_t)k * N + i])) bad++;
    }
    CHECK(bad == 0);
    /* statuses */
    CHECK(md_score_retention_many(NULL, score, action, NULL) == MD_ERR_NULL);
    CHECK(md_score_retention_many(&c, NULL, action, NULL) == MD_ERR_NULL);
    CHECK(md_score_retention_many(&c, score, NULL, NULL) == MD_ERR_NULL);
    md_retention_columns missing = c;
    missing.word_count = NULL;
    CHECK(md_score_retention_many(&missing, score, action, NULL) == MD_ERR_NULL);
    types[N / 2] = MD_MEMORY_TYPE_COUNT;
    CHECK(md_score_retention_many(&c, score, action, NULL) == MD_ERR_INVALID);
    md_retention_columns empty = {0};
    CHECK(md_score_retention_many(&empty, NULL, NULL, NULL) == MD_OK);
    free(score); free(score2); free(sig); free(action); free(action2);
    free_columns(&c, ins);
}

/* A random policy: n classes with random non-negative weights (not summing to
 * 1), half-lives in (0, 200] or 0 (no decay), and thresholds in order. */
static void random_policy(check_rng *r, md_retention_class *classes, size_t n, md_retention_policy *p) {
    for (size_t c = 0; c < n; c++) {
        for (int k = 0; k < MD_SIGNAL_COUNT; k++) classes[c].weights.weight[k] = rng_below(r, 5) ? rng_unit(r) * 0.3 : 0;
        classes[c].half_life_days = rng_below(r, 4) ? rng_range(r, 0.01, 200) : 0;
    }
    double a = rng_range(r, -0.2, 1.2), b = rng_range(r, -0.2, 1.2);
    p->classes = classes;
    p->n_classes = n;
    p->keep_threshold = a > b ? a : b;
    p->evict_threshold = a > b ? b : a;
}

static void test_policy(void) {
    check_rng r = {1530};
    int bad = 0;
    /* the design's policy is md_score_retention, bit for bit, for every type code (and out-of-enum codes) */
    CHECK(md_retention_policy_check(&md_default_retention_policy) == MD_OK);
    for (int t = 0; t < MD_MEMORY_TYPE_COUNT; t++) {
        double h;
        bool decays = md_half_life_for(ALL_TYPES[t], &h);
        CHECK(decays ? md_default_retention_classes[t].half_life_days == h : md_default_retention_classes[t].half_life_days == 0);
        CHECK(memcmp(&md_default_retention_classes[t].weights, md_weights_for(ALL_TYPES[t]), sizeof(md_weight_profile)) == 0);
    }
    for (int i = 0; i < check_iters(100000); i++) {
        md_retention_input x = random_input(&r, 1);
        md_retention_score a, b;
        CHECK(md_score_retention(&x, &a) == MD_OK);
        if (md_score_retention_policy(&x, &md_default_retention_policy, &b) != MD_OK) { bad++; continue; }
        if (!same_bits(a.score, b.score) || a.action != b.action) bad++;
        for (int k = 0; k < MD_SIGNAL_COUNT; k++) if (!same_bits(a.signals.value[k], b.signals.value[k])) bad++;
    }
    CHECK(bad == 0);

    /* a tuned policy with a class of its own (code 7) agrees with the arithmetic spelled out:
     * recency on the class's half-life, the other signals as computeSignals gives them,
     * compositeScore under the class's weights, the bands at the policy's thresholds */
    enum { NC = MD_MEMORY_TYPE_COUNT + 1 };
    md_retention_class classes[NC];
    md_retention_policy p;
    for (int round = 0; round < 200; round++) {
        random_policy(&r, classes, NC, &p);
        for (int i = 0; i < 200; i++) {
            md_retention_input x = random_input(&r, i % 4 == 0);
            x.memory_type = (md_memory_type)rng_below(&r, NC);
            md_retention_score got;
            if (md_score_retention_policy(&x, &p, &got) != MD_OK) { bad++; continue; }
            const md_retention_class *c = &classes[x.memory_type];
            md_retention_input other = x;
            other.memory_type = MD_MEMORY_PROCEDURAL; /* no decay: recency is replaced below */
            md_signals want;
            md_compute_signals(&other, &want);
            double h = c->half_life_days;
            double rec = (h == 0 || x.age_days <= 0) ? 1 : md_js_exp((-MD_LN2 * x.age_days) / h);
            want.value[MD_SIGNAL_RECENCY] = isnan(rec) ? rec : rec < 0 ? 0 : rec > 1 ? 1 : rec;
            double score;
            md_composite_score(&want, &c->weights, &score);
            md_triage_action action = score > p.keep_threshold ? MD_ACTION_KEEP
                                      : score > p.evict_threshold ? MD_ACTION_COMPRESS : MD_ACTION_EVICT;
            if (!same_bits(got.score, score) || got.action != action) bad++;
            for (int k = 0; k < MD_SIGNAL_COUNT; k++) if (!same_bits(got.signals.value[k], want.value[k])) bad++;
        }
    }
    CHECK(bad == 0);
    /* exactly 0.5 at a tuned half-life; the boundaries belong to the lower band */
    md_retention_class one[1] = {{{{1, 0, 0, 0, 0, 0, 0, 0}}, 7}};
    md_retention_policy p1 = {one, 1, 0.5, 0.25};
    md_retention_input at = {0, 7, 0, 0, 0, 0, 0, 0, 0, 0};
    md_retention_score s1;
    CHECK(md_score_retention_policy(&at, &p1, &s1) == MD_OK);
    CHECK_SAME(s1.signals.value[MD_SIGNAL_RECENCY], 0.5);
    CHECK_SAME(s1.score, 0.5);
    CHECK(s1.action == MD_ACTION_COMPRESS);
    at.age_days = 14;
    CHECK(md_score_retention_policy(&at, &p1, &s1) == MD_OK && s1.score == 0.25 && s1.action == MD_ACTION_EVICT);
    at.age_days = 0;
    CHECK(md_score_retention_policy(&at, &p1, &s1) == MD_OK && s1.score == 1 && s1.action == MD_ACTION_KEEP);
    /* equal thresholds: no compress band */
    p1.evict_threshold = 0.5;
    at.age_days = 7;
    CHECK(md_score_retention_policy(&at, &p1, &s1) == MD_OK && s1.action == MD_ACTION_EVICT);

    /* statuses: a bad policy is refused and out is untouched */
    md_retention_score untouched;
    memset(&untouched, 0x5a, sizeof untouched);
    md_retention_score before = untouched;
    md_retention_input x = random_input(&r, 0);
    x.memory_type = 0;
    CHECK(md_retention_policy_check(NULL) == MD_ERR_NULL);
    md_retention_policy nul = {NULL, 3, 0.7, 0.3};
    CHECK(md_retention_policy_check(&nul) == MD_ERR_NULL);
    md_retention_policy none = {NULL, 0, 0.7, 0.3};
    CHECK(md_retention_policy_check(&none) == MD_OK);
    CHECK(md_score_retention_policy(&x, &none, &untouched) == MD_ERR_INVALID); /* no class 0 */
    const double bad_values[] = {-1, -DBL_MIN, NAN, INFINITY, -INFINITY};
    for (size_t v = 0; v < sizeof bad_values / sizeof *bad_values; v++) {
        md_retention_class c1[1] = {md_default_retention_classes[0]};
        md_retention_policy q = {c1, 1, 0.7, 0.3};
        c1[0].weights.weight[v % MD_SIGNAL_COUNT] = bad_values[v];
        CHECK(md_retention_policy_check(&q) == MD_ERR_INVALID);
        CHECK(md_score_retention_policy(&x, &q, &untouched) == MD_ERR_INVALID);
        c1[0] = md_default_retention_classes[0];
        c1[0].half_life_days = bad_values[v];
        CHECK(md_retention_policy_check(&q) == MD_ERR_INVALID);
        c1[0] = md_default_retention_classes[0];
        q.keep_threshold = bad_values[v];
        CHECK(md_retention_policy_check(&q) == MD_ERR_INVALID); /* not finite, or below evict (0.3) */
        q.keep_threshold = 0.7;
        q.evict_threshold = bad_values[v];
        CHECK(md_retention_policy_check(&q) == (isfinite(bad_values[v]) ? MD_OK : MD_ERR_INVALID));
    }
    md_retention_policy crossed = md_default_retention_policy;
    crossed.evict_threshold = nextafter(crossed.keep_threshold, 1);
    CHECK(md_retention_policy_check(&crossed) == MD_ERR_INVALID);
    CHECK(md_score_retention_policy(&x, &crossed, &untouched) == MD_ERR_INVALID);
    crossed.evict_threshold = crossed.keep_threshold;
    CHECK(md_retention_policy_check(&crossed) == MD_OK);
    md_retention_class zero[1] = {{{{0}}, -0.0}}; /* -0 is >= 0: zero weights and no decay are valid */
    md_retention_policy zp = {zero, 1, 0.7, 0.3};
    CHECK(md_score_retention_policy(&x, &zp, &s1) == MD_OK && s1.score == 0 && s1.action == MD_ACTION_EVICT);
    CHECK(md_score_retention_policy(NULL, &md_default_retention_policy, &untouched) == MD_ERR_NULL);
    CHECK(md_score_retention_policy(&x, NULL, &untouched) == MD_ERR_NULL);
    CHECK(md_score_retention_policy(&x, &md_default_retention_policy, NULL) == MD_ERR_NULL);
    x.memory_type = MD_MEMORY_TYPE_COUNT;
    CHECK(md_score_retention_policy(&x, &md_default_retention_policy, &untouched) == MD_ERR_INVALID);
    CHECK(memcmp(&untouched, &before, sizeof before) == 0);
}

static void test_batch_policy(void) {
    enum { N = 3001, NC = 12 };
    check_rng r = {4242};
    md_retention_input *ins;
    md_retention_columns c = random_columns(&r, N, NC, &ins);
    uint8_t *types = (uint8_t *)c.memory_type;
    double *score = malloc(N * sizeof(double)), *sig = malloc(8 * N * sizeof(double));
    uint8_t *action = malloc(N);
    md_retention_class classes[NC];
    md_retention_policy p;
    int bad = 0;
    for (int round = 0; round < 20; round++) {
        random_policy(&r, classes, NC, &p);
        CHECK(md_score_retention_many_policy(&c, &p, score, action, round % 2 ? sig : NULL) == MD_OK);
        for (int i = 0; i < N; i++) {
            md_retention_score one;
            md_score_retention_policy(&ins[i], &p, &one);
            if (!same_bits(one.score, score[i]) || one.action != action[i]) bad++;
            if (round % 2)
                for (int k = 0; k < MD_SIGNAL_COUNT; k++)
                    if (!same_bits(one.signals.value[k], sig[(size_t)k * N + i])) bad++;
        }
    }
    CHECK(bad == 0);
    /* the design's policy is md_score_retention_many */
    for (int i = 0; i < N; i++) types[i] %= MD_MEMORY_TYPE_COUNT;
    double *score2 = malloc(N * sizeof(double));
    uint8_t *action2 = malloc(N);
    CHECK(md_score_retention_many(&c, score, action, NULL) == MD_OK);
    CHECK(md_score_retention_many_policy(&c, &md_default_retention_policy, score2, action2, NULL) == MD_OK);
    CHECK(memcmp(score, score2, N * sizeof(double)) == 0 && memcmp(action, action2, N) == 0);
    /* statuses */
    types[N - 1] = NC;
    CHECK(md_score_retention_many_policy(&c, &p, score, action, NULL) == MD_ERR_INVALID);
    types[N - 1] = 0;
    CHECK(md_score_retention_many_policy(&c, NULL, score, action, NULL) == MD_ERR_NULL);
    CHECK(md_score_retention_many_policy(NULL, &p, score, action, NULL) == MD_ERR_NULL);
    p.evict_threshold = p.keep_threshold + 0.1;
    CHECK(md_score_retention_many_policy(&c, &p, score, action, NULL) == MD_ERR_INVALID);
    free(score); free(score2); free(sig); free(action); free(action2);
    free_columns(&c, ins);
}

static void test_reprieve(void) {
    check_rng r = {2026};
    int bad = 0;
    for (int i = 0; i < check_iters(100000); i++) {
        double imp = rng_range(&r, -2, 14), acc = rng_range(&r, -5, 1000), out = rng_range(&r, -1, 1);
        double hrs = rng_range(&r, -10, 5000), rate = MD_SALIENCE_DECAY_RATE;
        double s = md_reprieve_score(imp, acc, out, hrs, rate);
        /* a sum of non-negative terms, above 0 whenever recency has not underflowed */
        if (!(s > 0)) bad++;
        /* monotone: non-decreasing in importance, access count and outcome, non-increasing in hours */
        double d = rng_range(&r, 0, 3);
        if (md_reprieve_score(imp + d, acc, out, hrs, rate) < s) bad++;
        if (md_reprieve_score(imp, acc + d, out, hrs, rate) < s) bad++;
        if (md_reprieve_score(imp, acc, out + d, hrs, rate) < s) bad++;
        if (md_reprieve_score(imp, acc, out, hrs + d, rate) > s) bad++;
        /* a negative outcome contributes exactly 0: the same bits as outcome 0 */
        if (!same_bits(md_reprieve_score(imp, acc, -rng_range(&r, 0, 10), hrs, rate), md_reprieve_score(imp, acc, 0, hrs, rate))) bad++;
        /* the kill switch never reprieves; the floor is inclusive; the cap is exclusive */
        double cnt = (double)rng_below(&r, 6);
        if (md_should_reprieve(s, cnt, MD_REPRIEVE_FLOOR, 0)) bad++;
        if (md_should_reprieve(s, cnt, MD_REPRIEVE_FLOOR, MD_MAX_REPRIEVES) != (s >= 0.5 && cnt < 3)) bad++;
    }
    CHECK(bad == 0);
    CHECK(md_should_reprieve(0.5, 0, MD_REPRIEVE_FLOOR, MD_MAX_REPRIEVES));
    CHECK(!md_should_reprieve(nextafter(0.5, 0), 0, MD_REPRIEVE_FLOOR, MD_MAX_REPRIEVES));
    CHECK(!md_should_reprieve(1, 3, MD_REPRIEVE_FLOOR, MD_MAX_REPRIEVES));
    CHECK(md_should_reprieve(1, 2, MD_REPRIEVE_FLOOR, MD_MAX_REPRIEVES));
    CHECK(!md_should_reprieve(NAN, 0, MD_REPRIEVE_FLOOR, MD_MAX_REPRIEVES));
    /* the importance clamp: 1..10, divided by 10 */
    CHECK_SAME(md_reprieve_score(-5, 0, 0, 0, 0.01), md_reprieve_score(1, 0, 0, 0, 0.01));
    CHECK_SAME(md_reprieve_score(50, 0, 0, 0, 0.01), md_reprieve_score(10, 0, 0, 0, 0.01));
    /* at the top of every clamp and no elapsed time, the coefficients sum to 1 (plus log1p(0) = 0) */
    CHECK_SAME(md_reprieve_score(10, 0, 1, 0, 0.01), 0.4 * 1 + 0.3 * 0 + 0.2 * 1 + 0.1 * 1);
    /* log1p of the access count is unbounded: the score can exceed 1 */
    CHECK(md_reprieve_score(10, 1e6, 1, 0, 0.01) > 1);
    /* the access term uses V8's log1p, the recency term V8's exp */
    CHECK_SAME(md_reprieve_score(1, 3, 0, 7, 0.01),
               0.4 * (1.0 / 10) + 0.3 * md_js_log1p(3) + 0.2 * 0 + 0.1 * md_js_exp(-0.01 * 7));
}

int main(void) {
    test_types();
    test_profiles_sum_to_one();
    test_bands();
    test_signals();
    test_batch();
    test_policy();
    test_batch_policy();
    test_reprieve();
    return check_report("test_retention");
}

/* merge module: the near-duplicate merge guards, mergeOutcomes with its role
 * guard, connectedComponents and excludeSelfSupersede. */
#include "unicode.h"

#include <stdlib.h>
#include <string.h>

const char *const md_merge_stage_names[6] = {"cap", "threshold", "vetoed", "self", "role-guard", "committed"};

md_status md_join_merge_text(const md_merge_text *text, md_text *out) {
    if (!out) return MD_ERR_NULL;
    out->ptr = NULL;
    out->len = 0;
    if (!text || MDI_BAD_IN(text->gist.ptr, text->gist.len) || MDI_BAD_IN(text->body.ptr, text->body.len))
        return MD_ERR_NULL;
    if (text->gist.len > SIZE_MAX - 1 - text->body.len) return MD_ERR_RANGE;
    size_t n = text->gist.len + 1 + text->body.len;
    char *b = malloc(n);
    if (!b) return MD_ERR_NOMEM;
    if (text->gist.len) memcpy(b, text->gist.ptr, text->gist.len);
    b[text->gist.len] = '\n';
    if (text->body.len) memcpy(b + text->gist.len + 1, text->body.ptr, text->body.len);
    out->ptr = b;
    out->len = n;
    return MD_OK;
}

/* ---------------------------------------------------------------- tokens */

/* The reference's contraction expansions, applied in this order, each to
 * every occurrence (String.prototype.replaceAll). */
static const char *const EXPANSIONS[][2] = {
    {"isn't", "is not"},       {"aren't", "are not"},     {"wasn't", "was not"},
    {"weren't", "were not"},   {"don't", "do not"},       {"doesn't", "does not"},
    {"didn't", "did not"},     {"won't", "will not"},     {"can't", "can not"},
    {"cannot", "can not"},     {"couldn't", "could not"}, {"shouldn't", "should not"},
    {"wouldn't", "would not"}, {"mustn't", "must not"},   {"haven't", "have not"},
    {"hasn't", "has not"},     {"hadn't", "had not"},     {"n't", " not"},
};
#define N_EXPANSIONS (sizeof EXPANSIONS / sizeof EXPANSIONS[0])
static const uint8_t EXPANSION_LEN[N_EXPANSIONS] = {5, 6, 6, 7, 5, 7, 6, 5, 5, 6, 8, 9, 8, 7, 7, 6, 6, 3};

static const char *const NEGATIONS[] = {
    "not", "no", "never", "none", "cannot", "without", "neither", "nor", "avoid", "disallow",
    "disallowed", "forbidden", "unsafe", "invalid", "false", "fail", "fails", "failed", "deny",
    "denied", "reject", "rejected",
};
static const char *const VARIANTS[] = {
    "pro", "max", "beta", "alpha", "rc", "preview", "legacy", "deprecated", "experimental",
};
#define N_NEGATIONS (sizeof NEGATIONS / sizeof NEGATIONS[0])
#define N_VARIANTS (sizeof VARIANTS / sizeof VARIANTS[0])
static const uint8_t NEGATION_LEN[N_NEGATIONS] = {3, 2, 5, 4, 6, 7, 7, 3, 5, 8, 10, 9, 6, 7, 5, 4, 5, 6, 4, 6, 6, 8};
static const uint8_t VARIANT_LEN[N_VARIANTS] = {3, 3, 4, 5, 2, 7, 6, 10, 12};

/* A growable byte buffer. */
typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static bool buf_reserve(buf *b, size_t more) {
    if (more > SIZE_MAX / 2 - b->len) return false;
    if (b->len + more <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + more) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) return false;
    b->p = p;
    b->cap = cap;
    return true;
}

/* NFC, then toLowerCase, into b (ASCII input skips the tables). */
static md_status normalize_lower(md_str s, buf *b) {
    if (MDI_BAD_IN(s.ptr, s.len)) return MD_ERR_NULL;
    bool ascii = true;
    for (size_t i = 0; i < s.len && ascii; i++) ascii = (unsigned char)s.ptr[i] < 0x80;
    if (ascii) {
        if (!buf_reserve(b, s.len)) return MD_ERR_NOMEM;
        for (size_t i = 0; i < s.len; i++) {
            char c = s.ptr[i];
            b->p[i] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
        }
        b->len = s.len;
        return MD_OK;
    }
    const uint8_t *p = (const uint8_t *)s.ptr;
    if (!mdi_utf8_valid(p, s.len)) return MD_ERR_INVALID;
    md_text nfc = {NULL, 0};
    if (!mdi_is_nfc_utf8(p, s.len)) { /* most text is NFC already */
        md_status st = md_nfc(s, &nfc);
        if (st != MD_OK) return st;
        p = (const uint8_t *)nfc.ptr;
        s.len = nfc.len;
    }
    if (s.len > (SIZE_MAX - 4) / 2 || !buf_reserve(b, s.len + s.len / 2 + 4)) {
        md_text_free(&nfc);
        return MD_ERR_NOMEM;
    }
    b->len = mdi_lower_utf8(p, s.len, (uint8_t *)b->p);
    md_text_free(&nfc);
    return MD_OK;
}

/* All the expansions in one left-to-right pass, equal to the reference's
 * replaceAll passes in order: every pattern but "cannot" ends in "n't", so
 * each apostrophe anchors at most one specific pattern (their letters before
 * "n't" never end in one another) or else the generic "n't"; no
 * replacement contains an apostrophe or can complete a "cannot"; and
 * "cannot" can overlap no apostrophe pattern. tests/js/merge.test.js holds
 * this against the sequential replaceAll on random contraction soup. */
static md_status expand(const buf *in, buf *out) {
    out->len = 0;
    if (!buf_reserve(out, in->len + in->len / 2 + 8)) return MD_ERR_NOMEM;
    const char *t = in->p;
    size_t n = in->len;
    const char *q = n ? memchr(t, '\'', n) : NULL;
    size_t apos = q ? (size_t)(q - t) : SIZE_MAX; /* the next apostrophe at or after i */
    for (size_t i = 0; i < n;) {
        const char *rep = NULL;
        size_t m = 0;
        char c = t[i];
        if (apos < i) {
            q = memchr(t + i, '\'', n - i);
            apos = q ? (size_t)(q - t) : SIZE_MAX;
        }
        /* An apostrophe pattern starting at i has its apostrophe within 7
         * bytes; otherwise only "cannot" can start here. */
        if (c == 'c' || (apos - i <= 7 && (c == 'n' || c == 'i' || c == 'a' || c == 'w' || c == 'd' ||
                                          c == 's' || c == 'h' || c == 'm'))) {
            for (size_t k = 0; k < N_EXPANSIONS; k++) {
                const char *pat = EXPANSIONS[k][0];
                size_t pl = EXPANSION_LEN[k];
                if (pat[0] == c && pl <= n - i && memcmp(t + i, pat, pl) == 0) {
                    rep = EXPANSIONS[k][1];
                    m = pl;
                    break;
                }
            }
        }
        if (!rep) {
            if (out->len == out->cap && !buf_reserve(out, 1)) return MD_ERR_NOMEM;
            out->p[out->len++] = c;
            i++;
            continue;
        }
        size_t rl = strlen(rep);
        if (!buf_reserve(out, rl)) return MD_ERR_NOMEM;
        memcpy(out->p + out->len, rep, rl);
        out->len += rl;
        i += m;
    }
    return MD_OK;
}

/* What the predicates need from one text's tokens. */
typedef struct profile {
    buf text;          /* the normalized, expanded text the tokens point into */
    bool negated;
    unsigned variants; /* bit i: VARIANTS[i] occurs */
    md_str *numeric;   /* tokens holding a digit, in order, repeats included */
    size_t n_numeric;
    mdi_keymap numeric_set; /* the distinct ones */
} profile;

static void profile_free(profile *p) {
    free(p->text.p);
    free(p->numeric);
    mdi_keymap_free(&p->numeric_set);
    memset(p, 0, sizeof *p);
}

static int word_index(const char *tok, size_t len, const char *const *words, const uint8_t *lens, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (lens[k] == len && words[k][0] == tok[0] && memcmp(tok, words[k], len) == 0) return (int)k;
    return -1;
}

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
static inline bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z'); }

static md_status profile_of(md_str s, profile *p) {
    memset(p, 0, sizeof *p);
    buf expanded = {NULL, 0, 0};
    md_status st = normalize_lower(s, &p->text);
    if (st == MD_OK) st = expand(&p->text, &expanded);
    free(p->text.p);
    p->text = expanded;
    if (st == MD_OK) st = mdi_keymap_init(&p->numeric_set, 8);
    if (st != MD_OK) { profile_free(p); return st; }

    const char *t = p->text.p;
    size_t n = p->text.len, cap = 0;
    for (size_t i = 0; i < n && st == MD_OK;) {
        if (!is_alnum(t[i])) { i++; continue; }
        /* [a-z0-9]+(?:\.[0-9]+)* */
        size_t start = i;
        bool digit = false;
        while (i < n && is_alnum(t[i])) digit |= is_digit(t[i++]);
        while (i + 1 < n && t[i] == '.' && is_digit(t[i + 1])) {
            i++;
            while (i < n && is_digit(t[i])) i++;
            digit = true;
        }
        md_str tok = {t + start, i - start};
        if (digit) {
            if (p->n_numeric == cap) {
                size_t nc = cap ? cap * 2 : 8;
                md_str *v = realloc(p->numeric, nc * sizeof(md_str));
                if (!v) { st = MD_ERR_NOMEM; break; }
                p->numeric = v;
                cap = nc;
            }
            p->numeric[p->n_numeric++] = tok;
            st = mdi_keymap_put(&p->numeric_set, tok, 0, NULL, NULL);
            continue;
        }
        if (tok.len > 12) continue;
        if (!p->negated && word_index(tok.ptr, tok.len, NEGATIONS, NEGATION_LEN, N_NEGATIONS) >= 0) p->negated = true;
        int v = word_index(tok.ptr, tok.len, VARIANTS, VARIANT_LEN, N_VARIANTS);
        if (v >= 0) p->variants |= 1u << v;
    }
    if (st != MD_OK) profile_free(p);
    return st;
}

md_status mdi_merge_tokens(md_str s, md_text *out) {
    if (!out) return MD_ERR_NULL;
    out->ptr = NULL;
    out->len = 0;
    buf text = {NULL, 0, 0}, expanded = {NULL, 0, 0};
    md_status st = normalize_lower(s, &text);
    if (st == MD_OK) st = expand(&text, &expanded);
    free(text.p);
    /* tokens can abut ("ve.2n"): room for a space after every byte */
    char *o = st == MD_OK ? mdi_alloc_array(expanded.len + 1, 2) : NULL;
    if (st == MD_OK && !o) st = MD_ERR_NOMEM;
    if (st == MD_OK) {
        const char *t = expanded.p;
        size_t n = expanded.len, k = 0;
        for (size_t i = 0; i < n;) {
            if (!is_alnum(t[i])) { i++; continue; }
            size_t start = i;
            while (i < n && is_alnum(t[i])) i++;
            while (i + 1 < n && t[i] == '.' && is_digit(t[i + 1]))
                for (i++; i < n && is_digit(t[i]); i++) {}
            if (k) o[k++] = ' ';
            memcpy(o + k, t + start, i - start);
            k += i - start;
        }
        out->ptr = o;
        out->len = k;
    }
    free(expanded.p);
    return st;
}

static bool numeric_differs(const profile *a, const profile *b) {
    if (a->numeric_set.len != b->numeric_set.len) return true;
    for (size_t i = 0; i < b->n_numeric; i++)
        if (!mdi_keymap_get(&a->numeric_set, b->numeric[i], NULL)) return true;
    return false;
}

enum { PRED_NEGATION, PRED_NUMERIC, PRED_VARIANT };

static md_status predicate(md_str a, md_str b, int which, bool *out) {
    if (!out) return MD_ERR_NULL;
    *out = false;
    profile pa, pb;
    md_status st = profile_of(a, &pa);
    if (st != MD_OK) return st;
    st = profile_of(b, &pb);
    if (st != MD_OK) { profile_free(&pa); return st; }
    switch (which) {
    case PRED_NEGATION: *out = pa.negated != pb.negated; break;
    case PRED_NUMERIC: *out = numeric_differs(&pa, &pb); break;
    default: *out = pa.variants != pb.variants; break;
    }
    profile_free(&pa);
    profile_free(&pb);
    return MD_OK;
}

md_status md_negation_divergent(md_str a, md_str b, bool *out) { return predicate(a, b, PRED_NEGATION, out); }
md_status md_numeric_token_divergent(md_str a, md_str b, bool *out) { return predicate(a, b, PRED_NUMERIC, out); }
md_status md_variant_qualifier_divergent(md_str a, md_str b, bool *out) { return predicate(a, b, PRED_VARIANT, out); }

/* The joined text is gist "\n" body, and "\n" separates everything the
 * tokens depend on (it composes with nothing, is neither cased nor
 * case-ignorable, and is in no pattern or token): the joined text's
 * profile is the union of the gist's and the body's, so each of the four
 * strings is read once and nothing is copied. */
static md_status veto_reasons(const md_merge_text *a, const md_merge_text *b, unsigned *reasons) {
    profile p[4];
    const md_str *s[4] = {&a->gist, &a->body, &b->gist, &b->body};
    size_t done = 0;
    md_status st = MD_OK;
    for (; done < 4 && st == MD_OK; done++) {
        st = profile_of(*s[done], &p[done]);
        if (st != MD_OK) break;
    }
    if (st == MD_OK) {
        unsigned r = 0;
        if ((p[0].negated || p[1].negated) != (p[2].negated || p[3].negated)) r |= MD_VETO_NEGATION;
        if (numeric_differs(&p[0], &p[2])) r |= MD_VETO_NUMERIC;
        if ((p[0].variants | p[1].variants) != (p[2].variants | p[3].variants)) r |= MD_VETO_VARIANT;
        *reasons = r;
    }
    for (size_t i = 0; i < done; i++) profile_free(&p[i]);
    return st;
}

static bool text_bad(const md_merge_text *t) {
    return MDI_BAD_IN(t->gist.ptr, t->gist.len) || MDI_BAD_IN(t->body.ptr, t->body.len);
}

md_status md_merge_veto_reasons(const md_merge_text *a, const md_merge_text *b, unsigned *reasons) {
    if (!reasons) return MD_ERR_NULL;
    *reasons = 0;
    if (!a || !b || text_bad(a) || text_bad(b)) return MD_ERR_NULL;
    return veto_reasons(a, b, reasons);
}

/* ---------------------------------------------------------------- outcomes */

md_status md_merge_outcomes(const md_merge_pair *pairs, size_t n, double max_pairs, double threshold,
                            uint8_t *stages) {
    if (MDI_BAD_IN(pairs, n) || MDI_BAD_IN(stages, n)) return MD_ERR_NULL;
    mdi_keymap dropped = {0, 0, NULL, NULL}, kept = {0, 0, NULL, NULL};
    md_status st = mdi_keymap_init(&dropped, 8);
    if (st == MD_OK) st = mdi_keymap_init(&kept, 8);
    double committed = 0;
    for (size_t i = 0; i < n && st == MD_OK; i++) {
        const md_merge_pair *p = &pairs[i];
        if (MDI_BAD_IN(p->keep_path.ptr, p->keep_path.len) || MDI_BAD_IN(p->drop_path.ptr, p->drop_path.len) ||
            (p->keep_text && text_bad(p->keep_text)) || (p->drop_text && text_bad(p->drop_text))) {
            st = MD_ERR_NULL;
            break;
        }
        if (committed >= max_pairs) { stages[i] = MD_STAGE_CAP; continue; }
        if (p->similarity <= threshold) { stages[i] = MD_STAGE_THRESHOLD; continue; }
        if (p->keep_text && p->drop_text) {
            unsigned reasons = 0;
            st = veto_reasons(p->keep_text, p->drop_text, &reasons);
            if (st != MD_OK) break;
            if (reasons) { stages[i] = MD_STAGE_VETOED; continue; }
        }
        if (mdi_key_equal(p->keep_path, p->drop_path)) { stages[i] = MD_STAGE_SELF; continue; }
        if (mdi_keymap_get(&dropped, p->drop_path, NULL) || mdi_keymap_get(&kept, p->drop_path, NULL) ||
            mdi_keymap_get(&dropped, p->keep_path, NULL)) {
            stages[i] = MD_STAGE_ROLE_GUARD;
            continue;
        }
        st = mdi_keymap_put(&dropped, p->drop_path, i, NULL, NULL);
        if (st == MD_OK) st = mdi_keymap_put(&kept, p->keep_path, i, NULL, NULL);
        stages[i] = MD_STAGE_COMMITTED;
        committed += 1;
    }
    mdi_keymap_free(&dropped);
    mdi_keymap_free(&kept);
    return st;
}

md_status md_merge_candidates(const md_merge_pair *pairs, size_t n, double max_pairs, double threshold,
                              size_t *committed, size_t *n_committed) {
    if (!n_committed) return MD_ERR_NULL;
    *n_committed = 0;
    if (MDI_BAD_IN(committed, n)) return MD_ERR_NULL;
    uint8_t *stages = mdi_alloc_array(n, 1);
    if (!stages) return MD_ERR_NOMEM;
    md_status st = md_merge_outcomes(pairs, n, max_pairs, threshold, stages);
    if (st == MD_OK) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (stages[i] == MD_STAGE_COMMITTED) committed[k++] = i;
        *n_committed = k;
    }
    free(stages);
    return st;
}

/* ---------------------------------------------------------------- components */

void md_components_free(md_components *c) {
    if (!c) return;
    free(c->members);
    free(c->starts);
    memset(c, 0, sizeof *c);
}

static size_t uf_find(size_t *parent, size_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

md_status md_connected_components(const md_str *ends, size_t n_edges, md_components *out) {
    if (!out) return MD_ERR_NULL;
    memset(out, 0, sizeof *out);
    if (MDI_BAD_IN(ends, n_edges)) return MD_ERR_NULL;
    if (n_edges > SIZE_MAX / 2) return MD_ERR_RANGE;
    size_t n_ends = 2 * n_edges;
    for (size_t i = 0; i < n_ends; i++)
        if (MDI_BAD_IN(ends[i].ptr, ends[i].len)) return MD_ERR_NULL;
    mdi_keymap ids = {0, 0, NULL, NULL};
    md_str *keys = mdi_alloc_array(n_ends, sizeof(md_str));
    size_t *parent = mdi_alloc_array(n_ends, sizeof(size_t));
    size_t *order = mdi_alloc_array(n_ends, sizeof(size_t));
    size_t *comp_of_root = mdi_alloc_array(n_ends, sizeof(size_t));
    size_t *count = mdi_calloc_array(n_ends + 1, sizeof(size_t));
    md_status st = (keys && parent && order && comp_of_root && count) ? mdi_keymap_init(&ids, n_ends) : MD_ERR_NOMEM;
    size_t n = 0;
    for (size_t e = 0; e < n_edges && st == MD_OK; e++) {
        size_t id[2];
        for (int k = 0; k < 2 && st == MD_OK; k++) {
            bool fresh = false;
            st = mdi_keymap_put(&ids, ends[2 * e + k], n, &id[k], &fresh);
            if (st == MD_OK && fresh) { keys[n] = ends[2 * e + k]; parent[n] = n; n++; }
        }
        if (st != MD_OK) break;
        /* The smaller key (JavaScript order) always becomes the root. */
        size_t ra = uf_find(parent, id[0]), rb = uf_find(parent, id[1]);
        if (ra == rb) continue;
        if (md_key_compare(keys[ra], keys[rb]) < 0) parent[rb] = ra;
        else parent[ra] = rb;
    }
    if (st == MD_OK) {
        st = mdi_sort_keys(keys, n, order);
    }
    if (st == MD_OK) {
        /* In sorted order each component first shows its root, its smallest
         * member: numbering components on first sight orders them by root. */
        size_t n_comp = 0;
        for (size_t i = 0; i < n; i++) comp_of_root[i] = SIZE_MAX;
        for (size_t i = 0; i < n; i++) {
            size_t r = uf_find(parent, order[i]);
            if (comp_of_root[r] == SIZE_MAX) comp_of_root[r] = n_comp++;
            count[comp_of_root[r] + 1]++;
        }
        out->members = mdi_alloc_array(n, sizeof(md_str));
        out->starts = mdi_alloc_array(n_comp + 1, sizeof(size_t));
        if (!out->members || !out->starts) {
            st = MD_ERR_NOMEM;
        } else {
            for (size_t c = 0; c < n_comp; c++) count[c + 1] += count[c];
            memcpy(out->starts, count, (n_comp + 1) * sizeof(size_t));
            for (size_t i = 0; i < n; i++) {
                size_t c = comp_of_root[uf_find(parent, order[i])];
                out->members[count[c]++] = keys[order[i]];
            }
            out->n_members = n;
            out->n_components = n_comp;
        }
    }
    if (st != MD_OK) md_components_free(out);
    mdi_keymap_free(&ids);
    free(keys);
    free(parent);
    free(order);
    free(comp_of_root);
    free(count);
    return st;
}

md_status md_exclude_self_supersede(md_str canonical, const md_str *members, size_t n, uint8_t *keep) {
    if (MDI_BAD_IN(canonical.ptr, canonical.len) || MDI_BAD_IN(members, n) || MDI_BAD_IN(keep, n))
        return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++) keep[i] = !mdi_key_equal(members[i], canonical);
    return MD_OK;
}

/* merge module: the near-duplicate merge guards, mergeOutcomes with its role
 * guard, connectedComponents and excludeSelfSupersede. */
#include "unicode.h"

#include <stdlib.h>
#include <string.h>

const char *const md_merge_stage_names[6] = {"cap", "threshold", "vetoed", "self", "role-guard", "committed"};

MDI_SMALL md_status md_join_merge_text(const md_merge_text *text, md_text *out) {
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

/* ---------------------------------------------------------------- profiles
 *
 * A text is read once into what the predicates need of it: whether a
 * negation marker occurs, which variant qualifiers occur, and (for a gist)
 * its distinct numeric tokens. The tokens come from the text as the
 * reference builds it: NFC, toLowerCase, the contraction expansions, then
 * [a-z0-9]+(\.[0-9]+)*. Every byte of a non-ASCII character is a byte >=
 * 0x80, which is neither a token character nor in any pattern, so scanning
 * bytes finds exactly the reference's tokens. */

/* Scratch buffers reused by every text of a call, and a filter for the
 * marker words: bit c - 'a' of first[len] is set when some negation or
 * variant word of that length starts with c. */
typedef struct tok_scratch {
    uint8_t *low;  /* the folded text (mdi_token_fold_utf8) */
    size_t low_cap;
    char *exp;     /* the text after the expansions (when one applies) */
    size_t exp_cap;
    uint32_t first[13];
    uint8_t cls[256]; /* TOK_LETTER for a-z, TOK_DIGIT for 0-9, else 0 */
} tok_scratch;

enum { TOK_LETTER = 1, TOK_DIGIT = 2 };

static void scratch_init(tok_scratch *w) {
    memset(w, 0, sizeof *w);
    for (size_t k = 0; k < N_NEGATIONS; k++) w->first[NEGATION_LEN[k]] |= 1u << (NEGATIONS[k][0] - 'a');
    for (size_t k = 0; k < N_VARIANTS; k++) w->first[VARIANT_LEN[k]] |= 1u << (VARIANTS[k][0] - 'a');
    for (int c = 'a'; c <= 'z'; c++) w->cls[c] = TOK_LETTER;
    for (int c = '0'; c <= '9'; c++) w->cls[c] = TOK_DIGIT;
}

static void scratch_free(tok_scratch *w) {
    free(w->low);
    free(w->exp);
}

static bool reserve(void **p, size_t *cap, size_t need) {
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : 256;
    while (c < need) {
        if (c > SIZE_MAX / 2) return false;
        c *= 2;
    }
    void *q = realloc(*p, c);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}

/* NFC, then toLowerCase, folded (mdi_token_fold_utf8) into w->low: one pass
 * over the text unless it is not NFC already. */
static md_status lowered(md_str s, tok_scratch *w, const uint8_t **out, size_t *len) {
    if (MDI_BAD_IN(s.ptr, s.len)) return MD_ERR_NULL;
    if (!reserve((void **)&w->low, &w->low_cap, s.len)) return MD_ERR_NOMEM;
    size_t k = mdi_token_fold_utf8((const uint8_t *)s.ptr, s.len, true, w->low);
    if (k == MDI_FOLD_MALFORMED) return MD_ERR_INVALID;
    if (k == MDI_FOLD_NOT_NFC) {
        md_text nfc = {NULL, 0};
        md_status st = md_nfc(s, &nfc);
        if (st != MD_OK) return st;
        if (!reserve((void **)&w->low, &w->low_cap, nfc.len)) { md_text_free(&nfc); return MD_ERR_NOMEM; }
        k = mdi_token_fold_utf8((const uint8_t *)nfc.ptr, nfc.len, false, w->low);
        md_text_free(&nfc);
    }
    *out = w->low;
    *len = k;
    return MD_OK;
}

/* True when some expansion can apply: an apostrophe, or "cannot". */
static bool expandable(const uint8_t *t, size_t n) {
    if (n && memchr(t, '\'', n)) return true;
    for (size_t i = 0; i + 6 <= n;) {
        const uint8_t *c = memchr(t + i, 'c', n - 5 - i);
        if (!c) return false;
        if (memcmp(c, "cannot", 6) == 0) return true;
        i = (size_t)(c - t) + 1;
    }
    return false;
}

/* All the expansions in one left-to-right pass, equal to the reference's
 * replaceAll passes in order: every pattern but "cannot" ends in "n't", so
 * each apostrophe anchors at most one specific pattern (their letters before
 * "n't" never end in one another) or else the generic "n't"; no
 * replacement contains an apostrophe or can complete a "cannot"; and
 * "cannot" can overlap no apostrophe pattern. tests/js/merge.test.js holds
 * this against the sequential replaceAll on random contraction soup. out
 * must hold n + n / 2 + 8 bytes (a replacement is at most 4/3 of its
 * pattern); returns the length. */
static size_t expand(const uint8_t *t, size_t n, char *out) {
    size_t len = 0;
    const uint8_t *q = n ? memchr(t, '\'', n) : NULL;
    size_t apos = q ? (size_t)(q - t) : SIZE_MAX; /* the next apostrophe at or after i */
    for (size_t i = 0; i < n;) {
        if (apos < i) {
            q = memchr(t + i, '\'', n - i);
            apos = q ? (size_t)(q - t) : SIZE_MAX;
        }
        /* An apostrophe pattern starting at i has its apostrophe within 7
         * bytes; otherwise only "cannot" can start here: copy up to the next
         * place where a pattern can start. */
        size_t stop = apos == SIZE_MAX ? n : apos > i + 7 ? apos - 7 : i;
        if (stop > i) {
            const uint8_t *c = memchr(t + i, 'c', stop - i);
            size_t next = c ? (size_t)(c - t) : stop;
            memcpy(out + len, t + i, next - i);
            len += next - i;
            i = next;
            if (!c) continue;
        }
        uint8_t c = t[i];
        if (c == 'c' || (apos - i <= 7 && (c == 'n' || c == 'i' || c == 'a' || c == 'w' || c == 'd' ||
                                          c == 's' || c == 'h' || c == 'm'))) {
            size_t k = 0;
            for (; k < N_EXPANSIONS; k++) {
                size_t pl = EXPANSION_LEN[k];
                if ((uint8_t)EXPANSIONS[k][0][0] == c && pl <= n - i && memcmp(t + i, EXPANSIONS[k][0], pl) == 0) break;
            }
            if (k < N_EXPANSIONS) {
                size_t rl = strlen(EXPANSIONS[k][1]);
                memcpy(out + len, EXPANSIONS[k][1], rl);
                len += rl;
                i += EXPANSION_LEN[k];
                continue;
            }
        }
        out[len++] = (char)c;
        i++;
    }
    return len;
}

/* The text the tokens are read from: *out, *len (in w's buffers or s). */
static md_status token_text(md_str s, tok_scratch *w, const char **out, size_t *len) {
    const uint8_t *t;
    size_t n;
    md_status st = lowered(s, w, &t, &n);
    if (st != MD_OK) return st;
    if (!expandable(t, n)) { *out = (const char *)t; *len = n; return MD_OK; }
    if (n > (SIZE_MAX - 8) / 2 || !reserve((void **)&w->exp, &w->exp_cap, n + n / 2 + 8)) return MD_ERR_NOMEM;
    *len = expand(t, n, w->exp);
    *out = w->exp;
    return MD_OK;
}

static int word_index(const char *tok, size_t len, const char *const *words, const uint8_t *lens, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (lens[k] == len && words[k][0] == tok[0] && memcmp(tok, words[k], len) == 0) return (int)k;
    return -1;
}

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
static inline bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z'); }

/* The end of the token starting at t[i] (an [a-z0-9]); *digit: it holds one. */
static size_t token_end(const char *t, size_t n, size_t i, bool *digit) {
    bool d = false;
    while (i < n && is_alnum(t[i])) d |= is_digit(t[i++]);
    while (i + 1 < n && t[i] == '.' && is_digit(t[i + 1])) {
        i++;
        while (i < n && is_digit(t[i])) i++;
        d = true;
    }
    *digit = d;
    return i;
}

/* Numeric tokens of every profiled gist, back to back; profiles refer to
 * them by position (the arena may move). */
typedef struct num_arena {
    char *bytes;
    size_t len, cap;
    size_t *at, *tlen; /* token k: bytes[at[k] .. at[k] + tlen[k]) */
    size_t n, ncap;
} num_arena;

static void arena_free(num_arena *a) {
    free(a->bytes); free(a->at); free(a->tlen);
    memset(a, 0, sizeof *a);
}

static bool arena_push(num_arena *a, const char *tok, size_t len) {
    if (a->n == a->ncap) {
        size_t c = a->ncap ? a->ncap * 2 : 64;
        size_t *x = realloc(a->at, c * sizeof(size_t)), *y = x ? realloc(a->tlen, c * sizeof(size_t)) : NULL;
        if (x) a->at = x;
        if (!y) return false;
        a->tlen = y;
        a->ncap = c;
    }
    if (len > SIZE_MAX / 2 - a->len || !reserve((void **)&a->bytes, &a->cap, a->len + len)) return false;
    memcpy(a->bytes + a->len, tok, len);
    a->at[a->n] = a->len;
    a->tlen[a->n++] = len;
    a->len += len;
    return true;
}

/* Token order for the numeric sets: by length, then bytes (any total order
 * makes two sorted distinct lists equal exactly when the sets are). */
static int tok_cmp(const num_arena *a, size_t i, size_t j) {
    if (a->tlen[i] != a->tlen[j]) return a->tlen[i] < a->tlen[j] ? -1 : 1;
    return memcmp(a->bytes + a->at[i], a->bytes + a->at[j], a->tlen[i]);
}

typedef struct profile {
    bool negated;
    unsigned variants;    /* bit k: VARIANTS[k] occurs */
    size_t num0, n_num;   /* the distinct numeric tokens, sorted: arena tokens num0 .. num0 + n_num */
} profile;

/* Profile s; with `numeric`, its distinct numeric tokens go to the arena. */
static md_status profile_of(md_str s, bool numeric, tok_scratch *w, num_arena *a, profile *p) {
    const char *t;
    size_t n;
    memset(p, 0, sizeof *p);
    p->num0 = a->n;
    md_status st = token_text(s, w, &t, &n);
    if (st != MD_OK) return st;
    const uint8_t *u = (const uint8_t *)t, *cls = w->cls;
    for (size_t i = 0; i < n;) {
        if (!cls[u[i]]) { i++; continue; }
        /* [a-z0-9]+(?:\.[0-9]+)* */
        size_t start = i;
        unsigned seen = 0;
        while (i < n && cls[u[i]]) seen |= cls[u[i++]];
        while (i + 1 < n && u[i] == '.' && cls[u[i + 1]] == TOK_DIGIT) {
            i += 2;
            while (i < n && cls[u[i]] == TOK_DIGIT) i++;
            seen |= TOK_DIGIT;
        }
        size_t len = i - start;
        if (seen & TOK_DIGIT) {
            if (numeric && !arena_push(a, t + start, len)) return MD_ERR_NOMEM;
            continue;
        }
        /* Letters only: a marker word? */
        if (len > 12 || !(w->first[len] & (1u << (u[start] - 'a')))) continue;
        if (!p->negated && word_index(t + start, len, NEGATIONS, NEGATION_LEN, N_NEGATIONS) >= 0) p->negated = true;
        int v = word_index(t + start, len, VARIANTS, VARIANT_LEN, N_VARIANTS);
        if (v >= 0) p->variants |= 1u << v;
    }
    if (!numeric) return MD_OK;
    /* Sort (insertion: a gist holds few) and drop repeats. */
    size_t k0 = p->num0, m = a->n - k0;
    for (size_t i = 1; i < m; i++) {
        size_t at = a->at[k0 + i], len = a->tlen[k0 + i], j = i;
        while (j > 0) {
            size_t pa = a->at[k0 + j - 1], pl = a->tlen[k0 + j - 1];
            int c = pl != len ? (pl < len ? -1 : 1) : memcmp(a->bytes + pa, a->bytes + at, len);
            if (c <= 0) break;
            a->at[k0 + j] = pa;
            a->tlen[k0 + j] = pl;
            j--;
        }
        a->at[k0 + j] = at;
        a->tlen[k0 + j] = len;
    }
    size_t d = 0;
    for (size_t i = 0; i < m; i++) {
        if (d > 0 && tok_cmp(a, k0 + d - 1, k0 + i) == 0) continue;
        a->at[k0 + d] = a->at[k0 + i];
        a->tlen[k0 + d] = a->tlen[k0 + i];
        d++;
    }
    a->n = k0 + d;
    p->n_num = d;
    return MD_OK;
}

static bool numeric_differs(const num_arena *a, const profile *x, const profile *y) {
    if (x->n_num != y->n_num) return true;
    for (size_t i = 0; i < x->n_num; i++)
        if (tok_cmp(a, x->num0 + i, y->num0 + i) != 0) return true;
    return false;
}

MDI_SMALL md_status mdi_merge_tokens(md_str s, md_text *out) {
    if (!out) return MD_ERR_NULL;
    out->ptr = NULL;
    out->len = 0;
    tok_scratch w;
    scratch_init(&w);
    const char *t;
    size_t n;
    md_status st = token_text(s, &w, &t, &n);
    /* tokens can abut ("ve.2n"): room for a space after every byte */
    char *o = st == MD_OK ? mdi_alloc_array(n + 1, 2) : NULL;
    if (st == MD_OK && !o) st = MD_ERR_NOMEM;
    if (st == MD_OK) {
        size_t k = 0;
        for (size_t i = 0; i < n;) {
            if (!is_alnum(t[i])) { i++; continue; }
            bool digit;
            size_t start = i;
            i = token_end(t, n, i, &digit);
            if (k) o[k++] = ' ';
            memcpy(o + k, t + start, i - start);
            k += i - start;
        }
        out->ptr = o;
        out->len = k;
    }
    scratch_free(&w);
    return st;
}

enum { PRED_NEGATION, PRED_NUMERIC, PRED_VARIANT };

static md_status predicate(md_str a, md_str b, int which, bool *out) {
    if (!out) return MD_ERR_NULL;
    *out = false;
    tok_scratch w;
    scratch_init(&w);
    num_arena ar = {0};
    profile pa, pb;
    md_status st = profile_of(a, which == PRED_NUMERIC, &w, &ar, &pa);
    if (st == MD_OK) st = profile_of(b, which == PRED_NUMERIC, &w, &ar, &pb);
    if (st == MD_OK) {
        switch (which) {
        case PRED_NEGATION: *out = pa.negated != pb.negated; break;
        case PRED_NUMERIC: *out = numeric_differs(&ar, &pa, &pb); break;
        default: *out = pa.variants != pb.variants; break;
        }
    }
    scratch_free(&w);
    arena_free(&ar);
    return st;
}

md_status md_negation_divergent(md_str a, md_str b, bool *out) { return predicate(a, b, PRED_NEGATION, out); }
md_status md_numeric_token_divergent(md_str a, md_str b, bool *out) { return predicate(a, b, PRED_NUMERIC, out); }
md_status md_variant_qualifier_divergent(md_str a, md_str b, bool *out) { return predicate(a, b, PRED_VARIANT, out); }

/* One merge text read once: its gist (with numeric tokens) and body. The
 * joined text is gist "\n" body, and "\n" separates everything the tokens
 * depend on (it composes with nothing, is neither cased nor case-ignorable,
 * and is in no pattern or token): the joined text's profile is the union of
 * the gist's and the body's, so each string is read once and nothing is
 * copied. */
typedef struct text_profile {
    profile gist;
    bool negated;      /* gist or body (once the body is read) */
    unsigned variants; /* gist | body (once the body is read) */
    uint8_t read;      /* READ_GIST | READ_BODY */
} text_profile;

enum { READ_GIST = 1, READ_BODY = 2 };

/* Read what of text gist_body (gist, body) `what` asks for and is not read yet. */
static md_status text_read(const md_str *gist_body, unsigned what, tok_scratch *w, num_arena *a, text_profile *tp) {
    md_status st = MD_OK;
    if ((what & READ_GIST) && !(tp->read & READ_GIST)) {
        st = profile_of(gist_body[0], true, w, a, &tp->gist);
        if (st != MD_OK) return st;
        tp->negated = tp->gist.negated;
        tp->variants = tp->gist.variants;
        tp->read |= READ_GIST;
    }
    if ((what & READ_BODY) && !(tp->read & READ_BODY)) {
        profile body;
        st = profile_of(gist_body[1], false, w, a, &body);
        if (st != MD_OK) return st;
        tp->negated |= body.negated;
        tp->variants |= body.variants;
        tp->read |= READ_BODY;
    }
    return st;
}

/* The veto reasons of two texts, reading as little as decides: numeric
 * tokens come from the gists alone, so a numeric divergence vetoes the
 * pair without reading either body (unless `all` asks for every reason). */
static md_status reasons_of(const md_str *x_text, text_profile *x, const md_str *y_text, text_profile *y, bool all,
                            tok_scratch *w, num_arena *a, unsigned *reasons) {
    md_status st = text_read(x_text, READ_GIST, w, a, x);
    if (st == MD_OK) st = text_read(y_text, READ_GIST, w, a, y);
    if (st != MD_OK) return st;
    unsigned r = numeric_differs(a, &x->gist, &y->gist) ? MD_VETO_NUMERIC : 0;
    if (r && !all) { *reasons = r; return MD_OK; }
    st = text_read(x_text, READ_BODY, w, a, x);
    if (st == MD_OK) st = text_read(y_text, READ_BODY, w, a, y);
    if (st != MD_OK) return st;
    if (x->negated != y->negated) r |= MD_VETO_NEGATION;
    if (x->variants != y->variants) r |= MD_VETO_VARIANT;
    *reasons = r;
    return MD_OK;
}

static bool text_bad(const md_merge_text *t) {
    return MDI_BAD_IN(t->gist.ptr, t->gist.len) || MDI_BAD_IN(t->body.ptr, t->body.len);
}

MDI_SMALL md_status md_merge_veto_reasons(const md_merge_text *a, const md_merge_text *b, unsigned *reasons) {
    if (!reasons) return MD_ERR_NULL;
    *reasons = 0;
    if (!a || !b || text_bad(a) || text_bad(b)) return MD_ERR_NULL;
    md_str s[4] = {a->gist, a->body, b->gist, b->body};
    tok_scratch w;
    scratch_init(&w);
    num_arena ar = {0};
    text_profile pa = {0}, pb = {0};
    md_status st = reasons_of(s, &pa, s + 2, &pb, true, &w, &ar, reasons);
    scratch_free(&w);
    arena_free(&ar);
    return st;
}

/* ---------------------------------------------------------------- outcomes */

MDI_SMALL md_status md_merge_outcomes_indexed(const md_str *texts, size_t n_texts, const uint32_t *keep_path,
                                    const uint32_t *drop_path, size_t n_paths, const uint32_t *keep_text,
                                    const uint32_t *drop_text, const double *similarity, size_t n,
                                    double max_pairs, double threshold, uint8_t *stages) {
    if (MDI_BAD_IN(keep_path, n) || MDI_BAD_IN(drop_path, n) || MDI_BAD_IN(keep_text, n) ||
        MDI_BAD_IN(drop_text, n) || MDI_BAD_IN(similarity, n) || MDI_BAD_IN(stages, n))
        return MD_ERR_NULL;
    if (n_texts > SIZE_MAX / 2 || MDI_BAD_IN(texts, 2 * n_texts)) return MD_ERR_NULL;
    for (size_t i = 0; i < 2 * n_texts; i++)
        if (MDI_BAD_IN(texts[i].ptr, texts[i].len)) return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++) {
        if (keep_path[i] >= n_paths || drop_path[i] >= n_paths) return MD_ERR_INVALID;
        if ((keep_text[i] >= n_texts && keep_text[i] != MD_MERGE_NO_TEXT) ||
            (drop_text[i] >= n_texts && drop_text[i] != MD_MERGE_NO_TEXT))
            return MD_ERR_INVALID;
    }
    /* role[path]: bit 0 dropped, bit 1 kept. A text is read when a pair
     * first needs it, and only as far as the pair needs (reasons_of). */
    uint8_t *role = mdi_calloc_array(n_paths, 1);
    text_profile *prof = mdi_calloc_array(n_texts, sizeof(text_profile));
    tok_scratch w;
    scratch_init(&w);
    num_arena ar = {0};
    md_status st = role && prof ? MD_OK : MD_ERR_NOMEM;
    double committed = 0;
    for (size_t i = 0; i < n && st == MD_OK; i++) {
        if (committed >= max_pairs) { stages[i] = MD_STAGE_CAP; continue; }
        if (similarity[i] <= threshold) { stages[i] = MD_STAGE_THRESHOLD; continue; }
        uint32_t kt = keep_text[i], dt = drop_text[i];
        /* One text on both sides cannot diverge from itself. */
        if (kt != MD_MERGE_NO_TEXT && dt != MD_MERGE_NO_TEXT && kt != dt) {
            unsigned r = 0;
            st = reasons_of(texts + 2 * (size_t)kt, &prof[kt], texts + 2 * (size_t)dt, &prof[dt], false, &w, &ar, &r);
            if (st != MD_OK) break;
            if (r) { stages[i] = MD_STAGE_VETOED; continue; }
        }
        uint32_t kp = keep_path[i], dp = drop_path[i];
        if (kp == dp) { stages[i] = MD_STAGE_SELF; continue; }
        if (role[dp] || (role[kp] & 1)) { stages[i] = MD_STAGE_ROLE_GUARD; continue; }
        role[dp] |= 1;
        role[kp] |= 2;
        stages[i] = MD_STAGE_COMMITTED;
        committed += 1;
    }
    free(role);
    free(prof);
    scratch_free(&w);
    arena_free(&ar);
    return st;
}

MDI_SMALL md_status md_merge_outcomes(const md_merge_pair *pairs, size_t n, double max_pairs, double threshold,
                            uint8_t *stages) {
    if (MDI_BAD_IN(pairs, n) || MDI_BAD_IN(stages, n)) return MD_ERR_NULL;
    if (n > SIZE_MAX / 4) return MD_ERR_RANGE;
    /* Intern the paths; each present text gets an id of its own. */
    mdi_keymap ids = {0, 0, NULL, NULL};
    uint32_t *idx = mdi_alloc_array(4 * n + 1, sizeof(uint32_t));
    md_str *texts = mdi_alloc_array(4 * n + 1, sizeof(md_str));
    double *sim = mdi_alloc_array(n + 1, sizeof(double));
    md_status st = idx && texts && sim ? mdi_keymap_init(&ids, 2 * n) : MD_ERR_NOMEM;
    size_t n_paths = 0, n_texts = 0;
    uint32_t *kp = idx, *dp = idx + n, *kt = idx + 2 * n, *dt = idx + 3 * n;
    for (size_t i = 0; i < n && st == MD_OK; i++) {
        const md_merge_pair *p = &pairs[i];
        if (MDI_BAD_IN(p->keep_path.ptr, p->keep_path.len) || MDI_BAD_IN(p->drop_path.ptr, p->drop_path.len) ||
            (p->keep_text && text_bad(p->keep_text)) || (p->drop_text && text_bad(p->drop_text))) {
            st = MD_ERR_NULL;
            break;
        }
        size_t a, b;
        st = mdi_keymap_put(&ids, p->keep_path, n_paths, &a, NULL);
        if (st == MD_OK && a == n_paths) n_paths++;
        if (st == MD_OK) st = mdi_keymap_put(&ids, p->drop_path, n_paths, &b, NULL);
        if (st != MD_OK) break;
        if (b == n_paths) n_paths++;
        kp[i] = (uint32_t)a;
        dp[i] = (uint32_t)b;
        sim[i] = p->similarity;
        const md_merge_text *t2[2] = {p->keep_text, p->drop_text};
        uint32_t *slot[2] = {&kt[i], &dt[i]};
        for (int k = 0; k < 2; k++) {
            if (!t2[k]) { *slot[k] = MD_MERGE_NO_TEXT; continue; }
            if (k == 1 && t2[1] == t2[0]) { dt[i] = kt[i]; continue; } /* one text on both sides */
            texts[2 * n_texts] = t2[k]->gist;
            texts[2 * n_texts + 1] = t2[k]->body;
            *slot[k] = (uint32_t)n_texts++;
        }
    }
    if (st == MD_OK)
        st = md_merge_outcomes_indexed(texts, n_texts, kp, dp, n_paths, kt, dt, sim, n, max_pairs, threshold, stages);
    mdi_keymap_free(&ids);
    free(idx);
    free(texts);
    free(sim);
    return st;
}

MDI_SMALL md_status md_merge_candidates(const md_merge_pair *pairs, size_t n, double max_pairs, double threshold,
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

MDI_SMALL md_status md_connected_components(const md_str *ends, size_t n_edges, md_components *out) {
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

MDI_SMALL md_status md_exclude_self_supersede(md_str canonical, const md_str *members, size_t n, uint8_t *keep) {
    if (MDI_BAD_IN(canonical.ptr, canonical.len) || MDI_BAD_IN(members, n) || MDI_BAD_IN(keep, n))
        return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++) keep[i] = !mdi_key_equal(members[i], canonical);
    return MD_OK;
}

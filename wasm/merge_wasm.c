/* Boundary for the merge module. */
#include "boundary.h"
#include "unicode.h"

#include <stdlib.h>

/* which 0..2: negationDivergent, numericTokenDivergent,
 * variantQualifierDivergent over keys[0], keys[1]; out[0] = 0 or 1.
 * which 3: mergeVetoReasons over (keys[0] gist, keys[1] body) and
 * (keys[2], keys[3]); out[0] = the MD_VETO_* bits. */
MDW_EXPORT("mdw_merge_predicate")
int mdw_merge_predicate(const uint8_t *bytes, const uint32_t *offsets, size_t n, int which, size_t *out) {
    md_str *k = NULL;
    md_status st = mdw_keys(bytes, offsets, n, &k);
    if (st == MD_OK && n != (which == 3 ? 4u : 2u)) st = MD_ERR_INVALID;
    bool b = false;
    unsigned reasons = 0;
    if (st == MD_OK) {
        switch (which) {
        case 0: st = md_negation_divergent(k[0], k[1], &b); break;
        case 1: st = md_numeric_token_divergent(k[0], k[1], &b); break;
        case 2: st = md_variant_qualifier_divergent(k[0], k[1], &b); break;
        case 3: {
            md_merge_text a = {k[0], k[1]}, c = {k[2], k[3]};
            st = md_merge_veto_reasons(&a, &c, &reasons);
            b = reasons != 0;
            break;
        }
        default: st = MD_ERR_INVALID;
        }
    }
    if (st == MD_OK) out[MDW_OUT_merge_predicate_result] = which == 3 ? reasons : (size_t)b;
    free(k);
    return st;
}

/* mergeOutcomes over ids: the glue interns the paths (a JavaScript Map) and
 * the texts (by object), and sends each distinct text once, as two keys (its
 * gist, then its body); pairs cross as ids (MD_MERGE_NO_TEXT: no text). */
MDW_HOT_EXPORT("mdw_merge_outcomes")
int mdw_merge_outcomes(const uint8_t *bytes, const uint32_t *offsets, size_t n_texts, const uint32_t *keep_path,
                       const uint32_t *drop_path, size_t n_paths, const uint32_t *keep_text,
                       const uint32_t *drop_text, const double *similarity, size_t n, double max_pairs,
                       double threshold, uint8_t *stages_out) {
    md_str *k = NULL;
    if (n_texts > SIZE_MAX / 2) return mdw_fail(MD_ERR_RANGE, MDW_ARG_merge_outcomes_n_texts, NULL);
    md_status st = mdw_keys(bytes, offsets, 2 * n_texts, &k);
    if (st == MD_OK)
        st = md_merge_outcomes_indexed(k, n_texts, keep_path, drop_path, n_paths, keep_text, drop_text, similarity,
                                       n, max_pairs, threshold, stages_out);
    free(k);
    return st == MD_OK ? MD_OK : mdw_fail(st, MDW_ARG_NONE, NULL);
}

/* keys: edge i's ends are keys[2i], keys[2i+1]. out: [block, n_members,
 * n_components]; block = [u32 key index of each member][u32 starts, n_components + 1]. */
MDW_TEST_EXPORT("mdw_connected_components")
int mdw_connected_components(const uint8_t *bytes, const uint32_t *offsets, size_t n_edges, size_t *out) {
    md_str *k = NULL;
    md_components c = {0, NULL, 0, NULL};
    if (n_edges > SIZE_MAX / 2) return MD_ERR_RANGE;
    md_status st = mdw_keys(bytes, offsets, 2 * n_edges, &k);
    if (st == MD_OK) st = md_connected_components(k, n_edges, &c);
    if (st == MD_OK) {
        uint32_t *block = mdi_alloc_array(c.n_members + c.n_components + 1, sizeof(uint32_t));
        if (!block) {
            st = MD_ERR_NOMEM;
        } else {
            for (size_t i = 0; i < c.n_members; i++) block[i] = (uint32_t)mdw_key_index(k, 2 * n_edges, c.members[i]);
            for (size_t i = 0; i <= c.n_components; i++) block[c.n_members + i] = (uint32_t)c.starts[i];
            out[MDW_OUT_connected_components_block] = (size_t)block;
            out[MDW_OUT_connected_components_members] = c.n_members;
            out[MDW_OUT_connected_components_components] = c.n_components;
        }
    }
    md_components_free(&c);
    free(k);
    return st;
}

/* keys[0]: the canonical; keys[1..n]: the members. keep_out[i] for member i. */
MDW_EXPORT("mdw_exclude_self_supersede")
int mdw_exclude_self_supersede(const uint8_t *bytes, const uint32_t *offsets, size_t n, uint8_t *keep_out) {
    md_str *k = NULL;
    if (n == SIZE_MAX) return MD_ERR_RANGE;
    md_status st = mdw_keys(bytes, offsets, n + 1, &k);
    if (st == MD_OK) st = md_exclude_self_supersede(k[0], k + 1, n, keep_out);
    free(k);
    return st;
}

/* The guards' tokens of one text, space-joined (for the tests). out: [block, len]. */
MDW_TEST_EXPORT("mdw_merge_tokens")
int mdw_merge_tokens(const char *s, size_t len, size_t *out) {
    md_text t;
    md_str in = {s, len};
    md_status st = mdi_merge_tokens(in, &t);
    if (st != MD_OK) return st;
    out[MDW_OUT_merge_tokens_text] = (size_t)t.ptr;
    out[MDW_OUT_merge_tokens_len] = t.len;
    return MD_OK;
}

/* connectedComponents over ids: the glue sends each distinct key once (a
 * key table of n keys) and the edges as ids (ends[2m], each < n). Roots are
 * the smaller key in JavaScript order (rank from one key sort), members come
 * out sorted, components by root. out: [block, n_members, n_components];
 * block = [u32 key id of each member][u32 starts, n_components + 1]. */
MDW_EXPORT("mdw_components_ids")
int mdw_components_ids(const uint8_t *bytes, const uint32_t *offsets, size_t n, const uint32_t *ends, size_t m,
                       size_t *out) {
    md_str *k = NULL;
    if (m > SIZE_MAX / 2) return mdw_fail(MD_ERR_RANGE, MDW_ARG_components_ids_bytes, NULL);
    for (size_t i = 0; i < 2 * m; i++)
        if (ends[i] >= n) return mdw_fail(MD_ERR_INVALID, MDW_ARG_components_ids_bytes, "names a key outside the table");
    md_status st = mdw_keys(bytes, offsets, n, &k);
    size_t *order = NULL, *rank = NULL, *parent = NULL, *count = NULL, *comp = NULL;
    uint32_t *block = NULL;
    if (st == MD_OK) {
        order = mdi_alloc_array(n, sizeof(size_t));
        rank = mdi_alloc_array(n, sizeof(size_t));
        parent = mdi_alloc_array(n, sizeof(size_t));
        comp = mdi_alloc_array(n, sizeof(size_t));
        count = mdi_calloc_array(n + 1, sizeof(size_t));
        if (!order || !rank || !parent || !comp || !count) st = MD_ERR_NOMEM;
    }
    if (st == MD_OK) st = mdi_sort_keys(k, n, order);
    if (st == MD_OK) {
        /* Work in rank space: node r is the r-th key in JavaScript order, so
         * the smaller root is the smaller number. */
        for (size_t r = 0; r < n; r++) { rank[order[r]] = r; parent[r] = r; }
        for (size_t e = 0; e < m; e++) {
            size_t a = rank[ends[2 * e]], b = rank[ends[2 * e + 1]];
            while (parent[a] != a) { parent[a] = parent[parent[a]]; a = parent[a]; }
            while (parent[b] != b) { parent[b] = parent[parent[b]]; b = parent[b]; }
            if (a < b) parent[b] = a; else if (b < a) parent[a] = b;
        }
        /* Ranks ascending: each component first shows its root (its smallest
         * member), so numbering on first sight orders components by root. */
        size_t n_comp = 0;
        for (size_t r = 0; r < n; r++) {
            size_t x = r;
            while (parent[x] != x) x = parent[x];
            parent[r] = x;
            if (x == r) comp[r] = n_comp++;
            count[comp[x] + 1]++;
        }
        block = mdi_alloc_array(n + n_comp + 1, sizeof(uint32_t));
        if (!block) st = MD_ERR_NOMEM;
        else {
            for (size_t c = 0; c < n_comp; c++) count[c + 1] += count[c];
            for (size_t c = 0; c <= n_comp; c++) block[n + c] = (uint32_t)count[c];
            for (size_t r = 0; r < n; r++) block[count[comp[parent[r]]]++] = (uint32_t)order[r];
            out[MDW_OUT_components_ids_block] = (size_t)block;
            out[MDW_OUT_components_ids_members] = n;
            out[MDW_OUT_components_ids_components] = n_comp;
        }
    }
    free(k); free(order); free(rank); free(parent); free(comp); free(count);
    return st == MD_OK ? MD_OK : mdw_fail(st, MDW_ARG_components_ids_bytes, NULL);
}

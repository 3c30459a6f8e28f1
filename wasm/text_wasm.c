/* Test-only boundary: NFC, toLowerCase and key ordering, exported from the
 * test build so the tests can hold them against JavaScript's own. */
#include "boundary.h"
#include "unicode.h"

#include <stdlib.h>

/* out: [text len]; the block holds the WTF-8 result (freed by the glue). */
_Static_assert(MDW_OUT_nfc_text == MDW_OUT_to_lower_text && MDW_OUT_nfc_len == MDW_OUT_to_lower_len,
               "mdw_nfc and mdw_to_lower share their out slots");
static int text_result(md_status st, md_text *t, size_t *out) {
    if (st != MD_OK) return st;
    out[MDW_OUT_nfc_text] = (size_t)t->ptr;
    out[MDW_OUT_nfc_len] = t->len;
    return MD_OK;
}

MDW_TEST_EXPORT("mdw_nfc")
int mdw_nfc(const char *s, size_t len, size_t *out) {
    md_text t;
    md_str in = {s, len};
    return text_result(md_nfc(in, &t), &t, out);
}

MDW_TEST_EXPORT("mdw_to_lower")
int mdw_to_lower(const char *s, size_t len, size_t *out) {
    md_text t;
    md_str in = {s, len};
    return text_result(md_to_lower(in, &t), &t, out);
}

/* md_key_compare(keys[i], keys[j]) as -1, 0 or 1 in out[0] (as an i32). */
MDW_TEST_EXPORT("mdw_key_compare")
int mdw_key_compare(const uint8_t *bytes, const uint32_t *offsets, size_t n, size_t i, size_t j, int32_t *out) {
    md_str *keys = NULL;
    md_status st = mdw_keys(bytes, offsets, n, &keys);
    if (st == MD_OK && (i >= n || j >= n)) st = MD_ERR_RANGE;
    if (st == MD_OK) {
        int c = md_key_compare(keys[i], keys[j]);
        out[MDW_OUT_key_compare_order] = c < 0 ? -1 : c > 0;
    }
    free(keys);
    return st;
}

/* A stable sort of the n keys by md_key_compare: order_out[0..n). */
MDW_TEST_EXPORT("mdw_sort_keys")
int mdw_sort_keys(const uint8_t *bytes, const uint32_t *offsets, size_t n, uint32_t *order_out) {
    md_str *keys = NULL;
    size_t *order = NULL;
    md_status st = mdw_keys(bytes, offsets, n, &keys);
    if (st == MD_OK) {
        order = mdi_alloc_array(n, sizeof(size_t));
        if (!order) st = MD_ERR_NOMEM;
    }
    if (st == MD_OK) {
        st = mdi_sort_keys(keys, n, order);
    }
    if (st == MD_OK)
        for (size_t i = 0; i < n; i++) order_out[i] = (uint32_t)order[i];
    free(order);
    free(keys);
    return st;
}

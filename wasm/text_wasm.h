/* Key tables the text glue writes with one TextEncoder.encodeInto: the keys'
 * UTF-8 back to back plus each key's length in UTF-16 code units, so the
 * glue never walks characters in JavaScript. */
#ifndef MEMDOMAIN_TEXT_WASM_H
#define MEMDOMAIN_TEXT_WASM_H

#include "boundary.h"

/* Views over n keys: key i spans lens[i] UTF-16 units of bytes[0..n_bytes).
 * *out must be freed with free(). MD_ERR_INVALID when the lengths do not
 * fit the bytes. */
md_status mdw_keys_utf16(const uint8_t *bytes, size_t n_bytes, const uint32_t *lens, size_t n, md_str **out);

/* utf16 != 0: `table` is lens for mdw_keys_utf16 over n_bytes; otherwise the
 * n + 1 byte offsets of mdw_keys. */
md_status mdw_text_keys(const uint8_t *bytes, const uint32_t *table, size_t n, int utf16, size_t n_bytes,
                        md_str **out);

#endif

/* Unicode for the text modules: WTF-8 decoding, NFC, full default
 * lowercasing (JavaScript's toLowerCase), JavaScript's \s. Internal, prefix
 * mdi_uni_ / mdi_. The tables are generated (src/unicode_tables.c, by
 * tools/gen_unicode.mjs, Unicode 17.0); this header declares their layout. */
#ifndef MEMDOMAIN_UNICODE_H
#define MEMDOMAIN_UNICODE_H

#include "internal.h"

#include <stddef.h>
#include <stdint.h>

/* Both two-stage tables use blocks of 1 << MDI_UNI_SHIFT code points. */
#define MDI_UNI_SHIFT 7

typedef struct mdi_uni_record {
    uint8_t ccc;   /* canonical combining class */
    uint8_t delta; /* index into mdi_uni_deltas: simple lowercase = cp + delta */
    uint8_t flags; /* MDI_UNI_CASED | MDI_UNI_IGNORABLE | MDI_UNI_NFC_MAYBE */
} mdi_uni_record;

#define MDI_UNI_CASED 1
#define MDI_UNI_IGNORABLE 2
#define MDI_UNI_NFC_MAYBE 4 /* NFC_QC is No or Maybe */

extern const char mdi_uni_version[];
extern const mdi_uni_record mdi_uni_records[];
extern const int32_t mdi_uni_deltas[];
extern const uint8_t mdi_uni_rec_stage1[];
extern const uint8_t mdi_uni_rec_stage2[];
extern const uint8_t mdi_uni_dec_stage1[];
extern const uint16_t mdi_uni_dec_stage2[];
extern const uint16_t mdi_uni_dec_pool[];
extern const size_t mdi_uni_n_comp;
extern const unsigned mdi_uni_max_decomp;
extern const uint32_t mdi_uni_comp_first[];
extern const uint32_t mdi_uni_comp_second[];
extern const uint32_t mdi_uni_comp_result[];

/* Decode WTF-8 (UTF-8, plus lone surrogates as 3-byte sequences) into code
 * points; *out is malloc'ed (free it). MD_ERR_INVALID for malformed bytes,
 * MD_ERR_NOMEM, MD_ERR_NULL. */
md_status mdi_utf8_decode(md_str s, uint32_t **out, size_t *n);
/* Encode code points as WTF-8 into a fresh md_text. */
md_status mdi_utf8_encode(const uint32_t *cps, size_t n, md_text *out);
/* String.prototype.normalize("NFC") over code points; *out malloc'ed. */
md_status mdi_nfc(const uint32_t *in, size_t n, uint32_t **out, size_t *n_out);
/* NFC quick check: true when the code points are certainly NFC already
 * (every NFC_QC is Yes and the combining classes never decrease). */
bool mdi_is_nfc(const uint32_t *cps, size_t n);
/* Byte-level forms over validated WTF-8 (no code point arrays):
 * mdi_utf8_valid checks what mdi_utf8_decode accepts; mdi_is_nfc_utf8 is
 * the quick check; mdi_lower_utf8 writes toLowerCase of s[0..n) to out,
 * which must hold 3 * n / 2 + 4 bytes, and returns the byte count. */
bool mdi_utf8_valid(const uint8_t *s, size_t n);
bool mdi_is_nfc_utf8(const uint8_t *s, size_t n);
size_t mdi_lower_utf8(const uint8_t *s, size_t n, uint8_t *out);
/* The merge tokenizer's view of WTF-8 s[0..n): toLowerCase with each
 * character whose lowercase is not ASCII written as the one byte 0x80 (no
 * token or pattern holds it, so tokens and pattern matches are the same as
 * over the real lowercased text), into out (n bytes suffice). Returns the
 * length, MDI_FOLD_MALFORMED, or (check_nfc) MDI_FOLD_NOT_NFC when s is not
 * certainly NFC (the NFC quick check); the caller then normalizes first. */
#define MDI_FOLD_MALFORMED SIZE_MAX
#define MDI_FOLD_NOT_NFC (SIZE_MAX - 1)
size_t mdi_token_fold_utf8(const uint8_t *s, size_t n, bool check_nfc, uint8_t *out);
/* String.prototype.toLowerCase() over code points; *out malloc'ed. */
md_status mdi_to_lower(const uint32_t *in, size_t n, uint32_t **out, size_t *n_out);
/* The merge guards' tokens of s (NFC, toLowerCase, the contraction
 * expansions, [a-z0-9]+(\.[0-9]+)*), joined by single spaces into *out
 * (for tests: the predicates only ever show booleans). */
md_status mdi_merge_tokens(md_str s, md_text *out);
/* frameKeyOf's core over s[0..n) (md_frame_key_of and the batch boundary
 * share it): the key is work[0..*len) when *found; work must hold
 * mdi_frame_work_size(n) bytes and may be reused across calls. Returns false
 * when s is not valid UTF-8 (checked only when a byte is not ASCII). */
static inline size_t mdi_frame_work_size(size_t n) { return n + n + n / 2 + 8; }
bool mdi_frame_key_into(const uint8_t *s, size_t n, uint8_t *work, size_t *len, bool *found);
/* JavaScript's \s (and trim()) whitespace. */
static inline bool mdi_is_js_space(uint32_t c) {
    if (c < 0x80) return c == 0x20 || (c >= 0x09 && c <= 0x0D);
    return c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}
/* An ASCII word character ([A-Za-z0-9_]), as \b sees them without the u flag. */
static inline bool mdi_is_ascii_word(uint32_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

#endif

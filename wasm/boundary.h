/* The wasm boundary: functions exported exactly as the JavaScript glue calls
 * them. Inputs arrive as flat arrays in linear memory; keys as one byte
 * buffer (WTF-8) plus n + 1 offsets. Results are packed into one block the
 * glue reads and frees with md_free; the block's address and sizes go to the
 * `out` slots the glue passes. Every function returns an md_status. */
#ifndef MEMDOMAIN_BOUNDARY_H
#define MEMDOMAIN_BOUNDARY_H

#include "internal.h"

#include <stdint.h>

/* Export a boundary function from the wasm module under `name`; natively
 * (fuzzing the boundary exactly as the glue calls it) the attribute is absent. */
#if defined(__wasm__)
#define MDW_EXPORT(name) __attribute__((export_name(name)))
#else
#define MDW_EXPORT(name)
#endif

/* Build md_str views over the glue's key table. *out must be freed with free(). */
md_status mdw_keys(const uint8_t *bytes, const uint32_t *offsets, size_t n, md_str **out);

/* The index of the input key that `s` (a view returned by the core) points
 * to. Keys are laid out in order, so this is a binary search on the offset
 * (zero-length keys share an offset with their successor: the length tells
 * them apart, and all zero-length keys are the same string). */
size_t mdw_key_index(const md_str *keys, size_t n, md_str s);

/* Round a byte count up to a multiple of 8 (f64 alignment inside a block). */
static inline size_t mdw_align8(size_t n) { return (n + 7) & ~(size_t)7; }

#endif

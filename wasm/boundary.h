/* The wasm boundary (docs/ARCHITECTURE.md, "The boundary protocol").
 *
 * Every boundary function is exported exactly as the glue calls it and is
 * listed, with its argument and result kinds, in wasm/boundary.def (the one
 * signature table). Conventions:
 *  - Arguments are numbers or addresses inside the caller's exchange region.
 *  - Keys cross as ONE table format: their WTF-8 bytes back to back plus
 *    n + 1 u32 byte offsets (mdw_keys). The glue may write UTF-16 lengths
 *    instead and convert them in place with mdw_key_offsets.
 *  - A function returns an md_status (int), or its f64 result directly
 *    (NaN plus a filled error record when it fails). On failure the error
 *    record says which argument (index in the signature table) and why;
 *    the glue turns that into a TypeError/RangeError naming the argument.
 *  - Variable-size results are written to caller buffers sized by the glue,
 *    or packed into one malloc'ed block whose address goes to out[0]. */
#ifndef MEMDOMAIN_BOUNDARY_H
#define MEMDOMAIN_BOUNDARY_H

#include "internal.h"
#include "boundary_gen.h" /* MDW_ARG_<function>_<argument>, from wasm/boundary.def */

#include <stdint.h>

/* Export a boundary function from the wasm module under `name`; natively
 * (fuzzing the boundary exactly as the glue calls it) the attribute is absent.
 * In the wasm build a boundary function is optimized for size (MDI_SMALL: the
 * module has a size budget) unless it is marked MDW_HOT_EXPORT: those run
 * loops over their whole input (graph, components, merge, frame keys, fusion,
 * MMR, cosine) and stay at -O3 (minsize cost connectedComponents 35% and
 * one-shot pagerank 27%).
 * MDW_TEST_EXPORT marks what only the tests call: it is exported from the
 * test build (MDW_TEST_BUILD) alone. */
#if defined(__wasm__)
#define MDW_EXPORT(name) __attribute__((export_name(name))) MDI_SMALL
#define MDW_HOT_EXPORT(name) __attribute__((export_name(name)))
#else
#define MDW_EXPORT(name)
#define MDW_HOT_EXPORT(name)
#endif
#if defined(__wasm__) && defined(MDW_TEST_BUILD)
#define MDW_TEST_EXPORT(name) __attribute__((export_name(name)))
#else
#define MDW_TEST_EXPORT(name)
#endif

/* The error record (yyjson-style): code is an md_status (0: no error), arg
 * the failing argument's index in the signature table (-1: none), message a
 * constant English phrase completing "<function>: <argument> ...". The glue
 * reads it only after a failure and clears it. */
typedef struct mdw_error_record {
    int32_t code;
    int32_t arg;
    const char *message;
} mdw_error_record;

extern mdw_error_record mdw_err;

/* No argument to name (mdw_fail's arg). */
#define MDW_ARG_NONE (-1)

/* Fill the error record and return `st` (for `return mdw_fail(...)`). arg is
 * an MDW_ARG_<function>_<argument> (wasm/boundary_gen.h) or MDW_ARG_NONE. A NULL
 * message means md_status_string(st). Running out of memory names no
 * argument (arg is recorded as -1 for MD_ERR_NOMEM). */
int mdw_fail(md_status st, int arg, const char *message);

/* Build md_str views over a key table. *out must be freed with free(). */
md_status mdw_keys(const uint8_t *bytes, const uint32_t *offsets, size_t n, md_str **out);

/* The index of the input key that `s` (a view returned by the core) points
 * to. Keys are laid out in order, so this is a binary search on the offset
 * (zero-length keys share an offset with their successor: the length tells
 * them apart, and all zero-length keys are the same string). */
size_t mdw_key_index(const md_str *keys, size_t n, md_str s);

/* Round a byte count up to a multiple of 8 (f64 alignment inside a block). */
static inline size_t mdw_align8(size_t n) { return (n + 7) & ~(size_t)7; }

#endif

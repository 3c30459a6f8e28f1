/* Linked into build/memdomain.allocfail.wasm only (a test build: see the
 * Makefile), with malloc, calloc, realloc and free wrapped at link time:
 * every allocation the module makes, the glue's through md_alloc included,
 * is counted, and the one chosen by mdw_alloc_fail_at fails.
 * tests/js/alloc-each.test.js fails each allocation of a call in turn. */
#include <stddef.h>
#include <stdint.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

static int32_t fail_at = -1; /* < 0: no failure */
static int32_t calls, hit;
static int32_t live; /* blocks allocated and not freed */

static int fail_now(void) {
    if (fail_at < 0 || calls++ != fail_at) return 0;
    hit = 1;
    return 1;
}

void *__wrap_malloc(size_t n) {
    void *p = fail_now() ? NULL : __real_malloc(n);
    live += p != NULL;
    return p;
}
void *__wrap_calloc(size_t n, size_t size) {
    void *p = fail_now() ? NULL : __real_calloc(n, size);
    live += p != NULL;
    return p;
}
void *__wrap_realloc(void *q, size_t n) {
    void *p = fail_now() ? NULL : __real_realloc(q, n);
    live += q == NULL && p != NULL;
    return p;
}
void __wrap_free(void *p) {
    live -= p != NULL;
    __real_free(p);
}

/* From the next allocation on, fail the one numbered n (0: the next); n < 0
 * fails none. Resets the count and the hit flag. */
__attribute__((export_name("mdw_alloc_fail_at"))) void mdw_alloc_fail_at(int32_t n) {
    fail_at = n;
    calls = 0;
    hit = 0;
}

/* 0: whether the chosen allocation was reached; 1: allocations counted since
 * mdw_alloc_fail_at; 2: blocks live now. */
__attribute__((export_name("mdw_alloc_stats"))) int32_t mdw_alloc_stats(int32_t what) {
    return what == 0 ? hit : what == 1 ? calls : live;
}

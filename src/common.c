/* Version, status strings, allocation and JavaScript number helpers. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

uint32_t md_version(void) { return MD_VERSION; }

const char *md_version_string(void) { return MD_VERSION_STRING; }

const char *md_status_string(md_status status) {
    switch (status) {
    case MD_OK: return "ok";
    case MD_ERR_NULL: return "null pointer";
    case MD_ERR_NOMEM: return "out of memory";
    case MD_ERR_RANGE: return "count or size out of range";
    case MD_ERR_INVALID: return "invalid argument";
    }
    return "unknown status";
}

void md_free(void *ptr) { free(ptr); }

void *mdi_alloc_array(size_t n, size_t size) {
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    return malloc(bytes ? bytes : 1);
}

void *mdi_calloc_array(size_t n, size_t size) {
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    if (n == 0 || size == 0) return calloc(1, 1);
    return calloc(n, size);
}

void *md_alloc(size_t n) { return malloc(n ? n : 1); }

/* Boundary for the frame module. */
#include "boundary.h"

/* out: [block, len, found]; block holds the lowercased frame (WTF-8). */
MDW_EXPORT("mdw_frame_key_of")
int mdw_frame_key_of(const char *s, size_t len, size_t *out) {
    md_text t;
    bool found = false;
    md_str in = {s, len};
    md_status st = md_frame_key_of(in, &t, &found);
    if (st != MD_OK) return st;
    out[0] = (size_t)t.ptr;
    out[1] = t.len;
    out[2] = found;
    return MD_OK;
}

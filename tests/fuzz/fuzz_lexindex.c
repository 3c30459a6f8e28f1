/* The resident lexical index under an arbitrary sequence of puts (any key
 * bytes, lengths, terms, hits, repeated terms), deletes and queries (any
 * terms, repeated or unknown, any gist weight, idf and k): every status is
 * one the header states, the structure's invariants hold after each step,
 * and the pruned top-k equals scoring every posting, bit for bit. */
#include <math.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "lexindex.h"
#include "memdomain.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

enum { MAXT = 12, MAXK = 40 };

static int same(double a, double b) { return memcmp(&a, &b, 8) == 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    md_lexindex *ix;
    REQUIRE(md_lexindex_new(&ix) == MD_OK);
    uint32_t terms[MAXT], gist[MAXT], body[MAXT], d1[MAXK], d2[MAXK];
    double idf[MAXT], s1[MAXK], s2[MAXK];
    while (in.n) {
        uint8_t op = take_u8(&in);
        if (op % 4 < 2) { /* put */
            uint32_t doc = take_u8(&in) % 64, len = take_u8(&in);
            if (op & 0x80) doc = take_u8(&in) == 255 ? MD_LEXINDEX_MAX_ID : (uint32_t)take_u8(&in) << 12; /* sparse, or out of range */
            const uint8_t *key;
            size_t kl = take_str(&in, &key);
            size_t n = take_u8(&in) % (MAXT + 1);
            for (size_t i = 0; i < n; i++) {
                terms[i] = take_u8(&in) % 24;
                gist[i] = take_u8(&in) % 3;
                body[i] = take_u8(&in) % 4;
            }
            md_status st = md_lexindex_put(ix, doc, key, kl, len, terms, op & 0x40 ? NULL : gist, body, n);
            REQUIRE(st == MD_OK || st == MD_ERR_INVALID || st == MD_ERR_RANGE);
        } else if (op % 4 == 2) { /* delete */
            md_status st = md_lexindex_delete(ix, take_u8(&in) % 64);
            REQUIRE(st == MD_OK || st == MD_ERR_RANGE);
        } else { /* query */
            size_t n = take_u8(&in) % (MAXT + 1), k = take_u8(&in) % MAXK;
            for (size_t i = 0; i < n; i++) {
                terms[i] = take_u8(&in) % 30;
                idf[i] = 1e-6 + (double)take_u8(&in) / 16;
            }
            double w = (op & 0x40) ? take_num(&in) : (double)(take_u8(&in) % 5);
            const double *pi = (op & 0x80) ? idf : NULL;
            size_t o1[2], o2[2];
            md_status a = md_lexindex_top(ix, terms, n, pi, w, k, d1, s1, o1);
            md_status b = md_lexindex_top_full(ix, terms, n, pi, w, k, d2, s2, o2);
            REQUIRE(a == b);
            REQUIRE(a == MD_OK || (a == MD_ERR_RANGE && !(w >= 0 && isfinite(w))));
            if (a == MD_OK) {
                REQUIRE(o1[0] == o2[0] && o1[0] <= k && o1[1] <= o2[1]);
                for (size_t i = 0; i < o1[0]; i++) REQUIRE(d1[i] == d2[i] && same(s1[i], s2[i]));
            }
        }
        REQUIRE(mdi_lexindex_check(ix) == 0);
    }
    md_lexindex_free(ix);
    return 0;
}

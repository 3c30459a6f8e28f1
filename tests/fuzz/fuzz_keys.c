/* md_key_compare on arbitrary bytes: a total order (antisymmetric,
 * reflexive, transitive on triples) that agrees with byte order whenever no
 * code point >= U+E000 is involved at the first difference. */
#include <stdlib.h>

#include "fuzz_input.h"
#include "memdomain.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)
static int sgn(int x) { return (x > 0) - (x < 0); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    const uint8_t *pa, *pb, *pc;
    size_t la = take_str(&in, &pa), lb = take_str(&in, &pb), lc = take_str(&in, &pc);
    md_str a = {(const char *)pa, la}, b = {(const char *)pb, lb}, c = {(const char *)pc, lc};
    int ab = sgn(md_key_compare(a, b)), ba = sgn(md_key_compare(b, a));
    REQUIRE(ab == -ba);
    REQUIRE(md_key_compare(a, a) == 0);
    REQUIRE((ab == 0) == (la == lb && (la == 0 || memcmp(pa, pb, la) == 0)));
    int bc = sgn(md_key_compare(b, c)), ac = sgn(md_key_compare(a, c));
    if (ab <= 0 && bc <= 0) REQUIRE(ac <= 0);
    if (ab >= 0 && bc >= 0) REQUIRE(ac >= 0);
    return 0;
}

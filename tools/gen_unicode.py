#!/usr/bin/env python3
"""Generate src/unicode_tables.c from the Unicode Character Database.

Usage: python3 tools/gen_unicode.py [UCD_DIR] > src/unicode_tables.c
UCD_DIR defaults to /usr/share/unicode (Debian's unicode-data package).

Reads UnicodeData.txt, DerivedNormalizationProps.txt (Full_Composition_Exclusion, NFC_QC),
DerivedCoreProperties.txt (Cased, Case_Ignorable) and SpecialCasing.txt, and
emits compact two-stage tables for what memdomain needs:

  - a per-code-point record table (canonical combining class, the simple
    lowercase delta, Cased, Case_Ignorable, NFC_QC): cp >> SHIFT selects a block,
    the block holds one record index per code point;
  - the full canonical decomposition of every code point (Hangul is
    algorithmic and not tabled), as UTF-16 units in one pool;
  - the primary composites, sorted by (first, second) for a binary search.

The script checks the assumptions the C code makes (only U+0130 has an
unconditional multi-character lowercase mapping; decompositions fit the
pool encoding) and fails loudly if a future UCD breaks one.
"""
import os
import sys

UCD = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
MAXCP = 0x110000


def fields(name):
    with open(os.path.join(UCD, name), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [x.strip() for x in line.split(";")]


def cp_range(s):
    if ".." in s:
        a, b = s.split("..")
        return range(int(a, 16), int(b, 16) + 1)
    return range(int(s, 16), int(s, 16) + 1)


def version():
    with open(os.path.join(UCD, "DerivedCoreProperties.txt"), encoding="utf-8") as f:
        first = f.readline()
    # "# DerivedCoreProperties-15.0.0.txt"
    return first.strip().lstrip("# ").replace("DerivedCoreProperties-", "").replace(".txt", "")


ccc = [0] * MAXCP
lower = list(range(MAXCP))
decomp = {}  # cp -> single-level canonical decomposition
prev = None
for f in fields("UnicodeData.txt"):
    cp = int(f[0], 16)
    name = f[1]
    if name.endswith(", Last>"):
        for c in range(prev + 1, cp + 1):
            ccc[c] = int(f[3])
        continue
    prev = cp
    ccc[cp] = int(f[3])
    if f[5] and not f[5].startswith("<"):
        decomp[cp] = [int(x, 16) for x in f[5].split()]
    if f[13]:
        lower[cp] = int(f[13], 16)

excluded, nfc_qc_not_yes = set(), set()
for f in fields("DerivedNormalizationProps.txt"):
    if f[1] == "Full_Composition_Exclusion":
        excluded.update(cp_range(f[0]))
    elif f[1] == "NFC_QC" and f[2] in ("N", "M"):
        nfc_qc_not_yes.update(cp_range(f[0]))

cased, ignorable = set(), set()
for f in fields("DerivedCoreProperties.txt"):
    if f[1] == "Cased":
        cased.update(cp_range(f[0]))
    elif f[1] == "Case_Ignorable":
        ignorable.update(cp_range(f[0]))

# SpecialCasing: the unconditional full lowercase mappings that differ from the
# simple ones. The C code special-cases exactly U+0130; make sure that is all.
special_lower = {}
for f in fields("SpecialCasing.txt"):
    if len(f) >= 5 and f[4]:
        continue  # conditional (Final_Sigma, language-specific)
    cp = int(f[0], 16)
    lo = [int(x, 16) for x in f[1].split()]
    if lo != [lower[cp]]:
        special_lower[cp] = lo
assert special_lower == {0x130: [0x69, 0x307]}, special_lower


# mdi_lower_utf8 sizes its output as 1.5 bytes per input byte: no character
# lowercases to more than 1.5 times its UTF-8 length (U+023A, U+023E: 2 -> 3;
# U+0130 -> "i" + U+0307 is 2 -> 3 as well).
def u8len(c):
    return 1 if c < 0x80 else 2 if c < 0x800 else 3 if c < 0x10000 else 4
assert all(2 * u8len(lower[c]) <= 3 * u8len(c) for c in range(MAXCP) if not 0xD800 <= c <= 0xDFFF)


def full_decomp(cp):
    if cp not in decomp:
        return [cp]
    out = []
    for c in decomp[cp]:
        out.extend(full_decomp(c))
    return out


# Primary composites: canonical pairs not excluded from composition.
compositions = []
for cp, d in decomp.items():
    if len(d) == 2 and cp not in excluded:
        compositions.append((d[0], d[1], cp))
compositions.sort()


def utf16(cps):
    out = []
    for c in cps:
        if c >= 0x10000:
            c -= 0x10000
            out += [0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF)]
        else:
            out.append(c)
    return out


# Decomposition pool: [n_units][units...]; index 0 means "none".
pool = [0]
dindex = [0] * MAXCP
max_decomp = 1
for cp in sorted(decomp):
    fd = full_decomp(cp)
    max_decomp = max(max_decomp, len(fd))
    units = utf16(fd)
    assert len(units) < 16
    dindex[cp] = len(pool)
    pool.append(len(units))
    pool.extend(units)
assert len(pool) < 65536

# Per-code-point records: (ccc, lowercase delta, flags).
flags = [0] * MAXCP
for c in cased:
    flags[c] |= 1
for c in ignorable:
    flags[c] |= 2
for c in nfc_qc_not_yes:
    flags[c] |= 4
records, rindex = [], {}
rec_of = [0] * MAXCP
for cp in range(MAXCP):
    r = (ccc[cp], lower[cp] - cp, flags[cp])
    if r not in rindex:
        rindex[r] = len(records)
        records.append(r)
    rec_of[cp] = rindex[r]
assert len(records) < 256, len(records)
deltas = sorted({r[1] for r in records})
assert len(deltas) < 256


def two_stage(values, shift):
    """stage1[cp >> shift] = block number; blocks deduplicated."""
    size = 1 << shift
    blocks, bindex, stage1 = [], {}, []
    for start in range(0, MAXCP, size):
        b = tuple(values[start:start + size])
        if b not in bindex:
            bindex[b] = len(blocks)
            blocks.append(b)
        stage1.append(bindex[b])
    return stage1, blocks


def best(values, elem_bytes):
    choice = None
    for shift in range(4, 11):
        s1, blocks = two_stage(values, shift)
        s1_bytes = 1 if len(blocks) < 256 else 2
        total = len(s1) * s1_bytes + len(blocks) * (1 << shift) * elem_bytes
        if choice is None or total < choice[0]:
            choice = (total, shift, s1, blocks, s1_bytes)
    return choice


SHIFT = 7  # MDI_UNI_SHIFT in src/unicode.h; best() reports the optimum for this UCD


def two_stage_fixed(values, elem_bytes):
    s1, blocks = two_stage(values, SHIFT)
    return None, SHIFT, s1, blocks, 1 if len(blocks) < 256 else 2


def emit_array(out, ctype, name, values, per_line=16):
    out.append("const %s %s[%d] = {" % (ctype, name, len(values)))
    for i in range(0, len(values), per_line):
        out.append("    " + ",".join(str(v) for v in values[i:i + per_line]) + ",")
    out.append("};")


out = []
out.append("/* Unicode %s tables for memdomain: GENERATED, do not edit." % version())
out.append(" * Regenerate with: python3 tools/gen_unicode.py /usr/share/unicode > src/unicode_tables.c")
out.append(" * (Debian package unicode-data; see tools/gen_unicode.py for the layout). */")
out.append('#include "unicode.h"')
out.append("")
out.append('const char mdi_uni_version[] = "%s";' % version())
out.append("")

# record table
_, rshift, rs1, rblocks, rs1b = two_stage_fixed(rec_of, 1)
out.append("/* Records: ccc, index into mdi_uni_deltas, flags (1 Cased, 2 Case_Ignorable, 4 NFC_QC No or Maybe). */")
out.append("const mdi_uni_record mdi_uni_records[%d] = {" % len(records))
for r in records:
    out.append("    {%d, %d, %d}," % (r[0], deltas.index(r[1]), r[2]))
out.append("};")
emit_array(out, "int32_t", "mdi_uni_deltas", deltas, 8)
emit_array(out, "uint8_t" if rs1b == 1 else "uint16_t", "mdi_uni_rec_stage1", rs1)
flat = [v for b in rblocks for v in b]
emit_array(out, "uint8_t", "mdi_uni_rec_stage2", flat, 32)
out.append("")

# decomposition index
_, dshift, ds1, dblocks, ds1b = two_stage_fixed(dindex, 2)
out.append("/* Full canonical decompositions: pool[i] = unit count, then UTF-16 units. */")
emit_array(out, "uint8_t" if ds1b == 1 else "uint16_t", "mdi_uni_dec_stage1", ds1)
flat = [v for b in dblocks for v in b]
emit_array(out, "uint16_t", "mdi_uni_dec_stage2", flat)
emit_array(out, "uint16_t", "mdi_uni_dec_pool", pool)
out.append("")

out.append("/* Primary composites sorted by (first, second). */")
out.append("const size_t mdi_uni_n_comp = %d;" % len(compositions))
out.append("const unsigned mdi_uni_max_decomp = %d;" % max_decomp)
emit_array(out, "uint32_t", "mdi_uni_comp_first", [c[0] for c in compositions], 12)
emit_array(out, "uint32_t", "mdi_uni_comp_second", [c[1] for c in compositions], 12)
emit_array(out, "uint32_t", "mdi_uni_comp_result", [c[2] for c in compositions], 12)

assert rs1b == 1 and ds1b == 1  # unicode.h declares uint8_t stage-1 tables
hdr_types = {
    "REC_S1": "uint8_t" if rs1b == 1 else "uint16_t",
    "DEC_S1": "uint8_t" if ds1b == 1 else "uint16_t",
}
sys.stdout.write("\n".join(out) + "\n")
sys.stderr.write("records %d deltas %d rec shift %d dec shift %d pool %d comps %d max decomp %d s1 types %s\n" % (
    len(records), len(deltas), rshift, dshift, len(pool), len(compositions), max_decomp, hdr_types))

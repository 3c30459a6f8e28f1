// memdomain: the resident lexical index (src/lexindex.c): posting lists per term in blocks with
// score bounds, kept in place by put / delete, and the exact bm25 top-k (block-max MaxScore) as
// FTS5 ranks an OR query of the terms. memdomain/cache's lexical arm answers from it at scale.
import { addr, call, exportsOf, finalizer, f64, out, slots, u32, u8 } from "./core.js";
import { OUT_LEXINDEX_NEW_LEXINDEX, OUT_LEXINDEX_TOP_LEN, OUT_LEXINDEX_TOP_SCORED } from "./constants.js";
import { arr, count, num, numOr, obj, rangeError, str, typeError } from "./validate.js";

/** Documents and terms are integers below this. */
export const LEXICAL_INDEX_MAX_ID = 2 ** 30;

const utf8 = new TextEncoder();

function id(fn, arg, v) {
  num(fn, arg, v);
  if (!Number.isInteger(v) || v < 0 || v >= LEXICAL_INDEX_MAX_ID) throw rangeError(fn, arg, `must be an integer in [0, 2^30), got ${v}`);
  return v;
}

function ids(fn, arg, v) {
  if (!(v instanceof Uint32Array)) throw typeError(fn, arg, "a Uint32Array", v);
  return v;
}

/**
 * A resident lexical index holding `docs` (an array of { doc, key, len, terms, gist, body }, each as
 * put() takes it, put in order). Returns { put(doc, key, len, terms, gist, body), delete(doc),
 * count, df(term), bytes(), top(terms, k, { gistWeight, idf }), free() }. Documents and terms are
 * the caller's integers; `key` (a string) breaks ties of score (UTF-8 byte order, SQLite's BINARY).
 * Call free() when done (a forgotten handle is freed when collected).
 */
export function lexicalIndex(docs = []) {
  const fn = "lexicalIndex", ex = exportsOf();
  arr(fn, "docs", docs);
  count(fn, "docs", docs.length, LEXICAL_INDEX_MAX_ID);
  for (let i = 0; i < docs.length; i++) obj(fn, `docs[${i}]`, docs[i]);
  const ptr = call(fn, "md_lexindex_new", [slots], (r) => r.slot(OUT_LEXINDEX_NEW_LEXINDEX));
  /** Validate and put one document (`at`: the argument's path in an error, after `name: `). */
  function put(name, at, doc, key, len, terms, gist, body) {
    id(name, `${at}doc`, doc);
    const k = utf8.encode(str(name, `${at}key`, key));
    num(name, `${at}len`, len);
    if (!Number.isInteger(len) || len < 0 || len > 0xffffffff) throw rangeError(name, `${at}len`, `must be an integer in [0, 2^32), got ${len}`);
    const n = ids(name, `${at}terms`, terms).length;
    for (const [a, v] of [["gist", gist], ["body", body]])
      if (ids(name, at + a, v).length !== n) throw rangeError(name, at + a, `has ${v.length} entries, terms ${n}`);
    for (let i = 0; i < n; i++) {
      if (terms[i] >= LEXICAL_INDEX_MAX_ID) throw rangeError(name, `${at}terms[${i}]`, `must be below 2^30, got ${terms[i]}`);
      if (gist[i] === 0 && body[i] === 0) throw rangeError(name, `${at}gist[${i}]`, "and body: a term needs a hit");
    }
    call(name, "md_lexindex_put", [addr(ptr), doc, u8(k), k.length, len, u32(terms), u32(gist), u32(body), n], () => undefined);
  }
  try {
    docs.forEach((d, i) => put(fn, `docs[${i}].`, d.doc, d.key, d.len, d.terms, d.gist, d.body));
  } catch (e) {
    ex.md_lexindex_free(ptr);
    throw e;
  }
  let live = true;
  const alive = (name) => {
    if (!live) throw rangeError(name, "this", "was freed");
    if (exportsOf() !== ex) throw rangeError(name, "this", "belongs to an instance replaced by a later init()");
    return name;
  };
  const handle = {
    /**
     * Put document `doc` (replacing it): its key, its tokens `len`, and per distinct term its hits
     * in the gist and in the body (Uint32Arrays of one length; each term needs a hit).
     */
    put(doc, key, len, terms, gist, body) {
      put("lexicalIndex.put", "", doc, key, len, terms, gist, body);
    },
    /** Delete document `doc`: true, or false when it is not in the index. */
    delete(doc) {
      const name = alive("lexicalIndex.delete");
      return ex.md_lexindex_delete(ptr, id(name, "doc", doc)) === 0;
    },
    /** Documents held. */
    get count() {
      return live && exportsOf() === ex ? ex.md_lexindex_count(ptr) >>> 0 : 0;
    },
    /** Documents holding `term`. */
    df(term) {
      const name = alive("lexicalIndex.df");
      num(name, "term", term);
      return Number.isInteger(term) && term >= 0 && term < LEXICAL_INDEX_MAX_ID ? ex.md_lexindex_df(ptr, term) >>> 0 : 0;
    },
    /** Bytes the index holds in WebAssembly memory. */
    bytes() {
      alive("lexicalIndex.bytes");
      return ex.md_lexindex_bytes(ptr) >>> 0;
    },
    /**
     * The best k documents for the OR query of `terms` (a Uint32Array; a term may repeat), by
     * FTS5's bm25 (smaller is better), then key, then doc: { docs: Uint32Array, scores:
     * Float64Array, scored (postings scored) }. options.gistWeight (>= 0, default 1) weights the
     * gist's hits; options.idf (a Float64Array, one per term, each > 0) replaces the index's own
     * idf (fdlibm's log) with the caller's: FTS5's own, from SQLite's ln(), gives FTS5's scores.
     */
    top(terms, k, options = {}) {
      const name = alive("lexicalIndex.top");
      const n = ids(name, "terms", terms).length;
      num(name, "k", k);
      if (!Number.isInteger(k) || k < 0 || k > 2 ** 26) throw rangeError(name, "k", `must be an integer in [0, 2^26], got ${k}`);
      obj(name, "options", options);
      const w = numOr(name, "options.gistWeight", options.gistWeight, 1);
      if (!(w >= 0) || w === Infinity) throw rangeError(name, "options.gistWeight", `must be finite and >= 0, got ${w}`);
      const idf = options.idf ?? null;
      if (idf !== null) {
        if (!(idf instanceof Float64Array)) throw typeError(name, "options.idf", "a Float64Array", idf);
        if (idf.length !== n) throw rangeError(name, "options.idf", `has ${idf.length} entries, terms ${n}`);
        for (let i = 0; i < n; i++)
          if (!(idf[i] > 0) || idf[i] === Infinity) throw rangeError(name, `options.idf[${i}]`, `must be finite and > 0, got ${idf[i]}`);
      }
      const docs = out.u32(k), scores = out.f64(k);
      return call(name, "md_lexindex_top", [addr(ptr), u32(terms), n, idf ? f64(idf) : addr(0), w, k, docs, scores, slots], (r) => {
        const len = r.slot(OUT_LEXINDEX_TOP_LEN);
        return { docs: r.view(docs).slice(0, len), scores: r.view(scores).slice(0, len), scored: r.slot(OUT_LEXINDEX_TOP_SCORED) };
      });
    },
    free() {
      if (!live) return;
      live = false;
      finalizer?.unregister(handle);
      if (exportsOf() === ex) ex.md_lexindex_free(ptr);
    },
  };
  finalizer?.register(handle, { ex, ptr, free: "md_lexindex_free" }, handle);
  return handle;
}

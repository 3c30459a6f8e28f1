// memdomain: the resident lexical index (src/lexindex.c): posting lists per term in blocks with
// score bounds, kept in place by put / delete, and the exact bm25 top-k (block-max MaxScore) as
// FTS5 ranks an OR query of the terms. memdomain/cache's lexical arm answers from it at scale.
import { addr, call, exportsOf, f64, lifetime, out, slots, u32, u8 } from "./core.js";
import { OUT_LEXINDEX_NEW_LEXINDEX, OUT_LEXINDEX_TOP_LEN, OUT_LEXINDEX_TOP_SCORED } from "./constants.js";
import { ARGS } from "./args.js";
import { arg, element, fields, rangeError } from "./validate.js";

/** Documents and terms are integers below this. */
export const LEXICAL_INDEX_MAX_ID = 2 ** 30;

const utf8 = new TextEncoder();
const NEW = ARGS.lexicalIndex, PUT = ARGS["lexicalIndex.put"], DELETE = ARGS["lexicalIndex.delete"];
const DF = ARGS["lexicalIndex.df"], TOP = ARGS["lexicalIndex.top"];

/**
 * A resident lexical index holding `docs` (an array of { doc, key, len, terms, gist, body }, each as
 * put() takes it, put in order). Returns { put(doc, key, len, terms, gist, body), delete(doc),
 * count, df(term), bytes(), top(terms, k, { gistWeight, idf }), free() }. Documents and terms are
 * the caller's integers; `key` (a string) breaks ties of score (UTF-8 byte order, SQLite's BINARY).
 * Call free() when done (a forgotten handle is freed when collected). The arguments' types and
 * ranges are the table's (wasm/boundary.def, the md_lexindex_ rows).
 */
export function lexicalIndex(docs) {
  const ex = exportsOf();
  docs = docs === undefined ? [] : arg(NEW, 0, docs);
  const given = docs.map((d, i) => element(NEW, 0, i, d)); // each an object of the table's field types
  const ptr = call(NEW[0], "md_lexindex_new", [slots], (r) => r.slot(OUT_LEXINDEX_NEW_LEXINDEX));
  /** Put one document, checked as put's row states it (d: PUT, or PUT as the name of docs[i]'s fields). */
  function put(d, doc, key, len, terms, gist, body) {
    const v = [doc, key, len, terms, gist, body];
    for (let i = 0; i < 6; i++) arg(d, i, v[i]);
    const k = utf8.encode(key), n = terms.length;
    for (const [i, a] of [[4, gist], [5, body]])
      if (a.length !== n) throw rangeError(d[0], d[1] + d[2 + 3 * i], `has ${a.length} entries, terms ${n}`);
    for (let i = 0; i < n; i++) {
      if (terms[i] >= LEXICAL_INDEX_MAX_ID) throw rangeError(d[0], `${d[1]}terms[${i}]`, `must be below 2^30, got ${terms[i]}`);
      if (gist[i] === 0 && body[i] === 0) throw rangeError(d[0], `${d[1]}gist[${i}]`, "and body: a term needs a hit");
    }
    call(d[0], "md_lexindex_put", [addr(ptr), doc, u8(k), k.length, len, u32(terms), u32(gist), u32(body), n], () => undefined);
  }
  try {
    given.forEach((f, i) => put([NEW[0], `docs[${i}].`, ...PUT.slice(2)], ...f));
  } catch (e) {
    ex.md_lexindex_free(ptr);
    throw e;
  }
  const alive = (name) => life.alive(name);
  const handle = {
    /**
     * Put document `doc` (replacing it): its key, its tokens `len`, and per distinct term its hits
     * in the gist and in the body (Uint32Arrays of one length; each term needs a hit).
     */
    put(doc, key, len, terms, gist, body) {
      alive(PUT[0]);
      put(PUT, doc, key, len, terms, gist, body);
    },
    /** Delete document `doc`: true, or false when it is not in the index. */
    delete(doc) {
      alive(DELETE[0]);
      return ex.md_lexindex_delete(ptr, arg(DELETE, 0, doc)) === 0;
    },
    /** Documents held. */
    get count() {
      return life.usable ? ex.md_lexindex_count(ptr) >>> 0 : 0;
    },
    /** Documents holding `term`. */
    df(term) {
      alive(DF[0]);
      arg(DF, 0, term);
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
    top(terms, k, options) {
      const name = alive(TOP[0]);
      const n = arg(TOP, 0, terms).length;
      arg(TOP, 1, k);
      const [w, idf = null] = fields(TOP, 2, options);
      if (!(w >= 0) || w === Infinity) throw rangeError(name, "options.gistWeight", `must be finite and >= 0, got ${w}`);
      if (idf !== null) {
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
      life.free();
    },
  };
  const life = lifetime(handle, ex, ptr, "md_lexindex_free");
  return handle;
}

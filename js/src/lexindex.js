// memdomain: the resident lexical index (src/lexindex.c): posting lists per term in blocks with
// score bounds, kept in place by put / delete, and the exact bm25 top-k (block-max MaxScore) as
// FTS5 ranks an OR query of the terms. memdomain/cache's lexical arm answers from it at scale.
import { addr, alloc, call, exportsOf, f64, free, lifetime, out, raise, slots, u32, u8, views } from "./core.js";
import { ERR_INVALID, OUT_LEXINDEX_NEW_LEXINDEX, OUT_LEXINDEX_TOP_LEN, OUT_LEXINDEX_TOP_SCORED } from "./constants.js";
import { ARGS } from "./args.js";
import { arg, element, fields, rangeError, typeError } from "./validate.js";

/** Documents and terms are integers below this. */
export const LEXICAL_INDEX_MAX_ID = 2 ** 30;

const utf8 = new TextEncoder();
const NEW = ARGS.lexicalIndex, PUT = ARGS["lexicalIndex.put"], DELETE = ARGS["lexicalIndex.delete"];
const DF = ARGS["lexicalIndex.df"], TOP = ARGS["lexicalIndex.top"];
const PUT_MANY = "lexicalIndex.putMany";
/** Postings copied into WebAssembly memory at a time by putMany. */
const MANY_CHUNK = 1 << 16;

/** Every posting's term below LEXICAL_INDEX_MAX_ID and with a hit (put's and putMany's check; `at` prefixes the names). */
function checkPostings(name, at, terms, gist, body) {
  for (let i = 0; i < terms.length; i++) {
    if (terms[i] >= LEXICAL_INDEX_MAX_ID) throw rangeError(name, `${at}terms[${i}]`, `must be below 2^30, got ${terms[i]}`);
    if (gist[i] === 0 && body[i] === 0) throw rangeError(name, `${at}gist[${i}]`, "and body: a term needs a hit");
  }
}

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
    checkPostings(d[0], d[1], terms, gist, body);
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
    /**
     * Put many documents, as put() each in turn, at a fraction of put()'s cost per document (one
     * copy into WebAssembly memory per chunk of postings): `docs`, `lens` and `start`
     * Uint32Arrays (start has docs.length + 1 entries, non-decreasing from 0: document i's terms
     * are terms[start[i]..start[i + 1])), `keys` an array of docs.length strings, `terms`, `gist`
     * and `body` Uint32Arrays of start[docs.length] entries. A bad document throws (TypeError or
     * RangeError naming it); the ones before it stay put.
     */
    putMany(docs, keys, lens, start, terms, gist, body) {
      const name = alive(PUT_MANY);
      const v = { docs, lens, start, terms, gist, body };
      for (const k in v) if (!(v[k] instanceof Uint32Array)) throw typeError(name, k, "a Uint32Array", v[k]);
      if (!Array.isArray(keys)) throw typeError(name, "keys", "an array of strings", keys);
      const n = docs.length, np = terms.length;
      for (const [k, a, want] of [["keys", keys, n], ["lens", lens, n], ["start", start, n + 1], ["gist", gist, np], ["body", body, np]])
        if (a.length !== want) throw rangeError(name, k, `has ${a.length} entries, must have ${want}`);
      if (start[0] !== 0 || start[n] !== np) throw rangeError(name, "start", `must run from 0 to terms.length (${np})`);
      for (let i = 0; i < n; i++) {
        if (typeof keys[i] !== "string") throw typeError(name, `keys[${i}]`, "a string", keys[i]);
        if (docs[i] >= LEXICAL_INDEX_MAX_ID) throw rangeError(name, `docs[${i}]`, `must be below 2^30, got ${docs[i]}`);
        if (start[i + 1] < start[i]) throw rangeError(name, `start[${i + 1}]`, `is below start[${i}]`);
      }
      checkPostings(name, "", terms, gist, body);
      // chunks of documents of at most about MANY_CHUNK postings (and one document past it whole)
      for (let a = 0; a < n;) {
        let e = a + 1, keyBytes = 3 * keys[a].length;
        while (e < n && start[e + 1] - start[a] <= MANY_CHUNK && keyBytes + 3 * keys[e].length <= 4 * MANY_CHUNK) keyBytes += 3 * keys[e++].length;
        const p0 = start[a], m = start[e] - p0, bytes = 12 * m + keyBytes + 8;
        const base = alloc(name, "terms", bytes);
        try {
          const { u8: h8, u32: h32 } = views();
          h32.set(terms.subarray(p0, p0 + m), base >>> 2);
          h32.set(gist.subarray(p0, p0 + m), (base >>> 2) + m);
          h32.set(body.subarray(p0, p0 + m), (base >>> 2) + 2 * m);
          const kb = base + 12 * m;
          let at = kb;
          const kat = [];
          for (let i = a; i < e; i++) {
            kat.push(at);
            at += utf8.encodeInto(keys[i], h8.subarray(at, at + 3 * keys[i].length)).written; // as put()
          }
          kat.push(at);
          for (let i = a; i < e; i++) {
            const o = 4 * (start[i] - p0), c = start[i + 1] - start[i];
            const st = ex.md_lexindex_put(ptr, docs[i], kat[i - a], kat[i - a + 1] - kat[i - a], lens[i], base + o, base + 4 * m + o, base + 8 * m + o, c);
            if (st !== 0) {
              if (st === ERR_INVALID) throw rangeError(name, `terms[${start[i]}..${start[i + 1]}]`, `(docs[${i}]) has a term twice`);
              raise(st, name);
            }
          }
        } finally {
          free(base);
        }
        a = e;
      }
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

// memdomain/cache: the lexical arm. FTS5's bm25() order, computed from FTS5's own
// per-phrase scores, kept in JavaScript between writes.
//
// FTS5's bm25 of a row for an OR query of phrases q0..qm-1 is
//   -1.0 * (((0.0 + c0) + c1) + ... + cm-1)
// where ci depends only on phrase i, the row and the table's totals (idf from the
// phrase's own hit count, the row's length, the average length), and ci is exactly
// +0 for a phrase the row does not hold (fts5Bm25Function in SQLite's fts5_aux.c).
// The single-phrase query `MATCH '"qi"'` returns -ci for every row holding qi,
// bit for bit. So each term's (rowid, ci) list is read from FTS5 once and kept (below:
// across writes too), and a query adds its
// terms' lists in query order: the same doubles, the same order, without FTS5
// scoring every matching row again (for a word in most memories that is most of the
// cache, per query). The ties break on path in SQLite's BINARY order (code points).
// A write changes every ci (the row count, the average length and the phrase's hit count
// enter each), so a kept list also holds each row's hits in the gist and in the body, found
// from ci when the list is read (with the gist weighted past any body's length, so the two
// counts are one number's digits) and checked to give ci back bit for bit; after a write the
// new rows are tokenized in a TEMP FTS5 table and the list recomputed (see _learn, _apply,
// _recompute). One kept list serves every integer gist weight: its scores are computed for the
// weight asked (FTS5 adds a weight per hit, integers, exactly).
/**
 * Kept terms' rows (28 bytes each: rowid, score, hits in the gist and the body, version; 36 while
 * a second gist weight's scores are kept too), at most this or LEXICAL_ROWS_PER_MEMORY per live
 * memory, whichever is larger; the least recently used terms go first.
 */
export const LEXICAL_CACHE_ROWS = 1 << 20;
export const LEXICAL_ROWS_PER_MEMORY = 32;
/** ... but never more than this (2^24 rows of 28 bytes) for LEXICAL_ROWS_PER_MEMORY. */
export const LEXICAL_MAX_ROWS = 1 << 24;

/**
 * Warm lists: at the first search, the lists of the words in the most rows are read ahead,
 * heaviest first, every word in at least WARM_MIN_ROWS rows and 1/WARM_SHARE of the live
 * memories, within half the cap on kept rows and WARM_MAX_ROWS. Reading a word's list costs
 * time in proportion to the rows holding it (FTS5 scores each row); these are the words whose
 * first read would otherwise make one search slow at 100k memories (docs/PERFORMANCE.md has the
 * times). They stay kept (the LRU passes them by).
 */
export const WARM_MIN_ROWS = 2048;
export const WARM_SHARE = 64;
/** ... and at most this many rows read ahead (2^22 rows of 28 bytes, once). */
export const WARM_MAX_ROWS = 1 << 22;

/**
 * A weighted hit count is found from its score only up to this: past it two counts' scores could
 * round alike (the score's step between counts f and f + 1 is about 0.3 / f^2 of it, against 2^-53).
 */
const MAX_HITS = 2 ** 22;

/**
 * What a kept list costs beside its rows, counted as this many rows toward the cap (about 1 KB: the
 * list's object, its Map entries and typed arrays' headers): a query word found nowhere keeps an empty
 * list, and without this cost many distinct such words grew the heap while counting 0 rows. An empty list
 * shares one set of zero-length arrays.
 */
export const LIST_ROWS = 40;
/** Words whose row count is kept without a list (df), and words whose FTS5 token is known: at most this many each, the oldest forgotten first. */
export const MAX_COUNTED = 1 << 14;

/**
 * A check the kept lists rely on failed, or the backend lacks what they need (ln(), TEMP tables,
 * FTS5's docsize table): lists are then read again after each write, for the cache's life. Any
 * other error (a read that failed once) only drops the lists; the next search reads them again.
 */
class NotExact extends Error {}
const lacks = (e) => e instanceof NotExact || /no such (function|module|table)|not authorized|SQLITE_AUTH/i.test(messageOf(e));

/** Terms of a query beyond this are ignored by the lexical arm. */
export const MAX_QUERY_TERMS = 64;

/** The words of a user's text as FTS5 will see them: letters, digits and marks, lowercased, first MAX_QUERY_TERMS distinct. */
export function queryTerms(text) {
  const words = String(text).normalize("NFC").match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  const seen = new Set();
  for (const w of words) {
    seen.add(w.toLowerCase());
    if (seen.size >= MAX_QUERY_TERMS) break;
  }
  return [...seen];
}

/**
 * Turn user text into a safe FTS5 query: the text's words (queryTerms) each as a
 * quoted string, joined with OR. No user character reaches FTS5's syntax, so
 * quotes, operators (AND, NEAR, *, ^, column filters) and parentheses are only
 * words or nothing. Empty -> "".
 */
export function ftsQuery(text) {
  return termsQuery(queryTerms(text));
}

export const termsQuery = (terms) => terms.map((w) => `"${w}"`).join(" OR ");

import { lexicalIndex } from "../index.js";
import { messageOf } from "./validate.js";

/**
 * Live memories from which the lexical arm answers from a resident index (memdomain's
 * lexicalIndex: posting lists in blocks with score bounds, kept in place by each write, an exact
 * top-k that skips the blocks which cannot reach it) instead of kept lists: built once from FTS5's
 * own postings (its instance vocabulary), then a query scores a share of the postings and a
 * write costs a tokenization and a few block updates, with no list read again. Unfiltered searches
 * only (a filter's `allow` set goes to the lists). The scores are FTS5's bit for bit: the index
 * takes each term's idf from SQLite's ln(), as FTS5's log() computes it.
 */
export const LEXICAL_INDEX_MIN = 20000;
/** FTS5 instances (a token in a row) read at a time while the index is built. */
const INDEX_CHUNK = 1 << 18;
/**
 * Rows written (added or removed) that the index holds for its next search: past this and 1/8 of
 * its rows it is dropped instead (built again from FTS5 when next used), so writes between
 * searches it does not answer (filtered ones) do not pile up.
 */
const MAX_INDEX_PENDING_ROWS = 16384;
/** A term id no document holds (a query word FTS5's vocabulary has never seen). */
const UNKNOWN_TERM = 2 ** 30 - 1;

const TERM_SQL = "SELECT rowid AS id, bm25(memories_fts) AS s FROM memories_fts WHERE memories_fts MATCH ?";
// bm25 with the gist column weighted (FTS5's per-column weights: gist, then body)
const WEIGHTED_SQL = "SELECT rowid AS id, bm25(memories_fts, ?, 1.0) AS s FROM memories_fts WHERE memories_fts MATCH ?";
const COUNT_SQL = "SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?";

/** SQLite's BINARY order of two well-formed strings (UTF-8 bytes = code points), from UTF-16 units. */
export function byCodePoint(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  let x = a.charCodeAt(i), y = b.charCodeAt(i);
  // surrogates (supplementary code points) sort above U+E000..U+FFFF
  if (x >= 0xd800 && y >= 0xd800) {
    x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
  }
  return x - y;
}

const phrase = (t) => `"${t}"`;
// the arrays of every empty list (never written: appends to a zero-length array allocate)
const EMPTY_F64 = new Float64Array(0), EMPTY_U32 = new Uint32Array(0);

// FTS5's bm25 (fts5Bm25Function): per phrase idf * (f (k1 + 1)) / (f + k1 (1 - b + b D / avgdl)),
// f the row's hits weighted by column, D its tokens, avgdl = tokens / rows, idf from the phrase's
// hit count, evaluated in the same order so the doubles are the same.
const K1 = 1.2, B = 0.75;
const term1 = (idf, f, D, avgdl) => idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * D / avgdl)));
const IDF_SQL = "SELECT ln((? - ? + 0.5) / (? + 0.5)) AS idf";
// A temporary FTS5 table with memories_fts's columns and tokenizer: new rows are tokenized there
// (their tokens per column and size), never in the database's own tables. One per Lexical, named
// at random: caches sharing a connection (and so its TEMP schema) never see each other's rows.
const scratchSql = (t) => ({
  name: t,
  create: [`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t} USING fts5(gist, body)`,
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_i USING fts5vocab(temp, ${t}, instance)`],
  insert: `INSERT INTO temp.${t} (rowid, gist, body) VALUES (?, ?, ?)`,
  read: `SELECT doc, term, col FROM temp.${t}_i`,
  clear: `DELETE FROM temp.${t}`,
  drop: [`DROP TABLE IF EXISTS temp.${t}_i`, `DROP TABLE IF EXISTS temp.${t}`],
});
/**
 * Writes, and rows written, between two searches past which the kept lists are dropped rather
 * than brought up to date: tokenizing a row costs about as much as reading 32 kept rows again
 * (at least MAX_PENDING_ROWS rows are always brought up to date).
 */
const MAX_PENDING = 1024, MAX_PENDING_ROWS = 256, ROWS_PER_PENDING_ROW = 32;

/** A docsize blob's varints (FTS5's column sizes of one row: tokens in the gist, in the body), or null. */
function docColumns(sz) {
  const out = [];
  let i = 0;
  while (i < sz.length) {
    let v = 0;
    for (let k = 0; ; k++) {
      if (i >= sz.length) return null;
      const x = sz[i++];
      if (k === 8) { v = v * 256 + x; break; }
      v = v * 128 + (x & 0x7f);
      if (x < 0x80) break;
    }
    out.push(v);
  }
  return out;
}

export class Lexical {
  constructor() {
    /** rowid -> path, every live memory (the FTS index holds live memories only) */
    this.pathOf = new Map();
    // key -> { key, term, ids: Float64Array (rowids), c: Float64Array (-bm25 of the term alone), max (rowid),
    // and where kept across writes (key: the term) g and b (Uint32Array: hits in the gist and in the body),
    // v (the rowids' versions), and the weight cw, epoch and idf c was computed for (alt: the scores for
    // the weight asked before, while current); else (key: the gist weight and the term) c is FTS5's for that weight }
    this._terms = new Map();
    this._df = new Map(); // term -> rows holding it
    this._rows = 0;
    /** the cap on kept rows; null: LEXICAL_CACHE_ROWS or LEXICAL_ROWS_PER_MEMORY per live memory */
    this.maxRows = null;
    this._acc = new Float64Array(0);
    this._mark = new Uint8Array(0);
    // Kept lists follow writes in place when every list read so far was reproduced from its rows'
    // weighted hits and sizes by FTS5's formula bit for bit (null: not tried yet; false: they are
    // dropped on each write and read again). _pending: the committed writes not applied yet.
    this.exact = null;
    this._pending = [];
    this._pendingRows = 0;
    this._size = null; // per rowid: the row's tokens (FTS5's docsize), with _nRows and _tokens, or null
    this._maxBody = 0; // the most tokens of any body seen: a list is read with the gist weighted past it
    this._nRows = 0;
    this._tokens = 0;
    this._epoch = 0; // bumped by each applied write: a list computed at an older epoch is recomputed
    // per rowid: bumped when its row leaves the index; a kept entry holds the version it was added at,
    // so a removed (or rewritten) row's old entries are dropped when its list is next used
    this._ver = new Uint32Array(0);
    this._tokenOf = new Map(); // a query word -> its FTS5 token (null: not exactly one token)
    this._scratch = scratchSql(`md_lex_${Math.random().toString(36).slice(2, 10)}`);
    this._scratchMade = false;
    /** read the heaviest words' lists ahead (false: only the words searched for are read) */
    this.warm = true;
    this.warmMin = WARM_MIN_ROWS;
    this.warmShare = WARM_SHARE;
    this._warmed = false; // the heavy lists were read ahead since the last drop
    this._pinned = 0; // rows of the lists read ahead
    /** live memories from which the resident index answers (options.lexicalIndexMin; null: never) */
    this.indexMin = LEXICAL_INDEX_MIN;
    // what lexicalStats() reports: unfiltered searches past indexMin the index answered, and those the lists did
    this.stats = { answered: 0, fellBack: 0 };
    this._ix = null; // the resident index (a lexicalIndex handle), or null: not built
    this._ixTerm = new Map(); // FTS5 token -> the index's term id
    this._ixPending = []; // committed writes not applied to the index yet
    this._ixPendingRows = 0; // their rows
    this._ixOff = false; // the backend lacks what the index needs (ln(), TEMP tables, docsize): not tried again
    this._idfOf = new Map(); // "N n" -> FTS5's idf from SQLite's ln()
    /** postings the index scored for the last search it answered (what the bench reports) */
    this.lastScored = 0;
  }

  /** Whether the resident index is built (and answers unfiltered searches). */
  get indexed() {
    return this._ix !== null;
  }

  _dropIndex() {
    this._ix?.free();
    this._ix = null;
    this._ixTerm = new Map();
    this._ixPending = [];
    this._ixPendingRows = 0;
  }

  _termIdOf(token) {
    let id = this._ixTerm.get(token);
    if (id === undefined) this._ixTerm.set(token, (id = this._ixTerm.size));
    return id;
  }

  /** Rows ({ id, ... }) FTS5 tokenized (_tokenize's map) into the index; key: the row's path. */
  _ixPut(ix, rows, got) {
    for (const r of rows) {
      const t = got.get(r.id), n = t ? t.hits.size : 0;
      const terms = new Uint32Array(n), g = new Uint32Array(n), b = new Uint32Array(n);
      let i = 0;
      if (t) for (const [token, [inGist, inBody]] of t.hits) {
        terms[i] = this._termIdOf(token);
        g[i] = inGist;
        b[i++] = inBody;
      }
      ix.put(r.id, this.pathOf.get(r.id) ?? "", t ? t.size : 0, terms, g, b);
    }
  }

  /**
   * The index over every row of FTS5, from FTS5's own postings: its instance vocabulary (every
   * token of every row, in token order) read in chunks of about INDEX_CHUNK instances (split at
   * tokens by memories_vocab's counts) as one number per instance (its row and whether in the
   * gist; the token follows from memories_vocab's counts, in the same order, checked against each
   * token's row count), each row's hits per token counted, the rows' postings sorted by rowid and
   * put at once (putMany); each row's tokens checked against FTS5's docsize.
   */
  async _buildIndex(db) {
    const sizes = new Map();
    let maxId = 0;
    for (const r of await db.all("SELECT id, sz FROM memories_fts_docsize")) {
      const cols = r.sz instanceof Uint8Array ? docColumns(r.sz) : null;
      if (cols === null || cols.length !== 2 || !Number.isSafeInteger(r.id) || r.id < 0) throw new NotExact("docsize");
      sizes.set(r.id, cols[0] + cols[1]);
      if (r.id > maxId) maxId = r.id;
    }
    if (maxId >= UNKNOWN_TERM || maxId > 4 * sizes.size + (1 << 20)) throw new NotExact("rowid"); // rowids for a dense count
    const vi = `${this._scratch.name}_m`;
    await db.all(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vi} USING fts5vocab(main, memories_fts, instance)`);
    this._ixTerm = new Map();
    this._ixPending = [];
    // postings (row, term, gist hits, body hits), grown by doubling
    let cap = 1 << 16, np = 0;
    let pDoc = new Uint32Array(cap), pTerm = new Uint32Array(cap), pG = new Uint32Array(cap), pB = new Uint32Array(cap);
    const push = (doc, term, g, b) => {
      if (np === cap) {
        cap *= 2;
        [pDoc, pTerm, pG, pB] = [pDoc, pTerm, pG, pB].map((a) => grown(a, cap, 0));
      }
      pDoc[np] = doc;
      pTerm[np] = term;
      pG[np] = g;
      pB[np++] = b;
    };
    try {
      // the vocabulary in the instances' order (FTS5's term order), each term's instances and rows
      const vocab = await db.all("SELECT term, doc, cnt FROM memories_vocab");
      for (let a = 0; a < vocab.length;) {
        let e = a, want = 0; // the terms vocab[a..e): about INDEX_CHUNK instances
        while (e < vocab.length && (e === a || want < INDEX_CHUNK)) want += Number(vocab[e++].cnt);
        const where = a === 0 && e === vocab.length ? ["", []] : a === 0 ? [" WHERE term < ?", [vocab[e].term]]
          : e === vocab.length ? [" WHERE term >= ?", [vocab[a].term]] : [" WHERE term >= ? AND term < ?", [vocab[a].term, vocab[e].term]];
        // each instance as one number, row * 2 + (in the gist), in term order then row order: the
        // terms follow from the counts (no string read per instance), checked against each term's rows
        const sql = `SELECT doc * 2 + (col = 'gist') AS x FROM temp.${vi}${where[0]}`;
        const xs = typeof db.numbers === "function" ? (await db.numbers(sql, where[1]))[0] ?? new Float64Array(0)
          : Float64Array.from(await db.all(sql, where[1]), (r) => r.x);
        if (xs.length !== want) throw new NotExact("instances");
        let k = 0;
        for (let t = a; t < e; t++) {
          const id = this._termIdOf(vocab[t].term), end = k + Number(vocab[t].cnt);
          let doc = -1, g = 0, b = 0, rows = 0;
          for (; k < end; k++) {
            const x = xs[k], d = Math.floor(x / 2);
            if (d !== doc) {
              if (d < doc) throw new NotExact("instances"); // not in row order: not the counts' term
              if (doc >= 0) push(doc, id, g, b);
              doc = d;
              g = b = 0;
              rows++;
            }
            if (x - 2 * d === 1) g++;
            else b++;
          }
          if (doc >= 0) push(doc, id, g, b);
          if (rows !== Number(vocab[t].doc)) throw new NotExact("instances");
        }
        a = e;
      }
    } finally {
      await db.all(`DROP TABLE IF EXISTS temp.${vi}`);
    }
    // by row (a counting sort: rowids are dense enough, above)
    const start = new Uint32Array(maxId + 2);
    for (let i = 0; i < np; i++) start[pDoc[i] + 1]++;
    for (let d = 0; d <= maxId; d++) start[d + 1] += start[d];
    const at = start.slice(), terms = new Uint32Array(np), gist = new Uint32Array(np), body = new Uint32Array(np);
    for (let i = 0; i < np; i++) {
      const k = at[pDoc[i]]++;
      terms[k] = pTerm[i];
      gist[k] = pG[i];
      body[k] = pB[i];
    }
    pDoc = pTerm = pG = pB = null;
    // the rows in docsize's order, each with its postings, put at once
    const n = sizes.size, docs = new Uint32Array(n), lens = new Uint32Array(n), keys = new Array(n), from = new Uint32Array(n + 1);
    let i = 0;
    for (const [doc, len] of sizes) {
      const a = start[doc], e = start[doc + 1];
      let hits = 0;
      for (let k = a; k < e; k++) hits += gist[k] + body[k];
      if (hits !== len) throw new NotExact("size"); // FTS5's own count of the row's tokens
      docs[i] = doc;
      lens[i] = len;
      keys[i] = this.pathOf.get(doc) ?? "";
      from[i + 1] = from[i] + e - a;
      i++;
    }
    const put = [terms, gist, body].map((src) => {
      const dst = new Uint32Array(from[n]);
      for (let j = 0; j < n; j++) dst.set(src.subarray(start[docs[j]], start[docs[j] + 1]), from[j]);
      return dst;
    });
    const ix = lexicalIndex();
    try {
      ix.putMany(docs, keys, lens, from, ...put);
      if (ix.count !== sizes.size || start[maxId + 1] !== np) throw new NotExact("rows");
      await this._ixCheck(db, ix);
    } catch (e) {
      ix.free();
      throw e;
    }
    this._ix = ix;
  }

  /**
   * The index's scores against FTS5's own bm25() for one term in a few rows (every row holding it,
   * the gist weighted 1 and 3): where this backend's SQLite computes bm25 otherwise (a fused
   * multiply-add, another log()), the index is not used (NotExact).
   */
  async _ixCheck(db, ix) {
    this._ix = ix;
    try {
      let term = null;
      for (const [token, id] of this._ixTerm) {
        const n = ix.df(id);
        if (n >= 2 && n <= 64) {
          term = [token, id, n];
          break;
        }
      }
      if (!term) return;
      const [token, id, n] = term;
      for (const w of [1, 3]) {
        const want = new Map((await db.all(WEIGHTED_SQL, [w, phrase(token)])).map((r) => [r.id, r.s]));
        const got = ix.top(Uint32Array.of(id), n, { gistWeight: w, idf: await this._ixIdf(db, [id]) });
        if (want.size !== got.docs.length || !got.docs.every((d, i) => Object.is(want.get(d), got.scores[i]))) throw new NotExact("bm25");
      }
    } finally {
      this._ix = null;
    }
  }

  /** The writes since the index was last used, applied to it. */
  async _ixCatchUp(db) {
    this._ixPendingRows = 0;
    while (this._ix && this._ixPending.length) {
      const { removed, added } = this._ixPending.shift();
      for (const id of removed) this._ix.delete(id);
      if (added.length) {
        if (!added.every((r) => r.id < UNKNOWN_TERM)) throw new NotExact("rowid");
        this._ixPut(this._ix, added, await this._tokenize(db, added));
      }
    }
  }

  /** FTS5's idf of each term (FTS5's formula over the index's counts, SQLite's ln(): FTS5's bits). */
  async _ixIdf(db, ids) {
    const N = this._ix.count, keys = [], miss = [];
    for (const id of ids) {
      const n = this._ix.df(id), key = `${N} ${n}`;
      keys.push(key);
      if (n > 0 && !this._idfOf.has(key) && !miss.some((m) => m.key === key)) miss.push({ key, n });
    }
    if (miss.length) {
      if (this._idfOf.size + miss.length > MAX_COUNTED) this._idfOf.clear();
      const sql = `SELECT ${miss.map((_, j) => `ln((? - ? + 0.5) / (? + 0.5)) AS i${j}`).join(", ")}`;
      const [r] = await db.all(sql, miss.flatMap((m) => [N, m.n, m.n]));
      miss.forEach((m, j) => {
        const idf = r?.[`i${j}`];
        if (typeof idf !== "number" || !(idf === idf)) throw new NotExact("no ln()");
        this._idfOf.set(m.key, idf <= 0.0 ? 1e-6 : idf);
      });
    }
    return Float64Array.from(keys, (k) => this._idfOf.get(k) ?? 1); // a term in no row: its idf is never used
  }

  /**
   * top() from the resident index (built at its first use), or null when it cannot answer: a query
   * word that is not exactly one FTS5 token, or the index is not in step with the live memories
   * (then it is built again at the next search).
   */
  async _indexTop(db, terms, depth, gistWeight) {
    if (!Number.isInteger(depth) || depth < 0 || depth > 2 ** 26 || !(gistWeight >= 0) || gistWeight === Infinity) return null;
    try {
      if (!this._ix) await this._buildIndex(db);
      await this._ixCatchUp(db);
      if (this._ix.count !== this.pathOf.size) {
        this._dropIndex();
        return null;
      }
      await this._knowTokens(db, terms);
      const ids = new Uint32Array(terms.length);
      for (let i = 0; i < terms.length; i++) {
        const token = this._tokenOf.get(terms[i]);
        if (typeof token !== "string") return null;
        ids[i] = this._ixTerm.get(token) ?? UNKNOWN_TERM;
      }
      const idf = await this._ixIdf(db, ids);
      const { docs, scores, scored } = this._ix.top(ids, depth, { gistWeight, idf });
      const paths = [];
      for (const d of docs) {
        const p = this.pathOf.get(d);
        if (p === undefined) {
          this._dropIndex();
          return null;
        }
        paths.push(p);
      }
      this.lastScored = scored;
      return { paths, scores: Array.from(scores) };
    } catch (e) {
      this._dropIndex();
      if (lacks(e)) this._ixOff = true;
      return null;
    }
  }

  /** Drop the scratch table (the cache closes; best effort: the connection may be closing too). */
  async close(db) {
    this._dropIndex();
    if (!this._scratchMade) return;
    this._scratchMade = false;
    try {
      for (const q of this._scratch.drop) await db.all(q);
    } catch {
      // a TEMP table goes with its connection anyway
    }
  }

  /** Drop every kept list and count (they are read from FTS5 again when next needed). */
  invalidate() {
    this._terms.clear();
    this._df.clear();
    this._rows = 0;
    this._pinned = 0;
    this._warmed = false;
    this._pending = [];
    this._size = null;
  }

  /**
   * A committed write to the index: rowids removed (or rewritten) and rows added ({ id, gist, body },
   * a rewritten row's new text). Kept lists take it in place at the next search where they can,
   * else they are dropped.
   */
  changed(removed, added) {
    if (this._ix) { // applied at the next search that uses the index; past a share of it, built again then
      this._ixPending.push({ removed, added });
      this._ixPendingRows = (this._ixPendingRows ?? 0) + removed.length + added.length;
      if (this._ixPendingRows > Math.max(MAX_INDEX_PENDING_ROWS, this._ix.count / 8)) this._dropIndex();
    }
    if (removed.length) this._df.clear(); // a removed row's words are not known: counted again
    this._pendingRows = (this._pending.length ? this._pendingRows : 0) + added.length;
    if (this.exact !== true || this._size === null || !(this._terms.size || this._df.size) || this._pending.length >= MAX_PENDING ||
      this._pendingRows > Math.max(MAX_PENDING_ROWS, this._rows / ROWS_PER_PENDING_ROW)) return this.invalidate();
    this._pending.push({ removed, added });
  }

  async load(db) {
    this.pathOf.clear();
    for (const r of await db.all("SELECT id, path FROM memories WHERE superseded_by IS NULL AND archived_at IS NULL")) this.pathOf.set(r.id, r.path);
    this.invalidate();
    this._dropIndex(); // built again from FTS5 at the next search that uses it
  }

  /** Each row's tokens from FTS5's docsize table, the row count and the total (what FTS5's averages hold). */
  async _sizes(db) {
    const rows = await db.all("SELECT id, sz FROM memories_fts_docsize");
    let max = 0;
    for (const r of rows) if (r.id > max) max = r.id;
    const size = new Float64Array(max + 1).fill(-1);
    let tokens = 0, maxBody = 0;
    for (const r of rows) {
      const cols = r.sz instanceof Uint8Array ? docColumns(r.sz) : null;
      if (cols === null || cols.length !== 2 || !Number.isSafeInteger(r.id) || r.id < 0) return false;
      const t = cols[0] + cols[1];
      size[r.id] = t;
      tokens += t;
      if (cols[1] > maxBody) maxBody = cols[1];
    }
    this._maxBody = maxBody;
    this._size = size;
    if (this._ver.length < size.length) this._ver = grown(this._ver, size.length, 0);
    this._nRows = rows.length;
    this._tokens = tokens;
    return true;
  }

  async _idf(db, nHit) {
    const [r] = await db.all(IDF_SQL, [this._nRows, nHit, nHit]);
    const idf = typeof r?.idf === "number" ? r.idf : NaN;
    if (!(idf === idf)) throw new NotExact("no ln()");
    return idf <= 0.0 ? 1e-6 : idf;
  }

  /** The gist weight a list is read with: a power of two above every body's tokens, so f = w g + b splits. */
  _readWeight() {
    let w = 1;
    while (w <= this._maxBody) w *= 2;
    return w;
  }

  /**
   * A list just read from FTS5 with the gist weighted w (_readWeight): find each row's weighted
   * hits f such that FTS5's formula over f, the row's size, the totals and the idf from SQLite's
   * own ln() gives the score read, bit for bit, and split f = w g + b (b, the body's hits, is
   * below w). Any row that does not: lists are not kept across writes (exact = false).
   */
  async _learn(db, list, w) {
    try {
      const { ids, c } = list, n = ids.length, size = this._size;
      const idf = await this._idf(db, n), avgdl = this._tokens / this._nRows;
      const g = n ? new Uint32Array(n) : EMPTY_U32, b = n ? new Uint32Array(n) : EMPTY_U32;
      for (let i = 0; i < n; i++) {
        const D = ids[i] < size.length ? size[ids[i]] : -1;
        if (!(D >= 0)) throw new NotExact("size");
        const K = K1 * (1 - B + B * D / avgdl);
        const guess = (c[i] * K) / (idf * (K1 + 1.0) - c[i]);
        const f = hitsNear(guess, (v) => term1(idf, v, D, avgdl) === c[i]);
        if (f === null) throw new NotExact("formula");
        g[i] = Math.floor(f / w);
        b[i] = f - g[i] * w;
      }
      list.g = g;
      list.b = b;
      list.v = n ? Uint32Array.from(ids, (id) => (id < this._ver.length ? this._ver[id] : 0)) : EMPTY_U32;
      list.cw = w; // c is FTS5's for weight w, at this epoch
      list.epoch = this._epoch;
      list.idf = idf;
      if (this.exact === null) this.exact = true;
    } catch (e) {
      if (lacks(e)) this.exact = false; // else a failed read: this list is not kept across writes, the next may be
    }
  }

  /** The pending writes applied to the kept lists (new rows tokenized in the scratch table), or the lists dropped. */
  async _catchUp(db) {
    if (!this._pending.length) return;
    const pending = this._pending;
    this._pending = [];
    try {
      await this._apply(db, pending);
    } catch (e) {
      if (lacks(e)) this.exact = false;
      this.invalidate();
    }
  }

  async _makeScratch(db) {
    if (this._scratchMade) return;
    for (const q of this._scratch.create) await db.all(q);
    this._scratchMade = true;
  }

  async _apply(db, pending) {
    await this._makeScratch(db);
    for (const l of [...this._terms.values()]) if (!l.g) this._drop(l);
    // the FTS5 token of every kept list's word and every counted word (a query phrase of one token, or not kept)
    await this._knowTokens(db, [...new Set([...[...this._terms.values()].map((l) => l.term), ...this._df.keys()])]);
    for (const l of [...this._terms.values()]) if (this._tokenOf.get(l.term) === null) this._drop(l);
    for (const w of [...this._df.keys()]) if (this._tokenOf.get(w) === null) this._df.delete(w);
    const lists = new Map(), counted = new Map(); // token -> kept lists, token -> counted words
    for (const l of this._terms.values()) {
      const t = this._tokenOf.get(l.term);
      if (!lists.has(t)) lists.set(t, []);
      lists.get(t).push(l);
    }
    for (const w of this._df.keys()) {
      if (this._terms.has(w)) continue; // counted by its list
      const t = this._tokenOf.get(w);
      if (!counted.has(t)) counted.set(t, []);
      counted.get(t).push(w);
    }
    for (const { removed, added } of pending) {
      for (const id of removed) {
        const D = id < this._size.length ? this._size[id] : -1;
        if (D < 0) throw new NotExact("rowid removed twice");
        this._nRows--;
        this._tokens -= D;
        this._size[id] = -1;
        this._ver[id]++; // its entries go when their lists are next used
      }
      if (!added.length) continue;
      const got = await this._tokenize(db, added);
      const more = new Map(); // list -> { ids, g, b, v } to append
      for (const { id } of added) {
        const t = got.get(id);
        const D = t ? t.size : 0;
        if (id >= this._size.length) this._size = grown(this._size, Math.max(id + 1, 2 * this._size.length), -1);
        if (id >= this._ver.length) this._ver = grown(this._ver, Math.max(id + 1, 2 * this._ver.length), 0);
        if (this._size[id] >= 0) throw new NotExact("rowid added twice");
        this._size[id] = D;
        this._nRows++;
        this._tokens += D;
        if (!t) continue;
        for (const [token, [inGist, inBody]] of t.hits) {
          for (const w of counted.get(token) ?? []) this._df.set(w, this._df.get(w) + 1);
          if (inBody > this._maxBody) this._maxBody = inBody;
          for (const l of lists.get(token) ?? []) {
            let m = more.get(l);
            if (!m) more.set(l, (m = { ids: [], g: [], b: [], v: [] }));
            m.ids.push(id);
            m.g.push(inGist);
            m.b.push(inBody);
            m.v.push(this._ver[id]);
            if (id > l.max) l.max = id;
          }
        }
      }
      for (const [l, m] of more) {
        l.ids = append(l.ids, m.ids);
        l.g = append(l.g, m.g);
        l.b = append(l.b, m.b);
        l.v = append(l.v, m.v);
        this._rows += m.ids.length;
        if (l.pinned) this._pinned += m.ids.length;
      }
    }
    if (this._nRows !== this.pathOf.size) throw new NotExact("rows"); // the index holds the live memories
    this._epoch++;
  }

  _drop(l) {
    this._terms.delete(l.key);
    this._df.delete(l.term); // counted by the list while it was kept: the count beside it may be behind
    this._rows -= l.ids.length;
    if (l.pinned) this._pinned -= l.ids.length;
  }

  /**
   * Know the FTS5 token of each of `words` (distinct): _tokenOf maps a word to its token, or null when
   * it is not exactly one token. A memo: past MAX_COUNTED words it starts again from these.
   */
  async _knowTokens(db, words) {
    let unknown = words.filter((w) => !this._tokenOf.has(w));
    if (!unknown.length) return;
    if (this._tokenOf.size + unknown.length > MAX_COUNTED) {
      this._tokenOf.clear();
      unknown = words;
    }
    const got = await this._tokenize(db, unknown.map((w, i) => ({ id: i + 1, gist: w, body: "" })));
    unknown.forEach((w, i) => {
      const t = got.get(i + 1);
      this._tokenOf.set(w, t && t.hits.size === 1 && t.size === 1 ? [...t.hits.keys()][0] : null);
    });
  }

  /** Rows tokenized by FTS5 in the scratch table: Map id -> { size (tokens), hits: Map token -> [in gist, in body] }. */
  async _tokenize(db, rows) {
    await this._makeScratch(db);
    const out = new Map();
    try {
      for (const r of rows) await db.all(this._scratch.insert, [r.id, r.gist, r.body]);
      for (const r of await db.all(this._scratch.read)) {
        let t = out.get(r.doc);
        if (!t) out.set(r.doc, (t = { size: 0, hits: new Map() }));
        t.size++;
        let h = t.hits.get(r.term);
        if (!h) t.hits.set(r.term, (h = [0, 0]));
        h[r.col === "gist" ? 0 : 1]++;
      }
    } finally {
      await db.all(this._scratch.clear);
    }
    return out;
  }

  /** A kept list without the rows that left the index (or were rewritten) since it was last used. */
  _compact(l) {
    const ver = this._ver;
    let k = 0;
    for (let i = 0; i < l.ids.length; i++) {
      const id = l.ids[i];
      if (l.v[i] !== ver[id]) continue; // its row left the index (or was rewritten) since
      l.ids[k] = id;
      l.g[k] = l.g[i];
      l.b[k] = l.b[i];
      l.v[k] = l.v[i];
      k++;
    }
    if (k < l.ids.length) { // views of the same buffers: appends reuse the room
      this._rows -= l.ids.length - k;
      if (l.pinned) this._pinned -= l.ids.length - k;
      l.ids = l.ids.subarray(0, k);
      l.g = l.g.subarray(0, k);
      l.b = l.b.subarray(0, k);
      l.v = l.v.subarray(0, k);
    }
  }

  /**
   * A kept list's scores for the gist weighted w, after writes or for another weight: the same
   * formula over its rows' hits (f = w g + b, as FTS5 adds w per gist hit and 1 per body hit, in
   * integers), sizes and the current totals.
   */
  async _recompute(db, l, w) {
    let c = null;
    if (l.epoch !== this._epoch) {
      this._compact(l);
      l.idf = await this._idf(db, l.ids.length);
      l.epoch = this._epoch;
      l.alt = null;
      if (l.c && l.c.length === l.ids.length) c = l.c; // stale: its buffer is reused
    } else if (l.alt && l.alt.cw === w) { // the other weight's scores, still current (two compositions in turn)
      [l.c, l.cw, l.alt] = [l.alt.c, l.alt.cw, { c: l.c, cw: l.cw }];
      return;
    } else l.alt = { c: l.c, cw: l.cw };
    const { ids, g, b, idf } = l, avgdl = this._tokens / this._nRows, size = this._size;
    c ??= new Float64Array(ids.length);
    for (let i = 0; i < c.length; i++) c[i] = term1(idf, w * g[i] + b[i], size[ids[i]], avgdl);
    l.c = c;
    l.cw = w;
  }

  /** How many rows hold the term (FTS5's nHit for its phrase). */
  async df(db, term) {
    if (this._ix) {
      try {
        await this._ixCatchUp(db);
        await this._knowTokens(db, [term]);
        const token = this._tokenOf.get(term);
        if (this._ix && this._ix.count === this.pathOf.size && typeof token === "string") return this._ix.df(this._ixTerm.get(token) ?? UNKNOWN_TERM);
      } catch (e) {
        this._dropIndex();
        if (lacks(e)) this._ixOff = true;
      }
    }
    await this._catchUp(db);
    const l = this._terms.get(term);
    if (l) {
      this._compact(l); // its rows now: appended by writes, removed ones left out
      return l.ids.length;
    }
    let n = this._df.get(term);
    if (n === undefined) n = Number((await db.all(COUNT_SQL, [phrase(term)]))[0].n);
    this._count(term, n);
    return n;
  }

  /** (ids, -bm25) of the term alone from FTS5, the gist weighted w. */
  async _read(db, term, w) {
    let ids, c;
    const [sql, params] = w === 1 ? [TERM_SQL, [phrase(term)]] : [WEIGHTED_SQL, [w, phrase(term)]];
    if (typeof db.numbers === "function") {
      const cols = await db.numbers(sql, params);
      ids = cols.length ? cols[0] : new Float64Array(0);
      c = cols.length ? cols[1] : new Float64Array(0);
    } else {
      const rows = await db.all(sql, params);
      ids = Float64Array.from(rows, (r) => r.id);
      c = Float64Array.from(rows, (r) => r.s);
    }
    if (ids.length === 0) return { term, ids: EMPTY_F64, c: EMPTY_F64, max: 0 }; // a word found nowhere: no buffers of its own
    let max = 0;
    for (let i = 0; i < c.length; i++) {
      c[i] = -c[i];
      if (ids[i] > max) max = ids[i];
    }
    return { term, ids, c, max };
  }

  /**
   * A term's (rowid, -bm25) list with the gist column weighted `gistWeight`: a kept list (key: the
   * term; its scores computed for the weight asked), or where lists are not kept across writes, FTS5's
   * list for that weight (key: the weight and the term).
   */
  async _list(db, term, gistWeight = 1) {
    await this._catchUp(db);
    for (const key of [term, `${gistWeight}\u0000${term}`]) {
      const list = this._terms.get(key);
      if (!list) continue;
      this._terms.delete(key); // most recently used last
      this._terms.set(key, list);
      if (list.g && (list.epoch !== this._epoch || list.cw !== gistWeight)) {
        try {
          await this._recompute(db, list, gistWeight);
        } catch (e) {
          if (lacks(e)) this.exact = false;
          this.invalidate();
          return this._list(db, term, gistWeight); // read afresh (a read that fails again rejects the search)
        }
      }
      return list;
    }
    if (this.exact !== false && this._size === null) {
      try {
        if (!(await this._sizes(db))) this.exact = false;
      } catch (e) {
        if (lacks(e)) this.exact = false; // else this list is read as FTS5 gives it; the next tries the sizes again
      }
    }
    let list = null;
    if (this.exact !== false && this._size !== null) {
      const w = this._readWeight();
      list = await this._read(db, term, w);
      await this._learn(db, list, w);
      if (list.g && w !== gistWeight) {
        try {
          await this._recompute(db, list, gistWeight);
          list.alt = null; // the read weight's scores are not asked for
        } catch (e) {
          if (lacks(e)) this.exact = false;
          list = null;
        }
      }
      // not kept across writes: FTS5's list for this weight (the one just read, if it was read with it)
      if (list && (list.g ? this.exact === false : w !== gistWeight)) list = null;
    }
    list ??= await this._read(db, term, gistWeight);
    list.key = list.g ? term : `${gistWeight}\u0000${term}`;
    this._terms.set(list.key, list);
    this._count(term, list.ids.length);
    this._rows += list.ids.length;
    const cap = this._cap();
    for (const [t, l] of this._terms) {
      if (this._weight() <= cap) break;
      if (t !== list.key && !l.pinned) this._drop(l);
    }
    return list;
  }

  /** What the kept lists count toward the cap: their rows, and LIST_ROWS for each list. */
  _weight() {
    return this._rows + LIST_ROWS * this._terms.size;
  }

  /** Keep a word's row count (most recently counted last; past MAX_COUNTED the oldest is forgotten). */
  _count(term, n) {
    this._df.delete(term);
    this._df.set(term, n);
    if (this._df.size > MAX_COUNTED) this._df.delete(this._df.keys().next().value);
  }

  _cap() {
    return this.maxRows ?? Math.max(LEXICAL_CACHE_ROWS, Math.min(LEXICAL_MAX_ROWS, LEXICAL_ROWS_PER_MEMORY * this.pathOf.size));
  }

  /**
   * Read ahead the lists of the words in the most rows (FTS5's vocabulary counts), heaviest first:
   * each word in at least warmMin rows and 1/warmShare of the live memories whose list fits within
   * half the cap. Only while lists follow writes (exact): else a write would drop them all again.
   * Their scores are computed for `gistWeight` (the search's), and for another weight when asked.
   */
  async _warmUp(db, gistWeight) {
    this._warmed = true;
    const min = Math.max(this.warmMin, Math.ceil(this.pathOf.size / this.warmShare));
    if (this.pathOf.size < min) return;
    let heavy;
    try {
      heavy = await db.all("SELECT term, doc FROM memories_vocab WHERE doc >= ?", [min]);
    } catch {
      return; // no vocabulary table: words are read when searched for
    }
    heavy.sort((a, b) => b.doc - a.doc || byCodePoint(a.term, b.term));
    const budget = Math.min(this._cap() / 2, WARM_MAX_ROWS);
    for (const { term, doc } of heavy) {
      if (this.exact !== true || !this._warmed) return;
      if (typeof term !== "string" || this._pinned + Number(doc) > budget) continue;
      const l = await this._list(db, term, gistWeight);
      if (!l.pinned && this._terms.get(l.key) === l) {
        l.pinned = true;
        this._pinned += l.ids.length;
      }
    }
  }

  /**
   * The bm25 (as top() scores it: smaller is better) that a row holding `gist` and `body` would have
   * for the OR query of `terms`, the gist weighted `gistWeight`, against the index's totals and each
   * term's row count as they are; null when it holds none of the terms. One score per item ({ terms,
   * gist, body }). Calibration scores a memory this way with a pseudo-query's span taken out of its
   * text (calibrate.js). FTS5 tokenizes the texts (in the scratch table, all at once) and the terms.
   */
  async scoreTexts(db, items, gistWeight = 1) {
    await this._catchUp(db);
    if (this._size === null && !(await this._sizes(db))) throw new Error("FTS5's docsize table is not in the format this cache reads");
    await this._makeScratch(db);
    await this._knowTokens(db, [...new Set(items.flatMap((it) => it.terms))]);
    const rows = await this._tokenize(db, items.map((it, i) => ({ id: i + 1, gist: it.gist, body: it.body })));
    const avgdl = this._tokens / this._nRows, idfOf = new Map();
    const out = [];
    for (const [i, it] of items.entries()) {
      const row = rows.get(i + 1);
      let sum = 0.0, any = false;
      for (const w of row ? it.terms : []) {
        const h = row.hits.get(this._tokenOf.get(w));
        if (!h) continue;
        const n = Math.max(await this.df(db, w), 1);
        if (!idfOf.has(n)) idfOf.set(n, await this._idf(db, n));
        sum += term1(idfOf.get(n), gistWeight * h[0] + h[1], row.size, avgdl);
        any = true;
      }
      out.push(any ? -1.0 * sum : null);
    }
    return out;
  }

  /**
   * The terms FTS5 is asked for: a term in at least half of the `live` memories is
   * left out when another term matches something (FTS5 clamps its IDF to 1e-6, so it
   * adds nothing to a score but makes bm25 score nearly every row); else all terms.
   */
  async informative(db, terms, live) {
    const df = [];
    for (const t of terms) df.push(await this.df(db, t));
    const kept = terms.filter((_, i) => !(2 * df[i] >= live));
    return kept.some((t) => df[terms.indexOf(t)] > 0) ? kept : terms;
  }

  /**
   * The top `depth` live memories by bm25 asc, path asc (code points), for the OR query of `terms`,
   * the gist column weighted `gistWeight` (bm25(memories_fts, gistWeight, 1.0)): { paths, scores }
   * (scores: each path's bm25, the smaller the better). `allow` (a Set of rowids, or null): only
   * those rows are ranked (a filter's), the top `depth` among them.
   */
  async top(db, terms, depth, gistWeight = 1, allow = null) {
    if (allow === null && terms.length && this.indexMin !== null && (this._ix || this.pathOf.size >= this.indexMin)) {
      const r = this._ixOff ? null : await this._indexTop(db, terms, depth, gistWeight);
      if (r) {
        this.stats.answered++;
        return r;
      }
      this.stats.fellBack++;
    }
    const lists = [];
    for (const t of terms) lists.push(await this._list(db, t, gistWeight));
    if (this.warm && this.exact === true && !this._warmed) await this._warmUp(db, gistWeight);
    if (lists.length === 1) return this._select(lists[0].ids, lists[0].c, depth, allow); // 0.0 + c0 is c0
    let max = 0;
    for (const l of lists) if (l.max > max) max = l.max;
    const { ids, sums } = max < 2 ** 24 || max <= 4 * this.pathOf.size ? this._addDense(lists, max) : addSparse(lists);
    return this._select(ids, sums, depth, allow);
  }

  /** Each row's sum of its terms' scores, added in phrase order as fts5Bm25Function adds them (0.0 + c0 + c1 ...). */
  _addDense(lists, max) {
    if (this._acc.length <= max) {
      this._acc = new Float64Array(Math.max(max + 1, 2 * this._acc.length));
      this._mark = new Uint8Array(this._acc.length);
    }
    const acc = this._acc, mark = this._mark, touched = [];
    for (const { ids, c } of lists) {
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        if (!mark[id]) {
          mark[id] = 1;
          acc[id] = 0.0;
          touched.push(id);
        }
        acc[id] += c[j];
      }
    }
    const sums = new Float64Array(touched.length);
    for (let i = 0; i < touched.length; i++) {
      sums[i] = acc[touched[i]];
      mark[touched[i]] = 0;
    }
    return { ids: touched, sums };
  }

  /** The top `depth` by bm25 = -1.0 * sum asc, then path asc; rows no longer live are skipped. */
  _select(ids, sums, depth, allow = null) {
    const pathOf = this.pathOf;
    const better = (s, p, t, q) => s < t || (s === t && byCodePoint(p, q) < 0);
    if (depth > 100) { // a threshold from a native sort, then a full sort of what passes it
      const cand = [];
      for (let i = 0; i < ids.length; i++) {
        const path = allow && !allow.has(ids[i]) ? undefined : pathOf.get(ids[i]);
        if (path !== undefined) cand.push({ path, s: -1.0 * sums[i] });
      }
      let pass = cand;
      if (cand.length > depth) {
        const limit = Float64Array.from(cand, (x) => x.s).sort()[depth - 1];
        pass = cand.filter((x) => x.s <= limit);
      }
      const best = pass.sort((a, b) => (better(a.s, a.path, b.s, b.path) ? -1 : 1)).slice(0, depth);
      return { paths: best.map((x) => x.path), scores: best.map((x) => x.s) };
    }
    const top = [], score = [];
    for (let i = 0; i < ids.length; i++) {
      const s = -1.0 * sums[i];
      if (top.length === depth && s > score[depth - 1]) continue; // worse than the last kept: no path needed
      if (allow && !allow.has(ids[i])) continue;
      const path = pathOf.get(ids[i]);
      if (path === undefined) continue;
      if (top.length === depth && !better(s, path, score[depth - 1], top[depth - 1])) continue;
      let j = top.length === depth ? depth - 1 : top.length;
      while (j > 0 && better(s, path, score[j - 1], top[j - 1])) {
        top[j] = top[j - 1];
        score[j] = score[j - 1];
        j--;
      }
      top[j] = path;
      score[j] = s;
    }
    return { paths: top, scores: score };
  }
}

/**
 * The weighted hit count near `guess` that `ok` accepts, or null (with integer weights every
 * weighted count is an integer; past MAX_HITS a count is not told from its neighbours).
 */
function hitsNear(guess, ok) {
  if (!(guess >= 0) || guess > MAX_HITS) return null;
  const r = Math.round(guess);
  return r >= 1 && ok(r) ? r : null;
}

/** A typed array of `n` elements holding `a` first, the rest `fill`. */
function grown(a, n, fill) {
  const b = new a.constructor(n);
  if (fill !== 0) b.fill(fill, a.length);
  b.set(a);
  return b;
}

/**
 * `a` (a typed array, possibly a view of the start of a larger buffer) with `more` after it: in
 * the same buffer when there is room, else in one a quarter larger (appends cost O(1) each).
 */
function append(a, more) {
  const n = a.length + more.length, cap = a.buffer.byteLength / a.BYTES_PER_ELEMENT;
  let b;
  if (a.byteOffset === 0 && n <= cap) b = new a.constructor(a.buffer, 0, n);
  else {
    b = new a.constructor(new a.constructor(Math.max(n, a.length + (a.length >> 2), 16)).buffer, 0, n);
    b.set(a);
  }
  b.set(more, a.length);
  return b;
}

/** _addDense for rowids too large for an array indexed by rowid. */
function addSparse(lists) {
  const acc = new Map();
  for (const { ids, c } of lists) for (let j = 0; j < ids.length; j++) acc.set(ids[j], (acc.get(ids[j]) ?? 0.0) + c[j]);
  return { ids: [...acc.keys()], sums: Float64Array.from(acc.values()) };
}

// memdomain/cache: the lexical arm. FTS5's bm25() order, computed from FTS5's own
// per-phrase scores, kept in JavaScript between writes.
//
// FTS5's bm25 of a row for an OR query of phrases q0..qm-1 is
//   -1.0 * (((0.0 + c0) + c1) + ... + cm-1)
// where ci depends only on phrase i, the row and the table's totals (idf from the
// phrase's own hit count, the row's length, the average length), and ci is exactly
// +0 for a phrase the row does not hold (fts5Bm25Function in SQLite's fts5_aux.c).
// The single-phrase query `MATCH '"qi"'` returns -ci for every row holding qi,
// bit for bit. So each term's (rowid, ci) list is read from FTS5 once and kept until
// the next write that changes the index (put, delete, sleep), and a query adds its
// terms' lists in query order: the same doubles, the same order, without FTS5
// scoring every matching row again (for a word in most memories that is most of the
// cache, per query). The ties break on path in SQLite's BINARY order (code points).
/**
 * Kept terms' rows (16 bytes each), at most this or LEXICAL_ROWS_PER_MEMORY per live
 * memory, whichever is larger; the least recently used terms go first.
 */
export const LEXICAL_CACHE_ROWS = 1 << 20;
export const LEXICAL_ROWS_PER_MEMORY = 16;

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

export class Lexical {
  constructor() {
    /** rowid -> path, every live memory (the FTS index holds live memories only) */
    this.pathOf = new Map();
    this._terms = new Map(); // term -> { ids: Float64Array (rowids), c: Float64Array } (c = -bm25 of the term alone)
    this._df = new Map(); // term -> rows holding it
    this._rows = 0;
    /** the cap on kept rows; null: LEXICAL_CACHE_ROWS or LEXICAL_ROWS_PER_MEMORY per live memory */
    this.maxRows = null;
    this._acc = new Float64Array(0);
    this._mark = new Uint8Array(0);
  }

  /** Every cached score is stale after a write to the index. */
  invalidate() {
    this._terms.clear();
    this._df.clear();
    this._rows = 0;
  }

  async load(db) {
    this.pathOf.clear();
    for (const r of await db.all("SELECT id, path FROM memories WHERE superseded_by IS NULL")) this.pathOf.set(r.id, r.path);
    this.invalidate();
  }

  /** How many rows hold the term (FTS5's nHit for its phrase). */
  async df(db, term) {
    const list = this._terms.get(term);
    if (list) return list.ids.length;
    let n = this._df.get(term);
    if (n === undefined) {
      n = Number((await db.all(COUNT_SQL, [phrase(term)]))[0].n);
      this._df.set(term, n);
    }
    return n;
  }

  /** A term's (rowid, -bm25) list, the gist column weighted `gistWeight` (kept per term and weight). */
  async _list(db, term, gistWeight = 1) {
    const key = gistWeight === 1 ? term : `${gistWeight}\u0000${term}`;
    let list = this._terms.get(key);
    if (list) {
      this._terms.delete(key); // most recently used last
      this._terms.set(key, list);
      return list;
    }
    let ids, c;
    const [sql, params] = gistWeight === 1 ? [TERM_SQL, [phrase(term)]] : [WEIGHTED_SQL, [gistWeight, phrase(term)]];
    if (typeof db.numbers === "function") {
      const cols = await db.numbers(sql, params);
      ids = cols.length ? cols[0] : new Float64Array(0);
      c = cols.length ? cols[1] : new Float64Array(0);
    } else {
      const rows = await db.all(sql, params);
      ids = Float64Array.from(rows, (r) => r.id);
      c = Float64Array.from(rows, (r) => r.s);
    }
    let max = 0;
    for (let i = 0; i < c.length; i++) {
      c[i] = -c[i];
      if (ids[i] > max) max = ids[i];
    }
    list = { ids, c, max };
    this._terms.set(key, list);
    this._df.set(term, ids.length);
    this._rows += ids.length;
    const cap = this.maxRows ?? Math.max(LEXICAL_CACHE_ROWS, LEXICAL_ROWS_PER_MEMORY * this.pathOf.size);
    for (const [t, l] of this._terms) {
      if (this._rows <= cap || t === key) break;
      this._terms.delete(t);
      this._rows -= l.ids.length;
    }
    return list;
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
   * (scores: each path's bm25, the smaller the better).
   */
  async top(db, terms, depth, gistWeight = 1) {
    const lists = [];
    for (const t of terms) lists.push(await this._list(db, t, gistWeight));
    if (lists.length === 1) return this._select(lists[0].ids, lists[0].c, depth); // 0.0 + c0 is c0
    let max = 0;
    for (const l of lists) if (l.max > max) max = l.max;
    const { ids, sums } = max < 2 ** 24 || max <= 4 * this.pathOf.size ? this._addDense(lists, max) : addSparse(lists);
    return this._select(ids, sums, depth);
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
  _select(ids, sums, depth) {
    const pathOf = this.pathOf;
    const better = (s, p, t, q) => s < t || (s === t && byCodePoint(p, q) < 0);
    if (depth > 100) { // a threshold from a native sort, then a full sort of what passes it
      const cand = [];
      for (let i = 0; i < ids.length; i++) {
        const path = pathOf.get(ids[i]);
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

/** _addDense for rowids too large for an array indexed by rowid. */
function addSparse(lists) {
  const acc = new Map();
  for (const { ids, c } of lists) for (let j = 0; j < ids.length; j++) acc.set(ids[j], (acc.get(ids[j]) ?? 0.0) + c[j]);
  return { ids: [...acc.keys()], sums: Float64Array.from(acc.values()) };
}

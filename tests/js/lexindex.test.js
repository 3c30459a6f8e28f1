// The resident lexical index (src/lexindex.c) on both wasm test builds against FTS5 itself
// (better-sqlite3), on real text: the paragraphs of this repository's docs/*.md and README.md as
// memories (gist: the heading above, body: the paragraph) in an FTS5 table like the cache's. Each
// row goes into the index from FTS5's own tokens (fts5vocab's instance table), keyed by its path's
// UTF-8 bytes. Then, for hundreds of OR queries of one to six words (common and rare, repeated,
// unknown), gist weights 1 and 3, and k from 1 to past the matches:
//  - with each term's idf from SQLite's ln() over the index's counts (what FTS5's log() gives), the
//    index's top-k is FTS5's `ORDER BY bm25(...), path LIMIT k`, paths and scores bit for bit;
//  - with the index's own idf (fdlibm's log, the same bits in every runtime), the order is FTS5's
//    but for scores within 4 ulps of each other, and every score is within 4 ulps of FTS5's;
//  - the pruned top-k equals scoring every posting, bit for bit, and scores fewer postings on the
//    common words;
// and after deleting and rewriting rows (FTS5 and the index alike), the same again.
// md_js_log is also held to Math.log bit for bit.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { rawModule } from "../oracles/raw.mjs";
import { rng } from "../oracles/rng.js";
import { ROOT } from "./golden/runner.js";

const require = createRequire(import.meta.url);
const Database = require("better-sqlite3");

/** The index over raw exports: put / del / top (copies out). */
function lexIndex(raw) {
  const { ex, st } = raw;
  const mem = () => ex.memory.buffer;
  const slot = ex.md_alloc(64);
  st.md_lexindex_new(slot);
  const h = new Uint32Array(mem())[slot >>> 2];
  let cap = 0, buf = 0;
  const room = (bytes) => {
    if (bytes <= cap) return buf;
    if (buf) ex.md_free(buf);
    cap = Math.max(bytes, 2 * cap);
    buf = ex.md_alloc(cap);
    if (!buf) throw new RangeError("md_alloc failed");
    return buf;
  };
  const enc = new TextEncoder();
  return {
    put(doc, path, len, terms, gist, body) {
      const key = enc.encode(path), n = terms.length;
      const p = room(12 * n + key.length + 8);
      const u = new Uint32Array(mem(), p, 3 * n);
      u.set(terms, 0);
      u.set(gist, n);
      u.set(body, 2 * n);
      new Uint8Array(mem()).set(key, p + 12 * n);
      st.md_lexindex_put(h, doc, p + 12 * n, key.length, len, p, p + 4 * n, p + 8 * n, n);
    },
    del(doc) { st.md_lexindex_delete(h, doc); },
    count: () => ex.md_lexindex_count(h),
    df: (t) => ex.md_lexindex_df(h, t),
    bytes: () => ex.md_lexindex_bytes(h),
    /** { docs, scores, scored } for terms (ids), idf (null or one per term), gist weight w, k. */
    top(terms, idf, w, k, full = false) {
      const n = terms.length, p = room(4 * n + 8 * n + 12 * k + 8 * 4 + 64);
      const at = (p + 7) & ~7, idfAt = at, termsAt = idfAt + 8 * n, scoresAt = (termsAt + 4 * n + 7) & ~7,
        docsAt = scoresAt + 8 * k, outAt = docsAt + 4 * k + 8;
      if (idf) new Float64Array(mem(), idfAt, n).set(idf);
      new Uint32Array(mem(), termsAt, n).set(terms);
      (full ? st.md_lexindex_top_full : st.md_lexindex_top)(h, termsAt, n, idf ? idfAt : 0, w, k, docsAt, scoresAt, outAt);
      const [len, scored] = new Uint32Array(mem(), outAt, 2);
      return { docs: [...new Uint32Array(mem(), docsAt, len)], scores: [...new Float64Array(mem(), scoresAt, len)], scored };
    },
    free() { ex.md_lexindex_free(h); ex.md_free(slot); if (buf) ex.md_free(buf); },
  };
}

/** The paragraphs of the docs as { path, gist, body }. */
function realText() {
  const files = ["README.md", ...readdirSync(`${ROOT}docs`).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
  const out = [];
  for (const f of files) {
    let heading = f;
    readFileSync(`${ROOT}${f}`, "utf8").split(/\n\s*\n/).forEach((para, i) => {
      const t = para.trim();
      if (!t) return;
      if (t.startsWith("#")) heading = t.replace(/^#+\s*/, "");
      out.push({ path: `${f}/${String(i).padStart(4, "0")}-${heading.slice(0, 12)}`, gist: heading, body: t });
    });
  }
  return out;
}

const phrase = (t) => `"${t.replaceAll('"', '""')}"`;

/** An FTS5 corpus and the index built from FTS5's tokens, kept in step. */
function corpus(raw) {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE docs(id INTEGER PRIMARY KEY, path TEXT UNIQUE)");
  db.exec("CREATE VIRTUAL TABLE fts USING fts5(gist, body)");
  db.exec("CREATE VIRTUAL TABLE fts_i USING fts5vocab(fts, instance)");
  const ix = lexIndex(raw);
  const termId = new Map(), terms = [];
  const idOf = (t) => {
    let id = termId.get(t);
    if (id === undefined) { id = terms.length; termId.set(t, id); terms.push(t); }
    return id;
  };
  const instances = db.prepare("SELECT term, col FROM fts_i WHERE doc = ?");
  const put = (id, r) => {
    db.prepare("INSERT OR REPLACE INTO docs(id, path) VALUES (?, ?)").run(id, r.path);
    db.prepare("DELETE FROM fts WHERE rowid = ?").run(id);
    db.prepare("INSERT INTO fts(rowid, gist, body) VALUES (?, ?, ?)").run(id, r.gist, r.body);
    const hits = new Map();
    let len = 0;
    for (const { term, col } of instances.all(id)) {
      len++;
      const h = hits.get(term) ?? [0, 0];
      h[col === "gist" ? 0 : 1]++;
      hits.set(term, h);
    }
    const ts = [...hits.keys()];
    ix.put(id, r.path, len, ts.map(idOf), ts.map((t) => hits.get(t)[0]), ts.map((t) => hits.get(t)[1]));
  };
  const del = (id) => {
    db.prepare("DELETE FROM docs WHERE id = ?").run(id);
    db.prepare("DELETE FROM fts WHERE rowid = ?").run(id);
    ix.del(id);
  };
  const pathOf = (id) => db.prepare("SELECT path FROM docs WHERE id = ?").get(id).path;
  /** FTS5's answer: [path, bm25] by bm25, then path. */
  const fts = (words, w, k) => db.prepare(`SELECT d.path AS path, bm25(fts, ?, 1.0) AS s FROM fts JOIN docs d ON d.id = fts.rowid
    WHERE fts MATCH ? ORDER BY s, d.path LIMIT ?`).all(w, words.map(phrase).join(" OR "), k).map((r) => [r.path, r.s]);
  /** FTS5's idf of a term from SQLite's ln(), as fts5Bm25GetData computes it. */
  const sqlIdf = (t) => {
    const N = ix.count(), n = termId.has(t) ? ix.df(termId.get(t)) : 0;
    const idf = db.prepare("SELECT ln((? - ? + 0.5) / (? + 0.5)) AS v").get(N, n, n).v;
    return idf <= 0 ? 1e-6 : idf;
  };
  return { db, ix, put, del, pathOf, fts, sqlIdf, termId, terms, close() { ix.free(); db.close(); } };
}

const ulps = (a, b) => {
  if (a === b) return 0;
  const f = new Float64Array([a, b]), i = new BigInt64Array(f.buffer);
  return Number(i[0] > i[1] ? i[0] - i[1] : i[1] - i[0]);
};

function checkQueries(c, r, count, stats) {
  const vocab = c.terms.filter((t) => c.ix.df(c.termId.get(t)) > 0);
  const common = [...vocab].sort((a, b) => c.ix.df(c.termId.get(b)) - c.ix.df(c.termId.get(a))).slice(0, 40);
  const bad = [];
  for (let q = 0; q < count; q++) {
    const n = 1 + Math.floor(r() * 6), words = [];
    for (let i = 0; i < n; i++) {
      const pick = r();
      words.push(pick < 0.5 ? common[Math.floor(r() * common.length)] : pick < 0.9 ? vocab[Math.floor(r() * vocab.length)]
        : pick < 0.95 && i ? words[0] : "zzunknownzz");
    }
    const w = r() < 0.7 ? 1 : 3;
    const k = [1, 5, 10, 50, 100000][Math.floor(r() * 5)];
    const ids = words.map((t) => c.termId.get(t) ?? 0x3fffffff);
    const want = c.fts(words, w, k);
    // FTS5's idf: FTS5's answer bit for bit
    const got = c.ix.top(ids, words.map(c.sqlIdf), w, k);
    const full = c.ix.top(ids, words.map(c.sqlIdf), w, k, true);
    const gotRows = got.docs.map((d, i) => [c.pathOf(d), got.scores[i]]);
    if (JSON.stringify(gotRows) !== JSON.stringify(want)) bad.push({ words, w, k, got: gotRows.slice(0, 5), want: want.slice(0, 5) });
    if (JSON.stringify([full.docs, full.scores]) !== JSON.stringify([got.docs, got.scores])) bad.push({ words, w, k, full: "differs" });
    stats.scored += got.scored;
    stats.full += full.scored;
    // the index's own idf (fdlibm): the same order but for near-ties, scores within 4 ulps
    const own = c.ix.top(ids, null, w, k);
    const ownFull = c.ix.top(ids, null, w, k, true);
    if (JSON.stringify([ownFull.docs, ownFull.scores]) !== JSON.stringify([own.docs, own.scores])) bad.push({ words, w, k, ownFull: "differs" });
    if (own.docs.length !== want.length) bad.push({ words, w, k, ownLength: own.docs.length, want: want.length });
    const ftsScore = new Map(c.fts(words, w, 1e9));
    for (let i = 0; i < own.docs.length && i < want.length; i++) {
      const p = c.pathOf(own.docs[i]);
      if (!(ulps(own.scores[i], ftsScore.get(p)) <= 4)) bad.push({ words, p, own: own.scores[i], fts: ftsScore.get(p) });
      if (p !== want[i][0] && !(ulps(own.scores[i], want[i][1]) <= 4)) bad.push({ words, i, p, want: want[i] });
      if (own.scores[i] === want[i][1] && p === want[i][0]) stats.sameBits++;
      stats.rows++;
    }
  }
  return bad;
}

for (const build of ["clang", "emcc"]) {
  test(`${build}: the index's top-k is FTS5's bm25 order on real text, through deletes and rewrites`, () => {
    const raw = rawModule(build);
    const c = corpus(raw);
    const rows = realText();
    expect(rows.length).toBeGreaterThan(300);
    rows.forEach((row, i) => c.put(i + 1, row));
    expect(c.ix.count()).toBe(rows.length);
    const r = rng(44);
    const stats = { scored: 0, full: 0, sameBits: 0, rows: 0 };
    expect(checkQueries(c, r, 150, stats)).toEqual([]);
    // deletes and rewrites (a rowid reused with another paragraph's text)
    for (let i = 0; i < 120; i++) {
      const id = 1 + Math.floor(r() * rows.length);
      if (r() < 0.5) { if (c.db.prepare("SELECT 1 FROM docs WHERE id = ?").get(id)) c.del(id); }
      else c.put(id, { ...rows[Math.floor(r() * rows.length)], path: `rewritten/${i}` });
    }
    expect(c.ix.count()).toBe(c.db.prepare("SELECT count(*) AS n FROM docs").get().n);
    expect(checkQueries(c, r, 100, stats)).toEqual([]);
    expect(stats.scored).toBeLessThan(stats.full);
    expect(stats.sameBits).toBeGreaterThan(stats.rows / 2);
    c.close();
  });
}

test("md_js_log is Math.log bit for bit (both test builds)", () => {
  for (const build of ["clang", "emcc"]) {
    const { ex } = rawModule(build);
    const r = rng(7);
    const f = new Float64Array(1), u = new Uint32Array(f.buffer);
    const xs = [0, -0, 1, -1, Infinity, -Infinity, NaN, Number.MIN_VALUE, Number.MAX_VALUE, 2 ** -1022, Math.E, 0.5, 2];
    for (let i = 0; i < 20000; i++) xs.push(r() * 4, Math.exp(r() * 1400 - 700), (Math.floor(r() * 2e5) + 0.5) / (Math.floor(r() * 2e5) + 0.5));
    for (let i = 0; i < 5000; i++) { u[0] = Math.floor(r() * 2 ** 32); u[1] = Math.floor(r() * 0x7ff00000); xs.push(f[0]); }
    const bad = xs.filter((x) => !Object.is(ex.md_js_log(x), Math.log(x)));
    expect([build, bad.slice(0, 5)]).toEqual([build, []]);
  }
});

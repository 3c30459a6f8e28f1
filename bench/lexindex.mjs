// The lexical arm at scale: memdomain/cache's lexical-only search answered from the resident
// lexical index (src/lexindex.c, js/cache/lexical.js from LEXICAL_INDEX_MIN memories) against the
// kept per-term lists (the same cache with the index off, its heaviest lists read ahead), on the
// bench corpus (tests/js/cache-corpus.js, d = 4: the vector arm is not timed), at each of --sizes.
// Two query sets: the corpus's own queries (makeQueries: 1-3 gist words), and "common": 1-3 words
// each in 40-95% of the memories (issue 44's narrow agent's notes). Reports search p50/p99 per
// set, postings the index scored per query beside every posting of the query's terms, one put then
// the same search against the search alone (p50/p99), the build (the first search), and the
// index's bytes per memory. Every answer of the two caches is compared (paths and scores).
//   node bench/lexindex.mjs [--sizes=10000,100000] [--queries=200] [--puts=20] [--wasm=path]
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";

if (typeof globalThis.gc !== "function") {
  const r = spawnSync(process.execPath, ["--max-old-space-size=8192", "--expose-gc", fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}

const md = await import("../js/index.js");
const { openMemoryCache } = await import("../js/cache/index.js");
const { makeCorpus, makeQueries } = await import("../tests/js/cache-corpus.js");
const { rng } = await import("../tests/oracles/rng.js");
const wasm = process.argv.find((a) => a.startsWith("--wasm="))?.slice(7);
await md.init(wasm ? (await import("node:fs")).readFileSync(wasm) : undefined); // --wasm=: another build (before / after)

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt;
const SIZES = arg("sizes", "10000,100000").split(",").map(Number);
const Q = Number(arg("queries", 200)), PUTS = Number(arg("puts", 20));
const LEXICAL = { limit: 10, depth: 50, weights: { lexical: 1, vector: 0, salience: 0, lateral: 0 } };

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const f = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const now = () => performance.now();

async function timed(cache, text) {
  const t = now();
  const hits = await cache.search({ text, ...LEXICAL });
  return { ms: now() - t, hits: hits.map((h) => [h.path, h.score]) };
}

console.log(`lexical index bench: ${Q} queries per set, ${PUTS} put rounds; load average ${loadavg().map((x) => x.toFixed(2)).join(", ")}`);
for (const n of SIZES) {
  const corpus = makeCorpus(n, 4, 1);
  const t0 = now();
  const indexed = await openMemoryCache({ dim: 4, lexicalIndexMin: 0 });
  for (let i = 0; i < n; i += 5000) await indexed.put(corpus.slice(i, i + 5000));
  const putMs = now() - t0;
  const lists = await openMemoryCache({ bytes: await indexed.exportBytes(), lexicalIndexMin: null });
  // the common words: in 40-95% of the memories
  const vocab = await indexed._db.all("SELECT term, doc FROM memories_vocab WHERE doc >= ? AND doc <= ?", [0.4 * n, 0.95 * n]);
  const r = rng(44);
  const common = Array.from({ length: Q }, () => Array.from({ length: 1 + Math.floor(r() * 3) }, () => vocab[Math.floor(r() * vocab.length)].term).join(" "));
  const own = makeQueries(corpus, Q, 2).map((q) => q.text);
  let t = now();
  await timed(indexed, own[0]);
  const buildMs = now() - t;
  t = now();
  await timed(lists, own[0]);
  const warmMs = now() - t;
  const ix = indexed._lexical._ix;
  console.log(`\n### ${n} memories: put ${f(putMs)} ms; first search: index built ${f(buildMs)} ms, lists read ahead ${f(warmMs)} ms; ` +
    `index ${ix ? ix.bytes() : 0} bytes = ${ix ? f(ix.bytes() / ix.count) : 0} per memory; ${vocab.length} words in 40-95% of the memories`);
  console.log("\n| queries | index p50 ms | index p99 | lists p50 | lists p99 | postings scored p50 | all postings p50 | same answers |");
  console.log("|---|--:|--:|--:|--:|--:|--:|--:|");
  for (const [name, qs] of [["the corpus's", own], ["common words", common]]) {
    const a = [], b = [], scored = [], all = [];
    let same = 0;
    for (const q of qs) { // interleaved, from a collected heap every 50
      if (a.length % 50 === 0) globalThis.gc();
      indexed._lexical.lastScored = 0;
      const x = await timed(indexed, q);
      scored.push(indexed._lexical.lastScored);
      const y = await timed(lists, q);
      a.push(x.ms);
      b.push(y.ms);
      if (JSON.stringify(x.hits) === JSON.stringify(y.hits)) same++;
      // every posting of the terms the arm ranked by
      const terms = await indexed._lexical.informative(indexed._db, (await import("../js/cache/index.js")).queryTerms(q), n);
      let p = 0;
      for (const w of terms) p += await indexed._lexical.df(indexed._db, w);
      all.push(p);
    }
    console.log(`| ${name} | ${f(pct(a, 50))} | ${f(pct(a, 99))} | ${f(pct(b, 50))} | ${f(pct(b, 99))} | ${pct(scored, 50)} | ${pct(all, 50)} | ${same}/${qs.length} |`);
  }
  // one put, then the same search, against the search alone
  console.log("\n| one put then a search | search alone p50 | put p50 | search after p50 | put + search - alone p50 | p99 |");
  console.log("|---|--:|--:|--:|--:|--:|");
  for (const [name, cache] of [["index", indexed], ["lists", lists]]) {
    const alone = [], put = [], after = [], extra = [];
    for (let i = 0; i < PUTS; i++) {
      const q = common[i % common.length];
      await timed(cache, q);
      const s0 = (await timed(cache, q)).ms;
      const m = { ...corpus[(i * 7919) % n], path: `new/${name}/${i}` };
      let t1 = now();
      await cache.put([m]);
      const p = now() - t1;
      const s1 = (await timed(cache, q)).ms;
      alone.push(s0);
      put.push(p);
      after.push(s1);
      extra.push(p + s1 - s0);
    }
    console.log(`| ${name} | ${f(pct(alone, 50))} | ${f(pct(put, 50))} | ${f(pct(after, 50))} | ${f(pct(extra, 50))} | ${f(pct(extra, 99))} |`);
  }
  await lists.close();
  await indexed.close();
}

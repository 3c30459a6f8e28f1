// The lexical arm at scale: memdomain/cache's lexical-only search answered from the resident
// lexical index (src/lexindex.c, js/cache/lexical.js from LEXICAL_INDEX_MIN memories) against the
// kept per-term lists (the same cache with the index off, its heaviest lists read ahead), on the
// bench corpus (tests/js/cache-corpus.js, d = 4: the vector arm is not timed), at each of --sizes.
// Two query sets: the corpus's own queries (makeQueries: 1-3 gist words), and "common": 1-3 words
// each in 40-95% of the memories (issue 44's narrow agent's notes). Reports search p50/p99 per
// set, postings the index scored per query beside every posting of the query's terms, one put then
// the same search against the search alone (p50/p99), the build (the first search), and the
// index's bytes per memory. Every answer of the two caches is compared (paths and scores).
// Then the same on real text: every corpus of bench/relevance built in build/relevance/ (memories.jsonl,
// paths prefixed by the corpus's name, so all distinct) as one cache, queried with their test queries
// (--no-real: not). 1M memories: --sizes=10000,100000,1000000 (slow: the puts alone take minutes).
//   node bench/lexindex.mjs [--sizes=10000,100000] [--queries=200] [--puts=20] [--no-real] [--wasm=path]
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
const fs = await import("node:fs");
const wasm = process.argv.find((a) => a.startsWith("--wasm="))?.slice(7);
await md.init(wasm ? fs.readFileSync(wasm) : undefined); // --wasm=: another build (before / after)

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt;
const SIZES = arg("sizes", "10000,100000").split(",").filter(Boolean).map(Number);
const REAL = !process.argv.includes("--no-real");
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
/** The real corpora of bench/relevance (build/relevance/<name>/memories.jsonl) as one: distinct paths, their test queries. */
function realCorpus() {
  const { readFileSync, readdirSync, existsSync } = fs;
  const root = fileURLToPath(new URL("../build/relevance/", import.meta.url));
  const memories = [], queries = [], names = [];
  for (const name of existsSync(root) ? readdirSync(root).sort() : []) {
    const file = `${root}${name}/memories.jsonl`;
    if (!existsSync(file)) continue;
    const rows = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    names.push(`${name} ${rows.length}`);
    for (const m of rows)
      memories.push({ path: `${name}/${m.path}`, gist: m.gist, body: m.body ?? "", type: "semantic", createdAt: Date.UTC(2026, 0, 1) + memories.length,
        embedding: Float32Array.of(1, (memories.length % 7) / 7, 0.5, 0.25) });
    const qf = `${root}${name}/queries.test.jsonl`;
    if (existsSync(qf)) for (const l of readFileSync(qf, "utf8").split("\n").filter(Boolean)) queries.push(JSON.parse(l).text);
  }
  return { memories, queries, names };
}

const runs = SIZES.map((n) => ({ n, label: `${n} memories (synthetic)`, corpus: () => makeCorpus(n, 4, 1), own: (c) => makeQueries(c, Q, 2).map((q) => q.text) }));
if (REAL) {
  const real = realCorpus();
  if (real.memories.length) {
    const r = rng(7), qs = real.queries.slice();
    for (let i = qs.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [qs[i], qs[j]] = [qs[j], qs[i]]; }
    runs.push({ n: real.memories.length, label: `${real.memories.length} real memories (build/relevance: ${real.names.join(", ")})`,
      corpus: () => real.memories, own: () => qs.slice(0, Q) });
  }
}
for (const { n, label, corpus: make, own: ownOf } of runs) {
  const corpus = make();
  const t0 = now();
  const indexed = await openMemoryCache({ dim: 4, lexicalIndexMin: 0 });
  for (let i = 0; i < n; i += 5000) await indexed.put(corpus.slice(i, i + 5000));
  const putMs = now() - t0;
  const lists = await openMemoryCache({ bytes: await indexed.exportBytes(), lexicalIndexMin: null });
  // the common words: in 40-95% of the memories
  let vocab = await indexed._db.all("SELECT term, doc FROM memories_vocab WHERE doc >= ? AND doc <= ?", [0.4 * n, 0.95 * n]);
  const commonLabel = vocab.length ? "words in 40-95% of the memories" : "its 40 most common words (none in 40% of the memories)";
  if (!vocab.length) vocab = await indexed._db.all("SELECT term, doc FROM memories_vocab ORDER BY doc DESC LIMIT 40");
  const r = rng(44);
  const common = Array.from({ length: Q }, () => Array.from({ length: 1 + Math.floor(r() * 3) }, () => vocab[Math.floor(r() * vocab.length)].term).join(" "));
  const own = ownOf(corpus);
  let t = now();
  await timed(indexed, own[0]);
  const buildMs = now() - t;
  t = now();
  await timed(lists, own[0]);
  const warmMs = now() - t;
  const ix = indexed._lexical._ix;
  console.log(`\n### ${label}: put ${f(putMs)} ms; first search: index built ${f(buildMs)} ms, lists read ahead ${f(warmMs)} ms; ` +
    `index ${ix ? ix.bytes() : 0} bytes = ${ix ? f(ix.bytes() / ix.count) : 0} per memory; common words: ${vocab.length} ${commonLabel}`);
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

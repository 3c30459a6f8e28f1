// Filtered search (issue 41): memdomain/cache's search({ filter }) at selectivities 50%, 5% and
// 0.1%, beside the same queries unfiltered, at each of --sizes (10k, 100k memories, d = 384), and
// beside what a user would otherwise pick: Orama's hybrid search with a `where` clause, and
// sqlite-vec's KNN over a vec0 table with a metadata column in the WHERE (vector only; sqlite-vec
// 0.1.9 in better-sqlite3), on the same memories, vectors and queries. Each memory carries metadata
// { bucket: i % 1000 }; a filter { metadata: { bucket: { lt: b } } } admits b/1000 of them. Queries:
// two or three words of the corpus's vocabulary and a query vector; limit 10; p50 and p99 over
// --queries (100) queries after 10 warm-up ones, the systems interleaved query by query. The filtered
// answers are checked to be admitted memories, and limit of them whenever that many match.
//   node bench/cache-filter.mjs [--sizes=10000,100000] [--queries=100] [--no-orama] [--no-vec]
import { createRequire } from "node:module";
import { rng } from "./lib.mjs";

const args = Object.fromEntries(process.argv.slice(2).map((a) => { const [k, v] = a.replace(/^--/, "").split("="); return [k, v ?? true]; }));
const SIZES = String(args.sizes ?? "10000,100000").split(",").map(Number);
const Q = Number(args.queries ?? 100), D = 384, WARM = 10;
const SELECT = [["50%", 500], ["5%", 50], ["0.1%", 1]];
const require = createRequire(import.meta.url);

const { openMemoryCache } = await import("../js/cache/index.js");
let orama = null, vec = null;
if (!args["no-orama"]) try { orama = await import("@orama/orama"); } catch { orama = null; }
if (!args["no-vec"]) try { vec = { sv: require("sqlite-vec"), Database: require("better-sqlite3") }; } catch { vec = null; }

function corpus(n, r) {
  const vocab = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
  const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(Math.exp(r() * Math.log(vocab.length))) - 1)];
  const centers = Array.from({ length: 32 }, () => Float32Array.from({ length: D }, () => r() * 2 - 1));
  return Array.from({ length: n }, (_, i) => {
    const c = centers[i % 32];
    return { path: `m/${String(i).padStart(7, "0")}`, gist: Array.from({ length: 8 }, zipf).join(" "), body: Array.from({ length: 30 }, zipf).join(" "),
      type: "semantic", createdAt: Date.UTC(2026, 0, 1) + i, metadata: { bucket: i % 1000 },
      embedding: Float32Array.from(c, (x) => x + (r() * 2 - 1) * 0.8) };
  });
}

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const fmt = (x) => (x === undefined ? "" : x < 10 ? x.toFixed(2) : x.toFixed(1));

for (const n of SIZES) {
  const r = rng(n);
  const mems = corpus(n, r);
  const queries = Array.from({ length: Q + WARM }, () => {
    const m = mems[Math.floor(r() * n)];
    const words = m.gist.split(" ");
    return { text: `${words[0]} ${words[3]} ${words[5]}`, vector: Float32Array.from(m.embedding, (x) => x + (r() * 2 - 1) * 0.3) };
  });
  const cache = await openMemoryCache({ searchAccess: false });
  let t = performance.now();
  for (let i = 0; i < n; i += 10000) await cache.put(mems.slice(i, i + 10000));
  const putS = (performance.now() - t) / 1000;
  const systems = [];
  systems.push({ name: "memdomain/cache, unfiltered", run: (q) => cache.search({ text: q.text, vector: q.vector, limit: 10 }).then((h) => h.map((x) => x.path)) });
  for (const [label, b] of SELECT) {
    const filter = { metadata: { bucket: { lt: b } } };
    systems.push({ name: `memdomain/cache, filter ${label}`, b, run: (q) => cache.search({ text: q.text, vector: q.vector, limit: 10, filter }).then((h) => h.map((x) => x.path)) });
  }
  let odb = null;
  if (orama) {
    odb = orama.create({ schema: { gist: "string", body: "string", bucket: "number", embedding: `vector[${D}]` } });
    await orama.insertMultiple(odb, mems.map((m) => ({ id: m.path, gist: m.gist, body: m.body, bucket: m.metadata.bucket, embedding: Array.from(m.embedding) })), 1000);
    const os = (q, where) => Promise.resolve(orama.search(odb, { mode: "hybrid", term: q.text, vector: { value: Array.from(q.vector), property: "embedding" }, similarity: 0,
      limit: 10, ...(where ? { where } : {}) })).then((res) => res.hits.map((h) => h.id));
    systems.push({ name: "Orama hybrid, unfiltered", run: (q) => os(q, null) });
    for (const [label, b] of SELECT) systems.push({ name: `Orama hybrid, where ${label}`, b, run: (q) => os(q, { bucket: { lt: b } }) });
  }
  let vdb = null;
  if (vec) {
    vdb = new vec.Database(":memory:");
    vec.sv.load(vdb);
    vdb.exec(`CREATE VIRTUAL TABLE v USING vec0(path TEXT PRIMARY KEY, embedding float[${D}] distance_metric=cosine, bucket INTEGER)`);
    const ins = vdb.prepare("INSERT INTO v (path, embedding, bucket) VALUES (?, ?, ?)");
    vdb.transaction(() => { for (const m of mems) ins.run(m.path, Buffer.from(m.embedding.buffer), BigInt(m.metadata.bucket)); })();
    const all = vdb.prepare("SELECT path FROM v WHERE embedding MATCH ? AND k = 10 ORDER BY distance");
    const some = vdb.prepare("SELECT path FROM v WHERE embedding MATCH ? AND k = 10 AND bucket < ? ORDER BY distance");
    systems.push({ name: "sqlite-vec KNN (vector only), unfiltered", run: async (q) => all.all(Buffer.from(q.vector.buffer)).map((x) => x.path) });
    for (const [label, b] of SELECT) systems.push({ name: `sqlite-vec KNN (vector only), bucket < ${b} (${label})`, b, run: async (q) => some.all(Buffer.from(q.vector.buffer), BigInt(b)).map((x) => x.path) });
  }
  const times = systems.map(() => []);
  let bad = 0;
  for (const [i, q] of queries.entries()) {
    for (const [k, s] of systems.entries()) {
      const a = performance.now();
      const got = await s.run(q);
      const ms = performance.now() - a;
      if (i >= WARM) times[k].push(ms);
      if (s.b !== undefined && got.some((p) => Number(p.slice(2)) % 1000 >= s.b)) bad++;
    }
  }
  console.log(`\n### ${n.toLocaleString("en")} memories, d = ${D}\n`);
  console.log(`Put in ${putS.toFixed(1)} s (sqlite-wasm in memory). ${Q} queries, limit 10; ${bad} answers held a memory the filter does not admit.\n`);
  console.log("| system | p50 ms | p99 ms |");
  console.log("|---|--:|--:|");
  systems.forEach((s, k) => console.log(`| ${s.name} | ${fmt(pct(times[k], 0.5))} | ${fmt(pct(times[k], 0.99))} |`));
  await cache.close();
  vdb?.close();
}

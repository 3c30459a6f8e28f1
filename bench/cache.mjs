// memdomain/cache benchmark (make bench-cache; also part of make bench):
//   search p50/p99 over --queries (200) queries at each of --sizes (10k, 100k and 1M
//   memories, d = 384; 1M on a file, see --big) with the time per stage, in Node (sqlite-wasm in memory; the
//   same database in better-sqlite3; and sqlite-wasm with the lexical arm's kept
//   per-term scores dropped before every query and no read-ahead, so each query's terms
//   are read from FTS5) and in a headless Chromium Worker (the same database
//   file, opened from bytes);
//   beside it, the same search built by hand in plain JavaScript (same SQLite FTS5
//   query for the lexical arm, a cosine loop, a CSR personalized PageRank, the
//   reference-style fusion and MMR) and Orama's hybrid search on the same corpus;
//   put and sleep pass times, the next night's pass after 1% of the memories changed (full
//   against incremental, on copies), bytes per memory (database, estimated peak); the time to open a copy (the
//   better-sqlite3 and sqlite-wasm rows' caches) and its first search. Rounds interleave the three Node searches. The rows compared with
//   the plain build use preset "memhtml" (what that build mirrors; same top-10 checked); a row
//   beside them times the cache's default composition.
//   Flags: --sizes=10000,100000 --queries=200 --no-chromium --no-orama --no-plain
//   --no-better (no better-sqlite3 row) --no-cold (no cold-lexical row)
//   --no-alone (no "alone" rows: after the interleaved rounds, each composition times Q other
//   queries by itself, the only work in the process, from a collected heap: the latency a search
//   box sees, without the other rows' garbage collections and cache misses); --slowest=N prints
//   each alone row's N slowest queries with their stages (what its p99 is made of)
//   --puts=20: rounds of one put then a search against that search alone (a new path, and a
//   rewritten path's vector), after the query rounds; --baseline=DIR also runs them, interleaved
//   round by round, on another checkout's js/ and build/memdomain.wasm (before and after a change in
//   one run); --puts=0 skips them
//   --sleep-max=20000: above this size the sleep pass (all-pairs neighbours, O(n^2 d):
//   about 100x the 10k time at 100k) is skipped and the graph gets 5 synthetic links per
//   memory instead, so the lateral arm walks a graph of the same size; pass
//   --sleep-max=100000 to time the pass at 100k.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

// Run with a large heap and gc() (the alone rows start from a collected heap): again in a child
// unless this process has both (make bench-cache passes its own heap size, kept here).
const heapArg = process.execArgv.find((a) => a.startsWith("--max-old-space-size"));
if (!heapArg || typeof globalThis.gc !== "function") {
  const r = spawnSync(process.execPath, [heapArg ?? "--max-old-space-size=12288", "--expose-gc", fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const md = await import("../js/index.js");
const { openMemoryCache, queryTerms } = await import("../js/cache/index.js");
const { makeCorpus, makeQueries, T0 } = await import("../tests/js/cache-corpus.js");
const { refFuse, refRank, refCosine } = await import("../tests/oracles/baseline-fusion.js");
const baseMmr = await import("../tests/oracles/baseline-mmr.js");
const { rng } = await import("../tests/oracles/rng.js");

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt;
const SIZES = arg("sizes", "10000,100000,1000000").split(",").map(Number);
const Q = Number(arg("queries", 200));
const SLEEP_MAX = Number(arg("sleep-max", 20000));
// --db=file: the measured cache on a file in a temp directory (node:sqlite, or better-sqlite3 in Node 20)
// instead of sqlite-wasm in memory, whose wasm memory cannot hold a million memories; --links=N
// synthetic links per memory above --sleep-max (default 5)
const DB_FILE = arg("db", "memory") === "file", LINKS = Number(arg("links", 5));
// Sizes above --big (200,000) run as they can: on a file (sqlite-wasm's memory cannot hold them),
// one synthetic link per memory, at most 5 put rounds, without the rows that do not fit (plain JS,
// Orama, the better-sqlite3 and cold copies, Chromium).
const BIG = Number(arg("big", 200000)), BIG_SKIPS = new Set(["plain", "orama", "better", "cold", "chromium"]);
let bigNow = false;
const PUTS = Number(arg("puts", 20)), BASELINE = arg("baseline", null), SLOWEST = Number(arg("slowest", 0));
const D = 384, WARM = 10, LIMIT = 10, DEPTH = 50, K = 60, LAMBDA = 0.5, FLOOR = 0.3;
const W = { lexical: 1, vector: 1, salience: 0.5, lateral: 0.5 };
// the seed's composition (preset "memhtml": reciprocal-rank fusion with K, MMR over the pool), which
// the plain-JavaScript build mirrors, so both return the same top-10; DEFAULT_SEARCH is the cache's
// default composition (arm scores added, MMR over a window), timed beside it
const SEARCH = { preset: "memhtml", limit: LIMIT, depth: DEPTH, weights: W, k: K, lambda: LAMBDA, timings: true };
const DEFAULT_SEARCH = { limit: LIMIT, depth: DEPTH, timings: true };
const no = (f) => process.argv.includes(`--no-${f}`) || (bigNow && BIG_SKIPS.has(f));
const wasm = readFileSync(`${ROOT}build/memdomain.wasm`);
md.initSync(wasm);

const load = () => loadavg().map((x) => x.toFixed(2)).join(", ");
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const med = (xs) => pct(xs, 0.5);
const f1 = (ms) => (ms === undefined ? "" : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const byPath = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------- plain JavaScript, by hand
function plainIndex(corpus, live, edges) {
  const paths = live.filter((p) => corpus.get(p).embedding).sort(byPath);
  const matrix = new Float32Array(paths.length * D);
  paths.forEach((p, i) => matrix.set(corpus.get(p).embedding, i * D));
  const nodes = [...live].sort(byPath);
  const id = new Map(nodes.map((p, i) => [p, i]));
  const fold = new Map(); // (src, dst) -> max strength
  for (const e of edges) {
    const s = id.get(e.src), t = id.get(e.dst);
    if (s === undefined || t === undefined || s === t) continue;
    const key = s * nodes.length + t;
    if (!(fold.get(key) >= e.strength)) fold.set(key, e.strength);
  }
  const keys = [...fold.keys()].sort((a, b) => a - b);
  const start = new Uint32Array(nodes.length + 1), dst = new Uint32Array(keys.length), w = new Float64Array(keys.length);
  const out = new Float64Array(nodes.length);
  keys.forEach((k, j) => { const s = Math.floor(k / nodes.length); start[s + 1]++; dst[j] = k % nodes.length; w[j] = fold.get(k); out[s] += w[j]; });
  for (let i = 0; i < nodes.length; i++) start[i + 1] += start[i];
  return { paths, matrix, nodes, id, start, dst, w, out };
}

function plainPagerank(g, seeds) {
  const n = g.nodes.length, tele = new Float64Array(n);
  let total = 0;
  for (const [p, s] of seeds) { const i = g.id.get(p); if (i !== undefined && s > 0) { tele[i] += s; total += s; } }
  for (let i = 0; i < n; i++) tele[i] /= total;
  let cur = Float64Array.from(tele), next = new Float64Array(n);
  for (let it = 0; it < 100; it++) {
    next.fill(0);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      if (g.out[i] === 0) { dangling += cur[i]; continue; }
      for (let j = g.start[i]; j < g.start[i + 1]; j++) next[g.dst[j]] += cur[i] * g.w[j] / g.out[i];
    }
    let delta = 0;
    for (let i = 0; i < n; i++) {
      const v = 0.85 * (next[i] + dangling * tele[i]) + 0.15 * tele[i];
      delta += Math.abs(v - cur[i]);
      next[i] = v;
    }
    [cur, next] = [next, cur];
    if (delta < 1e-6 * n) break;
  }
  return cur;
}

function topK(n, score, k, skip) { // indices by score desc, index asc
  const top = [];
  for (let i = 0; i < n; i++) {
    const s = score(i);
    if (skip(i, s)) continue;
    if (top.length === k && !(s > top[k - 1][1])) continue;
    let j = top.length === k ? k - 1 : top.length;
    while (j > 0 && s > top[j - 1][1]) { top[j] = top[j - 1]; j--; }
    top[j] = [i, s];
  }
  return top;
}

async function plainSearch(cache, g, corpus, q, t) {
  let t0 = performance.now();
  const lap = (k) => { const n = performance.now(); t[k] = (t[k] ?? 0) + n - t0; t0 = n; };
  // FTS5's bm25 order as one would query it by hand, over the cache's informative terms
  const match = await cache._informative(queryTerms(q.text));
  const lexical = !match ? [] : (await cache._db.all(`SELECT m.path AS path FROM memories_fts f JOIN memories m ON m.id = f.rowid
    WHERE memories_fts MATCH ? AND m.superseded_by IS NULL ORDER BY bm25(memories_fts), m.path LIMIT ?`, [match, DEPTH])).map((r) => r.path);
  lap("lexical");
  const qv = q.vector;
  const vector = topK(g.paths.length, (i) => refCosine(qv, g.matrix.subarray(i * D, (i + 1) * D)), DEPTH, () => false).map(([i]) => g.paths[i]);
  lap("vector");
  const sig = (p) => corpus.get(p);
  const salience = [...new Set([...lexical, ...vector])].sort((a, b) => {
    const x = sig(a), y = sig(b);
    return y.accessCount - x.accessCount || Math.max(y.outcomeScore ?? 0, 0) - Math.max(x.outcomeScore ?? 0, 0) || y.reinforcementCount - x.reinforcementCount || byPath(a, b);
  }).slice(0, DEPTH);
  lap("salience");
  const hits = (ps) => ps.map((path, i) => ({ path, rank: i + 1 }));
  const seeds = refRank(refFuse([hits(lexical), hits(vector), hits(salience)], [W.lexical, W.vector, W.salience], K)).slice(0, 5);
  const pr = plainPagerank(g, seeds.map((s) => [s.path, s.score]));
  const seedSet = new Set(seeds.map((s) => g.id.get(s.path)));
  const lateral = topK(g.nodes.length, (i) => pr[i], DEPTH, (i, s) => !(s > 0) || seedSet.has(i)).map(([i]) => g.nodes[i]);
  lap("lateral");
  const fused = refFuse([hits(lexical), hits(vector), hits(salience), hits(lateral)], [W.lexical, W.vector, W.salience, W.lateral], K);
  const ranked = refRank(fused);
  lap("fuse");
  const picked = baseMmr.applyMmr(ranked.map((r) => ({ ...r, vector: corpus.get(r.path).embedding })), LIMIT, LAMBDA);
  lap("mmr");
  return picked.map((c) => c.path);
}

// ---------------------------------------------------------------- Chromium
async function chromiumSearch(bytes, queries) {
  const { build } = await import("esbuild");
  const { chromium } = await import("playwright-core");
  const { startStatic } = await import("../tests/runtimes/server.mjs");
  const out = `${ROOT}build/bench-cache-browser/`;
  await build({ entryPoints: { worker: `${ROOT}bench/cache-browser-worker.js` }, outdir: out, bundle: true, format: "esm", platform: "browser", logLevel: "error" });
  const server = await startStatic({ mounts: { "/": out }, pages: {
    "/index.html": { type: "text/html; charset=utf-8", body: "<!doctype html><meta charset=utf-8>" },
    "/sqlite3.wasm": { type: "application/wasm", body: readFileSync(`${ROOT}node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm`) },
    "/memdomain.wasm": { type: "application/wasm", body: wasm },
    "/db.sqlite": { type: "application/octet-stream", body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    "/queries.json": { type: "application/json", body: JSON.stringify(queries.map((q) => ({ text: q.text, vector: Array.from(q.vector) }))) },
  } });
  const dir = mkdtempSync(`${tmpdir()}/memdomain-bench-cache-`);
  let context;
  try {
    context = await chromium.launchPersistentContext(dir, { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.goto(`${server.url}/index.html`);
    return await tab.evaluate(({ warm, limit }) => new Promise((ok) => {
      const w = new Worker("/worker.js", { type: "module" });
      w.onmessage = (e) => { ok(e.data); w.terminate(); };
      w.onerror = (e) => ok({ error: e.message });
      w.postMessage({ warm, limit });
    }), { warm: WARM, limit: LIMIT });
  } finally {
    await context?.close().catch(() => {});
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- one put, then a search
/**
 * PUTS rounds, each: a search (warms the query's term lists), the same search timed (alone), one
 * put, the same search timed again. The put is a new path, or a rewrite of a live path with a new
 * vector (same text); with --baseline, the baseline checkout's cache (opened over the same bytes)
 * runs each round right after this one's.
 */
async function putRounds(n, mems, queries, cache) {
  const impls = [["this checkout", cache]];
  if (BASELINE) {
    const base = `${BASELINE.replace(/\/$/, "")}/`;
    const bmd = await import(`${base}js/index.js`), bcache = await import(`${base}js/cache/index.js`);
    bmd.initSync(readFileSync(`${base}build/memdomain.wasm`));
    const other = await bcache.openMemoryCache({ bytes: await cache.exportBytes() });
    for (const q of queries.slice(0, WARM)) await other.search({ ...q, ...SEARCH });
    impls.push([`baseline ${BASELINE}`, other]);
  }
  const rounds = bigNow ? Math.min(PUTS, 5) : PUTS;
  const fresh = makeCorpus(rounds, D, 33, { dupEvery: 0 });
  const r = Object.fromEntries(impls.flatMap(([name]) => ["new path", "rewritten vector"].map((k) => [`${name}, ${k}`, { alone: [], put: [], after: [], extra: [], vector: [], lexical: [], lateral: [] }])));
  for (let i = 0; i < rounds; i++) {
    const q = queries[WARM + (i % Q)];
    for (const [kind, m] of [["new path", { ...fresh[i], path: `new/${String(i).padStart(4, "0")}.html` }],
      ["rewritten vector", { ...mems[(i * 7919) % n], embedding: fresh[i].embedding }]]) {
      for (const [name, c] of impls) {
        const x = r[`${name}, ${kind}`];
        await c.search({ ...q, ...SEARCH });
        let t = performance.now();
        await c.search({ ...q, ...SEARCH });
        const alone = performance.now() - t;
        t = performance.now();
        await c.put([m]);
        const put = performance.now() - t;
        t = performance.now();
        const hits = await c.search({ ...q, ...SEARCH });
        const after = performance.now() - t;
        x.alone.push(alone); x.put.push(put); x.after.push(after); x.extra.push(put + after - alone);
        for (const s of ["vector", "lexical", "lateral"]) x[s].push(hits.timings[s]);
      }
    }
  }
  const rows = [["", "search alone p50", "put p50", "search after p50", "put + search - alone p50", "p99", "vector after", "lexical after", "lateral after"]];
  for (const [name, x] of Object.entries(r)) rows.push([name, f1(med(x.alone)), f1(med(x.put)), f1(med(x.after)), f1(med(x.extra)), f1(pct(x.extra, 0.99)),
    f1(med(x.vector)), f1(med(x.lexical)), f1(med(x.lateral))]);
  console.log(`\none put then a search (${rounds} rounds each; stage columns are p50 ms of the search after the put):`);
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((v, c) => (c ? String(v).padStart(widths[c]) : String(v).padEnd(widths[c]))).join(" | ")} |`);
    if (i === 0) console.log(`|${widths.map((w, c) => (c ? "-".repeat(w + 1) + ":" : "-".repeat(w + 2))).join("|")}|`);
  }
  for (const [, c] of impls.slice(1)) await c.close();
}

// ---------------------------------------------------------------- run
console.log(`memdomain/cache benchmark: d = ${D}, ${Q} queries (+${WARM} warm-up), limit ${LIMIT}, depth ${DEPTH}, sleep floor ${FLOOR}`);
console.log(`node ${process.version}, ${execFileSync("nproc").toString().trim()} cores, load average at start: ${load()}`);
const STAGES = ["lexical", "vector", "salience", "lateral", "fuse", "mmr"];
for (const n of SIZES) {
  bigNow = n > BIG;
  const onFile = DB_FILE || bigNow, links = bigNow ? Math.min(LINKS, 1) : LINKS;
  console.log(`\n### ${n.toLocaleString("en")} memories${bigNow ? ` (above --big=${BIG}: on a file, ${links} link per memory, no plain JS, Orama or Chromium rows)` : ""}`);
  const mems = makeCorpus(n, D, 31, { dupEvery: 50 });
  const corpus = new Map(mems.map((m) => [m.path, m]));
  const queries = makeQueries(mems, Q + WARM, 32);
  const dir = onFile ? mkdtempSync(`${tmpdir()}/md-bench-`) : null;
  const cache = await openMemoryCache(onFile ? { path: `${dir}/cache.db` } : {});
  let t = performance.now();
  await cache.put(mems);
  const putMs = performance.now() - t;
  if (n <= SLEEP_MAX) {
    t = performance.now();
    const sleep = await cache.sleep({ now: T0 + 300 * 86_400_000, floor: FLOOR });
    const sleepMs = performance.now() - t;
    console.log(`put ${f1(putMs)} ms; sleep() ${f1(sleepMs)} ms, its pass ${f1(sleep.timings.total)} ms (${Object.entries(sleep.timings).filter(([k]) => k !== "total")
      .map(([k, v]) => `${k} ${f1(v)}`).join(", ")}); ${sleep.edges.similar + sleep.edges.nearDuplicate} edges, ` +
      `${sleep.communities.count} communities, ${sleep.merges.stages.committed} merges`);
    // the next night after 1% of the memories changed: on a copy, re-put them with moved vectors, then a
    // full pass (on a copy of that) against the incremental pass; the two reports must agree
    const night = await openMemoryCache({ bytes: await cache.exportBytes() });
    const r = rng(7), k = Math.max(1, Math.round(n / 100)), moved = new Map();
    for (let i = 0; i < k; i++) {
      const m = mems[Math.floor(r() * n)];
      moved.set(m.path, { ...m, embedding: Float32Array.from(m.embedding, (x) => x + (r() - 0.5) * 0.2) });
    }
    await night.put([...moved.values()]);
    const copy = await openMemoryCache({ bytes: await night.exportBytes() });
    const next = { now: T0 + 301 * 86_400_000, floor: FLOOR };
    const full = await copy.sleep({ ...next, incremental: false });
    const inc = await night.sleep(next);
    const strip = ({ timings, neighbors, written, ...rest }) => JSON.stringify(rest);
    console.log(`sleep after ${moved.size} memories (1%) changed: full pass ${f1(full.timings.total)} ms (neighbours ${f1(full.timings.neighbors)}), ` +
      `incremental ${f1(inc.timings.total)} ms (neighbours ${f1(inc.timings.neighbors)}) = ${f1(100 * inc.timings.total / full.timings.total)}% ` +
      `of the full pass; reports ${strip(full) === strip(inc) ? "equal" : "DIFFER"}`);
    await copy.close();
    await night.close();
  } else {
    const linked = [];
    for (let i = 0; i < n; i++) for (let j = 1; j <= links; j++) linked.push({ src: mems[i].path, dst: mems[(i * 7919 + j * 104729) % n].path, strength: 0.5 });
    t = performance.now();
    if (linked.length) await cache.link(linked.filter((l) => l.src !== l.dst));
    console.log(`put ${f1(putMs)} ms; sleep skipped above --sleep-max=${SLEEP_MAX}: ${linked.length} synthetic links instead (link ${f1(performance.now() - t)} ms)`);
  }
  const edges = await cache.edges();
  const held = await cache.residentBytes(), dbBytes = onFile ? statSync(`${dir}/cache.db`).size : (await cache.exportBytes()).length;
  console.log(`bytes per memory: database ${Math.round(dbBytes / n)} (embedding ${4 * D}), estimated peak in memory ` +
    `${Math.round(held.estimate / n)} (a sleep pass; memdomain/cache's budget estimate, 11-35% above measured peaks)`);

  const live = (await cache.all()).filter((m) => m.supersededBy === null).map((m) => m.path);
  const g = no("plain") ? null : plainIndex(corpus, live, edges);
  let orama = null, oramaMs;
  if (!no("orama")) {
    const { create, insertMultiple, search } = await import("@orama/orama");
    t = performance.now();
    const db = create({ schema: { path: "string", gist: "string", body: "string", embedding: `vector[${D}]` } });
    await insertMultiple(db, live.map((p) => { const m = corpus.get(p); return { path: p, gist: m.gist, body: m.body, embedding: Array.from(m.embedding) }; }), 1000);
    oramaMs = performance.now() - t;
    orama = (q) => search(db, { mode: "hybrid", term: q.text, vector: { value: Array.from(q.vector), property: "embedding" }, similarity: 0,
      properties: ["gist", "body"], limit: LIMIT });
  }
  let better = null, cold = null;
  const opened = {}; // ms to open a copy: every live row's embedding and signals, and the edges, read (the search state comes later)
  if (!no("better") || !no("cold")) {
    const bytes = await cache.exportBytes();
    if (!no("better")) {
      const { default: Database } = await import("better-sqlite3");
      t = performance.now();
      better = await openMemoryCache({ db: new Database(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) });
      opened.better = performance.now() - t;
    }
    if (!no("cold")) {
      t = performance.now();
      cold = await openMemoryCache({ bytes });
      opened.cold = performance.now() - t;
      cold._lexical.warm = false; // its lists are dropped before each query: no read-ahead either
    }
  }
  const times = { cache: [], defaults: [], plain: [], orama: [], better: [], cold: [] };
  const stage = Object.fromEntries(["cache", "defaults", "plain", "better", "cold"].map((k) => [k, Object.fromEntries(STAGES.map((s) => [s, []]))]));
  let agree = 0;
  const first = {};
  for (let i = 0; i < queries.length; i++) {
    const q = queries[i], keep = i >= WARM;
    t = performance.now();
    const hits = await cache.search({ ...q, ...SEARCH });
    const ms = performance.now() - t;
    if (keep) { times.cache.push(ms); for (const s of STAGES) stage.cache[s].push(hits.timings[s]); }
    if (i === 0) first.cache = ms;
    const want = hits.map((h) => `${h.path} ${h.score}`).join("\n");
    t = performance.now();
    const dh = await cache.search({ ...q, ...DEFAULT_SEARCH });
    const dms = performance.now() - t;
    if (keep) { times.defaults.push(dms); for (const s of STAGES) stage.defaults[s].push(dh.timings[s]); }
    if (i === 0) first.defaults = dms;
    for (const [name, c] of [["better", better], ["cold", cold]]) {
      if (!c) continue;
      if (name === "cold") c._lexical.invalidate();
      t = performance.now();
      const other = await c.search({ ...q, ...SEARCH });
      const oms = performance.now() - t;
      if (other.map((h) => `${h.path} ${h.score}`).join("\n") !== want) throw new Error(`bench: the ${name} search differs from the cache's on query ${i}`);
      if (keep) { times[name].push(oms); for (const s of STAGES) stage[name][s].push(other.timings[s]); }
      if (i === 0) first[name] = oms;
    }
    if (g) {
      const st = {};
      t = performance.now();
      const paths = await plainSearch(cache, g, corpus, q, st);
      const pms = performance.now() - t;
      if (keep) { times.plain.push(pms); for (const s of STAGES) stage.plain[s].push(st[s]); }
      if (keep && paths.join("\n") === hits.map((h) => h.path).join("\n")) agree++;
    }
    if (orama) {
      t = performance.now();
      await orama(q);
      if (keep) times.orama.push(performance.now() - t);
    }
  }
  const alone = {};
  if (!no("alone")) {
    for (const [name, S, seed] of [["defaults", DEFAULT_SEARCH, 33], ["(memhtml)", SEARCH, 34]]) {
      const x = (alone[name] = { times: [], stage: Object.fromEntries(STAGES.map((s) => [s, []])) });
      globalThis.gc?.();
      for (const q of makeQueries(mems, Q, seed)) {
        t = performance.now();
        const h = await cache.search({ ...q, ...S });
        x.times.push(performance.now() - t);
        for (const s of STAGES) x.stage[s].push(h.timings[s]);
      }
      const slow = x.times.map((_, i) => i).sort((a, b) => x.times[b] - x.times[a]).slice(0, SLOWEST);
      for (const i of slow)
        console.log(`slowest ${name} alone: query ${i}, ${f1(x.times[i])} ms (${STAGES.map((s) => `${s} ${f1(x.stage[s][i])}`).join(", ")})`);
    }
  }
  const rows = [["", "p50 ms", "p99 ms", ...STAGES.map((s) => `${s} p50`)]];
  const line = (name, xs, st) => rows.push([name, f1(med(xs)), f1(pct(xs, 0.99)), ...STAGES.map((s) => (st ? f1(med(st[s])) : ""))]);
  const where = onFile ? `${cache.backend} on a file` : "sqlite-wasm in memory";
  line(`memdomain/cache, Node (${where})`, times.cache, stage.cache);
  line(`memdomain/cache defaults (preset "default"), Node (${where})`, times.defaults, stage.defaults);
  for (const [name, x] of Object.entries(alone))
    line(`memdomain/cache ${name} alone, ${Q} other queries, Node (${where})`, x.times, x.stage);
  if (better) line("memdomain/cache, Node (better-sqlite3 in memory)", times.better, stage.better);
  if (cold) line("memdomain/cache, Node (sqlite-wasm), no kept term scores", times.cold, stage.cold);
  if (g) line(`plain JavaScript by hand, Node (same top-${LIMIT}: ${agree}/${Q})`, times.plain, stage.plain);
  if (orama) line(`Orama ${JSON.parse(readFileSync(`${ROOT}node_modules/@orama/orama/package.json`, "utf8")).version} hybrid, Node (insert ${f1(oramaMs)} ms)`, times.orama);
  const printTable = () => {
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
    for (const [i, r] of rows.entries()) {
      console.log(`| ${r.map((x, c) => (c ? String(x).padStart(widths[c]) : String(x).padEnd(widths[c]))).join(" | ")} |`);
      if (i === 0) console.log(`|${widths.map((w, c) => (c ? "-".repeat(w + 1) + ":" : "-".repeat(w + 2))).join("|")}|`);
    }
  };
  printTable();
  if (g) console.log(`plain JS / memdomain p50: ${(med(times.plain) / med(times.cache)).toFixed(2)}x` +
    (orama ? `; Orama / memdomain p50: ${(med(times.orama) / med(times.cache)).toFixed(2)}x` : ""));
  console.log(`first search of each composition (not in the table; it reads the lists of the words in the most memories ahead): ` +
    `memhtml ${f1(first.cache)} ms, defaults ${f1(first.defaults)} ms`);
  for (const [name, label] of [["better", "better-sqlite3, in memory"], ["cold", "sqlite-wasm, from bytes"]]) {
    if (opened[name] !== undefined) console.log(`opening a copy (${label}): open ${f1(opened[name])} ms, then its first search (memhtml) ${f1(first[name])} ms`);
  }
  console.log(`load average: ${load()}`);
  if (PUTS > 0) await putRounds(n, mems, queries, cache);
  // Chromium last, on the same database file, so the Node table above is printed even if it fails.
  if (!no("chromium")) {
    const browser = await chromiumSearch(await cache.exportBytes(), queries).catch((e) => ({ error: String(e?.stack ?? e) }));
    if (browser.error) console.log(`chromium: ${browser.error}`);
    else {
      rows.splice(1, rows.length - 1);
      line(`memdomain/cache, Chromium Worker (sqlite-wasm; open ${f1(browser.openMs)} ms)`, browser.times, browser.stages);
      printTable();
      console.log(`Chromium / Node p50: ${(med(browser.times) / med(times.cache)).toFixed(2)}x (not interleaved); load average: ${load()}`);
    }
  }
  await better?.close();
  await cold?.close();
  await cache.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

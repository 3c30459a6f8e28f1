#!/usr/bin/env node
// The relevance harness (issue 24): real corpora built from documents Debian packages install,
// known-item queries written by the documents' authors, LSA embeddings computed here, and the
// systems side by side on the same memories, queries and vectors. See docs/RELEVANCE.md.
//
//   node bench/relevance/run.mjs [--corpora=man,python,postgres,kernel,handbook] [--embeddings=lsa,hash,oracle] [--systems=fts5,cache:*,...]
//     [--queries=1000] [--split=test|tune] [--orama-queries=N] [--configs=file.json]
//     [--config='{"name":"cache:x","search":{"lambda":1}}' ...] [--rebuild] [--write-docs] [--per-query] [--label=TEXT]
//
// RELEVANCE_CACHE=/path/to/js/cache/index.js measures another build of memdomain/cache.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CACHE_MODULE, CORPORA, DEFAULT_CORPORA, OUT, ROOT, evaluate, importCache, loadCorpus, withEmbedding } from "./lib.mjs";
import { EMBEDDINGS } from "./embeddings.mjs";
import { summary } from "./summary.mjs";
import { BASELINES, CACHE_CONFIGS, cacheSystem, cacheVector, checkConfig } from "./systems.mjs";

const USAGE = `usage: node bench/relevance/run.mjs [--corpora=man,python,postgres,kernel,handbook] [--embeddings=lsa,hash,oracle] [--systems=a,b,cache:*] [--queries=N]
  [--split=test|tune] [--orama-queries=N] [--configs=file.json] [--config=JSON ...] [--rebuild] [--write-docs] [--per-query] [--label=TEXT]
  [--from=results.json] (print, and with --write-docs write, the tables of a saved run: runs nothing)`;

function parseArgs(argv) {
  const o = { corpora: DEFAULT_CORPORA, embeddings: ["lsa"], systems: null, queries: 1000, split: "test", oramaQueries: Infinity, configs: [],
    rebuild: false, writeDocs: false, perQuery: false, label: process.env.RELEVANCE_CACHE_LABEL ?? null };
  for (const a of argv) {
    const m = /^--([a-z-]+)(?:=([\s\S]*))?$/.exec(a);
    if (!m) throw new RangeError(`run: unknown argument ${a}\n${USAGE}`);
    const [, k, v] = m;
    const need = () => { if (v === undefined || v === "") throw new RangeError(`run: --${k} needs a value\n${USAGE}`); return v; };
    const int = () => { const n = Number(need()); if (!Number.isInteger(n) || n < 1) throw new RangeError(`run: --${k} must be a positive integer, got ${v}`); return n; };
    if (k === "corpora") o.corpora = need().split(",").filter(Boolean);
    else if (k === "systems") o.systems = need().split(",").filter(Boolean);
    else if (k === "embeddings") o.embeddings = need().split(",").filter(Boolean);
    else if (k === "queries") o.queries = int();
    else if (k === "orama-queries") o.oramaQueries = int();
    else if (k === "split") { o.split = need(); if (!["test", "tune"].includes(o.split)) throw new RangeError(`run: --split must be test or tune, got ${v}`); }
    else if (k === "configs") {
      const list = JSON.parse(readFileSync(need(), "utf8"));
      if (!Array.isArray(list)) throw new TypeError(`run: --configs=${v} must hold a JSON array of configs`);
      list.forEach((c, i) => o.configs.push(checkConfig(c, `--configs=${v} [${i}]`)));
    } else if (k === "config") o.configs.push(checkConfig(JSON.parse(need()), `--config`));
    else if (k === "label") o.label = need();
    else if (k === "from") o.from = need();
    else if (k === "rebuild") o.rebuild = true;
    else if (k === "write-docs") o.writeDocs = true;
    else if (k === "per-query") o.perQuery = true;
    else if (k === "help") { console.log(USAGE); process.exit(0); }
    else throw new RangeError(`run: unknown flag --${k}\n${USAGE}`);
  }
  for (const c of o.corpora) if (!CORPORA[c]) throw new RangeError(`run: --corpora: ${c} is not a corpus (${Object.keys(CORPORA).join(", ")})`);
  for (const e of o.embeddings) if (!EMBEDDINGS.includes(e)) throw new RangeError(`run: --embeddings: ${e} is not an embedding (${EMBEDDINGS.join(", ")})`);
  return o;
}

const glob = (pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);

const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : "");
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : "");
const fms = (x) => (!Number.isFinite(x) ? "" : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));

function table(res) {
  const lines = [
    `### ${res.corpus}${res.embedding && res.embedding !== "lsa" ? `, ${res.embedding} embeddings` : ""}${res.heldOut ? " (held-out)" : ""}`,
    "",
    `${res.description}. ${res.stats.memories.toLocaleString("en")} memories, ${res.stats.links.toLocaleString("en")} links, ` +
    `${res.stats.queries.toLocaleString("en")} ${res.split} queries (of ${res.stats.eligible.toLocaleString("en")} eligible); ` +
    (res.embedding && res.embedding !== "lsa" ? `Embeddings: ${res.embedding} (d = ${res.stats.dim}; bench/relevance/embeddings.mjs); ` : "") +
    `LSA d = 256 over ${res.stats.terms.toLocaleString("en")} terms in ${f1(res.stats.lsaSeconds)} s (corpus built in ${f1(res.stats.buildSeconds)} s).`,
    "",
    "| system | MRR@10 | nDCG@10 | R@1 | R@10 | p50 ms | index s | notes |",
    "|---|--:|--:|--:|--:|--:|--:|---|",
  ];
  for (const r of res.rows) {
    if (r.error) { lines.push(`| ${r.system} | | | | | | | failed: ${r.error.replace(/\|/g, "/").replace(/\n/g, " ").slice(0, 200)} |`); continue; }
    lines.push(`| ${r.system} | ${f3(r.mrr10)} | ${f3(r.ndcg10)} | ${f3(r.r1)} | ${f3(r.r10)} | ${fms(r.p50)} | ${f1(r.indexMs / 1000)} | ${r.note ?? ""} |`);
  }
  return lines.join("\n");
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(e.message); // a usage error: no stack
    process.exit(2);
  }
  if (o.from) { // rewrite the docs from a saved run's results.json, running nothing
    const doc = JSON.parse(readFileSync(o.from, "utf8"));
    const md = doc.results.map(table).join("\n\n") + "\n";
    console.log(`${md}\n${summary(doc.results)}`);
    if (o.writeDocs) writeDocs(md, doc);
    return;
  }
  const cacheMod = await importCache();
  const systems = [...BASELINES];
  for (const c of CACHE_CONFIGS) systems.push(cacheSystem(c));
  // The seed-faithful composition, where the cache module has presets (issue 24 item 4).
  if (cacheMod.PRESETS?.memhtml) systems.push(cacheSystem({ name: "cache:memhtml", search: { preset: "memhtml" }, links: false, sleep: false }));
  const wanted = (name) => !o.systems || o.systems.some((p) => glob(p).test(name));
  const selected = systems.filter((s) => wanted(s.name));
  // User configs always run (they were asked for by name).
  for (const c of o.configs) selected.push(cacheSystem(c));
  const tuneWanted = wanted("cache:tuned");
  const names = selected.map((s) => s.name);
  if (new Set(names).size !== names.length) throw new RangeError(`run: two systems are named ${names.find((n, i) => names.indexOf(n) !== i)}`);
  console.error(`relevance: cache module ${CACHE_MODULE}; systems ${names.join(", ")}${tuneWanted ? ", cache:tuned" : ""}`);

  const results = [];
  for (const name of o.corpora) for (const emb of o.embeddings) {
    const corpus = await withEmbedding(await loadCorpus(name, { rebuild: o.rebuild }), emb);
    const queries = o.split === "test" ? corpus.queries.test.slice(0, o.queries) : corpus.queries.tune;
    const ctx = { caches: new Map(), cacheModule: cacheMod };
    const rows = [];
    const run = async (sys, qs, extraNote = "") => {
      const t = performance.now();
      try {
        const s = await sys.open(corpus, ctx);
        const mapped = s.mapQuery ? qs.map(s.mapQuery) : qs;
        const moved = mapped.filter((q, i) => q.target !== qs[i].target).length;
        const r = await evaluate((q) => s.search(q), mapped);
        await s.close();
        const note = [s.note, moved ? `${moved} targets merged by sleep, scored as their keepers` : "", extraNote,
          qs.length < queries.length ? `first ${qs.length} queries` : ""].filter(Boolean).join("; ");
        rows.push({ system: sys.name, mrr10: r.mrr10, ndcg10: r.ndcg10, r1: r.r1, r10: r.r10, p50: r.p50, p90: r.p90, indexMs: s.indexMs,
          queries: qs.length, note, config: sys.config, perQuery: r.perQuery.map((p, i) => ({ target: mapped[i].target, rank: p.rank, ndcg: p.ndcg, top: r.lists[i].slice(0, 3) })) });
        console.error(`relevance: ${name}: ${sys.name}: MRR@10 ${f3(r.mrr10)} nDCG@10 ${f3(r.ndcg10)} R@1 ${f3(r.r1)} R@10 ${f3(r.r10)} ` +
          `p50 ${fms(r.p50)} ms (${((performance.now() - t) / 1000).toFixed(1)} s)`);
      } catch (e) {
        console.error(`relevance: ${name}: ${sys.name} failed: ${e?.stack ?? e}`);
        rows.push({ system: sys.name, error: String(e?.message ?? e), queries: qs.length });
      }
    };
    for (const sys of selected) await run(sys, sys.name === "orama" ? queries.slice(0, o.oramaQueries) : queries);
    // tune() on the tune split, then the test split searched with what it returned: on the cache as put, and with the links
    for (const t of tuneWanted ? [{ name: "cache:tuned", links: false }, { name: "cache:tuned+links", links: true }] : []) {
      const key = `${t.links}/false`;
      if (!ctx.caches.has(key)) ctx.caches.set(key, (await import("./lib.mjs")).openCorpusCache(corpus, { links: t.links, cacheModule: cacheMod }));
      const base = await ctx.caches.get(key);
      if (typeof base.cache.tune !== "function") { console.error(`relevance: ${name}: ${t.name} skipped: this cache module has no tune()`); continue; }
      const started = performance.now();
      try {
        const out = await base.cache.tune(corpus.queries.tune.map((q) => ({ text: q.text, vector: cacheVector(q.vector), relevant: q.relevant })), { seed: 1 });
        const settings = out && typeof out === "object" && out.search && typeof out.search === "object" ? out.search : out;
        const tuneMs = performance.now() - started;
        console.error(`relevance: ${name}: ${t.name}: tune() on ${corpus.queries.tune.length} tune queries, ${(tuneMs / 1000).toFixed(1)} s, returned ${JSON.stringify(out)}`);
        const sys = cacheSystem({ name: t.name, search: settings, links: t.links, sleep: false });
        const chose = out?.chose ? `chose ${out.chose}` : "";
        const held = out?.heldOut?.tuned !== undefined ? `CV nDCG ${f3(out.heldOut.tuned)} vs ${f3(out.heldOut.baseline)}` : "";
        await run(sys, queries, [`tune ${(tuneMs / 1000).toFixed(1)} s`, chose, held, o.split === "tune" ? "scored on its own training queries" : ""].filter(Boolean).join(", "));
        rows[rows.length - 1].tuneResult = out;
      } catch (e) {
        console.error(`relevance: ${name}: ${t.name} failed: ${e?.stack ?? e}`);
        rows.push({ system: t.name, error: String(e?.message ?? e), queries: queries.length });
      }
    }
    for (const p of ctx.caches.values()) await (await p).cache.close();
    const m = corpus.meta;
    const res = {
      corpus: name, embedding: emb, heldOut: m.heldOut, description: m.description, split: o.split,
      stats: { memories: m.counts.memories, links: m.counts.links, queries: queries.length, eligible: m.counts.eligibleQueries,
        zeroVectorQueries: queries.filter((q) => q.vector.every((x) => x === 0)).length, dim: corpus.dim, terms: m.lsa.terms,
        lsaSeconds: m.lsa.seconds, buildSeconds: m.buildSeconds, packages: m.packages, key: m.key },
      rows,
    };
    results.push(res);
    console.log(`\n${table(res)}\n`);
  }

  mkdirSync(OUT, { recursive: true });
  const cacheVersion = (() => { try { return JSON.parse(readFileSync(join(ROOT, "js", "package.json"), "utf8")).version; } catch { return null; } })();
  const doc = { date: new Date().toISOString(), node: process.version, cacheModule: CACHE_MODULE, label: o.label, cacheVersion, split: o.split, queriesPerCorpus: o.queries,
    oramaQueries: o.oramaQueries, results };
  const slim = { ...doc, results: results.map((r) => ({ ...r, rows: r.rows.map(({ perQuery, ...row }) => (o.perQuery ? { ...row, perQuery } : row)) })) };
  writeFileSync(join(OUT, "results.json"), JSON.stringify(slim, null, 1) + "\n");
  writeFileSync(join(OUT, "results.perquery.json"), JSON.stringify(doc) + "\n");
  const md = results.map(table).join("\n\n") + "\n";
  writeFileSync(join(OUT, "results.md"), md);
  console.error(`relevance: wrote ${join(OUT, "results.json")}, results.perquery.json and results.md`);
  if (o.writeDocs) writeDocs(md, doc);
}

const START = "<!-- relevance-tables:start (generated by node bench/relevance/run.mjs --write-docs; do not edit by hand) -->";
const END = "<!-- relevance-tables:end -->";
const SUMMARY_START = "<!-- relevance-summary:start (generated by node bench/relevance/run.mjs --write-docs; do not edit by hand) -->";
const SUMMARY_END = "<!-- relevance-summary:end -->";

function writeDocs(md, doc) {
  const file = join(ROOT, "docs", "RELEVANCE.md");
  const text = readFileSync(file, "utf8");
  const a = text.indexOf("<!-- relevance-tables:start"), b = text.indexOf(END);
  if (a < 0 || b < a) throw new RangeError(`run: --write-docs: ${file} has no ${START} ... ${END} markers`);
  const mod = doc.cacheModule.startsWith(ROOT) ? doc.cacheModule.slice(ROOT.length + 1) : doc.cacheModule;
  const head = [`Measured ${doc.date.slice(0, 10)}, Node ${doc.node}`, `${doc.split} split`, `up to ${doc.queriesPerCorpus} queries per corpus` +
    (Number.isFinite(doc.oramaQueries) ? ` (Orama: the first ${doc.oramaQueries})` : ""),
  `cache module \`${mod}\`${doc.label ? ` (${doc.label})` : ""}`].join(", ") + ".";
  let out = `${text.slice(0, a)}${START}\n\n${head}\n\n${md}\n${text.slice(b)}`;
  const sa = out.indexOf("<!-- relevance-summary:start"), sb = out.indexOf(SUMMARY_END);
  if (sa >= 0 && sb > sa) {
    out = `${out.slice(0, sa)}${SUMMARY_START}\n\n${head} Each cell: MRR@10 / nDCG@10.\n\n${summary(doc.results)}\n\n${out.slice(sb)}`;
  }
  writeFileSync(file, out);
  console.error(`relevance: rewrote the tables in ${file}`);
}

main().catch((e) => {
  console.error(e?.stack ?? String(e));
  process.exit(1);
});

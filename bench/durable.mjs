// memdomain/cache on Cloudflare Durable Objects (issue 29): examples/durable-object under miniflare
// (workerd), and the cache's memory on the Durable Object adapter in Node. Not a test: it prints.
//   node --expose-gc bench/durable.mjs [--tenants=1000] [--ops=6] [--cold=1000,4000,10000] [--memory=1000,2500,5000] [--parts=load,cold,largest,memory]
// load     N tenants (objects), each with its own memories, driven concurrently from inside workerd
//          (Worker -> object stub.fetch, 200 in flight): p50/p99 of put and search per call as the Worker
//          sees it; then every object restarts and each tenant's memories are checked: lost or leaked
// cold     one object filled with n memories (d = 384), reset (ctx.abort), then its first request: start,
//          open (schema, resident rows' source, term map) and one search (rows built, FTS5 read); then a
//          warm search. 10,000 x 384 is past the default budget: that object opens with maxResidentBytes: null
// largest  an object with the default budget, filled 250 memories at a time (d = 384) until the cache refuses
// memory   in Node, the same adapter on an emulated ctx.storage: V8 heap + external memory (wasm memory
//          included), sampled through open, search and a sleep pass, against the cache's estimate; and the
//          process's RSS high-water growth (a child per size), which also counts garbage not yet collected
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const list = (s) => s.split(",").filter(Boolean).map(Number);
const D = 384;
const MB = (b) => `${(b / 1e6).toFixed(1)} MB`;
const pct = (xs, p) => {
  const s = Float64Array.from(xs).sort();
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;

// ------------------------------------------------------------ memory (a child process per size)
if (process.argv[2] === "--child-memory") {
  const n = Number(process.argv[3]), mode = process.argv[4];
  const md = await import("../js/index.js");
  const { openMemoryCache, residentEstimate } = await import("../js/cache/index.js");
  const { makeCorpus, makeQueries } = await import("../tests/js/cache-corpus.js");
  const { emulatedStorage } = await import("../tests/js/durable-storage.js");
  md.initSync(readFileSync(`${ROOT}build/memdomain.wasm`));
  const mems = makeCorpus(n, D, 7, { dupEvery: 50 });
  const qs = makeQueries(mems, 3, 8);
  const storage = emulatedStorage();
  { // fill, then drop everything the fill held
    const c = await openMemoryCache({ storage, maxResidentBytes: null });
    for (let i = 0; i < n; i += 1000) await c.put(mems.slice(i, i + 1000));
    await c.close();
  }
  mems.length = 0;
  const status = (k) => Number(readFileSync("/proc/self/status", "utf8").match(new RegExp(`${k}:\\s+(\\d+)`))[1]) * 1024;
  const used = () => { const m = process.memoryUsage(); return m.heapUsed + m.external; };
  global.gc();
  await new Promise((r) => setTimeout(r, 100));
  global.gc();
  const base = used(), rss0 = status("VmRSS");
  let peak = 0;
  const sample = () => { peak = Math.max(peak, used() - base); };
  const c = await openMemoryCache({ storage, maxResidentBytes: null });
  sample();
  for (const q of qs) { await c.search(q); sample(); }
  const search = peak, rssSearch = status("VmHWM") - rss0;
  await c.sleep({ now: Date.now(), onProgress: sample });
  sample();
  const r = await c.residentBytes();
  console.log(JSON.stringify({ n, search, sleep: peak, estimate: r.estimate, text: r.text, rssSearch, rssSleep: status("VmHWM") - rss0, mode }));
  process.exit(0);
}

const parts = arg("parts", "load,cold,largest,memory").split(",");
const out = [];
const say = (line = "") => { console.log(line); out.push(line); };
say(`memdomain/cache on Durable Objects (bench/durable.mjs), ${new Date().toISOString().slice(0, 10)}, load ${(await import("node:os")).loadavg()[0].toFixed(1)}`);

if (parts.includes("load") || parts.includes("cold") || parts.includes("largest")) {
  const { Miniflare } = await import("miniflare");
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { client, tenantMemories, tenantsOptions, tenantsWorker, word } = await import("../tests/runtimes/durable-tenants.js");
  const { makeCorpus, makeQueries } = await import("../tests/js/cache-corpus.js");
  const code = await tenantsWorker();
  const persist = mkdtempSync(`${tmpdir()}/memdomain-bench-durable-`);
  // --memory-storage: the objects' SQLite in memory instead of files (no fsync per commit)
  let mf = new Miniflare(tenantsOptions(code, { persist: process.argv.includes("--memory-storage") ? undefined : persist }));
  try {
    const { many, call } = client(mf);
    if (parts.includes("load")) {
      const N = Number(arg("tenants", 1000)), OPS = Number(arg("ops", 6)), INFLIGHT = Number(arg("inflight", 32));
      const opt = { size: Math.max(1, INFLIGHT >> 1), limit: INFLIGHT > 1 ? 2 : 1 };
      const ids = Array.from({ length: N }, (_, i) => i);
      const mems = ids.map((i) => tenantMemories(i, OPS, 64));
      const putMs = [], searchMs = [];
      let ops = 0, failed = 0;
      const t0 = performance.now();
      for (let round = 0; round < OPS; round++) { // each round: every tenant puts one memory and searches twice, all at once
        const calls = ids.flatMap((i) => [{ id: `t${i}`, route: "memories", body: { memories: [mems[i][round]] } }]);
        const puts = await many(calls, opt);
        for (const r of puts) { putMs.push(r.ms); if (r.status !== 200) failed++; }
        const qs = ids.flatMap((i) => [{ id: `t${i}`, route: "search", body: { text: `${word(i)} deploy retry`, vector: mems[i][round].embedding, limit: 10 } },
          { id: `t${i}`, route: "search", body: { text: word((i + 7) % N), limit: 10 } }]);
        const hits = await many(qs, opt);
        for (const r of hits) { searchMs.push(r.ms); if (r.status !== 200) failed++; }
        ops += puts.length + hits.length;
      }
      const wall = (performance.now() - t0) / 1000;
      // every object restarts, then each tenant's memories are read back and searched with another's word
      await many(ids.map((i) => ({ id: `t${i}`, route: "test/restart", body: {} })), { size: 200, limit: 2 });
      const held = await many(ids.map((i) => ({ id: `t${i}`, route: "test/paths" })), { size: 200, limit: 2 });
      let lost = 0, leaked = 0;
      held.forEach((r, i) => {
        const paths = new Set(r.value.paths ?? []);
        lost += mems[i].filter((m) => !paths.has(m.path)).length;
        leaked += [...paths].filter((p) => !p.startsWith(`t${i}/`)).length;
      });
      const foreign = await many(ids.map((i) => ({ id: `t${i}`, route: "search", body: { text: word((i + 1) % N), vector: mems[(i + 1) % N][0].embedding } })),
        { size: 200, limit: 2 });
      foreign.forEach((r, i) => { leaked += (r.value.hits ?? []).filter((h) => !h.path.startsWith(`t${i}/`)).length; });
      say("");
      say(`load: ${N} tenants (one object each, d = 64), ${OPS} rounds of (put one memory, two searches) per tenant, ${opt.size * opt.limit} calls ` +
        `in flight, the objects' SQLite ${process.argv.includes("--memory-storage") ? "in memory" : "in files"}`);
      say(`  operations ${ops} (${failed} failed) in ${wall.toFixed(1)} s: ${(ops / wall).toFixed(0)} per second on one workerd process`);
      say(`  put    p50 ${ms(pct(putMs, 0.5))}  p99 ${ms(pct(putMs, 0.99))}   (per call as the Worker sees it, queueing included: one process, one thread)`);
      say(`  search p50 ${ms(pct(searchMs, 0.5))}  p99 ${ms(pct(searchMs, 0.99))}`);
      say(`  after every object restarted: ${lost} memories lost, ${leaked} leaked across tenants (of ${N * OPS})`);
    }
    if (parts.includes("cold")) {
      say("");
      say(`cold start: one object, n memories (d = ${D}), reset (ctx.abort), then its first request (start, open, one search), then a warm search`);
      for (const n of list(arg("cold", "1000,4000,10000"))) {
        const id = `cold${n}`;
        const budget = n * (D * 40 + 6144) > 96 * 2 ** 20 ? null : undefined;
        if (budget === null) await call(id, "test/budget", { maxResidentBytes: null });
        const mems = makeCorpus(n, D, 11, { dupEvery: 50 }).map((m) => ({ ...m, embedding: Array.from(m.embedding) }));
        for (let i = 0; i < n; i += 500) {
          const r = await call(id, "memories", { memories: mems.slice(i, i + 500) });
          if (r.status !== 200) throw new Error(`filling ${id}: ${JSON.stringify(r.value).slice(0, 300)}`);
        }
        const q = { ...makeQueries(mems.slice(0, 200).map((m) => ({ ...m, embedding: Float32Array.from(m.embedding) })), 1, 3)[0] };
        q.vector = Array.from(q.vector);
        const firsts = [], warms = [];
        for (let rep = 0; rep < 3; rep++) {
          await many([{ id, route: "test/restart", body: {} }]);
          const [first] = await many([{ id, route: "search", body: q }]);
          const [warm] = await many([{ id, route: "search", body: q }]);
          if (first.status !== 200 || warm.status !== 200) throw new Error(`cold ${n}: ${JSON.stringify([first.value, warm.value]).slice(0, 300)}`);
          firsts.push(first.ms);
          warms.push(warm.ms);
        }
        say(`  n = ${String(n).padStart(6)}: first request ${ms(pct(firsts, 0.5))} (median of 3), warm search ${ms(pct(warms, 0.5))}` +
          (budget === null ? "  [past the default budget: opened with maxResidentBytes: null]" : ""));
      }
    }
    if (parts.includes("largest")) {
      const id = "largest", mems = makeCorpus(12000, D, 13, { dupEvery: 50 }).map((m) => ({ ...m, embedding: Array.from(m.embedding) }));
      let held = 0, refusal = null;
      for (let i = 0; i < mems.length && !refusal; i += 250) {
        const r = await call(id, "memories", { memories: mems.slice(i, i + 250) });
        if (r.status === 200) held += 250;
        else refusal = r.value.error;
      }
      const stats = (await call(id, "stats")).value;
      say("");
      say(`largest cache per object (d = ${D}, default maxResidentBytes ${MB(stats.resident.max)}): ${stats.count} memories held ` +
        `(estimate ${MB(stats.resident.estimate)}); the next 250 refused:`);
      say(`  ${String(refusal).slice(0, 260)}`);
    }
  } finally {
    await mf.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
}

if (parts.includes("memory")) {
  say("");
  say(`memory in Node on the Durable Object adapter (emulated ctx.storage), d = ${D}: peak of V8 heap + external (wasm memory included)`);
  say("  sampled after open and each search, and at every phase of a sleep pass; RSS: the process's high-water growth");
  say("       n   search peak   sleep peak    estimate   est./peak   RSS search   RSS sleep");
  for (const n of list(arg("memory", "1000,2500,5000"))) {
    const r = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--child-memory", String(n)], { encoding: "utf8" });
    if (r.status !== 0) { say(`  n = ${n}: failed ${r.stderr.slice(-500)}`); continue; }
    const m = JSON.parse(r.stdout.trim().split("\n").pop());
    say(`  ${String(n).padStart(6)}   ${MB(m.search).padStart(11)}  ${MB(m.sleep).padStart(11)}  ${MB(m.estimate).padStart(10)}   ` +
      `${(m.estimate / m.sleep).toFixed(2).padStart(8)}   ${MB(m.rssSearch).padStart(10)}  ${MB(m.rssSleep).padStart(10)}`);
  }
}

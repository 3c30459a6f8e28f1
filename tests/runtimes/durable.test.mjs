// memdomain/cache on Cloudflare Durable Objects, in workerd under miniflare (no network):
//   backend   the cache scenario on a SQLite-backed object's ctx.storage answers as Node's
//             sqlite-wasm (searches, sleep reports, exportJsonl), a reopen answers the same,
//             a failure inside transactionSync rolls the sleep back, and the fault injection of
//             tests/js/cache-faults-lib.js holds on the object's SQLite
//   example   examples/durable-object as wrangler.jsonc declares it: put, search, reinforce, sleep on
//             the alarm, stats; bad input answers 400 with the cache's message
//   docs      docs/CACHE.md's Durable Object block, bundled as printed: put and search answer as Node,
//             another agent's object sees nothing, a schedule set on the alarm
//   tenants   1,000 objects (--tenants=N) with different memories, driven concurrently: no tenant
//             sees another's memories; alarms that throw halfway (inside the sleep's transaction,
//             in the middle of the pass, after its commit, after onAlarm) are retried and complete
//             with the database a Node sqlite-wasm cache computes from the same calls; nothing
//             acknowledged is lost across a restart of every object (ctx.abort) and of workerd
//   alarms    the object reset (ctx.abort) at each phase of the pass, and an alarm consumed with nothing
//             done (as after the runtime's last retry: getAlarm() null, the schedule due): after the
//             object's next request every pass has run, at its scheduled time
// Run: node tests/runtimes/durable.test.mjs [--only=backend,example,docs,tenants,alarms] (make test-durable).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { readFileSync } from "node:fs";
import { build } from "esbuild";
import { BUILD, ROOT, check, checkFaultParts, finish, firstDiff, same, want } from "./lib.mjs";
import * as md from "../../js/index.js";
import { openMemoryCache } from "../../js/cache/index.js";
import { indexUse, sameConnection, scenario } from "./cache-scenario.js";
import { DAY, client, tenantMemories, tenantsOptions, tenantsWorker, word } from "./durable-tenants.js";
import { snippets } from "../readme/snippets.mjs";

const wasm = readFileSync(`${BUILD}memdomain.wasm`);
md.initSync(wasm);
const t0 = performance.now();
/** Bundle a Worker as wrangler would: one ES module importing ./memdomain.wasm (sqlite-wasm never loaded). */
export async function bundleWorker(entry) {
  const r = await build({ entryPoints: [entry], bundle: true, format: "esm", write: false, platform: "neutral",
    conditions: ["workerd", "worker", "browser"], mainFields: ["module", "main"], external: ["./memdomain.wasm", "@sqlite.org/sqlite-wasm"],
    logLevel: "error" });
  return r.outputFiles[0].text;
}

console.log("memdomain/cache on Durable Objects (workerd under miniflare)");
const { Miniflare } = await import("miniflare");

if (want("backend")) {
  // what options.storage must be, checked before anything is opened
  const refused = async (options) => openMemoryCache(options).then(() => null, (e) => e);
  const e1 = await refused({ storage: { sql: {} } });
  check(e1 instanceof TypeError && /options\.storage must be a SQLite-backed Durable Object's ctx\.storage/.test(e1.message),
    "openMemoryCache({ storage }) without sql.exec and transactionSync: a TypeError naming options.storage", String(e1));
  const e2 = await refused({ storage: { sql: { exec() {} }, transactionSync() {} }, path: "x.db" });
  check(e2 instanceof TypeError && /options\.storage and options\.path name two databases/.test(e2.message),
    "openMemoryCache({ storage, path }): a TypeError", String(e2));

  const ref = await (async () => {
    const cache = await openMemoryCache();
    try {
      let index = null;
      const summary = await scenario(cache, { twin: (o) => openMemoryCache({ ...sameConnection(cache), ...o }), onIndex: (s) => { index = s; } });
      return { summary: JSON.parse(JSON.stringify(summary)), index, jsonl: await cache.exportJsonl() };
    } finally {
      await cache.close();
    }
  })();
  const mf = new Miniflare({
    modules: [{ type: "ESModule", path: "worker.js", contents: await bundleWorker(`${ROOT}tests/runtimes/durable-worker.js`) },
      { type: "CompiledWasm", path: "memdomain.wasm", contents: wasm }],
    compatibilityDate: "2025-01-01", durableObjects: { CACHE: { className: "CacheObject", useSQLite: true } },
  });
  try {
    const get = async (p) => (await mf.dispatchFetch(`http://localhost${p}`)).json();
    const lx = await get("/lexical?object=lexical");
    if (check(!lx.error && lx.want, "a Durable Object: searches after puts with kept term lists", lx.error)) {
      check(same(lx.last, lx.want) && lx.want.length > 0, "Durable Object: the lexical arm after puts equals a fresh cache's", firstDiff(lx.last, lx.want));
      // where TEMP tables are refused the kept lists cannot follow writes: dropped and read again (not kept wrongly)
      check(lx.temp === "allowed" ? lx.exact === true : lx.exact === false,
        `Durable Object: term lists ${lx.exact === true ? "kept across writes" : `read again after each write (TEMP tables: ${lx.temp})`}`);
    }
    const a = await get("/scenario");
    if (check(!a.error && a.summary, "a Durable Object ran the scenario on ctx.storage (put, link, search, sleep twice, search)", a.error)) {
      check(a.backend === "durable-object", `the backend is the object's SQLite (${a.backend})`);
      check(ref.summary.index.every((x) => x === "same") && same(a.summary, ref.summary),
        `Durable Object: the same puts, searches and sleep reports as Node's sqlite-wasm, a twin with the lexical index on too (${indexUse(a.index)})`,
        firstDiff(a.summary, ref.summary));
      check(a.jsonl === ref.jsonl && a.jsonl.split("\n").length > 150, "Durable Object: exportJsonl gives the same bytes as Node's sqlite-wasm",
        firstDiff(a.jsonl, ref.jsonl));
    }
    for (const via of ["storage", "db"]) {
      const b = await get(`/searches?via=${via}`);
      check(b.count === ref.summary.count && same(b.searches, ref.summary.after) && b.jsonl === ref.jsonl,
        `Durable Object, a second request (a new cache on { ${via}: ctx.storage }): the same memories and searches`,
        b.error ?? firstDiff(b.searches, ref.summary.after));
    }
    const c = await get("/rollback");
    check(/injected in the batch/.test(c.err ?? "") && c.unchanged === true,
      "Durable Object: a failure inside the sleep's transactionSync (a trigger aborts the 10th UPDATE) leaves the database as it was", JSON.stringify(c));
    await checkFaultParts(get, "Durable Object", "faults");
  } catch (e) {
    check(false, "Durable Objects under miniflare", e.stack);
  } finally {
    await mf.dispose();
  }
}

if (want("example")) {
  const tx = performance.now();
  const mf = new Miniflare(tenantsOptions(await tenantsWorker(`${ROOT}examples/durable-object/worker.mjs`), { test: false }));
  try {
    const { call } = client(mf);
    const mems = tenantMemories(7, 7, 3);
    const put = await call("ada", "memories", { memories: mems });
    check(put.status === 200 && put.value.inserted === 7, "example: POST /agents/ada/memories puts 7 memories", JSON.stringify(put));
    // the same calls on Node's sqlite-wasm: the same hits
    const ref = await openMemoryCache();
    await ref.put(mems.map((m) => ({ ...m, embedding: new Float32Array(m.embedding) })));
    const q = { text: `${word(7)} deploy`, vector: [1, 0.2, 0.1], limit: 4 };
    const want = JSON.parse(JSON.stringify(await ref.search({ ...q, vector: new Float32Array(q.vector) })));
    const hits = await call("ada", "search", q);
    check(hits.status === 200 && same(hits.value.hits, want) && want.length === 4, "example: POST /agents/ada/search answers as Node's sqlite-wasm",
      firstDiff(hits.value, want));
    const other = await call("bob", "search", q);
    check(other.status === 200 && other.value.hits.length === 0, "example: agent bob's object holds none of ada's memories", JSON.stringify(other));
    const re = await call("ada", "reinforce", { paths: [mems[0].path], signal: "positive" });
    check(re.status === 200 && same(re.value.bumped, [mems[0].path]), "example: POST /agents/ada/reinforce bumps the memory", JSON.stringify(re));
    const bad = await call("ada", "memories", { memories: [{ ...mems[0], embedding: [1, 2] }] });
    check(bad.status === 400 && /put: memories\[0\]\.embedding has 2 elements, not the cache's dimension 3/.test(bad.value.error),
      "example: a bad put answers 400 with the cache's message", JSON.stringify(bad));
    const at = Date.now();
    const sch = await call("ada", "sleep", { at });
    check(sch.status === 200 && sch.value.at === at && sch.value.every === DAY, "example: POST /agents/ada/sleep schedules a daily pass from now",
      JSON.stringify(sch));
    let stats;
    for (let i = 0; i < 100 && !stats?.lastSleep; i++) {
      await new Promise((r) => setTimeout(r, 100));
      stats = (await call("ada", "stats")).value;
    }
    await ref.reinforce([mems[0].path], { now: at, signal: "positive" }); // the object's clock differs: compare what sleep derives
    const report = await ref.sleep({ now: at });
    check(stats?.lastSleep?.at === at && stats.alarm === at + DAY && same(stats.lastSleep.bands, report.bands) && stats.count === 7,
      "example: the alarm ran the pass at the scheduled time (the bands Node computes) and set the next one a day later", JSON.stringify(stats));
    await ref.close();
  } catch (e) {
    check(false, "examples/durable-object under miniflare", e.stack);
  } finally {
    await mf.dispose();
  }
  console.log(`  (example ${((performance.now() - tx) / 1000).toFixed(1)} s)`);
}

if (want("docs")) {
  const blocks = snippets(readFileSync(`${ROOT}docs/CACHE.md`, "utf8")).filter((b) => b.lang === "js" && /ctx\.storage/.test(b.code));
  if (check(blocks.length === 1, "docs/CACHE.md has one ```js block on a Durable Object's ctx.storage", `found ${blocks.length}`)) {
    mkdirSync(`${BUILD}durable-docs`, { recursive: true });
    writeFileSync(`${BUILD}durable-docs/worker.js`, blocks[0].code);
    const mf = new Miniflare({ ...tenantsOptions(await tenantsWorker(`${BUILD}durable-docs/worker.js`), { test: false }) });
    try {
      const post = async (path, body) => (await mf.dispatchFetch(`http://localhost${path}`, { method: "POST", body: JSON.stringify(body) })).json();
      const mems = tenantMemories(3, 7, 3);
      const ref = await openMemoryCache();
      await ref.put(mems.map((m) => ({ ...m, embedding: new Float32Array(m.embedding) })));
      const q = { text: `${word(3)} retry`, vector: [0.3, 1, 0], limit: 5 };
      const want = JSON.parse(JSON.stringify(await ref.search({ ...q, vector: new Float32Array(q.vector) })));
      // after a pass: merges (once per cycle) depend on the memories, not on the time; the lateral arm walks links only
      await ref.sleep({ now: Date.now() });
      const slept = JSON.parse(JSON.stringify(await ref.search({ ...q, vector: new Float32Array(q.vector) })));
      await ref.close();
      const a = await post("/ada", { memories: mems, query: q });
      check(same(a.hits, want) && want.length === 5, "docs/CACHE.md Durable Object: put and search answer as Node's sqlite-wasm", firstDiff(a, want));
      const b = await post("/bob", { query: q });
      check(Array.isArray(b.hits) && b.hits.length === 0, "docs/CACHE.md Durable Object: another path is another object, with none of ada's memories",
        JSON.stringify(b));
      await post("/ada", { sleepEvery: 60_000 });
      let d;
      for (let i = 0; i < 50 && !same(d?.hits, slept); i++) { // the pass runs on the alarm, at once
        await new Promise((r) => setTimeout(r, 100));
        d = await post("/ada", { query: q });
      }
      check(!same(slept, want) && same(d.hits, slept), "docs/CACHE.md Durable Object: the pass scheduled on the alarm ran (its merges: the hits " +
        "Node's sqlite-wasm gives after a pass)", firstDiff(d, slept));
    } catch (e) {
      check(false, "docs/CACHE.md Durable Object block under miniflare", e.stack);
    } finally {
      await mf.dispose();
    }
  }
}

if (want("alarms")) {
  const ta = performance.now();
  const FAULTS = [["abort", "read", 0], ["abort", "neighbors", 0], ["abort", "graph", 0], ["abort", "retention", 0], ["abort", "write", 0],
    ["abort", "write", 1], ["lost", null, 0]];
  const persist = mkdtempSync(`${tmpdir()}/memdomain-durable-alarms-`);
  const mf = new Miniflare(tenantsOptions(await tenantsWorker(), { persist }));
  const until = async (fn, label) => {
    for (let i = 0; i < 150; i++) {
      const v = await fn();
      if (v) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${label}`);
  };
  try {
    const { call } = client(mf);
    const ids = FAULTS.map((_, i) => `alarm${i}`);
    const at = new Map();
    for (const [i, [mode, phase, done]] of FAULTS.entries()) {
      const id = ids[i];
      await call(id, "memories", { memories: tenantMemories(2000 + i) });
      await call(id, `test/fault?mode=${mode}&phase=${phase ?? ""}&done=${done}`, {});
      at.set(id, (await call(id, "sleep", { at: Date.now() })).value.at);
    }
    // each alarm fired and met its fault (the test route opens no cache). An object reset mid-pass gets its alarm
    // retried by miniflare; the consumed one has none, and no pass ran
    const fired = [];
    for (const id of ids) fired.push(await until(async () => { const v = (await call(id, "test/alarm")).value; return v.fault?.fired && v; }, `${id}'s alarm`));
    const gone = fired[FAULTS.findIndex((f) => f[0] === "lost")];
    check(gone.alarm === null && gone.lastSleep === null, "alarms: an alarm consumed with nothing done (as after the runtime's last retry): " +
      "no alarm set, no pass (before: never again)", JSON.stringify(gone));
    // the object's next request (it opens the cache) sets the alarm again; the pass then runs at its scheduled time
    for (const id of ids) await call(id, "stats");
    const passes = [];
    for (const id of ids) passes.push(await until(async () => (await call(id, "test/alarm")).value.lastSleep, `${id}'s pass`));
    const bad = passes.map((p, i) => [ids[i], FAULTS[i], p, at.get(ids[i])]).filter(([, , p, t]) => p.at !== t || p.next !== t + DAY);
    check(bad.length === 0, `alarms: after each of the ${FAULTS.length} (reset at read, neighbors, graph, retention, before and after the write's ` +
      "commit; consumed), the next request set a lost alarm again and every pass ran at its scheduled time (the next a day later)",
      JSON.stringify(bad).slice(0, 800));
  } catch (e) {
    check(false, "alarms under miniflare", e.stack);
  } finally {
    await mf.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
  console.log(`  (alarms ${((performance.now() - ta) / 1000).toFixed(1)} s)`);
}

if (want("tenants")) {
  const N = Number(process.argv.find((a) => a.startsWith("--tenants="))?.slice(10) ?? 1000);
  const ALARMED = Math.min(N, 96), MODES = ["inside", "progress", "committed", "handler", null];
  const tt = performance.now();
  const persist = mkdtempSync(`${tmpdir()}/memdomain-durable-`);
  const code = await tenantsWorker();
  const ids = Array.from({ length: N }, (_, i) => i);
  const mems = ids.map((i) => tenantMemories(i));
  const acked = ids.map(() => new Set()); // paths each tenant's object acknowledged
  const problems = [];
  const note = (p) => { if (problems.length < 20) problems.push(p); };
  /** Puts batch(i) into each tenant's object at once; records what each acknowledged. */
  const putAcked = async (many, who, batch) => {
    const rs = await many(who.map((i) => ({ id: `t${i}`, route: "memories", body: { memories: batch(i) } })));
    who.forEach((i, k) => {
      const r = rs[k];
      if (r.status === 200 && r.value.inserted + r.value.replaced === batch(i).length) for (const m of batch(i)) acked[i].add(m.path);
      else note(`t${i}: put answered ${r.status} ${JSON.stringify(r.value).slice(0, 200)}`);
    });
  };
  /** Every tenant's object holds exactly what it acknowledged, and its searches find only its own memories. */
  const verify = async (many, label) => {
    let leaks = 0, lost = 0, extra = 0, found = 0;
    const held = await many(ids.map((i) => ({ id: `t${i}`, route: "test/paths" })));
    ids.forEach((i) => {
      const paths = new Set(held[i].value.paths ?? []);
      for (const p of acked[i]) if (!paths.has(p)) { lost++; note(`${label}: t${i} lost ${p}`); }
      for (const p of paths) if (!acked[i].has(p)) { extra++; note(`${label}: t${i} holds ${p}, never acknowledged`); }
    });
    // its own word; another tenant's word and vector: nothing of theirs may come back
    const queries = ids.flatMap((i) => [{ id: `t${i}`, route: "search", body: { text: word(i), limit: 10 } },
      { id: `t${i}`, route: "search", body: { text: word((i + 1) % N), vector: mems[(i + 1) % N][0].embedding, limit: 10 } }]);
    const rs = await many(queries);
    rs.forEach((r, k) => {
      const i = Math.floor(k / 2), hits = r.value.hits ?? [];
      for (const h of hits) if (!h.path.startsWith(`t${i}/`)) { leaks++; note(`${label}: t${i} searched and got ${h.path}`); }
      if (k % 2 === 0 && hits.length === Math.min(10, acked[i].size)) found++;
    });
    check(lost === 0 && extra === 0, `tenants, ${label}: all ${N} objects hold exactly what they acknowledged (${acked.reduce((n, s) => n + s.size, 0)} memories)`,
      problems.join("\n"));
    check(leaks === 0 && found === N, `tenants, ${label}: each finds all its memories by its word and none of another tenant's (2 searches each)`,
      `leaks ${leaks}, found ${found}/${N}\n${problems.join("\n")}`);
  };
  let mf = new Miniflare(tenantsOptions(code, { persist }));
  try {
    let { many } = client(mf);
    // 1. every tenant puts its first memories, then more: concurrently, from inside workerd
    await putAcked(many, ids, (i) => mems[i].slice(0, 3));
    await putAcked(many, ids, (i) => mems[i].slice(3, 6));
    check(problems.length === 0 && acked.every((s) => s.size === 6), `tenants: ${N} objects acknowledged 6 memories each, 200 requests at a time`,
      problems.join("\n"));
    await verify(many, "after the puts");
    // 2. alarms that throw halfway, retried by the runtime; half the tenants put again meanwhile
    const alarmed = ids.slice(0, ALARMED);
    const mode = (i) => MODES[i % MODES.length];
    const late = (i) => i % 10 >= 5; // puts its last memory while its alarm runs (else before it is scheduled)
    await putAcked(many, alarmed.filter((i) => !late(i)), (i) => mems[i].slice(6));
    await many(alarmed.filter((i) => mode(i)).map((i) => ({ id: `t${i}`, route: `test/fault?mode=${mode(i)}`, body: {} })));
    const scheduled = await many(alarmed.map((i) => ({ id: `t${i}`, route: "sleep", body: { at: Date.now() } })));
    const at = new Map(alarmed.map((i, k) => [i, scheduled[k].value.at]));
    await putAcked(many, alarmed.filter(late), (i) => mems[i].slice(6));
    const logs = new Map();
    const settled = (i) => {
      const log = logs.get(i) ?? [];
      return mode(i) === "handler" ? log.length >= 1 : log.some((e) => e.ok);
    };
    for (let round = 0; round < 150 && !alarmed.every(settled); round++) {
      await new Promise((r) => setTimeout(r, 200));
      const open = alarmed.filter((i) => !settled(i));
      (await many(open.map((i) => ({ id: `t${i}`, route: "test/alarms" })))).forEach((r, k) => logs.set(open[k], r.value));
    }
    const bad = [];
    let retried = 0, idempotent = 0;
    for (const i of alarmed) {
      const log = logs.get(i) ?? [], m = mode(i), okRun = log.find((e) => e.ok);
      if (m === null) {
        if (!(log.length === 1 && okRun?.at === at.get(i) && okRun.written.statements > 0)) bad.push(`t${i} (no fault): ${JSON.stringify(log)}`);
      } else if (m === "handler") {
        // onAlarm resolved and set the next alarm before the throw: the runtime keeps that alarm instead of retrying
        if (!(log.length === 1 && log[0].fault === m && log[0].written?.statements > 0)) bad.push(`t${i} (${m}): ${JSON.stringify(log)}`);
      } else {
        const ok = log[0]?.fault === m && /injected/.test(log[0].error) && okRun && okRun.retryCount >= 1 && okRun.at === at.get(i)
          && (m === "committed" && !late(i) ? okRun.written.statements === 0 : okRun.written.statements > 0 || late(i));
        if (!ok) bad.push(`t${i} (${m}): ${JSON.stringify(log)}`);
        else retried++;
        if (m === "committed" && !late(i) && ok) idempotent++;
      }
    }
    check(bad.length === 0 && retried > 0 && idempotent > 0, `tenants: ${ALARMED} alarms (faults ${MODES.filter(Boolean).join(", ")}, and none): ` +
      `${retried} thrown halfway were retried and completed; ${idempotent} retries after the pass committed wrote nothing`, bad.slice(0, 8).join("\n"));
    // the objects whose puts came first hold exactly what Node's sqlite-wasm holds after the same puts and sleep({ now: at })
    const exact = alarmed.filter((i) => !late(i));
    const exported = await many(exact.map((i) => ({ id: `t${i}`, route: "test/export" })));
    const differ = [];
    for (const [k, i] of exact.entries()) {
      const ref = await openMemoryCache();
      await ref.put(mems[i].map((m) => ({ ...m, embedding: new Float32Array(m.embedding) })));
      await ref.sleep({ now: at.get(i) });
      const want = await ref.exportJsonl();
      await ref.close();
      if (exported[k].value !== want) differ.push(`t${i} (${mode(i)}): ${firstDiff(exported[k].value, want)}`);
    }
    check(differ.length === 0, `tenants: after the alarms, ${exact.length} objects hold byte for byte what Node's sqlite-wasm holds ` +
      "after the same puts and one pass at the scheduled time", differ.slice(0, 3).join("\n"));
    // 3. every object restarts (ctx.abort): the next request starts it cold from its SQLite
    const restarts = await many(ids.map((i) => ({ id: `t${i}`, route: "test/restart", body: {} })));
    check(restarts.every((r) => r.status === 500 && /restart requested by the test/.test(r.value)), `tenants: all ${N} objects were reset (ctx.abort)`,
      JSON.stringify(restarts.find((r) => r.status !== 500)));
    await verify(many, "after every object restarted");
    // 4. workerd itself restarts on the same files
    await mf.dispose();
    mf = new Miniflare(tenantsOptions(code, { persist }));
    ({ many } = client(mf));
    await verify(many, "after workerd restarted");
    const alarms = (await many(alarmed.map((i) => ({ id: `t${i}`, route: "stats" })))).map((r) => r.value.alarm);
    check(alarmed.every((i, k) => alarms[k] === at.get(i) + DAY), `tenants: the ${ALARMED} objects' next passes are still set, a day after the first`,
      JSON.stringify(alarms.slice(0, 5)));
  } catch (e) {
    check(false, "tenants under miniflare", e.stack);
  } finally {
    await mf.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
  console.log(`  (tenants ${((performance.now() - tt) / 1000).toFixed(1)} s)`);
}

console.log(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
finish("durable");

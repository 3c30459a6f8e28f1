// memdomain/cache in every runtime (make test-cache-runtimes): the scenario of
// tests/runtimes/cache-scenario.js in Node (sqlite-wasm in memory: the reference),
// Deno (in memory), a Chromium dedicated Worker on OPFS (a page reload finds the
// same memories and answers the same), and a Worker with a D1 binding under
// miniflare (put, search, sleep; a reopen; a rollback inside D1's batch; the fault
// injection of tests/js/cache-faults-lib.js). Every summary must equal Node's.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { build } from "esbuild";
import { BIN, BUILD, FAULT_PARTS, ROOT, check, checkFaultParts, finish, firstDiff, run, same, want } from "./lib.mjs";
import { startStatic } from "./server.mjs";
import * as md from "../../js/index.js";
import { openMemoryCache } from "../../js/cache/index.js";
import { indexUse, sameConnection, scenario } from "./cache-scenario.js";
import { cacheDocBlocks } from "./cache-readme.js";
import { mkdirSync, writeFileSync } from "node:fs";

/** Bundle a docs/CACHE.md example with "memdomain", "memdomain/cache" resolved to js/ ("memdomain/memdomain.wasm" stays a module import). */
async function bundleReadme(code, name, options) {
  const dir = `${BUILD}cache-readme/`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}${name}.src.js`, code);
  const alias = { name: "memdomain", setup(b) {
    b.onResolve({ filter: /^memdomain(\/.*)?$/ }, (a) => (a.path === "memdomain/memdomain.wasm" ? { path: "./memdomain.wasm", external: true }
      : { path: `${ROOT}js/${a.path === "memdomain" ? "index.js" : "cache/index.js"}` }));
  } };
  const r = await build({ entryPoints: [`${dir}${name}.src.js`], bundle: true, format: "esm", write: false, logLevel: "error", plugins: [alias], ...options });
  return r.outputFiles[0].text;
}
const readme = cacheDocBlocks(`${ROOT}docs/CACHE.md`);
const readmeMems = [
  { path: "r/a.html", gist: "deploy through the canary", body: "revert step", type: "procedural", embedding: [1, 0, 0], createdAt: 1e12, accessCount: 2 },
  { path: "r/b.html", gist: "retry with backoff", body: "three retries", type: "semantic", embedding: [0.6, 0.8, 0], createdAt: 1e12 + 1 },
  { path: "r/c.html", gist: "ttl of one hour", body: "3600 seconds", type: "semantic", embedding: [0, 0, 1], createdAt: 1e12 + 2 },
];
const readmeQuery = { text: "deploy retry", vector: [1, 0.2, 0], limit: 3 };
const readmeRef = await (async () => {
  const c = await openMemoryCache();
  await c.put(readmeMems.map((m) => ({ ...m, embedding: new Float32Array(m.embedding) })));
  const hits = await c.search({ ...readmeQuery, vector: new Float32Array(readmeQuery.vector) });
  await c.close();
  return JSON.parse(JSON.stringify(hits));
})();

const wasm = readFileSync(`${BUILD}memdomain.wasm`);
md.initSync(wasm);
const t0 = performance.now();

console.log(`memdomain/cache in Node ${process.versions.node} (memory, file), Deno, Chromium (OPFS) and a D1 Worker (miniflare)`);
let refIndex = null;
const ref = await (async () => {
  const cache = await openMemoryCache();
  try {
    return JSON.parse(JSON.stringify(await scenario(cache, { twin: (o) => openMemoryCache({ ...sameConnection(cache), ...o }),
      onIndex: (s) => { refIndex = s; } })));
  } finally {
    await cache.close();
  }
})();
// the lexical index on from the first memory answers every search as the lists; elsewhere summaries equal to this one say the same
check(ref.index.length === 2 && ref.index.every((x) => x === "same") && refIndex.indexed && refIndex.answered > 0 && refIndex.fellBack === 0,
  `Node (sqlite-wasm in memory): a twin cache with the lexical index on answers the scenario's searches as the lists (${indexUse(refIndex)})`,
  JSON.stringify([ref.index, refIndex]));
const deleted = ref.listing.byPrefix.deleted + ref.listing.byFilter.deleted;
check(deleted === 16 && ref.count === 150 - deleted && ref.listing.filtered.every((hits) => hits.length > 0) && /^RangeError: .*did you mean embedding/.test(ref.listing.refused) && ref.listing.byHand.archived === 2 && ref.listing.hidden && ref.listing.restored.restored === 1 && ref.listing.archived.some((a) => a[2] === "evict") && ref.listing.archived.some((a) => a[2] === "manual") && ref.before.length === 6 && ref.sleep.written.statements > 0 && ref.again.written.statements === 0,
  `Node (sqlite-wasm in memory): 150 memories put, ${deleted} deleted by prefix and filter, ${ref.before.length} searches, sleep wrote ${ref.sleep.written.statements} statements, the second sleep none; a misspelt field refused; archived by hand and by policy, one restored`);
check(ref.after.some((hits) => hits.some((h) => h.arms.lateral)), "Node: after sleep the lateral arm contributes");
{ // the same scenario on a file, with the driver this Node opens a path with (node:sqlite from 22.5, else better-sqlite3)
  const dir = mkdtempSync(`${tmpdir()}/memdomain-cache-file-`);
  try {
    const cache = await openMemoryCache({ path: `${dir}/cache.sqlite` });
    let index = null; // the twin: a second connection to the file
    const twin = (o) => openMemoryCache({ path: `${dir}/cache.sqlite`, ...o });
    const summary = JSON.parse(JSON.stringify(await scenario(cache, { twin, onIndex: (s) => { index = s; } }).finally(() => cache.close())));
    const wantBackend = process.getBuiltinModule?.("node:sqlite") ? "node:sqlite" : "better-sqlite3";
    check(cache.backend === wantBackend && same(summary, ref), `Node ${process.versions.node} on a file (${cache.backend}): the same as in memory, ` +
      `the lexical index on a second connection too (${indexUse(index)})`, firstDiff(summary, ref));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (want("deno")) {
  const r = await run(`${BIN}deno`, ["run", "--allow-read", "--allow-write", "--allow-env", `${ROOT}tests/runtimes/cache-deno.mjs`], { timeoutMs: 180000 });
  let out = null;
  try {
    out = JSON.parse(r.stdout.toString().trim().split("\n").pop());
  } catch {}
  if (check(r.code === 0 && out, "Deno ran the scenario in memory and on a file", `${r.code}\n${r.stderr.slice(-2000)}`)) {
    console.log(`  ${out.runtime}`);
    const [mem, file, reopened] = out.runs;
    check(mem.backend === "sqlite-wasm" && same(mem.summary, ref), `Deno in memory (${mem.backend}): the same puts, searches and sleep reports as Node ` +
      `(${indexUse(mem.index)})`, firstDiff(mem.summary, ref));
    check(file.backend === "node:sqlite" && same(file.summary, ref), `Deno on a file (${file.backend}, no native addon): the same as Node ` +
      `(${indexUse(file.index)})`, firstDiff(file.summary, ref));
    check(reopened.backend === "node:sqlite" && reopened.count === ref.count, `Deno, the file reopened: ${reopened.count} memories`);
  }
}

if (want("d1")) {
  const { Miniflare } = await import("miniflare");
  const bundle = await build({ entryPoints: [`${ROOT}tests/runtimes/cache-d1-worker.js`], bundle: true, format: "esm", write: false,
    platform: "neutral", conditions: ["workerd", "worker", "browser"], mainFields: ["module", "main"],
    external: ["./memdomain.wasm", "@sqlite.org/sqlite-wasm"], logLevel: "error" });
  const mf = new Miniflare({
    modules: [{ type: "ESModule", path: "worker.js", contents: bundle.outputFiles[0].text }, { type: "CompiledWasm", path: "memdomain.wasm", contents: wasm }],
    compatibilityDate: "2025-01-01", d1Databases: ["DB", ...FAULT_PARTS.map((w) => `FAULTS_${w}`)],
  });
  try {
    const get = async (p) => (await mf.dispatchFetch(`http://localhost${p}`)).json();
    const a = await get("/scenario");
    if (check(!a.error && a.summary, "D1 Worker ran the scenario (put, link, search, sleep twice, search)", a.error)) {
      check(a.backend === "d1", `the backend is D1 (${a.backend})`);
      check(same(a.summary, ref), `D1: the same puts, searches and sleep reports as Node (${indexUse(a.index)})`, firstDiff(a.summary, ref));
    }
    const b = await get("/searches");
    check(b.count === ref.count && same(b.searches, ref.after), "D1, a second request (a new cache on the same binding): the same memories and searches",
      b.error ?? firstDiff(b.searches, ref.after));
    const c = await get("/rollback");
    check(/injected in the batch/.test(c.err ?? "") && c.unchanged === true,
      "D1: a failure inside the sleep's batch (a trigger aborts the 10th UPDATE) leaves the database as it was", JSON.stringify(c));
    // a fault at every adapter call (before it, and after the batch committed), a throwing onProgress, two caches on one binding
    await checkFaultParts(get, "D1", "D1 faults");
  } catch (e) {
    check(false, "D1 under miniflare", e.stack);
  } finally {
    await mf.dispose();
  }
  // docs/CACHE.md's Cloudflare Worker example, bundled as it says (sqlite-wasm external), on a fresh D1.
  const code = await bundleReadme(readme.d1, "d1", { platform: "neutral", conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"], external: ["@sqlite.org/sqlite-wasm"] });
  const mf2 = new Miniflare({
    modules: [{ type: "ESModule", path: "worker.js", contents: code }, { type: "CompiledWasm", path: "memdomain.wasm", contents: wasm }],
    compatibilityDate: "2025-01-01", d1Databases: ["DB"],
  });
  try {
    const post = async (body) => (await mf2.dispatchFetch("http://localhost/", { method: "POST", body: JSON.stringify(body) })).json();
    const r1 = await post({ memories: readmeMems, query: readmeQuery });
    check(same(r1.hits, readmeRef), "docs/CACHE.md Cloudflare Worker example: put and search on D1 answer as Node", JSON.stringify(r1));
    const r2 = await post({ query: readmeQuery, sleep: true });
    check(same(r2.hits, readmeRef) && r2.report?.memories === 3 && r2.report.bands.keep + r2.report.bands.compress + r2.report.bands.evict === 3,
      "docs/CACHE.md Cloudflare Worker example: a second request finds the memories and sleeps", JSON.stringify(r2));
  } catch (e) {
    check(false, "docs/CACHE.md Cloudflare Worker example", e.stack);
  } finally {
    await mf2.dispose();
  }
}

if (want("chromium")) {
  const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
  const { chromium } = await import("playwright-core");
  const out = `${BUILD}cache-browser/`;
  rmSync(out, { recursive: true, force: true });
  await build({ entryPoints: { worker: `${ROOT}tests/runtimes/cache-browser-worker.js` }, outdir: out, bundle: true, format: "esm",
    platform: "browser", logLevel: "error" });
  writeFileSync(`${out}readme-worker.js`, await bundleReadme(readme.browser, "browser", { platform: "browser" }));
  const server = await startStatic({
    mounts: { "/": out },
    pages: {
      "/index.html": { type: "text/html; charset=utf-8", body: "<!doctype html><meta charset=utf-8><title>cache</title>" },
      "/sqlite3.wasm": { type: "application/wasm", body: readFileSync(`${ROOT}node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm`) },
      "/memdomain.wasm": { type: "application/wasm", body: wasm },
    },
  });
  const userDataDir = mkdtempSync(`${tmpdir()}/memdomain-cache-chromium-`);
  let context;
  try {
    check(existsSync(CHROMIUM), `${CHROMIUM} exists`);
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, timeout: 60000,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"] });
    const tab = context.pages()[0] ?? (await context.newPage());
    const logs = [];
    tab.on("console", (m) => logs.push(`console.${m.type()}: ${m.text()}`));
    const inWorker = (what) => tab.evaluate((w) => new Promise((ok) => {
      const worker = new Worker("/worker.js", { type: "module" });
      worker.onmessage = (e) => { ok(e.data); worker.terminate(); };
      worker.onerror = (e) => ok({ error: `worker error: ${e.message}` });
      worker.postMessage(w);
    }), what);
    await tab.goto(`${server.url}/index.html`);
    const a = await inWorker("scenario");
    if (check(!a.error && a.summary, "Chromium dedicated Worker ran the scenario on OPFS", `${a.error}\n${logs.join("\n")}`)) {
      check(a.backend === "sqlite-wasm", `the backend is sqlite-wasm (opfs-sahpool) (${a.backend})`);
      check(same(a.summary, ref), `Chromium (OPFS): the same puts, searches and sleep reports as Node (${indexUse(a.index)})`, firstDiff(a.summary, ref));
    }
    await tab.reload();
    const b = await inWorker("searches");
    check(!b.error && b.count === ref.count && same(b.searches, ref.after),
      "Chromium, after a page reload: a new Worker finds the same memories in OPFS and answers the same", b.error ?? firstDiff(b.searches, ref.after));
    // two tabs of one origin on one OPFS cache: the second waits for the first's Worker, then is told another tab
    // holds the pool (before: "could not be opened (OPFS needs a dedicated Worker)"); once that Worker ends, it opens
    const tab2 = await context.newPage();
    await tab2.goto(`${server.url}/index.html`);
    const holder = (page, busyTimeout) => page.evaluate((t) => new Promise((ok) => {
      const worker = new Worker("/worker.js", { type: "module" });
      (window.holders ??= []).push(worker);
      worker.onmessage = (e) => ok(e.data);
      worker.onerror = (e) => ok({ error: `worker error: ${e.message}` });
      worker.postMessage({ op: "count", busyTimeout: t });
    }), busyTimeout);
    const first = await holder(tab);
    const second = await holder(tab2, 300);
    check(first.count === ref.count && second.name === "CacheBusyError" &&
      /^openMemoryCache: the OPFS pool "memdomain" is held by another tab or Worker of this origin .* busyTimeout \(300 ms\)/.test(second.message),
      "Chromium, two tabs on one OPFS cache: the second is told another tab holds it (a CacheBusyError), after its busyTimeout",
      JSON.stringify([first, second]).slice(0, 600));
    const waiting = holder(tab2, 20000); // waits for the first tab's Worker
    await tab.evaluate(() => { for (const w of window.holders) w.terminate(); });
    const third = await waiting;
    check(third.count === ref.count, "Chromium, two tabs: once the first tab's Worker ends, the second tab's opens the same memories",
      JSON.stringify(third).slice(0, 600));
    await tab2.close();
    // docs/CACHE.md's browser example: put and search in its Worker, reload, search again.
    const readmeWorker = (msg) => tab.evaluate((m) => new Promise((ok) => {
      const w = new Worker("/readme-worker.js", { type: "module" });
      const progress = [];
      w.onmessage = (e) => { if (e.data.progress) progress.push(e.data.progress); else { ok({ ...e.data, progress }); w.terminate(); } };
      w.onerror = (e) => ok({ error: `worker error: ${e.message}` });
      w.postMessage(m);
    }), msg);
    const r1 = await readmeWorker({ put: readmeMems, query: readmeQuery }); // plain arrays as vectors: the cache accepts them
    check(!r1.error && r1.count === 3 && same(r1.hits, readmeRef) && r1.progress.some((p) => p.phase === "write"),
      "docs/CACHE.md browser example: its Worker puts (with progress) and searches as Node", JSON.stringify(r1).slice(0, 400));
    await tab.reload();
    const r2 = await readmeWorker({ query: readmeQuery });
    check(!r2.error && r2.count === 3 && same(r2.hits, readmeRef), "docs/CACHE.md browser example, after a reload: the memories are still in OPFS",
      JSON.stringify(r2).slice(0, 400));
  } catch (e) {
    check(false, "Chromium run", e.stack);
  } finally {
    await context?.close().catch(() => {});
    await server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
console.log(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
finish("cache-runtimes");

// memdomain/cache on Cloudflare Durable Objects, in workerd under miniflare (no network):
//   backend   the cache scenario on a SQLite-backed object's ctx.storage answers as Node's
//             sqlite-wasm (searches, sleep reports, exportJsonl), a reopen answers the same,
//             a failure inside transactionSync rolls the sleep back, and the fault injection of
//             tests/js/cache-faults-lib.js holds on the object's SQLite
// Run: node tests/runtimes/durable.test.mjs [--only=backend,...] (make test-durable).
import { readFileSync } from "node:fs";
import { build } from "esbuild";
import { BUILD, ROOT, check, finish } from "./lib.mjs";
import * as md from "../../js/index.js";
import { openMemoryCache } from "../../js/cache/index.js";
import { scenario } from "./cache-scenario.js";

const FAULT_PARTS = ["put", "delete", "link", "reinforce", "sleep", "progress", "two"];
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7).split(",");
const want = (name) => !only || only.includes(name);
const wasm = readFileSync(`${BUILD}memdomain.wasm`);
md.initSync(wasm);
const t0 = performance.now();
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const firstDiff = (a, b) => {
  const x = JSON.stringify(a), y = JSON.stringify(b);
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return `at ${i}: ${x.slice(Math.max(0, i - 80), i + 80)}\n   vs ${y.slice(Math.max(0, i - 80), i + 80)}`;
};
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
      return { summary: JSON.parse(JSON.stringify(await scenario(cache))), jsonl: await cache.exportJsonl() };
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
    const a = await get("/scenario");
    if (check(!a.error && a.summary, "a Durable Object ran the scenario on ctx.storage (put, link, search, sleep twice, search)", a.error)) {
      check(a.backend === "durable-object", `the backend is the object's SQLite (${a.backend})`);
      check(same(a.summary, ref.summary), "Durable Object: the same puts, searches and sleep reports as Node's sqlite-wasm",
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
    const tf = performance.now();
    const parts = await Promise.all(FAULT_PARTS.map((what) => get(`/faults?what=${what}`)));
    for (const [i, what] of FAULT_PARTS.entries()) {
      const r = parts[i];
      const fired = what === "two" ? true : what === "progress" ? r.cases > 10 && r.afterCommit > 0
        : r.cases > 4 && r.rejected === r.cases && r.committedThenThrew > 0;
      check(!r.error && r.problems?.length === 0 && fired,
        `Durable Object faults, ${what}: ${what === "two" ? `${r.steps} alternating steps and the rowid case` : `${r.cases} cases`}, ` +
        "search equals a fresh cache's, the database is before or after, retries complete",
        r.error ?? JSON.stringify({ ...r, problems: r.problems?.slice(0, 4) }).slice(0, 3000));
    }
    console.log(`  (faults ${((performance.now() - tf) / 1000).toFixed(1)} s)`);
  } catch (e) {
    check(false, "Durable Objects under miniflare", e.stack);
  } finally {
    await mf.dispose();
  }
}

console.log(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
finish("durable");

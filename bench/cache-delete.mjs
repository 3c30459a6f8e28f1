// memdomain/cache: what keeping the memory in line with the database costs (issue 25).
//   delete p50/p90 of one path at a time, before and after a sleep that made ~50k edges (the
//   cache used to re-read every edge after each delete); a warm search p50 (each operation now
//   first reads the generation counter and PRAGMA data_version); the resync a second cache on
//   the same file pays after the first one's put (a reload of what it keeps in memory).
//   node bench/cache-delete.mjs [--n=10000] [--deletes=200] [--queries=100] [--cache=path/to/cache/index.js]
//   --cache: another memdomain/cache (e.g. main's js/cache/index.js) to compare on the same corpus;
//   its own js/ must sit next to it (the glue it imports) with a built wasm in its ../build.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt;
const N = Number(arg("n", 10000)), K = Number(arg("deletes", 200)), Q = Number(arg("queries", 100));
const cachePath = arg("cache", fileURLToPath(new URL("../js/cache/index.js", import.meta.url)));
const root = fileURLToPath(new URL("../../", pathToFileURL(cachePath)));
const md = await import(pathToFileURL(`${root}js/index.js`).href);
md.initSync(readFileSync(`${root}build/memdomain.wasm`));
const { openMemoryCache } = await import(pathToFileURL(cachePath).href);
const { makeCorpus, makeQueries, T0 } = await import("../tests/js/cache-corpus.js");

const D = 384, FLOOR = 0.3, DAY = 86_400_000;
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const f2 = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const load = () => loadavg().map((x) => x.toFixed(2)).join(", ");

console.log(`memdomain/cache delete and resync (${cachePath}); n = ${N}, d = ${D}, load ${load()}`);
const corpus = makeCorpus(N, D, 5);
const queries = makeQueries(corpus, Q, 6);
const dir = mkdtempSync(`${tmpdir()}/memdomain-bench-delete-`);
try {
  for (const backend of ["sqlite-wasm", "better-sqlite3"]) {
    const file = `${dir}/${backend}.sqlite`;
    const cache = await openMemoryCache(backend === "sqlite-wasm" ? {} : { path: file });
    await cache.put(corpus);
    const order = corpus.map((m) => m.path).filter((_, i) => i % 7 === 3); // spread over the corpus
    const timeDeletes = async (paths) => {
      const ts = [];
      for (const p of paths) {
        const t = performance.now();
        await cache.delete([p]);
        ts.push(performance.now() - t);
      }
      return ts;
    };
    const before = await timeDeletes(order.slice(0, K));
    const s = await cache.sleep({ now: T0 + 300 * DAY, floor: FLOOR });
    const edges = (await cache.edges()).length;
    const live = new Set((await cache.all()).filter((m) => m.supersededBy === null).map((m) => m.path));
    const after = await timeDeletes(order.slice(K).filter((p) => live.has(p)).slice(0, K));
    for (const q of queries.slice(0, 10)) await cache.search(q); // warm
    const search = [];
    for (const q of queries) {
      const t = performance.now();
      await cache.search(q);
      search.push(performance.now() - t);
    }
    console.log(`${backend}: delete p50 ${f2(pct(before, 0.5))} ms (p90 ${f2(pct(before, 0.9))}) before sleep; ` +
      `after a sleep that made ${edges} edges (${s.merges.merged.length} merges) ${f2(pct(after, 0.5))} ms (p90 ${f2(pct(after, 0.9))}), ` +
      `${(pct(after, 0.5) / pct(before, 0.5)).toFixed(2)}x; warm search p50 ${f2(pct(search, 0.5))} ms, p99 ${f2(pct(search, 0.99))} ms`);
    if (backend === "better-sqlite3") {
      // a second cache on the file: one put by the first, then the second's next search resyncs
      const other = await openMemoryCache({ path: file });
      await other.search(queries[0]);
      const resync = [], plain = [];
      for (let i = 0; i < 10; i++) {
        await cache.put([{ ...corpus[i], path: `resync/${i}.html` }]);
        let t = performance.now();
        await other.search(queries[i + 1]);
        resync.push(performance.now() - t);
        t = performance.now();
        await other.search(queries[i + 1]);
        plain.push(performance.now() - t);
      }
      console.log(`better-sqlite3, a second cache on the file: search after the other's put ${f2(pct(resync, 0.5))} ms ` +
        `(the same search again ${f2(pct(plain, 0.5))} ms)`);
      await other.close();
    }
    await cache.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`load ${load()}`);

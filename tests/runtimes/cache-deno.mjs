// Deno: the memdomain/cache scenario in memory (sqlite-wasm) and on a file (node:sqlite,
// which Deno builds in: no native addon), printed as JSON for tests/runtimes/cache.test.mjs
// to compare with Node's.
import { openMemoryCache } from "../../js/cache/index.js";
import { sameConnection, scenario } from "./cache-scenario.js";

const runs = [];
const dir = await Deno.makeTempDir({ prefix: "memdomain-cache-deno-" });
try {
  for (const options of [{}, { path: `${dir}/cache.sqlite` }]) {
    const cache = await openMemoryCache(options);
    let index = null;
    // in memory: a twin on the same connection; on a file: a second connection to it
    const summary = await scenario(cache, { twin: (o) => openMemoryCache({ ...(options.path ? options : sameConnection(cache)), ...o }),
      onIndex: (s) => { index = s; } });
    await cache.close();
    runs.push({ path: options.path ? "file" : ":memory:", backend: cache.backend, summary, index });
  }
  // the file again, reopened: the same memories
  const cache = await openMemoryCache({ path: `${dir}/cache.sqlite` });
  runs.push({ path: "file, reopened", backend: cache.backend, count: await cache.count() });
  await cache.close();
} finally {
  await Deno.remove(dir, { recursive: true });
}
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, runs }));

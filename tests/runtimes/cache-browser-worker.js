// A dedicated module Worker (bundled by tests/runtimes/cache.test.mjs): the cache on
// OPFS (sqlite-wasm's opfs-sahpool VFS). "scenario" fills it; "searches" reopens it.
import { openMemoryCache } from "../../js/cache/index.js";
import { scenario, searches } from "./cache-scenario.js";

onmessage = async (e) => {
  try {
    const cache = await openMemoryCache({ path: "memdomain-test.sqlite", wasm: new URL("/memdomain.wasm", location.origin) });
    const out = e.data === "scenario"
      ? { backend: cache.backend, summary: await scenario(cache) }
      : { backend: cache.backend, count: await cache.count(), searches: await searches(cache) };
    await cache.close();
    postMessage(JSON.parse(JSON.stringify(out)));
  } catch (err) {
    postMessage({ error: String(err?.stack ?? err) });
  }
};

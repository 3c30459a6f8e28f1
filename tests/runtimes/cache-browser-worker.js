// A dedicated module Worker (bundled by tests/runtimes/cache.test.mjs): the cache on
// OPFS (sqlite-wasm's opfs-sahpool VFS). "scenario" fills it; "searches" reopens it;
// { op: "count", busyTimeout } opens it (and keeps it open: the Worker holds the pool until it ends)
// and answers its count, or the error's name and message (another tab holding the pool).
import { openMemoryCache } from "../../js/cache/index.js";
import { sameConnection, scenario, searches } from "./cache-scenario.js";

onmessage = async (e) => {
  try {
    const op = typeof e.data === "string" ? e.data : e.data.op;
    const cache = await openMemoryCache({ path: "memdomain-test.sqlite", wasm: new URL("/memdomain.wasm", location.origin),
      ...(e.data.busyTimeout !== undefined ? { busyTimeout: e.data.busyTimeout } : {}) });
    if (op === "count") {
      postMessage({ count: await cache.count() });
      return;
    }
    let index = null;
    const twin = (o) => openMemoryCache({ ...sameConnection(cache), wasm: new URL("/memdomain.wasm", location.origin), ...o });
    const out = op === "scenario"
      ? { backend: cache.backend, summary: await scenario(cache, { twin, onIndex: (s) => { index = s; } }), index }
      : { backend: cache.backend, count: await cache.count(), searches: await searches(cache) };
    await cache.close();
    postMessage(JSON.parse(JSON.stringify(out)));
  } catch (err) {
    postMessage({ error: String(err?.stack ?? err), name: err?.name, message: err?.message });
  }
};

// A Worker with a D1 binding (run under miniflare by tests/runtimes/cache.test.mjs):
// the cache scenario on D1, a reopen, and a rollback inside D1's atomic batch.
import wasm from "./memdomain.wasm";
import { initSync } from "../../js/index.js";
import { openMemoryCache } from "../../js/cache/index.js";
import { NOW, scenario, searches } from "./cache-scenario.js";

initSync(wasm);

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    const cache = await openMemoryCache({ db: env.DB });
    try {
      if (pathname === "/scenario") return Response.json({ backend: cache.backend, summary: await scenario(cache) });
      if (pathname === "/searches") return Response.json({ count: await cache.count(), searches: await searches(cache) });
      if (pathname === "/rollback") {
        const snap = async () => JSON.stringify([await cache.exportJsonl(), await cache.edges()]);
        const before = await snap();
        // the 10th memory UPDATE of the batch aborts (its counter rolls back with it)
        await env.DB.batch([env.DB.prepare("CREATE TABLE fail_count (n)"), env.DB.prepare(`CREATE TRIGGER fail_mid BEFORE UPDATE ON memories
          BEGIN INSERT INTO fail_count VALUES (1); SELECT RAISE(ABORT, 'injected in the batch') WHERE (SELECT count(*) FROM fail_count) >= 10; END`)]);
        const err = await cache.sleep({ now: NOW + 40 * 86_400_000, floor: 0.6 }).then(() => null, (e) => String(e?.message ?? e));
        await env.DB.batch([env.DB.prepare("DROP TRIGGER fail_mid"), env.DB.prepare("DROP TABLE fail_count")]);
        return Response.json({ err, unchanged: (await snap()) === before });
      }
      return new Response("not found", { status: 404 });
    } catch (e) {
      return Response.json({ error: String(e?.stack ?? e) }, { status: 500 });
    } finally {
      await cache.close();
    }
  },
};

// A Worker with a D1 binding (run under miniflare by tests/runtimes/cache.test.mjs):
// the cache scenario on D1, a reopen, and a rollback inside D1's atomic batch; and
// tests/js/cache-faults-lib.js's fault injection, one part per request
// (/faults?what=put|delete|link|reinforce|sleep|progress|two), each on its own binding
// (FAULTS_<what>) so the parts can run at the same time.
import wasm from "./memdomain.wasm";
import { initSync } from "../../js/index.js";
import { d1Adapter, openMemoryCache } from "../../js/cache/index.js";
import { adapterFaults, progressFaults, twoOpeners } from "../js/cache-faults-lib.js";
import { NOW, TABLES_SQL, dropOrder, scenario, searches } from "./cache-scenario.js";

initSync(wasm);

/** The harness's backend on a D1 binding: one database, emptied for each case; every adapter is the binding itself. */
const d1Backend = (db) => ({
  name: "d1",
  async create() {
    const names = dropOrder((await db.prepare(TABLES_SQL).all()).results.map((r) => r.name));
    if (names.length) await db.batch(names.map((t) => db.prepare(`DROP TABLE IF EXISTS "${t}"`)));
    return { adapter: () => d1Adapter(db), dispose: async () => {} };
  },
});

export default {
  async fetch(request, env) {
    const url = new URL(request.url), { pathname } = url;
    if (pathname === "/faults") {
      try {
        const what = url.searchParams.get("what"), backend = d1Backend(env[`FAULTS_${what}`]);
        const r = what === "progress" ? await progressFaults(openMemoryCache, backend)
          : what === "two" ? await twoOpeners(openMemoryCache, backend, 12)
            : await adapterFaults(openMemoryCache, backend, [what]);
        return Response.json(r);
      } catch (e) {
        return Response.json({ error: String(e?.stack ?? e) }, { status: 500 });
      }
    }
    const cache = await openMemoryCache({ db: env.DB });
    try {
      if (pathname === "/scenario") {
        let index = null;
        const summary = await scenario(cache, { twin: (o) => openMemoryCache({ db: env.DB, ...o }), onIndex: (s) => { index = s; } });
        return Response.json({ backend: cache.backend, summary, index });
      }
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

// A Worker with a SQLite-backed Durable Object class (run under miniflare by
// tests/runtimes/durable.test.mjs): the cache scenario on the object's own SQLite
// (ctx.storage), a reopen on the same storage, a rollback inside transactionSync, and
// tests/js/cache-faults-lib.js's fault injection, one object per part
// (/faults?what=put|delete|link|reinforce|sleep|progress|two) so the parts run at the same time.
import wasm from "./memdomain.wasm";
import { initSync } from "../../js/index.js";
import { durableObjectAdapter, openMemoryCache } from "../../js/cache/index.js";
import { adapterFaults, progressFaults, twoOpeners } from "../js/cache-faults-lib.js";
import { NOW, TABLES_SQL, dropOrder, scenario, searches } from "./cache-scenario.js";

initSync(wasm);

/** The harness's backend on one object's storage: emptied for each case; every adapter is the storage itself. */
const doBackend = (storage) => ({
  name: "durable-object",
  async create() {
    storage.transactionSync(() => {
      for (const t of dropOrder(storage.sql.exec(TABLES_SQL).toArray().map((r) => r.name))) storage.sql.exec(`DROP TABLE IF EXISTS "${t}"`);
    });
    return { adapter: () => durableObjectAdapter(storage), dispose: async () => {} };
  },
});

export class CacheObject {
  constructor(ctx) {
    this.ctx = ctx;
  }

  async fetch(request) {
    const url = new URL(request.url), { pathname } = url, storage = this.ctx.storage;
    try {
      if (pathname === "/faults") {
        const what = url.searchParams.get("what"), backend = doBackend(storage);
        const r = what === "progress" ? await progressFaults(openMemoryCache, backend)
          : what === "two" ? await twoOpeners(openMemoryCache, backend, 12)
            : await adapterFaults(openMemoryCache, backend, [what]);
        return Response.json(r);
      }
      const cache = await openMemoryCache(url.searchParams.get("via") === "db" ? { db: storage } : { storage });
      try {
        if (pathname === "/scenario") {
          let index = null;
          const summary = await scenario(cache, { twin: (o) => openMemoryCache({ storage, ...o }), onIndex: (s) => { index = s; } });
          return Response.json({ backend: cache.backend, summary, index, jsonl: await cache.exportJsonl() });
        }
        if (pathname === "/lexical") { // the kept term lists after writes: kept (exact) or dropped, the same answers either way
          const mem = (i, body) => ({ path: `lex/${i}`, gist: `g${i % 5}`, body, type: "episodic", embedding: [1, i % 3, 0.5], createdAt: NOW });
          await cache.put(Array.from({ length: 30 }, (_, i) => mem(i, `alpha ${i % 2 ? "beta" : "gamma"} delta`)));
          const q = { text: "alpha beta", limit: 10, weights: { lexical: 1, vector: 0, salience: 0, lateral: 0 } };
          await cache.search(q);
          const rounds = [];
          for (let i = 30; i < 34; i++) {
            await cache.put([mem(i, i % 2 ? "beta beta alpha" : "gamma")]);
            rounds.push((await cache.search(q)).map((h) => [h.path, h.score]));
          }
          const fresh = await openMemoryCache({ storage });
          const want = (await fresh.search(q)).map((h) => [h.path, h.score]);
          await fresh.close();
          // a Durable Object refuses TEMP tables (SQLITE_AUTH), where new rows would be tokenized: the lists are read again
          let temp = "allowed";
          try { storage.sql.exec("CREATE TEMP TABLE md_probe (a)"); storage.sql.exec("DROP TABLE temp.md_probe"); } catch (e) { temp = String(e?.message ?? e); }
          return Response.json({ temp, exact: cache._lexical.exact, last: rounds[rounds.length - 1], want });
        }
        if (pathname === "/searches") return Response.json({ count: await cache.count(), searches: await searches(cache), jsonl: await cache.exportJsonl() });
        if (pathname === "/rollback") {
          const snap = async () => JSON.stringify([await cache.exportJsonl(), await cache.edges()]);
          const before = await snap();
          // the 10th memory UPDATE of the sleep's transaction aborts (its counter rolls back with it)
          storage.transactionSync(() => {
            storage.sql.exec("CREATE TABLE fail_count (n)");
            storage.sql.exec(`CREATE TRIGGER fail_mid BEFORE UPDATE ON memories BEGIN INSERT INTO fail_count VALUES (1);
              SELECT RAISE(ABORT, 'injected in the batch') WHERE (SELECT count(*) FROM fail_count) >= 10; END`);
          });
          const err = await cache.sleep({ now: NOW + 40 * 86_400_000, floor: 0.6 }).then(() => null, (e) => String(e?.message ?? e));
          storage.transactionSync(() => {
            storage.sql.exec("DROP TRIGGER fail_mid");
            storage.sql.exec("DROP TABLE fail_count");
          });
          return Response.json({ err, unchanged: (await snap()) === before });
        }
        return new Response("not found", { status: 404 });
      } finally {
        await cache.close();
      }
    } catch (e) {
      return Response.json({ error: String(e?.stack ?? e) }, { status: 500 });
    }
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const name = url.searchParams.get("object") ?? (url.pathname === "/faults" ? `faults-${url.searchParams.get("what")}` : "main");
    return env.CACHE.get(env.CACHE.idFromName(name)).fetch(request);
  },
};

// examples/durable-object's Worker with test hooks (tests/runtimes/durable.test.mjs, bench/durable.mjs):
// the example's AgentMemory, subclassed to restart an object (ctx.abort), to make its next alarm
// throw ("inside": at the third statement of the sleep's transaction; "progress": halfway through
// the pass, before its write; "committed": right after the pass's batch committed; "handler":
// after onAlarm resolved; "abort": the object reset by ctx.abort() at a phase of the pass, ?phase=&done=;
// "lost": the alarm consumed with nothing done, as after the runtime's last retry), to log every alarm run,
// to read the alarm without opening the cache, and to export what an object holds.
import { openMemoryCache } from "memdomain/cache";
import example, { AgentMemory } from "../../examples/durable-object/worker.mjs";

const FAULTS = ["inside", "progress", "committed", "handler", "abort", "lost"];

export class TestAgentMemory extends AgentMemory {
  /** The example's cache on a view of the storage whose sql.exec can fail at the Nth statement of a transaction. */
  async openCache() {
    const storage = this.ctx.storage;
    let inTx = false, n = 0;
    const view = {
      sql: {
        exec: (...args) => {
          if (inTx && this.failAt !== undefined && ++n === this.failAt) {
            this.failAt = undefined;
            throw new Error(`injected: statement ${n} of the transaction`);
          }
          return storage.sql.exec(...args);
        },
      },
      transactionSync: (fn) => {
        inTx = true;
        n = 0;
        try {
          return storage.transactionSync(fn);
        } finally {
          inTx = false;
        }
      },
      setAlarm: (...a) => storage.setAlarm(...a),
      getAlarm: (...a) => storage.getAlarm(...a),
    };
    const max = await storage.get("maxResidentBytes"); // bench/durable.mjs lifts the budget for its 10,000 x 384 object
    // the test's searches record no access: an object's export is then, byte for byte, what Node holds
    // after the same puts and pass, whatever the test searched and whenever an object was reset
    return openMemoryCache({ storage: view, searchAccess: false, ...(max !== undefined && { maxResidentBytes: max }) });
  }

  async fetch(request) {
    const url = new URL(request.url);
    const route = url.pathname.split("/").slice(3).join("/");
    if (route === "test/restart") {
      this.ctx.abort("restart requested by the test"); // the object is reset; the next request starts it again
      return new Response("not reached");
    }
    if (route === "test/fault") {
      const mode = url.searchParams.get("mode");
      if (!FAULTS.includes(mode)) return Response.json({ error: `mode must be one of ${FAULTS}` }, { status: 400 });
      const phase = url.searchParams.get("phase"), done = Number(url.searchParams.get("done") ?? 0);
      await this.ctx.storage.put("fault", { mode, phase, done, fired: false });
      return Response.json({ armed: mode });
    }
    if (route === "test/budget") {
      await this.ctx.storage.put("maxResidentBytes", (await request.json()).maxResidentBytes);
      this.ready = null;
      return Response.json({ ok: true });
    }
    if (route === "test/alarms") return Response.json((await this.ctx.storage.get("alarms")) ?? []);
    if (route === "test/alarm") { // without opening the cache (which would set a lost alarm again)
      return Response.json({ alarm: await this.ctx.storage.getAlarm(), fault: (await this.ctx.storage.get("fault")) ?? null,
        lastSleep: (await this.ctx.storage.get("lastSleep")) ?? null });
    }
    if (route === "test/paths") {
      const cache = await this.cache();
      return Response.json({ paths: (await cache.all()).map((m) => m.path), edges: (await cache.edges()).length });
    }
    if (route === "test/export") return new Response(await (await this.cache()).exportJsonl());
    if (route === "test/time-first-search") { // a request that opens the cache (if the object just started) and searches once
      const t0 = performance.now();
      const cache = await this.cache();
      const hits = await cache.search(await request.json());
      return Response.json({ hits: hits.length, ms: performance.now() - t0 });
    }
    return super.fetch(request);
  }

  async alarm(info) {
    const log = (await this.ctx.storage.get("alarms")) ?? [];
    const fault = await this.ctx.storage.get("fault");
    const entry = { retryCount: info?.retryCount ?? 0, fault: null };
    try {
      if (fault && !fault.fired) {
        entry.fault = fault.mode;
        await this.ctx.storage.put("fault", { ...fault, fired: true });
        await this.ctx.storage.sync?.(); // durable before an abort, which drops writes not yet confirmed
        const cache = await this.cache();
        if (fault.mode === "lost") return { ran: false }; // the runtime gave up on it: the schedule is due, no alarm is set
        if (fault.mode === "abort") { // the object is reset mid-pass (an eviction, a deploy): nothing after this runs
          await cache.onAlarm({ onProgress: (p) => { if (p.phase === fault.phase && p.done === fault.done) this.ctx.abort("aborted by the test"); } });
          throw new Error("the injected abort did not fire");
        }
        if (fault.mode === "inside") {
          this.failAt = 3; // the third statement of the next transaction: the pass's batch, after its guard and log
          const r = await super.alarm();
          entry.written = r.report?.written ?? null;
          throw new Error("the injected fault did not fire");
        }
        if (fault.mode === "progress" || fault.mode === "committed") {
          // "progress": halfway through the pass (nothing written); "committed": the pass's batch committed, then a throw
          const at = fault.mode === "progress" ? (p) => p.phase === "graph" : (p) => p.phase === "write" && p.done === 1;
          await cache.onAlarm({ onProgress: (p) => { if (at(p)) throw new Error(`injected: ${fault.mode}`); } });
          throw new Error("the injected fault did not fire");
        }
        // "handler": the whole onAlarm resolved (the next alarm is set), then the handler throws
        const r = await super.alarm();
        entry.written = r.report?.written ?? null;
        throw new Error("injected: after onAlarm resolved");
      }
      const r = await super.alarm();
      entry.ran = r.ran;
      entry.at = r.at;
      entry.written = r.report?.written ?? null;
      entry.ok = true;
      return r;
    } catch (e) {
      entry.error = String(e?.message ?? e);
      throw e;
    } finally {
      log.push(entry);
      await this.ctx.storage.put("alarms", log);
    }
  }
}

/**
 * The example's router, and POST /test/batch { calls: [{ id, route, body }] }: the calls sent from
 * inside workerd to each tenant's object at once (a Worker's stub.fetch, without a round trip
 * from Node per call), answering [{ status, value, ms }] in order (ms: the call as the Worker saw it).
 */
export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname !== "/test/batch") return example.fetch(request, env);
    const { calls } = await request.json();
    return Response.json(await Promise.all(calls.map(async ({ id, route, body }) => {
      const t0 = performance.now();
      let r;
      try {
        r = await example.fetch(new Request(`http://localhost/agents/${id}/${route}`,
          body === undefined ? {} : { method: "POST", body: JSON.stringify(body) }), env);
      } catch (e) { // an object reset by ctx.abort() throws to its caller
        return { status: 500, value: String(e?.message ?? e), ms: performance.now() - t0 };
      }
      const text = await r.text();
      const ms = performance.now() - t0;
      let value;
      try {
        value = JSON.parse(text);
      } catch {
        value = text;
      }
      return { status: r.status, value, ms };
    })));
  },
};

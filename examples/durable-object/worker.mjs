// A Worker that gives every agent its own memory: one Durable Object per agent id, each with
// memdomain/cache on the object's own SQLite, sleeping on the object's alarm.
//   POST /agents/:id/memories   { memories: [{ path, gist, body, type, embedding, createdAt }] } -> { inserted, replaced }
//   POST /agents/:id/search     { text, vector, limit } -> { hits }
//   POST /agents/:id/reinforce  { paths, signal } -> { bumped, cooledDown }
//   POST /agents/:id/sleep      { at, every } (ms; defaults: now, daily) -> { at, every }: sleep passes on the alarm
//   GET  /agents/:id/stats      -> { count, resident, alarm, lastSleep }
// The cache is opened on an object's first request after it starts (resident rows and term lists
// are then built on its first search) and kept while the object lives; an evicted object starts
// cold from its SQLite, which holds everything acknowledged.
import wasm from "memdomain/memdomain.wasm";
import { initSync } from "memdomain";
import { openMemoryCache } from "memdomain/cache";

initSync(wasm);

const DAY = 86_400_000;
const json = (v, status = 200) => Response.json(v, { status });
const vector = (v) => (v === undefined || v === null ? v : new Float32Array(v));

export class AgentMemory {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
    this.ready = null;
  }

  /** The object's cache, opened once per start; a failed open is tried again on the next request. */
  cache() {
    if (!this.ready) {
      this.ready = this.openCache().catch((e) => {
        this.ready = null;
        throw e;
      });
    }
    return this.ready;
  }

  openCache(storage = this.ctx.storage) {
    return openMemoryCache({ storage });
  }

  async fetch(request) {
    const url = new URL(request.url);
    const route = url.pathname.split("/").slice(3).join("/"); // /agents/:id/<route>
    try {
      const cache = await this.cache();
      if (request.method === "GET" && route === "stats") {
        return json({ count: await cache.count(), resident: await cache.residentBytes(), alarm: await this.ctx.storage.getAlarm(),
          lastSleep: (await this.ctx.storage.get("lastSleep")) ?? null });
      }
      if (request.method !== "POST") return json({ error: "not found" }, 404);
      const body = await request.json();
      if (route === "memories") {
        return json(await cache.put(body.memories.map((m) => ({ ...m, embedding: vector(m.embedding) }))));
      }
      if (route === "search") return json({ hits: await cache.search({ ...body, vector: vector(body.vector) }) });
      if (route === "reinforce") return json(await cache.reinforce(body.paths, { now: Date.now(), signal: body.signal }));
      if (route === "sleep") return json(await cache.scheduleSleep({ at: body.at ?? Date.now(), every: body.every ?? DAY }));
      return json({ error: "not found" }, 404);
    } catch (e) {
      // the cache's own errors name the method and the argument: bad input is the client's
      const status = e instanceof TypeError || e instanceof RangeError ? 400 : 500;
      return json({ error: `${e.name}: ${e.message}` }, status);
    }
  }

  /** The scheduled sleep pass. A throw here is retried by the runtime; a repeated pass writes nothing. */
  async alarm() {
    const cache = await this.cache();
    const r = await cache.onAlarm();
    if (r.ran) await this.ctx.storage.put("lastSleep", { at: r.at, next: r.next, written: r.report.written, bands: r.report.bands });
    return r;
  }
}

export default {
  async fetch(request, env) {
    const m = new URL(request.url).pathname.match(/^\/agents\/([^/]{1,128})\//);
    if (!m) return Response.json({ error: "use /agents/:id/..." }, { status: 404 });
    return env.AGENT_MEMORY.get(env.AGENT_MEMORY.idFromName(decodeURIComponent(m[1]))).fetch(request);
  },
};

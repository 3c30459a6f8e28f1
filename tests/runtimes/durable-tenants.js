// Tenants for examples/durable-object under miniflare, shared by tests/runtimes/durable.test.mjs
// and bench/durable.mjs: each tenant's memories (its own paths, a word no other tenant has,
// seeded embeddings), the worker bundled as the example's run.mjs bundles it (memdomain resolved
// to this repository's js/), and a bounded-concurrency driver.
import { readFileSync } from "node:fs";
import { makeCorpus } from "../js/cache-corpus.js";
import { bundle, miniflareOptions } from "../../examples/durable-object/run.mjs";
import { BUILD, ROOT } from "./lib.mjs";

export const DAY = 86_400_000;

/** The word only tenant `i` has. */
export const word = (i) => `tok${i.toString(36)}q`;

/** Tenant `i`'s memories (n of them, dimension d): paths under t<i>/, its word in every gist. */
export function tenantMemories(i, n = 7, d = 16) {
  return makeCorpus(n, d, 1000 + i, { dupEvery: 0 }).map((m, j) => ({
    ...m, path: `t${i}/m${j}`, gist: `${word(i)} ${m.gist}`, embedding: Array.from(m.embedding),
  }));
}

/** The worker (examples/durable-object with the test hooks of durable-tenants-worker.js), bundled against js/. */
export async function tenantsWorker(entry = `${ROOT}tests/runtimes/durable-tenants-worker.js`) {
  const alias = { name: "memdomain", setup(b) {
    b.onResolve({ filter: /^memdomain(\/cache)?$/ }, (a) => ({ path: `${ROOT}js/${a.path === "memdomain" ? "index.js" : "cache/index.js"}` }));
  } };
  return bundle({ plugins: [alias], entry });
}

/** Miniflare's options for it: the example's wrangler.jsonc, the test class in place of AgentMemory. */
export function tenantsOptions(code, { persist, test = true } = {}) {
  return miniflareOptions({ code, wasm: readFileSync(`${BUILD}memdomain.wasm`), persist,
    className: test ? { AgentMemory: "TestAgentMemory" } : undefined });
}

/** Run fn(item, index) over items, at most `limit` at a time; resolves the results in order. */
export async function pool(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  }));
  return out;
}

/** A client of one Miniflare: post/get JSON to /agents/:id/<route>. */
export function client(mf) {
  const call = async (id, route, body, method = body === undefined ? "GET" : "POST") => {
    const r = await mf.dispatchFetch(`http://localhost/agents/${id}/${route}`,
      method === "GET" ? {} : { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    const text = await r.text();
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      value = text;
    }
    return { status: r.status, value };
  };
  /** Many calls at once, sent in batches of `size` (each fanned out inside workerd), `limit` batches in flight. */
  const many = async (calls, { size = 50, limit = 4 } = {}) => {
    const chunks = [];
    for (let i = 0; i < calls.length; i += size) chunks.push(calls.slice(i, i + size));
    const out = await pool(chunks, limit, async (chunk) => {
      const r = await mf.dispatchFetch("http://localhost/test/batch", { method: "POST", body: JSON.stringify({ calls: chunk }) });
      if (r.status !== 200) throw new Error(`/test/batch answered ${r.status}: ${(await r.text()).slice(0, 500)}`);
      return r.json();
    });
    return out.flat();
  };
  return { call, many };
}

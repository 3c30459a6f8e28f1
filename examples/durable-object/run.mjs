// Serve the example locally under miniflare (workerd, the runtime of Cloudflare Workers), with the
// Durable Objects wrangler.jsonc declares and their SQLite files in .mf/ (kept across runs):
//   npm install && node run.mjs [--port=8787]
// then, for example:
//   curl -X POST localhost:8787/agents/ada/memories -d '{"memories":[{"path":"a","gist":"deploys use the canary",
//     "body":"roll back with revert","type":"procedural","embedding":[1,0,0],"createdAt":1767225600000}]}'
//   curl -X POST localhost:8787/agents/ada/search -d '{"text":"roll back","vector":[1,0.1,0]}'
// The tests import bundle() and miniflareOptions() to run the same worker with the same configuration.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

/** wrangler.jsonc, read as JSON once its comments are gone. */
export function readConfig(file = `${here}wrangler.jsonc`) {
  const text = readFileSync(file, "utf8").replace(/^\s*\/\/.*$/gm, "");
  return JSON.parse(text);
}

/** The worker as wrangler bundles it: one ES module; memdomain.wasm stays a module it imports. */
export async function bundle({ plugins = [], entry } = {}) {
  const { build } = await import("esbuild");
  const wasmModule = { name: "wasm-module", setup(b) {
    b.onResolve({ filter: /\.wasm$/ }, () => ({ path: "./memdomain.wasm", external: true }));
  } };
  const r = await build({ entryPoints: [entry ?? `${here}${readConfig().main}`], bundle: true, format: "esm", write: false, platform: "neutral",
    conditions: ["workerd", "worker", "browser"], mainFields: ["module", "main"], logLevel: "error", plugins: [wasmModule, ...plugins],
    external: ["@sqlite.org/sqlite-wasm"], // memdomain/cache loads it only without { storage } or { db }
  });
  return r.outputFiles[0].text;
}

/** Miniflare's options for wrangler.jsonc's Durable Objects (SQLite-backed where a migration says new_sqlite_classes). */
export function miniflareOptions({ code, wasm, config = readConfig(), persist, className }) {
  const sqlite = new Set(config.migrations.flatMap((m) => m.new_sqlite_classes ?? []));
  const durableObjects = Object.fromEntries(config.durable_objects.bindings.map((b) => [b.name,
    { className: className?.[b.class_name] ?? b.class_name, useSQLite: sqlite.has(b.class_name) }]));
  return {
    modules: [{ type: "ESModule", path: "worker.js", contents: code }, { type: "CompiledWasm", path: "memdomain.wasm", contents: wasm }],
    compatibilityDate: config.compatibility_date, durableObjects, ...(persist ? { durableObjectsPersist: persist } : {}),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { Miniflare } = await import("miniflare");
  const { createRequire } = await import("node:module");
  const port = Number(process.argv.find((a) => a.startsWith("--port="))?.slice(7) ?? 8787);
  const wasm = readFileSync(createRequire(import.meta.url).resolve("memdomain/memdomain.wasm"));
  const mf = new Miniflare({ ...miniflareOptions({ code: await bundle(), wasm, persist: `${here}.mf/do` }), port });
  console.log(`serving ${(await mf.ready).href} (Ctrl-C stops)`);
}

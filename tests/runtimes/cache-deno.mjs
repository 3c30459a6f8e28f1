// Deno: the memdomain/cache scenario in memory (sqlite-wasm), printed as JSON for
// tests/runtimes/cache.test.mjs to compare with Node's.
import { openMemoryCache } from "../../js/cache/index.js";
import { scenario } from "./cache-scenario.js";

const cache = await openMemoryCache();
const summary = await scenario(cache);
await cache.close();
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, backend: cache.backend, summary }));

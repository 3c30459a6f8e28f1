// A child of tests/js/cache-trust.test.js, run with --expose-gc: a cache of 200 memories searched
// for <n> distinct words found nowhere (`nomatch0`, `nomatch1`, ...: IDs and typos an agent reads).
// Prints one JSON line: the heap after a collection before the searches, after half and after all
// of them (MB), and what the lexical arm kept (lists, rows counted toward its cap, the cap, words counted).
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { openMemoryCache } from "../../js/cache/index.js";
import { makeCorpus } from "./cache-corpus.js";

const [wasm, n] = [process.argv[2], Number(process.argv[3])];
md.initSync(readFileSync(wasm));
const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const cache = await openMemoryCache();
await cache.put(makeCorpus(200, 8, 3, { dupEvery: 0 }));
await cache.search({ text: "deploy retry" });
const out = { start: heap() };
for (let i = 0; i < n; i++) {
  await cache.search({ text: `nomatch${i}` });
  if (i + 1 === n / 2) out.half = heap();
}
out.end = heap();
const lx = cache._lexical;
Object.assign(out, { lists: lx._terms.size, weight: lx._weight?.() ?? null, cap: lx._cap(), counted: lx._df.size, tokens: lx._tokenOf.size });
await cache.close();
console.log(JSON.stringify(out));

// The Chromium half of bench/cache.mjs (bundled by it): a dedicated Worker opens the
// benchmark's database file in memory and times the same queries.
import { openMemoryCache } from "../js/cache/index.js";

const STAGES = ["lexical", "vector", "salience", "lateral", "fuse", "mmr"];
onmessage = async ({ data: { warm, limit } }) => {
  try {
    const [bytes, queries] = await Promise.all([
      fetch("/db.sqlite").then((r) => r.arrayBuffer()),
      fetch("/queries.json").then((r) => r.json()),
    ]);
    let t = performance.now();
    const cache = await openMemoryCache({ bytes, wasm: new URL("/memdomain.wasm", location.origin) });
    const openMs = performance.now() - t;
    const times = [], stages = Object.fromEntries(STAGES.map((s) => [s, []]));
    for (let i = 0; i < queries.length; i++) {
      const q = queries[i];
      t = performance.now();
      const hits = await cache.search({ text: q.text, vector: new Float32Array(q.vector), limit, timings: true });
      const ms = performance.now() - t;
      if (i >= warm) {
        times.push(ms);
        for (const s of STAGES) stages[s].push(hits.timings[s]);
      }
    }
    await cache.close();
    postMessage({ openMs, times, stages });
  } catch (e) {
    postMessage({ error: String(e?.stack ?? e) });
  }
};

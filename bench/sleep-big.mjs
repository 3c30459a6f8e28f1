// A full sleep pass at scale, as a user runs it: --n memories x --d on a file (better-sqlite3),
// put in one batch, one search (the resident rows), then sleep({ workers }) over a neighbour pool
// of --workers threads at --floor. Prints each phase's start with memdomain's wasm memory and the
// process's resident set, the pass's timings, the search after, and the peak resident set.
//   node --max-old-space-size=16384 bench/sleep-big.mjs --n=1000000 --workers=2   (about 75 min here)
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemoryCache } from "../js/cache/index.js";
import { createNeighborPool } from "../js/src/workers.js";
import { exportsOf } from "../js/src/core.js";
import { makeCorpus, makeQueries, T0 } from "../tests/js/cache-corpus.js";

const arg = (name, dflt) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt);
const n = arg("n", 1_000_000), D = arg("d", 384), workers = arg("workers", 2), floor = arg("floor", 0.8);
const t0 = performance.now();
let peak = 0;
const sample = () => { peak = Math.max(peak, process.memoryUsage().rss); };
const iv = setInterval(sample, 1000);
const log = (...a) => { sample(); console.log(`[${((performance.now() - t0) / 1000).toFixed(0)} s]`, ...a); };
const mib = (b) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const wasm = () => { try { return mib(exportsOf().memory.buffer.byteLength); } catch { return "-"; } };

let mems = makeCorpus(n, D, 31, { dupEvery: 50 });
const q = makeQueries(mems, 2, 32);
const dir = mkdtempSync(join(tmpdir(), "md-sleep-big-"));
const cache = await openMemoryCache({ path: join(dir, "cache.db"), limits: { sleepEdges: 10 * n, batch: n } });
const pool = await createNeighborPool({ workers });
try {
  let t = performance.now();
  await cache.put(mems);
  mems = null; // the corpus goes: the workers' copies need the room
  log(`put ${n.toLocaleString("en")} x ${D}: ${((performance.now() - t) / 1000).toFixed(1)} s, database ${mib(statSync(join(dir, "cache.db")).size)}`);
  t = performance.now();
  await cache.search({ ...q[0], limit: 10 });
  log(`first search ${((performance.now() - t) / 1000).toFixed(1)} s; wasm ${wasm()}, rss ${mib(process.memoryUsage().rss)}`);
  t = performance.now();
  const r = await cache.sleep({ now: T0 + 300 * 86_400_000, floor, workers: pool, onProgress: (p) => {
    if (p.done === 0) log(`sleep ${p.phase} 0/${p.total}: wasm ${wasm()}, rss ${mib(process.memoryUsage().rss)}`);
  } });
  log(`sleep ${((performance.now() - t) / 1000).toFixed(1)} s on ${workers} workers at floor ${floor}: ` +
    `${JSON.stringify(r.timings, (k, v) => typeof v === "number" ? Math.round(v) : v)}; edges ${r.edges.similar + r.edges.nearDuplicate}, ` +
    `merged ${r.merges.merged.length}, evicted ${r.evicted}; wasm ${wasm()}, database ${mib(statSync(join(dir, "cache.db")).size)}`);
  t = performance.now();
  await cache.search({ ...q[1], limit: 10 });
  log(`search after sleep ${((performance.now() - t) / 1000).toFixed(1)} s (the resident rows again); wasm ${wasm()}`);
  t = performance.now();
  await cache.search({ ...q[0], limit: 10 });
  log(`next search ${(performance.now() - t).toFixed(1)} ms; peak rss (main process and its workers) ${mib(peak)}`);
} finally {
  clearInterval(iv);
  await pool.close();
  await cache.close();
  rmSync(dir, { recursive: true, force: true });
}

// memdomain/cache: a full sleep pass against the incremental pass after a fraction of the
// memories changed (issue 27 item 3). For each size: put the corpus, a first pass (full: it
// stores the neighbour lists), re-put `--changed` (default 1%) of the memories with new
// vectors, then on a copy of that database a full pass (incremental: false) and on the
// original the incremental pass, both at the next day's `now` (the incremental one also on a cache opened
// on the database before it, which reads the stored lists the first cache kept); their reports must agree.
// With --workers=N, the same two passes again with the neighbour pairs on a memdomain/workers
// pool of N (sleep({ workers })), reports equal to the single-thread ones.
//   node bench/sleep-incremental.mjs --sizes=10000,100000 --changed=0.01 --d=64 --floor=0.8 --workers=2
import { readFileSync } from "node:fs";
const arg = (k, d) => process.argv.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3) ?? d;
const md = await import("../js/index.js");
const { openMemoryCache } = await import("../js/cache/index.js");
const { makeCorpus, T0 } = await import("../tests/js/cache-corpus.js");
const { rng } = await import("../tests/oracles/rng.js");
md.initSync(readFileSync(new URL("../build/memdomain.wasm", import.meta.url)));

const SIZES = arg("sizes", "10000").split(",").map(Number);
const WORKERS = Number(arg("workers", 0));
const pool = WORKERS ? await (await import("../js/src/workers.js")).createNeighborPool({ workers: WORKERS }) : null;
const CHANGED = Number(arg("changed", 0.01)), D = Number(arg("d", 64)), FLOOR = Number(arg("floor", 0.8));
const DAY = 86_400_000, f1 = (x) => x.toFixed(1);
const strip = ({ timings, neighbors, written, ...rest }) => rest;
const show = (r) => `${f1(r.timings.total)} ms (${Object.entries(r.timings).filter(([k]) => k !== "total").map(([k, v]) => `${k} ${f1(v)}`).join(", ")})`;
for (const n of SIZES) {
  const mems = makeCorpus(n, D, 31, { dupEvery: 50 });
  const cache = await openMemoryCache();
  await cache.put(mems);
  const first = await cache.sleep({ now: T0 + 300 * DAY, floor: FLOOR });
  const r = rng(7), k = Math.round(n * CHANGED);
  const changed = [];
  for (let i = 0; i < k; i++) {
    const m = mems[Math.floor(r() * n)];
    changed.push({ ...m, embedding: Float32Array.from(m.embedding, (x) => x + (r() - 0.5) * 0.2) });
  }
  await cache.put([...new Map(changed.map((m) => [m.path, m])).values()]);
  const before = await cache.exportBytes();
  const copy = await openMemoryCache({ bytes: before });
  const full = await copy.sleep({ now: T0 + 301 * DAY, floor: FLOOR, incremental: false });
  const inc = await cache.sleep({ now: T0 + 301 * DAY, floor: FLOOR });
  // the same pass on a cache opened on the database before it: the stored lists read (the pass above used those
  // its cache's first pass kept in memory)
  const cold = await openMemoryCache({ bytes: before });
  const coldInc = await cold.sleep({ now: T0 + 301 * DAY, floor: FLOOR });
  await cold.close();
  const same = [inc, coldInc].every((r) => JSON.stringify(strip(full)) === JSON.stringify(strip(r)));
  console.log(`${n.toLocaleString("en")} memories, d = ${D}, ${k} re-put (${CHANGED * 100}%): first pass ${show(first)}`);
  console.log(`  full pass        ${show(full)}`);
  console.log(`  incremental pass ${show(inc)}  ${JSON.stringify(inc.neighbors)}`);
  console.log(`  incremental pass, lists read ${show(coldInc)}`);
  console.log(`  ratio ${f1(100 * inc.timings.total / full.timings.total)}% (neighbours step ${f1(100 * inc.timings.neighbors / full.timings.neighbors)}%), ` +
    `lists read ${f1(100 * coldInc.timings.total / full.timings.total)}% (${f1(100 * coldInc.timings.neighbors / full.timings.neighbors)}%); reports ${same ? "equal" : "DIFFER"}`);
  if (pool) { // the same two passes on fresh copies of the database before them, the pairs on the pool
    const [a, b] = [await openMemoryCache({ bytes: before }), await openMemoryCache({ bytes: before })];
    const pfull = await a.sleep({ now: T0 + 301 * DAY, floor: FLOOR, incremental: false, workers: pool });
    const pinc = await b.sleep({ now: T0 + 301 * DAY, floor: FLOOR, workers: pool });
    const psame = [pfull, pinc].every((r) => JSON.stringify(strip(r)) === JSON.stringify(strip(full)));
    console.log(`  ${WORKERS} workers: full pass        ${show(pfull)}`);
    console.log(`  ${WORKERS} workers: incremental pass ${show(pinc)}  ${JSON.stringify(pinc.neighbors)}`);
    console.log(`  ${WORKERS} workers: ratio ${f1(100 * pinc.timings.total / pfull.timings.total)}%, full pass ${f1(full.timings.total / pfull.timings.total)}x ` +
      `faster than on one thread; reports ${psame ? "equal" : "DIFFER"}`);
    await a.close();
    await b.close();
  }
  await copy.close();
  await cache.close();
}
await pool?.close();

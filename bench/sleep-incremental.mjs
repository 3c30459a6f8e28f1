// memdomain/cache: a full sleep pass against the incremental pass after a fraction of the
// memories changed (issue 27 item 3). For each size: put the corpus, a first pass (full: it
// stores the neighbour lists), re-put `--changed` (default 1%) of the memories with new
// vectors, then on a copy of that database a full pass (incremental: false) and on the
// original the incremental pass, both at the next day's `now`; their reports must agree.
//   node bench/sleep-incremental.mjs --sizes=10000,100000 --changed=0.01 --d=64 --floor=0.8
import { readFileSync } from "node:fs";
const arg = (k, d) => process.argv.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3) ?? d;
const md = await import("../js/index.js");
const { openMemoryCache } = await import("../js/cache/index.js");
const { makeCorpus, T0 } = await import("../tests/js/cache-corpus.js");
const { rng } = await import("../tests/oracles/rng.js");
md.initSync(readFileSync(new URL("../build/memdomain.wasm", import.meta.url)));

const SIZES = arg("sizes", "10000").split(",").map(Number);
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
  const copy = await openMemoryCache({ bytes: await cache.exportBytes() });
  const full = await copy.sleep({ now: T0 + 301 * DAY, floor: FLOOR, incremental: false });
  const inc = await cache.sleep({ now: T0 + 301 * DAY, floor: FLOOR });
  const same = JSON.stringify(strip(full)) === JSON.stringify(strip(inc));
  console.log(`${n.toLocaleString("en")} memories, d = ${D}, ${k} re-put (${CHANGED * 100}%): first pass ${show(first)}`);
  console.log(`  full pass        ${show(full)}`);
  console.log(`  incremental pass ${show(inc)}  ${JSON.stringify(inc.neighbors)}`);
  console.log(`  ratio ${f1(100 * inc.timings.total / full.timings.total)}% (neighbours step ${f1(100 * inc.timings.neighbors / full.timings.neighbors)}%); reports ${same ? "equal" : "DIFFER"}`);
  await copy.close();
  await cache.close();
}

// Benchmark: the all-pairs pass, top-5 per source, n = 10,000, d = 384, side
// by side in one run:
//   - memdomain wasm, one thread (md_neighbor_pairs_ranked over raw exports:
//     pruned by the integer bound, exact answer),
//   - memdomain wasm in 1 and 2 worker_threads (independent module
//     instances over raw exports, as the package's pool runs them: row tiles
//     of equal pair counts, 64 per worker, one contiguous run of them per
//     worker; each worker, with one message for the whole pass, takes spans
//     of its own run (half of what is left) and then single tiles from the
//     end of the longest run left, adding them to one md_pairs_pass and
//     sharing its pruning thresholds with the others through shared memory
//     before and after each; merged on the calling thread by
//     md_merge_neighbor_pairs_ranked; the matrix is posted to the workers
//     inside the timing), and 2 workers with one static tile each (the
//     earlier split, for comparison),
//   - memdomain native (the same library; kernels chosen at run time),
//   - numpy float32 GEMM with OpenBLAS on one thread (normalize, X X^T by
//     blocks, argpartition): the usual way, not exact; its pairs are
//     compared with the exact answer (recall).
// memdomain's answers (wasm, workers, native) must be identical.
// The worker runs are medians of interleaved rounds; the table also shows
// the cores the 2-worker pass used (process CPU time / wall) and stderr the
// per-worker busy times (balance) and the load average.
//   node bench/allpairs.mjs [--n=10000] [--k=5] [--rounds=5] [--tiles=128] [--verbose] [--json=out.json]
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { Worker } from "node:worker_threads";
import { tileBounds } from "../js/src/workers.js";
import { tileRuns } from "../js/src/tile-runs.js";
import { ROOT, args, data, fmt, native, report } from "./lib-vectors.mjs";
import { rawModule } from "../tests/oracles/raw.mjs";

const a = args();
const n = +(a.n ?? 10000), d = +(a.d ?? 384), k = +(a.k ?? 5);
const o = { floor: 0, perSourceK: k, limit: 1e9 };
const md = rawModule("clang");
const module = new WebAssembly.Module(readFileSync(`${ROOT}build/memdomain.wasm`));
const { m } = data(n, d);

function digest(p) {
  let sum = 0, ix = 0;
  for (let i = 0; i < p.sim.length; i++) {
    sum += p.sim[i];
    ix = (Math.imul(ix, 31) + p.src[i] * 7 + p.dst[i]) >>> 0;
  }
  return { len: p.sim.length, sum, ix };
}

let lastBusy = [], lastCpu = [], quiet = false;
/** A pool of `size` raw workers; run(matrix, tiles) hands out equal-pair
 * tiles, one contiguous run per worker, the last tiles of the longest run to
 * whoever is free (tiles = size: one static tile each). */
function pool(size) {
  const workers = Array.from({ length: size }, () => new Worker(new URL("./lib-allpairs-worker.mjs", import.meta.url)));
  let id = 0, held = null;
  const ask = (w, msg) => new Promise((resolve) => {
    const my = ++id;
    const on = (r) => { if (r.id === my) { w.off("message", on); resolve(r); } };
    w.on("message", on);
    w.postMessage({ id: my, module, d, options: o, ...msg });
  });
  return {
    async run(matrix, tiles = 64 * size) {
      const rows = matrix.length / d, bounds = tileBounds(rows, tiles), count = bounds.length - 1;
      const phases = workers.map(() => null), busy = workers.map(() => 0), cpu = workers.map(() => 0), taken = workers.map(() => 0);
      // as the package's pool: more than one worker read one SharedArrayBuffer copy, the pool's buffer
      if (size > 1 && !(held?.byteLength >= matrix.byteLength)) held = new SharedArrayBuffer(matrix.byteLength);
      const shared = size > 1 ? new Float32Array(held, 0, matrix.length) : matrix;
      if (size > 1) shared.set(matrix);
      // as the package's pool: the workers that take tiles split the setup by rows
      const setups = size > 1 ? Math.min(size, count) : 1, rec = 24 + 2 * Math.ceil(d / 32) * 32;
      const split = setups > 1 && !a["no-split"] ? { rows: Array.from({ length: setups + 1 }, (_, q) => Math.floor((q * rows) / setups)),
        buf: new SharedArrayBuffer(((4 * setups + 7) & ~7) + rows * rec) } : null;
      // as the package's pool: the bounds in shared memory, read and raised by every worker
      const share = size > 1 && tiles > size, learned = share ? new Float32Array(new SharedArrayBuffer(4 * rows)).fill(-Infinity) : null;
      const note = (i, r) => {
        busy[i] += r.ms;
        cpu[i] = r.cpuMs === null || cpu[i] === null ? null : cpu[i] + r.cpuMs;
      };
      // as the package's pool with shared memory (or one worker): each worker takes its own tiles from the schedule
      const schedule = tileRuns(count, setups, size > 1), edges = new Uint32Array(bounds);
      const parts = await Promise.all(workers.slice(0, setups).map(async (w, i) => {
        const r = await ask(w, { op: "run", part: i, schedule: schedule.state, edges, share,
          begin: { matrix: shared, share, learned, split: split ? { ...split, part: i } : undefined } });
        note(i, r);
        taken[i] = r.adds === r.tiles ? r.tiles : `${r.tiles} in ${r.adds} adds`;
        phases[i] = r.phases;
        return r.tile;
      }));
      const t = performance.now(), merged = md.merge(parts, rows, o);
      const mergeMs = performance.now() - t;
      lastBusy = busy;
      lastCpu = cpu;
      if (!quiet) console.error(`  ${size} worker(s), ${count} tiles: busy ${busy.map((x, i) => `${x.toFixed(0)} ms (CPU ${cpu[i]}, ${taken[i]} tiles${phases[i] ? `: setup ${phases[i][0].toFixed(0)}, tiles ${phases[i][1].toFixed(0)}, lists ${phases[i][2].toFixed(0)} ms` : ""})`).join(" + ")}, merge ${mergeMs.toFixed(0)} ms`);
      return merged;
    },
    close: () => Promise.all(workers.map((w) => w.terminate())),
  };
}

const median = (xs) => { const v = [...xs].sort((p, q) => p - q), h = v.length >> 1; return v.length % 2 ? v[h] : (v[h - 1] + v[h]) / 2; };
const timed = async (fn) => {
  const c = process.cpuUsage(), t = performance.now(), value = await fn(), ms = performance.now() - t, cpu = process.cpuUsage(c);
  return { ms, value, cpuMs: (cpu.user + cpu.system) / 1000, cores: (cpu.user + cpu.system) / 1000 / ms, busy: lastBusy, workerCpu: lastCpu };
};

// Warm up the wasm (and the workers) on a small pass.
const small = data(600, d).m;
const p0 = md.packed(small, d); p0.pass(o); p0.free();
const pool1 = pool(1), pool2 = pool(2);
await pool1.run(small); await pool2.run(small, 2); await pool2.run(small);

// Interleaved rounds (the order rotates each round), medians per configuration:
// one thread, 1 worker (the queue's tiles on one pass), 2 workers with one
// static tile each (equal pair counts: the earlier pool), 2 workers on the queue.
const rounds = +(a.rounds ?? 5), tiles = +(a.tiles ?? 128);
const loadBefore = os.loadavg()[0];
const packed = md.packed(m, d);
const configs = {
  wasm: () => timed(async () => packed.pass(o)),
  workers1: () => timed(() => pool1.run(m, tiles)),
  workers2static: () => timed(() => pool2.run(m, 2)),
  workers2: () => timed(() => pool2.run(m, tiles)),
};
const names = Object.keys(configs), runs = Object.fromEntries(names.map((c) => [c, []]));
quiet = !a.verbose;
for (let r = 0; r < rounds; r++) {
  for (let c = 0; c < names.length; c++) {
    const name = names[(c + r) % names.length];
    runs[name].push(await configs[name]());
  }
}
packed.free();
await pool1.close(); await pool2.close();
const loadAfter = os.loadavg()[0];
const med = (name, f = (x) => x.ms) => median(runs[name].map(f));
const single = { ms: med("wasm"), value: runs.wasm[0].value };
const w1 = { ms: med("workers1"), value: runs.workers1[0].value };
const w2s = { ms: med("workers2static"), value: runs.workers2static[0].value };
const w2 = { ms: med("workers2"), value: runs.workers2[0].value };
const coresUsed2 = med("workers2", (x) => x.cores), coresUsed2s = med("workers2static", (x) => x.cores);
// balance: the busier worker's CPU time (busy wall time where the CPU time is
// unknown) over the mean of the two (1.00 = even)
const load2 = (x) => (x.workerCpu.every((c) => c !== null) ? x.workerCpu : x.busy);
const balance = (name) => med(name, (x) => Math.max(...load2(x)) / (load2(x).reduce((p, q) => p + q, 0) / 2));
const busyOf = (name, f = (x) => x.busy) => [0, 1].map((i) => median(runs[name].map((x) => f(x)[i]))).map((v) => v.toFixed(0)).join(" + ");
console.error(`rounds ${rounds}, ${tiles} tiles on the queue; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`);
console.error(`median CPU ms (all threads): ${names.map((c) => `${c} ${med(c, (x) => x.cpuMs).toFixed(0)}`).join(", ")}`);
console.error(`per-round ratios 1w / 2w: ${runs.workers1.map((x, i) => (x.ms / runs.workers2[i].ms).toFixed(2)).join(" ")}`);
// The same ratio in thread CPU time: 1 worker's CPU over the busier of the two
// workers' (10 ms ticks). Waiting for a core taken by another process does
// not count, so on a shared machine this shows what the split itself costs.
const cpuOf = (x) => (x.workerCpu.every((c) => c !== null) ? x.workerCpu : x.busy);
const cpuRatio = median(runs.workers1.map((x) => cpuOf(x)[0])) / median(runs.workers2.map((x) => Math.max(...cpuOf(x))));
console.error(`1 worker's thread CPU / the busier of 2 workers' (medians): ${cpuRatio.toFixed(2)}x`);
console.error(`median worker busy ms (CPU ms), 2 workers static: ${busyOf("workers2static")} (${busyOf("workers2static", load2)}), max/mean ${balance("workers2static").toFixed(3)}; on the queue: ${busyOf("workers2")} (${busyOf("workers2", load2)}), max/mean ${balance("workers2").toFixed(3)}`);
const nat = native("pairs", n, d, k, "ordered"); // keys in row order, as the ranked wasm pass

// numpy (Debian's python3 with python3-numpy; OpenBLAS through libblas.so.3)
let np = null;
try {
  mkdirSync(`${ROOT}build/bench`, { recursive: true });
  const mp = `${ROOT}build/bench/allpairs.f32`, op = `${ROOT}build/bench/allpairs-numpy.i32`;
  writeFileSync(mp, new Uint8Array(m.buffer, m.byteOffset, m.byteLength));
  const runs = [0, 1].map(() => JSON.parse(execFileSync("/usr/bin/python3", [`${ROOT}bench/allpairs_numpy.py`, mp, n, d, k, op].map(String),
    { encoding: "utf8", env: { ...process.env, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1" } })));
  np = runs.reduce((x, y) => (y.ms < x.ms ? y : x));
  // recall: numpy's (src, dst) against memdomain's exact per-source top k (floor 0 applies to memdomain only)
  const got = new Int32Array(readFileSync(op).buffer.slice(0));
  const exact = new Set();
  const s = single.value;
  for (let i = 0; i < s.sim.length; i++) exact.add(s.src[i] * n + s.dst[i]);
  let hit = 0;
  for (let i = 0; i < n; i++) for (let t = 0; t < k; t++) if (exact.has(i * n + got[i * k + t])) hit++;
  np.recall = hit / exact.size;
} catch (e) {
  console.error(`numpy: skipped (${String(e.message).split("\n")[0]})`);
}

const ref = digest(single.value);
const sameAs = (x) => JSON.stringify(digest(x)) === JSON.stringify(ref);
const identical = names.every((c) => runs[c].every((x) => sameAs(x.value))) && (!nat || (nat.len === ref.len && Object.is(nat.sum, ref.sum) && nat.ix === ref.ix));
const row = { workload: `all pairs top-${k}, n=${n}, d=${d}`, n, d, k, wasm: single.ms, workers1: w1.ms, workers2: w2.ms,
  workers2static: w2s.ms, tiles, rounds, cpuRatio, coresUsed2, coresUsed2static: coresUsed2s, balance2: balance("workers2"),
  balance2static: balance("workers2static"), load: [loadBefore, loadAfter],
  cpuMs: Object.fromEntries(names.map((c) => [c, med(c, (x) => x.cpuMs)])), native: nat?.ms, numpy: np?.ms, numpyBlas: np?.blas, numpyRecall: np?.recall, pairs: ref.len, identical };
const x = (p, q) => (p === undefined || q === undefined ? "" : (p / q).toFixed(2) + "x");
const show = [{
  workload: row.workload, "wasm ms": fmt(row.wasm), "1 worker ms": fmt(row.workers1), "2 workers ms": fmt(row.workers2),
  "native ms": fmt(row.native), [`numpy f32 GEMM ms (${row.numpyBlas ?? "n/a"}, 1 thread)`]: fmt(row.numpy),
  "2 workers, 2 static tiles ms": fmt(row.workers2static),
  "numpy / wasm": x(row.numpy, row.wasm), "wasm / native": x(row.wasm, row.native), "1w / 2w": x(row.workers1, row.workers2),
  "1w / 2w static": x(row.workers1, row.workers2static), "cores used (2w)": coresUsed2.toFixed(2), "numpy recall": row.numpyRecall?.toFixed(4) ?? "", "identical (exact)": identical,
}];
report(show, [row], a.json);

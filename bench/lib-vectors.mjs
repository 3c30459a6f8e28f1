// Shared by bench/neighbors.mjs and bench/mmr.mjs (run.mjs skips lib*): deterministic data (the xorshift32 stream that
// native-bench.c uses too), the native harness, timing and table output.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import * as md from "../js/index.js";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));

export function args() {
  const out = {};
  for (const a of process.argv.slice(2)) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(a);
    if (m) out[m[1]] = m[2] ?? true;
  }
  return out;
}

export function stream() {
  let s = 2463534242;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return (s / 4294967296) * 2 - 1;
  };
}

/** n x d floats from the stream (then `extra` more values, e.g. MMR scores). */
export function data(n, d) {
  const next = stream();
  const m = new Float32Array(n * d);
  for (let i = 0; i < m.length; i++) m[i] = next();
  return { m, next };
}

export function wasmBytes() {
  return readFileSync(`${ROOT}build/memdomain.wasm`);
}

export function init() {
  md.initSync(wasmBytes());
  return md;
}

export function time(fn) {
  const t = performance.now();
  const value = fn();
  return { ms: performance.now() - t, value };
}

/** The fastest of up to `max` runs while the total stays under `budget` ms (a
 * shared machine is noisy; the minimum is the least disturbed run). */
export function best(fn, { max = 5, budget = 1500 } = {}) {
  let out = time(fn), total = out.ms;
  for (let r = 1; r < max && total + out.ms < budget; r++) {
    const t = time(fn);
    total += t.ms;
    if (t.ms < out.ms) out = t;
  }
  return out;
}

export async function bestAsync(fn, { max = 5, budget = 1500 } = {}) {
  let out = await timeAsync(fn), total = out.ms;
  for (let r = 1; r < max && total + out.ms < budget; r++) {
    const t = await timeAsync(fn);
    total += t.ms;
    if (t.ms < out.ms) out = t;
  }
  return out;
}

export async function timeAsync(fn) {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

let nativeBin = null;
/** Build bench/native-bench.c against build/libmemdomain.a once; null if impossible. */
export function native(...argv) {
  if (nativeBin === null) {
    nativeBin = `${ROOT}build/bench/native-bench`;
    try {
      if (!existsSync(`${ROOT}build/libmemdomain.a`)) throw new Error("no build/libmemdomain.a (run make)");
      execFileSync("mkdir", ["-p", `${ROOT}build/bench`]);
      execFileSync("cc", ["-std=c11", "-O2", `-I${ROOT}include`, `-I${ROOT}bench`, `${ROOT}bench/native-bench.c`,
        `${ROOT}build/libmemdomain.a`, "-lm", "-o", nativeBin]);
    } catch (e) {
      console.error(`native: skipped (${e.message.split("\n")[0]})`);
      nativeBin = false;
    }
  }
  if (!nativeBin) return null;
  return JSON.parse(execFileSync(nativeBin, argv.map(String), { encoding: "utf8" }));
}

export function table(rows, cols) {
  const w = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? "").length)));
  const line = (vals) => "| " + vals.map((v, i) => String(v ?? "").padEnd(w[i])).join(" | ") + " |";
  return [line(cols), "|" + w.map((x) => "-".repeat(x + 2)).join("|") + "|", ...rows.map((r) => line(cols.map((c) => r[c])))].join("\n");
}

export const fmt = (ms) => (ms === undefined ? "" : ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
export const ratio = (a, b) => (a === undefined || b === undefined ? "" : (a / b).toFixed(1) + "x");

/** Print the rows as a table with the machine's description, then the JSON
 * (to `jsonPath` when given, else to stdout). */
export function report(show, results, jsonPath) {
  const meta = { node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, load: os.loadavg().map((x) => x.toFixed(2)).join(" "), date: new Date().toISOString() };
  console.log(table(show, Object.keys(show[0])));
  console.log(`\n${meta.cpu}, ${meta.cpus} cores, node ${meta.node}, load average ${meta.load}`);
  const json = JSON.stringify({ meta, results }, null, 1);
  if (typeof jsonPath === "string") writeFileSync(jsonPath, json);
  else console.log(json);
}

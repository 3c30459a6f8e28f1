// Shared benchmark helpers: load the clang build, time a function, print a row.
import { readFileSync } from "node:fs";
import * as md from "../js/index.js";

export async function load() {
  md.initSync(readFileSync(new URL("../build/memdomain.wasm", import.meta.url)));
  return md;
}

/** Median milliseconds per call of fn over `reps` timed runs after warm-up. */
export function time(fn, reps = 7, warm = 2) {
  for (let i = 0; i < warm; i++) fn();
  const t = [];
  for (let i = 0; i < reps; i++) {
    const a = performance.now();
    fn();
    t.push(performance.now() - a);
  }
  t.sort((x, y) => x - y);
  return t[t.length >> 1];
}

export function row(name, jsMs, wasmMs) {
  const ratio = jsMs / wasmMs;
  console.log(`${name.padEnd(48)} js ${jsMs.toFixed(3).padStart(10)} ms   wasm ${wasmMs.toFixed(3).padStart(10)} ms   ${ratio >= 1 ? `${ratio.toFixed(2)}x faster` : `${(1 / ratio).toFixed(2)}x slower`}`);
}

/** splitmix-style seeded PRNG in [0, 1). */
export function rng(seed) {
  let s = BigInt(seed);
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return Number((z ^ (z >> 31n)) >> 11n) / 2 ** 53;
  };
}

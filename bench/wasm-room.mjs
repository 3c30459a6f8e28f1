// WebAssembly memory of the search's resident rows and of a sleep pass's neighbour setup, side by side
// (the numbers behind memdomain/cache's limits.sleepRoom, js/cache/sleep.js PASS_BYTES_PER_ELEMENT):
// for --n rows of --d random elements, three nights of: build the resident rows and search them, free
// them, set the all-pairs pass up over every row (one tile of 20 sources). Then the same with the rows
// kept during the pass, which wasm32's 4 GiB cannot hold at 1M x 384. Prints the memory's high-water
// mark (WebAssembly memory never shrinks) after each step.
//   node --max-old-space-size=16384 bench/wasm-room.mjs --n=1000000 --d=384
import { readFileSync } from "node:fs";
import { initSync, neighborTile, residentRows } from "../js/index.js";
import { exportsOf } from "../js/src/core.js";

const arg = (name, dflt) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt);
const n = arg("n", 1_000_000), d = arg("d", 384);
initSync(readFileSync(new URL("../js/memdomain.wasm", import.meta.url)));
const mib = () => `${(exportsOf().memory.buffer.byteLength / 2 ** 20).toFixed(0)} MiB`;
let s = 1;
const matrix = new Float32Array(n * d);
for (let i = 0; i < matrix.length; i++) matrix[i] = (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
const keys = Array.from({ length: n }, (_, i) => `m/${String(i).padStart(8, "0")}`);
const options = { floor: 0.8, perSourceK: 9, limit: 1e9 };
console.log(`${n.toLocaleString("en")} rows x ${d}: ${(n * d * 4 / 2 ** 20).toFixed(0)} MiB of float32`);
for (let night = 0; night < 3; night++) {
  const rows = residentRows(matrix, d);
  rows.topCosineRows(matrix.subarray(0, d), 10);
  console.log(`night ${night}: resident rows built and searched, high-water ${mib()}`);
  rows.free();
  neighborTile(matrix, keys, 0, 20, options);
  console.log(`night ${night}: rows freed, the pass set up over every row, high-water ${mib()}`);
}
const kept = residentRows(matrix, d);
try {
  neighborTile(matrix, keys, 0, 20, options);
  console.log(`rows kept: the pass set up beside them, high-water ${mib()}`);
} catch (e) {
  console.log(`rows kept: the pass beside them fails (${e.message}), high-water ${mib()}`);
} finally {
  kept.free();
}

// Memory through the JS API, on the build tests/js/build.js picks (make
// test-js runs this suite on both builds: memory growth and the allocator
// are what differ between the toolchains): the heap stays bounded over many
// calls, and inputs of hundreds of megabytes grow memory and are exact.
import * as md from "../../js/index.js";
import { wasmBytes } from "./build.js";

const exportsObj = md.initSync(wasmBytes());
// A module-scope alias: in Jest's vm context every global lookup (Math) in a
// hot loop is slow (the 40-million-step loop below took a minute through Math.abs).
const { abs } = Math;

test("memory stays bounded over many calls", () => {
  const arms = [Array.from({ length: 200 }, (_, i) => ({ path: `p${i}`, rank: i + 1 }))];
  for (let i = 0; i < 1000; i++) md.rankFused(md.fuseArms(arms, [1]));
  const after1k = exportsObj.memory.buffer.byteLength;
  // 5,000 more calls here (a leak of 14 bytes a call would add a 64 KiB page);
  // the soak (make test-soak-short, make test-soak) makes millions.
  for (let i = 0; i < 5000; i++) {
    md.rankFused(md.fuseLateral(md.fuseArms(arms, [1]), ["x", "p3"], 0.5));
    md.cosine([1, 2, 3], new Float32Array([3, 2, 1]));
  }
  expect(exportsObj.memory.buffer.byteLength).toBe(after1k);
});

test("inputs of hundreds of megabytes: memory grows and the answer is exact", () => {
  const n = 40_000_000; // 320 MB of f64 inside wasm
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = ((i * 2654435761) % 1000003) / 7 - 71428;
  let sum = 0, c = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i], t = sum + v;
    c += abs(sum) >= abs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  }
  expect(md.compensatedSum(values)).toBe(sum + c);
  expect(exportsObj.memory.buffer.byteLength).toBeGreaterThan(n * 8);
  expect(md.cosine([1, 0], [0.5, 0.5])).toBe(0.7071067811865475);
});

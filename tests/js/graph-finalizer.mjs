// Run by graph.test.js as `node --expose-gc`: Graph handles that are never
// freed are released by the FinalizationRegistry once collected, so building
// many of them in a loop does not grow memory without bound.
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";

const ex = md.initSync(readFileSync(process.argv[2]));
const nodes = Array.from({ length: 20000 }, (_, i) => `n${i}`);
const edges = Array.from({ length: 100000 }, (_, i) => ({ src: nodes[i % 20000], dst: nodes[(i * 7919) % 20000], strength: 0.5 }));
const settle = async () => {
  for (let i = 0; i < 5; i++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 10));
  }
};
for (let i = 0; i < 5; i++) new md.Graph(nodes, edges).pagerank(); // warm up
await settle();
const before = ex.memory.buffer.byteLength;
for (let round = 0; round < 8; round++) {
  for (let i = 0; i < 5; i++) new md.Graph(nodes, edges).pagerankScores(); // never freed
  await settle();
}
const after = ex.memory.buffer.byteLength;
// 40 leaked handles of about 2.5 MB each would add about 100 MB.
console.log(JSON.stringify({ before, after }));
process.exit(after - before < 16 * 1024 * 1024 ? 0 : 1);

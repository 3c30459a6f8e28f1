// Run under a small `--stack-size`: a cache of argv[2] memories and one full sleep pass.
// Prints { memories, edges } as JSON, or exits 1 with the error (e.g. a spread of
// one argument per memory overflowing the stack, which 1M memories does at the default size).
import { openMemoryCache } from "../../js/cache/index.js";
import { makeCorpus, T0 } from "./cache-corpus.js";

const n = Number(process.argv[2]);
const cache = await openMemoryCache({ limits: { sleepEdges: 10 * n, batch: n } });
try {
  await cache.put(makeCorpus(n, 8, 5, { dupEvery: 0 }));
  const r = await cache.sleep({ now: T0 + 86_400_000, floor: 0.99 });
  console.log(JSON.stringify({ memories: r.memories, edges: r.edges.similar + r.edges.nearDuplicate }));
} finally {
  await cache.close();
}

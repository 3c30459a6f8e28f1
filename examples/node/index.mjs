// Node 20+, ESM: `await init()` with no arguments loads memdomain.wasm from
// next to the package's glue. Run: node index.mjs
import { init, fuseArms, rankFused } from "memdomain";

await init();
const fused = fuseArms(
  [
    [{ path: "notes/a.html", rank: 1 }, { path: "notes/b.html", rank: 2 }], // lexical arm
    [{ path: "notes/b.html", rank: 1 }], // vector arm
  ],
  [1, 1],
);
console.log(JSON.stringify(rankFused(fused)));

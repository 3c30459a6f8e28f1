// Deno 2, with the package installed in node_modules (npm install memdomain):
// the same `await init()`, which reads memdomain.wasm next to the glue.
// Run: deno run --allow-read main.js
import { init, fuseArms, rankFused } from "memdomain";

await init();
const fused = fuseArms(
  [
    [{ path: "notes/a.html", rank: 1 }, { path: "notes/b.html", rank: 2 }],
    [{ path: "notes/b.html", rank: 1 }],
  ],
  [1, 1],
);
console.log(JSON.stringify(rankFused(fused)));

// A Web Worker, bundled (e.g. `esbuild worker.js --bundle --format=esm --outfile=dist/worker.js`):
// module workers cannot use import maps, so the bundler resolves the package; the
// bundle no longer sits next to memdomain.wasm, so pass init() the wasm's URL.
// The page: new Worker("dist/worker.js", { type: "module" }).onmessage = (e) => console.log(e.data);
import { init, fuseArms, rankFused } from "memdomain";

await init(new URL("/node_modules/memdomain/memdomain.wasm", self.location.origin));
const fused = fuseArms(
  [
    [{ path: "notes/a.html", rank: 1 }, { path: "notes/b.html", rank: 2 }],
    [{ path: "notes/b.html", rank: 1 }],
  ],
  [1, 1],
);
postMessage(JSON.stringify(rankFused(fused)));

// Bundle the worker the way wrangler does for Workers: one ES module, with
// the .wasm kept as a separate module that the bundle imports (copied next to
// it as dist/memdomain.wasm). workerd then serves config.capnp.
//   node build.mjs [outdir] [entry]      (defaults: dist, worker.mjs)
import { build } from "esbuild";

const outdir = process.argv[2] ?? new URL("./dist", import.meta.url).pathname;
const entry = process.argv[3] ?? new URL("./worker.mjs", import.meta.url).pathname;
await build({
  entryPoints: [entry],
  outdir,
  entryNames: "worker",
  assetNames: "[name]",
  bundle: true,
  format: "esm",
  platform: "browser",
  conditions: ["workerd", "worker", "browser"],
  loader: { ".wasm": "copy" },
  logLevel: "error",
});

// The golden harness in a browser: as a page's module script (unbundled, the
// package resolved by an import map; `await init()` with no arguments fetches
// memdomain.wasm next to the glue) or as a module Web Worker (bundled, since
// workers have no import maps; the wasm URL passed to init()).
// Golden files are served under /golden/, this directory under /harness/.
import * as md from "memdomain";
import { runGolden } from "./harness.js";

async function text(name) {
  const res = await fetch(`/golden/${name}`);
  if (!res.ok) throw new Error(`GET /golden/${name}: HTTP ${res.status}`);
  return res.text();
}

export async function runHere(wasmUrl) {
  const config = await (await fetch("/harness/config.json")).json();
  if (md.isInitialized()) throw new Error("initialized before init()");
  await md.init(wasmUrl);
  const result = await runGolden(md, text, config.modules, config.constantModule);
  return { runtime: navigator.userAgent, ...result };
}

if (typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope) {
  runHere(new URL("/node_modules/memdomain/memdomain.wasm", self.location.origin)).then(
    (r) => postMessage(r),
    (e) => postMessage({ error: String(e?.stack ?? e) }),
  );
}

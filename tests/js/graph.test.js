// The graph module on one wasm build (clang by default; make test-js runs it
// again with MEMDOMAIN_WASM=emcc). See graph.shared.js.
import { execFileSync } from "node:child_process";
import * as md from "../../js/index.js";
import { BUILD, WASM_PATH, wasmBytes } from "./build.js";
import { ROOT } from "./golden/runner.js";
import { graphSuite } from "./graph.shared.js";

const exportsObj = md.initSync(wasmBytes());
graphSuite(BUILD, md, exportsObj);

test("Graph handles that are never freed are released by the FinalizationRegistry", () => {
  // Needs a collectable heap: run in a child with --expose-gc.
  const out = execFileSync(process.execPath, ["--expose-gc", `${ROOT}tests/js/graph-finalizer.mjs`, WASM_PATH],
    { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  const { before, after } = JSON.parse(out);
  expect(after - before).toBeLessThan(16 * 1024 * 1024);
});

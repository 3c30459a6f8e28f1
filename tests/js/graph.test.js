// The graph module on the clang (wasm32-wasi) build. See graph.shared.js.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { ROOT } from "./golden/runner.js";
import { graphSuite } from "./graph.shared.js";

const exportsObj = md.initSync(readFileSync(`${ROOT}build/memdomain.wasm`));
graphSuite("clang", md, exportsObj);

test("Graph handles that are never freed are released by the FinalizationRegistry", () => {
  // Needs a collectable heap: run in a child with --expose-gc.
  const out = execFileSync(process.execPath, ["--expose-gc", `${ROOT}tests/js/graph-finalizer.mjs`, `${ROOT}build/memdomain.wasm`],
    { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  const { before, after } = JSON.parse(out);
  expect(after - before).toBeLessThan(16 * 1024 * 1024);
});

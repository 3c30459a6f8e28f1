// The graph module on the clang (wasm32-wasi) build. See graph.shared.js.
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { ROOT } from "./golden/runner.js";
import { graphSuite } from "./graph.shared.js";

const exportsObj = md.initSync(readFileSync(`${ROOT}build/memdomain.wasm`));
graphSuite("clang", md, exportsObj);

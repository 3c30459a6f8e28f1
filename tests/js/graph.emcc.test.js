// The graph module on the Emscripten build. See graph.shared.js.
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { ROOT } from "./golden/runner.js";
import { graphSuite } from "./graph.shared.js";

const exportsObj = md.initSync(readFileSync(`${ROOT}build/memdomain.emcc.wasm`));
graphSuite("emcc", md, exportsObj);

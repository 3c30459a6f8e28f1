// The golden files on the Emscripten (STANDALONE_WASM) build, through the JS API.
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { goldenSuite, ROOT } from "./golden/runner.js";

md.initSync(readFileSync(`${ROOT}build/memdomain.emcc.wasm`));
goldenSuite("emcc", md);

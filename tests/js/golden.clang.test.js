// The golden files on the clang (wasm32-wasi) build, through the JS API.
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { goldenSuite, ROOT } from "./golden/runner.js";

md.initSync(readFileSync(`${ROOT}build/memdomain.wasm`));
goldenSuite("clang", md);

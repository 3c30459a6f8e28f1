// Which wasm build the suites run on: the clang build by default, the
// Emscripten build when MEMDOMAIN_WASM=emcc (make test-js runs both).
import { readFileSync } from "node:fs";
import { ROOT } from "./golden/runner.js";

export const BUILD = process.env.MEMDOMAIN_WASM === "emcc" ? "emcc" : "clang";
export const WASM_PATH = `${ROOT}build/${BUILD === "emcc" ? "memdomain.emcc.wasm" : "memdomain.wasm"}`;
export const wasmBytes = () => readFileSync(WASM_PATH);
/** The test build of the same toolchain: the shipped exports plus the signature table's `test` rows. */
export const TEST_WASM_PATH = `${ROOT}build/${BUILD === "emcc" ? "memdomain.emcc.test.wasm" : "memdomain.test.wasm"}`;
export const testWasmBytes = () => readFileSync(TEST_WASM_PATH);

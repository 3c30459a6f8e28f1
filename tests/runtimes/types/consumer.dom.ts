// With the DOM lib (browsers, workers; Deno has the same globals), init and
// initSync take and return the real WebAssembly and fetch types.
import { init, initSync, type InitInput } from "memdomain";

const mod: WebAssembly.Module = new WebAssembly.Module(new Uint8Array(8));
const fromModule: WebAssembly.Exports = initSync(mod);
const fromObject: WebAssembly.Exports = initSync({ module: mod });
const fromFetch: Promise<WebAssembly.Exports> = init(fetch("/node_modules/memdomain/memdomain.wasm"));
const inputs: InitInput[] = [mod, new Response(new Uint8Array(8)), new URL("memdomain.wasm", "https://example.com/")];

export const usedDom = [fromModule, fromObject, fromFetch, inputs];

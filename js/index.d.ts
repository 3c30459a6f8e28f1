// memdomain: the exact @memhtml/domain surface on WebAssembly, plus batch entry points.

// WebAssembly, BufferSource and Response are declared by TypeScript's DOM and
// WebWorker libs (and Deno's); a Node project compiled without them (lib
// ES2022 with @types/node) gets these structural fallbacks instead of errors.
type Globals = typeof globalThis;
type WasmModule = Globals extends { WebAssembly: { Module: abstract new (...args: any[]) => infer M } } ? M : object;
type WasmExports = Globals extends { WebAssembly: { Instance: abstract new (...args: any[]) => { readonly exports: infer E } } }
  ? E
  : Record<string, unknown>;
type WasmBytes = ArrayBuffer | ArrayBufferView;
type FetchResponse = Globals extends { Response: abstract new (...args: any[]) => infer R } ? R : never;
type UrlObject = Globals extends { URL: abstract new (...args: any[]) => infer U } ? U : never;

/** What `init` accepts: nothing (the .wasm next to the glue), a URL, a Response, the bytes, or a compiled module. */
export type InitInput =
  | UrlObject
  | string
  | FetchResponse
  | PromiseLike<FetchResponse>
  | WasmBytes
  | WasmModule;

/** Load and instantiate the module; resolves to its raw exports. Call once before anything else. */
export function init(source?: InitInput | PromiseLike<InitInput>): Promise<WasmExports>;
/** Instantiate synchronously from a compiled module (as edge runtimes import it) or the bytes. */
export function initSync(moduleOrBytes: WasmModule | WasmBytes | { module: WasmModule | WasmBytes }): WasmExports;
/** True once init() or initSync() has succeeded. */
export function isInitialized(): boolean;

export * from "./types/cosine.js";
export * from "./types/decay.js";
export * from "./types/frame.js";
export * from "./types/graph.js";
export * from "./types/lexindex.js";
export * from "./types/merge.js";
export * from "./types/mmr.js";
export * from "./types/neighbors.js";
export * from "./types/ranking.js";
export * from "./types/reinforce.js";
export * from "./types/retention.js";
export * from "./types/rrf.js";
// Only the names above marked export (and the modules' exports) are public.
export {};

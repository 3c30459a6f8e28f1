// memdomain: the exact @memhtml/domain surface on WebAssembly, plus batch entry points.

/** What `init` accepts: nothing (the .wasm next to the glue), a URL, a Response, the bytes, or a compiled module. */
export type InitInput =
  | URL
  | string
  | Response
  | PromiseLike<Response>
  | BufferSource
  | WebAssembly.Module;

/** Load and instantiate the module; resolves to its raw exports. Call once before anything else. */
export function init(source?: InitInput | PromiseLike<InitInput>): Promise<WebAssembly.Exports>;
/** Instantiate synchronously from a compiled module (as edge runtimes import it) or the bytes. */
export function initSync(moduleOrBytes: WebAssembly.Module | BufferSource | { module: WebAssembly.Module | BufferSource }): WebAssembly.Exports;
/** True once init() or initSync() has succeeded. */
export function isInitialized(): boolean;

export * from "./types/cosine.js";
export * from "./types/decay.js";
export * from "./types/frame.js";
export * from "./types/graph.js";
export * from "./types/merge.js";
export * from "./types/mmr.js";
export * from "./types/neighbors.js";
export * from "./types/ranking.js";
export * from "./types/reinforce.js";
export * from "./types/retention.js";
export * from "./types/rrf.js";

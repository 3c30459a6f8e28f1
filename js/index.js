// memdomain: @memhtml/domain on WebAssembly. Call `await init()` (or
// `initSync(module)`) once, then use the functions exactly as the reference.
export { init, initSync, isInitialized } from "./src/core.js";
export * from "./src/api.js";
export * from "./src/cosine.js";
export * from "./src/decay.js";
export * from "./src/frame.js";
export * from "./src/graph.js";
export * from "./src/lexindex.js";
export * from "./src/merge.js";
export * from "./src/mmr.js";
export * from "./src/neighbors.js";
export * from "./src/ranking.js";
export * from "./src/reinforce.js";
export * from "./src/retention.js";
export * from "./src/rrf.js";

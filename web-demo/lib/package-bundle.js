// What the demo's worker imports (bundled into build/demo/memdomain.js): the memdomain package and
// memdomain/cache in ONE module graph, so the cache and the worker share one wasm instance (with
// the cache's PRESETS, the page's search defaults, and sleep()'s defaults); and the official SQLite
// WebAssembly build, which the backend hands to the cache (and whose OPFS pool it uses to start a
// database afresh).
export * from "../../js/index.js";
export { CACHE_OPTIONS, DEFAULT_LIMITS, PRESETS, checkOption, openMemoryCache } from "../../js/cache/index.js";
export { default as sqlite3InitModule } from "@sqlite.org/sqlite-wasm";

// The one seeded generator (mulberry32) of the tests, the benchmarks, the cross-runtime corpus
// and the demo's synthetic corpus: the package's own (js/cache/rng.js, which memdomain/cache's
// tune draws its folds from), so there is one implementation. The runtime harness replaces this
// file with a re-export of the installed package's copy (tests/runtimes/setup.mjs).
export { mulberry32, rng } from "../../js/cache/rng.js";

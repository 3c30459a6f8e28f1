# memdomain/cache (issue 14): js/cache/, a local memory cache on SQLite.
#
#   make test-cache-runtimes   the cache scenario in Node (the reference), Deno, a Chromium
#                              Worker on OPFS (reloaded) and a D1 Worker under miniflare
#   make bench-cache           search p50/p99 and per-stage times at 10k, 100k and 1M (d = 384;
#                              1M on a file) in Node and Chromium, beside plain JS and Orama where
#                              they fit; put + search, sleep passes (full and incremental), bytes
#                              (BENCH_CACHE_ARGS, e.g. --sizes=10000 --queries=50)
#
# The Node suites (tests/js/cache.test.js) run with the other Jest suites in make test-js.
.PHONY: test-cache-runtimes bench-cache
test-cache-runtimes: $(BUILD)/memdomain.wasm node_modules/.deps-npm
	MEMDOMAIN_BUILD=$(abspath $(BUILD))/ node tests/runtimes/cache.test.mjs

TEST_EXTRA += test-cache-runtimes

BENCH_CACHE_ARGS ?=
bench-cache: $(BUILD)/memdomain.wasm node_modules/.deps-npm
	node --max-old-space-size=8192 bench/cache.mjs $(BENCH_CACHE_ARGS)

# The option tables of docs/CACHE.md against the cache's option schema (js/cache/schema.js):
# regenerate them with node tools/gen-cache-options.mjs.
.PHONY: test-cache-options
test-cache-options:
	node tools/gen-cache-options.mjs --check
TEST_EXTRA += test-cache-options

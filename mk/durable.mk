# memdomain/cache on Cloudflare Durable Objects (issue 29), in workerd under miniflare.
#
#   make test-durable    tests/runtimes/durable.test.mjs: the backend on a SQLite-backed object's
#                        ctx.storage against sqlite-wasm and the fault injection there;
#                        examples/durable-object as its wrangler.jsonc declares it; 1,000 objects
#                        driven concurrently (no leaks, alarms that throw halfway, restarts)
.PHONY: test-durable
test-durable: $(BUILD)/memdomain.wasm node_modules/.deps-npm
	MEMDOMAIN_BUILD=$(abspath $(BUILD))/ node tests/runtimes/durable.test.mjs

TEST_EXTRA += test-durable

# bench/durable.mjs: 1,000 tenants under load (p50/p99 put and search), cold starts at 1k/4k/10k
# memories, the largest cache the default budget holds, memory against the estimate (BENCH_DURABLE_ARGS)
.PHONY: bench-durable
BENCH_DURABLE_ARGS ?=
bench-durable: $(BUILD)/memdomain.wasm node_modules/.deps-npm
	node --expose-gc bench/durable.mjs $(BENCH_DURABLE_ARGS)

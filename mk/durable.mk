# memdomain/cache on Cloudflare Durable Objects (issue 29), in workerd under miniflare.
#
#   make test-durable    the backend on a SQLite-backed object's ctx.storage against sqlite-wasm,
#                        the fault injection there
.PHONY: test-durable
test-durable: $(BUILD)/memdomain.wasm node_modules/.deps-npm
	MEMDOMAIN_BUILD=$(abspath $(BUILD))/ node tests/runtimes/durable.test.mjs

TEST_EXTRA += test-durable

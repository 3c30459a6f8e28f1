# Bounded memory over millions of mixed calls (issue 9): tests/soak/soak.mjs.
#   make test-soak        SOAK_CALLS (default 10,000,000) mixed calls on each wasm build
#                         (SOAK_CALLS_EMCC for the Emscripten build, default the same)
#   make test-soak-short  the same soak with SOAK_SHORT_CALLS (default 1,000,000) calls per
#                         build: the one `make test` runs. The clang build starts with 192 KiB of
#                         memory, so a leak of one byte per call would grow it past that in
#                         200,000 calls; the full ten million stay in make test-soak.
SOAK_SHORT_CALLS ?= 1000000
.PHONY: test-soak test-soak-short
test-soak: $(BUILD)/memdomain.wasm $(BUILD)/memdomain.emcc.wasm node_modules/.deps-npm
	node tests/soak/soak.mjs

test-soak-short: $(BUILD)/memdomain.wasm $(BUILD)/memdomain.emcc.wasm node_modules/.deps-npm
	SOAK_CALLS=$(SOAK_SHORT_CALLS) SOAK_CALLS_EMCC=$(SOAK_SHORT_CALLS) node tests/soak/soak.mjs

TEST_EXTRA += test-soak-short

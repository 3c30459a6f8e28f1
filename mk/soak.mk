# Bounded memory over ten million mixed calls (issue 9): tests/soak/soak.mjs.
#   make test-soak    SOAK_CALLS (default 10,000,000) mixed calls on each wasm build
#                     (SOAK_CALLS_EMCC for the Emscripten build, default the same)
.PHONY: test-soak
test-soak: $(BUILD)/memdomain.wasm $(BUILD)/memdomain.emcc.wasm node_modules/.deps-npm
	node tests/soak/soak.mjs

TEST_EXTRA += test-soak

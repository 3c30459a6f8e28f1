# The boundary protocol's own checks: the signature table against the C
# definitions, the builds' exports and the glue's calls (Jest,
# tests/js/boundary.test.js, part of test-js), and the generated files
# (js/src/constants.js, wasm/boundary_gen.h, wasm/boundary_exports.mk,
# tests/runtimes/native_ops.h, and from the `as` lines js/src/args.js,
# js/src/api.js and the generated blocks of js/index.d.ts and docs/API.md).
.PHONY: test-boundary
test-boundary:
	node tools/gen-boundary.mjs --check
TEST_EXTRA += test-boundary

# bench/boundary.mjs with a third side: the glue and wasm of another git ref
# (default main), extracted and built under build/ref/<ref>/, interleaved with
# this checkout and the plain-JavaScript baselines in one run.
#   make bench-ref [REF=main]
REF ?= main
.PHONY: bench-ref
bench-ref: $(BUILD)/memdomain.wasm node_modules/.deps-npm
	rm -rf $(BUILD)/ref/$(REF) && mkdir -p $(BUILD)/ref/$(REF)
	git archive $(REF) | tar -x -C $(BUILD)/ref/$(REF)
	$(MAKE) -C $(BUILD)/ref/$(REF) build/memdomain.wasm
	node --expose-gc bench/boundary.mjs --ref=$(BUILD)/ref/$(REF)

# One package in every runtime (issue 8).
#
#   make pack              build/memdomain-<version>.tgz: js/ staged with the real wasm, npm-packed
#   make test-runtimes     every test below (part of `make test`)
#     test-runtime-node      Node 20 ESM on the installed tarball; its hashes are the reference
#                            (the Emscripten build under the same glue must hash the same)
#     test-runtime-deno      Deno: the golden files from the installed package
#     test-runtime-workerd   workerd: examples/worker answers fusion/MMR/PageRank requests as Node does;
#                            a test worker runs the golden files
#     test-runtime-chromium  Chromium: a module script and a Web Worker run the golden files
#     test-runtime-native    the native build (libmemdomain.a) on the golden cases and the corpus of
#                            every module but frame and merge
#     test-size              each artefact's gzipped size within 10% of tests/runtimes/sizes.recorded.json
#                            (wasm <= 96 KiB, glue <= 24 KiB); RECORD=1 records the sizes
#     test-types             tsc --noEmit on a consumer of every export
#     test-runtime-hashes    every runtime's golden hashes side by side (build/rt/hashes.txt), all equal
#     test-readme            every snippet of README.md and docs/*.md as printed (tests/runtimes/readme.test.mjs):
#                            installed as the README's lines print them, outside the repository; ```js in an
#                            ES module and a CommonJS project, ```sh from the repository root
#   make test-node-versions  on Node 22 and 24 (build/node/): the runtime-dependent Jest suites, the golden
#                            hashes (equal to the machine's Node's), the snippets and the cache scenario
#
# Every runtime hashes the outputs of the golden cases and of a seeded random
# corpus of 3,000 calls over every export (tests/runtimes/corpus.js), which
# the harness generates itself, so every runtime computes the same inputs.
#
# Every test runs against build/rt/app/, a scratch project the tarball is
# installed into (tests/runtimes/setup.mjs); results go to build/rt/results/.

RT_DIR    := $(BUILD)/rt
RT_ENV    := MEMDOMAIN_BUILD=$(abspath $(BUILD))/
RT_INPUTS := $(BUILD)/memdomain.wasm js/package.json js/index.js js/index.d.ts \
             $(wildcard js/src/*.js js/cache/*.js js/adapters/*.js js/bin/*.js js/types/*.d.ts tests/runtimes/*.js tests/runtimes/*.mjs) \
             $(shell find examples -type f -not -path '*/dist/*' -not -path '*/node_modules/*' 2>/dev/null) \
             tests/js/golden/codec.js tests/js/golden/runner.js tools/pack.sh

.PHONY: pack test-runtimes test-runtime-node test-runtime-deno test-runtime-workerd \
        test-runtime-chromium test-runtime-native test-size test-types test-runtime-hashes test-readme test-node-versions

pack: $(BUILD)/memdomain.wasm
	bash tools/pack.sh $(BUILD)

$(RT_DIR)/.setup: $(RT_INPUTS) node_modules/.deps-npm
	$(RT_ENV) node tests/runtimes/setup.mjs

test-runtime-node: $(RT_DIR)/.setup $(BUILD)/memdomain.emcc.wasm
	$(RT_ENV) node tests/runtimes/node.test.mjs

# The other runtimes compare their hashes with Node's (build/rt/results/node.json).
test-runtime-deno: test-runtime-node
	$(RT_ENV) node tests/runtimes/deno.test.mjs

test-runtime-workerd: test-runtime-node
	$(RT_ENV) node tests/runtimes/workerd.test.mjs

test-runtime-chromium: test-runtime-node
	$(RT_ENV) node tests/runtimes/chromium.test.mjs

$(BUILD)/tests/native_hash: tests/runtimes/native_hash.c tests/runtimes/native_ops.h $(BUILD)/libmemdomain.a include/memdomain.h
	@mkdir -p $(dir $@)
	$(CC) $(STD_FLAGS) -O2 -Iinclude $< $(BUILD)/libmemdomain.a -lm -o $@

test-runtime-native: test-runtime-node $(BUILD)/tests/native_hash
	$(RT_ENV) node tests/runtimes/native.test.mjs

test-size: test-runtime-node
	$(RT_ENV) node tests/runtimes/size.test.mjs

test-types: $(RT_DIR)/.setup
	$(RT_ENV) node tests/runtimes/types.test.mjs

test-readme: $(RT_DIR)/.setup
	$(RT_ENV) node tests/runtimes/readme.test.mjs

# Node 22 and 24 (make deps fetches them into build/node/) beside the machine's Node,
# one after the other: the Jest suites whose subject depends on the runtime (the cache
# with node:sqlite as its file driver, loading, workers, the golden files, the runtime's
# own NFC and lowercasing on every code point), the golden
# and corpus hashes of the installed package (equal to the machine's Node's), every
# snippet of the documents installed as printed, and the cache scenario (memory, file).
# `node` and `npm` on PATH are that Node's.
NODE_VERSION_SUITES := cache cache-compose cache-faults cache-trust golden.clang workers init-errors unicode
NODE_VERSION_MAJORS := $(foreach v,$(NODE_VERSIONS),$(firstword $(subst ., ,$(v))))
.PHONY: test-node-versions
test-node-versions: $(RT_DIR)/.setup $(BUILD)/memdomain.emcc.wasm test-runtime-node
	@st=0; for m in $(NODE_VERSION_MAJORS); do $(MAKE) --no-print-directory test-node-$$m || st=1; done; exit $$st
test-node-%: $(RT_DIR)/.setup
	@v=$(filter $*.%,$(NODE_VERSIONS)); p="PATH=$(NODE_DIR)/$$v/bin:$$PATH"; echo "== Node $$v ($(NODE_DIR)/$$v/bin/node)"; \
	  st=0; \
	  env "$$p" MEMDOMAIN_FILE_DRIVERS=node:sqlite NODE_OPTIONS=--experimental-vm-modules node node_modules/jest/bin/jest.js --ci \
	    --maxWorkers=2 $(patsubst %,tests/js/%.test.js,$(NODE_VERSION_SUITES)) || st=1; \
	  env "$$p" $(RT_ENV) node tests/runtimes/node.test.mjs --compare || st=1; \
	  env "$$p" $(RT_ENV) node tests/runtimes/readme.test.mjs || st=1; \
	  env "$$p" $(RT_ENV) node tests/runtimes/cache.test.mjs --only=none || st=1; \
	  exit $$st

test-runtime-hashes: test-runtime-node test-runtime-deno test-runtime-workerd test-runtime-chromium test-runtime-native test-size
	$(RT_ENV) node tests/runtimes/summary.mjs

test-runtimes: test-runtime-node test-runtime-deno test-runtime-workerd test-runtime-chromium \
               test-runtime-native test-size test-types test-runtime-hashes test-readme

TEST_EXTRA += test-runtimes test-node-versions
TEST_BUILD += $(BUILD)/tests/native_hash

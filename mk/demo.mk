# The interactive demo (web-demo/): assets built into build/demo/, and its Chromium test.
#
#   make demo-assets   bundle the js/ glue and memdomain/cache (with effect and sqlite-wasm) and
#                      d3-force, generate the synthetic example
#   make test-demo     headless Chromium end-to-end test of the page (screenshots in build/demo-test/)

DEMO_DIR    := $(BUILD)/demo
DEMO_ASSETS := $(DEMO_DIR)/memdomain.js $(DEMO_DIR)/sqlite3.wasm $(DEMO_DIR)/d3-force.js $(DEMO_DIR)/corpus.json

.PHONY: demo-assets test-demo
demo-assets: $(DEMO_ASSETS) $(BUILD)/memdomain.wasm

# The worker imports one ESM file: the package glue, memdomain/cache and the official SQLite
# WebAssembly build in one module graph (web-demo/lib/package-bundle.js), with effect bundled in
# (module workers have no import maps). sqlite-wasm finds sqlite3.wasm next to the bundle.
$(DEMO_DIR)/memdomain.js: web-demo/lib/package-bundle.js $(wildcard js/*.js js/src/*.js js/cache/*.js) node_modules/.deps-npm
	@mkdir -p $(dir $@)
	npx esbuild web-demo/lib/package-bundle.js --bundle --format=esm '--external:node:*' --log-level=warning --outfile=$@

$(DEMO_DIR)/sqlite3.wasm: node_modules/.deps-npm
	@mkdir -p $(dir $@)
	cp node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm $@

$(DEMO_DIR)/d3-force.js: node_modules/.deps-npm
	@mkdir -p $(dir $@)
	npx esbuild node_modules/d3-force/src/index.js --bundle --format=esm --log-level=warning --outfile=$@
	cp node_modules/d3-force/LICENSE $(DEMO_DIR)/d3-force.LICENSE

# corpus.json and vectors.f32 (the synthetic query encoder's topics), and the same corpus in the
# workbench's import format: example-memories.jsonl and example-queries.jsonl (first visit).
$(DEMO_DIR)/corpus.json: web-demo/tools/gen-corpus.mjs web-demo/tools/topics.mjs web-demo/lib/arms.js tests/oracles/rng.js js/cache/rng.js
	node web-demo/tools/gen-corpus.mjs --out $(DEMO_DIR)

test-demo: all demo-assets node_modules/.deps-npm
	node tests/demo/demo.test.mjs

TEST_EXTRA += test-demo

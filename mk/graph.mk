# graph module: cross-check pagerank with networkx (Debian's python3, which
# has python3-networkx; the pyenv python3 first on PATH does not), on both
# wasm builds.
.PHONY: test-graph-networkx
test-graph-networkx: $(WASMS)
	/usr/bin/python3 tests/py/networkx_pagerank.py $(BUILD)/memdomain.wasm
	/usr/bin/python3 tests/py/networkx_pagerank.py $(BUILD)/memdomain.emcc.wasm
TEST_EXTRA += test-graph-networkx

# graph module: cross-check pagerank with networkx (Debian's python3, which
# has python3-networkx; the pyenv python3 first on PATH does not), on both
# wasm builds.
RUN_NX := $(patsubst %,%.networkx,$(WASMS))
.PHONY: test-graph-networkx $(RUN_NX)
test-graph-networkx: $(RUN_NX)
$(RUN_NX): %.networkx: %
	/usr/bin/python3 tests/py/networkx_pagerank.py $<
TEST_EXTRA += test-graph-networkx

# Benchmark: wasm (one-shot and handle) and native C against the
# reference-style JavaScript baseline, side by side.
.PHONY: bench-graph
$(BUILD)/bench/graph_native: bench/graph_native.c $(BUILD)/libmemdomain.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NAT) -O3 $< $(BUILD)/libmemdomain.a -lm -o $@
bench-graph: $(WASMS) $(BUILD)/bench/graph_native
	node --expose-gc bench/graph.mjs

# JavaScript-exact math against Node: Node writes seeded inputs and its own
# Math.exp / Math.log1p / Math.round outputs to build/jsmath-vectors.bin and
# compares both wasm test builds' md_js_* exports; a native program (built with
# the same flags as the library) then compares the C functions.

.PHONY: test-jsmath
TEST_EXTRA += test-jsmath
# (tests/c/jsmath_check.c is not a test_*.c: it runs here, on the vectors, with the library's flags.)
TEST_BUILD += $(BUILD)/tests/jsmath_check

$(BUILD)/tests/jsmath_check: tests/c/jsmath_check.c $(BUILD)/libmemdomain.a include/memdomain.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NAT) $< $(BUILD)/libmemdomain.a -lm -o $@

test-jsmath: $(TEST_WASMS) $(BUILD)/tests/jsmath_check
	node tests/js/jsmath-vectors.mjs $(BUILD)/jsmath-vectors.bin $(TEST_WASMS)
	$(BUILD)/tests/jsmath_check $(BUILD)/jsmath-vectors.bin

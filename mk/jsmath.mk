# JavaScript-exact math against Node: Node writes seeded inputs and its own
# Math.exp / Math.log1p / Math.round outputs to build/jsmath-vectors.bin and
# compares both wasm builds' md_js_* exports; a native program (built with
# the same flags as the library) then compares the C functions.

.PHONY: test-jsmath
TEST_EXTRA += test-jsmath
TEST_BUILD += $(BUILD)/tools/jsmath_check

$(BUILD)/tools/jsmath_check: tools/jsmath_check.c $(BUILD)/libmemdomain.a include/memdomain.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NAT) $< $(BUILD)/libmemdomain.a -lm -o $@

test-jsmath: $(WASMS) $(BUILD)/tools/jsmath_check
	node tests/js/jsmath-vectors.mjs $(BUILD)/jsmath-vectors.bin $(WASMS)
	$(BUILD)/tools/jsmath_check $(BUILD)/jsmath-vectors.bin

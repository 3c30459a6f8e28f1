# libFuzzer targets under AddressSanitizer + UBSan (clang-14).
#   make fuzz               run every target for FUZZ_SECONDS (default 60) each
#   make test-fuzz-smoke    a short deterministic run of each (part of make test)
FUZZ_CC      ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_SRCS    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS    := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS))
FUZZ_FLAGS   := $(STD_FLAGS) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
                -Iinclude -Isrc -Iwasm -Itests/fuzz

# The library (src/ and wasm/) is compiled once, with the same sanitizers and
# libFuzzer's coverage instrumentation (fuzzer-no-link); each target links it.
FUZZ_LIB_FLAGS := $(subst -fsanitize=fuzzer$(comma),-fsanitize=fuzzer-no-link$(comma),$(FUZZ_FLAGS))
FUZZ_OBJS    := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(SRCS) $(WSRCS))

$(BUILD)/fuzz/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_LIB_FLAGS) -c $< -o $@

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_input.h $(FUZZ_OBJS) $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_OBJS) -lm -o $@

.PHONY: fuzz test-fuzz-smoke
fuzz: $(FUZZ_BINS)
	@set -e; for f in $(FUZZ_BINS); do n=$$(basename $$f); mkdir -p $(BUILD)/fuzz/corpus-$$n; \
	  echo "== $$n ($(FUZZ_SECONDS) s)"; $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus-$$n; done

RUN_FUZZ := $(patsubst %,%.smoke,$(FUZZ_BINS))
.PHONY: $(RUN_FUZZ)
test-fuzz-smoke: $(RUN_FUZZ)
$(RUN_FUZZ): %.smoke: %
	@n=$$(basename $<); $< -seed=1 -runs=30000 -max_len=512 -artifact_prefix=$(BUILD)/fuzz/ 2>$(BUILD)/fuzz/$$n.log || { tail -40 $(BUILD)/fuzz/$$n.log; exit 1; }; \
	  echo "$$n: 1 passed, 0 failed ($$(grep -o 'Done [0-9]* runs' $(BUILD)/fuzz/$$n.log))"

TEST_EXTRA += test-fuzz-smoke
TEST_BUILD += $(FUZZ_BINS)

# libFuzzer targets under AddressSanitizer + UBSan (clang-14).
#   make fuzz               run every target for FUZZ_SECONDS (default 60) each
#   make test-fuzz-smoke    a short deterministic run of each (part of make test)
FUZZ_CC      ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_SRCS    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS    := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS))
FUZZ_FLAGS   := $(STD_FLAGS) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
                -Iinclude -Isrc -Iwasm -Itests/fuzz

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_input.h $(SRCS) $(WSRCS) $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(SRCS) $(WSRCS) -lm -o $@

.PHONY: fuzz test-fuzz-smoke
fuzz: $(FUZZ_BINS)
	@set -e; for f in $(FUZZ_BINS); do n=$$(basename $$f); mkdir -p $(BUILD)/fuzz/corpus-$$n; \
	  echo "== $$n ($(FUZZ_SECONDS) s)"; $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus-$$n; done

test-fuzz-smoke: $(FUZZ_BINS)
	@set -e; for f in $(FUZZ_BINS); do n=$$(basename $$f); \
	  $$f -seed=1 -runs=30000 -max_len=512 -artifact_prefix=$(BUILD)/fuzz/ 2>$(BUILD)/fuzz/$$n.log || { tail -40 $(BUILD)/fuzz/$$n.log; exit 1; }; \
	  echo "$$n: 1 passed, 0 failed ($$(grep -o 'Done [0-9]* runs' $(BUILD)/fuzz/$$n.log))"; done

TEST_EXTRA += test-fuzz-smoke

# The C unit tests again, built without sanitizers and run under valgrind
# memcheck: no invalid access, no use of uninitialised memory, no leak.
VG_OBJS  := $(patsubst src/%.c,$(BUILD)/vg/%.o,$(SRCS))
VG_TESTS := $(patsubst tests/c/%.c,$(BUILD)/vg/tests/%,$(wildcard tests/c/test_*.c))

$(BUILD)/vg/%.o: src/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(STD_FLAGS) -O1 -g -Iinclude -Isrc -c $< -o $@
$(BUILD)/vg/tests/%: tests/c/%.c $(wildcard tests/c/*.h) $(VG_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(STD_FLAGS) -O1 -g -Iinclude -Isrc -Itests/c $< $(VG_OBJS) -lm $(TEST_LDFLAGS_$*) -o $@

RUN_VG := $(patsubst %,%.vgrun,$(VG_TESTS))
.PHONY: test-valgrind $(RUN_VG)
test-valgrind: $(RUN_VG)
$(RUN_VG): %.vgrun: %
	@MD_TEST_UNDER_VALGRIND=1 valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all $< > /dev/null
	@echo "valgrind-$$(basename $<): 1 passed, 0 failed"

TEST_EXTRA += test-valgrind
TEST_BUILD += $(VG_TESTS)

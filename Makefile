# memdomain: read this file as a menu.
#
#   make            native library, both wasm builds, a ready-to-import js/
#   make test       every test (installs what is missing first)
#   make demo       build everything and serve the demo on http://$(HOST):$(PORT) (127.0.0.1:8080)
#   make bench      benchmarks against plain-JavaScript baselines
#   make deps       install missing apt packages, Node 22 and 24, npm packages (idempotent)
#   make clean      remove build/
#
# Build output goes under build/ only.

SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SECONDARY:

BUILD   := build
PORT    ?= 8080
HOST    ?= 127.0.0.1

CC      ?= cc
CLANG   ?= clang-14
EMCC    ?= emcc
AR      ?= ar

SRCS    := $(sort $(wildcard src/*.c))
WSRCS   := $(sort $(wildcard wasm/*.c))
HDRS    := include/memdomain.h $(wildcard src/*.h) $(sort $(wildcard wasm/*.h) wasm/boundary_gen.h)

# C11, warnings are errors, no floating-point contraction, never fast-math.
STD_FLAGS  := -std=c11 -Wall -Wextra -Werror -ffp-contract=off -fno-fast-math
# The native library is built for the target's baseline ISA (x86-64: SSE2), so
# a libmemdomain.a built on one machine runs on another. The wider kernels
# (src/kernels_avx2.c, src/kernels_avx512.c) carry per-function target
# attributes and are chosen at run time from the CPU (src/kernels.c).
# NATIVE_ARCH=-march=... adds flags for the whole library (not needed for speed).
NATIVE_ARCH ?=
CFLAGS_NAT := $(STD_FLAGS) $(NATIVE_ARCH) -O2 -Iinclude -Isrc
SAN_FLAGS  := $(NATIVE_ARCH) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# ---- native static library ----
NAT_OBJS := $(patsubst src/%.c,$(BUILD)/native/%.o,$(SRCS))
$(BUILD)/native/%.o: src/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NAT) -c $< -o $@
$(BUILD)/libmemdomain.a: $(NAT_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

# ---- wasm: exported symbols, from the signature table wasm/boundary.def ----
# EXPORTS (the `export` rows) and TEST_EXPS (the `test` rows), in table order:
# generated below; make remakes a stale wasm/boundary_exports.mk and rereads it.
BOUNDARY    := wasm/boundary.def
BOUNDARY_MK := wasm/boundary_exports.mk
include $(BOUNDARY_MK)
comma     := ,
empty     :=
space     := $(empty) $(empty)
EXPORT_LD := $(addprefix -Wl$(comma)--export=,$(EXPORTS))
EMCC_EXP  := [$(subst $(space),$(comma),$(foreach e,$(EXPORTS),'_$(e)'))]
TEST_LD   := $(EXPORT_LD) $(addprefix -Wl$(comma)--export=,$(TEST_EXPS))
EMCC_TEST := [$(subst $(space),$(comma),$(foreach e,$(EXPORTS) $(TEST_EXPS),'_$(e)'))]

# What tools/gen-boundary.mjs writes from the table (and the header's md_status,
# the C name tables, the native harness's op list): committed, so a clone builds as it is; rewritten here when
# an input is newer (the generator leaves an unchanged file's contents alone).
# `make test` (test-boundary) fails when a committed file differs from its table.
GEN_INPUTS := $(BOUNDARY) include/memdomain.h src/retention.c src/reinforce.c src/merge.c \
              tools/gen-boundary.mjs tools/boundary.mjs tools/api.mjs tools/gen-api.mjs tests/runtimes/native-ops.mjs \
              $(wildcard js/types/*.d.ts)
# (js/index.d.ts and docs/API.md: their generated blocks only.)
GENERATED  := js/src/constants.js wasm/boundary_gen.h $(BOUNDARY_MK) tests/runtimes/native_ops.h \
              js/src/args.js js/src/api.js js/index.d.ts docs/API.md
$(GENERATED) &: $(GEN_INPUTS)
	node tools/gen-boundary.mjs
	@touch $(GENERATED)

# ---- wasm with clang + wasi-libc (primary) ----
SYSROOT := $(BUILD)/wasi-sysroot
$(SYSROOT)/.stamp:
	@mkdir -p $(SYSROOT)/include $(SYSROOT)/lib
	ln -sfn /usr/include/wasm32-wasi $(SYSROOT)/include/wasm32-wasi
	ln -sfn /usr/lib/wasm32-wasi $(SYSROOT)/lib/wasm32-wasi
	@touch $@

WASM_FLAGS := $(STD_FLAGS) -O3 -DNDEBUG -msimd128 -Iinclude -Isrc
$(BUILD)/memdomain.wasm: $(SRCS) $(WSRCS) $(HDRS) $(BOUNDARY_MK) $(SYSROOT)/.stamp
	$(CLANG) --target=wasm32-wasi --sysroot=$(SYSROOT) $(WASM_FLAGS) -mexec-model=reactor \
	  -Wl,--strip-debug -Wl,--max-memory=4294967296 $(EXPORT_LD) -o $@ $(SRCS) $(WSRCS)

# ---- wasm with Emscripten (second toolchain) ----
$(BUILD)/memdomain.emcc.wasm: $(SRCS) $(WSRCS) $(HDRS) $(BOUNDARY_MK)
	NODE_PATH=/usr/share/nodejs $(EMCC) $(WASM_FLAGS) -sSTANDALONE_WASM --no-entry \
	  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB \
	  -sEXPORTED_FUNCTIONS="$(EMCC_EXP)" -o $@ $(SRCS) $(WSRCS)

WASMS := $(BUILD)/memdomain.wasm $(BUILD)/memdomain.emcc.wasm

# The test builds: the same modules plus the `test` rows of the signature
# table (exact-math, Unicode and key-order internals the tests hold against
# JavaScript). What ships never exports them.
CLANG_TEST_WASM = $(CLANG) --target=wasm32-wasi --sysroot=$(SYSROOT) $(WASM_FLAGS) -DMDW_TEST_BUILD -mexec-model=reactor \
  -Wl,--strip-debug -Wl,--max-memory=4294967296 $(TEST_LD)
$(BUILD)/memdomain.test.wasm: $(SRCS) $(WSRCS) $(HDRS) $(BOUNDARY_MK) $(SYSROOT)/.stamp
	$(CLANG_TEST_WASM) -o $@ $(SRCS) $(WSRCS)
$(BUILD)/memdomain.emcc.test.wasm: $(SRCS) $(WSRCS) $(HDRS) $(BOUNDARY_MK)
	NODE_PATH=/usr/share/nodejs $(EMCC) $(WASM_FLAGS) -DMDW_TEST_BUILD -sSTANDALONE_WASM --no-entry \
	  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB \
	  -sEXPORTED_FUNCTIONS="$(EMCC_TEST)" -o $@ $(SRCS) $(WSRCS)
TEST_WASMS := $(BUILD)/memdomain.test.wasm $(BUILD)/memdomain.emcc.test.wasm

# The clang test build with every allocation counted and, on request, failed
# (tests/wasm/alloc_hook.c wraps the allocator): tests/js/alloc-each.test.js and
# tests/js/cache-alloc-faults.test.js fail each allocation of a call in turn.
# Only those tests load it.
$(BUILD)/memdomain.allocfail.wasm: $(SRCS) $(WSRCS) tests/wasm/alloc_hook.c $(HDRS) $(BOUNDARY_MK) $(SYSROOT)/.stamp
	$(CLANG_TEST_WASM) -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free \
	  -o $@ $(SRCS) $(WSRCS) tests/wasm/alloc_hook.c

# The clang build capped at 64 MiB of memory: tests use it to show that an
# allocation failure is a clear RangeError and leaves the instance usable.
$(BUILD)/memdomain.small.wasm: $(SRCS) $(WSRCS) $(HDRS) $(BOUNDARY_MK) $(SYSROOT)/.stamp
	$(CLANG) --target=wasm32-wasi --sysroot=$(SYSROOT) $(WASM_FLAGS) -mexec-model=reactor \
	  -Wl,--strip-debug -Wl,--max-memory=67108864 $(EXPORT_LD) -o $@ $(SRCS) $(WSRCS)

.PHONY: all lib wasm js deps test demo bench clean
all: lib wasm js
lib: $(BUILD)/libmemdomain.a
wasm: $(WASMS) $(BUILD)/memdomain.small.wasm $(BUILD)/memdomain.allocfail.wasm $(TEST_WASMS)
# js/memdomain.wasm is a committed symlink to ../build/memdomain.wasm, so the
# glue finds the module next to itself; `npm pack` copies the real file.
js: $(BUILD)/memdomain.wasm js/src/constants.js

# ---- dependencies ----
# make deps: the Debian packages, Node 22 and 24 from the npm registry (make test runs
# the JS suites, the snippets and the cache on each beside the machine's Node), and the
# npm dev dependencies; each step says what it does and how long it took.
NODE_VERSIONS := 22.23.5 24.22.3
NODE_DIR      := $(abspath $(BUILD))/node
NODE22        := $(NODE_DIR)/22.23.5/bin/node
NODE24        := $(NODE_DIR)/24.22.3/bin/node
deps: $(BUILD)/.deps-apt $(NODE22) $(NODE24) node_modules/.deps-npm
	@echo "deps: ready (apt packages, Node $(NODE_VERSIONS) beside $$(node --version), npm packages)"
$(BUILD)/.deps-apt: tools/deps-apt.sh
	@echo "deps: apt packages (tools/deps-apt.sh) ..."
	@s=$$(date +%s); bash tools/deps-apt.sh && echo "deps: apt done in $$(( $$(date +%s) - s )) s"
	@mkdir -p $(BUILD) && touch $@
$(NODE_DIR)/%/bin/node: tools/deps-node.sh
	bash tools/deps-node.sh $* $(NODE_DIR)
# npm itself runs on Node 24 (order-only: a new Node does not reinstall the packages;
# tools/deps-npm.sh says what it installs, step by step).
node_modules/.deps-npm: package.json package-lock.json | $(NODE24)
	NPM_NODE_DIR=$(dir $(NODE24)) bash tools/deps-npm.sh
	@touch $@

# ---- tests ----
C_TESTS   := $(patsubst tests/c/%.c,$(BUILD)/tests/%,$(wildcard tests/c/test_*.c))
SAN_OBJS  := $(patsubst src/%.c,$(BUILD)/san/%.o,$(SRCS))
$(BUILD)/san/%.o: src/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(STD_FLAGS) $(SAN_FLAGS) -Iinclude -Isrc -c $< -o $@
# Link flags of one test (TEST_LDFLAGS_<name>): test_alloc_fail wraps the allocator to fail
# each allocation in turn.
TEST_LDFLAGS_test_alloc_fail := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
$(BUILD)/tests/%: tests/c/%.c $(wildcard tests/c/*.h) $(SAN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(STD_FLAGS) $(SAN_FLAGS) -Iinclude -Isrc -Itests/c $< $(SAN_OBJS) -lm $(TEST_LDFLAGS_$*) -o $@

TEST_EXTRA ?=
TEST_BUILD ?=
-include mk/*.mk

# The C example of README.md and docs/*.md (one between them), compiled and run as written.
DOC_MDS := README.md $(wildcard docs/*.md)
$(BUILD)/tests/readme_c: $(DOC_MDS) tests/readme/snippets.mjs $(SAN_OBJS) node_modules/.deps-npm
	@mkdir -p $(dir $@)
	node tests/readme/snippets.mjs c $(DOC_MDS) > $(BUILD)/tests/readme_c.c
	$(CC) $(STD_FLAGS) $(SAN_FLAGS) -Iinclude $(BUILD)/tests/readme_c.c $(SAN_OBJS) -lm -o $@

.PHONY: test-c test-js test-wasm-imports
# One phony target per test binary, so that make -j2 runs two at a time.
RUN_C := $(patsubst %,%.run,$(C_TESTS) $(BUILD)/tests/readme_c)
.PHONY: $(RUN_C)
test-c: $(RUN_C)
$(RUN_C): %.run: %
	@echo "== $<"; ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $<

test-wasm-imports: $(WASMS) node_modules/.deps-npm
	node tests/js/check-imports.mjs $(WASMS)

# Every suite on the clang build (the golden suite runs on both builds), then,
# on the Emscripten build, the suites whose subject differs between the two
# toolchains: memory growth and the allocator (memory), the SIMD kernels'
# code generation (kernels), the boundary under hostile input (hostile*),
# and memdomain/cache under injected faults (cache-faults).
# Both builds share the glue and the C source; the golden files, the runtime
# hashes (test-runtime-node), the exact-math vectors and the soak cover every
# export on the Emscripten build as well. The alloc-failure suites run on
# build/memdomain.small.wasm, a clang build, whichever build is selected.
# Two Jest workers: one per core.
EMCC_SUITES := memory kernels hostile hostile-mutation cache-faults
JEST := NODE_OPTIONS=--experimental-vm-modules npx jest --ci --maxWorkers=2
test-js: all node_modules/.deps-npm
	$(JEST)
	MEMDOMAIN_WASM=emcc $(JEST) $(patsubst %,tests/js/%.test.js,$(EMCC_SUITES))

# Everything the tests compile, built up front with one job per core.
TEST_BUILD += $(C_TESTS) $(BUILD)/tests/readme_c
.PHONY: test-build
test-build: $(TEST_BUILD)

# Every part of the test, one after another even if one fails, with the time
# each took (tools/timed-make.sh prints the table at the end).
TEST_PARTS = test-c test-wasm-imports test-js $(TEST_EXTRA)
# The build, the test binaries, then each part, timed, each with two jobs (one
# per core; -Otarget keeps each job's output together): objects, test binaries,
# fuzz targets, valgrind runs and runtimes two at a time.
test: deps
	MAKE="$(MAKE)" MAKEFLAGS_PART="-j2 -Otarget" bash tools/timed-make.sh all test-build $(TEST_PARTS)

demo: deps demo-assets
	$(MAKE) all
	node web-demo/serve.mjs --port $(PORT) --host $(HOST)

bench: all node_modules/.deps-npm
	node bench/run.mjs

clean:
	rm -rf $(BUILD)

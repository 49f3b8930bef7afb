# gpubmc build.  `make` builds $(BUILD)/gpubmc (build/ by default); `make test` runs every
# correctness test, `make check-all` the long sweeps too.
CC      ?= cc
# -O3: about 2.7% fewer instructions and 1.5-2% less CPU on the corpus
# batch than -O2 (docs/benchmarks.md, eleventh pass); link-time
# optimization added little more and made every relink take 20 s.
CFLAGS  ?= -O3 -g
ALL_CFLAGS = $(CFLAGS) -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -I.
# Each object and tool records the headers it read (-MMD -MP), so touching a
# header rebuilds only what includes it.
DEPFLAGS = -MMD -MP
# Graphviz is not linked: bmc/graph/graph_render.c loads it (dlopen) when a
# picture is rendered, so that a process that draws none does not load it.
LDLIBS  = -lcadical -lstdc++ -lm -lcjson
# Only the test tool that reads Graphviz's layout back links Graphviz.
GRAPHVIZ_LIBS = -lgvc -lcgraph -lcdt
# gpubmc itself links CaDiCaL's C++ runtime (libstdc++, libgcc) in: loading
# and relocating libstdc++.so was most of a process start (docs/benchmarks.md).
GPUBMC_LDLIBS = -lcadical -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic -static-libgcc -lm -lcjson
BUILD  ?= build

# The stages, earliest first (tests/layout_tests.py checks that includes
# point only to the same or an earlier stage); sources in any subfolder.
SRC_DIRS = util litmus program encoders models bmc
MAIN_SRC = bmc/driver/main.c
LIB_SRC  = $(filter-out $(MAIN_SRC),$(sort $(shell find $(SRC_DIRS) -name '*.c')))
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/bmc/cuda/harness_text.o
MAIN_OBJ = $(MAIN_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# Test tools (tests/tools/NAME.c -> $(BUILD)/NAME), linked with the library.
TOOLS    = litmus_dump outcomes_dump graph_dump litmus_roundtrip graph_layout
TOOL_BIN = $(TOOLS:%=$(BUILD)/%)

.PHONY: all test check-all conformance clean install sanitize bench deps example corpus-sanitize \
	crosscheck fuzz fuzz-deps cuda-compile cuda-run

PREFIX ?= /usr/local
DEB_PACKAGES = gcc make python3 libcadical-dev libcjson-dev libcmocka-dev libgraphviz-dev parallel spirv-headers \
	glslang-tools spirv-tools
EXAMPLES = tests/litmus/ptx/MP-weak.litmus tests/litmus/ptx/MP+rel.gpu+acq.gpu.litmus

all: $(BUILD)/gpubmc

$(BUILD)/gpubmc: $(MAIN_OBJ) $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(GPUBMC_LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# The CUDA harness text every emitted program shares, as a C string.
$(BUILD)/bmc/cuda/harness_text.c: bmc/cuda/harness.cuh
	@mkdir -p $(dir $@)
	{ echo '#include "bmc/cuda/harness.h"'; echo 'const char cuda_harness_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/bmc/cuda/harness_text.o: $(BUILD)/bmc/cuda/harness_text.c
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# Every PTX test the CUDA harness runs (the own ones under tests/litmus and
# tests/gallery, and the corpus's when it is there), emitted and built whole
# (host and device) with nvcc for sm_90, every warning an error
# (tests/cuda/run_gpu.py). `make test` compiles the same programs when nvcc is
# there, but only their device side (nvcc -cubin: cicc and ptxas on the inline
# PTX; tests/cuda_tests.py), and builds four of them whole.
cuda-compile: all
	python3 tests/cuda/run_gpu.py --compile-only --out $(BUILD)/cuda tests/litmus tests/gallery \
		$(wildcard ../shared/corpus/litmus/PTX)

# The own PTX tests run on this machine's GPU and judged by --observed.
cuda-run: all
	python3 tests/cuda/run_gpu.py --out $(BUILD)/cuda tests/litmus/ptx tests/litmus/ptx75 tests/gallery

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) -lcmocka

$(TOOL_BIN): $(BUILD)/%: tests/tools/%.c $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) $(TOOL_LIBS)

$(BUILD)/graph_layout: TOOL_LIBS = $(GRAPHVIZ_LIBS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

clean:
	rm -rf $(BUILD) build-asan build-fuzz

# Address and undefined-behaviour sanitizers, in build-asan/; gpubmc there
# keeps libstdc++ shared, so that the sanitizer runtime's operator new rules.
sanitize:
	$(MAKE) BUILD=build-asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" LDLIBS="$(LDLIBS) -fsanitize=address,undefined" \
		GPUBMC_LDLIBS="$(LDLIBS) -fsanitize=address,undefined"

# Builds everything and runs every correctness group, each timed; ends with
# "N passed, N failed".  GROUP=name runs that group (or the groups whose name contains it)
# (python3 tests/run_tests.py --list names them).
test: deps
	$(MAKE) all $(UNIT_BIN) $(TOOL_BIN)
	BUILD=$(BUILD) python3 tests/run_tests.py $(if $(GROUP),-k $(GROUP))

# make test's groups and the long sweeps: nvcc over every emitted program,
# 10,000 more random programs, 5,000 more fragment programs, then
# FUZZ_SECONDS of fuzzing (default here 300).  Ends with the runner's summary
# and the fuzzer's verdict.
check-all: deps
	$(MAKE) all $(UNIT_BIN) $(TOOL_BIN)
	BUILD=$(BUILD) python3 tests/run_tests.py --all
	rm -rf $(FUZZ_BUILD)/crashes
	$(MAKE) fuzz FUZZ_SECONDS=$(CHECK_ALL_FUZZ_SECONDS)
	@test -z "$$(ls -A $(FUZZ_BUILD)/crashes 2>/dev/null)" || { echo "fuzz: inputs kept in $(FUZZ_BUILD)/crashes"; exit 1; }

CHECK_ALL_FUZZ_SECONDS ?= 300

# Scores a Dat3M checkout of your own: DAT3M=DIR holds litmus/ and
# dartagnan/src/test/resources/*-expected.csv (tests/conformance.py).
conformance: all
	@test -n "$(DAT3M)" || { echo "usage: make conformance DAT3M=/path/to/Dat3M"; exit 2; }
	python3 tests/conformance.py --bin $(BUILD)/gpubmc --dat3m $(DAT3M)

# Installs the Debian packages the build needs, when some are missing.
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# Set-up for a newcomer: dependencies, build, and a first run on bundled examples.
example: deps
	$(MAKE) all
	$(BUILD)/gpubmc --model ptx-v6.0 $(EXAMPLES); test $$? -le 20

install: all
	install -D -m 755 $(BUILD)/gpubmc $(DESTDIR)$(PREFIX)/bin/gpubmc
	install -D -m 644 bmc/driver/gpubmc.1 $(DESTDIR)$(PREFIX)/share/man/man1/gpubmc.1

# The whole corpus through the sanitizer build: any report is a failure.
corpus-sanitize: sanitize
	python3 tests/corpus_sanitize.py build-asan/gpubmc

# Speed: the whole corpus in one batch run, the Vulkan liveness suites as
# five runs and as one all-models batch, then the generated families.
# DARTAGNAN=PATH (dartagnan.sh or its directory) adds every suite side by
# side with Dartagnan's batch mode in CPU time; DARTAGNAN_SAMPLE=N draws at
# most N checks per suite (seeded; the full run takes hours), and
# DARTAGNAN_RANDOM=N adds N random programs of tests/random.
bench: all
	python3 tests/bench.py
	python3 tests/bench/graphs.py --bin $(BUILD)/gpubmc
	python3 tests/bench/liveness_batch.py --bin $(BUILD)/gpubmc
	python3 tests/bench/strong_batch.py --bin $(BUILD)/gpubmc
	python3 tests/bench/run_families.py --bin $(BUILD)/gpubmc
	python3 tests/bench/refinement.py --bin $(BUILD)/gpubmc
	python3 tests/bench/opencl_batch.py --bin $(BUILD)/gpubmc
	python3 tests/bench/dartagnan_suites.py --bin $(BUILD)/gpubmc $(if $(DARTAGNAN),--dartagnan $(DARTAGNAN)) $(if $(DARTAGNAN_SAMPLE),--sample $(DARTAGNAN_SAMPLE)) $(if $(DARTAGNAN_RANDOM),--random $(DARTAGNAN_RANDOM))
	python3 tests/bench/cat_cost.py --bin $(BUILD)/gpubmc
	python3 tests/bench/limit.py --bin $(BUILD)/gpubmc

# Random cross-check (tests/random): N generated programs from SEED (default:
# a random seed, printed), SAT engine vs oracle vs --no-symmetry; failing
# programs are kept in build/crosscheck-failures.
N ?= 10000
crosscheck: all
	python3 tests/random/crosscheck.py -n $(N) $(if $(SEED),--seed $(SEED))

# Fuzzing with clang's libFuzzer, ASan and UBSan (build in build-fuzz/):
# tests/fuzz/fuzz_check.c parses and checks mutated litmus texts and SPIR-V
# assembly, seeded from tests/litmus, the own SPIR-V kernels and error cases
# (tests/spirv) and FUZZ_GEN_SEEDS programs of tests/random/gen.py, for
# FUZZ_SECONDS in FUZZ_JOBS processes; inputs that crash,
# time out or run out of memory are saved in build-fuzz/crashes/.  clang is
# installed (with the deps mechanism) only for this target.
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
FUZZ_GEN_SEEDS ?= 200
FUZZ_DEB_PACKAGES = clang libclang-rt-dev
FUZZ_BUILD = build-fuzz
FUZZ_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined

fuzz-deps:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(FUZZ_DEB_PACKAGES)"

$(FUZZ_BUILD)/fuzz_check: tests/fuzz/fuzz_check.c $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJ) $(LDLIBS)

fuzz: fuzz-deps
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=clang CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" $(FUZZ_BUILD)/fuzz_check
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/seeds $(FUZZ_BUILD)/crashes
	@for f in $$(find tests/litmus -name '*.litmus') $$(find tests/spirv -name '*.spvasm'); do \
		cp $$f $(FUZZ_BUILD)/seeds/$$(echo $$f | tr / _); done
	@if [ "$(FUZZ_GEN_SEEDS)" -gt 0 ]; then python3 tests/random/gen.py --seed 1 --count $(FUZZ_GEN_SEEDS) --out $(FUZZ_BUILD)/seeds; fi
	$(FUZZ_BUILD)/fuzz_check -dict=tests/fuzz/litmus.dict -max_total_time=$(FUZZ_SECONDS) \
		-max_len=8192 -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
		-fork=$(FUZZ_JOBS) -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		-artifact_prefix=$(FUZZ_BUILD)/crashes/ $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/seeds

# nx — build, test, study, bench, install.  `make help` lists the targets.
#
# Sources are found by globbing, so adding a file under common/, cmd/<tool>/ or
# test/unit/ needs no edit here.  Objects go to $(BUILD)/obj, binaries to
# $(BUILD)/bin.  The ASan/UBSan build lives in its own tree (build-asan).

BUILD    ?= build
# One spelling per build tree: the Bats suites call make with an absolute
# BUILD, and objects made under one spelling carry header dependencies the
# other spelling's rules never see (a changed header would not rebuild them).
override BUILD := $(patsubst $(CURDIR)/%,%,$(abspath $(BUILD)))
PREFIX   ?= /usr/local
CXX      ?= g++
# No debug info by default: it costs a third of the build (test_importers.cpp:
# 25 s with -g, 13 s without); make OPT='-O2 -g' for gdb.  The ASan build has it.
OPT      ?= -O2
SAN      ?=
CXXFLAGS ?=
LDFLAGS  ?=

# Every cmd/<tool>/main.cpp is a tool.
TOOLS    := $(patsubst cmd/%/main.cpp,%,$(sort $(wildcard cmd/nx-*/main.cpp)))
# Warnings are errors for developers and CI (make test, make test-asan, and
# WERROR=-Werror), not for a user's `make study` or `make install`: a newer
# compiler's new warning must not stop them.
WERROR   ?=
NX_CXXFLAGS = -std=c++20 -Wall -Wextra $(WERROR) -pthread -I. $(OPT) $(SAN) -MMD -MP $(CXXFLAGS)
NX_LIBS  := -lsqlite3 -lre2 -lz -lsnappy -lzstd -llz4 -lbrotlidec -lboost_program_options -lpthread -ldl
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

COMMON_SRC := $(shell find common -name '*.cpp' | sort)
COMMON_OBJ := $(COMMON_SRC:%.cpp=$(BUILD)/obj/%.o)
UNIT_SRC   := $(sort $(wildcard test/unit/*.cpp))
UNIT_OBJ   := $(UNIT_SRC:%.cpp=$(BUILD)/obj/%.o)
BENCH_SRC  := $(sort $(wildcard test/bench/*.cpp))
BENCH_BIN  := $(BENCH_SRC:test/bench/%.cpp=$(BUILD)/bin/bench-%)
# Helper programs of the Bats suites: test/tools/NAME.cpp -> $(BUILD)/bin/test-NAME.
TOOL_SRC   := $(sort $(wildcard test/tools/*.cpp))
TOOL_BIN   := $(TOOL_SRC:test/tools/%.cpp=$(BUILD)/bin/test-%)
BIN        := $(TOOLS:%=$(BUILD)/bin/%)

.PHONY: all deps test test-unit test-asan bench bench-scale bench-ranks bench-sessions bench-kineto bench-commit install clean help study \
        calibrate fuzz
.DEFAULT_GOAL := all
.SECONDARY:

all: $(BIN) $(BENCH_BIN) $(if $(UNIT_SRC),$(BUILD)/bin/nx-unit) $(TOOL_BIN)

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(CXX) $(NX_CXXFLAGS) -c $< -o $@

# The version is compiled into one file, which a new VERSION rebuilds.
$(BUILD)/obj/common/io/version.o: common/io/version.cpp VERSION
	@mkdir -p $(@D)
	$(CXX) $(NX_CXXFLAGS) -DNX_VERSION='"$(VERSION)"' -c $< -o $@

$(BUILD)/libnx.a: $(COMMON_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/bin/%: $(BUILD)/obj/cmd/%/main.o $(BUILD)/libnx.a
	@mkdir -p $(@D)
	$(CXX) $(NX_CXXFLAGS) $< $(BUILD)/libnx.a $(NX_LIBS) $(LDFLAGS) -o $@

$(BUILD)/bin/nx-unit: $(UNIT_OBJ) $(BUILD)/libnx.a
	@mkdir -p $(@D)
	$(CXX) $(NX_CXXFLAGS) $(UNIT_OBJ) $(BUILD)/libnx.a -lgtest -lgtest_main $(NX_LIBS) $(LDFLAGS) -o $@

# Benchmark programs: test/bench/NAME.cpp -> $(BUILD)/bin/bench-NAME.
$(BUILD)/bin/bench-%: $(BUILD)/obj/test/bench/%.o $(BUILD)/libnx.a
	@mkdir -p $(@D)
	$(CXX) $(NX_CXXFLAGS) $< $(BUILD)/libnx.a $(NX_LIBS) $(LDFLAGS) -o $@

$(BUILD)/bin/test-%: $(BUILD)/obj/test/tools/%.o $(BUILD)/libnx.a
	@mkdir -p $(@D)
	$(CXX) $(NX_CXXFLAGS) $< $(BUILD)/libnx.a $(NX_LIBS) $(LDFLAGS) -o $@

# The suite: C++ unit tests, then the Bats suites; the last line counts both.
# Built with warnings as errors (and so everything it builds first).
# The developer's loop: TESTS names Bats files (only those run, no unit
# tests); make test-unit runs the unit tests only, FILTER a gtest filter.
TESTS  ?=
FILTER ?=
test test-unit: WERROR = -Werror
# Built in parallel (one job per core: BUILD_JOBS, pipelines/study.mk)
# unless make was given -j: CI runs a plain `make test`, which built one file
# at a time.
test: deps
	@$(MAKE) --no-print-directory $(BUILD_JOBS) all WERROR=$(WERROR)
	@NX_BIN=$(abspath $(BUILD)/bin) $(if $(TESTS),NX_UNIT=0 NX_BATS="$(TESTS)",$(if $(SUITE_BATS),NX_BATS="$(SUITE_BATS)")) test/run

test-unit: $(BUILD)/bin/nx-unit
	@NX_BIN=$(abspath $(BUILD)/bin) NX_BATS=none NX_GTEST_FILTER="$(FILTER)" test/run

# Built with clang: its ignore list keeps a known UB in RapidJSON 1.1's
# header out of the report (test/sanitizer-ignore.txt) while our code stays
# fully checked; GCC has no ignore lists.
# Every unit test runs under the sanitizers, and the Bats files that feed the
# tools the most varied and hostile input: every importer and format (real
# samples, malformed and hostile files, drifted schemas, Parquet, traces,
# device streams), the database, queries and reports.  The other files drive
# the same C++ through make, Slurm, nx-run's fakes, the man pages and the
# dataset's kill sweeps, where what differs is the orchestration; they run
# in make test, and under the sanitizers with ASAN_TESTS=all.
ASAN_TESTS ?= test/00-cli.bats test/01-layers.bats test/02-make.bats test/03-assertions.bats \
              test/10-convert.bats test/11-convert-malformed.bats test/12-parquet.bats \
              test/13-chrome-traces.bats test/14-explorer-viewer.bats test/15-todays-sdk.bats \
              test/16-real-profiles.bats test/17-device-streams.bats test/20-query.bats \
              test/30-report.bats test/31-regions.bats test/32-bounds.bats test/50-trace.bats \
              test/70-robustness.bats test/71-hostile.bats test/75-drift-and-sessions.bats
test-asan:
	NX_SANITIZED=1 $(MAKE) BUILD=build-asan CXX=clang++ OPT='-O1 -g -fno-omit-frame-pointer' \
	    SAN='-fsanitize=address,undefined -fno-sanitize-recover=undefined \
	         -fsanitize-ignorelist=test/sanitizer-ignore.txt -Wno-ambiguous-reversed-operator' \
	    SUITE_BATS="$(filter-out all,$(ASAN_TESTS))" test

# Only the tools: a user's install needs no test framework.
install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/man/man7 $(DESTDIR)$(PREFIX)/share/nx/queries/dataset
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 man/*.7 $(DESTDIR)$(PREFIX)/share/man/man7/
	install -m 644 queries/*.sql $(DESTDIR)$(PREFIX)/share/nx/queries/
	install -m 644 queries/dataset/*.sql $(DESTDIR)$(PREFIX)/share/nx/queries/dataset/
	install -m 644 cmd/nx-run/neuron_driver.py common/model/calibration.jsonl $(DESTDIR)$(PREFIX)/share/nx/

clean:
	rm -rf build build-asan build-fuzz out/bench

help:
	@echo "nx make targets"
	@echo "  all          build the tools ($(TOOLS)) and the unit tests into $(BUILD)/bin"
	@echo "  deps         install missing Debian packages: to build, and to test (needs root or sudo)"
	@echo "  deps-build   only those needed to build the tools and run the studies"
	@echo "  test         deps + build (warnings are errors) + unit tests + Bats suites; last line 'N passed, N failed'"
	@echo "               one Bats file: make test TESTS=test/12-parquet.bats"
	@echo "  test-unit    the C++ unit tests only (FILTER='SniffFormat.*' for some)"
	@echo "  test-asan    unit tests and the input-facing Bats files built with AddressSanitizer and UBSan (build-asan/; ASAN_TESTS=all: every file)"
	@echo "  dataset      a capture tree into a Parquet dataset by scheduler tasks, then the cross-rank report (CAPTURE=DIR DATASET=DIR SCHEDULER=local|slurm)"
	@echo "  bench        benchmarks with same-run baselines; records in out/bench/bench.jsonl"
	@echo "  bench-scale  the cluster-scale figures: RANKS x EVENTS through make dataset, local and Slurm (BENCH_QUICK=1: small)"
	@echo "  bench-ranks  the ranks page of RANKS=1024 generated ranks: size, Chromium's time, first screen, screenshots"
	@echo "  bench-sessions a session of E=2000 executions x N=10000000 instructions and DMA packets against one execution"
	@echo "  bench-kineto RANKS=1024 generated GPU (Kineto) ranks through make dataset: time, peak RSS, the straggler"
	@echo "  bench-commit make dataset stopped RUNS=100 times at random (SIGKILL, SIGTERM, a full disk), rerun, every reader checked"
	@echo "  install      the tools, man pages and queries under PREFIX=$(PREFIX) (builds no tests)"
	@echo "  clean        remove build trees"
	@echo "  study        both studies (matmul, patterns) on BACKEND/TARGET: out/<study>/report.md"
	@echo "  study-matmul, study-patterns   one study"
	@echo "  study-nightly  both studies, the workloads re-run every time, GATE checked against HISTORY (cron)"
	@echo "  calibrate    the sim model against public measurements"
	@echo "  calibrate-check  fail when a calibration point drifts from where the last fit left it"
	@echo "  bench-model  the sim model's speed (simulated instructions per second) and the NKI tutorial matmul"
	@echo "  lnc-compare  each physical core's engine busy time and waits in an LNC=2 profile (PROFILE=F) beside the model's"
	@echo "  fuzz         libFuzzer targets for FUZZ_SECONDS each"
	@$(MAKE) --no-print-directory study-help

# study.mk defines the stage macros the study fragments use: it comes first.
include pipelines/deps.mk pipelines/study.mk
include $(filter-out pipelines/deps.mk pipelines/study.mk,$(sort $(wildcard pipelines/*.mk)))
-include $(COMMON_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(BENCH_SRC:%.cpp=$(BUILD)/obj/%.d) $(TOOL_SRC:%.cpp=$(BUILD)/obj/%.d) $(TOOLS:%=$(BUILD)/obj/cmd/%/main.d)

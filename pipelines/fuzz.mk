# make fuzz FUZZ_SECONDS=N: builds the libFuzzer targets (test/fuzz/fuzz_*.cpp)
# with clang, ASan and UBSan into build-fuzz/, and runs each for N seconds on
# its seed corpus (test/fuzz/corpus/<target>/).  Crashes land in
# build-fuzz/crashes/<target>/ (emptied at the start of each run) and fail the
# run; copy them into test/fuzz/corpus/<target>/ as regression inputs, which
# every later run replays first (and add a unit test).
FUZZ_SECONDS ?= 60
FUZZ_SRC     := $(sort $(wildcard test/fuzz/fuzz_*.cpp))
FUZZ_BIN     := $(FUZZ_SRC:test/fuzz/%.cpp=build-fuzz/bin/%)
# RapidJSON 1.1 iterators trip clang's C++20 reversed-operator warning (a header issue).
FUZZ_FLAGS   := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -O1 -g \
                -Wno-ambiguous-reversed-operator -fsanitize-ignorelist=test/sanitizer-ignore.txt

.PHONY: fuzz fuzz-build
fuzz-build:
	$(MAKE) --no-print-directory BUILD=build-fuzz CXX=clang++ OPT='$(FUZZ_FLAGS)' build-fuzz/libnx.a
	$(MAKE) --no-print-directory $(FUZZ_BIN)

build-fuzz/bin/fuzz_%: test/fuzz/fuzz_%.cpp build-fuzz/libnx.a
	@mkdir -p $(@D)
	clang++ -std=c++20 -I. -Wno-ambiguous-reversed-operator -fsanitize-ignorelist=test/sanitizer-ignore.txt \
	    -fsanitize=fuzzer,address,undefined -O1 -g $< build-fuzz/libnx.a $(NX_LIBS) -o $@

fuzz: fuzz-build
	@status=0; for t in $(FUZZ_BIN); do \
	    name=$$(basename $$t); mkdir -p build-fuzz/crashes/$$name build-fuzz/corpus/$$name; \
	    rm -f build-fuzz/crashes/$$name/*; \
	    cp -n test/fuzz/corpus/$$name/* build-fuzz/corpus/$$name/ 2>/dev/null; \
	    echo "fuzz: $$name for $(FUZZ_SECONDS)s"; \
	    $$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	        -artifact_prefix=build-fuzz/crashes/$$name/ build-fuzz/corpus/$$name 2>build-fuzz/$$name.log || status=1; \
	    grep -E '^(#[0-9]+.*(DONE|pulse)|Done [0-9]+ runs)' build-fuzz/$$name.log | tail -n 1; \
	    ls build-fuzz/crashes/$$name | sed "s|^|  crash: build-fuzz/crashes/$$name/|"; \
	done; exit $$status

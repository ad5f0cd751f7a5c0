# make bench: every benchmark, baselines in the same run (test/bench/run).
#   BENCH_EVENTS="1000000 5000000"  event counts for ingest   BENCH_QUICK=1  small sizes
bench: all $(BENCH_BIN)
	@NX_BIN=$(abspath $(BUILD)/bin) test/bench/run

# make bench: every benchmark, baselines in the same run (test/bench/run).
#   BENCH_EVENTS="1000000 5000000"  event counts for ingest   BENCH_QUICK=1  small sizes
#   BENCH_ONLY=parquet  only the Neuron Explorer Parquet part (N Instruction + N DmaPacket rows,
#   written at bench time by DuckDB through node: NX_NPM_DIR=/work/npm-fixtures holding
#   `npm install @duckdb/node-api@1.5.6-r.1`; without node or the package that part is skipped)
bench: all $(BENCH_BIN)
	@NX_BIN=$(abspath $(BUILD)/bin) test/bench/run

# make bench-scale: a training job's profiles through make dataset (local with
# 1 and 2 workers, and Slurm on a one-node cluster), a task's memory, the
# dataset against SQLite, DuckDB against nx-query (test/bench/scale).
#   RANKS=1024 EVENTS=100000 SUBSET=64; BENCH_QUICK=1 for 64 ranks of 10000
bench-scale: all
	@NX_BIN=$(abspath $(BUILD)/bin) test/bench/scale

# make bench-ranks: the ranks page (make dataset's ranks.html) of 8 and
# RANKS=1024 generated ranks: its size, Chromium's time to load and lay it
# out, the straggler on the first screen, nothing wider than 1280 px, and
# screenshots in out/bench/ranks (test/bench/ranks_page; part of make bench).
bench-ranks: all
	@NX_BIN=$(abspath $(BUILD)/bin) test/bench/ranks_page

# make bench-sessions: a Neuron Explorer session of E=2000 executions of
# N=10000000 instructions and as many DMA packets (20M events) through
# nx-convert --db, against the same events as one execution and against a
# tenth of both (test/bench/sessions; needs node and @duckdb/node-api).
bench-sessions: all
	@NX_BIN=$(abspath $(BUILD)/bin) test/bench/sessions

# make bench-commit: make dataset stopped RUNS times at random points
# (SIGKILL, SIGTERM, a full disk on a small tmpfs), each rerun, and every
# reader's view checked against the others and the plan (test/bench/commit_kills);
# then a conversion killed at every one of its renames and removals (the
# suite kills it at a sample of them: test/74-dataset-safety.bats).
RUNS ?= 100
bench-commit: all
	@NX_BIN=$(abspath $(BUILD)/bin) test/bench/commit_kills $(RUNS) out/bench/commit
	@NX_BIN=$(abspath $(BUILD)/bin) NX_COMMIT_EVERY_POINT=1 bats --filter 'SIGKILL at renames' test/74-dataset-safety.bats

# make bench-kineto: a GPU job's PyTorch profiler traces, RANKS=1024 ranks
# of STEPS=8 steps of KERNELS=100 kernels and an ncclDevKernel all-reduce
# each, one straggler, through make dataset: time and the largest task's
# peak RSS against one rank alone, memory per trace byte against HTA's
# documented 4.75, and the straggler named (test/bench/kineto_ranks).
bench-kineto: all
	@NX_BIN=$(abspath $(BUILD)/bin) test/bench/kineto_ranks

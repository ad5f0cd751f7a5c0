# make study: the two studies our users run (matmul latency, vmap/scan/for-loop),
# as real Make stages: re-running does nothing when up to date, -j runs the
# studies side by side, and changing a variable re-runs what it affects.
#
#   out/<study>/config          the variables this study ran with
#   out/<study>/report-config   the report's own options (SEQ_DIST, BUCKETS)
#   out/<study>/workloads.jsonl nx-run --plan
#   out/<study>/runs.jsonl      nx-run on BACKEND/TARGET
#   out/<study>/captures.jsonl  nx-capture (profiles in out/<study>/profiles/)
#   out/<study>/study.db        nx-convert --db
#   out/<study>/report.md       nx-report (the study's answers, then its profiles)
#   out/<study>/report.html     the same report with charts, one offline page
#   out/<study>/history.stamp   runs appended to HISTORY (after the GATE check)
# plus out/matmul/matmul.csv (the seed profiler's columns).
#
# make study-nightly (what cron runs) is make study with NIGHTLY=1: the runs
# re-execute every time, so everything after them follows, the GATE is checked
# against HISTORY and the runs appended; the stages before the runs stay
# incremental.  With no history for a study yet, its runs pass as the baseline.

OUT      ?= out
BACKEND  ?= sim
# Empty: the backend's own default target (nx-run(1): trn2; cpu for BACKEND=cpu).
TARGET   ?=
TARGET_OPT = $(if $(TARGET),--target $(TARGET))
# Empty: the target's own logical core (nx-run --lnc: 2 on trn2 and trn3, 1 on trn1 and inf2).
LNC      ?=
LNC_OPT    = $(if $(LNC),--lnc $(LNC))
WARMUP   ?= 5
TIMED    ?= 20
HISTORY  ?= $(OUT)/history.db
GATE     ?=
NIGHTLY  ?=
NX       := $(BUILD)/bin
# On a cluster: the runs and captures of BACKEND=neuron spread over the nodes
# of the Slurm allocation make runs in (salloc/sbatch -N K: K nodes, one device
# each), merged back in order (pipelines/shard); the database, report and
# history are made once, here.  NODES=1: everything on this node.
NODES    ?= $(if $(filter neuron,$(BACKEND)),$(SLURM_JOB_NUM_NODES))
# Where nx-run --backend neuron keeps the NEFFs it compiles (its own default),
# which nx-convert then reads beside the study's profiles: on a cluster, a
# directory every node sees (a shared home, or NEURON_CACHE=/fsx/...).
NEURON_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/nx/neuron
RUN_OPTS      = $(if $(filter neuron,$(BACKEND)),--cache-dir $(NEURON_CACHE))
CONVERT_ROOTS = --root $(OUT) $(if $(filter neuron,$(BACKEND)),--root $(NEURON_CACHE))
# $(call shard,STUDY,STAGE): the command prefix that shards a stage, or nothing.
shard     = $(if $(filter-out 0 1,$(or $(NODES),1)),pipelines/shard $(NODES) $(OUT)/$(1)/shards/$(2))

.PHONY: study study-all study-nightly study-matmul study-patterns study-help FORCE

# The studies need the tools only (not the unit tests, nor their packages),
# built in parallel unless make was given -j (its jobs are then shared).
NPROC      := $(shell nproc 2>/dev/null || echo 2)
BUILD_JOBS  = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

study: deps-build
	@$(MAKE) --no-print-directory $(BUILD_JOBS) $(BIN)
	@$(MAKE) --no-print-directory study-all
study-nightly: deps-build
	@$(MAKE) --no-print-directory $(BUILD_JOBS) $(BIN)
	@$(MAKE) --no-print-directory study-all NIGHTLY=1
FORCE:

study-all: study-matmul study-patterns
	@echo "studies written under $(OUT)/: matmul/report.md (and .html), matmul/matmul.csv, patterns/report.md (and .html)"

# $(call settings_file,FILE,SETTINGS): FILE changes only when the settings
# do, so the stages after it re-run only then.
define settings_file
$(1): FORCE
	@mkdir -p $$(@D)
	@printf '%s\n' $(2) >$$@.new
	@if cmp -s $$@.new $$@; then rm -f $$@.new; else mv $$@.new $$@; fi
endef

# $(call study_config,STUDY,SETTINGS): the variables the study's runs depend on.
study_config = $(call settings_file,$(OUT)/$(1)/config,$(2))

# $(call study_stages,STUDY,NX-RUN STUDY OPTIONS,NX-REPORT OPTIONS,FILES THE REPORT READS)
# Report options live in their own settings file: changing them re-renders
# the report without re-running the workloads.
define study_stages
$(call settings_file,$(OUT)/$(1)/report-config,"REPORT=$(3)")

$(OUT)/$(1)/workloads.jsonl: $(OUT)/$(1)/config $(NX)/nx-run
	$(NX)/nx-run --study $(1) $(2) --backend $(BACKEND) $(TARGET_OPT) $(LNC_OPT) --plan >$$@.tmp && mv $$@.tmp $$@

$(OUT)/$(1)/runs.jsonl: $(OUT)/$(1)/workloads.jsonl $(if $(NIGHTLY),FORCE)
	$(call shard,$(1),run) $(NX)/nx-run --backend $(BACKEND) $(TARGET_OPT) $(LNC_OPT) $(RUN_OPTS) --warmup $(WARMUP) --timed $(TIMED) <$$< >$$@.tmp && mv $$@.tmp $$@

$(OUT)/$(1)/captures.jsonl: $(OUT)/$(1)/runs.jsonl $(NX)/nx-capture
	$(call shard,$(1),capture) $(NX)/nx-capture --dir $(OUT)/$(1)/profiles <$$< >$$@.tmp && mv $$@.tmp $$@

$(OUT)/$(1)/study.db: $(OUT)/$(1)/captures.jsonl $(NX)/nx-convert
	@rm -f $$@.tmp $$@.tmp-wal $$@.tmp-shm
	$(NX)/nx-convert $(CONVERT_ROOTS) --db $$@.tmp <$$< >/dev/null && mv $$@.tmp $$@

$(OUT)/$(1)/report.md: $(OUT)/$(1)/runs.jsonl $(OUT)/$(1)/study.db $(OUT)/$(1)/report-config $(4) $(NX)/nx-report
	$(NX)/nx-report $(OUT)/$(1)/runs.jsonl --db $(OUT)/$(1)/study.db $(3) --format markdown -o $$@

$(OUT)/$(1)/report.html: $(OUT)/$(1)/runs.jsonl $(OUT)/$(1)/study.db $(OUT)/$(1)/report-config $(4) $(NX)/nx-report
	$(NX)/nx-report $(OUT)/$(1)/runs.jsonl --db $(OUT)/$(1)/study.db $(3) --format html -o $$@

# Gate against the history first (yesterday's runs), then append today's: a
# regressed night stops here, so the last good night stays the baseline.  The
# first night (no history, or none for these runs) passes and says so.
$(OUT)/$(1)/history.stamp: $(OUT)/$(1)/runs.jsonl
	@if [ -n "$(GATE)" ]; then \
	    $(NX)/nx-report $(OUT)/$(1)/runs.jsonl --baseline $(HISTORY) --first-run-ok --fail-on '$(GATE)' --format text; \
	fi
	$(NX)/nx-convert $(CONVERT_ROOTS) --db $(HISTORY) <$$< >/dev/null
	@touch $$@

study-$(1): $(OUT)/$(1)/report.md $(OUT)/$(1)/report.html $(OUT)/$(1)/history.stamp
endef

study-help:
	@echo "Study variables (make study VAR=value ...):"
	@echo "  BACKEND=sim|cpu|neuron   where the workloads run (default sim: predictions)"
	@echo "  TARGET=trn1|inf2|trn2|trn3 (default trn2; cpu for BACKEND=cpu)"
	@echo "  LNC=1|2                  physical cores per logical core (default: the target's: 2 on trn2, trn3)"
	@echo "  WARMUP=5 TIMED=20        untimed and timed executions per workload"
	@echo "  OUT=out                  where the studies write"
	@echo "  HISTORY=out/history.db   run history the studies append to"
	@echo "  GATE='latency_us.median>5%'  stop make (it exits 2; nx-report exits 3) when runs regressed against HISTORY"
	@echo "  NODES=K                  inside a Slurm allocation: spread the runs and captures over K nodes"
	@echo "                           (default with BACKEND=neuron: the allocation's SLURM_JOB_NUM_NODES)"
	@echo "  NEURON_CACHE=~/.cache/nx/neuron  where BACKEND=neuron keeps its NEFFs (shared by every node on a cluster)"
	@echo "  NIGHTLY=1                re-run the workloads even when up to date (make study-nightly sets it)"
	@echo "  matmul: MODE=sweep|tiling|llm MODEL=llama-3-8b TP=1 BATCH= SEQ= M= K= N= DTYPE= SEQ_DIST=file BUCKETS=4"
	@echo "          DTYPE: bf16, fp16, fp32, fp8; mxfp8, mxfp4 on trn3 (TARGET=trn3 DTYPE=mxfp8)"
	@echo "  patterns: PATTERNS=vmap,scan,for_loop,for_loop_launch SIZES=small,medium,large ITERATIONS=3 PBATCH=32 FEATURES=128"

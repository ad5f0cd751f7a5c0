# make dataset: every profile of a capture tree converted into one Parquet
# dataset by scheduler tasks, then the cross-rank report from it (the reduce).
#
#   make dataset CAPTURE=/fsx/job42/profiles DATASET=/fsx/job42/dataset            # on this machine
#   make dataset CAPTURE=... DATASET=... SCHEDULER=slurm                           # as a Slurm array job
#
# The work is pipelines/dataset's (the settings below reach it in its
# environment, so paths with spaces or quotes stay whole):
#   DATASET/_nx/plan.tsv    nx-convert --plan: every profile with its rank
#   DATASET/<table>/...     the dataset (nx(7) DATASET), written by the tasks
#   DATASET/_nx/logs/<run>/ each task's log, a folder per run of make dataset
#                           (Slurm: task-<i>.log, reduce.log)
#   DATASET/ranks.html      the reduce: nx-convert --repair, then nx-report DATASET --ranks
# and the rest of DATASET/_nx is the dataset's own bookkeeping
# (common/dataset/dataset_folder.h).
#
# Tasks: PER_TASK profiles each (at least as many as keep the array within
# Slurm's MaxArraySize of 1001 tasks), JOBS of them at once (xargs -P
# locally; the array's %JOBS throttle on Slurm).  A task writes on a
# second thread only where it has a second CPU: locally NPROC over the tasks
# that run at once (JOBS, or fewer tasks), on Slurm the CPUs the task was
# given (nx-convert --threads).  The reduce runs whatever happened to the
# tasks (Slurm: afterany, never a bare afterok, which waits for ever when a
# task fails): it finishes what killed tasks left, then checks the dataset
# against the plan: a profile a task could not convert is named with the
# command that converts only the missing ones, and make fails.  Running make
# dataset again converts only what is missing.

CAPTURE   ?=
DATASET   ?= $(OUT)/dataset
SCHEDULER ?= local
JOBS      ?= $(NPROC)
PER_TASK  ?= 8
# Extra sbatch options (partition, account, time limit), e.g. SBATCH='-p trn2 -t 1:00:00'.
SBATCH    ?=
MAX_ARRAY := 1000

.PHONY: dataset dataset-help

dataset-help:
	@echo "make dataset CAPTURE=DIR DATASET=DIR [SCHEDULER=local|slurm] [JOBS=$(JOBS)] [PER_TASK=$(PER_TASK)] [SBATCH='...']"

# $(call shell_quoted,TEXT): TEXT as one word of the shell, whatever it holds.
shell_quoted = '$(subst ','\'',$(1))'

dataset: deps-build
	@$(MAKE) --no-print-directory $(BUILD_JOBS) $(BIN)
	@NX=$(call shell_quoted,$(NX)) CAPTURE=$(call shell_quoted,$(CAPTURE)) DATASET=$(call shell_quoted,$(DATASET)) \
	    SCHEDULER=$(call shell_quoted,$(SCHEDULER)) JOBS=$(call shell_quoted,$(JOBS)) \
	    PER_TASK=$(call shell_quoted,$(PER_TASK)) NPROC=$(NPROC) MAX_ARRAY=$(MAX_ARRAY) \
	    SBATCH=$(call shell_quoted,$(SBATCH)) pipelines/dataset

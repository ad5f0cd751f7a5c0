# make dataset: every profile of a capture tree converted into one Parquet
# dataset by scheduler tasks, then the cross-rank report from it (the reduce).
#
#   make dataset CAPTURE=/fsx/job42/profiles DATASET=/fsx/job42/dataset            # on this machine
#   make dataset CAPTURE=... DATASET=... SCHEDULER=slurm                           # as a Slurm array job
#
#   DATASET/_nx/plan.tsv   nx-convert --plan: every profile with its rank
#   DATASET/<table>/...    the dataset (nx(7) DATASET), written by the tasks
#   DATASET/_nx/done/<n>   plan entry n converted (a re-run skips it)
#   DATASET/_nx/at/<id>    the partition a profile is in (its conversion at
#                          another rank removes the files there)
#   DATASET/_nx/logs/      each task's log (Slurm: task-<i>.log, reduce.log)
#   DATASET/ranks.html     the reduce: nx-report DATASET --ranks
#
# Tasks: PER_TASK profiles each (at least as many as keep the array within
# Slurm's MaxArraySize of 1001 tasks), JOBS of them at once (make -j / xargs
# -P locally; the array's %JOBS throttle on Slurm).  A task writes on a
# second thread only where it has a second CPU: locally NPROC over the tasks
# that run at once (JOBS, or fewer tasks), on Slurm the CPUs the task was
# given (nx-convert --threads).  The reduce runs whatever happened to the
# tasks (Slurm: afterany, never a bare afterok, which waits for ever when a
# task fails) and checks the dataset against the plan: a profile a task
# could not convert is named with the command that converts only the
# missing ones, and make fails.  Running make dataset again converts only
# what is missing.

CAPTURE   ?=
DATASET   ?= $(OUT)/dataset
SCHEDULER ?= local
JOBS      ?= $(NPROC)
PER_TASK  ?= 8
# Extra sbatch options (partition, account, time limit), e.g. SBATCH='-p trn2 -t 1:00:00'.
SBATCH    ?=
MAX_ARRAY := 1000

.PHONY: dataset dataset-plan dataset-help

dataset-help:
	@echo "make dataset CAPTURE=DIR DATASET=DIR [SCHEDULER=local|slurm] [JOBS=$(JOBS)] [PER_TASK=$(PER_TASK)] [SBATCH='...']"

dataset-plan: deps-build
	@test -n "$(CAPTURE)" || { echo "make dataset: give CAPTURE=DIR (the capture tree)" >&2; exit 2; }
	@$(MAKE) --no-print-directory $(BUILD_JOBS) $(BIN)
	@mkdir -p $(DATASET)/_nx/logs
	$(NX)/nx-convert --dataset $(DATASET) --plan $(CAPTURE)

# The shell below: the task count from the plan, the tasks, the reduce.
dataset: dataset-plan
	@set -u; \
	profiles=$$(($$(wc -l <$(DATASET)/_nx/plan.tsv) - 1)); \
	per=$(PER_TASK); \
	[ $$(( (profiles + per - 1) / per )) -le $(MAX_ARRAY) ] || per=$$(( (profiles + $(MAX_ARRAY) - 1) / $(MAX_ARRAY) )); \
	tasks=$$(( (profiles + per - 1) / per )); \
	echo "make dataset: $$profiles profiles in $$tasks tasks of $$per on $(SCHEDULER)"; \
	convert="$(abspath $(NX))/nx-convert --dataset $(abspath $(DATASET)) --tasks $$tasks --quiet"; \
	reduce="$(abspath $(NX))/nx-report $(abspath $(DATASET)) --ranks -o $(abspath $(DATASET))/ranks.html"; \
	case "$(SCHEDULER)" in \
	local) \
	    at_once=$(JOBS); [ $$tasks -ge $$at_once ] || at_once=$$tasks; \
	    threads=$$(( $(NPROC) / at_once )); [ $$threads -ge 1 ] || threads=1; \
	    seq 0 $$((tasks - 1)) | xargs -P $(JOBS) -I{} sh -c "$$convert --threads $$threads --task {} >/dev/null 2>$(DATASET)/_nx/logs/task-{}.log" || true; \
	    $$reduce ;; \
	slurm) \
	    logs=$(abspath $(DATASET))/_nx/logs; \
	    job=$$(sbatch --parsable $(SBATCH) --job-name=nx-dataset --array=0-$$((tasks - 1))%$(JOBS) \
	        --output=$$logs/task-%a.log --wrap "$$convert --task \$$SLURM_ARRAY_TASK_ID >/dev/null") || exit 1; \
	    echo "make dataset: array job $$job; the reduce runs after it whatever its tasks did"; \
	    sbatch --parsable --wait $(SBATCH) --job-name=nx-reduce --dependency=afterany:$$job \
	        --output=$$logs/reduce.log --wrap "$$reduce" >/dev/null; status=$$?; \
	    cat $$logs/reduce.log >&2; exit $$status ;; \
	*) echo "make dataset: SCHEDULER is local or slurm (got '$(SCHEDULER)')" >&2; exit 2 ;; \
	esac

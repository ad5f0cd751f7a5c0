# The matmul latency study (shared/reference/seeds/matmul-profiler-README.md).
#   make study-matmul MODE=llm MODEL=llama-3-8b TARGET=trn1 BACKEND=sim
MODE     ?= tiling
MODEL    ?= llama-3-8b
TP       ?= 1
BATCH    ?=
SEQ      ?=
M        ?=
K        ?=
N        ?=
DTYPE    ?=
SEQ_DIST ?=
BUCKETS  ?= 4

MATMUL_RUN_OPTS := --mode $(MODE) $(if $(filter llm,$(MODE)),--model $(MODEL) --tp $(TP)) \
    $(if $(BATCH),--batch $(BATCH)) $(if $(SEQ),--seq $(SEQ)) $(if $(M),--M $(M)) $(if $(K),--K $(K)) \
    $(if $(N),--N $(N)) $(if $(DTYPE),--dtype $(DTYPE))
MATMUL_REPORT_OPTS := $(if $(SEQ_DIST),--seq-dist $(abspath $(SEQ_DIST)) --buckets $(BUCKETS))

$(eval $(call study_config,matmul,"BACKEND=$(BACKEND)" "TARGET=$(TARGET)" "LNC=$(LNC)" "WARMUP=$(WARMUP)" "TIMED=$(TIMED)" \
    "OPTS=$(MATMUL_RUN_OPTS)"))
$(eval $(call study_stages,matmul,$(MATMUL_RUN_OPTS),$(MATMUL_REPORT_OPTS),$(if $(SEQ_DIST),$(abspath $(SEQ_DIST)))))

$(OUT)/matmul/matmul.csv: $(OUT)/matmul/runs.jsonl $(NX)/nx-report
	$(NX)/nx-report $< --format csv -o $@

study-matmul: $(OUT)/matmul/matmul.csv

# The vmap / scan / for-loop hardware study (shared/reference/seeds/pattern-study-summary.md),
# under the study's unified conditions by default.
#   make study-patterns BACKEND=cpu
PATTERNS   ?= vmap,scan,for_loop,for_loop_launch
SIZES      ?= small,medium,large
ITERATIONS ?= 3
PBATCH     ?= 32
FEATURES   ?= 128

PATTERN_RUN_OPTS := --patterns $(PATTERNS) --sizes $(SIZES) --iterations $(ITERATIONS) --batch $(PBATCH) \
    --features $(FEATURES)

$(eval $(call study_config,patterns,"BACKEND=$(BACKEND)" "TARGET=$(TARGET)" "LNC=$(LNC)" "WARMUP=$(WARMUP)" "TIMED=$(TIMED)" \
    "OPTS=$(PATTERN_RUN_OPTS)"))
$(eval $(call study_stages,patterns,$(PATTERN_RUN_OPTS),))

# The sim backend's own targets (common/model, nx-sim(7)).
#   make calibrate          fits the model's free parameters to the calibration points' fit set,
#                           prints every point (published, predicted, error, leave-one-out error),
#                           writes common/model/fitted_params.inc and rebuilds; exits 3 when the
#                           goals of issue 15 are not met
#   make calibrate-check    every point with the compiled-in parameters; exits 3 when a point is
#                           out of its tolerance or drifted from the residual the last fit recorded
#   make bench-model        simulated instructions per second and the NKI tutorial matmul
#                           (JSON lines on stdout, readable lines on stderr)
#   make lnc-compare PROFILE=F
#                           each physical core's engine busy time, semaphore waits and span in
#                           the LNC=2 profile F beside the model's prediction of LNC_WORKLOADS
#                           (nx-sim(7), LNC); by default the QK^T product of a [128 x 512] fp32
#                           attention, as a kernel without a launch grid runs it and sharded
.PHONY: calibrate calibrate-check bench-model lnc-compare

calibrate: $(BUILD)/bin/bench-model_calibrate
	@status=0; $(BUILD)/bin/bench-model_calibrate --fit --write common/model/fitted_params.inc \
	    common/model/calibration.jsonl || status=$$?; \
	$(MAKE) --no-print-directory all >/dev/null && exit $$status

calibrate-check: $(BUILD)/bin/bench-model_calibrate
	$(BUILD)/bin/bench-model_calibrate --check common/model/calibration.jsonl

bench-model: $(BUILD)/bin/bench-model_speed
	$(BUILD)/bin/bench-model_speed

LNC_WORKLOADS ?= '{"name":"qk_nogrid","op":"matmul","M":512,"K":128,"N":512,"dtype":"fp32","target":"trn2","lnc":2,"shard":"none"}' \
                 '{"name":"qk_sharded","op":"matmul","M":512,"K":128,"N":512,"dtype":"fp32","target":"trn2","lnc":2}'
lnc-compare: $(BUILD)/bin/bench-model_cores
	$(BUILD)/bin/bench-model_cores $(if $(PROFILE),--profile $(PROFILE)) $(LNC_WORKLOADS)

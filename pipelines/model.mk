# The sim backend's own targets (common/model, nx-sim(7)).
#   make calibrate          fits the model's free parameters to the calibration points' fit set,
#                           prints every point (published, predicted, error, leave-one-out error),
#                           writes common/model/fitted_params.inc and rebuilds; exits 3 when the
#                           goals of issue 15 are not met
#   make calibrate-check    every point with the compiled-in parameters; exits 3 when a point is
#                           out of its tolerance or drifted from the residual the last fit recorded
#   make bench-model        simulated instructions per second and the NKI tutorial matmul
#                           (JSON lines on stdout, readable lines on stderr)
.PHONY: calibrate calibrate-check bench-model

calibrate: $(BUILD)/bin/bench-model_calibrate
	@status=0; $(BUILD)/bin/bench-model_calibrate --fit --write common/model/fitted_params.inc \
	    common/model/calibration.jsonl || status=$$?; \
	$(MAKE) --no-print-directory all >/dev/null && exit $$status

calibrate-check: $(BUILD)/bin/bench-model_calibrate
	$(BUILD)/bin/bench-model_calibrate --check common/model/calibration.jsonl

bench-model: $(BUILD)/bin/bench-model_speed
	$(BUILD)/bin/bench-model_speed

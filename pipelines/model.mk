# The sim backend's own targets (common/model, nx-sim(7)).
#   make calibrate          every public calibration point: published, predicted, error;
#                           exits 3 when the goals of issue 3 are not met
#   make bench-model        simulated instructions per second and the NKI tutorial matmul
#                           (JSON lines on stdout, readable lines on stderr)
.PHONY: calibrate bench-model

calibrate: $(BUILD)/bin/bench-model_calibrate
	$(BUILD)/bin/bench-model_calibrate common/model/calibration.jsonl

bench-model: $(BUILD)/bin/bench-model_speed
	$(BUILD)/bin/bench-model_speed

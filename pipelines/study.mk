# make study: the studies (matmul latency, vmap/scan/for-loop patterns).
# Until nx-run and nx-capture exist this target says so and succeeds, so
# that a fresh clone's `make study` never fails.
study: deps all
	@if [ -x $(BUILD)/bin/nx-run ] && [ -x $(BUILD)/bin/nx-capture ]; then \
	    $(MAKE) --no-print-directory study-all; \
	else \
	    echo "no study yet: nx-run and nx-capture are not built (see README)"; \
	fi

# deps: install the Debian packages nx needs, only those missing, and only
# what the target at hand needs: `make study` builds and runs the tools
# (deps-build); `make test` also needs the test tools, among them chromium
# for the HTML tests, and Slurm and munge for the one-node cluster of the
# fan-out tests (deps).  Listed once here.
BUILD_PACKAGES := g++ make libboost-program-options-dev rapidjson-dev libsqlite3-dev \
    libre2-dev zlib1g-dev libopenblas-dev libsnappy-dev libzstd-dev liblz4-dev libbrotli-dev
TEST_PACKAGES  := libgtest-dev bats parallel python3 sqlite3 protobuf-compiler chromium time slurm-wlm munge strace

.PHONY: deps deps-build

# $(call install_missing,PACKAGES): a recipe.
define install_missing
	@missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "deps: installing" $$missing; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(BUILD_PACKAGES) $(TEST_PACKAGES))

deps-build:
	$(call install_missing,$(BUILD_PACKAGES))

# deps: install the Debian packages nx needs, only those missing.
# Listed once here; README and CI rely on `make deps` (called by test and study).
DEPS_PACKAGES := g++ make libboost-program-options-dev rapidjson-dev libsqlite3-dev \
    sqlite3 libre2-dev zlib1g-dev libopenblas-dev libgtest-dev bats python3 \
    protobuf-compiler chromium time libsnappy-dev libzstd-dev liblz4-dev libbrotli-dev

deps:
	@missing=$$(for p in $(DEPS_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "deps: installing" $$missing; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# Bats helpers for the tests that submit jobs to a one-node Slurm cluster the
# suite starts itself (test/slurm/cluster): load slurm/helper.

# A cluster started by a test is stopped whatever the test did.
teardown() {
    [ -n "${SLURM_DIR:-}" ] || return 0
    "$NX_ROOT/test/slurm/cluster" stop "$SLURM_DIR" >/dev/null 2>&1 || true
    rm -rf "$SLURM_DIR"
}

# Starts a one-node cluster advertising 4 CPUs in a short directory (its
# sockets' paths must fit in 107 bytes); fails, saying why, when it cannot.
start_slurm() {
    "$NX_ROOT/test/slurm/cluster" check || { echo "Slurm cannot run here (make deps installs slurm-wlm and munge)"; return 1; }
    SLURM_DIR=$(mktemp -d /tmp/nx-slurm.XXXXXX)
    env=$("$NX_ROOT/test/slurm/cluster" start "$SLURM_DIR" 4) || { echo "the one-node Slurm cluster did not start"; return 1; }
    eval "$env"
    export SLURM_CONF
}

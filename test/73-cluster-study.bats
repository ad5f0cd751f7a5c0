#!/usr/bin/env bats
# make study BACKEND=neuron on a cluster (issue 27): inside a Slurm allocation
# the runs and captures are spread over the nodes as job steps
# (pipelines/shard) and merged back into one runs.jsonl, study database and
# run history.  On the one-node cluster the suite starts, NODES=2 runs two
# steps on its one node; the neuron tools are the fakes of test/fakes.

load test_helper
load slurm/helper

setup_neuron() {
    export PATH="$FAKES:$PATH" PYTHONPATH="$FAKES/python" HOME=$PWD/home FAKE_NEURON_PROFILE_JSON="$FIXTURES/small.json"
}

# make study-matmul (6 workloads) into OUT=$1 with the rest of the arguments.
study6() {
    local out=$1; shift
    echo make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" OUT="$PWD/$out" study-matmul BACKEND=neuron TARGET=trn1 \
        MODE=sweep M=128,256,384 K=128 N=128,256 WARMUP=0 TIMED=2 "$@"
}

names() { jget "$1" '[x["name"] for x in r]'; }

@test "make study BACKEND=neuron in an allocation: runs and captures as one job step per node, merged in plan order into one database and history" {
    start_slurm
    setup_neuron
    # The reference: the same study on this machine alone, no allocation.
    $(study6 one) >one.log 2>&1 || { cat one.log; false; }
    # In an allocation of one node with NODES=2: two job steps of 3 workloads.
    run sbatch --wait -c 2 -o two.log --wrap "$(study6 two NODES=2)"
    cat two.log
    [ "$status" -eq 0 ]
    [ "$(names two/matmul/runs.jsonl)" = "$(names one/matmul/runs.jsonl)" ]
    [ "$(jget two/matmul/runs.jsonl 'len(r)')" = 6 ]
    for stage in run capture; do
        [ "$(wc -l <two/matmul/shards/$stage/shard-0.out)" = 3 ]
        [ "$(wc -l <two/matmul/shards/$stage/shard-1.out)" = 3 ]
    done
    [ "$(sqlite3 two/matmul/study.db 'SELECT count(*) FROM profile')" = 6 ]
    [ "$(sqlite3 two/history.db 'SELECT count(*) FROM run')" = 6 ]
    diff <(sqlite3 one/matmul/study.db 'SELECT name FROM profile ORDER BY name') \
         <(sqlite3 two/matmul/study.db 'SELECT name FROM profile ORDER BY name')
    grep -q '^# Matmul study' two/matmul/report.md
}

@test "make study sharded: a failing shard is named with its node and log, make fails and the stage's output is not written" {
    start_slurm
    setup_neuron
    run sbatch --wait -c 2 -o fail.log --wrap "FAKE_NEURON_FAIL=capture $(study6 out NODES=2)"
    cat fail.log
    [ "$status" -ne 0 ]
    grep -q "pipelines/shard: shard 0 of 2 (input lines 1-3) on .* failed (exit [1-9]*): $PWD/out/matmul/shards/capture/shard-0.err" fail.log
    grep -q "pipelines/shard: shard 1 of 2 (input lines 4-6)" fail.log
    [ -s out/matmul/runs.jsonl ]
    [ ! -e out/matmul/captures.jsonl ]
    [ ! -e out/matmul/study.db ]
}

@test "pipelines/shard outside an allocation, or with a bad NODES, is a usage error" {
    unset SLURM_JOB_ID
    run "$NX_ROOT/pipelines/shard" 2 shards cat </dev/null
    [ "$status" -eq 2 ]
    [[ "$output" == *"not inside a Slurm allocation"* ]]
    SLURM_JOB_ID=1 run "$NX_ROOT/pipelines/shard" x shards cat </dev/null
    [ "$status" -eq 2 ]
    [[ "$output" == *"NODES must be a positive number, not 'x'"* ]]
}

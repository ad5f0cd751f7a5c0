#!/usr/bin/env bats
# Bounds: memory, compute and dependency bounds per profile and per region
# (nx-report's Bounds section, --bounds records) and the critical_path query.
# deps@latest (test/fixtures/parquet/make.mjs) has a Flow table worked out by
# hand: the critical path is instruction 0 (Sync WRITE, 100 ns), gap 50,
# dma_block 0 (qSyncIO0, 1000 ns), gap 50, instruction 2 (MATMUL, 500 ns),
# gap 100, dma_block 1 (qSyncIO1, 600 ns): 2400 ns in a 3000 ns profile.

load test_helper

DEPS=$FIXTURES/parquet/explorer/deps@latest

setup() {
    cd "$BATS_TEST_TMPDIR" || return 1
    nx-convert --db deps.db "$DEPS" >/dev/null
}

@test "critical_path: the longest dependency chain, one row per step, as worked out by hand" {
    run nx-query --db deps.db critical_path --format csv
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "profile,step,node_table,node_id,name,engine_queue,start_ns,dur_ns,gap_to_next_ns,cumulative_ns" ]
    [ "${lines[1]}" = "deps,1,instruction,0,WRITE,sync,1000000000000,100,50,100" ]
    [ "${lines[2]}" = "deps,2,dma_block,0,input0,qSyncIO0,1000000000150,1000,50,1150" ]
    [ "${lines[3]}" = "deps,3,instruction,2,MATMUL,tensor_matrix,1000000001200,500,100,1700" ]
    [ "${lines[4]}" = "deps,4,dma_block,1,output0,qSyncIO1,1000000001800,600,0,2400" ]
    [ "${#lines[@]}" -eq 5 ]
    nx-query --list | grep -q '^{"name":"critical_path"'
    run --separate-stderr nx-query --db deps.db --sql "SELECT * FROM critical_path"
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"critical_path() needs a profile id"* ]]
}

@test "critical_path: a profile without Flow rows has no steps" {
    nx-convert --db deps.db "$FIXTURES/small.json" >/dev/null
    [ "$(nx-query --db deps.db critical_path --param profile=small | wc -l)" -eq 0 ]
    [ "$(nx-query --db deps.db critical_path --param profile=deps | wc -l)" -eq 4 ]
}

@test "nx-report --bounds: the profile's and each region's bounds, the highest, and the queue on the critical path" {
    nx-report --bounds deps.db >b.jsonl
    assert_jsonl b.jsonl
    [ "$(jget b.jsonl 'sorted(set(x["kind"] for x in r))')" = '["bound"]' ]
    # Whole profile: 2400 ns of dependency chain in 3000 ns; HBM 393216 B at
    # the profile's own 716 GB/s (Metadata.hbm_ddr_bandwidth) = 549.2 ns;
    # 8388608 FLOP at its one physical core's 128x128 at 2.4 GHz = 106.7 ns.
    [ "$(jget b.jsonl '[(x["dependency_bound_ns"], x["measured_ns"], x["highest_bound"], x["measured_over_highest"], x["critical_engine_queue"], x["critical_steps"]) for x in r if x["region"] is None]')" = '[[2400, 3000, "dependency", 1.25, "qSyncIO0", 4]]' ]
    [ "$(jget b.jsonl '[(round(x["memory_bound_ns"], 1), round(x["compute_bound_ns"], 1)) for x in r if x["region"] is None]')" = '[[549.2, 106.7]]' ]
    # Region load [0, 400): instruction 0, gap 50, dma_block 0 clipped at the region's end (250 ns).
    [ "$(jget b.jsonl '[(x["dependency_bound_ns"], x["critical_engine_queue"], x["critical_steps"], x["compute_bound_ns"]) for x in r if x["region"] == "load"]')" = '[[400, "qSyncIO0", 2, null]]' ]
    [ "$(jget b.jsonl '[x["not_in_profile"] for x in r if x["region"] == "load"]')" = "[\"compute: not in this profile: the tensor engine's FLOPs\"]" ]
    # Region compute [1200, 2500): MATMUL 500, gap 100, dma_block 1 600 = 1200 (the ACTIVATE branch is 750).
    [ "$(jget b.jsonl '[(x["dependency_bound_ns"], x["critical_engine_queue"], x["measured_ns"]) for x in r if x["region"] == "compute"]')" = '[[1200, "qSyncIO1", 1300]]' ]
}

@test "nx-report: the Bounds section in text, markdown and html; 'not in this profile' without Flow rows" {
    run nx-report --format text deps.db
    [ "$status" -eq 0 ]
    [[ "$output" == *"Bounds ("* ]]
    [[ "$output" == *"dependency  ["*"2.4 us  80.0% of the time  (4 dependent steps, 2200 ns of work and 200 ns of gaps)"* ]]
    [[ "$output" == *"highest bound         dependency, 2.4 us (measured is 1.25x it)"* ]]
    [[ "$output" == *"on the critical path  qSyncIO0"* ]]
    nx-report --format markdown deps.db | grep -q '^## Bounds'
    nx-report --format html deps.db | grep -q 'Bounds'
    nx-convert --db small.db --target trn1 "$FIXTURES/small.json" >/dev/null
    run nx-report --format text small.db
    [[ "$output" == *"not in this profile: no dependency data (Explorer's Flow table)"* ]]
    # Records read from JSONL have no events: said, not guessed.
    nx-convert "$DEPS" >deps.jsonl
    [ "$(nx-report --bounds deps.jsonl | jget - '[(x["dependency_bound_ns"], x["highest_bound"]) for x in r]')" = '[[null, "memory"]]' ]
    nx-report --format text deps.jsonl | grep -q 'not computed here: the critical path needs'
}

#!/usr/bin/env bats
# Regions: layers, iterations and windows of a profile, each with its own
# metrics and findings (nx-report's Regions section, finding records with a
# region, the region view and the region_summary query).

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR" || return 1
    # loop.json: /sg00 holds a loop body the layer summary lists three times.
    nx-convert --db loop.db --target trn1 "$FIXTURES/loop.json" >/dev/null
}

@test "regions: a layer name the layer summary repeats is one iteration region per occurrence" {
    run nx-query --db loop.db --sql "SELECT kind, name, parent, start_ns, end_ns FROM region ORDER BY start_ns, name" --format csv
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "kind,name,parent,start_ns,end_ns" ]
    [ "${lines[1]}" = "layer,/sg00,,0,3000" ]
    [ "${lines[2]}" = "iteration,/sg00/loop_body #1,/sg00,100,1000" ]
    [ "${lines[3]}" = "iteration,/sg00/loop_body #2,/sg00,1100,2000" ]
    [ "${lines[4]}" = "iteration,/sg00/loop_body #3,/sg00,2100,2900" ]
    [ "${#lines[@]}" -eq 5 ]
}

@test "region_summary: each region's time, engines and worst finding" {
    nx-query --db loop.db region_summary >r.jsonl
    assert_jsonl r.jsonl
    # Iteration 1 runs under the throttle (k/n = 1/2): half its tensor FLOPs lost.
    [ "$(jget r.jsonl '[(x["region"], x["worst_rule"]) for x in r if x["kind"] == "iteration"]')" = '[["/sg00/loop_body #1", "flops_throttled"], ["/sg00/loop_body #2", "nki_coverage"], ["/sg00/loop_body #3", "nki_coverage"]]' ]
    # 4 matmuls of 150 ns = 600 ns of TensorE in each 900 ns body: 66.67%.
    [ "$(jget r.jsonl '[x["tensor_busy_ns"] for x in r if x["region"] == "/sg00/loop_body #2"]')" = '[600]' ]
    [ "$(jget r.jsonl '[x["tensor_active_percent"] for x in r if x["region"] == "/sg00/loop_body #2"]')" = '[66.67]' ]
    [ "$(jget r.jsonl '[x["instructions"] for x in r if x["region"] == "/sg00/loop_body #3"]')" = '[5]' ]
    run nx-query --db loop.db region_summary --param limit=1 --format csv
    [ "${#lines[@]}" -eq 2 ]
    [[ "${lines[1]}" == "loop,1,layer,/sg00,"* ]]
    run --separate-stderr nx-query --db loop.db --sql "SELECT * FROM region_stats"
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"region_stats() needs a profile id, e.g. region_stats(p.id)"* ]]
}

@test "nx-report: the Regions section lists the regions taking the most time with their worst finding" {
    run nx-report --db loop.db --format text
    [ "$status" -eq 0 ]
    [[ "$output" == *"Regions (by time; an event counts where it starts, clipped at the region's end)"* ]]
    [[ "$output" == *"/sg00/loop_body #1  iteration"*"flops_throttled (warn, throttled_flops_percent 50)"* ]]
    [[ "$output" == *"/sg00/loop_body #3  iteration"*"nki_coverage (warn, tensor_engine_nki_instruction_percent 25)"* ]]
    run nx-report --db loop.db --format markdown
    [[ "$output" == *"| /sg00/loop_body #2 | iteration |"* ]]
}

@test "nx-report --window adds a region of the user's; findings name their region and time range" {
    nx-report --db loop.db --window 'first=0:1000' --window '50%:100%' >f.jsonl
    assert_jsonl f.jsonl
    # The profile's events span 100..3040 ns: 50% of 2940 ns is 1470 ns in.
    [ "$(jget f.jsonl 'sorted(set((x["region"], x["start_ns"], x["end_ns"]) for x in r if x["region"].startswith(("first", "window"))))')" = '[["first", 100, 1100], ["window 50%:100%", 1570, 3040]]' ]
    [ "$(jget f.jsonl '[x["rule"] for x in r if x["region"] == "profile"][:1]')" = '["flops_throttled"]' ]
    [ "$(jget f.jsonl 'sorted(set(x["region"] for x in r if x["rule"] == "throttling"))')" = '["/sg00", "/sg00/loop_body #1", "first", "profile"]' ]
    run nx-report --db loop.db --format text --window 'first=0:1000'
    [[ "$output" == *"first               window"* ]]
}

@test "nx-report: a bad --window is a usage error" {
    run --separate-stderr nx-report --db loop.db --window 900:100
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"--window: window '900:100' ends before it starts"* ]]
    run --separate-stderr nx-report --db loop.db --window 10:x
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"--window: window 'x' is not a time (ns from the profile's start, or N%)"* ]]
}

@test "regions: without a layer summary, each layer the instructions name spans its instructions" {
    nx-convert --db small.db --target trn1 "$FIXTURES/small.json" >/dev/null
    run nx-query --db small.db --sql "SELECT kind, name, start_ns, end_ns FROM region ORDER BY start_ns" --format csv
    [ "${lines[1]}" = "layer,model/layers.0/mlp,1000,2150" ]
    [ "${lines[2]}" = "layer,model/layers.1/mlp,2200,3350" ]
    # Records without their events (a JSONL file) have no regions to show, and say so.
    nx-convert --target trn1 "$FIXTURES/small.json" >p.jsonl
    run nx-report --format text p.jsonl
    [[ "$output" != *"Regions ("* ]]
    [[ "$output" == *"Regions: not computed for a profile record"* ]]
}

@test "regions: Explorer's FrameworkNode rows are the hierarchy when a profile has them" {
    nx-convert --db small.db --target trn1 "$FIXTURES/small.json" >/dev/null
    nx-query --db small.db --write --sql "INSERT INTO source_row(profile_id, tbl, data) SELECT id, 'FrameworkNode',
        '{\"node_name\":\"model\",\"parent_name\":\"\",\"start_ts\":1000,\"end_ts\":3400}' FROM profile;
        INSERT INTO source_row(profile_id, tbl, data) SELECT id, 'FrameworkNode',
        '{\"node_name\":\"model/attn\",\"parent_name\":\"model\",\"start_ts\":1000,\"end_ts\":1500}' FROM profile"
    run nx-query --db small.db --sql "SELECT kind, name, parent, start_ns, end_ns FROM region ORDER BY start_ns, name" --format csv
    [ "${lines[1]}" = "layer,model,,1000,3400" ]
    [ "${lines[2]}" = "layer,model/attn,model,1000,1500" ]
    [ "${#lines[@]}" -eq 3 ]
}

@test "regions: a layer the instructions come back to is one iteration per run" {
    # small.json's second layer, from 2800 ns on, renamed to the first: the
    # first layer runs, the second, then the first again.
    nx-convert --to events --target trn1 "$FIXTURES/small.json" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("layer") == "model/layers.1/mlp" and r["ts_ns"] >= 2800: r["layer"] = "model/layers.0/mlp"
    print(json.dumps(r))' >ev.jsonl
    nx-convert --db ev.db ev.jsonl >/dev/null
    run nx-query --db ev.db --sql "SELECT kind, name, start_ns, end_ns FROM region ORDER BY start_ns" --format csv
    [ "${lines[1]}" = "iteration,model/layers.0/mlp #1,1000,2150" ]
    [ "${lines[2]}" = "layer,model/layers.1/mlp,2200,2750" ]
    [ "${lines[3]}" = "iteration,model/layers.0/mlp #2,2800,3350" ]
}

@test "nx-report: breakdowns of FLOPs, DMA queue types, HBM bandwidth and NKI share, or 'not in this profile'" {
    run nx-report --db loop.db --format text
    [[ "$output" == *"NKI vs compiler-generated instructions"*"tensor  ["*"]  25.0% NKI of 12 (3 NKI, 9 compiler)"* ]]
    [[ "$output" == *"DMA by queue type"*"hardware_dynamic        120  61,440        512  1.8 us        61.2%"* ]]
    [[ "$output" == *"HBM bandwidth (shares of peak x total time)"*"not in this profile: HBM bytes"* ]]
    nx-convert --target trn1 "$FIXTURES/small.json" >small.jsonl
    run nx-report --format markdown small.jsonl
    [[ "$output" == *"### Tensor engine FLOPs (shares of the active FLOPs: peak x busy time)"* ]]
    [[ "$output" == *"not in this profile: throttling (no throttle intervals)"* ]]
    [[ "$output" == *"### DMA by queue type"*"not in this profile: the DMA transfers name no queue type"* ]]
    # trn1: 410 GB/s per core x 4 us = 1,640,000 B available; 40,960 read = 2.50%.
    [[ "$output" == *"read"*"40,960 B  2.50%"* ]]
    [[ "$output" == *"unused"*"1,590,848 B  97.0%"* ]]
    run nx-report --format html -o r.html small.jsonl
    [ "$status" -eq 0 ]
    [ "$(grep -o '<h3[^>]*>Tensor engine FLOPs' r.html | wc -l)" -eq 1 ]
}

@test "regions: a profile record carries no events, and the report says where regions come from" {
    nx-convert --target trn1 "$FIXTURES/loop.json" >loop.jsonl
    run --separate-stderr nx-report -f text --window 0:50% loop.jsonl
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: --window applies to profiles read from a study database (--db)"* ]]
    [[ "$output" == *"Regions: not computed for a profile record (it carries no events)"* ]]
    # From the database the same profile has its regions, and no such line.
    run --separate-stderr nx-report -f text --window 0:50% --db loop.db
    [ "$status" -eq 0 ]
    [[ "$stderr" != *"--window applies"* ]]
    [[ "$output" != *"not computed for a profile record"* ]]
    [[ "$output" == *"Regions ("* ]]
}

@test "regions: each collective (Explorer's CcOp) is a region, and the compute between two is a phase" {
    # collective@latest (test/fixtures/parquet/make.mjs): AllReduce, AllGather and
    # ReduceScatter start 10, 30 and 50 us after T0 = 1e12 ns and last 13100,
    # 11006 and 9182 ns; phase k runs from one's end to the next one's start.
    nx-convert --db c.db "$FIXTURES/parquet/explorer/collective@latest" >/dev/null
    run nx-query --db c.db --sql "SELECT kind, name, parent, start_ns, end_ns FROM region WHERE kind LIKE 'collective%' ORDER BY start_ns" --format csv
    [ "$status" -eq 0 ]
    [ "${lines[1]}" = "collective,AllReduce,,1000000010000,1000000023100" ]
    [ "${lines[2]}" = "collective_phase,phase 1,,1000000023100,1000000030000" ]
    [ "${lines[3]}" = "collective,AllGather,,1000000030000,1000000041006" ]
    [ "${lines[4]}" = "collective_phase,phase 2,,1000000041006,1000000050000" ]
    [ "${lines[5]}" = "collective,ReduceScatter,,1000000050000,1000000059182" ]
    [ "${#lines[@]}" -eq 6 ]
    # The layer the instructions name is still there beside them.
    [ "$(nx-query --db c.db --format csv --sql "SELECT kind, name FROM region WHERE kind = 'layer'" | tail -1)" = "layer,model/linear_0" ]
    # A profile without collectives has no such regions.
    run nx-query --db loop.db --format csv --sql "SELECT count(*) FROM region WHERE kind LIKE 'collective%'"
    [ "${lines[1]}" = "0" ]
}

@test "regions: NKI kernel stack frames and loop iterations (KernelInstructions, KernelStackFrames, KernelIterationVariables)" {
    # kernel@latest (test/fixtures/parquet/make.mjs) lists its instructions,
    # frames and iterations; each region spans its own instructions and those
    # of the frames or iterations below it.  Times are ns after T0 = 1e12.
    nx-convert --db k.db "$FIXTURES/parquet/explorer/kernel@latest" >/dev/null
    run nx-query --db k.db --sql "SELECT kind, name, parent, start_ns - 1000000000000 AS s, end_ns - 1000000000000 AS e FROM region ORDER BY kind, start_ns, name" --format csv
    [ "$status" -eq 0 ]
    [ "${lines[1]}" = "iteration,i=0,,100,1000" ]
    [ "${lines[2]}" = "iteration,i=0/j=0,i=0,100,600" ]
    [ "${lines[3]}" = "iteration,i=0/j=1,i=0,600,1000" ]
    # i=1 ends with ki_9 (2000..2200), placed in i=1 itself.
    [ "${lines[4]}" = "iteration,i=1,,1000,2200" ]
    [ "${lines[5]}" = "iteration,i=1/j=0,i=1,1000,1500" ]
    [ "${lines[6]}" = "iteration,i=1/j=1,i=1,1500,1900" ]
    [ "${lines[7]}" = "kernel,attn.flash_fwd,,0,2200" ]
    # attn.load_tile runs in two frames (two call sites): one region each.
    [ "${lines[8]}" = "kernel,attn.load_tile #1,attn.flash_fwd,100,1800" ]
    [ "${lines[9]}" = "kernel,attn.softmax,attn.flash_fwd,400,1900" ]
    [ "${lines[10]}" = "kernel,attn.load_tile #2,attn.flash_fwd,2000,2200" ]
    # The layer the instructions name, beside them; attn.unused and k=0 ran nothing.
    [ "${lines[11]}" = "layer,model/attn,,0,2500" ]
    [ "${#lines[@]}" -eq 12 ]
    # The same regions as the generator's own figures.
    nx-query --db k.db --sql "SELECT kind, name, parent, start_ns, end_ns FROM region WHERE kind != 'layer'" >k.jsonl
    [ "$(jget k.jsonl 'sorted([x["kind"], x["name"], x.get("parent"), x["start_ns"], x["end_ns"]] for x in r)')" = \
      "$(python3 -c 'import json, sys; print(json.dumps(sorted([x["kind"], x["name"], x["parent"], x["start_ns"], x["end_ns"]] for x in json.load(open(sys.argv[1]))["regions"])))' "$FIXTURES/parquet/explorer/kernel@latest.expected.json")" ]
    # Each gets its metrics, as a time range: attn.load_tile #1 (100..1800) holds
    # its four 300 ns matmuls and the three softmax instructions between them.
    nx-query --db k.db region_summary >s.jsonl
    [ "$(jget s.jsonl '[(x["instructions"], x["tensor_busy_ns"]) for x in r if x["region"] == "attn.load_tile #1"]')" = '[[7, 1200]]' ]
    # Without the kernel tables (collective@latest has none): no such regions.
    nx-convert --db c.db "$FIXTURES/parquet/explorer/collective@latest" >/dev/null
    run nx-query --db c.db --format csv --sql "SELECT count(*) FROM region WHERE kind IN ('kernel', 'iteration')"
    [ "${lines[1]}" = "0" ]
}

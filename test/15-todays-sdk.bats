#!/usr/bin/env bats
# Right on the profiles today's tools write (issue 24), on the project's own
# fixtures that reproduce what real trn2/trn3 files show
# (test/fixtures/make_fixtures.py: lnc2.json, summary_logged.json;
# test/fixtures/parquet/make.mjs: Explorer Summary in fractions with -1
# sentinels, a collective profile of two physical cores).

load test_helper

EXPLORER=$FIXTURES/parquet/explorer

# The source's figure of a metric: neuron-profile JSON summary[0][KEY].
lnc2_source() {
    python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['summary'][0][sys.argv[2]])" "$FIXTURES/lnc2.json" "$1"
}

# |a - b| <= tol x max(|b|, 1e-12)
close() {
    python3 -c "import sys; a, b, t = map(float, sys.argv[1:]); assert abs(a - b) <= t * max(abs(b), 1e-12), (a, b)" "$@"
}

@test "LNC=2 JSON: read without --format although its keys come after a large instruction_usage array" {
    [ "$(head -c 30 "$FIXTURES/lnc2.json" | tr -d ' \n')" = '{"instruction_usage":[{' ]
    nx-convert "$FIXTURES/lnc2.json" >rec.jsonl
    [ "$(jget rec.jsonl 'r[0]["format"]')" = neuron-json ]
    [ "$(jget rec.jsonl 'r[0]["target"]')" = trn2 ]
}

@test "LNC=2 JSON: HFU and MFU divide by both physical cores' peak, as the profiler's, and no disagree row" {
    nx-convert "$FIXTURES/lnc2.json" >rec.jsonl
    for k in hfu_estimated_percent mfu_estimated_percent tensor_engine_active_time_percent; do
        close "$(jget rec.jsonl "r[0]['metrics']['$k']")" "$(python3 -c "print(100 * $(lnc2_source $k))")" 1e-9
    done
    # nx's own figures, made from the instructions, agree within 10%: no row.
    [ "$(jget rec.jsonl '"metric_disagreements" in r[0]')" = false ]
    [ "$(jget rec.jsonl 'r[0]["metrics"]["peak_flops"]')" = 157286400000000 ]
    [ "$(jget rec.jsonl 'r[0]["peak_basis"]')" = "2 physical cores (profile metadata) x 78.64 TFLOP/s (profile metadata); HBM 716 GB/s (profile metadata)" ]
    # The ridge point stays one core's peak over one HBM stack: the profiler's 109.84.
    close "$(jget rec.jsonl 'r[0]["metrics"]["peak_flops_bandwidth_ratio"]')" 109.83687150837989 1e-9
    run nx-report --format text rec.jsonl
    [[ "$output" == *"peak        157.3 TFLOP/s: 2 physical cores (profile metadata)"* ]]
    [[ "$output" != *"Source and nx disagree"* ]]
}

@test "LNC=2 JSON: a fraction rounded above 1 is still a fraction" {
    nx-convert "$FIXTURES/lnc2.json" >rec.jsonl
    close "$(jget rec.jsonl 'r[0]["metrics"]["dynamic_dma_active_time_percent"]')" 100.17 1e-12
}

@test "LNC=2 JSON: figures the profiler says it does not have are not available, and no rule fires on them" {
    nx-convert --db s.db "$FIXTURES/lnc2.json" >rec.jsonl
    # model_flops 0 beside "Missing HLO stats": not a value, with the profiler's words.
    [ "$(jget rec.jsonl '"model_flops" in r[0]["metrics"]')" = false ]
    [[ "$(jget rec.jsonl 'r[0]["unavailable_metrics"]["model_flops"]')" == "the profiler says: Missing HLO stats in the NEFF"* ]]
    [ "$(sqlite3 s.db "SELECT quote(value), origin FROM metric WHERE name = 'model_flops'")" = "NULL|unavailable" ]
    # dma_transfer_average_bytes 0 beside 40 packets of 4 KiB: nx's own figure, derived.
    [ "$(jget rec.jsonl 'r[0]["metrics"]["dma_transfer_average_bytes"]')" = 4096 ]
    [ "$(jget rec.jsonl 'r[0]["metric_origin"]["dma_transfer_average_bytes"]')" = derived ]
    run nx-report --all --format text rec.jsonl
    [ "$status" -eq 0 ]
    [[ "$output" != *"warn  tensor_engine_poorly_fed"* ]]
    [[ "$output" == *"rule not evaluated: tensor_engine_poorly_fed (needs model_flops)"* ]]
    [[ "$output" != *"dma_fragmented"* ]]
    [[ "$output" == *"not in this profile (Explorer rules without their data): "*"model_flops_low"* ]]
    [[ "$output" == *"model FLOPs (the useful share): not available (the profiler says: Missing HLO stats"* ]]
    [[ "$output" == *"MFU is instruction-based"* ]]
}

@test "LNC=2 JSON: a physical core whose instructions stop early, and dropped notifications, are data_quality findings" {
    nx-convert "$FIXTURES/lnc2.json" >rec.jsonl
    close "$(jget rec.jsonl 'r[0]["metrics"]["min_core_coverage_percent"]')" 58.7 1e-9
    run nx-report --all --format text rec.jsonl
    [[ "$output" == *"data_quality: a physical core's instructions span less than 95% of the execution"*"[min_core_coverage_percent = 58.7 < 95]"* ]]
    [[ "$output" == *"core 0 98.7%, core 1 58.7%"* ]]
    [[ "$output" == *"data_quality: the profile lost data: the profiler says: Notification from block DMA of type DMA were dropped."* ]]
    # Each core's rows apart, named as the Explorer importer names them.
    nx-convert --db s.db "$FIXTURES/lnc2.json" >/dev/null
    [ "$(sqlite3 s.db "SELECT count(*) FROM track WHERE name LIKE 'pcore1/%'")" -ge 2 ]
}

@test "summary-json as captured with stderr: log lines skipped with one note, nodes longest first, trn3 from trn3pds98" {
    run --separate-stderr nx-convert "$FIXTURES/summary_logged.json"
    [ "$status" -eq 0 ]
    [ "$stderr" = "nx-convert: $FIXTURES/summary_logged.json: skipped 2 log lines before the JSON (the tool's own log: stdout and stderr were captured together)" ]
    echo "$output" >rec.jsonl
    [ "$(jget rec.jsonl '[p["name"] for p in r]')" = '["summary_logged/n_bbbb", "summary_logged/n_aaaa"]' ]
    [ "$(jget rec.jsonl '[p["target"] for p in r]')" = '["trn3", "trn3"]' ]
    close "$(jget rec.jsonl 'r[0]["metrics"]["tensor_engine_active_time_percent"]')" 3.50491 1e-12
    # No metadata: the profiler's own HFU says one physical core, its MBU the HBM stack.
    [[ "$(jget rec.jsonl 'r[0]["peak_basis"]')" == "1 physical core (the profiler's own HFU) x 79 TFLOP/s (the trn3 default); HBM 1178 GB/s (the profiler's own MBU)" ]]
    [ "$(jget rec.jsonl '"metric_disagreements" in r[0]')" = false ]
}

@test "Explorer Summary: every percent is its fraction x 100; a -1 is not available, not -1%" {
    nx-convert --db s.db "$EXPLORER/matmul@latest" >rec.jsonl
    python3 - "$EXPLORER/matmul@latest.expected.json" rec.jsonl <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))["summary"]
rec = json.loads(open(sys.argv[2]).readline())
m, un = rec["metrics"], rec.get("unavailable_metrics", {})
checked = 0
for k, v in summary.items():
    if not k.endswith("_percent"):
        continue
    if v < 0:
        # Not available, or nx's own figure (marked derived) where it can make it.
        assert (k not in m and "wrote -1" in un.get(k, "")) or rec["metric_origin"].get(k) == "derived", (k, m.get(k), un.get(k))
    elif k in m and rec["metric_origin"][k] == "source":
        assert abs(m[k] - 100 * v) <= 1e-6 * max(1, 100 * v), (k, m[k], v)
        checked += 1
assert checked >= 20, checked
PY
    [ "$(sqlite3 s.db "SELECT count(*) FROM metric WHERE origin = 'unavailable' AND value IS NULL")" -ge 3 ]
    run nx-report --all --format text s.db
    [[ "$output" == *"mbu_min_read_util_percent"*"not available"*"the profiler wrote -1 (not available)"* ]]
}

@test "Explorer LNC=2 profile: HFU and MFU of nx equal the Summary's, two cores from Metadata" {
    nx-convert "$EXPLORER/collective@latest" >rec.jsonl
    [ "$(jget rec.jsonl 'r[0]["core"]["physical_cores"]')" = 2 ]
    [ "$(jget rec.jsonl '[d["metric"] for d in r[0].get("metric_disagreements", []) if "fu_" in d["metric"]]')" = '[]' ]
    close "$(jget rec.jsonl 'r[0]["metrics"]["hfu_estimated_percent"]')" \
        "$(python3 -c "import json; print(100 * json.load(open('$EXPLORER/collective@latest.expected.json'))['summary']['hfu_estimated_percent'])")" 1e-6
}

@test "a system profile's device profiles beside it in profiles/global are found, each imported once however reached" {
    D=$FIXTURES/parquet/system/datapath
    run --separate-stderr nx-convert "$D/profiles/global/sysdp@latest"
    [ "$status" -eq 0 ]
    [[ "$stderr" != *"did not find"* ]]
    echo "$output" >rec.jsonl
    [ "$(jget rec.jsonl '[p["name"] for p in r]')" = '["sysdp", "dp_nc0"]' ]
    # From the data path's root and from profiles/global: each profile once.
    [ "$(nx-convert "$D" | jget - 'sorted(p["name"] for p in r)')" = '["dp_nc0", "sysdp"]' ]
    [ "$(nx-convert "$D/profiles/global" | jget - 'sorted(p["name"] for p in r)')" = '["dp_nc0", "sysdp"]' ]
}

@test "a device profile is aligned to host time by the LNC=2 execution whose duration matches ExecutionInfo" {
    D=$FIXTURES/parquet/system/datapath
    want() { python3 -c "import json,sys; print(json.load(open('$D.expected.json'))['host_alignment'][sys.argv[1]])" "$1"; }
    nx-convert "$D/profiles/global/dp_nc0@latest" >rec.jsonl
    # Two physical cores' rows per execution are one execution (merged by flow_id).
    [ "$(jget rec.jsonl 'r[0]["system_profile"]["nc_exec_running"]["count"]')" = 3 ]
    # The core's worker_gid, as its nc_exec_running rows give it (the fixture's: 16).
    [ "$(jget rec.jsonl 'r[0]["system_profile"]["worker_gid"]')" = 16 ]
    for k in offset_ns uncertainty_ns host_duration_ns device_duration_ns flow_id; do
        [ "$(jget rec.jsonl "r[0]['system_profile']['host_alignment']['$k']")" = "$(want $k)" ]
    done
    [[ "$(nx-report --format text rec.jsonl)" == *"host time = device time + $(want offset_ns) ns (+-500 ns: ExecutionInfo's 95 us against the host's 95.5 us (flow 201))"* ]]
}

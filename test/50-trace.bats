#!/usr/bin/env bats
# nx-convert --to pftrace|chrome-json: traces for Perfetto UI and
# chrome://tracing.  Every trace is decoded twice, by protoc --decode_raw and
# by nx's own decoder (test-pftrace_dump), and compared with the source
# profile's events (nx-convert --to events) and with the study database's
# Perfetto-style tables of the same profile.

load test_helper

CHECK="$BATS_TEST_DIRNAME/trace_check.py"

# A profile whose events arrive unsorted and overlap on one row: "b" starts
# inside "a" and ends after it (pipelined matmuls), "c" nests in "a", and a
# zero-duration instruction sits at the very end.
overlapping_profile() {
    cat >overlap.json <<'JSON'
{"instruction": [
 {"timestamp": 1300, "duration": 0,   "label": "Vector", "opcode": "NOP"},
 {"timestamp": 1050, "duration": 200, "label": "TensorMatrix", "opcode": "MATMUL", "hlo_name": "%dot.2"},
 {"timestamp": 1000, "duration": 100, "label": "TensorMatrix", "opcode": "MATMUL", "hlo_name": "%dot.1"},
 {"timestamp": 1010, "duration": 20,  "label": "TensorMatrix", "opcode": "MATMUL", "hlo_name": "%dot.3"},
 {"timestamp": 1100, "duration": 50,  "label": "Vector", "opcode": "TENSOR_TENSOR"}],
 "dma": [
 {"timestamp": 1000, "duration": 100, "subgroup": "qSyncIO0", "transfer_size": 4096},
 {"timestamp": 1050, "duration": 100, "subgroup": "qSyncIO0", "transfer_size": 4096}]}
JSON
}

@test "nx-convert --to pftrace: one process named after the profile, a track per engine row and DMA queue, counters" {
    run nx-convert --to pftrace -o small.pftrace "$FIXTURES/small.json"
    [ "$status" -eq 0 ]
    # Profile records still go to stdout.
    [ "$(echo "$output" | jget - 'r[0]["name"]')" = small ]
    test-pftrace_dump small.pftrace >dump.jsonl
    [ "$(jget dump.jsonl '[x["name"] for x in r if x["kind"] == "track" and x["is_process"]]')" = '["small"]' ]
    [ "$(jget dump.jsonl '[x["pid"] for x in r if x["kind"] == "track" and x["is_process"]]')" = '[1]' ]
    # Rows in the profiler's order, DMA queues after the engines, then counters.
    [ "$(jget dump.jsonl '[x["name"] for x in sorted((x for x in r if x["kind"] == "track" and not x["is_process"]), key=lambda x: x["rank"])]')" = \
      '["TensorMatrix", "Tensor", "Vector", "Scalar", "GpSimd", "Sync", "qScalarSpillReload0", "qSyncIO0", "qSyncIO1", "semaphore", "DMA throughput (B/s)", "DMA pending transfers", "TensorMatrix utilisation (%)", "Tensor utilisation (%)", "Vector utilisation (%)", "Scalar utilisation (%)", "GpSimd utilisation (%)", "Sync utilisation (%)"]' ]
    [ "$(jget dump.jsonl 'all(x["process"] == "small" for x in r if x["kind"] != "error")')" = true ]
}

@test "nx-convert --to pftrace: slices match the source events one for one (ts, dur, name) on their rows" {
    nx-convert --to pftrace -o small.pftrace "$FIXTURES/small.json" >/dev/null
    nx-convert --to events "$FIXTURES/small.json" >events.jsonl
    test-pftrace_dump small.pftrace >dump.jsonl
    run python3 "$CHECK" compare events.jsonl dump.jsonl
    [ "$output" = "OK 61" ]
    # Annotations: opcode, HLO name, layer, operands from the instruction; bytes from the DMA.
    [ "$(jget dump.jsonl '[x for x in r if x["kind"] == "slice" and x["name"] == "MATMUL"][0]["args"]')" = \
      '{"opcode": "MATMUL", "hlo_name": "%dot.0 = dot(%x, %w0)", "layer": "model/layers.0/mlp", "operands": "S[5] (Tensor)++@complete acc_flags=3 src=fp16@0x5600 3*128", "inst_dep_ids": "[0]", "pc": "4", "id": "1"}' ]
    [ "$(jget dump.jsonl '[x for x in r if x["kind"] == "slice" and x["track"] == "qSyncIO1"][0]["args"]["bytes"]')" = 4096 ]
    [ "$(jget dump.jsonl '[x["category"] for x in r if x["kind"] == "slice" and x["name"] == "MATMUL"][0]')" = instruction ]
}

@test "the slice comparison fails when the trace is of another profile" {
    nx-convert --to pftrace -o slow.pftrace "$FIXTURES/small_slow.json" >/dev/null
    nx-convert --to events "$FIXTURES/small.json" >events.jsonl
    test-pftrace_dump slow.pftrace >dump.jsonl
    run python3 "$CHECK" compare events.jsonl dump.jsonl
    [ "$status" -eq 1 ]
    [[ "$output" == *"only in source:"* ]]
}

@test "protoc --decode_raw reads the trace: begin/end pairs balance on every track and time never goes back" {
    nx-convert --to pftrace -o small.pftrace "$FIXTURES/small.json" >/dev/null
    run python3 "$CHECK" raw small.pftrace
    [ "$status" -eq 0 ]
    # 61 events: 61 begins, 61 ends, 19 tracks (process, 10 rows, 8 counters).
    [ "$output" = "61 61 19" ]
}

@test "unsorted, partially overlapping events nest: the crossing slice goes to an overflow track" {
    overlapping_profile
    nx-convert --to pftrace -o o.pftrace overlap.json >/dev/null
    test-pftrace_dump o.pftrace >dump.jsonl
    nx-convert --to events overlap.json >events.jsonl
    run python3 "$CHECK" compare events.jsonl dump.jsonl
    [ "$output" = "OK 7" ]
    run python3 "$CHECK" raw o.pftrace
    [ "$status" -eq 0 ]
    # %dot.1 [1000,1100) holds %dot.3; %dot.2 [1050,1250) crosses its end.
    [ "$(jget dump.jsonl '[(x["args"]["hlo_name"], x["depth"]) for x in r if x["kind"] == "slice" and x["track"] == "TensorMatrix"]')" = '[["%dot.1", 0], ["%dot.3", 1]]' ]
    [ "$(jget dump.jsonl '[(x["args"]["hlo_name"], x["ts"], x["dur"]) for x in r if x["kind"] == "slice" and x["track"] == "TensorMatrix (2)"]')" = '[["%dot.2", 1050, 200]]' ]
    [ "$(jget dump.jsonl '[x["name"] for x in r if x["kind"] == "slice" and x["track"] == "qSyncIO0 (2)"]')" = '["dma"]' ]
    # Two transfers in flight between 1050 and 1100.
    [ "$(jget dump.jsonl '[(x["ts"], x["value"]) for x in r if x["kind"] == "counter" and x["track"] == "DMA pending transfers"]')" = '[[1000, 1], [1050, 2], [1100, 1], [1150, 0]]' ]
    # 4096 B over 100 ns = 40.96 GB/s each.
    [ "$(jget dump.jsonl '[x["value"] for x in r if x["kind"] == "counter" and x["track"] == "DMA throughput (B/s)"]')" = '[40960000000, 81920000000, 40960000000, 0]' ]
}

# tables_agree INPUT: loads INPUT into a database and writes its trace, then
# compares Perfetto's reading of the trace with nx's tables (trace_check.py).
tables_agree() {
    rm -f t.db t.db-wal t.db-shm
    nx-convert --db t.db "$1" >/dev/null
    nx-convert --to pftrace -o t.pftrace "$1" >/dev/null
    python3 "$CHECK" tables t.pftrace t.db
}

@test "the database holds Perfetto's tables of nx's trace: the same tracks, slices at the same depth under the same parent, the same counter samples" {
    run tables_agree "$FIXTURES/small.json"
    [ "$status" -eq 0 ]
    # 10 rows and 8 counter tracks (DMA throughput and pending, 6 engines'
    # utilisation), which the database has too: the engines' samples stored,
    # the DMA counters' computed when asked.
    [ "$output" = "OK depth {0: 61} parented 0 counters 182 tracks 18" ]
    [ "$(sqlite3 t.db "SELECT count(*) FROM track WHERE row IS NULL")" = 8 ]
    [ "$(sqlite3 t.db "SELECT count(*) FROM track WHERE name LIKE 'DMA %'")" = 2 ]
    # Unsorted, partially overlapping: a nested slice and two overflow lanes.
    overlapping_profile
    run tables_agree overlap.json
    [ "$output" = "OK depth {0: 6, 1: 1} parented 1 counters 13 tracks 9" ]
    [ "$(sqlite3 t.db "SELECT t.name, t.engine, t.kind, t.row FROM slice s JOIN track t ON t.id = s.track_id WHERE s.dur = 200")" = \
      "TensorMatrix (2)|tensor_matrix|instruction|TensorMatrix" ]
    [ "$(sqlite3 t.db "SELECT p.name || ' ' || p.dur FROM slice s JOIN slice p ON p.id = s.parent_id")" = "MATMUL 100" ]
    # nx's own columns and queries still see the source's rows.
    [ "$(sqlite3 t.db "SELECT DISTINCT track_name FROM slice WHERE category = 'dma'")" = qSyncIO0 ]
    [ "$(nx-query --db t.db dma_activity | jget - '[(x["queue"], x["transfers"]) for x in r]')" = '[["qSyncIO0", 2]]' ]
}

@test "nx-query's counter table has every sample of the trace, DMA counters included; other SQLite clients see the stored ones" {
    # Transfers that start and end together on two queues, listed in another
    # order than the layout takes them, at rates that are not whole bytes/s.
    cat >dma.json <<'JSON'
{"instruction": [{"timestamp": 1000, "duration": 900, "label": "Vector", "opcode": "TENSOR_TENSOR"}],
 "dma": [
 {"timestamp": 1000, "duration": 700, "subgroup": "qSyncIO1", "transfer_size": 4000},
 {"timestamp": 1000, "duration": 300, "subgroup": "qSyncIO0", "transfer_size": 1000},
 {"timestamp": 1000, "duration": 70,  "subgroup": "qSyncIO1", "transfer_size": 777},
 {"timestamp": 1300, "duration": 400, "subgroup": "qSyncIO0", "transfer_size": 333},
 {"timestamp": 1070, "duration": 630, "subgroup": "qSyncIO0", "transfer_size": 10}]}
JSON
    run tables_agree dma.json
    [ "$status" -eq 0 ]
    [ "$output" = "OK depth {0: 5, 1: 1} parented 1 counters 8 tracks 7" ]
    [ "$(nx-query --db t.db --format csv --sql "SELECT count(*) FROM counter" | tail -n 1)" = 8 ]
    # Each transfer in whole bytes/s: 4000 B / 700 ns + 1000 B / 300 ns + 777 B / 70 ns.
    [ "$(nx-query --db t.db --format csv --sql "SELECT c.value FROM counter c JOIN track t ON t.id = c.track_id WHERE t.name = 'DMA throughput (B/s)' ORDER BY c.ts LIMIT 1" | tail -n 1)" = 20147619047 ]
    # Vector's utilisation only: the DMA counters need nx's dma_counters().
    [ "$(sqlite3 t.db "SELECT count(*) FROM counter")" = 2 ]
}

@test "the database and the trace agree on bigger, unsorted, Explorer and Chrome profiles" {
    "$NX_BIN/bench-gen_profile" 20000 --unsorted >big.json
    run tables_agree big.json
    [ "$status" -eq 0 ]
    [ "$output" = "OK depth {0: 19073, 1: 913, 2: 14} parented 927 counters 16913 tracks 77" ]
    # Out of order: laid out when it ends, into slice_layout.
    [ "$(sqlite3 t.db "SELECT count(*) FROM slice_layout")" -gt 900 ]
    [ "$(sqlite3 t.db "SELECT count(*) FROM event WHERE COALESCE(depth, lane_id, parent_back) IS NOT NULL")" = 0 ]
    # In start order (as neuron-profile writes it): each slice placed as it
    # came, in its own row, to the same answer.
    "$NX_BIN/bench-gen_profile" 20000 >sorted.json
    run tables_agree sorted.json
    [ "$status" -eq 0 ]
    [ "$output" = "OK depth {0: 19076, 1: 910, 2: 14} parented 924 counters 16914 tracks 77" ]
    [ "$(sqlite3 t.db "SELECT count(*) FROM slice_layout")" = 0 ]
    [ "$(sqlite3 t.db "SELECT count(*) FROM event WHERE lane_id IS NOT NULL")" -gt 2000 ]
    [ "$(sqlite3 t.db "SELECT count(*) FROM event WHERE parent_back IS NOT NULL")" = 924 ]
    run tables_agree "$FIXTURES/parquet/explorer/matmul@latest"
    [ "$status" -eq 0 ]
    [ "$output" = "OK depth {0: 527} parented 0 counters 861 tracks 36" ]
    # Chrome B/E slices nest three deep.
    run tables_agree "$FIXTURES/trace.json"
    [ "$output" = "OK depth {0: 4, 1: 1, 2: 1} parented 2 counters 13 tracks 9" ]
}

@test "the table comparison fails when the database holds another profile" {
    nx-convert --to pftrace -o small.pftrace "$FIXTURES/small.json" >/dev/null
    overlapping_profile
    nx-convert --db o.db overlap.json >/dev/null
    run python3 "$CHECK" tables small.pftrace o.db
    [ "$status" -eq 1 ]
    [[ "$output" == *"slice tracks only in the trace:"* ]]
    [[ "$output" == *"counter tracks only in the database:"* ]]
}

@test "nx-convert --to pftrace: several profiles are several processes" {
    nx-convert --to pftrace -o two.pftrace "$FIXTURES/small.json" "$FIXTURES/small_slow.json" >/dev/null
    test-pftrace_dump two.pftrace >dump.jsonl
    [ "$(jget dump.jsonl '[(x["pid"], x["name"]) for x in r if x["kind"] == "track" and x["is_process"]]')" = '[[1, "small"], [2, "small_slow"]]' ]
    [ "$(jget dump.jsonl 'len([x for x in r if x["kind"] == "slice" and x["process"] == "small_slow"])')" = 61 ]
}

@test "nx-convert --to pftrace writes to a pipe, and refuses a terminal without -o" {
    nx-convert --to pftrace "$FIXTURES/small.json" >piped.pftrace
    run python3 "$CHECK" raw piped.pftrace
    [ "$output" = "61 61 19" ]
    run script -qec "nx-convert --to pftrace '$FIXTURES/small.json'" /dev/null
    [ "$status" -eq 2 ]
    [[ "$output" == *"nx-convert: --to pftrace writes binary data: give -o FILE or redirect standard output"* ]]
    run nx-convert --to svg "$FIXTURES/small.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--to takes events, pftrace, chrome-json (got 'svg')"* ]]
}

@test "nx-convert --to pftrace: a failed import leaves no trace file behind" {
    printf '{"instruction": [\n {"timestamp": "soon"}\n]}\n' >bad.json
    run nx-convert --to pftrace -o t.pftrace "$FIXTURES/small.json" bad.json
    [ "$status" -eq 1 ]
    [ ! -e t.pftrace ]
    ls -A | grep -q 't.pftrace' && return 1
    # --keep-going keeps the good profile; a truncated one is dropped whole.
    head -c 600 "$FIXTURES/small.json" >trunc.json
    run nx-convert --keep-going --to pftrace -o t.pftrace "$FIXTURES/small.json" trunc.json
    [ "$status" -eq 1 ]
    test-pftrace_dump t.pftrace >dump.jsonl
    [ "$(jget dump.jsonl '[x["name"] for x in r if x["kind"] == "track" and x["is_process"]]')" = '["small"]' ]
}

@test "nx-convert --to pftrace: no events, one event and zero durations still give valid traces" {
    nx-convert --to pftrace -o summary.pftrace "$FIXTURES/summary.json" >/dev/null
    test-pftrace_dump summary.pftrace >dump.jsonl
    [ "$(jget dump.jsonl 'sorted(x["kind"] for x in r)')" = '["track", "track"]' ]
    printf '{"instruction": [{"timestamp": 5, "duration": 0, "label": "Vector", "opcode": "NOP"}]}\n' >one.json
    nx-convert --to pftrace -o one.pftrace one.json >/dev/null
    test-pftrace_dump one.pftrace >dump.jsonl
    [ "$(jget dump.jsonl '[(x["ts"], x["dur"]) for x in r if x["kind"] == "slice"]')" = '[[5, 0]]' ]
    # A zero-length profile has no utilisation to show.
    [ "$(jget dump.jsonl '[x["name"] for x in r if x["kind"] == "track" and x["counter"]]')" = '[]' ]
}

@test "nx-convert --to chrome-json: X events in exact microseconds that nx reads back to the same slices" {
    overlapping_profile
    nx-convert --to chrome-json overlap.json >trace.json
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' trace.json
    [ "$(python3 -c 'import json; t=json.load(open("trace.json")); print([(e["ts"], e["dur"]) for e in t["traceEvents"] if e["ph"] == "X" and e["args"].get("hlo_name") == "%dot.2"])')" = "[(1.05, 0.2)]" ]
    [ "$(python3 -c 'import json; t=json.load(open("trace.json")); print(sorted(e["args"]["name"] for e in t["traceEvents"] if e.get("name") == "thread_name"))')" = \
      "['TensorMatrix', 'TensorMatrix (2)', 'Vector', 'qSyncIO0', 'qSyncIO0 (2)']" ]
    # Round trip through nx's Chrome importer: same slices on the same rows.
    nx-convert --to events overlap.json >events.jsonl
    nx-convert --to events trace.json >back.jsonl
    python3 - <<'PY'
import json, re, collections
def key(path, fold):
    c = collections.Counter()
    for l in open(path):
        r = json.loads(l)
        if r.get("kind") == "event" and r["type"] != "counter":
            c[(re.sub(r" \(\d+\)$", "", r["track"]) if fold else r["track"], r["ts_ns"], r["dur_ns"], r["name"])] += 1
    return c
assert key("events.jsonl", False) == key("back.jsonl", True), (key("events.jsonl", False), key("back.jsonl", True))
PY
}

@test "nx-convert --to pftrace|chrome-json of a profile stored in a study database (no source file needed)" {
    nx-convert --db s.db --target trn1 "$FIXTURES/small.json" "$FIXTURES/parquet/explorer/matmul@latest" "$FIXTURES/kineto_step.json" >/dev/null
    # The same trace, byte for byte, as from the source.
    nx-convert --to pftrace -o from-source.pftrace "$FIXTURES/parquet/explorer/matmul@latest" >/dev/null
    nx-convert --to pftrace -o from-db.pftrace s.db --profile matmul >/dev/null
    cmp from-source.pftrace from-db.pftrace
    nx-convert --to pftrace -o small-source.pftrace --target trn1 "$FIXTURES/small.json" >/dev/null
    nx-convert --to pftrace -o small-db.pftrace s.db --profile small >/dev/null
    cmp small-source.pftrace small-db.pftrace
    # The profile record comes back with its metrics and carried fields.
    [ "$(nx-convert s.db --profile matmul | jget - 'r[0]["metrics"]')" = "$(nx-convert --target trn1 "$FIXTURES/parquet/explorer/matmul@latest" | jget - 'r[0]["metrics"]')" ]
    [ "$(nx-convert s.db --profile matmul | jget - 'r[0]["metadata"]["instance_type"]')" = trn2.48xlarge ]
    # Every profile without --profile; a Chrome trace's slices and flows as chrome-json.
    [ "$(nx-convert s.db | jget - 'len(r)')" = 3 ]
    nx-convert --to chrome-json -o k.json s.db --profile kineto_step >/dev/null
    nx-convert --to chrome-json -o k-source.json "$FIXTURES/kineto_step.json" >/dev/null
    [ "$(jget k.json 'len([e for e in r[0]["traceEvents"] if e["ph"] == "X"])')" = "$(jget k-source.json 'len([e for e in r[0]["traceEvents"] if e["ph"] == "X"])')" ]
    [ "$(jget k.json 'len([e for e in r[0]["traceEvents"] if e["ph"] in ("s", "f")])')" = "$(jget k-source.json 'len([e for e in r[0]["traceEvents"] if e["ph"] in ("s", "f")])')" ]
    # A sim profile: its transposes (transpose_flops) are kept too.
    nx-run --study patterns --patterns vmap --sizes small --timed 1 --warmup 0 | nx-capture --dir prof >captures.jsonl
    nx-convert --db sim.db <captures.jsonl >from-capture.jsonl
    nx-convert sim.db >from-db.jsonl
    [ "$(jget from-db.jsonl 'r[0]["metrics"]["transpose_flops"]')" = "$(jget from-capture.jsonl 'r[0]["metrics"]["transpose_flops"]')" ]
    [ "$(jget from-db.jsonl 'r[0]["metrics"]["transpose_flops"] > 0')" = true ]
    [ "$(sqlite3 sim.db 'SELECT count(*) FROM event WHERE transpose = 1')" -gt 0 ]
    nx-convert --to pftrace -o sim-source.pftrace prof/vmap.sim.trn2.jsonl.gz >/dev/null
    nx-convert --to pftrace -o sim-db.pftrace sim.db >/dev/null
    diff <(test-pftrace_dump sim-source.pftrace) <(test-pftrace_dump sim-db.pftrace)
    # A name the database does not have.
    run --separate-stderr nx-convert --to pftrace -o x.pftrace s.db --profile nope
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"s.db: no profile named 'nope' (the database has small, matmul, kineto_step)"* ]]
}

@test "--to chrome-json: strings over a MiB (streamed to the output in slices) come out exactly, escapes and all" {
    python3 - <<'PY'
import json
piece = 'a"b\\c\nd\te\x01f\u00e9g\u4e2dh' * 150000  # ~2.5 MiB, escapes across every slice boundary
events = [{"name": piece, "ph": "X", "ts": 1, "dur": 2, "pid": 1, "tid": 1, "args": {"big": piece[::-1], "n": 3}},
          {"name": "after", "ph": "X", "ts": 5, "dur": 2, "pid": 1, "tid": 1, "args": {"s": "small"}}]
json.dump({"traceEvents": events}, open("big.json", "w"))
PY
    run nx-convert --to chrome-json -o out.json big.json
    [ "$status" -eq 0 ]
    python3 - <<'PY'
import json
src = json.load(open("big.json"))["traceEvents"]
out = [e for e in json.load(open("out.json"))["traceEvents"] if e["ph"] == "X"]
assert [e["name"] for e in out] == [e["name"] for e in src]
assert out[0]["args"]["big"] == src[0]["args"]["big"] and out[0]["args"]["n"] == 3
assert out[1]["args"]["s"] == "small"
PY
}

#!/usr/bin/env bats
# PyTorch profiler (Kineto) traces (issue 10): test/fixtures/kineto.json, made by
# make_fixtures.py, reproduces what Kineto writes: µs timestamps around 1.7e15
# with three decimals, CPU ops, CUDA runtime, kernels, a memcpy and a memset on
# a stream, "ac2g" flows, two zero-duration ops at one time, names last.

load test_helper

@test "chrome traces: decimal µs timestamps become the exact integer ns, not a double's" {
    nx-convert "$FIXTURES/kineto.json" --to events >ev.jsonl
    # Every slice's ts and dur as the file's text says, to the ns.
    run python3 -c "
import json, re
from decimal import Decimal
src = json.load(open('$FIXTURES/kineto.json'), parse_float=Decimal)['traceEvents']
want = sorted((int(e['ts'] * 1000), int(e['dur'] * 1000)) for e in src if e['ph'] == 'X')
got = sorted((x['ts_ns'], x['dur_ns']) for x in map(json.loads, open('ev.jsonl')) if x['kind'] == 'event')
print(want == got, len(got))
# Through a double, most of these move.
print(sum(1 for e in src if e['ph'] == 'X' and round(float(e['ts']) * 1000) != int(e['ts'] * 1000)) > 0)"
    [ "${lines[0]}" = "True 16" ]
    [ "${lines[1]}" = True ]
    [ "$(jget ev.jsonl "[x['ts_ns'] for x in r if x.get('name') == 'aten::addmm'][0]")" = 1695835535123457789 ]
    # The database keeps them too.
    nx-convert "$FIXTURES/kineto.json" --db s.db >/dev/null
    [ "$(sqlite3 s.db "SELECT ts, dur FROM slice WHERE name = 'cudaLaunchKernel' ORDER BY ts LIMIT 1")" = "1695835535123458001|5500" ]
}

@test "chrome traces: thread and process names given at the end of the file reach every output" {
    K="$FIXTURES/kineto.json"
    # Event records: the final names from the first event on, with pid, tid and process.
    nx-convert "$K" --to events >ev.jsonl
    [ "$(jget ev.jsonl 'sorted({x["track"] for x in r if x["kind"] == "event"})')" = '["stream 7", "thread 2869224 (python3)"]' ]
    [ "$(jget ev.jsonl '[[x["pid"], x["tid"], x["process"]] for x in r if x.get("name") == "volta_sgemm_128x64_nn"][0]')" = '[0, 7, "GPU 0"]' ]
    # The database.
    nx-convert "$K" --db s.db >/dev/null
    [ "$(sqlite3 s.db "SELECT group_concat(name, ',') FROM (SELECT name FROM track ORDER BY name)")" = "stream 7,thread 2869224 (python3)" ]
    # Perfetto: threads named, in their named processes.
    nx-convert "$K" --to pftrace -o k.pftrace >/dev/null
    test-pftrace_dump k.pftrace >dump.jsonl
    [ "$(jget dump.jsonl 'sorted(x["name"] for x in r if x["kind"] == "track" and x.get("thread"))')" = '["stream 7", "thread 2869224 (python3)"]' ]
    [ "$(jget dump.jsonl 'sorted(x["name"] for x in r if x["kind"] == "track" and x["is_process"])')" = '["GPU 0", "python3"]' ]
    # Chrome JSON.
    nx-convert "$K" --to chrome-json -o k.trace.json >/dev/null
    [ "$(python3 -c 'import json; t=json.load(open("k.trace.json"))["traceEvents"]; print(sorted(e["args"]["name"] for e in t if e["ph"] == "M" and e["name"] != "thread_sort_index"))')" = \
      "['GPU 0', 'python3', 'stream 7', 'thread 2869224 (python3)']" ]
    # The report lists the tracks by name.
    nx-convert "$K" | nx-report --format text >report.txt
    grep -q '^  stream 7 *GPU 0 *6 *49 us' report.txt
    grep -q '^  thread 2869224 (python3) *python3 *10 *130 us' report.txt
}

@test "chrome traces: standard input is read twice through a temporary copy, removed afterwards, on errors too" {
    mkdir tmp
    TMPDIR=$PWD/tmp nx-convert --to events - <"$FIXTURES/kineto.json" >ev.jsonl
    [ "$(jget ev.jsonl 'sorted({x["track"] for x in r if x["kind"] == "event"})')" = '["stream 7", "thread 2869224 (python3)"]' ]
    [ "$(jget ev.jsonl 'len([x for x in r if x["kind"] == "flow"])')" = 5 ]
    gzip -c "$FIXTURES/kineto.json" | TMPDIR=$PWD/tmp nx-convert --to events - >gz.jsonl
    cmp <(grep -v '"kind":"profile"' ev.jsonl) <(grep -v '"kind":"profile"' gz.jsonl)
    [ -z "$(ls tmp)" ]
    # A stream cut short: the error names <stdin> and its line; nothing is left behind.
    head -c 2000 "$FIXTURES/kineto.json" >cut.json
    run -1 env TMPDIR=$PWD/tmp nx-convert --format chrome-json - <cut.json
    [ "$output" = "nx-convert: <stdin>:124: invalid JSON: input ends early (truncated?)" ]
    [ -z "$(ls tmp)" ]
}

@test "chrome traces: a thread name two threads share gets their pid/tid" {
    cat >two.json <<'JSON'
[{"ph": "X", "cat": "kernel", "name": "k0", "ts": 1, "dur": 2, "pid": 0, "tid": 7},
 {"ph": "X", "cat": "kernel", "name": "k1", "ts": 1, "dur": 2, "pid": 1, "tid": 7},
 {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
 {"ph": "M", "name": "thread_name", "pid": 1, "tid": 7, "args": {"name": "stream 7 "}}]
JSON
    nx-convert two.json --db s.db >/dev/null
    [ "$(sqlite3 s.db "SELECT group_concat(track_name, ',') FROM (SELECT track_name FROM slice ORDER BY name)")" = "stream 7 (0/7),stream 7 (1/7)" ]
    # Perfetto sees two processes, and two threads with distinct tids.
    nx-convert two.json --to pftrace -o two.pftrace >/dev/null
    test-pftrace_dump two.pftrace >dump.jsonl
    [ "$(jget dump.jsonl 'sorted((x["pid"], x["tid"]) for x in r if x["kind"] == "track" and x.get("thread"))')" = '[[0, 7], [1, 1073741824]]' ]
}

@test "chrome traces: flow events become flows between the launch and its GPU work" {
    nx-convert "$FIXTURES/kineto.json" --db s.db >rec.jsonl
    # Each arrow leaves a runtime call and reaches the GPU op of the same correlation id.
    [ "$(sqlite3 s.db "SELECT count(*) FROM flow")" = 5 ]
    [ "$(sqlite3 s.db "SELECT group_concat(o.name || ' -> ' || i.name || ' ' || i.category, '; ') FROM
        (SELECT * FROM flow ORDER BY CAST(trace_id AS INTEGER)) f JOIN slice o ON o.id = f.slice_out JOIN slice i ON i.id = f.slice_in")" = \
      "cudaLaunchKernel -> volta_sgemm_128x64_nn kernel; cudaMemcpyAsync -> Memcpy DtoH (Device -> Pinned) memcpy; cudaMemsetAsync -> Memset (Device) memset; cudaLaunchKernel -> volta_sgemm_128x64_nn kernel; cudaStreamSynchronize -> Stream Sync device_sync" ]
    [ "$(sqlite3 s.db "SELECT count(*) FROM flow f JOIN event o ON o.id = f.slice_out JOIN event i ON i.id = f.slice_in
        WHERE json_extract(o.args, '\$.correlation') = CAST(f.trace_id AS INTEGER) AND json_extract(i.args, '\$.correlation') = CAST(f.trace_id AS INTEGER)
          AND f.category = 'ac2g'")" = 5 ]
    # The Context Sync's end has no start: counted, not fatal.
    [ "$(jget rec.jsonl 'r[0]["chrome_flows"]')" = '{"flows": 5, "points": 11, "unbound": 0, "without_start": 1, "without_end": 0}' ]
    # Flow records name event records by index; reading them back keeps the flows.
    nx-convert "$FIXTURES/kineto.json" --to events >ev.jsonl
    [ "$(jget ev.jsonl '[(e[f["from_event"]]["name"], e[f["to_event"]]["name"]) for e in [[x for x in r if x["kind"] == "event"]] for f in r if f["kind"] == "flow"][4]')" = '["cudaStreamSynchronize", "Stream Sync"]' ]
    nx-convert --db back.db ev.jsonl >/dev/null
    q="SELECT o.name, i.name, f.trace_id FROM flow f JOIN slice o ON o.id = f.slice_out JOIN slice i ON i.id = f.slice_in ORDER BY 3"
    [ "$(sqlite3 back.db "$q")" = "$(sqlite3 s.db "$q")" ]
}

@test "chrome traces: flows are arrows in Perfetto and flow events in Chrome JSON, also at equal timestamps" {
    nx-convert "$FIXTURES/kineto.json" --to pftrace -o k.pftrace >/dev/null
    test-pftrace_dump k.pftrace >dump.jsonl
    # Every flow starts on the launch and ends on its GPU op; the stream sync's
    # flow starts before it ends although both slices begin at one time.
    [ "$(jget dump.jsonl '[p for i, p in sorted({i: (o["name"], e["name"]) for o in r if o.get("flow_out") for e in r if e.get("flow_in") for i in o["flow_out"] if i in e["flow_in"]}.items())]')" = \
      '[["cudaLaunchKernel", "volta_sgemm_128x64_nn"], ["cudaMemcpyAsync", "Memcpy DtoH (Device -> Pinned)"], ["cudaMemsetAsync", "Memset (Device)"], ["cudaLaunchKernel", "volta_sgemm_128x64_nn"], ["cudaStreamSynchronize", "Stream Sync"]]' ]
    [ "$(jget dump.jsonl '[x for x in r if x["kind"] == "error"]')" = '[]' ]
    # Chrome JSON: an "s" after the launch, an "f" (bp "e") after the GPU op;
    # nx reads its own trace back to the same flows.
    nx-convert "$FIXTURES/kineto.json" --to chrome-json -o k.trace.json >/dev/null
    [ "$(python3 -c 'import json,collections; t=json.load(open("k.trace.json"))["traceEvents"]; print(sorted(collections.Counter((e["ph"], e.get("bp", "")) for e in t if e["ph"] in "sf").items()))')" = \
      "[(('f', 'e'), 5), (('s', ''), 5)]" ]
    nx-convert "$FIXTURES/kineto.json" --db a.db >/dev/null
    nx-convert k.trace.json --db b.db >rec.jsonl
    q="SELECT o.ts, o.name, i.ts, i.name FROM flow f JOIN slice o ON o.id = f.slice_out JOIN slice i ON i.id = f.slice_in ORDER BY 1, 3"
    [ "$(sqlite3 b.db "$q")" = "$(sqlite3 a.db "$q")" ]
    [ "$(jget rec.jsonl 'r[0]["chrome_flows"]["flows"]')" = 5 ]
}

@test "chrome traces: Kineto's categories classify GPU work, and Neuron-shaped traces still give engines" {
    nx-convert "$FIXTURES/kineto.json" --db s.db >/dev/null
    [ "$(sqlite3 s.db "SELECT group_concat(category || '=' || n, ',') FROM (SELECT category, count(*) AS n FROM slice GROUP BY 1 ORDER BY 1)")" = \
      "device_sync=2,kernel=2,memcpy=1,memset=1,region=5,runtime=5" ]
    # The source's category stays queryable; a memcpy's bytes are its size.
    [ "$(sqlite3 s.db "SELECT count(*) FROM event WHERE json_extract(args, '\$.cat') = 'cuda_runtime'")" = 5 ]
    [ "$(sqlite3 s.db "SELECT bytes FROM slice WHERE category = 'memcpy'")" = 4096 ]
    # Engine rows and DMA queues named by M events at the end of the file.
    python3 -c '
import json
t = json.load(open("'"$FIXTURES"'/trace.json"))
ev = t["traceEvents"]
t["traceEvents"] = [e for e in ev if e["ph"] != "M"] + [e for e in ev if e["ph"] == "M"]
json.dump(t, open("late.json", "w"), indent=1)'
    nx-convert late.json --db n.db >/dev/null
    [ "$(sqlite3 n.db "SELECT engine || ',' || category FROM slice WHERE name = 'MATMUL' LIMIT 1")" = "tensor_matrix,instruction" ]
    [ "$(sqlite3 n.db "SELECT category FROM slice WHERE track_name = 'qSyncIO0'")" = dma ]
}

@test "chrome traces: two zero-duration slices at one time are siblings in file order in every output" {
    K="$FIXTURES/kineto.json"
    nx-convert "$K" --to pftrace -o k.pftrace >/dev/null
    test-pftrace_dump k.pftrace >dump.jsonl
    [ "$(jget dump.jsonl '[(x["name"], x["depth"]) for x in r if x["kind"] == "slice" and x["dur"] == 0]')" = '[["aten::view", 2], ["aten::detach_", 2]]' ]
    nx-convert "$K" --to chrome-json -o k.trace.json >/dev/null
    [ "$(python3 -c 'import json; t=json.load(open("k.trace.json"))["traceEvents"]; print([e["name"] for e in t if e["ph"] == "X" and e["dur"] == 0])')" = "['aten::view', 'aten::detach_']" ]
    # nx reads its Chrome JSON back to the same nesting.
    nx-convert k.trace.json --to pftrace -o back.pftrace >/dev/null
    test-pftrace_dump back.pftrace >back.jsonl
    [ "$(jget back.jsonl '[(x["name"], x["depth"]) for x in r if x["kind"] == "slice" and x["dur"] == 0]')" = '[["aten::view", 2], ["aten::detach_", 2]]' ]
    # B/E pairs at one time: b2 is written inside b1; b1 still comes first,
    # and neither contains the other.
    printf '[{"ph":"B","name":"b1","ts":5,"pid":1,"tid":1},{"ph":"B","name":"b2","ts":5,"pid":1,"tid":1},\n{"ph":"E","ts":5,"pid":1,"tid":1},{"ph":"E","ts":5,"pid":1,"tid":1}]\n' >be.json
    nx-convert be.json --to pftrace -o be.pftrace >/dev/null
    test-pftrace_dump be.pftrace >be.jsonl
    [ "$(jget be.jsonl '[(x["name"], x["depth"]) for x in r if x["kind"] == "slice"]')" = '[["b1", 0], ["b2", 0]]' ]
    nx-convert be.json --to chrome-json -o be.trace.json >/dev/null
    [ "$(python3 -c 'import json; t=json.load(open("be.trace.json"))["traceEvents"]; print([e["name"] for e in t if e["ph"] == "X"])')" = "['b1', 'b2']" ]
}

@test "chrome traces: Perfetto gets the source's processes and threads with their pids and tids" {
    nx-convert "$FIXTURES/kineto.json" --to pftrace -o k.pftrace >/dev/null
    test-pftrace_dump k.pftrace >dump.jsonl
    [ "$(jget dump.jsonl 'sorted((x["name"], x["pid"]) for x in r if x["kind"] == "track" and x["is_process"])')" = '[["GPU 0", 0], ["python3", 2869224]]' ]
    [ "$(jget dump.jsonl 'sorted((x["name"], x["process"], x["pid"], x["tid"]) for x in r if x["kind"] == "track" and x.get("thread"))')" = \
      '[["stream 7", "GPU 0", 0, 7], ["thread 2869224 (python3)", "python3", 2869224, 2869224]]' ]
    # Every event is on its row (same ts, dur and name as the events).
    nx-convert "$FIXTURES/kineto.json" --to events >events.jsonl
    run python3 "$BATS_TEST_DIRNAME/trace_check.py" compare events.jsonl dump.jsonl
    [ "$output" = "OK 16" ]
    # Chrome JSON keeps them too.
    nx-convert "$FIXTURES/kineto.json" --to chrome-json -o k.trace.json >/dev/null
    [ "$(python3 -c 'import json; t=json.load(open("k.trace.json"))["traceEvents"]; print(sorted({(e["pid"], e["tid"]) for e in t if e["ph"] == "X"}))')" = "[(0, 7), (2869224, 2869224)]" ]
}

@test "chrome traces: bad flow events and names are bad records; unpaired flows are counted" {
    printf '[{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1},\n{"ph":"s","ts":1,"pid":1,"tid":1,"id":{"x":1}}]\n' >badid.json
    run -1 nx-convert badid.json
    [ "$output" = 'nx-convert: badid.json:2: expected a whole number or a string for a flow event'"'"'s id' ]
    # --keep-going skips it, says so and loads the rest (exit 1: something was skipped).
    run -1 nx-convert --keep-going --db k.db badid.json
    [[ "$output" == *"skipped 1 bad record"* ]]
    [ "$(sqlite3 k.db "SELECT count(*) FROM slice")" = 1 ]
    printf '[{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1},\n{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":["t"]}}]\n' >badname.json
    run -1 nx-convert badname.json
    [ "$output" = 'nx-convert: badname.json:2: "thread_name" metadata without a string "args"."name"' ]
    # An end without its start, a start without its end, a point with no slice.
    printf '[{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1},\n{"ph":"f","ts":2,"pid":1,"tid":1,"id":1,"bp":"e"},\n{"ph":"s","ts":2,"pid":1,"tid":1,"id":2},\n{"ph":"s","ts":9,"pid":1,"tid":2,"id":3}]\n' >unpaired.json
    nx-convert unpaired.json --db u.db >rec.jsonl
    [ "$(jget rec.jsonl 'r[0]["chrome_flows"]')" = '{"flows": 0, "points": 3, "unbound": 1, "without_start": 1, "without_end": 2}' ]
    [ "$(sqlite3 u.db "SELECT count(*) FROM flow")" = 0 ]
    # A flow record of an event stream whose end is not one of its profile's slices.
    nx-convert "$FIXTURES/kineto.json" --to events | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r["kind"] == "flow" and r["id"] == "9": r["to_event"] = 99
    print(json.dumps(r))' >edited.jsonl
    run -1 nx-convert edited.jsonl
    [ "$output" = "nx-convert: edited.jsonl:18: flow 9: event 99 is not a slice of this profile" ]
}

@test "chrome traces: a distributed job's trace says its rank (distributedInfo); c10d's collectives are collectives, and --ranks finds the late rank" {
    gloo_job job 4 2
    nx-convert job/host_1001.1700000000.pt.trace.json >r1.jsonl
    # The file's own rank and job, kept in the record.
    [ "$(jget r1.jsonl "r[0]['rank']")" = 1 ]
    [ "$(jget r1.jsonl "r[0]['distributed']")" = '{"backend": "gloo", "rank": 1, "world_size": 4}' ]
    # The all_reduces are the collectives, each as long as its slice says.
    [ "$(jget r1.jsonl "[(o['name'], o['dur_ns']) for o in r[0]['collective_ops']][:2]")" = '[["gloo:all_reduce", 100000000], ["gloo:all_reduce", 130000000]]' ]
    [ "$(jget r1.jsonl "r[0]['metrics']['collective_op_count']")" = 6 ]
    [ "$(jget r1.jsonl "r[0]['breakdown']['collective_ns']")" = 690000000 ]
    # On the collectives track, in every output; the step markers stay regions of their thread.
    nx-convert job/host_1001.1700000000.pt.trace.json --db s.db >/dev/null
    [ "$(sqlite3 s.db "SELECT DISTINCT track_name || ',' || category FROM slice WHERE name = 'gloo:all_reduce'")" = "collectives,region" ]
    [ "$(sqlite3 s.db "SELECT track_name FROM slice WHERE name = 'ProfilerStep#0'")" = "thread 1 (pt_main_thread)" ]
    # A rank given on the command line wins.
    [ "$(nx-convert --rank 9 job/host_1001.1700000000.pt.trace.json | jget - "r[0]['rank']")" = 9 ]
    # A trace without distributedInfo has no rank.
    [ "$(nx-convert "$FIXTURES/kineto.json" | jget - "('rank' in r[0], 'distributed' in r[0])")" = "[false, false]" ]
    # The job: rank 2 started the all_reduces late, its peers waited.
    nx-convert job/*.json >all.jsonl
    nx-report --ranks all.jsonl >ranks.jsonl
    [ "$(jget ranks.jsonl "[(x['rank'], x['straggler'], x['latest_collectives'], x['wait_ns'], x['iterations']) for x in r]")" = \
      "[[0, 0, 0, 180000000, 3], [1, 0, 0, 180000000, 3], [2, 1, 3, 0, 3], [3, 0, 0, 180000000, 3]]" ]
    [ "$(jget r1.jsonl "[(i['step'], i['dur_ns']) for i in r[0]['iterations']]")" = "[[0, 600000000], [1, 600000000], [2, 600000000]]" ]
    # HTA's straggler counts iterations: rank 1 starts two all_reduces of
    # every step 1 ms late (last on 6 collectives), rank 2 the step's most
    # variable one 30 ms late (last in all 3 steps).  Without the steps
    # marked, each collective counts, and rank 1 is last most often.
    gloo_job nudged 4 2 1
    nx-convert nudged/*.json | nx-report --ranks - >n.jsonl
    [ "$(jget n.jsonl "[(x['rank'], x['latest_collectives']) for x in r if x['straggler']]")" = "[[2, 3]]" ]
    nx-convert nudged/*.json | nx-report --ranks --format md - | grep -q "in 3 of 3 iterations it starts the iteration's most variable significant collective last"
    gloo_job unmarked 4 2 1 0
    nx-convert unmarked/*.json | nx-report --ranks - >u.jsonl
    [ "$(jget u.jsonl "[(x['rank'], x['latest_collectives'], x['iterations']) for x in r if x['straggler']]")" = "[[1, 6, 0]]" ]
    # A profiler schedule that repeats leaves a trace per window on each
    # rank: compared window by window (steps 0-2: rank 2 late; steps 10-12:
    # rank 1), not mixed, and no rank is a duplicate.
    gloo_job windows 3 2
    gloo_job windows 3 1 -1 3 10
    nx-convert windows/*.json | nx-report --ranks - >w.jsonl
    [ "$(jget w.jsonl "[(x['steps'], x['rank']) for x in r if x['straggler']]")" = '[["0-2", 2], ["10-12", 1]]' ]
    nx-convert windows/*.json | nx-report --ranks --format md - >w.md
    grep -q "^# Ranks: windows, steps 0-2$" w.md
    grep -q "^# Ranks: windows, steps 10-12$" w.md
    refute grep -qi "duplicate\|twice\|kept " w.md
    # The traces say the job's size: a rank without a profile is named.
    nx-convert job/host_100[023]*.json | nx-report --ranks --format md - >three.md
    grep -q "^3 ranks of the job's 4 (its traces say so); no profile of rank 1\." three.md
    nx-convert job/*.json | nx-report --ranks --format md - | grep -q "^4 ranks\. "
    # Into a dataset, each in its rank's partition, no --rank needed.
    nx-convert --dataset ds job/*.json >/dev/null
    [ "$(ls ds/profiles | tr '\n' ' ')" = "rank=0 rank=1 rank=2 rank=3 " ]
}

@test "chrome traces: Kineto's GPU copies of a step and a collective (gpu_user_annotation) count once; records re-read keep one iterations list" {
    gloo_job job 2 1
    python3 - <<'PY'
import json
p = "job/host_1000.1700000000.pt.trace.json"
t = json.load(open(p))
# The GPU stream's copies, starting once the CPU has launched the work.
copies = [dict(e, cat="gpu_user_annotation", pid=0, tid=7, ts=e["ts"] + 50) for e in t["traceEvents"]
          if e.get("cat") == "user_annotation"]
t["traceEvents"] += copies + [{"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7"}}]
json.dump(t, open(p, "w"))
PY
    nx-convert job/host_1000.1700000000.pt.trace.json >r.jsonl
    # Each step once, from the CPU's slice (the GPU's starts 50 us later).
    [ "$(jget r.jsonl "[(i['step'], i['start_ns'] - 1700000000000125) for i in r[0]['iterations']]")" = "[[0, 0], [1, 700000000], [2, 1400000000]]" ]
    [ "$(jget r.jsonl "r[0]['metrics']['collective_op_count']")" = 6 ]
    # Events and record read back (nx-jsonl), twice: the iterations are
    # written once, not once more each time.
    nx-convert --to events job/host_1000.1700000000.pt.trace.json >ev.jsonl
    nx-convert --to events ev.jsonl | nx-convert - >thrice.jsonl
    [ "$(grep -o '"iterations"' thrice.jsonl | wc -l)" -eq 1 ]
    [ "$(jget thrice.jsonl "len(r[0]['iterations'])")" = 3 ]
}

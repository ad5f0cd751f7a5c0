#!/usr/bin/env bats
# Real neuron-profile JSON (issue 10): fixtures of our own that reproduce what
# neuron-profile 2.27 writes on an inf2 (test/fixtures/device_idle.json, made
# by make_fixtures.py): an idle device whose Vector and Sync rows sit in
# EVENT_SEMAPHORE waits, the profiler's own busy intervals, fraction percents.

load test_helper

# The profiler's *_engine_active_time_percent (a fraction of 1) x 100.
profiler_percent() {
    python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['summary'][0][sys.argv[2] + '_engine_active_time_percent'] * 100)" \
        "$FIXTURES/device_idle.json" "$1"
}

@test "real profiles: each engine's active percent is the profiler's, in metrics and the engine table" {
    nx-convert "$FIXTURES/device_idle.json" >out.jsonl
    for e in tensor vector scalar gpsimd sync; do
        want=$(profiler_percent "$e")
        got=$(jget out.jsonl "r[0]['metrics']['${e}_engine_active_time_percent']")
        row=$(jget out.jsonl "[x['active_percent'] for x in r[0]['engines'] if x['engine'] == '$e'][0]")
        python3 -c "import sys; w, g, t = map(float, sys.argv[1:]); assert abs(w - g) <= 0.01 and abs(w - t) <= 0.01, (w, g, t)" \
            "$want" "$got" "$row"
    done
    # The engine rows say how they were made; the profiler's tensor intervals
    # cover TensorMatrix too, so there is one Tensor row.
    [ "$(jget out.jsonl "[x['origin'] for x in r[0]['engines'] if x['engine'] == 'vector'][0]")" = "profiler active_time" ]
    # DMA: the profiler's summary dma_active_time (576 ns, the six packets);
    # the transfer they make up (696 ns, "aggregated") is neither counted nor
    # a disagreement.
    [ "$(jget out.jsonl "[[x['origin'], x['busy_ns']] for x in r[0]['engines'] if x['engine'] == 'dma'][0]")" = '["profiler dma_active_time", 576]' ]
    [ "$(jget out.jsonl "[x['engine'] for x in r[0]['engines']]")" = '["tensor", "vector", "scalar", "gpsimd", "sync", "dma"]' ]
    # Busiest engine: GpSimd's 0.0393%, not a semaphore wait's 99%.
    [ "$(jget out.jsonl "round(r[0]['metrics']['busiest_engine_active_time_percent'], 4)")" = 0.0393 ]
    [ "$(jget out.jsonl "'metric_disagreements' in r[0]")" = false ]
    # The folded Tensor row's work: LDWEIGHTS 82, NOP 16, WRITE 64 and the
    # TensorMatrix MATMUL 209 ns, its 17 ns EVENT_SEMAPHORE left out: 371 / 4.
    [ "$(jget out.jsonl "[[x['instructions'], x['work_instructions'], x['work_sum_ns']] for x in r[0]['engines'] if x['engine'] == 'tensor'][0]")" = "[5, 4, 371]" ]
    [[ "$(nx-report --format text out.jsonl)" == *"Tensor (all of TensorE)"*"5 instr (1 semaphore wait), mean 93 ns"* ]]
}

@test "real profiles: without active_time, busy time is derived from instructions less EVENT_SEMAPHORE waits" {
    python3 -c "import json,sys; d = json.load(open(sys.argv[1])); del d['active_time']; json.dump(d, open('noactive.json', 'w'))" \
        "$FIXTURES/device_idle.json"
    nx-convert noactive.json >out.jsonl
    # The profiler's intervals end one ns past each instruction: within 0.001 points.
    for e in vector sync; do
        want=$(profiler_percent "$e")
        row=$(jget out.jsonl "[x['active_percent'] for x in r[0]['engines'] if x['engine'] == '$e'][0]")
        python3 -c "import sys; w, t = map(float, sys.argv[1:]); assert abs(w - t) <= 0.001, (w, t)" "$want" "$row"
    done
    [ "$(jget out.jsonl "[x['origin'] for x in r[0]['engines'] if x['engine'] == 'sync'][0]")" = \
      "derived from instructions, semaphore waits excluded" ]
    [ "$(jget out.jsonl "[x['engine'] for x in r[0]['engines']][:2]")" = '["tensor_matrix", "tensor"]' ]
}

@test "real profiles: a source figure nx derives more than 10% differently is shown beside nx's" {
    # Sync's EVENT_SEMAPHORE retyped as work: nx's figure is then ~99%.
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
del d['active_time']
for i in d['instruction']:
    if i['label'] == 'Sync' and i['opcode'] == 'EVENT_SEMAPHORE': i['opcode'] = 'NOP'
json.dump(d, open('nop.json', 'w'))" "$FIXTURES/device_idle.json"
    nx-convert nop.json >out.jsonl
    [ "$(jget out.jsonl "[d['metric'] for d in r[0]['metric_disagreements']]")" = \
      '["sync_engine_active_time", "sync_engine_active_time_percent"]' ]
    [ "$(jget out.jsonl "round(r[0]['metric_disagreements'][1]['source'], 4)")" = 0.007 ]
    [ "$(jget out.jsonl "r[0]['metrics']['sync_engine_active_time_percent'] < 0.01")" = true ]
    run nx-report --format text out.jsonl
    [ "$status" -eq 0 ]
    [[ "$output" == *"Source and nx disagree (more than 10%)"* ]]
    [[ "$output" == *"sync_engine_active_time_percent"*"derived from instructions, semaphore waits excluded"* ]]
}

@test "real profiles: rules, queries and the trace agree the idle device is idle" {
    nx-convert "$FIXTURES/device_idle.json" --db s.db >/dev/null
    run nx-report --db s.db --all --format jsonl
    [ "$status" -eq 0 ]
    [[ "$output" != *engine_saturated* ]]
    [[ "$output" != *bandwidth_bound* ]]
    # engine_utilization: the profiler's intervals, as in the profile record
    # (Vector: 292 + 10 + 54 ns; Sync: 95 + 37 + 8 ns; instructions include the waits).
    run nx-query --db s.db engine_utilization --format csv
    [ "$status" -eq 0 ]
    [[ "$output" == *"device_idle,vector,5,356,0.02,"* ]]
    [[ "$output" == *"device_idle,sync,4,140,0.01,"* ]]
    # timeline: Vector busy 356 ns in all, not 99% of every bucket.
    [ "$(nx-query --db s.db timeline --format csv | awk -F, '$2 == "vector" { s += $6 } END { print s }')" = 356 ]
    # dma_vs_compute: the 576 ns of DMA packets are hardly hidden by compute (42 ns), not by waits.
    run nx-query --db s.db dma_vs_compute --format csv
    [ "${lines[1]}" = "device_idle,576,2006,42,534,1964,1997454,7.29" ]
    # engine_overlap: Sync and Vector overlap 27 ns, not the 2 ms they both wait.
    [ "$(nx-query --db s.db engine_overlap --format csv | grep '^device_idle,sync,vector,')" = "device_idle,sync,vector,27,19.29,7.58" ]
}

@test "real profiles: active intervals reach every sink and survive an nx-jsonl round trip" {
    nx-convert "$FIXTURES/device_idle.json" --to events >ev.jsonl
    # One per instruction that is not an EVENT_SEMAPHORE (19 - 4), LDWEIGHTS and MATMUL merged.
    [ "$(jget ev.jsonl "len([x for x in r if x.get('type') == 'active'])")" = 14 ]
    [ "$(jget ev.jsonl "sorted({x['track'] for x in r if x.get('type') == 'active'})")" = \
      '["gpsimd active", "scalar active", "sync active", "tensor active", "vector active"]' ]
    nx-convert ev.jsonl >again.jsonl
    nx-convert "$FIXTURES/device_idle.json" >once.jsonl
    [ "$(jget again.jsonl "r[0]['engines']")" = "$(jget once.jsonl "r[0]['engines']")" ]
    nx-convert "$FIXTURES/device_idle.json" --to chrome-json -o t.json >/dev/null
    run python3 -c "
import json
ev = json.load(open('t.json'))['traceEvents']
print(sorted(e['args']['name'] for e in ev if e.get('ph') == 'M' and e['name'] == 'thread_name' and 'active' in e['args']['name']))
peak = max(list(e['args'].values())[0] for e in ev if e.get('ph') == 'C' and e['name'] == 'Vector utilisation (%)')
print(peak < 5)"
    [ "${lines[0]}" = "['gpsimd active', 'scalar active', 'sync active', 'tensor active', 'vector active']" ]
    [ "${lines[1]}" = True ]  # Vector's utilisation counter: a few %, not 100% of waiting
    nx-convert "$FIXTURES/device_idle.json" --to pftrace -o t.pftrace >/dev/null
    [ "$(test-pftrace_dump t.pftrace | grep -c 'vector active')" -ge 1 ]
}

@test "real profiles: summary instance_type sets the target unless --target says otherwise" {
    nx-convert "$FIXTURES/device_idle.json" >out.jsonl
    [ "$(jget out.jsonl 'r[0]["target"]')" = inf2 ]
    [ "$(jget out.jsonl '"peak_flops" in r[0]["metrics"]')" = true ]
    nx-convert --target trn2 "$FIXTURES/device_idle.json" >out.jsonl
    [ "$(jget out.jsonl 'r[0]["target"]')" = trn2 ]
    sed 's/"inf2.xlarge"/"trn2u.48xlarge"/' "$FIXTURES/device_idle.json" >u.json
    [ "$(nx-convert u.json | jget - 'r[0]["target"]')" = trn2 ]
    sed 's/"inf2.xlarge"/"m5.large"/' "$FIXTURES/device_idle.json" >m.json
    [ "$(nx-convert m.json | jget - 'r[0]["target"]')" = null ]
}

@test "real profiles: time series are counters (counter table, Perfetto counter tracks), not zero-length slices" {
    nx-convert "$FIXTURES/device_idle.json" --to events >ev.jsonl
    # No slice is made of a time-series sample (the one region is the DMA
    # transfer over its packets).
    [ "$(jget ev.jsonl "[x['track'] for x in r if x.get('type') == 'region']")" = '["qSyncSpillReload0"]' ]
    [ "$(jget ev.jsonl "sorted({(x['track'], x['value']) for x in r if x.get('type') == 'counter' and x['ts_ns'] in (1529, 4495, 1994009, 1994100)})")" = \
      '[["PSUM used (%)", 12.5], ["SBUF used (%)", 0.13], ["pending DMAs", 0], ["semaphore 2", 2]]' ]
    [ "$(jget ev.jsonl "sorted({x['track'] for x in r if x.get('type') == 'counter'})")" = \
      '["DMA throughput (B/s)", "HBM throughput (B/s)", "PSUM used (%)", "SBUF used (%)", "pending DMAs", "semaphore 2"]' ]
    nx-convert "$FIXTURES/device_idle.json" --db s.db >/dev/null
    # 2 semaphore + 2 pending + 2x2 throughput + 2 usage samples (and nx's own counters, without a source row).
    [ "$(sqlite3 s.db "SELECT count(*) FROM counter c JOIN track t ON t.id = c.track_id WHERE t.row IS NOT NULL")" -eq 10 ]
    [ "$(sqlite3 s.db "SELECT count(*) FROM slice WHERE dur = 0")" -eq 0 ]
    nx-convert "$FIXTURES/device_idle.json" --to pftrace -o t.pftrace >/dev/null
    [ "$(test-pftrace_dump t.pftrace | grep -c 'semaphore 2\|pending DMAs\|PSUM used')" -ge 3 ]
}

@test "real profiles: the profiler's warnings come first, as findings with severity, in every format" {
    nx-convert "$FIXTURES/device_idle.json" >out.jsonl
    run nx-report --format text out.jsonl
    [ "$status" -eq 0 ]
    # Right after the header facts, before anything nx derived.
    [ "$(echo "$output" | grep -v -e '^ ' -e '^$' | sed -n 3p)" = "Profiler warnings" ]
    [[ "$output" == *"warn  profiler_warning: the profiler says: Missing additional dynamic DMA metadata"*"-> capture with --enable-dge-notifs"* ]]
    run nx-report --format jsonl out.jsonl
    [ "$(echo "${lines[0]}" | jget - "[r[0]['rule'], r[0]['severity'], r[0]['metric']]")" = '["profiler_warning", "warn", "Missing Data"]' ]
    [[ "$(echo "${lines[0]}" | jget - "r[0]['action']")" == "capture with --enable-dge-notifs"* ]]
    [ "$(echo "${lines[1]}" | jget - "r[0]['action']")" = "recompile the model with the current neuronx-cc to get the compiler's metrics" ]
    run nx-report --format csv out.jsonl
    [[ "${lines[1]}" == finding,*,profiler_warning,warn,* ]]
    for f in markdown html; do
        nx-report --format $f out.jsonl >r.$f
        w=$(grep -n "Profiler warnings" r.$f | head -1 | cut -d: -f1)
        u=$(grep -n "Utilisation" r.$f | head -1 | cut -d: -f1)
        [ -n "$w" ]
        [ "$w" -lt "$u" ]
    done
    # Explorer profiles carry their Warning table the same way.
    nx-convert "$FIXTURES/parquet/explorer/matmul@latest" >ex.jsonl
    [ "$(nx-report --format jsonl ex.jsonl | head -1 | jget - "r[0]['rule']")" = profiler_warning ]
}

@test "real profiles: versions on the profile record, per-layer metrics, DMA packets apart from transfers" {
    nx-convert "$FIXTURES/device_idle.json" >out.jsonl
    [ "$(jget out.jsonl "[r[0]['versions'][k] for k in ('profiler', 'runtime', 'compiler')]")" = \
      '["2.27.33.0", "2.29.40 (f954c)", "2.22.12471.0+b4a00d10"]' ]
    # layer_summary: ns get _ns, fractions become percents.
    [ "$(jget out.jsonl "[l['name'] for l in r[0]['layers']]")" = '["/sg00", "/sg00/_dot.3"]' ]
    [ "$(jget out.jsonl "[r[0]['layers'][0]['vector_engine_active_time_ns'], round(r[0]['layers'][0]['vector_engine_active_time_percent'], 4), r[0]['layers'][1]['mfu_estimated_percent']]")" = \
      '[356, 0.0178, 0.0026]' ]
    # nc_mem_usage and dma_queues_info are carried as the profiler wrote them.
    [ "$(jget out.jsonl "[r[0]['nc_mem_usage'][0]['amount_bytes'], r[0]['dma_queues_info'][0]['q_name']]")" = '[25600, "qSyncSpillReload0"]' ]
    run nx-report --format text out.jsonl
    [[ "$output" == *"versions    profiler 2.27.33.0, runtime 2.29.40 (f954c), compiler 2.22.12471.0+b4a00d10"* ]]
    [[ "$output" == *"/sg00/_dot.3"*"2.00 ms"* ]] || [[ "$output" == *"/sg00/_dot.3"* ]]
    # The summary counts one transfer; the six records are its packets.
    [[ "$output" == *"6 DMA packets"* ]]
    [[ "$output" == *"transfers (the profiler's count)  1"* ]]
    [[ "$output" == *"packets (records in the profile)  6"* ]]
    [[ "$output" != *" transfers,"* ]]
}

@test "real profiles: a flat summary object is one graph's summary" {
    run nx-convert "$FIXTURES/summary_flat.json"
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | jget - "[r[0]['format'], r[0]['target'], round(r[0]['metrics']['tensor_engine_active_time_percent'], 6)]")" = \
      '["summary-json", "inf2", 0.0539]' ]
}

@test "real profiles: --format neuron-json on a file without an instruction array says so" {
    run nx-convert --format neuron-json "$FIXTURES/summary_flat.json"
    [ "$status" -eq 1 ]
    [[ "$output" == *"summary_flat.json: no \"instruction\" array: not a neuron-profile device profile"* ]]
    echo '{"summary": [{"total_time": 0.001}]}' >s.json
    run nx-convert --format neuron-json s.json
    [ "$status" -eq 1 ]
    [[ "$output" == *"no \"instruction\" array"* ]]
}

@test "nx-convert: a Perfetto trace is named as one, not 'cannot tell its format'" {
    nx-convert --to pftrace -o t.pftrace "$FIXTURES/small.json" >/dev/null
    cp t.pftrace t.bin
    for f in t.pftrace t.bin; do
        run --separate-stderr nx-convert "$f"
        [ "$status" -eq 1 ]
        [ "$stderr" = "nx-convert: $f: a Perfetto trace (protobuf): nx writes these (nx-convert --to pftrace) but does not read them; convert the profile the trace was made from" ]
    done
}

@test "nx-convert: a rank directory given with a trailing slash names its files once" {
    cp -r "$FIXTURES/ranks" ranks
    nx-convert ranks/ >out.jsonl
    [ "$(jget out.jsonl '[x["source"] for x in r]')" = "[\"$PWD/ranks/profile_rank_0.json\", \"$PWD/ranks/profile_rank_1.json\"]" ]
    [ "$(jget out.jsonl '[x["name"] for x in r]')" = '["ranks/rank0", "ranks/rank1"]' ]
}

@test "nx-report: source metrics nx does not define show the unit their name states" {
    python3 - "$FIXTURES/small.json" >s.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["summary"][0]["throttle_activity_0_active_time_nc0_percent"] = 0.25
print(json.dumps(d))
PY
    nx-convert --db s.db s.json >/dev/null
    [ "$(sqlite3 s.db "SELECT unit FROM metric WHERE name = 'throttle_activity_0_active_time_nc0_percent'")" = "%" ]
}

@test "nx-report: HBM and spill bytes are the profiler's when some DMA packets do not say their memories" {
    # As in neuron-profile 2.27 files: a queue named qSyncSpillReload0 moves
    # WEIGHT -> SB, and most packets (queue Q0) name no memory at all.  A sum
    # from queue names would call the weight loads spill reloads and miss the rest.
    python3 >dma.json <<'PY'
import json
instr = [{"timestamp": 0, "duration": 10, "label": "Vector", "opcode": "ACTIVATE"}]
dma = [{"timestamp": 1, "duration": 5, "subgroup": "qSyncSpillReload0-Q1-E0", "transfer_size": 2048,
        "source": [["WEIGHT"]], "dest": ["SB"]},
       {"timestamp": 2, "duration": 5, "subgroup": "Q0", "transfer_size": 4096,
        "source": [["unknown"]], "dest": ["unknown"]}]
summary = [{"total_time": 1e-05, "hbm_read_bytes": 100352, "hbm_write_bytes": 34816,
            "spill_reload_bytes": 0, "spill_save_bytes": 0}]
print(json.dumps({"summary": summary, "instruction": instr, "dma": dma}))
PY
    nx-convert --db s.db dma.json >p.jsonl
    run nx-report --format text p.jsonl
    [ "$status" -eq 0 ]
    [[ "$output" != *"derived from DMA queue names"* ]]
    [[ "$output" == *"1 DMA packets (4096 bytes) do not say which memory they read or wrote: HBM and spill bytes come from the source summary only"* ]]
    [ "$(sqlite3 s.db "SELECT value || ' ' || origin FROM metric WHERE name = 'hbm_read_bytes'")" = "100352.0 source" ]
    [ "$(sqlite3 s.db "SELECT value || ' ' || origin FROM metric WHERE name = 'spill_reload_bytes'")" = "0.0 source" ]
}

@test "real profiles: DMA packets are classified by their own memories; the transfer over them is not counted again" {
    # device_idle.json: six WEIGHT -> SB packets on qSyncSpillReload0 and the
    # "aggregated" transfer they make up, as neuron-profile 2.27 lists them.
    nx-convert "$FIXTURES/device_idle.json" --to events >ev.jsonl
    [ "$(jget ev.jsonl "sorted({x['dma_kind'] for x in r if x.get('type') == 'dma'})")" = '["weight_load"]' ]
    [ "$(jget ev.jsonl "[[x['name'], x['dur_ns'], x['args']['aggregated']] for x in r if x.get('type') == 'region']")" = \
      '[["DMA transfer", 696, "yes"]]' ]
    # The packets keep their memories in args.
    [ "$(jget ev.jsonl "[x['args']['source'] for x in r if x.get('type') == 'dma'][0]")" = '[["WEIGHT"]]' ]
    # Without the profiler's DMA figures nx derives them from the packets
    # alone: 576 ns busy (the transfer would make it 696), 12288 bytes of
    # weights, no spill reloads (the queue's name says spill; the packets say WEIGHT).
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for k in ('dma_active_time', 'dma_active_time_percent'): del d['summary'][0][k]
json.dump(d, open('nodma.json', 'w'))" "$FIXTURES/device_idle.json"
    nx-convert nodma.json >out.jsonl
    [ "$(jget out.jsonl "[[x['origin'], x['busy_ns'], x['instructions']] for x in r[0]['engines'] if x['engine'] == 'dma'][0]")" = \
      '["derived from DMA transfers", 576, 6]' ]
    [ "$(jget out.jsonl "[r[0]['metrics'][k] for k in ('weight_queue_bytes', 'hbm_read_bytes', 'spill_reload_bytes')]")" = '[12288, 12288, 0]' ]
    [ "$(jget out.jsonl "r[0]['metric_origin']['weight_queue_bytes']")" = derived ]
}

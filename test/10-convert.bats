#!/usr/bin/env bats
# nx-convert: formats, sinks, metrics, inputs (files, gzip, stdin, rank
# directories, NTFF through neuron-profile, capture records).

load test_helper

@test "nx-convert: a neuron-profile JSON gives one profile record with source and derived metrics" {
    run --separate-stderr nx-convert "$FIXTURES/small.json" --target trn1
    [ "$status" -eq 0 ]
    echo "$output" >out.jsonl
    assert_jsonl out.jsonl
    [ "$(jget out.jsonl 'len(r)')" = 1 ]
    [ "$(jget out.jsonl 'r[0]["kind"]')" = profile ]
    [ "$(jget out.jsonl 'r[0]["format"]')" = neuron-json ]
    [ "$(jget out.jsonl 'r[0]["backend"]')" = neuron ]
    [ "$(jget out.jsonl 'r[0]["event_count"]')" = 61 ]
    # total_time comes from the summary and is marked as the source's.
    [ "$(jget out.jsonl 'r[0]["metrics"]["total_time"]')" = 4e-06 ]
    [ "$(jget out.jsonl 'r[0]["metric_origin"]["total_time"]')" = source ]
    # Fractions in the summary are percents: scaled, with a note.
    [ "$(jget out.jsonl 'r[0]["metrics"]["tensor_engine_active_time_percent"]')" = 41 ]
    [[ "$(jget out.jsonl 'r[0]["notes"]')" == *"fractions"* ]]
    # Derived from events: 8 MATMUL, 8 LoadStationary on TensorE.
    [ "$(jget out.jsonl 'r[0]["metrics"]["matmul_instruction_count"]')" = 8 ]
    [ "$(jget out.jsonl 'r[0]["metrics"]["tensor_engine_instruction_count"]')" = 16 ]
    [ "$(jget out.jsonl 'r[0]["metric_origin"]["matmul_instruction_count"]')" = derived ]
    [ "$(jget out.jsonl 'r[0]["metrics"]["dma_transfer_count"]')" = 12 ]
    # 4 transfers of 2048 and 8 of 4096 bytes.
    [ "$(jget out.jsonl 'r[0]["metrics"]["dma_transfer_total_bytes"]')" = 40960 ]
    # MFU from the summary (0.12 -> 12%), HFU derived: 134217728 / (128*128*2*2.8e9 * 4e-6) = 36.571%.
    [ "$(jget out.jsonl 'round(r[0]["metrics"]["hfu_estimated_percent"], 3)')" = 36.571 ]
    # Identifiers in the summary are kept, not taken for metrics.
    [ "$(jget out.jsonl '"nc_idx" in r[0]["metrics"]')" = false ]
    [ "$(jget out.jsonl 'r[0]["summary_fields"]["nd_idx"]')" = 1 ]
    # Other arrays: events with a timestamp, records without one carried along.
    [ "$(jget out.jsonl 'r[0]["warnings"][0]["type"]')" = tensor_reload ]
}

@test "nx-convert: TensorMatrix active time is the union of intervals, not the sum of durations" {
    cat >p.json <<'JSON'
{"instruction": [
 {"timestamp": 0, "duration": 100, "label": "TensorMatrix", "opcode": "MATMUL"},
 {"timestamp": 50, "duration": 100, "label": "TensorMatrix", "opcode": "MATMUL"},
 {"timestamp": 300, "duration": 100, "label": "TensorMatrix", "opcode": "MATMUL"}]}
JSON
    nx-convert p.json >out.jsonl
    # [0,150) + [300,400) = 250 ns of 400 ns.
    [ "$(jget out.jsonl 'r[0]["engines"][0]["busy_ns"]')" = 250 ]
    [ "$(jget out.jsonl 'r[0]["engines"][0]["busy_sum_ns"]')" = 300 ]
    [ "$(jget out.jsonl 'r[0]["metrics"]["tensor_engine_active_time_percent"]')" = 62.5 ]
}

@test "nx-convert: --db loads events, tracks and metrics, and re-importing replaces the profile" {
    nx-convert --db s.db "$FIXTURES/small.json" >/dev/null
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 1 ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM event')" = 61 ]
    [ "$(sqlite3 s.db "SELECT count(*) FROM slice WHERE name = 'MATMUL'")" = 8 ]
    [ "$(sqlite3 s.db "SELECT count(*) FROM track WHERE engine = 'dma'")" = 3 ]
    [ "$(sqlite3 s.db "SELECT origin FROM metric WHERE name = 'total_time'")" = source ]
    [ "$(sqlite3 s.db 'PRAGMA journal_mode')" = wal ]
    before=$(db_digest s.db)
    nx-convert --db s.db "$FIXTURES/small.json" >/dev/null
    [ "$(db_digest s.db)" = "$before" ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM event')" = 61 ]
}

@test "nx-convert: unknown fields are kept in args and reachable through the args view" {
    nx-convert --db s.db "$FIXTURES/small.json" >/dev/null
    run sqlite3 s.db "SELECT string_value FROM args WHERE key = 'args.operands' LIMIT 1"
    [ "$output" = "S[5] (Tensor)++@complete acc_flags=3 src=fp16@0x5600 3*128" ]
    run sqlite3 s.db "SELECT string_value FROM args WHERE key = 'args.inst_dep_ids' LIMIT 1"
    [ "$output" = "[0]" ]
}

@test "nx-convert: gzip input is read transparently and gives the same profile" {
    gzip -c "$FIXTURES/small.json" >small.json.gz
    nx-convert "$FIXTURES/small.json" | jget - 'r[0]["metrics"]' >plain
    nx-convert small.json.gz | jget - 'r[0]["metrics"]' >gz
    diff plain gz
}

@test "nx-convert: stdin is read when no file is named, and '-' names it" {
    nx-convert <"$FIXTURES/small.json" >a.jsonl
    nx-convert - <"$FIXTURES/small.json" >b.jsonl
    [ "$(jget a.jsonl 'r[0]["source"]')" = - ]
    [ "$(jget a.jsonl 'r[0]["name"]')" = stdin ]
    [ "$(jget a.jsonl 'r[0]["metrics"]["dma_transfer_count"]')" = 12 ]
    diff a.jsonl b.jsonl
}

@test "nx-convert: --to events writes event records then the profile record, and reads them back" {
    nx-convert --to events "$FIXTURES/small.json" --target trn1 >events.jsonl
    assert_jsonl events.jsonl
    [ "$(jget events.jsonl 'sum(1 for x in r if x["kind"] == "event")')" = 61 ]
    [ "$(jget events.jsonl 'r[-1]["kind"]')" = profile ]
    [ "$(jget events.jsonl '[x for x in r if x.get("opcode") == "MATMUL"][0]["args"]["inst_dep_ids"]')" = "[0]" ]
    # Round trip: same metrics, source metrics still "source".
    nx-convert events.jsonl >again.jsonl
    [ "$(jget again.jsonl 'r[0]["format"]')" = neuron-json ]
    [ "$(jget again.jsonl 'r[0]["metrics"]')" = "$(jget events.jsonl 'r[-1]["metrics"]')" ]
    [ "$(jget again.jsonl 'r[0]["metric_origin"]["total_time"]')" = source ]
}

@test "nx-convert: --to events -o FILE writes the events to the file and profile records to stdout" {
    nx-convert --to events -o ev.jsonl "$FIXTURES/small.json" >stdout.jsonl
    [ "$(jget stdout.jsonl 'len(r)')" = 1 ]
    [ "$(jget ev.jsonl 'len(r)')" = 62 ]
    [ -z "$(find . -name '*.tmp.*')" ]
    # A name too long for its hidden temporary name beside it (255 bytes).
    long=$(printf 'e%.0s' $(seq 250))
    nx-convert --to events -o "$long" "$FIXTURES/small.json" >/dev/null
    [ "$(jget "$long" 'len(r)')" = 62 ]
    [ -z "$(find . -name '*.tmp.*')" ]
}

@test "nx-convert: --output without --to and an unknown --to are usage errors" {
    run nx-convert -o x.jsonl "$FIXTURES/small.json"
    [ "$status" -eq 2 ]
    run nx-convert --to perfetto "$FIXTURES/small.json"
    [ "$status" -eq 2 ]
}

@test "nx-convert: summary-json gives one metrics-only profile per graph" {
    nx-convert "$FIXTURES/summary.json" >out.jsonl
    [ "$(jget out.jsonl 'len(r)')" = 2 ]
    [ "$(jget out.jsonl 'r[0]["format"]')" = summary-json ]
    [ "$(jget out.jsonl 'r[0]["name"]')" = "summary/n_fdc71a0b582ee3009711a96e59958af921243921" ]
    [ "$(jget out.jsonl 'r[1]["metrics"]["mfu_estimated_percent"]')" = 77 ]
    [ "$(jget out.jsonl '"nc_idx" in r[0]["metrics"]')" = false ]
    [ "$(jget out.jsonl 'r[0]["id"] != r[1]["id"]')" = true ]
}

@test "nx-convert: a Neuron Explorer system profile gives runtime events and counter tracks" {
    nx-convert --db s.db "$FIXTURES/system_profile.json" >out.jsonl
    [ "$(jget out.jsonl 'r[0]["format"]')" = system-json ]
    [ "$(sqlite3 s.db "SELECT group_concat(name) FROM slice WHERE category = 'runtime' ORDER BY ts")" = "nrt_tensor_write,nrt_execute,nrt_tensor_read" ]
    [ "$(sqlite3 s.db "SELECT value FROM counter JOIN track t ON t.id = counter.track_id WHERE t.name = 'cpu_util.percent' ORDER BY ts DESC LIMIT 1")" = 55.0 ]
}

@test "nx-convert: a Chrome trace gives slices (X, nested B/E), instants and counters; a flow that never ends is counted" {
    nx-convert --db s.db "$FIXTURES/trace.json" >out.jsonl
    [ "$(jget out.jsonl 'r[0]["format"]')" = chrome-json ]
    # B/E nest: "forward" inside "step", depth 1.
    [ "$(sqlite3 s.db "SELECT ts || ',' || dur || ',' || depth FROM slice WHERE name = 'forward'")" = "250,2250,1" ]
    [ "$(sqlite3 s.db "SELECT ts || ',' || dur FROM slice WHERE name = 'step'")" = "0,3000" ]
    # Thread names become tracks; TensorMatrix maps to its engine.
    [ "$(sqlite3 s.db "SELECT engine FROM slice WHERE name = 'MATMUL' LIMIT 1")" = tensor_matrix ]
    [ "$(sqlite3 s.db "SELECT category FROM slice WHERE track_name = 'qSyncIO0'")" = dma ]
    # The trace's samples (nx's own counter tracks have no source row).
    [ "$(sqlite3 s.db "SELECT count(*) FROM counter c JOIN track t ON t.id = c.track_id WHERE t.row IS NOT NULL")" = 3 ]
    [ "$(jget out.jsonl 'r[0]["chrome_flows"]["without_end"]')" = 1 ]
    [ "$(jget out.jsonl '"chrome_phases_ignored" in r[0]')" = false ]
}

@test "nx-convert: --format forces the importer, --list-formats lists them" {
    run nx-convert --list-formats
    [ "$status" -eq 0 ]
    [[ "$output" == *"neuron-json"* && "$output" == *"chrome-json"* && "$output" == *"ntff"* ]]
    cp "$FIXTURES/trace.json" trace.dat
    nx-convert --format chrome-json trace.dat >out.jsonl
    [ "$(jget out.jsonl 'r[0]["format"]')" = chrome-json ]
    run nx-convert --format bogus trace.dat
    [ "$status" -eq 2 ]
}

@test "nx-convert: --name, --target, --backend and --dtype describe the profile" {
    nx-convert --name mykernel --target trn2 --backend neuron --dtype fp8 "$FIXTURES/small.json" >out.jsonl
    [ "$(jget out.jsonl 'r[0]["name"]')" = mykernel ]
    [ "$(jget out.jsonl 'r[0]["target"]')" = trn2 ]
    [ "$(jget out.jsonl 'r[0]["dtype"]')" = fp8 ]
    # trn2 fp8 peak: 158 TFLOPS per core.
    [ "$(jget out.jsonl 'r[0]["metrics"]["peak_flops"]')" = 158000000000000 ]
    run nx-convert --target trn9 "$FIXTURES/small.json"
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown --target 'trn9'"* ]]
    run nx-convert --dtype int4 "$FIXTURES/small.json"
    [ "$status" -eq 2 ]
}

@test "nx-convert: a directory of profile_rank_<i> files becomes one profile per rank" {
    nx-convert --db s.db "$FIXTURES/ranks" >out.jsonl
    [ "$(jget out.jsonl '[x["rank"] for x in r]')" = "[0, 1]" ]
    [ "$(jget out.jsonl '[x["name"] for x in r]')" = '["ranks/rank0", "ranks/rank1"]' ]
    [ "$(sqlite3 s.db 'SELECT count(DISTINCT rank) FROM profile')" = 2 ]
    mkdir empty
    run nx-convert empty
    [ "$status" -eq 1 ]
    [[ "$output" == *"empty: no profile in the tree (Explorer profile directories, "*", profile_rank_<i> files, "* ]]
}

fake_neff() {  # $1 = NEFF path, $2 = profile JSON it "produces"
    printf 'NEFF-FAKE\nprofile=%s\n' "$2" >"$1"
}

@test "nx-convert: an NTFF is read through 'neuron-profile view --output-format json'" {
    export PATH="$FAKES:$PATH" FAKE_NEURON_LOG=$PWD/calls
    fake_neff file.neff "$FIXTURES/small.json"
    neuron-profile capture -n file.neff -s profile.ntff >/dev/null
    nx-convert --neff file.neff profile.ntff >out.jsonl
    [ "$(jget out.jsonl 'r[0]["name"]')" = profile ]
    [ "$(jget out.jsonl 'r[0]["source"]')" = profile.ntff ]
    [ "$(jget out.jsonl 'r[0]["event_count"]')" = 61 ]
    grep -q -- "view -n file.neff -s profile.ntff --output-format json --output-file " calls
    # The temporary JSON is gone.
    [ -z "$(ls "${TMPDIR:-/tmp}"/nx-*.json 2>/dev/null | xargs -r grep -l NTFF 2>/dev/null)" ]
}

@test "nx-convert: neuron-explorer is preferred when both profilers are on PATH, and writes Parquet" {
    mkdir bin
    ln -s "$FAKES/neuron-profile" bin/neuron-explorer
    export PATH="$PWD/bin:$FAKES:$PATH" FAKE_NEURON_LOG=$PWD/calls
    fake_neff file.neff "$FIXTURES/parquet/explorer/matmul@latest"
    neuron-explorer capture -n file.neff -s profile.ntff >/dev/null
    nx-convert --db s.db --neff file.neff profile.ntff >out.jsonl
    grep -q '^neuron-explorer view -n file.neff -s profile.ntff --output-format parquet --output-file ' calls
    [ "$(jget out.jsonl 'r[0]["format"]')" = explorer-parquet ]
    [ "$(jget out.jsonl 'r[0]["name"]')" = profile ]
    [ "$(jget out.jsonl 'r[0]["source"]')" = profile.ntff ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM instruction')" -eq 198 ]
    # The temporary Parquet directory is gone.
    [ -z "$(find "${TMPDIR:-/tmp}" -maxdepth 2 -path '*nx-*' -name 'Instruction_0.parquet' 2>/dev/null)" ]
    # The same capture as neuron-profile JSON from an old SDK still reads.
    fake_neff old.neff "$FIXTURES/small.json"
    neuron-profile capture -n old.neff -s old.ntff >/dev/null
    NX_NEURON_PROFILER=neuron-profile nx-convert --neff old.neff old.ntff >old.jsonl
    [ "$(jget old.jsonl 'r[0]["format"]')" = neuron-json ]
}

@test "nx-convert: a failing neuron-explorer view names the NTFF" {
    mkdir bin
    ln -s "$FAKES/neuron-profile" bin/neuron-explorer
    export PATH="$PWD/bin:$PATH"
    fake_neff file.neff "$FIXTURES/small.json"
    neuron-explorer capture -n file.neff -s profile.ntff >/dev/null
    run nx-convert --neff file.neff profile.ntff
    [ "$status" -eq 1 ]
    [[ "$output" == "nx-convert: profile.ntff: "*"view failed (exit 1): "*"this fake NTFF holds JSON"* ]]
}

@test "nx-convert: an NTFF without its NEFF, a missing profiler, or a failing view are clear errors" {
    export PATH="$FAKES:$PATH"
    fake_neff file.neff "$FIXTURES/small.json"
    neuron-profile capture -n file.neff -s profile.ntff >/dev/null
    run nx-convert profile.ntff
    [ "$status" -eq 1 ]
    [[ "$output" == "nx-convert: profile.ntff: an NTFF needs its NEFF to be read (--neff FILE)" ]]
    FAKE_NEURON_FAIL=view run nx-convert --neff file.neff profile.ntff
    [ "$status" -eq 1 ]
    [[ "$output" == *"view failed (exit 1): ERRO[0000] failed to process profile"* ]]
    PATH=$NX_BIN:/usr/bin:/bin run nx-convert --neff file.neff profile.ntff
    [ "$status" -eq 1 ]
    [[ "$output" == *"neither neuron-explorer nor neuron-profile is on PATH"* ]]
}

@test "nx-convert: a capture directory reads each NTFF with the NEFF of its hash, never another graph's" {
    # The runtime's layout: per process a directory, <hash>_instid_<i>_vnc_<v>.ntff
    # beside neff_<hash>.neff (Neuron Explorer's profile files page).
    export PATH="$FAKES:$PATH" FAKE_NEURON_LOG=$PWD/calls NX_NEURON_PROFILER=neuron-profile
    mkdir -p out/i-0abc_pid_1 out/i-0abc_pid_2
    fake_neff out/i-0abc_pid_1/neff_111.neff "$FIXTURES/small.json"
    fake_neff out/i-0abc_pid_2/neff_222.neff "$FIXTURES/small_slow.json"
    neuron-profile capture -n out/i-0abc_pid_1/neff_111.neff -s out/i-0abc_pid_1/111_instid_0_vnc_0.ntff >/dev/null
    neuron-profile capture -n out/i-0abc_pid_2/neff_222.neff -s out/i-0abc_pid_2/222_instid_0_vnc_0.ntff >/dev/null
    neuron-profile capture -n out/i-0abc_pid_2/neff_222.neff -s out/i-0abc_pid_2/222_instid_0_vnc_1.ntff >/dev/null
    nx-convert --db s.db --target trn1 out/ >o.jsonl
    [ "$(jget o.jsonl '[(x["name"], x["metrics"]["total_time"]) for x in r]')" = \
        '[["out/i-0abc_pid_1/111_instid_0_vnc_0", 4e-06], ["out/i-0abc_pid_2/222_instid_0_vnc_0", 6e-06], ["out/i-0abc_pid_2/222_instid_0_vnc_1", 6e-06]]' ]
    # Read by the absolute paths the tree's plan lists, as a dataset's are.
    grep -q -- "view -n $PWD/out/i-0abc_pid_1/neff_111.neff -s $PWD/out/i-0abc_pid_1/111_instid_0_vnc_0.ntff " calls
    grep -q -- "view -n $PWD/out/i-0abc_pid_2/neff_222.neff -s $PWD/out/i-0abc_pid_2/222_instid_0_vnc_1.ntff " calls
    [ "$(grep -c -- "-n $PWD/out/i-0abc_pid_2/neff_222.neff -s $PWD/out/i-0abc_pid_1" calls)" = 0 ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 3 ]
    # Each with its worker's rank, as nx-convert --plan ranks the tree.
    [ "$(jget o.jsonl '[x["rank"] for x in r]')" = "[0, 1, 2]" ]
    # An NTFF and a NEFF whose names carry different hashes are refused, as
    # Neuron Explorer refuses a NEFF/NTFF UUID mismatch.
    run nx-convert --neff out/i-0abc_pid_2/neff_222.neff out/i-0abc_pid_1/111_instid_0_vnc_0.ntff
    [ "$status" -eq 1 ]
    [ "$output" = "nx-convert: out/i-0abc_pid_1/111_instid_0_vnc_0.ntff: captured from neff_111.neff (the hash in its name), not neff_222.neff: an NTFF read with another graph's NEFF gets that graph's instruction names" ]
    run nx-convert --neff out/i-0abc_pid_2/neff_222.neff out
    [ "$status" -eq 1 ]
    [[ "$output" == *"out: --neff does not apply to a capture directory"* ]]
    # An NTFF whose NEFF is missing: named; --keep-going reads the others.
    rm out/i-0abc_pid_1/neff_111.neff
    run --separate-stderr nx-convert out
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-convert: $PWD/out/i-0abc_pid_1/111_instid_0_vnc_0.ntff: no neff_111.neff in the capture: an NTFF is read with the NEFF it was captured from" ]
    run --separate-stderr nx-convert --keep-going out
    [ "$status" -eq 1 ]
    [ "$(jget - '[x["name"] for x in r]' <<<"$output")" = '["out/i-0abc_pid_2/222_instid_0_vnc_0", "out/i-0abc_pid_2/222_instid_0_vnc_1"]' ]
    [[ "$stderr" == *"nx-convert: skipped 1 of 3 inputs"* ]]
    # The NEFF may sit elsewhere in the capture (one NEFF per graph, shared).
    mkdir out/neffs
    fake_neff out/neffs/neff_111.neff "$FIXTURES/small.json"
    [ "$(nx-convert out | jget - 'len(r)')" = 3 ]
}

@test "nx-convert: capture records on stdin are followed to their profile files, their fields carried" {
    export PATH="$FAKES:$PATH"
    fake_neff file.neff "$FIXTURES/small_slow.json"
    neuron-profile capture -n file.neff -s slow.ntff >/dev/null
    cat >captures.jsonl <<JSON
{"kind":"capture","study":"matmul","name":"mm_128","M":128,"backend":"neuron","target":"trn1","dtype":"bf16","team":"perf","profile":{"format":"neuron-json","path":"$FIXTURES/small.json"}}
{"kind":"capture","study":"matmul","name":"mm_256","M":256,"backend":"neuron","target":"trn1","profile":{"format":"ntff","ntff":"slow.ntff","neff":"file.neff"}}
JSON
    nx-convert --root "$FIXTURES" --root . --db s.db <captures.jsonl >out.jsonl
    [ "$(jget out.jsonl '[x["name"] for x in r]')" = '["mm_128", "mm_256"]' ]
    [ "$(jget out.jsonl 'r[0]["team"]')" = perf ]
    [ "$(jget out.jsonl 'r[0]["M"]')" = 128 ]
    [ "$(jget out.jsonl 'r[0]["dtype"]')" = bf16 ]
    [ "$(jget out.jsonl 'r[1]["metrics"]["total_time"]')" = 6e-06 ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 2 ]
}

@test "nx-convert: a closed downstream pipe ends quietly" {
    run bash -c "nx-convert --to events '$FIXTURES/small.json' | head -n 1 >/dev/null; echo \${PIPESTATUS[0]}"
    [ "$output" = 0 ]
}

@test "nx-convert: several inputs go into one transaction and one run" {
    nx-convert --db s.db "$FIXTURES/small.json" "$FIXTURES/small_slow.json" "$FIXTURES/trace.json" >out.jsonl
    [ "$(jget out.jsonl 'len(r)')" = 3 ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 3 ]
}

@test "nx-convert --db on a terminal prints one line per profile; piped, or with --records, the records" {
    run on_terminal_stdout nx-convert --db s.db --target trn1 "$FIXTURES/small.json" "$FIXTURES/small_slow.json"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 2 ]
    [ "${lines[0]}" = "small: neuron on trn1, 61 events, 4 us, MFU 12.0%" ]
    [[ "${lines[1]}" == "small_slow: neuron on trn1, "* ]]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 2 ]
    run on_terminal_stdout nx-convert --db s.db --records "$FIXTURES/small.json"
    [[ "${lines[0]}" == '{"kind":"profile"'* ]]
    nx-convert --db s.db "$FIXTURES/small.json" | head -c 17 | grep -q '{"kind":"profile"'
}

@test "nx-convert shows an import's progress (bytes of the file, events, rate, ETA) when asked or on a terminal, never piped" {
    "$NX_BIN/bench-gen_profile" 100000 >big.json
    run --separate-stderr nx-convert --progress big.json
    [ "$status" -eq 0 ]
    # The first check (after 4096 events) shows at once; the file is far
    # from read then, so its share, rate and time left are there.
    [[ "$stderr" == *"nx-convert: [1] big.json  "*" MiB of "*" MiB, 4,096 events, "*"/s, ETA "* ]]
    [[ "$stderr" == *"100,000 events"* ]]
    # The line is cleared at the end: nothing after the last erase.
    [[ "$stderr" == *$'\r\033[K' ]]
    # Piped: no progress, and the records are the same.
    nx-convert --progress big.json >with.jsonl 2>/dev/null
    run --separate-stderr nx-convert big.json
    [ -z "$stderr" ]
    [ "$output" = "$(cat with.jsonl)" ]
    run --separate-stderr nx-convert --quiet --progress big.json
    [ "$status" -eq 2 ]
    [[ "$stderr" == "nx-convert: --quiet and --progress cannot be used together"* ]]
}


#!/usr/bin/env bats
# Today's and tomorrow's profiles: Explorer exports whose schema drifts
# (renamed, retyped and new fields, values nx does not know, units), sessions
# of many executions, summary-text terminal logs, MXFP8 on trn3.  The Explorer
# fixtures come from test/fixtures/parquet/make.mjs (drift7/drift13 hold the
# same events under schema 7.4.0 and 13.0.0; session holds 20 executions of
# two NEFFs, execution 13 1.5x slower); summary_text.log is a terminal log
# shaped as neuron-profile writes summary-text on trn3.

load test_helper

EXPLORER=$FIXTURES/parquet/explorer

# session_ranks_database DB: the session capture tree's four profiles
# loaded into DB as ranks 0 to 3, in the tree's order.
session_ranks_database() {
    session_capture_tree cap
    local r=0 d
    for d in cap/i-0abc_pid_*/*@latest; do
        nx-convert --db "$1" --rank "$r" -q "$d" >/dev/null
        r=$((r + 1))
    done
}

# The record's metrics as "name value" lines, values to 6 significant digits.
metric_lines() {
    python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())
for k, v in sorted(r["metrics"].items()):
    print(k, "%.6g" % v)'
}

@test "schema drift: an export of schema 13.0.0 with renamed fields imports with exit 0, and each drift is named in the notes" {
    run --separate-stderr nx-convert "$EXPLORER/drift13@latest"
    [ "$status" -eq 0 ]
    echo "$output" >rec.jsonl
    notes=$(jget rec.jsonl '"\n".join(r[0]["notes"])')
    [[ "$notes" == *"no transpose detection (transpose FLOPs, MFU from instructions): Instruction.tensor_instruction_type absent in schema 13.0.0"* ]]
    [[ "$notes" == *"no DMA bytes (bytes per transfer, small-DMA findings, MBU without a Summary): DmaPacket.transfer_bytes absent in schema 13.0.0"* ]]
    [[ "$notes" == *"Summary.total_time in ms: converted to s"* ]]
    [[ "$notes" == *"ActiveTime.engine = 'CcCore', a value nx does not know: 3 rows kept on the row 'CcCore active', in no engine's busy time"* ]]
    [[ "$notes" == *"DmaPacket.queue_type = 'collective_dma', a value nx does not know: 13 rows kept"* ]]
    # The new column stays with each instruction, reachable by SQL.
    nx-convert --db s.db -q "$EXPLORER/drift13@latest" >/dev/null
    [ "$(nx-query --db s.db --format csv --sql "SELECT count(*) FROM args WHERE key = 'args.fused_group'" | tail -1)" -ge 40 ]
    [ "$(nx-query --db s.db --format csv --sql "SELECT count(*) FROM explorer_CcCoreActivity" | tail -1)" -eq 4 ]
}

@test "schema drift: every figure that does not depend on a drifted field equals the undrifted export's" {
    nx-convert "$EXPLORER/drift7@latest" 2>/dev/null | metric_lines >seven
    nx-convert "$EXPLORER/drift13@latest" 2>/dev/null | metric_lines >thirteen
    [ "$(wc -l <seven)" -gt 100 ]
    # Only the figures of DMA bytes (the renamed transfer_bytes) differ.
    diff <(grep -v -e '^hbm_reload_bytes ' -e '^useful_read_percent ' seven) \
         <(grep -v -e '^hbm_reload_bytes ' -e '^useful_read_percent ' thirteen)
    refute diff -q seven thirteen
    # The profiler's busy time of the engines nx knows: CcCore's rows count in none.
    nx-convert --db a.db -q "$EXPLORER/drift7@latest" >/dev/null
    nx-convert --db b.db -q "$EXPLORER/drift13@latest" >/dev/null
    diff <(nx-query --db a.db engine_utilization --format csv | cut -d, -f2-) <(nx-query --db b.db engine_utilization --format csv | cut -d, -f2-)
    [ "$(nx-query --db b.db --format csv --sql "SELECT count(*) FROM slice s JOIN track t ON t.id = s.track_id WHERE t.name = 'CcCore active'" | tail -1)" -eq 3 ]
}

@test "schema drift: a required field renamed leaves its table out and names it; the other tables are read" {
    run --separate-stderr nx-convert "$EXPLORER/drift13req@latest"
    [ "$status" -eq 0 ]
    echo "$output" >rec.jsonl
    [[ "$(jget rec.jsonl '"\n".join(r[0]["notes"])')" == *"table Instruction not read: its start_ts is absent in schema 13.0.0"* ]]
    nx-convert --db s.db -q "$EXPLORER/drift13req@latest" >/dev/null
    [ "$(nx-query --db s.db --format csv --sql "SELECT count(*) FROM event WHERE type = 'instruction'" | tail -1)" -eq 0 ]
    [ "$(nx-query --db s.db --format csv --sql "SELECT count(*) FROM event WHERE type = 'dma'" | tail -1)" -eq 44 ]
}

@test "nx-convert --explain says what nx read, lacked, converted and did not know of an export" {
    run --separate-stderr nx-convert --explain "$EXPLORER/drift13@latest"
    [ "$status" -eq 0 ]
    [[ "$output" == *"drift13@latest: explorer-parquet, schema 13.0.0 (not one nx knows: 7.x, 12.x; read by the fields it names)"* ]]
    [[ "$output" == *"  lacked     Instruction.tensor_instruction_type: no transpose detection"* ]]
    [[ "$output" == *"  units      Summary.total_time in ms: converted to s"* ]]
    [[ "$output" == *"  unknown    ActiveTime.engine = 'CcCore': 3 rows"* ]]
    [[ "$output" == *"tensor_op_kind"* && "$output" == *"transfer_size"* ]]
    [[ "$output" == *"  as rows    CcCoreActivity"* ]]
    # No profile record, nothing written.
    [[ "$output" != *'"kind":"profile"'* ]]
    run --separate-stderr nx-convert --explain --db s.db "$EXPLORER/drift13@latest"
    [ "$status" -eq 2 ]
}

@test "sessions: one row per execution in the database and the dataset, each NEFF's spread, and the slow execution named with what grew" {
    nx-convert --db s.db "$EXPLORER/session@latest" >rec.jsonl 2>/dev/null
    [ "$(jget rec.jsonl 'r[0]["executions"]["count"]')" -eq 20 ]
    [ "$(jget rec.jsonl 'len(r[0]["executions"]["neffs"])')" -eq 2 ]
    [ "$(jget rec.jsonl 'r[0]["executions"]["slow"][0]["index"]')" -eq 13 ]
    [ "$(jget rec.jsonl 'r[0]["executions"]["slow"][0]["dur_ns"]')" -eq 41988 ]
    [ "$(jget rec.jsonl '[n["median_ns"] for n in r[0]["executions"]["neffs"] if n["neff"].startswith("graph_40")][0]')" -eq 27992 ]
    [ "$(nx-query --db s.db --format csv --sql 'SELECT count(*), count(DISTINCT neff) FROM execution' | tail -1)" = "20,2" ]
    # Execution 0's TensorE busy time, as the fixture says.
    [ "$(nx-query --db s.db --format csv --sql 'SELECT tensor_busy_ns FROM execution WHERE execution_index = 0' | tail -1)" -eq 15701 ]
    [ "$(nx-query --db s.db executions --format csv | awk -F, '$2 ~ /^graph_40/ {print $7}')" -eq 13 ]
    run --separate-stderr nx-report --db s.db --format text
    [[ "$output" == *"Executions (20 of 2 NEFFs)"* ]]
    [[ "$output" == *"slow_execution: execution 13 (graph_40cda76888a52a990896fdff472fc4cb.neff) took 41.99 us, 1.50x the median of its NEFF's executions (27.99 us)"* ]]
    [[ "$output" == *"data_quality: the profile lost data: the profiler says: Dropped 1234 notifications"* ]]
    nx-convert --dataset ds --rank 0 -q "$EXPLORER/session@latest" >/dev/null
    [ "$(nx-query --dataset ds --format csv --sql 'SELECT count(*) FROM executions' | tail -1)" -eq 20 ]
    [ "$(nx-query --dataset ds rank_executions --format csv | tail -n +2 | wc -l)" -eq 2 ]
}

@test "sessions: a capture tree of Explorer session exports is planned by core, and make dataset gives every rank its executions" {
    session_capture_tree cap
    # And a session's raw NTFF: planned with its core's rank too.
    touch cap/i-0abc_pid_100/profile_nc_0_session_2.ntff
    run --separate-stderr nx-convert --plan cap
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | tail -n +2 | cut -f1 | tr '\n' ' ')" = "0 0 1 2 3 " ]
    run --separate-stderr nx-convert --dataset raw -q "$PWD/cap/i-0abc_pid_100/profile_nc_0_session_2.ntff"
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"a session's NTFF holds every NEFF its process ran: export it with neuron-explorer view --session-dir"* ]]
    rm cap/i-0abc_pid_100/profile_nc_0_session_2.ntff
    run make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/ds" JOBS=2
    [ "$status" -eq 0 ]
    [ "$(nx-query --dataset ds --format csv --sql 'SELECT rank, count(*) FROM executions GROUP BY rank ORDER BY rank' | tail -n +2 | tr '\n' ' ')" = "0,20 1,20 2,20 3,20 " ]
}

@test "sessions across ranks: nx-report --ranks names, per NEFF, the rank slowest most often and the iterations furthest above the ranks' median" {
    session_ranks_database s.db
    # Rank 2's third execution of graph_40 (its execution 5) takes 30 us
    # more, 25 us of it TensorE computing.
    sqlite3 s.db "UPDATE execution SET end_ns = end_ns + 30000, compute_ns = compute_ns + 25000, tensor_busy_ns = tensor_busy_ns + 25000, idle_ns = idle_ns + 5000 WHERE execution_index = 5 AND profile_id = (SELECT id FROM profile WHERE rank = 2)"
    run --separate-stderr nx-report --ranks --db s.db --format text
    [ "$status" -eq 0 ]
    [[ "$output" == *"Iterations of graph_40cda76888a52a990896fdff472fc4cb.neff across ranks: 10 run by at least two of its 4 ranks"* ]]
    [[ "$output" == *"Slowest most often: rank 2 (in 1 of them). Furthest above the ranks' median: iteration 2, rank 2 (its execution 5) 58 us, 2.07x the median (28 us): compute +25.00 us (TensorE busy +25.00 us) against rank 1's."* ]]
    [[ "$output" == *"Every rank takes the same time in each iteration of graph_4483a73c23344d9020d6f1647c82400b.neff (10 iterations run by two ranks or more)."* ]]
    nx-report --ranks --db s.db --format csv >ranks.csv
    [ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "slowest_iterations") c = i } NR > 1 { printf "%s ", $c }' ranks.csv)" = "0 0 1 0 " ]
}

@test "sessions across ranks: the dataset's iteration_stragglers query gives each iteration's ranks, mean, longest and slowest rank" {
    session_capture_tree cap
    make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/ds" JOBS=2 >/dev/null 2>&1
    run --separate-stderr nx-query --dataset ds iteration_stragglers --format csv
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "neff,iteration,ranks,mean_ns,max_ns,slowest_rank,max_over_mean,grew,grew_ns" ]
    # 2 NEFFs x 10 iterations, each on the 4 ranks, every rank alike: nothing grew.
    [ "${#lines[@]}" -eq 21 ]
    [ "$(printf '%s\n' "${lines[@]:1}" | cut -d, -f3 | sort -u)" = 4 ]
    [ "$(printf '%s\n' "${lines[@]:1}" | cut -d, -f7 | sort -u)" = 1 ]
    [ "$(printf '%s\n' "${lines[@]}" | grep -c '^graph_40cda76888a52a990896fdff472fc4cb.neff,0,4,28099,28099,0,1,,$')" -eq 1 ]
}

@test "sessions across ranks: a study database converted into a dataset keeps its executions, and iteration_stragglers names what grew in the slow rank's" {
    session_ranks_database s.db
    # Rank 2's third execution of graph_40 (its execution 5) ends 2 us later,
    # within the gap before its next one: 2 us more idle, nothing else.
    sqlite3 s.db "UPDATE execution SET end_ns = end_ns + 2000 WHERE execution_index = 5 AND profile_id = (SELECT id FROM profile WHERE rank = 2)"
    nx-convert --dataset ds -q s.db >/dev/null
    [ "$(nx-query --dataset ds --format csv --sql 'SELECT rank, count(*) FROM executions GROUP BY rank ORDER BY rank' | tail -n +2 | tr '\n' ' ')" = "0,20 1,20 2,20 3,20 " ]
    run --separate-stderr nx-query --dataset ds iteration_stragglers --format csv
    [ "$status" -eq 0 ]
    # Durations 27977 x 3 and 29977: mean 28477; idle 5025 x 3 and 7025: 1500 over the mean.
    [ "${lines[1]}" = "graph_40cda76888a52a990896fdff472fc4cb.neff,2,4,28477,29977,2,1.053,idle,1500" ]
}

@test "summary-text: a terminal log of it reads without --format: the file's figures, percents as fractions, identity fields" {
    run --separate-stderr nx-convert "$FIXTURES/summary_text.log"
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"summary_text.log: skipped 5 lines around the summary (shell prompts, the tools' log)"* ]]
    echo "$output" >rec.jsonl
    [ "$(jget rec.jsonl 'r[0]["format"]')" = summary-text ]
    [ "$(jget rec.jsonl 'r[0]["target"]')" = trn3 ]
    [ "$(jget rec.jsonl 'r[0]["metrics"]["total_time"]')" = 0.000412 ]
    [ "$(jget rec.jsonl 'r[0]["metrics"]["hfu_estimated_percent"]')" = 19.853 ]
    [ "$(jget rec.jsonl 'r[0]["metric_origin"]["hfu_estimated_percent"]')" = source ]
    [ "$(jget rec.jsonl 'r[0]["summary_fields"]["nd_idx"]')" -eq 1 ]
    [ "$(jget rec.jsonl 'r[0]["summary_fields"]["ultraserver_type"]')" = Switch ]
    [ "$(jget rec.jsonl 'r[0]["summary_fields"]["ultraserver_size"]')" -eq 4 ]
    [ "$(jget rec.jsonl 'r[0]["summary_fields"]["collectives_version"]')" = "2.0.54928 ()" ]
    [ "$(jget rec.jsonl 'r[0].get("metric_disagreements", [])')" = "[]" ]
    # Its identity reaches a dataset's profiles table.
    nx-convert --dataset ds --rank 2 -q "$FIXTURES/summary_text.log" >/dev/null 2>&1
    [ "$(nx-query --dataset ds --format csv --sql 'SELECT instance_type, neuron_device_idx, neuroncore_idx FROM profiles' | tail -1)" = "trn3pds98.48xlarge,1,3" ]
    # A log without a node is not this format's: named, exit 1.
    grep -v '^n_' "$FIXTURES/summary_text.log" >nonode.log
    run --separate-stderr nx-convert --input-format summary-text nonode.log
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"nonode.log: no summary-text graph (a line n_<hex>, then indented 'key value' lines)"* ]]
}

@test "MXFP8 on trn3: nx's HFU counts an MXFP8 FLOP as a quarter of a BF16 one, as the profiler's (hardware FLOPs over 2 x 315 TFLOP/s)" {
    # The log without the profiler's own HFU and adjusted FLOPs: nx derives them.
    grep -v -e hfu_estimated -e adjusted_hardware_flops -e mfu_ "$FIXTURES/summary_text.log" >bare.log
    nx-convert --dtype mxfp8 bare.log >rec.jsonl 2>/dev/null
    [ "$(jget rec.jsonl 'r[0]["metrics"]["adjusted_hardware_flops"]')" = "$(jget rec.jsonl 'r[0]["metrics"]["hardware_flops"] // 4')" ]
    hfu=$(jget rec.jsonl 'r[0]["metrics"]["hfu_estimated_percent"]')
    # The profiler's: 51539607552 / (2 x 315e12 x 0.000412) = 19.86%.
    python3 -c "import sys; h = float(sys.argv[1]); assert abs(h - 19.86) / 19.86 < 0.10, h" "$hfu"
}

#!/usr/bin/env bats
# Datasets (issue 27): nx-convert --dataset writes a profile's Hive-partitioned
# Parquet files whole or not at all; nx-query --dataset runs SQL over them in
# place; nx-report reads one as it reads a database; make dataset fans a
# capture tree out over tasks (locally, or as a Slurm array job on a one-node
# cluster the suite starts itself) and the reduce names what is missing.  The
# capture trees come from test-gen_ranks (neuron-profile JSON per rank, laid
# out as the runtime lays out its NTFFs, with an injected straggler).

load test_helper
load slurm/helper

# A 12-rank tree; rank 5 reaches each of the 4 all-reduces 3 us late, so every
# other rank waits 4 x 3 us = 12 us in collectives.
ranks_tree() { test-gen_ranks "${1:-cap}" --ranks 12 --events 400 --iterations 4 --straggler 5 --late 3000; }
# The files of a dataset's tables (not its _nx bookkeeping: plan, done
# markers, each profile's partition index).
table_files() { find "$1" -path "$1/_nx" -prune -o -type f -print; }
# The task logs of a dataset's latest make dataset (a folder per run).
last_logs() { ls -dt "$1"/_nx/logs/*/ | head -1; }

@test "test-gen_ranks: --help prints its usage; an option where OUT belongs, or a value that is not a number, is refused and writes nothing" {
    run --separate-stderr test-gen_ranks --help
    [ "$status" -eq 0 ]
    [[ "$output" == "usage: test-gen_ranks OUT --ranks N --events M"* ]]
    run --separate-stderr test-gen_ranks --ranks 2 --events 100
    [ "$status" -eq 2 ]
    [[ "$stderr" == "test-gen_ranks: the output directory comes first"* ]]
    run --separate-stderr test-gen_ranks cap --ranks 2x --events 100
    [ "$status" -eq 2 ]
    [[ "$stderr" == "test-gen_ranks: an option's value is not a whole number"* ]]
    [ ! -e ./--help ]
    [ ! -e ./--ranks ]
    [ ! -e cap ]
}

@test "nx-convert --dataset: one file per profile and table under rank=<r>, the null partition without one, a re-run replaces" {
    ranks_tree cap
    run nx-convert --dataset ds --rank 3 cap/i-0000000000000000_pid_4001/3418752096_instid_0_vnc_1.json
    [ "$status" -eq 0 ]
    assert_jsonl <(echo "$output")
    id=$(jget - 'r[0]["id"]' <<<"$output")
    for t in profiles metrics engines breakdown utilization collectives findings opcodes executions tracks events counters; do
        [ -f "ds/$t/rank=3/$id.parquet" ] || { echo "no $t file"; false; }
    done
    # Nothing else: no temporary files, no other partition.
    [ "$(table_files ds | wc -l)" -eq 12 ]
    # A profile without a rank goes to the null partition.
    nx-convert --dataset ds "$FIXTURES/small.json" >/dev/null
    [ "$(find ds/profiles -path '*rank=__HIVE_DEFAULT_PARTITION__/*.parquet' | wc -l)" -eq 1 ]
    # Converting again replaces the files (same names, fresh content).
    before=$(stat -c %Y%N "ds/events/rank=3/$id.parquet")
    sleep 1
    nx-convert --dataset ds --rank 3 cap/i-0000000000000000_pid_4001/3418752096_instid_0_vnc_1.json >/dev/null
    [ "$(table_files ds | wc -l)" -eq 24 ]
    [ "$(stat -c %Y%N "ds/events/rank=3/$id.parquet")" != "$before" ]
}

@test "nx-convert --dataset: a profile converted again at another rank leaves nothing at the old one; the hidden files of a writer that was killed go with the next conversion, a running writer's stay" {
    ranks_tree cap
    f=cap/i-0000000000000000_pid_4001/3418752096_instid_0_vnc_1.json
    nx-convert --dataset ds --rank 3 "$f" >p.jsonl
    id=$(jget p.jsonl 'r[0]["id"]')
    # Without a rank (the null partition), then at rank 4 (a re-plan that
    # ranks anew): every table's file moves, none stays behind.
    nx-convert --dataset ds "$f" >/dev/null
    [ "$(find ds -type f -path '*/rank=__HIVE_DEFAULT_PARTITION__/*' -name "$id.parquet" | wc -l)" -eq 12 ]
    [ "$(table_files ds | wc -l)" -eq 12 ]
    nx-convert --dataset ds --rank 4 "$f" >/dev/null
    [ "$(find ds -type f -path '*/rank=4/*' -name "$id.parquet" | wc -l)" -eq 12 ]
    [ "$(table_files ds | wc -l)" -eq 12 ]
    [ "$(nx-query --dataset ds --sql 'SELECT rank, profile FROM profiles' --format csv | tail -n +2)" = "4,$id" ]
    # Where it is, noted for its next conversion (not a look into every rank).
    [ "$(cat "ds/_nx/at/$id")" = rank=4 ]
    # No writer runs now: none is listed, and none left a lock held.
    [ -z "$(ls ds/_nx/writers)" ]
    # What a writer killed by SIGKILL (no handler runs) left: its file in
    # _nx/writers naming the folders it wrote into, and there its hidden
    # temporary files (".<file>.tmp.<tag>.XXXXXX"), which ls, globs and the
    # engines skip.  And a writer that runs now: its file locked.
    dead=0123456789abcdef live=fedcba9876543210
    printf 'events/rank=4\ncounters/rank=4\n' >ds/_nx/writers/$dead
    echo partial >"ds/events/rank=4/.$id.parquet.tmp.$dead.AbC123"
    echo partial >"ds/counters/rank=4/.$id.parquet.tmp.$dead.dEf456"
    echo partial >"ds/events/rank=4/.p_0000000000000000.parquet.tmp.$dead.gHi789"
    echo 'events/rank=4' >ds/_nx/writers/$live
    echo writing >"ds/events/rank=4/.$id.parquet.tmp.$live.LiVe12"
    flock ds/_nx/writers/$live sleep 30 3>&- &
    holder=$!
    sleep 0.2
    [ "$(nx-query --dataset ds --sql 'SELECT count(DISTINCT profile) FROM events' --format csv | tail -n 1)" = 1 ]
    # The next writer into the dataset removes the killed one's, all of
    # them and its file, and leaves the running one's.
    nx-convert --dataset ds --rank 4 "$f" >/dev/null
    kill $holder
    [ "$(find ds -name '.*' | sort | tr '\n' ' ')" = "ds/events/rank=4/.$id.parquet.tmp.$live.LiVe12 " ]
    [ "$(ls ds/_nx/writers)" = $live ]
    [ "$(table_files ds | wc -l)" -eq 13 ]
}

@test "nx-query --dataset rank_skew sets each rank against the fastest by the profiler's total time, as nx-report --ranks does, and shows the events' span beside it" {
    nx-convert --dataset ds --rank 0 "$FIXTURES/parquet/explorer/collective@latest" >/dev/null
    nx-convert --dataset ds --rank 1 "$FIXTURES/parquet/explorer/matmul@latest" >/dev/null
    # Explorer's total_time (70 us, 1,037 us) is longer than the span of
    # the profile's events (67,427 ns, 1,032,501 ns).
    run nx-query --dataset ds rank_skew --format csv
    [ "$(echo "$output" | tail -n +2 | cut -d, -f1,4,5,6,10 | tr '\n' ' ')" = "0,70000,1,0,67427 1,1037000,14.8143,967000,1032501 " ]
    run nx-report ds --ranks --format tsv
    [ "$(echo "$output" | awk -F'\t' '$1 == "rank" {print $3 "," $5 "," $7}' | tr '\n' ' ')" = "0,70000,0 1,1037000,967000 " ]
}

@test "nx-query --dataset rank_findings: a rule's findings in message order, so that every engine gives the same rows in the same order" {
    # lnc2.json: two data_quality and two profiler_warning findings.
    nx-convert --dataset ds --rank 0 "$FIXTURES/lnc2.json" >/dev/null
    run nx-query --dataset ds rank_findings --format jsonl
    [ "$(echo "$output" | jq -r 'select(.rule == "data_quality" or .rule == "profiler_warning") | .rule + ":" + .message[0:16]' | tr '\n' ' ')" = \
        "data_quality:a physical core' data_quality:the profile lost profiler_warning:the profiler say profiler_warning:the profiler say " ]
    [ "$(echo "$output" | jq -r 'select(.rule == "profiler_warning") | .message' | LC_ALL=C sort -c && echo sorted)" = sorted ]
}

@test "nx-convert --dataset: a profile's identity from the runtime's layout, or from its system profile with the offset to host time, and what the profile says of itself" {
    ranks_tree cap
    nx-convert --dataset ds --rank 3 cap/i-0000000000000000_pid_4001/3418752096_instid_0_vnc_1.json >/dev/null
    [ "$(nx-query --dataset ds --sql 'SELECT instance_id, process_id, logical_core, neff_hash, clock_offset_ns FROM profiles' --format csv | tail -n 1)" = \
        "i-0000000000000000,4001,1,3418752096," ]
    # Its name carries its process folder: every process writes the same file names.
    [ "$(nx-query --dataset ds --sql 'SELECT name FROM profiles' --format csv | tail -n 1)" = \
        "i-0000000000000000_pid_4001/3418752096_instid_0_vnc_1" ]
    # An Explorer device profile linked to a system profile: its DeviceProfileList row, the aligned offset.
    D=$FIXTURES/parquet/system/datapath
    want=$(python3 -c "import json; print(json.load(open('$D.expected.json'))['host_alignment']['offset_ns'])")
    nx-convert --dataset dp "$D/profiles/global/dp_nc0@latest" >/dev/null
    [ "$(nx-query --dataset dp --sql 'SELECT instance_id, process_id, logical_core, clock_offset_ns, worker_gid FROM profiles' --format csv | tail -n 1)" = \
        "i-0def,5151,0,$want,16" ]
    # What a profile says of itself, whatever its path, under the profiler's
    # names: neuron-profile's summary and NEFF header (lnc2.json, as 2.28
    # writes them on a trn2, given the hash the real one's header has),
    # Explorer's Metadata, and summary-json's fields (no nd_idx in this one).
    jq '.neff_header[0].hash = "427efdc00a1c195bb481a02b64e8d5e4"' "$FIXTURES/lnc2.json" >lnc2.json
    nx-convert --dataset own lnc2.json >/dev/null
    nx-convert --dataset own "$FIXTURES/parquet/explorer/matmul@latest" >/dev/null
    nx-convert --dataset own "$FIXTURES/summary_flat.json" >/dev/null
    [ "$(nx-query --dataset own --sql 'SELECT name, instance_type, neuron_device_idx, neuroncore_idx, neff_header_hash, neff_hash FROM profiles ORDER BY name' --format csv | tail -n +2 | tr '\n' ' ')" = \
        "lnc2,trn2.3xlarge,0,4,427efdc00a1c195bb481a02b64e8d5e4, matmul,trn2.48xlarge,0,0,, summary_flat,inf2.xlarge,,0,, " ]
}

@test "nx-convert --dataset: a profile that fails leaves none of its files; --keep-going writes the others" {
    ranks_tree cap
    good=cap/i-0000000000000000_pid_4000/3418752096_instid_0_vnc_0.json
    bad=cap/i-0000000000000000_pid_4000/3418752096_instid_0_vnc_1.json
    head -c 3000 "$bad" >bad.json  # cut in the middle of its instructions
    mv bad.json "$bad"
    run nx-convert --dataset ds "$bad"
    [ "$status" -eq 1 ]
    [ "$(find ds -type f 2>/dev/null | wc -l)" -eq 0 ]
    run nx-convert --dataset ds --keep-going "$bad" "$good"
    [ "$status" -eq 1 ]
    [ "$(find ds -name '*.parquet' | wc -l)" -eq 12 ]
    [ "$(table_files ds | grep -vc '\.parquet$')" -eq 0 ]
}

@test "nx-query --dataset: the named queries give the injected straggler's figures; a rank filter opens only that rank's files" {
    ranks_tree cap
    nx-convert --dataset ds --plan cap 2>/dev/null
    nx-convert --dataset ds --task 0 --tasks 1 -q >/dev/null
    run nx-query --dataset ds rank_collectives --format csv
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "rank,profile,ops,collective_ns,wait_ns,neff_hash,first_step,last_step" ]
    [ "$(echo "$output" | tail -n +2 | awk -F, '$1 == 5 {print $3, $5}')" = "4 0" ]
    [ "$(echo "$output" | tail -n +2 | awk -F, '$1 != 5 && $5 == 12000' | wc -l)" -eq 11 ]
    run nx-query --dataset ds rank_engine_busy --param engine=tensor_matrix --format csv
    [ "$(echo "$output" | tail -n +2 | wc -l)" -eq 12 ]
    # 80 MATMULs of 100 ns; the straggler's 4 slow ones are 3 us longer each.
    [ "$(echo "$output" | awk -F, '$1 == 5 {print $5}')" = 20000 ]
    [ "$(echo "$output" | awk -F, '$1 == 4 {print $5}')" = 8000 ]
    # The top opcodes per rank from the small opcodes table: the straggler's
    # MATMULs first, at 20 us; every rank's figures those of its events.
    run nx-query --dataset ds rank_opcodes --param limit=1 --format csv
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | awk -F, '$1 == 5')" = "5,MATMUL,80,20000" ]
    nx-query --dataset ds --format csv --sql "SELECT rank, opcode, SUM(instructions) AS n, SUM(time_ns) AS t
        FROM opcodes GROUP BY rank, opcode ORDER BY rank, opcode" >from_opcodes.csv
    nx-query --dataset ds --format csv --sql "SELECT rank, opcode, COUNT(*) AS n, SUM(dur) AS t FROM events
        WHERE type = 'instruction' GROUP BY rank, opcode ORDER BY rank, opcode" >from_events.csv
    [ "$(wc -l <from_opcodes.csv)" -gt 40 ]
    cmp from_opcodes.csv from_events.csv
    # A profile of an nx from before the opcodes table (its file gone): a
    # query that would have read it says its rows are missing; one that
    # reads other ranks of the table, or other tables, does not.
    rm ds/opcodes/rank=6/*.parquet
    run nx-query --dataset ds rank_opcodes --format csv
    [ "$status" -eq 0 ]
    [[ "$output" == *"opcodes: 1 profile(s) the query covered have no file (rank 6;"* ]]
    run nx-query --dataset ds --sql "SELECT COUNT(*) FROM opcodes WHERE rank = 3" --format csv
    [ "$status" -eq 0 ]
    refute grep -q "have no file" <<<"$output"
    run nx-query --dataset ds --sql "SELECT COUNT(*) FROM opcodes WHERE rank IN (5, 6)" --format csv
    [[ "$output" == *"(rank 6;"* ]]
    run nx-query --dataset ds rank_engine_busy --format csv
    [ "$status" -eq 0 ]
    refute grep -q "have no file" <<<"$output"
    # An instruction without an opcode is counted under its name (as the
    # report's top opcodes count it).
    printf '%s\n' '{"instruction": [' \
        '{"timestamp": 1000, "duration": 100, "label": "TensorMatrix", "opcode": "MATMUL"},' \
        '{"timestamp": 1200, "duration": 50, "label": "Vector", "name": "my_kernel"}]}' >unnamed.json
    nx-convert --dataset ds --rank 20 unnamed.json >/dev/null
    run nx-query --dataset ds --sql "SELECT opcode, instructions, time_ns FROM opcodes WHERE rank = 20 ORDER BY 1" --format csv
    [ "${lines[1]}" = "MATMUL,1,100" ]
    [ "${lines[2]}" = "my_kernel,1,50" ]
    # A file of rank 7 made unreadable: a query on rank 3 never opens it; one
    # over every rank fails naming it.
    f=$(ls ds/events/rank=7/*.parquet)
    echo garbage >"$f"
    run nx-query --dataset ds --sql "SELECT COUNT(*) AS n FROM events WHERE rank = 3" --format csv
    [ "$status" -eq 0 ]
    [ "${lines[1]}" -gt 0 ]
    run nx-query --dataset ds --sql "SELECT COUNT(*) FROM events WHERE rank IN (2, 3)" --format csv
    [ "$status" -eq 0 ]
    run nx-query --dataset ds --sql "SELECT COUNT(*) FROM events" --format csv
    [ "$status" -eq 1 ]
    [[ "$output" == *"$f"* ]]
    # Read-only, and named queries are the dataset's own.
    run nx-query --dataset ds --sql "DELETE FROM events"
    [ "$status" -eq 1 ]
    run nx-query --dataset ds --list --format tsv
    [[ "$output" == *"rank_breakdown"* && "$output" != *"engine_utilization"* ]]
    run nx-query --dataset no_such_dir --sql "SELECT 1"
    [ "$status" -eq 1 ]
    [[ "$output" == *"no_such_dir: not an nx dataset"* ]]
}

@test "the cross-rank report is the same from a dataset, a database and the profile records of the same profiles" {
    ranks_tree cap
    nx-convert --dataset ds --plan cap 2>/dev/null
    nx-convert --dataset ds --tasks 2 --task 0 -q >/dev/null
    nx-convert --dataset ds --tasks 2 --task 1 -q >/dev/null
    # The same inputs with the same ranks, into a database and as records.
    tail -n +2 ds/_nx/plan.tsv | while IFS=$'\t' read -r rank input neff; do
        nx-convert --db s.db --rank "$rank" "$input"
    done >records.jsonl
    nx-report ds --ranks --format csv >from_dataset.csv
    nx-report --db s.db --ranks --format csv >from_db.csv
    nx-report records.jsonl --ranks --format csv >from_records.csv
    diff from_dataset.csv from_db.csv
    diff from_dataset.csv from_records.csv
    # The tree itself into a database: each profile with the rank its plan
    # gives it, as the dataset's.
    nx-convert --db tree.db cap -q >/dev/null
    nx-report --db tree.db --ranks --format csv >from_tree.csv
    diff from_dataset.csv from_tree.csv
    # Two processes' profiles of one file name are two names.
    [ "$(nx-query --dataset ds --sql 'SELECT count(DISTINCT name), count(*) FROM profiles' --format csv | tail -n 1)" = 12,12 ]
    # The injected straggler, found.
    [ "$(awk -F, '$8 == 1 {print $3}' from_dataset.csv)" = 5 ]
    run nx-report ds --ranks --format text
    [[ "$output" == *"The straggler is rank 5 "*"it starts 4 of 4 significant collectives last"*"all-reduce #1, 3 us after"*"tensor_matrix busy time +12 us"* ]]
    # The records say what the text says of it, on each of the capture's rows.
    [ "$(head -n 1 from_dataset.csv | cut -d, -f21-25)" = \
        straggler_basis,straggler_change,straggler_change_ns,most_variable_collective,start_spread_ns ]
    [ "$(cut -d, -f21-25 from_dataset.csv | tail -n +2 | sort -u)" = "collectives,tensor_matrix busy time,12000,all-reduce #1,3000" ]
}

@test "nx-report --ranks past 32 ranks: text and markdown show the notable ranks and say so; HTML and records keep every rank; total_ns in whole nanoseconds" {
    test-gen_ranks cap --ranks 40 --events 200 --iterations 4 --straggler 7 --late 3000 >/dev/null
    nx-convert --dataset ds --plan cap 2>/dev/null
    tail -n +2 ds/_nx/plan.tsv | while IFS=$'\t' read -r rank input neff; do
        nx-convert --rank "$rank" -q "$input"
    done >even.jsonl
    # Ranks 30-35 slower, by 1-6 us (0.000037 s and up: products like
    # 36999.99999999999 ns in doubles); the rest take 36 us.
    python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if 30 <= r["rank"] <= 35: r["metrics"]["total_time"] = (36 + r["rank"] - 29) * 1e-6
    print(json.dumps(r))' even.jsonl >records.jsonl
    run nx-report records.jsonl --ranks --format text
    [ "$status" -eq 0 ]
    table=$(echo "$output" | awk '$2 ~ /^i-/ {print $1}' | sort -n | uniq | tr '\n' ' ')
    # The straggler (7), the fastest (0), the median (14: the middle of the
    # ranks by total time, ties in rank order), the five slowest
    # (35 down to 31); rank 30, sixth slowest, and the rest are left out.
    [ "$table" = "0 7 14 31 32 33 34 35 " ]
    [[ "$output" == *"8 of the 40 ranks: the straggler, the fastest, the median"* ]]
    # And what the others are like, over every rank (nearest-rank p90).
    [[ "$output" == *"Over all 40 ranks, total time: min 36 us, median 36 us, p90 38 us, max 42 us; collective wait: min 0 ns, median 12 us, p90 12 us, max 12 us."* ]]
    [ "$(echo "$output" | grep -c '^  rank [0-9]')" -eq 8 ]
    [[ "$output" == *"7  i-"*"straggler"* ]]
    run nx-report records.jsonl --ranks --format markdown
    [[ "$output" == *"8 of the 40 ranks"* ]]
    [[ "$output" != *"| 30 |"* ]]
    nx-report records.jsonl --ranks -o ranks.html
    # Every rank's table row and heat map row (its title: rank, profile, figures).
    for r in 0 19 30 39; do
        grep -q "<td>$r</td><td class=\"profile\" title=\"i-" ranks.html
        grep -q "<title>rank $r[ :(]" ranks.html
    done
    refute grep -q "of the 40 ranks" ranks.html
    # The HTML's heat map is every rank's, whatever the ranks text shows:
    # without a breakdown in those 8, the other 32 still have theirs.
    python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["rank"] in (0, 7, 14, 31, 32, 33, 34, 35): r.pop("breakdown", None)
    print(json.dumps(r))' records.jsonl >some.jsonl
    nx-report some.jsonl --ranks -o some.html
    grep -q "<title>rank 19: " some.html
    refute grep -q "not in these profiles" some.html
    nx-report records.jsonl --ranks --format csv >ranks.csv
    [ "$(grep -c '^rank,' ranks.csv)" -eq 40 ]
    # Whole nanoseconds, from the profilers' seconds.
    [ "$(awk -F, '$1 == "rank" && ($5 ~ /\./ || $7 ~ /\./)' ranks.csv | wc -l)" -eq 0 ]
    [ "$(awk -F, '$3 == 35 {print $5, $7}' ranks.csv)" = "42000 6000" ]
    # 32 ranks or fewer: every one.
    head -32 records.jsonl >few.jsonl
    [ "$(nx-report few.jsonl --ranks --format text | awk '$2 ~ /^i-/' | wc -l)" -eq 32 ]
    refute grep -q "Over all" <<<"$(nx-report few.jsonl --ranks --format text)"
}

@test "a rank's profiles of two graphs (one per NEFF, as the runtime captures them) are compared across ranks graph by graph" {
    ranks_tree cap
    # A second graph on the same cores, its straggler rank 2.
    test-gen_ranks cap --ranks 12 --events 400 --iterations 2 --straggler 2 --late 5000 --neff 777
    [ "$(ls cap/*/*.json | wc -l)" -eq 24 ]
    nx-convert --dataset ds --plan cap 2>/dev/null
    nx-convert --dataset ds --tasks 1 --task 0 -q >/dev/null
    tail -n +2 ds/_nx/plan.tsv | while IFS=$'\t' read -r rank input neff; do
        nx-convert --db s.db -q --rank "$rank" "$input"
    done >/dev/null
    nx-report ds --ranks --format csv >from_dataset.csv
    nx-report --db s.db --ranks --format csv >from_db.csv
    diff from_dataset.csv from_db.csv
    # 12 ranks per graph, each rank once; each graph's own straggler.
    [ "$(tail -n +2 from_dataset.csv | wc -l)" -eq 24 ]
    # neff_hash is column 18 (then iterations: 0, none marked in a device profile).
    [ "$(awk -F, 'NR > 1 {print $18}' from_dataset.csv | sort | uniq -c | awk '{print $1 ":" $2}' | tr '\n' ' ')" = "12:3418752096 12:777 " ]
    [ "$(awk -F, '$8 == 1 {print $18 ":" $3 ":" $19}' from_dataset.csv | sort | tr '\n' ' ')" = "3418752096:5:0 777:2:0 " ]
    run nx-report ds --ranks --format text
    [[ "$output" == *"Ranks: $PWD/cap, NEFF 3418752096"*"The straggler is rank 5 "*"it starts 4 of 4 significant collectives last"* ]]
    [[ "$output" == *"Ranks: $PWD/cap, NEFF 777"*"The straggler is rank 2 "*"it starts 2 of 2 significant collectives last"* ]]
    # The named queries set each profile against its own graph's: graph 777's
    # straggler waits for none, the others 2 x 5 us; graph 3418752096's 4 x 3 us.
    [ "$(nx-query --dataset ds rank_collectives --format csv | awk -F, '$1 == 2 || $1 == 5 {print $1 ":" $6 ":" $5}' | tr '\n' ' ')" = "2:3418752096:12000 2:777:0 5:3418752096:0 5:777:10000 " ]
    [ "$(nx-query --dataset ds rank_skew --format csv | awk -F, 'NR > 1 && $5 != 1' | wc -l)" -eq 0 ]
    # The dataset's profiles say which graph each is.
    [ "$(nx-query --dataset ds --sql 'SELECT neff_hash, count(*) FROM profiles GROUP BY 1 ORDER BY 1' --format csv | tail -n +2 | tr '\n' ' ')" = "3418752096,12 777,12 " ]
    # One profile read twice (a dataset and its own records): compared once, and said.
    nx-query --dataset ds --sql "SELECT record FROM profiles WHERE rank = 3 AND neff_hash = '777'" --format tsv | tail -n 1 >rank3.jsonl
    run --separate-stderr nx-report ds rank3.jsonl --ranks --format csv
    [ "$status" -eq 0 ]
    [ "$(tail -n +2 <<<"$output" | wc -l)" -eq 24 ]
    [[ "$stderr" == *"--ranks: 1 profile repeats a rank of its graph and capture, the first: rank 3: i-0000000000000000_pid_4001/777_instid_0_vnc_1 twice"* ]]
    # Two profiles given one rank: the one of the lower id is kept, whatever
    # order a source lists them in (a dataset: by id; records and databases:
    # as they came), and both are named.
    a=cap/i-0000000000000000_pid_4001/777_instid_0_vnc_1.json b=cap/i-0000000000000000_pid_4001/777_instid_0_vnc_0.json
    nx-convert --rank 3 "$a" "$b" >ab.jsonl
    nx-convert --rank 3 "$b" "$a" >ba.jsonl
    nx-convert --db ba.db --rank 3 "$b" "$a" >/dev/null
    nx-convert --dataset two --rank 3 "$a" "$b" >/dev/null
    run --separate-stderr nx-report ab.jsonl --ranks --format csv
    [ "$status" -eq 0 ]
    [ "$(tail -n +2 <<<"$output" | wc -l)" -eq 1 ]
    kept=$(jq -rs 'sort_by(.id) | .[0].name' ab.jsonl) left=$(jq -rs 'sort_by(.id) | .[1].name' ab.jsonl)
    [[ "$stderr" == *"the first: rank 3: kept $kept, left $left"* ]]
    for other in ba.jsonl "--db ba.db" two; do
        [ "$(nx-report $other --ranks --format csv 2>/dev/null)" = "$output" ]
    done
    # A profile in two partitions (as an nx before 0.1.0's last changes left
    # one converted again under another rank): each row counts its own
    # operations once.
    id=$(nx-query --dataset ds --sql "SELECT profile FROM profiles WHERE rank = 3 AND neff_hash = '777'" --format csv | tail -n 1)
    for t in profiles metrics engines breakdown utilization collectives findings opcodes executions tracks events counters; do
        mkdir -p "ds/$t/rank=12"
        cp "ds/$t/rank=3/$id.parquet" "ds/$t/rank=12/"
    done
    [ "$(nx-query --dataset ds rank_collectives --format csv | awk -F, '$1 == 3 && $6 == 777 || $1 == 12 {print $1 ":" $3}' | tr '\n' ' ')" = "3:2 12:2 " ]
    # Converting it again, under either rank, leaves it at that one only.
    nx-convert --dataset ds --rank 12 cap/i-0000000000000000_pid_4001/777_instid_0_vnc_1.json >/dev/null
    [ "$(nx-query --dataset ds rank_collectives --format csv | awk -F, '$1 == 3 && $6 == 777 || $1 == 12 {print $1 ":" $3}' | tr '\n' ' ')" = "12:2 " ]
}

@test "make dataset (local tasks): plan, tasks, reduce; a profile that fails is named with the command that converts only it; a re-run converts only that" {
    ranks_tree cap
    bad=$(ls cap/i-0000000000000001_pid_4010/*vnc_0.json)   # rank 8
    cp "$bad" saved.json
    head -c 3000 saved.json >"$bad"
    run make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/ds" JOBS=2 PER_TASK=3
    [ "$status" -ne 0 ]
    [[ "$output" == *"12 profiles in 4 tasks of 3 on local"* ]]
    [[ "$output" == *"the dataset lacks 1 of its planned profiles (ranks 8; the first: $PWD/$bad)"* ]]
    [[ "$output" == *"convert only those with: nx-convert --dataset $PWD/ds --missing"* ]]
    [ -f ds/ranks.html ]
    [ "$(ls ds/profiles/*/*.parquet | wc -l)" -eq 11 ]
    # The report it leaves says so at its head, with the command.
    grep -q "the dataset lacks 1 of its planned profiles (ranks 8" ds/ranks.html
    grep -q "nx-convert --dataset $PWD/ds --missing" ds/ranks.html
    # The failing task's log names the input.
    grep -q "$bad" ds/_nx/logs/*/task-*.log
    # Repaired, the command the reduce gave converts only that one.
    cp saved.json "$bad"
    run nx-convert --dataset "$PWD/ds" --missing -q
    [ "$status" -eq 0 ]
    [[ "$output" == *"1 converted, 11 already done, 0 failed, of 12"* ]]
    run make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/ds" JOBS=2 PER_TASK=3
    [ "$status" -eq 0 ]
    # Each run's logs in a folder of their own: the second's say 0 converted.
    [ "$(ls -d ds/_nx/logs/*/ | wc -l)" -eq 2 ]
    [ "$(cat "$(last_logs ds)"task-*.log | grep -c ' 0 converted')" -eq 4 ]
    refute grep -q "the dataset lacks" ds/ranks.html
}

@test "nx-report --ranks on a planned dataset no task could convert anything into names every missing rank and the command, and fails" {
    test-gen_ranks cap --ranks 2 --events 100
    nx-convert --dataset ds --plan cap 2>/dev/null
    run --separate-stderr nx-report ds --ranks -o r.html
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"the dataset lacks 2 of its planned profiles (ranks 0, 1; "*"convert only those with: nx-convert --dataset ds --missing"* ]]
    [[ "$stderr" == *"no profile carries a rank (0 profiles"* ]]
    [ ! -e r.html ]
}

@test "a plan: runtime layout ranked by instance, process and core (a run folder below the process's too); profile_rank_<i> by name; malformed plans and task numbers refused" {
    ranks_tree cap
    run nx-convert --plan cap
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = $'rank\tinput\tneff' ]
    [ "$(echo "$output" | tail -n +2 | cut -f1 | tr '\n' ' ')" = "0 1 2 3 4 5 6 7 8 9 10 11 " ]
    [[ "${lines[9]}" == "8"$'\t'"$PWD/cap/i-0000000000000001_pid_4010/3418752096_instid_0_vnc_0.json"$'\t' ]]
    mkdir other
    cp "$FIXTURES/ranks/"* other/
    [ "$(nx-convert --plan other | tail -n +2 | cut -f1 | tr '\n' ' ')" = "0 1 " ]
    # Explorer's documentation puts a run folder (a timestamp) below each
    # process folder: the same ranks, one capture, the folder in the names.
    for d in cap/*_pid_*; do mkdir "$d/20261127T1200" && mv "$d"/*.json "$d/20261127T1200/"; done
    run nx-convert --plan cap
    [ "$(echo "$output" | tail -n +2 | cut -f1 | tr '\n' ' ')" = "0 1 2 3 4 5 6 7 8 9 10 11 " ]
    [[ "${lines[9]}" == "8"$'\t'"$PWD/cap/i-0000000000000001_pid_4010/20261127T1200/3418752096_instid_0_vnc_0.json"$'\t' ]]
    nx-convert --dataset ts --plan cap 2>/dev/null
    nx-convert --dataset ts --tasks 1 --task 0 -q >/dev/null
    run nx-report ts --ranks --format text
    [[ "$output" == *"Ranks: $PWD/cap, NEFF 3418752096"*"The straggler is rank 5 (i-0000000000000000_pid_4002/20261127T1200/3418752096_instid_0_vnc_1)"* ]]
    [ "$(nx-query --dataset ts --sql 'SELECT count(DISTINCT process_id), count(DISTINCT name) FROM profiles' --format csv | tail -n 1)" = 6,12 ]
    # Neuron Explorer directories named as their NTFF (with @latest): ranked
    # by process and core, their NEFF hash theirs.
    mkdir -p ex/i-1_pid_5 ex/i-1_pid_6
    cp -r "$FIXTURES/parquet/explorer/collective@latest" ex/i-1_pid_5/123_instid_0_vnc_0@latest
    cp -r "$FIXTURES/parquet/explorer/collective@latest" ex/i-1_pid_6/123_instid_0_vnc_0@latest
    [ "$(nx-convert --plan ex | tail -n +2 | cut -f1 | tr '\n' ' ')" = "0 1 " ]
    nx-convert --dataset exds --plan ex 2>/dev/null
    nx-convert --dataset exds --missing -q >/dev/null
    [ "$(nx-query --dataset exds --sql 'SELECT rank, neff_hash, process_id, logical_core FROM profiles ORDER BY rank' --format csv | tail -n +2 | tr '\n' ' ')" = "0,123,5,0 1,123,6,0 " ]
    # The trees themselves into a database: the ranks the plans give, and
    # --rank refused where a plan ranks each profile.
    nx-convert --db ex.db ex -q >/dev/null
    [ "$(sqlite3 ex.db 'SELECT rank FROM profile ORDER BY rank' | tr '\n' ' ')" = "0 1 " ]
    nx-convert --db cap.db cap -q >/dev/null
    [ "$(sqlite3 cap.db 'SELECT count(DISTINCT rank), min(rank), max(rank) FROM profile')" = "12|0|11" ]
    run nx-convert --db cap.db --rank 3 cap
    [ "$status" -eq 1 ]
    [[ "$output" == *"cap: --rank does not apply to a capture tree: its plan ranks each profile"* ]]
    # The collectives' time by the engine that triggered them, and the delay
    # from trigger to start: CcOp's own trigger_engine (Pool: gpsimd) and
    # cc_trigger_start_delay, as the fixture's writer (DuckDB through
    # test/fixtures/parquet/make.mjs) put them in the table; the time is the
    # cc_op_time its Summary says.
    test-parquet_dump "$FIXTURES/parquet/explorer/collective@latest/CcOp.parquet" >ccop.jsonl
    want=$(python3 -c '
import json
rows = [json.loads(l) for l in open("ccop.jsonl")]
assert {r["trigger_engine"] for r in rows} == {"Pool"}
print("gpsimd,%d,%d,%d,%d" % (len(rows), sum(r["duration_ns"] for r in rows),
      sum(r["cc_trigger_start_delay"] for r in rows), max(r["cc_trigger_start_delay"] for r in rows)))')
    [ "$(nx-query --dataset exds rank_collective_engines --format csv | tail -n +2 | cut -d, -f1,3- | tr '\n' ' ')" = "0,$want 1,$want " ]
    [ "$(echo "$want" | cut -d, -f3)" = "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["cc"]["op_time_ns"])' \
        "$FIXTURES/parquet/explorer/collective@latest.expected.json")" ]
    # A directory given with a trailing slash is the same profile's.
    nx-convert --rank 0 ex/i-1_pid_5/123_instid_0_vnc_0@latest/ >exr.jsonl
    nx-convert --rank 1 ex/i-1_pid_6/123_instid_0_vnc_0@latest >>exr.jsonl
    [ "$(nx-report exr.jsonl --ranks --format csv | cut -d, -f2,3,18 | tail -n +2 | tr '\n' ' ')" = "ex,0,123 ex,1,123 " ]
    run nx-convert --plan "$FIXTURES/parquet/codec"
    [ "$status" -eq 1 ]
    [[ "$output" == *"no profile in the tree"* ]]
    mkdir -p ds/_nx
    printf 'rank\tinput\tneff\nx\ty\tz\n' >ds/_nx/plan.tsv
    run nx-convert --dataset ds --missing
    [ "$status" -eq 1 ]
    [[ "$output" == *"ds/_nx/plan.tsv:2: the rank 'x' is not a number >= -1"* ]]
    run nx-convert --dataset ds --task 2 --tasks 2
    [ "$status" -eq 2 ]
    run nx-convert --task 0 --tasks 2
    [ "$status" -eq 2 ]
    # Tasks write the dataset; several at once cannot share one SQLite file.
    run nx-convert --dataset ds --missing --db ds.db
    [ "$status" -eq 2 ]
    [[ "$output" == *"--missing and --db cannot be used together"* ]]
    run nx-convert --dataset ds --task 0 --tasks 2 --db ds.db
    [ "$status" -eq 2 ]
    [ ! -e ds.db ]
}

# lanes_profile: the nx event JSONL above, on stdout.
lanes_profile() {
    python3 - <<'PY'
import json
events = []
for i in range(30000):
    for track, offset in (("A", 0), ("B", 7)):
        name = f"op{i % 17}" if i < 10000 else f"{track}-unique-{i:06d}-" + "x" * 90
        events.append({"kind": "event", "profile": "p_lanes", "type": "instruction", "track": track,
                       "ts_ns": 1000 + i * 100 + offset, "dur_ns": 50, "name": name, "args": {"i": i}})
    events.append({"kind": "event", "profile": "p_lanes", "type": "counter", "track": "queue",
                   "ts_ns": 1000 + i * 100, "value": i % 5})
late = [k for k, e in enumerate(events) if e["track"] == "B" and (e["ts_ns"] - 1007) // 100 % 5000 == 4999]
for k in reversed(late):
    events.insert(min(k + 9000, len(events)), events.pop(k))
for e in events:
    print(json.dumps(e))
print(json.dumps({"kind": "profile", "id": "p_lanes", "name": "lanes"}))
PY
}

@test "DuckDB reads the dataset as nx(7) says and agrees with nx-query on every named query (when node, @duckdb/node-api and parquet-wasm are here)" {
    npm_dir=${NX_NPM_DIR:-/work/npm-fixtures}
    command -v node >/dev/null || skip "node is not installed"
    # Both packages the cross-check imports (a directory with one only failed here).
    for package in @duckdb/node-api parquet-wasm; do
        [ -d "$npm_dir/node_modules/$package" ] || skip "$package is not in $npm_dir"
    done
    ranks_tree cap
    nx-convert --dataset ds --plan cap 2>/dev/null
    nx-convert --dataset ds --missing -q >/dev/null
    nx-convert --dataset ds "$FIXTURES/small.json" "$FIXTURES/parquet/explorer/collective@latest" >/dev/null
    # A ranked profile without a NEFF hash (NULL sorts last in both engines'
    # named queries), converted again under another rank.
    nx-convert --dataset ds --rank 1 "$FIXTURES/small.json" >/dev/null
    nx-convert --dataset ds --rank 13 "$(ls cap/i-0000000000000000_pid_4000/*vnc_0.json)" >/dev/null
    # A profile whose findings tie on rank, profile, severity and rule.
    nx-convert --dataset ds --rank 14 "$FIXTURES/lnc2.json" >/dev/null
    # Events encoded as they come, one lane a track: two tracks of 30,000
    # (each lane's pages written while the other fills), names that repeat
    # and then outgrow the shared dictionary (PLAIN pages of one lane before
    # dictionary pages of the other in a chunk), events of one track 9,000
    # events late (each ends a row group), and a counter track.
    lanes_profile >lanes.jsonl
    nx-convert --dataset ds --rank 2 lanes.jsonl >/dev/null
    # PyTorch traces of two windows of steps (the named queries partition by
    # them, NULL-safe in both engines), one without a rank, and times in ns
    # since 1970 (their sums overflow 64 bits: digested modulo a prime).
    gloo_job job 4 2 1
    gloo_job job 4 3 -1 3 10
    echo '{"traceEvents": [{"ph": "X", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 1}]}' >job/solo.pt.trace.json
    nx-convert --dataset ds job/*.json -q >/dev/null
    run env NX_NPM_DIR="$npm_dir" node "$NX_ROOT/test/crosscheck/dataset_duckdb.mjs" ds "$NX_BIN"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"DuckDB, arrow-rs and nx-query agree"* ]]
}

@test "make dataset SCHEDULER=slurm on a one-node cluster: the same dataset as local tasks and SQLite; a failed profile named, the reduce run anyway (afterany), non-zero; a re-run converts only that" {
    start_slurm
    ranks_tree cap
    # Local tasks first: the reference.
    make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/local" JOBS=2 PER_TASK=3 >/dev/null 2>&1
    # The same on Slurm, one profile cut short: 4 array tasks of 3, 2 at a time.
    bad=$(ls cap/i-0000000000000000_pid_4003/*vnc_1.json)   # rank 7
    cp "$bad" saved.json
    head -c 3000 saved.json >"$bad"
    run make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/slurm" SCHEDULER=slurm JOBS=2 PER_TASK=3
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"12 profiles in 4 tasks of 3 on slurm"* ]]
    [[ "$output" == *"array job "*"the reduce runs after it whatever its tasks did"* ]]
    [[ "$output" == *"the dataset lacks 1 of its planned profiles (ranks 7; the first: $PWD/$bad)"* ]]
    [ -f slurm/ranks.html ]
    ls slurm/_nx/logs/*/task-{0,1,2,3}.log slurm/_nx/logs/*/reduce.log
    grep -q "$bad" slurm/_nx/logs/*/task-2.log
    # Slurm recorded the failing task's exit status (jobcomp; there is no sacct).
    [ "$(grep 'Name=nx-dataset JobState=FAILED' "$SLURM_DIR/jobcomp.txt" | grep -o 'ArrayTaskId=[0-9]*')" = "ArrayTaskId=2" ]
    # Repaired and re-run: only that profile is converted.
    cp saved.json "$bad"
    run make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/slurm" SCHEDULER=slurm JOBS=2 PER_TASK=3
    [ "$status" -eq 0 ]
    [ "$(cat "$(last_logs slurm)"task-*.log | grep -o '[0-9]* converted' | awk '{s += $1} END {print s}')" -eq 1 ]
    # Slurm's dataset answers as the local one and as SQLite do.
    for q in rank_breakdown rank_engine_busy rank_collectives rank_skew; do
        diff <(nx-query --dataset slurm "$q" --format csv) <(nx-query --dataset local "$q" --format csv)
    done
    tail -n +2 local/_nx/plan.tsv | while IFS=$'\t' read -r rank input neff; do nx-convert --db s.db --rank "$rank" "$input"; done >/dev/null
    diff <(nx-report slurm --ranks --format csv) <(nx-report --db s.db --ranks --format csv)
    [ "$(nx-report slurm --ranks --format csv | awk -F, '$8 == 1 {print $3}')" = 5 ]
}

@test "make dataset over PyTorch traces: each trace's rank from its distributedInfo (read up to traceEvents only), --ranks from the dataset" {
    gloo_job job 4 2 1
    gzip job/host_1003.1700000000.pt.trace.json
    # Read only as far as "traceEvents": what follows need not even parse.
    echo '{"schemaVersion": 1, "distributedInfo": {"rank": 5}}' >job/huge.pt.trace.json
    sed -i 's/}$/, "traceEvents": [{"ph": "X", oops/' job/huge.pt.trace.json
    # No distributedInfo, a rank that is not one, an empty file (a worker
    # that crashed): unranked, and the plan goes on.
    echo '{"traceEvents": []}' >job/solo.1.pt.trace.json
    echo '{"distributedInfo": {"rank": "3"}, "traceEvents": []}' >job/text.1.pt.trace.json
    : >job/empty.1.pt.trace.json
    run nx-convert --plan job
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | cut -f1 | tr '\n' ' ')" = "rank 0 1 2 3 5 -1 -1 -1 " ]
    [[ "$(echo "$output" | grep -c '^3	.*host_1003.*\.gz')" == 1 ]]
    rm job/huge.pt.trace.json job/solo.1.pt.trace.json job/text.1.pt.trace.json job/empty.1.pt.trace.json
    make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/job" DATASET="$PWD/ds" JOBS=2 >/dev/null 2>&1
    [ "$(ls ds/profiles | tr '\n' ' ')" = "rank=0 rank=1 rank=2 rank=3 " ]
    # Done, all of them: a re-run converts nothing.
    run make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/job" DATASET="$PWD/ds" JOBS=2
    [ "$status" -eq 0 ]
    [ "$(cat "$(last_logs ds)"task-*.log | grep -o '[0-9]* converted' | awk '{s += $1} END {print s}')" -eq 0 ]
    nx-report ds --ranks --format csv >ranks.csv
    # A trace that says its rank after its events: planned unranked, written
    # to its rank's partition, and done there (a re-run leaves it).
    gloo_job late 5 0
    python3 -c '
import json
p = "late/host_1004.1700000000.pt.trace.json"
t = json.load(open(p))
info = t.pop("distributedInfo")
t["distributedInfo"] = info
json.dump(t, open(p, "w"))'
    cp late/host_1004.1700000000.pt.trace.json job/
    make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/job" DATASET="$PWD/ds" JOBS=2 >/dev/null 2>&1
    [ "$(grep -c 'host_1004' ds/_nx/plan.tsv)" -eq 1 ]
    grep -q '^-1	.*host_1004' ds/_nx/plan.tsv
    [ -n "$(ls ds/profiles/rank=4/)" ]
    make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/job" DATASET="$PWD/ds" JOBS=2 >/dev/null 2>&1
    [ "$(cat "$(last_logs ds)"task-*.log | grep -o '[0-9]* converted' | awk '{s += $1} END {print s}')" -eq 0 ]
    rm job/host_1004.1700000000.pt.trace.json
    rm -rf ds/profiles/rank=4 ds/*/rank=4
    # The iterations come through the dataset: rank 2, last in all 3 steps
    # (rank 1, late on more collectives but by less, is not it).
    [ "$(cut -d, -f3,8,17,19 ranks.csv | tr '\n' ' ')" = "rank,straggler,latest_collectives,iterations 0,0,0,3 1,0,0,3 2,1,3,3 3,0,0,3 " ]
    # A profiler schedule that repeats: a second window of steps, 10-12, in
    # the same folder, its late rank 3 and two collectives a step (steps 0-2
    # have three).  The named queries set each window's ranks against their
    # own window's, as --ranks does: 3 x 60 ms of wait on the on-time ranks,
    # none on the late one (set against steps 0-2's k-th operations, which
    # are others, they would not).
    gloo_job job 4 3 -1 3 10
    make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/job" DATASET="$PWD/ds" JOBS=2 >/dev/null 2>&1
    [ "$(nx-query --dataset ds --sql 'SELECT DISTINCT capture_dir FROM profiles' --format csv | tail -n +2)" = "$PWD/job" ]
    run nx-query --dataset ds rank_collectives --format csv
    [ "$(echo "$output" | tail -n +2 | awk -F, '{print $1 ":" $7 "-" $8 ":" $3 ":" $5}' | tr '\n' ' ')" = \
        "0:0-2:9:180000000 0:10-12:6:180000000 1:0-2:9:180000000 1:10-12:6:180000000 2:0-2:9:0 2:10-12:6:180000000 3:0-2:9:180000000 3:10-12:6:0 " ]
    # A short trace of the same capture (named as make dataset names the
    # others) and steps without a rank is no rank's: left out, neither the
    # fastest span nor the shortest collective the ranks are set against.
    echo '{"traceEvents": [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 1},
        {"ph": "X", "cat": "user_annotation", "name": "gloo:all_reduce", "pid": 1, "tid": 2, "ts": 1, "dur": 1},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 2, "dur": 1}]}' >job/solo.pt.trace.json
    nx-convert --dataset ds "$PWD/job/solo.pt.trace.json" -q >/dev/null
    [ "$(nx-query --dataset ds --sql 'SELECT count(*), count(DISTINCT capture_dir), min(first_step), max(last_step) FROM profiles WHERE first_step = 0' --format csv | tail -n 1)" = 5,1,0,2 ]
    [ -n "$(ls ds/profiles/rank=__HIVE_DEFAULT_PARTITION__/)" ]
    run nx-query --dataset ds rank_skew --format csv
    [ "$(echo "$output" | tail -n +2 | awk -F, '{print $1 ":" $8 "-" $9 ":" $5}' | tr '\n' ' ')" = \
        "0:0-2:1 0:10-12:1 1:0-2:1 1:10-12:1 2:0-2:1 2:10-12:1 3:0-2:1 3:10-12:1 " ]
    run nx-query --dataset ds rank_collectives --format csv
    [ "$(echo "$output" | tail -n +2 | awk -F, '{print $1 ":" $7 "-" $8 ":" $5}' | tr '\n' ' ')" = \
        "0:0-2:180000000 0:10-12:180000000 1:0-2:180000000 1:10-12:180000000 2:0-2:0 2:10-12:180000000 3:0-2:180000000 3:10-12:0 " ]
    nx-report ds --ranks --format md | grep -q "steps 10-12"
}

# The threads nx-convert runs while it waits for its input (a FIFO this
# shell holds open and never writes): its writer thread is made before it reads.
threads_while_waiting() {
    rm -f wait.fifo && mkfifo wait.fifo
    exec 4<>wait.fifo
    "$@" <wait.fifo >/dev/null 2>&1 &
    local pid=$! i
    for i in $(seq 100); do grep -q pipe "/proc/$pid/wchan" 2>/dev/null && break; sleep 0.05; done
    ls "/proc/$pid/task" | wc -l
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    exec 4>&-
}

@test "nx-convert --threads: the database or dataset written on a second thread only where the process has a second CPU (--threads, Slurm's SLURM_CPUS_ON_NODE and SLURM_CPUS_PER_TASK); the same files, and the same failures, either way" {
    unset SLURM_CPUS_ON_NODE SLURM_CPUS_PER_TASK
    [ "$(env -u OMP_NUM_THREADS nproc)" -ge 2 ] || { echo "this test needs 2 CPUs (with one, the writer thread never starts)"; false; }
    [ "$(threads_while_waiting nx-convert --dataset t2 -)" -eq 2 ]
    [ "$(threads_while_waiting nx-convert --db t2.db -)" -eq 2 ]
    [ "$(threads_while_waiting nx-convert --threads 1 --dataset t1 -)" -eq 1 ]
    [ "$(threads_while_waiting nx-convert --threads 1 --db t1.db -)" -eq 1 ]
    [ "$(SLURM_CPUS_ON_NODE=1 threads_while_waiting nx-convert --dataset t1 -)" -eq 1 ]
    [ "$(SLURM_CPUS_PER_TASK=1 threads_while_waiting nx-convert --dataset t1 -)" -eq 1 ]
    [ "$(SLURM_CPUS_ON_NODE=1 threads_while_waiting nx-convert --threads 2 --dataset t1 -)" -eq 2 ]
    [ "$(SLURM_CPUS_ON_NODE=x threads_while_waiting nx-convert --dataset t1 -)" -eq 2 ]
    cpu=$(awk '/^Cpus_allowed_list/ {print $2}' /proc/self/status | cut -d, -f1 | cut -d- -f1)
    [ "$(taskset -c "$cpu" bash -c "$(declare -f threads_while_waiting); threads_while_waiting nx-convert --dataset t1 -")" -eq 1 ]
    run nx-convert --threads 0 --dataset t1 x.json
    [ "$status" -eq 2 ]
    [[ "$output" == *"--threads takes a number >= 1"* ]]
    rm -rf t1 t2 t1.db t2.db
    ranks_tree cap
    for n in 1 2; do
        find cap -name '*.json' | sort | xargs nx-convert --threads $n --dataset t$n -q >/dev/null
        find cap -name '*.json' | sort | xargs nx-convert --threads $n --db t$n.db -q >/dev/null
    done
    [ "$(table_files t1 | wc -l)" -eq 144 ]
    diff -r t1 t2
    # (A profile's imported_at is the clock's.)
    for t in profile track event counter metric engine_stat; do
        nx-query --db t1.db --sql "SELECT * FROM $t ORDER BY 1, 2" --format csv | sed 's/,20[0-9-]*T[0-9:]*Z,/,/' >one.csv
        nx-query --db t2.db --sql "SELECT * FROM $t ORDER BY 1, 2" --format csv | sed 's/,20[0-9-]*T[0-9:]*Z,/,/' >two.csv
        [ "$(wc -l <one.csv)" -gt 1 ]
        cmp one.csv two.csv
    done
    # A profile the writer fails on fails alone, on either: in a fan-out
    # task (rank 1's folder cannot be made: its begin fails), and with
    # --keep-going (one profile's events file cannot be renamed into place:
    # its end fails).  The writer thread once kept its first error and
    # failed every profile after it with that.
    one=$(find cap -name '*.json' | sort | sed -n 2p)
    id=$(nx-convert -q "$one" | jget - 'r[0]["id"]')
    for n in 1 2; do
        nx-convert --dataset f$n --plan cap 2>/dev/null
        mkdir -p f$n/events
        touch f$n/events/rank=1
        run --separate-stderr nx-convert --threads $n --dataset f$n --missing -q
        [ "$status" -eq 1 ]
        [ "$(echo "$stderr" | grep -c 'entry .* (rank 1): .*rank=1: not a folder, where nx keeps one of its own')" -eq 1 ]
        [[ "$stderr" == *"missing entries: 11 converted, 0 already done, 1 failed, of 12"* ]]
        [ "$(ls f$n/profiles | wc -l)" -eq 11 ]
        mkdir -p "k$n/events/rank=__HIVE_DEFAULT_PARTITION__/$id.parquet"
        run --separate-stderr nx-convert --threads $n --dataset k$n --db k$n.db -k -q $(find cap -name '*.json' | sort | head -4)
        [ "$status" -eq 1 ]
        [[ "$stderr" == *"$id.parquet: cannot rename into place"* && "$stderr" == *"skipped 1 of 4 inputs"* ]]
        [ "$(ls k$n/profiles/*/ | wc -l)" -eq 3 ]
        # A record for each profile written, none for the one that was not;
        # nor is that one in the database loaded beside the dataset.
        [ "$(echo "$output" | wc -l)" -eq 3 ]
        refute grep -q "$id" <<<"$output"
        [ "$(nx-query --db k$n.db --format csv --sql "SELECT count(*), sum(uid = '$id') FROM profile" | tail -1)" = "3,0" ]
    done
}

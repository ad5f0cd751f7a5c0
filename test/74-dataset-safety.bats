#!/usr/bin/env bats
# A dataset under hostile trees, stops and full disks: a name read from
# input is data, never a path; nothing is written, renamed or deleted outside
# DATASET; a profile appears to every reader whole or not at all, whatever
# stops the writer (nx(7) DATASET, "The commit").  Stops are real: strace
# injects SIGKILL, SIGTERM and ENOSPC at the writer's own system calls.

load test_helper
load dataset_readers

# A 4-rank tree in the runtime's layout (neuron-profile JSON, as
# test-gen_ranks writes it).
tree() { test-gen_ranks "${1:-cap}" --ranks "${2:-4}" --events 300 --iterations 2 >/dev/null; }
first_json() { find "${1:-cap}" -name '*.json' | sort | sed -n "${2:-1}p"; }

# An nx event stream of one profile whose id is $2 (the events of $1).
stream_with_id() {
    nx-convert --to events "$1" | ID="$2" python3 -c '
import json, os, sys
for line in sys.stdin:
    r = json.loads(line)
    if r.get("kind") == "profile":
        r["id"] = os.environ["ID"]
    elif "profile" in r:
        r["profile"] = os.environ["ID"]
    print(json.dumps(r))'
}

@test "dataset names: a profile id from the input never becomes a path: ../, . and .. are written as file names inside the dataset, and read back as the ids they were" {
    tree
    mkdir -p work out
    echo precious >out/victim
    f=$(first_json)
    for id in ../../../out/victim . .. 'a/b' '.hidden' '_under' 'tab	and
newline'; do
        stream_with_id "$f" "$id" >>hostile.jsonl
    done
    (cd work && nx-convert --dataset ds -q ../hostile.jsonl >/dev/null)
    [ "$(cat out/victim)" = precious ]
    [ "$(find out -type f | wc -l)" -eq 1 ]
    # Every file inside the dataset, each table's seven, named as written.
    [ "$(find work -path work/ds/_nx -prune -o -type f -print | wc -l)" -eq 84 ]
    ls work/ds/profiles/rank=__HIVE_DEFAULT_PARTITION__/ >names
    grep -qx '%2E.%2F..%2F..%2Fout%2Fvictim.parquet' names
    grep -qx '%2E.parquet' names
    grep -qx '%2E..parquet' names
    grep -qx 'a%2Fb.parquet' names
    grep -qx '%5Funder.parquet' names
    # Read back, the ids are the stream's.
    run nx-query --dataset work/ds --format csv --sql 'SELECT profile FROM profiles ORDER BY 1'
    [ "$status" -eq 0 ]
    [[ "$output" == *"../../../out/victim"* && "$output" == *$'\n.\n..\n'* && "$output" == *"a/b"* ]]
    # A study database holding such a profile, given as input, too.
    nx-convert --db s.db -q hostile.jsonl >/dev/null
    (cd work && nx-convert --dataset db-ds -q ../s.db >/dev/null)
    [ "$(cat out/victim)" = precious ]
    [ "$(find work/db-ds/profiles -name '*.parquet' | wc -l)" -eq 7 ]
    # An id too long to be a file name is refused, naming the input.
    stream_with_id "$f" "$(printf 'x%.0s' {1..300})" >long.jsonl
    run --separate-stderr nx-convert --dataset work/ds long.jsonl
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"long.jsonl: the profile id is too long to name its dataset files (300 bytes"* ]]
}

@test "dataset names: a FIFO where a profile's file goes is replaced, never written into or waited on" {
    tree
    f=$(first_json)
    nx-convert --dataset ds --rank 2 -q "$f" >p.jsonl
    id=$(jget p.jsonl 'r[0]["id"]')
    rm "ds/events/rank=2/$id.parquet"
    mkfifo "ds/events/rank=2/$id.parquet"
    run timeout 60 nx-convert --dataset ds --rank 2 -q "$f"
    [ "$status" -eq 0 ]
    [ -f "ds/events/rank=2/$id.parquet" ]
    [ ! -p "ds/events/rank=2/$id.parquet" ]
    check_settled ds
}

@test "dataset commit: SIGKILL at renames and removals all through a conversion leaves what every reader agrees on; the next conversion finishes it" {
    tree cap 3
    a=$(first_json cap 1) b=$(first_json cap 2)
    nx-convert --dataset base -q --rank 0 "$a" >/dev/null
    # The conversion: a moves from rank 0 to rank 5, b is new at rank 5.
    # How many renames and removals it makes, so each gets its kill
    # (strace counts each system call apart).
    cp -r base probe
    strace -f -o calls.txt -e trace=renameat,unlinkat nx-convert --threads 1 --dataset probe --rank 5 -q "$a" "$b" >/dev/null
    renames=$(grep -c 'renameat(' calls.txt) removals=$(grep -c 'unlinkat(' calls.txt)
    [ "$renames" -ge 26 ]
    [ "$removals" -ge 12 ]
    # Every third rename and every other removal, the first and the last
    # always; every one of them with NX_COMMIT_EVERY_POINT=1 (make
    # bench-commit runs it so).
    for call in renameat unlinkat; do
        n=$([ $call = renameat ] && echo "$renames" || echo "$removals")
        stride=$([ $call = renameat ] && echo 3 || echo 2)
        if [ "${NX_SANITIZED:-0}" = 1 ]; then stride=$((stride * 3)); fi
        if [ "${NX_COMMIT_EVERY_POINT:-0}" = 1 ]; then stride=1; fi
        for k in $( (seq 1 "$stride" "$n"; echo "$n") | sort -un); do
            rm -rf ds
            cp -r base ds
            run strace -f -o /dev/null -e trace=$call -e inject=$call:signal=SIGKILL:when=$k \
                nx-convert --threads 1 --dataset ds --rank 5 -q "$a" "$b"
            [ "$status" -eq 137 ] || { echo "kill at $call $k of $n: exit $status"; false; }
            check_explained ds || { echo "after a kill at $call $k of $n"; false; }
            # The next conversion into the dataset finishes what the kill
            # left, then does its own.
            nx-convert --dataset ds --rank 5 -q "$a" "$b" >/dev/null
            check_settled ds || { echo "after a kill at $call $k of $n and the next conversion"; false; }
            [ "$(profiles_view ds | awk '{print $1}' | tr '\n' ' ')" = "5 5 " ] || { echo "after a kill at $call $k: $(profiles_view ds)"; false; }
        done
    done
}

@test "dataset commit: SIGTERM while files are put in place waits for the profile to be whole, then stops; a kill while files are written leaves only hidden files" {
    tree cap 3
    a=$(first_json cap 1) b=$(first_json cap 2)
    for k in 1 4 8 11 12 15; do
        rm -rf ds
        run strace -f -o /dev/null -e trace=renameat -e inject=renameat:signal=SIGTERM:when=$k \
            nx-convert --threads 1 --dataset ds --rank 1 -q "$a" "$b"
        [ "$status" -eq 143 ] || { echo "SIGTERM at rename $k: exit $status"; false; }
        # Nothing to finish: the commit the signal came in ended first.
        [ -z "$(journals ds)" ]
        check_settled ds || { echo "SIGTERM at rename $k"; false; }
    done
    # SIGKILL as a file's pages are written (before any commit): hidden files
    # only, which the next writer removes once it can tell their writer is gone.
    rm -rf ds
    run strace -f -o /dev/null -e trace=pwrite64,write -e inject=pwrite64:signal=SIGKILL:when=3 \
        nx-convert --threads 1 --dataset ds --rank 1 -q "$a"
    [ "$status" -ne 0 ]
    [ -z "$(glob_view ds)" ]
    [ -n "$(find ds -name '.*.tmp.*')" ]
    nx-convert --dataset ds --rank 1 -q "$b" >/dev/null
    [ -z "$(find ds -name '.*.tmp.*')" ]
    check_settled ds
}

@test "dataset commit: a full disk at any write or rename fails the profile, names it, and leaves the dataset as every reader agrees; a rerun with room converts it" {
    tree cap 3
    a=$(first_json cap 1) b=$(first_json cap 2)
    nx-convert --dataset base --rank 0 -q "$a" >/dev/null
    # write: the Parquet files' pages and the bookkeeping files; pwrite64:
    # the writer's note of its folders; renameat: putting files in place.
    specs="write:1 write:9 write:20 write:30 pwrite64:2 pwrite64:11 renameat:1 renameat:3 renameat:11 renameat:14 renameat:20"
    # Under the sanitizers (make test-asan) a conversion is several times
    # slower: one point of each kind there, all of them in make test.
    if [ "${NX_SANITIZED:-0}" = 1 ]; then specs="write:9 pwrite64:2 renameat:11"; fi
    for spec in $specs; do
        rm -rf ds
        cp -r base ds
        run --separate-stderr strace -f -o /dev/null -e trace="${spec%%:*}" -e inject="${spec%%:*}":error=ENOSPC:when="${spec#*:}" \
            nx-convert --threads 1 --dataset ds --rank 3 -q "$a" "$b"
        [ "$status" -eq 1 ] || { echo "ENOSPC at $spec: exit $status"; false; }
        [[ "$stderr" == *"No space left on device"* ]] || { echo "ENOSPC at $spec: $stderr"; false; }
        check_explained ds || { echo "ENOSPC at $spec"; false; }
        nx-convert --dataset ds --rank 3 -q "$a" "$b" >/dev/null
        check_settled ds || { echo "ENOSPC at $spec, then a rerun"; false; }
        [ "$(profiles_view ds | awk '{print $1}' | tr '\n' ' ')" = "3 3 " ]
    done
}

@test "dataset commit: two conversions of one profile at once both succeed, and the dataset holds it once, whole" {
    tree cap 2
    f=$(first_json)
    for pair in 1 2 3 4 5; do
        nx-convert --dataset ds --rank 1 -q "$f" >/dev/null 2>one.err &
        first=$!
        nx-convert --dataset ds --rank 1 -q "$f" >/dev/null 2>two.err &
        second=$!
        wait $first || { cat one.err; false; }
        wait $second || { cat two.err; false; }
        check_settled ds
        [ "$(profiles_view ds | wc -l)" -eq 1 ]
    done
    [ -z "$(find ds -name '.*.tmp.*')" ]
}

@test "nx-convert --missing and --task convert a profile whose profiles file was removed, and exit 0; make dataset's run passes" {
    tree cap 4
    nx-convert --dataset ds --plan cap 2>/dev/null
    nx-convert --dataset ds --missing -q >/dev/null 2>&1
    rm ds/profiles/rank=3/*.parquet
    run --separate-stderr nx-convert --dataset ds --missing -q
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"missing entries: 1 converted, 3 already done, 0 failed, of 4"* ]]
    check_settled ds
    rm ds/profiles/rank=2/*.parquet
    run --separate-stderr nx-convert --dataset ds --task 0 --tasks 1 -q
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"1 converted, 3 already done, 0 failed"* ]]
    rm ds/profiles/rank=1/*.parquet
    run make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/ds" JOBS=1
    [ "$status" -eq 0 ]
    grep -q ' 1 converted, 3 already done, 0 failed' "$(ls -dt ds/_nx/logs/*/ | head -1)"task-0.log
    check_settled ds
}

@test "a re-plan that drops a process removes its profiles from the dataset and says so; a profile converted outside the plan is named by the reduce" {
    tree cap 4
    nx-convert --dataset ds --plan cap 2>/dev/null
    nx-convert --dataset ds --missing -q >/dev/null 2>&1
    # The first process's folder (its two cores' profiles) goes; the other
    # process's workers are ranked anew, from 0.
    gone=$(dirname "$(first_json cap 1)")
    [ "$(ls "$gone" | wc -l)" -eq 2 ]
    rm -r "$gone"
    run --separate-stderr nx-convert --dataset ds --plan cap
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"re-planned: 2 entries of the earlier plan are not in the tree now; their 2 profiles were removed from the dataset"* ]]
    nx-convert --dataset ds --missing -q >/dev/null 2>&1
    check_settled ds
    [ "$(profiles_view ds | awk '{print $1}' | tr '\n' ' ')" = "0 1 " ]
    run --separate-stderr nx-report ds --ranks --format csv
    [ "$status" -eq 0 ]
    [[ "$stderr" != *"repeat a rank"* && "$stderr" != *"no entry of its plan"* ]]
    [ "$(echo "$output" | grep -c '^rank,')" -eq 2 ]
    # A profile converted by hand, outside the plan: compared, and named.
    test-gen_ranks other --ranks 1 --events 100 >/dev/null
    nx-convert --dataset ds --rank 9 -q "$(first_json other)" >/dev/null
    run --separate-stderr nx-report ds --ranks --format csv
    [[ "$stderr" == *"1 profile is in the dataset but in no entry of its plan"*"(rank 9)"* ]]
}

@test "profile_rank_<i> names: a rank out of range is named with its file, not an internal error; --plan says what it skipped and reads the extension in any case" {
    tree cap 1
    mkdir ranks
    cp "$(first_json)" ranks/profile_rank_99999999999.json
    for sink in "" "--db s.db" "--dataset ds"; do
        run --separate-stderr nx-convert $sink ranks
        [ "$status" -eq 1 ]
        [[ "$stderr" == *"ranks/profile_rank_99999999999.json: the rank in a profile_rank_<i> name is a number from 0 to 2147483647, not 99999999999"* ]]
        [[ "$stderr" != *"internal"* ]]
    done
    mv ranks/profile_rank_99999999999.json ranks/profile_rank_-1.json
    cp ranks/profile_rank_-1.json ranks/profile_rank_5.JSON
    run --separate-stderr nx-convert --plan ranks
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"skipped $PWD/ranks/profile_rank_-1.json: the rank in a profile_rank_<i> name is a number from 0 to 2147483647, not -1"* ]]
    [ "$(echo "$output" | tail -n +2 | cut -f1)" = 5 ]
}

@test "an nx event stream keeps the rank it is given: --rank, and a profile_rank_<i> name" {
    tree cap 1
    nx-convert --to events "$(first_json)" >ev.jsonl
    nx-convert --dataset ds --rank 5 -q ev.jsonl >/dev/null
    [ "$(profiles_view ds | awk '{print $1}')" = 5 ]
    mkdir ranks
    cp ev.jsonl ranks/profile_rank_0.json
    nx-convert --dataset ds2 -q ranks >/dev/null
    [ "$(profiles_view ds2 | awk '{print $1}')" = 0 ]
}

@test "folder names with a tab, a newline, a space and a quote: the plan keeps each to its line, and make dataset converts every one" {
    tree cap 4
    # Two process folders: one renamed with a tab, the other moved below a
    # folder whose name holds a newline (the runtime layout allows a run
    # folder between the capture and the process's).
    procs=$(ls cap)
    mv "cap/$(echo "$procs" | sed -n 1p)" "cap/$(echo "$procs" | sed -n 1p)"$'\t'"tab"
    mkdir "cap/run"$'\n'"two"
    mv "cap/$(echo "$procs" | sed -n 2p)" "cap/run"$'\n'"two/"
    run --separate-stderr nx-convert --plan cap
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | wc -l)" -eq 5 ]
    [[ "$output" == *'\t'* && "$output" == *'\n'* ]]
    run make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/it's a ds" JOBS=2
    [ "$status" -eq 0 ]
    check_settled "it's a ds"
    [ "$(profiles_view "it's a ds" | wc -l)" -eq 4 ]
    # Nothing made beside it, from the words of its name.
    ls >made
    refute grep -qx -e "it's" -e a -e ds made
    [ -f "it's a ds/ranks.html" ]
}

@test "two make dataset runs on one dataset keep their logs apart" {
    tree cap 2
    make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/ds" JOBS=1 >one.out 2>&1 &
    make -s -C "$NX_ROOT" BUILD="$(dirname "$NX_BIN")" dataset CAPTURE="$PWD/cap" DATASET="$PWD/ds" JOBS=1 >two.out 2>&1 &
    wait
    [ "$(ls -d ds/_nx/logs/*/ | wc -l)" -eq 2 ]
    for d in ds/_nx/logs/*/; do [ -s "${d}task-0.log" ]; done
    check_settled ds
}

@test "a long string: the Parquet footer keeps a bounded min/max of it, marked inexact, and the file stays small" {
    tree cap 1
    python3 - "$(first_json)" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["instruction"][3]["hlo_name"] = "h" * (4 << 20)
json.dump(p, open("long.json", "w"))
PY
    nx-convert --dataset ds --rank 0 -q long.json >/dev/null
    f=$(ls ds/events/rank=0/*.parquet)
    # The footer's length, in the 4 bytes before the closing magic.
    footer=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); print(struct.unpack("<I", d[-8:-4])[0])' "$f")
    [ "$footer" -lt 8192 ]
    [ "$(stat -c %s "$f")" -lt 200000 ]
    [ "$(nx-query --dataset ds --format csv --sql 'SELECT max(length(hlo_name)) FROM events' | tail -1)" -eq $((4 << 20)) ]
}

@test "nx-query --temp-limit stops a query whose temporary files pass it, naming the limit; a bad size is a usage error" {
    nx-convert --db s.db -q "$FIXTURES/small.json" >/dev/null
    run --separate-stderr nx-query --db s.db --temp-limit 20M --format csv \
        --sql 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x, randomblob(200) FROM r ORDER BY x DESC'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"stopped: the query's temporary files passed --temp-limit 20.00 MiB"* ]]
    run --separate-stderr nx-query --db s.db --temp-limit 12Q --sql 'SELECT 1'
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"--temp-limit takes a size"* ]]
    # Within it, a sort that spills finishes.
    run nx-query --db s.db --temp-limit 200M --format csv \
        --sql 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 200000) SELECT count(*) FROM (SELECT x, randomblob(200) FROM r ORDER BY x DESC)'
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | tail -1)" = 200000 ]
}

@test "a FIFO in a capture tree: --plan names it and plans the rest; a directory conversion names it and does not wait on it" {
    tree cap 2
    mkfifo "$(dirname "$(first_json)")/9999_instid_0_vnc_7.json"
    run --separate-stderr timeout 60 nx-convert --plan cap
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"9999_instid_0_vnc_7.json: a FIFO, not a file: not planned"* ]]
    [ "$(echo "$output" | tail -n +2 | wc -l)" -eq 2 ]
    run --separate-stderr timeout 60 nx-convert --dataset ds -q cap
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"a FIFO, not a file"* ]]
    mkdir ranks
    mkfifo ranks/profile_rank_0.json
    run --separate-stderr timeout 60 nx-convert --dataset ds2 ranks
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"ranks/profile_rank_0.json: a FIFO, not a file: not planned"* ]]
}

@test "a symbolic link planted in the dataset is never followed: nothing outside is removed, and readers say what they did not read" {
    tree cap 1
    f=$(first_json)
    nx-convert --dataset ds --rank 7 -q "$f" >p.jsonl
    id=$(jget p.jsonl 'r[0]["id"]')
    mkdir outside
    echo precious >"outside/$id.parquet"
    rm -r ds/engines/rank=7
    ln -s ../../outside ds/engines/rank=7
    run --separate-stderr nx-convert --dataset ds --rank 0 -q "$f"
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"ds/engines/rank=7: a symbolic link where nx keeps a folder of its own"* ]]
    [ "$(cat "outside/$id.parquet")" = precious ]
    check_explained ds
    run --separate-stderr nx-query --dataset ds --sql 'SELECT count(*) FROM engines'
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"not read: ds/engines/rank=7: a symbolic link"* ]]
}

@test "smaller: --rank with --task is refused; a removed file is called removed; a dataset's SQL is not offered --write; hidden folders are not planned unless asked" {
    tree cap 2
    run --separate-stderr nx-convert --dataset ds --rank 3 --task 0 --tasks 1
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"--rank"*"--task"* ]]
    nx-convert --dataset ds -q cap >/dev/null 2>&1
    rm ds/events/rank=1/*.parquet
    run --separate-stderr nx-query --dataset ds --sql 'SELECT count(*) FROM events'
    [[ "$stderr" == *"events: 1 profile(s) the query covered have no file (rank 1; written by this nx: the file was removed)"* ]]
    run --separate-stderr nx-query --dataset ds --write --sql 'DELETE FROM events'
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"a dataset is read-only (nx-convert --dataset writes it)"* ]]
    mkdir -p cap/.snapshot
    cp -r "$(dirname "$(first_json)")" cap/.snapshot/
    run --separate-stderr nx-convert --plan cap
    [ "$(echo "$output" | tail -n +2 | wc -l)" -eq 2 ]
    [[ "$stderr" == *"cap/.snapshot: a hidden folder, not planned (--include-hidden plans it)"* ]]
    run --separate-stderr nx-convert --plan cap --include-hidden
    [ "$(echo "$output" | tail -n +2 | wc -l)" -eq 4 ]
}

@test "nx-convert --repair finishes a killed commit, removes a gone writer's hidden files and files without their profiles file, and names unplanned profiles" {
    tree cap 2
    a=$(first_json cap 1)
    nx-convert --dataset ds --plan cap 2>/dev/null
    nx-convert --dataset ds --missing -q >/dev/null 2>&1
    run strace -f -o /dev/null -e trace=renameat -e inject=renameat:signal=SIGKILL:when=5 \
        nx-convert --threads 1 --dataset ds --rank 8 -q "$a"
    [ -n "$(journals ds)" ]
    check_explained ds
    run --separate-stderr nx-convert --dataset ds --repair
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"1 interrupted commits finished"* ]]
    [[ "$stderr" == *"profiles in the dataset are in no entry of its plan"* ]]
    check_settled ds
    # A profiles file removed by hand: the rest of that profile goes.
    rm "$(ls ds/profiles/rank=8/*.parquet)"
    run --separate-stderr nx-convert --dataset ds --repair
    [[ "$stderr" == *"11 files of profiles without a profiles file removed"* ]]
    check_settled ds
}

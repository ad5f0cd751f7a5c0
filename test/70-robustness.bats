#!/usr/bin/env bats
# Crash safety and concurrency: kill -9 and full disks leave databases whole
# and outputs whole or absent; eight writers share one history database;
# signals clean up temporary files; a closed pipe ends quietly.

load test_helper

big_profile() {  # $1 = events, $2 = file
    "$NX_BIN/bench-gen_profile" "$1" >"$2"
}

# Loads one small profile into s.db, then starts a large import in the
# background (its pid in $pid) and returns once it is well under way: its
# write-ahead log has grown past 4 MB.
start_big_import() {
    nx-convert --db s.db "$FIXTURES/small.json" >/dev/null
    big_profile 400000 big.json
    nx-convert --db s.db big.json >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 200); do
        [ "$(stat -c %s s.db-wal 2>/dev/null || echo 0)" -gt 4000000 ] && break
        sleep 0.02
    done
}

@test "kill -9 during a large import leaves a database that opens, passes integrity_check, and holds no partial profile" {
    start_big_import
    kill -9 "$pid"
    wait "$pid" || true
    [ "$(sqlite3 s.db 'PRAGMA integrity_check')" = ok ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 1 ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM event')" = 61 ]
    # And the database takes the next import.
    nx-convert --db s.db "$FIXTURES/small_slow.json" >/dev/null
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 2 ]
}

@test "SIGTERM during an import rolls it back and removes nothing it should not" {
    start_big_import
    kill -TERM "$pid"
    wait "$pid" || true
    [ "$(sqlite3 s.db 'PRAGMA integrity_check')" = ok ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 1 ]
}

# Runs a script with a small tmpfs mounted at ./disk (a private mount
# namespace: nothing outside the test sees it).
with_small_disk() {  # $1 = size, $2 = script
    mkdir -p disk
    unshare -rm sh -c "mount -t tmpfs -o size=$1 tmpfs disk && cd \"$PWD\" && $2"
}

@test "a full disk gives a clear error and leaves the database whole, without the partial profile" {
    command -v unshare >/dev/null
    big_profile 20000 big.json
    # Room for small.json's first load (its write-ahead log holds every new
    # 64 KiB page: about 2 MiB), not for the big profile's.
    run with_small_disk 4m "
        PATH='$NX_BIN':\$PATH
        nx-convert --db disk/s.db '$FIXTURES/small.json' >/dev/null || exit 10
        nx-convert --db disk/s.db big.json >/dev/null 2>err.txt; echo status=\$?
        echo profiles=\$(sqlite3 disk/s.db 'SELECT count(*) FROM profile')
        echo events=\$(sqlite3 disk/s.db 'SELECT count(*) FROM event')
        echo integrity=\$(sqlite3 disk/s.db 'PRAGMA integrity_check')
        cat err.txt"
    echo "$output"
    [[ "$output" == *"status=1"* ]]
    [[ "$output" == *"profiles=1"* ]]
    [[ "$output" == *"events=61"* ]]
    [[ "$output" == *"integrity=ok"* ]]
    [[ "$output" == *"nx-convert: disk/s.db: "*"full"* ]]
}

@test "a full disk: outputs appear whole or not at all" {
    command -v unshare >/dev/null
    run with_small_disk 1m "
        PATH='$NX_BIN':\$PATH
        dd if=/dev/zero of=disk/filler bs=1k 2>/dev/null  # until the disk is full
        nx-convert --to events -o disk/events.jsonl '$FIXTURES/small.json' >/dev/null 2>err.txt; echo events_status=\$?
        nx-convert '$FIXTURES/small.json' | nx-report --format markdown --all -o disk/report.md 2>>err.txt; echo report_status=\$?
        echo files=\$(ls disk | tr '\\n' ' '); cat err.txt"
    echo "$output"
    [[ "$output" == *"events_status=1"* ]]
    [[ "$output" == *"report_status=1"* ]]
    [[ "$output" == *"nx-convert: disk/events.jsonl: cannot write: No space left on device"* ]]
    [[ "$output" == *"nx-report: disk/report.md: cannot write: No space left on device"* ]]
    # Nothing but the filler: no partial output, no temporary file.
    [[ "$output" == *"files=filler"$'\n'* ]]
}

@test "a full disk behind standard output is reported once, with exit 1" {
    command -v unshare >/dev/null
    run with_small_disk 1m "
        PATH='$NX_BIN':\$PATH
        dd if=/dev/zero of=disk/filler bs=1k 2>/dev/null  # until the disk is full
        nx-convert --to events '$FIXTURES/small.json' >disk/events.jsonl 2>err.txt; echo status=\$?
        cat err.txt"
    echo "$output"
    [[ "$output" == *"status=1"* ]]
    [ "$(grep -c 'nx-convert: <stdout>: cannot write: No space left on device' <<<"$output")" -eq 1 ]
}

@test "eight concurrent writers on one history database: every row arrives, none is locked out" {
    for i in $(seq 1 8); do
        sed "s/\"total_time\": 4e-06/\"total_time\": $i.0e-06/" "$FIXTURES/small.json" >p$i.json
        nx-run --study matmul --M $((128 * i)) --K 128 --N 128 --timed 1 --warmup 0 >runs$i.jsonl
    done
    pids=()
    for i in $(seq 1 8); do
        nx-convert --db h.db p$i.json >/dev/null 2>err_p$i.txt & pids+=($!)
        nx-convert --db h.db runs$i.jsonl >/dev/null 2>err_r$i.txt & pids+=($!)
    done
    failed=0
    for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
    cat err_*.txt
    [ "$failed" = 0 ]
    refute grep -l "locked" err_*.txt
    [ "$(sqlite3 h.db 'SELECT count(*) FROM profile')" = 8 ]
    [ "$(sqlite3 h.db 'SELECT count(*) FROM run')" = 8 ]
    [ "$(sqlite3 h.db 'SELECT count(*) FROM event')" = $((8 * 61)) ]
    [ "$(sqlite3 h.db 'PRAGMA integrity_check')" = ok ]
}

@test "SIGINT and SIGTERM remove the temporary file of an unfinished output; after SIGKILL it stays, hidden" {
    # SIGKILL runs no handler: the temporary file stays, under a hidden name
    # (which ls, globs and the engines reading a dataset's folders skip).
    for sig in INT TERM KILL; do
        rm -f fifo
        mkfifo fifo
        nx-convert --to events -o ev.jsonl fifo 2>/dev/null &
        pid=$!
        exec 5>fifo
        head -c 4000 "$FIXTURES/small.json" >&5
        for _ in $(seq 1 100); do ls .ev.jsonl.tmp.* >/dev/null 2>&1 && break; sleep 0.02; done
        ls .ev.jsonl.tmp.*
        kill -"$sig" "$pid"
        wait "$pid" || true
        exec 5>&-
        if [ "$sig" = KILL ]; then
            [ "$(ls -A | grep -c '^\.ev\.jsonl\.tmp\.')" -eq 1 ]
        else
            refute ls .ev.jsonl.tmp.* 2>/dev/null
        fi
        refute ls ev.jsonl*
    done
}

@test "a closed downstream pipe ends every tool quietly" {
    nx-convert --db s.db "$FIXTURES/small.json" >/dev/null
    for cmd in "nx-run --study matmul --M 128:8192:+128 --K 128 --N 128 --timed 1 --warmup 0" \
               "nx-run --study matmul --M 128:8192:+128 --K 128 --N 128 --plan" \
               "nx-convert --to events $FIXTURES/small.json" \
               "nx-query --db s.db --sql 'SELECT * FROM event a, event b'" \
               "nx-query --db s.db --sql 'SELECT * FROM event a, event b' --format csv"; do
        run bash -c "$cmd 2>err.txt | head -n 1 >/dev/null; echo \${PIPESTATUS[0]}; cat err.txt"
        echo "$cmd -> $output"
        [ "$output" = 0 ]
    done
}

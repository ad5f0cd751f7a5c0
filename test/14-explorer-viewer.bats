#!/usr/bin/env bats
# neuron-explorer as it really behaves (neuron-explorer-parquet.md section 12):
# `view` writes every table first unfinished, fills them, Summary last, and
# then serves its UI forever; a directory it is still writing must not import
# as a profile.  The fake in test/fakes behaves so.

load test_helper

# An NTFF captured with the fake from the matmul Explorer profile, and the
# fake installed as neuron-explorer on PATH.
explorer_capture() {
    mkdir -p bin
    ln -sf "$FAKES/neuron-profile" bin/neuron-explorer
    export PATH="$PWD/bin:$PATH" FAKE_NEURON_LOG=$PWD/calls
    printf 'profile=%s\n' "$FIXTURES/parquet/explorer/matmul@latest" >file.neff
    neuron-explorer capture -n file.neff -s profile.ntff >/dev/null
}

# No fake viewer of this test's left running after nx-convert returned
# (tests run side by side: another's viewer, in its own folder, may be).
no_viewer_left() {
    sleep 0.2
    local pid
    for pid in $(pgrep -f "neuron-explorer view -n file.neff"); do
        if [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$PWD" ]; then return 1; fi
    done
    return 0
}

@test "nx-convert --neff: a viewer that serves on after writing (no --ingest-only) is stopped once its tables are complete" {
    explorer_capture
    # Today's code waited for it to exit: this hung until the timeout.
    FAKE_EXPLORER_OLD=1 run timeout 60 nx-convert --db s.db --neff file.neff profile.ntff
    [ "$status" -eq 0 ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM instruction')" -eq 198 ]
    no_viewer_left
    # The old viewer got no switch it does not know.
    grep -q '^neuron-explorer view -n file.neff -s profile.ntff --output-format parquet --output-file [^ ]*$' calls
}

@test "nx-convert --neff: the viewer's own switches when it has them, and its status file says when it is done" {
    explorer_capture
    FAKE_EXPLORER_HANG=1 run timeout 60 nx-convert --db s.db --neff file.neff profile.ntff
    [ "$status" -eq 0 ]
    grep -q -- '--output-format parquet --output-file .* --ingest-only --disable-ui --force --processing-status-file ' calls
    [ "$(sqlite3 s.db "SELECT value FROM metric WHERE name = 'tensor_engine_active_time_percent'" | cut -c1-4)" = 2.45 ]
    no_viewer_left
}

@test "nx-convert --neff: a viewer that does not finish within --view-timeout is stopped with a clear message" {
    explorer_capture
    FAKE_EXPLORER_INGEST_SECONDS=60 run timeout 60 nx-convert --db s.db --view-timeout 1 --neff file.neff profile.ntff
    [ "$status" -eq 1 ]
    [[ "$output" == "nx-convert: profile.ntff: neuron-explorer view did not finish the profile within 1 s (--view-timeout); it was stopped: "* ]]
    [ ! -e s.db ] || [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" -eq 0 ]
    no_viewer_left
}

@test "nx-convert --neff: a viewer that ends with its tables unfinished is an error, not an empty profile" {
    explorer_capture
    FAKE_EXPLORER_DIE_MIDWAY=1 FAKE_EXPLORER_OLD=1 run timeout 60 nx-convert --neff file.neff profile.ntff
    [ "$status" -eq 1 ]
    [[ "$output" == "nx-convert: profile.ntff: neuron-explorer view stopped with the profile incomplete ("*"has no valid footer"* ]]
}

@test "nx-convert: a profile directory still being written is refused, the database untouched; --keep-going counts it" {
    nx-convert --db s.db "$FIXTURES/parquet/explorer/deps@latest" >/dev/null
    before=$(db_digest s.db)
    run nx-convert --db s.db "$FIXTURES/parquet/bad/still_writing@latest"
    [ "$status" -eq 1 ]
    [ "$output" = "nx-convert: $FIXTURES/parquet/bad/still_writing@latest: profile directory is incomplete (Summary.parquet has no rows: the viewer fills it last): was neuron-explorer still writing it?" ]
    [ "$(db_digest s.db)" = "$before" ]
    run nx-convert --db s.db "$FIXTURES/parquet/bad/just_started@latest"
    [ "$status" -eq 1 ]
    [[ "$output" == *"profile directory is incomplete (none of its 3 tables has a row): was neuron-explorer still writing it?" ]]
    # A table cut short (the viewer killed mid-write).
    cp -r "$FIXTURES/parquet/explorer/deps@latest" cut@latest
    head -c 100 "$FIXTURES/parquet/explorer/deps@latest/Instruction.parquet" >cut@latest/Instruction.parquet
    run nx-convert --db s.db cut@latest
    [ "$status" -eq 1 ]
    [[ "$output" == "nx-convert: cut@latest: profile directory is incomplete (Instruction.parquet has no valid footer ("* ]]
    [ "$(db_digest s.db)" = "$before" ]
    run nx-convert --db s.db --keep-going "$FIXTURES/parquet/bad/still_writing@latest" "$FIXTURES/parquet/explorer/kernel@latest"
    [ "$status" -eq 1 ]
    [[ "$output" == *"skipped 1 of 2 inputs"* ]]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" -eq 2 ]
}

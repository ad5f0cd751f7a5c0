#!/usr/bin/env bats
# CLI conventions every tool shares (nx(7) and each tool's man page): --help, --version, usage
# errors with exit 2, diagnostics on stderr only.

load test_helper

TOOLS="nx-run nx-capture nx-convert nx-query nx-report"

@test "every tool: --help prints usage and examples on stdout, exit 0" {
    for t in $TOOLS; do
        run --separate-stderr "$t" --help
        [ "$status" -eq 0 ]
        [[ "$output" == *"Usage: $t"* ]]
        [[ "$output" == *"Examples:"* ]]
        [ -z "$stderr" ]
    done
}

@test "every tool: --version names the tool and nx" {
    for t in $TOOLS; do
        run "$t" --version
        [ "$status" -eq 0 ]
        [[ "$output" == "$t (nx) "* ]]
    done
}

@test "every tool: an unknown option is a usage error with a hint, exit 2" {
    for t in $TOOLS; do
        run --separate-stderr "$t" --no-such-option
        [ "$status" -eq 2 ]
        [ -z "$output" ]
        [[ "$stderr" == "$t: unrecognised option '--no-such-option'"* ]]
        [[ "$stderr" == *"try '$t --help' for more information"* ]]
    done
}

@test "every tool: --unbuffered is accepted; --list KIND is the one way to list, old spellings kept" {
    for t in $TOOLS; do
        run "$t" --unbuffered --help
        [ "$status" -eq 0 ]
    done
    run nx-convert --list formats
    [ "$status" -eq 0 ]
    [[ "$output" == *"explorer-parquet"* ]]
    [ "$(nx-convert --list)" = "$output" ]
    [ "$(nx-convert --list-formats)" = "$output" ]
    run nx-report --list rules --format tsv
    [ "$status" -eq 0 ]
    [ "$(nx-report --rules --format tsv)" = "$output" ]
    run nx-query --list queries --format tsv
    [ "$status" -eq 0 ]
    [[ "$output" == *engine_utilization* ]]
    run nx-run --list
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "backend"*"default target"* ]]
    [[ "$output" == *"sim	trn2	in-process trace	"* ]]
    [[ "$output" == *"cpu	cpu	"* ]]
    [[ "$output" == *"neuron	trn2	neuron-profile	"* ]]
    run --separate-stderr nx-query --list views
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"--list takes one of: queries, tables (got 'views')"* ]]
    run --separate-stderr nx-convert --list formats --list-formats
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"one --list at a time"* ]]
}

@test "every tool: contradicting options are refused the same way, exit 2" {
    for t in nx-run nx-capture nx-convert; do
        run --separate-stderr "$t" --quiet --progress
        [ "$status" -eq 2 ]
        [[ "$stderr" == "$t: --quiet and --progress cannot be used together"* ]]
    done
    run --separate-stderr nx-report --compare --baseline x.jsonl
    [ "$status" -eq 2 ]
    [[ "$stderr" == "nx-report: --compare and --baseline cannot be used together"* ]]
    # nx-report's four modes: one at a time, every pair named in the table's order.
    for pair in "study-diff baseline" "ranks compare" "ranks study-diff"; do
        set -- $pair
        run --separate-stderr nx-report --"$1" "$([ "$1" = ranks ] || echo x.jsonl)" --"$2" $([ "$2" = compare ] || echo x.jsonl)
        [ "$status" -eq 2 ]
        [[ "$stderr" == "nx-report: --$1 and --$2 cannot be used together"* ]]
    done
    run --separate-stderr nx-report --fail-on 'total_time>5%'
    [ "$status" -eq 2 ]
    [[ "$stderr" == "nx-report: --fail-on needs --baseline"* ]]
    run --separate-stderr nx-convert -o x.json
    [ "$status" -eq 2 ]
    [[ "$stderr" == "nx-convert: --output needs --to"* ]]
    run --separate-stderr nx-convert --format neuron-json --input-format neuron-json x.json
    [ "$status" -eq 2 ]
    [[ "$stderr" == "nx-convert: --input-format and --format cannot be used together"* ]]
}

@test "every tool: abbreviated options are not guessed" {
    run nx-convert --keep
    [ "$status" -eq 2 ]
}

@test "every tool has a man page that documents EXIT STATUS and EXAMPLES" {
    for t in $TOOLS; do
        [ -f "$NX_ROOT/man/$t.1" ]
        grep -q '^\.SH EXIT STATUS' "$NX_ROOT/man/$t.1"
        grep -q '^\.SH EXAMPLES' "$NX_ROOT/man/$t.1"
    done
    grep -q '^\.SH DATABASE SCHEMA' "$NX_ROOT/man/nx.7"
}

@test "make install: the installed tools find their man pages, queries, neuron driver and calibration data" {
    make -C "$NX_ROOT" --no-print-directory -s BUILD="$(dirname "$NX_BIN")" PREFIX="$PWD/inst" install >log 2>&1 || { cat log; false; }
    for t in $TOOLS; do
        [ -x "inst/bin/$t" ]
        [ -f "inst/share/man/man1/$t.1" ]
    done
    [ -f inst/share/man/man7/nx.7 ]
    [ -f inst/share/man/man7/nx-sim.7 ]
    # Run from the install tree only: no checkout on the way.
    cd inst/bin
    ./nx-query --list | grep -q '"name":"engine_overlap"'
    ./nx-run --calibrate >cal.txt
    grep -q 'check: every point where the last fit left it' cal.txt
    PATH="$FAKES:$PATH" PYTHONPATH="$FAKES/python" ./nx-run --backend neuron --target trn1 --study matmul \
        --M 128 --K 128 --N 128 --cache-dir "$BATS_TEST_TMPDIR/cache" --timed 1 --warmup 0 >r.jsonl
    [ "$(jget r.jsonl 'r[0]["backend"]')" = neuron ]
}

# Runs "$@" with standard input on a terminal (a pty); once the tool has said
# on stderr that it reads standard input, types Ctrl-D.  Prints its stderr.
on_terminal_stdin() {
    timeout 30 python3 - "$@" <<'PY'
import os, pty, subprocess, sys
m, s = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=s, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
os.close(s)
err = b""
while b"Ctrl-D" not in err:
    chunk = os.read(p.stderr.fileno(), 4096)
    if not chunk:
        break
    err += chunk
os.write(m, b"\x04")
err += p.stderr.read()
p.wait()
sys.stdout.write(err.decode())
PY
}

@test "every tool reading a terminal's standard input says so: 'reading standard input; Ctrl-D to end'" {
    for tool in nx-convert nx-capture nx-report; do
        run on_terminal_stdin "$tool"
        [[ "${lines[0]}" == "$tool: reading standard input; Ctrl-D to end" ]] || { echo "$tool: $output"; false; }
    done
    # Not when standard input is a pipe or a file.
    run --separate-stderr nx-report </dev/null
    [[ "$stderr" != *"Ctrl-D"* ]]
}

@test "nx-capture's progress on a stream counts what it did, never '[N/0]'" {
    nx-run --study patterns --patterns vmap,scan --sizes small --timed 1 --warmup 0 >runs.jsonl
    run --separate-stderr nx-capture --progress --dir prof <runs.jsonl
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"[1] vmap"*"[2] scan"* ]]
    [[ "$stderr" != *"/0]"* ]]
    run --separate-stderr nx-run --progress <(nx-run --study patterns --patterns vmap,scan --sizes small --plan) --timed 1 --warmup 0
    [[ "$stderr" == *"[1/2] vmap"*"[2/2] scan"* ]]
}

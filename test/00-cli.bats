#!/usr/bin/env bats
# CLI conventions every tool shares (DESIGN.md): --help, --version, usage
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

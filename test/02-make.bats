#!/usr/bin/env bats
# The Makefile's promises to a newcomer (issue 25's traps): a user's install
# builds no tests, warnings stop developers and CI but not a user's study, a
# new VERSION reaches --version, every tool's man page has its OPTIONS.

load test_helper

# make -n in the checkout, into a build tree of its own (nothing is built),
# as a user's shell would run it: the suite itself runs under make (make
# test-asan passes CXX=clang++, OPT, SAN and -j2 down through MAKEFLAGS and
# the environment), which must not leak into the make being examined.
make_n() {
    env -u MAKEFLAGS -u MFLAGS -u GNUMAKEFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u CXX -u CXXFLAGS -u OPT -u SAN -u WERROR \
        make -C "$NX_ROOT" --no-print-directory -n BUILD="$BATS_TEST_TMPDIR/build" "$@" 2>&1
}

@test "make install builds and installs the tools only: no unit tests, no test framework" {
    run make_n install PREFIX="$BATS_TEST_TMPDIR/prefix"
    [ "$status" -eq 0 ]
    [[ "$output" == *"bin/nx-convert"* ]]
    [[ "$output" != *"nx-unit"* ]]
    [[ "$output" != *"gtest"* ]]
    [[ "$output" != *"test/unit"* ]]
}

@test "warnings are errors for make test, not for a user's make study" {
    run make_n study
    [[ "$output" == *"g++ "* ]]
    [[ "$output" != *"-Werror"* ]]
    run make_n test
    [[ "$(echo "$output" | grep -m1 '^g++ ')" == *"-Werror"* ]]
}

@test "a new VERSION rebuilds what --version prints, and only that" {
    # The Makefile names its objects relative to the checkout.
    build=$(realpath --relative-to="$NX_ROOT" "$(dirname "$NX_BIN")")
    [ -f "$NX_ROOT/$build/obj/common/io/version.o" ] || skip "no build tree at $build"
    run make -C "$NX_ROOT" --no-print-directory -n -W VERSION BUILD="$build" "$build/obj/common/io/version.o" "$build/obj/common/cli/cli.o"
    [[ "$output" == *"-c common/io/version.cpp"* ]]
    [[ "$output" != *"-c common/cli/cli.cpp"* ]]
    [[ "$output" == *"NX_VERSION='\"$(cat "$NX_ROOT/VERSION")\"'"* ]]
}

@test "every tool's man page has an OPTIONS section before EXIT STATUS" {
    for page in "$NX_ROOT"/man/nx-*.1; do
        grep -q '^\.SH OPTIONS' "$page" || { echo "$(basename "$page"): no OPTIONS"; false; }
        awk '/^\.SH OPTIONS/ {o = NR} /^\.SH EXIT STATUS/ {e = NR} END {exit !(o && e && o < e)}' "$page" ||
            { echo "$(basename "$page"): OPTIONS after EXIT STATUS"; false; }
    done
}

@test "a plain make test builds one job per core; a -j given wins" {
    run make_n test
    [[ "$output" == *"--no-print-directory -j$(nproc) all"* ]]
    run make_n -j1 test
    [[ "$output" != *"--no-print-directory -j$(nproc) all"* ]]
    [[ "$output" == *"--no-print-directory  all"* ]]
}

#!/usr/bin/env bats
# The suite's own assertions.  Bats runs a test under set -e, and bash's
# errexit spares a negated command and every command of an && list but the
# last: "! grep -q x f" or "[ a ] && [ b ]" in the middle of a test passes
# whatever they find (twenty-odd such lines once passed that way).  A test
# writes "refute CMD" (test_helper.bash) and one command a line instead;
# this reads every test's statements and names the others.

load test_helper

# check_assertions ROOT: prints each statement of a test in ROOT/test/*.bats
# whose failure would not fail the test; exit 1 then.
check_assertions() {
    python3 - "$1" <<'PY'
import glob, re, sys
root = sys.argv[1]
bad = []
for path in sorted(glob.glob(root + "/test/*.bats")):
    in_test = False
    cont = False
    heredoc = None  # the word that ends the here-document being read
    for i, line in enumerate(open(path).read().split("\n"), 1):
        s = line.strip()
        if heredoc:
            if s == heredoc:
                heredoc = None
            continue
        m = re.search(r"<<-?\s*['\"]?(\w+)['\"]?", re.sub(r"<<<", "", line))
        if m:
            heredoc = m.group(1)
        if s.startswith("@test "):
            in_test, cont = True, False
            continue
        if not in_test:
            continue
        if line.startswith("}"):
            in_test = False
            continue
        was_cont = cont
        cont = s.endswith(("\\", "&&", "||", "|"))
        # A statement's first line (in the body, a loop or a branch).
        if was_cont or not s or s.startswith("#"):
            continue
        # Quoted text and [[ ]] tests hold && of their own.
        t = re.sub(r"'[^']*'", "''", s)
        t = re.sub(r'"(\\.|[^"\\])*"', '""', t)
        t = re.sub(r"\[\[.*?\]\]", "[[ ]]", t)
        # Control flow decides on purpose (cond && return 1; if/while conditions).
        if re.search(r"\b(return|continue|break|exit)\b", t) or re.match(r"(if|elif|while|until|for|case)\b", t):
            continue
        t = re.sub(r"^(then|do|else)\s+", "", t)
        # A subshell's && list fails the subshell, which fails the test.
        if t.startswith("! ") or ("&&" in t and "||" not in t and not t.startswith("(")):
            bad.append(f"{path[len(root) + 1:]}:{i}: {s}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}

@test "no assertion in the suite that set -e would let pass: ! CMD and A && B mid-test are refute CMD and one command a line" {
    run check_assertions "$BATS_TEST_DIRNAME/.."
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    # The check finds what it is for.
    mkdir -p sample/test
    # (\100 is the @: a line that starts with it here would be a test of this file.)
    printf '\100test "x" {\n' >sample/test/x.bats
    cat >>sample/test/x.bats <<'B'
    ! grep -q a f
    [ -f a ] && [ -f b ]
    [[ "$o" == *a* && "$o" != *b* ]]
    refute grep -q a f
    (cd d && true)
    for f in a b; do
        [ -n "$f" ] && grep -q "$f" g
        [ -n "$f" ] || continue
    done
    echo "a && b" >c
    python3 - <<'PY'
! not bash && nor this
PY
}
B
    run check_assertions "$PWD/sample"
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 3 ]
    [[ "${lines[0]}" == "test/x.bats:2: ! grep -q a f" ]]
    [[ "${lines[1]}" == "test/x.bats:3: [ -f a ] && [ -f b ]" ]]
    [[ "${lines[2]}" == "test/x.bats:8: [ -n \"\$f\" ] && grep -q \"\$f\" g" ]]
}

@test "refute: passes when its command fails, fails when it succeeds" {
    refute false
    refute grep -q nothing /dev/null
    run refute true
    [ "$status" -eq 1 ]
    [[ "$output" == *"refute: this succeeded: true"* ]]
}

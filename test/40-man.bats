#!/usr/bin/env bats
# The manual is tested: every "$ command" example in every man page runs, and
# nx(7) documents every metric nx defines.

load test_helper

# A directory with the files the examples name.
prepare_examples() {
    export PATH="$FAKES:$PATH" PYTHONPATH="$FAKES/python" FAKE_NEURON_PROFILE_JSON="$FIXTURES/small.json"
    cp "$FIXTURES/small.json" profile.json
    gzip -c profile.json >profile.json.gz
    cp "$FIXTURES/trace.json" "$FIXTURES/system_profile.json" .
    cp "$FIXTURES/kineto_step.json" pytorch_trace.json
    cp -r "$FIXTURES/ranks" output
    cp -r "$FIXTURES/parquet/explorer/matmul@latest" .
    export HOME=$PWD/home
    mkdir -p "$HOME/.local/share/neuron-profile/profiles/global"
    cp -r "$FIXTURES/parquet/explorer/collective@latest" "$HOME/.local/share/neuron-profile/profiles/global/"
    printf 'NEFF-FAKE\nprofile=%s\n' "$FIXTURES/small.json" >file.neff
    neuron-profile capture -n file.neff -s profile.ntff >/dev/null
    nx-convert --db study.db --target trn1 "$FIXTURES/small.json" "$FIXTURES/small_slow.json" >/dev/null
    cp study.db yesterday.db
}

@test "every example in every man page runs and succeeds" {
    prepare_examples
    ran=0
    for page in "$NX_ROOT"/man/*.[17]; do
        # Lines of .EX blocks that start with "$ " are commands.
        while IFS= read -r cmd; do
            echo "# $(basename "$page"): $cmd" >&3
            run bash -c "set -o pipefail; $cmd"
            if [ "$status" -ne 0 ]; then
                echo "example failed ($status) in $(basename "$page"): $cmd"
                echo "$output"
                return 1
            fi
            ran=$((ran + 1))
        done < <(awk '/^\.EX/{ex=1; next} /^\.EE/{ex=0} ex && /^\$ /{sub(/^\$ /, ""); print}' "$page")
    done
    [ "$ran" -ge 28 ]
}

@test "nx(7) documents every metric nx defines, and nx-report(1) every rule" {
    run nx-convert --to events "$FIXTURES/small.json" --target trn1
    metrics=$(python3 - "$NX_ROOT/common/profile/metric_defs.cpp" <<'PY'
import re, sys
print("\n".join(re.findall(r'^\s*\{"([a-z_]+)", "', open(sys.argv[1]).read(), re.M)))
PY
)
    [ -n "$metrics" ]
    text=$(man -l "$NX_ROOT/man/nx.7" 2>/dev/null | tr -d '\n' | sed 's/‐ *//g; s/- *//g')
    for m in $metrics; do
        case $m in
            tensor_engine_*|vector_engine_*|scalar_engine_*|gpsimd_engine_*|sync_engine_*)
                [[ "$text" == *"{tensor,vector,scalar,gpsimd,sync}_engine_{active_time,active_time_percent,instruction_count}"* ]] || { echo "undocumented: $m"; return 1; } ;;
            *) [[ "$text" == *"$m"* ]] || { echo "undocumented metric: $m"; return 1; } ;;
        esac
    done
    for rule in $(nx-report --rules --format tsv | tail -n +2 | cut -f1); do
        grep -q "^\.BR $rule " "$NX_ROOT/man/nx-report.1" || { echo "undocumented rule: $rule"; return 1; }
    done
}

@test "nx(7) DATASET names every column of every table the dataset writer defines" {
    run nx-query --list tables --format tsv
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "table	column	type	nullable	meaning" ]
    # Each table's paragraph: from its ".B <table>" line after a .TP to the
    # next .TP or .PP, with the man escapes of '-' taken out.
    section=$(sed -n '/^\.SH DATASET/,/^\.SH TARGETS/p' "$NX_ROOT/man/nx.7" | sed 's/\\-/-/g')
    checked=0
    while IFS=$'\t' read -r table column _; do
        [ "$column" = profile ] && continue   # said once for every table
        paragraph=$(awk -v t="$table" '
            $0 == ".B " t { if (prev == ".TP") { on = 1; prev = $0; next } }
            on && ($0 == ".TP" || $0 == ".PP") { exit }
            on { print }
            { prev = $0 }' <<<"$section")
        [ -n "$paragraph" ] || { echo "nx(7) DATASET has no paragraph for table $table"; return 1; }
        grep -qw -- "$column" <<<"$paragraph" || { echo "nx(7) DATASET: $table lacks column $column"; return 1; }
        checked=$((checked + 1))
    done < <(tail -n +2 <<<"$output")
    [ "$checked" -gt 100 ]
}

@test "nx(7) DATABASE SCHEMA gives the described tables' columns as the database has them" {
    nx-convert --db study.db --target trn1 "$FIXTURES/small.json" >/dev/null
    for table in engine_stat execution; do
        run nx-query --db study.db --format tsv --sql "SELECT group_concat(name, ', ') FROM (SELECT name FROM pragma_table_info('$table') ORDER BY cid)"
        [ "$status" -eq 0 ]
        grep -qxF ".B $table(${lines[1]})" "$NX_ROOT/man/nx.7" || { echo "nx(7) does not give $table(${lines[1]})"; return 1; }
    done
}

@test "every man page has a real date, no older than its last change, and every make target the docs name exists and is in make help" {
    today=$(date -u +%F)
    for page in "$NX_ROOT"/man/*.[17]; do
        d=$(sed -n 's/^\.TH [^ ]* [0-9] "\([^"]*\)".*/\1/p' "$page")
        [[ "$d" =~ ^20[0-9]{2}-[01][0-9]-[0-3][0-9]$ ]] && date -u -d "$d" >/dev/null 2>&1 || { echo "$(basename "$page"): date '$d'"; false; }
        [[ ! "$d" > "$today" ]] || { echo "$(basename "$page"): date $d is in the future"; false; }
        # A page changed since its date is stale (checked when the sources are a git checkout).
        last=$(git -C "$NX_ROOT" log -1 --format=%cs -- "man/$(basename "$page")" 2>/dev/null || true)
        [ -z "$last" ] || [[ ! "$d" < "$last" ]] || { echo "$(basename "$page"): dated $d, changed $last"; false; }
    done
    # The targets of `make X` commands in the README and the man pages.
    targets=$(python3 - "$NX_ROOT" <<'PY'
import glob, re, sys
root = sys.argv[1]
found = set()
readme = open(root + "/README.md").read()
found.update(re.findall(r"`make ([a-z][a-z0-9-]*)", readme))
for block in re.findall(r"```\n(.*?)```", readme, re.S):
    found.update(re.findall(r"(?:^|&& |\$ )make ([a-z][a-z0-9-]*)", block, re.M))
for page in glob.glob(root + "/man/*.[17]"):
    text = open(page).read().replace("\\-", "-")
    found.update(re.findall(r"^\.B make ([a-z][a-z0-9-]*)", text, re.M))
    for block in re.findall(r"^\.(?:nf|EX)\n(.*?)^\.(?:fi|EE)", text, re.M | re.S):
        found.update(re.findall(r"^(?:\$ )?make ([a-z][a-z0-9-]*)", block, re.M))
print("\n".join(sorted(found)))
PY
)
    [[ "$targets" == *study-nightly* && "$targets" == *bench-model* ]]
    defined=$(make -C "$NX_ROOT" -qp BUILD="$(dirname "$NX_BIN")" 2>/dev/null | sed -n 's/^\([a-z][a-z0-9-]*\):.*/\1/p' | sort -u)
    help=$(make -C "$NX_ROOT" --no-print-directory help)
    for t in $targets; do
        grep -qx "$t" <<<"$defined" || { echo "no make target '$t'"; false; }
        [ "$t" = help ] || [[ "$help" == *" $t "* || "$help" == *" $t,"* ]] || { echo "make help does not list '$t'"; false; }
    done
}

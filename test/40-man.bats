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

#!/usr/bin/env bats
# nx-report: profile reports, findings, comparisons, baselines and gates.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR" || return 1
    nx-convert --db s.db --target trn1 "$FIXTURES/small.json" "$FIXTURES/small_slow.json" >profiles.jsonl
}

@test "nx-report: a profile report has time, utilisation, bound, findings, engines, DMA and top lists" {
    run nx-report --format text --profile small profiles.jsonl
    [ "$status" -eq 0 ]
    [[ "$output" == *"Profile small"* ]]
    [[ "$output" == *"total time  4 us"* ]]
    [[ "$output" == *"MFU                   12.0%"* ]]
    # AI = 134217728 / (40960 + 8192) = 2730.7 FLOP/B > ridge 223.8: compute-bound.
    [[ "$output" == *"bound                 compute-bound (arithmetic intensity 2731 FLOP/B vs ridge point 223.8)"* ]]
    [[ "$output" == *"Findings (top 3 of "* ]]
    [[ "$output" == *"critical  tensor_engine_idle"* ]]
    [[ "$output" == *"-> restructure matmuls"* ]]
    [[ "$output" == *"TensorMatrix             [#####"* ]]
    [[ "$output" == *"DMA"* && "$output" == *"not hidden by compute"* ]]
    [[ "$output" == *"Top opcodes"* && "$output" == *"MATMUL"* ]]
    [[ "$output" == *"Top layers"* ]]
}

@test "nx-report --all shows every finding, every metric with its origin, and rules not evaluated" {
    run nx-report --format text --all --profile small profiles.jsonl
    [ "$status" -eq 0 ]
    [[ "$output" != *"(top 3 of"* ]]
    [[ "$output" == *"tensor_engine_underused"* ]]
    [[ "$output" == *"All metrics"* ]]
    [[ "$output" == *"total_time"*"source"* ]]
    [[ "$output" == *"rule not evaluated: sbuf_full (needs sbuf_fullness_percent)"* ]]
    run nx-report --format text --top 1 --profile small profiles.jsonl
    [[ "$output" == *"Findings (top 1 of "* ]]
}

@test "nx-report: findings are JSONL records for pipes, and CSV on request" {
    nx-report profiles.jsonl >findings.jsonl
    assert_jsonl findings.jsonl
    [ "$(jget findings.jsonl 'sorted(set(x["kind"] for x in r))')" = '["finding"]' ]
    # The profiler's own warning first, then nx's rules, worst first.
    [ "$(jget findings.jsonl '[x["rule"] for x in r if x["name"] == "small"][:2]')" = '["profiler_warning", "tensor_engine_idle"]' ]
    [ "$(jget findings.jsonl '[x for x in r if x["rule"] == "tensor_engine_idle"][0]["threshold"]')" = 50 ]
    [ "$(jget findings.jsonl 'all(x["profile"].startswith("p_") for x in r)')" = true ]
    run nx-report --format csv profiles.jsonl
    [ "${lines[0]}" = "kind,profile,name,rule,severity,metric,value,threshold,message,action,start_ns,end_ns" ]
}

@test "nx-report reads profiles from a study database, filtered with --profile" {
    run nx-report --db s.db --profile small_slow --format markdown
    [ "$status" -eq 0 ]
    [[ "$output" == *"# Profile small_slow"* ]]
    [[ "$output" != *"# Profile small"$'\n'* ]]
    run nx-report --db s.db --profile nope
    [ "$status" -eq 1 ]
    [[ "$output" == *"no profile named 'nope'"* ]]
    # A database given as a file argument works too.
    run nx-report s.db --format markdown
    [[ "$output" == *"# Profile small"* && "$output" == *"# Profile small_slow"* ]]
    # --profile means the same for every source: with --db, record files are
    # filtered too, and a name found in only one source is found.
    nx-convert --name other "$FIXTURES/small.json" >other.jsonl
    run nx-report --db s.db other.jsonl --profile small_slow --format markdown
    [ "$status" -eq 0 ]
    [[ "$output" == *"# Profile small_slow"* && "$output" != *"# Profile other"* ]]
    run nx-report --db s.db other.jsonl --profile other --profile small --format markdown
    [ "$status" -eq 0 ]
    [[ "$output" == *"# Profile other"* && "$output" == *"# Profile small"$'\n'* && "$output" != *"small_slow"* ]]
}

@test "nx-report --compare: metrics side by side with ratios, and the engine deltas that explain the difference" {
    run nx-report --db s.db --compare --format text
    [ "$status" -eq 0 ]
    [[ "$output" == *"Comparison: small vs small_slow"* ]]
    [[ "$output" == *"total_time"*"4 us"*"6 us"*"1.5x"* ]]
    [[ "$output" == *"small_slow takes 6 us, 1.5x the time of small (+2 us)"* ]]
    # Matmuls went from 100 to 180 ns: TensorMatrix +640 ns.  DMA transfers went
    # from 150 to 300 ns every 250 ns, so they now overlap: union 11*250+300 = 3050 ns.
    [[ "$output" == *"dma"*"1.8 us"*"3.05 us"*"+1.25 us"*"62.5%"* ]]
    [[ "$output" == *"tensor_matrix"*"800 ns"*"1.44 us"*"+640 ns"*"32.0%"* ]]
    nx-report --db s.db --compare --format jsonl >cmp.jsonl
    [ "$(jget cmp.jsonl '[x for x in r if x["metric"] == "total_time"][0]["small_slow/small"]')" = 1.5 ]
    run nx-report --db s.db --compare --profile small
    [ "$status" -eq 1 ]
    [[ "$output" == *"--compare needs at least two profiles (got 1)"* ]]
}

@test "nx-report --baseline: a gate that trips exits 3 and says so on stderr" {
    nx-convert --name small "$FIXTURES/small_slow.json" --target trn1 >today.jsonl
    nx-convert --name small "$FIXTURES/small.json" --target trn1 >yesterday.jsonl
    run --separate-stderr nx-report today.jsonl --baseline yesterday.jsonl --fail-on 'total_time>5%' --format text
    [ "$status" -eq 3 ]
    [[ "$output" == *"1 check, 1 tripped"* ]]
    [[ "$output" == *"total_time"*"4 us"*"6 us"*"+50.0%"*"TRIPPED"* ]]
    [[ "$stderr" == "nx-report: gate tripped: total_time>5% for small"* ]]
    # Within the limit: exit 0.
    run nx-report today.jsonl --baseline yesterday.jsonl --fail-on 'total_time>60%'
    [ "$status" -eq 0 ]
    # A fall gate, comma-separated with another one.
    run nx-report yesterday.jsonl --baseline today.jsonl --fail-on 'total_time>5%,total_time<-10%' --format jsonl
    [ "$status" -eq 3 ]
    [[ "$output" == *'"gate":"total_time<-10%","tripped":1'* ]]
    # Absolute change in the metric's unit (seconds).
    run nx-report today.jsonl --baseline yesterday.jsonl --fail-on 'total_time>0.000001'
    [ "$status" -eq 3 ]
}

@test "nx-report --baseline with a database, and when nothing matches" {
    run nx-report --db s.db --baseline s.db --fail-on 'total_time>1%'
    [ "$status" -eq 0 ]
    nx-convert --name other "$FIXTURES/small.json" >other.jsonl
    run --separate-stderr nx-report other.jsonl --baseline s.db --fail-on 'total_time>1%'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"no record matched the baseline: nothing was checked"* ]]
}

@test "nx-report: bad gates and conflicting options are usage errors" {
    run nx-report profiles.jsonl --baseline profiles.jsonl --fail-on 'total_time'
    [ "$status" -eq 2 ]
    run nx-report profiles.jsonl --baseline profiles.jsonl --fail-on 'total_time>fast'
    [ "$status" -eq 2 ]
    run nx-report profiles.jsonl --fail-on 'total_time>5%'
    [ "$status" -eq 2 ]
    [[ "$output" == *"--fail-on needs --baseline"* ]]
    run nx-report profiles.jsonl --compare --baseline profiles.jsonl
    [ "$status" -eq 2 ]
}

@test "nx-report shows nx-query rows as a table" {
    nx-query --db s.db engine_utilization >rows.jsonl
    run nx-report rows.jsonl --format text
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "  profile     engine         instructions  busy_ns  active_percent  mean_dur_ns" ]]
    run bash -c "nx-query --db s.db engine_utilization | nx-report --format markdown"
    [[ "${lines[0]}" == "| profile | engine | instructions | busy_ns | active_percent | mean_dur_ns |" ]]
}

@test "nx-report -o writes atomically and picks the format from the extension" {
    nx-report --db s.db -o report.md
    grep -q '^# Profile small' report.md
    nx-report --db s.db -o findings.csv
    head -n 1 findings.csv | grep -q '^kind,profile,name,rule'
    [ -z "$(ls | grep '\.tmp\.')" ]
}

@test "nx-report --rules lists every rule of the table with its condition" {
    run nx-report --rules --format tsv
    [ "$status" -eq 0 ]
    [[ "$output" == *$'tensor_engine_underused\twarn\ttensor_engine_active_time_percent < 70'* ]]
    [[ "$output" == *$'dma_fragmented\twarn\tdma_transfer_average_bytes < 32768 and dma_transfer_count >= 1000'* ]]
    [[ "$output" == *$'memory_bound_roofline\twarn\tmm_arithmetic_intensity < peak_flops_bandwidth_ratio'* ]]
    [[ "$output" == *"weights_reloaded"* && "$output" == *"transposes"* && "$output" == *"spill_reloads"* ]]
    [[ "$output" == *"memory_bound_mix"* && "$output" == *"compute_bound_mix"* ]]
}

@test "nx-report: a bad record names file and line; --keep-going skips it" {
    head -n 1 profiles.jsonl >mixed.jsonl
    echo '{"kind": "profile", "metrics": [' >>mixed.jsonl
    run --separate-stderr nx-report mixed.jsonl
    [ "$status" -eq 1 ]
    [[ "$stderr" == "nx-report: mixed.jsonl:2: not a JSON record"* ]]
    run --separate-stderr nx-report --keep-going --format text mixed.jsonl
    [ "$status" -eq 1 ]
    [[ "$output" == *"Profile small"* ]]
}

@test "nx-report: a profile with no events or metrics still renders, without NaN" {
    printf '{"summary": [{"event_count": 0}], "instruction": []}\n' >empty.json
    nx-convert empty.json >e.jsonl
    run nx-report --format text --all e.jsonl
    [ "$status" -eq 0 ]
    [[ "$output" == *"Profile empty"* ]]
    [[ "$output" != *"nan"* && "$output" != *"NaN"* && "$output" != *"inf"* ]]
}

@test "nx-report gates on bench records (make bench), by name; duplicate names are ambiguous, not compared" {
    printf '%s\n' '{"kind":"bench","name":"ingest_seconds","value":1.0,"unit":"s"}' \
        '{"kind":"bench","name":"query_seconds","value":0.2,"unit":"s"}' \
        '{"kind":"bench","name":"dup","value":1,"unit":"s"}' '{"kind":"bench","name":"dup","value":5,"unit":"s"}' >old.jsonl
    printf '%s\n' '{"kind":"bench","name":"ingest_seconds","value":1.3,"unit":"s"}' \
        '{"kind":"bench","name":"query_seconds","value":0.19,"unit":"s"}' '{"kind":"bench","name":"dup","value":1,"unit":"s"}' >new.jsonl
    run --separate-stderr nx-report new.jsonl --baseline old.jsonl --fail-on 'value>10%' --format text
    [ "$status" -eq 3 ]
    [[ "$stderr" == "nx-report: gate tripped: value>10% for ingest_seconds (1 -> 1.3)" ]]
    [[ "$output" == *"2 checks, 1 tripped"* ]]
    [[ "$output" == *"no baseline for dup (ambiguous: several records share its name)"* ]]
    run nx-report new.jsonl --baseline old.jsonl --fail-on 'value>40%'
    [ "$status" -eq 0 ]
}

@test "nx-report study sections compare like with like: repeated runs count once, other dtypes and targets apart" {
    nx-run --study matmul --mode llm --model llama-3-8b --tp 8 --seq 128 --timed 1 --warmup 0 >a.jsonl
    cat a.jsonl a.jsonl >twice.jsonl
    nx-run --study matmul --mode llm --model llama-3-8b --tp 8 --seq 128 --dtype fp8 --timed 1 --warmup 0 >>twice.jsonl
    nx-report a.jsonl --format markdown >once.md
    nx-report twice.jsonl --format markdown >twice.md
    # The bf16 layer is the same whether its GEMMs were run once or twice.
    [ "$(grep -A4 'llama-3-8b, tp 8, bf16, sim trn2' once.md | tail -n 1)" = "$(grep -A4 'llama-3-8b, tp 8, bf16, sim trn2' twice.md | tail -n 1)" ]
    grep -q '^## LLM prefill cost per sequence length (llama-3-8b, tp 8, fp8, sim trn2)' twice.md
    # Patterns on two targets: two sets of answers, each ranking its own runs.
    nx-run --study patterns --patterns vmap,scan --sizes small --target trn1 --timed 1 --warmup 0 >p.jsonl
    nx-run --study patterns --patterns vmap,scan --sizes small --target trn2 --timed 1 --warmup 0 >>p.jsonl
    nx-report p.jsonl --format markdown >p.md
    [ "$(grep -c '^### Answers' p.md)" = 2 ]
    grep -q '^## iterations 3, batch 32, features 128, dtype fp32; .* on trn1$' p.md
    [ "$(grep -c '^| 3 |' p.md)" = 0 ]  # two patterns per group, never a third rank
    # Sequence lengths no swept bucket holds: said, not a 0 ns plan.
    printf '4000 3\n' >long.txt
    nx-report a.jsonl --seq-dist long.txt --format markdown >long.md
    grep -q 'No bucket to recommend: every request in long.txt is longer than the longest swept length (128 tokens' long.md
    # A bucket that gains nothing is not listed as another plan.
    nx-run --study matmul --mode llm --model llama-3-8b --tp 8 --seq 128:1024:x2 --timed 1 --warmup 0 >llm.jsonl
    printf '100 90\n1000 10\n' >two.txt
    nx-report llm.jsonl --seq-dist two.txt --format markdown >two.md
    [ "$(grep -c '^| best 2 buckets (recommended) | 128, 1024 |' two.md)" = 1 ]
    ! grep -q '^| best [34] buckets' two.md
    printf '100 abc\n' >bad.txt
    run --separate-stderr nx-report a.jsonl --seq-dist bad.txt
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"bad.txt:1: expected a request count, got 'abc'"* ]]
}

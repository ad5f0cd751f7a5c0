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
    [[ "$output" == *"Findings (top 2 of 3"* ]]
    [[ "$output" == *"critical  tensor_engine_idle"* ]]
    [[ "$output" == *"-> restructure matmuls"* ]]
    [[ "$output" == *"TensorMatrix             [#####"* ]]
    [[ "$output" == *"DMA"* && "$output" == *"not hidden by compute"* ]]
    [[ "$output" == *"Top opcodes"* && "$output" == *"MATMUL"* ]]
    [[ "$output" == *"Top layers"* ]]
}

@test "nx-report: instructions the source could not name ('unknown') are a warning that points at the NEFF" {
    # small.json with two of its instructions renamed as a trace decoded with
    # another graph's NEFF shows them (nx-sim(7) BLIND SPOTS).
    python3 - "$FIXTURES/small.json" <<'PY' >unnamed.json
import json, sys
d = json.load(open(sys.argv[1]))
core = [i for i in d["instruction"] if i.get("label") != "host"]
assert len(core) == len(d["instruction"])  # the percentage below is over all of them
for i in core[:2]:
    i["opcode"] = "unknown"
print(json.dumps(d))
PY
    total=$(python3 -c "import json; print(len(json.load(open('unnamed.json'))['instruction']))")
    nx-convert --target trn1 unnamed.json >unnamed.jsonl
    run nx-report --format text unnamed.jsonl
    [ "$status" -eq 0 ]
    pct=$(python3 -c "print(f'{100 * 2 / $total:.4g}')")
    [[ "$output" == *"warn  unnamed_instructions: the source names no opcode for more than 1% of the NeuronCore instructions ('unknown', or none)"*"[unnamed_instruction_percent = $pct > 1]"* ]]
    [[ "$output" == *"-> check that the NTFF was viewed with the NEFF it was captured from (nx-convert --neff)"* ]]
    # The same profile with every instruction named: no such finding.
    [[ "$(nx-report --format text --all --profile small profiles.jsonl)" != *"unnamed_instructions:"* ]]
    [[ "$(nx-report --format text --all --profile small profiles.jsonl)" =~ unnamed_instruction_percent\ +0\ +% ]]
}

@test "nx-report and nx-convert read a pipe named as a file (<(...), /dev/stdin): sniffing for a database leaves it unread" {
    run nx-report --format text <(cat profiles.jsonl)
    [ "$status" -eq 0 ]
    [[ "$output" == *"Profile small"* ]]
    [ "$(cat profiles.jsonl | nx-report --format jsonl /dev/stdin | wc -l)" = "$(nx-report --format jsonl profiles.jsonl | wc -l)" ]
    run nx-convert --target trn1 <(cat "$FIXTURES/small.json")
    [ "$status" -eq 0 ]
    [ "$(jget - 'r[0]["metrics"]["total_time"]' <<<"$output")" = "$(nx-convert --target trn1 "$FIXTURES/small.json" | jget - 'r[0]["metrics"]["total_time"]')" ]
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
    [ "${lines[0]}" = "kind,profile,name,rule,severity,metric,value,threshold,message,action,region,start_ns,end_ns" ]
}

@test "nx-report --set changes a rule's threshold for the run and the finding shows it" {
    # small.json's tensor engine is 45% busy: tensor_engine_idle (< 50) fires.
    [ "$(nx-report profiles.jsonl | jget - '[x["threshold"] for x in r if x["name"] == "small" and x["rule"] == "tensor_engine_idle"]')" = '[50]' ]
    nx-report --set tensor_engine_idle.threshold=40 profiles.jsonl >f.jsonl
    [ "$(jget f.jsonl '[x for x in r if x["name"] == "small" and x["rule"] == "tensor_engine_idle"]')" = '[]' ]
    nx-report --set tensor_engine_idle.threshold=60 profiles.jsonl >f.jsonl
    [ "$(jget f.jsonl '[x["threshold"] for x in r if x["name"] == "small" and x["rule"] == "tensor_engine_idle"]')" = '[60]' ]
    [ "$(jget f.jsonl '[x["region"] for x in r if x["name"] == "small" and x["rule"] == "tensor_engine_idle"]')" = '["profile"]' ]
    run nx-report --format text --profile small --set tensor_engine_idle.threshold=60 profiles.jsonl
    [[ "$output" == *"[tensor_engine_active_time_percent = 41 < 60]"* ]]
    # The message says the threshold used, not the table's "half".
    [[ "$output" == *"the tensor engine is busy less than 60% of the time"* ]]
    [[ "$output" != *"less than half the time"* ]]
    # A rules file; --set wins over it.
    printf '# nightly\ntensor_engine_idle.threshold=40\n' >rules.txt
    nx-report --rules-file rules.txt profiles.jsonl >f.jsonl
    [ "$(jget f.jsonl '[x for x in r if x["rule"] == "tensor_engine_idle"]')" = '[]' ]
    nx-report --rules-file rules.txt --set tensor_engine_idle.threshold=60 profiles.jsonl >f.jsonl
    [ "$(jget f.jsonl '[x["threshold"] for x in r if x["name"] == "small" and x["rule"] == "tensor_engine_idle"]')" = '[60]' ]
    run nx-report --list rules --format tsv --set dma_wait.threshold=20
    [[ "$output" == *$'dma_wait\twarn\tdma_wait_percent > 15\t'*$'\tExplorer 2.27\t20'* ]]
}

@test "nx-report: a bad --set is a usage error, a bad rules file names its line" {
    run --separate-stderr nx-report --set nope.threshold=3 profiles.jsonl
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"--set: unknown rule 'nope' (nx-report --list rules lists them)"* ]]
    run --separate-stderr nx-report --set dma_wait.threshold=lots profiles.jsonl
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"threshold of 'dma_wait' is not a number: 'lots'"* ]]
    printf 'dma_wait.threshold=20\nsbuf_full.limit=3\n' >rules.txt
    run --separate-stderr nx-report --rules-file rules.txt profiles.jsonl
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"rules.txt:2: expected RULE.threshold=VALUE, got 'sbuf_full.limit=3'"* ]]
}

@test "nx-report: Explorer's rules a profile has no data for are said to be not in it" {
    run nx-report --format text --profile small profiles.jsonl
    [[ "$output" == *"not in this profile (Explorer rules without their data): "*"nki_coverage"*"collective_outlier"* ]]
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
    # Where the record ran, as the compare and study-diff lines say it.
    [ "$stderr" = "nx-report: gate tripped: total_time>5% for small (trn1 neuron: 4.000e-06 -> 6.000e-06)" ]
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
    # The first night of a history passes with --first-run-ok, and says so;
    # so does a history that does not exist yet.
    run --separate-stderr nx-report other.jsonl --baseline s.db --fail-on 'total_time>1%' --first-run-ok
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"first run: the baseline has none of these records (1), so nothing was checked"* ]]
    run --separate-stderr nx-report other.jsonl --baseline later.db --fail-on 'total_time>1%' --first-run-ok
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"first run: later.db does not exist yet"* ]]
    run nx-report other.jsonl --baseline later.db --fail-on 'total_time>1%'
    [ "$status" -eq 1 ]
    # Once the baseline has the record, the gate is checked as usual.
    run nx-report --db s.db --baseline s.db --fail-on 'total_time<-1%,total_time>-1%' --first-run-ok
    [ "$status" -eq 3 ]
}

@test "nx-report --baseline across targets: nothing comparable says so and exits 1, gates or not" {
    nx-convert --target trn1 "$FIXTURES/small.json" >trn1.jsonl
    nx-convert --target trn2 "$FIXTURES/small.json" >trn2.jsonl
    for gate in "" "--fail-on=total_time>5%"; do
        run --separate-stderr nx-report trn2.jsonl --baseline trn1.jsonl $gate --format text
        [ "$status" -eq 1 ]
        [[ "$stderr" == *"no record matched the baseline: nothing was checked; it has them for another backend or target, not comparable: small (baseline neuron on trn1, here neuron on trn2)"* ]]
        [[ "$output" == *"Not comparable: the baseline has these records for another backend or target: small (baseline neuron on trn1, here neuron on trn2)."* ]]
    done
    # Like with like is compared as before.
    run nx-report trn1.jsonl --baseline trn1.jsonl
    [ "$status" -eq 0 ]
}

@test "nx-report: a gate metric no record has is unknown, with the nearest name" {
    run --separate-stderr nx-report profiles.jsonl --baseline profiles.jsonl --fail-on 'total_tmie>5%'
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"unknown metric 'total_tmie' in --fail-on 'total_tmie>5%': no record has it (did you mean 'total_time'?)"* ]]
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
    [ -z "$(ls -A | grep '\.tmp\.')" ]
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
    grep -q '^## iterations 3, batch 32, features 128, dtype fp32; .* on trn1 (LNC=1)$' p.md
    grep -q '^## iterations 3, batch 32, features 128, dtype fp32; .* on trn2 (LNC=2)$' p.md
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
    refute grep -q '^| best [34] buckets' two.md
    printf '100 abc\n' >bad.txt
    run --separate-stderr nx-report a.jsonl --seq-dist bad.txt
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"bad.txt:1: expected a request count, got 'abc'"* ]]
}

@test "nx-report llm prefill says what it counts and when the recommended buckets are no better than Neuron's" {
    nx-run --study matmul --mode llm --model llama-3-8b --tp 8 --seq 128:2048:x2 --phases prefill --timed 1 --warmup 0 >llm.jsonl
    seq 100 50 2000 >even.txt
    nx-report llm.jsonl --seq-dist even.txt --format markdown >even.md
    grep -q '^Counted: the matmuls only (qkv, o, gate, up and down of each layer, x 32 layers). Not counted: attention' even.md
    # Requests spread over every length: the defaults are as good, said plainly.
    grep -q "^No better than Neuron's default buckets (128, 256, 512, 1024, 2048, 5 graphs)" even.md
    refute grep -q "^Against Neuron's default buckets" even.md
    # Every request at 600 tokens: a 640 bucket from a finer sweep beats the
    # defaults' 1024, and the gain is given.
    nx-run --study matmul --mode llm --model llama-3-8b --tp 8 --seq 128:1024:+128 --phases prefill --timed 1 --warmup 0 >fine.jsonl
    printf '600 100\n' >six.txt
    nx-report fine.jsonl --seq-dist six.txt --format markdown >six.md
    grep -q '^Recommended: 640 (1 compiled graph)' six.md
    grep -q "^Against Neuron's default buckets (128, 256, 512, 1024, 4 graphs, .* a request): .* less mean prefill latency" six.md
    refute grep -q "^No better than" six.md
}

@test "nx-report never tells a decode GEMV to use fewer, larger matmuls: it is memory-bound by its weights" {
    nx-run --study matmul --M 1 --K 512 --N 2048 --timed 1 --warmup 0 | nx-capture | nx-convert >gemv.jsonl
    run nx-report --format text --all gemv.jsonl
    [ "$status" -eq 0 ]
    [[ "$output" == *"tensor_engine_idle: the tensor engine is busy less than half the time (expected of a matrix-vector product: M = 1 row, 512 x 2048 weights (2.0 MiB))"* ]]
    [[ "$output" == *"-> a matrix-vector product is memory-bound: its time is reading the weights, not the matmul's structure; batch more requests per weight read"* ]]
    [[ "$output" != *"fewer, larger matmuls"* && "$output" != *"bigger tiles"* && "$output" != *"restructure matmuls"* ]]
    nx-report --format jsonl gemv.jsonl >gemv-findings.jsonl
    refute grep -q 'fewer, larger matmuls' gemv-findings.jsonl
    grep -q '"rule":"tensor_engine_idle".*matrix-vector product' gemv-findings.jsonl
    # A matmul with a full tile of rows keeps the matmul advice.
    nx-run --study matmul --M 256 --K 512 --N 2048 --timed 1 --warmup 0 | nx-capture | nx-convert >gemm.jsonl
    run nx-report --format text --all gemm.jsonl
    [[ "$output" == *"-> restructure matmuls: fewer, larger matmuls"* ]]
    [[ "$output" != *"matrix-vector"* ]]
}

@test "nx-report on many profiles gives the study summary: one row each, longest first, findings across them; --each adds every report" {
    nx-run --study matmul --M 1,128,256,512 --K 512 --N 512 --timed 1 --warmup 0 | nx-capture | nx-convert --db summary.db >p.jsonl
    run --separate-stderr nx-report --format text p.jsonl
    [ "$status" -eq 0 ]
    [[ "$output" == *"Profiles (4, longest first)"* ]]
    [[ "$output" == *"Findings across the profiles"* ]]
    [[ "$output" == *"a report for each profile: --each (or --profile NAME for one)"* ]]
    # The study's answers, from the runs the profiles carry.
    [[ "$output" == *"Matmul study"* && "$output" == *"Tiling cliffs"* ]]
    # No per-profile report: no "Profile NAME" heading, no engine bars.
    refute grep -q '^Profile mm_' <<<"$output"
    [[ "$output" != *"Engines (active time"* ]]
    # One row a profile, longest first.
    rows=$(sed -n '/^Profiles (4/,/^$/p' <<<"$output" | grep '^  mm_' | awk '{print $1}')
    [ "$(wc -l <<<"$rows")" = 4 ]
    [ "$(head -n 1 <<<"$rows")" = mm_512x512x512_bf16 ]
    [ "$(tail -n 1 <<<"$rows")" = mm_1x512x512_bf16 ]
    # The same from the study database.
    nx-report --db summary.db --format markdown >db.md
    grep -q "^# Profiles (4, longest first)" db.md || { cat db.md; false; }
    refute grep -q '^# Profile mm_' db.md
    # --each: the summary, then each profile's report.
    nx-report --format text --each p.jsonl >each.txt
    grep -q '^Profiles (4, longest first)' each.txt
    [ "$(grep -c '^Profile mm_' each.txt)" = 4 ]
    # A profile named, or a few profiles, get their reports as before.
    nx-report --format text --profile mm_128x512x512_bf16 p.jsonl >one.txt
    grep -q '^Profile mm_128x512x512_bf16' one.txt
    refute grep -q '^Profiles (' one.txt
    head -n 3 p.jsonl >three.jsonl
    nx-report --format text three.jsonl >three.txt
    [ "$(grep -c '^Profile mm_' three.txt)" = 3 ]
    refute grep -q '^Profiles (' three.txt
    # Records are unchanged: every profile's findings.
    [ "$(nx-report p.jsonl | jq -r .name | sort -u | wc -l)" = 4 ]
}

@test "nx-report labels compare, baseline and study rows and chart series by target and backend when they differ" {
    for t in trn1 trn2; do nx-run --study matmul --M 128 --K 512 --N 512 --target "$t" --timed 1 --warmup 0; done >r.jsonl
    nx-capture <r.jsonl | nx-convert >p.jsonl
    nx-report --compare --format markdown p.jsonl >cmp.md
    grep -q '^# Comparison: mm_128x512x512_bf16 trn1/sim vs mm_128x512x512_bf16 trn2/sim' cmp.md
    grep -q '^| metric | mm_128x512x512_bf16 trn1/sim | mm_128x512x512_bf16 trn2/sim | vs mm_128x512x512_bf16 trn1/sim |' cmp.md
    nx-report --compare --format csv p.jsonl | head -n 1 | grep -q '^kind,metric,unit,mm_128x512x512_bf16 trn1/sim,mm_128x512x512_bf16 trn2/sim,'
    nx-report --compare --format html p.jsonl | grep -q 'mm_128x512x512_bf16 trn2/sim'
    # Each run against its own target's baseline: two rows that say which.
    nx-report r.jsonl --baseline r.jsonl --format markdown >base.md
    grep -q '^| mm_128x512x512_bf16 trn1/sim | latency_us.median |' base.md
    grep -q '^| mm_128x512x512_bf16 trn2/sim | latency_us.median |' base.md
    # The study's runs table and chart series.
    nx-report r.jsonl --format markdown >study.md
    grep -q '^| mm_128x512x512_bf16 trn1/sim | 128 |' study.md
    [ "$(nx-report r.jsonl --format html | grep -o 'bf16 trn2/sim' | wc -l)" -gt 0 ]
    # One target: names as they were.
    head -n 1 r.jsonl >one.jsonl
    nx-report one.jsonl --format markdown | grep -q '^| mm_128x512x512_bf16 | 128 |'
}

# test/fixtures/kineto_step.json, hand-written in Kineto's shape (µs around
# 1.7e15, names as "M" events), times here in µs from its start:
#   thread 100: ProfilerStep#1 [0,900) holds aten::linear [10,310) and
#     aten::clamp [400,500); aten::linear holds aten::t [20,70) (with a
#     cudaMemcpyAsync [40,45)) and aten::addmm [100,250) (with a
#     cudaLaunchKernel [110,130)); aten::clamp holds a launch [420,430);
#     aten::empty [950,1000).
#   stream 7:  a memcpy [50,80), sgemm_128x64_nn [140,240), a clamp kernel
#     with a 400-character name [440,460), a Stream Sync [470,480).
#   stream 20: sgemm_128x64_nn [300,360) and [600,690).
# The span is 1000 µs.

@test "nx-report: a Kineto trace gets busy tracks, GPU streams, a kernel table, self time and idle gaps" {
    nx-convert --to events "$FIXTURES/kineto_step.json" >ev.jsonl
    run nx-report ev.jsonl --format text
    [ "$status" -eq 0 ]
    # No Neuron sections, and the events are not dumped as rows.
    [[ "$output" != *"Utilisation"* && "$output" != *"Engines"* && "$output" != *'"External id"'* ]]
    # The thread: [0,900) + [950,1000) = 950 of 1000 µs, nested slices counted once.
    [[ "$output" == *"  thread 100 (python)       9  950 us   95.0%  cpu_op, cuda_runtime, user_annotation"* ]]
    # Stream 7's slices: 30 + 100 + 20 + 10 = 160 µs; its GPU work leaves out the sync: 150.
    [[ "$output" == *"  stream 7                  4  160 us   16.0%  kernel, gpu_memcpy, cuda_sync"* ]]
    [[ "$output" == *"  stream 7          2       1       0  150 us   15.0%"* ]]
    # Any stream: 30 + 100 + 60 + 20 + 90 = 300 µs; from +50 to +690 µs: 300/640 = 46.9%.
    [[ "$output" == *"GPU busy        30.0% of the span (300 us of kernels, memcpy and memset on any of 2 streams)"* ]]
    [[ "$output" == *"GPU window      +50 us to +690 us (640 us): GPU busy 46.9% of it"* ]]
    # sgemm: 100, 60, 90 -> 250 µs, mean 83.3, median 90, min 60, max 100, 250/270 = 92.6% of kernel time.
    [[ "$output" == *"      3  250 us  83.3 us   90 us  60 us  100 us  92.6%  sgemm_128x64_nn"* ]]
    [[ "$output" == *"      1  30 us  30 us   30 us  30 us  30 us  100.0%  Memcpy HtoD (Pageable -> Device)"* ]]
    # Self time: aten::linear 300 - (50 + 150) = 100; the step 900 - (300 + 100) = 500; addmm 150 - 20.
    [[ "$output" == *"      1  300 us  100 us  cpu_op           aten::linear"* ]]
    [[ "$output" == *"      1  900 us  500 us  user_annotation  ProfilerStep#1"* ]]
    [[ "$output" == *"      1  150 us  130 us  cpu_op           aten::addmm"* ]]
    # By self time the step comes first, then the three sgemm launches (250 µs).
    [[ "$output" == *"Top names by self time"*"500 us  user_annotation  ProfilerStep#1"$'\n'*"250 us  kernel           sgemm_128x64_nn"* ]]
    # Gaps: the thread idles [900,950); stream 20 between GPU work [360,600), stream 7 [240,440) and [80,140).
    [[ "$output" == *"  thread 100 (python)  slices    +900 us   50 us"* ]]
    [[ "$output" == *"  stream 20            GPU work  +360 us  240 us"* ]]
    [[ "$output" == *"  stream 7             GPU work  +240 us  200 us"$'\n'"  stream 7             GPU work   +80 us   60 us"* ]]
    # The long kernel name is cut to 60 characters in text.
    [[ "$output" == *"  7.41%  void at::native::vectorized_elementwise_kernel<4, at::nat..."$'\n'* ]]
}

@test "nx-report sets event records aside in TMPDIR, and names it when it cannot" {
    nx-convert --to events "$FIXTURES/kineto_step.json" >ev.jsonl
    mkdir scratch
    TMPDIR=$PWD/scratch nx-report ev.jsonl --format text >with.txt
    grep -q "sgemm_128x64_nn" with.txt
    [ -z "$(ls -A scratch)" ]
    run --separate-stderr env TMPDIR=$PWD/missing nx-report ev.jsonl --format text
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"cannot create a temporary file for the event records ($PWD/missing/nx-spool."* ]]
}

@test "nx-report: a trace's figures as records (jsonl, csv), long names whole" {
    nx-convert --to events "$FIXTURES/kineto_step.json" >ev.jsonl
    nx-report ev.jsonl --format jsonl >r.jsonl
    assert_jsonl r.jsonl
    [ "$(jget r.jsonl 'sorted(set(x["kind"] for x in r))')" = '["trace_gap", "trace_gpu_op", "trace_gpu_stream", "trace_name", "trace_summary", "trace_track"]' ]
    [ "$(jget r.jsonl '[(x["span_ns"], x["slices"], x["gpu_busy_ns"], x["gpu_first_ns"] - x["start_ns"]) for x in r if x["kind"] == "trace_summary"]')" = '[[1000000, 15, 300000, 50000]]' ]
    [ "$(jget r.jsonl '[(x["busy_ns"], x["busy_percent"]) for x in r if x["kind"] == "trace_track" and x["track"] == "thread 100 (python)"]')" = '[[950000, 95]]' ]
    [ "$(jget r.jsonl '[(x["total_ns"], x["self_ns"]) for x in r if x["kind"] == "trace_name" and x["name"] == "aten::linear"]')" = '[[300000, 100000]]' ]
    [ "$(jget r.jsonl '[(x["count"], x["total_ns"], round(x["mean_ns"], 1), x["median_ns"], x["min_ns"], x["max_ns"], round(x["share_percent"], 2)) for x in r if x["kind"] == "trace_gpu_op" and x["name"] == "sgemm_128x64_nn"]')" = '[[3, 250000, 83333.3, 90000, 60000, 100000, 92.59]]' ]
    [ "$(jget r.jsonl '[(x["track"], x["busy_by"], x["rank"], x["offset_ns"], x["length_ns"]) for x in r if x["kind"] == "trace_gap" and x["track"] == "stream 20"]')" = '[["stream 20", "gpu_work", 1, 360000, 240000]]' ]
    # The kernel's whole name, as in the trace.
    want=$(python3 -c "import json; print(max((e['name'] for e in json.load(open('$FIXTURES/kineto_step.json'))['traceEvents'] if e.get('cat') == 'kernel'), key=len))")
    [ ${#want} -gt 400 ]
    [ "$(jget r.jsonl '[x["name"] for x in r if x["kind"] == "trace_gpu_op" and x["count"] == 1 and x["category"] == "kernel"][0]')" = "$want" ]
    nx-report ev.jsonl --format csv >r.csv
    grep -q '^kind,profile,profile_name,category,count,total_ns,mean_ns,median_ns,min_ns,max_ns,share_percent,name$' r.csv
    [ "$(python3 -c "import csv; print(max((r[-1] for r in csv.reader(open('r.csv')) if r[0] == 'trace_gpu_op'), key=len))")" = "$want" ]
}

@test "nx-report: a trace in markdown and HTML; from a study database the same figures" {
    nx-convert --to events "$FIXTURES/kineto_step.json" >ev.jsonl
    run nx-report ev.jsonl --format markdown
    [[ "$output" == *"## GPU kernels by total time"* ]]
    [[ "$output" == *"| 3 | 250 us | 83.3 us | 90 us | 60 us | 100 us | 92.6% | sgemm_128x64_nn |"* ]]
    [[ "$output" == *"| 1 | 20 us | 20 us | 20 us | 20 us | 20 us | 7.41% | void at::native::vectorized_elementwise_kernel&lt;4, at::nativ… |"* ]]
    nx-report ev.jsonl -o t.html
    grep -q '<div class="card-key">GPU busy</div><div class="card-value">30.0%</div>' t.html
    grep -q '<td title="void at::native::vectorized_elementwise_kernel&lt;4, at::native::(anonymous namespace)::launch_clamp_scalar' t.html
    grep -q '<figcaption>Activity over time (50 buckets of 20 us)</figcaption>' t.html
    # The database keeps the events (and their category): the same records.
    nx-convert --db t.db "$FIXTURES/kineto_step.json" >/dev/null
    nx-report ev.jsonl --format jsonl | sort >from-events.jsonl
    nx-report --db t.db --format jsonl | sort >from-db.jsonl
    [ "$(grep -c '"kind":"trace_' from-db.jsonl)" -gt 20 ]
    cmp from-events.jsonl from-db.jsonl
}

@test "nx-report: a trace profile without its events says how to get them; other profiles' events stay rows" {
    nx-convert "$FIXTURES/kineto_step.json" >p.jsonl
    run nx-report p.jsonl --format text
    [ "$status" -eq 0 ]
    [[ "$output" == *"a Chrome trace without its events here: its report (busy tracks, GPU kernels, self time, idle gaps) reads them from nx-convert --to events FILE | nx-report, or nx-report --db DB"* ]]
    # A Neuron profile's events are rows, as before.
    nx-convert --to events "$FIXTURES/small.json" >n.jsonl
    nx-report n.jsonl --format jsonl >n-out.jsonl
    [ "$(jget n-out.jsonl 'len([x for x in r if x["kind"] == "event"])')" = "$(grep -c '"kind":"event"' n.jsonl)" ]
}

@test "nx-report: a trace event that does not fit names file and line; --keep-going skips it" {
    nx-convert --to events "$FIXTURES/kineto_step.json" >ev.jsonl
    sed '3s/"ts_ns":[0-9]*/"ts_ns":"soon"/' ev.jsonl >bad.jsonl
    run --separate-stderr nx-report bad.jsonl --format text
    [ "$status" -eq 1 ]
    [ "$stderr" = 'nx-report: bad.jsonl:3: an event needs an integer "ts_ns"' ]
    run --separate-stderr nx-report --keep-going bad.jsonl --format text
    [ "$status" -eq 1 ]
    [[ "$stderr" == *'bad.jsonl:3: warning: skipped 1 event of trace kineto_step, the first: an event needs an integer "ts_ns"'* ]]
    # aten::t [20,70) is gone: 14 slices, and aten::linear holds its
    # cudaMemcpyAsync [40,45) directly: self 300 - (5 + 150) = 145 µs.
    [[ "$output" == *"slices          14 on 3 tracks"* ]]
    [[ "$output" == *"      1  300 us  145 us  cpu_op           aten::linear"* ]]
}

@test "nx-report labels every sim figure a prediction, in every format, and flags sim beside measured" {
    label='predicted by the model (sim)'
    nx-run --study patterns --patterns vmap,scan --sizes small --timed 1 --warmup 0 >runs.jsonl
    nx-capture --dir prof <runs.jsonl | nx-convert --db sim.db >/dev/null
    # The study report and each of its charts.
    for f in text markdown html; do
        nx-report runs.jsonl --db sim.db --format "$f" | grep -qF "Every figure here is $label, not measured." || { echo "$f"; false; }
    done
    nx-report runs.jsonl --db sim.db --format html >study.html
    charts=$(grep -o '<figcaption>' study.html | wc -l)
    [ "$charts" -ge 2 ]
    [ "$(grep -oF "</figcaption>" study.html | wc -l)" = "$(grep -oF " — $label</figcaption>" study.html | wc -l)" ]
    # Record formats: a provenance column on every row (findings, runs).
    [ "$(nx-report --db sim.db --format csv | head -n 1)" = "kind,profile,name,rule,severity,metric,value,threshold,message,action,region,start_ns,end_ns,provenance" ]
    nx-report --db sim.db --format csv | tail -n +2 | while IFS= read -r l; do [[ "$l" == *",$label" ]]; done
    nx-report --db sim.db --format tsv | tail -n +2 | while IFS= read -r l; do [[ "$l" == *"	$label" ]]; done
    [ "$(nx-report --db sim.db --format jsonl | jget - 'sorted({x["provenance"] for x in r})')" = "[\"$label\"]" ]
    [[ "$(nx-report runs.jsonl --format csv | sed -n 2p)" == *",$label" ]]
    # --compare and --baseline, in every format.
    for f in text markdown html csv tsv jsonl; do
        nx-report --db sim.db --compare --format "$f" | grep -qF "$label" || { echo "compare $f"; false; }
        nx-report runs.jsonl --baseline runs.jsonl --format "$f" | grep -qF "$label" || { echo "baseline $f"; false; }
    done
    # Predictions beside measurements are flagged.
    nx-convert --db sim.db --target trn2 "$FIXTURES/small.json" >/dev/null
    run nx-report --db sim.db --compare --profile vmap --profile small --format text
    [[ "$output" == *"warning: mixed inputs: figures $label beside figures measured (neuron); the predictions are not measurements"* ]]
    run nx-report --db sim.db --compare --profile vmap --profile small --format csv
    [[ "${lines[1]}" == *",mixed: $label and measured (neuron)" ]]
    # Measured figures alone keep their outputs as they were.
    [[ "$(nx-report --db s.db --format csv | head -n 1)" != *provenance* ]]
    [[ "$(nx-report --db s.db --format text)" != *"predicted"* ]]
}

@test "nx-report on sim element-wise kernels: the total time's error band and its points, as the run tables; TensorE idle without a matmul is info" {
    printf '%s\n' '{"kind":"workload","name":"fd2","op":"elementwise","opname":"add","rows":12800,"cols":2,"dtype":"fp32"}' \
        '{"kind":"workload","name":"fd200","op":"elementwise","opname":"add","rows":128,"cols":200,"dtype":"fp32"}' |
        nx-run --backend sim --target trn1 --timed 1 --warmup 0 >runs.jsonl
    band=$(jget runs.jsonl 'r[0]["predicted"]["error_band_percent"]')
    basis=$(jget runs.jsonl 'r[0]["predicted"]["error_band_basis"]')
    pct=$(printf '%.0f' "$band")
    nx-capture --dir prof <runs.jsonl | nx-convert --db sim.db >/dev/null
    run nx-report --db sim.db --profile fd2 --format text
    [ "$status" -eq 0 ]
    [[ "$output" == *"total time  ~"*" us (+-$pct%)"* ]]
    [[ "$output" == *"error band  +-$pct%, the model's error on comparable calibration points: $basis"* ]]
    # The run table and the profile agree on the band.
    [[ "$(nx-report runs.jsonl --format text)" == *"(+-$pct%)"* ]]
    # A comparison says each predicted time with its band.
    [[ "$(nx-report --db sim.db --compare --profile fd2 --profile fd200 --format text)" == *"fd200 takes ~"*" us (+-$pct%), "* ]]
    # More than three profiles: the profiles table gives each its band.
    printf '%s\n' '{"kind":"workload","name":"fd1000","op":"elementwise","opname":"add","rows":256,"cols":1000,"dtype":"fp32"}' \
        '{"kind":"workload","name":"fd2000","op":"elementwise","opname":"add","rows":128,"cols":2000,"dtype":"fp32"}' |
        nx-run --backend sim --target trn1 --timed 1 --warmup 0 | nx-capture --dir prof | nx-convert --db sim.db >/dev/null
    run nx-report --db sim.db --format text
    [[ "$output" == *"Profiles (4, longest first)"* ]]
    [ "$(grep -cE "^  fd[0-9]+ +sim/trn1 +~[0-9.]+ us \(\+-$pct%\)" <<<"$output")" = 4 ]
    # A kernel without a matmul: TensorE idles because it has nothing to do,
    # not because its matmuls want restructuring (info, and not first).
    run nx-report --db sim.db --profile fd2 --format text
    [[ "$output" == *"info  tensor_engine_"*": the tensor engine is idle because no matmul runs here (matmul_instruction_count = 0): nothing to restructure"* ]]
    [[ "$output" != *"critical  tensor_engine_idle"* ]]
    [[ "$output" == *"Findings (top "*$'\n'"  !  warn  dma_fragmented"* ]]
    [ "$(nx-report --db sim.db --profile fd2 --format jsonl | jget - 'sorted({x["severity"] for x in r if x["rule"].startswith("tensor_engine_")})')" = '["info"]' ]
    # A measured profile has none.
    [[ "$(nx-report --db s.db --profile small --format text)" == *"total time  4 us"* ]]
    [[ "$(nx-report --db s.db --profile small --format text)" != *"error band"* ]]
}

@test "pattern study: host-dispatch-dominated is launch-bound, transposes are not arithmetic, a sim ranking says it is predicted" {
    nx-run --study patterns --patterns for_loop,for_loop_launch --sizes small,large --timed 1 --warmup 0 >runs.jsonl
    nx-capture --dir prof <runs.jsonl | nx-convert --db p.db >/dev/null
    run nx-report runs.jsonl --db p.db --format markdown
    [ "$status" -eq 0 ]
    [[ "$output" == *"| for_loop_launch_small | "*"| launch-bound |"* ]]
    [[ "$output" == *"- launch-bound: for_loop_launch_small (the device works "*" of "*"); the rest is host dispatch"* ]]
    [[ "$output" == *"- this ranking is predicted by the model (sim), not measured"* ]]
    # A pattern "uses the array best" only when its TensorMatrix FLOPs are
    # mostly the model's (which pattern that is, is the model's to say).
    named=$(printf '%s\n' "$output" | sed -n 's/^- the systolic array is used best by \([a-z_]*\): .*/\1/p')
    [ -n "$named" ]
    [ "$(sqlite3 p.db "SELECT json_extract(record, '$.metrics.model_flops') >= 0.5 * json_extract(record, '$.metrics.hardware_flops') FROM profile WHERE name = '$named'")" = 1 ]
    # When that TensorMatrix work is all layout transposes (no model FLOPs),
    # no pattern is named, and the report says why.
    sqlite3 p.db "UPDATE profile SET record = json_set(record, '$.metrics.model_flops', 0)"
    run nx-report runs.jsonl --db p.db --format markdown
    [[ "$output" != *"used best by"* ]]
    [[ "$output" == *"- no pattern does its arithmetic on the systolic array: the TensorMatrix time here is layout transposes (model FLOPs are at most 0.00% of the tensor engine's)"* ]]
}

@test "matmul study: the kernel variant per run; a variant switch is not a tile-boundary cliff, and padding is advised only when the boundary costs" {
    # Run records as nx-run writes them (hand-written: the model's own
    # choices may move); M 257 is where auto switched kernels.
    mm() {  # M variant latency_us
        printf '{"kind":"run","study":"matmul","name":"mm_%sx512x512_bf16","op":"matmul","M":%s,"K":512,"N":512,"dtype":"bf16","backend":"sim","target":"trn2","latency_us":{"median":%s,"p95":%s,"n":1},"tflops":1,"tiles":{"M":%s,"K":4,"N":1,"total":%s},"predicted":{"variant":"%s"}}\n' \
            "$1" "$1" "$3" "$3" $((($1 + 127) / 128)) $((($1 + 127) / 128 * 4)) "$2"
    }
    { mm 255 blocked_free 14.95; mm 256 blocked_free 14.97; mm 257 blocked_mnk 19.2; } >auto.jsonl
    run nx-report auto.jsonl --format markdown
    [[ "$output" == *"| M | 256 | 257 | 2 -&gt; 3 | blocked_free -&gt; blocked_mnk | variant switch |"* ]]
    [[ "$output" == *"a variant switch, not the tile boundary"* ]]
    [[ "$output" == *"padding to a multiple of the tile does not help here."* ]]
    [[ "$output" != *"Keep M at a multiple of 128"* ]]
    [[ "$output" == *"| mm_257x512x512_bf16 | 257 | 512 | 512 | bf16 |  | blocked_mnk |"* ]]  # the records say no LNC
    # One variant throughout: the boundary's own cost, and then the advice.
    { mm 127 naive 10; mm 128 naive 10.05; mm 129 naive 15; } >naive.jsonl
    run nx-report naive.jsonl --format markdown
    [[ "$output" == *"| M | 128 | 129 | 1 -&gt; 2 | naive | tile boundary |"* ]]
    [[ "$output" == *"Worst at a tile boundary: M 128 -&gt; 129 costs "*"Keep M at a multiple of 128"* ]]
    # The tiling study on sim names each run's kernel too.
    nx-run --study matmul --M 128 --K 128 --N 128 --timed 1 --warmup 0 | nx-report --format markdown | grep -q '| bf16 | 2 | [a-z_]\+ | '
}

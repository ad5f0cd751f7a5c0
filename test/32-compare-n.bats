#!/usr/bin/env bats
# nx-report on many profiles at once: --compare with N profiles against a
# chosen base (--base), a study diff of two run sets (--study-diff) with its
# gate, and the ranks of a multi-rank capture (--ranks).

load test_helper

# loop.json and two variants of it: loop_slow's second loop body ends 50 ns
# later (its TENSOR_TENSOR 50 ns longer), loop_fast's matmuls take 120 ns
# instead of 150 and its first body ends 100 ns earlier.
make_loops() {
    python3 - "$FIXTURES/loop.json" <<'PY'
import json, sys
src = sys.argv[1]
d = json.load(open(src))
d["layer_summary"][2].update(end=2050, duration=950)
for i in d["instruction"]:
    if i["opcode"] == "TENSOR_TENSOR" and 1100 <= i["timestamp"] < 2000:
        i["duration"] += 50
json.dump(d, open("loop_slow.json", "w"))
d = json.load(open(src))
for i in d["instruction"]:
    if i["opcode"] == "MATMUL":
        i["duration"] = 120
d["layer_summary"][1].update(end=900, duration=800)
json.dump(d, open("loop_fast.json", "w"))
PY
    cp "$FIXTURES/loop.json" loop.json
    nx-convert --db l.db --target trn1 loop.json loop_slow.json loop_fast.json >/dev/null
}

@test "--compare with three profiles and --base: per-engine, per-opcode and per-region deltas against the base" {
    make_loops
    run nx-report --db l.db --compare --base loop_slow --format text
    [ "$status" -eq 0 ]
    # The base first, the others in their order.
    [[ "$output" == *"Comparison: loop_slow vs loop vs loop_fast"* ]]
    [[ "$output" == *"metric"*"loop_slow"*"loop"*"vs loop_slow"*"loop_fast"*"vs loop_slow"* ]]
    [[ "$output" == *"Against loop_slow"* ]]
    # 12 matmuls 30 ns shorter: TensorMatrix -360 ns, the engine that moved most.
    [[ "$output" == *"loop_fast     2.94 us            1x   +0 ns  tensor_matrix -360 ns"* ]]
    [[ "$output" == *"loop          2.94 us            1x   +0 ns  vector -50 ns"* ]]
    [[ "$output" == *"Opcodes against loop_slow"* ]]
    [[ "$output" == *"MATMUL            1.8 us  1.8 us   +0 ns    1.44 us  -360 ns"* ]]
    [[ "$output" == *"TENSOR_TENSOR     650 ns  600 ns  -50 ns     600 ns   -50 ns"* ]]
    [[ "$output" == *"Regions against loop_slow"* ]]
    [[ "$output" == *"/sg00/loop_body #1  iteration     900 ns  900 ns   +0 ns     800 ns  -100 ns"* ]]
    [[ "$output" == *"/sg00/loop_body #2  iteration     950 ns  900 ns  -50 ns     900 ns   -50 ns"* ]]
}

@test "--compare deltas as records: one comparison_delta row per item and profile, every format" {
    make_loops
    nx-report --db l.db --compare --base loop --format jsonl >d.jsonl
    assert_jsonl d.jsonl
    # The side-by-side metric rows come first, as with two profiles.
    [ "$(jget d.jsonl 'r[0]["kind"]')" = comparison ]
    [ "$(jget d.jsonl '[(x["profile"], x["change"]) for x in r if x.get("what") == "region" and x["name"] == "iteration:/sg00/loop_body #1"]')" = '[["loop_slow", 0], ["loop_fast", -100]]' ]
    [ "$(jget d.jsonl '[(x["profile"], x["base_value"], x["value"]) for x in r if x.get("what") == "opcode" and x["name"] == "MATMUL"]')" = '[["loop_slow", 1800, 1800], ["loop_fast", 1800, 1440]]' ]
    [ "$(jget d.jsonl '[x["ratio"] for x in r if x.get("what") == "engine" and x["name"] == "tensor_matrix" and x["profile"] == "loop_fast"]')" = '[0.8]' ]
    [ "$(jget d.jsonl 'sorted({x["base"] for x in r if x["kind"] == "comparison_delta"})')" = '["loop"]' ]
    run nx-report --db l.db --compare --base loop --format csv
    [[ "$output" == *$'\n'"kind,what,name,unit,base,profile,base_value,value,change,ratio"$'\n'* ]]
    [[ "$output" == *$'\n'"comparison_delta,opcode,MATMUL,ns,loop,loop_fast,1800,1440,-360,0.8"$'\n'* ]]
    for f in markdown html tsv; do
        nx-report --db l.db --compare --base loop --format "$f" | grep -q "Regions against loop\|comparison_delta" || { echo "$f"; false; }
    done
}

@test "--compare: a pattern selects the profiles; three of them compare against the first without --base, two keep the short form" {
    make_loops
    nx-convert --db l.db --target trn1 "$FIXTURES/small.json" >/dev/null
    run nx-report --db l.db --compare --profile 'loop_*' --format text
    [ "$status" -eq 0 ]
    [[ "$output" == *"Comparison: loop_slow vs loop_fast"* && "$output" != *"Against loop_slow"* ]]
    run nx-report --db l.db --compare --profile 'loop*' --format text
    [[ "$output" == *"Comparison: loop vs loop_slow vs loop_fast"* && "$output" == *"Against loop"$'\n'* ]]
    [[ "$output" != *"small"* ]]
    run nx-report --db l.db --compare --profile 'nothing*'
    [ "$status" -eq 1 ]
    [[ "$output" == *"no profile matches 'nothing*'"* ]]
}

@test "--compare: two profiles without --base keep the short form; --base errors name the profiles" {
    nx-convert --db s.db --target trn1 "$FIXTURES/small.json" "$FIXTURES/small_slow.json" >/dev/null
    run nx-report --db s.db --compare --format text
    [ "$status" -eq 0 ]
    [[ "$output" == *"Where the time went: small_slow vs small"* && "$output" != *"Against small"* ]]
    [ "$(nx-report --db s.db --compare --format jsonl | jget - 'sorted({x["kind"] for x in r})')" = '["comparison"]' ]
    # Naming the second as base puts it first.
    run nx-report --db s.db --compare --base small_slow --format text
    [[ "$output" == *"Comparison: small_slow vs small"* && "$output" == *"Against small_slow"* ]]
    [[ "$output" == *"small takes 4 us, 0.667x the time of small_slow (-2 us)"* ]]
    run --separate-stderr nx-report --db s.db --compare --base other
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-report: --base other: not one of the profiles compared (small, small_slow)" ]
    run --separate-stderr nx-report --db s.db --base small
    [ "$status" -eq 2 ]
    [[ "$stderr" == "nx-report: --base needs --compare"* ]]
    # Profile records have no events, hence no regions: said, not invented.
    nx-convert --target trn1 "$FIXTURES/small.json" "$FIXTURES/small_slow.json" >p.jsonl
    run nx-report p.jsonl --compare --base small --format text
    [[ "$output" == *"Regions: not in these profiles"* ]]
}

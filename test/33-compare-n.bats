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

# Two nights of measured runs (neuron on trn1): the second night's compiler
# made mm_b 20% slower and mm_c 2% slower, mm_a 10% faster; mm_d ran the first
# night only, mm_e the second only.  The first night ran mm_b twice: its
# latest run (100 us) is the baseline.
make_nights() {
    python3 - <<'PY'
import json
def run(name, m, k, n, median, toolchain):
    return {"kind": "run", "study": "matmul", "name": name, "op": "matmul", "M": m, "K": k, "N": n, "dtype": "bf16",
            "backend": "neuron", "target": "trn1", "latency_us": {"median": median, "p95": median * 1.1, "n": 10},
            "tflops": 2 * m * k * n / median / 1e6, "toolchain": toolchain}
one = [run("mm_a", 128, 128, 128, 50, "neuronx-cc 2.14"), run("mm_b", 256, 256, 256, 90, "neuronx-cc 2.14"),
       run("mm_b", 256, 256, 256, 100, "neuronx-cc 2.14"), run("mm_c", 512, 512, 512, 200, "neuronx-cc 2.14"),
       run("mm_d", 1024, 1024, 1024, 400, "neuronx-cc 2.14")]
two = [run("mm_a", 128, 128, 128, 45, "neuronx-cc 2.15"), run("mm_b", 256, 256, 256, 120, "neuronx-cc 2.15"),
       run("mm_c", 512, 512, 512, 204, "neuronx-cc 2.15"), run("mm_e", 64, 64, 64, 10, "neuronx-cc 2.15")]
for path, runs in (("night1.jsonl", one), ("night2.jsonl", two)):
    with open(path, "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in runs)
PY
}

@test "--study-diff: workloads matched across two nights, the slower first, labelled by target, backend and compiler" {
    make_nights
    run --separate-stderr nx-report night2.jsonl --study-diff night1.jsonl --format text
    [ "$status" -eq 0 ]
    [[ "$output" == *"Study diff: night1.jsonl -> night2.jsonl"* ]]
    [[ "$output" == *"3 workloads matched: 2 slower, 1 faster; the worst, mm_b (256x256x256 bf16), +20.0% median latency."* ]]
    # Worst first; the compiler versions differ, so each side names its own.
    row_b=$(grep -n "^  mm_b " <<<"$output" | cut -d: -f1)
    row_c=$(grep -n "^  mm_c " <<<"$output" | cut -d: -f1)
    row_a=$(grep -n "^  mm_a " <<<"$output" | cut -d: -f1)
    [ "$row_b" -lt "$row_c" ]
    [ "$row_c" -lt "$row_a" ]
    [[ "$output" == *"mm_b      256x256x256 bf16  trn1 neuron, neuronx-cc 2.14  trn1 neuron, neuronx-cc 2.15         100 us        120 us  +20.0%"* ]]
    [[ "$output" == *"mm_a"*"50 us"*"45 us"*"-10.0%"* ]]
    [[ "$output" == *"only before: mm_d"* && "$output" == *"only after: mm_e"* ]]
    [[ "$output" != *"predicted"* ]]
    # Records: one study_diff row per workload, worst first.
    nx-report night2.jsonl --study-diff night1.jsonl --format jsonl >d.jsonl
    assert_jsonl d.jsonl
    [ "$(jget d.jsonl '[(x["workload"], x["before"], x["after"], round(x["change"], 3)) for x in r]')" = '[["mm_b", 100, 120, 0.2], ["mm_c", 200, 204, 0.02], ["mm_a", 50, 45, -0.1]]' ]
    [ "$(jget d.jsonl '[r[0][k] for k in ("kind", "before_target", "before_backend", "before_toolchain", "after_toolchain", "metric")]')" = '["study_diff", "trn1", "neuron", "neuronx-cc 2.14", "neuronx-cc 2.15", "latency_us.median"]' ]
    run nx-report night2.jsonl --study-diff night1.jsonl --format csv
    [ "${lines[0]}" = "kind,study,workload,shape,before_target,before_backend,before_toolchain,after_target,after_backend,after_toolchain,metric,before,after,change,relative,gate,tripped" ]
    for f in markdown html tsv; do
        nx-report night2.jsonl --study-diff night1.jsonl --format "$f" | grep -q "mm_b" || { echo "$f"; false; }
    done
    grep -q '<svg class="chart chart-bars"' <(nx-report night2.jsonl --study-diff night1.jsonl --format html)
}

@test "--study-diff --fail-on: the nightly gate's syntax; exit 3 naming the workloads that tripped" {
    make_nights
    run --separate-stderr nx-report night2.jsonl --study-diff night1.jsonl --fail-on 'latency_us.median>5%' --format text
    [ "$status" -eq 3 ]
    [ "$stderr" = "nx-report: gate tripped: latency_us.median>5% for mm_b (trn1 neuron -> trn1 neuron: 100 -> 120)" ]
    [[ "$output" == *"1 gate tripped"* && "$output" == *"latency_us.median>5% TRIPPED"* && "$output" == *"latency_us.median>5% ok"* ]]
    # Two gates, one comma-separated list: tflops fell 16.7% for mm_b.
    run --separate-stderr nx-report night2.jsonl --study-diff night1.jsonl --fail-on 'latency_us.median>25%,tflops<-10%' --format jsonl
    [ "$status" -eq 3 ]
    [ "$stderr" = "nx-report: gate tripped: tflops<-10% for mm_b (trn1 neuron -> trn1 neuron: 0.3355 -> 0.2796)" ]
    [ "$(jget - '[(x["workload"], x["metric"], x["tripped"]) for x in r if x["gate"]]' <<<"$output")" = '[["mm_b", "latency_us.median", 0], ["mm_b", "tflops", 1], ["mm_c", "latency_us.median", 0], ["mm_c", "tflops", 0], ["mm_a", "latency_us.median", 0], ["mm_a", "tflops", 0]]' ]
    run nx-report night2.jsonl --study-diff night1.jsonl --fail-on 'latency_us.median>25%'
    [ "$status" -eq 0 ]
    # A misspelt metric is a usage error, not a pass.
    run --separate-stderr nx-report night2.jsonl --study-diff night1.jsonl --fail-on 'latency_us.medain>5%'
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"unknown metric 'latency_us.medain'"*"did you mean 'latency_us.median'"* ]]
    # Nothing in common is a failure, not a clean night.
    head -n 1 night1.jsonl | sed 's/mm_a/mm_z/' >other.jsonl
    run --separate-stderr nx-report night2.jsonl --study-diff other.jsonl --fail-on 'latency_us.median>5%'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"no workload matched: the run sets have none in common (1 runs before, 4 after)"* ]]
    run --separate-stderr nx-report night2.jsonl --study-diff night1.jsonl --compare
    [ "$status" -eq 2 ]
}

@test "--study-diff across targets and from databases: two targets pair by workload, sim labelled a prediction" {
    nx-run --study matmul --M 128,256 --K 128 --N 128 --timed 1 --warmup 0 --target trn2 >trn2.jsonl
    nx-run --study matmul --M 128,256 --K 128 --N 128 --timed 1 --warmup 0 --target trn1 | nx-convert --db trn1.db >/dev/null
    run nx-report trn2.jsonl --study-diff trn1.db --format text
    [ "$status" -eq 0 ]
    [[ "$output" == *"2 workloads matched"* ]]
    [[ "$output" == *"mm_128x128x128_bf16  128x128x128 bf16  trn1 sim (predicted)  trn2 sim (predicted)"* ]]
    [[ "$output" == *"predicted by the model (sim), not measured"* ]]
    [ "$(nx-report trn2.jsonl --study-diff trn1.db --format csv | tail -n +2 | grep -c ',predicted by the model (sim)$')" -eq 2 ]
    # A database on either side.
    nx-convert --db trn2.db <trn2.jsonl >/dev/null
    run nx-report --db trn2.db --study-diff trn1.db --format jsonl
    [ "$(jget - '[(x["before_target"], x["after_target"]) for x in r]' <<<"$output")" = '[["trn1", "trn2"], ["trn1", "trn2"]]' ]
}

@test "--ranks: one table across the ranks of a capture: total time, skew, the breakdown, collective wait, the slowest as straggler when no rank starts late" {
    # Three ranks: rank 1 is small_slow (6 us, DMA +1.25 us busy); each rank
    # spends two all-reduces from the same point of its time, the fast ones
    # longest (they wait).
    mkdir cap
    python3 - "$FIXTURES" <<'PY'
import json, sys
for rank, src, waits in ((0, "small.json", [1000, 1200]), (1, "small_slow.json", [100, 150]), (2, "small.json", [900, 1000])):
    d = json.load(open(sys.argv[1] + "/" + src))
    d["collectives"] = [{"timestamp": 500 + 1500 * k, "duration": w, "name": "all-reduce"} for k, w in enumerate(waits)]
    json.dump(d, open("cap/profile_rank_%d.json" % rank, "w"))
PY
    nx-convert --db cap.db cap >/dev/null
    run nx-report --db cap.db --ranks --format text
    [ "$status" -eq 0 ]
    # The tree's profiles are read by the absolute paths its plan lists.
    [[ "$output" == *"Ranks: $PWD/cap"* ]]
    [[ "$output" == *"3 ranks. Skew 1.5x (slowest over fastest): rank 1 takes 6 us, 2 us more than rank 0 and 2 us more than the median. The straggler is rank 1 (cap/rank1), the slowest (no rank starts a significant collective later than another, from its own start). Against rank 0 its largest change is dma busy time +1.25 us."* ]]
    [[ "$output" == *"0  cap/rank0        4 us          1x    63.0%        66.7%    68.2%        9.09%  6.67%          1.95 us"* ]]
    [[ "$output" == *"1  cap/rank1        6 us        1.5x    77.7%        7.14%    44.0%        9.71%  8.57%             0 ns  straggler"* ]]
    # The wait: each all-reduce's duration minus its shortest (rank 1's):
    # rank 0 (1000 - 100) + (1200 - 150) = 1950, rank 2 800 + 850 = 1650.
    nx-report --db cap.db --ranks --format jsonl >r.jsonl
    assert_jsonl r.jsonl
    [ "$(jget r.jsonl '[(x["rank"], x["total_ns"], x["straggler"], x["collective_ns"], x["wait_ns"]) for x in r]')" = '[[0, 4000, 0, 2200, 1950], [1, 6000, 1, 250, 0], [2, 4000, 0, 1900, 1650]]' ]
    for f in markdown html csv tsv; do
        nx-report --db cap.db --ranks --format "$f" | grep -q "straggler" || { echo "$f"; false; }
    done
    # The heat map: a row per rank, in every format.
    [[ "$output" == *"Compute utilisation by rank over time (50 buckets"* ]]
    [ "$(echo "$output" | grep -cE '^  rank [0-2]  ')" -eq 3 ]
    nx-report --db cap.db --ranks --format html | grep -q "Ranks over time: compute"
}

@test "--ranks: the straggler as HTA defines it: the rank that starts the significant collectives last, from records, a database or both alike" {
    # Equal total times; rank 2 reaches both all-reduces 300 ns after rank 0
    # (from its own start), so the others wait for it.
    mkdir cap
    python3 - "$FIXTURES" <<'PY'
import json, sys
for rank, starts, durs in ((0, [1500, 2600], [900, 1000]), (1, [1520, 2610], [880, 990]), (2, [1800, 2900], [600, 700])):
    d = json.load(open(sys.argv[1] + "/small.json"))
    d["collectives"] = [{"timestamp": t, "duration": w, "name": "all-reduce"} for t, w in zip(starts, durs)]
    json.dump(d, open("cap/profile_rank_%d.json" % rank, "w"))
PY
    nx-convert --db cap.db cap >records.jsonl
    run nx-report --db cap.db --ranks --format text
    [[ "$output" == *"The straggler is rank 2 (cap/rank2): it starts 2 of 2 significant collectives last, and the most variable one, all-reduce #1, 300 ns after the earliest rank (start times from each rank's own start)."* ]]
    [[ "$output" == *"2  cap/rank2        4 us          1x    71.7%        44.8%    72.3%        12.8%  3.10%             0 ns  straggler"* ]]
    # Records and the database give the same rows.
    [ "$(nx-report --db cap.db --ranks --format csv)" = "$(nx-report records.jsonl --ranks --format csv)" ]
    [ "$(nx-report records.jsonl --ranks --format csv | awk -F, '$8 == 1 {print $3, $16, $17}')" = "2 0 2" ]
}

@test "--ranks: equal ranks have no straggler; profiles without collectives match none; profiles without ranks are refused" {
    cp -r "$FIXTURES/ranks" ranks
    nx-convert --db r.db ranks >p.jsonl
    run nx-report --db r.db --ranks --format text
    [ "$status" -eq 0 ]
    [[ "$output" == *"2 ranks. They take the same time (4 us). No straggler."* && "$output" != *"straggler"$'\n'* ]]
    [[ "$output" == *"(0 matched: a rank has no collective operations)"* ]]
    run nx-report p.jsonl --ranks --format csv
    # profile_rank_<i> names no NEFF (neff_hash empty); no iterations marked,
    # no steps; no straggler, so none of its five figures.
    [ "${lines[1]}" = "rank,$PWD/ranks,0,ranks/rank0,4000,1,0,0,0,0,0,2080,,560,260,,0,,0,,,,,,," ]
    # A profile without a rank beside them is left out, and said so.
    nx-convert --db r.db "$FIXTURES/small.json" >/dev/null
    run --separate-stderr nx-report --db r.db --ranks --format text
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"--ranks: left out 1 profile without a rank, the first: small"* ]]
    run --separate-stderr nx-report --db r.db --profile small --ranks
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"--ranks: no profile carries a rank (1 profiles; a multi-rank capture's profiles do)"* ]]
    run --separate-stderr nx-report --db r.db --ranks --compare
    [ "$status" -eq 2 ]
}

#!/usr/bin/env bats
# make study: the staged pipelines on small configurations, end to end.

load test_helper

# Runs the study Make targets of the checkout under test into this test's OUT.
study() {
    make -C "$NX_ROOT" --no-print-directory -s BUILD="$(dirname "$NX_BIN")" OUT="$PWD/out" "$@"
}

@test "make study-matmul writes every stage, the report, the seed CSV and the history" {
    study study-matmul MODE=tiling TIMED=2 WARMUP=0 >log 2>&1 || { cat log; false; }
    for f in config workloads.jsonl runs.jsonl captures.jsonl study.db report.md matmul.csv history.stamp; do
        [ -s "out/matmul/$f" ] || [ "$f" = history.stamp ]
    done
    [ "$(head -n 1 out/matmul/matmul.csv)" = "M,K,N,latency_ms,num_tiles_M,num_tiles_K,num_tiles_N,total_tiles,name,dtype,backend,target,latency_p95_ms,tflops,compile_ms,cached,provenance" ]
    [ "$(tail -n +2 out/matmul/matmul.csv | wc -l)" = 34 ]
    grep -q '^# Matmul study' out/matmul/report.md
    grep -q '^## Tiling cliffs' out/matmul/report.md
    grep -q 'predicted by the nx performance model' out/matmul/report.md
    [ "$(sqlite3 out/history.db 'SELECT count(*) FROM run')" = 34 ]
    [ "$(sqlite3 out/matmul/study.db 'SELECT count(*) FROM profile')" = 34 ]
}

@test "make study stages are real targets: re-running does nothing, a changed variable re-runs what it affects" {
    study study-patterns TIMED=2 WARMUP=0 >/dev/null 2>&1
    before=$(stat -c %Y out/patterns/runs.jsonl)
    sleep 1
    study study-patterns TIMED=2 WARMUP=0 >log 2>&1
    [ "$(stat -c %Y out/patterns/runs.jsonl)" = "$before" ]
    refute grep -q nx-run log
    study study-patterns TIMED=3 WARMUP=0 >log 2>&1
    [ "$(stat -c %Y out/patterns/runs.jsonl)" != "$before" ]
    [ "$(jget out/patterns/runs.jsonl 'r[0]["latency_us"]["n"]')" = 3 ]
}

@test "make study-patterns answers the study's question" {
    study study-patterns TIMED=2 WARMUP=0 >/dev/null 2>&1
    grep -q '^# Pattern study: vmap, scan and for-loop' out/patterns/report.md
    grep -q 'TensorMatrix share' out/patterns/report.md
    # The study's own ratio beside it, labelled as its definition, with a value per pattern.
    grep -q '| study TensorMatrix ratio |' out/patterns/report.md
    grep -q '^study TensorMatrix ratio: .*MATMUL, TENSOR_TENSOR or TENSOR_REDUCE.*WRITE and COPY' out/patterns/report.md
    grep -E '^\| [0-9]+ \| vmap \|' out/patterns/report.md | grep -Eq '\| [0-9.]+% \| [0-9.]+% \| [a-z-]+ \|$'
    grep -q '^- fastest: ' out/patterns/report.md
    grep -q 'for-loop from small to medium' out/patterns/report.md
}

@test "make study-matmul MODE=llm with a sequence distribution recommends buckets" {
    printf '200 50\n300 100\n700 30\n1000 20\n1800 5\n' >dist.txt
    study study-matmul MODE=llm MODEL=llama-3-8b TP=8 SEQ=128:2048:x2 TARGET=trn1 SEQ_DIST="$PWD/dist.txt" TIMED=1 WARMUP=0 >log 2>&1 || { cat log; false; }
    grep -q '^## Sequence buckets (batch 1)' out/matmul/report.md
    grep -q '(recommended)' out/matmul/report.md
    grep -q 'Neuron default (powers of two from 128)' out/matmul/report.md
    grep -q 'best 4 buckets' out/matmul/report.md
    # Report options re-render the report without re-running the workloads.
    before=$(stat -c %Y out/matmul/runs.jsonl)
    sleep 1
    study study-matmul MODE=llm MODEL=llama-3-8b TP=8 SEQ=128:2048:x2 TARGET=trn1 SEQ_DIST="$PWD/dist.txt" BUCKETS=2 TIMED=1 WARMUP=0 >log 2>&1
    [ "$(stat -c %Y out/matmul/runs.jsonl)" = "$before" ]
    refute grep -q 'best 4 buckets' out/matmul/report.md
    grep -q 'best 2 buckets' out/matmul/report.md
    # So does a change to the distribution file.
    printf '2000 100\n' >dist.txt
    study study-matmul MODE=llm MODEL=llama-3-8b TP=8 SEQ=128:2048:x2 TARGET=trn1 SEQ_DIST="$PWD/dist.txt" BUCKETS=2 TIMED=1 WARMUP=0 >log 2>&1
    [ "$(stat -c %Y out/matmul/runs.jsonl)" = "$before" ]
    grep -q 'Recommended: 2048 ' out/matmul/report.md
}

@test "make study with a GATE fails (nx-report exits 3, make 2) when runs regressed against the history" {
    study study-matmul MODE=sweep M=128 K=512 N=512 TIMED=1 WARMUP=0 >/dev/null 2>&1
    # Yesterday was faster: halve the history's latencies.
    sqlite3 out/history.db "UPDATE run SET record = json_set(record, '$.latency_us.median', json_extract(record, '$.latency_us.median') / 2)"
    run study study-matmul MODE=sweep M=128 K=512 N=512 TIMED=2 WARMUP=0 GATE='latency_us.median>5%'
    [ "$status" -eq 2 ]
    [[ "$output" == *"history.stamp] Error 3"* ]]
    [[ "$output" == *"gate tripped: latency_us.median>5% for mm_128x512x512_bf16"* ]]
}

@test "make study-nightly re-runs every night: the first records the baseline, a regression fails naming the workload" {
    nightly=(study-nightly MODE=sweep M=128 K=512 N=512 TIMED=1 WARMUP=0 'GATE=latency_us.median>5%')
    matmul_runs="SELECT count(*) FROM run WHERE json_extract(record, '$.study') = 'matmul'"
    # Night 1: no history yet; the runs pass as the baseline, and say so.
    run study "${nightly[@]}"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [[ "$output" == *"first run: the baseline has none of these records"* ]]
    [ "$(sqlite3 out/history.db "$matmul_runs")" = 1 ]
    # Night 2, nothing changed but the night: the workloads run again and are checked.
    run study "${nightly[@]}"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [[ "$output" == *"1 check, 0 tripped"* ]]
    [ "$(sqlite3 out/history.db "$matmul_runs")" = 2 ]
    # Night 3 is slower than the history says (its latencies halved).
    sqlite3 out/history.db "UPDATE run SET record = json_set(record, '$.latency_us.median', json_extract(record, '$.latency_us.median') / 2)"
    run study "${nightly[@]}"
    [ "$status" -ne 0 ]
    [[ "$output" == *"gate tripped: latency_us.median>5% for mm_128x512x512_bf16"* ]]
    # A regressed night is not appended: the last good night stays the baseline.
    [ "$(sqlite3 out/history.db "$matmul_runs")" = 2 ]
}

@test "make study with a misspelled GATE metric says the metric is unknown" {
    run study study-matmul MODE=sweep M=128 K=512 N=512 TIMED=1 WARMUP=0 'GATE=latency_us.medain>5%'
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown metric 'latency_us.medain'"*"did you mean 'latency_us.median'"* ]]
    [[ "$output" != *"no record matched"* ]]
    [ ! -e out/history.db ]
}

@test "make study installs only what the studies need (no chromium, no gtest) and builds in parallel by default" {
    # As a user types it: not inside a make that was given -j (make -j2 test-asan).
    unset MAKEFLAGS MFLAGS MAKELEVEL
    run study -n study
    [ "$status" -eq 0 ]
    [[ "$output" == *"libsqlite3-dev"* ]]
    [[ "$output" != *chromium* && "$output" != *libgtest-dev* ]]
    [[ "$output" == *"--no-print-directory -j"[0-9]*" "*"/nx-capture "* ]]
    # Given -j, make shares its own jobs instead.
    run study -n -j2 study
    [[ "$output" != *"--no-print-directory -j"* ]]
    # make test installs the test tools too.
    run make -C "$NX_ROOT" -n deps
    [[ "$output" == *chromium* && "$output" == *libgtest-dev* ]]
}

@test "make help lists the study variables" {
    run make -C "$NX_ROOT" --no-print-directory help
    [ "$status" -eq 0 ]
    [[ "$output" == *"BACKEND=sim|cpu|neuron"* && "$output" == *"MODE=sweep|tiling|llm"* && "$output" == *"GATE="* ]]
    [[ "$output" == *"LNC=1|2"* && "$output" == *"DTYPE=mxfp8"* ]]
    [[ "$output" == *"study-nightly"* && "$output" == *"NIGHTLY=1"* ]]
}

@test "make study TARGET=trn3 DTYPE=mxfp8: both studies on trn3's two-core logical core, the matmuls in MXFP8, end to end" {
    study study-all TARGET=trn3 DTYPE=mxfp8 TIMED=2 WARMUP=0 >log 2>&1 || { cat log; false; }
    [ "$(jget out/matmul/runs.jsonl 'sorted(set((x["dtype"], x["target"], x["lnc"]) for x in r))')" = '[["mxfp8", "trn3", 2]]' ]
    [ "$(tail -n +2 out/matmul/matmul.csv | wc -l)" = 34 ]
    grep -q 'run by sim on trn3 (LNC=2)' out/matmul/report.md
    # Nothing measured is comparable with an MX matmul on trn3: no band is borrowed.
    grep -q '(no band)' out/matmul/report.md
    refute grep -q '(+-' out/matmul/report.md
    grep -q 'on trn3 (LNC=2)' out/patterns/report.md
    [ "$(sqlite3 out/matmul/study.db "SELECT count(*) FROM profile WHERE dtype = 'mxfp8'")" = 34 ]
    # LNC is a study variable: a change re-runs the studies.
    grep -q '^LNC=$' out/matmul/config
    study study-matmul TARGET=trn3 DTYPE=mxfp8 LNC=1 TIMED=2 WARMUP=0 >log 2>&1 || { cat log; false; }
    [ "$(jget out/matmul/runs.jsonl 'sorted(set(x["lnc"] for x in r))')" = '[1]' ]
}

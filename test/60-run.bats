#!/usr/bin/env bats
# nx-run: workload generation per study and mode, each backend, statistics,
# the compile cache, bad input.

load test_helper

count() { grep -c . "$1"; }

@test "nx-run --plan: matmul sweep is the product of the ranges, with dtypes" {
    nx-run --study matmul --M 128:512:x2 --K 256,512 --N 1024 --dtype bf16,fp32 --plan >w.jsonl
    # 3 M x 2 K x 1 N x 2 dtypes.
    [ "$(count w.jsonl)" = 12 ]
    [ "$(jget w.jsonl '[x["kind"] for x in r][0]')" = workload ]
    [ "$(jget w.jsonl 'sorted(set(x["M"] for x in r))')" = "[128, 256, 512]" ]
    [ "$(jget w.jsonl 'r[0]["name"]')" = mm_128x256x1024_bf16 ]
    [ "$(jget w.jsonl 'r[0]["target"]')" = trn2 ]
    nx-run --study matmul --M 128:512:+128 --K 1 --N 1 --plan >a.jsonl
    [ "$(jget a.jsonl '[x["M"] for x in r]')" = "[128, 256, 384, 512]" ]
}

@test "nx-run --plan: tiling mode straddles multiples of 128 (M, K) and 512 (N)" {
    nx-run --study matmul --mode tiling --plan >w.jsonl
    [ "$(jget w.jsonl 'sorted(x["M"] for x in r if x["K"] == 512 and x["N"] == 512)')" = "[127, 128, 129, 255, 256, 257, 383, 384, 385, 511, 512, 513]" ]
    [ "$(jget w.jsonl 'sorted(x["N"] for x in r if x["M"] == 512 and x["K"] == 512)')" = "[511, 512, 513, 1023, 1024, 1025, 1535, 1536, 1537, 2047, 2048, 2049]" ]
    [ "$(count w.jsonl)" = 34 ]
}

@test "nx-run --plan: llm mode gives the layer GEMMs per phase, with tensor parallelism" {
    nx-run --study matmul --mode llm --model llama-3-8b --tp 8 --batch 1,4 --seq 128,512 --plan >w.jsonl
    # prefill: 2 batches x 2 seqs x 6 GEMMs; decode: 2 batches x 6 GEMMs.
    [ "$(count w.jsonl)" = 36 ]
    # QKV: (32 + 2*8) heads x 128 = 6144 columns / 8 = 768; T = batch*seq.
    [ "$(jget w.jsonl '[(x["M"], x["K"], x["N"]) for x in r if x["name"] == "llama-3-8b_tp8_b4_prefill_s512_qkv"][0]')" = "[2048, 4096, 768]" ]
    # Row-parallel down projection divides K; decode uses T = batch.
    [ "$(jget w.jsonl '[(x["M"], x["K"], x["N"]) for x in r if x["name"] == "llama-3-8b_tp8_b4_decode_down"][0]')" = "[4, 1792, 4096]" ]
    [ "$(jget w.jsonl '[x["phase"] for x in r if x["gemm"] == "lm_head"][0]')" = prefill ]
    run nx-run --study matmul --mode llm --model llama-3-70b --tp 3 --plan
    [ "$status" -eq 2 ]
    [[ "$output" == *"not divisible by tp 3"* ]]
    run nx-run --study matmul --mode llm --model gpt-5 --plan
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown model 'gpt-5' (known: llama-2-7b, llama-3-8b, llama-3-70b)"* ]]
}

@test "nx-run --plan: patterns under the study's unified conditions, and mlp" {
    nx-run --study patterns --plan >p.jsonl
    [ "$(jget p.jsonl '[x["name"] for x in r]')" = '["vmap", "scan", "for_loop_small", "for_loop_medium", "for_loop_large", "for_loop_launch_small"]' ]
    [ "$(jget p.jsonl 'sorted(set((x["iterations"], x["batch"], x["features"], x["dtype"]) for x in r))')" = '[[3, 32, 128, "fp32"]]' ]
    nx-run --study mlp --seq 128,512 --plan >m.jsonl
    [ "$(jget m.jsonl '[(x["hidden"], x["intermediate"], x["seq"]) for x in r]')" = "[[4096, 14336, 128], [4096, 14336, 512]]" ]
}

@test "nx-run on sim: run records with statistics, tiles, TFLOP/s and the prediction, labelled sim" {
    nx-run --study matmul --M 128,129 --K 1024 --N 1024 --target trn1 >r.jsonl
    assert_jsonl r.jsonl
    [ "$(jget r.jsonl 'r[0]["kind"]')" = run ]
    [ "$(jget r.jsonl 'r[0]["backend"]')" = sim ]
    [ "$(jget r.jsonl 'r[0]["target"]')" = trn1 ]
    [ "$(jget r.jsonl 'sorted(r[0]["latency_us"].keys())')" = '["max", "mean", "median", "min", "n", "p95", "stdev", "warmup"]' ]
    [ "$(jget r.jsonl 'r[0]["latency_us"]["n"]')" = 20 ]
    [ "$(jget r.jsonl 'r[0]["latency_us"]["warmup"]')" = 5 ]
    # Predictions do not vary: no spread, no compile step.
    [ "$(jget r.jsonl 'r[0]["latency_us"]["stdev"]')" = 0 ]
    [ "$(jget r.jsonl 'r[0]["compile_ms"]')" = null ]
    [ "$(jget r.jsonl 'r[1]["tiles"]')" = '{"M": 2, "K": 8, "N": 2, "total": 32}' ]
    # TFLOP/s = 2 M K N / median.
    [ "$(jget r.jsonl 'round(r[0]["tflops"] - 2*128*1024*1024/r[0]["latency_us"]["median"]/1e6, 9)')" = 0.0 ]
    # A 129-row matmul pays for two row tiles.
    [ "$(jget r.jsonl 'r[1]["latency_us"]["median"] > r[0]["latency_us"]["median"]')" = true ]
    [ "$(jget r.jsonl '"instructions" in r[0]["predicted"]')" = true ]
    # Same inputs, same predictions.
    nx-run --study matmul --M 128,129 --K 1024 --N 1024 --target trn1 >again.jsonl
    [ "$(jget r.jsonl '[x["latency_us"] for x in r]')" = "$(jget again.jsonl '[x["latency_us"] for x in r]')" ]
}

@test "nx-run reads workload records from stdin, edited with the tools users have" {
    nx-run --study matmul --mode tiling --plan | python3 -c '
import json, sys
for l in sys.stdin:
    w = json.loads(l)
    if w["M"] > 500:
        w["team"] = "perf"
        print(json.dumps(w))' >edited.jsonl
    nx-run --timed 3 --warmup 0 <edited.jsonl >r.jsonl
    [ "$(count r.jsonl)" = "$(count edited.jsonl)" ]
    [ "$(jget r.jsonl 'sorted(set(x["team"] for x in r))')" = '["perf"]' ]
    [ "$(jget r.jsonl 'r[0]["latency_us"]["n"]')" = 3 ]
}

@test "OpenBLAS is loaded only when the cpu backend runs: no tool links it, nx-convert starts no thread pool" {
    # Linked, OpenBLAS starts its thread pool as the process loads, and the
    # threads spin for ~0.1 s of a core in every conversion (openblas.h).
    for tool in nx-convert nx-capture nx-run nx-query nx-report; do
        run sh -c "ldd '$NX_BIN/$tool' | grep -c openblas"
        [ "$output" = 0 ]
    done
    mkfifo in.json
    nx-convert in.json >out.jsonl 2>err.txt &
    pid=$!
    # Blocked opening the FIFO: whatever threads it has, it started at load.
    for _ in $(seq 50); do [ -e /proc/$pid/task ] && break; sleep 0.1; done
    sleep 0.3
    threads=$(ls /proc/$pid/task | wc -l)
    cat "$FIXTURES/small.json" >in.json
    wait $pid
    [ "$threads" = 1 ]
    [ "$(count out.jsonl)" = 1 ]
}

@test "nx-run on cpu: real host timings of matmul, patterns and mlp" {
    nx-run --study matmul --M 64 --K 64 --N 64 --backend cpu --timed 5 >r.jsonl
    [ "$(jget r.jsonl 'r[0]["backend"]')" = cpu ]
    [ "$(jget r.jsonl 'r[0]["target"]')" = cpu ]
    [ "$(jget r.jsonl 'r[0]["latency_us"]["min"] > 0')" = true ]
    [ "$(jget r.jsonl 'r[0]["compile_ms"] >= 0')" = true ]
    [[ "$(jget r.jsonl 'r[0]["toolchain"]')" =~ ^OpenBLAS\ [0-9]+\.[0-9]+\.[0-9]+\ \(host\ fp32\)$ ]]
    [ "$(jget r.jsonl 'r[0]["note"]')" = "bf16 runs as fp32 on the host" ]
    nx-run --study patterns --backend cpu --timed 3 --quiet >p.jsonl
    [ "$(count p.jsonl)" = 6 ]
    nx-run --study mlp --seq 8 --hidden 64 --intermediate 128 --backend cpu --timed 2 >m.jsonl
    [ "$(jget m.jsonl 'r[0]["tflops"] > 0')" = true ]
    run nx-run --backend cpu --target trn1 --study patterns
    [ "$status" -eq 2 ]
}

setup_neuron() {
    export PATH="$FAKES:$PATH" PYTHONPATH="$FAKES/python" FAKE_NEURON_LOG=$PWD/calls \
        FAKE_NEURON_PROFILE_JSON="$FIXTURES/small.json"
}

@test "nx-run on neuron: the driver compiles, keeps and maps NEFFs, times with mark_step (fake torch-neuronx)" {
    setup_neuron
    nx-run --backend neuron --target trn1 --study matmul --M 128,256 --K 128 --N 128 --cache-dir cache >r.jsonl 2>err
    # The compiler's chatter goes to stderr; stdout is run records only.
    assert_jsonl r.jsonl
    [ "$(grep -c 'Compiler status PASS' err)" = 2 ]
    [ "$(jget r.jsonl '[x["backend"] for x in r]')" = '["neuron", "neuron"]' ]
    [ "$(jget r.jsonl '[x["cached"] for x in r]')" = "[false, false]" ]
    [ "$(jget r.jsonl 'all(x["compile_ms"] >= 0 for x in r)')" = true ]
    [[ "$(jget r.jsonl 'r[0]["toolchain"]')" == "torch-neuronx 2.9.0.2.11+fake, torch 2.9.1+fake, neuronx-cc 2.21.0+fake" ]]
    neff=$(jget r.jsonl 'r[0]["artifacts"]["neff"]')
    [ -f "$neff" ]
    grep -q "^profile=$FIXTURES/small.json" "$neff"
    [ "$(jget r.jsonl 'r[0]["artifacts"]["neff"] != r[1]["artifacts"]["neff"]')" = true ]
    [ "$(grep -c 'neuronx-cc compile' calls)" = 2 ]
}

@test "nx-run on neuron: a repeated study does not recompile; --no-cache forces it" {
    setup_neuron
    nx-run --backend neuron --target trn1 --study matmul --M 128 --K 128 --N 128 --cache-dir cache >/dev/null
    nx-run --backend neuron --target trn1 --study matmul --M 128 --K 128 --N 128 --cache-dir cache >again.jsonl
    [ "$(jget again.jsonl 'r[0]["cached"]')" = true ]
    [ "$(grep -c 'neuronx-cc compile' calls)" = 1 ]
    mkdir tmp
    TMPDIR=$PWD/tmp nx-run --backend neuron --target trn1 --study matmul --M 128 --K 128 --N 128 --cache-dir cache --no-cache >forced.jsonl
    [ "$(jget forced.jsonl 'r[0]["cached"]')" = false ]
    [ "$(grep -c 'neuronx-cc compile' calls)" = 2 ]
    # Its throw-away compile cache is gone afterwards.
    [ -z "$(find . -name '*nocache-*')" ]
}

@test "nx-run on neuron: no torch-neuronx, or no device, is a clear error for every workload" {
    export PATH="$FAKES:$PATH"
    run --separate-stderr nx-run --backend neuron --target trn1 --study matmul --M 128 --K 128 --N 128 --cache-dir cache
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"mm_128x128x128_bf16: torch-neuronx is not installed"* ]]
    setup_neuron
    FAKE_NEURON_NO_DEVICE=1 run --separate-stderr nx-run --backend neuron --target trn1 --study matmul --M 128 --K 128 --N 128 --cache-dir cache
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"no Neuron device: No Neuron device found"* ]]
    NX_PYTHON=no-such-python run nx-run --backend neuron --target trn1 --study patterns --cache-dir cache
    [ "$status" -eq 1 ]
    [[ "$output" == *"the neuron backend needs no-such-python"* ]]
}

@test "nx-run: bad workloads are named, exit 1; --keep-going runs the others" {
    printf '%s\n' '{"kind":"workload","name":"ok","op":"matmul","M":128,"K":128,"N":128}' \
        '{"kind":"workload","name":"zero","op":"matmul","M":0,"K":128,"N":128}' \
        '{"kind":"workload","name":"huge","op":"matmul","M":1000000,"K":1000000,"N":1000000}' \
        '{"kind":"workload","name":"int4","op":"matmul","M":128,"K":128,"N":128,"dtype":"int4"}' >w.jsonl
    run --separate-stderr nx-run <w.jsonl
    [ "$status" -eq 1 ]
    [[ "$stderr" == "nx-run: zero: M must be positive, got 0" ]]
    [ -z "$output" ]
    run --separate-stderr nx-run --keep-going <w.jsonl
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"zero: M must be positive, got 0"* ]]
    [[ "$stderr" == *"int4: unknown dtype 'int4'"* ]]
    [[ "$stderr" == *"huge: "*"memory"* ]]
    [[ "$stderr" == *"3 of 4 workloads failed"* ]]
    [ "$(jget - '[x["name"] for x in r]' <<<"$output")" = '["ok"]' ]
}

@test "nx-run: malformed records name file and line; usage errors exit 2" {
    printf '%s\n' '{"kind":"workload","name":"a","op":"matmul","M":128,"K":128,"N":128}' 'not json' >w.jsonl
    run nx-run w.jsonl
    [ "$status" -eq 1 ]
    [[ "$output" == "nx-run: w.jsonl:2: not a JSON record"* ]]
    printf '{"kind":"profile","name":"a"}\n' >p.jsonl
    run nx-run p.jsonl
    [ "$status" -eq 1 ]
    [[ "$output" == *'expected workload records, got "profile"'* ]]
    run nx-run --study matmul --M 128:64
    [ "$status" -eq 2 ]
    run nx-run --study matmul --M 1:1e9:+1
    [ "$status" -eq 2 ]
    run nx-run --study nope
    [ "$status" -eq 2 ]
    run nx-run --backend tpu --study patterns
    [ "$status" -eq 2 ]
    run nx-run --target trn9 --study patterns
    [ "$status" -eq 2 ]
    run nx-run --target trn9 --study patterns --plan
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown --target 'trn9'"* ]]
    run nx-run --study matmul --M 0 --plan
    [ "$status" -eq 2 ]
    [[ "$output" == *"--M: '0' must be positive"* ]]
    run nx-run --M 128
    [ "$status" -eq 2 ]
    [[ "$output" == *"--M needs --study"* ]]
}

@test "nx-run --calibrate prints the model against the public measurements" {
    run nx-run --calibrate
    [ "$status" -eq 0 ]
    [[ "$output" == *"nki_matmul_blocked_mnk"* ]]
    [[ "$output" == *"leave-one-out"* ]]
    [[ "$output" == *"check: every point where the last fit left it"* ]]
}

@test "nx-run --variant is honoured for workloads piped in, and refused when none is a matmul" {
    w='{"kind":"workload","name":"tutorial","op":"matmul","M":1024,"K":2048,"N":2048}'
    naive=$(echo "$w" | nx-run --backend sim --target trn1 --variant naive --timed 1 --warmup 0)
    mnk=$(echo "$w" | nx-run --backend sim --target trn1 --variant blocked_mnk --timed 1 --warmup 0)
    [ "$(jget - 'r[0]["predicted"]["variant"]' <<<"$naive")" = naive ]
    [ "$(jget - 'r[0]["predicted"]["variant"]' <<<"$mnk")" = blocked_mnk ]
    [ "$(jget - 'r[0]["latency_us"]["median"]' <<<"$naive")" != "$(jget - 'r[0]["latency_us"]["median"]' <<<"$mnk")" ]
    run --separate-stderr nx-run --variant naive <<<'{"kind":"workload","name":"p","op":"pattern","pattern":"vmap","iterations":3,"batch":32,"features":128}'
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"--variant chooses a matmul kernel, and none of these workloads is a matmul"* ]]
}

@test "nx-run: a piped workload's own target is honoured unless --target is given" {
    printf '%s\n' '{"kind":"workload","name":"a","op":"matmul","M":128,"K":128,"N":512,"target":"trn1"}' \
        '{"kind":"workload","name":"b","op":"matmul","M":128,"K":128,"N":512}' >w.jsonl
    nx-run --backend sim --timed 1 --warmup 0 w.jsonl >runs.jsonl
    [ "$(jget runs.jsonl '[(x["name"], x["target"]) for x in r]')" = '[["a", "trn1"], ["b", "trn2"]]' ]
    # The prediction is the one for that target, not relabelled.
    echo '{"kind":"workload","name":"a","op":"matmul","M":128,"K":128,"N":512}' |
        nx-run --backend sim --target trn1 --timed 1 --warmup 0 >trn1.jsonl
    [ "$(jget runs.jsonl 'r[0]["latency_us"]["median"]')" = "$(jget trn1.jsonl 'r[0]["latency_us"]["median"]')" ]
    nx-run --backend sim --target trn3 --timed 1 --warmup 0 w.jsonl >all.jsonl
    [ "$(jget all.jsonl '[x["target"] for x in r]')" = '["trn3", "trn3"]' ]
}

@test "nx-run on sim: a pool2d workload record runs end to end, max and avg, and bad fields are named" {
    printf '%s\n' '{"kind":"workload","name":"maxpool","op":"pool2d","channels":256,"height":112,"width":112,"pool":2,"dtype":"bf16"}' \
        '{"kind":"workload","name":"avgpool","op":"pool2d","channels":256,"height":112,"width":112,"pool":3,"stride":1,"opname":"avg","dtype":"bf16"}' >w.jsonl
    nx-run --backend sim --target trn1 <w.jsonl >r.jsonl
    assert_jsonl r.jsonl
    [ "$(jget r.jsonl '[x["backend"] for x in r]')" = '["sim", "sim"]' ]
    # The record keeps the workload's fields; auto took the cheaper reduction.
    [ "$(jget r.jsonl '[x.get("stride") for x in r]')" = '[null, 1]' ]
    [ "$(jget r.jsonl '[x["predicted"]["variant"] for x in r]')" = '["reduce", "separable"]' ]
    # 256 x 112 x 112 bf16 in, a quarter out; 3x3 stride 1 re-reads the rows blocks share.
    [ "$(jget r.jsonl 'r[0]["predicted"]["hbm_bytes"]')" = "$((256 * 112 * 112 * 2 + 256 * 56 * 56 * 2))" ]
    [ "$(jget r.jsonl 'r[1]["predicted"]["hbm_bytes"] > 256 * 112 * 112 * 2 + 256 * 110 * 110 * 2')" = true ]
    [ "$(jget r.jsonl 'r[0]["latency_us"]["median"] > 0')" = true ]
    # No calibration point measures pooling alone: the record says so, with no band.
    [ "$(jget r.jsonl 'r[0]["predicted"]["error_band_basis"]')" = "no calibration point is a pool2d in bf16 on trn1 at LNC=1: no band" ]
    [ "$(jget r.jsonl '"error_band_percent" in r[0]["predicted"]')" = false ]
    printf '%s\n' '{"kind":"workload","name":"minpool","op":"pool2d","channels":8,"height":8,"width":8,"opname":"min"}' >bad.jsonl
    run --separate-stderr nx-run --backend sim <bad.jsonl
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-run: minpool: unknown opname 'min' for pool2d (known: max, avg)" ]
}

@test "nx-run --lnc: every device run record says its logical core, the target's by default; a target without LNC=2 refuses it" {
    echo '{"kind":"workload","name":"mm","op":"matmul","M":2048,"K":2048,"N":2048}' >w.jsonl
    for t in trn1 inf2 trn2 trn3; do nx-run --target $t --timed 1 --warmup 0 w.jsonl; done >r.jsonl
    [ "$(jget r.jsonl '[(x["target"], x["lnc"]) for x in r]')" = '[["trn1", 1], ["inf2", 1], ["trn2", 2], ["trn3", 2]]' ]
    nx-run --target trn2 --lnc 1 --timed 1 --warmup 0 w.jsonl >one.jsonl
    [ "$(jget one.jsonl 'r[0]["lnc"]')" = 1 ]
    # A compute-bound shape on two TensorEs: faster, not twice as fast.
    [ "$(jget - 'r[2]["latency_us"]["median"] < 0.65 * r[4]["latency_us"]["median"] and r[2]["latency_us"]["median"] > 0.5 * r[4]["latency_us"]["median"]' < <(cat r.jsonl one.jsonl))" = true ]
    # --lnc wins over a record's own, as --target does; --plan writes only a chosen one.
    echo '{"kind":"workload","name":"mm","op":"matmul","M":128,"K":128,"N":512,"lnc":1}' | nx-run --target trn3 --lnc 2 --timed 1 --warmup 0 >o.jsonl
    [ "$(jget o.jsonl 'r[0]["lnc"]')" = 2 ]
    nx-run --study matmul --M 128 --K 128 --N 128 --plan >p.jsonl
    [ "$(jget p.jsonl '"lnc" in r[0]')" = false ]
    nx-run --study matmul --M 128 --K 128 --N 128 --lnc 1 --plan >p1.jsonl
    [ "$(jget p1.jsonl 'r[0]["lnc"]')" = 1 ]
    # The host CPU has no logical NeuronCore.
    nx-run --backend cpu --study matmul --M 64 --K 64 --N 64 --timed 1 --warmup 0 --lnc 2 >c.jsonl
    [ "$(jget c.jsonl '"lnc" in r[0]')" = false ]
    run --separate-stderr nx-run --target trn1 --lnc 2 w.jsonl
    [ "$status" -eq 2 ]
    [[ "$stderr" == "nx-run: --lnc 2: trn1 has one physical core per logical core"$'\n'* ]]
    run --separate-stderr nx-run --lnc 3 w.jsonl
    [ "$status" -eq 2 ]
    [[ "$stderr" == "nx-run: --lnc must be 1 or 2, got 3"$'\n'* ]]
    echo '{"kind":"workload","name":"two","op":"matmul","M":128,"K":128,"N":128,"lnc":2,"target":"inf2"}' >bad.jsonl
    run --separate-stderr nx-run bad.jsonl
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-run: two: lnc 2: inf2 has one physical core per logical core (LNC=1 only)" ]
}

@test "nx-run on sim: an LNC=2 kernel shards over both physical cores, one that takes no grid does not, and the profile shows each core" {
    printf '%s\n' '{"kind":"workload","name":"sharded","op":"matmul","M":4096,"K":4096,"N":4096}' \
        '{"kind":"workload","name":"nogrid","op":"matmul","M":4096,"K":4096,"N":4096,"shard":"none"}' >w.jsonl
    nx-run --target trn2 --timed 1 --warmup 0 w.jsonl >r.jsonl
    [ "$(jget r.jsonl '[x["shard"] if "shard" in x else "auto" for x in r]')" = '["auto", "none"]' ]
    [ "$(jget r.jsonl 'r[0]["latency_us"]["median"] < 0.7 * r[1]["latency_us"]["median"]')" = true ]
    nx-capture --dir prof <r.jsonl | nx-convert --db s.db >/dev/null
    # Both cores compute in the sharded run; in the other the second runs its frame only.
    [ "$(sqlite3 s.db "SELECT p.name, SUM(t.name LIKE 'pcore1/%') > 0 FROM event e JOIN track t ON t.id = e.track_id JOIN profile p ON p.id = e.profile_id WHERE e.opcode = 'MATMUL' GROUP BY p.name ORDER BY p.name")" = "$(printf 'nogrid|0\nsharded|1')" ]
    [ "$(sqlite3 s.db "SELECT COUNT(*) FROM event e JOIN track t ON t.id = e.track_id WHERE t.name LIKE 'pcore1/%' AND e.opcode = 'SET_ORDERING_MODE'")" -gt 0 ]
    # HFU divides by both cores' peak: the run said LNC=2.
    nx-report --db s.db --format markdown >rep.md
    grep -q '2 physical cores (the run.s LNC)' rep.md
    echo '{"kind":"workload","name":"bad","op":"matmul","M":128,"K":128,"N":128,"shard":"half"}' >bad.jsonl
    run --separate-stderr nx-run bad.jsonl
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-run: bad: unknown shard 'half' (known: auto, none)" ]
}

@test "nx-run on sim: MXFP8 and MXFP4 matmuls on trn3, with their block scales; trn2 and non-matmul ops refuse them" {
    nx-run --study matmul --M 4096 --K 8192 --N 4096 --dtype bf16,mxfp8,mxfp4 --target trn3 --lnc 1 --timed 1 --warmup 0 >r.jsonl
    [ "$(jget r.jsonl '[x["dtype"] for x in r]')" = '["bf16", "mxfp8", "mxfp4"]' ]
    # Four times bf16's rate per core: compute-bound, the MX runs are much faster.
    [ "$(jget r.jsonl 'r[1]["latency_us"]["median"] < 0.6 * r[0]["latency_us"]["median"]')" = true ]
    # The data and one scale byte per 32 elements: MX moves less than bf16 but more than its elements.
    [ "$(jget r.jsonl 'r[2]["predicted"]["hbm_bytes"] < r[1]["predicted"]["hbm_bytes"] < r[0]["predicted"]["hbm_bytes"]')" = true ]
    # No calibration point measures an MX matmul, or anything on trn3: no band, and the record says why.
    [ "$(jget r.jsonl 'r[1]["predicted"]["error_band_basis"]')" = "no calibration point is a matmul in mxfp8 on trn3 at LNC=1: no band" ]
    nx-report r.jsonl --format markdown | grep -q '(no band)'
    run --separate-stderr nx-run --study matmul --M 128 --K 128 --N 128 --dtype mxfp8 --target trn2
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"mm_128x128x128_mxfp8: dtype mxfp8: trn2 (NC-v3) has no MX matmul; trn3 (NC-v4) has"* ]]
    echo '{"kind":"workload","name":"e","op":"elementwise","opname":"exp","rows":128,"cols":128,"dtype":"mxfp8"}' >e.jsonl
    run --separate-stderr nx-run --target trn3 e.jsonl
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-run: e: dtype mxfp8 is a TensorE matmul input format; elementwise takes bf16, fp16, fp32 or fp8" ]
    run --separate-stderr nx-run --study matmul --dtype fp4 --plan
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"unknown dtype 'fp4' (known: bf16, fp16, fp32, fp8, mxfp8, mxfp4)"* ]]
}

@test "nx-run on sim: the error band comes from comparable calibration points only" {
    printf '%s\n' '{"kind":"workload","name":"va","op":"elementwise","opname":"add","rows":25600,"cols":1,"dtype":"fp32","shard":"none"}' \
        '{"kind":"workload","name":"va2","op":"elementwise","opname":"add","rows":25600,"cols":1,"dtype":"fp32"}' \
        '{"kind":"workload","name":"mm","op":"matmul","M":4096,"K":8192,"N":8192,"dtype":"bf16"}' >w.jsonl
    nx-run --target trn2 --timed 1 --warmup 0 w.jsonl >r.jsonl
    # The measured vector adds ran on one core of trn2's LNC=2: a band from those four.
    [ "$(jget r.jsonl 'r[0]["predicted"]["error_band_basis"]')" = "elementwise in fp32 on trn2 at LNC=2, on one physical core (4 points)" ]
    [ "$(jget r.jsonl 'r[0]["predicted"]["error_band_percent"] > 0')" = true ]
    # Sharded, or a trn2 matmul: nothing comparable was measured.
    [ "$(jget r.jsonl 'r[1]["predicted"]["error_band_basis"]')" = "no calibration point is a elementwise in fp32 on trn2 at LNC=2, sharded over 2 physical cores: no band" ]
    [ "$(jget r.jsonl '"error_band_percent" in r[2]["predicted"]')" = false ]
    nx-run --target trn1 --timed 1 --warmup 0 w.jsonl >t1.jsonl
    [ "$(jget t1.jsonl 'r[2]["predicted"]["error_band_basis"]')" = "matmul in bf16 on trn1 at LNC=1 (4 points)" ]
    # A dtype by another of its names is the same dtype.
    echo '{"kind":"workload","name":"mm","op":"matmul","M":4096,"K":8192,"N":8192,"dtype":"bfloat16"}' | nx-run --target trn1 --timed 1 --warmup 0 >alias.jsonl
    [ "$(jget alias.jsonl 'r[0]["predicted"]["error_band_basis"]')" = "matmul in bf16 on trn1 at LNC=1 (4 points)" ]
}

@test "nx-run on neuron: the LNC reaches the compiler and the runtime, one driver per LNC" {
    setup_neuron
    nx-run --backend neuron --target trn2 --study matmul --M 128 --K 128 --N 128 --lnc 1 --cache-dir cache >r.jsonl
    [ "$(jget r.jsonl 'r[0]["lnc"]')" = 1 ]
    grep -q 'neuronx-cc compile .* lnc=1$' calls
    printf '%s\n' '{"kind":"workload","name":"a","op":"matmul","M":128,"K":128,"N":256,"lnc":1}' \
        '{"kind":"workload","name":"b","op":"matmul","M":128,"K":128,"N":256,"lnc":2}' >w.jsonl
    nx-run --backend neuron --target trn2 --cache-dir cache w.jsonl >m.jsonl
    [ "$(jget m.jsonl '[(x["name"], x["lnc"]) for x in r]')" = '[["a", 1], ["b", 2]]' ]
    grep -q 'lnc=2$' calls
    # The same graph at another LNC is another compile, not a cache hit.
    [ "$(jget m.jsonl '[x["cached"] for x in r]')" = '[false, false]' ]
}

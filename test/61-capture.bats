#!/usr/bin/env bats
# nx-capture on each backend, and its output loading through nx-convert.

load test_helper

@test "nx-capture on sim: the model's device trace, loaded by nx-convert with the run's fields" {
    nx-run --study patterns --target trn2 --timed 2 --warmup 0 >runs.jsonl
    nx-capture --dir prof <runs.jsonl >captures.jsonl
    assert_jsonl captures.jsonl
    [ "$(jget captures.jsonl '[x["kind"] for x in r][0]')" = capture ]
    [ "$(jget captures.jsonl 'r[0]["profile"]')" = '{"format": "nx-jsonl", "path": "prof/vmap.sim.trn2.jsonl.gz"}' ]
    [ "$(jget captures.jsonl 'r[0]["latency_us"]["n"]')" = 2 ]
    # The profile file is gzip-compressed nx events, then its profile record.
    gzip -dc prof/vmap.sim.trn2.jsonl.gz | tail -n 1 | grep -q '"kind":"profile"'
    nx-convert --db s.db <captures.jsonl >profiles.jsonl
    [ "$(jget profiles.jsonl '[x["backend"] for x in r]')" = '["sim", "sim", "sim", "sim", "sim", "sim"]' ]
    [ "$(jget profiles.jsonl 'r[0]["format"]')" = sim-trace ]
    [ "$(jget profiles.jsonl 'r[0]["pattern"]')" = vmap ]
    [ "$(jget profiles.jsonl 'r[0]["metrics"]["tensor_engine_instruction_count"] > 0')" = true ]
    [ "$(sqlite3 s.db "SELECT count(DISTINCT engine) FROM slice WHERE profile_id = 1")" -ge 3 ]
    # A larger loop is a larger profile.
    [ "$(jget profiles.jsonl '[x["event_count"] for x in r if x["name"] == "for_loop_large"][0] > [x["event_count"] for x in r if x["name"] == "for_loop_small"][0]')" = true ]
}

@test "nx-capture on sim: the same run captures to the same profile, and re-loading replaces it" {
    nx-run --study matmul --M 256 --K 256 --N 512 --target trn1 --timed 1 --warmup 0 >runs.jsonl
    nx-capture --dir prof <runs.jsonl | nx-convert --db s.db >a.jsonl
    nx-capture --dir prof <runs.jsonl | nx-convert --db s.db >b.jsonl
    [ "$(jget a.jsonl 'r[0]["id"]')" = "$(jget b.jsonl 'r[0]["id"]')" ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 1 ]
    [ "$(jget a.jsonl 'r[0]["metrics"]')" = "$(jget b.jsonl 'r[0]["metrics"]')" ]
}

@test "nx-capture on cpu: an instrumented re-run records every op" {
    nx-run --study mlp --seq 8 --hidden 64 --intermediate 128 --backend cpu --timed 1 --warmup 0 >runs.jsonl
    nx-capture --dir prof <runs.jsonl | nx-convert >p.jsonl
    [ "$(jget p.jsonl 'r[0]["backend"]')" = cpu ]
    [ "$(jget p.jsonl 'r[0]["event_count"]')" = 5 ]
    [ "$(jget p.jsonl 'sorted(x["opcode"] for x in r[0]["top_opcodes"])')" = '["mul", "sgemm", "silu"]' ]
}

setup_neuron() {
    export PATH="$FAKES:$PATH" PYTHONPATH="$FAKES/python" FAKE_NEURON_LOG=$PWD/calls \
        FAKE_NEURON_PROFILE_JSON="$FIXTURES/small.json"
}

@test "nx-capture on neuron: neuron-profile capture on the run's NEFF, options passed through" {
    setup_neuron
    nx-run --backend neuron --target trn1 --study matmul --M 128 --K 128 --N 128 --cache-dir cache --timed 2 >runs.jsonl
    nx-capture --dir caps --num-exec 3 --profile-nth-exec 2 --single-io <runs.jsonl >captures.jsonl
    neff=$(jget runs.jsonl 'r[0]["artifacts"]["neff"]')
    grep -q -- "^neuron-profile capture -n $neff -s caps/mm_128x128x128_bf16.neuron.trn1.ntff --num-exec 3 --profile-nth-exec 2 --single-io" calls
    [ "$(jget captures.jsonl 'r[0]["profile"]["format"]')" = ntff ]
    [ "$(jget captures.jsonl 'r[0]["profile"]["neff"]')" = "$neff" ]
    # The settings travel with the profile: in its record, and a dataset's profiles table.
    [ "$(jget captures.jsonl 'r[0]["capture"]')" = '{"num_exec": 3, "profile_nth_exec": 2, "profiler_args": ["--single-io"]}' ]
    nx-convert --dataset ds <captures.jsonl >/dev/null
    [ "$(nx-query --dataset ds --sql 'SELECT capture_settings FROM profiles' --format csv | tail -n 1)" = \
        '"{""num_exec"":3,""profile_nth_exec"":2,""profiler_args"":[""--single-io""]}"' ]
    nx-convert --db s.db <captures.jsonl >p.jsonl
    [ "$(jget p.jsonl 'r[0]["capture"]["num_exec"]')" = 3 ]
    [ "$(jget p.jsonl 'r[0]["name"]')" = mm_128x128x128_bf16 ]
    [ "$(jget p.jsonl 'r[0]["backend"]')" = neuron ]
    [ "$(jget p.jsonl 'r[0]["event_count"]')" = 61 ]
    grep -q "view -n $neff -s caps/mm_128x128x128_bf16.neuron.trn1.ntff --output-format json" calls
}

@test "nx-capture on neuron: a multi-worker capture gives one capture record and one profile per rank" {
    setup_neuron
    nx-run --backend neuron --target trn1 --study matmul --M 128 --K 128 --N 128 --cache-dir cache --timed 1 >runs.jsonl
    nx-capture --dir caps --collectives-workers-per-node 2 --collectives-worker-start-id 4 <runs.jsonl >captures.jsonl
    [ "$(jget captures.jsonl '[x["profile"]["rank"] for x in r]')" = "[4, 5]" ]
    [ -f caps/mm_128x128x128_bf16.neuron.trn1/profile_rank_4.ntff ]
    nx-convert --db s.db <captures.jsonl >p.jsonl
    [ "$(jget p.jsonl '[x["rank"] for x in r]')" = "[4, 5]" ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 2 ]
    # A later capture with fewer workers does not pick up the earlier ranks.
    nx-capture --dir caps --collectives-workers-per-node 1 <runs.jsonl >again.jsonl
    [ "$(jget again.jsonl '[x["profile"]["rank"] for x in r]')" = "[0]" ]
    [ ! -e caps/mm_128x128x128_bf16.neuron.trn1/profile_rank_4.ntff ]
}

@test "nx-capture: the same workload on two targets or two variants gets two files" {
    nx-run --study matmul --M 256 --K 256 --N 512 --target trn1 --timed 1 --warmup 0 >runs.jsonl
    nx-run --study matmul --M 256 --K 256 --N 512 --target trn2 --timed 1 --warmup 0 >>runs.jsonl
    nx-run --study matmul --M 256 --K 256 --N 512 --target trn1 --variant naive --timed 1 --warmup 0 >>runs.jsonl
    nx-capture --dir prof <runs.jsonl >captures.jsonl
    [ "$(jget captures.jsonl '[x["profile"]["path"] for x in r]')" = \
      '["prof/mm_256x256x512_bf16.sim.trn1.jsonl.gz", "prof/mm_256x256x512_bf16.sim.trn2.jsonl.gz", "prof/mm_256x256x512_bf16.naive.sim.trn1.jsonl.gz"]' ]
    nx-convert --db s.db <captures.jsonl >/dev/null
    [ "$(sqlite3 s.db 'SELECT count(DISTINCT id) FROM profile')" = 3 ]
}

@test "nx-capture: failures are named; --keep-going captures the rest" {
    setup_neuron
    nx-run --backend neuron --target trn1 --study matmul --M 128,256 --K 128 --N 128 --cache-dir cache --timed 1 >runs.jsonl
    FAKE_NEURON_FAIL=capture run --separate-stderr nx-capture --dir caps <runs.jsonl
    [ "$status" -eq 1 ]
    [[ "$stderr" == "nx-capture: <stdin>:1: mm_128x128x128_bf16: "*"capture failed (exit 1): ERRO[0000] nrt_execute failed"* ]]
    python3 -c '
import json, sys
rs = [json.loads(l) for l in open("runs.jsonl")]
rs[0]["artifacts"] = {}
print("\n".join(json.dumps(r) for r in rs))' >broken.jsonl
    run --separate-stderr nx-capture --dir caps --keep-going broken.jsonl
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"broken.jsonl:1: mm_128x128x128_bf16: the run record names no NEFF (artifacts.neff) to capture"* ]]
    [[ "$stderr" == *"1 of 2 captures failed"* ]]
    [ "$(jget - '[x["name"] for x in r]' <<<"$output")" = '["mm_256x128x128_bf16"]' ]
    echo '{"kind":"workload","name":"w","op":"matmul"}' | { run nx-capture; [ "$status" -eq 1 ]; [[ "$output" == *'expected run records, got "workload"'* ]]; }
    run nx-capture --num-exec 2 --profile-nth-exec 3 </dev/null
    [ "$status" -eq 2 ]
    # A record naming an unknown target is that record's failure, not a usage error.
    nx-run --study matmul --M 128 --K 128 --N 128 --timed 1 --warmup 0 >sim.jsonl
    sed 's/"target":"trn2"/"target":"trn9"/' sim.jsonl >bad-target.jsonl
    cat sim.jsonl >>bad-target.jsonl
    run --separate-stderr nx-capture --dir prof --keep-going bad-target.jsonl
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"bad-target.jsonl:1: mm_128x128x128_bf16: "*"trn9"* ]]
    [ "$(jget - 'len(r)' <<<"$output")" = 1 ]
}

#!/usr/bin/env bats
# nx-convert on bad input: every importer, every kind of damage.  Each gives
# "nx-convert: FILE:LINE: message", exit 1, and leaves the database as it was;
# --keep-going skips bad records, counts them, loads the rest.

load test_helper

# A database holding one good profile, and its digest.
setup() {
    cd "$BATS_TEST_TMPDIR" || return 1
    nx-convert --db s.db "$FIXTURES/small.json" >/dev/null
    before=$(db_digest s.db)
}

# expect_bad FILE LINE TEXT [FORMAT]: the import fails naming FILE:LINE and
# TEXT, exit 1, nothing on stdout, and the database is unchanged.
expect_bad() {
    local file=$1 line=$2 text=$3 format=${4:-}
    run --separate-stderr nx-convert --db s.db ${format:+--format "$format"} "$file"
    echo "status=$status stderr=$stderr" >&2
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "nx-convert: $file:$line: "*"$text"* ]]
    [ "$(db_digest s.db)" = "$before" ]
    sqlite3 s.db 'PRAGMA integrity_check' | grep -qx ok
}

@test "malformed neuron-json: empty file" {
    : >empty.json
    expect_bad empty.json 1 "empty input"
}

@test "malformed neuron-json: truncated JSON names the line it stopped at" {
    head -c 600 "$FIXTURES/small.json" >trunc.json
    expect_bad trunc.json "$(wc -l <trunc.json | awk '{print $1 + 1}')" "invalid JSON"
}

@test "malformed neuron-json: wrong types" {
    printf '{"instruction": [\n {"timestamp": "soon", "duration": 2, "label": "Vector"}\n]}\n' >types.json
    expect_bad types.json 2 'expected a number for "timestamp" in "instruction"'
    printf '{"dma": [\n {"timestamp": 1, "duration": 2, "subgroup": "q0", "transfer_size": [1]}\n]}\n' >types2.json
    expect_bad types2.json 2 'expected a number for "transfer_size"'
    printf '{"instruction": [\n 42\n]}\n' >scalar.json
    expect_bad scalar.json 2 'expected an object, got a scalar'
}

@test "malformed neuron-json: missing required fields" {
    printf '{"instruction": [\n {"timestamp": 1, "label": "Vector"}\n]}\n' >missing.json
    expect_bad missing.json 2 'missing "duration"'
    printf '{"instruction": [\n {"duration": 1, "label": "Vector"}\n]}\n' >missing2.json
    expect_bad missing2.json 2 'missing "timestamp"'
}

@test "malformed neuron-json: negative, huge and NaN numbers" {
    printf '{"instruction": [\n {"timestamp": 1, "duration": -5, "label": "Vector"}\n]}\n' >neg.json
    expect_bad neg.json 2 'negative "duration"'
    printf '{"instruction": [\n {"timestamp": 1e30, "duration": 5}\n]}\n' >huge.json
    expect_bad huge.json 2 '"timestamp" out of range'
    printf '{"instruction": [\n {"timestamp": 18446744073709551615, "duration": 5}\n]}\n' >huge2.json
    expect_bad huge2.json 2 '"timestamp" out of range'
    printf '{"instruction": [\n {"timestamp": 1, "duration": NaN}\n]}\n' >nan.json
    expect_bad nan.json 2 '"duration" is not a finite number'
    printf '{"instruction": [\n {"timestamp": 1, "duration": 2, "flops": -Infinity, "label": "TensorMatrix"}\n]}\n' >inf.json
    expect_bad inf.json 2 '"flops" is not a finite number'
}

@test "malformed neuron-json: invalid UTF-8" {
    printf '{"instruction": [\n {"timestamp": 1, "duration": 2, "label": "Vec\xff\xfetor"}\n]}\n' >utf8.json
    expect_bad utf8.json 2 "invalid UTF-8"
    printf '{"instr\xc3\x28": []}\n' >utf8key.json
    expect_bad utf8key.json 1 "invalid UTF-8" neuron-json
}

@test "malformed input: not JSON at all, and binary junk" {
    echo "hello world" >notjson.json
    expect_bad notjson.json 1 "cannot tell its format"
    # Fixed junk (a seeded generator): random bytes that happen to start like a
    # Perfetto protobuf get that message instead, without a line (1 run in ~300).
    python3 -c "import random, sys; r = random.Random(7); sys.stdout.buffer.write(bytes([0xff] + [r.randrange(256) for _ in range(1999)]))" >junk.bin
    expect_bad junk.bin 1 ""
    echo "hello world" >forced.json
    expect_bad forced.json 1 "invalid JSON" neuron-json
}

@test "malformed input: a gzip cut short names the line reached" {
    python3 -c "
import gzip, json
recs = [{'timestamp': i * 100, 'duration': 50, 'label': 'Vector', 'opcode': 'X' * 50} for i in range(20000)]
data = ('{\"instruction\": [\n' + ',\n'.join(json.dumps(r) for r in recs) + '\n]}\n').encode()
open('big.json.gz', 'wb').write(gzip.compress(data)[:30000])
"
    run --separate-stderr nx-convert --db s.db big.json.gz
    [ "$status" -eq 1 ]
    [[ "$stderr" =~ ^nx-convert:\ big\.json\.gz:[0-9]+:\ truncated\ gzip\ data ]]
    [ "$(db_digest s.db)" = "$before" ]
    # 100 bytes of gzip hold "{\n  \"summary": the stream ends on line 2.
    head -c 100 <(gzip -c "$FIXTURES/small.json") >tiny.json.gz
    expect_bad tiny.json.gz 2 "truncated gzip data"
}

@test "malformed summary-json, system-json, chrome-json and nx-jsonl name file and line" {
    printf '{"n_1": {"total_time": 0.5},\n "n_2": {"total_time": 0.2\n' >sum.json
    expect_bad sum.json 3 "invalid JSON" summary-json
    printf '{"trace_events": [\n {"name": "nrt_execute", "timestamp": "late", "duration": 5}\n]}\n' >sys.json
    expect_bad sys.json 2 'expected a number for "timestamp"'
    printf '{"traceEvents": [\n {"ph": "X", "name": "a", "ts": 1, "dur": -3, "pid": 1, "tid": 1}\n]}\n' >chrome.json
    expect_bad chrome.json 2 'negative "dur"'
    printf '[\n {"ph": "E", "pid": 1, "tid": 1, "ts": 5}\n]\n' >chrome2.json
    expect_bad chrome2.json 2 '"E" event without a matching "B"'
    printf '{"traceEvents": [\n {"name": "a", "ts": 1}\n]}\n' >chrome3.json
    expect_bad chrome3.json 2 'missing "ph"'
    printf '{"kind":"event","profile":"p_1","type":"instruction","track":"Vector","engine":"vector","ts_ns":1,"dur_ns":2,"name":"x"}\n{"kind":"event","profile":"p_1","ts_ns":"x"}\n' >ev.jsonl
    expect_bad ev.jsonl 2 'expected a number for "ts_ns"'
    printf '{"kind":"event","profile":"p_1","ts_ns":1,"engine":"warp"}\n' >ev2.jsonl
    expect_bad ev2.jsonl 1 'unknown "engine" "warp"'
}

@test "--keep-going skips bad records, counts them on stderr, loads the good ones, exits 1" {
    printf '{"instruction": [\n {"timestamp": 1, "duration": 2, "label": "Vector", "opcode": "A"},\n {"timestamp": "x", "duration": 2, "label": "Vector"},\n {"timestamp": 5, "duration": -1, "label": "Vector"},\n {"timestamp": 9, "duration": 3, "label": "Vector", "opcode": "B"}\n]}\n' >mixed.json
    run --separate-stderr nx-convert --db s.db --keep-going mixed.json
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"mixed.json:3: warning: skipped record: expected a number for \"timestamp\""* ]]
    [[ "$stderr" == *"mixed.json:4: warning: skipped record: negative \"duration\""* ]]
    [[ "$stderr" == *"nx-convert: skipped 2 bad records"* ]]
    echo "$output" >out.jsonl
    [ "$(jget out.jsonl 'r[0]["event_count"]')" = 2 ]
    [ "$(sqlite3 s.db "SELECT count(*) FROM profile WHERE name = 'mixed'")" = 1 ]
    # The profile keeps its own counts: in its record, the database's copy and the report.
    [ "$(jget out.jsonl 'r[0]["import_errors"]["bad_record"]')" = 2 ]
    [ "$(sqlite3 s.db "SELECT json_extract(record, '$.import_errors.bad_record') FROM profile WHERE name = 'mixed'")" = 2 ]
    run nx-report -f text out.jsonl
    [[ "$output" == *"import: skipped 2 bad records (--keep-going); the figures leave them out"* ]]
    # A clean profile has none.
    printf '{"instruction": [\n {"timestamp": 1, "duration": 2, "label": "Vector", "opcode": "A"}\n]}\n' >clean.json
    nx-convert clean.json >clean.jsonl
    [ "$(jget clean.jsonl '"import_errors" in r[0]')" = false ]
}

@test "--keep-going: every tool names the first five of a kind, counts the rest, and exits 1 (error counters)" {
    { echo '{"instruction": ['
      echo ' {"timestamp": 1, "duration": 2, "label": "Vector", "opcode": "A"}'
      for i in 1 2 3 4 5 6 7; do echo ',{"timestamp": "x", "duration": 2, "label": "Vector"}'; done
      echo ']}'; } >many.json
    run --separate-stderr nx-convert --keep-going many.json
    [ "$status" -eq 1 ]
    [ "$(grep -c 'warning: skipped record' <<<"$stderr")" = 5 ]
    [[ "$stderr" == *"nx-convert: skipped 7 bad records"* ]]
    # The same counter and wording in nx-report and nx-run.
    { for i in 1 2 3 4 5 6; do echo 'not json'; done; echo '{"kind":"row","a":1}'; } >recs.jsonl
    run --separate-stderr nx-report --keep-going --format tsv recs.jsonl
    [ "$status" -eq 1 ]
    [ "$(grep -c 'warning: skipped record' <<<"$stderr")" = 5 ]
    [[ "$stderr" == *"nx-report: skipped 6 bad records"* ]]
    run --separate-stderr nx-run --keep-going --backend sim recs.jsonl
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"nx-run: skipped 7 bad records"* ]]
}

@test "--keep-going skips an unreadable input and keeps the others" {
    echo '{"instruction": [' >broken.json
    run --separate-stderr nx-convert --db s.db --keep-going broken.json "$FIXTURES/small_slow.json"
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"broken.json:2: invalid JSON"* ]]
    [[ "$stderr" == *"skipped 1 of 2 inputs"* ]]
    [ "$(sqlite3 s.db "SELECT count(*) FROM profile WHERE name = 'small_slow'")" = 1 ]
    [ "$(sqlite3 s.db "SELECT count(*) FROM profile WHERE name = 'broken'")" = 0 ]
}

@test "a bad input among good ones fails the whole load without --keep-going" {
    echo '{"instruction": [' >broken.json
    run nx-convert --db s.db "$FIXTURES/small_slow.json" broken.json
    [ "$status" -eq 1 ]
    [ "$(db_digest s.db)" = "$before" ]
}

@test "a file that is not a study database is refused, and left alone" {
    echo "not a database" >notdb.db
    run nx-convert --db notdb.db "$FIXTURES/small.json"
    [ "$status" -eq 1 ]
    [[ "$output" == *"notdb.db"* ]]
    [ "$(cat notdb.db)" = "not a database" ]
}

@test "malformed run records (history): no name, latency_us not an object, a count that is not whole" {
    good='{"kind":"run","study":"s","name":"a","backend":"sim","target":"trn1","latency_us":{"median":1,"n":2}}'
    printf '%s\n%s\n' "$good" '{"kind":"run","study":"s","backend":"sim"}' >noname.jsonl
    expect_bad noname.jsonl 2 'run record without a "name"'
    printf '%s\n' '{"kind":"run","study":"s","name":"a","latency_us":5}' >lat.jsonl
    expect_bad lat.jsonl 1 'expected an object for "latency_us"'
    printf '%s\n' '{"kind":"run","study":"s","name":"a","latency_us":{"median":1,"n":1e300}}' >n.jsonl
    expect_bad n.jsonl 1 'expected a whole count for "latency_us.n"'
    # --keep-going loads the good record; loading it again adds no row.
    run --separate-stderr nx-convert --db s.db --keep-going noname.jsonl
    [ "$status" -eq 1 ]
    nx-convert --db s.db --keep-going noname.jsonl >/dev/null 2>&1 || true
    [ "$(sqlite3 s.db 'SELECT count(*) FROM run')" = 1 ]
}

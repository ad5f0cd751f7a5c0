#!/usr/bin/env bats
# nx-query: named queries, SQL text and files, parameters, formats, the
# Perfetto-style views and REGEXP, several databases, read-only protection.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR" || return 1
    nx-convert --db s.db --target trn1 "$FIXTURES/small.json" >/dev/null
}

@test "nx-query --list shows every named query with its description" {
    run nx-query --list --format tsv
    [ "$status" -eq 0 ]
    # Every file of queries/ is listed, with the description its header gives.
    n=0
    for f in "$NX_ROOT"/queries/*.sql; do
        q=$(basename "$f" .sql)
        [[ "$output" == *$'\n'"$q"$'\t'* ]] || { echo "not listed: $q"; false; }
        n=$((n + 1))
    done
    [ "$n" -ge 13 ]
    [ "$(echo "$output" | tail -n +2 | wc -l)" -eq "$n" ]
    [[ "$output" == *"union of intervals"* ]]
}

@test "every named query runs on a loaded database and gives its documented columns" {
    for q in $(nx-query --list --format tsv | tail -n +2 | cut -f1); do
        cols=$(nx-query --list --format tsv | awk -F'\t' -v q="$q" '$1 == q {print $4}')
        run --separate-stderr nx-query --db s.db "$q" --format tsv
        [ "$status" -eq 0 ] || { echo "$q: $stderr"; false; }
        # An empty result still names its columns (the first line).
        [ "$(echo "$output" | head -n 1 | tr '\t' ',')" = "$(echo "$cols" | tr -d ' ')" ] || {
            echo "$q: columns $(echo "$output" | head -n 1) vs documented $cols"; false; }
    done
}

@test "nx-query engine_utilization: busy time is the union of intervals" {
    run nx-query --db s.db engine_utilization --format csv
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "profile,engine,instructions,busy_ns,active_percent,mean_dur_ns" ]
    # 8 matmuls of 100 ns, none overlapping: 800 ns of total_time 4 us = 20%.
    [[ "$output" == *"small,tensor_matrix,8,800,20,100"* ]]
    # 12 DMA transfers of 150 ns, 250 ns apart: 1800 ns.
    [[ "$output" == *"small,dma,12,1800,45,150"* ]]
    # A semaphore wait lasts as long as the engine idles: the mean is of the
    # work (40 and 80 ns: 60), the count of every instruction.
    cat >w.json <<'JSON'
{"instruction": [
 {"timestamp": 0, "duration": 5000, "label": "Vector", "opcode": "EVENT_SEMAPHORE"},
 {"timestamp": 5000, "duration": 40, "label": "Vector", "opcode": "TENSOR_TENSOR"},
 {"timestamp": 5040, "duration": 80, "label": "Vector", "opcode": "TENSOR_TENSOR"}]}
JSON
    nx-convert --db w.db w.json >/dev/null
    [[ "$(nx-query --db w.db engine_utilization --format csv)" == *"w,vector,3,120,2.34,60"* ]]
    [[ "$(nx-report --db w.db --format text)" == *"3 instr (1 semaphore wait), mean 60 ns"* ]]
    # The profile record carries the work beside the plain sum; a record
    # without it (written before nx kept it) is shown with the plain mean.
    nx-convert w.json >w.jsonl
    [ "$(jget w.jsonl '[(e["instructions"], e["busy_sum_ns"], e["work_instructions"], e["work_sum_ns"]) for e in r[0]["engines"]]')" = "[[3, 5120, 2, 120]]" ]
    python3 -c "import json; r=json.load(open('w.jsonl')); [e.pop(k) for e in r['engines'] for k in ('work_instructions', 'work_sum_ns')]; print(json.dumps(r))" >old.jsonl
    [[ "$(nx-report --format text old.jsonl)" == *"3 instr, mean 1.71 us (semaphore waits included)"* ]]
}

@test "nx-query engine_summary: the sums stored at import are those a scan of the events gives" {
    # JSON, an LNC=2 profile, a Chrome trace and Explorer profiles (one with
    # the profiler's own busy intervals), into one database.  (The Explorer
    # profiles nx imported before issue 44: its drifted ones are not all
    # nx reads yet.)
    nx-convert --db e.db "$FIXTURES/small.json" "$FIXTURES/lnc2.json" "$FIXTURES/kineto.json" \
        "$FIXTURES"/parquet/explorer/{collective,deps,kernel,matmul,schema12,schema99}@latest >/dev/null
    q="SELECT p.name, s.* FROM profile p, engine_summary(p.id) s ORDER BY p.name, s.engine"
    nx-query --db e.db --format csv --sql "$q" >stored.csv
    [ "$(sqlite3 e.db "SELECT count(DISTINCT profile_id) FROM engine_stat")" -ge 8 ]
    # Without the stored rows (a database an older nx wrote) the events are scanned.
    nx-query --db e.db --write --sql "DELETE FROM engine_stat" >/dev/null
    nx-query --db e.db --format csv --sql "$q" >scanned.csv
    [ "$(wc -l <stored.csv)" -gt 20 ]
    cmp stored.csv scanned.csv
}

@test "nx-query engine_overlap: pairs of engines busy at once, from a sweep" {
    cat >o.json <<'JSON'
{"instruction": [
 {"timestamp": 0, "duration": 100, "label": "TensorMatrix", "opcode": "MATMUL"},
 {"timestamp": 50, "duration": 100, "label": "Vector", "opcode": "ADD"},
 {"timestamp": 120, "duration": 60, "label": "Scalar", "opcode": "ACT"}],
 "dma": [{"timestamp": 0, "duration": 300, "subgroup": "qSyncIO0", "transfer_size": 64}]}
JSON
    nx-convert --db o.db o.json >/dev/null
    run nx-query --db o.db engine_overlap --format csv
    [ "$status" -eq 0 ]
    # TensorMatrix [0,100), Vector [50,150), Scalar [120,180), DMA [0,300).
    [[ "$output" == *"o,dma,tensor_matrix,100,"* ]]
    [[ "$output" == *"o,dma,vector,100,"* ]]
    [[ "$output" == *"o,dma,scalar,60,"* ]]
    [[ "$output" == *"o,tensor_matrix,vector,50,50,50"* ]]
    [[ "$output" == *"o,scalar,vector,30,50,30"* ]]
    run nx-query --db o.db dma_vs_compute --format csv
    # compute busy [0,180) = 180, all of it under DMA; DMA alone [180,300) = 120.
    [ "${lines[1]}" = "o,300,180,180,120,0,0,60" ]
}

@test "nx-query timeline: N buckets per engine whose busy time adds up" {
    run nx-query --db s.db timeline --param buckets=10 --format csv
    [ "$status" -eq 0 ]
    [ "$(grep -c '^small,tensor_matrix,' <<<"$output")" = 10 ]
    total=$(grep '^small,tensor_matrix,' <<<"$output" | awk -F, '{s += $6} END {print s}')
    [ "$total" = 800 ]
    run nx-query --db s.db timeline --param buckets=0
    [ "$status" -eq 1 ]
    [[ "$output" == *"buckets must be between 1 and"* ]]
}

@test "nx-query: top_opcodes, dma_activity, layer_breakdown, profiles and metrics run" {
    run nx-query --db s.db top_opcodes --param limit=2 --format csv
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" = 3 ]
    [[ "${lines[1]}" == "small,tensor_matrix,MATMUL,8,800,100,"* ]]
    run nx-query --db s.db dma_activity --format csv
    [[ "$output" == *"small,qSyncIO1,4,16384,4096,600,27.307"* ]]
    run nx-query --db s.db layer_breakdown --format csv
    [[ "$output" == *"model/layers.0/mlp"* ]]
    run nx-query --db s.db profiles --format csv
    [[ "${lines[1]}" == small,p_*,neuron-json,neuron,trn1,61,4e-06,41,12,* ]]
    run nx-query --db s.db metrics --param metric='dma%' --format csv
    [[ "$output" == *"small,dma_transfer_count,12,count,derived"* ]]
}

@test "nx-query: SQL written for Perfetto's trace processor runs unchanged" {
    run nx-query --db s.db --format csv --sql "SELECT name, COUNT(*), AVG(dur) FROM slice WHERE name REGEXP 'MATMUL|TENSOR' GROUP BY name ORDER BY name"
    [ "$status" -eq 0 ]
    [ "${lines[1]}" = "MATMUL,8,100" ]
    [ "${lines[2]}" = "TENSOR_TENSOR,8,60" ]
    run nx-query --db s.db --format csv --sql "SELECT t.name, COUNT(*) FROM slice s JOIN track t ON s.track_id = t.id GROUP BY t.name ORDER BY t.name LIMIT 2"
    [ "${lines[1]}" = "GpSimd,8" ]
    run nx-query --db s.db --format csv --sql "SELECT key, int_value FROM args WHERE key = 'args.pc' ORDER BY arg_set_id LIMIT 1"
    [ "${lines[1]}" = "args.pc,0" ]
}

@test "nx-query: args are the trace's arguments keyed as Perfetto keys Chrome args ('args.NAME')" {
    # Every argument of nx's Chrome trace of the profile, slice by slice, is
    # the args view's arg set of that slice (Perfetto's JSON importer would
    # read the trace's args object the same way).
    nx-convert --to chrome-json "$FIXTURES/small.json" >trace.json
    python3 - s.db trace.json <<'PY'
import collections, json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
trace = json.load(open(sys.argv[2]))
def value(v):
    return json.dumps(v) if isinstance(v, (list, dict)) else str(v)
want = collections.Counter(
    (e["name"], e["ts"], tuple(sorted(("args." + k, value(v)) for k, v in e["args"].items())))
    for e in trace["traceEvents"] if e["ph"] == "X")
got = collections.Counter()
for name, ts, arg_set in db.execute("SELECT name, ts, arg_set_id FROM slice"):
    args = db.execute("SELECT key, COALESCE(int_value, string_value, real_value) FROM args WHERE arg_set_id = ?", (arg_set,))
    got[(name, ts / 1000, tuple(sorted((k, value(v)) for k, v in args)))] += 1
assert got == want, (list((got - want).items())[:2], list((want - got).items())[:2])
assert len(want) == 61
PY
    [ "$(sqlite3 s.db "SELECT group_concat(key, ' ') FROM args WHERE arg_set_id = (SELECT id FROM slice WHERE name = 'MATMUL' ORDER BY ts LIMIT 1)")" = \
      "args.opcode args.hlo_name args.layer args.operands args.inst_dep_ids args.pc args.id" ]
}

@test "nx-query: every field of a neuron-profile instruction is a column or an argument" {
    printf '%s\n' '{"instruction": [{"timestamp": 10, "duration": 5, "label": "Tensor", "subgroup": "TensorE",' \
        '"opcode": "LoadStationary", "name": "ls.1", "instruction_type": "TRANSPOSE", "pc": 3}],' \
        '"dma": [{"timestamp": 12, "duration": 4, "subgroup": "qSyncIO0", "label": "DMA", "transfer_size": 64}]}' >p.json
    nx-convert --db p.db p.json >/dev/null
    [ "$(sqlite3 p.db "SELECT s.name, s.track_name, s.ts, s.dur, (SELECT group_concat(kv, ' ') FROM (SELECT a.key || '=' || COALESCE(a.int_value, a.string_value) AS kv FROM args a WHERE a.arg_set_id = s.arg_set_id ORDER BY a.key)) FROM slice s ORDER BY s.ts")" = \
      "$(printf '%s\n' 'LoadStationary|Tensor|10|5|args.instruction_type=TRANSPOSE args.name=ls.1 args.opcode=LoadStationary args.pc=3 args.subgroup=TensorE' \
                       'dma|qSyncIO0|12|4|args.bytes=64 args.label=DMA')" ]
}

@test "nx-query: REGEXP uses RE2: long inputs and hostile patterns do not crash" {
    run nx-query --db s.db --format csv --sql "SELECT length(x) REGEXP '^[0-9]+$' FROM (SELECT printf('%.*c', 200000, 'a') AS x)"
    [ "$status" -eq 0 ]
    run nx-query --db s.db --format csv --sql "SELECT printf('%.*c', 100000, 'a') REGEXP '(a*)*b'"
    [ "$status" -eq 0 ]
    [ "${lines[1]}" = 0 ]
    run nx-query --db s.db --sql "SELECT 'x' REGEXP '(unclosed'"
    [ "$status" -eq 1 ]
    [[ "$output" == *"invalid regular expression"* ]]
}

@test "nx-query: --param binds numbers and text; a parameter the query lacks is an error" {
    run nx-query --db s.db --format csv --sql "SELECT :n + 1, :s || '!', typeof(:f)" -p n=41 -p s=hi -p f=2.5
    [ "${lines[1]}" = "42,hi!,real" ]
    run nx-query --db s.db --sql "SELECT 1" -p nope=1
    [ "$status" -eq 1 ]
    [[ "$output" == *"the query has no parameter :nope"* ]]
    run nx-query --db s.db --sql "SELECT 1" -p novalue
    [ "$status" -eq 2 ]
}

@test "nx-query --file runs every statement of a SQL file" {
    printf -- '-- two results\nSELECT 1 AS a;\nSELECT 2 AS b, 3 AS c;\n' >q.sql
    run nx-query --db s.db --file q.sql --format jsonl
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = '{"a":1}' ]
    [ "${lines[1]}" = '{"b":2,"c":3}' ]
}

@test "nx-query output formats: jsonl, csv, tsv, markdown, table" {
    sql="SELECT 'a,b' AS t, 1.5 AS x, NULL AS n, 7 AS i"
    run nx-query --db s.db --sql "$sql" --format jsonl
    [ "$output" = '{"t":"a,b","x":1.5,"n":null,"i":7}' ]
    run nx-query --db s.db --sql "$sql" --format csv
    [ "${lines[1]}" = '"a,b",1.5,,7' ]
    run nx-query --db s.db --sql "SELECT 'a	b' AS t" --format tsv
    [ "${lines[1]}" = 'a\tb' ]
    run nx-query --db s.db --sql "$sql" --format markdown
    [ "${lines[0]}" = "| t | x | n | i |" ]
    [ "${lines[2]}" = "| a,b | 1.5 |  | 7 |" ]
    run nx-query --db s.db --sql "$sql" --format table
    [ "${lines[0]}" = "t      x  n  i" ]
    # Not a terminal: jsonl by default.
    run nx-query --db s.db --sql "SELECT 1 AS one"
    [ "$output" = '{"one":1}' ]
    run nx-query --db s.db --sql "SELECT 1" --format yaml
    [ "$status" -eq 2 ]
}

@test "nx-query without --write cannot change the database, whatever the SQL" {
    before=$(db_digest s.db)
    for sql in "DELETE FROM event" "DROP TABLE profile" "UPDATE metric SET value = 0" \
               "INSERT INTO meta VALUES ('x', 'y')" "CREATE TABLE t(a)" "CREATE TEMP TABLE t(a)" \
               "PRAGMA query_only = 0" "PRAGMA writable_schema = 1" "ATTACH 'other.db' AS o" \
               "VACUUM INTO 'copy.db'" "PRAGMA journal_mode = DELETE" "SELECT 1; DELETE FROM event"; do
        run --separate-stderr nx-query --db s.db --sql "$sql"
        echo "$sql -> $status $stderr"
        [ "$status" -eq 1 ]
        [[ "$stderr" == *"read-only"* || "$stderr" == *"may not be modified"* ]]
    done
    [ "$(db_digest s.db)" = "$before" ]
    [ ! -e other.db ]
    [ ! -e copy.db ]
    [ "$(sqlite3 s.db 'PRAGMA journal_mode')" = wal ]
}

@test "nx-query --write lets SQL change the database" {
    run nx-query --db s.db --write --sql "UPDATE profile SET name = 'renamed'"
    [ "$status" -eq 0 ]
    [ "$(sqlite3 s.db 'SELECT name FROM profile')" = renamed ]
    run nx-query --db s.db --db s.db --write --sql "SELECT 1"
    [ "$status" -eq 2 ]
}

@test "nx-query over several databases: tables merged, ids kept apart" {
    nx-convert --db t.db --target trn1 "$FIXTURES/small_slow.json" >/dev/null
    run nx-query --db s.db --db t.db profiles --format csv
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" = 3 ]
    run nx-query --db s.db --db t.db engine_utilization --format csv --param profile=small_slow
    [[ "$output" == *"small_slow,tensor_matrix,8,1440,"* ]]
    run nx-query --db s.db --db t.db compare_profiles --format csv -p a=small -p b=small_slow
    [[ "$output" == *"total_time,s,4e-06,6e-06,1.5,50,small,small_slow"* ]]
    run nx-query --db s.db --db t.db --format csv --sql "SELECT count(*), count(DISTINCT id) FROM slice"
    [ "${lines[1]}" = "122,122" ]
}

@test "nx-query: usage and data errors have the documented exit status" {
    run nx-query engine_utilization
    [ "$status" -eq 2 ]
    [[ "$output" == *"--db FILE (or --dataset DIR) is required"* ]]
    run nx-query --db s.db
    [ "$status" -eq 2 ]
    run nx-query --db s.db no_such_query
    [ "$status" -eq 2 ]
    [[ "$output" == *"no named query 'no_such_query'"* ]]
    run nx-query --db s.db --sql "SELEC 1"
    [ "$status" -eq 1 ]
    [[ "$output" == "nx-query: --sql: near \"SELEC\": syntax error" ]]
    run nx-query --db missing.db --sql "SELECT 1"
    [ "$status" -eq 1 ]
    [[ "$output" == "nx-query: missing.db: cannot open database"* ]]
    echo junk >junk.db
    run nx-query --db junk.db --sql "SELECT 1"
    [ "$status" -eq 1 ]
    [[ "$output" == "nx-query: junk.db: not an nx study database"* ]]
}

@test "nx-query: a closed downstream pipe ends quietly" {
    run bash -c "nx-query --db s.db --sql 'SELECT * FROM event, event AS b' | head -n 1 >/dev/null; echo \${PIPESTATUS[0]}"
    [ "$output" = 0 ]
}

@test "nx-query: a recursive query that never ends is stopped at --timeout (an hour unless given), exit 1" {
    run nx-query --help
    [[ "$(echo $output)" == *"default 3600, 0: no limit"* ]]
    never='WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c'
    run timeout 60 nx-query --db s.db --timeout 1 --sql "$never"
    [ "$status" -eq 1 ]
    [[ "$output" == "nx-query: --sql: stopped: the query ran longer than --timeout 1 s (a recursive query that never ends? --timeout 0 lifts the limit)" ]]
    # The streaming form (rows printed as they come) stops the same way.
    timeout 60 nx-query --db s.db --timeout 1 --format csv \
        --sql 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c' >rows.csv 2>err.txt && false
    [ "$?" -eq 1 ]
    [[ "$(cat err.txt)" == *"stopped: the query ran longer than --timeout 1 s"* ]]
}

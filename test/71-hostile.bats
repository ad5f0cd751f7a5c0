#!/usr/bin/env bats
# Hostile inputs and unlucky users (issue 11): outputs never replace inputs or
# databases, refused databases are left byte-identical, deep JSON is an error
# and not a crash, read-only SQL stays read-only, paths in records stay inside
# the allowed root, outputs keep modes and escape per format, and limits hold.

load test_helper

# A study database with the small fixture, and its digest.
small_db() {
    nx-convert --db s.db "$FIXTURES/small.json" >/dev/null
}

# --- data loss -------------------------------------------------------------

@test "nx-report -o naming the --db it reads is refused and the database stays whole" {
    small_db
    before=$(md5sum <s.db)
    run -1 nx-report --db s.db -o s.db
    [[ "$output" == *"nx-report: s.db: refusing to overwrite the database s.db with the output"* ]]
    [ "$(md5sum <s.db)" = "$before" ]
    [ "$(sqlite3 s.db 'PRAGMA integrity_check')" = ok ]
}

@test "nx-convert -o naming its --db, its -wal file or an input is refused" {
    small_db
    run -1 nx-convert --db s.db --to chrome-json -o s.db "$FIXTURES/small.json"
    [[ "$output" == *"refusing to overwrite the database s.db"* ]]
    [ "$(sqlite3 s.db 'PRAGMA integrity_check')" = ok ]
    run -1 nx-convert --db s.db --to chrome-json -o s.db-wal "$FIXTURES/small.json"
    [[ "$output" == *"refusing to overwrite the wal file of the database s.db"* ]]
    cp "$FIXTURES/small.json" p.json
    run -1 nx-convert --to chrome-json -o p.json p.json
    [[ "$output" == *"nx-convert: p.json: refusing to overwrite the input p.json with the output"* ]]
    cmp p.json "$FIXTURES/small.json"
}

@test "an output that is an input through a symlink, a hard link or stdin is refused" {
    nx-convert "$FIXTURES/small.json" >r.jsonl
    cp r.jsonl keep.jsonl
    ln -s r.jsonl sym.jsonl
    ln r.jsonl hard.jsonl
    run -1 nx-report r.jsonl -o r.jsonl
    [[ "$output" == *"refusing to overwrite the input r.jsonl"* ]]
    run -1 nx-report r.jsonl -o sym.jsonl
    [[ "$output" == *"refusing to overwrite the input r.jsonl"* ]]
    run -1 nx-report sym.jsonl -o hard.jsonl
    [[ "$output" == *"refusing to overwrite the input"* ]]
    run -1 bash -c 'nx-report -o r.jsonl <r.jsonl'
    [[ "$output" == *"refusing to overwrite the input <stdin>"* ]]
    cmp r.jsonl keep.jsonl
    [ -L sym.jsonl ]
    # A different file is fine.
    run -0 nx-report r.jsonl -o other.jsonl
}

@test "with --db, a closed stdout still loads everything" {
    "$NX_BIN/bench-gen_profile" 200000 >big.json
    run bash -c 'nx-convert --db s.db --to events big.json 2>err.txt | head -n 1 >/dev/null; echo ${PIPESTATUS[0]}; cat err.txt'
    [ "$output" = 0 ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" = 1 ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM event')" -ge 200000 ]
    cp "$FIXTURES/small.json" small.json
    run bash -c 'nx-convert --db s2.db big.json small.json 2>err.txt | head -c 1 >/dev/null; echo ${PIPESTATUS[0]}'
    [ "$output" = 0 ]
    [ "$(sqlite3 s2.db 'SELECT count(*) FROM profile')" = 2 ]
}

@test "a foreign SQLite file with a meta table, or other tables, is left byte-identical" {
    sqlite3 meta.db "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('owner', 'someone else');"
    sqlite3 other.db "CREATE TABLE notes(x); INSERT INTO notes VALUES (1);"
    for f in meta.db other.db; do
        before=$(md5sum <$f)
        run -1 nx-convert --db $f "$FIXTURES/small.json"
        [[ "$output" == *"nx-convert: $f: not an nx study database"* ]]
        [ "$(md5sum <$f)" = "$before" ]
        [ ! -e $f-wal ]
        [ "$(sqlite3 $f 'PRAGMA journal_mode')" = delete ]
    done
    [[ "$(nx-convert --db meta.db "$FIXTURES/small.json" 2>&1)" == *"its meta table is not nx's"* ]]
}

@test "a failed import into a new database leaves no file behind; into an existing one, the file as it was" {
    printf '{"instruction": [' >bad.json
    run -1 nx-convert --db new.db bad.json
    [ ! -e new.db ]
    [ ! -e new.db-wal ]
    [ ! -e new.db-shm ]
    run -1 nx-convert --keep-going --db new.db bad.json
    [ ! -e new.db ]
    small_db
    before=$(db_digest s.db)
    run -1 nx-convert --db s.db bad.json
    [ "$(db_digest s.db)" = "$before" ]
}

@test "database messages: a bad second --db is named, a truncated database is not called foreign" {
    small_db
    cp s.db t.db
    head -c 70000 s.db >trunc.db
    echo "not a database at all, just text long enough to be a header......................" >junk.db
    run -1 nx-query --db s.db --db junk.db --sql 'SELECT 1'
    [[ "$output" == *"nx-query: junk.db: "* ]]
    [[ "$output" != *"nx-query: s.db:"* ]]
    run -1 nx-query --db trunc.db --sql 'SELECT count(*) FROM event'
    [[ "$output" != *"not an nx study database"* ]]
}

# --- crashes -----------------------------------------------------------------

# deep N OPEN: N copies of OPEN (no closing brackets needed: the cap stops first).
deep() { python3 -c "import sys; sys.stdout.write(sys.argv[2] * int(sys.argv[1]))" "$1" "$2"; }

@test "JSON nested 60k deep is a FILE:LINE: error in every tool, never a crash" {
    { deep 60000 '['; } >arr.json
    { printf '{"traceEvents": [{"name": "x", "args": '; deep 60000 '{"a": '; } >obj.json
    { printf '{"kind": "workload", "op": "matmul", "x": '; deep 60000 '['; echo; } >deep.jsonl
    { printf '{"kind": "profile", "id": "p", "name": "p", "metrics": {"total_time": 1}}\n{"kind": "profile", "x": '; deep 60000 '{"a": '; echo; } >deep2.jsonl
    msg="JSON nested deeper than 256 levels"
    run -1 nx-convert arr.json
    [[ "$output" == *"nx-convert: arr.json:1: $msg"* ]]
    run -1 nx-convert obj.json
    [[ "$output" == *"nx-convert: obj.json:1: $msg"* ]]
    run -1 nx-convert --format nx-jsonl deep2.jsonl
    [[ "$output" == *"deep2.jsonl:2: $msg"* ]]
    # Too deep to sniff: refused as an unknown format (exit 1), not a crash.
    run -1 nx-convert <deep.jsonl
    [[ "$output" == *"nx-convert: <stdin>:1: "* ]]
    run -1 nx-report deep2.jsonl
    [[ "$output" == *"nx-report: deep2.jsonl:2: $msg"* ]]
    nx-convert "$FIXTURES/small.json" >cur.jsonl
    run -1 nx-report cur.jsonl --baseline deep2.jsonl
    [[ "$output" == *"deep2.jsonl:2: $msg"* ]]
    run -1 nx-run deep.jsonl
    [[ "$output" == *"nx-run: deep.jsonl:1: $msg"* ]]
    run -1 nx-capture deep.jsonl
    [[ "$output" == *"nx-capture: deep.jsonl:1: $msg"* ]]
}

@test "JSON nested exactly 256 deep is still read" {
    { printf '{"kind": "profile", "name": "p", "id": "p", "metrics": {"total_time": 1}, "x": '; deep 255 '['; deep 255 ']'; echo '}'; } >ok.jsonl
    run -0 nx-report --format jsonl ok.jsonl
}

@test "the fuzz seed corpora hold deeply nested inputs" {
    for d in fuzz_importers fuzz_jsonl fuzz_workloads; do
        run grep -lc '\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[\[' -r "$NX_ROOT/test/fuzz/corpus/$d"
        [ "$status" -eq 0 ]
    done
}

# --- security ------------------------------------------------------------------

@test "nx-query read-only denies fts3_tokenizer, load_extension and other functions off the allow-list" {
    small_db
    for f in "fts3_tokenizer('simple')" "load_extension('x')" "snippet(1)" "rtreenode(2, x'00')"; do
        run -1 nx-query --db s.db --sql "SELECT $f"
        [[ "$output" == *"not authorized"* ]]
    done
    # The allow-list keeps what queries use.
    run -0 nx-query --db s.db --sql "SELECT abs(-1) AS a, json_extract('{\"x\":1}', '\$.x') AS j, 'ab' REGEXP 'b' AS r, round(pi(), 2) AS p" --format csv
    [ "${lines[1]}" = "1,1,1,3.14" ]
}

@test "an untrusted database's views cannot call functions with side effects, and fts3_tokenizer is off even with --write" {
    small_db
    sqlite3 s.db "CREATE VIEW evil AS SELECT fts3_tokenizer('simple') AS p;"
    run -1 nx-query --db s.db --sql 'SELECT * FROM evil'
    # Setting a tokenizer pointer (what makes a later MATCH jump anywhere) is off for every session.
    run -1 nx-query --write --db s.db --sql "SELECT fts3_tokenizer('simple', x'4141414141414141')"
    [[ "$output" == *"fts3tokenize disabled"* ]]
}

@test "nx-query --timeout stops a runaway recursive CTE with a clear message" {
    small_db
    run -1 timeout 20 nx-query --db s.db --timeout 0.5 --sql 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c'
    [[ "$output" == *"nx-query: --sql: stopped: the query ran longer than --timeout 0.5 s"* ]]
    run -2 nx-query --db s.db --timeout -1 --sql 'SELECT 1'
}

@test "files read whole are capped: nx-query --file /dev/zero and nx-report --seq-dist /dev/zero fail fast" {
    small_db
    nx-convert "$FIXTURES/small.json" >r.jsonl
    export NX_MAX_RECORD_MIB=4
    run -1 timeout 20 nx-query --db s.db --file /dev/zero
    [[ "$output" == *"nx-query: /dev/zero: file larger than the limit of 4 MiB (NX_MAX_RECORD_MIB)"* ]]
    run -1 timeout 20 nx-report --seq-dist /dev/zero r.jsonl
    [[ "$output" == *"nx-report: /dev/zero:1: line longer than the limit of 4 MiB (NX_MAX_RECORD_MIB)"* ]]
    head -c 5000000 /dev/zero | tr '\0' ' ' >big.sql
    echo 'SELECT 1 AS one' >>big.sql
    run -1 nx-query --db s.db --file big.sql
    NX_MAX_RECORD_MIB=8 run -0 nx-query --db s.db --file big.sql --format csv
}

@test "a gzip holding one huge string is refused at the limit, not read into memory" {
    # 256 MiB in one string, 256 KiB compressed.
    python3 -c '
import gzip
with gzip.open("huge.json.gz", "wb") as f:
    f.write(b"{\"instruction\": [{\"name\": \"")
    for _ in range(256): f.write(b"A" * (1 << 20))
    f.write(b"\"}]}")
'
    export NX_MAX_RECORD_MIB=8
    # Peak memory, not an address-space limit (ulimit -v also stops the
    # sanitizer build, which reserves terabytes of shadow space).
    run -1 /usr/bin/time -f 'peak_kib=%M' nx-convert huge.json.gz
    [[ "$output" == *"nx-convert: huge.json.gz:1: a JSON string or value longer than the limit of 8 MiB (NX_MAX_RECORD_MIB)"* ]]
    peak=$(sed -n 's/^peak_kib=//p' <<<"$output")
    echo "peak RSS ${peak} KiB" >&2
    [ "$peak" -lt $((200 * 1024)) ]   # reading the string whole would take 256 MiB at least
}

@test "outputs honour the umask and an existing file keeps its mode" {
    nx-convert "$FIXTURES/small.json" >r.jsonl
    (umask 077 && nx-report r.jsonl --format csv -o new.csv && nx-convert --to chrome-json -o t.json "$FIXTURES/small.json" >/dev/null)
    [ "$(stat -c %a new.csv)" = 600 ]
    [ "$(stat -c %a t.json)" = 600 ]
    (umask 022 && nx-report r.jsonl --format csv -o new2.csv)
    [ "$(stat -c %a new2.csv)" = 644 ]
    echo old >secret.csv
    chmod 600 secret.csv
    (umask 022 && nx-report r.jsonl --format csv -o secret.csv)
    [ "$(stat -c %a secret.csv)" = 600 ]
    [ "$(head -c 3 secret.csv)" != old ]
}

# -o /dev/null run as root once renamed a regular file over the device: every
# later `>/dev/null` on the machine wrote to a file.  A FIFO stands in for the
# device here (a failure must not break the machine running the suite).
@test "-o naming a FIFO or device writes into it and leaves it in place" {
    nx-convert "$FIXTURES/small.json" >r.jsonl
    mkfifo pipe
    timeout 20 cat pipe >from-pipe.csv &
    nx-report r.jsonl --format csv -o pipe
    wait
    [ -p pipe ]
    [ "$(head -n 1 from-pipe.csv | cut -d, -f1)" = kind ]
    mkfifo pipe2
    timeout 20 cat pipe2 >from-pipe.pftrace &
    nx-convert --to pftrace -o pipe2 "$FIXTURES/small.json" >/dev/null
    wait
    [ -p pipe2 ]
    [ -s from-pipe.pftrace ]
    # No temporary file beside the pipe (a device or FIFO is written in place).
    [ -z "$(ls -A | grep '\.tmp\.')" ] || { ls -A; false; }
}

# A profile whose names carry a formula, HTML, ESC and CR.
hostile_profile() {
    python3 - <<'PY'
import json
name = "=HYPERLINK(\"http://x\")<img src=x onerror=alert(1)>\x1b[31mred\rCR"
print(json.dumps({"kind": "profile", "id": "h1", "name": name, "format": "nx", "metrics": {"total_time": 1.5}}))
print(json.dumps({"kind": "profile", "id": "h2", "name": "-2+3", "format": "nx", "metrics": {"total_time": 2}}))
PY
}

@test "names from profiles are escaped per format: CSV formulas, markdown HTML, terminal control characters" {
    hostile_profile >h.jsonl
    nx-report h.jsonl --format markdown -o h.md
    refute grep -q '<img' h.md
    grep -q '&lt;img' h.md
    nx-report h.jsonl --format text -o h.txt
    refute grep -q $'\x1b' h.txt
    refute grep -q $'\r' h.txt
    grep -q 'x1B\[31mred' h.txt
    printf '{"n": "\\u001b[2Jcleared\\r", "v": "=1+1"}\n' | nx-report --format text >rows.txt
    refute grep -q $'\x1b' rows.txt
    printf '{"n": "@SUM(A1)", "v": "=1+1", "w": -3, "x": "-2+3", "y": "-7"}\n' | nx-report --format csv >rows.csv
    [ "$(sed -n 2p rows.csv)" = "'@SUM(A1),'=1+1,-3,'-2+3,-7" ]
}

@test "capture records read only files inside the allowed roots, symlinks included, and say when they refuse" {
    mkdir -p work outside
    cp "$FIXTURES/small.json" outside/secret.json
    cp "$FIXTURES/small.json" work/p.json
    ln -s ../outside/secret.json work/link.json
    cd work
    echo '{"kind": "capture", "name": "a", "profile": {"format": "auto", "path": "../outside/secret.json"}}' >c1.jsonl
    run -1 nx-convert <c1.jsonl
    [[ "$output" == *"nx-convert: <stdin>:1: refusing to read profile.path '../outside/secret.json'"*"outside the allowed roots"*"--root"* ]]
    echo '{"kind": "capture", "name": "b", "profile": {"format": "auto", "path": "link.json"}}' | { run -1 nx-convert; [[ "$output" == *"refusing to read profile.path 'link.json'"* ]]; }
    echo "{\"kind\": \"capture\", \"name\": \"c\", \"profile\": {\"format\": \"auto\", \"path\": \"$PWD/../outside/secret.json\"}}" >c3.jsonl
    run -1 nx-convert c3.jsonl
    [[ "$output" == *"nx-convert: c3.jsonl:1: refusing to read profile.path"* ]]
    # Inside the tree, or allowed with --root: read.
    echo '{"kind": "capture", "name": "d", "profile": {"format": "auto", "path": "p.json"}}' | nx-convert >ok.jsonl
    [ "$(jget ok.jsonl 'r[0]["name"]')" = d ]
    run -0 nx-convert --root ../outside <c1.jsonl
    # A record file's own directory is allowed, relative paths taken from there.
    cd ..
    cp work/p.json outside/q.json
    echo '{"kind": "capture", "name": "e", "profile": {"format": "auto", "path": "q.json"}}' >outside/c.jsonl
    mkdir elsewhere
    cd elsewhere
    run -0 nx-convert ../outside/c.jsonl
    [ "$(echo "$output" | jget - 'r[0]["name"]')" = e ]
}

# --- wrong results and messages --------------------------------------------------

@test "a gate over a NaN metric is an error, not a pass" {
    echo '{"kind": "profile", "id": "a", "name": "a", "metrics": {"total_time": NaN}}' >cur.jsonl
    echo '{"kind": "profile", "id": "a", "name": "a", "metrics": {"total_time": 1}}' >base.jsonl
    run -1 nx-report cur.jsonl --baseline base.jsonl --fail-on 'total_time>5%'
    [[ "$output" == *"gate 'total_time>5%' cannot be checked for a: the current total_time is not a finite number"* ]]
    run -1 nx-report base.jsonl --baseline cur.jsonl --fail-on 'total_time>5%'
    [[ "$output" == *"the baseline total_time is not a finite number"* ]]
}

@test "nx-report --profile naming nothing in the files exits 1" {
    nx-convert "$FIXTURES/small.json" >r.jsonl
    run -1 nx-report --profile nosuch r.jsonl
    [[ "$output" == *"nx-report: r.jsonl: no profile named 'nosuch'"* ]]
}

@test "a forced --format that finds nothing it reads is an error" {
    run -1 nx-convert --format chrome-json "$FIXTURES/small.json"
    [[ "$output" == *"--format chrome-json found no chrome-json profile here (it looks like neuron-json)"* ]]
    run -1 nx-convert --format summary-json "$FIXTURES/small.json"
    [[ "$output" == *"--format summary-json found no summary-json profile"* ]]
    run -0 nx-convert --format neuron-json "$FIXTURES/small.json"
}

@test "nx-query: an unknown --param fails before any row; an integer past int64 is an error" {
    small_db
    run -1 nx-query --db s.db --sql 'SELECT 42 AS x; SELECT :a AS y' --param b=1 --format csv
    [[ "$output" == *"the query has no parameter :b"* ]]
    [[ "$output" != *42* ]]
    run -2 nx-query --db s.db --sql 'SELECT :a AS y' --param a=99999999999999999999
    [[ "$output" == *"integer out of range"* ]]
    run -0 nx-query --db s.db --sql 'SELECT :a AS y' --param a=9223372036854775807 --format csv
    [ "${lines[1]}" = 9223372036854775807 ]
}

@test "nx-jsonl depth past int32, a negative source total_time and --backend gpu are refused" {
    nx-convert --to events "$FIXTURES/small.json" >ev.jsonl
    python3 -c '
import json
rows = [json.loads(l) for l in open("ev.jsonl")]
for r in rows:
    if r["kind"] == "event": r["depth"] = 2**40; break
print("\n".join(json.dumps(r) for r in rows))' >deep.jsonl
    run -1 nx-convert deep.jsonl
    [[ "$output" == *"depth"*"out of range"* ]]
    python3 -c '
import json
d = json.load(open("'"$FIXTURES"'/small.json"))
d["summary"][0]["total_time"] = -4e-06
json.dump(d, open("neg.json", "w"))'
    run -1 nx-convert neg.json
    [[ "$output" == *"total_time must be a non-negative number"* ]]
    run -2 nx-convert --backend gpu "$FIXTURES/small.json"
    [[ "$output" == *"unknown --backend 'gpu'"* ]]
}

@test "messages: NUL bytes are not called empty input" {
    head -c 1000 /dev/zero >zeros.json
    run -1 nx-convert --format chrome-json zeros.json
    [[ "$output" != *"empty input"* ]]
    [[ "$output" == *"NUL byte"* ]]
}

# 200k events, on 200k distinct tracks or on 100: the trace's memory must not
# grow with the number of tracks (the old layout took ~100 MB more for the
# wide one; with the cap it is ~10 MB).
wide_profile() {  # N TRACKS
    python3 - "$1" "$2" <<'PY'
import sys
n, tracks = int(sys.argv[1]), int(sys.argv[2])
w = sys.stdout.write
for i in range(n):
    w('{"kind":"event","profile":"p_w","type":"instruction","track":"row%d","engine":"vector","ts_ns":%d,"dur_ns":10,"name":"op"}\n'
      % (i % tracks, i * 10))
w('{"kind":"event","profile":"p_w","type":"counter","track":"late_counter","ts_ns":5,"value":7}\n')
PY
}

@test "pftrace memory is flat in the number of tracks: past the cap, tracks merge into one with a warning" {
    wide_profile 200000 200000 >wide.jsonl
    wide_profile 200000 100 >narrow.jsonl
    /usr/bin/time -f %M -o narrow.rss nx-convert --to pftrace -o narrow.pftrace narrow.jsonl >/dev/null
    run -0 /usr/bin/time -f %M -o wide.rss nx-convert --to pftrace -o wide.pftrace wide.jsonl
    [[ "$output" == *"warning: trace: profile wide has more than 16384 tracks; the 183617 events of the further tracks are on the track \"(other tracks)\""* ]]
    echo "narrow $(cat narrow.rss) KB, wide $(cat wide.rss) KB"
    [ "$(cat wide.rss)" -lt $(( $(cat narrow.rss) + 50000 )) ]
    # Nothing is lost: every slice is there, the merged ones name their track.
    test-pftrace_dump wide.pftrace >dump.jsonl
    [ "$(grep -c '"kind":"slice"' dump.jsonl)" = 200001 ]
    grep -q '"track":"(other tracks)".*"args":{"track":"row199999"}' dump.jsonl
    grep -q '"track":"(other tracks)".*"args":{"track":"late_counter","value":"7"}' dump.jsonl
    # Chrome JSON shares the layout, and the cap.
    run -0 nx-convert --to chrome-json -o wide.json wide.jsonl
    [[ "$output" == *"183617 events of the further tracks"* ]]
    [ "$(grep -c '"thread_name"' wide.json)" = 16385 ]
}

@test "a value the database will not store names the input and line, not the database" {
    python3 -c '
import json
a = "A" * (700 * 1024)
print("{\"instruction\": [")
print(json.dumps({"timestamp": 1, "duration": 2, "label": "Vector", "opcode": "X", "a": a, "b": a}))
print("]}")
' >wide.json
    NX_MAX_RECORD_MIB=1 run --separate-stderr nx-convert --db s.db wide.json
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-convert: wide.json:2: an event holds more than the database stores in one value (1048576 bytes, NX_MAX_RECORD_MIB)" ]
    [ ! -e s.db ]
}

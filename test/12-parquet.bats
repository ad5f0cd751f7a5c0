#!/usr/bin/env bats
# Parquet: nx's own reader against files two independent writers made
# (DuckDB and arrow-rs, test/fixtures/parquet/make.mjs), and the Neuron
# Explorer profile importer end to end.

load test_helper

PQ=$BATS_TEST_DIRNAME/fixtures/parquet
EXPLORER=$PQ/explorer

# figure PROFILE EXPR: a value from the writer's own figures for a profile.
figure() {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
        "$EXPLORER/$1@latest.expected.json" "$2"
}

# importable_parent DIR: a parent directory of copies of the profiles nx has
# imported since before issue 44 (its drift, session and unsigned profiles
# have their own tests, and drift13/drift13req are not all nx reads yet).
importable_parent() {
    mkdir -p "$1"
    for p in collective deps kernel matmul schema12 schema99; do cp -r "$EXPLORER/$p@latest" "$1/"; done
}

@test "parquet reader: every codec decodes to what the writer wrote (DuckDB and arrow-rs)" {
    run python3 "$NX_ROOT/test/parquet_check.py" "$PQ"/codec/*.parquet
    echo "$output"
    [ "$status" -eq 0 ]
    # The files really use the codecs their names say.
    for c in snappy:SNAPPY gzip:GZIP zstd:ZSTD lz4_raw:LZ4_RAW brotli:BROTLI uncompressed:UNCOMPRESSED; do
        test-parquet_dump --meta "$PQ/codec/arrowrs_${c%%:*}_v1.parquet" | awk -F'\t' -v c="${c##*:}" '$4 != c {exit 1}'
    done
    test-parquet_dump --meta "$PQ/codec/arrowrs_lz4_v1.parquet" | awk -F'\t' '$4 != "LZ4" {exit 1}'
}

@test "parquet reader: every encoding, page v1 and v2, several row groups, LIST columns" {
    run python3 "$NX_ROOT/test/parquet_check.py" "$PQ"/encoding/*.parquet
    echo "$output"
    [ "$status" -eq 0 ]
    for e in DELTA_BINARY_PACKED DELTA_LENGTH_BYTE_ARRAY DELTA_BYTE_ARRAY BYTE_STREAM_SPLIT RLE_DICTIONARY; do
        for f in "$PQ"/encoding/arrowrs_*_v2.parquet; do test-parquet_dump --meta "$f"; done | grep -q "$e"
    done
    [ "$(test-parquet_dump --meta "$PQ/encoding/arrowrs_rowgroups_v2_zstd.parquet" | cut -f1 | sort -u | wc -l)" -eq 3 ]
}

@test "parquet reader: INT32 deltas that need 33 bits wrap as the writer computed them" {
    run python3 "$NX_ROOT/test/parquet_check.py" "$PQ/encoding/duckdb_v2_int32_extremes.parquet"
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "parquet reader: unsigned integers as Go writes them read exact; v2 pages of nulls with no body as Java writes them" {
    run python3 "$NX_ROOT/test/parquet_check.py" "$PQ"/encoding/*unsigned*.parquet "$PQ/encoding/handmade_v2_empty_body.parquet"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 4 ]
    # UBIGINT 2^63 + 12345 and 2^64 - 1, as digits, never negative.
    test-parquet_dump "$PQ/encoding/duckdb_unsigned.parquet" >rows.jsonl
    grep -q '"row_id":4,.*"u64":9223372036854788153}' rows.jsonl
    grep -q '"row_id":1,"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615}' rows.jsonl
    refute grep -q ':-' rows.jsonl
    # The all-null pages really have no body (make.mjs recorded each page).
    [ "$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(sum(p["body_bytes"] == 0 for c in m["pages"].values() for p in c))' \
        "$PQ/encoding/handmade_v2_empty_body.parquet.meta.json")" -eq 6 ]
}

@test "parquet reader: a split table's columns are the union of its files' (a column only a later part has)" {
    S=$EXPLORER/session@latest
    test-parquet_dump "$S/Instruction_0.parquet" "$S/Instruction_1.parquet" >rows.jsonl
    [ "$(wc -l <rows.jsonl)" -eq "$(figure session 'd["tables"]["Instruction"]["rows"]')" ]
    want=$(figure session 'd["split"]["Instruction_1.parquet"]["rows"]')
    [ "$(jget rows.jsonl 'sum(1 for x in r if x.get("nki_source_location"))')" -eq "$want" ]
    # Through the importer: the later part's column reaches the args of its rows.
    nx-convert --db s.db "$S" >/dev/null
    [ "$(nx-query --db s.db --format csv --sql "SELECT count(*) FROM args WHERE key = 'args.nki_source_location'" | tail -1)" -eq "$want" ]
    # Parts that give one column two types are refused, naming both files:
    # unsigned@latest's pcore_idx is a UINTEGER (INT32), session's an INT64.
    mkdir s@latest
    cp "$S/Instruction_0.parquet" s@latest/
    cp "$EXPLORER/unsigned@latest/Instruction.parquet" s@latest/Instruction_1.parquet
    run --separate-stderr test-parquet_dump s@latest/Instruction_0.parquet s@latest/Instruction_1.parquet
    echo "$stderr"
    [ "$status" -eq 1 ]
    [ "$stderr" = "test-parquet_dump: s@latest/Instruction_1.parquet: column pcore_idx is INT32 here but INT64 in s@latest/Instruction_0.parquet (parts of one table must agree)" ]
    [ -z "$output" ]  # refused before any row
    run --separate-stderr nx-convert --db t.db s@latest
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"s@latest/Instruction_1.parquet: column pcore_idx is INT32 here but INT64 in "*"s@latest/Instruction_0.parquet (parts of one table must agree)"* ]]
}

@test "parquet reader: damaged files are errors naming the file, never crashes" {
    while IFS='|' read -r file text; do
        run --separate-stderr test-parquet_dump "$PQ/bad/$file"
        echo "$file: status=$status stderr=$stderr" >&2
        [ "$status" -eq 1 ]
        [[ "$stderr" == "test-parquet_dump: $PQ/bad/$file: "*"$text"* ]]
    done <<'EOF2'
bad_magic_start.parquet|no PAR1 magic at the start
bad_magic_end.parquet|no PAR1 magic at the end
truncated_half.parquet|cut short
footer_len_before_start.parquet|footer length 1329 is past the start of the file
footer_len_overlaps_magic.parquet|footer length 1321 is past the start
footer_len_negative.parquet|footer length 2147483648
footer_len_zero.parquet|footer: corrupt metadata
truncated_footer.parquet|footer: corrupt metadata at byte
page_size_beyond_eof.parquet|row group 0, column row_id: page at byte 4 claims 8191 bytes
snappy_flipped_byte.parquet|row group 0, column name: page at byte 130: SNAPPY page does not decompress
empty.parquet|not a Parquet file
EOF2
}

@test "nx-convert explorer: a profile directory loads with the writer's counts" {
    nx-convert --db s.db "$EXPLORER/matmul@latest" >rec.jsonl
    [ "$(jget rec.jsonl 'r[0]["format"]')" = explorer-parquet ]
    [ "$(jget rec.jsonl 'r[0]["name"]')" = matmul ]
    [ "$(jget rec.jsonl 'r[0]["target"]')" = trn2 ]            # from Metadata.instance_type
    [ "$(jget rec.jsonl 'r[0]["profile_schema_version"]')" = 7.4.0 ]
    # Instruction_0 + Instruction_1 read as one table, in order.
    [ "$(sqlite3 s.db "SELECT count(*) FROM instruction")" -eq "$(figure matmul 'd["tables"]["Instruction"]["rows"]')" ]
    # DmaPacket only: the DmaPacketAggregated decoy is not read as packets.
    [ "$(sqlite3 s.db "SELECT count(*) FROM dma")" -eq "$(figure matmul 'd["dma"]["packet_count"]')" ]
    [ "$(jget rec.jsonl 'r[0]["metrics"]["dma_transfer_total_bytes"]')" = "$(figure matmul 'd["dma"]["transfer_bytes"]')" ]
    for e in Tensor Vector Scalar GpSimd Sync; do
        want=$(figure matmul "d['engines']['$e']['instruction_count']")
        got=$(jget rec.jsonl "sum(x['instructions'] for x in r[0]['engines'] if x['engine'].startswith('${e,,}'.replace('gpsimd','gpsimd')))")
        echo "$e: $got instructions, writer $want" >&2
        [ "$got" -eq "$want" ]
    done
    # Summary's float seconds are the profile's total time.
    python3 -c "import sys; assert abs(float(sys.argv[1]) - float(sys.argv[2])) < 1e-9" \
        "$(jget rec.jsonl 'r[0]["metrics"]["total_time"]')" "$(figure matmul 'd["time"]["total_time_s"]')"
    # Warnings and the tables nx does not map travel with the profile.
    [[ "$(jget rec.jsonl 'r[0]["warnings"][0]["message"]')" == *"dge"* ]]
    [ "$(jget rec.jsonl 'r[0]["explorer_tables"]["DmaPacketAggregated"]')" -eq 38 ]
}

@test "nx-convert explorer: a DMA row is one queue of one DMA engine (name-Qidx-Eengine, as neuron-profile names it)" {
    nx-convert --db s.db "$EXPLORER/matmul@latest" >/dev/null
    # Every packet's track names its queue index and DMA engine, so the 16
    # engines' queues of one name do not pile onto one track.
    [ "$(sqlite3 s.db "SELECT count(*) FROM track WHERE kind = 'dma' AND NOT (name GLOB '*Q[0-9]*-E[0-9]*')")" -eq 0 ]
    for q in $(figure matmul '" ".join(d["dma"]["queues"])'); do
        want=$(figure matmul "d['dma']['queues']['$q']['packets']")
        got=$(sqlite3 s.db "SELECT count(*) FROM dma d JOIN track t ON t.id = d.track_id WHERE t.name GLOB '$q-Q[0-9]*-E[0-9]*'")
        echo "$q: $got packets on its queue rows, writer $want" >&2
        [ "$got" -eq "$want" ]
    done
}

@test "nx-convert explorer: engine active time is the profiler's ActiveTime, not waits" {
    # Without Summary, nx must derive the figures itself: from ActiveTime.
    cp -r "$EXPLORER/matmul@latest" nosummary@latest
    rm nosummary@latest/Summary.parquet
    for dir in "$EXPLORER/matmul@latest" nosummary@latest; do
        nx-convert --to events -o /dev/null "$dir" >rec.jsonl
        for e in tensor vector scalar gpsimd sync; do
            E=$(case $e in tensor) echo Tensor;; vector) echo Vector;; scalar) echo Scalar;; gpsimd) echo GpSimd;; sync) echo Sync;; esac)
            want=$(figure matmul "d['engines']['$E']['active_time_percent']")
            got=$(jget rec.jsonl "r[0]['metrics']['${e}_engine_active_time_percent']")
            echo "$dir $e: nx $got, profiler $want" >&2
            python3 -c "import sys; assert abs(float(sys.argv[1]) - float(sys.argv[2])) < 0.01" "$got" "$want"
        done
    done
    run nx-report rec.jsonl
    [[ "$output" != *"engine_saturated"* && "$output" != *"saturated"* ]]
}

@test "nx-convert explorer: time series become counters, one sample per row" {
    nx-convert --db s.db "$EXPLORER/matmul@latest" >/dev/null
    want=$(figure matmul 'sum(d["tables"][t]["rows"] for t in ("PendingDma","DmaUsage","HbmUsage","SbufUsage","PsumUsage","SemaphoreUpdate"))')
    [ "$(sqlite3 s.db "SELECT count(*) FROM counter c JOIN track t ON t.id = c.track_id WHERE t.row IS NOT NULL")" -eq "$want" ]
    sqlite3 s.db "SELECT DISTINCT t.name FROM counter c JOIN track t ON t.id = c.track_id" >tracks.txt
    grep -qx 'pending DMAs' tracks.txt
    grep -qx 'SBUF used (%)' tracks.txt
}

@test "nx-convert explorer: two physical cores get separate tracks; collectives load" {
    nx-convert --db s.db "$EXPLORER/collective@latest" >rec.jsonl
    [ "$(jget rec.jsonl 'r[0]["target"]')" = trn2 ]
    sqlite3 s.db "SELECT name FROM track" >tracks.txt
    grep -q '^pcore1/' tracks.txt
    grep -qv '^pcore1/' tracks.txt
    [ "$(sqlite3 s.db "SELECT count(*) FROM slice WHERE track_id IN (SELECT id FROM track WHERE name = 'collectives')")" -eq "$(figure collective 'd["cc"]["op_count"]')" ]
    [ "$(sqlite3 s.db "SELECT count(*) FROM slice WHERE track_id IN (SELECT id FROM track WHERE name = 'cc cores')")" -eq "$(figure collective 'd["cc"]["cc_instruction_count"]')" ]
}

@test "nx-convert explorer: a parent directory holds several profiles" {
    importable_parent explorer
    nx-convert --db s.db explorer >rec.jsonl 2>err.txt
    [ "$(sqlite3 s.db "SELECT group_concat(name, ' ') FROM (SELECT name FROM profile ORDER BY name)")" = "collective deps kernel matmul schema12 schema99" ]
    # Schema 99 is not one nx knows: it says so and imports what it recognises.
    grep -q 'schema99@latest: warning: profile schema 99.0.0 is newer than nx knows' err.txt
    [ "$(jget rec.jsonl '[x for x in r if x["name"]=="schema99"][0]["explorer_tables"]["FutureThing"]')" -ge 1 ]
    sqlite3 s.db "SELECT count(*) FROM instruction i JOIN profile p ON p.id = i.profile_id WHERE p.name = 'schema99'" | grep -qv '^0$'
}

@test "nx-convert explorer: the same answers from the database, nx-query, nx-report and pftrace" {
    nx-convert --db s.db "$EXPLORER/matmul@latest" >/dev/null
    nx-query --db s.db engine_utilization >util.jsonl
    [ "$(jget util.jsonl 'len(r)')" -ge 5 ]
    nx-report --db s.db >report.txt
    grep -q matmul report.txt
    nx-convert --to pftrace -o t.pftrace "$EXPLORER/matmul@latest" >/dev/null
    test-pftrace_dump t.pftrace >t.jsonl
    [ "$(jget t.jsonl 'sum(1 for x in r if x["kind"]=="slice")')" -ge "$(figure matmul 'd["tables"]["Instruction"]["rows"] + d["dma"]["packet_count"]')" ]
}

@test "nx-convert explorer: the database refers to the Parquet tables where they are, with the answers --copy-source gives" {
    # Every profile of the fixtures nx imported before issue 44, once kept
    # in place (the default) and once copied: the same args,
    # explorer_<Table> rows, regions, reports.
    importable_parent explorer
    nx-convert --db kept.db explorer >/dev/null
    nx-convert --db copy.db --copy-source explorer >/dev/null
    [ "$(sqlite3 kept.db "SELECT count(*) FROM event WHERE args IS NOT NULL AND src_tbl IS NOT NULL")" -eq 0 ]
    [ "$(sqlite3 kept.db "SELECT count(*) FROM event WHERE src_tbl IS NOT NULL")" -gt 100 ]
    [ "$(sqlite3 kept.db "SELECT count(*) FROM source_row")" -eq 0 ]
    [ "$(sqlite3 copy.db "SELECT count(*) FROM source_ref")" -eq 0 ]
    [ "$(stat -c %s kept.db)" -lt "$(stat -c %s copy.db)" ]
    q="SELECT arg_set_id, key, int_value, string_value, real_value, value_type FROM args ORDER BY arg_set_id, key"
    nx-query --db kept.db --format csv --sql "$q" >kept.csv
    nx-query --db copy.db --format csv --sql "$q" >copy.csv
    [ "$(wc -l <kept.csv)" -gt 1000 ]
    cmp kept.csv copy.csv
    for t in Flow TensorInfo OpcodeSummary DmaPacketAggregated KernelInstructions KernelStackFrames; do
        nx-query --db kept.db --format csv --sql "SELECT * FROM explorer_$t ORDER BY 1, 2, 3" >kept_$t.csv
        nx-query --db copy.db --format csv --sql "SELECT * FROM explorer_$t ORDER BY 1, 2, 3" >copy_$t.csv
        [ "$(wc -l <kept_$t.csv)" -gt 1 ]
        cmp kept_$t.csv copy_$t.csv
    done
    cmp <(nx-query --db kept.db --format csv critical_path) <(nx-query --db copy.db --format csv critical_path)
    cmp <(nx-query --db kept.db --format csv --sql "SELECT * FROM region ORDER BY 1, 2, 3, 4") \
        <(nx-query --db copy.db --format csv --sql "SELECT * FROM region ORDER BY 1, 2, 3, 4")
    cmp <(nx-report --db kept.db) <(nx-report --db copy.db)
    # A trace from the database shows the same arguments.
    nx-convert --to chrome-json -o kept.json kept.db --profile matmul >/dev/null
    nx-convert --to chrome-json -o copy.json copy.db --profile matmul >/dev/null
    cmp kept.json copy.json
    # Merged (nx-query --db A --db B): each database's profiles read their own files.
    r="SELECT profile, kind, name, parent, start_ns, end_ns FROM region"
    nx-query --db copy.db --db kept.db --format csv --sql "$r" | tail -n +2 | sort >merged.txt
    { nx-query --db copy.db --format csv --sql "$r" | tail -n +2; nx-query --db kept.db --format csv --sql "$r" | tail -n +2; } | sort >apart.txt
    [ "$(wc -l <merged.txt)" -gt 10 ]
    cmp merged.txt apart.txt
    # A database written from this one refers to the same files.
    nx-convert --db again.db kept.db >/dev/null
    [ "$(sqlite3 again.db "SELECT count(*) FROM source_ref")" = "$(sqlite3 kept.db "SELECT count(*) FROM source_ref")" ]
    nx-query --db again.db --format csv --sql "$q" >again.csv
    cmp again.csv copy.csv
    nx-query --db again.db --format csv --sql "SELECT * FROM explorer_Flow ORDER BY 1, 2, 3" >again_Flow.csv
    cmp again_Flow.csv copy_Flow.csv
    # SQLite's own shell has no source_args(): the file's args view shows it
    # the copied args only, and every table still reads.
    [ "$(sqlite3 kept.db "SELECT count(*) FROM args WHERE key = 'args.opcode'")" -gt 100 ]
}

@test "nx-convert explorer: a moved or changed source is an error naming the file; what the database holds still answers" {
    cp -r "$EXPLORER/matmul@latest" m
    nx-convert --db s.db m >/dev/null
    # Rewritten in place (same size, new time): named, with what to do.
    touch -d '2001-01-01' m/Flow.parquet
    run --separate-stderr nx-query --db s.db --sql "SELECT count(*) FROM explorer_Flow"
    [ "$status" -ne 0 ]
    [[ "$stderr" == *"$PWD/m/Flow.parquet: the Flow table of profile m changed since the import"*"--copy-source"* ]]
    mv m moved
    for sql in "SELECT * FROM args WHERE key = 'args.operands'" "SELECT count(*) FROM explorer_TensorInfo"; do
        run --separate-stderr nx-query --db s.db --sql "$sql"
        [ "$status" -ne 0 ]
        [[ "$stderr" == *"$PWD/m/"*".parquet: the "*" table of profile m is gone from here since the import (moved or deleted?)"* ]]
    done
    run --separate-stderr nx-report --db s.db
    [ "$status" -ne 0 ]
    [[ "$stderr" == *"is gone from here since the import"* ]]
    # What the database holds does not need the source.
    nx-query --db s.db engine_utilization >util.jsonl
    [ "$(jget util.jsonl 'len(r)')" -ge 5 ]
    [ "$(nx-query --db s.db --format csv --sql "SELECT count(*) FROM slice WHERE category = 'instruction'" | tail -1)" -gt 100 ]
    # Garbage with the size and time it had (a stamp cannot tell): the
    # reader's own message, naming the file, never a crash.
    nx-convert --db g.db moved >/dev/null
    cp moved/Flow.parquet flow.saved
    head -c "$(stat -c %s flow.saved)" /dev/urandom >moved/Flow.parquet
    touch -r flow.saved moved/Flow.parquet
    run --separate-stderr nx-query --db g.db --sql "SELECT count(*) FROM explorer_Flow"
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"$PWD/moved/Flow.parquet: "* ]]
    cp flow.saved moved/Flow.parquet
    touch -r flow.saved moved/Flow.parquet
    # Imported again from where it is now, it reads from there (a query that
    # names the profile opens only its files).
    nx-convert --db s.db moved >/dev/null
    run nx-query --db s.db --format csv --sql "SELECT count(*) FROM explorer_Flow WHERE profile_id = (SELECT id FROM profile WHERE name = 'moved')"
    [ "$status" -eq 0 ]
    [ "${lines[1]}" -gt 0 ]
}

@test "nx-convert explorer: a split table with a hole is an error; the database is untouched" {
    nx-convert --db s.db "$FIXTURES/small.json" >/dev/null
    before=$(db_digest s.db)
    run --separate-stderr nx-convert --db s.db "$PQ/bad/split_hole@latest"
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-convert: $PQ/bad/split_hole@latest: split table Instruction has no part 1 (Instruction_1.parquet) before part 2: the profile is incomplete" ]
    [ "$(db_digest s.db)" = "$before" ]
}

@test "nx-convert explorer: a column of the wrong type names table and column" {
    nx-convert --db s.db "$FIXTURES/small.json" >/dev/null
    before=$(db_digest s.db)
    run --separate-stderr nx-convert --db s.db "$PQ/bad/type_mismatch@latest"
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-convert: $PQ/bad/type_mismatch@latest/Instruction.parquet: column start_ts: expected integers, the file has BYTE_ARRAY" ]
    run --separate-stderr nx-convert --db s.db "$PQ/bad/schemafields_mismatch@latest"
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-convert: $PQ/bad/schemafields_mismatch@latest/Instruction.parquet: column opcode: SchemaFields says integer (int64), the file has BYTE_ARRAY" ]
    [ "$(db_digest s.db)" = "$before" ]
}

@test "nx-convert explorer: a damaged page names table, row group and column; --keep-going skips the table" {
    cp -r "$EXPLORER/schema12@latest" p@latest
    cp "$PQ/bad/snappy_flipped_byte.parquet" p@latest/Warning.parquet
    run --separate-stderr nx-convert --db s.db p@latest
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-convert: p@latest/Warning.parquet: row group 0, column name: page at byte 130: SNAPPY page does not decompress: corrupt data" ]
    [ ! -s s.db ] || [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" -eq 0 ]
    run --separate-stderr nx-convert --keep-going --db s.db p@latest
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"p@latest/Warning.parquet: warning: skipped the rest of table Warning: row group 0, column name"* ]]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM profile')" -eq 1 ]
    [ "$(sqlite3 s.db 'SELECT count(*) FROM instruction')" -gt 0 ]
}

@test "nx-convert explorer: an empty table is no activity, not an error" {
    nx-convert --db s.db "$PQ/bad/empty_table@latest" >rec.jsonl
    [ "$(jget rec.jsonl 'r[0]["event_count"]')" -eq 0 ]
}

@test "nx-convert explorer: a lone table file says to give its directory" {
    run --separate-stderr nx-convert --db s.db "$EXPLORER/matmul@latest/Instruction_0.parquet"
    [ "$status" -eq 1 ]
    [ "$stderr" = "nx-convert: $EXPLORER/matmul@latest/Instruction_0.parquet: a Parquet table of a Neuron Explorer profile: give the profile directory ($EXPLORER/matmul@latest), which holds all its tables" ]
}

@test "nx-convert explorer: tables nx does not map are kept, one view per table" {
    nx-convert --db s.db "$EXPLORER/matmul@latest" >/dev/null
    nx-convert --db s.db "$EXPLORER/matmul@latest" >/dev/null    # re-import replaces, never doubles
    [ "$(nx-query --db s.db --format csv --sql 'SELECT count(*) AS n FROM explorer_OpcodeSummary' | tail -1)" -eq "$(figure matmul 'd["tables"]["OpcodeSummary"]["rows"]')" ]
    [ "$(nx-query --db s.db --format csv --sql 'SELECT count(*) AS n FROM explorer_Flow' | tail -1)" -eq "$(figure matmul 'd["tables"]["Flow"]["rows"]')" ]
    # Columns as the source named them, values as it wrote them.
    nx-query --db s.db --sql "SELECT engine, opcode, instruction_count FROM explorer_OpcodeSummary WHERE opcode = 'EVENT_SEMAPHORE' AND engine = 'Vector'" >rows.jsonl
    [ "$(jget rows.jsonl 'r[0]["instruction_count"]')" -eq 2 ]
    # Several databases: each one's rows, under its own profile ids.
    nx-convert --db t.db "$EXPLORER/schema99@latest" >/dev/null 2>&1
    nx-query --db s.db --db t.db --sql 'SELECT count(*) AS n FROM explorer_FutureThing' >n.jsonl
    [ "$(jget n.jsonl 'r[0]["n"]')" -ge 1 ]
}

@test "nx-convert explorer: a system profile brings the device profiles it names, linked both ways" {
    SYS=$PQ/system/system@latest
    sysfig() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$SYS.expected.json" "$1"; }
    run nx-convert "$SYS"
    [ "$status" -eq 0 ]
    # The directory nx could not find is named, once.
    [[ "$output" == *"DeviceProfileList names device profiles nx did not find below the system profile, beside it, or under its data path: dev_missing"* ]]
    nx-convert "$SYS" 2>/dev/null >out.jsonl
    [ "$(jget out.jsonl "[p['name'] for p in r]")" = '["system", "dev_nc0", "dev_nc1"]' ]
    # The host's events, as DuckDB wrote them: one per row, Unix-epoch ns kept exact.
    [ "$(jget out.jsonl "r[0]['event_count']")" = "$(sysfig "d['events']")" ]
    [ "$(jget out.jsonl "r[0]['start_ns']")" = "$(sysfig "d['host_first_ts_ns']")" ]
    # System -> devices: each with the directory found and its core's nc_exec_running span.
    [ "$(jget out.jsonl "[(d['device_profile_name'], d['path'] is not None) for d in r[0]['device_profiles']]")" = \
      "$(sysfig "[(d['device_profile_name'], d['found']) for d in d['device_profiles']]" | tr "'" '"' | sed 's/(/[/g; s/)/]/g; s/True/true/g; s/False/false/g')" ]
    want=$(sysfig "[int(d['host_first_ts_ns']) + x['exec']['start'] for x in d['device_profiles'] if x['found']]")
    [ "$(jget out.jsonl "[d['nc_exec_running']['first_start_ns'] for d in r[0]['device_profiles'] if d['path']]")" = "$want" ]
    # Device -> system: the same row and span on each device profile.
    [ "$(jget out.jsonl "[p['system_profile']['nc_exec_running']['first_start_ns'] for p in r[1:]]")" = "$want" ]
    [ "$(jget out.jsonl "[p['system_profile']['nc_id'] for p in r[1:]]")" = '[0, 1]' ]
    # A device profile given alone still finds its system profile.
    nx-convert "$SYS/device/dev_nc1@latest" >one.jsonl
    [ "$(jget one.jsonl "r[0]['system_profile']['device_profile_name']")" = dev_nc1 ]
    # Reports show the link on both sides; the database holds all three.
    run nx-report --format text out.jsonl
    [[ "$output" == *"Device profiles (DeviceProfileList"* ]]
    [[ "$output" == *"dev_missing"*"not found below, beside or under the data path"* ]]
    [[ "$output" == *"system profile  $SYS (instance i-0abc, process 4242, core 1); on the host from"*"for 95 us"* ]]
    nx-convert --db s.db "$PQ/system" 2>/dev/null >/dev/null
    [ "$(sqlite3 s.db "SELECT group_concat(name, ' ') FROM (SELECT name FROM profile ORDER BY id)")" = "system dev_nc0 dev_nc1" ]
    [ "$(sqlite3 s.db "SELECT COUNT(*) FROM slice s JOIN track t ON s.track_id = t.id WHERE s.name = 'nc_exec_running'")" = 2 ]
}

@test "nx-convert explorer: the tools' versions from Metadata, as the JSON path gives them, and in the report" {
    nx-convert "$EXPLORER/matmul@latest" >rec.jsonl
    [ "$(jget rec.jsonl "r[0]['versions']['explorer']")" = "$(figure matmul "d['metadata']['explorer_version']")" ]
    [ "$(jget rec.jsonl "r[0]['versions']['runtime']")" = "$(figure matmul "d['metadata']['runtime_version']")" ]
    [ "$(jget rec.jsonl "r[0]['versions']['compiler']")" = "$(figure matmul "d['metadata']['compiler_version']")" ]
    [ "$(jget rec.jsonl "r[0]['versions']['ntff']")" = "$(figure matmul "d['metadata']['ntff_version']")" ]
    run nx-report --format text rec.jsonl
    [[ "$output" == *"versions    explorer $(figure matmul "d['metadata']['explorer_version']"), runtime $(figure matmul "d['metadata']['runtime_version']"), compiler"* ]]
}

@test "nx-convert explorer: an unsigned id above 2^63 (a Go writer's uint64) stays exact: digits in args, TEXT in SQL" {
    U=$EXPLORER/unsigned@latest
    big=$(figure unsigned 'd["big_id"]["id"]')
    [ "$big" = 9223372036854788153 ]
    nx-convert --db s.db "$U" >/dev/null
    # The instruction's own args, read from the file: the exact digits.
    nx-query --db s.db --format csv --sql "SELECT source_args(src_tbl, src_row) FROM event WHERE src_tbl IS NOT NULL" >args.csv
    grep -q "\"\"id\"\":$big," args.csv
    refute grep -q '""id"":-' args.csv
    # A carried table's column: INTEGER where it fits, its exact digits as TEXT above INT64_MAX.
    nx-query --db s.db --format csv --sql "SELECT in_id, typeof(in_id), out_id, typeof(out_id) FROM explorer_Flow ORDER BY rowid" >flow.csv
    cat flow.csv
    [ "$(sed -n 3p flow.csv)" = "$(figure unsigned 'd["flow"][1]["in_id"]'),integer,$big,text" ]
    [ "$(sed -n 4p flow.csv)" = "$big,text,$(figure unsigned 'd["flow"][2]["out_id"]'),integer" ]
}

#!/usr/bin/env python3
"""Turns the bench measurements into records and a table (part of `make bench`).

    report.py results.tsv extra.jsonl bench.jsonl FIRST "N1 N2 ..." ["P1 P2 ..." [sizes.tsv]]

"P1 P2 ...": the sizes of the Parquet (Neuron Explorer) part, N Instruction
rows plus N DmaPacket rows each.  sizes.tsv: bytes on disk of each source,
its database and its dataset (name, bytes).

Each record: kind "bench", name, value, unit, and where a baseline applies
(measured in the same run) baseline, baseline_value and ratio; machine, commit.
"""
import json
import math
import os
import platform
import subprocess
import sys

# Back-to-back pairs of the JSON load and the insert limit (test/bench/run).
PAIRS = 5


def provenance():
    """The commit and the machine every bench record names (scale_report.py too)."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    return commit, "%s %s, %d cores" % (platform.node(), platform.machine(), os.cpu_count() or 0)


def div(a, b):
    return a / b if b else float("nan")


def main():
    results, extra, out, first, sizes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5].split()
    pq_sizes = sys.argv[6].split() if len(sys.argv) > 6 else []
    disk = {}
    if len(sys.argv) > 7:
        for line in open(sys.argv[7]):
            name, value = line.split()
            disk[name] = int(value)
    rows = {}
    for line in open(results):
        # name, seconds, unit, peak RSS KiB[, CPU seconds (user + sys)]
        f = line.rstrip("\n").split("\t")
        rows[f[0]] = (float(f[1]), f[2], int(f[3]), float(f[4]) if len(f) > 4 else float("nan"))
    commit, machine = provenance()
    records = []

    def add_disk(prefix, n, what):
        src, db, ds = (disk.get("%s%s_%s" % (prefix, k, n)) for k in ("source", "db", "dataset"))
        if src and db:
            add("%sdatabase_%s_bytes" % (prefix, n), db / 1e6, "MB", "%ssource_%s" % (prefix, n), src / 1e6, div(db, src),
                "the study database against its source, %s%s" % (what, " (issue 26 goal: ratio <= 2)" if prefix else ""))
        if src and ds:
            add("%sdataset_%s_bytes" % (prefix, n), ds / 1e6, "MB", "%ssource_%s" % (prefix, n), src / 1e6, div(ds, src),
                "nx-convert --dataset's files against the source, %s" % what)

    def add(name, value, unit, baseline=None, baseline_value=None, ratio=None, note=None):
        r = {"kind": "bench", "name": name, "value": round(value, 6), "unit": unit}
        if baseline and baseline_value:
            r.update(baseline=baseline, baseline_value=round(baseline_value, 6), ratio=round(ratio, 3))
        if note:
            r["note"] = note
        r.update(machine=machine, commit=commit)
        records.append(r)

    for n in sizes:
        conv, parse = rows.get("convert_db_%s" % n), rows.get("sax_parse_%s" % n)
        only = rows.get("convert_parse_only_%s" % n)
        if conv:
            add("ingest_%s_events_seconds" % n, conv[0], "s", "sax_parse_%s" % n, parse[0], div(conv[0], parse[0]),
                "nx-convert --db vs RapidJSON SAX parse alone (goal: ratio <= 1.5)")
            add("ingest_%s_events_peak_rss" % n, conv[2] / 1024.0, "MiB", note="goal: < 64 MiB, flat in N")
            add("ingest_%s_events_per_second" % n, int(n) / conv[0], "events/s")
        trace = rows.get("convert_pftrace_%s" % n)
        if trace and only:
            add("pftrace_%s_events_seconds" % n, trace[0], "s", "convert_parse_only_%s" % n, only[0],
                div(trace[0], only[0]), "nx-convert --to pftrace vs nx-convert without output")
            add("pftrace_%s_events_peak_rss" % n, trace[2] / 1024.0, "MiB", note="goal: flat in N (spooled runs)")
        add_disk("", n, "neuron-profile JSON of %s events" % n)
        ds = rows.get("convert_dataset_%s" % n)
        if ds and conv:
            add("dataset_%s_events_seconds" % n, ds[0], "s", "convert_db_%s" % n, conv[0], div(ds[0], conv[0]),
                "nx-convert --dataset vs nx-convert --db of the same profile")
            add("dataset_%s_events_peak_rss" % n, ds[2] / 1024.0, "MiB")
        if only:
            add("parse_and_metrics_%s_events_seconds" % n, only[0], "s", "sax_parse_%s" % n, parse[0],
                div(only[0], parse[0]), "nx-convert without a database (parse, validate, metrics)")
    for to in ("chrome-json", "events"):
        big, small = rows.get("string_big_%s" % to), rows.get("string_small_%s" % to)
        if big and small:
            add("string_64mib_%s_peak_rss" % to, big[2] / 1024.0, "MiB", "string_small_%s" % to, small[2] / 1024.0,
                div(big[2] - small[2], 64 * 1024.0),
                "nx-convert --to %s of a trace with one 64 MiB string; ratio: the extra memory in 64 MiB units" % to)
    py = rows.get("python_ingest_%s" % first)
    conv = rows.get("convert_db_%s" % first)
    if py and conv:
        add("python_baseline_speedup_%s" % first, div(py[0], conv[0]), "x", "python_ingest_%s" % first, py[0],
            div(py[0], conv[0]), "json.load + executemany time over nx-convert time (goal: >= 8)")
        add("python_ingest_%s_peak_rss" % first, py[2] / 1024.0, "MiB")
    lim = rows.get("sqlite_insert_limit_%s" % first)
    if lim and conv:
        add("sqlite_insert_limit_%s_seconds" % first, lim[0], "s", note="SQLite inserting the rows nx-convert inserted (every table), alone")
        add("ingest_vs_insert_limit_%s" % first, conv[0], "s", "sqlite_insert_limit_%s" % first, lim[0],
            div(conv[0], lim[0]), "nx-convert --db vs raw SQLite inserts")
    pairs = [(rows.get("pair_convert_db_%s_%d" % (first, k)), rows.get("pair_insert_limit_%s_%d" % (first, k)))
             for k in range(1, PAIRS + 1)]
    if all(a and b for a, b in pairs):
        loads, limits = sum(a[0] for a, _ in pairs), sum(b[0] for _, b in pairs)
        # Each pair's own ratio too: on a VM whose speed drifts, one run
        # cannot tell 1.3 from 1.4 without the spread beside it.
        each = sorted(div(a[0], b[0]) for a, b in pairs)
        add("ingest_vs_insert_limit_paired_%s" % first, loads / PAIRS, "s", "sqlite_insert_limit_paired_%s" % first,
            limits / PAIRS, div(loads, limits),
            "%d back-to-back pairs, total over total (the goal's ratio; issue 26: <= 1.3); each pair's, sorted: %s"
            % (PAIRS, ", ".join("%.2f" % r for r in each)))
    util = rows.get("query_engine_utilization_%s" % first)
    for q in ("engine_overlap", "dma_vs_compute", "timeline", "top_opcodes", "engine_utilization"):
        r = rows.get("query_%s_%s" % (q, first))
        if not r:
            continue
        if util and q != "engine_utilization":
            add("query_%s_%s_seconds" % (q, first), r[0], "s", "query_engine_utilization_%s" % first, util[0],
                div(r[0], util[0]), "goal for engine_overlap: ratio <= 2" if q == "engine_overlap" else None)
        else:
            add("query_%s_%s_seconds" % (q, first), r[0], "s")
    study = rows.get("study_wall_time")
    if study:
        add("study_wall_time_seconds", study[0], "s", note="make study-all (matmul tiling + patterns) on sim, from scratch")
    for n in pq_sizes:
        conv, ins = rows.get("pq_convert_db_%s" % n), rows.get("pq_sqlite_insert_%s" % n)
        dec, dec_all = rows.get("pq_decode_%s" % n), rows.get("pq_decode_all_%s" % n)
        sax, only = rows.get("pq_sax_parse_%s" % n), rows.get("pq_convert_parse_only_%s" % n)
        if conv and ins:
            add("parquet_ingest_%s_seconds" % n, conv[0], "s", "pq_sqlite_insert_%s" % n, ins[0], div(conv[0], ins[0]),
                "nx-convert --db of an Explorer profile (%s instructions + %s DMA packets) vs SQLite inserting the same "
                "rows alone (goal: ratio <= 1.25)" % (n, n))
        if conv and ins and not math.isnan(conv[3]) and not math.isnan(ins[3]):
            add("parquet_ingest_%s_cpu_seconds" % n, conv[3], "s", "pq_sqlite_insert_%s_cpu" % n, ins[3],
                div(conv[3], ins[3]), "CPU (user + sys) of nx-convert --db (two threads) vs CPU of the same inserts: "
                "what the ratio is when other load leaves nx no second core")
        if conv:
            add("parquet_ingest_%s_peak_rss" % n, conv[2] / 1024.0, "MiB", note="goal: < 96 MiB, flat in N")
            add("parquet_ingest_%s_events_per_second" % n, 2 * int(n) / conv[0], "events/s")
        if dec and sax:
            add("parquet_decode_%s_seconds" % n, dec[0], "s", "pq_sax_parse_%s" % n, sax[0], div(dec[0], sax[0]),
                "TableReader over the columns the importer maps vs RapidJSON SAX over the same events as JSON "
                "(goal: ratio <= 0.2, decode >= 5x faster)")
            add("parquet_decode_%s_peak_rss" % n, dec[2] / 1024.0, "MiB")
        if dec_all and dec:
            add("parquet_decode_all_columns_%s_seconds" % n, dec_all[0], "s", "pq_decode_%s" % n, dec[0],
                div(dec_all[0], dec[0]), "every column (nx-convert keeps the unmapped ones in args) vs the mapped ones")
        if only and dec_all:
            add("parquet_import_no_db_%s_seconds" % n, only[0], "s", "pq_decode_all_%s" % n, dec_all[0],
                div(only[0], dec_all[0]), "nx-convert without a database (decode, mapping, args JSON, metrics) vs decode alone")
        if conv and only:
            add("parquet_db_stage_%s_seconds" % n, conv[0] - only[0], "s", "pq_sqlite_insert_%s" % n, ins[0] if ins else None,
                div(conv[0] - only[0], ins[0]) if ins else None, "nx-convert --db minus nx-convert without a database")
        add_disk("pq_", n, "Explorer profile of %s instructions + %s DMA packets" % (n, n))
        ds = rows.get("pq_convert_dataset_%s" % n)
        if ds and conv:
            add("parquet_dataset_%s_seconds" % n, ds[0], "s", "pq_convert_db_%s" % n, conv[0], div(ds[0], conv[0]),
                "nx-convert --dataset vs nx-convert --db of the same Explorer profile")
            add("parquet_dataset_%s_peak_rss" % n, ds[2] / 1024.0, "MiB")
        q, duck = rows.get("pq_query_dataset_engine_busy_%s" % n), rows.get("pq_duckdb_group_by_%s" % n)
        if q and duck:
            add("parquet_dataset_query_engine_busy_%s_seconds" % n, q[0], "s", "pq_duckdb_group_by_%s" % n, duck[0],
                div(q[0], duck[0]), "nx-query --dataset rank_engine_busy (process, from the per-profile engines "
                "table) vs DuckDB's GROUP BY engine over the source's Instruction*.parquet")
        q, duck = rows.get("pq_query_engine_utilization_%s" % n), rows.get("pq_duckdb_group_by_%s" % n)
        if q and duck:
            add("parquet_query_engine_utilization_%s_seconds" % n, q[0], "s", "pq_duckdb_group_by_%s" % n, duck[0],
                div(q[0], duck[0]), "nx-query engine_utilization (process) on the loaded database vs DuckDB's GROUP BY "
                "engine over Instruction*.parquet (query time, one thread)")
        cp = rows.get("pq_query_critical_path_%s" % n)
        if cp:
            add("parquet_critical_path_%s_seconds" % n, cp[0], "s", note="nx-query critical_path on the loaded database")
            add("parquet_critical_path_%s_peak_rss" % n, cp[2] / 1024.0, "MiB",
                note="the graph on disk, walked in one sweep (goal: < 100 MiB at 5M, flat in N)")
    if len(pq_sizes) > 1:
        a, b = rows.get("pq_query_critical_path_%s" % pq_sizes[0]), rows.get("pq_query_critical_path_%s" % pq_sizes[-1])
        if a and b:
            add("parquet_critical_path_peak_rss_growth", b[2] / 1024.0, "MiB", "parquet_critical_path_%s_peak_rss" % pq_sizes[0],
                a[2] / 1024.0, b[2] / a[2], "critical_path's peak RSS at %s vs at %s" % (pq_sizes[-1], pq_sizes[0]))
        a, b = rows.get("pq_convert_db_%s" % pq_sizes[0]), rows.get("pq_convert_db_%s" % pq_sizes[-1])
        if a and b:
            add("parquet_ingest_peak_rss_growth", b[2] / 1024.0, "MiB", "parquet_ingest_%s_peak_rss" % pq_sizes[0],
                a[2] / 1024.0, b[2] / a[2], "peak RSS at %s vs at %s (goal: flat, ratio about 1)" % (pq_sizes[-1], pq_sizes[0]))
    for line in open(extra):
        if line.strip():
            r = json.loads(line)
            r.setdefault("kind", "bench")
            r.setdefault("machine", machine)
            r.setdefault("commit", commit)
            records.append(r)
    with open(out, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    w = max((len(r["name"]) for r in records), default=6)
    print("%-*s  %14s  %-9s %10s  %s" % (w, "figure", "value", "unit", "ratio", "baseline"))
    for r in records:
        ratio = "%.3g" % r["ratio"] if "ratio" in r else ""
        print("%-*s  %14.6g  %-9s %10s  %s" % (w, r["name"], r["value"], r["unit"], ratio, r.get("baseline", "")))
    print("records: %s" % out)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Cross-check, run by hand: do nx's two Neuron importers give the same answers
for one profile?  Feeds a neuron-profile JSON file and the Explorer Parquet
directory json_to_explorer.mjs made from it through nx-convert (profile record;
--db then `nx-query engine_utilization` and per-type event/track counts;
`nx-report --format text`) and prints every answer that differs, field by
field.  Not part of `make test` (the inputs are not in the repository).

  test/crosscheck/compare.py PROFILE.json PARQUET_DIR [--bin build/bin] [--work DIR]

Tolerance: values equal within 1e-6 relative count as equal (Explorer's
Summary holds float32, about 7 significant digits); smaller differences are
listed separately as "float32 rounding".  Exit 0 when nothing differs beyond
that, 1 otherwise.  See README.md in this directory.
"""
import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile

REL_TOL = 1e-6
ROUND_TOL = 1e-6  # float32 keeps ~7 digits: below this, it is the float32 column


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"compare.py: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    return p.stdout


def record(bin_dir, src):
    out = run([os.path.join(bin_dir, "nx-convert"), src])
    recs = [json.loads(line) for line in out.splitlines() if line.strip()]
    profiles = [r for r in recs if r.get("kind") == "profile"]
    if len(profiles) != 1:
        sys.exit(f"compare.py: {src}: expected one profile record, got {len(profiles)}")
    return profiles[0]


def database(bin_dir, src, work, tag):
    db = os.path.join(work, tag + ".db")
    if os.path.exists(db):
        os.remove(db)
    run([os.path.join(bin_dir, "nx-convert"), "--db", db, src])
    q = lambda *a: [json.loads(l) for l in run([os.path.join(bin_dir, "nx-query"), "--db", db, "-f", "jsonl", *a]).splitlines() if l.strip()]
    util = {r["engine"]: {k: v for k, v in r.items() if k not in ("profile", "engine")} for r in q("engine_utilization")}
    events = {f'{r["type"]}': r for r in q("--sql", "SELECT type, COUNT(*) AS n, SUM(dur) AS dur_ns, SUM(bytes) AS bytes FROM event GROUP BY type")}
    tracks = {f'{r["kind"]}': r["n"] for r in q("--sql", "SELECT kind, COUNT(*) AS n FROM track GROUP BY kind")}
    counters = {r["name"]: {"samples": r["n"], "sum": r["s"]} for r in q(
        "--sql", "SELECT t.name AS name, COUNT(*) AS n, SUM(c.value) AS s FROM counter c JOIN track t ON t.id = c.track_id GROUP BY t.name")}
    report = run([os.path.join(bin_dir, "nx-report"), "--db", db, "--format", "text"])
    return {"engine_utilization": util, "events_by_type": events, "tracks_by_kind": tracks, "counters": counters}, report


def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def walk(a, b, path, out):
    """Collects (path, a, b, kind) for every leaf that differs."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a:
                out.append((f"{path}.{k}", "(absent)", b[k], "only parquet"))
            elif k not in b:
                out.append((f"{path}.{k}", a[k], "(absent)", "only json"))
            else:
                walk(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append((f"{path}[len]", len(a), len(b), "differs"))
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}[{i}]", out)
    elif num(a) and num(b):
        if a == b:
            return
        rel = abs(a - b) / max(abs(a), abs(b))
        if rel <= ROUND_TOL:
            out.append((path, a, b, "float32 rounding"))
        else:
            out.append((path, a, b, f"differs ({rel:.3g} rel)"))
    elif a != b:
        out.append((path, a, b, "differs"))


# Record fields that name the source, not the profile's content.
SOURCE_FIELDS = {"id", "name", "source", "format"}
# Record fields each importer carries from its own format (the JSON's arrays,
# Explorer's metadata/tables); listed, not compared.
CARRIED = {"dma_queues_info", "layers", "metadata", "model_info", "nc_mem_usage", "neff_header", "neff_node",
           "profile_info", "summary_fields", "summary_group_order", "summary_groups", "terminology", "versions",
           "ham", "explorer_tables", "profile_schema_version", "metric_origin"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json_file")
    ap.add_argument("parquet_dir")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin"))
    ap.add_argument("--work", help="where the two study databases go (default: a temporary directory)")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="nx-crosscheck-")
    os.makedirs(work, exist_ok=True)

    rj, rp = record(args.bin, args.json_file), record(args.bin, args.parquet_dir)
    carried = {"json": sorted(k for k in rj if k in CARRIED), "parquet": sorted(k for k in rp if k in CARRIED)}
    strip = lambda r: {k: v for k, v in r.items() if k not in SOURCE_FIELDS and k not in CARRIED}
    diffs = []
    walk(strip(rj), strip(rp), "record", diffs)
    dj, report_j = database(args.bin, args.json_file, work, "json")
    dp, report_p = database(args.bin, args.parquet_dir, work, "parquet")
    walk(dj, dp, "db", diffs)

    # The reports name their profile; the rest must match line for line.
    lines_j = report_j.replace(rj["name"], "<profile>").splitlines()
    lines_p = report_p.replace(rp["name"], "<profile>").splitlines()
    # The source line names the input path and format: not an answer.
    # The title's underline is as long as the profile's name.
    keep = lambda lines: [l for l in lines if not l.lstrip().startswith("source ") and set(l) != {"="}]
    report_diff = [l for l in difflib.unified_diff(keep(lines_j), keep(lines_p), "json", "parquet", n=0, lineterm="")
                   if not l.startswith(("---", "+++", "@@"))]

    rounding = [d for d in diffs if d[3] == "float32 rounding"]
    real = [d for d in diffs if d[3] != "float32 rounding"]
    print(f"# {os.path.basename(args.json_file)} (json) vs {args.parquet_dir} (parquet)")
    print(f"carried, not compared: json {carried['json']}; parquet {carried['parquet']}")
    print(f"{len(real)} differences, {len(rounding)} within float32 rounding, {len(report_diff)} report lines differ (- json, + parquet)")
    for path, a, b, kind in real:
        print(f"  {path}: json={json.dumps(a)[:120]} parquet={json.dumps(b)[:120]}  [{kind}]")
    if rounding:
        print("float32 rounding: " + ", ".join(p for p, *_ in rounding))
    for line in report_diff:
        print("  " + line)
    return 1 if real or report_diff else 0


if __name__ == "__main__":
    sys.exit(main())

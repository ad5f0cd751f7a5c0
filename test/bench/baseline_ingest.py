#!/usr/bin/env python3
"""What users do today: json.load the neuron-profile JSON, executemany into sqlite3.

    baseline_ingest.py profile.json out.db

Prints {"name":"python_ingest","value":seconds,"unit":"s"}.  This is the
baseline nx-convert is measured against in `make bench`.
"""
import json
import os
import sqlite3
import sys
import time


def main():
    src, dbpath = sys.argv[1], sys.argv[2]
    t0 = time.monotonic()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(dbpath + suffix):
            os.remove(dbpath + suffix)
    with open(src) as f:
        data = json.load(f)
    db = sqlite3.connect(dbpath)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE event(id INTEGER PRIMARY KEY, kind TEXT, ts INTEGER, dur INTEGER, "
               "label TEXT, opcode TEXT, hlo_name TEXT, layer TEXT, bytes INTEGER, args TEXT)")
    known = {"timestamp", "duration", "label", "opcode", "hlo_name", "layer", "transfer_size", "subgroup"}
    rows = []
    for kind in ("instruction", "dma"):
        for r in data.get(kind, []):
            args = {k: v for k, v in r.items() if k not in known}
            rows.append((kind, r["timestamp"], r["duration"], r.get("label") or r.get("subgroup"),
                         r.get("opcode"), r.get("hlo_name"), r.get("layer"), r.get("transfer_size"),
                         json.dumps(args)))
    db.executemany("INSERT INTO event(kind, ts, dur, label, opcode, hlo_name, layer, bytes, args) "
                   "VALUES (?,?,?,?,?,?,?,?,?)", rows)
    db.commit()
    db.close()
    print(json.dumps({"name": "python_ingest", "value": round(time.monotonic() - t0, 6), "unit": "s"}))


if __name__ == "__main__":
    main()

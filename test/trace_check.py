#!/usr/bin/env python3
"""Checks for the trace suite (test/50-trace.bats).

  trace_check.py raw TRACE.pftrace        protoc --decode_raw's view: per track,
      begin/end balance and time order; prints "begins ends tracks"
  trace_check.py compare EVENTS.jsonl DUMP.jsonl
      the source events (nx-convert --to events) against the decoded trace
      (test-pftrace_dump): per row (overflow lanes folded back), the same
      (ts, dur, name) multiset; prints "OK <slices>" or the differences
  trace_check.py tables TRACE.pftrace STUDY.db
      Perfetto's tables of the trace, read as trace processor reads it (from
      protoc --decode_raw: per track, a begin opens a slice at the depth of
      the slices open there, nested in the innermost; an end closes the
      innermost; counter events are counter rows; every track descriptor but
      the process's is a track) against nx's tables of the same profile
      (slice and track with Python's sqlite3, counter as nx-query shows it,
      with nx's DMA counters): the same tracks, each
      with the same slices (time, depth, parent) or counter samples.  Prints
      "OK depth {0: n, 1: m, ...} parented P counters C tracks T" or the
      differences
"""
import collections
import json
import re
import sqlite3
import struct
import subprocess
import sys


def parse_text_format(text):
    """protoc --decode_raw output -> nested lists of (field, value)."""
    root = []
    stack = [root]
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        m = re.match(r"^(\d+) \{$", line)
        if m:
            child = []
            stack[-1].append((int(m.group(1)), child))
            stack.append(child)
            continue
        m = re.match(r"^(\d+): (.*)$", line)
        if not m:
            raise SystemExit("cannot parse protoc line: " + line)
        stack[-1].append((int(m.group(1)), m.group(2)))
    return root


def field(msg, number):
    for f, v in msg:
        if f == number:
            return v
    return None


def raw(path):
    with open(path, "rb") as f:
        text = subprocess.run(["protoc", "--decode_raw"], stdin=f, capture_output=True, text=True, check=True).stdout
    packets = [v for f, v in parse_text_format(text) if f == 1]
    depth = collections.Counter()
    last_ts = {}
    declared = set()
    begins = ends = 0
    for p in packets:
        desc = field(p, 60)
        if desc is not None:
            declared.add(int(field(desc, 1)))
        ev = field(p, 11)
        if ev is None:
            continue
        ts = int(field(p, 8))
        kind = int(field(ev, 9))
        track = int(field(ev, 11))
        if track not in declared:
            raise SystemExit("event on undeclared track %d" % track)
        if ts < last_ts.get(track, ts):
            raise SystemExit("track %d goes back in time at %d" % (track, ts))
        last_ts[track] = ts
        if kind == 1:
            begins += 1
            depth[track] += 1
        elif kind == 2:
            ends += 1
            depth[track] -= 1
            if depth[track] < 0:
                raise SystemExit("end without begin on track %d at %d" % (track, ts))
    if any(depth.values()):
        raise SystemExit("slices left open: %s" % dict(depth))
    print(begins, ends, len(declared))


def double(text):
    """A fixed64 field as protoc --decode_raw prints it (0x...) read as a double."""
    return struct.unpack("<d", int(text, 16).to_bytes(8, "little"))[0]


def trace_tables(path):
    """Perfetto's tables of a pftrace, per track (tracks are anonymous:
    protoc --decode_raw cannot tell a name from a nested message): each
    track's slices as (ts, dur, depth, parent's ts and dur) and counter
    samples as (ts, value)."""
    with open(path, "rb") as f:
        text = subprocess.run(["protoc", "--decode_raw"], stdin=f, capture_output=True, text=True, check=True).stdout
    slices = {}    # track uuid -> slices, in begin order
    counters = {}  # track uuid -> samples
    open_slices = collections.defaultdict(list)  # track uuid -> its open slices, innermost last
    for f, p in parse_text_format(text):
        if f != 1:
            continue
        desc = field(p, 60)
        if desc is not None:
            if field(desc, 3) is None:  # every track but the process's
                (counters if field(desc, 8) is not None else slices)[int(field(desc, 1))] = []
            continue
        ev = field(p, 11)
        if ev is None:
            continue
        ts, kind, track = int(field(p, 8)), int(field(ev, 9)), int(field(ev, 11))
        stack = open_slices[track]
        if kind == 1:
            parent = stack[-1] if stack else None
            slices[track].append({"ts": ts, "dur": None, "depth": len(stack), "parent": parent})
            stack.append(slices[track][-1])
        elif kind == 2:
            s = stack.pop()
            s["dur"] = ts - s["ts"]
        elif kind == 4:
            counters[track].append((ts, double(field(ev, 44))))
    def row(s):
        return (s["ts"], s["dur"], s["depth"], (s["parent"]["ts"], s["parent"]["dur"]) if s["parent"] else None)
    return [[row(s) for s in v] for v in slices.values()], list(counters.values())


def database_tables(path):
    """nx's slice, counter and track tables, per track, like trace_tables'."""
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    slices = {t: [] for (t,) in db.execute("SELECT id FROM track WHERE kind != 'counter'")}
    counters = {t: [] for (t,) in db.execute("SELECT id FROM track WHERE kind = 'counter'")}
    for t, ts, dur, depth, pts, pdur in db.execute(
            "SELECT s.track_id, s.ts, s.dur, s.depth, p.ts, p.dur FROM slice s LEFT JOIN slice p ON p.id = s.parent_id"):
        slices[t].append((ts, dur, depth, (pts, pdur) if pts is not None else None))
    # The counter table as nx's own connections show it (nx-query): the
    # stored samples and nx's DMA counters, computed when asked.  %!.17g:
    # every bit of the double.
    out = subprocess.run(["nx-query", "--db", path, "--format", "csv", "--sql",
                          "SELECT track_id, ts, printf('%!.17g', value) FROM counter"],
                         check=True, capture_output=True, text=True).stdout.splitlines()[1:]
    for line in out:
        t, ts, value = line.split(",")
        counters[int(t)].append((int(ts), float(value)))
    return list(slices.values()), list(counters.values())


def tables(trace_path, db_path):
    trace, db = trace_tables(trace_path), database_tables(db_path)
    bad = False
    for what, a, b in zip(("slice tracks", "counter tracks"), trace, db):
        # Each track as the multiset of its rows; the tables as the multiset of their tracks.
        ca = collections.Counter(tuple(sorted(t, key=repr)) for t in a)
        cb = collections.Counter(tuple(sorted(t, key=repr)) for t in b)
        if ca != cb:
            bad = True
            print("%s only in the trace:" % what, [k[:3] for k in (ca - cb)][:3])
            print("%s only in the database:" % what, [k[:3] for k in (cb - ca)][:3])
    if bad:
        raise SystemExit(1)
    slices, counters = trace
    rows = [s for t in slices for s in t]
    depth = dict(sorted(collections.Counter(s[2] for s in rows).items()))
    print("OK depth", depth, "parented", sum(1 for s in rows if s[3] is not None),
          "counters", sum(len(t) for t in counters), "tracks", len(slices) + len(counters))


def compare(events_path, dump_path):
    source = collections.Counter()
    for line in open(events_path):
        r = json.loads(line)
        if r.get("kind") == "event" and r["type"] != "counter":
            source[(r["track"], r["ts_ns"], max(r["dur_ns"], 0), r.get("name") or r.get("opcode"))] += 1
    traced = collections.Counter()
    for line in open(dump_path):
        r = json.loads(line)
        if r["kind"] == "slice":
            row = re.sub(r" \(\d+\)$", "", r["track"])
            traced[(row, r["ts"], r["dur"], r["name"])] += 1
    if source != traced:
        print("only in source:", list((source - traced).items())[:5])
        print("only in trace:", list((traced - source).items())[:5])
        raise SystemExit(1)
    print("OK", sum(traced.values()))


if __name__ == "__main__":
    if sys.argv[1] == "raw":
        raw(sys.argv[2])
    elif sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "tables":
        tables(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit("unknown check " + sys.argv[1])

#!/usr/bin/env python3
"""Checks for the trace suite (test/50-trace.bats).

  trace_check.py raw TRACE.pftrace        protoc --decode_raw's view: per track,
      begin/end balance and time order; prints "begins ends tracks"
  trace_check.py compare EVENTS.jsonl DUMP.jsonl
      the source events (nx-convert --to events) against the decoded trace
      (test-pftrace_dump): per row (overflow lanes folded back), the same
      (ts, dur, name) multiset; prints "OK <slices>" or the differences
"""
import collections
import json
import re
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
    else:
        raise SystemExit("unknown check " + sys.argv[1])

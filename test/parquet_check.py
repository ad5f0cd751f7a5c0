#!/usr/bin/env python3
"""parquet_check.py FILE...: decodes each Parquet fixture with nx's reader
(test-parquet_dump) and compares every row with the .expected.jsonl the
writer's script wrote next to it.  Prints one line per file, "ok" or what
differs; exit 1 when any file differs.  Values compare as the writer gave
them: integers exactly, floats exactly (float32 columns were written as
float32-rounded doubles), byte strings as hex (UUIDs without dashes)."""
import json
import os
import subprocess
import sys

DUMP = os.path.join(os.environ.get("NX_BIN", "build/bin"), "test-parquet_dump")


def norm(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, str):
        try:
            return int(v)  # int64 beyond 2^53 are written as strings
        except ValueError:
            return v
    return v


def check(path):
    expected = [json.loads(l) for l in open(path + ".expected.jsonl", encoding="utf-8")]
    r = subprocess.run([DUMP, path], capture_output=True, text=True)
    if r.returncode != 0:
        return "reader failed: " + r.stderr.strip()
    got = [json.loads(l) for l in r.stdout.splitlines()]
    if len(got) != len(expected):
        return "%d rows, expected %d" % (len(got), len(expected))
    for i, (g, e) in enumerate(zip(got, expected)):
        for k, want in e.items():
            if k not in g:
                return "row %d: no column %s" % (i, k)
            have = g[k]
            if isinstance(want, str) and len(want) == 36 and want.count("-") == 4:
                want = want.replace("-", "")  # a UUID, read as its 16 bytes
            if norm(have) != norm(want):
                return "row %d, column %s: %r, expected %r" % (i, k, have, want)
    return None


def main():
    bad = 0
    for path in sys.argv[1:]:
        problem = check(path)
        print("%s: %s" % (path, problem or "ok"))
        bad += problem is not None
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

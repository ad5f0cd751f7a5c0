#!/usr/bin/env bats
# PyTorch profiler (Kineto) traces (issue 10): test/fixtures/kineto.json, made by
# make_fixtures.py, reproduces what Kineto writes: µs timestamps around 1.7e15
# with three decimals, CPU ops, CUDA runtime, kernels and flows, names last.

load test_helper

@test "chrome traces: decimal µs timestamps become the exact integer ns, not a double's" {
    nx-convert "$FIXTURES/kineto.json" --to events >ev.jsonl
    # Every slice's ts and dur as the file's text says, to the ns.
    run python3 -c "
import json, re
from decimal import Decimal
src = json.load(open('$FIXTURES/kineto.json'), parse_float=Decimal)['traceEvents']
want = sorted((int(e['ts'] * 1000), int(e['dur'] * 1000)) for e in src if e['ph'] == 'X')
got = sorted((x['ts_ns'], x['dur_ns']) for x in map(json.loads, open('ev.jsonl')) if x['kind'] == 'event')
print(want == got, len(got))
# Through a double, most of these move.
print(sum(1 for e in src if e['ph'] == 'X' and round(float(e['ts']) * 1000) != int(e['ts'] * 1000)) > 0)"
    [ "${lines[0]}" = "True 6" ]
    [ "${lines[1]}" = True ]
    [ "$(jget ev.jsonl "[x['ts_ns'] for x in r if x.get('name') == 'aten::addmm'][0]")" = 1695835535123457789 ]
    # The database keeps them too.
    nx-convert "$FIXTURES/kineto.json" --db s.db >/dev/null
    [ "$(sqlite3 s.db "SELECT ts, dur FROM slice WHERE name = 'cudaLaunchKernel'")" = "1695835535123458001|5500" ]
}

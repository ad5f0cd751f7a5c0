bats_require_minimum_version 1.5.0
# Shared setup for the Bats suites.

#   NX_BIN  directory of the binaries under test (set by test/run; default build/bin)
NX_ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
NX_BIN=${NX_BIN:-$NX_ROOT/build/bin}
FIXTURES=$BATS_TEST_DIRNAME/fixtures
FAKES=$BATS_TEST_DIRNAME/fakes
export PATH="$NX_BIN:$PATH"
# Tests must not see a real profiler or driver from the machine.
export NX_NEURON_PROFILER=
unset NX_DATA_DIR

setup() {
    cd "$BATS_TEST_TMPDIR" || return 1
}

# session_capture_tree DIR: the runtime's capture layout of Neuron Explorer
# session exports, the fixture's session on 4 cores: DIR/i-0abc_pid_{100,200}/
# job_profile_nc_{0,1}_session_1@latest.
session_capture_tree() {
    local p n
    for p in 100 200; do
        for n in 0 1; do
            mkdir -p "$1/i-0abc_pid_$p"
            cp -r "$FIXTURES/parquet/explorer/session@latest" "$1/i-0abc_pid_$p/job_profile_nc_${n}_session_1@latest"
        done
    done
}

# refute CMD [ARGS...]: fails when CMD succeeds.  Bats runs a test under
# set -e, which spares a negated command ("! grep -q x f" mid-test passes
# whatever grep finds) and every command of an && list but the last;
# test/03-assertions.bats keeps both out of the suite.
refute() {
    if "$@"; then
        echo "refute: this succeeded: $*" >&2
        return 1
    fi
}

# jget FILE-or-- EXPR: evaluates a Python expression over the JSON records of
# a JSONL file (list `r`), prints the result.  Example:
#   jget out.jsonl 'r[0]["metrics"]["total_time"]'
jget() {
    local file=$1 expr=$2
    python3 -c '
import json, sys
src = sys.stdin if sys.argv[1] == "-" else open(sys.argv[1])
r = [json.loads(l) for l in src if l.strip()]
v = eval(sys.argv[2])
print(json.dumps(v) if not isinstance(v, str) else v)
' "$file" "$expr"
}

# Every line of a file is a JSON object (valid UTF-8)?
assert_jsonl() {
    python3 -c '
import json, sys
for n, l in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    if l.strip():
        assert isinstance(json.loads(l), dict), "line %d is not an object" % n
' "$1"
}

# A stable digest of a study database's contents (for "left as it was").
db_digest() {
    sqlite3 "$1" "SELECT uid, name, event_count FROM profile ORDER BY uid;
                  SELECT count(*) FROM event; SELECT count(*) FROM metric; SELECT count(*) FROM track;" | md5sum
}

# Runs "$@" with standard output on a terminal (a pty) and prints what it
# wrote there (CRLF as LF); standard error goes where it went.
on_terminal_stdout() {
    timeout 60 python3 - "$@" <<'PY'
import os, pty, subprocess, sys
m, s = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=s)
os.close(s)
out = b""
while True:
    try:
        chunk = os.read(m, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
sys.stdout.write(out.decode().replace("\r\n", "\n"))
sys.exit(p.wait())
PY
}

# gloo_job DIR RANKS LATE_RANK [NUDGED_RANK [STEPS [FIRST]]]: a torch.distributed
# job's traces as PyTorch's profiler writes them (shaped like HTA's rank-34
# real sample): "distributedInfo" with the rank, c10d's "gloo:all_reduce"
# slices on a communication thread, ProfilerStep#N on the main one (STEPS=0:
# none); three steps of two all_reduces, the second of each started 30 ms
# late by LATE_RANK, whose peers wait for it (their all_reduce lasts 60 ms
# longer).  With NUDGED_RANK, each step has a third all_reduce, and that rank
# starts the first and the third 1 ms late: it is last more often, LATE_RANK
# last on each step's most variable one (-1: none).  FIRST: the first step's
# number (a profiler window later in the run: files and times apart).
gloo_job() {
    python3 - "$@" <<'PY'
import json, os, sys
out, ranks, late_rank = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
nudged = int(sys.argv[4]) if len(sys.argv) > 4 else -1
steps = int(sys.argv[5]) if len(sys.argv) > 5 else 3
first = int(sys.argv[6]) if len(sys.argv) > 6 else 0
os.makedirs(out, exist_ok=True)
for r in range(ranks):
    ev, t = [], 1_700_000_000_000.125 + first * 700000
    for step in range(first, first + 3):
        if steps:
            ev.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step}", "pid": 7, "tid": 1, "ts": t, "dur": 600000})
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 1, "ts": t + 10, "dur": 100000})
        for k in range(3 if nudged >= 0 else 2):
            late = 30000 if k == 1 and r == late_rank else 1000 if k != 1 and r == nudged else 0
            dur = 100000 - late if r == late_rank and k == 1 else 100000 + (30000 if k == 1 else 0)
            ev.append({"ph": "X", "cat": "user_annotation", "name": "gloo:all_reduce", "pid": 7, "tid": 2,
                       "ts": t + 120000 + k * 130000 + late, "dur": dur, "args": {"Input Dims": [[1024]], "Input type": ["float"]}})
        t += 700000
    ev += [{"ph": "M", "name": "thread_name", "pid": 7, "tid": 1, "args": {"name": "thread 1 (pt_main_thread)"}},
           {"ph": "M", "name": "thread_name", "pid": 7, "tid": 2, "args": {"name": "thread 2 (comm)"}}]
    info = {"backend": "gloo", "rank": r, "world_size": ranks, "pg_count": 1,
            "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "pg_size": ranks, "ranks": list(range(ranks))}]}
    json.dump({"schemaVersion": 1, "deviceProperties": [], "distributedInfo": info, "traceEvents": ev,
               "traceName": f"rank-{r}.pt.trace.json"}, open(f"{out}/host_{1000 + r}.{1700000000 + first}.pt.trace.json", "w"))
PY
}

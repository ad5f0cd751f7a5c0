#!/usr/bin/env bats
# The library's folders are layers (the README's layout table, lowest
# first): a file may include only its own folder and the folders above it in
# the table.  This reads the table and every #include of common/, cmd/ and
# test/unit, so an include that points the wrong way fails the suite.

load test_helper

# check_layers ROOT: prints every include that breaks the order; exit 1 then.
check_layers() {
    python3 - "$1" <<'PY'
import os, re, sys
root = sys.argv[1]
readme = open(os.path.join(root, "README.md")).read()
table = readme[readme.index("| folder | what lives there |"):]
order = []
for line in table.splitlines()[2:]:
    m = re.match(r"\| `(\w+)/` \|", line)
    if not m:
        break
    order.append(m.group(1))
rank = {f: i for i, f in enumerate(order)}
bad = []
folders = sorted(d for d in os.listdir(os.path.join(root, "common")) if os.path.isdir(os.path.join(root, "common", d)))
for d in folders:
    if d not in rank:
        bad.append(f"common/{d}/ is not in the README's layout table")
for base, _, files in os.walk(os.path.join(root, "common")):
    for f in files:
        if not f.endswith((".cpp", ".h")):
            continue
        path = os.path.join(base, f)
        rel = os.path.relpath(path, root)
        mine = rel.split("/")[1]
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            m = re.match(r'\s*#\s*include\s+"common/(\w+)/', line)
            if m and m.group(1) in rank and mine in rank and rank[m.group(1)] > rank[mine]:
                bad.append(f"{rel}:{n}: {mine}/ includes {m.group(1)}/, which comes after it in the layout table")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}

@test "layers: no file of common/ includes a folder below its own in the README's layout table" {
    run check_layers "$NX_ROOT"
    echo "$output"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "layers: the check fails on an include that points down the table, naming file and line" {
    mkdir -p tree/common/io tree/common/records tree/common/extra
    cp "$NX_ROOT/README.md" tree/
    printf '#include "common/io/error.h"\n#include "common/records/jsonl.h"\n' >tree/common/io/bad.h
    printf '#include "common/io/error.h"\n' >tree/common/records/good.h
    run check_layers tree
    [ "$status" -eq 1 ]
    [[ "$output" == *"common/io/bad.h:2: io/ includes records/, which comes after it in the layout table"* ]]
    [[ "$output" == *"common/extra/ is not in the README's layout table"* ]]
    [[ "$output" != *"good.h"* ]]
}

@test "test files: no two Bats files share a number" {
    dup=$(ls "$NX_ROOT"/test/*.bats | xargs -n1 basename | cut -d- -f1 | sort | uniq -d)
    [ -z "$dup" ] || { echo "numbered twice: $dup"; false; }
}

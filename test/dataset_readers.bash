# What each reader of a dataset sees, and the checks that they agree
# (nx(7) DATASET, "The commit"): sourced by test/74-dataset-safety.bats and
# by test/bench/commit_kills.
#
# Three readers: the file system as an engine that globs a table's folder
# sees it (DuckDB, Spark, Trino: every *.parquet a glob finds, hidden names
# skipped), nx-query --dataset, and nx-report --ranks.

# glob_view DS: "TABLE RANK STEM" for every file a glob of the tables finds.
glob_view() {
    local ds=$1
    (cd "$ds" && find . -path ./_nx -prune -o -type f -name '*.parquet' ! -name '.*' -print) |
        sed -E 's#^\./([^/]+)/rank=([^/]+)/(.*)\.parquet$#\1 \2 \3#' | sort
}

# profiles_view DS: "RANK STEM" of every profiles file.
profiles_view() { glob_view "$1" | awk '$1 == "profiles" {print $2, $3}' | sort; }

# nx_view DS: "RANK ID" of the profiles nx-query reads (the null partition as
# __HIVE_DEFAULT_PARTITION__, as the folder names it).
nx_view() {
    nx-query --dataset "$1" --format csv \
        --sql "SELECT coalesce(CAST(rank AS TEXT), '__HIVE_DEFAULT_PARTITION__'), profile FROM profiles ORDER BY 1, 2" |
        tail -n +2 | tr ',' ' ' | sort
}

# lines TEXT: TEXT's non-empty lines (an empty TEXT: none).
lines() { printf '%s\n' "$1" | sed '/^$/d'; }

# journals DS: the profiles whose commit a journal says is not finished.
journals() { ls "$1/_nx/commit" 2>/dev/null | grep -v '^\.' | sort; }

# check_settled DS: every reader sees the same profiles, whole: each table's
# files are exactly those of the profiles files, no commit is pending, and
# nx-query and nx-report --ranks read those profiles.
check_settled() {
    local ds=$1 profiles t
    profiles=$(profiles_view "$ds")
    [ -z "$(journals "$ds")" ] || { echo "pending journals: $(journals "$ds")"; return 1; }
    for t in metrics engines breakdown utilization collectives findings opcodes executions tracks events counters; do
        # Tables a profile may have no rows of still get a file.
        diff <(glob_view "$ds" | awk -v t=$t '$1 == t {print $2, $3}') <(lines "$profiles") >/dev/null ||
            { echo "table $t holds other profiles than the profiles files:"; diff <(glob_view "$ds" | awk -v t=$t '$1 == t {print $2, $3}') <(lines "$profiles"); return 1; }
    done
    diff <(nx_view "$ds") <(lines "$profiles") || { echo "nx-query reads other profiles"; return 1; }
    # nx-report --ranks names profiles by name: the ranks it compares are
    # the profiles files' ranks (those with one; a rank's second profile of
    # one graph is one it leaves out, and says so).
    local reported expected
    expected=$(echo "$profiles" | awk 'NF && $1 != "__HIVE_DEFAULT_PARTITION__" {print $1}' | sort -un)
    if [ -n "$expected" ]; then
        reported=$(nx-report "$ds" --ranks --format csv 2>/dev/null |
            python3 -c 'import csv, sys; [print(r["rank"]) for r in csv.DictReader(sys.stdin) if r["kind"] == "rank"]' | sort -un)
        [ "$reported" = "$expected" ] || { echo "nx-report --ranks compares ranks $(echo $reported), not $(echo $expected)"; return 1; }
    fi
}

# check_explained DS: what a stop left is whole to nx's readers (they read a
# profile's tables only beside its profiles file), and every file a glob
# finds without its profiles file is named by a pending journal, which the
# next writer finishes.
check_explained() {
    local ds=$1 profiles line t rank stem
    profiles=$(profiles_view "$ds")
    diff <(nx_view "$ds") <(lines "$profiles") || { echo "nx-query reads other profiles"; return 1; }
    while read -r t rank stem; do
        [ -n "$t" ] || continue
        grep -qx "$rank $stem" <<<"$profiles" && continue
        journals "$ds" | grep -qx "$stem" || { echo "$t/rank=$rank/$stem.parquet: no profiles file and no journal"; return 1; }
    done < <(glob_view "$ds")
    for t in engines events counters; do
        nx-query --dataset "$ds" --format csv \
            --sql "SELECT DISTINCT coalesce(CAST(rank AS TEXT), '__HIVE_DEFAULT_PARTITION__'), profile FROM $t" |
            tail -n +2 | tr ',' ' ' | while read -r rank stem; do
                grep -qx "$rank $stem" <<<"$profiles" || { echo "nx-query reads $t of $rank $stem, which has no profiles file"; exit 1; }
            done || return 1
    done
}

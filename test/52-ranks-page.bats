#!/usr/bin/env bats
# The ranks page (nx-report --ranks in HTML, make dataset's ranks.html),
# rendered by Debian's chromium headless as 51-html.bats renders the
# reports: the answer first (the straggler on the first screen at 1280 px),
# the heat map, every rank in a table that sorts, nothing wider than the
# page, one offline file; and the page of a dataset with a missing rank,
# two NEFFs, no straggler, and a session's executions.  One chromium run a
# test at most, and only where the browser is the point; the 8- and 64-rank
# pages are made once for the file.  Screenshots go to out/test-artifacts/
# (the paths are printed).  The 1,024-rank page is measured by make
# bench-ranks (test/bench/ranks_page), not here.

load test_helper
load browser

# dataset DIR GEN-ARGS...: a capture tree from test-gen_ranks (DIR.cap, the
# generator's arguments after it), converted into the dataset DIR as make
# dataset plans it, in one task.  A profile that fails is left out.
dataset() {
    local ds=$1
    shift
    test-gen_ranks "$ds.cap" "$@" >/dev/null
    nx-convert --dataset "$ds" --plan "$ds.cap" 2>/dev/null
    nx-convert --dataset "$ds" --tasks 1 --task 0 -q >/dev/null 2>&1 || true
}

# The pages most tests read, made once: 8 ranks (straggler rank 5) and 64
# (straggler rank 61), each PAGES/ranks-N.html.
setup_file() {
    cd "$BATS_FILE_TMPDIR" || return 1
    dataset ds8 --ranks 8 --events 2000 --straggler 5 --late 3000
    nx-report ds8 --ranks -o ranks-8.html
    dataset ds64 --ranks 64 --events 400 --straggler 61 --late 3000
    nx-report ds64 --ranks -o ranks-64.html
}

setup() {
    cd "$BATS_TEST_TMPDIR" || return 1
    PAGES=$BATS_FILE_TMPDIR
}

# assert_answer_first PAGE NAME: at 1280 x 800 (check_layout; the
# screenshot out/test-artifacts/NAME.png) the first straggler's row is on
# the first screen, and nothing is wider than the page or scrolls sideways.
assert_answer_first() {
    check_layout "$1" "$2"
    cat "$2.layout"
    grep -qx 'first straggler-1' "$2.layout"
    grep -qx 'overflow 0' "$2.layout"
    grep -qx 'scrolled 0' "$2.layout"
}

# The text of the first match of a Python regular expression in FILE.
first_match() {
    python3 -c 'import re, sys; m = re.search(sys.argv[2], open(sys.argv[1]).read(), re.S); print(m.group(1) if m else "")' "$1" "$2"
}

@test "ranks page, 8 ranks in chromium: the verdict, then the ranks worth reading with the straggler first, then the heat map, then every rank collapsed" {
    render_page "$PAGES/ranks-8.html" ranks-8
    dom=ranks-8.dom
    # The order of the page: cards, the ranks worth reading, the picture, the table.
    python3 - $dom <<'PY'
import sys
s = open(sys.argv[1]).read()
at = [s.find(x) for x in ('class="cards"', '<table class="notable">', '<figure class="heat-map"', '<details class="every-rank"')]
assert -1 not in at and at == sorted(at), at
PY
    grep -q '<div class="card-key">straggler</div><div class="card-value straggler">rank 5</div>' $dom
    grep -q '<div class="card-key">its largest change against rank 0</div><div class="card-value">tensor_matrix busy time +12 us</div>' $dom
    # The straggler's row first, what differs from the median beside it.
    [ "$(first_match $dom '<table class="notable">.*?<tbody><tr class="straggler" id="straggler-1"><td class="num">(\d+)<')" = 5 ]
    grep -q '<td>tensor_matrix busy time +12 us</td><td class="num">0 ns (median 12 us)</td>' $dom
    # The heat map: compute and collective wait, an image each, a title a
    # rank, the straggler marked in the margin; the table closed.
    [ "$(count_in $dom '<image class="panel"')" -eq 2 ]
    grep -q '>collective wait (% of each bucket)</text>' $dom
    [ "$(first_match $dom '<g class="hits">(.*?)</g>' | grep -o '<rect ' | wc -l)" -eq 8 ]
    grep -q '<title>rank 5 (straggler, waited least): i-0000000000000000_pid_4002/3418752096_instid_0_vnc_1' $dom
    grep -q '<text class="mark-label strong" [^>]*>rank 5 straggler</text>' $dom
    refute grep -q '<details class="every-rank"[^>]* open' $dom
    # The sorting script ran under the page's own policy (it makes the
    # headings focusable; render_page fails on anything logged).
    grep -q '<th class="num" tabindex="0">rank</th>' $dom
}

@test "ranks page at 1280 px, 8 ranks: the straggler on the first screen, nothing wider than the page with every rank's table open" {
    assert_answer_first "$PAGES/ranks-8.html" ranks-first-screen-8
}

@test "ranks page at 1280 px, 64 ranks: a thin row a rank, the straggler on the first screen, nothing wider than the page with every rank's table open" {
    # A thin row a rank: 64 ranks of 10 px.
    grep -q '<image class="panel" data-panel="0" x="150" y="30" width="[0-9]*" height="640"' "$PAGES/ranks-64.html"
    assert_answer_first "$PAGES/ranks-64.html" ranks-first-screen-64
}

@test "the table of every rank sorts by the heading clicked: numbers by value, text in natural order, again to reverse" {
    page_eval "$PAGES/ranks-64.html" sort 1280 800 "
  var t = document.querySelector('table.sortable'), out = [];
  function ranks() { return Array.prototype.map.call(t.tBodies[0].rows, function (r) { return r.cells[0].textContent; }).join(' '); }
  function click(name) { Array.prototype.forEach.call(t.tHead.rows[0].cells, function (th) { if (th.textContent === name) th.click(); }); }
  click('collective wait'); out.push('wait up: ' + ranks());
  click('collective wait'); out.push('wait down: ' + ranks());
  click('profile'); out.push('profile: ' + ranks());
  click('rank'); out.push('rank: ' + ranks());
  click('rank'); out.push('rank down: ' + ranks());
  return out;"
    cat sort.out
    # The straggler (rank 61) waited least, the others alike, in their order.
    grep -qx "wait up: 61 $(seq -s ' ' 0 60) 62 63" sort.out
    grep -qx "wait down: $(seq -s ' ' 0 60) 62 63 61" sort.out
    grep -qx "profile: $(seq -s ' ' 0 63)" sort.out
    grep -qx "rank down: $(seq -s ' ' 63 -1 0)" sort.out
}

@test "the ranks page is one offline file: inline images, one script that the policy allows by its hash, no URL but the SVG namespace" {
    page=$PAGES/ranks-64.html
    [ "$(count_in $page '<script>')" -eq 1 ]
    refute grep -qE '(src|href)="[^d]' $page
    [ "$(grep -oE '(src|href)="data:[a-z/]*' $page | sort -u)" = 'href="data:image/png' ]
    [ "$(grep -oE 'https?://[^"]*' $page | sort -u)" = "http://www.w3.org/2000/svg" ]
    # The policy names the script's own SHA-256, and nothing else may run.
    python3 - $page <<'PY'
import base64, hashlib, re, sys
s = open(sys.argv[1]).read()
script = re.search(r"<script>(.*?)</script>", s, re.S).group(1)
digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
policy = re.search(r'Content-Security-Policy" content="([^"]*)"', s).group(1)
assert policy == "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-%s'" % digest, policy
PY
    # Small: 64 ranks in well under 100 KB.
    [ "$(stat -c %s $page)" -lt 100000 ]
}

@test "two NEFFs: an overview names each graph's straggler on the first screen, and each graph has its own section and heat map" {
    test-gen_ranks cap --ranks 12 --events 400 --straggler 5 --late 3000 >/dev/null
    test-gen_ranks cap --ranks 12 --events 400 --iterations 2 --straggler 2 --late 5000 --neff 777 >/dev/null
    nx-convert --dataset ds --plan cap 2>/dev/null
    nx-convert --dataset ds --tasks 1 --task 0 -q >/dev/null
    nx-report ds --ranks -o ranks.html
    check_layout ranks.html two-neffs
    grep -qx 'first verdict-1' two-neffs.layout
    grep -qx 'first verdict-2' two-neffs.layout
    grep -qx 'overflow 0' two-neffs.layout
    grep -q '<h1>Ranks: 2 graphs, each compared on its own</h1>' ranks.html
    grep -q '<li data-first-screen="verdict-1"><b>NEFF 3418752096</b>: 12 ranks, skew 1x, straggler rank 5 (by collectives)' ranks.html
    grep -q '<li data-first-screen="verdict-2"><b>NEFF 777</b>: 12 ranks, skew 1x, straggler rank 2 (by collectives)' ranks.html
    [ "$(count_in ranks.html '<figure class="heat-map"')" -eq 2 ]
    grep -q 'id="straggler-2"' ranks.html
}

@test "a dataset with a missing rank: the finding first, a card naming the rank, an empty row marked in the heat map, the straggler still on the first screen" {
    test-gen_ranks cap --ranks 12 --events 400 --straggler 5 --late 3000 >/dev/null
    bad=$(ls cap/i-0000000000000001_pid_4010/*vnc_0.json)   # rank 8
    head -c 3000 "$bad" >cut.json
    mv cut.json "$bad"
    nx-convert --dataset ds --plan cap 2>/dev/null
    run nx-convert --dataset ds --tasks 1 --task 0 -q
    run --separate-stderr nx-report ds --ranks -o ranks.html
    [ "$status" -eq 1 ]
    [ "$(first_match ranks.html '<main>\s*(<[a-z]+ class="[a-z]+")')" = '<ul class="findings"' ]
    grep -q '<div class="card-key">no profile of</div><div class="card-value straggler">rank 8</div>' ranks.html
    grep -q '<title>rank 8: no profile here</title>' ranks.html
    grep -q '>rank 8 no profile</text>' ranks.html
    grep -q 'class="no-data-swatch"></span> no profile of the rank here' ranks.html
    assert_answer_first ranks.html missing-rank
}

@test "no straggler: the page says none and marks no rank as one" {
    dataset ds --ranks 8 --events 400
    nx-report ds --ranks -o ranks.html
    grep -q '<div class="card-key">straggler</div><div class="card-value">none</div>' ranks.html
    grep -q '<p>8 ranks. They take the same time (40 us). No straggler.</p>' ranks.html
    refute grep -q 'class="straggler"' ranks.html
    refute grep -q 'class="mark strong"' ranks.html
    # The ranks worth reading are then the fastest and the median.
    [ "$(python3 -c 'import re, sys; print(" ".join(re.findall(r"<tr><td class=\"num\">\d+</td><td>([a-z, ]+)</td>", open(sys.argv[1]).read())))' ranks.html)" = "fastest median" ]
}

@test "sessions: ranks x executions for each NEFF, from the dataset's executions table or the database's, the slow execution in its rank's title" {
    session_capture_tree cap
    nx-convert --dataset ds --plan cap 2>/dev/null
    nx-convert --dataset ds --tasks 1 --task 0 -q >/dev/null
    nx-report ds --ranks -o ranks.html
    [ "$(count_in ranks.html '<figcaption>Ranks x executions of ')" -eq 2 ]
    grep -q '<figcaption>Ranks x executions of graph_40cda76888a52a990896fdff472fc4cb.neff: 10 executions a rank' ranks.html
    grep -q '10 executions of this NEFF; the slowest, #7, 42 us (1.5x the median, 28 us)' ranks.html
    # From a database of the same profiles, the same maps; records carry none.
    nx-convert --db s.db cap -q >/dev/null
    nx-report --db s.db --ranks -o from-db.html
    [ "$(count_in from-db.html '<figcaption>Ranks x executions of ')" -eq 2 ]
    nx-convert cap -q >records.jsonl
    nx-report records.jsonl --ranks -o from-records.html
    [ "$(count_in from-records.html '<figcaption>Ranks x executions of ')" -eq 0 ]
}

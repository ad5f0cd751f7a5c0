#!/usr/bin/env bats
# nx-report --format html: one offline page with charts, rendered by
# Debian's chromium headless; checks the rendered DOM for the expected
# charts and marks, that the page logged nothing to the console, and saves
# a screenshot under out/test-artifacts/.  Also the text report on a
# terminal (block bars and sparklines) and bad input.

load test_helper
load browser

setup() {
    cd "$BATS_TEST_TMPDIR" || return 1
    nx-convert --db s.db --target trn1 "$FIXTURES/small.json" "$FIXTURES/small_slow.json" >profiles.jsonl
}

@test "html profile report in chromium: cards, findings with actions, engine bars, roofline with ridge, timeline strip, top layers" {
    nx-report --profile small profiles.jsonl -o report.html
    render_page report.html profile-report
    dom=profile-report.dom
    # Summary cards: time, MFU, MBU, bound.
    [ "$(count_in $dom 'class="card"')" -eq 4 ]
    grep -q '<div class="card-key">MFU</div><div class="card-value">12.0%</div>' $dom
    grep -q '<div class="card-key">bound</div><div class="card-value">compute-bound</div>' $dom
    # Findings with their actions: the profiler's warning, then the top 2 of 3
    # (no spill figures: small.json's qSyncIO packets do not say their memories).
    [ "$(count_in $dom 'class="finding sev-')" -eq 3 ]
    grep -q '<span class="rule">profiler_warning</span>' $dom
    grep -q 'class="finding sev-critical"><span class="sev">✖ critical</span><span class="rule">tensor_engine_idle</span>' $dom
    [ "$(count_in $dom 'class="action"')" -eq 3 ]
    # Engine active-time bars: seven rows; the breakdowns' bars: the tensor
    # engine's FLOPs (model, transpose, active but idle) and HBM bandwidth
    # (read, write, spill reload, spill save, unused); the bounds (memory,
    # compute, dependency: not computed from JSONL records).
    [ "$(count_in $dom '<g class="bar" data-label=')" -eq 18 ]
    grep -q '<g class="bar" data-label="dependency"' $dom
    grep -q '<g class="bar" data-label="active but idle"' $dom
    grep -q '<g class="bar" data-label="unused"' $dom
    grep -q '<h3>HBM bandwidth (shares of peak x total time)</h3>' $dom
    # Roofline: the point, the roof and the ridge at trn1's 223.8 FLOP/B.
    grep -q '<svg class="chart chart-roofline" data-kind="roofline"' $dom
    grep -q 'class="ridge" data-x="223.8"' $dom
    grep -q 'class="roof"' $dom
    grep -q 'small: 2731 FLOP/B, 33.55 TFLOP/s' $dom
    grep -q '>arithmetic intensity (FLOP/B)</text>' $dom
    # Timeline strip: 7 rows of 50 buckets.
    [ "$(count_in $dom 'class="series timeline-row"')" -eq 7 ]
    [ "$(count_in $dom '<rect class="cell"')" -eq 350 ]
    grep -q '<h2>Top layers</h2>' $dom
    refute grep -qiE '\bnan\b|\binf\b' $dom
}

@test "html report works offline: no scripts, nothing loaded from anywhere, a CSP that forbids it" {
    nx-report --profile small profiles.jsonl -o report.html
    refute grep -q '<script' report.html
    refute grep -qE '(src|href)=' report.html
    # The only URL is the SVG namespace.
    [ "$(grep -oE 'https?://[^"]*' report.html | sort -u)" = "http://www.w3.org/2000/svg" ]
    grep -q "Content-Security-Policy\" content=\"default-src 'none'" report.html
    # --format html works on stdout too.
    nx-report --format html --profile small profiles.jsonl >stdout.html
    cmp report.html stdout.html
}

@test "the console check fails on a page that logs an error" {
    printf '<!DOCTYPE html><html><body><p>x</p><script>console.error("deliberate failure")</script></body></html>\n' >bad.html
    run render_page bad.html console-error
    [ "$status" -eq 1 ]
    [[ "$output" == *"the page logged to the console:"*"deliberate failure"* ]]
    # A blocked load is caught the same way.
    nx-report --profile small profiles.jsonl -o report.html
    sed 's|</main>|<img alt="x" src="https://example.invalid/x.png"></main>|' report.html >blocked.html
    run render_page blocked.html blocked-load
    [ "$status" -eq 1 ]
    [[ "$output" == *"violates the following Content Security Policy directive"* ]]
}

@test "html comparison in chromium: side-by-side bars per profile with ratio labels" {
    nx-report --db s.db --compare -o compare.html
    render_page compare.html comparison
    dom=comparison.dom
    grep -q '<svg class="chart chart-bars" data-kind="bars"' $dom
    [ "$(count_in $dom 'class="series" data-series="small"')" -eq 1 ]
    [ "$(count_in $dom 'class="series" data-series="small_slow"')" -eq 1 ]
    # total time 4 us vs 6 us: 1.5x; dma active 1.8 us vs 3.05 us: 1.69x.
    grep -q 'small_slow, total time: 6 (1.5x)' $dom
    grep -q 'small_slow, dma active: 3.05 (1.69x)' $dom
    [ "$(count_in $dom '<g class="legend-item">')" -eq 2 ]
    grep -q '>time (us)</text>' $dom
}

@test "html study charts in chromium: latency and TFLOP/s on log axes with tile-boundary marks, legends, pattern bars" {
    test-html_demo html >study.html
    render_page study.html study-charts
    dom=study-charts.dom
    [ "$(count_in $dom 'data-kind="line"')" -eq 3 ]
    # Five tile boundaries on each of the two study charts.
    [ "$(count_in $dom 'class="x-mark" data-x=')" -eq 11 ]
    grep -q 'class="x-mark" data-x="2048"' $dom
    grep -q '<title>tile boundary at 128</title>' $dom
    grep -q '>latency (us)</text>' $dom
    grep -q '>N (columns)</text>' $dom
    # Log axis ticks in decades.
    grep -q '>10k</text>' $dom
    [ "$(count_in $dom 'class="series" data-series="bf16"')" -eq 2 ]
    # Pattern comparison: three series, nine bars, ratios printed.
    [ "$(count_in $dom 'data-series="for-loop"')" -eq 1 ]
    grep -q 'for-loop, 256 iterations: 4,700 (2.97x)' $dom
    # Bucket recommendations table.
    grep -q '<td class="fig">513-2048</td>' $dom  # a range of figures: kept on one line
    # Bad values: said, not drawn as NaN.
    grep -q '>no values to plot</text>' $dom
    grep -q '>no target: no roof or ridge point (give --target)</text>' $dom
    refute grep -qE '"[^"]*(nan|inf)[^"]*"' $dom
}

@test "html study layout in chromium: charts take the page width, figures never wrap, shapes in numeric order, no sparkline under a chart" {
    nx-run --study matmul --M 1024,128,129,127 --K 512 --N 512 --timed 1 --warmup 0 | nx-capture | nx-convert >p.jsonl
    nx-report p.jsonl --each -o layout.html
    render_page layout.html study-layout
    dom=study-layout.dom
    # Charts scale to the page (not a fixed 760 px), in a wide page.
    grep -q 'svg.chart { width: 100%; height: auto;' $dom
    grep -q 'main { max-width: 1400px;' $dom
    # Figures stay on one line: numeric columns, and figures in text columns
    # (a prediction's "~20 us (no band)": no trn2 matmul was measured; tile
    # counts "1 x 4 x 1 = 4").
    grep -q 'td.num, th.num, td.fig { white-space: nowrap; }' $dom
    grep -q '<td class="num">~[0-9.]* us (no band)</td>' $dom
    grep -q '<td class="fig">2 x 4 x 1 = 8</td>' $dom
    # Wide tables scroll rather than squeeze.
    [ "$(count_in $dom '<div class="table-wrap"><table>')" -eq "$(count_in $dom '<table>')" ]
    # Each profile's report in numeric order of its shape, whatever the input order.
    order=$(grep -o '<h1>Profile mm_[0-9]*x' $dom | sed 's/.*mm_//; s/x$//' | tr '\n' ' ')
    [ "$order" = "127 128 129 1024 " ]
    # The latency-along-M chart, and no sparkline repeating it; text keeps its sparkline.
    grep -q '<figcaption>Latency vs M (K=512, N=512, bf16) — predicted by the model (sim)</figcaption>' $dom
    [ "$(count_in $dom 'class="sparkline"')" -eq 0 ]
    nx-report p.jsonl --format markdown | grep -q '^- latency along M (K=512, N=512): '
}

@test "bad input still renders: no events, a single event, zero durations, missing metrics" {
    nx-convert "$FIXTURES/summary.json" >summary.jsonl
    printf '{"instruction": [{"timestamp": 7, "duration": 0, "label": "Vector", "opcode": "NOP"}]}\n' >one.json
    nx-convert one.json >one.jsonl
    printf '{"instruction": [{"timestamp": 7, "duration": 0, "label": "Vector"}, {"timestamp": 7, "duration": 0, "label": "TensorMatrix"}]}\n' >zero.json
    nx-convert zero.json >zero.jsonl
    for f in summary one zero; do
        run nx-report --format html -o $f.html $f.jsonl
        [ "$status" -eq 0 ]
        run nx-report --format text $f.jsonl
        [ "$status" -eq 0 ]
        refute grep -qiE '\b(nan|inf)\b' $f.html
        [[ ! "$output" =~ [^a-z](nan|inf)[^a-z] ]]
    done
    render_page summary.html bad-input-summary
    grep -q 'no engine events in this profile' bad-input-summary.dom
    grep -q 'The roofline lacks arithmetic intensity' bad-input-summary.dom
    render_page one.html bad-input-one-event
    grep -q 'The roofline lacks' bad-input-one-event.dom
    grep -q '>no achieved point: needs FLOPs, HBM bytes and time</text>' bad-input-one-event.dom
}

@test "text report on a terminal: block-character engine bars and timeline sparklines; ASCII when piped" {
    run script -qec "nx-report --profile small '$PWD/profiles.jsonl'" /dev/null
    [ "$status" -eq 0 ]
    [[ "$output" == *"TensorMatrix             ████▊"* ]]
    [[ "$output" == *"Engine activity over time"* ]]
    [[ "$output" =~ TensorMatrix\ +[▁▂▃▄▅▆▇█\ ]{50} ]]
    run nx-report --format text --profile small profiles.jsonl
    [[ "$output" == *"TensorMatrix             [#####"* ]]
    [[ "$output" =~ TensorMatrix\ +[_.~=^*#-]{50} ]]
    # The study charts' sparkline, as the study report will use it.
    run test-html_demo terminal
    [[ "$output" == *"latency as N grows  ▁▁▁▂▃▄█"* ]]
}

@test "make study-patterns writes report.html next to report.md, and it renders in chromium" {
    make -C "$NX_ROOT" --no-print-directory -s BUILD="$(dirname "$NX_BIN")" OUT="$PWD/out" \
        study-patterns TIMED=2 WARMUP=0 >log 2>&1 || { cat log; false; }
    [ -s out/patterns/report.md ]
    [ -s out/patterns/report.html ]
    render_page out/patterns/report.html study-patterns
    grep -q '<h1>Pattern study: vmap, scan and for-loop' study-patterns.dom
    # The study's answers come with their charts (and say what they are).
    [ "$(count_in study-patterns.dom '<svg class="chart chart-')" -ge 1 ]
    [ "$(count_in study-patterns.dom '<figcaption>')" -ge 1 ]
}

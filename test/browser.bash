# Rendering pages in a real browser for the HTML suite (51-html.bats).
# Debian's chromium (installed by `make deps`) runs headless; the rendered DOM
# goes to NAME.dom, the browser's log to NAME.log, and a screenshot to
# out/test-artifacts/NAME.png in the repository (kept after the run).

ARTIFACTS=$NX_ROOT/out/test-artifacts
CHROMIUM_FLAGS=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
    --disable-background-networking --disable-component-update --disable-sync)

# render_page FILE NAME: fails when chromium is missing or fails, or when
# the page logged anything to the console (an nx page has no scripts, so any
# console message is an error: a script error, or a blocked load reported
# by the Content-Security-Policy).
render_page() {
    local file=$1 name=$2
    if ! command -v chromium >/dev/null; then
        echo "chromium is not installed: run 'make deps' (it installs Debian's chromium)"
        return 1
    fi
    local url="file://$(realpath "$file")"
    mkdir -p "$ARTIFACTS"
    if ! timeout 120 chromium "${CHROMIUM_FLAGS[@]}" --user-data-dir="$(mktemp -d "$BATS_TEST_TMPDIR/profile.XXXXXX")" \
            --enable-logging=stderr --v=1 --dump-dom "$url" >"$name.dom" 2>"$name.log"; then
        echo "chromium failed to render $file:"
        tail -n 20 "$name.log"
        return 1
    fi
    rm -f "$ARTIFACTS/$name.png"
    timeout 120 chromium "${CHROMIUM_FLAGS[@]}" --user-data-dir="$(mktemp -d "$BATS_TEST_TMPDIR/profile.XXXXXX")" \
        --screenshot="$ARTIFACTS/$name.png" --window-size=1280,2000 "$url" >/dev/null 2>&1
    if [ ! -s "$ARTIFACTS/$name.png" ]; then
        echo "chromium wrote no screenshot of $file"
        return 1
    fi
    echo "# screenshot: $ARTIFACTS/$name.png" >&3
    # Console lines look like: INFO:CONSOLE:1] "message", source: file:///...page.html (1)
    if grep -F ":CONSOLE" "$name.log" | grep -F "source: $url" >"$name.console"; then
        echo "the page logged to the console:"
        cat "$name.console"
        return 1
    fi
}

# count_in FILE TEXT: how many times TEXT occurs in FILE.
count_in() {
    grep -oF -- "$2" "$1" | wc -l
}

# check_layout FILE NAME [WIDTH HEIGHT]: how FILE lays out in a window of
# WIDTH x HEIGHT (default 1280 x 800), measured in chromium by a script
# added to a copy of the page (its Content-Security-Policy opened to inline
# scripts, the page's own still running), into NAME.layout as lines:
#   overflow PX       how far the page is wider than the window (0: not)
#   scrolled N        elements whose content is wider than they are and
#                     scroll or are cut (a cell cut on purpose, with an
#                     ellipsis and its whole text on hover, is not one)
#   first ID          each element matching [data-first-screen] or
#                     [id^=straggler-] that lies wholly in the first screen
#   height PX         the page's height
# (overflow, scrolled and height with every <details> opened).
# and a screenshot of the first screen to out/test-artifacts/NAME.png.
check_layout() {
    local file=$1 name=$2 width=${3:-1280} height=${4:-800}
    local copy="$BATS_TEST_TMPDIR/$name.check.html"
    sed -E "s/script-src [^\"]*/script-src 'unsafe-inline'/; s/img-src data:\"/img-src data:; script-src 'unsafe-inline'\"/" "$file" >"$copy"
    cat >>"$copy" <<'JS'
<script>
(function () {
  var out = [], doc = document.documentElement, w = window.innerWidth, h = window.innerHeight;
  document.querySelectorAll('[id^=straggler-], [data-first-screen]').forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= h && r.right <= w) out.push('first ' + (e.id || e.getAttribute('data-first-screen')));
  });
  // What opens on request is measured open.
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  out.push('overflow ' + Math.max(0, doc.scrollWidth - w));
  var scrolled = 0;
  document.querySelectorAll('body *').forEach(function (e) {
    if (e.scrollWidth <= e.clientWidth + 1 || e.clientWidth === 0) return;
    var s = getComputedStyle(e);
    if (s.overflowX === 'visible') return;
    if (s.textOverflow === 'ellipsis' && e.title) return;
    scrolled++;
    out.push('scrolls ' + e.tagName.toLowerCase() + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth);
  });
  out.push('scrolled ' + scrolled);
  out.push('height ' + doc.scrollHeight);
  var pre = document.createElement('pre');
  pre.id = 'layout-check';
  pre.textContent = out.join('\n');
  document.body.appendChild(pre);
})();
</script>
JS
    if ! timeout 120 chromium "${CHROMIUM_FLAGS[@]}" --hide-scrollbars --user-data-dir="$(mktemp -d "$BATS_TEST_TMPDIR/profile.XXXXXX")" \
            --window-size="$width,$height" --dump-dom "file://$copy" 2>"$name.layout.log" >"$name.layout.dom"; then
        echo "chromium failed to lay out $file:"
        tail -n 20 "$name.layout.log"
        return 1
    fi
    sed -n '/<pre id="layout-check">/,/<\/pre>/p' "$name.layout.dom" | sed 's/<[^>]*>//g; /^$/d' >"$name.layout"
    if [ ! -s "$name.layout" ]; then
        echo "the layout check wrote nothing for $file"
        return 1
    fi
    mkdir -p "$ARTIFACTS"
    rm -f "$ARTIFACTS/$name.png"
    timeout 120 chromium "${CHROMIUM_FLAGS[@]}" --hide-scrollbars --user-data-dir="$(mktemp -d "$BATS_TEST_TMPDIR/profile.XXXXXX")" \
        --screenshot="$ARTIFACTS/$name.png" --window-size="$width,$height" "file://$(realpath "$file")" >/dev/null 2>&1
    [ -s "$ARTIFACTS/$name.png" ] && echo "# first screen at ${width}x$height: $ARTIFACTS/$name.png" >&3
    return 0
}

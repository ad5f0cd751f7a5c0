# Rendering pages in a real browser for the HTML suite (51-html.bats).
# Debian's chromium (installed by `make deps`) runs headless; the rendered DOM
# goes to NAME.dom, the browser's log to NAME.log, and a screenshot to
# out/test-artifacts/NAME.png in the repository (kept after the run).

ARTIFACTS=$NX_ROOT/out/test-artifacts
CHROMIUM_FLAGS=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
    --disable-background-networking --disable-component-update --disable-sync)

# render_page FILE NAME: the page's DOM after load to NAME.dom and a
# screenshot at 1280 x 2000 to out/test-artifacts/NAME.png, from one
# chromium run; fails when chromium is missing or fails, or when the page
# logged anything to the console (an nx page logs nothing, so any console
# message is an error: a script error, or a blocked load reported by the
# Content-Security-Policy).
render_page() {
    local file=$1 name=$2
    require_chromium || return 1
    local url="file://$(realpath "$file")"
    mkdir -p "$ARTIFACTS"
    rm -f "$ARTIFACTS/$name.png"
    if ! timeout 120 chromium "${CHROMIUM_FLAGS[@]}" --user-data-dir="$(mktemp -d "$BATS_TEST_TMPDIR/profile.XXXXXX")" \
            --enable-logging=stderr --v=1 --window-size=1280,2000 --screenshot="$ARTIFACTS/$name.png" \
            --dump-dom "$url" >"$name.dom" 2>"$name.log"; then
        echo "chromium failed to render $file:"
        tail -n 20 "$name.log"
        return 1
    fi
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

# require_chromium: fails, saying how to install it, when chromium is missing.
require_chromium() {
    if ! command -v chromium >/dev/null; then
        echo "chromium is not installed: run 'make deps' (it installs Debian's chromium)"
        return 1
    fi
}

# count_in FILE TEXT: how many times TEXT occurs in FILE.
count_in() {
    grep -oF -- "$2" "$1" | wc -l
}

# page_eval FILE NAME WIDTH HEIGHT JS [SCREENSHOT]: runs JS (a function
# body that returns an array of lines) in a copy of FILE after the page's own
# script, in a window of WIDTH x HEIGHT, and writes the lines to NAME.out;
# with SCREENSHOT, the same chromium run also writes the first screen there
# (JS must then leave the page as it found it).  The copy's
# Content-Security-Policy is opened to inline scripts for it; the page's
# own script still runs first.
page_eval() {
    local file=$1 name=$2 width=$3 height=$4 js=$5 screenshot=${6:-}
    require_chromium || return 1
    local copy="$BATS_TEST_TMPDIR/$name.eval.html"
    sed -E "s/script-src [^\"]*/script-src 'unsafe-inline'/; s/img-src data:\"/img-src data:; script-src 'unsafe-inline'\"/" "$file" >"$copy"
    printf '<script>(function () { var lines = (function () { %s })();\nvar pre = document.createElement("pre"); pre.id = "page-eval";\npre.textContent = lines.join("\\n"); document.body.appendChild(pre); })();</script>\n' "$js" >>"$copy"
    local shot=()
    if [ -n "$screenshot" ]; then
        mkdir -p "$(dirname "$screenshot")"
        rm -f "$screenshot"
        shot=(--screenshot="$screenshot")
    fi
    if ! timeout 120 chromium "${CHROMIUM_FLAGS[@]}" --hide-scrollbars --user-data-dir="$(mktemp -d "$BATS_TEST_TMPDIR/profile.XXXXXX")" \
            --window-size="$width,$height" "${shot[@]}" --dump-dom "file://$copy" 2>"$name.eval.log" >"$name.eval.dom"; then
        echo "chromium failed to load $file:"
        tail -n 20 "$name.eval.log"
        return 1
    fi
    python3 -c '
import html, re, sys
m = re.search(r"<pre id=\"page-eval\">(.*?)</pre>", open(sys.argv[1]).read(), re.S)
print(html.unescape(m.group(1)) if m else "", end="")' "$name.eval.dom" >"$name.out"
    if [ ! -s "$name.out" ]; then
        echo "the script in $file wrote nothing (its log: $name.eval.log)"
        return 1
    fi
    if [ -n "$screenshot" ] && [ ! -s "$screenshot" ]; then
        echo "chromium wrote no screenshot of $file"
        return 1
    fi
}

# check_layout FILE NAME [WIDTH HEIGHT]: how FILE lays out in a window of
# WIDTH x HEIGHT (default 1280 x 800), into NAME.layout as lines:
#   first ID          each element matching [data-first-screen] or
#                     [id^=straggler-] that lies wholly in the first screen
#   overflow PX       how far the page is wider than the window (0: not)
#   scrolled N        elements whose content is wider than they are and
#                     scroll or are cut (a cell cut on purpose, with an
#                     ellipsis and its whole text on hover, is not one),
#                     each also on a line "scrolls TAG.CLASS WIDE>SHOWN"
#   height PX         the page's height
# (overflow, scrolled and height with every <details> opened, then closed
# again), and a screenshot of the first screen as the page opens to
# out/test-artifacts/NAME.png, from one chromium run.
check_layout() {
    local file=$1 name=$2 width=${3:-1280} height=${4:-800}
    page_eval "$file" "$name" "$width" "$height" "
  var out = [], doc = document.documentElement, w = window.innerWidth, h = window.innerHeight;
  document.querySelectorAll('[id^=straggler-], [data-first-screen]').forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= h && r.right <= w) out.push('first ' + (e.id || e.getAttribute('data-first-screen')));
  });
  var closed = Array.prototype.filter.call(document.querySelectorAll('details'), function (d) { return !d.open; });
  closed.forEach(function (d) { d.open = true; });
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
  closed.forEach(function (d) { d.open = false; });
  return out;" "$ARTIFACTS/$name.png" || return 1
    mv "$name.out" "$name.layout"
    echo "# first screen at ${width}x$height: $ARTIFACTS/$name.png" >&3
}

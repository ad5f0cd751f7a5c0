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

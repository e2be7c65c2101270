#!/usr/bin/env bash
# Browser test of the map page's time slider (issue 28): `heatmap serve Examples/incidents.csv --time time
# --categories kind` in headless Chromium. The page must show the time panel, put the slider's window in the
# tiles' ?datetime= and in its own URL (?step=&at=, so a link reproduces it), draw different heatmaps at two
# slider positions, and, playing (?play=1), move the slider through frames whose tiles differ.
# Screenshots, DOMs and the access log are kept in $ARTIFACTS (default .build/artifacts).
# Needs: chromium (Debian), python3; libjs-leaflet for Leaflet without a network.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEATMAP_BIN:-.build/release/heatmap}
ARTIFACTS=${ARTIFACTS:-.build/artifacts}
PORT=${PORT:-18480}
BROWSER=$(command -v chromium || command -v chromium-browser || command -v chromium-headless-shell || true)
if [ -z "$BROWSER" ]; then
    # CI installs Chromium and sets CI_REQUIRE_CHROMIUM: there a missing browser fails; elsewhere it skips, saying why.
    [ -n "${CI_REQUIRE_CHROMIUM:-}" ] && { echo "browser test: chromium is not installed" >&2; exit 1; }
    echo "browser test skipped: chromium is not installed (apt-get install chromium libjs-leaflet)" >&2
    exit 0
fi
mkdir -p "$ARTIFACTS"
PROFILE=$(mktemp -d)

"$BIN" serve Examples/incidents.csv --time time --categories kind --port "$PORT" --base-map "" \
    --access-log "$ARTIFACTS/time-access.log" >"$ARTIFACTS/time-serve.log" 2>&1 &
SERVER=$!
# A profile folder Chromium's helpers still write into is removed with a few tries; one left in /tmp never fails.
remove_profile() { for _ in 1 2 3 4 5; do rm -rf "$PROFILE" 2>/dev/null && return 0; sleep 1; done; return 0; }
trap 'kill "$SERVER" 2>/dev/null || true; remove_profile' EXIT
python3 Tests/browser/wait_for.py "http://127.0.0.1:$PORT/health" "the server"

URL="http://127.0.0.1:$PORT/"
FLAGS=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
    --user-data-dir="$PROFILE" --window-size=1024,768)
for name in early late; do
    at=$([ "$name" = early ] && echo 2024-03-03T00:00:00Z || echo 2024-03-27T00:00:00Z)
    timeout 120 "$BROWSER" "${FLAGS[@]}" --virtual-time-budget=20000 --screenshot="$ARTIFACTS/time-$name.png" \
        "$URL?step=1d&window=3d&at=$at" 2>>"$ARTIFACTS/time-chromium.log"
    timeout 120 "$BROWSER" "${FLAGS[@]}" --virtual-time-budget=20000 --dump-dom "$URL?step=1d&window=3d&at=$at" \
        >"$ARTIFACTS/time-$name.html" 2>>"$ARTIFACTS/time-chromium.log"
done
# Playing: the slider advances a frame a second (20 s of virtual time), each frame's tiles requested.
timeout 120 "$BROWSER" "${FLAGS[@]}" --virtual-time-budget=20000 --dump-dom "$URL?step=1d&play=1" \
    >"$ARTIFACTS/time-play.html" 2>>"$ARTIFACTS/time-chromium.log"
python3 Tests/browser/check_time_slider.py "$ARTIFACTS" "http://127.0.0.1:$PORT"

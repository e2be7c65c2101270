#!/usr/bin/env bash
# Browser test of `heatmap serve`: headless Chromium loads the map page, which must request
# heatmap tiles from the server and draw them (coloured pixels where the data are).
# The screenshot and the page's DOM are kept in $ARTIFACTS (default .build/artifacts).
# Needs: chromium (Debian), python3; libjs-leaflet for Leaflet without a network.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEATMAP_BIN:-.build/release/heatmap}
ARTIFACTS=${ARTIFACTS:-.build/artifacts}
PORT=${PORT:-18480}
BROWSER=$(command -v chromium || command -v chromium-browser || command -v chromium-headless-shell || true)
[ -n "$BROWSER" ] || { echo "browser test: chromium is not installed" >&2; exit 1; }
mkdir -p "$ARTIFACTS"

# No base map, so the screenshot holds the heatmap only (the page works the same offline).
"$BIN" serve Examples/police_stations.json --port "$PORT" --base-map "" >"$ARTIFACTS/serve.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
python3 - "$PORT" <<'PY'
import sys, time, urllib.request
for _ in range(100):
    try:
        if urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health", timeout=1).status == 200: sys.exit(0)
    except OSError: time.sleep(0.1)
sys.exit("browser test: the server did not start")
PY

URL="http://127.0.0.1:$PORT/"
FLAGS=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
    --window-size=1024,768 --virtual-time-budget=20000)
timeout 120 "$BROWSER" "${FLAGS[@]}" --screenshot="$ARTIFACTS/map-page.png" "$URL" 2>"$ARTIFACTS/chromium.log"
timeout 120 "$BROWSER" "${FLAGS[@]}" --dump-dom "$URL" >"$ARTIFACTS/map-page.html" 2>>"$ARTIFACTS/chromium.log"

python3 Tests/browser/check_screenshot.py "$ARTIFACTS/map-page.png" "$ARTIFACTS/map-page.html" "http://127.0.0.1:$PORT/metrics"

# The gradient control's path: the page's query sets the controls, which re-request tiles with ?gradient=ice.
timeout 120 "$BROWSER" "${FLAGS[@]}" --screenshot="$ARTIFACTS/map-page-ice.png" "$URL?gradient=ice&radius=30" \
    2>>"$ARTIFACTS/chromium.log"
timeout 120 "$BROWSER" "${FLAGS[@]}" --dump-dom "$URL?gradient=ice&radius=30" >"$ARTIFACTS/map-page-ice.html" \
    2>>"$ARTIFACTS/chromium.log"
python3 Tests/browser/check_screenshot.py "$ARTIFACTS/map-page-ice.png" "$ARTIFACTS/map-page-ice.html" \
    "http://127.0.0.1:$PORT/metrics" ice
# The percentile control: the page's query sets it, and the tiles and the legend are asked for with it.
timeout 120 "$BROWSER" "${FLAGS[@]}" --dump-dom "$URL?max-percentile=90" >"$ARTIFACTS/map-page-p90.html" \
    2>>"$ARTIFACTS/chromium.log"
grep -q 'data-legend="[^"]*/legend.png?z=[^"]*max-percentile=90' "$ARTIFACTS/map-page-p90.html" \
    || { echo "browser test: the legend did not follow the percentile control" >&2; exit 1; }
grep -q 'data-tiles-loaded="[1-9]' "$ARTIFACTS/map-page-p90.html" \
    || { echo "browser test: no tile loaded with the percentile control" >&2; exit 1; }
python3 - "$PORT" <<'PY'
import sys, urllib.request
metrics = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=5).read().decode()
assert 'route="legend",status="200"' in metrics, "no legend served"
PY
# The legend and the controls bar never cover each other, at common window sizes and a phone's.
timeout 300 python3 Tests/browser/check_layout.py "$URL" 1200x800 1920x1080 800x600 390x844
# SIGHUP reloads the data in place; SIGTERM stops the server gracefully.
kill -HUP "$SERVER"
python3 - "$PORT" <<'PY'
import re, sys, time, urllib.request
for _ in range(50):
    metrics = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=5).read().decode()
    if re.search(r"^heatmap_reloads_total 1$", metrics, re.M): sys.exit(0)
    time.sleep(0.1)
sys.exit("browser test: SIGHUP did not reload the data")
PY
kill -TERM "$SERVER"
wait "$SERVER"
grep -q "heatmap: stopped" "$ARTIFACTS/serve.log" || { echo "browser test: no graceful stop" >&2; exit 1; }
trap - EXIT
echo "browser test: passed; screenshot in $ARTIFACTS/map-page.png"

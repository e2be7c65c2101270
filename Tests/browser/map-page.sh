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
python3 Tests/browser/wait_for.py "http://127.0.0.1:$PORT/health" "the server"

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
# WebP tiles: the page's ?format=webp makes Leaflet ask for .webp tiles, which it must draw.
timeout 120 "$BROWSER" "${FLAGS[@]}" --screenshot="$ARTIFACTS/map-page-webp.png" "$URL?format=webp" \
    2>>"$ARTIFACTS/chromium.log"
timeout 120 "$BROWSER" "${FLAGS[@]}" --dump-dom "$URL?format=webp" >"$ARTIFACTS/map-page-webp.html" \
    2>>"$ARTIFACTS/chromium.log"
grep -q 'src="/police_stations/[0-9]*/[0-9]*/[0-9]*\(@2x\)\?\.webp"' "$ARTIFACTS/map-page-webp.html" \
    || { echo "browser test: the page asked for no .webp tile" >&2; exit 1; }
grep -q 'src="/police_stations/[0-9]*/[0-9]*/[0-9]*\(@2x\)\?\.png"' "$ARTIFACTS/map-page-webp.html" \
    && { echo "browser test: the page asked for .png tiles with ?format=webp" >&2; exit 1; }
python3 Tests/browser/check_screenshot.py "$ARTIFACTS/map-page-webp.png" "$ARTIFACTS/map-page-webp.html" \
    "http://127.0.0.1:$PORT/metrics" webp
# Chromium decodes a lossless .webp tile to the .png tile's pixels: both uploaded to WebGL textures as decoded
# (not premultiplied, no colour conversion: a 2D canvas would premultiply each with its own rounding) and read back.
cat >"$ARTIFACTS/webp-pixels.html" <<HTML
<!doctype html><html><body><script>
var gl = document.createElement("canvas").getContext("webgl");
function pixels(src) {
  return new Promise(function (done, fail) {
    var image = new Image();
    image.crossOrigin = "anonymous";
    image.onload = function () {
      var texture = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
      gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image);
      var framebuffer = gl.createFramebuffer();
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
      var out = new Uint8Array(image.width * image.height * 4);
      gl.readPixels(0, 0, image.width, image.height, gl.RGBA, gl.UNSIGNED_BYTE, out);
      done(out);
    };
    image.onerror = function () { fail(src); };
    image.src = src;
  });
}
var tile = "http://127.0.0.1:$PORT/police_stations/6/57/39@2x.";
Promise.all([pixels(tile + "png"), pixels(tile + "webp")]).then(function (both) {
  var a = both[0], b = both[1], differ = a.length === b.length ? 0 : -1, drawn = 0, hidden = 0;
  for (var i = 0; differ >= 0 && i < a.length; i++) { if (a[i] !== b[i]) differ++; }
  for (var j = 3; j < a.length; j += 4) { if (a[j] > 0) drawn++; else if (a[j - 3] > 0) hidden++; }
  document.body.dataset.webp = "bytes " + a.length + " differ " + differ + " drawn " + drawn + " hidden " + hidden;
}, function (src) { document.body.dataset.webp = "failed " + src; });
</script></body></html>
HTML
timeout 120 "$BROWSER" --headless --no-sandbox --no-first-run --disable-extensions --use-gl=angle --use-angle=swiftshader \
    --enable-unsafe-swiftshader --ignore-gpu-blocklist --allow-file-access-from-files --virtual-time-budget=20000 \
    --dump-dom "file://$(cd "$ARTIFACTS" && pwd)/webp-pixels.html" >"$ARTIFACTS/webp-pixels-result.html" 2>>"$ARTIFACTS/chromium.log"
RESULT=$(grep -o 'data-webp="[^"]*"' "$ARTIFACTS/webp-pixels-result.html" || echo "no result")
case "$RESULT" in
    'data-webp="bytes 1048576 differ 0 drawn '[1-9]*) echo "browser test (webp pixels): $RESULT" ;;
    *) echo "browser test: Chromium's WebP pixels are not the PNG's: $RESULT" >&2; exit 1 ;;
esac
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

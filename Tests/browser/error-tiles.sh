#!/usr/bin/env bash
# Browser test of `--empty-tile png`: a Leaflet page (Debian's libjs-leaflet, served by heatmap
# serve itself) with `errorTileUrl` counts tile errors over a view of mostly empty tiles. With the
# default 204 Leaflet reports errors (the control); with `--empty-tile png` it must report none.
# Needs: chromium, libjs-leaflet. Usage: error-tiles.sh (HEATMAP_BIN, ARTIFACTS, PORT as map-page.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEATMAP_BIN:-.build/release/heatmap}
ARTIFACTS=${ARTIFACTS:-.build/artifacts}
PORT=${PORT:-18481}
BROWSER=$(command -v chromium || command -v chromium-browser || true)
[ -n "$BROWSER" ] || { echo "error-tile test: chromium is not installed" >&2; exit 1; }
mkdir -p "$ARTIFACTS"
PAGE="$ARTIFACTS/error-tiles.html"
cat >"$PAGE" <<HTML
<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="http://127.0.0.1:$PORT/leaflet/leaflet.css">
<script src="http://127.0.0.1:$PORT/leaflet/leaflet.js"></script></head>
<body style="margin:0"><div id="map" style="width:1024px;height:768px"></div><pre id="result">pending</pre>
<script>
var loads = 0, errors = 0;
var map = L.map("map").setView([-36.5, 145], 5);
var layer = L.tileLayer("http://127.0.0.1:$PORT/police_stations/{z}/{x}/{y}.png", {
  errorTileUrl: "data:image/gif;base64,R0lGODlhAQABAIAAAP8AAAAAACwAAAAAAQABAAACAkQBADs="});
layer.on("tileload", function () { loads++; });
layer.on("tileerror", function () { errors++; });
layer.on("load", function () { document.getElementById("result").textContent = "loads=" + loads + " errors=" + errors; });
layer.addTo(map);
</script></body></html>
HTML
# OpenLayers (OL_JS: the ol.js of a wheel that bundles it, such as pyopenlayersqt's), when given.
OL_PAGE="$ARTIFACTS/error-tiles-ol.html"
if [ -n "${OL_JS:-}" ]; then
    cat >"$OL_PAGE" <<HTML
<!doctype html><html><head><meta charset="utf-8"><script src="file://$OL_JS"></script></head>
<body style="margin:0"><div id="map" style="width:1024px;height:768px"></div><pre id="result">pending</pre>
<script>
var loads = 0, errors = 0, pending = 0;
var source = new ol.source.XYZ({url: "http://127.0.0.1:$PORT/police_stations/{z}/{x}/{y}.png"});
function settle() { if (pending === 0) document.getElementById("result").textContent = "loads=" + loads + " errors=" + errors; }
source.on("tileloadstart", function () { pending++; });
source.on("tileloadend", function () { loads++; pending--; settle(); });
source.on("tileloaderror", function () { errors++; pending--; settle(); });
new ol.Map({target: "map", layers: [new ol.layer.Tile({source: source})],
  view: new ol.View({center: ol.proj.fromLonLat([145, -36.5]), zoom: 5})});
</script></body></html>
HTML
fi
FLAGS=(--headless --no-sandbox --disable-gpu --no-first-run --disable-extensions --window-size=1024,768
    --virtual-time-budget=20000 --allow-file-access-from-files)

run() {  # $1: extra serve flags, $2: the page; prints the page's result line
    "$BIN" serve Examples/police_stations.json --port "$PORT" --base-map "" $1 >>"$ARTIFACTS/error-tiles-serve.log" 2>&1 &
    local server=$!
    python3 Tests/browser/wait_for.py "http://127.0.0.1:$PORT/health" "the server"
    timeout 120 "$BROWSER" "${FLAGS[@]}" --dump-dom "file://$PWD/$2" 2>>"$ARTIFACTS/chromium.log" |
        grep -o 'loads=[0-9]* errors=[0-9]*' || echo "no result"
    kill -TERM "$server"
    wait "$server" || true
}
check() {  # $1: the client's name, $2: its page
    local control fixed
    control=$(run "" "$2")
    fixed=$(run "--empty-tile png" "$2")
    echo "error-tile test, $1: 204: $control; --empty-tile png: $fixed"
    [[ $control =~ errors=[1-9] ]] || { echo "error-tile test: $1 saw no errors under 204; the test proves nothing" >&2; exit 1; }
    [[ $fixed =~ ^loads=[1-9][0-9]*\ errors=0$ ]] || { echo "error-tile test: $1 saw error tiles" >&2; exit 1; }
}
check Leaflet "$PAGE"
if [ -n "${OL_JS:-}" ]; then check OpenLayers "$OL_PAGE"; fi
echo "error-tile test: passed"

#!/usr/bin/env bash
# Browser test with MapLibre GL JS 5 (the maplibre-gl.js a PyPI wheel bundles, such as the
# `maplibre` package's; MAPLIBRE_JS names it) in headless Chromium, WebGL through SwiftShader:
#  - TileJSON `tileSize`: /police_stations.json gives 256 px tiles (MapLibre asks for zoom + 1),
#    /police_stations@2x.json 512 px @2x tiles at the map's own zoom;
#  - padded bounds: centred on 9/469/313, east of every police station but within the blobs'
#    reach, MapLibre must ask for that tile (it skips tiles outside TileJSON `bounds`);
#  - WebP: /police_stations@2x.json?format=webp lists .webp tiles, which MapLibre must draw;
#  - CORS preflight: `transformRequest` adds an `Authorization` header to TileJSON and tile
#    requests, so Chromium sends OPTIONS first; with CORS on they load, with --no-cors they fail
#    (the control that shows the preflight is what the test sees).
# The page comes from another origin (a Python http.server on loopback). Screenshots and results
# in $ARTIFACTS. Needs: chromium, python3. Usage: MAPLIBRE_JS=… maplibre.sh (HEATMAP_BIN, ARTIFACTS, PORT).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEATMAP_BIN:-.build/release/heatmap}
ARTIFACTS=${ARTIFACTS:-.build/artifacts}
PORT=${PORT:-18482}
PAGE_PORT=${PAGE_PORT:-18483}
BROWSER=$(command -v chromium || command -v chromium-browser || true)
[ -n "$BROWSER" ] || { echo "maplibre test: chromium is not installed" >&2; exit 1; }
[ -f "${MAPLIBRE_JS:-}" ] || { echo "maplibre test: MAPLIBRE_JS must name maplibre-gl.js" >&2; exit 1; }
SITE="$ARTIFACTS/maplibre-site"
mkdir -p "$SITE"
cp "$MAPLIBRE_JS" "$SITE/maplibre-gl.js"
cp "$(dirname "$MAPLIBRE_JS")/maplibre-gl.css" "$SITE/maplibre-gl.css" 2>/dev/null || : >"$SITE/maplibre-gl.css"
cat >"$SITE/index.html" <<HTML
<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="maplibre-gl.css"><script src="maplibre-gl.js"></script></head>
<body style="margin:0"><div id="map" style="width:1024px;height:768px"></div><pre id="result">pending</pre>
<script>
var q = new URLSearchParams(location.search);
var tiles = [], errors = [];
var map = new maplibregl.Map({
  container: "map", fadeDuration: 0, attributionControl: false,
  center: [parseFloat(q.get("lng")), parseFloat(q.get("lat"))], zoom: parseFloat(q.get("zoom")),
  style: {version: 8, sources: {heat: {type: "raster", url: "http://127.0.0.1:$PORT" + q.get("tilejson")}},
          layers: [{id: "heat", type: "raster", source: "heat"}]},
  transformRequest: function (url, type) {
    if (type === "Tile") tiles.push(url.replace("http://127.0.0.1:$PORT", ""));
    return q.get("auth") ? {url: url, headers: {"Authorization": "Bearer not-a-secret"}} : {url: url};
  }
});
map.on("error", function (e) { errors.push(String((e.error && e.error.message) || e.type)); });
function report() {
  var source = map.getSource("heat");
  document.getElementById("result").textContent = "RESULT " + JSON.stringify({
    version: maplibregl.getVersion(), tileSize: source ? source.tileSize : null,
    loaded: map.areTilesLoaded(), idle: idle, drawn: drawn, tiles: tiles, errors: errors});
}
var drawn = 0, idle = false;
map.on("data", function (e) { if (e.dataType === "source" && e.tile) drawn++; });
map.on("idle", function () { idle = true; report(); });
var sent = false, started = Date.now();
setInterval(function () {  // reports to the page's server once drawn (or after 30 s)
  report();
  if (!sent && ((idle && drawn > 0) || Date.now() - started > 30000)) {
    sent = true;
    fetch("/report-" + q.get("name"), {method: "POST", body: document.getElementById("result").textContent.slice(7)});
  }
}, 250);
</script></body></html>
HTML
FLAGS=(--headless --no-sandbox --no-first-run --disable-extensions --hide-scrollbars --window-size=1024,768
    --use-gl=angle --use-angle=swiftshader --enable-unsafe-swiftshader --ignore-gpu-blocklist)

# The page's origin: its files, and POST /report-NAME writes what the page saw to NAME's file.
python3 - "$SITE" "$PAGE_PORT" >>"$ARTIFACTS/maplibre-site.log" 2>&1 <<'PY' &
import http.server, os, sys
directory, port = sys.argv[1], int(sys.argv[2])
class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=directory, **kwargs)
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(os.path.join(directory, os.path.basename(self.path) + ".json"), "wb") as f:
            f.write(body)
        self.send_response(204)
        self.end_headers()
http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
PY
SITE_SERVER=$!
SERVER=
trap 'kill "$SITE_SERVER" ${SERVER:+"$SERVER"} 2>/dev/null || true' EXIT

serve() {  # $@: extra flags
    "$BIN" serve Examples/police_stations.json --port "$PORT" --base-map "" "$@" >>"$ARTIFACTS/maplibre-serve.log" 2>&1 &
    SERVER=$!
    python3 Tests/browser/wait_for.py "http://127.0.0.1:$PORT/health" "the server"
}
stop() { kill -TERM "$SERVER"; wait "$SERVER" || true; SERVER=; }
visit() {  # $1: a name, $2: the page's query; writes $ARTIFACTS/maplibre-$1.json and .png
    local url="http://127.0.0.1:$PAGE_PORT/index.html?name=$1&$2" profile browser
    # In real time, a new profile each time (nothing cached from the run before: tiles, preflights),
    # until the page has posted what it saw (at most 60 s). Each profile is a folder of its own:
    # Chromium's helpers may still write into the last one for a moment after it is stopped.
    profile=$(mktemp -d "$ARTIFACTS/maplibre-profile.XXXXXX")
    rm -f "$SITE/report-$1.json"
    "$BROWSER" "${FLAGS[@]}" --remote-debugging-port=0 --user-data-dir="$profile" "$url" 2>>"$ARTIFACTS/chromium.log" &
    browser=$!
    for _ in $(seq 240); do [ -s "$SITE/report-$1.json" ] && break; sleep 0.25; done
    kill "$browser" 2>/dev/null || true
    wait "$browser" 2>/dev/null || true
    cp "$SITE/report-$1.json" "$ARTIFACTS/maplibre-$1.json" 2>/dev/null || : >"$ARTIFACTS/maplibre-$1.json"
    if [ "${3:-}" = no-screenshot ]; then rm -rf "$profile" || true; return; fi
    # The screenshot (virtual time: MapLibre sometimes has not drawn yet, a blank one is 4 kB: up to three tries).
    for _ in 1 2 3; do
        rm -rf "$profile" || true
        profile=$(mktemp -d "$ARTIFACTS/maplibre-profile.XXXXXX")
        timeout 120 "$BROWSER" "${FLAGS[@]}" --user-data-dir="$profile" --virtual-time-budget=20000 \
            --screenshot="$ARTIFACTS/maplibre-$1.png" "$url" 2>>"$ARTIFACTS/chromium.log" || true
        [ "$(stat -c %s "$ARTIFACTS/maplibre-$1.png" 2>/dev/null || echo 0)" -gt 5000 ] && break
    done
    rm -rf "$profile" || true
}

serve
VICTORIA="lng=145&lat=-37&zoom=6"
visit plain "tilejson=/police_stations.json&$VICTORIA"
visit sharp "tilejson=/police_stations@2x.json&$VICTORIA"
visit edge "tilejson=/police_stations.json&lng=150.117&lat=-37.44&zoom=8.2"
visit auth "tilejson=/police_stations@2x.json&$VICTORIA&auth=1"
visit webp "tilejson=%2Fpolice_stations%402x.json%3Fformat%3Dwebp&$VICTORIA"
stop
serve --no-cors
visit noauth "tilejson=/police_stations@2x.json&$VICTORIA&auth=1" no-screenshot
stop
python3 - "$ARTIFACTS" <<'PY'
import json, re, sys
def load(name):
    text = open(f"{sys.argv[1]}/maplibre-{name}.json").read().strip()
    if not text:
        sys.exit(f"maplibre test: {name}: the page reported nothing")
    return json.loads(text)
def zooms(result):
    return sorted({int(m.group(1)) for t in result["tiles"] for m in [re.match(r"/police_stations/(\d+)/", t)] if m})
failures = []
plain, sharp, edge, auth, noauth, webp = (load(n) for n in ["plain", "sharp", "edge", "auth", "noauth", "webp"])
print(f"maplibre test: MapLibre GL JS {plain['version']}")
for name, result in [("plain", plain), ("sharp", sharp), ("edge", edge), ("auth", auth), ("webp", webp)]:
    print(f"maplibre test: {name}: tileSize {result['tileSize']}, {len(result['tiles'])} tiles at zooms "
          f"{zooms(result)}, {result['drawn']} drawn, all loaded {result['loaded']}, errors {result['errors'][:3]}")
    if result["errors"] or not result["tiles"] or not result["drawn"]:
        failures.append(f"{name}: tiles did not load: {result['errors'][:3]}")
if plain["tileSize"] != 256 or zooms(plain) != [7] or any("@2x" in t for t in plain["tiles"]):
    failures.append("plain: expected 256 px tiles of zoom 7 at map zoom 6")
if sharp["tileSize"] != 512 or zooms(sharp) != [6] or not all(t.split("?")[0].endswith("@2x.png") for t in sharp["tiles"]):
    failures.append("sharp: expected 512 px @2x tiles of zoom 6 at map zoom 6")
if webp["tileSize"] != 512 or not all(t.split("?")[0].endswith("@2x.webp") for t in webp["tiles"]):
    failures.append(f"webp: expected 512 px @2x.webp tiles from ?format=webp: {webp['tiles'][:3]}")
if "/police_stations/9/469/313.png" not in edge["tiles"]:
    failures.append(f"edge: 9/469/313 was not requested (padded bounds): {edge['tiles']}")
if not noauth["errors"]:
    failures.append("control: with --no-cors the Authorization requests loaded; the preflight test proves nothing")
print(f"maplibre test: control (--no-cors): {len(noauth['errors'])} errors, e.g. {noauth['errors'][:1]}")
if failures:
    sys.exit("maplibre test: " + "; ".join(failures))
PY
trap - EXIT
kill "$SITE_SERVER" 2>/dev/null || true
echo "maplibre test: passed; screenshots in $ARTIFACTS/maplibre-*.png"

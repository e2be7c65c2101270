#!/usr/bin/env bash
# Browser test of the APNG encoder: headless Chromium decodes Tests/HeatmapKitTests/Fixtures/animation/frames.apng
# (24 labelled frames, written by APNGEncoder; FrameLabelTests keeps it equal to what the code draws) with
# WebCodecs' ImageDecoder and checks it is an animation of 24 frames of 250 ms that plays for ever, each frame
# equal to its slice of frames-sheet.png (the same frames, one below the other, as a plain PNG).
# The page reports by asking its server for /result?TEXT (ImageDecoder works off the main thread, which
# --dump-dom's virtual time does not wait for); the server's log is kept in $ARTIFACTS (default .build/artifacts).
# Needs: chromium (Debian), python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
ARTIFACTS=${ARTIFACTS:-.build/artifacts}
PAGE_PORT=${PAGE_PORT:-18481}
BROWSER=$(command -v chromium || command -v chromium-browser || command -v chromium-headless-shell || true)
[ -n "$BROWSER" ] || { echo "browser test: chromium is not installed" >&2; exit 1; }
mkdir -p "$ARTIFACTS"
PAGE=$(mktemp -d)
cp Tests/HeatmapKitTests/Fixtures/animation/frames.apng Tests/HeatmapKitTests/Fixtures/animation/frames-sheet.png "$PAGE/"
cat >"$PAGE/index.html" <<'HTML'
<!doctype html><html><body><script>
// Both images are drawn into 2D canvases the same way (premultiplied with the same rounding) and read back.
function pixels(source, width, height, top) {
  var canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  var context = canvas.getContext("2d", {colorSpace: "srgb", willReadFrequently: true});
  context.drawImage(source, 0, top, width, height, 0, 0, width, height);
  return context.getImageData(0, 0, width, height).data;
}
async function run() {
  var apng = await (await fetch("frames.apng")).arrayBuffer();
  var decoder = new ImageDecoder({data: apng, type: "image/png", colorSpaceConversion: "none"});
  await decoder.tracks.ready;
  await decoder.completed;
  var track = decoder.tracks.selectedTrack;
  var sheet = await createImageBitmap(await (await fetch("frames-sheet.png")).blob(),
                                      {colorSpaceConversion: "none"});
  var problems = [];
  if (!track.animated) problems.push("not animated");
  if (track.repetitionCount !== Infinity) problems.push("repetitionCount " + track.repetitionCount);
  var count = track.frameCount;
  var height = sheet.height / 24;
  if (count !== 24) problems.push(count + " frames, not 24");
  var distinct = new Set();
  for (var i = 0; i < count; i++) {
    var frame = (await decoder.decode({frameIndex: i})).image;
    if (frame.duration !== 250000) problems.push("frame " + i + " lasts " + frame.duration + " us");
    var width = frame.displayWidth;
    var got = pixels(frame, width, frame.displayHeight, 0);
    var want = pixels(sheet, width, height, i * height);
    frame.close();
    var differing = 0;
    for (var j = 0; j < want.length; j++) if (got[j] !== want[j]) differing++;
    if (differing > 0 || got.length !== want.length) problems.push("frame " + i + ": " + differing + " bytes differ");
    var sum = 0;
    for (var j = 0; j < got.length; j++) sum = (sum * 31 + got[j]) % 1000000007;
    distinct.add(sum);
  }
  if (distinct.size !== count) problems.push("only " + distinct.size + " distinct frames");
  report(problems.length ? "FAIL " + problems.join("; ") : "PASS " + count + " frames");
}
function report(text) { fetch("result?" + encodeURIComponent(text)); }
run().catch(function (error) { report("FAIL " + error); });
</script></body></html>
HTML
python3 -m http.server "$PAGE_PORT" --bind 127.0.0.1 --directory "$PAGE" >"$ARTIFACTS/apng-http.log" 2>&1 &
SERVER=$!
# Chromium's helper processes may still write into the profile for a moment after the browser is killed: the
# folder is removed with a few tries, and a folder left in /tmp never fails the test.
remove_page() { for _ in 1 2 3 4 5; do rm -rf "$PAGE" 2>/dev/null && return 0; sleep 1; done; return 0; }
trap 'kill "$SERVER" 2>/dev/null || true; remove_page' EXIT
python3 Tests/browser/wait_for.py "http://127.0.0.1:$PAGE_PORT/index.html" "the page server"
FLAGS=(--headless --no-sandbox --disable-gpu --no-first-run --disable-extensions --user-data-dir="$PAGE/profile")
"$BROWSER" "${FLAGS[@]}" "http://127.0.0.1:$PAGE_PORT/index.html" >/dev/null 2>"$ARTIFACTS/apng-chromium.log" &
CHROMIUM=$!
trap 'kill "$SERVER" "$CHROMIUM" 2>/dev/null || true; wait "$CHROMIUM" 2>/dev/null || true; remove_page' EXIT
RESULT=$(python3 - "$ARTIFACTS/apng-http.log" <<'PY'
import re, sys, time, urllib.parse
for _ in range(1200):
    with open(sys.argv[1], errors="replace") as log:
        found = re.search(r"GET /result\?(\S*) HTTP", log.read())
    if found:
        print(urllib.parse.unquote(found.group(1)))
        sys.exit(0)
    time.sleep(0.1)
print("no result from the page in 120 s")
PY
)
echo "browser test (APNG): $RESULT"
[[ "$RESULT" == PASS* ]] || { echo "browser test: Chromium did not play the APNG as written" >&2; exit 1; }

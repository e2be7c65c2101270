#!/usr/bin/env bash
# The datashader comparison's check (issue 30), on a seeded 100,000-point slice: datashader (the
# versions of bench/datashader-requirements.txt, in a venv) must draw HeatmapKit's picture on every
# tile of zooms 3, 9 and 16 at 256 and 512 px (intensities against `heatmap tile --format intensity`,
# colours against its PNG) and be timed; drawn the way the script did before (scipy's normalised
# Gaussian, empty pixels shaded) it must be refused: exit 1, no time for any tile.
# Usage: Tests/peers/datashader.sh (HEATMAP_BIN, HEATMAP_BENCH_BIN, HEATMAP_DATASHADER_VENV, ARTIFACTS).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEATMAP_BIN:-.build/release/heatmap}
BENCH=${HEATMAP_BENCH_BIN:-.build/release/heatmap-bench}
ARTIFACTS=${ARTIFACTS:-.build/artifacts}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ARTIFACTS"
"$BENCH" --points 100000 --sizes 100000 --only tiles --zooms 3,9,16 --repetitions 1 \
    --export "$WORK/data" --json "$WORK/report.json" >/dev/null 2>"$WORK/bench.log"
cp "$WORK/report.json" "$WORK/green.json"
python3 bench/compare_datashader.py "$WORK/report.json" "$WORK/data" --repetitions 1 --heatmap "$BIN" \
    --no-render --pictures "$ARTIFACTS/datashader-pictures"
if python3 bench/compare_datashader.py "$WORK/green.json" "$WORK/data" --repetitions 1 --heatmap "$BIN" \
    --no-render --green --pictures "$WORK/green-pictures" 2>"$WORK/green.log"; then
    echo "datashader test: the old (green) drawing was not refused" >&2
    cat "$WORK/green.log" >&2
    exit 1
fi
cp "$WORK/report.json" "$ARTIFACTS/datashader-check.json"
python3 - "$WORK/report.json" "$WORK/green.json" <<'PY'
import json, sys
mended = json.load(open(sys.argv[1]))["datashader"]
green = json.load(open(sys.argv[2]))["datashader"]
tiles = mended["tiles"]
assert len(tiles) == 12, f"expected 12 tiles, got {len(tiles)}"
assert mended["sameEveryTile"] and all(t["same"] and t["milliseconds"] > 0 for t in tiles), tiles
worst = max(t["intensity"]["relativeToTileMaximum"] for t in tiles)
assert worst <= mended["tolerance"], worst
assert not green["sameEveryTile"] and len(green["tiles"]) == 12, green
timed = [t["tile"] for t in green["tiles"] if "milliseconds" in t or "ratio" in t]
assert not timed, f"tiles of another picture were timed: {timed}"
least = min(t["intensity"]["relativeToTileMaximum"] for t in green["tiles"])
print(f"datashader test: 12 tiles the same (largest intensity difference {worst:.1e} of the tile's largest, "
      f"tolerance {mended['tolerance']:g}); the old drawing refused on all 12 (off by {least:.3f} at the least)")
PY

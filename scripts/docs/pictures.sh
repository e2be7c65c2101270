#!/bin/sh
# Makes README's pictures of the gradient presets and of the normalisation choices that had none, with
# `heatmap image` over Examples/police_stations.json (small PNGs, zlib's default level, deterministic: the same
# bytes from a debug or a release build). Usage: sh scripts/docs/pictures.sh [HEATMAP_BINARY]
set -eu
heatmap=${1:-.build/release/heatmap}
[ -x "$heatmap" ] || swift build -c release --product heatmap
data=Examples/police_stations.json
view="--center -37.7,145.0 --size 160x110"
# Gradient presets, by name (library, command, server and map page take the same names).
for preset in default viridis inferno magma turbo cividis; do
    "$heatmap" image "$data" $view --zoom 7 --gradient "$preset" --output "docs/gradient-$preset.png"
done
# Normalisation at zoom 9: the exact maximum of zoom 9 (default), a fixed maximum, and zoom 7's maximum held for
# every zoom (--min-zoom-intensity 7 --max-zoom-intensity 7: zoom-independent colours).
"$heatmap" image "$data" $view --zoom 9 --output docs/normalization-z9-maximum.png
"$heatmap" image "$data" $view --zoom 9 --max-intensity 1 --output docs/normalization-z9-fixed.png
"$heatmap" image "$data" $view --zoom 9 --min-zoom-intensity 7 --max-zoom-intensity 7 \
    --output docs/normalization-z9-held.png
ls -l docs/gradient-*.png docs/normalization-*.png

#!/bin/sh
# Makes README's served images with a running `heatmap serve`: a stacked tile (/base+police_stations/...) and a
# static image (/static/...), both over the synthetic base of scripts/docs/synthetic_base.py, and checks that the static
# image equals `heatmap image`'s of the same viewport, byte for byte. Usage: sh scripts/docs/serve_docs.sh [PORT]
set -eu
port=${1:-18765}
base=/tmp/heatmap-base
heatmap=.build/release/heatmap
swift build -c release --product heatmap >/dev/null
python3 scripts/docs/synthetic_base.py "$base" 7 112 118 75 81
"$heatmap" serve Examples/police_stations.json --port "$port" --layer "base=file://$base/{z}/{x}/{y}.png" &
server=$!
trap 'kill $server' EXIT
for _ in 1 2 3 4 5 6 7 8 9 10; do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.5; done
curl -sf -o docs/served-stack-7-115-78@2x.png "http://127.0.0.1:$port/base+police_stations/7/115/78@2x.png"
curl -sf -o docs/served-static-victoria@2x.png \
    "http://127.0.0.1:$port/static/base+police_stations/145.0,-37.7,7/480x270@2x.png"
"$heatmap" image Examples/police_stations.json --center -37.7,145.0 --zoom 7 --size 480x270 --scale 2 \
    --base "file://$base/{z}/{x}/{y}.png" --output /tmp/heatmap-command-victoria@2x.png
python3 - docs/served-static-victoria@2x.png /tmp/heatmap-command-victoria@2x.png <<'PY'
import struct, sys, zlib
def pixels(path):  # 8-bit RGBA PNG, any filters
    data = open(path, "rb").read()
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR": width, height = struct.unpack(">II", body[:8])
        if kind == b"IDAT": idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a, b = line[i - 4] if i >= 4 else 0, prev[i]
            c = prev[i - 4] if i >= 4 else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c)
                    else b if abs(p - b) <= abs(p - c) else c][kind]
            line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, b"".join(rows)
same = pixels(sys.argv[1]) == pixels(sys.argv[2])
print("served static image equals heatmap image, pixel for pixel" if same else "served static image DIFFERS")
sys.exit(0 if same else 1)
PY
ls -l docs/served-stack-7-115-78@2x.png docs/served-static-victoria@2x.png

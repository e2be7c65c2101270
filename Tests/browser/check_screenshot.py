"""Checks the browser test's results: tiles were requested and loaded, and the screenshot has
heatmap colours in the middle of the map (where Leaflet fits the data). Standard library only."""
import re
import struct
import sys
import urllib.request
import zlib


def decode_png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, f"unsupported PNG {header}"
    channels = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def main(screenshot, dom, metrics_url, colours="default"):
    html = open(dom, encoding="utf-8").read()
    loaded = re.search(r'data-tiles-loaded="(\d+)"', html)
    assert loaded and int(loaded.group(1)) > 0, "the page loaded no heatmap tile"
    metrics = urllib.request.urlopen(metrics_url, timeout=5).read().decode()
    served = re.search(r'heatmap_http_requests_total\{route="tile",status="200"\} (\d+)', metrics)
    assert served and int(served.group(1)) > 0, "the server sent no tile"
    # The legend box in the corner, at the map's zoom, served as a PNG.
    legend = re.search(r'data-legend="([^"]*)"', html)
    assert legend and "/legend.png?z=" in legend.group(1), "the page shows no legend"
    legends = re.search(r'heatmap_http_requests_total\{route="legend",status="200"\} (\d+)', metrics)
    assert legends and int(legends.group(1)) > 0, "the server sent no legend"
    width, height, rows = decode_png(screenshot)
    # The middle of the map, clear of Leaflet's controls in the corners and the tuning panel.
    heat = red = blue = 0
    for y in range(height // 8, height * 7 // 8):
        for x in range(width // 8, width * 7 // 8):
            r, g, b = rows[y][x]
            if max(r, g, b) - min(r, g, b) > 50:
                heat += 1
                if r > 180 and g < 140 and b < 100:
                    red += 1
                if b > r + 40:
                    blue += 1
    print(f"browser test ({colours}): {loaded.group(1)} tiles loaded in the page, {served.group(1)} sent in all; "
          f"{heat} heatmap pixels, {red} red, {blue} blue, in a {width}x{height} screenshot")
    assert heat > 2000, "too few heatmap pixels in the screenshot"
    if colours == "ice":  # the gradient control's query reached the tiles: blues, no red
        assert blue > heat // 2 and red == 0, "the ice gradient was not applied"
    else:
        assert red > 10 and blue < heat // 10, "no hot spot (red) in the screenshot"


if __name__ == "__main__":
    main(*sys.argv[1:5])

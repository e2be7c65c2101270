#!/usr/bin/env python3
"""Bytes of the palette PNG against the colour map's size, and how far its pixels move from Google's 1,000 entries.

usage: bench/palette_sizes.py POINTS.f64 [--binary .build/release/heatmap] [--sizes 128,160,192,224,255]
                              [--tiles 3/1/3@2x,...] [--out bench/results/palette-map-sizes.json]
       bench/palette_sizes.py --table [bench/results/palette-map-sizes.json]

POINTS.f64 comes from `heatmap-bench --export DIR` (latitude, longitude, weight as float64 triples). For
each tile and size, `heatmap tile --color-map-size N` draws it (a palette PNG whenever N <= 255) and the
script compares it with the RGBA tile of `--color-map-size 1000` (Google's map, the library's default):
bytes, their ratio, the largest channel difference and its 99th percentile over the pixels either draws.
Needs Pillow and numpy (bench/pillow_sizes.py's virtual environment, made on first use). --table prints a
result file as docs/guides/tile-formats.md shows it.
"""
import argparse
import io
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pillow_sizes import ensure_pillow  # noqa: E402

DENSE = "3/1/3@2x,6/18/23@2x,9/103/182@2x,12/828/1457@2x,16/14977/27652@2x"


def table(path):
    """A row for each map size: each tile's bytes and ratio to the 1,000-entry RGBA tile, then the pixels moved."""
    with open(path) as f:
        rows = json.load(f)["rows"]
    tiles = list(dict.fromkeys(r["tile"] for r in rows))
    print("| entries | " + " | ".join(tiles) + " | pixels moved from 1,000 entries: largest (p99) |")
    print("|---:|" + "---:|" * len(tiles) + "---|")
    for size in sorted({r["colorMapSize"] for r in rows}):
        cells = {r["tile"]: r for r in rows if r["colorMapSize"] == size}
        moved = max(cells.values(), key=lambda r: (r["largestDifference"], r["differenceP99"]))
        print(f"| {size} | " + " | ".join(f"{cells[t]['bytes'] / 1000:.1f} kB, {cells[t]['ratio']:.2f}" for t in tiles)
              + f" | {moved['largestDifference']} ({max(r['differenceP99'] for r in cells.values())}) |")


def main():
    if sys.argv[1:2] == ["--table"]:
        return table(sys.argv[2] if len(sys.argv) > 2 else "bench/results/palette-map-sizes.json")
    ensure_pillow()
    import numpy as np
    from PIL import Image

    parser = argparse.ArgumentParser()
    parser.add_argument("points")
    parser.add_argument("--binary", default=".build/release/heatmap")
    parser.add_argument("--sizes", default="128,160,192,224,255")
    parser.add_argument("--tiles", default=DENSE)
    parser.add_argument("--out", default="bench/results/palette-map-sizes.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        points = np.fromfile(args.points, "<f8").reshape(-1, 3)
        csv = os.path.join(folder, "points.csv")
        np.savetxt(csv, points, fmt="%.7f", delimiter=",", header="lat,lng,weight", comments="")

        def tile(address, size):
            out = subprocess.run([args.binary, "tile", csv, address, "--color-map-size", str(size)],
                                 check=True, capture_output=True).stdout
            return out, np.asarray(Image.open(io.BytesIO(out)).convert("RGBA")).astype(int)

        rows = []
        for address in args.tiles.split(","):
            today, reference = tile(address, 1000)
            for size in [int(s) for s in args.sizes.split(",")]:
                png, pixels = tile(address, size)
                drawn = (pixels[..., 3] > 0) | (reference[..., 3] > 0)
                difference = np.abs(pixels - reference).max(axis=2)[drawn]
                row = {"tile": address, "points": len(points), "colorMapSize": size, "bytes": len(png),
                       "todayBytes": len(today), "ratio": round(len(png) / len(today), 3),
                       "palette": png[25] == 3, "largestDifference": int(difference.max()),
                       "differenceP99": int(np.percentile(difference, 99))}
                rows.append(row)
                print(json.dumps(row), flush=True)
    json.dump({"points": args.points, "rows": rows}, open(args.out, "w"), indent=2)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Adds Pillow's `optimize=True` PNG sizes, the reference for size, to heatmap-bench's "bytes" section.

usage: bench/pillow_sizes.py REPORT.json TILE_IMAGES_DIR

REPORT.json and TILE_IMAGES_DIR come from
    swift run -c release heatmap-bench --only bytes --json REPORT.json --tile-images TILE_IMAGES_DIR
which writes each tile's RGBA PNG (Google's 1,000-entry map) and palette PNG (the server's map, 160 entries, or --color-map-size N) there.
The script makes a virtual environment (bench/.venv-pillow) with Pillow from PyPI on first use, then
saves each RGBA image with `optimize=True` (Pillow's smallest: zlib level 9, its filter choice) and
each palette image as a palette image (mode P, the same PLTE and tRNS, exact) with `optimize=True`,
checks that both decode to the same pixels, and writes the sizes as pillowRGBABytes and
pillowIndexedBytes in REPORT.json.
"""
import io
import json
import os
import subprocess
import sys

VENV = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".venv-pillow")


def ensure_pillow():
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) != os.path.realpath(VENV):
        if not os.path.exists(python):
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
            subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "--quiet", "pillow", "numpy"], check=True)
        os.execv(python, [python] + sys.argv)


def main():
    ensure_pillow()
    import numpy as np
    from PIL import Image

    report_path, folder = sys.argv[1], sys.argv[2]
    report = json.load(open(report_path))
    for entry in report.get("bytes", []):
        name = entry["tile"].replace("/", "-")
        rgba = Image.open(os.path.join(folder, name + "-rgba.png")).convert("RGBA")
        out = io.BytesIO()
        rgba.save(out, "PNG", optimize=True)
        assert (np.asarray(Image.open(io.BytesIO(out.getvalue())).convert("RGBA")) == np.asarray(rgba)).all()
        entry["pillowRGBABytes"] = len(out.getvalue())
        palette = Image.open(os.path.join(folder, name + "-indexed.png"))
        assert palette.mode == "P", f"{name}: the palette PNG is {palette.mode}"
        pixels = np.asarray(palette.convert("RGBA"))
        out = io.BytesIO()
        palette.save(out, "PNG", optimize=True)
        assert (np.asarray(Image.open(io.BytesIO(out.getvalue())).convert("RGBA")) == pixels).all(), name
        entry["pillowIndexedBytes"] = len(out.getvalue())
        print(f"{entry['tile']}: Pillow optimize=True {entry['pillowRGBABytes']} B RGBA, "
              f"{entry['pillowIndexedBytes']} B palette; HeatmapKit {entry['rgbaBytes']} B, {entry['indexedBytes']} B")
    json.dump(report, open(report_path, "w"), indent=2)


if __name__ == "__main__":
    main()

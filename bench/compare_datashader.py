#!/usr/bin/env python3
"""Render the benchmark's tiles with datashader and append its times to the benchmark's JSON.

usage: bench/compare_datashader.py REPORT.json EXPORT_DIR [--repetitions N]

REPORT.json and EXPORT_DIR come from
    swift run -c release heatmap-bench --json REPORT.json --export EXPORT_DIR
The script makes a virtual environment (bench/.venv) with datashader from PyPI on first use,
then, for every tile of the report at the exported data size, times datashader's pipeline:
aggregate the weights of all points into the tile's pixels padded by the radius (ds.sum),
blur with a Gaussian of the same sigma (R/3) truncated at R, crop, shade with the same
normalisation value and colours, and encode a PNG. It writes the results under "datashader"
in REPORT.json, with the ratio datashader / HeatmapKit for each tile.
"""
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, ".venv")


def ensure_environment():
    """Re-runs this script inside bench/.venv, creating it with datashader if needed."""
    python = os.path.join(VENV, "bin", "python")
    if sys.prefix == VENV:
        return
    if not os.path.exists(python):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
        subprocess.check_call([python, "-m", "pip", "install", "--quiet", "datashader", "scipy", "pillow"])
    os.execv(python, [python] + sys.argv)


def tile_extent(zoom, x, y, scale, radius):
    """The padded tile's extent in Web Mercator metres and its size in pixels."""
    half = 20037508.342789244
    tile = 2 * half / (1 << zoom)
    size = 256 * scale
    pixel = tile / size
    left = -half + x * tile - radius * pixel
    top = half - y * tile + radius * pixel
    width = size + 2 * radius
    return (left, left + width * pixel), (top - width * pixel, top), width


def main():
    ensure_environment()
    import numpy as np
    import pandas as pd
    import datashader as ds
    import datashader.transfer_functions as tf
    from datashader.utils import lnglat_to_meters
    from scipy.ndimage import gaussian_filter
    import io

    report_path, export_dir = sys.argv[1], sys.argv[2]
    repetitions = int(sys.argv[sys.argv.index("--repetitions") + 1]) if "--repetitions" in sys.argv else 3
    with open(report_path) as f:
        report = json.load(f)
    raw = np.fromfile(os.path.join(export_dir, "points.f64"), dtype="<f8").reshape(-1, 3)
    lat = np.clip(raw[:, 0], -85.05112878, 85.05112878)
    x, y = lnglat_to_meters(raw[:, 1], lat)
    frame = pd.DataFrame({"x": x, "y": y, "w": raw[:, 2]})
    count = len(frame)
    base = report.get("radius", 20)
    results = []
    for tile in report["tiles"]:
        if tile["points"] != count:
            continue
        zoom, scale = tile["zoom"], tile["scale"]
        name = tile["tile"].split("@")[0]
        _, tx, ty = (int(v) for v in name.split("/"))
        radius = base * scale
        x_range, y_range, width = tile_extent(zoom, tx, ty, scale, radius)
        sigma = radius / 3
        times = []
        png_bytes = 0
        for _ in range(repetitions):
            start = time.perf_counter()
            canvas = ds.Canvas(plot_width=width, plot_height=width, x_range=x_range, y_range=y_range)
            agg = canvas.points(frame, "x", "y", agg=ds.sum("w"))
            blurred = gaussian_filter(np.nan_to_num(agg.values), sigma=sigma, truncate=3.0, mode="constant")
            crop = blurred[radius:-radius, radius:-radius]
            image = tf.shade(
                agg[radius:-radius, radius:-radius].copy(data=crop),
                cmap=["#66e100", "#ff0000"], how="linear", span=[0, tile["normalization"]], min_alpha=0)
            buffer = io.BytesIO()
            image.to_pil().save(buffer, format="PNG")
            png_bytes = buffer.tell()
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        median = times[len(times) // 2]
        results.append({
            "tile": tile["tile"], "kind": tile["kind"], "points": count, "milliseconds": median,
            "pngBytes": png_bytes, "heatmapKitMilliseconds": tile["totalMs"],
            "ratio": median / max(tile["totalMs"], 1e-6),
        })
        print(f"datashader {tile['tile']:<16} {tile['kind']:<6} {median:9.1f} ms  "
              f"HeatmapKit {tile['totalMs']:7.2f} ms  ({median / max(tile['totalMs'], 1e-6):.0f}x)", file=sys.stderr)
    report["datashader"] = {"version": ds.__version__, "tiles": results,
                            "heatmapKitWinsEveryTile": all(r["ratio"] > 1 for r in results)}
    with open(report_path, "w") as f:
        json.dump(report, f, indent=2, sort_keys=True)


if __name__ == "__main__":
    main()

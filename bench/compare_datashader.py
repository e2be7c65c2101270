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

For the report's "render" measurements (heatmap-bench --only render) at the exported size, it
also runs datashader's own pyramid renderer, datashader.tiles.render_tiles, over the same zooms
and area (zooms 0-10 over the data's extent, 0-14 over the cluster box): per zoom, super-tiles of
up to 4096 px aggregated with ds.sum, blurred with the same Gaussian, the span from a full scan
(its M(z)), shaded and cut into 256 px PNG files, on every core through dask's threads. It writes those
under "datashaderRender", with the ratio to HeatmapKit's folder (else MBTiles) output on every core.
Cases whose top zoom spans more than MAX_RENDER_PIXELS are skipped: render_tiles holds a whole
zoom's aggregates in memory.
"""
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The largest raster (pixels at the highest zoom) given to render_tiles: about 2 GB of float64 arrays.
MAX_RENDER_PIXELS = 2 ** 28
VENV = os.path.join(HERE, ".venv")


def ensure_environment():
    """Re-runs this script inside bench/.venv, creating it with datashader if needed."""
    python = os.path.join(VENV, "bin", "python")
    if sys.prefix == VENV:
        return
    if not os.path.exists(python):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
        subprocess.check_call([python, "-m", "pip", "install", "--quiet", "datashader", "dask", "scipy", "pillow"])
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
    frame.attrs.update(west=float(raw[:, 1].min()), east=float(raw[:, 1].max()),
                       south=float(lat.min()), north=float(lat.max()))
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
    report["datashaderRender"] = compare_render(report, frame, count, base)
    with open(report_path, "w") as f:
        json.dump(report, f, indent=2, sort_keys=True)


def compare_render(report, frame, count, radius):
    """datashader.tiles.render_tiles over the zooms and areas of the report's render section."""
    import shutil
    import tempfile
    import numpy as np
    import datashader as ds
    import datashader.transfer_functions as tf
    from datashader.tiles import render_tiles
    from datashader.utils import lnglat_to_meters
    from scipy.ndimage import gaussian_filter

    import dask
    dask.config.set(scheduler="threads")  # every core, without pickling the points into each task
    sigma = radius / 3

    def load_data(x_range, y_range):
        return frame

    def rasterize(df, x_range, y_range, height, width):
        canvas = ds.Canvas(plot_width=width, plot_height=height, x_range=x_range, y_range=y_range)
        agg = canvas.points(df, "x", "y", agg=ds.sum("w"))
        blurred = gaussian_filter(np.nan_to_num(agg.values), sigma=sigma, truncate=3.0, mode="constant")
        return agg.copy(data=blurred)

    def shade(agg, span=None):
        return tf.shade(agg, cmap=["#66e100", "#ff0000"], how="linear", span=span, min_alpha=0)

    def post(img, **kwargs):
        return img

    results = []
    cases = {}
    for m in report.get("render", []):
        if m["points"] == count:
            cases.setdefault((m["zooms"], m["bounds"]), []).append(m)
    for (zooms, bounds), ours in sorted(cases.items()):
        low, high = (int(v) for v in zooms.split("-"))
        if bounds:
            w, s, e, n = (float(v) for v in bounds.split(","))
        else:
            w, s, e, n = float(frame.attrs["west"]), float(frame.attrs["south"]), float(frame.attrs["east"]), float(frame.attrs["north"])
        (x0, x1), (y0, y1) = lnglat_to_meters(np.array([w, e]), np.array([s, n]))
        world = 2 * 20037508.342789244
        pixels = (x1 - x0) / world * (256 << high) * (y1 - y0) / world * (256 << high)
        if pixels > MAX_RENDER_PIXELS:
            # render_tiles keeps every super-tile's aggregate of a zoom in memory (float64, and a
            # blurred copy): zoom 10 over the whole data is ~1e9 pixels, more than 14 GB (tried).
            results.append({"zooms": zooms, "bounds": bounds, "points": count, "skipped":
                            f"{pixels:.3g} pixels at zoom {high}, over {MAX_RENDER_PIXELS:.3g}: "
                            "render_tiles holds a zoom's whole raster in memory"})
            print(f"datashader render_tiles zooms {zooms} {bounds or 'everywhere'}: skipped, "
                  f"{pixels:.3g} pixels at zoom {high}", file=sys.stderr)
            continue
        output = tempfile.mkdtemp(prefix="datashader-tiles-")
        try:
            start = time.perf_counter()
            render_tiles((x0, y0, x1, y1), range(low, high + 1), load_data, rasterize, shade, post, output)
            seconds = time.perf_counter() - start
            files = [os.path.join(d, f) for d, _, fs in os.walk(output) for f in fs if f.endswith(".png")]
            size = sum(os.path.getsize(f) for f in files)
        finally:
            shutil.rmtree(output, ignore_errors=True)
        best = max(ours, key=lambda m: (m["threads"], m["format"] == "folder"))
        entry = {"zooms": zooms, "bounds": bounds, "points": count, "tiles": len(files), "bytes": size,
                 "seconds": seconds, "tilesPerSecond": len(files) / max(seconds, 1e-9),
                 "heatmapKitFormat": best["format"], "heatmapKitThreads": best["threads"],
                 "heatmapKitTiles": best["written"], "heatmapKitSeconds": best["seconds"],
                 "ratio": seconds / max(best["seconds"], 1e-9)}
        results.append(entry)
        print(f"datashader render_tiles zooms {zooms} {bounds or 'everywhere'}: {len(files)} tiles, "
              f"{size / 1e6:.1f} MB in {seconds:.1f} s; HeatmapKit {best['written']} tiles in "
              f"{best['seconds']:.2f} s ({entry['ratio']:.0f}x)", file=sys.stderr)
    return results


if __name__ == "__main__":
    main()

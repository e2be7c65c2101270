#!/usr/bin/env python3
"""Draw the benchmark's tiles with datashader, check that it drew HeatmapKit's picture, then time it.

usage: bench/compare_datashader.py REPORT.json EXPORT_DIR [--repetitions N] [--heatmap BIN]
           [--pictures DIR] [--tolerance T] [--no-render] [--green]

REPORT.json and EXPORT_DIR come from
    swift run -c release heatmap-bench --json REPORT.json --export EXPORT_DIR
The script makes a virtual environment (bench/.venv, or $HEATMAP_DATASHADER_VENV) with the versions
pinned in bench/datashader-requirements.txt on first use. For every tile of the report at the
exported data size it draws the tile datashader's way: aggregate the weights of all points into the
tile's pixels padded by the reach R (ds.sum), blur with HeatmapKit's kernel (README's definition:
k(t) = exp(-t^2 / (2 sigma^2)) for |t| <= R, sigma = R / 3, not normalised; scipy's correlate1d along
each axis), crop, shade with the same normalisation value M(z) (the report's) and the same colour map
(EXPORT_DIR/colormap.rgba, the default gradient at opacity 0.7; pixels of no intensity left
transparent), and encode a PNG.

Same picture first, then time. Before timing a tile it compares datashader's intensities with
`heatmap tile EXPORT_DIR/points.csv Z/X/Y --format intensity` of the same tile (largest difference
relative to the tile's largest intensity, at most --tolerance, default 1e-5), and its colours with
HeatmapKit's PNG of it: every pixel of no intensity transparent, every other pixel's red, green,
blue and alpha within two colour map entries of HeatmapKit's. (tf.shade gives every pixel of a
colour map one alpha, so each pixel then takes the alpha of the entry tf.shade picked for it: the
default gradient fades in from transparent below 0.2 M.) A tile that differs gets no time,
only its differences, and the script exits 1 after writing the report. Both sides' PNGs go to
--pictures (default: beside REPORT.json, REPORT-pictures/), named heatmapkit-Z-X-Y[@2x].png and
datashader-Z-X-Y[@2x].png. The results go under "datashader" in REPORT.json, with the ratio
datashader / HeatmapKit for each tile that drew the same picture.

For the report's "render" measurements (heatmap-bench --only render) at the exported size, it also
runs datashader's own pyramid renderer, datashader.tiles.render_tiles, over the same zooms and area
(zooms 0-10 over the data's extent, 0-14 over the cluster box): per zoom, super-tiles of up to
4096 px, each aggregated with ds.sum over itself padded by R and blurred with the same kernel, the
span from a full scan (its M(z)), shaded with HeatmapKit's M(z) of the zoom and colour map and cut
into 256 px PNG files, on every core through dask's threads. Its tiles are then compared with
`heatmap render` of the same zooms and area into a folder: each of HeatmapKit's tiles must have
datashader's, with the colours checked as above, and datashader's other tiles must be transparent.
The results go under "datashaderRender", the time and the ratio to HeatmapKit's folder (else
MBTiles) output on every core only when the tiles were the same. Cases whose top zoom spans more
than MAX_RENDER_PIXELS are skipped: render_tiles holds a whole zoom's aggregates in memory.

--green draws the way this script did before issue 30 (scipy's Gaussian divided by its total weight,
empty pixels shaded as 0, a two-colour map): the check must refuse it (CI runs it so).
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The largest raster (pixels at the highest zoom) given to render_tiles: about 2 GB of float64 arrays.
MAX_RENDER_PIXELS = 2 ** 28
VENV = os.environ.get("HEATMAP_DATASHADER_VENV") or os.path.join(HERE, ".venv")
REQUIREMENTS = os.path.join(HERE, "datashader-requirements.txt")
HALF = 20037508.342789244  # half the side of the Web Mercator square, metres
# The largest intensity difference allowed, relative to the tile's largest intensity: float64
# sums and blur against HeatmapKit's Float32 ones differ by about 1e-6 of it.
DEFAULT_TOLERANCE = 1e-5
# Colours may be this many colour map entries apart (I / M rounded in float64 against Float32).
ENTRY_SLACK = 2


def ensure_environment():
    """Re-runs this script inside the venv, creating it with the pinned versions if needed (again
    when the pins changed or an install did not finish: the venv keeps a copy of the pins it has)."""
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    marker = os.path.join(VENV, "installed-requirements.txt")
    with open(REQUIREMENTS) as f:
        wanted = f.read()
    installed = open(marker).read() if os.path.exists(marker) else None
    if installed != wanted:
        if not os.path.exists(python):
            subprocess.check_call([sys.executable, "-m", "venv", VENV])
        subprocess.check_call([python, "-m", "pip", "install", "--quiet", "-r", REQUIREMENTS])
        with open(marker, "w") as f:
            f.write(wanted)
    os.execv(python, [python] + sys.argv)


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def tile_extent(zoom, x, y, scale, radius):
    """The padded tile's extent in Web Mercator metres and its size in pixels."""
    tile = 2 * HALF / (1 << zoom)
    size = 256 * scale
    pixel = tile / size
    left = -HALF + x * tile - radius * pixel
    top = HALF - y * tile + radius * pixel
    width = size + 2 * radius
    return (left, left + width * pixel), (top - width * pixel, top), width


def kernel_taps(radius):
    """HeatmapKit's kernel (GaussianKernel): k(t) = exp(-t^2 / (2 sigma^2)) for t = -R...R,
    sigma = R / 3, rounded to Float32 as HeatmapKit keeps its taps; not normalised."""
    import numpy as np
    sigma = radius / 3
    t = np.arange(-radius, radius + 1, dtype=np.float64)
    return np.exp(-t * t / (2 * sigma * sigma)).astype(np.float32).astype(np.float64)


def blur(values, radius):
    """The padded grid convolved with HeatmapKit's kernel along both axes (zeros beyond it)."""
    import numpy as np
    from scipy.ndimage import correlate1d
    taps = kernel_taps(radius)
    grid = np.nan_to_num(values)
    grid = correlate1d(grid, taps, axis=0, mode="constant", cval=0.0)
    return correlate1d(grid, taps, axis=1, mode="constant", cval=0.0)


class ColourMap:
    """HeatmapKit's colour map as a matplotlib-style colormap for tf.shade: entry
    min(n - 1, floor(t (n - 1))) for t = I / M, as HeatmapKit's linear scale picks it. tf.shade
    gives every pixel one alpha, so the entries it picked are kept for their alpha (see shade)."""

    def __init__(self, path):
        import numpy as np
        self.entries = np.fromfile(path, dtype=np.uint8).reshape(-1, 4)
        self.n = len(self.entries)
        self.alpha = int(self.entries[-1, 3])
        steps = np.abs(self.entries[ENTRY_SLACK:].astype(int) - self.entries[:-ENTRY_SLACK].astype(int))
        self.tolerance = int(steps.max())


class EntryPicker:
    """One tf.shade call's colormap (render_tiles shades super-tiles on several threads at once)."""

    def __init__(self, colours):
        self.colours = colours
        self.picked = None

    def __call__(self, t, bytes=True):
        import numpy as np
        n = self.colours.n
        index = np.nan_to_num(np.floor(np.clip(t, 0, 1) * (n - 1)), nan=0).astype(np.int64)
        self.picked = np.minimum(index, n - 1)
        return self.colours.entries[self.picked]


def shade(agg, maximum, colours, green=False):
    """tf.shade with the same M and colour map; then each pixel's alpha from the entry it took
    (tf.shade sets one alpha for a whole colour map, where HeatmapKit's fades in from
    transparent below the gradient's first start point, 0.2 for the default one)."""
    import numpy as np
    import datashader.transfer_functions as tf
    if green:  # before issue 30: zeros shaded opaque, two colours interpolated in RGB
        return tf.shade(agg, cmap=["#66e100", "#ff0000"], how="linear", span=[0, maximum], min_alpha=0)
    data = agg.data
    empty = ~(data > 0)
    data = np.where(empty, np.nan, data)  # no intensity: transparent, as HeatmapKit leaves it
    picker = EntryPicker(colours)
    image = tf.shade(agg.copy(data=data), cmap=picker, how="linear", span=[0, maximum], alpha=colours.alpha)
    if picker.picked is None:  # nothing to draw: tf.shade made a transparent image without the map
        return image
    rgba = image.data.view(np.uint8).reshape(data.shape + (4,))
    rgba[..., 3] = np.where(empty, 0, colours.entries[picker.picked, 3])
    return image


def draw_tile(frame, zoom, tx, ty, scale, radius, maximum, colours, green=False):
    """datashader's tile: its intensities (north row first), its image and its PNG."""
    import io
    import numpy as np
    import datashader as ds
    x_range, y_range, width = tile_extent(zoom, tx, ty, scale, radius)
    canvas = ds.Canvas(plot_width=width, plot_height=width, x_range=x_range, y_range=y_range)
    agg = canvas.points(frame, "x", "y", agg=ds.sum("w"))
    if green:
        from scipy.ndimage import gaussian_filter
        blurred = gaussian_filter(np.nan_to_num(agg.values), sigma=radius / 3, truncate=3.0, mode="constant")
    else:
        blurred = blur(agg.values, radius)
    crop = blurred[radius:-radius, radius:-radius]
    image = shade(agg[radius:-radius, radius:-radius].copy(data=crop), maximum, colours, green)
    buffer = io.BytesIO()
    image.to_pil().save(buffer, format="PNG")
    # datashader's rows go north from the south edge; HeatmapKit's from the north edge.
    return np.flipud(crop), buffer.getvalue()


def compare_colours(ours_rgba, theirs_rgba, colours, intensity=None):
    """The differences of datashader's colours from HeatmapKit's, and whether they are within
    ENTRY_SLACK colour map entries on every channel (pixels transparent on both sides match
    whatever their colour). Without intensities, a pixel HeatmapKit writes as (0, 0, 0, 0) counts
    as empty (a pixel of the colour map's first entry is transparent too, but keeps its colour)."""
    import numpy as np
    if ours_rgba.shape != theirs_rgba.shape:
        return {"same": False, "shape": [list(ours_rgba.shape), list(theirs_rgba.shape)]}
    ours_alpha = ours_rgba[..., 3]
    theirs_alpha = theirs_rgba[..., 3]
    empty = (intensity == 0) if intensity is not None else (ours_rgba == 0).all(axis=-1)
    difference = np.abs(ours_rgba.astype(int) - theirs_rgba.astype(int)).max(axis=-1)
    difference[(ours_alpha == 0) & (theirs_alpha == 0)] = 0
    result = {
        # Pixels of no intensity that datashader did not leave transparent.
        "emptyPixelsNotTransparent": int(((theirs_alpha > 0) & empty).sum()),
        # Pixels HeatmapKit draws that datashader left transparent.
        "drawnPixelsTransparent": int(((ours_alpha > 0) & (theirs_alpha == 0)).sum()),
        "largestColourDifference": int(difference.max()),
        "pixelsBeyondColourTolerance": int((difference > colours.tolerance).sum()),
        "pixelsOfAnotherColour": int((difference > 0).sum()),
        "colourTolerance": colours.tolerance,
    }
    result["same"] = result["emptyPixelsNotTransparent"] == 0 and result["pixelsBeyondColourTolerance"] == 0
    return result


def read_png(data_or_path):
    import io
    import numpy as np
    from PIL import Image
    source = io.BytesIO(data_or_path) if isinstance(data_or_path, bytes) else data_or_path
    return np.asarray(Image.open(source).convert("RGBA"))


def heatmapkit_tile(heatmap, export_dir, name, size, scratch):
    """HeatmapKit's intensities (`--format intensity`) and PNG of the tile, or None for "no tile"."""
    import numpy as np
    points = os.path.join(export_dir, "points.csv")
    raw = os.path.join(scratch, "tile.f32")
    png = os.path.join(scratch, "tile.png")
    for path in (raw, png):
        if os.path.exists(path):
            os.remove(path)
    subprocess.run([heatmap, "tile", points, name, "--format", "intensity", "--output", raw], check=True)
    subprocess.run([heatmap, "tile", points, name, "--output", png], check=True)
    if not os.path.exists(raw):
        return None, None
    intensity = np.fromfile(raw, dtype="<f4").reshape(size, size).astype(np.float64)
    with open(png, "rb") as f:
        return intensity, f.read()


def load_frame(export_dir):
    import numpy as np
    import pandas as pd
    from datashader.utils import lnglat_to_meters
    raw = np.fromfile(os.path.join(export_dir, "points.f64"), dtype="<f8").reshape(-1, 3)
    lat = np.clip(raw[:, 0], -85.05112878, 85.05112878)
    x, y = lnglat_to_meters(raw[:, 1], lat)
    frame = pd.DataFrame({"x": x, "y": y, "w": raw[:, 2]})
    frame.attrs.update(west=float(raw[:, 1].min()), east=float(raw[:, 1].max()),
                       south=float(lat.min()), north=float(lat.max()))
    return frame


def main():
    ensure_environment()
    import numpy as np
    import datashader as ds

    report_path, export_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    repetitions = int(option("--repetitions", "3"))
    tolerance = float(option("--tolerance", str(DEFAULT_TOLERANCE)))
    green = "--green" in sys.argv
    heatmap = os.path.abspath(option("--heatmap", os.path.join(HERE, "..", ".build", "release", "heatmap")))
    pictures = option("--pictures", os.path.splitext(report_path)[0] + "-pictures")
    os.makedirs(pictures, exist_ok=True)
    with open(report_path) as f:
        report = json.load(f)
    colours = ColourMap(os.path.join(export_dir, "colormap.rgba"))
    frame = load_frame(export_dir)
    count = len(frame)
    base = report.get("radius", 20)
    began, load = time.time(), [round(v, 2) for v in os.getloadavg()]
    results = []
    scratch = tempfile.mkdtemp(prefix="compare-datashader-")
    try:
        for tile in report["tiles"]:
            if tile["points"] != count:
                continue
            results.append(compare_tile(tile, frame, count, base, colours, heatmap, export_dir, pictures, scratch,
                                        repetitions, tolerance, green))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    same = all(r["same"] for r in results)
    report["datashader"] = {
        "version": ds.__version__, "pictures": os.path.relpath(pictures, os.path.dirname(report_path)),
        "tolerance": tolerance, "mode": "green (before issue 30)" if green else "HeatmapKit's kernel and colours",
        "tiles": results, "sameEveryTile": same, "loadAverageBefore": load,
        "loadAverageAfter": [round(v, 2) for v in os.getloadavg()], "wallSeconds": round(time.time() - began, 1),
        "heatmapKitWinsEveryTile": same and all(r["ratio"] > 1 for r in results)}
    render = [] if "--no-render" in sys.argv else compare_render(
        report, frame, count, base, colours, heatmap, export_dir, green)
    report["datashaderRender"] = render
    with open(report_path, "w") as f:
        json.dump(report, f, indent=2, sort_keys=True)
    differing = [r["tile"] for r in results if not r["same"]]
    differing += [f"render_tiles {r['zooms']} {r['bounds'] or 'everywhere'}" for r in render
                  if "same" in r and not r["same"]]
    if differing:
        print(f"datashader drew another picture on {len(differing)} of {len(results) + len(render)}: "
              f"{', '.join(differing)} (no time for those; differences in {report_path})", file=sys.stderr)
        sys.exit(1)
    print(f"datashader {ds.__version__} drew HeatmapKit's picture on every tile "
          f"(intensities within {tolerance:g} of each tile's largest)", file=sys.stderr)


def compare_tile(tile, frame, count, base, colours, heatmap, export_dir, pictures, scratch, repetitions, tolerance,
                 green):
    """One tile: the check against HeatmapKit's, then (only if the same) datashader's time."""
    import numpy as np
    zoom, scale = tile["zoom"], tile["scale"]
    name = tile["tile"]
    _, tx, ty = (int(v) for v in name.split("@")[0].split("/"))
    radius = base * scale
    size = 256 * scale
    maximum = tile["normalization"]
    ours, ours_png = heatmapkit_tile(heatmap, export_dir, name, size, scratch)
    theirs, theirs_png = draw_tile(frame, zoom, tx, ty, scale, radius, maximum, colours, green)
    stem = name.replace("/", "-")
    with open(os.path.join(pictures, f"datashader-{stem}.png"), "wb") as f:
        f.write(theirs_png)
    entry = {"tile": name, "kind": tile["kind"], "points": count, "normalization": maximum}
    if ours is None:
        entry.update(same=False, difference="HeatmapKit answered no tile")
        return entry
    with open(os.path.join(pictures, f"heatmapkit-{stem}.png"), "wb") as f:
        f.write(ours_png)
    largest = float(ours.max())
    difference = np.abs(theirs - ours)
    worst = np.unravel_index(int(difference.argmax()), difference.shape)
    entry["intensity"] = {
        "largestDifference": float(difference.max()),
        "relativeToTileMaximum": float(difference.max() / max(largest, 1e-300)),
        "relativeToNormalization": float(difference.max() / maximum),
        "at": [int(worst[1]), int(worst[0])], "heatmapKit": float(ours[worst]), "datashader": float(theirs[worst]),
        "tileMaximum": {"heatmapKit": largest, "datashader": float(theirs.max())},
        "pixelsCompared": int(ours.size), "tolerance": tolerance,
        "same": bool(difference.max() <= tolerance * largest),
    }
    entry["colour"] = compare_colours(read_png(ours_png), read_png(theirs_png), colours, ours)
    entry["same"] = entry["intensity"]["same"] and entry["colour"]["same"]
    line = (f"datashader {name:<16} {tile['kind']:<6} intensity off by {entry['intensity']['relativeToTileMaximum']:.2e}"
            f" of the tile's largest, colours {'same' if entry['colour']['same'] else 'DIFFER'}")
    if not entry["same"]:
        print(line + ": DIFFERENT PICTURE, not timed", file=sys.stderr)
        return entry
    times = []
    png_bytes = len(theirs_png)
    for _ in range(repetitions):
        start = time.perf_counter()
        _, png = draw_tile(frame, zoom, tx, ty, scale, radius, maximum, colours, green)
        times.append((time.perf_counter() - start) * 1000)
        png_bytes = len(png)
    times.sort()
    median = times[len(times) // 2]
    entry.update(milliseconds=median, pngBytes=png_bytes, heatmapKitMilliseconds=tile["totalMs"],
                 ratio=median / max(tile["totalMs"], 1e-6))
    print(f"{line}; {median:9.1f} ms, HeatmapKit {tile['totalMs']:7.2f} ms ({entry['ratio']:.0f}x)", file=sys.stderr)
    return entry


def zoom_of(agg):
    """The zoom of a render_tiles super-tile, from its pixel size."""
    xs = agg.coords["x"].values
    return int(round(math.log2(2 * HALF / 256 / abs(float(xs[1] - xs[0])))))


def heatmapkit_maxima(heatmap, export_dir, low, high):
    """HeatmapKit's M(z) at 256 px for zooms low...high (`heatmap info --json`)."""
    zooms = ",".join(str(z) for z in range(low, high + 1))
    out = subprocess.run([heatmap, "info", os.path.join(export_dir, "points.csv"), "--zoom", zooms, "--json"],
                         check=True, capture_output=True, text=True).stdout
    found = {int(n["zoom"]): float(n["value"]) for n in json.loads(out).get("normalization", [])}
    missing = [z for z in range(low, high + 1) if z not in found]
    if missing:
        sys.exit(f"heatmap info --json gave no M(z) for zooms {missing}: {out[:400]}")
    return found


def compare_render(report, frame, count, radius, colours, heatmap, export_dir, green):
    """datashader.tiles.render_tiles over the zooms and areas of the report's render section,
    checked against `heatmap render` of the same into a folder."""
    import numpy as np
    import datashader as ds
    from datashader.tiles import render_tiles
    from datashader.utils import lnglat_to_meters

    import dask
    dask.config.set(scheduler="threads")  # every core, without pickling the points into each task

    # render_tiles' tile grid (MercatorTileDefinition) puts the world's edge at 20037508.34 m,
    # 2.8 mm inside Web Mercator's: a point within 2.8 mm of a pixel's edge then falls in the
    # next pixel (the check refused it: at 1M points, zooms 0-14 of the cluster's box, colours up
    # to 4 levels apart and 320 pixels of the fringe transparent; at 100k, zooms 12-14, up to 225
    # where a lone point's fringe moved). The points are moved by those 2.8 mm, so that
    # datashader's pixels hold the points HeatmapKit's do (then the same picture on every tile).
    shift = HALF - 20037508.34
    shifted = frame.assign(x=frame["x"] + shift, y=frame["y"] + shift)

    def load_data(x_range, y_range):
        return shifted

    def rasterize(df, x_range, y_range, height, width):
        # The super-tile padded by R pixels, so that points beside it reach into it (seamless).
        px = (x_range[1] - x_range[0]) / width
        py = (y_range[1] - y_range[0]) / height
        canvas = ds.Canvas(plot_width=width + 2 * radius, plot_height=height + 2 * radius,
                           x_range=(x_range[0] - radius * px, x_range[1] + radius * px),
                           y_range=(y_range[0] - radius * py, y_range[1] + radius * py))
        agg = canvas.points(df, "x", "y", agg=ds.sum("w"))
        if green:
            from scipy.ndimage import gaussian_filter
            blurred = gaussian_filter(np.nan_to_num(agg.values), sigma=radius / 3, truncate=3.0, mode="constant")
        else:
            blurred = blur(agg.values, radius)
        inner = agg[radius:-radius, radius:-radius]
        return inner.copy(data=blurred[radius:-radius, radius:-radius])

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
            w, s, e, n = (float(frame.attrs[k]) for k in ("west", "south", "east", "north"))
        (x0, x1), (y0, y1) = (v + shift for v in lnglat_to_meters(np.array([w, e]), np.array([s, n])))
        world = 2 * HALF
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
        maxima = heatmapkit_maxima(heatmap, export_dir, low, high)

        def shade_tile(agg, span=None):
            return shade(agg, maxima[zoom_of(agg)], colours, green)

        def post(img, **kwargs):
            return img

        load = [round(v, 2) for v in os.getloadavg()]
        output = tempfile.mkdtemp(prefix="datashader-tiles-")
        theirs_folder = tempfile.mkdtemp(prefix="heatmapkit-tiles-")
        try:
            start = time.perf_counter()
            render_tiles((x0, y0, x1, y1), range(low, high + 1), load_data, rasterize, shade_tile, post, output)
            seconds = time.perf_counter() - start
            files = [os.path.join(d, f) for d, _, fs in os.walk(output) for f in fs if f.endswith(".png")]
            size = sum(os.path.getsize(f) for f in files)
            command = [heatmap, "render", os.path.join(export_dir, "points.csv"), "--zoom", zooms,
                       "--output", theirs_folder + "/"]
            if bounds:
                command += ["--bounds", bounds]
            subprocess.run(command, check=True, capture_output=True)
            check = compare_render_tiles(theirs_folder, output, colours, (w, s, e, n))
        finally:
            shutil.rmtree(output, ignore_errors=True)
            shutil.rmtree(theirs_folder, ignore_errors=True)
        best = max(ours, key=lambda m: (m["threads"], m["format"] == "folder"))
        entry = {"zooms": zooms, "bounds": bounds, "points": count, "tiles": len(files), "bytes": size,
                 "same": check["same"], "check": check, "loadAverageBefore": load,
                 "loadAverageAfter": [round(v, 2) for v in os.getloadavg()]}
        label = f"datashader render_tiles zooms {zooms} {bounds or 'everywhere'}"
        if not check["same"]:
            print(f"{label}: DIFFERENT PICTURE, not timed: {json.dumps(check)[:600]}", file=sys.stderr)
            results.append(entry)
            continue
        entry.update(seconds=seconds, tilesPerSecond=len(files) / max(seconds, 1e-9),
                     heatmapKitFormat=best["format"], heatmapKitThreads=best["threads"],
                     heatmapKitTiles=best["written"], heatmapKitSeconds=best["seconds"],
                     ratio=seconds / max(best["seconds"], 1e-9))
        results.append(entry)
        print(f"{label}: {len(files)} tiles, {size / 1e6:.1f} MB in {seconds:.1f} s; HeatmapKit {best['written']} "
              f"tiles in {best['seconds']:.2f} s ({entry['ratio']:.0f}x); the same picture on "
              f"{check['compared']} tiles", file=sys.stderr)
    return results


def tile_range(bounds, zoom):
    """The columns and rows of the tiles at `zoom` that a W,S,E,N box touches."""
    w, s, e, n = bounds
    count = 1 << zoom

    def row(lat):
        y = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
        return min(count - 1, max(0, int((1 - y / math.pi) / 2 * count)))
    columns = range(int((w + 180) / 360 * count), min(count - 1, int((e + 180) / 360 * count)) + 1)
    return columns, range(row(n), row(s) + 1)


def compare_render_tiles(heatmapkit_folder, datashader_folder, colours, bounds):
    """Every tile HeatmapKit wrote against datashader's; datashader's others within the bounds
    must be transparent (render_tiles writes every tile of its 4096 px super-tiles, so also
    tiles beyond the bounds, drawn from the points there: those are left out)."""
    import numpy as np

    def tiles(folder):
        found = {}
        for d, _, fs in os.walk(folder):
            for f in fs:
                if f.endswith(".png"):
                    path = os.path.join(d, f)
                    found[os.path.relpath(path, folder)] = path
        return found

    ours = tiles(heatmapkit_folder)
    theirs = tiles(datashader_folder)
    missing = sorted(set(ours) - set(theirs))
    totals = {"emptyPixelsNotTransparent": 0, "drawnPixelsTransparent": 0, "pixelsBeyondColourTolerance": 0,
              "pixelsOfAnotherColour": 0}
    largest = 0
    differing = []
    for name in sorted(set(ours) & set(theirs)):
        result = compare_colours(read_png(ours[name]), read_png(theirs[name]), colours)
        if "shape" in result:
            differing.append({"tile": name, "shape": result["shape"]})
            continue
        for key in totals:
            totals[key] += result[key]
        largest = max(largest, result["largestColourDifference"])
        if not result["same"] and len(differing) < 20:
            differing.append({"tile": name, **result})
    extra_drawn = []
    outside = 0
    for name in sorted(set(theirs) - set(ours)):
        z, x, y = (int(v) for v in name[:-len(".png")].split(os.sep))
        columns, rows = tile_range(bounds, z)
        if x not in columns or y not in rows:
            outside += 1
        elif read_png(theirs[name])[..., 3].any():
            extra_drawn.append(name)
    check = {"compared": len(set(ours) & set(theirs)), "heatmapKitTiles": len(ours), "datashaderTiles": len(theirs),
             "missing": missing[:20], "missingCount": len(missing), "drawnWhereHeatmapKitHasNoTile": extra_drawn[:20],
             "drawnWhereHeatmapKitHasNoTileCount": len(extra_drawn), "datashaderTilesBeyondBounds": outside,
             "largestColourDifference": largest,
             "colourTolerance": colours.tolerance, "differing": differing, **totals}
    check["same"] = not missing and not extra_drawn and not differing
    return check


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The floor of a palette PNG's bytes: what slow, thorough compressors make of the same pixels.

    python3 scripts/bench/png_floor.py TILE_IMAGES_DIR [--report bench/results/tile-bytes.json] \\
        [--out bench/results/png-floor.json]

TILE_IMAGES_DIR is heatmap-bench's `--tile-images` folder (`--only bytes`). For each dense 512 px tile
(`*@2x-indexed.png` of the report's dense tiles) it records our palette PNG's bytes and:
- `pngcrush -brute` and `optipng -o7` (Debian's `pngcrush`, `optipng`): zlib level 9 over their filter and
  strategy trials;
- zopfli (PyPI's `zopfli`, 5 iterations) over the indices filtered with sub, up and average on every row, plus
  the file's own PLTE and tRNS: deflate searched far deeper than zlib's level 9;
- zlib level 9 over the same three filterings, and the seconds each took.
Every tool's file is decoded and compared with ours (the same RGBA). Ratios are to the report's RGBA PNG (today's
bytes). Makes bench/.venv-pillow (Pillow, numpy, zopfli) on first use, as bench/pillow_sizes.py does.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

VENV = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", ".venv-pillow")


def ensure_venv():
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) != os.path.realpath(VENV):
        if not os.path.exists(python):
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "--quiet", "pillow", "numpy", "zopfli"],
                       check=True)
        os.execv(python, [python] + sys.argv)


def filtered(indices, kind):
    """The PNG filter `kind` (0 none, 1 sub, 2 up, 3 average, 4 Paeth) on every row of one byte a pixel, type
    bytes included."""
    import numpy as np
    rows = indices.astype(np.int16)
    up = np.vstack([np.zeros((1, rows.shape[1]), np.int16), rows[:-1]])
    left = np.hstack([np.zeros((rows.shape[0], 1), np.int16), rows[:, :-1]])
    corner = np.hstack([np.zeros((rows.shape[0], 1), np.int16), up[:, :-1]])
    guess = left + up - corner
    pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
    paeth = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, corner))
    predictor = {0: 0 * rows, 1: left, 2: up, 3: (left + up) // 2, 4: paeth}[kind]
    body = ((rows - predictor) & 255).astype(np.uint8)
    return np.hstack([np.full((rows.shape[0], 1), kind, np.uint8), body]).tobytes()


def dense_tiles(out_default):
    """The arguments (the images folder, --report, --out) and, for each dense 512 px tile of the report, its row and
    the path of its palette PNG in the folder."""
    parser = argparse.ArgumentParser()
    parser.add_argument("images")
    parser.add_argument("--report", default="bench/results/tile-bytes.json")
    parser.add_argument("--out", default=out_default)
    args = parser.parse_args()
    report = json.load(open(args.report))
    return args, [(b, os.path.join(args.images, b["tile"].replace("/", "-") + "-indexed.png"))
                  for b in report["bytes"] if b["kind"] == "dense" and b["tile"].endswith("@2x")]


def head_bytes(colours):
    """A palette PNG's bytes besides its compressed stream: signature, IHDR, PLTE, tRNS, IDAT's frame, IEND."""
    return 8 + 25 + 12 + 3 * colours + 12 + colours + 12 + 12


def write_results(path, results):
    with open(path, "w") as f:
        json.dump({"tiles": results, "load": os.getloadavg()[0]}, f, indent=2)
        f.write("\n")


def main():
    ensure_venv()
    import numpy as np
    import zopfli.zlib
    from PIL import Image

    args, tiles = dense_tiles("bench/results/png-floor.json")
    results = []
    work = tempfile.mkdtemp()
    try:
        for b, path in tiles:
            ours = Image.open(path)
            rgba = np.array(ours.convert("RGBA"))
            indices = np.array(ours)
            colours = len(ours.getpalette()) // 3
            head = head_bytes(colours)
            row = {"tile": b["tile"], "rgbaBytes": b["rgbaBytes"], "oursBytes": os.path.getsize(path)}
            for tool, command in [("pngcrush", ["pngcrush", "-q", "-brute"]), ("optipng", ["optipng", "-quiet", "-o7", "-out"])]:
                out = os.path.join(work, tool + ".png")
                start = time.perf_counter()
                subprocess.run(command + ([out, path] if tool == "optipng" else [path, out]), check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                row[tool + "Seconds"] = round(time.perf_counter() - start, 1)
                same = (np.array(Image.open(out).convert("RGBA")) == rgba).all()
                row[tool + "Bytes"] = os.path.getsize(out) if same else None
                os.remove(out)
            for kind, name in [(1, "sub"), (2, "up"), (3, "average")]:
                data = filtered(indices, kind)
                start = time.perf_counter()
                row[f"zlib9{name.capitalize()}Bytes"] = head + len(zlib.compress(data, 9))
                row[f"zlib9{name.capitalize()}Seconds"] = round(time.perf_counter() - start, 3)
                start = time.perf_counter()
                stream = zopfli.zlib.compress(data, numiterations=5)
                row[f"zopfli{name.capitalize()}Seconds"] = round(time.perf_counter() - start, 1)
                if zlib.decompress(stream) != data:
                    raise SystemExit(f"zopfli's stream of {b['tile']} does not inflate to its input")
                row[f"zopfli{name.capitalize()}Bytes"] = head + len(stream)
            sizes = [v for k, v in row.items() if k.endswith("Bytes") and k not in ("rgbaBytes", "oursBytes") and v]
            row["floorBytes"] = min(sizes)
            row["floorRatio"] = round(row["floorBytes"] / row["rgbaBytes"], 3)
            row["oursRatio"] = round(row["oursBytes"] / row["rgbaBytes"], 3)
            row["zlib9Ratio"] = round(min(row[f"zlib9{n}Bytes"] for n in ("Sub", "Up", "Average")) / row["rgbaBytes"], 3)
            row["pngcrushRatio"] = round(row["pngcrushBytes"] / row["rgbaBytes"], 3) if row["pngcrushBytes"] else None
            print(json.dumps(row), flush=True)
            results.append(row)
    finally:
        shutil.rmtree(work)
    write_results(args.out, results)


if __name__ == "__main__":
    main()

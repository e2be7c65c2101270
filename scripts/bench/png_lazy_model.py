#!/usr/bin/env python3
"""Lazy parses with candidate distances, repeated distances and a short hash chain over the palette tiles, modelled.

    python3 scripts/bench/png_lazy_model.py TILE_IMAGES_DIR [--report bench/results/tile-bytes.json] \\
        [--out bench/results/png-lazy-model.json]
    python3 scripts/bench/png_lazy_model.py --table [bench/results/png-lazy-model.json]

TILE_IMAGES_DIR is heatmap-bench's `--tile-images` folder (`--only bytes`). For each dense 512 px tile of the report
it writes the palette PNG's indices to a file and runs scripts/bench/png_lazy_model.c (built here with the system's
`cc -O2`) on them with each parse of PARSES: the file's bytes if the IDAT took the parse's Huffman-coded size (one
block, code lengths built for the parse), the parse's time in that C model (best of 15; the optimal parse once), and
how many candidate comparisons it made a byte. `today` (Paeth, distances 1 and 2, lazy at the bits saved) is the
model of today's encoder (which weighs short matches and splits blocks: its real bytes are 0-6% below the model's).
Uses bench/.venv-pillow, as scripts/bench/png_floor.py does.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_floor import dense_tiles, ensure_venv, write_results  # noqa: E402

# (name, spec: FILTER:PARSE:HASHBYTES:PROBES:ROWS[:REPEATS], as png_lazy_model.c reads it)
PARSES = [
    ("today: Paeth, distances 1-2, lazy", "4:1:0:0:0"),
    ("sub, 1-2 and the row above ±1", "1:1:0:0:1"),
    ("sub, 1-2, the two rows above ±3", "1:1:0:0:103"),
    ("sub, 1-2, a 6-byte hash (2 probes), the row above ±1, 2 repeats", "1:1:6:2:1:2"),
    ("sub, 1-2, a 6-byte hash (2 probes), the two rows above ±3, 2 repeats", "1:1:6:2:103:2"),
    ("up, the same", "2:1:6:2:103:2"),
    ("Paeth, the same", "4:1:6:2:103:2"),
    ("sub, the same, optimal parse", "1:2:6:2:103:2"),
]


def table(path):
    """The Markdown table: each parse's file bytes as a ratio to today's RGBA PNG, and its model time."""
    with open(path) as f:
        results = json.load(f)
    tiles = results["tiles"]
    print("| parse | " + " | ".join(t["tile"] for t in tiles) + " |")
    print("|---|" + "---:|" * len(tiles))
    print("| a third of today's RGBA | " + " | ".join(f"{t['rgbaBytes'] / 3 / 1000:.1f} kB" for t in tiles) + " |")
    for k, (name, _) in enumerate(PARSES):
        cells = []
        for t in tiles:
            p = t["parses"][k]
            cells.append(f"{p['ratioToRGBA']:.3f}, {p['parseMs'] / t['parses'][0]['parseMs']:.1f}×, "
                         f"{p['comparisonsPerByte']:.2f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(f"\nEach cell: the file's bytes ÷ today's RGBA PNG, the parse's time ÷ today's parse in the model (same run), "
          f"candidate comparisons a byte. Load {results['load']:.1f}.")
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--table":
        return table(sys.argv[2] if len(sys.argv) > 2 else "bench/results/png-lazy-model.json")
    ensure_venv()
    import numpy as np
    from PIL import Image
    args, tiles = dense_tiles("bench/results/png-lazy-model.json")
    here = os.path.dirname(os.path.abspath(__file__))
    results = []
    with tempfile.TemporaryDirectory() as folder:
        model = os.path.join(folder, "png_lazy_model")
        subprocess.run(["cc", "-O2", "-o", model, os.path.join(here, "png_lazy_model.c"), "-lm"], check=True)
        for report, path in tiles:
            image = Image.open(path)
            indices = np.array(image, dtype=np.uint8)
            raw = os.path.join(folder, "tile.idx")
            with open(raw, "wb") as f:
                f.write(np.array(indices.shape[::-1], "<u4").tobytes() + indices.tobytes())
            colours = len(image.getpalette()) // 3
            out = subprocess.run([model, raw, str(report["rgbaBytes"]), str(colours)] + [s for _, s in PARSES],
                                 check=True, capture_output=True, text=True).stdout
            parses = [json.loads(line) for line in out.splitlines()]
            for (name, _), p in zip(PARSES, parses):
                p["name"] = name
            results.append({"tile": report["tile"], "rgbaBytes": report["rgbaBytes"],
                            "indexedBytes": report["indexedBytes"], "parses": parses})
            print(report["tile"], " ".join(f"{p['ratioToRGBA']:.3f}" for p in parses), flush=True)
    write_results(args.out, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""README's table of tile bytes: each dense 512 px tile of a heatmap-bench report in every format and the references.

usage: python3 scripts/bench/bytes_table.py [bench/results/tile-bytes.json] [--write]

The report is `heatmap-bench --only bytes --json FILE` with Pillow's sizes added by bench/pillow_sizes.py. Without
--write it prints the block; with it, it replaces README.md's generated block `tile-bytes`. Every tile of the report,
with the 256 px ones, is in docs/guides/tile-formats.md (bench/engine_tables.py).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from postgres_filters_table import ROOT, replace  # noqa: E402


def kilobytes(count):
    return f"{count / 1000:.1f}"


def block(report):
    """The README's lines: a table of the dense 512 px tiles, then where the figures come from."""
    rows = [b for b in report["bytes"] if b["kind"] == "dense" and b["tile"].endswith("@2x")]
    points = next((x["points"] for x in report.get("index", [])), 1_000_000)
    load = report["machine"].get("loadAverage", [0])[0]
    out = [f"| kB a dense 512 px tile, {points / 1e6:g}M points | RGBA PNG, 1,000 entries | palette PNG | ÷ | encode ×faster "
           "| lossless WebP | lossy WebP q90 | libpng zlib 6: RGBA, palette | Pillow `optimize`: RGBA, palette |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for b in rows:
        pillow = (f"{kilobytes(b['pillowRGBABytes'])}, {kilobytes(b['pillowIndexedBytes'])}"
                  if b.get("pillowRGBABytes") else "")
        exact = "" if b["indexedIsPalette"] and b["indexedEqualsRGBA"] else " (not exact)"
        out.append(f"| {b['tile']} | {kilobytes(b['rgbaBytes'])} | {kilobytes(b['indexedBytes'])}{exact} "
                   f"| {b['bytesRatio']:.2f} | {b['encodeSpeedup']:.1f} | {kilobytes(b['webpLosslessBytes'])} "
                   f"| {kilobytes(b['webpLossyBytes'])} | {kilobytes(b['libpngRGBABytes'])}, "
                   f"{kilobytes(b['libpngIndexedBytes'])} | {pillow} |")
    out.append("")
    out.append(f"Medians of {report.get('repetitions', '?')} repetitions at load {load:.1f}; the palette PNG is the "
               "server's 255-entry map, exact: it decodes to its RGBA pixels.")
    return "\n".join(out)


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--write"]
    path = args[0] if args else os.path.join(ROOT, "bench/results/tile-bytes.json")
    with open(path) as f:
        report = json.load(f)
    if not report.get("bytes"):
        print(f"{path}: no bytes section", file=sys.stderr)
        return 1
    text = block(report)
    if "--write" in sys.argv[1:]:
        replace(os.path.join(ROOT, "README.md"), "tile-bytes", text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Prints the filter section of a heatmap-bench report as Markdown, for docs/performance/filters.md.

usage: python3 scripts/bench/filters_table.py [bench/results/filters.json]

The report is heatmap-bench's JSON (`heatmap-bench --only filters --json FILE`); its `filters` object holds the
build and memory of the index of times and categories against the plain index, and for each time window the
filtered tile against the tile of a plain index of exactly the window's points.
"""
import json
import sys


def main() -> int:
    path = sys.argv[1] if len(sys.argv) > 1 else "bench/results/filters.json"
    with open(path) as f:
        report = json.load(f)
    filters = report.get("filters")
    if not filters:
        print(f"{path}: no filters section", file=sys.stderr)
        return 1
    build = filters["build"]
    points = build["points"]
    print(f"{points:,} points over one year, {build['slabs']} slabs; machine: {report['machine']['processor']}, "
          f"{report['machine']['cores']} cores.\n")
    print("| | plain index | filter index | ratio (bound) |")
    print("|---|---:|---:|---:|")
    print(f"| build | {build['plainSeconds']:.2f} s | {build['filterSeconds']:.2f} s | "
          f"{build['buildRatio']:.2f}x (2x) |")
    print(f"| memory | {build['plainBytes'] / points:.1f} B/point | {build['filterBytes'] / points:.1f} B/point | "
          f"{build['memoryRatio']:.2f}x (1.5x) |")
    print()
    windows = {w["window"]: w for w in filters["windows"]}
    print("| window | points | first tile's setup | " + " | ".join(
        "z" + t.split("/")[0] for t in dict.fromkeys(x["tile"] for x in filters["tiles"] if x["window"] == "year")) + " |")
    zooms = list(dict.fromkeys(x["tile"].split("/")[0] for x in filters["tiles"]))
    print("|---|---:|---:|" + "---:|" * len(zooms))
    for name, window in windows.items():
        cells = []
        for zoom in zooms:
            tile = next((t for t in filters["tiles"] if t["window"] == name and t["tile"].split("/")[0] == zoom), None)
            cells.append(f"{tile['ratio']:.2f}x" if tile else "")
        print(f"| {name} | {window['points']:,} | {window['setupMs']:.0f} ms | " + " | ".join(cells) + " |")
    print("\nEach zoom's cell: the filtered tile's gather and convolution time ÷ the same tile of a plain index of "
          "exactly the window's points (median of paired runs; bound 2x).")
    return 0


if __name__ == "__main__":
    sys.exit(main())

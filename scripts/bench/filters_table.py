#!/usr/bin/env python3
"""Prints the filter section of a heatmap-bench report as Markdown, for docs/performance/filters.md.

usage: python3 scripts/bench/filters_table.py [--summary] [bench/results/filters.json]

--summary prints the few lines README shows (each bound and the worst ratio measured against it).

The report is heatmap-bench's JSON (`heatmap-bench --only filters --json FILE`); its `filters` object holds the
build and memory of the index of times and categories against the plain index, and for each time window the
filtered tile against the tile of a plain index of exactly the window's points. Each ratio is the median of paired
runs, of the process's CPU time (the work, which waits for a core on shared cores do not lengthen) and of wall time;
the tables give the CPU ratio with the wall ratio beside it. Reports older than the CPU times give the wall ratio.
"""
import json
import sys


def cpu(entry: dict, ratio: str, cpu_ratio: str) -> float:
    """The CPU ratio of a tile or build, or the wall ratio where the report has none."""
    return entry.get(cpu_ratio, entry[ratio])


def both(entry: dict, ratio: str, cpu_ratio: str) -> str:
    """The CPU ratio with the wall ratio beside it."""
    if cpu_ratio not in entry:
        return f"{entry[ratio]:.2f}x"
    return f"{entry[cpu_ratio]:.2f}x ({entry[ratio]:.2f}x)"


def summary(filters: dict, machine: dict) -> None:
    """The README's lines: each bound of issue 28 and the worst ratio measured against it, and the load."""
    build = filters["build"]
    loads = machine.get("loadAverage", [])
    load = f" (load {loads[0]:.1f} at the start)" if loads else ""
    worst = max(filters["tiles"], key=lambda t: cpu(t, "ratio", "cpuRatio"))
    zooms = sorted({int(t["tile"].split("/")[0]) for t in filters["tiles"]})
    print(f"| filtered (`datetime=`) against plain, {build['points'] / 1e6:g}M points over a year{load} | CPU (wall) | bound |")
    print("|---|---:|---:|")
    print(f"| tile, worst of {len(filters['windows'])} windows × zooms {zooms[0]}-{zooms[-1]} "
          f"({worst['window']}, z{worst['tile'].split('/')[0]}) | {both(worst, 'ratio', 'cpuRatio')} | 2x |")
    print(f"| index memory | {build['memoryRatio']:.2f}x | 1.5x |")
    print(f"| index build | {both(build, 'buildRatio', 'cpuBuildRatio')} | 2x |")


def main() -> int:
    arguments = [a for a in sys.argv[1:] if a != "--summary"]
    path = arguments[0] if arguments else "bench/results/filters.json"
    with open(path) as f:
        report = json.load(f)
    filters = report.get("filters")
    if not filters:
        print(f"{path}: no filters section", file=sys.stderr)
        return 1
    if "--summary" in sys.argv[1:]:
        summary(filters, report.get("machine", {}))
        return 0
    build = filters["build"]
    points = build["points"]
    machine = report["machine"]
    load = ", ".join(f"{x:.1f}" for x in machine.get("loadAverage", []))
    print(f"{points:,} points over one year, {build['slabs']} slabs; machine: {machine['processor']}, "
          f"{machine['cores']} cores, load average {load} at the start; {report.get('repetitions', '?')} "
          "repetitions a cell.\n")
    print("| | plain index | filter index | ratio (bound) |")
    print("|---|---:|---:|---:|")
    if "cpuBuildRatio" in build:
        print(f"| build, CPU | {build['plainCPUSeconds']:.2f} s | {build['filterCPUSeconds']:.2f} s | "
              f"{build['cpuBuildRatio']:.2f}x (2x) |")
    print(f"| build, wall | {build['plainSeconds']:.2f} s | {build['filterSeconds']:.2f} s | "
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
            cells.append(both(tile, "ratio", "cpuRatio") if tile else "")
        print(f"| {name} | {window['points']:,} | {window['setupMs']:.0f} ms | " + " | ".join(cells) + " |")
    print("\nEach zoom's cell: the filtered tile's gather and convolution time ÷ the same tile of a plain index of "
          "exactly the window's points, CPU time (wall time in parentheses), median of paired runs; bound 2x.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

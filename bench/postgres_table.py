#!/usr/bin/env python3
"""README's PostGIS comparison table from `heatmap-bench --only postgres` JSON reports.

    python3 bench/postgres_table.py bench/postgres-1m.json bench/postgres-10m.json

One row a tile, one group of columns a report: HeatmapKit's SQL and PostGIS's grid, median
and fastest of the repetitions (timed in alternation), and PostGIS ÷ HeatmapKit of the
medians, of the fastest runs and the median of the pairs run back to back.
"""
import json
import sys


def load(path):
    with open(path) as f:
        report = json.load(f)
    return report.get("postgres", report)


def main(paths):
    reports = [load(p) for p in paths]
    header = "| tile | kind |"
    rule = "|---|---|"
    for r in reports:
        rows = f"{r['rows'] / 1e6:g}M"
        header += f" {rows}: HeatmapKit ms (min) | {rows}: PostGIS ms (min) | {rows}: PostGIS ÷ HeatmapKit (min, paired) |"
        rule += "---:|---:|---:|"
    print(header)
    print(rule)
    for i, tile in enumerate(reports[0]["tiles"]):
        line = f"| {tile['tile']} | {tile['kind']} |"
        for r in reports:
            t = r["tiles"][i]
            # The sparse tile is chosen from each report's data: name it where it differs.
            other = f"{t['tile']}: " if t["tile"] != tile["tile"] else ""
            ours, gis = t["databaseMilliseconds"], t.get("postgisMilliseconds")
            ours_min = t.get("databaseMinimumMilliseconds", ours)
            if gis is None:
                line += f" {other}{ours:.2f} ({ours_min:.2f}) | - | - |"
                continue
            line += (
                f" {other}{ours:.2f} ({ours_min:.2f}) | {gis:.2f} ({t['postgisMinimumMilliseconds']:.2f}) |"
                f" {t['postgisOverDatabase']:.2f} ({t['postgisOverDatabaseMinimum']:.2f},"
                f" {t['postgisOverDatabasePaired']:.2f}) |"
            )
            if not t["sameIntensities"]:
                line += " NOT the same as memory |"
        print(line)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

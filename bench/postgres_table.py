#!/usr/bin/env python3
"""The PostGIS comparison table from `heatmap-bench --only postgres` JSON reports.

    python3 bench/postgres_table.py bench/results/postgres-1m.json bench/results/postgres-10m.json

One row a tile, one group of columns a report: HeatmapKit's SQL and PostGIS's grid, median
and fastest of the repetitions (timed in alternation), and PostGIS ÷ HeatmapKit of the
medians, of the fastest runs and the median of the pairs run back to back.

Then, for reports that have them, the same tiles' SQL alone (each side's prepared statement
with the tile's parameters, executed and its rows read, no convolution; a round robin with
`SELECT 1` on one connection): medians and fastest runs in µs, the round trip, and PostGIS ÷
HeatmapKit of the medians (of the rounds' ratios; of the medians less the round trip).
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
            rows = t.get("postgisRows")
            if gis is None or rows is None:
                # No PostGIS time: none on the server, rows that differ, or (reports from before
                # issue 30) rows never checked against HeatmapKit's.
                why = "-" if gis is None and rows is None else "rows not checked" if rows is None else "rows differ"
                line += f" {other}{ours:.2f} ({ours_min:.2f}) | {why} | - |"
                continue
            line += (
                f" {other}{ours:.2f} ({ours_min:.2f}) | {gis:.2f} ({t['postgisMinimumMilliseconds']:.2f}) |"
                f" {t['postgisOverDatabase']:.2f} ({t['postgisOverDatabaseMinimum']:.2f},"
                f" {t['postgisOverDatabasePaired']:.2f}) |"
            )
            if not t["sameIntensities"]:
                line += " NOT the same as memory |"
        print(line)
    with_sql = [r for r in reports if any("sql" in t for t in r["tiles"])]
    if with_sql:
        print_sql(reports[0]["tiles"], with_sql)


def print_sql(tiles, reports):
    header = "| tile | kind |"
    rule = "|---|---|"
    for r in reports:
        rows = f"{r['rows'] / 1e6:g}M"
        header += (
            f" {rows}: HeatmapKit SQL µs (min) | {rows}: PostGIS SQL µs (min) | {rows}: SELECT 1 µs |"
            f" {rows}: PostGIS ÷ HeatmapKit (paired, beyond SELECT 1) |"
        )
        rule += "---:|---:|---:|---:|"
    print()
    print(header)
    print(rule)
    for i, tile in enumerate(tiles):
        line = f"| {tile['tile']} | {tile['kind']} |"
        for r in reports:
            t = r["tiles"][i]
            q = t.get("sql")
            other = f"{t['tile']}: " if t["tile"] != tile["tile"] else ""
            if q is None or t.get("postgisRows") is None:
                line += " - | - | - | - |" if q is None else " rows not checked | - | - | - |"
                continue
            beyond = q.get("postgisOverHeatmapKitBeyondRoundTrip")
            beyond = "-" if beyond is None else f"{beyond:.2f}"
            line += (
                f" {other}{q['heatmapKitMicroseconds']:.0f} ({q['heatmapKitMinimumMicroseconds']:.0f}) |"
                f" {q['postgisMicroseconds']:.0f} ({q['postgisMinimumMicroseconds']:.0f}) |"
                f" {q['roundTripMicroseconds']:.0f} |"
                f" {q['postgisOverHeatmapKit']:.2f} ({q['postgisOverHeatmapKitPaired']:.2f}, {beyond}) |"
            )
        print(line)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Writes docs/performance.md, HeatmapKit against its peers, from the result files in bench/results/.

usage: python3 bench/performance_page.py [--results bench/results] [--out docs/performance.md]

Reads datashader-1m.json and datashader-10m.json (heatmap-bench --only tiles,render, then
bench/compare_datashader.py), postgres-1m.json and postgres-10m.json (heatmap-bench --only
postgres) and serve-nginx.json (scripts/bench/serve_bench.py --cached-only), whichever are there, and
copies one dense tile drawn by both sides (from datashader-1m-pictures/) to docs/performance/, and
ends with HeatmapKit's own tables of datashader-1m.json (bench/engine_tables.py).
Every figure on the page comes from a run whose peer was checked to have made the same thing;
a peer that did not is shown with its difference and no time.
"""
import argparse
import json
import os
import shutil

import engine_tables

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DENSE_TILE = "16/14977/27652@2x"
ENGINE_REPORT = "datashader-1m.json"


def load(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def load_text(values):
    return ", ".join(f"{v:.1f}" for v in values) if values else "not recorded"


def datashader_section(name, report, lines):
    d = report.get("datashader")
    if not d:
        return
    size = f"{d['tiles'][0]['points']:,}" if d["tiles"] else "?"
    lines += [
        f"### {size} points (`bench/results/{name}`)", "",
        f"datashader {d['version']}, {report['machine']['date'][:10]}, {report['machine']['cores']} cores; load average "
        f"{load_text(report['machine'].get('loadAverage'))} when heatmap-bench began, "
        f"{load_text(d.get('loadAverageBefore'))} → {load_text(d.get('loadAverageAfter'))} over the datashader run. "
        f"Intensities: the largest difference from `heatmap tile --format intensity` of the same tile, relative to "
        f"the tile's largest (tolerance {d['tolerance']:g}); colours: the largest difference of a channel from "
        f"HeatmapKit's PNG (tolerance: {ENTRY_NOTE}). HeatmapKit's time is the whole tile (gather, convolve, colour, "
        f"PNG), medians of 5; datashader's the same pipeline, median of 5.", "",
        "| tile | kind | intensity difference | colours | HeatmapKit ms | datashader ms | datashader ÷ HeatmapKit |",
        "|---|---|---:|---|---:|---:|---:|"]
    for t in d["tiles"]:
        intensity = t.get("intensity", {})
        colour = t.get("colour", {})
        difference = f"{intensity['relativeToTileMaximum']:.1e}" if intensity else t.get("difference", "")
        colours = (f"same (≤ {colour['largestColourDifference']})" if colour.get("same")
                   else f"**differ**: {json.dumps(colour)}") if colour else ""
        if t["same"]:
            lines.append(f"| {t['tile']} | {t['kind']} | {difference} | {colours} | {t['heatmapKitMilliseconds']:.2f} | "
                         f"{t['milliseconds']:.1f} | {t['ratio']:.0f} |")
        else:
            lines.append(f"| {t['tile']} | {t['kind']} | **{difference}** | {colours} | | not timed: another picture | |")
    timed = [t["ratio"] for t in d["tiles"] if t["same"]]
    if timed:
        lines += ["", f"HeatmapKit is {min(timed):.0f}–{max(timed):.0f} times as fast on the tiles whose pictures "
                      f"matched ({len(timed)} of {len(d['tiles'])})."]
    for r in report.get("datashaderRender", []):
        area = f"zooms {r['zooms']}, " + ("the cluster's 1° box" if r["bounds"] else "everywhere")
        if "skipped" in r:
            lines += ["", f"`render_tiles`, {area}: not run ({r['skipped']})."]
        elif r.get("same"):
            c = r["check"]
            lines += ["", f"`datashader.tiles.render_tiles`, {area}: {r['tiles']:,} tiles in {r['seconds']:.0f} s "
                          f"({r['tilesPerSecond']:.0f} a second), against `heatmap render`'s {r['heatmapKitTiles']:,} in "
                          f"{r['heatmapKitSeconds']:.2f} s on {r['heatmapKitThreads']} threads ({r['heatmapKitFormat']}): "
                          f"{r['ratio']:.0f} times the time. The same picture on all {c['compared']:,} tiles HeatmapKit "
                          f"wrote (colours within {c['largestColourDifference']}), datashader's other "
                          f"{c['datashaderTiles'] - c['compared']:,} transparent within the box or beyond it "
                          f"({c['datashaderTilesBeyondBounds']:,}: render_tiles writes whole 4096 px super-tiles); load "
                          f"average {load_text(r.get('loadAverageBefore'))} → {load_text(r.get('loadAverageAfter'))}."]
        else:
            lines += ["", f"`render_tiles`, {area}: **another picture**, not timed: {json.dumps(r['check'])[:400]}"]
    lines.append("")


ENTRY_NOTE = "two colour map entries, 3 levels"


def pictures(results, docs, lines):
    source = os.path.join(results, "datashader-1m-pictures")
    stem = DENSE_TILE.replace("/", "-")
    names = [f"heatmapkit-{stem}.png", f"datashader-{stem}.png"]
    if not all(os.path.exists(os.path.join(source, n)) for n in names):
        return
    target = os.path.join(docs, "performance")
    os.makedirs(target, exist_ok=True)
    for n in names:
        shutil.copyfile(os.path.join(source, n), os.path.join(target, n))
    lines += [
        f"### One dense tile, both sides ({DENSE_TILE}, 1,000,000 points)", "",
        "| HeatmapKit (`heatmap tile`) | datashader (the script's pipeline) |", "|---|---|",
        f"| ![HeatmapKit](performance/{names[0]}) | ![datashader](performance/{names[1]}) |", "",
        "*Both drawn with M(16) of the whole data set and the default gradient at opacity 0.7, pixels of no "
        "intensity transparent; copied from `bench/results/datashader-1m-pictures/`, where the script saves every "
        "tile of both sides.*", ""]


def postgres_section(name, report, lines):
    p = report.get("postgres")
    if not p:
        return
    lines += [
        f"### {p['rows']:,} rows (`bench/results/{name}`)", "",
        f"{p['postgis']}, PostgreSQL on the same machine, {report['machine']['date'][:10]}; load average "
        f"{load_text(report['machine'].get('loadAverage'))} when the run began. Rows: the occupied pixels both "
        "statements gave for the tile's padded area (`same`: the same pixels, weights within 1e-9 relative). Whole "
        "tile: median ms (the pairs' median ratio in brackets); SQL alone: PostGIS ÷ HeatmapKit of the medians.", "",
        "| tile | kind | rows | HeatmapKit ms | PostGIS ms | PostGIS ÷ HeatmapKit (paired) | SQL alone: PostGIS ÷ HeatmapKit |",
        "|---|---|---|---:|---:|---:|---:|"]
    for t in p["tiles"]:
        rows = t.get("postgisRows")
        if rows is None:
            lines.append(f"| {t['tile']} | {t['kind']} | not checked | {t['databaseMilliseconds']:.2f} | | | |")
            continue
        if not rows["same"]:
            lines.append(f"| {t['tile']} | {t['kind']} | **differ**: {rows['onlyHeatmapKit']} / {rows['onlyPostGIS']} "
                         f"pixels on one side only, weights off by {rows['largestRelativeDifference']:.1e} | "
                         f"{t['databaseMilliseconds']:.2f} | not timed | | |")
            continue
        sql = t.get("sql") or {}
        lines.append(f"| {t['tile']} | {t['kind']} | same, {rows['heatmapKitPixels']:,} px | "
                     f"{t['databaseMilliseconds']:.2f} | {t['postgisMilliseconds']:.2f} | "
                     f"{t['postgisOverDatabase']:.2f} ({t['postgisOverDatabasePaired']:.2f}) | "
                     f"{sql.get('postgisOverHeatmapKit', float('nan')):.2f} |")
    lines.append("")


def nginx_section(report, lines):
    checked = report.get("nginx_same_bytes")
    if not checked:
        return
    lines += ["## nginx (`bench/results/serve-nginx.json`)", ""]
    if not checked["same"]:
        lines += [f"nginx answered other bytes on {len(checked['differing'])} of {checked['tiles']} tiles: not timed.", ""]
        return
    lines += [f"nginx sent heatmap's status, Content-Type and bytes for all {checked['tiles']} tiles "
              f"({checked['bytes']:,} bytes) before either was timed. {report['rounds']} interleaved rounds of "
              f"{report['duration_s']} s, load average {load_text(report.get('load_average_after'))} after:", "",
              "| connections | requests/s: heatmap ÷ nginx | p99: heatmap ÷ nginx | CPU per request: heatmap ÷ nginx |",
              "|---:|---:|---:|---:|"]
    for row in report.get("versus_nginx") or []:
        lines.append(f"| {row['connections']} | {row['requests_per_s_ratio']} | {row['p99_ms_ratio']} | "
                     f"{row.get('cpu_us_per_request_ratio', '')} |")
    lines.append("")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", default=os.path.join(ROOT, "bench", "results"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"))
    args = parser.parse_args()
    lines = [
        "# Performance against peers", "",
        "*Written by `python3 bench/performance_page.py` from `bench/results/`; do not edit by hand.*", "",
        "A peer's time counts only when it made the same thing: before timing, each comparison checks the peer's "
        "output against HeatmapKit's, and a peer that differs gets no time, only the difference, and the script "
        "exits non-zero.", "",
        "- **datashader** (`bench/compare_datashader.py`): each tile's intensities against `heatmap tile --format "
        "intensity` of the same tile, and its colours against HeatmapKit's PNG; `render_tiles`' pyramid against "
        "`heatmap render` of the same zooms and area, tile by tile. datashader draws with the definition's kernel (docs/design/definition.md; not "
        "normalised, truncated at R, σ = R/3), the same M(z) and colour map, empty pixels transparent; the alpha of "
        "each pixel is that of the colour map entry it took (tf.shade gives a whole colour map one alpha); "
        "`render_tiles`' points are moved 2.8 mm onto its own tile grid (it puts the world's edge at 20037508.34 m, "
        "and the check refused its pyramid without the move). HeatmapKit's times come from the heatmap-bench run "
        "the report is, datashader's from the script run after it (not interleaved: read the ratios as rough). CI "
        "runs the check on a seeded 100k slice (`Tests/peers/datashader.sh`), where the drawing of before issue 30 "
        "(scipy's normalised Gaussian, empty pixels shaded: one green square) must be refused.",
        "- **PostGIS** (`heatmap-bench --only postgres`): the rows of both statements for every tile.",
        "- **nginx** (`scripts/bench/serve_bench.py`): the status, Content-Type and bytes of every tile. The check found "
        "14 of the 36 tiles different at first: heatmap answers an empty tile 204, nginx had served its 0-byte file "
        "as 200 `image/png`; nginx now answers 204 for it (`try_files $uri =204`).", "",
        "    swift build -c release",
        "    .build/release/heatmap-bench --points 1000000 --sizes 1000000 --only tiles,render \\",
        "        --export /tmp/heatmap-data --json bench/results/datashader-1m.json",
        "    python3 bench/compare_datashader.py bench/results/datashader-1m.json /tmp/heatmap-data --repetitions 5",
        "    .build/release/heatmap-bench --points 1000000 --sizes 1000000 --only postgres \\",
        "        --postgres postgresql://postgres@127.0.0.1:5432/postgres --json bench/results/postgres-1m.json",
        "    python3 scripts/bench/serve_bench.py --cached-only --out bench/results/serve-nginx.json",
        "    python3 bench/performance_page.py", "",
        "The machine is a shared 2-core VM: compare figures as ratios within one run.", "",
        "## datashader", ""]
    for name in ("datashader-1m.json", "datashader-10m.json"):
        report = load(args.results, name)
        if report:
            datashader_section(name, report, lines)
    pictures(args.results, os.path.dirname(args.out), lines)
    lines += ["## PostGIS", "",
              "The PostGIS way is what a PostGIS user writes: `ST_SnapToGrid` of the padded tile's points "
              "(`geometry(Point, 3857)` with a GIST index, found with `&&`) to the pixel centres, `GROUP BY` the "
              "snapped point, weights summed as float8; both statements prepared, timed in alternation, then blurred "
              "by the same convolution ([PostgreSQL push-down](design/postgres.md) describes HeatmapKit's statements).", ""]
    for name in ("postgres-1m.json", "postgres-10m.json"):
        report = load(args.results, name)
        if report:
            postgres_section(name, report, lines)
    nginx = load(args.results, "serve-nginx.json")
    if nginx:
        nginx_section(nginx, lines)
    engine = load(args.results, ENGINE_REPORT)
    if engine:
        lines += ["## HeatmapKit alone", "",
                  f"From the same heatmap-bench report as the datashader tables (`bench/results/{ENGINE_REPORT}`): the "
                  "index, each tile's phases in milliseconds (medians) against the brute-force definition "
                  "(`ReferenceRenderer`, a direct sum over all points), a tile's cost against the data's size, M(z), "
                  "throughput, readers, `heatmap render` and the encoders; `python3 bench/engine_tables.py REPORT` "
                  "prints them for any report.", ""]
        lines += engine_tables.tables(engine) + [""]
    with open(args.out, "w") as f:
        f.write("\n".join(lines).rstrip() + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""HeatmapKit's own tables (Markdown) from a heatmap-bench JSON report: index build, each tile's phases against the
brute-force definition, cost against data size, M(z), throughput, readers, render, encoders. bench/performance_page.py
puts them on docs/performance.md for the report in bench/results/ (tables(report)); alone it prints them.

usage: python3 bench/engine_tables.py REPORT.json
"""
import json
import sys


def peak(value):
    """A peak in bytes per point; under 1 means freed memory was reused, which hides the peak."""
    return f"{value:.0f}" if value >= 1 else "–"


def tables(r):
    """The tables of report `r`, as Markdown lines."""
    out = []

    def print(*args):
        out.append(" ".join(str(a) for a in args))

    m = r["machine"]
    print(f"Machine: {m['processor']}, {m['cores']} cores, {m['memoryGiB']} GiB; {m['system']}; {m['date'][:10]}.")
    print()
    print("| points | index build | points/s | index bytes/point | peak bytes/point |")
    print("|---:|---:|---:|---:|---:|")
    for i in r["index"]:
        print(f"| {i['points']:,} | {i['seconds'] * 1000:.0f} ms | {i['pointsPerSecond'] / 1e6:.1f} M "
              f"| {i['indexBytesPerPoint']:.0f} | {peak(i['peakBytesPerPoint'])} |")
    print()
    # datashader's time only for tiles checked to be HeatmapKit's picture (bench/compare_datashader.py
    # since issue 30); older reports were not checked and give none.
    ds = {t["tile"]: t for t in r.get("datashader", {}).get("tiles", []) if t.get("same") and "ratio" in t}
    extra = " datashader | × |" if ds else ""
    print("| tile (1M points) | kind | gather | convolve | colour | encode | total | PNG | brute force | × |" + extra)
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if ds else ""))
    for t in r["tiles"]:
        d = ds.get(t["tile"])
        line = (f"| {t['tile']} | {t['kind']} | {t['gatherMs']:.2f} | {t['convolveMs']:.2f} | {t['colourMs']:.2f} "
                f"| {t['encodeMs']:.2f} | {t['totalMs']:.2f} | {t['pngBytes'] / 1000:.0f} kB "
                f"| {t.get('referenceMs', 0):.0f} | {t.get('speedupOverReference', 0):.0f} |")
        if ds:
            line += f" {d['milliseconds']:.1f} | {d['ratio']:.0f} |" if d else " | |"
        print(line)
    formats = r.get("bytes", [])
    if formats:
        print()
        points = next((x["points"] for x in r.get("index", [])), 1_000_000)
        # Reports before heatmap-bench --color-map-size were of the 255-entry map.
        entries = formats[0].get("indexedColorMapSize", 255)
        print(f"| tile ({points / 1e6:g}M points) | kind | RGBA PNG (today) | palette PNG ({entries} entries) | ÷ | encode ×faster "
              "| colour + encode ×faster | lossless WebP | lossy WebP q90 | libpng level 6: RGBA, palette "
              "| Pillow optimize: RGBA, palette |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for b in formats:
            pillow = (f"{b['pillowRGBABytes'] / 1000:.1f} / {b['pillowIndexedBytes'] / 1000:.1f} kB"
                      if b.get("pillowRGBABytes") else "")
            exact = "" if b["indexedIsPalette"] and b["indexedEqualsRGBA"] else " (not exact)"
            print(f"| {b['tile']} | {b['kind']} | {b['rgbaBytes'] / 1000:.1f} kB, {b['rgbaEncodeMs']:.2f} ms "
                  f"| {b['indexedBytes'] / 1000:.1f} kB, {b['indexedEncodeMs']:.2f} ms, {b['indexedBitDepth']} bit{exact} "
                  f"| {b['bytesRatio']:.2f} | {b['encodeSpeedup']:.1f} | {b['colourAndEncodeSpeedup']:.1f} "
                  f"| {b['webpLosslessBytes'] / 1000:.1f} kB, {b['webpLosslessMs']:.1f} ms "
                  f"| {b['webpLossyBytes'] / 1000:.1f} kB, {b['webpLossyMs']:.1f} ms "
                  f"| {b['libpngRGBABytes'] / 1000:.1f} / {b['libpngIndexedBytes'] / 1000:.1f} kB | {pillow} |")
    print()
    sizes = sorted({int(k) for s in r["scaling"] for k in s["milliseconds"]})
    print("| tile (gather + convolve, ms; gather in brackets; occupied pixels of the padded tile) | kind | " + " | ".join(f"{n:,} points" for n in sizes) + " | largest / smallest |")
    print("|---|---|" + "---:|" * (len(sizes) + 1))
    for s in r["scaling"]:
        gathers = s.get("gatherMilliseconds", {})
        occupied = s.get("occupiedPixels", {})
        cells = " | ".join(
            f"{s['milliseconds'].get(str(n), 0):.2f}" + (f" ({gathers[str(n)]:.2f})" if str(n) in gathers else "")
            + (f", {occupied[str(n)]:,} px" if str(n) in occupied else "")
            for n in sizes)
        print(f"| {s['tile']} | {s['kind']} | {cells} | {s['ratioLargestToSmallest']:.1f} |")
    stacked = r.get("stacked", [])
    if stacked:
        base, more = stacked[0]["basePoints"], stacked[0]["stackedPoints"]
        print()
        print(f"| same tile, same occupied pixels (gather + convolve, ms; gather in brackets) | kind | occupied px "
              f"| {base:,} points | {more:,} points (each point made {more // base} in its zoom-16 pixel) | ratio |")
        print("|---|---|---:|---:|---:|---:|")
        for s in stacked:
            a, b = s["milliseconds"][str(base)], s["milliseconds"][str(more)]
            ga, gb = s["gatherMilliseconds"][str(base)], s["gatherMilliseconds"][str(more)]
            print(f"| {s['tile']} | {s['kind']} | {s['occupiedPixels'][str(more)]:,} | {a:.2f} ({ga:.2f}) "
                  f"| {b:.2f} ({gb:.2f}) | {s['ratio']:.2f} |")
    print()
    zooms = sorted({n["zoom"] for n in r["normalization"]})
    points = sorted({n["points"] for n in r["normalization"]})
    print("| M(z), ms | " + " | ".join(f"zoom {z}" for z in zooms) + " |")
    print("|---|" + "---:|" * len(zooms))
    for p in points:
        row = {n["zoom"]: n["milliseconds"] for n in r["normalization"] if n["points"] == p}
        print(f"| {p:,} points | " + " | ".join(f"{row.get(z, 0):.1f}" for z in zooms) + " |")
    print()
    for t in r["throughput"]:
        print(f"Throughput, zoom {t['zoom']} (all {t['tiles']} tiles with data, PNG included, no cache): "
              f"{t['tilesPerSecond']:.0f} tiles/s on {t['threads']} threads, "
              f"{t['singleThreadTilesPerSecond']:.0f} tiles/s on one.")
    readers = r.get("readers", [])
    if readers:
        print()
        print("| reading CSV | rows/s | peak bytes/point |")
        print("|---|---:|---:|")
        for x in readers:
            print(f"| {x['rows']:,} rows, {x['bytes'] / 1e6:.0f} MB: {x['seconds']:.2f} s | {x['rowsPerSecond'] / 1e6:.1f} M "
                  f"| {peak(x['bytesPerPoint'])} |")
    server = r.get("server")
    if server:
        print()
        print(f"| `heatmap serve` under {server['tool'].split(' [')[0]} on loopback | connections | requests/s | p50 | p99 |")
        print("|---|---:|---:|---:|---:|")
        for run in server["runs"]:
            what = "cached tiles (zoom 8)" if run["case"] == "cached" else "uncached tiles (zoom 10, cache off)"
            who = f"{run.get('server', 'heatmap')} round {run.get('round', 0) + 1}: "
            print(f"| {who}{what} | {run['connections']} | {run['requests_per_s']:,.0f} | {run['p50_ms']:.1f} ms "
                  f"| {run['p99_ms']:.1f} ms |")
        for c in server.get("versus_nginx", []):
            print(f"| heatmap ÷ nginx, medians of {c['rounds']} rounds | {c['connections']} | "
                  f"{c['requests_per_s_ratio']:.2f} | | {c['p99_ms_ratio']:.2f} |")
    render = r.get("render", [])
    if render:
        print()
        print("| `heatmap render` (radius 20, 256 px) | output | threads | tiles | tiles/s | bytes | seconds | datashader render_tiles |")
        print("|---|---|---:|---:|---:|---:|---:|---|")
        ds_render = {(d["zooms"], d["bounds"]): d for d in r.get("datashaderRender", [])}
        for x in render:
            area = "one cluster's 1° box" if x["bounds"] else "everywhere"
            d = ds_render.get((x["zooms"], x["bounds"]))
            other = ""
            top = max(y["threads"] for y in render)
            if d and "same" not in d and "skipped" not in d:
                d = None  # from before issue 30: not checked to be the same picture
            if d and d["points"] == x["points"] and x["threads"] == d.get("heatmapKitThreads", top) \
                    and x["format"] == d.get("heatmapKitFormat", "mbtiles"):
                other = (d["skipped"] if "skipped" in d else
                         "another picture: not timed" if not d["same"] else
                         f"{d['tiles']:,} tiles in {d['seconds']:.0f} s ({d['tilesPerSecond']:.0f} tiles/s; "
                         f"{d['ratio']:.0f}× the time)")
            print(f"| {x['points']:,} points, zooms {x['zooms']}, {area} | {x['format']} | {x['threads']} "
                  f"| {x['written']:,} | {x['tilesPerSecond']:,.0f} | {x['bytes'] / 1e6:.1f} MB | {x['seconds']:.2f} | {other} |")
    print()
    print("| encoder (512 px dense tiles) | " + " | ".join(sorted({e['tile'] for e in r['encoders']}, key=lambda s: int(s.split('/')[0]))) + " |")
    tiles = sorted({e['tile'] for e in r['encoders']}, key=lambda s: int(s.split('/')[0]))
    print("|---|" + "---:|" * len(tiles))
    for setting in dict.fromkeys(e["setting"] for e in r["encoders"]):
        cells = []
        for tile in tiles:
            e = next(e for e in r["encoders"] if e["setting"] == setting and e["tile"] == tile)
            cells.append(f"{e['milliseconds']:.2f} ms, {e['bytes'] / 1000:.0f} kB")
        print(f"| {setting} | " + " | ".join(cells) + " |")
    return out


def main():
    for line in tables(json.load(open(sys.argv[1]))):
        sys.stdout.write(line + "\n")


if __name__ == "__main__":
    main()

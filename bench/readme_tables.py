#!/usr/bin/env python3
"""Print README's Performance tables (Markdown) from a heatmap-bench JSON report.

usage: bench/readme_tables.py REPORT.json
"""
import json
import sys


def main():
    r = json.load(open(sys.argv[1]))
    m = r["machine"]
    print(f"Machine: {m['processor']}, {m['cores']} cores, {m['memoryGiB']} GiB; {m['system']}; {m['date'][:10]}.")
    print()
    print("| points | index build | points/s | index bytes/point | peak bytes/point |")
    print("|---:|---:|---:|---:|---:|")
    for i in r["index"]:
        print(f"| {i['points']:,} | {i['seconds'] * 1000:.0f} ms | {i['pointsPerSecond'] / 1e6:.1f} M "
              f"| {i['indexBytesPerPoint']:.0f} | {i['peakBytesPerPoint']:.0f} |")
    print()
    ds = {t["tile"]: t for t in r.get("datashader", {}).get("tiles", [])}
    print("| tile (1M points) | kind | gather | convolve | colour | encode | total | PNG | brute force | × | datashader | × |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for t in r["tiles"]:
        d = ds.get(t["tile"])
        print(f"| {t['tile']} | {t['kind']} | {t['gatherMs']:.2f} | {t['convolveMs']:.2f} | {t['colourMs']:.2f} "
              f"| {t['encodeMs']:.2f} | {t['totalMs']:.2f} | {t['pngBytes'] / 1000:.0f} kB "
              f"| {t.get('referenceMs', 0):.0f} | {t.get('speedupOverReference', 0):.0f} "
              f"| {d['milliseconds']:.1f} | {d['ratio']:.0f} |" if d else
              f"| {t['tile']} | {t['kind']} | {t['gatherMs']:.2f} | {t['convolveMs']:.2f} | {t['colourMs']:.2f} "
              f"| {t['encodeMs']:.2f} | {t['totalMs']:.2f} | {t['pngBytes'] / 1000:.0f} kB "
              f"| {t.get('referenceMs', 0):.0f} | {t.get('speedupOverReference', 0):.0f} | | |")
    print()
    sizes = sorted({int(k) for s in r["scaling"] for k in s["milliseconds"]})
    print("| tile (gather + convolve, ms) | kind | " + " | ".join(f"{n:,} points" for n in sizes) + " | largest / smallest |")
    print("|---|---|" + "---:|" * (len(sizes) + 1))
    for s in r["scaling"]:
        cells = " | ".join(f"{s['milliseconds'].get(str(n), 0):.2f}" for n in sizes)
        print(f"| {s['tile']} | {s['kind']} | {cells} | {s['ratioLargestToSmallest']:.1f} |")
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


if __name__ == "__main__":
    main()

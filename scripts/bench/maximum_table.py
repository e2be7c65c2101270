#!/usr/bin/env python3
"""The before/after tables of docs/design/maximum-search.md from maximum_ab.py's result files.

    python3 scripts/bench/maximum_table.py bench/results/maximum-memory.json [more.json ...]

Prints, per file, a Markdown table: a row per zoom, a column per size (points or rows), each cell
"before → after (after ÷ before, CPU's)" in milliseconds (seconds from PostgreSQL), and the load
average the file was measured at. Standard library only.
"""
import json
import sys


def figure(value, seconds):
    return f"{value / 1000:.2f}" if seconds else f"{value:.1f}"


def table(rows, seconds):
    sizes = sorted({r["key"][0] for r in rows})
    zooms = sorted({r["key"][1] for r in rows})
    cells = {tuple(r["key"]): r for r in rows}
    unit = "s" if seconds else "ms"
    lines = [f"| {unit}, before → after (after ÷ before" + ("" if seconds else ", CPU's") + ") | "
             + " | ".join(f"{s:,}" for s in sizes) + " |",
             "|---:|" + "---|" * len(sizes)]
    for z in zooms:
        out = []
        for s in sizes:
            r = cells.get((s, z))
            if r is None:
                out.append("not run")
                continue
            ratio = f"{r['afterOverBefore']:.2f}"
            if "cpuAfterOverBefore" in r:
                ratio += f", {r['cpuAfterOverBefore']:.2f}"
            same = "" if r["sameValue"] else " **M differs**"
            out.append(f"{figure(r['beforeMedian'], seconds)} → {figure(r['afterMedian'], seconds)} ({ratio}){same}")
        lines.append(f"| zoom {z} | " + " | ".join(out) + " |")
    return "\n".join(lines)


def main():
    for path in sys.argv[1:]:
        with open(path) as f:
            result = json.load(f)
        load = result["load"]
        print(f"{path}: {result['rounds']} rounds, load average {load['min']:.1f} to {load['max']:.1f}")
        for name in ("memory", "postgres"):
            if result.get(name):
                print()
                print(table(result[name], seconds=name == "postgres"))
        print()


if __name__ == "__main__":
    main()

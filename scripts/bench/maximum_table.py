#!/usr/bin/env python3
"""The before/after tables of docs/design/maximum-search.md and README's from maximum_ab.py's result files.

    python3 scripts/bench/maximum_table.py bench/results/maximum-memory-1m.json [more.json ...]
    python3 scripts/bench/maximum_table.py --readme [--write | --check] [file.json ...]

Prints, per file, a Markdown table: a row per zoom, a column per size (points or rows), each cell
"before → after (after ÷ before, CPU's)" in milliseconds (seconds from PostgreSQL), and the load
average the file was measured at; where the file holds another build (`maximum_ab.py --also`),
its median and after ÷ it follow. With `--readme`, one compact table over all the files instead,
README's: a row per source and size, a column per zoom, each cell after ÷ before on the clock, a
later file's figure replacing an earlier one's; without files, over `README_FILES` in that order.
`--write` puts it in README.md's generated block `maximum-ab`; `--check` exits 1 when that block
differs (doctest.py runs it). Standard library only.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BEGIN = "<!-- BEGIN GENERATED: maximum-ab -->"
END = "<!-- END GENERATED -->"
# README's table: each file's figures replace the earlier files' at the same source, size and zoom
# (the order of docs/design/maximum-search.md#before-and-after).
README_FILES = [
    "bench/results/maximum-postgres-1m-zooms-15-16.json",
    "bench/results/maximum-postgres-1m-zooms-7-9.json",
    "bench/results/maximum-postgres-1m-load-10-15.json",
    "bench/results/maximum-postgres-1m-zooms-5-6.json",
    "bench/results/maximum-postgres-1m.json",
    "bench/results/maximum-postgres-20m.json",
    "bench/results/maximum-postgres-20m-zooms-9-16.json",
    "bench/results/maximum-postgres-20m-zoom-11.json",
    "bench/results/maximum-postgres-20m-zoom-15.json",
    "bench/results/maximum-memory-1m.json",
    "bench/results/maximum-memory-1m-zooms-13-16.json",
    "bench/results/maximum-memory-10m.json",
]


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
            also = "".join(f"; {label} {figure(o['median'], seconds)} ({o['afterOverIt']:.2f})"
                           for label, o in r.get("others", {}).items())
            out.append(f"{figure(r['beforeMedian'], seconds)} → {figure(r['afterMedian'], seconds)} ({ratio}){also}{same}")
        lines.append(f"| zoom {z} | " + " | ".join(out) + " |")
    return "\n".join(lines)


def readme(paths):
    """README's table: rows source × size, columns zooms, cells after ÷ before."""
    ratios = {}
    for path in paths:
        with open(os.path.join(ROOT, path)) as f:
            result = json.load(f)
        for name in ("memory", "postgres"):
            for r in result.get(name) or []:
                ratios[(name, r["key"][0], r["key"][1])] = r["afterOverBefore"]
    zooms = sorted({z for _, _, z in ratios})
    rows = sorted({(name, size) for name, size, _ in ratios}, key=lambda k: (k[0] != "memory", k[1]))
    label = {"memory": "memory, {} points", "postgres": "PostgreSQL, {} rows"}
    lines = ["| after ÷ before, zoom | " + " | ".join(str(z) for z in zooms) + " |",
             "|---|" + "---:|" * len(zooms)]
    for name, size in rows:
        size_text = f"{size // 1_000_000}M" if size % 1_000_000 == 0 else f"{size:,}"
        cells = [f"{ratios[(name, size, z)]:.2f}" if (name, size, z) in ratios else "" for z in zooms]
        lines.append(f"| {label[name].format(size_text)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def splice(table, check):
    """README.md with `table` in its generated block; whether it was current (`check`: not written)."""
    path = os.path.join(ROOT, "README.md")
    text = open(path).read()
    a = text.index(BEGIN) + len(BEGIN)
    b = text.index(END, a)
    new = text[:a] + "\n" + table + "\n" + text[b:]
    if new == text:
        return True
    if check:
        print("maximum_table: README.md's M(z) table differs from bench/results; "
              "run python3 scripts/bench/maximum_table.py --readme --write", file=sys.stderr)
        return False
    open(path, "w").write(new)
    print("maximum_table: wrote README.md")
    return True


def main():
    if sys.argv[1:2] == ["--readme"]:
        flags = [a for a in sys.argv[2:] if a in ("--write", "--check")]
        compact = readme([a for a in sys.argv[2:] if a not in flags] or README_FILES)
        if not flags:
            print(compact)
        elif not splice(compact, check="--check" in flags):
            sys.exit(1)
        return
    for path in sys.argv[1:]:
        with open(path) as f:
            result = json.load(f)
        load = result["load"]
        # A run stopped early (`roundsDone`) holds fewer rounds than asked: count what each figure has.
        counts = sorted({len(r["before"]) for name in ("memory", "postgres") for r in result.get(name) or []})
        rounds = f"{counts[0]} to {counts[-1]}" if counts and counts[0] != counts[-1] else str(counts[0] if counts else 0)
        print(f"{path}: {rounds} rounds, load average {load['min']:.1f} to {load['max']:.1f}")
        for name in ("memory", "postgres"):
            if result.get(name):
                print()
                print(table(result[name], seconds=name == "postgres"))
        print()


if __name__ == "__main__":
    main()

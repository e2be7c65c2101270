#!/usr/bin/env python3
"""Two heatmap-bench binaries alternated in one run: the uncached tiles and the encoders.

    python3 scripts/bench/bench_ab.py --a-binary OLD/heatmap-bench [--b-binary .build/release/heatmap-bench]
        [--rounds 4] [--out .build/bench/bench-ab.json]

Runs A, B, A, B, ... (`--only uncached,encoders`), and gives per measure the medians over the
rounds of B's figure over A's: the CPU time a tile costs through `HeatmapTileLayer.tileFor`
(medians of 25, and the fastest), the all-cores tiles per second and CPU a tile, and the
default encoder's time per tile. Standard library only; no network.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(binary, sections):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        subprocess.run([binary, "--only", sections, "--json", path], check=True, stdout=subprocess.PIPE)
        with open(path) as f:
            return json.load(f)
    finally:
        os.unlink(path)


def figures(report):
    out = {}
    u = report.get("uncached") or {}
    for t in u.get("tiles", []):
        out[f"uncached {t['tile']} cpu ms"] = t["cpuMs"]
        out[f"uncached {t['tile']} fastest cpu ms"] = t["minimumCPUMs"]
    if u:
        out["uncached all cores tiles/s"] = u["tilesPerSecond"]
        out["uncached all cores cpu ms/tile"] = u["cpuMsPerTile"]
    for e in report.get("encoders") or []:
        if "default" in e["setting"]:
            out[f"encoder {e['tile']} ms"] = e["milliseconds"]
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--a-binary", required=True)
    parser.add_argument("--b-binary", default=".build/release/heatmap-bench")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--sections", default="uncached,encoders")
    parser.add_argument("--out", default=".build/bench/bench-ab.json")
    args = parser.parse_args()
    load = [os.getloadavg()[0]]
    runs = {"a": [], "b": []}
    for r in range(args.rounds):
        for side, binary in (("a", args.a_binary), ("b", args.b_binary)):
            runs[side].append(figures(run(binary, args.sections)))
            load.append(os.getloadavg()[0])
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    ratios = {}
    for key in runs["a"][0]:
        per_round = [b[key] / a[key] for a, b in zip(runs["a"], runs["b"]) if a.get(key) and key in b]
        ratios[key] = {
            "a": statistics.median(a[key] for a in runs["a"]),
            "b": statistics.median(b[key] for b in runs["b"] if key in b),
            "b_over_a": statistics.median(per_round),
            "range": [min(per_round), max(per_round)],
        }
    report = {"benchmark": "heatmap-bench A/B", "a": args.a_binary, "b": args.b_binary, "rounds": args.rounds,
              "load_average": [min(load), max(load)], "measures": ratios, "a_runs": runs["a"], "b_runs": runs["b"]}
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    width = max(len(k) for k in ratios)
    for key, v in ratios.items():
        print(f"{key:<{width}}  A {v['a']:9.3f}  B {v['b']:9.3f}  B/A {v['b_over_a']:.2f} "
              f"({v['range'][0]:.2f}-{v['range'][1]:.2f})")
    print(f"load average {min(load):.1f}-{max(load):.1f}")


if __name__ == "__main__":
    main()

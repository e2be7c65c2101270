#!/usr/bin/env python3
"""M(z) before and after: heatmap-bench builds alternated in one run, in memory and from PostgreSQL.

    python3 scripts/bench/maximum_ab.py --before OLD/heatmap-bench [--also main=MAIN/heatmap-bench ...] \\
        [--after .build/release/heatmap-bench] [--sizes 1000000,10000000] [--zooms 3,6,9,12,16] [--rounds 3] \\
        [--postgres URL --postgres-rows 1000000 --postgres-zooms 3,6,9,12,16 [--slow-rounds 3]] \\
        [--skip-memory] [--out bench/results/maximum-ab.json]

In memory: each round runs every build (`--only normalization`, each figure a median of 3 searches,
the order of the builds rotating each round) and keeps, per size and zoom, the milliseconds and M(z).
From PostgreSQL: the table `heatmap_bench_serve` of `--postgres-rows` rows (imported once by the
first build that finds another count), then for each zoom and round every build's first search in
a fresh process (`--only postgres-maximum`, nothing read from or kept in `heatmap_maxima`), the
order rotating. A zoom whose first round took the before build more than a second is run for
`--slow-rounds` rounds only (seconds-long searches vary less than the builds differ). Prints and
writes the medians, after ÷ before (and ÷ each `--also` build), and whether all found the same
M(z) to the bit. Standard library only.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile


def memory_run(binary, sizes, zooms):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        subprocess.run([binary, "--only", "normalization", "--sizes", sizes, "--points", sizes.split(",")[0],
                        "--zooms", zooms, "--repetitions", "3", "--json", path],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(path) as f:
            report = json.load(f)
    finally:
        os.unlink(path)
    return {(n["points"], n["zoom"]): (n["milliseconds"], n["value"], n.get("cpuMilliseconds"))
            for n in report["normalization"]}


PATTERN = re.compile(r"postgres maximum M\((\d+)\) (?:kernel|search): ([0-9.]+) s, ([0-9.e+-]+)")


def postgres_run(binary, url, rows, zoom):
    """Seconds and M(z) of one search in a fresh process (an older build also runs a second,
    weight-bounded search after it: it is stopped once the first has printed)."""
    command = [binary, "--only", "postgres-maximum", "--sizes", "100000", "--points", "100000", "--repetitions", "1",
               "--postgres", url, "--postgres-maximum-rows", str(rows),
               "--postgres-zooms", str(zoom)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = None
    for line in process.stderr:
        match = PATTERN.search(line)
        if match and int(match.group(1)) == zoom:
            found = (float(match.group(2)), float(match.group(3)))
            break
    process.terminate()
    process.wait(timeout=600)
    subprocess.run(["psql", url, "-Atqc", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND datname = current_database() "
                    "AND query NOT LIKE '%pg_stat_activity%'"], check=False, stdout=subprocess.DEVNULL)
    if found is None:
        raise SystemExit(f"{binary}: no M({zoom}) printed")
    return found


def summary(runs, others):
    """Per key: each build's times and median, after ÷ before (wall and CPU), and each `--also`
    build's median, its ratio to before and after's to it, as `others[label]` = {times, median, overBefore, afterOverIt}."""
    out = []
    for key in sorted(runs):
        if not all(runs[key].values()):
            continue  # a zoom stopped before every build ran it
        times = {side: [v[0] for v in values] for side, values in runs[key].items()}
        values = {v[1] for side in runs[key] for v in runs[key][side]}
        medians = {side: statistics.median(t) for side, t in times.items()}
        b, a = medians["before"], medians["after"]
        row = {"key": list(key), "before": times["before"], "after": times["after"], "beforeMedian": b,
               "afterMedian": a, "afterOverBefore": a / b if b else None, "sameValue": len(values) == 1,
               "values": sorted(values)}
        cpu = [[v[2] for v in runs[key][side] if len(v) > 2 and v[2] is not None] for side in ("before", "after")]
        if all(cpu):
            row["cpuBeforeMedian"], row["cpuAfterMedian"] = statistics.median(cpu[0]), statistics.median(cpu[1])
            row["cpuAfterOverBefore"] = row["cpuAfterMedian"] / row["cpuBeforeMedian"]
        if others:
            row["others"] = {label: {"times": times[label], "median": medians[label],
                                     "overBefore": medians[label] / b if b else None,
                                     "afterOverIt": a / medians[label] if medians[label] else None}
                             for label in others}
        out.append(row)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", default=".build/release/heatmap-bench")
    parser.add_argument("--also", action="append", default=[], metavar="LABEL=PATH",
                        help="another build run beside before and after (e.g. main=...)")
    parser.add_argument("--slow-rounds", type=int)
    parser.add_argument("--sizes", default="1000000,10000000")
    parser.add_argument("--zooms", default="3,6,9,12,16")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres")
    parser.add_argument("--postgres-rows", type=int, default=1000000)
    parser.add_argument("--postgres-zooms", default="3,6,9,12,16")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--out")
    args = parser.parse_args()
    load = [os.getloadavg()[0]]
    others = [a.split("=", 1) for a in args.also]
    builds = [("before", args.before)] + [(label, path) for label, path in others] + [("after", args.after)]
    memory, database = {}, {}

    def collect():
        return {"rounds": args.rounds, "load": {"min": min(load), "max": max(load), "median": statistics.median(load)},
                "builds": {side: os.path.abspath(path) for side, path in builds},
                "memory": summary(memory, [o[0] for o in others]),
                "postgres": summary(database, [o[0] for o in others])}

    def write(partial):
        # Written after every measurement too, so that a run stopped early keeps what it measured.
        if args.out:
            with open(args.out, "w") as f:
                json.dump(dict(collect(), **({"roundsDone": partial} if partial is not None else {})), f, indent=1)
                f.write("\n")

    for r in range(args.rounds):
        # Each build first, in the middle and last in turn; reversed every other round.
        order = builds[r % len(builds):] + builds[:r % len(builds)]
        if not args.skip_memory:
            for side, binary in order:
                for key, value in memory_run(binary, args.sizes, args.zooms).items():
                    memory.setdefault(key, {s: [] for s, _ in builds})[side].append(value)
                load.append(os.getloadavg()[0])
                print(f"round {r + 1} memory {side} done, load {load[-1]:.1f}", file=sys.stderr)
                write(r)
        if args.postgres:
            for z in [int(z) for z in args.postgres_zooms.split(",")]:
                key = (args.postgres_rows, z)
                if (args.slow_rounds is not None and r >= args.slow_rounds and key in database
                        and statistics.median(v[0] for v in database[key]["before"]) > 1000):
                    continue
                for side, binary in (order if z % 2 == 0 else order[::-1]):
                    seconds, value = postgres_run(binary, args.postgres, args.postgres_rows, z)
                    database.setdefault(key, {s: [] for s, _ in builds})[side].append((seconds * 1000, value))
                    load.append(os.getloadavg()[0])
                    print(f"round {r + 1} postgres M({z}) {side}: {seconds:.2f} s, {value}, load {load[-1]:.1f}",
                          file=sys.stderr)
                    write(r)
    result = collect()
    for name in ("memory", "postgres"):
        for row in result[name]:
            print(f"{name} {row['key'][0]:>9} points zoom {row['key'][1]:>2}: before {row['beforeMedian']:10.1f} ms, "
                  f"after {row['afterMedian']:10.1f} ms, after/before {row['afterOverBefore']:.2f}, "
                  + (f"CPU {row['cpuBeforeMedian']:.1f} / {row['cpuAfterMedian']:.1f} ms ({row['cpuAfterOverBefore']:.2f}), "
                     if "cpuAfterOverBefore" in row else "") +
                  "".join(f"{label} {o['median']:.1f} ms (after/{label} {o['afterOverIt']:.2f}), "
                          for label, o in row.get("others", {}).items()) +
                  f"same M: {'yes' if row['sameValue'] else 'NO ' + str(row['values'])}")
    print(f"load average {result['load']['min']:.1f}-{result['load']['max']:.1f}")
    write(None)


if __name__ == "__main__":
    main()

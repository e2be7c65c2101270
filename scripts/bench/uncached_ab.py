#!/usr/bin/env python3
"""Two `heatmap serve` processes' uncached renders against each other, interleaved (an A/B test).

    swift build -c release && python3 scripts/bench/uncached_ab.py [--b-binary PATH] [--b-env NAME=VALUE ...]
        [--rounds 8] [--repetitions 10] [--out .build/bench/uncached-ab.json]

Both servers load heatmap-bench's seeded 1M points (`--export`, as a CSV file) with the cache off;
A is `--binary` as it is, B is `--b-binary` (default the same) with `--b-env` added to its
environment (for example `MALLOC_ARENA_MAX=1`). Each round asks every tile of
`scripts/bench/uncached_bench.py` `--repetitions` times of A, then of B, one request at a time, and
reads each render's CPU time from the server's `heatmap_tile_render_cpu_seconds`; with the minor
page faults of its render threads. The report gives, per tile, the medians and minima of both and
B over A. Traffic goes to 127.0.0.1 only.
"""
import argparse
import http.client
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uncached_bench import metric, render_thread_faults, tile_path  # noqa: E402
from serve_bench import load_average  # noqa: E402

TILES = ["16/14977/27652@2x", "16/13571/27655@2x", "10/207/364@2x", "0/0/0@2x"]


def start(binary, csv_path, port, env):
    process = subprocess.Popen(
        [binary, "serve", csv_path, "--port", str(port), "--cache-mb", "0", "--no-watch"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, **env})
    for _ in range(600):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            for tile in TILES:  # each zoom's M(z) comes with its first tile
                connection.request("GET", tile_path(tile))
                connection.getresponse().read()
            return process, connection
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit(f"{binary} did not answer on port {port}")


def get(connection, path):
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/heatmap")
    parser.add_argument("--b-binary", default=None)
    parser.add_argument("--b-env", action="append", default=[], help="NAME=VALUE for B's environment")
    parser.add_argument("--bench-binary", default=".build/release/heatmap-bench")
    parser.add_argument("--port", type=int, default=18098, help="A's port; B's is the next")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--out", default=".build/bench/uncached-ab.json")
    args = parser.parse_args()
    b_env = dict(item.split("=", 1) for item in args.b_env)
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([args.bench_binary, "--only", "uncached", "--sizes", "1000000", "--points", "1000000",
                        "--repetitions", "1", "--uncached-limit", "1", "--json", os.path.join(folder, "b.json"),
                        "--export", folder], capture_output=True, timeout=900, check=True)
        csv_path = os.path.join(folder, "points.csv")
        with open(os.path.join(folder, "points.f64"), "rb") as f, open(csv_path, "w") as out:
            out.write("lat,lng,weight\n")
            for lat, lng, weight in struct.iter_unpack("<3d", f.read()):
                out.write(f"{lat!r},{lng!r},{weight!r}\n")
        servers = [start(args.binary, csv_path, args.port, {}),
                   start(args.b_binary or args.binary, csv_path, args.port + 1, b_env)]
        cpu = [{t: [] for t in TILES} for _ in servers]
        faults = [{t: 0 for t in TILES} for _ in servers]
        load = load_average()
        try:
            for _ in range(args.rounds):
                for tile in TILES:
                    for i, (process, connection) in enumerate(servers):
                        before = render_thread_faults(process.pid)["minflt"]
                        for _ in range(args.repetitions):
                            sum_before = metric(get(connection, "/metrics")[1].decode(),
                                                "heatmap_tile_render_cpu_seconds_sum")
                            status, _ = get(connection, tile_path(tile))
                            assert status in (200, 204), f"{tile}: {status}"
                            sum_after = metric(get(connection, "/metrics")[1].decode(),
                                               "heatmap_tile_render_cpu_seconds_sum")
                            cpu[i][tile].append(1e3 * (sum_after - sum_before))
                        faults[i][tile] += render_thread_faults(process.pid)["minflt"] - before
        finally:
            for process, connection in servers:
                connection.close()
                process.terminate()
                process.wait(timeout=30)
    renders = args.rounds * args.repetitions
    rows = []
    for tile in TILES:
        a, b = (statistics.median(c[tile]) for c in cpu)
        a_min, b_min = (min(c[tile]) for c in cpu)
        rows.append({"tile": tile, "a_cpu_ms": round(a, 4), "b_cpu_ms": round(b, 4), "ratio": round(b / a, 3),
                     "a_minimum_cpu_ms": round(a_min, 4), "b_minimum_cpu_ms": round(b_min, 4),
                     "minimum_ratio": round(b_min / a_min, 3),
                     "a_minor_faults_per_render": round(faults[0][tile] / renders, 2),
                     "b_minor_faults_per_render": round(faults[1][tile] / renders, 2)})
        print(f"{tile}: A {a:.3f} ms, B {b:.3f} ms, B/A {b / a:.3f} (fastest {b_min / a_min:.3f}); "
              f"faults a render {faults[0][tile] / renders:.1f}, {faults[1][tile] / renders:.1f}")
    report = {"benchmark": "two heatmap serve processes' uncached render CPU, interleaved",
              "a": args.binary, "b": args.b_binary or args.binary, "b_env": b_env, "rounds": args.rounds,
              "repetitions": args.repetitions, "load_average_before": load, "tiles": rows}
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

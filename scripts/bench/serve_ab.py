#!/usr/bin/env python3
"""Two `heatmap serve` builds against each other under wrk, interleaved (an A/B test of the
server's tile path): cached tiles (a warm cache, the event loops' copies included) and uncached
tiles (`--cache-mb 0`: every request routes, draws and encodes), on the heatmap's own route and
on a stack's (`/{a}+{b}/…`, the heatmap over itself).

    swift build -c release && python3 scripts/bench/serve_ab.py --a-binary OLD/heatmap [--binary .build/release/heatmap]
        [--rounds 5] [--duration 5] [--connections 64] [--out bench/results/serve-ab.json]

Both serve `Examples/police_stations.json`; each round runs every case on A, then on B (which
goes first alternates), and the report gives requests/s, p99 and the server's CPU time per
request (user + system, from /proc: less sensitive than requests/s to other work on the machine)
per case, the medians of the rounds and B over A. Needs wrk. Traffic goes to 127.0.0.1 only, for
a bounded time.
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_bench import LUA  # noqa: E402  (the tile walk wrk requests, shared with serve_bench and event_loop_bench)
from wrk_bench import answers, load_average, median, start_heatmap, write_report, wrk_result  # noqa: E402


CASES = [
    ("cached heatmap", 256, "/police_stations"),
    ("cached stack", 256, "/police_stations+police_stations"),
    ("uncached heatmap", 0, "/police_stations"),
    ("uncached stack", 0, "/police_stations+police_stations"),
]


def cpu_seconds(pid):
    """User + system CPU time of a process so far, seconds (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_case(binary, port, cache_mb, prefix, args, folder):
    server = start_heatmap(binary, "Examples/police_stations.json", port, cache_mb, "--no-watch")
    try:
        if not answers(f"http://127.0.0.1:{port}/health"):
            sys.exit(f"{binary} did not start")
        script = os.path.join(folder, "paths.lua")
        with open(script, "w") as f:
            f.write(LUA % dict(prefix=prefix, zoom=7, x0=112, x1=119, y0=75, y1=81))
        base = f"http://127.0.0.1:{port}"
        # Warm: every tile once (each zoom's M(z) comes with its first tile; the cache fills).
        subprocess.run(["wrk", "-t1", "-c1", "-d2s", "-s", script, base], capture_output=True, check=True)
        before = cpu_seconds(server.pid)
        output = subprocess.run(
            ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}s", "-s", script, base],
            capture_output=True, text=True, check=True).stdout
        result = wrk_result(output)
        result["cpu_us_per_request"] = round(1e6 * (cpu_seconds(server.pid) - before) / max(1, result["requests"]), 2)
        if result["socket_errors"] or result["bad_status"]:
            sys.exit(f"{binary} {prefix}: errors {result}")
        return result
    finally:
        server.terminate()
        server.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a-binary", required=True, help="the build to compare with (A)")
    parser.add_argument("--binary", default=".build/release/heatmap", help="this build (B)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--port", type=int, default=18571)
    parser.add_argument("--out", default="bench/results/serve-ab.json")
    args = parser.parse_args()
    binaries = {"a": args.a_binary, "b": args.binary}
    runs = {name: {side: [] for side in binaries} for name, _, _ in CASES}
    load = load_average()
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            order = ["a", "b"] if round_ % 2 == 0 else ["b", "a"]
            for name, cache_mb, prefix in CASES:
                for side in order:
                    result = run_case(binaries[side], args.port, cache_mb, prefix, args, folder)
                    runs[name][side].append(result)
                    print(f"round {round_ + 1} {name} {side.upper()}: {result['requests_per_s']} req/s, "
                          f"p99 {result['p99_ms']} ms, {result['cpu_us_per_request']} µs CPU a request", flush=True)
    cases = []
    for name, cache_mb, prefix in CASES:
        a = median([r["requests_per_s"] for r in runs[name]["a"]])
        b = median([r["requests_per_s"] for r in runs[name]["b"]])
        a99 = median([r["p99_ms"] for r in runs[name]["a"]])
        b99 = median([r["p99_ms"] for r in runs[name]["b"]])
        a_cpu = median([r["cpu_us_per_request"] for r in runs[name]["a"]])
        b_cpu = median([r["cpu_us_per_request"] for r in runs[name]["b"]])
        cases.append({"case": name, "route": prefix + "/7/{x}/{y}.png", "cache_mb": cache_mb,
                      "a_requests_per_s": a, "b_requests_per_s": b, "b_over_a": round(b / a, 3),
                      "a_cpu_us_per_request": a_cpu, "b_cpu_us_per_request": b_cpu,
                      "cpu_b_over_a": round(b_cpu / a_cpu, 3),
                      "a_p99_ms": a99, "b_p99_ms": b99, "rounds": runs[name]})
        print(f"{name}: A {a} req/s, B {b} req/s, B/A {b / a:.3f}; CPU a request A {a_cpu} µs, B {b_cpu} µs, "
              f"B/A {b_cpu / a_cpu:.3f}; p99 A {a99} ms, B {b99} ms")
    write_report({"benchmark": "heatmap serve A/B under wrk, interleaved rounds", "a": args.a_binary,
                  "b": args.binary, "connections": args.connections, "threads": args.threads,
                  "duration_s": args.duration, "rounds": args.rounds, "load_average_before": load,
                  "load_average_after": load_average(), "cases": cases}, args.out)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""`heatmap serve`'s uncached tiles against `heatmap-bench`'s, interleaved in one run.

    swift build -c release && python3 scripts/bench/uncached_bench.py [--rounds 3] [--repetitions 25]
        [--passes 2] [--connections N] [--pause-ms N] [--out .build/bench/uncached.json]

The inputs are the same for both: heatmap-bench's seeded 1M points (`--export`), written as a
CSV file the server loads (cache off, `--cache-mb 0`), and the same tiles (`heatmap-bench --only
uncached`: the dense and sparse zoom-16 tiles and the dense zoom-10 tile at 512 px, and 0/0/0@2x).
Per tile, the CPU time of the thread drawing it: heatmap-bench's around `HeatmapTileLayer.tileFor`,
the server's from its `heatmap_tile_render_cpu_seconds` histogram (one request then `/metrics`, on
one connection), with the render's wall time both ways; medians (and minima) of the repetitions. Then tiles
per second on all cores: heatmap-bench over 600 tiles with data at zoom 9 (512 px, evenly spread),
and wrk (one thread, 4 x cores connections) over the same tiles, each asked for `--passes` times
(the cache is off), with the CPU time per tile of each whole process.
Runs go bench, server, bench, server, ..., bench; each server figure is divided by the mean of
the bench runs before and after it, and the report (JSON) gives the medians of those ratios.
With `--pause-ms N`, each bench run is followed by one whose thread sleeps N ms before each
render (`--uncached-pause-ms`), as the server's render thread waits between requests, and each
server figure is also divided by that run's. Per render, the minor page faults of the drawing
thread both ways (getrusage in heatmap-bench, /proc of the server's `heatmap-render` threads).
Traffic goes to 127.0.0.1 only, for a bounded time. Needs wrk (Debian: apt-get install wrk).
"""
import argparse
import http.client
import json
import os
import platform
import re
import signal
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wrk_bench import load_average, median, start_heatmap, write_report, wrk_result  # noqa: E402

LUA = r"""
local paths = {}
for line in io.lines("%(list)s") do paths[#paths + 1] = line end
local counter = 0
function request()
  counter = counter + 1
  return wrk.format("GET", paths[((counter - 1) %% #paths) + 1])
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %%d, "seconds": %%.3f, "bytes": %%d, "socket_errors": %%d, "bad_status": %%d, ' ..
    '"p50_ms": %%.3f, "p90_ms": %%.3f, "p99_ms": %%.3f, "max_ms": %%.3f}\n',
    summary.requests, summary.duration / 1e6, summary.bytes, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50) / 1e3, latency:percentile(90) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3))
end
"""


def run_bench(args, folder, tiles=None, export=False, pause_ms=0):
    out = os.path.join(folder, "bench.json")
    command = [args.bench_binary, "--only", "uncached", "--sizes", "1000000", "--points", "1000000",
               "--repetitions", str(args.repetitions), "--json", out]
    if pause_ms:
        command += ["--uncached-pause-ms", str(pause_ms), "--uncached-limit", "10"]
    if tiles:
        command += ["--uncached-tiles", ",".join(tiles)]
    if export:
        command += ["--export", folder]
    load = load_average()
    subprocess.run(command, capture_output=True, text=True, timeout=900, check=True)
    with open(out) as f:
        result = json.load(f)["uncached"]
    result["load_average_before"] = load
    done = ", ".join(f"{t['tile']} {t['cpuMs']:.3f} ms {t.get('minorFaults') or 0:.0f} faults" for t in result["tiles"])
    print(f"bench{f' paused {pause_ms} ms' if pause_ms else ''}: {done}; {result['tilesPerSecond']:.1f} tiles/s on {result['threads']} threads, "
          f"{result['cpuMsPerTile']:.3f} ms CPU each; load {load}", flush=True)
    return result


def metric(text, name):
    found = re.search(rf"^{name} ([0-9.e+-]+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def server_tiles(port, pid, tiles, repetitions):
    """Per tile: the server's render CPU and wall time (from /metrics, one request at a time), and
    the request's time at the client; medians, ms."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def get(path):
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()

    def counters():
        text = get("/metrics")[1].decode()
        return (metric(text, "heatmap_tile_render_seconds_count"), metric(text, "heatmap_tile_render_cpu_seconds_sum"),
                metric(text, "heatmap_tile_render_seconds_sum"))

    results = []
    load = load_average()
    for tile in tiles:
        path = tile_path(tile)
        cpu, wall, request, sizes = [], [], [], set()
        faults_before = render_thread_faults(pid)
        before = counters()
        for _ in range(repetitions):
            start = time.perf_counter()
            status, body = get(path)
            request.append(1e3 * (time.perf_counter() - start))
            after = counters()
            assert status in (200, 204), f"{path}: {status}"
            assert after[0] - before[0] == 1, f"{path}: {after[0] - before[0]} renders for one request (cache on?)"
            cpu.append(1e3 * (after[1] - before[1]))
            wall.append(1e3 * (after[2] - before[2]))
            sizes.add(len(body))
            before = after
        faults = render_thread_faults(pid)
        faults = {k: (faults[k] - faults_before[k]) / repetitions for k in faults}
        # The whole process's CPU per request (I/O loops, hand-offs, ETag and all), without /metrics between.
        process = process_cpu_ns(pid)
        for _ in range(repetitions):
            get(path)
        process = (process_cpu_ns(pid) - process) / 1e6 / repetitions
        results.append({"tile": tile, "cpuMs": round(median(cpu), 4), "minimumCPUMs": round(min(cpu), 4),
                        "wallMs": round(median(wall), 4),
                        "requestMs": round(median(request), 4), "processCPUMs": round(process, 4),
                        "pngBytes": sorted(sizes), "minorFaults": round(faults["minflt"], 1),
                        "systemCPUMs": round(faults["stime_ms"], 4)})
    connection.close()
    done = ", ".join(f"{t['tile']} {t['cpuMs']:.3f} ms {t['minorFaults']:.0f} faults" for t in results)
    print(f"server: {done}; load {load}", flush=True)
    return {"tiles": results, "load_average_before": load}


def server_throughput(args, server, list_path, tiles, folder, cores):
    """wrk over the list, `--passes` times (each tile requested that often), then stopped."""
    script = os.path.join(folder, "tiles.lua")
    with open(script, "w") as f:
        f.write(LUA % dict(list=list_path, passes=args.passes))
    connections = args.connections or 4 * cores
    load = load_average()
    cpu = process_cpu_ns(server.pid)
    # wrk runs until the server has drawn the passes (its render count, polled), then SIGINT stops
    # it and it reports; at most 10 minutes.
    renders = render_count(args.port)
    client = subprocess.Popen(
        ["wrk", "-t1", f"-c{connections}", "-d600s", "--timeout", "30s", "-s", script, f"http://127.0.0.1:{args.port}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 600
    while client.poll() is None and time.time() < deadline:
        if render_count(args.port) - renders >= args.passes * tiles:
            break
        time.sleep(0.05)
    cpu = process_cpu_ns(server.pid) - cpu
    client.send_signal(signal.SIGINT)
    output = client.communicate(timeout=60)[0]
    result = wrk_result(output)
    result["server_cpu_ms_per_request"] = round(cpu / 1e6 / max(1, result["requests"]), 4)
    result["server_cpu_cores"] = round(cpu / 1e9 / result["seconds"], 2)
    result.update(connections=connections, load_average_before=load, expected_requests=args.passes * tiles)
    print(f"server: {result['requests']} requests, {result['requests_per_s']:.1f}/s, p99 {result['p99_ms']:.1f} ms, "
          f"{result['server_cpu_ms_per_request']:.3f} ms CPU each, {result['server_cpu_cores']} cores busy, "
          f"errors {result['socket_errors']}+{result['bad_status']}; load {load}", flush=True)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/heatmap")
    parser.add_argument("--bench-binary", default=".build/release/heatmap-bench")
    parser.add_argument("--port", type=int, default=18096)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repetitions", type=int, default=25)
    parser.add_argument("--passes", type=int, default=2, help="wrk's passes over the throughput tiles")
    parser.add_argument("--connections", type=int, default=0, help="wrk's connections (default 4 x cores)")
    parser.add_argument("--out", default=".build/bench/uncached.json")
    parser.add_argument("--pause-ms", type=int, default=0,
                        help="also run heatmap-bench with --uncached-pause-ms N after each bench run (0: not)")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as folder:
        benches = [run_bench(args, folder, export=True)]
        tiles = [t["tile"] for t in benches[0]["tiles"]]
        csv_path = os.path.join(folder, "points.csv")
        with open(os.path.join(folder, "points.f64"), "rb") as f, open(csv_path, "w") as out:
            out.write("lat,lng,weight\n")
            for lat, lng, weight in struct.iter_unpack("<3d", f.read()):
                out.write(f"{lat!r},{lng!r},{weight!r}\n")
        list_path = os.path.join(folder, "tiles.txt")
        with open(list_path, "w") as f:
            for tile in benches[0]["throughputTiles"]:
                f.write(tile_path(tile) + "\n")
        server = start_heatmap(args.binary, csv_path, args.port, 0, "--no-watch")
        servers = []
        paused = []
        try:
            for _ in range(600):  # the server reads the file; each zoom's M(z) comes with its first tile
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
                    for tile in tiles + benches[0]["throughputTiles"][:1]:
                        connection.request("GET", tile_path(tile))
                        connection.getresponse().read()
                    connection.close()
                    break
                except OSError:
                    time.sleep(0.2)
            for _ in range(args.rounds):
                servers.append({"tiles": server_tiles(args.port, server.pid, tiles, args.repetitions),
                                "throughput": server_throughput(
                    args, server, list_path, len(benches[0]["throughputTiles"]), folder, cores)})
                benches.append(run_bench(args, folder, tiles))
                if args.pause_ms:
                    paused.append(run_bench(args, folder, tiles, pause_ms=args.pause_ms))
        finally:
            server.terminate()
            server.wait(timeout=30)
    rounds = []
    for i, s in enumerate(servers):
        around = (benches[i], benches[i + 1])
        per_tile = []
        for j, t in enumerate(s["tiles"]["tiles"]):
            bench_cpu = sum(b["tiles"][j]["cpuMs"] for b in around) / 2
            bench_wall = sum(b["tiles"][j]["wallMs"] for b in around) / 2
            bench_minimum = min(b["tiles"][j]["minimumCPUMs"] for b in around)
            per_tile.append({"tile": t["tile"], "bench_cpu_ms": round(bench_cpu, 4), "server_cpu_ms": t["cpuMs"],
                             "cpu_ratio": round(t["cpuMs"] / bench_cpu, 3),
                             "bench_minimum_cpu_ms": round(bench_minimum, 4), "server_minimum_cpu_ms": t["minimumCPUMs"],
                             "minimum_cpu_ratio": round(t["minimumCPUMs"] / bench_minimum, 3), "bench_wall_ms": round(bench_wall, 4),
                             "server_wall_ms": t["wallMs"], "wall_ratio": round(t["wallMs"] / bench_wall, 3),
                             "server_request_ms": t["requestMs"], "server_process_cpu_ms": t["processCPUMs"],
                             "process_cpu_ratio": round(t["processCPUMs"] / bench_cpu, 3),
                             "request_wall_ratio": round(t["requestMs"] / bench_wall, 3),
                             "bench_minor_faults": round(sum(b["tiles"][j].get("minorFaults") or 0 for b in around) / 2, 1),
                             "server_minor_faults": t.get("minorFaults", 0),
                             **({"bench_paused_cpu_ms": paused[i]["tiles"][j]["cpuMs"],
                                 "paused_cpu_ratio": round(t["cpuMs"] / paused[i]["tiles"][j]["cpuMs"], 3)}
                                if paused else {}),
                             "same_png_bytes": t["pngBytes"] == [b["tiles"][j]["pngBytes"] for b in around][:1]})
        bench_rate = sum(b["tilesPerSecond"] for b in around) / 2
        rate = s["throughput"]["requests_per_s"]
        bench_cpu = sum(b["cpuMsPerTile"] for b in around) / 2
        server_cpu = s["throughput"]["server_cpu_ms_per_request"]
        rounds.append({"tiles": per_tile, "bench_tiles_per_s": round(bench_rate, 1), "server_requests_per_s": rate,
                       "throughput_ratio": round(rate / bench_rate, 3), "bench_cpu_ms_per_tile": round(bench_cpu, 4),
                       "server_cpu_ms_per_request": server_cpu,
                       "throughput_cpu_ratio": round(server_cpu / bench_cpu, 3)})
    summary = []
    for j, tile in enumerate(tiles):
        rows = [r["tiles"][j] for r in rounds]
        summary.append({"tile": tile, **{k: round(median([row[k] for row in rows]), 4) for k in (
            "bench_cpu_ms", "server_cpu_ms", "cpu_ratio", "bench_minimum_cpu_ms", "server_minimum_cpu_ms",
            "minimum_cpu_ratio", "bench_wall_ms", "server_wall_ms", "wall_ratio",
            "server_request_ms", "server_process_cpu_ms", "process_cpu_ratio", "request_wall_ratio",
            "bench_minor_faults", "server_minor_faults") + (("bench_paused_cpu_ms", "paused_cpu_ratio") if paused else ())},
            "cpu_ratio_range": [min(r["cpu_ratio"] for r in rows), max(r["cpu_ratio"] for r in rows)],
            "wall_ratio_range": [min(r["wall_ratio"] for r in rows), max(r["wall_ratio"] for r in rows)],
            "same_png_bytes": all(row["same_png_bytes"] for row in rows)})
    report = {"benchmark": "heatmap serve's uncached tiles against heatmap-bench, interleaved",
              "machine": {"cores": cores, "system": platform.platform()}, "repetitions": args.repetitions,
              "passes": args.passes, "pause_ms": args.pause_ms, "connections": args.connections or 4 * cores,
              "throughput_tiles": len(benches[0]["throughputTiles"]),
              "throughput_zoom": benches[0]["throughputZoom"], "throughput_scale": benches[0]["throughputScale"],
              "tiles": summary,
              "bench_tiles_per_s": median([r["bench_tiles_per_s"] for r in rounds]),
              "server_requests_per_s": median([r["server_requests_per_s"] for r in rounds]),
              "throughput_ratio": median([r["throughput_ratio"] for r in rounds]),
              "throughput_ratio_range": [min(r["throughput_ratio"] for r in rounds),
                                         max(r["throughput_ratio"] for r in rounds)],
              "bench_cpu_ms_per_tile": median([r["bench_cpu_ms_per_tile"] for r in rounds]),
              "server_cpu_ms_per_request": median([r["server_cpu_ms_per_request"] for r in rounds]),
              "throughput_cpu_ratio": median([r["throughput_cpu_ratio"] for r in rounds]),
              "rounds": rounds, "bench_runs": [{k: v for k, v in b.items() if k != "throughputTiles"} for b in benches],
              "server_runs": servers,
              "paused_bench_runs": [{k: v for k, v in b.items() if k != "throughputTiles"} for b in paused]}
    print(json.dumps({k: v for k, v in report.items() if k not in ("rounds", "bench_runs", "server_runs")}, indent=2))
    write_report(report, args.out)


def render_count(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as response:
        return metric(response.read().decode(), "heatmap_tile_render_seconds_count")


def render_thread_faults(pid):
    """The minor page faults and kernel CPU time (ms) of the server's render threads
    (`heatmap-render`), summed: /proc/PID/task/*/stat."""
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    total = {"minflt": 0, "stime_ms": 0.0}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/stat") as f:
                text = f.read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        if name.startswith("heatmap-render"):
            total["minflt"] += int(fields[7])
            total["stime_ms"] += int(fields[12]) * tick_ms
    return total


def process_cpu_ns(pid):
    """Nanoseconds on a CPU of every thread of a process (/proc/PID/task/*/schedstat)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total


def tile_path(tile):
    """`/points/Z/X/Y.png` or `/points/Z/X/Y@2x.png` for `Z/X/Y[@2x]`."""
    return f"/points/{tile}.png"


if __name__ == "__main__":
    main()

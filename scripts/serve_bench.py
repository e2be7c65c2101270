#!/usr/bin/env python3
"""Load benchmark of `heatmap serve` with wrk on loopback: requests per second and latency
percentiles for cached tiles (a warm cache) and uncached tiles (cache off: every request draws
and encodes its tile), at several numbers of keep-alive connections. Writes JSON.

    swift build -c release && python3 scripts/serve_bench.py [--binary .build/release/heatmap]
        [--out .build/bench/serve-wrk.json] [--duration 8] [--connections 64,256] [--into bench.json]

Needs wrk (Debian: apt-get install wrk). Traffic goes to 127.0.0.1 only, for a bounded time.

    python3 scripts/serve_bench.py --empty-tiles 2400000 [--cache-mb 256]

measures memory instead (no wrk needed): the server's resident memory before and after that many
requests for distinct empty tiles (204s, each a new cache key), with the cache's own count of
entries and bytes along the way.
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_pipeline import PipelinedClient, peak_rss_mb, rss_mb  # noqa: E402

LUA = r"""
local paths = {}
for x = %(x0)d, %(x1)d do
  for y = %(y0)d, %(y1)d do
    paths[#paths + 1] = "/police_stations/%(zoom)d/" .. x .. "/" .. y .. ".png"
  end
end
local counter = 0
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("start_offset", threads * 7919)
end
function init(args)
  counter = start_offset or 0
end
function request()
  counter = counter + 1
  return wrk.format("GET", paths[(counter %% #paths) + 1])
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %%d, "seconds": %%.3f, "bytes": %%d, "socket_errors": %%d, "bad_status": %%d, ' ..
    '"p50_ms": %%.3f, "p90_ms": %%.3f, "p99_ms": %%.3f, "max_ms": %%.3f, "tiles": %%d}\n',
    summary.requests, summary.duration / 1e6, summary.bytes, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50) / 1e3, latency:percentile(90) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3,
    #paths))
end
"""


def start(binary, port, cache_mb):
    server = subprocess.Popen(
        [binary, "serve", "Examples/police_stations.json", "--port", str(port), "--cache-mb", str(cache_mb),
         "--max-connections", "2048"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for _ in range(100):
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).status == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    sys.exit("the server did not start")


def cache_gauges(port):
    metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    found = dict(re.findall(r"^(heatmap_tile_cache_(?:entries|bytes)) (\d+)$", metrics, re.M))
    return int(found.get("heatmap_tile_cache_entries", 0)), int(found.get("heatmap_tile_cache_bytes", 0))


def empty_tiles(args):
    """Resident memory of the server before and after `args.empty_tiles` distinct empty tiles."""
    server = start(args.binary, args.port, args.cache_mb)
    try:
        before = rss_mb(server.pid)
        client = PipelinedClient(args.port)
        steps = []
        sent = 0
        on_connection = 0
        while sent < args.empty_tiles:
            # Zoom 22 over the North Atlantic, far from Victoria: nothing within reach, every key new
            # (x runs over 2^22 columns, y over 16 rows, opacity over 100 values).
            paths = []
            for i in range(sent, min(args.empty_tiles, sent + 64)):
                x, y, o = i % 4194304, 1400000 + (i // 4194304) % 16, (i // (4194304 * 16)) % 100
                paths.append(f"/police_stations/22/{x}/{y}.png" + (f"?opacity=0.{o:02d}" if o else ""))
            if on_connection + len(paths) > 9000:
                client.close()
                client = PipelinedClient(args.port)
                on_connection = 0
            statuses = {status for status, _ in client.batch(paths)}
            assert statuses == {204}, f"expected 204s, got {statuses}"
            sent += len(paths)
            on_connection += len(paths)
            if sent % 200_000 < 64 or sent >= args.empty_tiles:
                entries, cache_bytes = cache_gauges(args.port)
                steps.append(dict(requests=sent, rss_mb=rss_mb(server.pid), cache_entries=entries,
                                  cache_mb=round(cache_bytes / 2**20, 1)))
                print(f"{sent:9} empty tiles: rss {steps[-1]['rss_mb']} MiB, cache {entries} entries, "
                      f"{steps[-1]['cache_mb']} MiB", flush=True)
        client.close()
        report = {"benchmark": "heatmap serve: distinct empty tiles", "cache_mb": args.cache_mb,
                  "requests": sent, "rss_mb_before": before, "rss_mb_after": rss_mb(server.pid),
                  "rss_mb_peak": peak_rss_mb(server.pid), "steps": steps}
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(json.dumps(report, indent=2))
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    print(f"wrote {args.out}")


def wrk(port, script, connections, duration, threads):
    output = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "10s", "-s", script,
         f"http://127.0.0.1:{port}"],
        capture_output=True, text=True, timeout=duration + 60, check=True).stdout
    line = next(l for l in output.splitlines() if l.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    result["requests_per_s"] = round(result["requests"] / result["seconds"], 1)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/heatmap")
    parser.add_argument("--out", help="default .build/bench/serve-wrk.json (serve-empty-tiles.json for --empty-tiles)")
    parser.add_argument("--duration", type=int, default=8)
    parser.add_argument("--connections", default="64,256")
    parser.add_argument("--port", type=int, default=18490)
    parser.add_argument("--into", help="also add the runs under \"server\" to this heatmap-bench JSON report")
    parser.add_argument("--empty-tiles", type=int, help="measure memory over this many distinct empty tiles")
    parser.add_argument("--cache-mb", type=int, default=256, help="the cache size for --empty-tiles")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if args.empty_tiles:
        args.out = args.out or ".build/bench/serve-empty-tiles.json"
        return empty_tiles(args)
    args.out = args.out or ".build/bench/serve-wrk.json"
    threads = max(1, min(4, os.cpu_count() or 1))
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        # Zoom 8 (36 tiles around Victoria) for the cached runs; zoom 10 (650 tiles) uncached.
        cases = [("cached", 512, dict(zoom=8, x0=228, x1=233, y0=154, y1=159)),
                 ("uncached", 0, dict(zoom=10, x0=913, x1=937, y0=620, y1=645))]
        for name, cache_mb, tiles in cases:
            script = os.path.join(folder, f"{name}.lua")
            with open(script, "w") as f:
                f.write(LUA % tiles)
            server = start(args.binary, args.port, cache_mb)
            try:
                if name == "cached":  # warm the cache
                    wrk(args.port, script, 4, 2, 1)
                for connections in [int(c) for c in args.connections.split(",")]:
                    result = wrk(args.port, script, connections, args.duration, threads)
                    result.update(case=name, cache_mb=cache_mb, connections=connections, threads=threads,
                                  zoom=tiles["zoom"])
                    runs.append(result)
                    print(f"{name:8} c={connections:4}: {result['requests_per_s']:10.1f} req/s, p50 "
                          f"{result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms, errors "
                          f"{result['socket_errors']}+{result['bad_status']}", flush=True)
                metrics = urllib.request.urlopen(f"http://127.0.0.1:{args.port}/metrics", timeout=5).read().decode()
                statuses = dict(re.findall(r'heatmap_http_requests_total\{route="tile",status="(\d+)"\} (\d+)', metrics))
                print(f"{name:8} tile answers by status over all runs: {statuses}", flush=True)
                for run in runs:
                    if run["case"] == name:
                        run["tile_statuses_all_runs_of_case"] = {k: int(v) for k, v in statuses.items()}
                health = urllib.request.urlopen(f"http://127.0.0.1:{args.port}/health", timeout=5).status
                assert health == 200, "the server stopped answering"
            finally:
                server.terminate()
                server.wait(timeout=30)
    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split("\n")[0]
    report = {"benchmark": "heatmap serve under wrk on loopback", "tool": wrk_version.strip(),
              "machine": {"cores": os.cpu_count(), "system": platform.platform()},
              "duration_s": args.duration, "runs": runs}
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    print(f"wrote {args.out}")
    if args.into:
        with open(args.into) as f:
            bench = json.load(f)
        bench["server"] = report
        with open(args.into, "w") as f:
            json.dump(bench, f, indent=2, sort_keys=True)
        print(f"added to {args.into}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Load benchmark of `heatmap serve` with wrk on loopback: requests per second and latency
percentiles for cached tiles (a warm cache) and uncached tiles (cache off: every request draws
and encodes its tile), at several numbers of keep-alive connections. Writes JSON.

    swift build -c release && python3 scripts/bench/serve_bench.py [--binary .build/release/heatmap]
        [--out .build/bench/serve-wrk.json] [--duration 8] [--connections 64,256] [--into bench.json]

Needs wrk (Debian: apt-get install wrk). Traffic goes to 127.0.0.1 only, for a bounded time.
With nginx installed (Debian's 1.22: apt-get install nginx) the cached runs are repeated, in the
same run and interleaved, against nginx serving the same tile files (worker_processes = cores,
sendfile on, access_log off), in `--rounds` (5) interleaved rounds (which server goes first alternates),
and the report gives heatmap's requests/s, p99 and CPU time per request (user + system, from /proc, of
heatmap and of nginx's master and workers) over nginx's: medians of the rounds, each round's pair and
their spread, and a verdict against `--target R,P` (requests/s ratio at least R, p99 ratio at most P,
default 1.0,1.0) at every connection count (`--no-nginx` to skip, `--cached-only` to skip the uncached
runs). Before nginx is timed, every tile is asked of both servers and compared: nginx must send
heatmap's status, Content-Type and bytes ("nginx_same_bytes" in the report); when it does not it gets
no time, only the difference, and the script exits 1 after writing its report.

    python3 scripts/bench/serve_bench.py --dense [--points /tmp/heatmap-data/points.f64]

measures the server's uncached render path instead: the dense 16/14977/27652@2x over the
benchmark's 1M points (`heatmap-bench --export DIR` writes them), cache off, one connection
(milliseconds per request) and 2 x cores connections (renders and requests per second),
against `heatmap-bench --only tiles --zooms 16` run in the same minutes.

    python3 scripts/bench/serve_bench.py --empty-tiles 2400000 [--cache-mb 256]

measures memory instead (no wrk needed): the server's resident memory before and after that many
requests for distinct empty tiles (204s, each a new cache key), with the cache's own count of
entries and bytes along the way.
"""
import argparse
import json
import os
import platform
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The pipelined HTTP client is the fuzzers' (scripts/ci/http_pipeline.py).
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ci"))
from http_pipeline import PipelinedClient, peak_rss_mb, rss_mb  # noqa: E402
from wrk_bench import answers, load_average, median, start_heatmap, write_report, wrk_result  # noqa: E402

LUA = r"""
local paths = {}
for x = %(x0)d, %(x1)d do
  for y = %(y0)d, %(y1)d do
    paths[#paths + 1] = "%(prefix)s/%(zoom)d/" .. x .. "/" .. y .. ".png"
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


def start(binary, port, cache_mb, data="Examples/police_stations.json"):
    server = start_heatmap(binary, data, port, cache_mb)
    if answers(f"http://127.0.0.1:{port}/health"):
        return server
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
    write_report(report, args.out)


NGINX_CONF = """
worker_processes %(workers)d;
daemon off;
pid %(folder)s/nginx.pid;
error_log %(folder)s/nginx-error.log;
events { worker_connections 4096; }
http {
    sendfile on;
    tcp_nopush on;
    access_log off;
    keepalive_requests 10000;
    client_body_temp_path %(folder)s/body;
    proxy_temp_path %(folder)s/proxy;
    fastcgi_temp_path %(folder)s/fastcgi;
    uwsgi_temp_path %(folder)s/uwsgi;
    scgi_temp_path %(folder)s/scgi;
    types { image/png png; }
    server {
        listen 127.0.0.1:%(port)d;
        root %(folder)s/tiles;
        # A tile with nothing to draw is no file: 204, as heatmap answers it.
        location / { try_files $uri =204; }
    }
}
"""


def start_nginx(folder, port, heatmap_port, tiles):
    """nginx on `port` serving the tiles of `tiles` as heatmap on `heatmap_port` answers them."""
    written = []
    for x in range(tiles["x0"], tiles["x1"] + 1):
        os.makedirs(os.path.join(folder, "tiles", "police_stations", str(tiles["zoom"]), str(x)), exist_ok=True)
        for y in range(tiles["y0"], tiles["y1"] + 1):
            path = f"/police_stations/{tiles['zoom']}/{x}/{y}.png"
            with urllib.request.urlopen(f"http://127.0.0.1:{heatmap_port}{path}", timeout=30) as response:
                if response.status == 204:
                    continue  # no tile: nginx answers 204 for a missing file (try_files)
                body = response.read()
            with open(os.path.join(folder, "tiles", path.lstrip("/")), "wb") as f:
                f.write(body)
            written.append(path)
    os.chmod(folder, 0o755)  # nginx's workers run as nobody
    conf = os.path.join(folder, "nginx.conf")
    with open(conf, "w") as f:
        f.write(NGINX_CONF % dict(workers=os.cpu_count() or 1, folder=folder, port=port))
    nginx = subprocess.Popen(["nginx", "-c", conf, "-p", folder], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
    probe = f"http://127.0.0.1:{port}{written[0]}"
    if answers(probe):
        return nginx
    nginx.kill()
    sys.exit("nginx did not start: " + open(os.path.join(folder, "nginx-error.log")).read())


def same_bytes(heatmap_port, nginx_port, tiles):
    """Every tile of the cached case from both servers, compared before either is timed: nginx
    must send heatmap's bytes (status, Content-Type and body), else it gets no time."""
    import hashlib
    differing = []
    total = 0
    count = 0
    for x in range(tiles["x0"], tiles["x1"] + 1):
        for y in range(tiles["y0"], tiles["y1"] + 1):
            path = f"/police_stations/{tiles['zoom']}/{x}/{y}.png"
            answers = []
            for port in (heatmap_port, nginx_port):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
                    answers.append((response.status, response.headers.get("Content-Type"), response.read()))
            (status, kind, body), (nginx_status, nginx_kind, nginx_body) = answers
            count += 1
            total += len(body)
            if (status, kind, body) != (nginx_status, nginx_kind, nginx_body):
                differing.append({"path": path, "heatmap": [status, kind, len(body), hashlib.sha256(body).hexdigest()],
                                  "nginx": [nginx_status, nginx_kind, len(nginx_body),
                                            hashlib.sha256(nginx_body).hexdigest()]})
    return {"tiles": count, "bytes": total, "differing": differing, "same": not differing}


def wrk(port, script, connections, duration, threads):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "10s", "-s", script,
         f"http://127.0.0.1:{port}"],
        capture_output=True, text=True, timeout=duration + 60, check=True).stdout
    result = wrk_result(output)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # wrk's own CPU per request: the client shares the cores, so a server that makes it work
    # harder (more reads, more segments) slows itself down too.
    wrk_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    result["wrk_cpu_us_per_request"] = round(1e6 * wrk_cpu / max(1, result["requests"]), 1)
    return result


DENSE_LUA = r"""
function request() return wrk.format("GET", "%(path)s") end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %%d, "seconds": %%.3f, "bytes": %%d, "socket_errors": %%d, "bad_status": %%d, ' ..
    '"p50_ms": %%.3f, "p90_ms": %%.3f, "p99_ms": %%.3f, "max_ms": %%.3f, "mean_ms": %%.3f}\n',
    summary.requests, summary.duration / 1e6, summary.bytes, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50) / 1e3, latency:percentile(90) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3,
    latency.mean / 1e3))
end
"""


def bench_tile(bench_binary, folder, zoom, tile, scale):
    """heatmap-bench's own time for the tile (total of its phases, medians of 5), in ms."""
    out = os.path.join(folder, "bench.json")
    subprocess.run([bench_binary, "--only", "tiles", "--zooms", str(zoom), "--sizes", "1000000", "--json", out],
                   capture_output=True, text=True, timeout=600, check=True)
    with open(out) as f:
        tiles = json.load(f)["tiles"]
    found = [t for t in tiles if t["tile"] in (tile, f"{tile}@{scale}x") and t["scale"] == scale]
    assert found, f"heatmap-bench measured no tile {tile}@{scale}x: {[t['tile'] for t in tiles]}"
    return found[0]


def render_counters(port):
    metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    count = re.search(r"^heatmap_tile_render_seconds_count (\d+)$", metrics, re.M)
    total = re.search(r"^heatmap_tile_render_seconds_sum ([0-9.e+-]+)$", metrics, re.M)
    return int(count.group(1)) if count else 0, float(total.group(1)) if total else 0.0


def dense(args):
    """The uncached dense tile: the server's cost per request and per render, and heatmap-bench's."""
    zoom, x, y, scale = 16, 14977, 27652, 2
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as folder:
        csv_path = os.path.join(folder, "points.csv")
        with open(args.points, "rb") as f, open(csv_path, "w") as out:
            out.write("lat,lng,weight\n")
            data = f.read()
            for lat, lng, weight in struct.iter_unpack("<3d", data):
                out.write(f"{lat!r},{lng!r},{weight!r}\n")
        path = f"/points/{zoom}/{x}/{y}@{scale}x.png"
        script = os.path.join(folder, "dense.lua")
        with open(script, "w") as f:
            f.write(DENSE_LUA % dict(path=path))
        bench_before = bench_tile(args.bench_binary, folder, zoom, f"{zoom}/{x}/{y}", scale)
        server = start(args.binary, args.port, 0, csv_path)
        runs = []
        try:
            for _ in range(600):  # M(z) of zoom 16 is made on the first request
                try:
                    if urllib.request.urlopen(f"http://127.0.0.1:{args.port}{path}", timeout=30).status == 200:
                        break
                except OSError:
                    time.sleep(0.2)
            for connections, threads in [(1, 1), (2 * cores, min(4, cores))]:
                load = load_average()
                renders0, seconds0 = render_counters(args.port)
                cpu = cpu_seconds(server.pid)
                result = wrk(args.port, script, connections, args.duration, threads)
                result["cpu_ms_per_request"] = round(1e3 * (cpu_seconds(server.pid) - cpu) / result["requests"], 3)
                renders1, seconds1 = render_counters(args.port)
                renders = renders1 - renders0
                result.update(connections=connections, threads=threads, load_average_before=load,
                              renders=renders, renders_per_s=round(renders / result["seconds"], 1),
                              mean_render_ms=round(1000 * (seconds1 - seconds0) / max(1, renders), 3),
                              ms_per_request_one_connection=round(1000 * result["seconds"] / result["requests"], 3))
                runs.append(result)
                print(f"dense c={connections:3}: {result['requests_per_s']:8.1f} req/s, {result['renders_per_s']:8.1f} "
                      f"renders/s, mean latency {result['mean_ms']:.2f} ms, mean render {result['mean_render_ms']:.2f} "
                      f"ms, CPU {result['cpu_ms_per_request']:.2f} ms/request, p99 {result['p99_ms']:.2f} ms, errors {result['socket_errors']}+{result['bad_status']}, "
                      f"load {load}", flush=True)
        finally:
            server.terminate()
            server.wait(timeout=30)
        bench_after = bench_tile(args.bench_binary, folder, zoom, f"{zoom}/{x}/{y}", scale)
    bench_ms = (bench_before["totalMs"] + bench_after["totalMs"]) / 2
    one = runs[0]
    report = {"benchmark": "heatmap serve, uncached dense tile, against heatmap-bench", "tile": path,
              "machine": {"cores": cores, "system": platform.platform()}, "duration_s": args.duration,
              "bench_total_ms_before": bench_before["totalMs"], "bench_total_ms_after": bench_after["totalMs"],
              "bench_tiles_per_s_all_cores": round(cores * 1000 / bench_ms, 1),
              "server_ms_per_request_one_connection": one["mean_ms"],
              "server_over_bench_per_tile": round(one["mean_ms"] / bench_ms, 3),
              "server_renders_per_s_all_cores": runs[1]["renders_per_s"],
              "server_requests_per_s_all_cores": runs[1]["requests_per_s"],
              "server_renders_over_bench_tiles_per_s": round(runs[1]["renders_per_s"] / (cores * 1000 / bench_ms), 3),
              "runs": runs}
    print(json.dumps({k: v for k, v in report.items() if k != "runs"}, indent=2))
    write_report(report, args.out)


def cpu_seconds(pid):
    """User and system CPU seconds of a process and its children still running (nginx's workers)."""
    total = 0.0
    pids = [pid] + [int(p) for p in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True,
                                                     text=True).stdout.split()]
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return total


def spread(values):
    """Smallest, median and largest."""
    return dict(min=round(min(values), 3), median=round(median(values), 3), max=round(max(values), 3))


def versus_nginx(runs, targets):
    """heatmap's cached requests/s, p99 and CPU per request over nginx's, per number of connections:
    the medians of the interleaved rounds over each other, and each round's pair (run one after the
    other, so in the same minute's load) with the spread of the pairs. The verdict is met when the
    medians' ratios and the median pair's reach the targets (requests/s at least, p99 at most)."""
    out = []
    for c in sorted({r["connections"] for r in runs if r["server"] == "nginx"}):
        h = [r for r in runs if r["server"] == "heatmap" and r["case"] == "cached" and r["connections"] == c]
        n = [r for r in runs if r["server"] == "nginx" and r["connections"] == c]
        row = dict(connections=c, rounds=len(n))
        for key in ["requests_per_s", "p99_ms", "p50_ms", "cpu_us_per_request"]:
            row["heatmap_" + key] = round(median([r[key] for r in h]), 2)
            row["nginx_" + key] = round(median([r[key] for r in n]), 2)
            row["heatmap_" + key + "_spread"] = spread([r[key] for r in h])
            row["nginx_" + key + "_spread"] = spread([r[key] for r in n])
            row[key + "_ratio"] = round(row["heatmap_" + key] / row["nginx_" + key], 3)
            pairs = [a[key] / b[key] for a in h for b in n if a["round"] == b["round"] and b[key] > 0]
            row[key + "_pair_ratios"] = [round(x, 3) for x in pairs]
            row[key + "_pair_spread"] = spread(pairs)
        row["meets_target"] = (
            row["requests_per_s_ratio"] >= targets[0] and row["requests_per_s_pair_spread"]["median"] >= targets[0]
            and row["p99_ms_ratio"] <= targets[1] and row["p99_ms_pair_spread"]["median"] <= targets[1])
        out.append(row)
        rps, p99 = row["requests_per_s_pair_spread"], row["p99_ms_pair_spread"]
        print(f"versus nginx, c={c} (medians of {len(n)}): requests/s x{row['requests_per_s_ratio']} "
              f"(pairs {rps['min']}-{rps['max']}), p99 x{row['p99_ms_ratio']} (pairs {p99['min']}-{p99['max']}), "
              f"CPU per request x{row['cpu_us_per_request_ratio']}: "
              f"{'meets' if row['meets_target'] else 'MISSES'} requests/s >= {targets[0]}, p99 <= {targets[1]}")
    return out


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
    parser.add_argument("--no-nginx", action="store_true", help="skip the nginx comparison")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved heatmap/nginx rounds (medians)")
    parser.add_argument("--target", default="1.0,1.0",
                        help="the verdict's requests/s ratio at least and p99 ratio at most (default 1.0,1.0)")
    parser.add_argument("--cached-only", action="store_true", help="skip the uncached runs")
    parser.add_argument("--dense", action="store_true", help="uncached dense tile against heatmap-bench")
    parser.add_argument("--points", default="/tmp/heatmap-data/points.f64", help="heatmap-bench --export's points")
    parser.add_argument("--bench-binary", default=".build/release/heatmap-bench")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    if args.empty_tiles:
        args.out = args.out or ".build/bench/serve-empty-tiles.json"
        return empty_tiles(args)
    if args.dense:
        args.out = args.out or ".build/bench/serve-dense.json"
        return dense(args)
    args.out = args.out or ".build/bench/serve-wrk.json"
    goal = [float(x) for x in args.target.split(",")]
    began = time.time()
    if not args.no_nginx and not shutil.which("nginx"):
        print("nginx not found: no comparison (Debian: apt-get install nginx)", flush=True)
        args.no_nginx = True
    threads = max(1, min(4, os.cpu_count() or 1))
    runs = []
    checked = None
    with tempfile.TemporaryDirectory() as folder:
        # Zoom 8 (36 tiles around Victoria) for the cached runs; zoom 10 (650 tiles) uncached.
        cases = [("cached", 512, dict(prefix="/police_stations", zoom=8, x0=228, x1=233, y0=154, y1=159)),
                 ("uncached", 0, dict(prefix="/police_stations", zoom=10, x0=913, x1=937, y0=620, y1=645))]
        if args.cached_only:
            cases = cases[:1]
        for name, cache_mb, tiles in cases:
            script = os.path.join(folder, f"{name}.lua")
            with open(script, "w") as f:
                f.write(LUA % tiles)
            server = start(args.binary, args.port, cache_mb)
            nginx = None
            try:
                if name == "cached":  # warm the cache
                    wrk(args.port, script, 4, 2, 1)
                    if not args.no_nginx:
                        nginx = start_nginx(folder, args.port + 1, args.port, tiles)
                        # The same bytes first: nginx is timed only when it sends heatmap's tiles.
                        checked = same_bytes(args.port, args.port + 1, tiles)
                        print(f"nginx sends heatmap's bytes on {checked['tiles'] - len(checked['differing'])} of "
                              f"{checked['tiles']} tiles ({checked['bytes']} bytes)", flush=True)
                        if not checked["same"]:
                            print(f"nginx answered other bytes, not timed: {checked['differing'][:3]}", flush=True)
                            nginx.terminate()
                            nginx.wait(timeout=30)
                            nginx = None
                        else:
                            wrk(args.port + 1, script, 4, 2, 1)
                for round_number in range(args.rounds if nginx else 1):
                    for connections in [int(c) for c in args.connections.split(",")]:
                        targets = [("heatmap", args.port, server.pid)]
                        targets += [("nginx", args.port + 1, nginx.pid)] if nginx else []
                        # Odd rounds go nginx first: neither server always runs right after the other.
                        targets = targets[::-1] if round_number % 2 else targets
                        for server_name, port, pid in targets:
                            load = load_average()
                            cpu = cpu_seconds(pid)
                            result = wrk(port, script, connections, args.duration, threads)
                            result["cpu_us_per_request"] = round(1e6 * (cpu_seconds(pid) - cpu) / result["requests"], 1)
                            result.update(case=name, server=server_name, cache_mb=cache_mb, connections=connections,
                                          threads=threads, zoom=tiles["zoom"], load_average_before=load,
                                          round=round_number)
                            runs.append(result)
                            print(f"{name:8} {server_name:7} c={connections:4}: {result['requests_per_s']:10.1f} "
                                  f"req/s, p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms, "
                                  f"{result['cpu_us_per_request']} us CPU/request (wrk {result['wrk_cpu_us_per_request']}), errors "
                                  f"{result['socket_errors']}+{result['bad_status']}, load {load}", flush=True)
                metrics = urllib.request.urlopen(f"http://127.0.0.1:{args.port}/metrics", timeout=5).read().decode()
                statuses = dict(re.findall(r'heatmap_http_requests_total\{route="tile",status="(\d+)"\} (\d+)', metrics))
                print(f"{name:8} tile answers by status over all runs: {statuses}", flush=True)
                for run in runs:
                    if run["case"] == name and run["server"] == "heatmap":
                        run["tile_statuses_all_runs_of_case"] = {k: int(v) for k, v in statuses.items()}
                health = urllib.request.urlopen(f"http://127.0.0.1:{args.port}/health", timeout=5).status
                assert health == 200, "the server stopped answering"
            finally:
                server.terminate()
                server.wait(timeout=30)
                if nginx:
                    nginx.terminate()
                    nginx.wait(timeout=30)
    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split("\n")[0]
    comparison = versus_nginx(runs, goal)
    report = {"benchmark": "heatmap serve under wrk on loopback", "tool": wrk_version.strip(),
              "machine": {"cores": os.cpu_count(), "system": platform.platform()},
              "command": " ".join(sys.argv), "duration_s": args.duration, "rounds": args.rounds,
              "target": {"requests_per_s_ratio_at_least": goal[0], "p99_ratio_at_most": goal[1]},
              "load_average_after": load_average(), "wall_s": round(time.time() - began, 1),
              "runs": runs, "versus_nginx": comparison, "nginx_same_bytes": checked}
    if comparison:
        report["meets_target"] = all(row["meets_target"] for row in comparison)
        print(f"verdict: {'meets' if report['meets_target'] else 'MISSES'} the target at every connection count "
              f"({report['wall_s']} s)")
    write_report(report, args.out)
    if args.into:
        with open(args.into) as f:
            bench = json.load(f)
        bench["server"] = report
        with open(args.into, "w") as f:
            json.dump(bench, f, indent=2, sort_keys=True)
        print(f"added to {args.into}")
    if checked and not checked["same"]:
        sys.exit(f"nginx answered other bytes than heatmap on {len(checked['differing'])} tiles: no time for it")


if __name__ == "__main__":
    main()

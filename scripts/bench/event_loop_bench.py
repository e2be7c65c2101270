#!/usr/bin/env python3
"""The server's two pollers side by side: `heatmap serve` with HEATMAP_EVENT_LOOP=epoll and =poll,
in interleaved rounds in one run, on cached tiles with wrk (serve_bench.py's request mix), in three
loads: 64 busy connections; 64 busy connections while 10,000 idle keep-alive connections are held
open (poll(2) hands every one of them to the kernel on every wait, epoll only the ready ones); and
10,000 busy connections. Writes JSON with each load's requests/s and p99, per round and as medians,
and poll's requests/s over epoll's.

    swift build -c release && python3 scripts/bench/event_loop_bench.py [--binary .build/release/heatmap]
        [--rounds 3] [--duration 8] [--out bench/results/event-loop.json]

Needs wrk and a descriptor limit above 20,500 (root may raise it; the script tries). Loopback only.
"""
import argparse
import os
import platform
import resource
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_bench import LUA  # noqa: E402
from wrk_bench import answers, load_average, median, write_report, wrk_result  # noqa: E402

IDLE = 10_000


def start(binary, backend, port):
    environment = dict(os.environ, HEATMAP_EVENT_LOOP=backend)
    server = subprocess.Popen(
        [binary, "serve", "Examples/police_stations.json", "--port", str(port), "--cache-mb", "64",
         "--max-connections", str(2 * IDLE + 1000), "--idle-timeout", "600", "--no-watch"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    if not answers(f"http://127.0.0.1:{port}/health"):
        server.kill()
        sys.exit(f"the {backend} server did not start")
    metrics = subprocess.run(["curl", "-s", f"http://127.0.0.1:{port}/metrics"], capture_output=True, text=True).stdout
    assert f'heatmap_event_loop_info{{backend="{backend}"}} 1' in metrics, f"the server does not run {backend}"
    return server


def hold_idle(port, count):
    """`count` keep-alive connections, each having had one request answered, left open and silent."""
    held = []
    request = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    for start_at in range(0, count, 500):
        batch = [socket.create_connection(("127.0.0.1", port)) for _ in range(min(500, count - start_at))]
        for s in batch:
            s.sendall(request)
        for s in batch:
            assert s.recv(4096).startswith(b"HTTP/1.1 200"), "an idle connection was not answered"
        held += batch
    return held


def wrk(port, lua, connections, duration):
    threads = min(2, connections)
    output = subprocess.run(
        ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{duration}s", "--timeout", "10s",
         "-s", lua, f"http://127.0.0.1:{port}"], capture_output=True, text=True, check=True).stdout
    return wrk_result(output)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=".build/release/heatmap")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=8)
    parser.add_argument("--port", type=int, default=18431)
    parser.add_argument("--out", default="bench/results/event-loop.json")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(hard, 2 * IDLE + 500), max(hard, 2 * IDLE + 500)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < IDLE + 500:
        sys.exit(f"the descriptor limit {resource.getrlimit(resource.RLIMIT_NOFILE)} is below {IDLE + 500}")
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(LUA % dict(prefix="/police_stations", zoom=8, x0=228, x1=235, y0=154, y1=161))
        lua = f.name
    loads = [("64 busy", 64, 0), (f"64 busy + {IDLE} idle", 64, IDLE), (f"{IDLE} busy", IDLE, 0)]
    rounds = {name: {"epoll": [], "poll": []} for name, _, _ in loads}
    try:
        for round_number in range(args.rounds):
            order = ["epoll", "poll"] if round_number % 2 == 0 else ["poll", "epoll"]
            for backend in order:
                server = start(args.binary, backend, args.port)
                try:
                    wrk(args.port, lua, 64, 2)  # every tile drawn once: the cache is warm
                    for name, connections, idle in loads:
                        held = hold_idle(args.port, idle) if idle else []
                        result = wrk(args.port, lua, connections, args.duration)
                        for s in held:
                            s.close()
                        rounds[name][backend].append(result)
                        print(f"round {round_number + 1} {backend:5} {name:22} {result['requests_per_s']:9.0f} req/s "
                              f"p99 {result['p99_ms']:7.2f} ms errors {result['socket_errors']}", flush=True)
                        time.sleep(1)
                finally:
                    server.terminate()
                    server.wait(timeout=30)
    finally:
        os.unlink(lua)
    summary = {}
    for name, by_backend in rounds.items():
        figures = {b: {"requests_per_s": median([r["requests_per_s"] for r in rs]),
                       "p99_ms": median([r["p99_ms"] for r in rs])} for b, rs in by_backend.items()}
        summary[name] = dict(figures, poll_over_epoll_requests=round(
            figures["poll"]["requests_per_s"] / figures["epoll"]["requests_per_s"], 3), poll_over_epoll_p99=round(
            figures["poll"]["p99_ms"] / figures["epoll"]["p99_ms"], 3))
        print(f"{name:22} poll/epoll requests/s {summary[name]['poll_over_epoll_requests']:.3f}, "
              f"p99 {summary[name]['poll_over_epoll_p99']:.3f}")
    report = {"benchmark": "heatmap serve, cached tiles: poll(2) over epoll", "machine": platform.platform(),
              "cores": os.cpu_count(), "load_average_after": load_average(), "rounds": args.rounds,
              "duration_s": args.duration, "summary": summary, "runs": rounds}
    write_report(report, args.out)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""M(z) of a large table, two builds against each other, interleaved zoom by zoom.

Each build is a `heatmap-bench` binary with the database it reads (its own table layout):
for every zoom, both run `--only postgres-maximum` for that zoom alone (the first of the
two swapping every zoom), and each is stopped once its kernel-bounded search has printed
its time (the weight-bounded search that follows is not measured), and its backends are
ended before the next search starts (they would go on with that search's statement). The table is the
benchmark's `heatmap_bench_serve` of `--rows` rows, imported by the build itself when it
has not that many.

    python3 bench/postgres_maximum_ab.py --before OLD/heatmap-bench --before-url URL1 \\
        --after .build/release/heatmap-bench --after-url URL2 --zooms 6,9,12,16 \\
        --out bench/results/postgres-maximum-ab.json
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time


def client_ports(pid):
    """The local TCP ports of the sockets process `pid` holds (its database connections)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                if fields[9] in inodes:
                    ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def end_backends(url, ports):
    """Ends the database backends of a stopped build's connections and waits until they are
    gone: a backend goes on with its statement (the weight-bounded search's) after its client
    is stopped, and would slow the next build's search."""
    if not ports:
        return
    listed = ",".join(str(p) for p in ports)
    condition = f"client_port IN ({listed}) AND client_addr IS NOT DISTINCT FROM '127.0.0.1'"
    subprocess.run(["psql", url, "-Atqc", f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE {condition}"],
                   check=True, stdout=subprocess.PIPE)
    for _ in range(600):
        left = subprocess.run(["psql", url, "-Atqc", f"SELECT count(*) FROM pg_stat_activity WHERE {condition}"],
                              check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
        if left == "0":
            return
        time.sleep(0.1)
    raise SystemExit(f"the backends of ports {listed} did not end")


def search(binary, url, rows, zoom):
    """Seconds and M(z) of one kernel-bounded search (a fresh process, so nothing cached)."""
    command = [binary, "--only", "postgres-maximum", "--postgres", url,
               "--postgres-maximum-rows", str(rows), "--postgres-zooms", str(zoom)]
    pattern = re.compile(r"postgres maximum M\((\d+)\) kernel: ([0-9.]+) s, ([0-9.e+]+)")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = None
    for line in process.stderr:
        sys.stderr.write(f"  {line}")
        match = pattern.search(line)
        if match and int(match.group(1)) == zoom:
            found = (float(match.group(2)), float(match.group(3)))
            break
    ports = client_ports(process.pid)
    process.terminate()
    process.wait(timeout=60)
    end_backends(url, ports)
    if found is None:
        raise SystemExit(f"{binary}: no kernel-bounded M({zoom}) printed")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True)
    parser.add_argument("--before-url", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--after-url", required=True)
    parser.add_argument("--rows", type=int, default=20_000_000)
    parser.add_argument("--zooms", default="6,9,12,16")
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    started = time.time()
    results = []
    for i, zoom in enumerate(int(z) for z in options.zooms.split(",")):
        order = ["before", "after"] if i % 2 == 0 else ["after", "before"]
        entry = {"zoom": zoom, "first": order[0]}
        for side in order:
            binary = getattr(options, side)
            url = getattr(options, f"{side}_url")
            seconds, value = search(binary, url, options.rows, zoom)
            entry[side] = {"seconds": seconds, "value": value}
            print(f"M({zoom}) {side}: {seconds:.1f} s, {value:.8g}", file=sys.stderr)
        entry["equal"] = abs(entry["before"]["value"] - entry["after"]["value"]) <= 1e-6 * entry["before"]["value"]
        results.append(entry)
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    report = {"rows": options.rows, "radius": 20, "scale": 1, "seconds": time.time() - started,
              "loadAverageAtEnd": load, "zooms": results}
    with open(options.out, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()

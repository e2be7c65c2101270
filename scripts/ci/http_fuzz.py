#!/usr/bin/env python3
"""Seeded mutational HTTP fuzzing of `heatmap serve`: tile requests whose numbers (max, radius,
opacity, gradient stops; z, x, y and the @Nx scale) are replaced by extremes (huge, tiny,
subnormal, negative, NaN, inf, hex, overlong digit strings, random doubles and floats), mixed
with valid requests, pipelined over keep-alive connections. After every batch of checks the
server must be alive and answer a known tile with the same bytes as at the start.

    swift build -c release --product heatmap
    python3 scripts/ci/http_fuzz.py --requests 1000000 [--seed 15] [--workers 2] [--out fuzz.json]

Prints a JSON summary (requests, answers by status, deaths, resets, unanswered requests,
known-tile mismatches, the server's resident memory) and exits 1 if the server died, reset or
closed a connection, left a request unanswered, answered 5xx or changed the known tile.
Standard library only; traffic goes to 127.0.0.1 only.
"""
import argparse
import os
import random
import struct
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_campaign import LAYER, known_tile_holds, run  # noqa: E402
from http_pipeline import Closed, PipelinedClient  # noqa: E402
EXTREMES = [
    "4e-45", "1e-45", "1.4e-45", "1e-300", "4.9e-324", "5e-324", "2.2250738585072014e-308", "1e-400", "0x1p-1074",
    "0x1.fffffffffffffp1023", "0x1p-149", "1e308", "1.7976931348623157e308", "1e309", "3.4028235e38",
    "3.4028234663852886e38", "1e38", "0", "-0", "0.0", "-0.0", "-1", "-1e-45", "-1e308", "nan", "NaN", "-nan",
    "inf", "-inf", "Infinity", "+inf", "0x", "0x1f", "1e", "e5", "+", "-", ".", "", "1_000", "١", "9223372036854775807",
    "9223372036854775808", "-9223372036854775809", "18446744073709551616", "000000000000000000000000000001",
    "10", "50", "9", "51", "20", "0.7", "1", "0.5", "2", "1e-7",
]
SCALES = ["", "", "", "@2x", "@3x", "@1x", "@9x", "@0x", "@-1x", "@2X", "@2"]
GRADIENTS = ["fire", "ice", "viridis", "classic", "default", "0000ff:0.2,ff0000:1"]


def number(rng):
    kind = rng.randrange(10)
    if kind == 0:
        return rng.choice("123456789") + "".join(rng.choice("0123456789") for _ in range(rng.randrange(8, 300)))
    if kind == 1:
        return "0." + "0" * rng.randrange(1, 400) + "1"
    if kind == 2:
        return repr(struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0])
    if kind == 3:
        return repr(struct.unpack("<f", struct.pack("<I", rng.getrandbits(32)))[0])
    if kind == 4:
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0].hex()
    if kind == 5:
        return str(rng.randrange(-(1 << 70), 1 << 70))
    return rng.choice(EXTREMES)


def quote(text):
    return urllib.parse.quote(text, safe="")


def valid_tile(rng):
    zoom = rng.randrange(0, 13)
    # Around Victoria, Australia: most tiles hold data, some are empty.
    n = 1 << zoom
    x = min(n - 1, int((145.0 + 180) / 360 * n) + rng.randrange(-2, 3))
    y = min(n - 1, int(0.6 * n) + rng.randrange(-2, 3))
    return str(zoom), str(max(0, x)), str(max(0, y))


def request(rng):
    """One tile path with query: a valid one (30%), else with extreme numbers put in."""
    z, x, y = valid_tile(rng)
    scale = rng.choice(["", "@2x"])
    query = {}
    if rng.random() < 0.3:
        if rng.random() < 0.3:
            query[rng.choice(["radius", "opacity", "max", "gradient"])] = rng.choice(
                ["30", "0.5", "auto", "3", rng.choice(GRADIENTS)])
    else:
        for _ in range(rng.randrange(1, 4)):
            where = rng.randrange(9)
            if where == 0:
                z = number(rng)
            elif where == 1:
                x = number(rng)
            elif where == 2:
                y = number(rng)
            elif where == 3:
                scale = rng.choice(SCALES) if rng.random() < 0.7 else "@" + quote(number(rng)) + "x"
            elif where == 4:
                z, x, y = rng.choice(["22", "23", "30", "62", "63", "64"]), number(rng), number(rng)
            else:
                name = rng.choice(["max", "radius", "opacity", "gradient"])
                if name == "gradient":
                    value = rng.choice([
                        f"0000ff:{number(rng)},ff0000:1", f"{number(rng)}:1", f"ff0000:{number(rng)}",
                        f"0000ff:0.2,ff0000:{number(rng)}", rng.choice(GRADIENTS)])
                else:
                    value = number(rng)
                query[name] = value
    path = f"/{LAYER}/{quote(z)}/{quote(x)}/{quote(y)}{scale}.png"
    if query:
        path += "?" + "&".join(f"{k}={quote(v)}" for k, v in query.items())
    return path


def worker(index, args, port, known, results):
    rng = random.Random(args.seed * 1000 + index)
    share = args.requests // args.workers + (1 if index < args.requests % args.workers else 0)
    summary = dict(requests=0, answered=0, statuses={}, resets=0, closed=0, unanswered=0, known_tile_mismatches=0,
                   checks=0, unreachable=0)
    client = None
    served_on_connection = 0
    since_check = 0
    while summary["requests"] < share:
        if client is None or served_on_connection >= 5000:  # the server closes after 10,000 a connection
            if client:
                client.close()
            try:
                client = PipelinedClient(port, timeout=args.timeout)
            except OSError:
                summary["unreachable"] += 1
                break
            served_on_connection = 0
        paths = [request(rng) for _ in range(min(args.batch, share - summary["requests"]))]
        summary["requests"] += len(paths)
        try:
            answers = client.batch(paths)
        except Closed as closed:
            summary["resets" if closed.reset else "closed"] += 1
            summary["unanswered"] += len(paths) - closed.answered
            summary["answered"] += closed.answered
            client.close()
            client = None
            continue
        served_on_connection += len(paths)
        summary["answered"] += len(answers)
        for status, _ in answers:
            summary["statuses"][str(status)] = summary["statuses"].get(str(status), 0) + 1
        since_check += len(paths)
        if since_check >= args.check_every:
            since_check = 0
            summary["checks"] += 1
            try:
                if not known_tile_holds(port, known, args.timeout):
                    summary["known_tile_mismatches"] += 1
            except (Closed, OSError):
                summary["known_tile_mismatches"] += 1
    if client:
        client.close()
    results.put(summary)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/release/heatmap")
    parser.add_argument("--data", default="Examples/police_stations.json")
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=32, help="requests pipelined at once on a connection")
    parser.add_argument("--check-every", type=int, default=5000, help="requests of a worker between checks")
    parser.add_argument("--cache-mb", type=int, default=64)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--out", help="also write the summary to this file")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    command = [args.binary, "serve", args.data, "--port", "0", "--cache-mb", str(args.cache_mb)]

    def summarize(summaries, workers, server, started, peak):
        total = dict(seed=args.seed, requests=0, answered=0, statuses={}, resets=0, closed=0, unanswered=0,
                     known_tile_mismatches=0, checks=0, unreachable=0)
        for s in summaries:
            for key in ["requests", "answered", "resets", "closed", "unanswered", "known_tile_mismatches", "checks",
                        "unreachable"]:
                total[key] += s[key]
            for status, count in s["statuses"].items():
                total["statuses"][status] = total["statuses"].get(status, 0) + count
        total["requests_planned"] = args.requests
        total["deaths"] = 1 if server.poll() is not None else 0
        total["worker_failures"] = workers - len(summaries)
        total["server_exit"] = server.returncode
        total["unexpected_statuses"] = sum(c for s, c in total["statuses"].items() if s not in ("200", "204", "400", "404"))
        total["seconds"] = round(time.monotonic() - started, 1)
        total["requests_per_second"] = round(total["requests"] / max(total["seconds"], 1e-9))
        total["cache_mb"] = args.cache_mb
        total["workers"] = args.workers
        return total

    total = run(command, args, worker, summarize)
    failed = (total["deaths"] or total["worker_failures"] or total["resets"] or total["closed"] or total["unanswered"] or total["unreachable"]
              or total["known_tile_mismatches"] or total["unexpected_statuses"]
              or total["answered"] != total["requests_planned"])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

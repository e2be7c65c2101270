#!/usr/bin/env python3
"""Seeded, bounded fuzzing of what `heatmap serve` trusts least (issue 23): hostile archives
(MBTiles, PMTiles, folders), hostile upstreams of URL layers (slow, redirecting, huge, lying
about length or type), hostile `--config` files, and request patterns that could grow memory.

    swift build -c release --product heatmap
    python3 scripts/ci/fuzz_hostile.py --binary .build/release/heatmap [--seed 7] [--archives 40]
        [--upstream-requests 400] [--configs 40] [--memory-requests 3000] [--out hostile.json]
        [--findings DIR]

Every case runs a real `heatmap serve` on 127.0.0.1 and checks what must hold whatever the
input: the server starts and answers, or refuses to start with a message (exit 1 or 2, never a
signal or a Swift `Fatal error`) within its bound; every request is answered within its bound
with a well-formed status (200 only with a PNG body of at most 16 MiB; never another file's
bytes); the server is alive at the end; its peak resident memory stays under --max-rss-mb; an
upstream never sends much more than the 16 MiB body limit per request and is never asked for
a redirect's target (same origin or another: a listener on 127.0.0.2 counts any visit). The
memory campaign sends many distinct settings (percentiles, radii, gradients, legend stops and
scales, static image sizes) and reports the resident memory before, during and after: every
per-request cache must be bounded. Prints a JSON summary; exits 1 on any fault, keeping the
case in --findings. Standard library only; traffic goes to the loopback only.
"""
import argparse
import gzip
import http.server
import json
import os
import random
import socket
import socketserver
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LIMIT = 16 << 20


def png(side=256, colour=(200, 30, 40, 255)):
    """A solid RGBA PNG (standard library: zlib through gzip's module is not needed)."""
    import zlib
    raw = b"".join(b"\0" + bytes(colour) * side for _ in range(side))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


TILE = png()


# ---------------------------------------------------------------- the server under test

class Server:
    """`heatmap serve ARGS --port 0` with its port from the banner, or its refusal."""

    def __init__(self, binary, args, start_timeout=20):
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen([binary, "serve", *args, "--port", "0", "--no-watch"],
                                        stdout=subprocess.PIPE, stderr=self.errors, text=True)
        self.port = None
        result = {}

        def banner():
            result["line"] = self.process.stdout.readline()
        reader = threading.Thread(target=banner, daemon=True)
        reader.start()
        reader.join(start_timeout)
        line = result.get("line")
        if line is None:
            self.hung = True
            return
        self.hung = False
        if ":" in line and line.strip().endswith("/"):
            try:
                self.port = int(line.rsplit(":", 1)[1].strip().strip("/"))
            except ValueError:
                self.port = None
        if self.port is None:
            try:
                self.process.wait(timeout=start_timeout)
            except subprocess.TimeoutExpired:
                self.hung = True

    def stderr(self):
        self.errors.seek(0)
        return self.errors.read()[-2000:]

    def get(self, path, timeout):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=timeout) as r:
                return r.status, r.headers.get("Content-Type", ""), r.read(LIMIT + 1)
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Content-Type", ""), e.read(LIMIT + 1)

    def rss_mb(self, field="VmHWM"):
        try:
            for line in open(f"/proc/{self.process.pid}/status"):
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None

    def stop(self):
        """SIGTERM, then the exit code (killed after 20 s)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def judge_start(server, name):
    """A fault when the server neither started nor refused cleanly."""
    if server.hung:
        return f"{name}: serve neither started nor exited within its bound"
    if server.port is None:
        code = server.process.returncode
        err = server.stderr()
        if code is None or code < 0 or "Fatal error" in err or not err.strip():
            return f"{name}: serve ended with {code} and {err[-300:]!r}"
    return None


def is_png(body):
    """A PNG's frame: the signature, an IHDR chunk first, IEND last (what every reader checks)."""
    return body.startswith(PNG_SIGNATURE) and body[12:16] == b"IHDR" and body.endswith(b"IEND\xaeB`\x82")


def judge_answer(name, path, status, kind, body, allowed):
    if status not in allowed:
        return f"{name}: {path} answered {status}"
    if status == 200 and path.endswith(".png") and (not is_png(body) or len(body) > LIMIT):
        return f"{name}: {path} answered 200 with {len(body)} bytes that are not a PNG within 16 MiB"
    if status == 200 and path.endswith(".png") and kind.split(";")[0] != "image/png":
        return f"{name}: {path} answered 200 as {kind}"
    return None


# ---------------------------------------------------------------- hostile archives

ENDLESS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n"


def mbtiles(path, rng):
    """An MBTiles file with one hostile twist (or none), and the tiles to ask for."""
    db = sqlite3.connect(path)
    twist = rng.choice(["plain", "types", "zeroblob", "endless-tiles", "endless-metadata", "huge-metadata",
                        "not-png", "corrupt", "no-tiles", "format"])
    meta = "CREATE TABLE metadata (name TEXT, value TEXT);"
    if twist == "endless-metadata":
        meta = f"CREATE VIEW metadata AS SELECT 'name' AS name, ({ENDLESS}) AS value;"
    elif twist == "huge-metadata":
        meta += "INSERT INTO metadata VALUES ('json', zeroblob(20000000)), ('name', 'big');"
    elif twist == "format":
        meta += "INSERT INTO metadata VALUES ('format', '" + rng.choice(["jpg", "pbf", "", "png\0"]) + "');"
    db.executescript(meta)
    db.executescript("CREATE TABLE stored (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, "
                     "tile_data BLOB);")
    values = [TILE, None, 42, 4.5, "text", b"\x01\x02", PNG_SIGNATURE + os.urandom(40), TILE[:60]]
    for y in range(4):
        value = TILE if twist == "plain" else rng.choice(values) if twist in ("types", "not-png") else TILE
        db.execute("INSERT INTO stored VALUES (2, ?, ?, ?)", (y, 3 - y, value))
    view = "CREATE VIEW tiles AS SELECT * FROM stored"
    if twist == "zeroblob":
        view += f" UNION ALL SELECT 2, 1, 1, zeroblob({rng.choice([LIMIT + 1, 900_000_000, 2_000_000_000])})"
    elif twist == "endless-tiles":
        view += f" UNION ALL SELECT 2, 2, 2, ({ENDLESS})"
    if twist != "no-tiles":
        db.executescript(view + ";")
    db.commit()
    db.close()
    if twist == "corrupt":
        data = bytearray(open(path, "rb").read())
        for _ in range(rng.randrange(1, 40)):
            data[rng.randrange(100, len(data))] = rng.randrange(256)
        open(path, "wb").write(bytes(data))
    return twist, [f"/2/{x}/{y}.png" for x in range(4) for y in range(4)]


def varint(value):
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def directory(entries):
    """(tile id, offset, length, run length) entries as PMTiles v3 stores them (uncompressed)."""
    out = varint(len(entries))
    last = 0
    for e in entries:
        out += varint(e[0] - last)
        last = e[0]
    for column in (3, 2):
        out += b"".join(varint(e[column]) for e in entries)
    out += b"".join(varint(e[1] + 1) for e in entries)
    return out


def pmtiles(path, rng):
    """A PMTiles v3 file of PNG tiles with one hostile twist (or none), and the tiles to ask for."""
    twist = rng.choice(["plain", "leaf-bomb", "many-entries", "self-leaf", "past-eof", "not-png", "huge-tile",
                        "header", "flips"])
    data = TILE if twist != "not-png" else b"root:x:0:0:root:/root:/bin/sh\n"
    leaves = b""
    root = [(0, 0, len(data), 1), (1, 0, len(data), 4)]  # z0 and z1
    if twist == "leaf-bomb":
        bomb = gzip.compress(varint(rng.choice([1 << 22, 1 << 26])) + bytes(rng.choice([9 << 20, 64 << 20])), 1)
        root.append((5, 0, len(bomb), 0))
        leaves = bomb
    elif twist == "many-entries":
        count = 300_000
        leaf = gzip.compress(directory([(5 + i, 0, len(data), 1) for i in range(count)]))
        root.append((5, 0, len(leaf), 0))
        leaves = leaf
    elif twist == "self-leaf":
        leaf = gzip.compress(directory([(5, 0, 1 << 20, 0)]))
        root.append((5, 0, len(leaf), 0))
        leaves = leaf
    elif twist == "huge-tile":
        root.append((5, 0, LIMIT + 1, 1))
        data = data + bytes(LIMIT + 1)
    root_bytes = gzip.compress(directory(root))
    metadata = gzip.compress(b'{"name": "hostile"}')
    offsets = [127, 127 + len(root_bytes)]
    offsets.append(offsets[1] + len(metadata))
    offsets.append(offsets[2] + len(leaves))
    lengths = [len(root_bytes), len(metadata), len(leaves), len(data)]
    if twist == "past-eof":
        lengths[rng.randrange(4)] += rng.choice([1, 1 << 20, 1 << 40])
    header = b"PMTiles\x03" + b"".join(struct.pack("<QQ", o, n) for o, n in zip(offsets, lengths))
    header += struct.pack("<QQQ", 7, len(root), 1) + bytes([1, 2, 1, 2, 0, 5])
    header += struct.pack("<iiii", -1800000000, -850511287, 1800000000, 850511287) + bytes([0])
    header += struct.pack("<ii", 0, 0)
    body = bytearray(header + root_bytes + metadata + leaves + data)
    if twist == "header":
        for _ in range(rng.randrange(1, 6)):
            body[rng.randrange(8, 127)] = rng.randrange(256)
    elif twist == "flips":
        for _ in range(rng.randrange(1, 30)):
            body[rng.randrange(len(body))] = rng.randrange(256)
    open(path, "wb").write(bytes(body))
    asks = ["/0/0/0.png", "/1/0/0.png", "/1/1/1.png"]
    asks += [f"/{z}/{x}/{y}.png" for z, x, y in ((2, 0, 0), (2, 1, 1), (3, 2, 2), (4, 5, 5))]
    return twist, asks


def folder(path, rng):
    """A tile folder with hostile entries, and the tiles to ask for."""
    os.makedirs(path)
    twists = []
    asks = []
    for y in range(8):
        tile = f"{path}/3/1/{y}.png"
        os.makedirs(os.path.dirname(tile), exist_ok=True)
        kind = rng.choice(["png", "png", "link-out", "proc", "dev", "fifo", "text", "huge", "link-in", "dir",
                           "loop", "missing-link"])
        twists.append(kind)
        if kind == "png":
            open(tile, "wb").write(TILE)
        elif kind == "link-out":
            os.symlink("/etc/passwd", tile)
        elif kind == "proc":
            os.symlink("/proc/self/environ", tile)
        elif kind == "dev":
            os.symlink(rng.choice(["/dev/zero", "/dev/urandom", "/dev/null"]), tile)
        elif kind == "fifo":
            os.mkfifo(tile)
        elif kind == "text":
            open(tile, "wb").write(b"<html>not a tile</html>")
        elif kind == "huge":
            with open(tile, "wb") as f:
                f.truncate(rng.choice([LIMIT + 1, 2 << 30]))
        elif kind == "link-in":
            open(f"{path}/3/1/real{y}", "wb").write(TILE)
            os.symlink(f"real{y}", tile)
        elif kind == "dir":
            os.makedirs(tile)
        elif kind == "loop":
            os.symlink(tile, tile)
        elif kind == "missing-link":
            os.symlink("/nonexistent/tile.png", tile)
        asks.append(f"/3/1/{y}.png")
    outside = tempfile.mkdtemp(prefix="heatmap-fuzz-outside-")
    open(f"{outside}/0.png", "wb").write(TILE)
    os.makedirs(f"{path}/4", exist_ok=True)
    os.symlink(outside, f"{path}/4/2")
    asks.append("/4/2/0.png")
    return "+".join(sorted(set(twists))), asks, outside


def archive_campaign(args, rng, faults, summary):
    work = tempfile.mkdtemp(prefix="heatmap-fuzz-archives-")
    kinds = {"mbtiles": 0, "pmtiles": 0, "folder": 0}
    refused = served = 0
    for case in range(args.archives):
        kind = ["mbtiles", "pmtiles", "folder"][case % 3]
        kinds[kind] += 1
        name = f"hostile{case}"
        outside = None
        if kind == "mbtiles":
            path = f"{work}/{name}.mbtiles"
            twist, asks = mbtiles(path, rng)
        elif kind == "pmtiles":
            path = f"{work}/{name}.pmtiles"
            twist, asks = pmtiles(path, rng)
        else:
            path = f"{work}/{name}"
            twist, asks, outside = folder(path, rng)
        label = f"archive {case} ({kind}, {twist})"
        begun = time.monotonic()
        server = Server(args.binary, [path])
        fault = judge_start(server, label)
        if server.port is None:
            refused += 1
        else:
            served += 1
            for ask in asks:
                started = time.monotonic()
                try:
                    status, kind_, body = server.get(f"/{name}{ask}", timeout=30)
                except Exception as error:  # a reset or a hang is a fault
                    fault = fault or f"{label}: {ask} failed: {error!r}"
                    break
                fault = fault or judge_answer(label, ask, status, kind_, body, {200, 204, 404, 500, 503})
                if time.monotonic() - started > 20:
                    fault = fault or f"{label}: {ask} took {time.monotonic() - started:.0f} s"
            peak = server.rss_mb()
            summary["archive_peak_rss_mb"] = max(summary.get("archive_peak_rss_mb", 0), peak or 0)
            if peak and peak > args.max_rss_mb:
                fault = fault or f"{label}: peak resident memory {peak:.0f} MiB"
            if server.process.poll() is not None:
                fault = fault or f"{label}: the server died: {server.stderr()[-300:]!r}"
        server.stop()
        print(f"{label}: {'refused' if server.port is None else 'served'} in {time.monotonic() - begun:.1f} s",
              file=sys.stderr)
        if fault:
            faults.append(fault)
            keep(args, f"archive-{case}", path)
        if outside:
            subprocess.run(["rm", "-rf", outside])
        subprocess.run(["rm", "-rf", path])
    summary["archives"] = {"cases": args.archives, "served": served, "refused": refused, **kinds}
    subprocess.run(["rm", "-rf", work])


# ---------------------------------------------------------------- hostile upstreams

class Upstream(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def upstream_handler(state, seed):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def send(self, data):
            try:
                self.wfile.write(data)
                self.wfile.flush()
                return True
            except OSError:
                return False

        def do_GET(self):
            with state["lock"]:
                state["requests"] += 1
            rng = random.Random(f"{seed}{self.path}")
            port = self.server.server_address[1]
            mode = rng.choice(["png", "png", "slow", "redirect", "redirect-away", "redirect-loop", "huge",
                               "huge-lying", "short-length", "long-length", "wrong-type", "html-as-png",
                               "trickle", "close", "garbage-status", "http10", "bad-chunks", "big-headers",
                               "wrong-size", "gzip-bomb"])
            if mode == "slow":
                time.sleep(rng.uniform(0.1, 3))
                mode = "png"
            if mode == "png":
                self.send(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\n\r\n" % len(TILE)
                          + TILE)
            elif mode.startswith("redirect"):
                code = rng.choice([301, 302, 303, 307, 308])
                target = {"redirect": "/png" + self.path,
                          "redirect-away": f"http://127.0.0.2:{state['away_port']}/stolen{self.path}",
                          "redirect-loop": self.path}[mode]
                time.sleep(rng.choice([0, 0.05, 0.3]))
                self.send(b"HTTP/1.1 %d Moved\r\nLocation: %s\r\nContent-Length: 0\r\n\r\n" % (code, target.encode()))
            elif mode in ("huge", "huge-lying"):
                head = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nConnection: close\r\n"
                if mode == "huge-lying":
                    head += b"Content-Length: 1000\r\n"
                if self.send(head + b"\r\n" + TILE):
                    chunk = bytes(1 << 16)
                    for _ in range((2 << 30) >> 16):
                        if not self.send(chunk):
                            break
                        with state["lock"]:
                            state["huge_bytes"] += len(chunk)
            elif mode == "short-length":
                self.send(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\nConnection: close"
                          b"\r\n\r\n" % (len(TILE) * 3) + TILE)
            elif mode == "long-length":
                self.send(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 100\r\n\r\n" + TILE)
            elif mode == "wrong-type":
                self.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(TILE)
                          + TILE)
            elif mode == "html-as-png":
                body = b"<html>root:x:0:0</html>"
                self.send(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\n\r\n" % len(body)
                          + body)
            elif mode == "trickle":
                self.send(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\n\r\n" % len(TILE))
                for i in range(0, len(TILE), 64):
                    time.sleep(0.05)
                    if not self.send(TILE[i:i + 64]):
                        break
            elif mode == "close":
                self.send(b"HTTP/1.1 200 OK\r\nContent-Ty")
            elif mode == "garbage-status":
                self.send(b"HTTP/1.1 2x0 What\r\n\r\n" + TILE)
            elif mode == "http10":
                self.send(b"HTTP/1.0 200 OK\r\nContent-Type: image/png\r\n\r\n" + TILE)
            elif mode == "bad-chunks":
                self.send(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n" + TILE)
            elif mode == "big-headers":
                self.send(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (1 << 20) + b"\r\nContent-Length: %d\r\n\r\n"
                          % len(TILE) + TILE)
            elif mode == "wrong-size":
                small = png(64)
                self.send(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\n\r\n" % len(small)
                          + small)
            elif mode == "gzip-bomb":
                bomb = gzip.compress(TILE + bytes(64 << 20), 1)
                self.send(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Encoding: gzip\r\n"
                          b"Content-Length: %d\r\n\r\n" % len(bomb) + bomb)
            self.close_connection = True

    return Handler


class Away(http.server.BaseHTTPRequestHandler):
    """The other origin a redirect points at: any visit is a fault."""
    visits = 0

    def log_message(self, *a):
        pass

    def do_GET(self):
        Away.visits += 1
        self.send_response(200)
        self.end_headers()


def upstream_campaign(args, rng, faults, summary):
    try:
        away = Upstream(("127.0.0.2", 0), Away)
    except OSError:
        away = Upstream(("127.0.0.1", 0), Away)
    threading.Thread(target=away.serve_forever, daemon=True).start()
    state = {"lock": threading.Lock(), "requests": 0, "huge_bytes": 0, "away_port": away.server_address[1]}
    seed = rng.randrange(1 << 30)
    upstream = Upstream(("127.0.0.1", 0), upstream_handler(state, seed))
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = upstream.server_address[1]
    layers = []
    for i in range(4):
        layers += ["--layer", f"u{i}=http://127.0.0.1:{port}/c{i}/{{z}}/{{x}}/{{y}}.png"]
    server = Server(args.binary, layers + ["--upstream-timeout", "2"])
    fault = judge_start(server, "upstreams") or (None if server.port else "upstreams: serve did not start")
    statuses = {}
    if not fault:
        asks = [f"/u{rng.randrange(4)}/{z}/{rng.randrange(1 << z)}/{rng.randrange(1 << z)}.png"
                for z in (rng.randrange(3, 12) for _ in range(args.upstream_requests))]
        lock = threading.Lock()
        problems = []

        def ask(batch):
            for path in batch:
                try:
                    status, kind, body = server.get(path, timeout=30)
                except Exception as error:
                    with lock:
                        problems.append(f"upstreams: {path} failed: {error!r}")
                    return
                problem = judge_answer("upstreams", path, status, kind, body, {200, 204, 500, 503})
                if status == 200 and body != TILE:
                    problem = problem or f"upstreams: {path} answered 200 with other bytes than the upstream's PNG"
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    if problem:
                        problems.append(problem)
        threads = [threading.Thread(target=ask, args=(asks[i::16],)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(600)
        fault = problems[0] if problems else None
        if server.process.poll() is not None:
            fault = fault or f"upstreams: the server died: {server.stderr()[-300:]!r}"
        peak = server.rss_mb()
        summary["upstream_peak_rss_mb"] = peak
        if peak and peak > args.max_rss_mb:
            fault = fault or f"upstreams: peak resident memory {peak:.0f} MiB"
    server.stop()
    time.sleep(1)
    huge_requests = max(1, statuses.get(503, 0))
    if state["huge_bytes"] > huge_requests * (2 * LIMIT + (16 << 20)):
        fault = fault or f"upstreams: huge bodies sent {state['huge_bytes'] >> 20} MiB: transfers did not stop"
    if Away.visits:
        fault = fault or f"upstreams: a redirect to another origin was followed {Away.visits} times"
    upstream.shutdown()
    away.shutdown()
    if fault:
        faults.append(fault)
    summary["upstreams"] = {"requests": args.upstream_requests, "statuses": {str(k): v for k, v in
                                                                            sorted(statuses.items())},
                            "upstream_requests": state["requests"], "huge_mib_sent": state["huge_bytes"] >> 20,
                            "other_origin_visits": Away.visits}


# ---------------------------------------------------------------- hostile --config files

HOSTILE_VALUES = [None, True, False, 0, -1, 1e308, -1e308, 1e-320, 2 ** 63, -(2 ** 63) - 1, 2 ** 64, "", "x" * 100_000,
                  "\u0000", "../../etc/passwd", "/dev/zero", "/proc/self/environ", "http://127.0.0.2:1/{z}/{x}/{y}.png",
                  "NaN", "Infinity", [], {}, [1, 2, 3], {"a": {"b": {"c": []}}}, "é" * 50, "%s%n", "{z}{x}{y}"]
SETTING_KEYS = ["radius", "opacity", "gradient", "radiusMeters", "maxIntensity", "colorScale", "maxPercentile",
                "aggregate", "value", "minDensity", "valueRange", "colorMapSize", "kernel", "weight"]


def config_case(rng, data):
    config = {"layers": [{"name": "police", "file": data, "radius": 20}], "upstreamTimeout": 1}
    for _ in range(rng.randrange(0, 3)):
        where = rng.randrange(6)
        value = rng.choice(HOSTILE_VALUES)
        if where == 0:
            config[rng.choice(["host", "port", "cacheMB", "cacheControl", "documentCacheControl", "cors",
                               "emptyTile", "watch", "attribution", "upstreamTimeout", "unknown"])] = value
        elif where == 1:
            config["layers"][0][rng.choice(SETTING_KEYS + ["name", "file", "url"])] = value
        elif where == 2:
            config.setdefault("defaults", {})[rng.choice(SETTING_KEYS)] = value
        elif where == 3:
            config["stacks"] = [{"name": rng.choice(["s", "", "police", "x" * 300]),
                                 "layers": rng.choice([["police", "police"], ["missing"], [], value])}]
        elif where == 4:
            config["layers"].append(rng.choice([{"name": "police"}, {"url": value}, {"file": value}, value]))
        else:
            config["layers"] = rng.choice([value, [value] * 3, []])
    text = json.dumps(config, allow_nan=True)
    mutation = rng.randrange(8)
    if mutation == 0:  # byte-level damage
        raw = bytearray(text.encode())
        for _ in range(rng.randrange(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw)
    if mutation == 1:  # deep nesting
        return ('{"layers": ' + "[" * 5000 + "]" * 5000 + "}").encode()
    if mutation == 2:  # duplicate keys
        return text.replace('"layers"', '"layers": [], "layers"', 1).encode()
    return text.encode()


def config_campaign(args, rng, faults, summary):
    work = tempfile.mkdtemp(prefix="heatmap-fuzz-config-")
    data = os.path.abspath(args.data)
    outcomes = {"served": 0, "refused": 0}
    for case in range(args.configs):
        path = f"{work}/config{case}.json"
        open(path, "wb").write(config_case(rng, data))
        server = Server(args.binary, ["--config", path])
        label = f"config {case}"
        fault = judge_start(server, label)
        if server.port is not None:
            outcomes["served"] += 1
            try:
                status, _, _ = server.get("/health", timeout=10)
                if status != 200:
                    fault = fault or f"{label}: /health answered {status}"
            except Exception as error:
                fault = fault or f"{label}: /health failed: {error!r}"
        else:
            outcomes["refused"] += 1
        server.stop()
        if fault:
            faults.append(fault)
            keep(args, f"config-{case}.json", path)
    summary["configs"] = {"cases": args.configs, **outcomes}
    subprocess.run(["rm", "-rf", work])


# ---------------------------------------------------------------- request patterns that grow memory

def memory_campaign(args, rng, faults, summary):
    server = Server(args.binary, [args.data, "--cache-mb", "64"])
    fault = judge_start(server, "memory") or (None if server.port else "memory: serve did not start")
    phases = {}
    if not fault:
        layer = os.path.splitext(os.path.basename(args.data))[0]
        server.get(f"/{layer}/6/57/39.png", timeout=30)
        phases["start_rss_mb"] = server.rss_mb("VmRSS")
        gradients = ["default", "fire", "ice", "viridis", "#ff0000,#00ff00", "0:#000000,1:#ffffff"]
        patterns = {
            "percentiles": lambda i: (f"/{layer}/{rng.choice(['6/57/39', '7/115/78'])}.png"
                                      f"?max-percentile={rng.uniform(0.001, 100):.6f}"),
            "legends": lambda i: (f"/{layer}/legend.png?z={rng.randrange(0, 23)}&scale={rng.randrange(1, 4)}"
                                  f"&stops={rng.randrange(2, 66)}&radius={rng.randrange(10, 51)}"),
            "combinations": lambda i: (f"/{layer}/{rng.choice(['6/57/39', '7/115/78', '8/231/157'])}.png?"
                                       f"radius={rng.randrange(10, 51)}&opacity={rng.random():.3f}"
                                       f"&gradient={urllib.request.quote(rng.choice(gradients))}"
                                       f"&color-scale={rng.choice(['linear', 'sqrt', 'log'])}"
                                       f"&radius-meters={rng.randrange(0, 5000)}"),
            "static": lambda i: (f"/static/{layer}/{rng.uniform(140, 150):.4f},{rng.uniform(-39, -34):.4f},"
                                 f"{rng.randrange(0, 14)}/{rng.randrange(1, 1025)}x{rng.randrange(1, 1025)}"
                                 f"{rng.choice(['', '@2x'])}.png?max-percentile={rng.uniform(1, 100):.4f}"),
        }
        for name, make in patterns.items():
            statuses = {}
            for i in range(args.memory_requests // len(patterns)):
                path = make(i)
                try:
                    status, _, _ = server.get(path, timeout=60)
                except Exception as error:
                    fault = fault or f"memory: {path} failed: {error!r}"
                    break
                statuses[status] = statuses.get(status, 0) + 1
                if status >= 500 and status != 503:
                    fault = fault or f"memory: {path} answered {status}"
            phases[name] = {"rss_mb": server.rss_mb("VmRSS"), "statuses": {str(k): v for k, v in statuses.items()}}
        phases["peak_rss_mb"] = server.rss_mb()
        growth = (phases["peak_rss_mb"] or 0) - (phases["start_rss_mb"] or 0)
        phases["growth_mb"] = round(growth, 1)
        if growth > args.max_growth_mb:
            fault = fault or f"memory: resident memory grew {growth:.0f} MiB over {args.memory_requests} requests"
        if server.process.poll() is not None:
            fault = fault or f"memory: the server died: {server.stderr()[-300:]!r}"
    server.stop()
    if fault:
        faults.append(fault)
    summary["memory"] = phases


def keep(args, name, path):
    if not args.findings:
        return
    os.makedirs(args.findings, exist_ok=True)
    subprocess.run(["cp", "-a", path, os.path.join(args.findings, name)], stderr=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/release/heatmap")
    parser.add_argument("--data", default="Examples/police_stations.json")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--archives", type=int, default=30)
    parser.add_argument("--upstream-requests", type=int, default=300)
    parser.add_argument("--configs", type=int, default=30)
    parser.add_argument("--memory-requests", type=int, default=2000)
    parser.add_argument("--max-rss-mb", type=float, default=600, help="the most a server may ever hold")
    parser.add_argument("--max-growth-mb", type=float, default=256, help="the most the memory campaign may add")
    parser.add_argument("--findings", default="hostile-fuzz-findings")
    parser.add_argument("--out")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    faults, summary = [], {"seed": args.seed}
    started = time.monotonic()
    for campaign in (archive_campaign, upstream_campaign, config_campaign, memory_campaign):
        begun = time.monotonic()
        campaign(args, rng, faults, summary)
        summary.setdefault("seconds", {})[campaign.__name__] = round(time.monotonic() - begun, 1)
    summary["seconds"]["total"] = round(time.monotonic() - started, 1)
    summary["faults"] = faults
    text = json.dumps(summary, indent=2)
    print(text)
    if args.out:
        open(args.out, "w").write(text + "\n")
    sys.exit(1 if faults else 0)


if __name__ == "__main__":
    main()

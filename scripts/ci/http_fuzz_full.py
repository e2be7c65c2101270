#!/usr/bin/env python3
"""Seeded mutational fuzzing of `heatmap serve` over the whole request: method, target, version,
header fields, pipelined sequences, chunked bodies (authorized DELETEs of points not in the layer), invalid UTF-8, NUL bytes, huge numbers in tile paths and
query parameters, `..`, encoded slashes and overlong percent-encodings, then byte-level
mutations (flips, deletions, duplications, splices) of the result.

    swift build -c release --product heatmap
    python3 scripts/ci/http_fuzz_full.py --requests 1000000 [--seed 1] [--workers 2] [--out fuzz.json]
        [--corpus DIR] [--findings DIR]

Each case is one loopback connection carrying 1-16 pipelined requests; the script sends them,
closes its write side and reads until the server closes. Every response must be a well-formed
HTTP/1.1 response (status line, Content-Length framing), no more responses than requests, no 5xx
but 503 and 505, and a target with `..`, an encoded slash, NUL or an overlong encoding never 200.
After every batch the server must be alive and answer a known tile with the bytes it gave at the
start. Cases whose answers look new (statuses and reasons not seen before) are kept in
`--corpus` (replayed by the Swift test HardeningFuzzCorpusTests from
Tests/HeatmapServerTests/Fixtures/http-corpus), and every case at fault in `--findings`. Prints
a JSON summary and exits 1 on any death, hang, reset, malformed response, 5xx, accepted
traversal or changed tile. Standard library only; traffic goes to 127.0.0.1 only.
"""
import argparse
import json
import os
import random
import re
import socket
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_campaign import LAYER, known_tile_holds, run  # noqa: E402
HUGE = ["9" * 40, "18446744073709551616", "9223372036854775808", "-9223372036854775809", "99999999",
        "100000000", "4294967296", "-1", "-0", "0x10", "1e3", "00000000000000000000007", "１", "٣", "1.0", "+1", ""]
TRAVERSAL = ["..", "%2e%2e", "%2E%2E", ".%2e", "%2F", "%2f", "..%2F..%2Fetc%2Fpasswd", "%C0%AE%C0%AE",
             "%C0%AF", "%E0%80%AE", "%c0%ae", "%00", "a%00b", "%5C", "..%5C", "%25%32%65", "%FF", "%C0", "%"]
TRAVERSAL_MARKS = re.compile(r"(^|/)\.\.(/|$|\?)|%2f|%5c|%00|%c0|%e0%80|%ff|(^|/)(%2e|\.)(%2e|\.)", re.I)
METHODS = ["GET"] * 60 + ["HEAD"] * 8 + ["OPTIONS"] * 4 + ["POST", "PUT", "DELETE", "TRACE", "CONNECT", "get",
                                                            "GE T", "G\x00T", "GET\t", "", "M" * 300, "PRI", "É"]
VERSIONS = ["HTTP/1.1"] * 60 + ["HTTP/1.0"] * 8 + ["HTTP/2.0", "HTTP/0.9", "HTTP/1.10", "http/1.1", "HTTP/1.1\x00",
                                                     "HTTP/1", "HTTP/9.9", "", "HTTP/1.1 extra", "HTTP/١.١"]
# The write token of the fuzzed server (a throwaway on loopback; not a secret): chunked bodies are
# read only for requests that carry it. HardeningFuzzCorpusTests starts its server with the same.
FUZZ_TOKEN = "fuzz-write-token-not-secret"
PARAMS = ["radius", "opacity", "max", "gradient", "color-map-size", "color-scale", "min-zoom-intensity",
          "max-zoom-intensity", "unknown", "", "radius%00", "r%C0%AEdius"]


def number(rng):
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice("123456789") + "".join(rng.choice("0123456789") for _ in range(rng.randrange(8, 400)))
    if kind == 1:
        return str(rng.randrange(-(1 << 80), 1 << 80))
    if kind == 2:
        return repr(rng.uniform(-1e300, 1e300))
    return rng.choice(HUGE)


def target(rng):
    """A target and whether it carries a traversal or an encoding that must be refused."""
    z, x, y = rng.randrange(0, 13), None, None
    n = 1 << z
    x = str(min(n - 1, max(0, int((145.0 + 180) / 360 * n) + rng.randrange(-2, 3))))
    y = str(min(n - 1, max(0, int(0.6 * n) + rng.randrange(-2, 3))))
    z = str(z)
    kind = rng.randrange(24)
    scale = rng.choice(["", "", "", "@2x", "@3x", "@1x", "@4x", "@0x", "@2X", "@", "@99999999999x"])
    if kind < 13:
        parts = [LAYER, z, x, y + scale + ".png"]
    elif kind == 13:
        parts = [rng.choice([LAYER, LAYER + "@2x", LAYER + "@3x", LAYER + "@9x", "nope", "", "."]) + ".json"]
    elif kind == 14:
        parts = [rng.choice(["catalog", "health", "metrics", "", "index.html", "leaflet", "favicon.ico"])]
    elif kind == 15:
        parts = ["static", LAYER, f"{number(rng) if rng.random() < .3 else '145.0'},-37.7,{z}",
                 f"{rng.choice(['480', number(rng)])}x{rng.choice(['270', number(rng)])}{scale}.png"]
    elif kind == 16:
        parts = [f"{LAYER}+{LAYER}" + "".join(f"+{LAYER}" for _ in range(rng.randrange(0, 20))), z, x, y + ".png"]
    elif kind == 17:
        parts = ["leaflet"] + [rng.choice(TRAVERSAL + ["etc", "passwd", "leaflet.js"]) for _ in range(rng.randrange(1, 5))]
    else:
        parts = [LAYER, z, x, y + scale + ".png"]
        for _ in range(rng.randrange(1, 3)):
            i = rng.randrange(len(parts))
            choice = rng.randrange(4)
            if choice == 0:
                parts[i] = number(rng) + (".png" if i == 3 else "")
            elif choice == 1:
                parts[i] = rng.choice(TRAVERSAL) + (".png" if i == 3 and rng.random() < .5 else "")
            elif choice == 2:
                parts.insert(i, rng.choice(TRAVERSAL))
            else:
                parts[i] = parts[i] + rng.choice(TRAVERSAL)
    path = "/" + "/".join(parts)
    if rng.random() < 0.4:
        items = []
        for _ in range(rng.randrange(1, 6)):
            name = rng.choice(PARAMS)
            value = rng.choice([number(rng), "30", "0.5", "auto", "fire", "log", "sqrt", "0000ff:0.2,ff0000:1",
                                rng.choice(TRAVERSAL), "%C0%AE", "%FF%FE", "%00", "a+b", "%2B", "=", "&"])
            items.append(f"{name}={value}" if rng.random() < .9 else name)
        path += "?" + "&".join(items)
    if rng.random() < 0.03:
        path = rng.choice(["http://127.0.0.1", "https://h", "HTTP://x:1"]) + path
    if rng.random() < 0.02:
        path = rng.choice(["*", "", "noslash", "//", "/" * 50, "/#frag", "/%", "/%zz"])
    return path, bool(TRAVERSAL_MARKS.search(path.split("?", 1)[0]))


def headers(rng, method):
    fields = []
    if rng.random() < 0.95:
        fields.append(("Host", "127.0.0.1" if rng.random() < .9 else rng.choice(
            ["127.0.0.1:8080", "h", "", "[::1]:80", "a" * 300, "x y", "évil", "host\x00"])))
    if rng.random() < 0.05:
        fields.append(("Host", "second"))
    pool = [
        ("Connection", ["close", "keep-alive", "Keep-Alive, close", "upgrade", "", "close, close"]),
        ("Content-Length", ["0", "5", "-1", "18446744073709551616", "1,1", "1, 2", " 3", "0x10", "99999999999"]),
        ("Transfer-Encoding", ["chunked", "gzip, chunked", "identity", ""]),
        ("If-None-Match", ['"x"', "*", 'W/"a"', '"' + "a" * 1000 + '"', ""]),
        ("Accept-Encoding", ["gzip", "gzip;q=0", "*", "br, gzip;q=0.5", "gzip;q=" + "9" * 50, ""]),
        ("Origin", ["null", "http://127.0.0.1:1", "", "x" * 500]),
        ("Access-Control-Request-Method", ["GET", "POST", "", "G\x01"]),
        ("Access-Control-Request-Headers", ["authorization", "a, b, c", "x" * 3000, "bad header", ",,,"]),
        ("User-Agent", ["fuzz", "\xff\xfe", "é" * 100, "a\x00b"]),
        ("X-Filler", ["b" * rng.choice([1, 100, 5000, 40000])]),
        ("Expect", ["100-continue"]),
        ("Range", ["bytes=0-10", "bytes=-1"]),
    ]
    for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 4])):
        name, values = rng.choice(pool)
        fields.append((name, rng.choice(values)))
    if method == "OPTIONS" and rng.random() < .7:
        fields += [("Origin", "http://127.0.0.1:1"), ("Access-Control-Request-Method", "GET"),
                   ("Access-Control-Request-Headers", "authorization")]
    if rng.random() < 0.02:
        fields += [(f"X-{i}", "y") for i in range(rng.randrange(90, 130))]
    lines = [f"{n}: {v}" for n, v in fields]
    if rng.random() < 0.03:
        lines.append(rng.choice([" folded", "NoColon", ": empty name", "Bad Name: v", "X:\x7f", "X: a\rb"]))
    return lines


def one_request(rng):
    method = rng.choice(METHODS)
    path, traversal = target(rng)
    version = rng.choice(VERSIONS)
    line = f"{method} {path} {version}" if rng.random() > 0.02 else rng.choice(["GET", "GET /", "", " " * 10])
    eol = "\r\n" if rng.random() > 0.03 else "\n"
    text = eol.join([line] + headers(rng, method)) + eol + eol
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.02:
        data += b"x" * rng.randrange(1, 10)  # a body
    return data, traversal


def chunked_request(rng):
    """A DELETE /{layer}/points with a chunked body of points not in the layer (so 400 and nothing
    changed, the known tile stays), chunked at random, with extensions, trailers, bare LFs, wrong or
    huge sizes, bad hex, bodies cut short."""
    body = b"lat,lng,weight\n" + b"".join(
        b"%.5f,%.5f,%d\n" % (rng.uniform(-80, 80), rng.uniform(-179, 179), rng.randrange(1, 9))
        for _ in range(rng.randrange(1, 30)))
    chunks, i = [], 0
    while i < len(body):
        n = rng.choice([1, 2, 7, 64, 1000, len(body)])
        chunks.append(body[i:i + n])
        i += n
    eol = b"\r\n" if rng.random() > 0.1 else b"\n"
    out = []
    for chunk in chunks:
        size = len(chunk)
        fault = rng.random()
        if fault < 0.03:
            size += rng.choice([-1, 1, 1000])
        head = rng.choice([b"%x" % max(size, 0), b"%X" % max(size, 0), b"%08x" % max(size, 0)])
        if fault > 0.97:
            head = rng.choice([b"g", b"", b"-1", b"0x10", b"FFFFFFFFFFFFFFFFF", b"99999999999", b" 5", b"5 x"])
        if rng.random() < 0.1:
            head += rng.choice([b";a", b";a=b", b' ; name="q"', b";" + b"e" * 5000, b";\x01"])
        out.append(head + eol + chunk + eol)
    last = b"0" + eol
    if rng.random() < 0.2:
        last += rng.choice([b"X-Trailer: 1", b"no colon", b" folded: x", b"X: " + b"t" * 40000]) + eol
    out.append(last + eol)
    data = b"".join(out)
    if rng.random() < 0.05:
        data = data[:rng.randrange(len(data))]  # cut short: the server sees the end of the stream
    coding = rng.choice(["chunked"] * 8 + ["Chunked", "gzip, chunked", "chunked, identity"])
    version = rng.choice(["HTTP/1.1"] * 9 + ["HTTP/1.0"])
    head = (f"DELETE /{LAYER}/points {version}\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {FUZZ_TOKEN}\r\n"
            f"Content-Type: text/csv\r\nTransfer-Encoding: {coding}\r\n\r\n")
    return head.encode() + data


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 5)):
        if not data:
            break
        i = rng.randrange(len(data))
        kind = rng.randrange(7)
        if kind == 0:
            data[i] = rng.randrange(256)
        elif kind == 1:
            data[i] = rng.choice(b"\x00\t\n\r %/?#:@\x7f\x80\xc0\xff")
        elif kind == 2:
            del data[i]
        elif kind == 3:
            data[i:i] = bytes([rng.choice(b"\x00\r\n%\xc0\xae\xff")])
        elif kind == 4:
            data[i:i] = data[i:i + rng.randrange(1, 40)]
        elif kind == 5:
            data[i:i] = rng.choice([b"%C0%AE", b"%2F", b"/..", b"\xc0\xae", b"\xed\xa0\x80", b"%00", b"\r\n\r\n"])
        else:
            del data[i:i + rng.randrange(1, 20)]
    return bytes(data)


def case(rng):
    """A connection's bytes, the requests in it, and whether its only request must be refused."""
    count = rng.choice([1, 1, 1, 2, 3, 4, 8, 16])
    parts = []
    traversal = False
    for i in range(count):
        if i < count - 1 and rng.random() < 0.8:  # pipelines mostly of plain requests, then the odd one
            z = rng.randrange(0, 13)
            x, y = min((1 << z) - 1, int(325 / 360 * (1 << z))), min((1 << z) - 1, int(0.6 * (1 << z)))
            method = rng.choice(["GET"] * 6 + ["HEAD"])
            query = rng.choice(["", "", "?radius=30", "?gradient=fire", "?max=auto&opacity=0.5"])
            parts.append(f"{method} /{LAYER}/{z}/{x}/{y}{rng.choice(['', '@2x'])}.png{query} HTTP/1.1\r\n"
                         f"Host: 127.0.0.1\r\n\r\n".encode())
            continue
        if rng.random() < 0.06:
            parts.append(chunked_request(rng))
            continue
        data, bad = one_request(rng)
        traversal = traversal or bad
        parts.append(data)
    data = b"".join(parts)
    mutated = rng.random() < 0.25
    if mutated:
        data = mutate(rng, data)
    return data, count, traversal and count == 1 and not mutated, mutated


STATUS = re.compile(rb"HTTP/1\.1 ([1-5][0-9][0-9]) [^\r\n]*\r\n")


def responses(raw):
    """The statuses and reasons in a byte stream of responses, or a string saying what is malformed."""
    out = []
    i = 0
    while i < len(raw):
        m = STATUS.match(raw, i)
        if not m:
            return f"no status line at byte {i}: {raw[i:i + 40]!r}"
        end = raw.find(b"\r\n\r\n", i)
        if end < 0:
            return "a head without its end"
        head = raw[i:end].decode("latin-1").split("\r\n")
        length = 0
        for line in head[1:]:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                if not value.strip().isdigit():
                    return f"Content-Length {value!r}"
                length = int(value)
        status = int(m.group(1))
        body_start = end + 4
        if status in (204, 304) or STATUS.match(raw, body_start) or body_start == len(raw):
            length = 0  # no body, or a HEAD answer: the length of a body it does not send
        if body_start + length > len(raw):
            return f"a body cut short ({len(raw) - body_start} of {length} bytes)"
        body = raw[body_start:body_start + length]
        out.append((status, body[:60].decode("utf-8", "replace") if status >= 400 else ""))
        i = body_start + length
    return out


def exchange(port, data, timeout):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    chunks = []
    try:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        while True:
            chunk = sock.recv(1 << 16)
            if not chunk:
                return b"".join(chunks), None
            chunks.append(chunk)
    except ConnectionResetError:
        return b"".join(chunks), "reset"
    except BrokenPipeError:
        return b"", "reset"
    except socket.timeout:
        return b"", "hang"
    finally:
        sock.close()


def worker(index, args, port, known, results):
    rng = random.Random(args.seed * 1000 + index)
    share = args.requests // args.workers + (1 if index < args.requests % args.workers else 0)
    s = dict(requests=0, cases=0, responses=0, statuses={}, hangs=0, resets=0, malformed=0, excess=0, server_errors=0,
             traversal_cases=0, traversals_accepted=0, known_tile_mismatches=0, checks=0, kept=0, findings=0)
    seen = set()
    since_check = 0
    while s["requests"] < share:
        data, count, must_refuse, mutated = case(rng)
        s["requests"] += count
        s["cases"] += 1
        s["traversal_cases"] += must_refuse
        raw, failure = exchange(port, data, args.timeout)
        fault = None
        if failure:
            s["hangs" if failure == "hang" else "resets"] += 1
            fault = failure
        else:
            answers = responses(raw)
            if isinstance(answers, str):
                s["malformed"] += 1
                fault = "malformed: " + answers
            else:
                s["responses"] += len(answers)
                for status, _ in answers:
                    s["statuses"][str(status)] = s["statuses"].get(str(status), 0) + 1
                if len(answers) > count and not mutated:  # mutations may make more requests
                    s["excess"] += 1
                    fault = "more responses than requests"
                if any(st >= 500 and st not in (503, 505) for st, _ in answers):
                    s["server_errors"] += 1
                    fault = "5xx"
                if must_refuse and answers and answers[0][0] == 200:
                    s["traversals_accepted"] += 1
                    fault = "a traversal answered 200"
                signature = tuple((st, re.sub(r"[0-9]+", "N", reason)) for st, reason in answers[:3])
                if args.corpus and signature not in seen and s["kept"] < args.keep:
                    seen.add(signature)
                    s["kept"] += 1
                    keep(args.corpus, f"w{index}-{s['cases']}", data, must_refuse)
        if fault and args.findings:
            s["findings"] += 1
            keep(args.findings, f"w{index}-{s['cases']}", data, must_refuse, fault)
        since_check += count
        if since_check >= args.check_every:
            since_check = 0
            s["checks"] += 1
            try:
                if not known_tile_holds(port, known, args.timeout):
                    s["known_tile_mismatches"] += 1
            except Exception:
                s["known_tile_mismatches"] += 1
                break
    results.put(s)


def keep(directory, name, data, must_refuse, fault=None):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name + ".http"), "wb") as f:
        f.write(data)
    if must_refuse or fault:
        with open(os.path.join(directory, name + ".json"), "w") as f:
            json.dump({"refused": must_refuse, "fault": fault}, f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/release/heatmap")
    parser.add_argument("--data", default="Examples/police_stations.json")
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--check-every", type=int, default=5000, help="requests of a worker between checks")
    parser.add_argument("--timeout", type=float, default=20, help="seconds a case may take")
    parser.add_argument("--corpus", help="keep cases with new answers here")
    parser.add_argument("--keep", type=int, default=150, help="at most this many corpus cases a worker")
    parser.add_argument("--findings", default="http-fuzz-findings", help="keep the cases at fault here")
    parser.add_argument("--out", help="also write the summary to this file")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    # A throwaway write token, so that the chunked DELETE cases reach the body parser.
    token = tempfile.NamedTemporaryFile(mode="w", suffix=".token")
    token.write(FUZZ_TOKEN + "\n")
    token.flush()
    command = [args.binary, "serve", args.data, "--port", "0", "--cache-mb", "64", "--no-watch",
               "--max-connections", "4096", "--write-token-file", token.name]

    def summarize(summaries, workers, server, started, peak):
        total = dict(seed=args.seed, statuses={})
        for s in summaries:
            for key, value in s.items():
                if key == "statuses":
                    for status, n in value.items():
                        total["statuses"][status] = total["statuses"].get(status, 0) + n
                else:
                    total[key] = total.get(key, 0) + value
        total.update(requests_planned=args.requests, deaths=1 if server.poll() is not None else 0,
                     worker_failures=workers - len(summaries), seconds=round(time.monotonic() - started, 1),
                     workers=args.workers)
        total["requests_per_second"] = round(total.get("requests", 0) / max(total["seconds"], 1e-9))
        return total

    total = run(command, args, worker, summarize)
    failed = any(total.get(k) for k in ["deaths", "worker_failures", "hangs", "resets", "malformed", "excess",
                                         "server_errors", "traversals_accepted", "known_tile_mismatches"])
    failed = failed or total.get("requests", 0) < args.requests
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

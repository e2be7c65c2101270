#!/usr/bin/env python3
"""Mutation campaign over the point readers, through the release `heatmap` binary.

Every input is generated from the seed alone (input i from seed and i), so a run is
reproducible whatever --jobs is. A share of the inputs are VALID files of every format (JSON,
CSV, TSV, GeoJSON, NDJSON), gzipped or not, from a file or standard input, with a known number
of points; the rest are those files mutated (bytes flipped, set, inserted, deleted, repeated,
tokens spliced in, cut short, before or after gzip), and a share of the gzipped ones are valid
files with bytes appended after the gzip data that are neither another member nor zero padding
(a plain file of the same format, random bytes, a lone 1f). Each input goes through `heatmap
info --json` and `heatmap tile`, and the run counts:

  crashes   an exit other than 0, 1 or 64 (a signal included)
  hangs     a run that outlives --timeout
  losses    a valid file whose points are not all read (info's pointsRead), or that fails; or
            bytes appended after the gzip data read without an error (they were dropped)
  unnamed   an exit 1 whose message does not name the file (`heatmap: PATH...` or <stdin>)

It prints a JSON summary and exits 1 if any count is not zero; the inputs at fault are kept
under --keep. Python 3 standard library only.

    swift build -c release --product heatmap
    python3 scripts/ci/fuzz_data.py --count 50000 --seed 1 --jobs 2
"""

import argparse
import concurrent.futures
import gzip
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

FORMATS = ["json", "csv", "tsv", "geojson", "ndjson"]
TOKENS = [
    b'"', b'""', b",", b"\t", b"\n", b"\r\n", b"\r", b"{", b"}", b"[", b"]", b":", b"\\", b"\\u", b"\\ud83d",
    b"-", b"+", b".", b"e", b"E", b"e309", b"1e-400", b"0", b"-0", b"NaN", b"nan", b"inf", b"Infinity",
    b"null", b"true", b"91", b"-90.0000001", b"1e38", b"3.5e38", b"179.99999999", b"\xef\xbb\xbf", b"\x00",
    b"\xff", b"\xc3", b"9" * 400, b"1" + b"0" * 320, b'"lat"', b'"lng"', b'"weight"', b'"type"',
    b'"Feature"', b'"Point"', b'"MultiPoint"', b'"coordinates"', b'"features"', b'"geometry"',
    b'"GeometryCollection"', b"lat,lng", b"\x1f\x8b",
]


# ---------------------------------------------------------------- valid files


def number(rng, low, high):
    """A decimal in low...high, written one of several ways; returns (text, value)."""
    value = rng.uniform(low, high)
    style = rng.randrange(6)
    if style == 0:
        value = float(round(value))
        text = str(int(value))
    elif style == 1:
        text = f"{value:.{rng.randrange(1, 9)}f}"
    elif style == 2:
        text = f"{value:.6e}"
    elif style == 3:
        text = repr(value)
    elif style == 4:
        text = f"{value:.3f}".rstrip("0")
        if text.endswith("."):
            text += "0"
    else:
        text = f"{value:.5f}"
    return text, float(text)


def point(rng):
    """A valid point's texts: latitudes to the poles, longitudes beyond ±180, weights from 0."""
    lat, _ = number(rng, -89.9, 89.9)
    lng, _ = number(rng, -179.9, 179.9)
    weight, _ = number(rng, 0, 1000)
    edge = rng.random()
    if edge < 0.02:
        lat = rng.choice(["90", "-90", "85.06", "-89.999999", "0", "-0", "1e-300"])
    elif edge < 0.04:
        lng = rng.choice(["180", "-180", "540.5", "-100000", "1e5", "359.999"])
    elif edge < 0.06:
        weight = rng.choice(["0", "0.0", "1e-30", "1e33", "123456789"])
    return lat, lng, weight


def csv_number(rng, text):
    """A CSV cell's number in a form only CSV accepts: a plus sign, `.5`, `5.`, spaces."""
    style = rng.random()
    if style < 0.03 and not text.startswith("-"):
        return "+" + text
    if style < 0.06 and text.startswith("0."):
        return text[1:]
    if style < 0.09 and text.isdigit():
        return text + "."
    if style < 0.12:
        return " " + text + " "
    return text


def csv_file(rng, delimiter):
    """A CSV or TSV file: header, rows, and how many points it holds."""
    count = rng.choice([1, 2, 3, 5, 10, 40, 200]) if rng.random() > 0.01 else rng.randrange(20_000, 60_000)
    lat_name = rng.choice(["lat", "latitude", "LAT", "y", "Latitude"])
    lng_name = rng.choice(["lng", "lon", "long", "longitude", "x", "LNG"])
    weighted = rng.random() < 0.5
    extras = rng.randrange(3)
    names = [lat_name, lng_name] + (["weight"] if weighted else []) + [f"c{i}" for i in range(extras)]
    rng.shuffle(names)
    line_end = rng.choice(["\n", "\r\n"])
    quote_all = rng.random() < 0.2

    def cell(text):
        if quote_all or rng.random() < 0.05:
            return '"' + text.replace('"', '""') + '"'
        return text

    lines = [delimiter.join(cell(n) for n in names)]
    for _ in range(count):
        lat, lng, weight = point(rng)
        values = {lat_name: csv_number(rng, lat), lng_name: csv_number(rng, lng), "weight": csv_number(rng, weight)}
        row = []
        for n in names:
            if n in values:
                row.append(cell(values[n]))
            else:
                row.append(rng.choice(["", "a", 'say "hi"', "x" * rng.randrange(0, 50), "line\nbreak", "c,d"]))
        # Free text with a delimiter or a newline must be quoted.
        row = [c if not any(ch in c for ch in (delimiter, "\n", '"')) or c.startswith('"') else
               '"' + c.replace('"', '""') + '"' for c in row]
        if rng.random() < 0.03:
            row.append("extra")  # fields beyond the header's are ignored
        lines.append(delimiter.join(row))
        if rng.random() < 0.05:
            lines.append("")
    text = line_end.join(lines)
    if rng.random() < 0.6:
        text += line_end
    if rng.random() < 0.1:
        text = "\ufeff" + text
    return text.encode(), count


def position(rng):
    lat, lng, _ = point(rng)
    extra = ", 12.5" if rng.random() < 0.1 else ""
    return f"[{lng}, {lat}{extra}]"


def geometry(rng, depth=0):
    """A Point, MultiPoint or GeometryCollection and its positions."""
    kind = rng.choice(["Point", "Point", "MultiPoint", "GeometryCollection" if depth < 2 else "Point"])
    if kind == "Point":
        return f'{{"type": "Point", "coordinates": {position(rng)}}}', 1
    if kind == "MultiPoint":
        n = rng.randrange(1, 6)
        return '{"type": "MultiPoint", "coordinates": [' + ", ".join(position(rng) for _ in range(n)) + "]}", n
    parts = [geometry(rng, depth + 1) for _ in range(rng.randrange(1, 4))]
    return '{"type": "GeometryCollection", "geometries": [' + ", ".join(p for p, _ in parts) + "]}", sum(
        n for _, n in parts)


def feature(rng):
    shape, n = geometry(rng)
    properties = rng.choice(["{}", '{"name": "a \\"b\\" \\u00e9"}', f'{{"weight": {point(rng)[2]}}}', "null"])
    extra = rng.choice(["", "", ', "id": 7', ', "bbox": [1, 2, 3, 4]', ', "id": "a\\u0041"'])
    return f'{{"type": "Feature", "geometry": {shape}, "properties": {properties}{extra}}}', n


def plain_object(rng):
    lat, lng, weight = point(rng)
    keys = [(rng.choice(["lat", "latitude", "Lat"]), lat), (rng.choice(["lng", "lon", "long", "longitude"]), lng)]
    if rng.random() < 0.5:
        keys.append((rng.choice(["weight", "intensity"]), weight))
    if rng.random() < 0.3:
        keys.append(("name", '"x\\n\\"y\\""'))
    if rng.random() < 0.2:
        keys.append(("nested", '{"lat": "ignored", "a": [1, 2, {"b": null}]}'))
    rng.shuffle(keys)
    quote = rng.random() < 0.1
    return "{" + ", ".join(f'"{k}": ' + (f'"{v}"' if quote and k.lower() in ("lat", "lng") else str(v))
                           for k, v in keys) + "}"


def json_file(rng, kind):
    count = rng.choice([1, 2, 3, 10, 50]) if rng.random() > 0.01 else rng.randrange(5_000, 20_000)
    pretty = rng.random() < 0.3
    sep = ",\n  " if pretty else rng.choice([",", ", ", ",\r\n"])
    if kind == "json":
        records = [plain_object(rng) for _ in range(count)]
        if count > 1 and rng.random() < 0.1:
            # Several arrays one after another, and an empty one.
            cut = rng.randrange(1, count)
            text = "[" + sep.join(records[:cut]) + "]\n[]\t[" + sep.join(records[cut:]) + "]"
        else:
            text = "[" + sep.join(records) + "]"
        total = count
    elif kind == "geojson":
        features = [feature(rng) for _ in range(count)]
        total = sum(n for _, n in features)
        if count == 1 and rng.random() < 0.3:
            text = features[0][0]
        elif count == 1 and rng.random() < 0.3:
            text, total = geometry(rng)  # a bare geometry
        else:
            text = '{"type": "FeatureCollection", "features": [' + sep.join(f for f, _ in features) + "]}"
    else:
        total = 0
        lines = []
        for _ in range(count):
            if rng.random() < 0.5:
                lines.append(plain_object(rng))
                total += 1
            else:
                f, n = feature(rng)
                lines.append(f)
                total += n
        text = rng.choice(["\n", "\r\n", "\n\n", "\n \t\n"]).join(lines)
        count = len(lines)
    if rng.random() < 0.6:
        text += "\n"
    return text.encode(), total


def valid_file(rng, fmt):
    if fmt == "csv":
        return csv_file(rng, ",")
    if fmt == "tsv":
        return csv_file(rng, "\t")
    return json_file(rng, fmt)


def compress(rng, data):
    """gzip, as one member or several."""
    if len(data) > 2 and rng.random() < 0.2:
        cut = rng.randrange(1, len(data))
        return gzip.compress(data[:cut], mtime=0) + gzip.compress(data[cut:], mtime=0)
    return gzip.compress(data, compresslevel=rng.choice([1, 6, 9]), mtime=0)


# ---------------------------------------------------------------- mutations


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
        n = len(data)
        op = rng.randrange(9)
        i = rng.randrange(n + 1) if n else 0
        if op == 0 and n:
            data[min(i, n - 1)] ^= 1 << rng.randrange(8)
        elif op == 1 and n:
            data[min(i, n - 1)] = rng.choice(b'\x00\xff",\t\n\r{}[]:-e.\\0 9"')
        elif op == 2:
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        elif op == 3 and n:
            j = min(n, i + rng.randrange(1, 32))
            del data[i:j]
        elif op == 4 and n:
            j = min(n, i + rng.randrange(1, 64))
            times = rng.choice([2, 10, 1000, 20_000]) if j - i < 64 else 2
            data[i:i] = bytes(data[i:j]) * min(times, 2_000_000 // max(1, j - i))
        elif op == 5:
            data[i:i] = rng.choice(TOKENS)
        elif op == 6 and n:
            del data[i:]
        elif op == 7 and n:
            j = min(n, i + rng.randrange(1, 16))
            data[i:j] = rng.choice(TOKENS)
        elif op == 8:
            token = rng.choice([b'""', b'"', b"\\\"", b",", b"\n", b"[", b"{\"a\":"])
            data[i:i] = token * rng.choice([100, 10_000, 200_000])
    return bytes(data)


# ---------------------------------------------------------------- one input


def trailing_bytes(rng, fmt):
    """Bytes to append after a complete gzip member that are not another member and not only
    zeros: a plain file of the same format (two files joined), random bytes, or a lone 1f."""
    kind = rng.randrange(3)
    if kind == 0:
        data = valid_file(rng, fmt)[0]
    elif kind == 1:
        data = bytes(rng.randrange(256) for _ in range(rng.choice([1, 2, 7, 100, 5000])))
    else:
        data = b"\x1f"
    if data.startswith(b"\x1f\x8b") or not data.strip(b"\x00"):
        data = b"x" + data
    return data


def tile_for(rng, lat, lng):
    zoom = rng.randrange(0, 23)
    n = 2 ** zoom
    x = int((lng + 180) / 360 * n) % n
    s = math.sin(math.radians(max(-85.0511, min(85.0511, lat))))
    y = int((0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n)
    return f"{zoom}/{x}/{min(max(y, 0), n - 1)}" + rng.choice(["", "", "@2x", "@3x"])


def make_case(seed, index):
    """The input of case `index`: bytes, name, flags and what a valid one holds."""
    rng = random.Random(seed * 1_000_003 + index)
    fmt = FORMATS[index % len(FORMATS)]
    data, points = valid_file(rng, fmt)
    valid = rng.random() < 0.2
    gzipped = rng.random() < 0.3
    # Drawn apart, so that the other inputs of a seed stay what they were.
    extra = random.Random((seed * 1_000_003 + index) ^ 0x7A11)
    trailing = gzipped and extra.random() < 0.2
    if trailing:
        data = compress(extra, data) + trailing_bytes(extra, fmt)  # must be an error, not a silent drop
        valid = False
    elif not valid and gzipped and rng.random() < 0.5:
        data = mutate(rng, compress(rng, data))  # the compressed bytes mutated
    else:
        if not valid:
            data = mutate(rng, data)
        if gzipped:
            data = compress(rng, data)
    stdin = rng.random() < 0.1
    by_content = not stdin and rng.random() < 0.1
    name = f"case{index}." + ("data" if by_content else fmt) + (".gz" if gzipped and not by_content else "")
    # A file named .data is detected by its content; standard input too, unless named.
    flags = ["--data-format", fmt] if stdin and rng.random() < 0.5 else []
    if not valid and rng.random() < 0.3:
        flags.append("--skip-invalid")
    tile = "0/0/0" if rng.random() < 0.3 else tile_for(rng, rng.uniform(-85, 85), rng.uniform(-180, 180))
    return {"index": index, "format": fmt, "valid": valid, "points": points if valid else None, "gzipped": gzipped,
            "trailing": trailing, "stdin": stdin, "name": name, "flags": flags, "tile": tile, "data": data}


def run(binary, arguments, data, stdin, timeout):
    try:
        done = subprocess.run([binary] + arguments, input=data if stdin else None,
                              stdin=None if stdin else subprocess.DEVNULL, capture_output=True, timeout=timeout)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return None, b"", b""


def check(case, binary, folder, timeout):
    """Runs one case; returns (exit codes, problems)."""
    path = os.path.join(folder, case["name"])
    with open(path, "wb") as f:
        f.write(case["data"])
    source = "-" if case["stdin"] else path
    shown = "<stdin>" if case["stdin"] else path
    output = path + ".png"
    problems = []
    codes = []
    for command in (["info", source, "--json"], ["tile", source, case["tile"], "--output", output]):
        code, out, err = run(binary, command + case["flags"], case["data"], case["stdin"], timeout)
        codes.append(code)
        what = command[0]
        if code is None:
            problems.append(("hangs", what, "no exit within the timeout"))
            continue
        if code not in (0, 1, 64):
            problems.append(("crashes", what, f"exit {code}: {err[-300:].decode(errors='replace')}"))
            continue
        message = err.decode(errors="replace")
        if code == 1 and not message.startswith(f"heatmap: {shown}"):
            problems.append(("unnamed", what, message[:300]))
        if case["trailing"] and code == 0:
            problems.append(("losses", what, "bytes after the gzip data were read without an error"))
        if case["valid"]:
            if code != 0:
                problems.append(("losses", what, f"a valid file failed: {message[:300]}"))
            elif what == "info":
                try:
                    read = json.loads(out)["pointsRead"]
                except (ValueError, KeyError, TypeError):
                    read = None
                if read != case["points"]:
                    problems.append(("losses", what, f"{read} points read of {case['points']}"))
    for leftover in (path, output):
        if os.path.exists(leftover):
            os.remove(leftover)
    return codes, problems


# ---------------------------------------------------------------- campaign


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=50_000, help="inputs (default 50000)")
    parser.add_argument("--seed", type=int, default=1, help="the campaign's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="inputs run at once")
    parser.add_argument("--binary", default=".build/release/heatmap", help="the heatmap executable")
    parser.add_argument("--timeout", type=float, default=20, help="seconds a run may take before it is a hang")
    parser.add_argument("--keep", default="fuzz-findings", help="folder for the inputs at fault")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"fuzz_data.py: no executable {args.binary} (swift build -c release --product heatmap)")
    binary = os.path.abspath(args.binary)
    folder = tempfile.mkdtemp(prefix="heatmap-fuzz-")
    counts = {"crashes": 0, "hangs": 0, "losses": 0, "unnamed": 0}
    inputs = {"valid": 0, "mutated": 0, "gzipped": 0, "trailing": 0, "stdin": 0, "byFormat": {f: 0 for f in FORMATS}}
    exits = {}
    findings = []
    lock = threading.Lock()
    started = time.monotonic()

    def one(index):
        case = make_case(args.seed, index)
        codes, problems = check(case, binary, folder, args.timeout)
        with lock:
            inputs["valid" if case["valid"] else "mutated"] += 1
            inputs["gzipped"] += case["gzipped"]
            inputs["trailing"] += case["trailing"]
            inputs["stdin"] += case["stdin"]
            inputs["byFormat"][case["format"]] += 1
            for code in codes:
                key = "timeout" if code is None else str(code)
                exits[key] = exits.get(key, 0) + 1
            for kind, command, detail in problems:
                counts[kind] += 1
                if len(findings) < 100:
                    os.makedirs(args.keep, exist_ok=True)
                    kept = os.path.join(args.keep, f"{kind}-seed{args.seed}-{case['name']}")
                    with open(kept, "wb") as f:
                        f.write(case["data"])
                    findings.append({"kind": kind, "command": command, "case": index, "file": kept,
                                     "flags": case["flags"], "tile": case["tile"], "stdin": case["stdin"],
                                     "detail": detail})

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for done, _ in enumerate(pool.map(one, range(args.count)), 1):
                if done % 5000 == 0:
                    print(f"fuzz_data.py: {done} of {args.count} inputs, {counts}", file=sys.stderr)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    summary = {"seed": args.seed, "count": args.count, "jobs": args.jobs, "timeoutSeconds": args.timeout,
               "seconds": round(time.monotonic() - started, 1), "inputs": inputs, "runs": sum(exits.values()),
               "exits": dict(sorted(exits.items())), **counts, "findings": findings}
    print(json.dumps(summary, indent=2))
    sys.exit(1 if any(counts.values()) else 0)


if __name__ == "__main__":
    main()

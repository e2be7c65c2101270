"""What the server benchmarks (serve_bench.py, uncached_bench.py) share: start `heatmap serve` on
a loopback port, wait for an answer, read the RESULT line their wrk scripts print, the load
average, medians, and the JSON report written out. Standard library only.
"""
import json
import os
import subprocess
import time
import urllib.request


def start_heatmap(binary, data, port, cache_mb, *flags):
    """`heatmap serve DATA --port PORT --cache-mb N --max-connections 2048 [FLAGS]`, its output on a pipe."""
    return subprocess.Popen(
        [binary, "serve", data, "--port", str(port), "--cache-mb", str(cache_mb), "--max-connections", "2048",
         *flags], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def answers(url, attempts=100, pause=0.1):
    """Whether `url` answers 200 within `attempts` tries, `pause` seconds apart."""
    for _ in range(attempts):
        try:
            if urllib.request.urlopen(url, timeout=1).status == 200:
                return True
        except OSError:
            time.sleep(pause)
    return False


def wrk_result(output):
    """The JSON of the `RESULT {...}` line a wrk script's done() writes, with requests_per_s."""
    line = next(l for l in output.splitlines() if l.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    result["requests_per_s"] = round(result["requests"] / result["seconds"], 1)
    return result


def load_average():
    return [round(x, 2) for x in os.getloadavg()]


def median(values):
    values = sorted(values)
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def write_report(report, path):
    """Writes the report as indented JSON (folders made as needed) and says so."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    print(f"wrote {path}")

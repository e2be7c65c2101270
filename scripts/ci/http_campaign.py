"""The campaign driver shared by the HTTP fuzzers (http_fuzz.py, http_fuzz_full.py): start
`heatmap serve` on a free loopback port, read the known tile, run the workers in processes while
watching the server's memory, stop the server, print and save the JSON summary. Standard library
only; traffic goes to 127.0.0.1 only.
"""
import json
import multiprocessing
import subprocess
import sys
import tempfile
import time

from http_pipeline import PipelinedClient, peak_rss_mb, rss_mb

LAYER = "police_stations"
KNOWN = f"/{LAYER}/6/57/39.png"


def start_server(command, errors):
    """Starts `command` (a `heatmap serve … --port 0`) and reads the port from its banner."""
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
    banner = server.stdout.readline()  # heatmap: serving police_stations on http://127.0.0.1:PORT/
    try:
        port = int(banner.rsplit(":", 1)[1].strip().strip("/"))
    except (IndexError, ValueError):
        server.kill()
        sys.exit(f"the server did not start: {banner!r}")
    return server, port


def known_tile_holds(port, known, timeout):
    """True when the server answers /health and the known tile with the bytes `known`; a lost
    connection raises, as PipelinedClient does."""
    check = PipelinedClient(port, timeout=timeout)
    try:
        (health, _), (status, body) = check.batch(["/health", KNOWN])
    finally:
        check.close()
    return health == 200 and status == 200 and body == known


def run(command, args, worker, summarize):
    """Runs one campaign: `worker(index, args, port, known, results)` in `args.workers` processes,
    each putting its summary dict on `results`; then `summarize(summaries, workers, server,
    started, peak)` (the server still running, its peak resident MiB so far) gives the total.
    Prints the total as JSON (with the tail of the server's standard error if it died), writes it
    to `args.out` when given, and returns it."""
    errors = tempfile.TemporaryFile(mode="w+")
    server, port = start_server(command, errors)
    started = time.monotonic()
    try:
        check = PipelinedClient(port, timeout=args.timeout)
        [(status, known)] = check.batch([KNOWN])
        check.close()
        if status != 200:
            sys.exit(f"the known tile {KNOWN} answered {status}")
        results = multiprocessing.Queue()
        workers = [multiprocessing.Process(target=worker, args=(i, args, port, known, results))
                   for i in range(args.workers)]
        for w in workers:
            w.start()
        summaries, peak = [], 0.0
        while len(summaries) < len(workers):
            try:
                summaries.append(results.get(timeout=1))
            except Exception:  # queue.Empty: look at the server meanwhile
                pass
            peak = max(peak, rss_mb(server.pid) or 0)
            if server.poll() is not None or not any(w.is_alive() for w in workers) and results.empty():
                break
        for w in workers:
            w.join(timeout=60)
        total = summarize(summaries, len(workers), server, started, peak)
        total["server_rss_mb"] = rss_mb(server.pid)
        total["server_peak_rss_mb"] = peak_rss_mb(server.pid)
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=30)
    if total["deaths"]:
        errors.seek(0)
        total["server_stderr_tail"] = errors.read()[-2000:]
    text = json.dumps(total, indent=2, sort_keys=True)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return total

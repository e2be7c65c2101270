#!/usr/bin/env python3
"""Tests the documentation: runs the commands README and docs/ mark as runnable, checks every relative link, and
that the generated reference sections match the build.

usage: python3 scripts/docs/doctest.py [--binary .build/release/heatmap] [--timeout 120] [--links-only]

- A fenced block whose info string is `sh doctest` is run as one bash script (`set -e`, each block under
  --timeout seconds) in a fresh temporary folder that holds `Examples/`, `Tests/` and `scripts/` of this repository (and an empty `docs/`), with
  `heatmap` (and `swift run [-c release] heatmap`) meaning the built binary. Mark only commands that run on data in
  the repository and need no network, database or root.
- A block whose info string is `sh doctest-serve` holds one `heatmap serve` command: it is started with a free
  `--port`, must answer `/health` with `ok` within the timeout, a tile of each layer it lists in `/catalog`, and is
  then stopped with SIGTERM and must exit 0.
- Every relative link and image in README.md, CHANGELOG.md, CONTRIBUTING.md and docs/**/*.md must name a file of the
  repository, and a `#fragment` a heading of that page.
- README.md is at most 15 KB and links to docs/README.md, the index, which links to every page under docs/.
- scripts/docs/references.py --check: commands.md and metrics.md as the build writes them.
Exits 1 naming each failure.
"""
import argparse
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.M | re.S)
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def pages():
    found = [os.path.join(ROOT, p) for p in ("README.md", "CHANGELOG.md", "CONTRIBUTING.md")]
    found += sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    return [p for p in found if os.path.exists(p)]


def rel(path):
    return os.path.relpath(path, ROOT)


def slug(heading):
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    text = FENCE.sub("", open(path).read())
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def check_links(failures):
    checked = 0
    for page in pages():
        text = FENCE.sub("", open(page).read())
        text = re.sub(r"`[^`\n]*`", "", text)
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue
            checked += 1
            path, _, fragment = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            if not os.path.exists(full):
                failures.append(f"{rel(page)}: link to {target}: no such file")
            elif fragment and full.endswith(".md") and fragment not in anchors(full):
                failures.append(f"{rel(page)}: link to {target}: no heading #{fragment} in {rel(full)}")
    return checked


def check_readme(failures):
    readme = os.path.join(ROOT, "README.md")
    size = os.path.getsize(readme)
    if size > 15 * 1024:
        failures.append(f"README.md: {size} bytes, more than 15 KB")
    text = open(readme).read()
    linked = {os.path.normpath(os.path.join(ROOT, m.group(1).partition("#")[0])) for m in LINK.finditer(text)}
    index = os.path.join(ROOT, "docs", "README.md")
    if os.path.normpath(index) not in linked:
        failures.append("README.md: no link to docs/README.md, the documentation's index")
    listed = {os.path.normpath(os.path.join(ROOT, "docs", m.group(1).partition("#")[0]))
              for m in LINK.finditer(open(index).read())} if os.path.exists(index) else set()
    for page in glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True):
        if os.path.normpath(page) not in listed and os.path.normpath(page) != os.path.normpath(index):
            failures.append(f"docs/README.md: no link to {rel(page)}")
    # README's M(z) table is made from bench/results by the script, never by hand.
    table = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench", "maximum_table.py"), "--readme",
                            "--check"], capture_output=True, text=True)
    if table.returncode != 0:
        failures.append(table.stderr.strip() or table.stdout.strip())


def blocks(kind):
    for page in pages():
        text = open(page).read()
        for m in FENCE.finditer(text):
            info = m.group(1).split()
            if len(info) >= 2 and info[1] == kind:
                line = text[: m.start()].count("\n") + 1
                yield f"{rel(page)}:{line}", m.group(2)


def sandbox(binary):
    folder = tempfile.mkdtemp(prefix="heatmap-doctest-")
    for name in ("Examples", "Tests", "scripts"):
        os.symlink(os.path.join(ROOT, name), os.path.join(folder, name))
    os.mkdir(os.path.join(folder, "docs"))  # pictures commands write, never the repository's
    os.mkdir(os.path.join(folder, ".bin"))
    os.symlink(binary, os.path.join(folder, ".bin", "heatmap"))
    return folder


def normalise(script):
    return re.sub(r"swift run (-c release )?heatmap", "heatmap", script)


def run_blocks(binary, timeout, failures):
    ran = 0
    for where, script in blocks("doctest"):
        folder = sandbox(binary)
        env = dict(os.environ, PATH=os.path.join(folder, ".bin") + os.pathsep + os.environ["PATH"])
        started = time.monotonic()
        try:
            out = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", normalise(script)], cwd=folder, env=env,
                                 capture_output=True, text=True, timeout=timeout)
            if out.returncode != 0:
                failures.append(f"{where}: exit {out.returncode}: {out.stderr.strip()[-400:]}")
        except subprocess.TimeoutExpired:
            failures.append(f"{where}: did not finish in {timeout} s")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        ran += 1
        print(f"doctest: {where} in {time.monotonic() - started:.1f} s")
    return ran


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read()


def run_serves(binary, timeout, failures):
    ran = 0
    for where, script in blocks("doctest-serve"):
        command = normalise(script.split("#")[0]).split()
        if command[:2] != ["heatmap", "serve"]:
            failures.append(f"{where}: a doctest-serve block holds one heatmap serve command")
            continue
        folder = sandbox(binary)
        port = free_port()
        server = subprocess.Popen([binary] + command[1:] + ["--port", str(port)], cwd=folder,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        started = time.monotonic()
        try:
            base = f"http://127.0.0.1:{port}"
            while True:
                try:
                    status, body = get(base + "/health")
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() - started > timeout:
                        raise RuntimeError("did not answer /health")
                    time.sleep(0.1)
            if body.strip() != b"ok":
                raise RuntimeError(f"/health answered {body[:80]!r}")
            catalog = json.loads(get(base + "/catalog")[1])
            layers = catalog.get("layers", catalog) if isinstance(catalog, dict) else catalog
            for layer in layers:
                url = layer["tiles"][0].replace("{z}", "0").replace("{x}", "0").replace("{y}", "0")
                status, _ = get(url.replace(url.split("/")[2], f"127.0.0.1:{port}", 1))
                if status not in (200, 204):
                    raise RuntimeError(f"{url}: {status}")
            server.send_signal(signal.SIGTERM)
            if server.wait(timeout=30) != 0:
                raise RuntimeError(f"exit {server.returncode} after SIGTERM")
        except (RuntimeError, OSError, ValueError, KeyError) as error:
            failures.append(f"{where}: {error}")
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
            shutil.rmtree(folder, ignore_errors=True)
        ran += 1
        print(f"doctest: {where} (serve) in {time.monotonic() - started:.1f} s")
    return ran


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "heatmap"))
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--links-only", action="store_true")
    args = parser.parse_args()
    failures = []
    links = check_links(failures)
    check_readme(failures)
    ran = 0
    if not args.links_only:
        binary = os.path.abspath(args.binary)
        if not os.access(binary, os.X_OK):
            sys.exit(f"doctest: no binary at {binary} (swift build -c release)")
        ran = run_blocks(binary, args.timeout, failures) + run_serves(binary, args.timeout, failures)
        references = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "docs", "references.py"),
                                     "--binary", binary, "--check"], capture_output=True, text=True)
        if references.returncode != 0:
            failures.append(references.stderr.strip() or references.stdout.strip())
    for failure in failures:
        print(f"doctest: {failure}", file=sys.stderr)
    print(f"doctest: {links} relative links, {ran} blocks run, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the generated parts of docs/reference/commands.md (every subcommand's --help) and
docs/reference/metrics.md (every metric /metrics prints, with its type and help) from the built command.

usage: python3 scripts/docs/references.py [--binary .build/release/heatmap] [--check]

With --check nothing is written: the script exits 1 and names the page when the page and the build differ
(scripts/docs/doctest.py runs it so, so a flag or metric added without its page fails CI).
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
COMMANDS = ["tile", "info", "image", "render", "serve", "import"]
BEGIN = "<!-- BEGIN GENERATED: {} -->"
END = "<!-- END GENERATED -->"


def commands_section(binary):
    parts = []
    for name in COMMANDS:
        out = subprocess.run([binary, name, "--help"], capture_output=True, text=True, timeout=60)
        text = (out.stdout or out.stderr).rstrip()
        if out.returncode not in (0,) or not text:
            sys.exit(f"references: heatmap {name} --help failed ({out.returncode}): {out.stderr.strip()}")
        parts += [f"### heatmap {name}", "", "```text", text, "```", ""]
    return "\n".join(parts)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def metrics_section(binary):
    port = free_port()
    data = os.path.join(ROOT, "Examples", "police_stations.json")
    server = subprocess.Popen([binary, "serve", data, "--port", str(port), "--no-watch"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        text = None
        for _ in range(300):
            try:
                base = f"http://127.0.0.1:{port}"
                urllib.request.urlopen(base + "/police_stations/6/57/39.png", timeout=5).read()
                text = urllib.request.urlopen(base + "/metrics", timeout=5).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        if text is None:
            sys.exit("references: heatmap serve did not answer /metrics")
    finally:
        server.terminate()
        server.wait(timeout=30)
    helps, types = {}, {}
    for line in text.splitlines():
        m = re.match(r"# (HELP|TYPE) (\S+) (.*)", line)
        if m:
            (helps if m.group(1) == "HELP" else types)[m.group(2)] = m.group(3)
    labels = {}
    for line in text.splitlines():
        m = re.match(r"([a-z_]+?)(_bucket|_sum|_count)?\{([^}]*)\}", line)
        if m and not line.startswith("#"):
            name = m.group(1) if m.group(1) in types else m.group(1) + (m.group(2) or "")
            keys = sorted({kv.split("=")[0] for kv in m.group(3).split(",") if kv} - {"le"})
            labels.setdefault(name, set()).update(keys)
    # The percentile searches' limit is half the cores: the page says N so that any machine writes the same page.
    helps = {k: re.sub(r"because \d+ other", "because N other", v) for k, v in helps.items()}
    rows = ["| metric | type | labels | what it counts |", "|---|---|---|---|"]
    for name in sorted(types):
        label = ", ".join(f"`{k}`" for k in sorted(labels.get(name, ()))) or ""
        rows.append(f"| `{name}` | {types[name]} | {label} | {helps.get(name, '').replace('|', '/')} |")
    return "\n".join(rows) + "\n"


def splice(path, key, body, check):
    full = os.path.join(ROOT, path)
    text = open(full).read()
    begin, end = BEGIN.format(key), END
    a = text.index(begin) + len(begin)
    b = text.index(end, a)
    new = text[:a] + "\n" + body.rstrip() + "\n" + text[b:]
    if new == text:
        return True
    if check:
        print(f"references: {path} differs from the build; run python3 scripts/docs/references.py", file=sys.stderr)
        return False
    open(full, "w").write(new)
    print(f"references: wrote {path}")
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "heatmap"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    ok = splice("docs/reference/commands.md", "heatmap --help", commands_section(args.binary), args.check)
    ok = splice("docs/reference/metrics.md", "metrics", metrics_section(args.binary), args.check) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

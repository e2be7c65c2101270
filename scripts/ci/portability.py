#!/usr/bin/env python3
"""The portability check CI runs: the Apple build, made right by construction on Linux.

It fails (exit 1, each finding on a line) when
  - a Swift file other than a module's System.swift names Glibc, Musl or a Linux-only symbol
    (epoll, accept4, SOCK_NONBLOCK, MSG_NOSIGNAL, st_mtim, sighandler_t, an enum's .rawValue
    on SOCK_STREAM or RLIMIT_NOFILE, ...); a Linux-only backend file is allowed when its whole
    body is inside `#if os(Linux)` (listed in LINUX_ONLY_FILES);
  - a System.swift imports Glibc without a Darwin side and an #error for anything else;
  - a C file of the package uses epoll or accept4 outside `#ifdef __linux__`;
  - the HeatmapKit product's target closure (from `swift package describe --type json`)
    reaches CPNG, a pkg-config library (from `swift package dump-package`), or a system
    library whose module map links something an Apple SDK lacks (only zlib is allowed);
  - a dependency inside the app products' closure, or on CEpoll, carries a platform condition.

    python3 scripts/ci/portability.py            # from the package root
    python3 scripts/ci/portability.py --self-test
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# Spellings that exist only in Glibc (or mean something else on Darwin), and why.
LINUX_ONLY = [
    (r"\bimport\s+(Glibc|Musl)\b|\bGlibc\.|\bcanImport\((Glibc|Musl)\)", "the Glibc module (use the module's System.swift)"),
    (r"\bcepoll_\w+|\bepoll_\w+\s*\(|\bEPOLL\w*|\bimport\s+CEpoll\b", "epoll (Linux only; the poll(2) backend runs everywhere)"),
    (r"\baccept4\b", "accept4 (Linux only: accept, then fcntl)"),
    (r"\bSOCK_NONBLOCK\b|\bSOCK_CLOEXEC\b", "SOCK_NONBLOCK/SOCK_CLOEXEC (Linux only: fcntl)"),
    (r"\bMSG_NOSIGNAL\b", "MSG_NOSIGNAL (Darwin has SO_NOSIGPIPE)"),
    (r"\b(SOCK_STREAM|SOCK_DGRAM|RLIMIT_\w+|IPPROTO_\w+|SHUT_\w+)\.rawValue\b", "a Glibc enum's .rawValue (a plain Int32 on Darwin)"),
    (r"\bst_[amc]tim\b", "st_mtim and friends (st_mtimespec on Darwin)"),
    (r"\bsighandler_t\b|__sighandler_t", "sighandler_t (sig_t on Darwin)"),
    (r"__rusage_who|RUSAGE_THREAD", "RUSAGE_THREAD (Linux only)"),
    (r"\b(pipe2|eventfd|timerfd_\w+|signalfd|memfd_create|sendfile|splice|copy_file_range|fallocate|posix_fadvise|prctl|sched_getaffinity|sysinfo|statx|getrandom|malloc_trim|mallinfo|gettid|getauxval)\s*\(", "a Linux-only call"),
    (r"\b(POLLRDHUP|O_DIRECT|O_TMPFILE|TCP_CORK|TCP_QUICKACK|SO_BINDTODEVICE|CLOCK_BOOTTIME|CLOCK_MONOTONIC_COARSE|MAP_POPULATE)\b", "a Linux-only constant"),
]

# Backend files that are Linux's alone: their whole body must sit inside `#if os(Linux)`.
LINUX_ONLY_FILES = {"Sources/HeatmapServer/Server/EpollPoller.swift"}

# The products an iOS app links: no C library beyond the SDK's in their closure.
APP_PRODUCTS = {"HeatmapKit", "HeatmapMapKit"}

# Libraries every Apple SDK (macOS, iOS) links without anything installed.
SDK_LIBRARIES = {"z"}


def strip_comments(line):
    """The code of a Swift line, less a trailing // comment (strings are not parsed: good enough)."""
    return line.split("//", 1)[0]


def swift_files(root):
    for top in ("Sources", "Tests"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            if "Fixtures" in folder.split(os.sep):
                continue
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def check_swift(root):
    findings = []
    for path in swift_files(root):
        relative = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        if os.path.basename(path) == "System.swift":
            text = "\n".join(lines)
            if re.search(r"import\s+Glibc", text):
                if not re.search(r"import\s+Darwin", text):
                    findings.append(f"{relative}: imports Glibc with no Darwin side")
                if "#error" not in text:
                    findings.append(f"{relative}: no #error for a platform with neither Glibc nor Darwin")
            continue
        if relative in LINUX_ONLY_FILES:
            code = [strip_comments(l).strip() for l in lines]
            code = [l for l in code if l]
            if not code or code[0] != "#if os(Linux)" or code[-1] != "#endif":
                findings.append(f"{relative}: a Linux-only file must be wholly inside #if os(Linux)")
            continue
        for number, line in enumerate(lines, 1):
            code = strip_comments(line)
            for pattern, why in LINUX_ONLY:
                if re.search(pattern, code):
                    findings.append(f"{relative}:{number}: {why}: {line.strip()}")
    return findings


def check_c(root):
    findings = []
    for folder, _, names in os.walk(os.path.join(root, "Sources")):
        for name in sorted(names):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root)
            stack = []
            with open(path, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    stripped = line.strip()
                    if stripped.startswith("#if"):
                        stack.append("__linux__" in stripped and "!" not in stripped)
                    elif stripped.startswith("#endif") and stack:
                        stack.pop()
                    elif stripped.startswith("#else") and stack:
                        stack[-1] = False
                    code = stripped.split("//", 1)[0]
                    if re.search(r"\bepoll_\w+\s*\(|sys/epoll\.h|\bEPOLL\w*|\baccept4\b|\bSOCK_NONBLOCK\b", code) and not any(stack) and not stripped.startswith("#if"):
                        findings.append(f"{relative}:{number}: Linux-only C outside #ifdef __linux__: {stripped}")
    return findings


def swiftpm(root, *arguments):
    result = subprocess.run(["swift", "package", *arguments], cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"portability: swift package {' '.join(arguments)} failed:\n{result.stderr}")
    return json.loads(result.stdout)


def check_package(root, description=None, manifest=None):
    description = description or swiftpm(root, "describe", "--type", "json")
    manifest = manifest or swiftpm(root, "dump-package")
    findings = []
    targets = {t["name"]: t for t in description["targets"]}
    declared = {t["name"]: t for t in manifest["targets"]}
    products = [p for p in description["products"] if p["name"] in APP_PRODUCTS]
    if not products:
        return ["Package.swift: no HeatmapKit product"]
    closure, todo = set(), [t for p in products for t in p["targets"]]
    while todo:
        name = todo.pop()
        if name in closure:
            continue
        closure.add(name)
        todo += targets.get(name, {}).get("target_dependencies", [])
    for name in sorted(closure):
        target = declared.get(name, {})
        if name == "CPNG":
            findings.append("HeatmapKit product: reaches CPNG (libpng, which no iOS SDK has)")
        if target.get("pkgConfig"):
            findings.append(f"HeatmapKit product: reaches {name}, a pkg-config library ({target['pkgConfig']})")
        if target.get("type") == "system":
            map_path = os.path.join(root, targets[name]["path"], "module.modulemap")
            with open(map_path, encoding="utf-8") as handle:
                for library in re.findall(r'link\s+"([^"]+)"', handle.read()):
                    if library not in SDK_LIBRARIES:
                        findings.append(f"HeatmapKit product: {name} links {library}, which an Apple SDK lacks")
    # A platform condition inside the app products' closure, or on CEpoll anywhere, is an error:
    # CEpoll builds everywhere (empty off Linux). Elsewhere a Linux-only library may be
    # conditioned (CCurl for the command's fetches on Linux; URLSession on Apple platforms).
    for target in manifest["targets"]:
        for dependency in target.get("dependencies", []):
            for kind, value in dependency.items():
                if isinstance(value, list) and any(isinstance(v, dict) and v.get("platformNames") for v in value):
                    if target["name"] in closure or value[0] == "CEpoll":
                        findings.append(f"Package.swift: {target['name']} depends on {value[0]} only on some platforms")
    return findings


def self_test():
    """Plants each kind of fault in a scratch tree and expects the check to find it."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "Sources", "Mod"))
        os.makedirs(os.path.join(root, "Sources", "CLib", "include"))
        files = {
            "Sources/Mod/System.swift": "#if canImport(Glibc)\n@_exported import Glibc\n#endif\n",
            "Sources/Mod/Bad.swift": "import Glibc\nlet a = Int32(SOCK_STREAM.rawValue)\nlet b = info.st_mtim\n"
            "// epoll in a comment is fine\nlet c = MSG_NOSIGNAL\nlet d = cepoll_wait(1)\n",
            "Sources/Mod/Good.swift": "let socketType = Posix.streamSocket  // not accept4\nlet b = Backend.epoll\n",
            "Sources/CLib/include/CLib.h": "#include <sys/epoll.h>\n#ifdef __linux__\nint accept4(void);\n#endif\n"
            "void cepoll_nothing(void) {}\nint e = EPOLLIN;\n",
        }
        for relative, text in files.items():
            with open(os.path.join(root, relative), "w", encoding="utf-8") as handle:
                handle.write(text)
        findings = check_swift(root) + check_c(root)
        expected = [
            "System.swift: imports Glibc with no Darwin side", "System.swift: no #error",
            "Bad.swift:1:", "Bad.swift:2:", "Bad.swift:3:", "Bad.swift:5:", "Bad.swift:6:", "CLib.h:1:", "CLib.h:6:",
        ]
        missing = [e for e in expected if not any(e in f for f in findings)]
        unexpected = [f for f in findings if "Good.swift" in f or "CLib.h:3" in f or "CLib.h:5" in f or "Bad.swift:4" in f]
    description = {
        "products": [{"name": "HeatmapKit", "targets": ["Kit"]}],
        "targets": [{"name": "Kit", "path": "x", "target_dependencies": ["CPNG", "CZ"]},
                    {"name": "CPNG", "path": "x"}, {"name": "CZ", "path": "x"}],
    }
    manifest = {"targets": [{"name": "Kit", "dependencies": [{"byName": ["CZ", {"platformNames": ["linux"]}]}]},
                            {"name": "CPNG", "pkgConfig": "libpng"}, {"name": "CZ", "pkgConfig": "zlib"}]}
    package = check_package(root, description, manifest)
    for needle in ["reaches CPNG", "CZ, a pkg-config library", "only on some platforms"]:
        if not any(needle in f for f in package):
            missing.append(needle)
    if missing or unexpected:
        print("portability self-test failed: missed", missing, "wrongly found", unexpected, file=sys.stderr)
        return 1
    print("portability self-test: every planted fault found, nothing else")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    parser.add_argument("--self-test", action="store_true")
    arguments = parser.parse_args()
    if arguments.self_test:
        return self_test()
    root = os.path.abspath(arguments.root)
    findings = check_swift(root) + check_c(root) + check_package(root)
    for finding in findings:
        print(finding)
    if findings:
        print(f"portability: {len(findings)} finding(s); see docs/guides/apple.md", file=sys.stderr)
        return 1
    print("portability: no Linux-only symbol outside the shims; HeatmapKit needs no C library an Apple SDK lacks")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The package's public API as a sorted list of symbols, from the compiler's symbol graphs, so that
it changes only on purpose.

    python3 scripts/ci/public_api.py            # writes api/public-symbols.txt
    python3 scripts/ci/public_api.py --check    # exits 1, with the difference, when it is not that list

It runs `swift package dump-symbol-graph --minimum-access-level public` (which builds the package's
modules first), reads the graphs of the library products' modules and of the modules they
re-export (HeatmapCore's declarations that HeatmapKit re-exports by name), and writes one line per
public declaration: `Module kind Path.To.name(arguments:)`. `package` and internal declarations are
not listed, nor members a type only inherits from a protocol's extension (`!=`,
`localizedDescription`); neither are the test support module and the executables.
"""
import argparse
import difflib
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIST = os.path.join(ROOT, "api", "public-symbols.txt")
# The modules of the library products (Package.swift), and those a product re-exports.
MODULES = ["HeatmapCore", "HeatmapKit", "HeatmapTiles", "HeatmapPostgres"]
# What `import HeatmapKit` re-exports of HeatmapCore, by name (Sources/HeatmapKit/Exports.swift).
EXPORTS = os.path.join(ROOT, "Sources", "HeatmapKit", "Exports.swift")


def reexported():
    """The names HeatmapKit re-exports from HeatmapCore; None when it re-exports the whole module."""
    text = open(EXPORTS).read()
    if re.search(r"^@_exported import HeatmapCore\s*$", text, re.M):
        return None
    return set(re.findall(r"^@_exported import \w+ HeatmapCore\.(\w+)", text, re.M))


def symbols(folder):
    names = reexported()
    lines = set()
    for module in MODULES:
        for path in glob.glob(os.path.join(folder, f"{module}.symbols.json")) + glob.glob(
                os.path.join(folder, f"{module}@*.symbols.json")):
            graph = json.load(open(path))
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") != "public":
                    continue
                # Members a type gets from a protocol's extension (`!=`, `localizedDescription`) are
                # the protocol's, not declarations of this package.
                if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                    continue
                components = symbol["pathComponents"]
                # HeatmapCore's declarations reach users only through HeatmapKit's re-exports.
                if module == "HeatmapCore" and names is not None and components[0] not in names:
                    continue
                kind = symbol["kind"]["identifier"].removeprefix("swift.")
                lines.add(f"{module} {kind} {'.'.join(components)}")
    return sorted(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with api/public-symbols.txt instead")
    parser.add_argument("--graphs", help="read the symbol graphs in this folder (skip the dump)")
    args = parser.parse_args()
    folder = args.graphs
    if folder is None:
        output = subprocess.run(
            ["swift", "package", "dump-symbol-graph", "--minimum-access-level", "public"], cwd=ROOT,
            capture_output=True, text=True)
        if output.returncode != 0:
            sys.exit(output.stdout + output.stderr)
        found = re.search(r"Files written to (\S+)", output.stdout + output.stderr)
        folder = found.group(1) if found else None
        if folder is None:
            sys.exit("public_api: swift package dump-symbol-graph said nothing of where it wrote")
    lines = symbols(folder)
    text = "".join(line + "\n" for line in lines)
    if args.check:
        old = open(LIST).read() if os.path.exists(LIST) else ""
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), "api/public-symbols.txt", "the build's public API"))
            print("public_api: the public API changed; if on purpose, run python3 scripts/ci/public_api.py and "
                  "commit api/public-symbols.txt (and README's API table)", file=sys.stderr)
            return 1
        print(f"public_api: {len(lines)} public symbols, as listed")
        return 0
    os.makedirs(os.path.dirname(LIST), exist_ok=True)
    with open(LIST, "w") as f:
        f.write(text)
    print(f"public_api: wrote {len(lines)} public symbols to {os.path.relpath(LIST, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

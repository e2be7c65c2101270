#!/usr/bin/env python3
"""What a deflate matcher with a bounded candidate set would make of the palette tiles, modelled before building it.

    python3 scripts/bench/png_matcher_model.py TILE_IMAGES_DIR [--report bench/results/tile-bytes.json] \\
        [--out bench/results/png-matcher-model.json]
    python3 scripts/bench/png_matcher_model.py --table [bench/results/png-matcher-model.json]

TILE_IMAGES_DIR is heatmap-bench's `--tile-images` folder (`--only bytes`). For each dense 512 px tile of the report
it filters the indices (none, sub, up or Paeth on every row; rows of index 0 written as zeros, as the encoder does),
parses them into literals and matches at a fixed set of candidate distances (greedy: the longest match of at least
its distance's minimum length, the first listed distance on a tie; or lazy: a match waits when the next byte
starts one longer), and counts the deflate bits the parse would take with Huffman codes built for it: the entropy
of the literal/length and distance symbols, their extra bits, and 4 bits a symbol used plus 15 bytes for the trees.
`today` is the encoder's parse (Paeth, distances 1 and 2); every other line is given as a fraction of it, and as the
file's ratio to today's RGBA PNG if the IDAT shrank by that fraction (the PLTE, tRNS and chunk frames stay).
Uses bench/.venv-pillow, as scripts/bench/png_floor.py does.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_floor import dense_tiles, ensure_venv, filtered, head_bytes, write_results  # noqa: E402

LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163,
               195, 227, 258]
LENGTH_EXTRA = [0] * 8 + [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [0]
DISTANCE_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
                 3073, 4097, 6145, 8193, 12289, 16385, 24577]


def length_symbol(length):
    return max(k for k in range(29) if LENGTH_BASE[k] <= length)


def distance_symbol(distance):
    symbol = max(k for k in range(30) if DISTANCE_BASE[k] <= distance)
    return symbol, 0 if symbol < 4 else symbol // 2 - 1


def count_match(literals, distances, length, code):
    """Counts a match's length symbol and its distance symbol `code` (symbol, extra bits); returns its extra bits."""
    symbol = length_symbol(length)
    literals[257 + symbol] += 1
    distances[code[0]] += 1
    return LENGTH_EXTRA[symbol] + code[1]


def run_lengths(data, distance):
    """For each position, how many bytes from it on equal those `distance` before (at most 258)."""
    import numpy as np
    n = len(data)
    equal = np.zeros(n, bool)
    equal[distance:] = data[distance:] == data[:-distance]
    breaks = np.flatnonzero(~equal)
    following = np.searchsorted(breaks, np.arange(n))
    next_break = np.where(following < len(breaks), breaks[np.minimum(following, len(breaks) - 1)], n)
    return np.minimum(next_break - np.arange(n), 258)


def deflate_bytes(data, distances, minimums, lazy=False):
    """The modelled bytes of the parse of `data` with these candidate distances (see the module's text)."""
    import numpy as np
    runs = np.stack([run_lengths(data, d) for d in distances])
    for k, least in enumerate(minimums):
        runs[k][runs[k] < least] = 0
    best, which = runs.max(axis=0).tolist(), runs.argmax(axis=0).tolist()
    literals, lengths, codes = np.zeros(286, np.int64), np.zeros(30, np.int64), [distance_symbol(d) for d in distances]
    extra, i, n, tokens, values = 0, 0, len(data), 0, data.tolist()
    while i < n:
        length = best[i]
        if lazy and length >= 3 and i + 1 < n and best[i + 1] > length:
            length = 0
        if length >= 3:
            extra += count_match(literals, lengths, length, codes[which[i]])
            i += length
        else:
            literals[values[i]] += 1
            i += 1
        tokens += 1
    literals[256] += 1
    bits = extra + 120
    for counts in (literals, lengths):
        used = counts[counts > 0]
        bits += float((used * np.log2(used.sum() / used)).sum()) + 4 * len(used)
    return bits / 8, tokens


def table(path):
    """The Markdown table of a model's results: each parse's bytes as a fraction of today's, and the file's ratio."""
    tiles = json.load(open(path))["tiles"]
    print("| parse | candidates | " + " | ".join(t["tile"] for t in tiles) + " |")
    print("|---|---:|" + "---:|" * len(tiles))
    print("| a third of today's RGBA needs | | " + " | ".join(f"{t['neededOfToday']:.3f}" for t in tiles) + " |")
    for k, parse in enumerate(tiles[0]["parses"]):
        cells = [f"{t['parses'][k]['ofToday']:.3f} ({t['parses'][k]['projectedRatio']:.3f})" for t in tiles]
        print(f"| {parse['parse']} | {parse['distances']} | " + " | ".join(cells) + " |")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--table":
        return table(sys.argv[2] if len(sys.argv) > 2 else "bench/results/png-matcher-model.json")
    ensure_venv()
    import numpy as np
    from PIL import Image

    args, tiles = dense_tiles("bench/results/png-matcher-model.json")
    results = []
    for b, path in tiles:
        image = Image.open(path)
        indices = np.array(image)
        stride = indices.shape[1] + 1
        colours = len(image.getpalette()) // 3
        head = head_bytes(colours)
        near, row, rows = list(range(1, 9)), [stride + k for k in range(-8, 9)], [2 * stride + k for k in range(-8, 9)]
        configs = [
            ("today", 4, [1, 2], [3, 3], False),
            ("today, lazy", 4, [1, 2], [3, 3], True),
            ("Paeth, 1-4", 4, [1, 2, 3, 4], [3, 4, 5, 5], False),
            ("Paeth, 1-2 and the row above", 4, [1, 2, stride], [3, 4, 6], False),
            ("Paeth, 1-8 and the row above ±8", 4, near + row, [3] + [7] * 24, False),
            ("sub, 1-8 and the row above ±8", 1, near + row, [3] + [5] * 24, False),
            ("sub, 1-8 and the two rows above ±8", 1, near + row + rows, [3] + [5] * 41, False),
            ("up, 1-8 and the row above ±8", 2, near + row, [3] + [5] * 24, False),
        ]
        data = {kind: np.frombuffer(filtered(indices, kind), np.uint8).reshape(indices.shape[0], stride).copy()
                for kind in {c[1] for c in configs}}
        for rows_of_kind in data.values():
            rows_of_kind[(indices == 0).all(axis=1)] = 0
        row_out = {"tile": b["tile"], "rgbaBytes": b["rgbaBytes"], "oursBytes": os.path.getsize(path),
                   "headBytes": head, "thirdBytes": b["rgbaBytes"] // 3, "parses": []}
        baseline = None
        for name, kind, distances, minimums, lazy in configs:
            modelled, tokens = deflate_bytes(data[kind].reshape(-1), distances, minimums, lazy)
            baseline = baseline or modelled
            fraction = modelled / baseline
            projected = head + (row_out["oursBytes"] - head) * fraction
            row_out["parses"].append({"parse": name, "distances": len(distances), "modelledBytes": round(modelled),
                                      "tokens": tokens, "ofToday": round(fraction, 3),
                                      "projectedRatio": round(projected / b["rgbaBytes"], 3)})
        row_out["neededOfToday"] = round((row_out["thirdBytes"] - head) / (row_out["oursBytes"] - head), 3)
        print(json.dumps(row_out), flush=True)
        results.append(row_out)
    write_results(args.out, results)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Parses and row filters for the palette deflate, modelled on the dense 512 px tiles before building them.

    python3 scripts/bench/png_parse_model.py TILE_IMAGES_DIR [--report bench/results/tile-bytes.json] \\
        [--out bench/results/png-parse-model.json]

TILE_IMAGES_DIR is heatmap-bench's `--tile-images` folder (`--only bytes`). Each line is the modelled deflate bytes
(png_matcher_model.py's count: entropy of the symbols, extra bits, 4 bits a symbol used, 15 bytes of trees) as a
fraction of the greedy parse of Paeth-filtered indices at distances 1 and 2 (the encoder before short matches were
weighed):
- `weighed`: matches of 3 to 10 bytes become literals when their bytes cost fewer bits as literals, at code lengths
  of a greedy first pass (`weighed twice`: of the weighed parse);
- `rows: …`: the filter chosen per row, by libpng's sum of magnitudes or by the bits of the literals at the
  tile's code lengths (three passes);
- `hash …`: a third candidate, the positions whose next 4 bytes hash alike (the last one, or the last 64 with
  every position hashed), taken when at least 6 (or 5) bytes long and longer than the run match.
Uses bench/.venv-pillow, as scripts/bench/png_floor.py does.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_floor import dense_tiles, ensure_venv, filtered, write_results  # noqa: E402
from png_matcher_model import count_match, distance_symbol, length_symbol, run_lengths  # noqa: E402


def modelled_bytes(literals, distances, extra):
    import numpy as np
    bits = extra + 120
    for counts in (literals, distances):
        used = counts[counts > 0]
        bits += float((used * np.log2(used.sum() / used)).sum()) + 4 * len(used)
    return bits / 8


def code_lengths(counts):
    import numpy as np
    c = counts.astype(float)
    return np.where(c > 0, np.maximum(1, -np.log2(np.maximum(c, 1) / c.sum())), 12.0).tolist()


def parse(data, lengths=None, hashed=None):
    """The symbol counts of a greedy parse at distances 1 and 2; with `lengths` (literal/length and distance code
    lengths) short matches weighed; with `hashed` = (probes, minimum, every position) a hash candidate as well."""
    import numpy as np
    n, values, raw = len(data), data.tolist(), data.tobytes()
    near, far = run_lengths(data, 1).tolist(), run_lengths(data, 2).tolist()
    literals, distances, extra, table, i = np.zeros(286, np.int64), np.zeros(30, np.int64), 0, {}, 0
    while i < n:
        length, distance = (near[i], 1) if near[i] >= far[i] else (far[i], 2)
        length = length if length >= 3 else 0
        if hashed and i + 4 <= n:
            probes, minimum, every = hashed
            positions = table.setdefault(raw[i:i + 4], [])
            for p in positions[-probes:][::-1]:
                if i - p > 32768:
                    continue
                k = 4
                while k < 258 and i + k < n and raw[i + k] == raw[p + k]:
                    k += 1
                if k >= minimum and k > length + 1:
                    length, distance = k, i - p
            positions.append(i)
            if every and length:
                for j in range(i + 1, min(i + length, n - 4)):
                    table.setdefault(raw[j:j + 4], []).append(j)
        if length and lengths and length <= 10:
            symbol_bits, distance_bits = lengths
            cost = symbol_bits[257 + length_symbol(length)] + distance_bits[distance_symbol(distance)[0]]
            if sum(symbol_bits[v] for v in values[i:i + length]) < cost:
                for v in values[i:i + length]:
                    literals[v] += 1
                i += length
                continue
        if length:
            extra += count_match(literals, distances, length, distance_symbol(distance))
            i += length
        else:
            literals[values[i]] += 1
            i += 1
    literals[256] += 1
    return literals, distances, extra


def main():
    ensure_venv()
    import numpy as np
    from PIL import Image

    args, tiles = dense_tiles("bench/results/png-parse-model.json")
    results = []
    for b, path in tiles:
        indices = np.array(Image.open(path))
        rows = {}
        for kind in range(5):
            rows[kind] = np.frombuffer(filtered(indices, kind), np.uint8).reshape(indices.shape[0], -1).copy()
            rows[kind][(indices == 0).all(axis=1)] = 0
        greedy = parse(rows[4].reshape(-1))
        base = modelled_bytes(*greedy)
        out = {"tile": b["tile"], "greedyBytes": round(base)}
        weighed = parse(rows[4].reshape(-1), (code_lengths(greedy[0]), code_lengths(greedy[1])))
        twice = parse(rows[4].reshape(-1), (code_lengths(weighed[0]), code_lengths(weighed[1])))
        out["weighed"] = round(modelled_bytes(*weighed) / base, 4)
        out["weighed twice"] = round(modelled_bytes(*twice) / base, 4)
        magnitudes = np.stack([np.minimum(rows[k][:, 1:], 256 - rows[k][:, 1:].astype(np.int16)).sum(axis=1)
                               for k in range(5)])
        choice = magnitudes.argmin(axis=0)
        for _ in range(3):
            chosen = np.stack([rows[c][y] for y, c in enumerate(choice)])
            counts = np.bincount(chosen[:, 1:].reshape(-1), minlength=256) + 0.5
            bits = -np.log2(counts / counts.sum())
            by_bits = np.stack([bits[rows[k][:, 1:]].sum(axis=1) for k in range(5)]).argmin(axis=0)
            choice = by_bits
        for name, rule in [("rows: sum of magnitudes", magnitudes.argmin(axis=0)), ("rows: bits", choice)]:
            chosen = np.stack([rows[c][y] for y, c in enumerate(rule)])
            out[name] = round(modelled_bytes(*parse(chosen.reshape(-1))) / base, 4)
        out["hash, last position"] = round(modelled_bytes(*parse(rows[4].reshape(-1), hashed=(1, 6, False))) / base, 4)
        out["hash, 64 probes"] = round(modelled_bytes(*parse(rows[4].reshape(-1), hashed=(64, 5, True))) / base, 4)
        print(json.dumps(out), flush=True)
        results.append(out)
    write_results(args.out, results)


if __name__ == "__main__":
    main()

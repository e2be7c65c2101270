#!/usr/bin/env python3
"""Writes a synthetic base map as z/x/y.png tiles (Python's standard library only), for README's
stacked picture and for trying `heatmap image --base file:///...` offline: a pale background whose
tone follows latitude, a graticule every 1/4 tile and darker tile borders.

    python3 scripts/docs/synthetic_base.py OUTDIR ZOOM X0 X1 Y0 Y1 [--size 256]
"""
import argparse
import os
import struct
import zlib


def png(side, pixel):
    rows = bytearray()
    for y in range(side):
        rows.append(0)
        for x in range(side):
            rows.extend(pixel(x, y))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b"")


def tile(side, zoom, tx, ty):
    across = 1 << zoom

    def pixel(x, y):
        world_y = (ty * side + y) / (across * side)
        tone = int(236 - 24 * abs(world_y - 0.5))
        if x == 0 or y == 0:
            return (150, 150, 160, 255)
        if x % (side // 4) == 0 or y % (side // 4) == 0:
            return (200, 200, 210, 255)
        return (tone, tone - 4, tone - 14, 255)

    return png(side, pixel)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("zoom", type=int)
    parser.add_argument("x0", type=int)
    parser.add_argument("x1", type=int)
    parser.add_argument("y0", type=int)
    parser.add_argument("y1", type=int)
    parser.add_argument("--size", type=int, default=256)
    args = parser.parse_args()
    for tx in range(args.x0, args.x1 + 1):
        for ty in range(args.y0, args.y1 + 1):
            folder = os.path.join(args.outdir, str(args.zoom), str(tx))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{ty}.png"), "wb") as f:
                f.write(tile(args.size, args.zoom, tx, ty))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Draws the app's icons (crates/awale-web/page/icon-192.png, icon-512.png):
the favicon's board on the page's background, with room around it for the
masks of phone launchers. Pure Python (zlib only); run again after a change:
    python3 scripts/icons.py
"""
import math
import struct
import zlib
from pathlib import Path

BG = (0x1B, 0x16, 0x11)
WOOD = (0x9C, 0x5F, 0x28)
HOLE = (0x3D, 0x23, 0x0E)
SEEDS = [(0xB5, 0xAE, 0x98), (0x8F, 0x8A, 0x7A), (0xA3, 0x9E, 0x8C)]


def shapes():
    """The drawing, in a 64x64 box (as favicon.svg), shrunk into the safe
    zone of a maskable icon (the middle 80%)."""
    s = []
    s.append(("capsule", (6, 22, 58, 42), WOOD))
    for i in range(6):
        for row, y in enumerate((27.5, 36.5)):
            s.append(("circle", (11.7 + i * 8.1, y, 3.3), HOLE))
    seeds = [(11.2, 27, 0), (12.6, 28.2, 1), (27.4, 36, 2), (28.6, 37.3, 0),
             (43.6, 27.2, 1), (44.9, 28.3, 2), (52, 36.4, 0)]
    for x, y, c in seeds:
        s.append(("circle", (x, y, 1.25), SEEDS[c]))
    return s


def inside(shape, x, y):
    kind, p, _ = shape
    if kind == "circle":
        cx, cy, r = p
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    x0, y0, x1, y1 = p
    r = (y1 - y0) / 2
    cy = y0 + r
    if x0 + r <= x <= x1 - r:
        return y0 <= y <= y1
    cx = x0 + r if x < x0 + r else x1 - r
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def draw(size):
    shapes_ = shapes()
    scale = 64 / size
    n = 3  # samples per side, for smooth edges
    rows = []
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc = [0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    x = (px + (sx + 0.5) / n) * scale
                    y = (py + (sy + 0.5) / n) * scale
                    colour = BG
                    for shape in shapes_:
                        if inside(shape, x, y):
                            colour = shape[2]
                    for k in range(3):
                        acc[k] += colour[k]
            row += bytes(round(a / (n * n)) for a in acc)
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


page = Path(__file__).resolve().parent.parent / "crates/awale-web/page"
for size in (192, 512):
    (page / f"icon-{size}.png").write_bytes(draw(size))
    print(f"icon-{size}.png")

#!/usr/bin/env python3
"""Names the first pixel where two PNG files differ (Python 3 standard library only).

Usage: pngdiff.py A.png B.png
Exit 0 and "pixels equal" when the decoded images match, 1 with the first differing
pixel (row-major order) otherwise, 2 when a file cannot be decoded. Used by
scripts/test-cross-arch after a byte comparison fails, to tell an encoder difference
(same pixels) from a rasteriser difference (different pixels).
Decodes non-interlaced PNGs of bit depth 8 or 16 in every colour type.
"""
import struct
import sys
import zlib

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def unfiltered(path):
    """(width, height, colour type, bytes per pixel, palette, rows): the PNG's pixel rows
    as bytes, filters undone."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat, header, palette = 8, [], None, None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = [tuple(body[i:i + 3]) for i in range(0, len(body), 3)]
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError(f"{path}: no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    if interlace or depth not in (8, 16) or colour not in CHANNELS:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
    bpp = CHANNELS[colour] * depth // 8
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    rows, previous, p = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[p], bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                line[i] = (line[i] + (((line[i - bpp] if i >= bpp else 0) + previous[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = previous[i], (previous[i - bpp] if i >= bpp else 0)
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, colour, bpp, palette, rows


def decode(path):
    """(width, height, rows of pixel tuples), palette colours looked up."""
    width, height, colour, bpp, palette, rows = unfiltered(path)
    pixels = []
    for line in rows:
        row = [tuple(line[x * bpp:(x + 1) * bpp]) for x in range(width)]
        if colour == 3 and palette is not None:
            row = [palette[p[0]] for p in row]
        pixels.append(row)
    return width, height, pixels


def decode_rgb(path):
    """(width, height, RGB bytes) of an 8-bit RGB or RGBA PNG (alpha dropped)."""
    width, height, colour, bpp, _, rows = unfiltered(path)
    if colour not in (2, 6) or bpp not in (3, 4):
        raise ValueError(f"{path}: not an 8-bit RGB(A) PNG")
    if bpp == 3:
        return width, height, b"".join(rows)
    return width, height, b"".join(bytes(v for i, v in enumerate(line) if i % 4 != 3) for line in rows)


def main(argv):
    if len(argv) != 3:
        print("usage: pngdiff.py A.png B.png", file=sys.stderr)
        return 2
    try:
        a, b = decode(argv[1]), decode(argv[2])
    except (OSError, ValueError, zlib.error) as error:
        print(f"cannot decode: {error}")
        return 2
    if a[:2] != b[:2]:
        print(f"sizes differ: {a[0]}x{a[1]} vs {b[0]}x{b[1]}")
        return 1
    for y in range(a[1]):
        if a[2][y] != b[2][y]:
            x = next(i for i in range(a[0]) if a[2][y][i] != b[2][y][i])
            print(f"first differing pixel at x={x} y={y}: {a[2][y][x]} vs {b[2][y][x]}")
            return 1
    print("pixels equal")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

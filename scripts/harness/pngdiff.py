#!/usr/bin/env python3
"""Names the first pixel where two PNG files differ (Python 3 standard library only).

Usage: pngdiff.py A.png B.png
Exit 0 and "pixels equal" when the decoded images match, 1 with the first differing
pixel (row-major order) otherwise, 2 when a file cannot be decoded. Used by
scripts/test-cross-arch after a byte comparison fails, to tell an encoder difference
(same pixels) from a rasteriser difference (different pixels).
Decodes non-interlaced PNGs of bit depth 8 or 16 in every colour type (lib/pictures.py).
"""
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import pictures  # noqa: E402


def main(argv):
    if len(argv) != 3:
        print("usage: pngdiff.py A.png B.png", file=sys.stderr)
        return 2
    try:
        a, b = pictures.decode(argv[1]), pictures.decode(argv[2])
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

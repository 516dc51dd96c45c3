"""Pictures: PNG files (the headless renders), QEMU's PPM screendumps, and comparing them.

The PNG decoder reads non-interlaced PNGs of bit depth 8 or 16 in every colour type.
"""
import struct
import zlib

from .checks import Failure

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def png_chunks(path):
    """(IHDR fields, palette or None, the IDAT data) of a PNG file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != PNG_SIGNATURE:
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
    return header, palette, b"".join(idat)


def unfilter_row(kind, line, previous, bpp):
    """A row with PNG filter `kind` undone (in place), given the row above."""
    stride = len(line)
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
    return line


def unfiltered(path):
    """(width, height, colour type, bytes per pixel, palette, rows): the PNG's pixel rows
    as bytes, filters undone."""
    header, palette, idat = png_chunks(path)
    width, height, depth, colour, _, _, interlace = header
    if interlace or depth not in (8, 16) or colour not in CHANNELS:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
    bpp = CHANNELS[colour] * depth // 8
    stride = width * bpp
    raw = zlib.decompress(idat)
    rows, previous, p = [], bytearray(stride), 0
    for _ in range(height):
        line = unfilter_row(raw[p], bytearray(raw[p + 1:p + 1 + stride]), previous, bpp)
        p += 1 + stride
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


def decode_png_rgb(path):
    """decode_rgb, with a Failure naming the file when it cannot be decoded."""
    try:
        return decode_rgb(path)
    except (OSError, ValueError, zlib.error) as error:
        raise Failure(f"cannot decode {path}: {error}")


def png_size(path):
    """(width, height) from a PNG's header; a Failure if it is not a PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR":
        raise Failure(f"screendump {path} is not a PNG file")
    return struct.unpack(">II", head[16:24])


def distinct_colours(path):
    """How many different pixel values a PNG holds."""
    _, _, rows = decode(path)
    return len({pixel for row in rows for pixel in row})


def decode_ppm(path):
    """(width, height, RGB bytes) of QEMU's binary PPM screendump."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise Failure(f"{path}: not a binary 8-bit PPM")
    return int(fields[1]), int(fields[2]), data[pos + 1:]


def rgb565_to_rgb(words, width, height):
    """RGB bytes of little-endian RGB565 words, each channel widened to 8 bits."""
    rgb = bytearray(width * height * 3)
    for i in range(width * height):
        word = words[2 * i] | words[2 * i + 1] << 8
        rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2] = (word >> 11) << 3, (word >> 5 & 63) << 2, (word & 31) << 3
    return bytes(rgb)


def first_difference(a, b, width):
    """'N pixels differ, first at (x, y): expected #rrggbb, got #rrggbb'."""
    count, first = 0, None
    for i in range(0, min(len(a), len(b)), 3):
        if a[i:i + 3] != b[i:i + 3]:
            count += 1
            if first is None:
                first = i // 3
    if first is None:
        return "sizes differ"
    x, y = first % width, first // width
    return f"{count} pixels differ, first at ({x}, {y}): expected #{a[first * 3:first * 3 + 3].hex()}, got #{b[first * 3:first * 3 + 3].hex()}"


def quantised_565(rgb):
    """RGB bytes with each channel cut to its RGB565 bits (5, 6, 5)."""
    return bytes(b & mask for b, mask in zip(rgb, (0xF8, 0xFC, 0xF8) * (len(rgb) // 3)))


def darkest(rgb):
    """The darkest colour among a sample of the pixels (the background of a console)."""
    return min(rgb[i:i + 3] for i in range(0, len(rgb), 3 * 97))


def lit_pixels(rgb):
    """Pixels that are not the darkest colour (text on the console)."""
    dark = darkest(rgb)
    return sum(1 for i in range(0, len(rgb), 3) if rgb[i:i + 3] != dark)


def region(rgb, box, width):
    """The bytes of box (x0, y0, x1, y1) of a picture `width` pixels wide, row after row."""
    x0, y0, x1, y1 = box
    return b"".join(rgb[(y * width + x0) * 3:(y * width + x1) * 3] for y in range(y0, y1))

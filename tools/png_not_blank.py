#!/usr/bin/env python3
"""Exit 0 if the PNG file given is a real picture, not a blank (one colour)
screen. Standard library only: it inflates the image data and counts the
distinct rows and byte values."""

import struct
import sys
import zlib


def main(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour, 4)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels + 1
    rows = {raw[i * stride + 1:(i + 1) * stride] for i in range(height)}
    values = len(set(raw))
    print(f"{path}: {width}x{height}, {len(rows)} distinct rows, {values} distinct byte values")
    if width < 100 or height < 100 or len(rows) < 20 or values < 32:
        sys.exit(f"{path}: looks blank")


if __name__ == "__main__":
    main(sys.argv[1])

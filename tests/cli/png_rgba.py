# Decodes an 8-bit RGBA PNG as stb_image_write writes it (the spinegpu tool's and the samples' images), for the
# command-line tests' pixel comparisons: rgba(path) -> (width, height, bytes of rows top to bottom).
import struct
import zlib


def rgba(path):
    data, pos, idat = open(path, "rb").read(), 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR": width, height, depth, colour = struct.unpack(">IIBB", data[pos + 8:pos + 18])
        if kind == b"IDAT": idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    assert depth == 8 and colour == 6, "not RGBA8"
    raw, stride, rows, prev = zlib.decompress(idat), 4 * width, [], bytearray(4 * width)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b, c = prev[x], prev[x - 4] if x >= 4 else 0
            if kind == 1: line[x] = (line[x] + a) & 255
            elif kind == 2: line[x] = (line[x] + b) & 255
            elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, b"".join(rows)

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""html_png_check.py PNG [--blank OUT.png]: is a screenshot of report.html
showing its charts? Decodes the PNG with the standard library only (zlib,
the five row filters; 8-bit RGB or RGBA, not interlaced) and requires
pixels of the charts' bar colours (the throughput bars, the timeline's
to_aie and from_aie bars) and several distinct colours. Exit 0 when it
does, 1 with the reason when not. --blank OUT.png writes a white PNG of
the same size (for checking that the check can fail). --trend: a trend
page of run_test history html instead (its line and points, a regression
mark, a failed run's cross). --colours RRGGBB,...: these colours instead
(a page whose first screen is a sweep's curves: the lines' colours,
report_curve_svg.c)."""
import struct
import sys
import zlib

# report_svg.c's colours: pass bar, to_aie span, from_aie span
BARS = {(0x2E, 0x7D, 0x32): "pass bar", (0x1E, 0x88, 0xE5): "to_aie span",
        (0x00, 0x89, 0x7B): "from_aie span"}
MIN_BAR_PIXELS = 500
# history_html.c's colours: the line and passing points, a regression, a
# failed run (the legend's text has colours of its own, so it never counts)
TREND = {(0x15, 0x65, 0xC0): "trend line", (0xD5, 0x00, 0x00): "regression mark",
         (0xFF, 0x6D, 0x00): "failed run"}
TREND_MIN_PIXELS = 20
MIN_COLOURS = 8


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, hdr = 8, [], None
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("unsupported PNG (depth %d, colour type %d)" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def write_blank(path, w, h):
    raw = b"".join(b"\x00" + b"\xff" * (3 * w) for _ in range(h))
    def chunk(k, b):
        return struct.pack(">I", len(b)) + k + b + struct.pack(">I", zlib.crc32(k + b))
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    global BARS, MIN_BAR_PIXELS
    if "--trend" in sys.argv:
        sys.argv.remove("--trend")
        BARS, MIN_BAR_PIXELS = TREND, TREND_MIN_PIXELS
    if "--colours" in sys.argv[:-1]:
        i = sys.argv.index("--colours")
        BARS = {tuple(int(c[j:j + 2], 16) for j in (0, 2, 4)): "colour #" + c
                for c in sys.argv[i + 1].split(",")}
        del sys.argv[i:i + 2]
    w, h, bpp, rows = decode(sys.argv[1])
    if len(sys.argv) == 4 and sys.argv[2] == "--blank":
        write_blank(sys.argv[3], w, h)
        return 0
    counts, colours = {k: 0 for k in BARS}, set()
    for line in rows:
        for x in range(0, len(line), bpp):
            px = (line[x], line[x + 1], line[x + 2])
            colours.add(px)
            if px in counts:
                counts[px] += 1
    problems = ["%s: %d pixels (at least %d)" % (BARS[k], v, MIN_BAR_PIXELS)
                for k, v in counts.items() if v < MIN_BAR_PIXELS]
    if len(colours) < MIN_COLOURS:
        problems.append("%d distinct colours (at least %d)" % (len(colours), MIN_COLOURS))
    print("%s: %dx%d, %d colours, bars %s" % (sys.argv[1], w, h, len(colours),
          ", ".join("%s %d" % (BARS[k], v) for k, v in counts.items())))
    if problems:
        print("blank or chartless screenshot: " + "; ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

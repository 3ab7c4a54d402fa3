"""Palette PNGs written from separately compressed row bands, so a picture that changes in a few rows recompresses
only those.

A PNG's pixel data is one zlib stream over the filtered rows. Each band of rows here is compressed alone as raw
deflate ended by a full flush (byte-aligned, no reference to earlier bands), so the stream of a picture is the zlib
header, its bands' segments in order, an empty final block and the adler32 of all the rows, which is combined from
the bands' own adler32 without reading them again. Rows use filter 0 (none), as Pillow writes palette PNGs.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x5e"
"""Deflate with a 32 KiB window; the level bits are only a hint to readers."""
_FINAL_BLOCK = b"\x03\x00"
"""An empty final block of fixed codes, what zlib emits to finish after a full flush."""
_ADLER_BASE = 65521


@dataclass(frozen=True, slots=True)
class Segment:
    """A band of filtered rows compressed on its own: its deflate bytes, adler32 and raw length."""

    data: bytes
    adler: int
    size: int


def compress(rows: bytes | bytearray, level: int) -> Segment:
    """Compress filtered rows into a segment that can stand anywhere in a stream."""
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    return Segment(packer.compress(rows) + packer.flush(zlib.Z_FULL_FLUSH), zlib.adler32(rows), len(rows))


def inflate(segment: Segment) -> bytes:
    """The filtered rows a segment holds."""
    return zlib.decompressobj(-15).decompress(segment.data)


def adler32_combine(first: int, second: int, second_size: int) -> int:
    """The adler32 of two byte strings put end to end, from theirs and the second's length (zlib's own formula)."""
    rem = second_size % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + _ADLER_BASE - rem
    return (sum1 % _ADLER_BASE) | ((sum2 % _ADLER_BASE) << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def palette_bytes(palette: Image.Image) -> bytes:
    """The 256 RGB entries of a "P" image's palette, padded with black, for the PLTE chunk."""
    entries = palette.getpalette("RGB") or []
    return bytes(entries[: 256 * 3]).ljust(256 * 3, b"\0")


def write_png(width: int, height: int, palette: bytes, segments: Sequence[Segment]) -> bytes:
    """A 256-colour PNG from its PLTE bytes and the segments of all its rows, top to bottom."""
    adler = 1
    total = 0
    for segment in segments:
        adler = adler32_combine(adler, segment.adler, segment.size)
        total += segment.size
    if total != height * (width + 1):
        raise ValueError(
            f"segments hold {total} bytes of rows, a {width}×{height} picture needs {height * (width + 1)}"
        )
    stream = b"".join([_ZLIB_HEADER, *(s.data for s in segments), _FINAL_BLOCK, struct.pack(">I", adler)])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        [_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette), _chunk(b"IDAT", stream), _chunk(b"IEND", b"")]
    )

"""The output format: a 256-colour palette PNG, which keeps lines and text crisp and files small.

Measured on end-game boards of 1960 px (bench/ttr_render.py): palette PNG ~27 ms and ~245 KiB in all; RGB PNG
~57 ms and ~880 KiB; lossless WebP ~60-80 ms and ~565 KiB; WebP q90 ~115 ms; JPEG q90 is fastest (~10 ms)
but half again as large (~370 KiB) and rings faintly around the small dark names. A fast octree picks the
palette (the maps hold far fewer than 256 distinct colours that matter); no dithering, so flat areas stay flat;
zlib level 3, since level 6 saves 10 % of the bytes for 7 ms more.

A caller that draws many pictures from the same colours (the board) may pass a palette worked out once: mapping
to a known palette takes ~5 ms where choosing one takes ~22 ms on a 1600 × 1400 board.
"""

from __future__ import annotations

import io
from typing import Literal

from PIL import Image

Format = Literal["png-palette", "png-rgb", "webp-lossless", "webp-90", "jpeg-90"]
FORMATS: tuple[Format, ...] = ("png-palette", "png-rgb", "webp-lossless", "webp-90", "jpeg-90")
COMPRESS_LEVEL = 3


def encode(image: Image.Image, fmt: Format = "png-palette", palette: Image.Image | None = None) -> bytes:
    """Encode a picture; the default is what the bot posts, the others are kept for the benchmark.

    `palette` (a "P" image) gives the 256 colours of a palette PNG; without it they are chosen for this picture.
    """
    out = io.BytesIO()
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    if fmt == "png-palette":
        if palette is not None:
            quantized = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
        else:
            quantized = rgb.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        quantized.save(out, "PNG", compress_level=COMPRESS_LEVEL)
    elif fmt == "png-rgb":
        rgb.save(out, "PNG", compress_level=COMPRESS_LEVEL)
    elif fmt == "webp-lossless":
        rgb.save(out, "WEBP", lossless=True, method=0)
    elif fmt == "webp-90":
        rgb.save(out, "WEBP", quality=90, method=4)
    else:
        rgb.save(out, "JPEG", quality=90)
    return out.getvalue()

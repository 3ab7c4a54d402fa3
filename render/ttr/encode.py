"""The output format: a 256-colour palette PNG, which keeps lines and text crisp and files small.

Measured on end-game boards (bench/ttr_render.py): palette PNG is about a quarter of the size of an RGB PNG and
several times faster to write; lossy WebP and JPEG blur the small city names and the symbols on the cars,
which is exactly what must stay sharp. A fast octree picks the palette; no dithering, so flat areas stay flat.
"""

from __future__ import annotations

import io
from typing import Literal

from PIL import Image

Format = Literal["png-palette", "png-rgb", "webp-lossless", "webp-90", "jpeg-90"]
FORMATS: tuple[Format, ...] = ("png-palette", "png-rgb", "webp-lossless", "webp-90", "jpeg-90")
COMPRESS_LEVEL = 3


def encode(image: Image.Image, fmt: Format = "png-palette") -> bytes:
    """Encode a picture; the default is what the bot posts, the others are kept for the benchmark."""
    out = io.BytesIO()
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    if fmt == "png-palette":
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

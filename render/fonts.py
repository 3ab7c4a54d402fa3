"""The fonts every picture uses: DejaVu, shipped with the package so Cyrillic renders on any machine."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

_FONTS = Path(__file__).parent / "assets" / "fonts"


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """Return the shared DejaVu Sans face at `size` pixels, loaded once per variant and size."""
    name = "DejaVuSansCondensed" if condensed else "DejaVuSans"
    if bold:
        name += "-Bold"
    return ImageFont.truetype(str(_FONTS / f"{name}.ttf"), size)


@lru_cache(maxsize=4096)
def text_length(text: str, size: int, *, bold: bool = False, condensed: bool = False) -> float:
    """How wide `text` is in that face, measured once (pictures fit the same words again every turn)."""
    return font(size, bold=bold, condensed=condensed).getlength(text)

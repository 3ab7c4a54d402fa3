"""Palette PNGs written from separately compressed row bands decode to the rows they were given."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from render.caches import Lru, cache_stats
from render.png import adler32_combine, compress, inflate, palette_bytes, write_png


def test_bands_compressed_apart_make_one_valid_png() -> None:
    rng = random.Random(4)
    width, height = 37, 23
    pixels = bytes(rng.choice((0, 0, 0, 3, 7, 255)) for _ in range(width * height))
    rows = b"".join(b"\0" + pixels[y * width : (y + 1) * width] for y in range(height))
    cuts = [0, 1, 9, 10, 23]
    segments = [
        compress(rows[a * (width + 1) : b * (width + 1)], level)
        for a, b, level in zip(cuts[:-1], cuts[1:], (1, 3, 4, 9), strict=True)
    ]
    assert b"".join(inflate(s) for s in segments) == rows
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for k in range(256) for v in (k, 255 - k, k // 2)])
    picture = Image.open(io.BytesIO(write_png(width, height, palette_bytes(palette), segments)))
    picture.load()
    assert picture.mode == "P" and picture.size == (width, height)
    assert picture.tobytes() == pixels
    assert picture.getpalette() == palette.getpalette()


def test_rows_that_do_not_fill_the_picture_are_refused() -> None:
    segment = compress(b"\0" * 11, 3)
    with pytest.raises(ValueError, match="segments hold"):
        write_png(10, 2, bytes(768), [segment])


@pytest.mark.parametrize("sizes", [(0, 5), (1, 1), (70000, 3), (5, 200000)])
def test_adler32_combines_as_over_the_whole(sizes: tuple[int, int]) -> None:
    rng = random.Random(sum(sizes))
    a, b = (bytes(rng.randrange(256) for _ in range(n)) for n in sizes)
    assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def test_a_bounded_cache_drops_the_least_recently_used_and_counts() -> None:
    cache: Lru[int] = Lru("test lru", 2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1
    cache.put("c", 3)  # drops b, used longest ago
    assert cache.get("b") is None and cache.get("c") == 3
    assert (len(cache), cache.hits, cache.misses) == (2, 2, 1)
    assert cache_stats()["test lru"] == {"entries": 2, "max": 2, "hits": 2, "misses": 1, "replaced": 0}
    cache.replaced_value("c")  # the hit on c was for a value that could not be used
    assert (cache.hits, cache.misses, cache.replaced) == (1, 2, 1)
    assert cache.get("c") is None

"""Small smooth pieces pasted on the board each turn: claimed trains, stations, highlight rings.

Each is drawn at twice the size and shrunk once, then cached, so a turn only pastes ready-made pieces and
claimed trains are as smooth as the static map under them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import font
from render.ttr.geometry import Car
from render.ttr.layout import map_layout
from render.ttr.palette import DARK_INK, RGB, ink_on, player_color
from render.ttr.spaces import draw_car_space
from render.ttr.symbols import draw_station_icon

SS = 2
STATION_SIZE = 16


@dataclass(frozen=True, slots=True)
class Sprite:
    """An RGBA piece and the board position of its top-left corner."""

    image: Image.Image
    x: int
    y: int

    def paste_on(self, board: Image.Image) -> None:
        """Paste onto the board image, blending by the piece's alpha."""
        board.paste(self.image, (self.x, self.y), self.image)


def _canvas(cars: Sequence[Car], grow: float) -> tuple[Image.Image, int, int]:
    """A transparent supersampled canvas covering these cars grown by `grow`, and its board origin."""
    xs = [x for car in cars for x, _ in car.corners(grow=grow)]
    ys = [y for car in cars for _, y in car.corners(grow=grow)]
    x0, y0 = int(min(xs)) - 2, int(min(ys)) - 2
    w, h = int(max(xs)) + 3 - x0, int(max(ys)) + 3 - y0
    return Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0)), x0, y0


def _shrink(big: Image.Image, x0: int, y0: int) -> Sprite:
    """Shrink a supersampled piece with premultiplied alpha (no dark fringes)."""
    small = big.convert("RGBa").resize((big.width // SS, big.height // SS), Image.Resampling.LANCZOS).convert("RGBA")
    return Sprite(image=small, x=x0, y=y0)


def _local(car: Car, x0: int, y0: int, grow: float) -> list[tuple[float, float]]:
    return [((x - x0) * SS, (y - y0) * SS) for x, y in car.corners(grow=grow)]


@lru_cache(maxsize=1024)
def train_sprite(map_id: str, track_id: int, color_index: int) -> Sprite:
    """A claimed track: its cars in the owner's colour, raised with a shadow, each with the owner's number."""
    cars = map_layout(map_id).tracks[track_id].cars
    big, x0, y0 = _canvas(cars, 4.0)
    draw = ImageDraw.Draw(big)
    color = player_color(color_index)
    for car in cars:
        shadow = [(x + 1.8 * SS, y + 1.8 * SS) for x, y in _local(car, x0, y0, 1.2)]
        draw.polygon(shadow, fill=(0, 0, 0, 110))
    face = font(9 * SS, bold=True)
    for car in cars:
        draw.polygon(_local(car, x0, y0, 1.4), fill=DARK_INK)
        draw.polygon(_local(car, x0, y0, 0.2), fill=color)
        cx, cy = (car.center[0] - x0) * SS, (car.center[1] - y0) * SS
        draw.text((cx, cy), str(color_index + 1), font=face, fill=ink_on(color), anchor="mm")
    return _shrink(big, x0, y0)


@lru_cache(maxsize=64)
def ring_sprite(map_id: str, track_id: int, ring: RGB) -> Sprite:
    """A bright ring around a track's cars: the track claimed last turn, or a player's longest trail."""
    cars = map_layout(map_id).tracks[track_id].cars
    big, x0, y0 = _canvas(cars, 7.5)
    draw = ImageDraw.Draw(big)
    for car in cars:
        draw.polygon(_local(car, x0, y0, 6.5), fill=DARK_INK)
    for car in cars:
        draw.polygon(_local(car, x0, y0, 5.0), fill=ring)
    for car in cars:
        draw.polygon(_local(car, x0, y0, 1.0), fill=(0, 0, 0, 0))  # a hole: the car space stays visible
    return _shrink(big, x0, y0)


@lru_cache(maxsize=16)
def station_sprite(color_index: int) -> Image.Image:
    """A station in the owner's colour with the owner's number, centred on its spot when pasted."""
    size = STATION_SIZE * SS
    big = Image.new("RGBA", (size + 4 * SS, size + 4 * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    color = player_color(color_index)
    box = (2 * SS + 2, 2 * SS + 2, size + 2 * SS + 2, size + 2 * SS + 2)
    shadow = tuple(v + 1.5 * SS for v in box)
    draw.rectangle((shadow[0], shadow[1] + (shadow[3] - shadow[1]) * 0.45, shadow[2], shadow[3]), fill=(0, 0, 0, 100))
    draw_station_icon(draw, box, color, DARK_INK, door=False)
    cx, cy = (box[0] + box[2]) / 2, box[1] + (box[3] - box[1]) * 0.58
    draw.text((cx, cy), str(color_index + 1), font=font(8 * SS, bold=True), fill=ink_on(color), anchor="mm")
    return big.convert("RGBa").resize((big.width // SS, big.height // SS), Image.Resampling.LANCZOS).convert("RGBA")


@lru_cache(maxsize=4)
def space_sample(kind: str) -> Image.Image:
    """One unclaimed car space as the board draws it, for the legend: a `tunnel` or a `ferry` locomotive space."""
    car = Car(center=(17.0, 9.0), angle=0.0, length=24.0, width=11.0)
    big = Image.new("RGBA", (34 * SS, 18 * SS), (0, 0, 0, 0))
    draw_car_space(ImageDraw.Draw(big), car, "gray", tunnel=kind == "tunnel", locomotive=kind == "ferry", scale=SS)
    return big.convert("RGBa").resize((34, 18), Image.Resampling.LANCZOS).convert("RGBA")

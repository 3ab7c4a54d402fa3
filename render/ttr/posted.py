"""The board as posted each turn, drawn from what changed since the game's last board.

The picture is `board_image` mapped to the board's fixed palette, pixel for pixel (tests compare whole games), but
it is not drawn whole. Each game keeps a *base* in the drawing process: its map with the lasting pieces (bands,
stations, closed twins, the city names over them) as PNG row bands, each compressed on its own (render/png.py). A
turn adds its new pieces by drawing again only the rectangles they cover: the static art there, every piece that
touches it in board order, then mapping those pixels to the palette. This turn's marks (the last move, a tunnel,
the winner's glow, the ring round a new station) are drawn the same way over a copy of the bands they touch. Only
those bands are compressed again; every other band's bytes are reused. The banner and the strip are drawn on
their own, the panel from pieces (each player, the cards and piles, the key) kept by what they show.

A pixel outside every redrawn rectangle is covered by the same pieces in the same order as in the base, so it is
what a full redraw gives; inside one, it is drawn from scratch. A base that the turn's pieces do not extend (another
game under the same id, a seat's colour changed) is replaced. Bases are kept for the most recently drawn games only.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.artstore import stored
from render.caches import Lru
from render.png import Segment, compress, inflate, palette_bytes, write_png
from render.ttr.board import Layer, board_palette, map_layers
from render.ttr.mapart import MapArt, art_words, map_art
from render.ttr.panel import PANEL_HEIGHT, PLAYERS_HEIGHT, PanelPiece, draw_panel_frame, panel_pieces
from render.ttr.text import Bots, Labels, Names
from render.ttr.turn_strip import BANNER_HEIGHT, STRIP_HEIGHT, banner_height, draw_banner, draw_strip
from rules.ttr.view import PublicView

BAND_ROWS = 32
"""Rows of the map compressed together: fewer rows redo less when a piece changes, more rows compress better."""
LASTING_LEVEL = 4
"""zlib level of the base's bands, compressed once and reused for the rest of the game."""
MARK_LEVEL = 1
"""zlib level of the bands under this turn's marks, which serve one board only: twice as fast as level 3 on the
map, for 5 % more bytes in those few bands."""
MARKED_BANDS_FAST = 8
"""Up to this many bands under marks are compressed at MARK_LEVEL; more (the winner's glow at the end) at
TURN_LEVEL, so the last board is not larger than the others."""
TURN_LEVEL = 3
"""zlib level of the strip and the panel, drawn for one board (mostly flat: level 1 is no faster there)."""
GAMES_KEPT = 640
"""Games whose base one drawing process keeps (0.3-0.4 MB each, so up to about 250 MB): a process holding more busy
games than its workers keep draws most boards whole again, about three times the CPU (bench/load.py)."""
PIECES_KEPT = 1024
"""Panel pieces kept by what they show (a player's cell is about 35 KB, a score or a row of counters less)."""
PANEL_ROWS_KEPT = 64
"""Compressed halves of the panel (players, market) kept by what they show."""

Box = tuple[int, int, int, int]
ArtKey = tuple[str, tuple[tuple[str, str], ...]]


@dataclass(slots=True)
class _Band:
    """Rows `top` to `bottom` of a base's map: compressed, or (changed since) the filtered rows themselves.

    Filtered rows are a "P" image one pixel wider than the map whose first column is the rows' filter byte 0, so
    pieces are pasted in at x + 1 and `tobytes()` is what the PNG stores."""

    top: int
    bottom: int
    segment: Segment | None
    rows: Image.Image | None

    def filtered(self, width: int) -> Image.Image:
        """A copy of the band's filtered rows."""
        if self.rows is not None:
            return self.rows.copy()
        assert self.segment is not None
        return Image.frombytes("P", (width + 1, self.bottom - self.top), inflate(self.segment))

    def kept(self) -> Segment:
        """The band compressed (now, if it changed since)."""
        if self.segment is None:
            assert self.rows is not None
            self.segment = compress(self.rows.tobytes(), LASTING_LEVEL)
            self.rows = None
        return self.segment


@dataclass(slots=True)
class MapBase:
    """A game's map with its lasting pieces, as row bands."""

    art: ArtKey
    lasting: frozenset[tuple[object, ...]]
    bands: list[_Band]


@dataclass(frozen=True, slots=True, eq=False)
class _Static:
    """What every board of a map and language shares: the art, the palette and the bare map's bands."""

    key: ArtKey
    art: MapArt
    palette: Image.Image
    plte: bytes
    bands: tuple[Segment, ...]


BASES: Lru[MapBase] = Lru("ttr board bases", GAMES_KEPT)
"""Game → its base, in this process."""
PIECES: Lru[Image.Image] = Lru("ttr panel pieces", PIECES_KEPT)
"""(map, language, row parity, piece) → the piece's pixels as palette indices."""
PANEL_ROWS: Lru[Segment] = Lru("ttr panel rows", PANEL_ROWS_KEPT)
"""(map, language, row parity, the pieces in it) → a half of the panel, compressed."""
_DRAWING = threading.Lock()
"""One board at a time per process: the bases and the scratch canvases are shared."""


def render_board(
    view: PublicView, labels: Labels, names: Names, game: Hashable | None = None, bots: Bots = frozenset()
) -> bytes:
    """The board as PNG bytes (what the public turn message shows), from `game`'s base when one is kept (`bots`: the
    seats whose names get the bot mark)."""
    with _DRAWING:
        static = _static(view.map, art_words(labels, view.map))
        width, height = static.art.image.size
        layers = map_layers(view, static.art)
        base = _base(static, layers, game)
        banner = banner_height(view)
        segments = [_banner(view, labels, names, static)] if banner else []
        segments += _map(base, static, layers)
        segments.append(_strip(view, labels, names, bots, static, banner + height))
        segments += _panel(view, labels, names, bots, static, banner + height + STRIP_HEIGHT)
        return write_png(width, banner + height + STRIP_HEIGHT + PANEL_HEIGHT, static.plte, segments)


def forget_board(game: Hashable) -> None:
    """Drop a game's base (the game ended)."""
    with _DRAWING:
        BASES.pop(game)


def warm_boards(map_id: str, labels: Labels) -> None:
    """Draw what every board of a map in a language shares: the art, the palette and the bare map's bands."""
    with _DRAWING:
        _static(map_id, art_words(labels, map_id))


@stored(maxsize=8)
def _static(map_id: str, words: tuple[tuple[str, str], ...]) -> _Static:
    art = map_art(map_id, words)
    palette = board_palette(map_id, words)
    rows = _filtered(art.image.quantize(palette=palette, dither=Image.Dither.NONE))
    step = BAND_ROWS * rows.width
    data = rows.tobytes()
    bands = tuple(compress(data[at : at + step], LASTING_LEVEL) for at in range(0, len(data), step))
    return _Static((map_id, words), art, palette, palette_bytes(palette), bands)


def _filtered(indices: Image.Image) -> Image.Image:
    """Palette indices as filtered rows: one column wider, the first column the filter byte 0."""
    rows = Image.new("P", (indices.width + 1, indices.height), 0)
    rows.paste(indices, (1, 0))
    return rows


def _base(static: _Static, layers: Sequence[Layer], game: Hashable | None) -> MapBase:
    """The game's base with every lasting piece of this turn in it."""
    lasting = [layer for layer in layers if layer.lasting]
    keys = frozenset(layer.key for layer in lasting)
    base = BASES.get(game) if game is not None else None
    if base is not None and (base.art != static.key or not base.lasting <= keys):
        BASES.replaced_value(game)
        base = None
    if base is None:
        height = static.art.image.height
        bands = [
            _Band(k * BAND_ROWS, min(height, (k + 1) * BAND_ROWS), segment, None)
            for k, segment in enumerate(static.bands)
        ]
        base = MapBase(static.key, frozenset(), bands)
    new = [layer.box for layer in lasting if layer.key not in base.lasting]
    if new:
        for k, rows in _redrawn(base.bands, static, lasting, new).items():
            band = base.bands[k]
            base.bands[k] = _Band(band.top, band.bottom, None, rows)
        base.lasting = keys
    if game is not None:
        BASES.put(game, base)
    return base


def _map(base: MapBase, static: _Static, layers: Sequence[Layer]) -> list[Segment]:
    """The map's bands: the base's, and those under this turn's marks drawn again with them."""
    marks = [layer.box for layer in layers if not layer.lasting]
    marked = _redrawn(base.bands, static, layers, marks) if marks else {}
    level = MARK_LEVEL if len(marked) <= MARKED_BANDS_FAST else TURN_LEVEL
    return [compress(marked[k].tobytes(), level) if k in marked else band.kept() for k, band in enumerate(base.bands)]


def base_bytes(base: MapBase) -> int:
    """What a kept base weighs: its compressed bands (some shared with the bare map), and the rows changed since."""
    total = 0
    for band in base.bands:
        if band.segment is not None:
            total += len(band.segment.data)
        elif band.rows is not None:
            total += band.rows.width * band.rows.height
    return total


def _redrawn(
    bands: Sequence[_Band], static: _Static, layers: Sequence[Layer], boxes: Sequence[Box]
) -> dict[int, Image.Image]:
    """Copies of the bands that the boxes touch, the boxes drawn again from the art and these layers."""
    width, height = static.art.image.size
    touched: dict[int, Image.Image] = {}
    for rect in _rects(boxes, width, height):
        pixels = _draw_rect(static, layers, rect)
        x0, y0, _, y1 = rect
        for k in range(y0 // BAND_ROWS, (y1 - 1) // BAND_ROWS + 1):
            band = bands[k]
            rows = touched.get(k)
            if rows is None:
                rows = touched[k] = band.filtered(width)
            rows.paste(pixels, (x0 + 1, y0 - band.top))
    return touched


def _rects(boxes: Sequence[Box], width: int, height: int) -> list[Box]:
    """The boxes clipped to the map, less those inside another."""
    clipped = []
    for x0, y0, x1, y1 in boxes:
        box = (max(0, x0), max(0, y0), min(width, x1), min(height, y1))
        if box[0] < box[2] and box[1] < box[3]:
            clipped.append(box)
    unique = sorted(set(clipped), key=lambda b: (b[2] - b[0]) * (b[3] - b[1]), reverse=True)
    kept: list[Box] = []
    for box in unique:
        if not any(o[0] <= box[0] and o[1] <= box[1] and box[2] <= o[2] and box[3] <= o[3] for o in kept):
            kept.append(box)
    return kept


def _draw_rect(static: _Static, layers: Sequence[Layer], rect: Box) -> Image.Image:
    """A rectangle of the map drawn from scratch: the art, then every layer touching it in order, as indices."""
    x0, y0, x1, y1 = rect
    canvas = static.art.image.crop(rect)
    for layer in layers:
        lx0, ly0, lx1, ly1 = layer.box
        if lx0 < x1 and x0 < lx1 and ly0 < y1 and y0 < ly1:
            canvas.paste(layer.image, (lx0 - x0, ly0 - y0), layer.image)
    return canvas.quantize(palette=static.palette, dither=Image.Dither.NONE)


def _banner(view: PublicView, labels: Labels, names: Names, static: _Static) -> Segment:
    canvas = Image.new("RGB", (static.art.image.width, BANNER_HEIGHT))
    draw_banner(canvas, view, labels, names)
    return _compressed(canvas, static)


def _strip(view: PublicView, labels: Labels, names: Names, bots: Bots, static: _Static, top: int) -> Segment:
    """The strip, drawn at a top of the same parity as on the board: its half-pixel roundings then fall alike."""
    parity = top % 2
    canvas = Image.new("RGB", (static.art.image.width, parity + STRIP_HEIGHT + 1))
    draw_strip(canvas, parity, view, labels, names, bots)
    return _compressed(canvas.crop((0, parity, canvas.width, parity + STRIP_HEIGHT)), static)


def _compressed(image: Image.Image, static: _Static) -> Segment:
    indices = image.quantize(palette=static.palette, dither=Image.Dither.NONE)
    return compress(_filtered(indices).tobytes(), TURN_LEVEL)


def _panel(view: PublicView, labels: Labels, names: Names, bots: Bots, static: _Static, top: int) -> list[Segment]:
    """The panel's two halves (players, market), each from its pieces, each piece drawn once for what it shows."""
    parity = top % 2
    pieces = panel_pieces(view, labels, names, static.art.image.width, bots)
    halves = []
    for first, last in ((0, PLAYERS_HEIGHT), (PLAYERS_HEIGHT, PANEL_HEIGHT)):
        inside = [piece for piece in pieces if first <= piece.box[1] < last]
        key = (static.key, parity, first, tuple(piece.key for piece in inside))
        segment = PANEL_ROWS.get(key)
        if segment is None:
            rows = _panel_frame(static.key, parity).crop((0, first, static.art.image.width + 1, last))
            for piece in inside:
                rows.paste(_piece(piece, static, parity), (piece.box[0] + 1, piece.box[1] - first))
            segment = compress(rows.tobytes(), TURN_LEVEL)
            PANEL_ROWS.put(key, segment)
        halves.append(segment)
    return halves


def _piece(piece: PanelPiece, static: _Static, parity: int) -> Image.Image:
    """A piece's pixels as indices, drawn on the panel's frame unless kept."""
    key = (static.key, parity, piece.key)
    pixels = PIECES.get(key)
    if pixels is None:
        canvas, draw = _scratch(static.art.image.width, parity)
        piece.draw(canvas, draw, parity)
        x0, y0, x1, y1 = piece.box
        box = (x0, y0 + parity, x1, y1 + parity)
        pixels = canvas.crop(box).quantize(palette=static.palette, dither=Image.Dither.NONE)
        canvas.paste(_frame(static.art.image.width, parity).crop(box), box)
        PIECES.put(key, pixels)
    return pixels


@lru_cache(maxsize=4)
def _frame(width: int, parity: int) -> Image.Image:
    """The panel's background and line in RGB, its top at row `parity` (not to be drawn on)."""
    canvas = Image.new("RGB", (width, parity + PANEL_HEIGHT))
    draw_panel_frame(ImageDraw.Draw(canvas), parity, width, canvas.height)
    return canvas


@lru_cache(maxsize=4)
def _scratch(width: int, parity: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A frame to draw pieces on; each piece's box is put back as it was once the piece is taken."""
    canvas = _frame(width, parity).copy()
    return canvas, ImageDraw.Draw(canvas)


@lru_cache(maxsize=16)
def _panel_frame(key: ArtKey, parity: int) -> Image.Image:
    """The panel's background and line as filtered rows."""
    static = _static(*key)
    frame = _frame(static.art.image.width, parity)
    frame = frame.crop((0, parity, frame.width, frame.height))
    return _filtered(frame.quantize(palette=static.palette, dither=Image.Dither.NONE))

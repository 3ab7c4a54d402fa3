"""The board picture, laid out for the size Discord shows it (about 450–550 px wide in the chat).

From top to bottom: a banner in the last round and at the end, the map at the full width of the picture, a strip
saying what just happened, and the players' panel with the face-up cards. The panel sits under the map, not
beside it: a 1600 px map with a 360 px side panel is shown at 450/1960 of its size, the same map alone across the
picture at 450/1600, so everything on it (names, bands, stations) reads 22 % larger at the same chat width, and the
panel's text gets a whole row to itself.

The map is the cached static layer (faded free tracks, cities, names); each turn adds closed double tracks, the
winner's trail at the end, the last move's mark, every claimed band, city names again over the bands, stations.
`board_image` draws all of it in full; the bot posts boards drawn from what changed (render/ttr/posted.py), which
equal this full drawing mapped to `board_palette`, pixel for pixel.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from render.artstore import stored
from render.ttr.layout import map_layout
from render.ttr.mapart import MapArt, art_words, map_art
from render.ttr.palette import PLAYER_COLORS
from render.ttr.panel import PANEL_HEIGHT, draw_panel
from render.ttr.sprites import Sprite, band_sprite, closed_sprite, mark_sprite, station_mark, station_sprite
from render.ttr.text import Bots, Labels, Names
from render.ttr.turn_strip import STRIP_HEIGHT, banner_height, draw_banner, draw_strip, longest_holders
from rules.engine import GameResult
from rules.ttr.board import CARD_NAMES
from rules.ttr.maps import load_map
from rules.ttr.view import FinalPlayer, LastMoveView, PlayerPublic, PublicView, TunnelView

_MARKED_KINDS = ("claim", "tunnel_failed", "tunnel_withdrawn")
"""Last moves that happened on a track, which gets the last move's mark."""


def board_image(view: PublicView, labels: Labels, names: Names, bots: Bots = frozenset()) -> Image.Image:
    """Draw the board for a public (or seat) view: banner, map with this turn's pieces, last move, panel (`bots`:
    the seats whose names get the bot mark)."""
    layout = map_layout(view.map)
    art = map_art(view.map, art_words(labels, view.map))
    banner = banner_height(view)
    image = Image.new("RGB", (layout.width, banner + layout.height + STRIP_HEIGHT + PANEL_HEIGHT))
    image.paste(_map(view, art), (0, banner))
    if banner:
        draw_banner(image, view, labels, names)
    draw_strip(image, banner + layout.height, view, labels, names, bots)
    draw_panel(image, banner + layout.height + STRIP_HEIGHT, view, labels, names, bots)
    return image


@dataclass(frozen=True, slots=True)
class Layer:
    """A piece pasted on the map's static layer, with what it is, so two boards' pieces can be compared."""

    key: tuple[object, ...]
    image: Image.Image
    """RGBA, blended by its alpha."""
    x: int
    y: int
    lasting: bool
    """Whether it stays for the rest of the game once there (a band, a station, a closed twin, the names over the
    bands) or belongs to this turn only (a mark, the winner's glow, the ring round the last station)."""
    box: tuple[int, int, int, int]
    """Left, top, right and bottom (exclusive) of the piece on the map."""


def _map(view: PublicView, art: MapArt) -> Image.Image:
    """The map with this turn's pieces on the static layer."""
    image = art.image.copy()
    for layer in map_layers(view, art):
        image.paste(layer.image, (layer.x, layer.y), layer.image)
    return image


def map_layers(view: PublicView, art: MapArt) -> list[Layer]:
    """This turn's pieces in the order they are pasted: closed twins, the winner's glow, the last move's and the
    tunnel's marks, every claimed band, the city names again over the bands, then the stations (the last one ringed).
    """
    layers = [_sprite_layer(("closed", t), closed_sprite(view.map, t), True) for t in sorted(view.closed)]
    layers += [_sprite_layer(("winner", t), mark_sprite(view.map, t, "winner"), False) for t in winners_trail(view)]
    move = view.last_move
    if view.final is None and move is not None and move.kind in _MARKED_KINDS and move.track is not None:
        layers.append(_sprite_layer(("last", move.track), mark_sprite(view.map, move.track, "last"), False))
    if view.tunnel is not None:
        layers.append(
            _sprite_layer(("tunnel", view.tunnel.track), mark_sprite(view.map, view.tunnel.track, "tunnel"), False)
        )
    for track_id, seat in sorted(view.owners.items()):
        color = view.players[seat].color
        layers.append(_sprite_layer(("band", track_id, color), band_sprite(view.map, track_id, color), True))
    if view.owners:
        layers += [_sprite_layer(("name", k), name, True) for k, name in enumerate(art.names)]
    for city, seat in sorted(view.stations.items()):
        x, y = art.spots[city].station
        if view.final is None and move is not None and move.kind == "station" and move.city == city:
            layers.append(_centred(("ring", city), station_mark(), x, y, False))
        color = view.players[seat].color
        layers.append(_centred(("station", city, color), station_sprite(color), x, y, True))
    return layers


def _sprite_layer(key: tuple[object, ...], sprite: Sprite, lasting: bool) -> Layer:
    return _layer(key, sprite.image, sprite.x, sprite.y, lasting)


def _centred(key: tuple[object, ...], image: Image.Image, x: float, y: float, lasting: bool) -> Layer:
    return _layer(key, image, round(x - image.width / 2), round(y - image.height / 2), lasting)


def _layer(key: tuple[object, ...], image: Image.Image, x: int, y: int, lasting: bool) -> Layer:
    return Layer(key, image, x, y, lasting, (x, y, x + image.width, y + image.height))


def winners_trail(view: PublicView) -> list[int]:
    """At the end, the tracks of the longest-trail winner's (or winners') trail."""
    return [track_id for f in longest_holders(view) for track_id in f.longest_trail]


@stored(maxsize=8)
def board_palette(map_id: str, words: tuple[tuple[str, str], ...]) -> Image.Image:
    """The 256 colours every board of a map (and language) is encoded with, chosen once from sampler boards that
    show every piece in every player colour: bands, marks, closed tracks, stations, a tunnel, banners, cards."""
    game_map = load_map(map_id)
    tracks = [t.id for t in game_map.tracks]
    players = [
        PlayerPublic(
            seat=s, color=s, route_points=0, cars=45, stations_left=3, hand_size=4, ticket_count=3, chosen=True
        )
        for s in range(len(PLAYER_COLORS))
    ]
    playing = PublicView(
        map=map_id,
        n_players=len(players),
        phase="turn",
        current=0,
        to_act=[0],
        pick="first",
        owners={t: k % len(players) for k, t in enumerate(tracks[::2])},
        stations={c.id: k % len(players) for k, c in enumerate(game_map.cities[::3])},
        market=list(CARD_NAMES[:5]),
        deck_size=50,
        discard_size=0,
        ticket_deck_size=20,
        players=players,
        tunnel=None,
        tickets_offered=0,
        last_claim=tracks[0],
        last_round=True,
        turns_left=2,
        final=None,
        result=None,
        last_move=LastMoveView(seat=0, kind="claim", track=tracks[0], points=1),
        closed=tracks[1::2][:12],
    )
    tunnel = playing.model_copy(
        update={
            "tunnel": TunnelView(track=tracks[1], color="red", locomotives=0, revealed=list(CARD_NAMES[4:7]), extra=1),
            "market": list(CARD_NAMES[4:]),
            "last_round": False,
        }
    )
    trail = FinalPlayer(
        seat=0, total=0, tickets=[], longest_trail=tracks[::3], longest_length=1, longest_bonus=True, station_tracks={}
    )
    ended = playing.model_copy(
        update={
            "owners": {t: k % len(players) for k, t in enumerate(tracks)},
            "final": [trail],
            "result": GameResult(players=[], winners=[0]),
        }
    )
    names = [str(s + 1) for s in range(len(players))]
    boards = [board_image(view, dict(words), names) for view in (playing, tunnel, ended)]
    sampler = Image.new("RGB", (boards[0].width, sum(b.height for b in boards)))
    y = 0
    for board in boards:
        sampler.paste(board, (0, y))
        y += board.height
    return sampler.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)

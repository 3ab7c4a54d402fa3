"""The board picture: the cached static map, then this turn's trains, stations and highlights, and the panel."""

from __future__ import annotations

from PIL import Image

from render.ttr.encode import encode
from render.ttr.layout import map_layout
from render.ttr.mapart import map_art
from render.ttr.palette import ACCENT, HIGHLIGHT, TUNNEL_RING
from render.ttr.panel import PANEL_WIDTH, draw_panel
from render.ttr.sprites import ring_sprite, station_sprite, train_sprite
from render.ttr.text import Labels, Names, city_names
from rules.ttr.maps import load_map
from rules.ttr.view import PublicView


def board_image(view: PublicView, labels: Labels, names: Names) -> Image.Image:
    """Draw the board for a public (or seat) view: map, claimed tracks, stations, last claim, trails, panel."""
    game_map = load_map(view.map)
    layout = map_layout(view.map)
    art = map_art(view.map, tuple(sorted(city_names(labels, game_map).items())))
    image = Image.new("RGB", (layout.width + PANEL_WIDTH, layout.height))
    image.paste(art.image, (0, 0))
    if view.final is not None:
        for final in view.final:
            for track_id in final.longest_trail:
                ring_sprite(view.map, track_id, HIGHLIGHT).paste_on(image)
    elif view.last_claim is not None:
        ring_sprite(view.map, view.last_claim, ACCENT).paste_on(image)
    if view.tunnel is not None:
        ring_sprite(view.map, view.tunnel.track, TUNNEL_RING).paste_on(image)
    for track_id, seat in sorted(view.owners.items()):
        train_sprite(view.map, track_id, view.players[seat].color).paste_on(image)
    for city, seat in sorted(view.stations.items()):
        sprite = station_sprite(view.players[seat].color)
        x, y = art.spots[city].station
        image.paste(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), sprite)
    if view.owners or view.stations:
        for name in art.names:
            name.paste_on(image)
    draw_panel(image, layout.width, view, labels, names)
    return image


def render_board(view: PublicView, labels: Labels, names: Names) -> bytes:
    """The board as PNG bytes: what the public turn message shows (a seat view draws the same board)."""
    return encode(board_image(view, labels, names))

"""Write a gallery of Ticket to Ride board pictures from seeded bot games, to look at as a player would.

Usage: .venv/bin/python bench/ttr_gallery.py OUT_DIR

Each board is written full size (`NAME.png`) and scaled to the widths Discord shows it at (`NAME.450.png`,
`NAME.800.png`): an empty board, a five-player middle game with bot seats, every kind of last move, a tunnel being
paid (its three cards turned over, five players), every tunnel and ferry of Europe free and claimed in each seat's
colour, a two-player game with a closed double route, the last round, the end with the longest-trail winner, Europe
with stations and tunnels, in English and Russian. (Hands, ticket choices and score sheets:
bench/ttr_private_gallery.py.)
"""

from __future__ import annotations

import functools
import io
import random
import sys
from collections.abc import Callable
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.i18n import text  # noqa: E402
from render.ttr import render_board  # noqa: E402
from rules.ttr.actions import BuildStation  # noqa: E402
from rules.ttr.engine import TicketToRideEngine  # noqa: E402
from rules.ttr.maps import load_map  # noqa: E402
from rules.ttr.options import TtrOptions  # noqa: E402
from rules.ttr.state import MoveKind, Phase, TtrState  # noqa: E402
from rules.ttr.view import LastMoveView, PublicView, SeatView  # noqa: E402

ENGINE = TicketToRideEngine()
NAMES = ["Alice", "Борис", "Chen Wei", "Dmitri Alexandrovich Sokolov", "Eve"]
BOTS = frozenset({1, 3})
"""Seats played by bots in the five-player pictures: their names carry the bot mark."""
WIDTHS = (450, 800)
"""Widths the chat shows a picture at: a narrow desktop column or a phone, and a wide one."""


def play(
    map_id: str, n: int, seed: int, until: Callable[[TtrState, int], bool] | None = None, stations: float = 0.0
) -> TtrState:
    """A seeded game of sensible bots, stopped where `until(state, moves)` first holds (or at the end).

    With `stations`, a bot builds a station with that chance whenever it may (the bots rarely do by themselves).
    """
    state = ENGINE.new_game(TtrOptions.model_validate({"map": map_id}), n, seed)
    rng = random.Random(seed)
    moves = 0
    while not ENGINE.is_over(state):
        if until is not None and until(state, moves):
            return state
        for seat in sorted(ENGINE.to_act(state)):
            action = ENGINE.bot_action(state, seat, rng, "sensible")
            if stations and rng.random() < stations:
                builds = [a for a in ENGINE.legal_actions(state, seat) if isinstance(a, BuildStation)]
                action = rng.choice(builds) if builds else action
            state, _ = ENGINE.apply(state, seat, action)
            moves += 1
    return state


def seat_view(state: TtrState, seat: int) -> SeatView:
    """A seat's own view of a state."""
    view = ENGINE.view(state, seat)
    assert isinstance(view, SeatView)
    return view


def public(state: TtrState) -> PublicView:
    """The public view of a state (what the board shows)."""
    view = ENGINE.view(state, None)
    assert isinstance(view, PublicView)
    return view


def after_move(
    kind: MoveKind, *, face_up: int | None = None, blind: int | None = None
) -> Callable[[TtrState, int], bool]:
    """Stop once the last finished move is of this kind (and, for card draws, took these many face up / blind)."""

    def reached(state: TtrState, moves: int) -> bool:
        move = state.last_move
        if move is None or move.kind is not kind or state.phase is not Phase.TURN or moves < 30:
            return False
        return (face_up is None or len(move.face_up) == face_up) and (blind is None or move.blind == blind)

    return reached


def _as_move(view: PublicView, **facts: object) -> PublicView:
    """The view with its last move replaced (for moves the bots rarely make: a pass, a tunnel given up)."""
    move = LastMoveView.model_validate({"seat": 0, **facts})
    return view.model_copy(update={"last_move": move})


def europe_tunnels_and_ferries() -> PublicView:
    """Europe early in a five-player game with every tunnel and ferry claimed, the seats' colours in turn."""
    view = public(play("europe", 5, 3, until=lambda s, k: k >= 10))
    special = [t.id for t in load_map("europe").tracks if t.tunnel or t.ferry_locomotives]
    owners = {track: k % view.n_players for k, track in enumerate(t for t in special if t not in view.owners)}
    return view.model_copy(update={"owners": view.owners | owners})


def save(out: Path, name: str, data: bytes) -> None:
    """Write a picture full size and at each chat width."""
    (out / f"{name}.png").write_bytes(data)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    for width in WIDTHS:
        small = image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)
        small.save(out / f"{name}.{width}.png")
    print(f"{name}.png  {image.width}x{image.height}  {len(data) / 1024:.0f} KiB")


def main(out: Path) -> None:
    """Write the whole gallery to `out`."""
    out.mkdir(parents=True, exist_ok=True)
    en, ru = functools.partial(text, "en"), functools.partial(text, "ru")
    for map_id in ("usa", "europe"):
        save(out, f"{map_id}_empty", render_board(public(play(map_id, 5, 3, until=lambda s, k: True)), en, NAMES))
    middle = play("usa", 5, 11, until=lambda s, k: k >= 130)
    save(out, "usa_mid_5p", render_board(public(middle), en, NAMES, None, BOTS))
    save(out, "usa_mid_5p_ru", render_board(public(middle), ru, NAMES, None, BOTS))
    special = europe_tunnels_and_ferries()
    save(out, "europe_tunnels_ferries_free", render_board(special.model_copy(update={"owners": {}}), en, NAMES))
    save(out, "europe_tunnels_ferries_claimed", render_board(special, en, NAMES))
    save(out, "europe_tunnels_ferries_claimed_ru", render_board(special, ru, NAMES))
    kinds = {
        "cards_face_up_and_blind": after_move(MoveKind.CARDS, face_up=1, blind=1),
        "cards_blind": after_move(MoveKind.CARDS, blind=2),
        "cards_face_up": after_move(MoveKind.CARDS, face_up=2),
        "claim": after_move(MoveKind.CLAIM),
        "tickets": after_move(MoveKind.TICKETS),
    }
    for name, until in kinds.items():
        save(out, f"usa_last_{name}", render_board(public(play("usa", 4, 21, until=until)), en, NAMES))
    station = play("europe", 4, 11, until=after_move(MoveKind.STATION), stations=0.1)
    save(out, "europe_last_station", render_board(public(station), en, NAMES))
    save(out, "europe_last_station_ru", render_board(public(station), ru, NAMES))
    for seed in range(1, 40):
        state = play("europe", 3, seed, until=after_move(MoveKind.TUNNEL_FAILED))
        if state.last_move is not None and state.last_move.kind is MoveKind.TUNNEL_FAILED:
            save(out, "europe_last_tunnel_failed", render_board(public(state), en, NAMES))
            break
    choosing = play("usa", 4, 21, until=lambda s, k: s.phase is Phase.TICKETS and k > 30)
    save(out, "usa_choosing_tickets", render_board(public(choosing), en, NAMES))
    tunnel = play("europe", 5, 1, until=lambda s, k: s.phase is Phase.TUNNEL)
    if tunnel.phase is not Phase.TUNNEL:
        raise SystemExit("no tunnel paid for in the seeded five-player Europe game")
    save(out, "europe_tunnel_paying", render_board(public(tunnel), en, NAMES, None, BOTS))
    save(out, "europe_tunnel_paying_ru", render_board(public(tunnel), ru, NAMES, None, BOTS))
    save(out, "usa_last_pass", render_board(_as_move(public(middle), kind="pass"), en, NAMES))
    tried = public(tunnel)
    if tried.tunnel is not None:
        withdrawn = _as_move(tried, kind="tunnel_withdrawn", track=tried.tunnel.track, seat=tried.current or 0)
        save(
            out, "europe_last_tunnel_withdrawn", render_board(withdrawn.model_copy(update={"tunnel": None}), en, NAMES)
        )
    closed = play("usa", 2, 5, until=lambda s, k: k > 60 and bool(public(s).closed))
    save(out, "usa_2p_closed_double", render_board(public(closed), en, NAMES[:2]))
    last_round = play("usa", 4, 13, until=lambda s, k: s.final_turns >= 2)
    save(out, "usa_last_round", render_board(public(last_round), en, NAMES))
    save(out, "usa_last_round_ru", render_board(public(last_round), ru, NAMES))
    for map_id in ("usa", "europe"):
        end = play(map_id, 5, 7, stations=0.08)
        save(out, f"{map_id}_end", render_board(public(end), en, NAMES, None, BOTS))
        save(out, f"{map_id}_end_ru", render_board(public(end), ru, NAMES, None, BOTS))
    europe = play("europe", 4, 11, until=lambda s, k: k >= 120, stations=0.08)
    save(out, "europe_mid_stations", render_board(public(europe), en, NAMES))
    save(out, "europe_mid_stations_ru", render_board(public(europe), ru, NAMES))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))

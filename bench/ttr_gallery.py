"""Write a gallery of Ticket to Ride pictures from seeded bot games, to look at as a player would.

Usage: .venv/bin/python bench/ttr_gallery.py OUT_DIR

Writes empty boards, mid games, end games with all five colours, hands, ticket choices (opening and mid-game),
a tunnel being paid, score sheets, in English and Russian, plus a phone-size copy (`*.phone.png`) of each.
"""

from __future__ import annotations

import io
import random
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from render.ttr import (  # noqa: E402
    render_board,
    render_hand,
    render_score_sheet,
    render_ticket_choice,
)
from rules.ttr.actions import BuildStation  # noqa: E402
from rules.ttr.engine import TicketToRideEngine  # noqa: E402
from rules.ttr.options import TtrOptions  # noqa: E402
from rules.ttr.state import Phase, TtrState  # noqa: E402
from rules.ttr.view import SeatView  # noqa: E402

ENGINE = TicketToRideEngine()
NAMES = ["Alice", "Борис", "Chen Wei", "Dmitri Alexandrovich Sokolov", "Eve"]
PHONE_WIDTH = 720
"""About what a phone shows across once the picture is opened full screen."""


def labels_for(lang: str) -> dict[str, str]:
    """Every key of the bot's TOML files for the Ticket to Ride namespaces, flattened (`ttr.city.denver`)."""
    flat: dict[str, str] = {}
    for name in ("ttr", "ttr_picture"):
        path = ROOT / "bot" / "i18n" / lang / f"{name}.toml"
        if path.exists():
            _flatten(name, tomllib.loads(path.read_text(encoding="utf-8")), flat)
    return flat


def _flatten(prefix: str, table: dict[str, object], out: dict[str, str]) -> None:
    for key, value in table.items():
        if isinstance(value, dict):
            _flatten(f"{prefix}.{key}", value, out)
        elif isinstance(value, str):
            out[f"{prefix}.{key}"] = value


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


def save(out: Path, name: str, data: bytes) -> None:
    """Write a picture and its phone-size copy."""
    (out / f"{name}.png").write_bytes(data)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    if image.width > PHONE_WIDTH:
        small = image.resize((PHONE_WIDTH, round(image.height * PHONE_WIDTH / image.width)), Image.Resampling.LANCZOS)
        small.save(out / f"{name}.phone.png")
    print(f"{name}.png  {image.width}x{image.height}  {len(data) / 1024:.0f} KiB")


def main(out: Path) -> None:
    """Write the whole gallery to `out`."""
    out.mkdir(parents=True, exist_ok=True)
    en, ru = labels_for("en"), labels_for("ru")
    for map_id in ("usa", "europe"):
        opening = play(map_id, 5, 3, until=lambda s, k: True)
        save(out, f"{map_id}_empty", render_board(ENGINE.view(opening, None), en, NAMES))
        save(out, f"{map_id}_opening_tickets", render_ticket_choice(seat_view(opening, 0), en))
        middle = play(map_id, 4, 11, until=lambda s, k: k >= 90, stations=0.08)
        save(out, f"{map_id}_mid_game", render_board(ENGINE.view(middle, None), en, NAMES))
        save(out, f"{map_id}_hand", render_hand(seat_view(middle, middle.current), en, NAMES))
        drawing = play(map_id, 3, 5, until=lambda s, k: s.phase is Phase.TICKETS and k > 40)
        if drawing.phase is Phase.TICKETS:
            save(out, f"{map_id}_drawn_tickets", render_ticket_choice(seat_view(drawing, drawing.current), en))
        end = play(map_id, 5, 7, stations=0.08)
        save(out, f"{map_id}_end_game", render_board(ENGINE.view(end, None), en, NAMES))
        save(out, f"{map_id}_end_hand", render_hand(seat_view(end, 0), en, NAMES))
        save(out, f"{map_id}_score_sheet", render_score_sheet(ENGINE.view(end, None), en, NAMES))
    tunnel = play("europe", 3, 1, until=lambda s, k: s.phase is Phase.TUNNEL)
    if tunnel.phase is Phase.TUNNEL:
        save(out, "europe_tunnel", render_board(ENGINE.view(tunnel, None), en, NAMES))
    middle = play("europe", 4, 11, until=lambda s, k: k >= 90)
    save(out, "europe_mid_game_ru", render_board(ENGINE.view(middle, None), ru, NAMES))
    save(out, "europe_hand_ru", render_hand(seat_view(middle, middle.current), ru, NAMES))
    end = play("usa", 5, 7)
    save(out, "usa_score_sheet_ru", render_score_sheet(ENGINE.view(end, None), ru, NAMES))
    save(
        out,
        "usa_opening_tickets_ru",
        render_ticket_choice(seat_view(play("usa", 2, 9, until=lambda s, k: True), 1), ru),
    )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))

"""Helpers for the card-game tests: hand-built states, card counts by name, and the conservation check."""

from __future__ import annotations

import random
import string
import tomllib
from collections.abc import Iterator
from pathlib import Path

from rules.cardgame.actions import CardGameAction, KeepTickets
from rules.cardgame.cards import KIND_NAMES, LOCOMOTIVE, LOCOMOTIVES, N_COLORS, N_KINDS, PER_COLOR
from rules.cardgame.engine import CardGameEngine
from rules.cardgame.options import CardGameOptions
from rules.cardgame.state import CardGameState
from rules.engine import Event

ENGINE = CardGameEngine()


def kinds(**counts: int) -> tuple[int, ...]:
    """A 9-tuple of card counts by kind name, e.g. `kinds(red=2, locomotive=1)`."""
    return tuple(counts.get(name, 0) for name in KIND_NAMES)


def colors(**counts: int) -> tuple[int, ...]:
    """An 8-tuple of counts by colour name (yards)."""
    return kinds(**counts)[:N_COLORS]


def kind(name: str) -> int:
    """A card kind by name."""
    return KIND_NAMES.index(name)


def started(n: int = 2, seed: int = 1, options: CardGameOptions | None = None) -> CardGameState:
    """A game past the opening: every seat kept its first offered ticket; the first player is to act."""
    state = ENGINE.new_game(options or CardGameOptions(), n, seed)
    for seat in range(n):
        state, _ = ENGINE.apply(state, seat, KeepTickets(tickets=(state.players[seat].offered[0],)))
    return state


def with_player(state: CardGameState, seat: int, **changes: object) -> CardGameState:
    """Replace some fields of one player."""
    players = list(state.players)
    players[seat] = players[seat].model_copy(update=changes)
    return state.model_copy(update={"players": tuple(players)})


def edit(state: CardGameState, **changes: object) -> CardGameState:
    """Replace some fields of the state."""
    return state.model_copy(update=changes)


def act(state: CardGameState, seat: int, text: str) -> tuple[CardGameState, list[Event]]:
    """Apply an action given by its text code."""
    return ENGINE.apply(state, seat, ENGINE.parse_action(text))


def keys(events: list[Event]) -> list[str]:
    """The event names (the part after `cardgame.event.`)."""
    return [e.key.removeprefix("cardgame.event.") for e in events]


def card_totals(state: CardGameState) -> tuple[int, ...]:
    """Count every card wherever it is: deck, face-up row, discard pile, hands, yards, stacks."""
    totals = list(state.discard)
    for card in (*state.deck, *state.face_up):
        totals[card] += 1
    for player in state.players:
        for k in range(N_KINDS):
            totals[k] += player.hand[k] + player.stack[k]
        for color in range(N_COLORS):
            totals[color] += player.yard[color] - player.yard_locomotives[color]
            totals[LOCOMOTIVE] += player.yard_locomotives[color]
    return tuple(totals)


FULL_DECK = (PER_COLOR,) * N_COLORS + (LOCOMOTIVES,)


def playout(
    n: int, seed: int, kind: str = "random", options: CardGameOptions | None = None
) -> Iterator[tuple[CardGameState, int, CardGameAction, CardGameState, list[Event]]]:
    """Play a whole seeded game with bots; yield (before, seat, action, after, events) for every step."""
    state = ENGINE.new_game(options or CardGameOptions(), n, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        seat = sorted(ENGINE.to_act(state))[0]
        action = ENGINE.bot_action(state, seat, rng, kind)
        after, events = ENGINE.apply(state, seat, action)
        yield state, seat, action, after, events
        state = after


ROOT = Path(__file__).parents[3]


def _table(language: str) -> dict[str, str]:
    """The flattened `cardgame.*` keys of one language."""
    out: dict[str, str] = {}

    def flatten(prefix: str, table: dict[str, object]) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                flatten(f"{prefix}.{key}", value)
            else:
                out[f"{prefix}.{key}"] = str(value)

    path = ROOT / "bot" / "i18n" / language / "cardgame.toml"
    flatten("cardgame", tomllib.loads(path.read_text(encoding="utf-8")))
    return out


EN, RU = _table("en"), _table("ru")


def placeholders(template: str) -> set[str]:
    """The {names} a template uses."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}

"""Bot levels of the card game: always legal, deterministic per rng, blind to hidden cards; the coach's hint."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Iterator

import pytest

from rules.cardgame.bot import KINDS, hard
from rules.cardgame.options import CardGameOptions
from rules.cardgame.state import CardGameState, Phase
from rules.engine import Budget
from rules.rng import Rng

from .support import ENGINE, ROOT, placeholders
from .test_translations import messages

QUICK = Budget(seconds=0.0)
"""The hard player stops after its first sample: legal and deterministic all the same, and fast."""


def positions(n: int, seed: int, every: int = 9) -> Iterator[tuple[CardGameState, int]]:
    """Every `every`-th decision of a seeded game between normal players, and the seat deciding."""
    state = ENGINE.new_game(CardGameOptions(), n, seed)
    rng = random.Random(seed)
    step = 0
    while state.phase is not Phase.OVER:
        seat = min(ENGINE.to_act(state))
        if step % every == 0:
            yield state, seat
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng, "normal"))
        step += 1


def legal_codes(state: CardGameState, seat: int) -> set[str]:
    """The encoded legal moves of `seat`."""
    return {action.encode() for action in ENGINE.legal_actions(state, seat)}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_cheap_levels_play_whole_games_legally(n: int) -> None:
    for seed in range(2):
        state = ENGINE.new_game(CardGameOptions(), n, seed)
        rng = random.Random(seed)
        kinds = ["easy", "normal", "random", "sensible"]
        steps = 0
        while state.phase is not Phase.OVER:
            seat = min(ENGINE.to_act(state))
            action = ENGINE.bot_action(state, seat, rng, kinds[(seat + seed) % len(kinds)])
            assert action.encode() in legal_codes(state, seat)
            state, _ = ENGINE.apply(state, seat, action)
            steps += 1
            assert steps < 3000


@pytest.mark.parametrize("n", [2, 3, 4])
def test_hard_is_legal_in_every_phase(n: int) -> None:
    seen = set()
    for state, seat in positions(n, seed=n, every=7 if n == 2 else 15):
        action = ENGINE.bot_action(state, seat, random.Random(1), "hard", QUICK)
        assert action.encode() in legal_codes(state, seat)
        seen.add(state.phase)
    assert {Phase.OPENING, Phase.TURN} <= seen


def test_unknown_kind_is_refused_and_every_kind_is_known() -> None:
    state, seat = next(positions(2, seed=1))
    with pytest.raises(ValueError):
        ENGINE.bot_action(state, seat, random.Random(0), "genius")
    assert {"easy", "normal", "hard", "random", "sensible"} <= set(KINDS)


def scrambled(state: CardGameState, seat: int, seed: int) -> CardGameState:
    """The same game for `seat`'s eyes: others' hands and the deck dealt anew, tickets swapped, a new generator."""
    shuffler = random.Random(seed)
    pool = list(state.deck)
    for other, player in enumerate(state.players):
        if other != seat:
            pool += [kind for kind, count in enumerate(player.hand) for _ in range(count)]
    tickets = list(state.ticket_deck)
    for other, player in enumerate(state.players):
        if other != seat:
            tickets += [*player.tickets, *player.offered]
    shuffler.shuffle(pool)
    shuffler.shuffle(tickets)
    players = []
    for other, player in enumerate(state.players):
        if other == seat:
            players.append(player)
            continue
        hand = [0] * 9
        for _ in range(sum(player.hand)):
            hand[pool.pop()] += 1
        held = tuple(tickets.pop() for _ in range(len(player.tickets)))
        offered = tuple(tickets.pop() for _ in range(len(player.offered)))
        players.append(player.model_copy(update={"hand": tuple(hand), "tickets": held, "offered": offered}))
    return state.model_copy(
        update={"players": tuple(players), "deck": tuple(pool), "ticket_deck": tuple(tickets), "rng": Rng(seed=seed)}
    )


@pytest.fixture
def few_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two samples per hard decision: the same code paths, a fraction of the time."""
    monkeypatch.setattr(hard, "SAMPLES", 2)
    monkeypatch.setattr(hard, "KEEP_SAMPLES", 2)
    monkeypatch.setattr(hard, "CONFIRM_SAMPLES", 2)


@pytest.mark.usefixtures("few_samples")
@pytest.mark.parametrize("kind", ["easy", "normal", "hard", "random"])
def test_no_level_reads_hidden_cards(kind: str) -> None:
    checked = 0
    for n in (2, 4):
        for state, seat in positions(n, seed=10 + n, every=13):
            other = scrambled(state, seat, seed=checked)
            budget = Budget(seconds=60.0)  # long enough to finish every sample: a cut-off would differ by timing
            first = ENGINE.bot_action(state, seat, random.Random(checked), kind, budget)
            again = ENGINE.bot_action(other, seat, random.Random(checked), kind, budget)
            assert first == again, (kind, state.phase, first, again)
            checked += 1
            if kind == "hard" and checked >= 8:
                return
    assert checked >= 8


@pytest.mark.usefixtures("few_samples")
def test_every_level_is_deterministic_per_rng() -> None:
    for state, seat in list(positions(3, seed=5, every=17))[:6]:
        for kind in ("easy", "normal", "hard", "random"):
            first = ENGINE.bot_action(state, seat, random.Random(42), kind, Budget(seconds=60.0))
            again = ENGINE.bot_action(state, seat, random.Random(42), kind, Budget(seconds=60.0))
            assert first == again


@pytest.mark.usefixtures("few_samples")
def test_hard_leaves_the_normal_move_only_after_more_samples() -> None:
    changed = kept = 0
    for state, seat in positions(2, seed=3, every=4):
        legal = ENGINE.legal_actions(state, seat)
        searched = hard.search(ENGINE, state, seat, legal, random.Random(7), Budget(seconds=60.0))
        first = hard.KEEP_SAMPLES if state.phase is Phase.OPENING or state.players[seat].offered else hard.SAMPLES
        if searched.action != searched.normal:
            assert searched.games == first + hard.CONFIRM_SAMPLES
            changed += 1
        else:
            kept += 1
    assert changed and kept


def _words() -> tuple[dict[str, str], dict[str, str]]:
    """The keys the hints may use, in both languages: the hint's own file and the game's (for nested names)."""
    return tuple(  # type: ignore[return-value]
        {
            f"{name}.{key}": value
            for name in ("cardgame", "cardgame_hint")
            for key, value in _flat(tomllib.loads((ROOT / "bot" / "i18n" / lang / f"{name}.toml").read_text("utf-8")))
        }
        for lang in ("en", "ru")
    )


def _flat(table: dict[str, object], prefix: str = "") -> Iterator[tuple[str, str]]:
    """A TOML table's keys, dotted."""
    for key, value in table.items():
        if isinstance(value, dict):
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", str(value)


def test_hint_is_legal_and_worded_in_both_languages() -> None:
    en, ru = _words()
    seen = set()
    for n in (2, 3):
        for state, seat in positions(n, seed=30 + n, every=11):
            given = ENGINE.hint(state, seat, random.Random(0), QUICK)
            assert given.action.encode() in legal_codes(state, seat)
            assert given.reason.key.startswith("cardgame_hint.")
            for part in messages(given.reason):
                assert part.key in en and part.key in ru, part.key
            assert placeholders(en[given.reason.key]) <= set(given.reason.params), given.reason
            seen.add(given.reason.key)
    assert len(seen) >= 3


def test_hint_keys_match_between_languages() -> None:
    en, ru = _words()
    ours = sorted(key for key in en if key.startswith("cardgame_hint."))
    assert ours == sorted(key for key in ru if key.startswith("cardgame_hint."))
    assert all(placeholders(en[key]) == placeholders(ru[key]) for key in ours)

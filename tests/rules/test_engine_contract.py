"""The contract every listed engine keeps, checked on seeded random playouts (issue 12, item 6).

Each engine in `bot.games.GAMES` is played out with several player counts and option sets, by a policy written
here (a seeded uniform choice of seat and legal move), so the checks hold whatever the bot players become. A listed
game gives this module its own part, an invariant, a scramble of what a seat cannot see and the tables to play, as
`CASE` in tests/rules/<namespace>/contract.py (`tests.rules.contract.ContractCase`); nothing here names a game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from bot.game_entry import GameInfo
from bot.games import GAMES
from rules.engine import Action, CommonReason, GameEngine, IllegalAction, Seat
from tests.rules.contract import ContractCase

Engine = GameEngine[Any, Any, Any]

POSITIONS = 10
"""Positions per game where the expensive checks run (every legal move, illegal samples, hidden views)."""
ILLEGAL_SAMPLE = 30
"""Moves seen elsewhere in the game tried at each of those positions by each seat to act."""


def contract_path(info: GameInfo) -> str:
    """Where a listed game's part of the contract lives."""
    return f"tests/rules/{info.namespace}/contract.py"


def contract_of(info: GameInfo) -> ContractCase | None:
    """A listed game's part of the contract, or None when its file is not written."""
    name = contract_path(info).removesuffix(".py").replace("/", ".")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name is None or not name.startswith(missing.name):
            raise
        return None
    case: ContractCase = module.CASE
    return case


@dataclass(frozen=True)
class Case:
    """One playout to make: an engine with its part of the contract, a player count, options and a seed."""

    engine: Engine
    contract: ContractCase
    n_players: int
    options: Mapping[str, object]
    seed: int

    @property
    def id(self) -> str:
        options = "-".join(f"{k}={v}" for k, v in self.options.items()) or "default"
        return f"{self.engine.game_id}-{self.n_players}p-{options}"


def cases_of(engine: Engine, contract: ContractCase, first_seed: int = 1000) -> list[Case]:
    """A game's playouts: its own tables, or its fewest and most players with the default options."""
    configs = contract.configs or [(engine.min_players, {}), (engine.max_players, {})]
    return [Case(engine, contract, n, options, first_seed + i) for i, (n, options) in enumerate(configs)]


# Seeded playouts ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A finished playout: every state before a move, the moves made, and the final state."""

    engine: Engine
    contract: ContractCase
    options: Any
    n_players: int
    seed: int
    states: list[Any]
    moves: list[tuple[Seat, Action]]
    final: Any


def _cases() -> list[Case]:
    cases: list[Case] = []
    for _, info in sorted(GAMES.items()):
        contract = contract_of(info)
        if contract is not None:
            cases.extend(cases_of(info.engine, contract, 1000 + len(cases)))
    return cases


CASES = _cases()
IDS = [case.id for case in CASES]


def play(case: Case) -> Game:
    """Play a case to the end: a seeded uniform choice of the seat to act and of its legal move."""
    engine, seed = case.engine, case.seed
    options = engine.load_options(dict(case.options))
    state = engine.new_game(options, case.n_players, seed)
    rng = random.Random(seed)
    states, moves = [], []
    while not engine.is_over(state):
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        states.append(state)
        moves.append((seat, action))
        state, _ = engine.apply(state, seat, action)
        assert len(states) < 5000, "the playout does not end"
    return Game(engine, case.contract, options, case.n_players, seed, states, moves, state)


@cache
def playout(case: int) -> Game:
    """Case `case` played out, once per test session."""
    return play(CASES[case])


def positions(game: Game) -> list[int]:
    """Indices of the states where the expensive checks run: the first, the last, and some evenly between."""
    last = len(game.states) - 1
    return sorted({round(i * last / (POSITIONS - 1)) for i in range(POSITIONS)})


def json(state: Any) -> str:
    return str(state.model_dump_json())


case_params = pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)


def test_every_listed_game_gives_the_contract_its_part() -> None:
    missing = [contract_path(info) for info in GAMES.values() if contract_of(info) is None]
    assert missing == [], f"write these, each exporting CASE, a tests.rules.contract.ContractCase: {missing}"
    assert {case.engine.game_id for case in CASES} == set(GAMES)


def check_invariants_hold_and_turns_are_consistent_after_every_move(game: Game) -> None:
    engine, invariant = game.engine, game.contract.invariant
    for state in game.states:
        invariant(state)
        to_act = engine.to_act(state)
        assert to_act and to_act <= set(range(game.n_players))
        assert engine.result(state) is None and not engine.is_over(state)
        for seat in set(range(game.n_players)) - to_act:
            assert engine.legal_actions(state, seat) == []
        for seat in to_act:
            assert engine.legal_actions(state, seat), f"seat {seat} must act but has no legal move"
    invariant(game.final)
    assert engine.is_over(game.final) and engine.to_act(game.final) == frozenset()
    assert all(engine.legal_actions(game.final, seat) == [] for seat in range(game.n_players))
    result = engine.result(game.final)
    assert result is not None and result.winners
    assert sorted(player.seat for player in result.players) == list(range(game.n_players))


def check_replay_and_json_snapshots_give_the_same_state(game: Game) -> None:
    engine = game.engine
    log = [(seat, action.encode()) for seat, action in game.moves]
    assert json(engine.replay(game.options, game.n_players, game.seed, log)) == json(game.final)
    for index in positions(game):
        state = game.states[index]
        assert json(engine.load_state(json(state))) == json(state)
        assert engine.load_state(json(state)) == state
    assert engine.load_state(json(game.final)) == game.final
    assert engine.load_options(game.options.model_dump_json()) == game.options


def check_every_legal_move_is_accepted(game: Game) -> None:
    engine, invariant = game.engine, game.contract.invariant
    for index in positions(game):
        state = game.states[index]
        for seat in sorted(engine.to_act(state)):
            for action in engine.legal_actions(state, seat):
                assert engine.parse_action(action.encode()) == action
                after, _ = engine.apply(state, seat, action)
                invariant(after)


def _refused(engine: Engine, state: Any, seat: Seat, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, seat, action)
    return refused.value


MALFORMED = ["", ":", "::", "nonsense", "draw", "keep:", "play:", "add:", "claim:", "x" * 120, "🚂", "roll:stop"]


def _mangled(text: str) -> list[str]:
    """Texts near a legal one: truncated, extended, with a part doubled, a number bumped, a letter changed."""
    bumped = "".join(str((int(c) + 1) % 10) if c.isdigit() else c for c in text)
    return [text[:-1], text + ":1", text + ",0", text.replace(":", "::", 1), bumped, text.upper(), text[::-1]]


def check_illegal_moves_are_refused_and_change_nothing(game: Game) -> None:
    engine = game.engine
    rng = random.Random(game.seed)
    seen = list({action.encode(): action for _, action in game.moves}.values())
    for index in positions(game):
        state = game.states[index]
        before = json(state)
        to_act = engine.to_act(state)
        legal = {seat: {a.encode() for a in engine.legal_actions(state, seat)} for seat in to_act}
        some_legal = next(iter(engine.legal_actions(state, min(to_act))))
        for seat in [-1, game.n_players, *(s for s in range(game.n_players) if s not in to_act)]:
            reason = _refused(engine, state, seat, some_legal).reason
            expected = CommonReason.NOT_YOUR_TURN if 0 <= seat < game.n_players else CommonReason.NOT_A_SEAT
            assert reason is expected
        for seat in to_act:
            others = [a for a in seen if a.encode() not in legal[seat]]
            for action in rng.sample(others, min(ILLEGAL_SAMPLE, len(others))):
                _refused(engine, state, seat, action)
            texts = MALFORMED + [
                t for code in rng.sample(sorted(legal[seat]), min(5, len(legal[seat]))) for t in _mangled(code)
            ]
            for text in texts:
                try:
                    action = engine.parse_action(text)
                except IllegalAction as refused:
                    assert refused.reason is CommonReason.MALFORMED_ACTION
                    continue
                if action.encode() in legal[seat]:
                    engine.apply(state, seat, action)
                else:
                    _refused(engine, state, seat, action)
        assert json(state) == before
    final = json(game.final)
    for seat, action in game.moves[-ILLEGAL_SAMPLE:]:
        assert _refused(engine, game.final, seat, action).reason is CommonReason.GAME_OVER
    assert json(game.final) == final


def check_views_do_not_show_what_a_seat_cannot_see(game: Game) -> None:
    engine, scramble = game.engine, game.contract.scramble
    rng = random.Random(game.seed)
    for index in positions(game):
        state = game.states[index]
        for seat in [None, *range(game.n_players)]:
            seen = engine.view(state, seat).model_dump()
            for _ in range(2):
                scrambled = scramble(state, seat, rng)
                assert engine.view(scrambled, seat).model_dump() == seen, f"seat {seat} sees a hidden change"


def check_the_random_bot_plays_legal_moves(game: Game) -> None:
    engine = game.engine
    rng = random.Random(game.seed)
    for index in positions(game):
        state = game.states[index]
        for seat in sorted(engine.to_act(state)):
            assert engine.bot_action(state, seat, rng, "random") in engine.legal_actions(state, seat)


CHECKS: list[Callable[[Game], None]] = [
    check_invariants_hold_and_turns_are_consistent_after_every_move,
    check_replay_and_json_snapshots_give_the_same_state,
    check_every_legal_move_is_accepted,
    check_illegal_moves_are_refused_and_change_nothing,
    check_views_do_not_show_what_a_seat_cannot_see,
    check_the_random_bot_plays_legal_moves,
]
"""Every check of one playout, for a game that is not listed (tests/fifth_game)."""


@case_params
def test_invariants_hold_and_turns_are_consistent_after_every_move(case: int) -> None:
    check_invariants_hold_and_turns_are_consistent_after_every_move(playout(case))


@case_params
def test_replay_and_json_snapshots_give_the_same_state(case: int) -> None:
    check_replay_and_json_snapshots_give_the_same_state(playout(case))


@case_params
def test_every_legal_move_is_accepted(case: int) -> None:
    check_every_legal_move_is_accepted(playout(case))


@case_params
def test_illegal_moves_are_refused_and_change_nothing(case: int) -> None:
    check_illegal_moves_are_refused_and_change_nothing(playout(case))


@case_params
def test_views_do_not_show_what_a_seat_cannot_see(case: int) -> None:
    check_views_do_not_show_what_a_seat_cannot_see(playout(case))


@case_params
def test_the_random_bot_plays_legal_moves(case: int) -> None:
    check_the_random_bot_plays_legal_moves(playout(case))

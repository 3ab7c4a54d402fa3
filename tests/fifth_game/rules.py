"""The coin race's rules: each turn the player flips a coin, heads moves their token one step, first to the
target wins. The coin is the seeded generator in the state, so a game replays from its seed and log."""

from __future__ import annotations

import random
from collections.abc import Hashable

from pydantic import BaseModel, ConfigDict, Field

from rules.engine import (
    DEFAULT_BUDGET,
    LEGACY_KINDS,
    OVER,
    Action,
    Budget,
    CommonReason,
    Event,
    GameEngine,
    GameResult,
    Hint,
    IllegalAction,
    Level,
    Message,
    Options,
    Phase,
    PlayerResult,
    ScoreLine,
    Seat,
)
from rules.rng import Rng


class CoinOptions(Options):
    """How far the race goes."""

    target: int = Field(default=3, ge=1, le=20, description="Steps a token must make to win.")


class Flip(Action):
    """Flip the coin: the only move there is."""

    def encode(self) -> str:
        """The move's text."""
        return "flip"

    def describe(self) -> Message:
        """What the move does."""
        return Message(key="coin.action.flip")


class CoinState(BaseModel):
    """The whole game: the tokens' steps, whose turn, how many flips so far, and the coin."""

    model_config = ConfigDict(frozen=True)

    options: CoinOptions
    n_players: int
    rng: Rng
    steps: tuple[int, ...]
    turn: Seat = 0
    flips: int = 0
    heads: bool | None = None
    """The last flip (None before the first)."""


class CoinView(BaseModel):
    """What everyone sees: all of it but the coin's future."""

    model_config = ConfigDict(frozen=True)

    target: int
    steps: tuple[int, ...]
    turn: Seat | None
    flips: int
    heads: bool | None
    winners: tuple[Seat, ...]
    legal: tuple[Flip, ...]


def over(state: CoinState) -> bool:
    """Whether a token has reached the target."""
    return max(state.steps) >= state.options.target


def flip(state: CoinState, seat: Seat, action: Flip) -> tuple[CoinState, list[Event]]:
    """Flip: heads moves the seat's token a step; the turn passes either way."""
    coin, rng = state.rng.next()
    heads = coin.random() < 0.5
    steps = tuple(n + (heads and s == seat) for s, n in enumerate(state.steps))
    after = state.model_copy(
        update={"rng": rng, "steps": steps, "turn": 1 - seat, "flips": state.flips + 1, "heads": heads}
    )
    return after, [Event(key=f"coin.event.{'heads' if heads else 'tails'}", params={"seat": seat})]


TURN: Phase[CoinState, Flip] = Phase(
    to_act=lambda state: frozenset({state.turn}), moves=lambda state, seat: (Flip(),), handlers={Flip: flip}
)


class CoinEngine(GameEngine[CoinState, Flip, CoinOptions]):
    """The coin race for two."""

    game_id = "coin-race"
    options_model = CoinOptions
    state_model = CoinState
    min_players = 2
    max_players = 2

    def new_game(self, options: CoinOptions, n_players: int, seed: int) -> CoinState:
        """Both tokens at the start, the first seat to flip."""
        return CoinState(options=options, n_players=n_players, rng=Rng(seed=seed), steps=(0,) * n_players)

    def phase(self, state: CoinState) -> Phase[CoinState, Flip]:
        """Flipping until a token is home."""
        return OVER if over(state) else TURN

    def view(self, state: CoinState, seat: Seat | None) -> CoinView:
        """The same for everyone."""
        done = over(state)
        return CoinView(
            target=state.options.target,
            steps=state.steps,
            turn=None if done else state.turn,
            flips=state.flips,
            heads=state.heads,
            winners=tuple(s for s, n in enumerate(state.steps) if n >= state.options.target),
            legal=() if done else (Flip(),),
        )

    def public_turn(self, view: CoinView) -> Seat | None:
        """The seat to flip."""
        return view.turn

    def turn_marker(self, view: CoinView) -> Hashable:
        """A turn is one flip."""
        return view.flips

    def public_scores(self, view: CoinView) -> tuple[int, ...]:
        """The steps made."""
        return view.steps

    def result(self, state: CoinState) -> GameResult | None:
        """The steps of each, the one home first."""
        if not over(state):
            return None
        players = [
            PlayerResult(seat=s, total=n, breakdown=[ScoreLine(label=Message(key="coin.score.steps"), points=n)])
            for s, n in sorted(enumerate(state.steps), key=lambda item: -item[1])
        ]
        return GameResult(players=players, winners=[s for s, n in enumerate(state.steps) if n >= state.options.target])

    def parse_action(self, text: str) -> Flip:
        """`flip`, or a malformed move."""
        if text != "flip":
            raise IllegalAction(CommonReason.MALFORMED_ACTION)
        return Flip()

    def bot_action(
        self,
        state: CoinState,
        seat: Seat,
        rng: random.Random,
        kind: str = Level.NORMAL,
        budget: Budget = DEFAULT_BUDGET,
    ) -> Flip:
        """Every player flips: there is nothing else to do."""
        if kind not in (*Level, "random", *LEGACY_KINDS):
            raise ValueError(f"no bot player {kind!r}")
        return Flip()

    def hint(self, state: CoinState, seat: Seat, rng: random.Random, budget: Budget = DEFAULT_BUDGET) -> Hint[Flip]:
        """Flip."""
        return Hint(Flip(), Message(key="coin.hint.flip"))

"""The «Поезд» engine: turns, freight trains, the end of the game and both game modes (SPEC-train-dice)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from rules.dice import bot
from rules.dice.actions import Add, DiceAction, Freight, Roll, Stop, parse_action
from rules.dice.faces import DICE, FACES, PIPS, Face, face_messages
from rules.dice.options import DiceOptions, GameMode, TieRule
from rules.dice.reasons import DiceReason
from rules.dice.state import DiceState, OpeningRoll, Outcome, Turn, TurnRecord
from rules.dice.train import add_order, addable_faces, cargo_points, score_train
from rules.dice.turn import freight_refusal, roll_refusal, stop_refusal, with_added
from rules.dice.view import DiceView, build_view
from rules.engine import (
    DEFAULT_BUDGET,
    OVER,
    Action,
    Budget,
    Event,
    GameEngine,
    GameResult,
    Hint,
    IllegalAction,
    Level,
    Message,
    Param,
    PlayerResult,
    ScoreLine,
    Seat,
    UndoReason,
    turned_up,
)
from rules.engine import Phase as Rules
from rules.rng import Rng

E, C, K = Face.LOCOMOTIVE, Face.COAL, Face.CABOOSE


def _event(key: str, **params: Param) -> Event:
    """Return a public dice event (`dice.event.<key>`)."""
    return Event(key=f"dice.event.{key}", params=params)


class DiceEngine(GameEngine[DiceState, DiceAction, DiceOptions]):
    """The dice game «Поезд» for 2–6 players; a move with only one choice is made by the engine itself."""

    game_id = "dice"
    options_model = DiceOptions
    state_model = DiceState
    min_players = 2
    max_players = 6

    def new_game(self, options: DiceOptions, n_players: int, seed: int) -> DiceState:
        """Return the opening state: the roll-off decided (R-D-2) and the first player's first roll made."""
        if not self.min_players <= n_players <= self.max_players:
            raise ValueError(f"the dice game takes 2 to 6 players, not {n_players}")
        opening, first, rng = _roll_off(n_players, Rng(seed=seed))
        state = DiceState(options=options, n_players=n_players, rng=rng, opening=opening, first=first)
        return _settle(_start_turn(state, first, []), [])

    def phase(self, state: DiceState) -> Rules[DiceState, DiceAction]:
        """Return the turn's rules, or `OVER` once no turn is in play."""
        return OVER if state.turn is None else TURN

    def view(self, state: DiceState, seat: Seat | None) -> DiceView:
        """Return the view: the same for everyone, as nothing in this game is hidden."""
        return build_view(state, () if state.turn is None else _moves(state, state.turn.seat))

    def public_turn(self, view: DiceView) -> Seat | None:
        """The player rolling (a turn is their rolls and adds up to their stop or bust)."""
        return view.turn.seat if view.turn is not None else None

    def turn_marker(self, view: DiceView) -> Hashable:
        """How many turns have been played in all."""
        return sum(len(p.turns) for p in view.players)

    def public_scores(self, view: DiceView) -> tuple[int, ...]:
        """Each player's public total."""
        return tuple(p.total for p in view.players)

    def result(self, state: DiceState) -> GameResult | None:
        """Return totals (best train in elimination) with one line per scoring turn, and the winners."""
        if not state.over:
            return None
        players = [
            PlayerResult(
                seat=seat,
                total=state.standing(seat),
                breakdown=[_score_line(record) for record in state.history if record.seat == seat and record.points],
            )
            for seat in range(state.n_players)
        ]
        if state.options.mode is GameMode.ELIMINATION:
            # The last one in first, then the others from the last knocked out to the first.
            rank = [*state.winners(), *reversed(state.eliminated)]
            players.sort(key=lambda player: rank.index(player.seat))
        else:
            players.sort(key=lambda player: -player.total)
        return GameResult(players=players, winners=list(state.winners()))

    def parse_action(self, text: str) -> DiceAction:
        """Read `roll`, `stop`, `freight` or `add:<faces>`, or raise `IllegalAction(MALFORMED_ACTION)`."""
        return parse_action(text)

    def bot_action(
        self,
        state: DiceState,
        seat: Seat,
        rng: random.Random,
        kind: str = Level.NORMAL,
        budget: Budget = DEFAULT_BUDGET,
    ) -> DiceAction:
        """Choose a legal move for a bot of `kind` in `seat` (see `rules.dice.bot`)."""
        return bot.choose(state, seat, self.legal_actions(state, seat), rng, kind, budget)

    def warm(self) -> None:
        """Build the hard player's race tables for the printed target (about a second, once per process)."""
        bot.warm()

    def hint(
        self, state: DiceState, seat: Seat, rng: random.Random, budget: Budget = DEFAULT_BUDGET
    ) -> Hint[DiceAction]:
        """What the hard player would do in `seat` now, and why."""
        return bot.hint(state, seat, rng, budget)

    def undo_refusal(self, before: DiceState, seat: Seat, action: DiceAction) -> UndoReason | None:
        """Only an add that rolled nothing may be taken back: a roll, a freight train's roll, or the roll that
        starts the next turn after a stop turned dice up for everyone (nothing else is hidden in this game)."""
        after, _ = self.apply(before, seat, action)
        return UndoReason.TURNED_UP if turned_up(before, after, ()) else None


# The turn phase: who acts, the legal moves, and one handler per kind of move.


def _to_act(state: DiceState) -> frozenset[Seat]:
    """The seat in turn."""
    assert state.turn is not None  # the turn phase has a turn
    return frozenset((state.turn.seat,))


def _moves(state: DiceState, seat: Seat) -> list[DiceAction]:
    """One add per addable face, then roll, freight and stop where allowed."""
    turn = state.turn
    assert turn is not None
    actions: list[DiceAction] = [Add(faces=(face,)) for face in addable_faces(turn.train, turn.showing)]
    if roll_refusal(turn) is None:
        actions.append(Roll())
    if freight_refusal(turn) is None:
        actions.append(Freight())
    if stop_refusal(turn) is None:
        actions.append(Stop())
    return actions


def _add(state: DiceState, turn: Turn, action: Add, events: list[Event]) -> DiceState:
    """Put showing dice into the train; the caboose ends the turn (R-D-4, R-D-5)."""
    events.append(_event("added", seat=turn.seat, faces=face_messages(add_order(turn.train, action.faces))))
    turn = with_added(turn, action.faces)
    if K in action.faces:
        return _score_turn(state, turn, events)
    return state.model_copy(update={"turn": turn})


def _roll(state: DiceState, turn: Turn, action: Roll, events: list[Event]) -> DiceState:
    """Roll the dice not in the train (R-D-3)."""
    _refuse(roll_refusal(turn))
    return _roll_rest(state, turn, events)


def _freight(state: DiceState, turn: Turn, action: Freight, events: list[Event]) -> DiceState:
    """Bank the three cargo cars and roll those three dice again (R-D-8)."""
    _refuse(freight_refusal(turn))
    cargo = cargo_points(turn.train)
    banked = turn.banked + cargo
    events.append(_event("freight_banked", seat=turn.seat, cargo=cargo, banked=banked))
    freight = Turn(seat=turn.seat, showing=(), train=(E, E, C), rolls=turn.rolls, freight=True, banked=banked)
    return _roll_rest(state, freight, events)


def _stop(state: DiceState, turn: Turn, action: Stop, events: list[Event]) -> DiceState:
    """End the turn by choice and score the train (R-D-6)."""
    _refuse(stop_refusal(turn))
    events.append(_event("stopped", seat=turn.seat))
    return _score_turn(state, turn, events)


Perform = Callable[[DiceState, Turn, Any, list[Event]], DiceState]
PERFORM: dict[type[Action], Perform] = {Add: _add, Roll: _roll, Freight: _freight, Stop: _stop}
"""How each kind of move changes the state, before the forced moves after it."""


def _handler(perform: Perform) -> Callable[[DiceState, Seat, Any], tuple[DiceState, list[Event]]]:
    """A phase handler: the move, then every forced move after it."""

    def handle(state: DiceState, seat: Seat, action: DiceAction) -> tuple[DiceState, list[Event]]:
        assert state.turn is not None
        events: list[Event] = []
        return _settle(perform(state, state.turn, action, events), events), events

    return handle


TURN: Rules[DiceState, DiceAction] = Rules(_to_act, _moves, {kind: _handler(p) for kind, p in PERFORM.items()})
"""The only phase before the end: the player in turn rolls, adds, banks freight or stops."""


def _settle(state: DiceState, events: list[Event]) -> DiceState:
    """Make every move that is the only one possible, so no one clicks a button without a choice."""
    while (turn := state.turn) is not None:
        actions = _moves(state, turn.seat)
        if len(actions) != 1:
            break
        (only,) = actions
        if isinstance(only, Stop):
            # A forced stop: the train is full or the rolls are used up (R-D-6).
            events.append(_event("train_full" if not turn.showing else "out_of_rolls", seat=turn.seat))
            state = _score_turn(state, turn, events)
        else:
            state = PERFORM[type(only)](state, turn, only, events)
    return state


def _start_turn(state: DiceState, seat: Seat, events: list[Event]) -> DiceState:
    """Begin `seat`'s turn with the first roll of all six dice (it has no alternative, R-D-3)."""
    faces, rng = _roll_dice(state.rng, DICE)
    events.append(_event("turn_started", seat=seat, round=state.round))
    events.append(_event("rolled", seat=seat, faces=face_messages(faces), roll=1))
    return state.model_copy(update={"rng": rng, "turn": Turn(seat=seat, showing=faces)})


def _roll_rest(state: DiceState, turn: Turn, events: list[Event]) -> DiceState:
    """Roll the dice not in the train; in freight mode a roll that adds nothing crashes (R-D-3, R-D-8)."""
    faces, rng = _roll_dice(state.rng, DICE - len(turn.train))
    rolls = turn.rolls if turn.freight else turn.rolls + 1
    turn = turn.model_copy(update={"showing": faces, "rolls": rolls, "added_since_roll": 0})
    state = state.model_copy(update={"rng": rng, "turn": turn})
    if turn.freight:
        events.append(_event("freight_rolled", seat=turn.seat, faces=face_messages(faces)))
        return _crash_if_stuck(state, turn, events)
    events.append(_event("rolled", seat=turn.seat, faces=face_messages(faces), roll=rolls))
    return state


def _crash_if_stuck(state: DiceState, turn: Turn, events: list[Event]) -> DiceState:
    """End the turn with nothing if no die of a freight roll can join the train (R-D-8)."""
    if addable_faces(turn.train, turn.showing):
        return state
    events.append(_event("crashed", seat=turn.seat, banked=turn.banked))
    return _end_turn(state, turn, 0, Outcome.CRASHED, events)


def _score_turn(state: DiceState, turn: Turn, events: list[Event]) -> DiceState:
    """Score the train as it stands and end the turn (R-D-5 … R-D-8)."""
    score = score_train(turn.train, turn.banked)
    if not score.complete:
        events.append(_event("incomplete", seat=turn.seat))
        return _end_turn(state, turn, 0, Outcome.INCOMPLETE, events)
    total = state.total(turn.seat) + score.points
    events.append(_event("scored", seat=turn.seat, points=score.points, how=score.message, total=total))
    outcome = Outcome.BONUS if score.bonus else Outcome.SCORED
    return _end_turn(state, turn, score.points, outcome, events)


# The game, turn by turn.


def _end_turn(state: DiceState, turn: Turn, points: int, outcome: Outcome, events: list[Event]) -> DiceState:
    """Record the turn, apply the end-of-game or elimination rule, and start the next turn."""
    record = TurnRecord(
        seat=turn.seat,
        round=state.round,
        points=points,
        outcome=outcome,
        train=turn.train,
        showing=turn.showing,
        banked=turn.banked,
    )
    state = state.model_copy(update={"history": (*state.history, record), "turn": None})
    if state.options.mode is GameMode.ELIMINATION:
        state = _judge_elimination(state, record, events)
        if sum(state.in_play(seat) for seat in range(state.n_players)) == 1:
            return _game_over(state, events)
    elif not state.last_round and (total := state.total(turn.seat)) >= state.options.target:
        events.append(_event("last_round", seat=turn.seat, total=total, target=state.options.target))
        state = state.model_copy(update={"last_round": True})
    return _next_turn(state, turn.seat, events)


def _next_turn(state: DiceState, seat: Seat, events: list[Event]) -> DiceState:
    """Pass the dice in seat order; at the end of a round, end the game or break a tie (R-D-9)."""
    order = [(state.first + i) % state.n_players for i in range(state.n_players)]
    later = [other for other in order[order.index(seat) + 1 :] if state.in_play(other)]
    if later:
        return _start_turn(state, later[0], events)
    if state.last_round:
        leaders = state.leaders()
        if len(leaders) == 1 or state.options.tie is TieRule.SHARED:
            return _game_over(state, events)
        events.extend(_event("tie_break", seat=leader, total=state.total(leader)) for leader in leaders)
        state = state.model_copy(update={"tie_break": leaders})
    state = state.model_copy(update={"round": state.round + 1})
    return _start_turn(state, next(other for other in order if state.in_play(other)), events)


def _refuse(reason: DiceReason | None) -> None:
    """Raise `IllegalAction` for `reason` unless it is None."""
    if reason is not None:
        raise IllegalAction(reason)


def _roll_dice(rng: Rng, count: int) -> tuple[tuple[Face, ...], Rng]:
    """Roll `count` dice: the faces and the advanced generator."""
    generator, rng = rng.next()
    return tuple(generator.choice(FACES) for _ in range(count)), rng


def _roll_off(n_players: int, rng: Rng) -> tuple[tuple[tuple[OpeningRoll, ...], ...], Seat, Rng]:
    """Roll one die each, the tied highest again, until one leads (R-D-2): the rounds, the winner, the rng."""
    rounds: list[tuple[OpeningRoll, ...]] = []
    contenders = list(range(n_players))
    while len(contenders) > 1:
        faces, rng = _roll_dice(rng, len(contenders))
        rounds.append(tuple(OpeningRoll(seat=s, face=f) for s, f in zip(contenders, faces, strict=True)))
        top = max(PIPS[face] for face in faces)
        contenders = [roll.seat for roll in rounds[-1] if PIPS[roll.face] == top]
    return tuple(rounds), contenders[0], rng


def _judge_elimination(state: DiceState, record: TurnRecord, events: list[Event]) -> DiceState:
    """Set or raise the bar, or knock the player out for not beating it (R-D-10)."""
    if state.bar is None and record.points == 0:
        return state
    if state.bar is None or record.points > state.bar:
        events.append(_event("new_bar", seat=record.seat, bar=record.points))
        return state.model_copy(update={"bar": record.points})
    events.append(_event("eliminated", seat=record.seat, points=record.points, bar=state.bar))
    return state.model_copy(update={"eliminated": (*state.eliminated, record.seat)})


def _game_over(state: DiceState, events: list[Event]) -> DiceState:
    """Announce the end and the winner(s); `state.turn` is already None."""
    events.append(_event("game_over"))
    events.extend(_event("won", seat=seat, total=state.standing(seat)) for seat in state.winners())
    return state


def _score_line(record: TurnRecord) -> ScoreLine:
    """Return a scoring turn as a result line: round, how it scored, points."""
    how = score_train(record.train, record.banked).message
    label = Message(key="dice.score.turn", params={"round": record.round, "how": how})
    return ScoreLine(label=label, points=record.points)

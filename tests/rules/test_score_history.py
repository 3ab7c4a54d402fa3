"""Score history (rules/history.py): a finished game told turn by turn from its log, from public views only.

For every game: one entry per complete turn (not per step), scores that only grow where the game's points only
grow, the mover of each turn, and the final totals as the last point where the end reveals more (Ticket to Ride's
tickets and longest trail; the card game's final scoring), equal to the engine's result."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from bot.games import GAMES as OFFERED
from rules.cardgame.view import CardGameView
from rules.engine import GameEngine, Level, Seat
from rules.history import Story, bots_play, tell, tell_log
from rules.ttr.view import PublicView

GAMES = [
    ("ticket-to-ride", 5, {"map": "europe"}),
    ("ticket-to-ride", 2, {"map": "usa"}),
    ("ticket-to-ride-cards", 4, {}),
    ("dice", 3, {}),
]


def engine_of(game: str) -> GameEngine[Any, Any, Any]:
    """The engine the bot offers under this id."""
    return OFFERED[game].engine


def played(game: str, players: int, options: dict[str, Any], seed: int) -> list[tuple[Seat, str]]:
    """The log of a whole game of easy bots (quick to play)."""
    return bots_play(engine_of(game), options, players, seed, Level.EASY)


def final_state(engine: GameEngine[Any, Any, Any], options: dict[str, Any], players: int, seed: int, log: Any) -> Any:
    return engine.replay(engine.load_options(options), players, seed, log)


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_the_history_ends_on_the_final_result_and_counts_whole_turns(
    game: str, players: int, options: dict[str, Any]
) -> None:
    log = played(game, players, options, seed=11)
    engine = engine_of(game)
    story = tell_log(engine_of(game), options, players, 11, log)
    history = story.history()
    result = engine.result(final_state(engine, options, players, 11, log))
    assert result is not None and story.result == result
    totals = tuple(sorted((p.seat, p.total) for p in result.players))
    final = history.final if history.final is not None else history.scores[-1]
    assert tuple(total for _, total in totals) == final, "the last point is the final result"
    assert history.scores[0] == (0,) * players, "everyone starts at nothing"
    assert [turn.actions for turn in story.turns][-1] == len(log), "the last turn ends the log"
    assert len(story.turns) < len(log), "a turn is a player's whole turn, not each of its steps"
    assert all(a < b for a, b in zip(story.turns, story.turns[1:], strict=False) for a, b in [(a.actions, b.actions)])
    for before, after in zip(history.scores, history.scores[1:], strict=False):
        if game != "dice":  # dice totals can drop (a bust in elimination); the others only grow
            assert all(b >= a for a, b in zip(before, after, strict=True))


def test_ticket_to_ride_turns_are_a_players_whole_turn_and_its_final_point_adds_tickets() -> None:
    log = played("ticket-to-ride", 3, {"map": "usa"}, seed=5)
    story = tell_log(engine_of("ticket-to-ride"), {"map": "usa"}, 3, 5, log)
    opening = story.turns[1]
    assert opening.seat is None and opening.actions == 3, "the opening ticket choice (everyone) is turn 1"
    movers = [turn.seat for turn in story.turns[2:]]
    assert movers[:6] == [movers[0], (movers[0] + 1) % 3, (movers[0] + 2) % 3] * 2, "seats take turns in order"
    two_card_draws = [i for i, (_, a) in enumerate(log) if a.startswith("draw:")]
    assert two_card_draws and len(story.turns) - 1 < len(log) - len(two_card_draws) / 2 + 1
    history = story.history()
    assert history.final is not None and history.final != history.scores[-1], "tickets and the bonus come last"
    last = story.turns[-1].view
    assert isinstance(last, PublicView) and history.scores[-1] == tuple(p.route_points for p in last.players)


def test_the_card_game_shows_no_points_before_a_scoring() -> None:
    log = played("ticket-to-ride-cards", 3, {}, seed=2)
    history = tell_log(engine_of("ticket-to-ride-cards"), {}, 3, 2, log).history()
    assert set(history.scores) == {(0, 0, 0)}, "3 players: one scoring, at the end"
    assert history.final is not None and sum(history.final) > 0


def test_every_turn_is_told_from_the_public_view_only() -> None:
    for game, players, options in GAMES[1:]:
        log = played(game, players, options, seed=4)
        engine = engine_of(game)
        story: Story = tell(engine, engine.load_options(options), players, 4, log)
        state = engine.new_game(engine.load_options(options), players, 4)
        views: list[BaseModel] = [engine.view(state, None)]
        for seat, text in log:
            state, _ = engine.apply(state, seat, engine.parse_action(text))
            views.append(engine.view(state, None))
        assert [turn.view for turn in story.turns] == [views[turn.actions] for turn in story.turns]
        for turn in story.turns:
            assert type(turn.view) is type(views[0]), "never a seat's view"
            if isinstance(turn.view, CardGameView):
                assert turn.view.seat is None and turn.view.hand is None and turn.view.tickets is None

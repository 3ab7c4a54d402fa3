"""The coin race's public messages: the race with its Flip button, and the end."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import labels, render, text
from bot.storage.games import GameRecord
from bot.ui.components import button
from bot.ui.controller import GameController, TurnMessage
from bot.ui.custom_ids import act_id, rematch_id
from bot.ui.pictures import Picture, plain_names
from rules.engine import Event
from tests.fifth_game.pictures import render_race
from tests.fifth_game.rules import CoinEngine, CoinView

GAME = CoinEngine.game_id


def told(language: str, record: GameRecord, events: Sequence[Event]) -> list[str]:
    """The public events of a move, one line each."""
    return [render(language, event, GameController.names(record)) for event in events if event.public]


def race(language: str, record: GameRecord, view: CoinView) -> Picture:
    """The lanes as a picture, with the steps as its alt text."""
    names = plain_names(record)
    steps = ", ".join(text(language, "coin.alt.steps", player=names[s], steps=n) for s, n in enumerate(view.steps))
    return Picture("race.png", render_race(view, labels(language), names), steps)


def turn_message(language: str, record: GameRecord, view: CoinView, lines: Sequence[str]) -> TurnMessage:
    """Whose flip it is, what happened, the race and the Flip button (for a person's turn)."""
    assert view.turn is not None
    controls = (
        []
        if record.bot_plays(view.turn)
        else [
            button(act_id(GAME, record.id, record.version, move), render(language, move.describe()))
            for move in view.legal
        ]
    )
    return TurnMessage(
        heading=f"### {text(language, 'coin.message.title', flips=view.flips)}",
        call=text(language, "coin.message.your_turn", player=GameController.mention(record, view.turn)),
        blocks=["\n".join(lines)],
        pictures=[race(language, record, view)],
        controls=controls,
    )


def final_message(language: str, record: GameRecord, view: CoinView, lines: Sequence[str]) -> TurnMessage:
    """The winner and the race as it ended."""
    winners = ", ".join(GameController.names(record)[s] for s in view.winners)
    return TurnMessage(
        heading=f"### {text(language, 'coin.message.over_title')}",
        call=text(language, "coin.message.winners", winners=winners),
        blocks=["\n".join(lines)],
        pictures=[race(language, record, view)],
        controls=[
            button(rematch_id(record.id, record.version), text(language, "lobby_control.button.rematch"), emoji="🔁")
        ],
    )

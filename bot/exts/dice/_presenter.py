"""The dice game's public messages: the turn message (picture, narration, buttons) and the final table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.i18n import render, text
from bot.storage.games import GameRecord
from bot.ui.components import GameComponent, button, view_of
from bot.ui.controller import GameController, TurnMessage
from bot.ui.custom_ids import ComponentId
from bot.ui.pictures import labels, plain_names
from render.dice import render_scores, render_turn
from rules.dice import DiceEngine, DiceView
from rules.engine import Event, GameResult

GAME = DiceEngine.game_id
_COLOUR = discord.Colour.from_rgb(191, 54, 12)
_STYLES = {
    "roll": discord.ButtonStyle.primary,
    "stop": discord.ButtonStyle.success,
    "freight": discord.ButtonStyle.danger,
}
_FACE_EMOJI = {"E": "🚂", "C": "🪨", "T": "🛢️", "H": "⛰️", "B": "📦", "K": "🍽️"}


def narration(language: str, events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """The public events of a move, one line each."""
    return [render(language, event, names) for event in events if event.public]


def action_buttons(language: str, record: GameRecord, view: DiceView) -> list[GameComponent]:
    """One button per legal move of the player to act: adds first (one per face), then roll, freight, stop."""
    engine = DiceEngine()
    items = []
    for code in view.legal:
        action = engine.parse_action(code)
        cid = ComponentId(GAME, record.id, record.version, "act", code)
        label = render(language, action.describe())
        if code == "stop" and view.turn is not None:
            label = text(language, "dice.button.stop", points=view.turn.score.points)
        style = _STYLES.get(code, discord.ButtonStyle.secondary)
        emoji = _FACE_EMOJI.get(code.removeprefix("add:")) if code.startswith("add:") else None
        items.append(button(cid, label, style=style, emoji=emoji, row=0 if code.startswith("add:") else 1))
    return items


def turn_message(language: str, record: GameRecord, view: DiceView, lines: Sequence[str]) -> TurnMessage:
    """The message of the turn in play: who is to roll (mentioned), what just happened, the picture."""
    assert view.turn is not None
    seat = view.turn.seat
    names = GameController.names(record)
    who = GameController.mention(record, seat)
    embed = discord.Embed(
        title=text(language, "dice.message.turn_title", round=view.round, player=names[seat]),
        description="\n".join(lines[-12:]) or None,
        colour=_COLOUR,
    )
    embed.set_image(url="attachment://turn.png")
    standings = "  ·  ".join(f"{names[p.seat]} **{p.total}**" for p in view.players if p.in_play)
    embed.add_field(name=text(language, "dice.message.standings"), value=standings or "—", inline=False)
    if view.last_round:
        embed.set_footer(text=text(language, "dice.message.last_round"))
    return TurnMessage(
        content=text(language, "dice.message.your_turn", player=who),
        embed=embed,
        pictures={"turn.png": render_turn(view, labels(language), plain_names(record))},
        view=view_of(action_buttons(language, record, view)),
    )


def final_message(
    language: str, record: GameRecord, view: DiceView, lines: Sequence[str], result: GameResult | None
) -> TurnMessage:
    """The end: the last moves, the winner(s), the final scores, and the table as a picture."""
    names = GameController.names(record)
    winners = ", ".join(names[s] for s in view.winners)
    breakdown = [] if result is None else [f"{names[p.seat]}: **{p.total}**" for p in result.players]
    embed = discord.Embed(
        title=text(language, "dice.message.over_title"),
        description="\n".join([*lines[-8:], "", text(language, "dice.message.winners", winners=winners)]),
        colour=discord.Colour.gold(),
    )
    if breakdown:
        embed.add_field(name=text(language, "dice.message.final_scores"), value="\n".join(breakdown), inline=False)
    embed.set_image(url="attachment://scores.png")
    return TurnMessage(
        content=text(language, "dice.message.over_content", winners=winners),
        embed=embed,
        pictures={"scores.png": render_scores(view, labels(language), plain_names(record))},
    )

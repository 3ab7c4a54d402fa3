"""The dice game's public messages: the turn message (picture, narration, buttons) and the final table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.i18n import labels, render, text
from bot.storage.games import GameRecord
from bot.ui.components import GameComponent, button
from bot.ui.controller import GameController, TurnMessage
from bot.ui.custom_ids import act_id, rematch_id
from bot.ui.hints import with_hints
from bot.ui.pictures import Picture, plain_names
from render.dice import render_scores, render_turn
from rules.dice import Add, DiceEngine, DiceView, Face, Freight, Roll, Stop
from rules.engine import Event, GameResult

GAME = DiceEngine.game_id
_COLOUR = discord.Colour.from_rgb(191, 54, 12)
_STYLES: dict[type, discord.ButtonStyle] = {
    Roll: discord.ButtonStyle.primary,
    Stop: discord.ButtonStyle.success,
    Freight: discord.ButtonStyle.danger,
}
_FACE_EMOJI = {
    Face.LOCOMOTIVE: "🚂",
    Face.COAL: "🪨",
    Face.TANKER: "🛢️",
    Face.HOPPER: "⛰️",
    Face.BOXCAR: "📦",
    Face.CABOOSE: "🍽️",
}


def narration(language: str, events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """The public events of a move, one line each."""
    return [render(language, event, names) for event in events if event.public]


def action_buttons(language: str, record: GameRecord, view: DiceView) -> list[GameComponent]:
    """One button per legal move of the player to act: adds first (one per face), then roll, freight, stop."""
    items = []
    for action in view.legal:
        cid = act_id(GAME, record.id, record.version, action)
        label = render(language, action.describe())
        if isinstance(action, Stop) and view.turn is not None:
            label = text(language, "dice.button.stop", points=view.turn.score.points)
        style = _STYLES.get(type(action), discord.ButtonStyle.secondary)
        face = action.faces[0] if isinstance(action, Add) and len(action.faces) == 1 else None
        emoji = _FACE_EMOJI[face] if face is not None else None
        items.append(button(cid, label, style=style, emoji=emoji, row=0 if isinstance(action, Add) else 1))
    return items


def standings(language: str, record: GameRecord, view: DiceView) -> str:
    """The players still in play with their totals, the one rolling marked: text, readable at any size."""
    names = GameController.names(record)
    seat = view.turn.seat if view.turn is not None else None
    lines = [
        ("▶ " if p.seat == seat else "") + text(language, "dice_turn.standing", player=names[p.seat], points=p.total)
        for p in view.players
        if p.in_play
    ]
    return "\n".join(lines)


def turn_picture(language: str, record: GameRecord, view: DiceView) -> Picture:
    """The dice and the train of the turn in play, with its alt text (drawn in a worker thread by the caller)."""
    assert view.turn is not None
    names = plain_names(record)
    alt = text(
        language,
        "dice_turn.alt.turn",
        player=names[view.turn.seat],
        round=view.round,
        points=view.turn.score.points,
    )
    return Picture("turn.png", render_turn(view, labels(language), names), alt)


def turn_message(language: str, record: GameRecord, view: DiceView, lines: Sequence[str]) -> TurnMessage:
    """The message of a person's turn: who is rolling (mentioned), what happened, the dice, standings, buttons."""
    assert view.turn is not None
    seat = view.turn.seat
    who = GameController.mention(record, seat)
    title = text(language, "dice.message.turn_title", round=view.round, player=GameController.names(record)[seat])
    return TurnMessage(
        heading=f"### {title}",
        call=text(language, "dice.message.your_turn", player=who),
        blocks=["\n".join(lines[-12:])],
        pictures=[turn_picture(language, record, view)],
        status=[
            f"⚠️ **{text(language, 'dice.message.last_round')}**" if view.last_round else "",
            standings(language, record, view),
        ],
        controls=action_buttons(language, record, view),
        accent=_COLOUR.value,
    )


def final_message(
    language: str, record: GameRecord, view: DiceView, lines: Sequence[str], result: GameResult | None
) -> TurnMessage:
    """The end: the last moves, the winner(s), the final scores, and the table as a picture."""
    names = GameController.names(record)
    winners = ", ".join(names[s] for s in view.winners)
    breakdown = [] if result is None else [f"{names[p.seat]}: **{p.total}**" for p in result.players]
    plain = plain_names(record)
    scores = ", ".join(
        text(language, "dice_turn.alt.score", player=plain[p.seat], points=p.total) for p in view.players
    )
    picture = Picture(
        "scores.png",
        render_scores(view, labels(language), plain),
        text(language, "dice_turn.alt.scores", scores=scores),
    )
    title = text(language, "dice.message.over_title")
    return TurnMessage(
        heading=f"### {title}",
        call=text(language, "dice.message.winners", winners=winners),
        blocks=["\n".join(lines[-8:]), "\n".join(with_hints(language, record, breakdown))],
        pictures=[picture],
        controls=[
            button(rematch_id(record.id, record.version), text(language, "lobby_control.button.rematch"), emoji="🔁")
        ],
        accent=discord.Colour.gold().value,
    )

"""The dice game's public messages: a message per turn (its story, picture and buttons while it is played; its
whole story and the train as it ended once it is over) and the final table."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import labels, render, text
from bot.storage.games import GameRecord
from bot.ui.components import GameComponent, button
from bot.ui.controller import GameController, TurnMessage
from bot.ui.custom_ids import act_id, rematch_id
from bot.ui.hints import with_hints
from bot.ui.pictures import Picture, bot_seats, plain_names
from render.dice import render_finished_turn, render_scores, render_turn
from rules.dice import Add, DiceEngine, DiceView, Face, Freight, Roll, Stop
from rules.engine import GameResult

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
    return Picture("turn.png", render_turn(view, labels(language), names, bot_seats(record)), alt)


def turn_message(
    language: str, record: GameRecord, view: DiceView, story: Sequence[str], preface: Sequence[str] = ()
) -> TurnMessage:
    """The message of a turn in play: who is rolling (mentioned), the turn so far (after a `preface`: the roll-off
    before the first turn, or why the channel is shown the game as it stands), the dice, standings, buttons."""
    assert view.turn is not None
    seat = view.turn.seat
    who = GameController.mention(record, seat)
    return TurnMessage(
        heading=_heading(language, record, view.round, seat),
        call=text(language, "dice.message.your_turn", player=who),
        blocks=_told(preface, story),
        pictures=[turn_picture(language, record, view)],
        status=[
            f"⚠️ **{text(language, 'dice.message.last_round')}**" if view.last_round else "",
            standings(language, record, view),
        ],
        controls=action_buttons(language, record, view),
        accent=_COLOUR.value,
    )


def finished_turn_message(
    language: str, record: GameRecord, view: DiceView, story: Sequence[str], preface: Sequence[str] = ()
) -> TurnMessage:
    """The message of the turn just over (`view.previous`), as the channel keeps it: the whole turn from its first
    roll to its score, and the train as it ended; no buttons."""
    turn = view.previous
    assert turn is not None
    alt = text(
        language, "dice_turn.alt.finished", player=plain_names(record)[turn.seat], round=turn.round, points=turn.points
    )
    picture = render_finished_turn(turn, labels(language), plain_names(record), bot_seats(record))
    return TurnMessage(
        heading=_heading(language, record, turn.round, turn.seat),
        blocks=_told(preface, story),
        pictures=[Picture("turn.png", picture, alt)],
        accent=_COLOUR.value,
    )


def _heading(language: str, record: GameRecord, round_: int, seat: int) -> str:
    """A turn message's heading: the game, the round and whose turn."""
    title = text(language, "dice.message.turn_title", round=round_, player=GameController.names(record)[seat])
    return f"### {title}"


def _told(preface: Sequence[str], story: Sequence[str]) -> list[str]:
    """A turn message's text blocks: the preface, then the turn's story."""
    return [block for block in ("\n".join(preface), "\n".join(story)) if block]


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
        render_scores(view, labels(language), plain, bot_seats(record)),
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

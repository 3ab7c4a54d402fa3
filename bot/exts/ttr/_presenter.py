"""Ticket to Ride's public messages: the opening, each turn (board, last turn, buttons) and the end.

Everything here is built from the public view and public events only; the buttons' enabled state comes from the
current player's legal action texts (which, for draws and tickets, depend on public facts only).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.exts.ttr import _pictures
from bot.exts.ttr._map import COLOR_EMOJI, game_map, ticket_words
from bot.i18n import render, text
from bot.storage.games import GameRecord
from bot.ui.components import GameComponent, button, view_of
from bot.ui.controller import GameController, TurnMessage
from bot.ui.custom_ids import ComponentId
from rules.engine import Event, GameResult
from rules.ttr import TicketToRideEngine
from rules.ttr.view import FinalPlayer, PublicView

GAME = TicketToRideEngine.game_id
_COLOUR = discord.Colour.from_rgb(21, 101, 192)
_PER_PICK = frozenset(
    {"ttr.event.drew_blind", "ttr.event.took_face_up", "ttr.event.drew_tickets", "ttr.event.opening_chosen"}
)
"""Events of a turn's steps; the turn's summary event says the same once the turn is over."""
_LOUD = frozenset({"ttr.event.last_round", "ttr.event.stalemate", "ttr.event.play_begins"})
MAX_LINES = 6


def narration(language: str, events: Sequence[Event], names: Mapping[int, str], *, summary: bool) -> list[str]:
    """The public events worded, one line each; a summary leaves out the steps its closing event sums up."""
    lines = []
    for event in events:
        if not event.public or (summary and event.key in _PER_PICK) or event.key == "ttr.event.game_over":
            continue
        line = render(language, event, names)
        lines.append(f"**{line}**" if event.key in _LOUD else line)
    return lines


def colour_word(language: str, colour: str) -> str:
    """A card colour as a button shows it: capitalised."""
    word = text(language, f"ttr.color.{colour}")
    return word[:1].upper() + word[1:]


def cid(record: GameRecord, verb: str, arg: str = "") -> ComponentId:
    """A custom id of this game at its current version."""
    return ComponentId(GAME, record.id, record.version, verb, arg)


def turn_buttons(language: str, record: GameRecord, view: PublicView, legal: Sequence[str]) -> list[GameComponent]:
    """The five face-up cards, the deck, new tickets (and pass, when that is all that is left), and My hand."""
    allowed = set(legal)
    items = [
        button(
            cid(record, "take", f"{slot}:{colour}"),
            colour_word(language, colour),
            emoji=COLOR_EMOJI[colour],
            disabled=f"draw:{colour}" not in allowed,
            row=0,
        )
        for slot, colour in enumerate(view.market)
    ]
    items.append(
        button(
            cid(record, "act", "draw:deck"),
            text(language, "ttr_bot.button.deck", count=view.deck_size),
            style=discord.ButtonStyle.primary,
            emoji="🎴",
            disabled="draw:deck" not in allowed,
            row=1,
        )
    )
    items.append(
        button(
            cid(record, "act", "tickets"),
            text(language, "ttr_bot.button.tickets", count=view.ticket_deck_size),
            emoji="🎫",
            disabled="tickets" not in allowed,
            row=1,
        )
    )
    if "pass" in allowed:
        items.append(button(cid(record, "act", "pass"), text(language, "ttr_bot.button.pass"), row=1))
    items.append(hand_button(language, record))
    return items


def hand_button(language: str, record: GameRecord, *, label: str = "ttr_bot.button.hand") -> GameComponent:
    """The button that opens a player's private hand (or ticket choice)."""
    return button(cid(record, "hand"), text(language, label), style=discord.ButtonStyle.success, emoji="🃏", row=1)


def _title(language: str, view: PublicView) -> str:
    return text(language, "ttr_bot.title", map=text(language, f"ttr.map.{view.map}"))


def _footer(language: str, record: GameRecord, view: PublicView) -> str:
    parts = [text(language, "ttr_bot.footer.game", id=record.id)]
    if view.last_round and view.turns_left is not None and view.result is None:
        parts.append(text(language, "ttr_bot.footer.last_round", turns=view.turns_left))
    return " · ".join(parts)


def turn_message(
    language: str,
    record: GameRecord,
    view: PublicView,
    legal: Sequence[str],
    lines: Sequence[str],
    board: bytes,
) -> TurnMessage:
    """The message of the turn in play: whose turn (mentioned), what just happened, the board, the buttons."""
    assert view.current is not None
    seat = view.current
    names = GameController.names(record)
    who = GameController.mention(record, seat)
    is_bot = record.bot_plays(seat)
    phase_key = {
        "turn": "ttr_bot.turn.bot_playing" if is_bot else "ttr_bot.turn.your_turn",
        "second_pick": "ttr_bot.turn.second_pick",
        "tunnel": "ttr_bot.turn.tunnel",
        "tickets": "ttr_bot.turn.choosing_tickets",
    }.get(view.phase, "ttr_bot.turn.your_turn")
    content = text(language, phase_key, player=who)
    description = list(lines[-MAX_LINES:])
    if view.phase == "turn" and not is_bot:
        description.append(text(language, "ttr_bot.turn.hint"))
    embed = discord.Embed(
        title=text(language, "ttr_bot.turn.title", title=_title(language, view), player=names[seat]),
        description="\n".join(description) or None,
        colour=_COLOUR,
    )
    embed.set_image(url=f"attachment://{_pictures.BOARD}")
    embed.set_footer(text=_footer(language, record, view))
    return TurnMessage(
        content=content,
        embed=embed,
        pictures={_pictures.BOARD: board},
        view=view_of(turn_buttons(language, record, view, legal)),
    )


def opening_message(language: str, record: GameRecord, view: PublicView, board: bytes | None) -> TurnMessage:
    """The simultaneous ticket choice: who has chosen, and the button that opens one's own choice."""
    names = GameController.names(record)
    waiting = [p.seat for p in view.players if not p.chosen]
    people = [GameController.mention(record, s) for s in waiting if not record.bot_plays(s)]
    content = text(language, "ttr_bot.opening.content", players=", ".join(people)) if people else ""
    status = [
        text(language, "ttr_bot.opening.chosen" if p.chosen else "ttr_bot.opening.waiting", player=names[p.seat])
        for p in view.players
    ]
    embed = discord.Embed(
        title=text(language, "ttr_bot.opening.title", title=_title(language, view)),
        description="\n".join([text(language, "ttr_bot.opening.description"), "", *status]),
        colour=_COLOUR,
    )
    embed.set_image(url=f"attachment://{_pictures.BOARD}")
    embed.set_footer(text=_footer(language, record, view))
    return TurnMessage(
        content=content or text(language, "ttr_bot.opening.everyone_chose"),
        embed=embed,
        pictures={_pictures.BOARD: board} if board is not None else {},
        view=view_of([hand_button(language, record, label="ttr_bot.button.choose_tickets")]) if waiting else None,
    )


def final_message(
    language: str,
    record: GameRecord,
    view: PublicView,
    lines: Sequence[str],
    result: GameResult,
    scores: bytes,
    board: bytes,
) -> TurnMessage:
    """The end: the last moves, the winner(s), and for each player every ticket (failed first), longest route
    and stations, with the score sheet and the final board."""
    names = GameController.names(record)
    winners = ", ".join(names[s] for s in result.winners)
    finals = {f.seat: f for f in view.final or []}
    ranking = [
        f"{place}. {names[p.seat]} — **{p.total}**" + (" 🏆" if p.seat in result.winners else "")
        for place, p in enumerate(result.players, start=1)
    ]
    key = "ttr_bot.final.winner" if len(result.winners) == 1 else "ttr_bot.final.winners"
    embed = discord.Embed(
        title=text(language, "ttr_bot.final.title", title=_title(language, view)),
        description="\n".join([*lines[-MAX_LINES:], "", text(language, key, players=winners), "", *ranking]),
        colour=discord.Colour.gold(),
    )
    stations = game_map(view.map).rules.stations_per_player > 0
    for player in result.players:
        final = finals.get(player.seat)
        if final is None:
            continue
        embed.add_field(
            name=text(language, "ttr_bot.final.player", player=names[player.seat], points=player.total),
            value=_final_lines(language, view, final, stations),
            inline=False,
        )
    embed.set_image(url=f"attachment://{_pictures.SCORES}")
    embed.set_footer(text=_footer(language, record, view))
    return TurnMessage(
        content=text(language, key, players=winners),
        embed=embed,
        pictures={_pictures.SCORES: scores, _pictures.BOARD: board},
    )


def _final_lines(language: str, view: PublicView, final: FinalPlayer, stations: bool) -> str:
    """One player's revealed tickets (failed first, then completed), longest route and stations."""
    lines = []
    for ticket in sorted(final.tickets, key=lambda t: (t.completed, t.id)):
        mark, sign = ("✅", "+") if ticket.completed else ("❌", "−")
        lines.append(f"{mark} {ticket_words(language, view.map, ticket.id)} {sign}{ticket.points}")
    longest = text(language, "ttr_bot.final.longest", length=final.longest_length)
    if final.longest_bonus:
        longest += " 🏅"
    lines.append(longest)
    if stations:
        player = view.players[final.seat]
        lines.append(text(language, "ttr_bot.final.stations", count=player.stations_left))
    worded = "\n".join(lines)
    return worded if len(worded) <= 1024 else worded[:1020] + "…"


async def board_picture(language: str, record: GameRecord, view: PublicView) -> bytes:
    """The board for the public messages, drawn in a worker thread."""
    return await _pictures.board(language, record, view)

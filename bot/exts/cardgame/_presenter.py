"""The card game's public messages: the opening, each turn (table, what happened, buttons), the 4-player first
scoring, and the final score sheet.

Everything here is built from the public view and public events only; the buttons' enabled state comes from the
current player's legal actions, which for draws and tickets depend on public facts only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.i18n import render, text
from bot.storage.games import GameRecord
from bot.ui.components import GameComponent, button
from bot.ui.controller import GameController, TurnMessage
from bot.ui.custom_ids import ComponentId, act_id, rematch_id
from bot.ui.hints import with_hints
from bot.ui.pictures import Picture, plain_names
from rules.cardgame import CardGameEngine
from rules.cardgame.actions import DRAW_TICKETS, CardGameAction, draw_action
from rules.cardgame.cards import kind_of
from rules.cardgame.state import Phase
from rules.cardgame.view import CardGameView, PlayerView
from rules.engine import Event, GameResult, Message

GAME = CardGameEngine.game_id
COLOUR = discord.Colour.from_rgb(120, 30, 44)
CARD_EMOJI = {
    "red": "🟥",
    "orange": "🟧",
    "yellow": "🟨",
    "green": "🟩",
    "blue": "🟦",
    "purple": "🟪",
    "white": "⬜",
    "black": "⬛",
    "locomotive": "🚂",
}
"""The emoji a card colour's button or menu option carries (the same as Ticket to Ride's)."""

_QUIET = frozenset({"cardgame.event.turn_started", "cardgame.event.game_over"})
"""Public events the messages say otherwise (the turn message's title, the final message)."""
_LOUD = frozenset(
    {
        "cardgame.event.robbed",
        "cardgame.event.last_round",
        "cardgame.event.first_scoring",
        "cardgame.event.second_deck",
        "cardgame.event.face_up_reset",
    }
)
MAX_LINES = 8
SCORE_MARKS = {
    "cardgame.score.ticket_completed": "✅",
    "cardgame.score.ticket_completed_first": "✅",
    "cardgame.score.ticket_unfinished": "❌",
    "cardgame.score.big_city": "⭐",
}


FIRST_SCORED = "cardgame.event.first_scoring"
FIRST_SCORED_NONE = "cardgame.event.first_scoring_none"
"""A player who completed nothing at the first scoring is told so in words, not with an empty list."""


def narration(language: str, events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """The public events worded, one line each (the big moments in bold); private events never."""
    lines = []
    for event in events:
        if not event.public or event.key in _QUIET:
            continue
        said: Message = event
        if event.key == FIRST_SCORED and not event.params.get("completed"):
            said = Message(key=FIRST_SCORED_NONE, params=event.params)
        line = render(language, said, names)
        lines.append(f"**{line}**" if event.key in _LOUD else line)
    return lines


def signed(points: int) -> str:
    """Points with their sign, a true minus for losses."""
    return f"{points:+d}".replace("-", "−")


def colour_word(language: str, colour: str) -> str:
    """A card colour as a button shows it: capitalised."""
    word = text(language, f"cardgame.color.{colour}")
    return word[:1].upper() + word[1:]


def cid(record: GameRecord, verb: str, arg: str = "") -> ComponentId:
    """A custom id of this game at its current version."""
    return ComponentId(GAME, record.id, record.version, verb, arg)


def act_cid(record: GameRecord, action: CardGameAction) -> ComponentId:
    """The custom id of a button that plays `action` in this game at its current version."""
    return act_id(GAME, record.id, record.version, action)


def hand_button(language: str, record: GameRecord, *, key: str = "cardgame_bot.button.hand") -> GameComponent:
    """The button that opens a player's private hand (or their ticket choice)."""
    return button(cid(record, "hand"), text(language, key), style=discord.ButtonStyle.success, emoji="🃏", row=1)


def turn_buttons(
    language: str, record: GameRecord, view: CardGameView, legal: Sequence[CardGameAction]
) -> list[GameComponent]:
    """The face-up cards, the deck, new tickets, and My hand; what the player to act cannot do is disabled."""
    allowed = set(legal)
    items = [
        button(
            cid(record, "take", f"{slot}:{colour}"),
            colour_word(language, colour),
            emoji=CARD_EMOJI[colour],
            disabled=draw_action(kind_of(colour)) not in allowed,
            row=0,
        )
        for slot, colour in enumerate(view.face_up)
    ]
    deck = draw_action(None)
    deck_words = "cardgame_bot.button.deck" if view.deck_size else "cardgame_bot.button.deck_empty"
    items.append(
        button(
            act_cid(record, deck),
            text(language, deck_words, count=view.deck_size),
            style=discord.ButtonStyle.primary,
            emoji="🎴",
            disabled=deck not in allowed,
            row=1,
        )
    )
    items.append(
        button(
            act_cid(record, DRAW_TICKETS),
            text(language, "cardgame_bot.button.tickets", count=view.ticket_deck_size),
            emoji="🎫",
            disabled=DRAW_TICKETS not in allowed,
            row=1,
        )
    )
    items.append(hand_button(language, record))
    return items


def footer(language: str, record: GameRecord, view: CardGameView) -> str:
    """The game's number and which deck is in play (4 players)."""
    parts = [text(language, "cardgame_bot.footer.game", id=record.id)]
    if view.n_players == 4:
        parts.append(text(language, "cardgame_bot.footer.deck", number=view.deck_number))
    return " · ".join(parts)


def standings(language: str, record: GameRecord, view: CardGameView) -> str:
    """Every player in turn order with their hand, Rail Yard, Train Stack and tickets, the one to play marked."""
    names = GameController.names(record)
    lines = []
    for player in view.players:
        line = text(
            language,
            "cardgame_turn.standing",
            player=names[player.seat],
            hand=player.hand_size,
            yard=_yard_size(player),
            stack=player.stack_size,
            tickets=player.ticket_count,
        )
        lines.append(f"▶ {line}" if player.seat == view.current and view.phase != "opening" else line)
    return "\n".join(lines)


def _yard_size(player: PlayerView) -> int:
    return sum(group.cards + group.locomotives for group in player.yard)


def last_round(language: str, view: CardGameView) -> str:
    """The last-round banner, or nothing."""
    if not view.last_round or view.last_turns_left is None or view.phase == "over":
        return ""
    return text(language, "cardgame_turn.last_round", turns=view.last_turns_left)


def table_alt(language: str, record: GameRecord, view: CardGameView) -> str:
    """The table's alt text: the turn, who plays, and every Rail Yard's size (public facts only)."""
    names = plain_names(record)
    yards = ", ".join(
        text(
            language, "cardgame_turn.alt.yard", player=names[p.seat], cards=sum(g.cards + g.locomotives for g in p.yard)
        )
        for p in view.players
    )
    return text(language, "cardgame_turn.alt.table", turn=view.turn, player=names[view.current], yards=yards)


def scores_alt(language: str, record: GameRecord, result: GameResult) -> str:
    """A score sheet's alt text: every player's score, best first."""
    names = plain_names(record)
    scores = ", ".join(
        text(language, "cardgame_turn.alt.score", player=names[p.seat], points=p.total) for p in result.players
    )
    return text(language, "cardgame_turn.alt.scores", scores=scores)


def turn_message(
    language: str,
    record: GameRecord,
    view: CardGameView,
    legal: Sequence[CardGameAction],
    lines: Sequence[str],
    pictures: list[Picture],
) -> TurnMessage:
    """The message of a person's turn: whose turn (mentioned), what happened since the last one, the table when it
    changed, the standings and the last-round banner as text, and the buttons."""
    seat = view.current
    who = GameController.mention(record, seat)
    key = {
        Phase.SECOND_PICK: "cardgame_bot.turn.second_pick",
        Phase.TICKETS: "cardgame_bot.turn.choosing_tickets",
    }.get(view.phase, "cardgame_bot.turn.your_turn")
    title = text(language, "cardgame_turn.title", turn=view.turn, player=GameController.names(record)[seat])
    return TurnMessage(
        heading=f"### {title}",
        call=text(language, key, player=who),
        blocks=["\n".join(lines[-MAX_LINES:])],
        pictures=pictures,
        status=[last_round(language, view), standings(language, record, view)],
        controls=turn_buttons(language, record, view, legal),
        hint=text(language, "cardgame_bot.turn.hint") if view.phase == "turn" else "",
        accent=COLOUR.value,
        footer=footer(language, record, view),
    )


def opening_message(language: str, record: GameRecord, view: CardGameView, table: Picture) -> TurnMessage:
    """The simultaneous opening ticket choice: who has chosen, and the button that opens one's own choice."""
    names = GameController.names(record)
    waiting = [p.seat for p in view.players if not p.chose_opening]
    people = [GameController.mention(record, s) for s in waiting if not record.bot_plays(s)]
    status = [
        text(
            language,
            "cardgame_bot.opening.chosen" if p.chose_opening else "cardgame_bot.opening.waiting",
            player=names[p.seat],
        )
        for p in view.players
    ]
    call = (
        text(language, "cardgame_bot.opening.content", players=", ".join(people))
        if people
        else text(language, "cardgame_bot.opening.everyone_chose")
    )
    choose = hand_button(language, record, key="cardgame_bot.button.choose_tickets")
    return TurnMessage(
        heading=f"### {text(language, 'cardgame_bot.opening.title')}",
        call=call,
        blocks=[text(language, "cardgame_bot.opening.description") if waiting else "", "\n".join(status)],
        pictures=[table],
        controls=[choose] if waiting else [],
        accent=COLOUR.value,
        footer=footer(language, record, view),
    )


def first_scoring_message(
    language: str, record: GameRecord, lines: Sequence[str], pictures: list[Picture]
) -> TurnMessage:
    """The 4-player first scoring: each player's completed tickets and points, the picture, the second deck."""
    title = text(language, "cardgame_bot.first_scoring.title")
    return TurnMessage(
        heading=f"### {title}",
        call=text(language, "cardgame_bot.first_scoring.content"),
        blocks=[text(language, "cardgame_bot.first_scoring.description"), "\n".join(lines)],
        pictures=pictures,
        accent=discord.Colour.gold().value,
        footer=text(language, "cardgame_bot.footer.game", id=record.id),
    )


def final_message(
    language: str,
    record: GameRecord,
    view: CardGameView,
    lines: Sequence[str],
    result: GameResult,
    pictures: list[Picture],
) -> TurnMessage:
    """The end: the last moves, the winner(s), the ranking, and each player's score line by line."""
    names = GameController.names(record)
    winners = ", ".join(names[s] for s in result.winners)
    key = "cardgame_bot.final.winner" if len(result.winners) == 1 else "cardgame_bot.final.winners"
    ranking = [
        f"{place}. {names[p.seat]} — **{p.total}**" + (" 🏆" if p.seat in result.winners else "")
        for place, p in enumerate(result.players, start=1)
    ]
    details = []
    for player in result.players:
        worded = "\n".join(
            f"{SCORE_MARKS.get(line.label.key, '•')} {render(language, line.label, names)} **{signed(line.points)}**"
            for line in player.breakdown
        )
        title = text(language, "cardgame_bot.final.player", player=names[player.seat], points=player.total)
        details.append(f"**{title}**\n{worded or '—'}")
    return TurnMessage(
        heading=f"### {text(language, 'cardgame_bot.final.title')}",
        call=text(language, key, players=winners),
        blocks=["\n".join(lines[-MAX_LINES:]), "\n".join(with_hints(language, record, ranking)), *details],
        pictures=pictures,
        controls=[
            button(rematch_id(record.id, record.version), text(language, "lobby_control.button.rematch"), emoji="🔁")
        ],
        accent=discord.Colour.gold().value,
        footer=footer(language, record, view),
    )

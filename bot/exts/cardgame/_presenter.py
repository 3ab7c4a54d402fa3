"""The card game's presenter: what it plugs into the shared card-table presentation (bot/ui/table_presenter.py).

The public messages (the opening, each turn with table, what happened and buttons, the 4-player first scoring, and
the final score sheet) are built from the public view and public events only; the buttons' enabled state comes from
the current player's legal actions, which for draws and tickets depend on public facts only. The hand and the menus
that narrow a play down to one action are in `_private.py`. Nothing here posts or edits a message.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.exts.cardgame import _pictures
from bot.exts.cardgame._private import (
    CARD_EMOJI,
    PrivateMessage,
    act_cid,
    cid,
    colour_plays,
    colour_word,
    hand_picture,
    hand_status,
    play_menu,
    size_plays,
    ticket_choice,
)
from bot.i18n import render, text
from bot.storage.games import GameRecord
from bot.ui.components import GameComponent, button
from bot.ui.controller import GameController, TurnMessage
from bot.ui.custom_ids import face_up_colour, picked_tickets, rematch_id
from bot.ui.hints import with_hints
from bot.ui.pictures import Picture, plain_names
from bot.ui.table_presenter import Step, Verb
from rules.cardgame.actions import DRAW_TICKETS, CardGameAction, DrawCard, KeepTickets, PlayThree, draw_action
from rules.cardgame.cards import kind_of
from rules.cardgame.state import Phase
from rules.cardgame.view import CardGameView, PlayerView
from rules.engine import Event, GameResult, Message

COLOUR = discord.Colour.from_rgb(120, 30, 44)

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
TURN_STARTED = "cardgame.event.turn_started"
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


def signed(points: int) -> str:
    """Points with their sign, a true minus for losses."""
    return f"{points:+d}".replace("-", "−")


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
    """The table's alt text: the turn, who plays (nobody once the game is over), and every Rail Yard's size (public
    facts only)."""
    names = plain_names(record)
    yards = ", ".join(
        text(
            language, "cardgame_turn.alt.yard", player=names[p.seat], cards=sum(g.cards + g.locomotives for g in p.yard)
        )
        for p in view.players
    )
    if view.phase == Phase.OVER:
        return text(language, "cardgame_turn.alt.final_table", yards=yards)
    return text(language, "cardgame_turn.alt.table", turn=view.turn, player=names[view.current], yards=yards)


def scores_alt(language: str, record: GameRecord, result: GameResult) -> str:
    """A score sheet's alt text: every player's score, best first."""
    names = plain_names(record)
    scores = ", ".join(
        text(language, "cardgame_turn.alt.score", player=names[p.seat], points=p.total) for p in result.players
    )
    return text(language, "cardgame_turn.alt.scores", scores=scores)


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


@dataclass(frozen=True)
class ColourPicked(Step):
    """A colour picked in the play menu: every way to play it (or how many cards first) comes next."""

    colour: str


@dataclass(frozen=True)
class SizePicked(Step):
    """How many cards of a colour to play: the play itself, or how many locomotives, comes next."""

    colour: str
    size: int | None
    """None: a garbled pick."""


@dataclass(frozen=True)
class ThreePicked(Step):
    """The three colours picked together for a three-colour play (None: one the game does not know)."""

    play: PlayThree | None


class CardGamePresenter:
    """The card game's words, pictures and controls for the shared card-table presentation, and the reading of its
    own controls' clicks."""

    not_possible = "cardgame_bot.reason.not_possible_now"

    def read(self, verb: str, arg: str, values: list[str]) -> CardGameAction | Step | Verb | None:
        """A face-up card's button (`slot:colour`), the ticket choice (not bound to the version: see
        `KeepTickets`), or a pick in the play menus."""
        if verb == "take":
            kind = kind_of(face_up_colour(arg))
            return DrawCard(kind=kind) if kind is not None else None
        if verb == "keep":
            picked = picked_tickets(values)
            return KeepTickets(tickets=picked) if picked is not None else None
        if verb == "three":
            kinds = [kind_of(value) for value in values]
            return ThreePicked(
                PlayThree(colors=tuple(sorted(k for k in kinds if k is not None))) if None not in kinds else None
            )
        if verb == "color":
            return ColourPicked(values[0] if values else "")
        if verb == "size":
            size = values[0] if values else ""
            return SizePicked(arg, int(size) if size.isdigit() else None)
        return Verb.UNKNOWN

    def in_opening(self, public: CardGameView) -> bool:
        """The simultaneous ticket choice."""
        return public.phase == Phase.OPENING

    def drawing_turn(self, public: CardGameView, seat: int) -> bool:
        """The seat's turn, before or between its card picks."""
        return public.current == seat and public.phase in (Phase.TURN, Phase.SECOND_PICK)

    def turn_goes_on(self, public: CardGameView) -> bool:
        """A second card to pick, or tickets to keep."""
        return public.phase in (Phase.SECOND_PICK, Phase.TICKETS)

    def own_move(self, events: list[Event]) -> list[Event]:
        """The events of the move itself, without the next turn's start (its step 1 is told publicly)."""
        for index, event in enumerate(events):
            if event.key == TURN_STARTED:
                return events[:index]
        return events

    def narrowed(
        self, language: str, record: GameRecord, view: CardGameView, step: Step
    ) -> PrivateMessage | CardGameAction | None:
        """A colour, a size or three colours picked: the next menu, or the play itself."""
        if isinstance(step, ThreePicked):
            return step.play
        if isinstance(step, ColourPicked):
            return colour_plays(language, record, view, step.colour)
        if isinstance(step, SizePicked) and step.size is not None:
            return size_plays(language, record, view, step.colour, step.size)
        return None

    async def draw(self, language: str, record: GameRecord, public: CardGameView) -> Picture:
        """The table."""
        table = await _pictures.table(language, record, public)
        return Picture(_pictures.TABLE, table, table_alt(language, record, public))

    def board_key(self, public: CardGameView) -> Hashable:
        """The Rail Yards and the stacks' sizes: drawing cards or tickets changes none of them."""
        yards = tuple((tuple((g.color, g.cards, g.locomotives) for g in p.yard), p.stack_size) for p in public.players)
        return (yards, public.deck_number)

    async def final(
        self, language: str, record: GameRecord, public: CardGameView, lines: list[str], result: GameResult
    ) -> TurnMessage:
        """The winner, with the summary first, the final table, then the detail (every stack revealed): each a
        picture of its own, so each shows the chat's full width."""
        scores = await _pictures.final_scoring(language, record, public)
        detail = await _pictures.scoring_detail(language, record, public, "final")
        pictures = [
            Picture(_pictures.SCORES, scores, scores_alt(language, record, result)),
            await self.draw(language, record, public),
            Picture(_pictures.DETAIL, detail, text(language, "cardgame_turn.alt.detail")),
        ]
        return final_message(language, record, public, lines, result, pictures)

    def turn_begins(self, events: list[Event]) -> bool:
        """Every turn's start is an event."""
        return any(e.key == TURN_STARTED for e in events)

    def narrate(self, language: str, events: Sequence[Event], names: Mapping[int, str], *, summary: bool) -> list[str]:
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

    def turn_buttons(
        self, language: str, record: GameRecord, view: CardGameView, legal: Sequence[CardGameAction]
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
        items.append(self.hand_button(language, record))
        return items

    def hand_button(self, language: str, record: GameRecord, *, key: str = "cardgame_bot.button.hand") -> GameComponent:
        """The button that opens a player's private hand (or their ticket choice)."""
        return button(cid(record, "hand"), text(language, key), style=discord.ButtonStyle.success, emoji="🃏", row=1)

    def turn(
        self,
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
            controls=self.turn_buttons(language, record, view, legal),
            hint=text(language, "cardgame_bot.turn.hint") if view.phase == "turn" else "",
            accent=COLOUR.value,
            footer=footer(language, record, view),
        )

    def opening(self, language: str, record: GameRecord, view: CardGameView, table: Picture) -> TurnMessage:
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
        choose = self.hand_button(language, record, key="cardgame_bot.button.choose_tickets")
        return TurnMessage(
            heading=f"### {text(language, 'cardgame_bot.opening.title')}",
            call=call,
            blocks=[text(language, "cardgame_bot.opening.description") if waiting else "", "\n".join(status)],
            pictures=[table],
            controls=[choose] if waiting else [],
            accent=COLOUR.value,
            footer=footer(language, record, view),
        )

    async def hand(
        self,
        language: str,
        record: GameRecord,
        view: CardGameView,
        lines: Sequence[str] = (),
        *,
        places: str | None = None,
    ) -> PrivateMessage:
        """What "My hand" shows: the pending ticket choice, else the hand picture and the plays possible now (the
        picture names cities in `places`, the game's language)."""
        if self.needs_choice(view):
            return await ticket_choice(language, record, view, lines, places)
        picture = await hand_picture(language, record, view, places)
        status = hand_status(language, record, view)
        items: list[GameComponent] = []
        if view.phase == "turn" and view.current == view.seat:
            items = play_menu(language, record, view)
            if not items:
                status.append(text(language, "cardgame_bot.hand.nothing_to_play"))
        return PrivateMessage("\n".join([*lines, *status]), [picture], items)

    def needs_choice(self, view: CardGameView) -> bool:
        """Whether the seat owes a private decision now: tickets to keep."""
        return view.seat in view.to_act and bool(view.offered)

"""The card game's private messages: a player's hand with the plays they can make now, the ticket choice, and
the menus that narrow a play down to one legal action.

Every option here is a legal action of the player's own seat view. A select holds 25 options and a hand can
allow hundreds of plays, so the menu goes colour first (each colour saying whom it would rob), then the cards:
all the ways to play that colour when they fit in one menu, else how many cards and then how many locomotives.
Three different colours are picked together in one menu of exactly three.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.exts.cardgame import _pictures
from bot.i18n import text
from bot.storage.games import GameRecord
from bot.ui.answers import PrivateMessage
from bot.ui.components import GameComponent, button, select
from bot.ui.controller import GameController
from bot.ui.custom_ids import ACT, ComponentId, act_id, action_text
from bot.ui.pictures import Picture
from rules.cardgame import CardGameEngine
from rules.cardgame.actions import CardGameAction, KeepTickets, PlayGroup, PlayThree
from rules.cardgame.cards import COLORS, KIND_NAMES
from rules.cardgame.view import CardGameView, TicketView

GAME = CardGameEngine.game_id
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
MENU_SIZE = 25
THREE = "three"
"""The colour menu's value for a play of three different colours."""


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


@dataclass(frozen=True)
class GroupPlay:
    """A legal one-colour play, with whom it would rob."""

    action: PlayGroup
    robs_seat: int | None
    robs_cards: int

    @property
    def colour(self) -> str:
        """The group's colour name."""
        return KIND_NAMES[self.action.color]

    @property
    def natural(self) -> int:
        """Cards of the colour itself."""
        return self.action.cards

    @property
    def locomotives(self) -> int:
        """Locomotives joining the group."""
        return self.action.locomotives

    @property
    def size(self) -> int:
        """Cards in the group: natural ones and locomotives."""
        return self.natural + self.locomotives


def group_plays(view: CardGameView) -> list[GroupPlay]:
    """The seat's legal one-colour plays, smallest first."""
    plays = [
        GroupPlay(option.action, option.robs_seat, option.robs_cards)
        for option in view.legal or []
        if isinstance(option.action, PlayGroup)
    ]
    return sorted(plays, key=lambda p: (p.action.color, p.size, p.locomotives))


def three_colours(view: CardGameView) -> list[str]:
    """The colours that can go into a three-colour play (any three of them together are legal)."""
    found = {c for o in view.legal or [] if isinstance(o.action, PlayThree) for c in o.action.colors}
    return [colour for kind, colour in enumerate(COLORS) if kind in found]


def hand_status(language: str, record: GameRecord, view: CardGameView) -> list[str]:
    """One line on where the player stands in the turn."""
    names = GameController.names(record)
    if view.phase == "over":
        return [text(language, "cardgame_bot.hand.over")]
    if view.phase == "opening":
        return [text(language, "cardgame_bot.hand.opening_wait")]
    if view.current != view.seat:
        return [text(language, "cardgame_bot.hand.waiting", player=names[view.current])]
    if view.phase == "second_pick":
        return [text(language, "cardgame_bot.hand.second_pick")]
    return [text(language, "cardgame_bot.hand.your_turn")]


def play_menu(language: str, record: GameRecord, view: CardGameView) -> list[GameComponent]:
    """The colours this player can play to their Rail Yard now, each saying how many cards and whom it robs."""
    names = GameController.names(record)
    plays = group_plays(view)
    options = []
    for colour in COLORS:
        mine = [p for p in plays if p.colour == colour]
        if not mine:
            continue
        low, high = mine[0].size, max(p.size for p in mine)
        robbed = mine[0]
        if robbed.robs_seat is not None:
            description = text(
                language,
                "cardgame_bot.play.robs_colour",
                victim=names[robbed.robs_seat],
                count=robbed.robs_cards,
                needed=robbed.robs_cards + 1,
            )
        elif low == high:
            description = text(language, "cardgame_bot.play.size", count=low)
        else:
            description = text(language, "cardgame_bot.play.sizes", low=low, high=high)
        options.append(
            discord.SelectOption(
                label=colour_word(language, colour),
                value=colour,
                description=description[:100],
                emoji=CARD_EMOJI[colour],
            )
        )
    if three_colours(view):
        options.append(
            discord.SelectOption(
                label=text(language, "cardgame_bot.play.three"),
                value=THREE,
                description=text(language, "cardgame_bot.play.three_description")[:100],
                emoji="🎨",
            )
        )
    if not options:
        return []
    return [select(cid(record, "color"), text(language, "cardgame_bot.play.placeholder"), options)]


def colour_plays(language: str, record: GameRecord, view: CardGameView, colour: str) -> PrivateMessage | None:
    """After a colour was picked: every way to play it, or (more than fit one menu) how many cards first.

    None when that colour cannot be played now. A three-colour play asks for its three colours at once.
    """
    if colour == THREE:
        return three_menu(language, record, view)
    plays = [p for p in group_plays(view) if p.colour == colour]
    if not plays:
        return None
    word = text(language, f"cardgame.color.{colour}")
    if len(plays) <= MENU_SIZE:
        menu = _plays_menu(language, record, plays, text(language, "cardgame_bot.play.which_cards"))
        content = text(language, "cardgame_bot.play.which", color=word)
        return PrivateMessage(_robbery_line(language, record, plays, content), [], [menu, back(language, record)])
    sizes = sorted({p.size for p in plays})
    options = [
        discord.SelectOption(
            label=text(language, "cardgame_bot.play.size", count=size),
            value=str(size),
            description=text(
                language,
                "cardgame_bot.play.locomotives_up_to",
                count=max(p.locomotives for p in plays if p.size == size),
            ),
            emoji=CARD_EMOJI[colour],
        )
        for size in sizes[:MENU_SIZE]
    ]
    menu = select(cid(record, "size", colour), text(language, "cardgame_bot.play.how_many"), options)
    content = text(language, "cardgame_bot.play.which_size", color=word)
    return PrivateMessage(_robbery_line(language, record, plays, content), [], [menu, back(language, record)])


def size_plays(
    language: str, record: GameRecord, view: CardGameView, colour: str, size: int
) -> PrivateMessage | PlayGroup | None:
    """After a size was picked: the single legal play if only one, else a menu of how many locomotives."""
    plays = [p for p in group_plays(view) if p.colour == colour and p.size == size]
    if not plays:
        return None
    if len(plays) == 1:
        return plays[0].action
    menu = _plays_menu(language, record, plays, text(language, "cardgame_bot.play.which_cards"))
    content = text(
        language, "cardgame_bot.play.which_locomotives", color=text(language, f"cardgame.color.{colour}"), count=size
    )
    return PrivateMessage(content, [], [menu, back(language, record)])


def three_menu(language: str, record: GameRecord, view: CardGameView) -> PrivateMessage | None:
    """Pick exactly three colours (one card each; no yard may hold any of them)."""
    colours = three_colours(view)
    if len(colours) < 3:
        return None
    options = [discord.SelectOption(label=colour_word(language, c), value=c, emoji=CARD_EMOJI[c]) for c in colours]
    menu = select(
        cid(record, "three"),
        text(language, "cardgame_bot.play.three_placeholder"),
        options,
        min_values=3,
        max_values=3,
    )
    return PrivateMessage(text(language, "cardgame_bot.play.three_which"), [], [menu, back(language, record)])


def _plays_menu(language: str, record: GameRecord, plays: Sequence[GroupPlay], placeholder: str) -> GameComponent:
    """A select of one colour's plays (at most 25), each with its cards and what it does to the other yards."""
    names = GameController.names(record)
    options = []
    for play in plays[:MENU_SIZE]:
        colour = text(language, f"cardgame.color.{play.colour}")
        key = "cardgame_bot.play.option_locomotives" if play.locomotives else "cardgame_bot.play.option"
        label = text(language, key, count=play.size, natural=play.natural, color=colour, locomotives=play.locomotives)
        if play.robs_seat is not None:
            description = text(
                language, "cardgame_bot.play.robs", victim=names[play.robs_seat], count=play.robs_cards, color=colour
            )
        else:
            description = text(language, "cardgame_bot.play.free", color=colour)
        options.append(
            discord.SelectOption(
                label=label[:100],
                value=action_text(play.action),
                description=description[:100],
                emoji=CARD_EMOJI[play.colour],
            )
        )
    return select(cid(record, ACT), placeholder, options)


def _robbery_line(language: str, record: GameRecord, plays: Sequence[GroupPlay], content: str) -> str:
    """The question, and first whom these plays rob (every play of a colour robs the same yard)."""
    first = plays[0]
    if first.robs_seat is None:
        return content
    robbery = text(
        language,
        "cardgame_bot.play.robbery",
        victim=GameController.names(record)[first.robs_seat],
        count=first.robs_cards,
        color=text(language, f"cardgame.color.{first.colour}"),
        needed=first.robs_cards + 1,
    )
    return f"{robbery}\n{content}"


async def ticket_choice(
    language: str, record: GameRecord, view: CardGameView, lines: Sequence[str] = (), places: str | None = None
) -> PrivateMessage:
    """The offered tickets as a picture (its cities named in `places`) and a multi-select (at least one kept at the
    opening; any number later, with a button to keep none)."""
    offered = view.offered or []
    opening = view.phase == "opening"
    picture = await hand_picture(language, record, view, places)
    options = [
        discord.SelectOption(
            label=f"{number}. {ticket_words(language, t)}"[:100],
            value=str(t.id),
            description=needs_words(language, t)[:100],
            emoji="🎫",
        )
        for number, t in enumerate(offered, start=1)
    ]
    menu = select(
        cid(record, "keep"),
        text(language, "cardgame_bot.tickets.placeholder"),
        options,
        min_values=1,
        max_values=len(options),
    )
    items = [menu]
    if opening:
        question = text(language, "cardgame_bot.tickets.choose_opening", offered=len(offered))
    else:
        question = text(language, "cardgame_bot.tickets.choose", offered=len(offered))
        items.append(
            button(
                act_cid(record, KeepTickets(tickets=())),
                text(language, "cardgame_bot.button.keep_none"),
                style=discord.ButtonStyle.danger,
            )
        )
    return PrivateMessage("\n".join([*lines, question]), [picture], items)


async def hand_picture(language: str, record: GameRecord, view: CardGameView, places: str | None = None) -> Picture:
    """The hand picture (its cities named in `places`) with its alt text: the cards by colour, the tickets held and
    offered (private)."""
    cards = ", ".join(
        f"{count} × {text(language, f'cardgame.color.{colour}')}"
        for colour, count in (view.hand or {}).items()
        if count
    )
    tickets = ", ".join(ticket_words(language, t) for t in [*(view.tickets or []), *(view.offered or [])])
    alt = text(language, "cardgame_turn.alt.hand", cards=cards or "—", tickets=tickets or "—")
    return Picture(_pictures.HAND, await _pictures.hand(language, record, view, places), alt)


def ticket_words(language: str, ticket: TicketView) -> str:
    """A ticket's two cities and points, "Chicago – New York (5)"."""
    return text(
        language,
        "cardgame.ticket.name",
        a=text(language, f"cardgame.city.{ticket.a}"),
        b=text(language, f"cardgame.city.{ticket.b}"),
        points=ticket.points,
    )


def needs_words(language: str, ticket: TicketView) -> str:
    """The cards a ticket needs in the stack and the big cities it names, in words."""
    cards = ", ".join(
        f"{text(language, f'cardgame.color.{c}')} ×{ticket.cards[c]}" for c in COLORS if ticket.cards.get(c)
    )
    if not ticket.big_cities:
        return text(language, "cardgame_bot.tickets.needs", cards=cards)
    cities = ", ".join(text(language, f"cardgame.city.{c}") for c in ticket.big_cities)
    return text(language, "cardgame_bot.tickets.needs_big", cards=cards, cities=cities)


def back(language: str, record: GameRecord) -> GameComponent:
    """Back to the whole hand (its plays from the start)."""
    return button(cid(record, "hand"), text(language, "cardgame_bot.button.back"), emoji="↩️", row=4)

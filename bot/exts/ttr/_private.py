"""Ticket to Ride's private messages: a player's hand with the moves they can make now, the ticket choice, the
tunnel's pay-or-withdraw choice, and the menus that narrow a claim or a station down to one legal action.

Every option here is a legal action of the player's own seat view; a select menu holds 25 options, so a long
list is split by city, and the colour and locomotives are asked only when there is a real choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import discord

from bot.exts.ttr import _pictures
from bot.exts.ttr._map import (
    COLOR_EMOJI,
    MENU_SIZE,
    by_name,
    chunks,
    city_name,
    claim_payment,
    claims_in,
    fold,
    payment_words,
    route_details,
    route_name,
    station_payment,
    stations_in,
    ticket_words,
    track,
)
from bot.i18n import text
from bot.storage.games import GameRecord
from bot.ui.answers import PrivateMessage
from bot.ui.components import GameComponent, button, select
from bot.ui.controller import GameController
from bot.ui.custom_ids import ACT, ComponentId, act_id, action_text
from bot.ui.pictures import Picture
from rules.ttr import TicketToRideEngine
from rules.ttr.actions import BuildStation, Claim, KeepTickets, PayTunnel, TtrAction, Withdraw
from rules.ttr.board import board_for
from rules.ttr.moves import station_cost
from rules.ttr.view import SeatView

GAME = TicketToRideEngine.game_id


def colour_word(language: str, colour: str) -> str:
    """A card colour as a button shows it: capitalised."""
    word = text(language, f"ttr.color.{colour}")
    return word[:1].upper() + word[1:]


def cid(record: GameRecord, verb: str, arg: str = "") -> ComponentId:
    """A custom id of this game at its current version."""
    return ComponentId(GAME, record.id, record.version, verb, arg)


def act_cid(record: GameRecord, action: TtrAction) -> ComponentId:
    """The custom id of a button that plays `action` in this game at its current version."""
    return act_id(GAME, record.id, record.version, action)


class PayFor(StrEnum):
    """What a payment menu is for; the value begins the `paycolor` menu's custom id argument (`claim:<track id>`
    or `station:<city id>`), which menus already posted carry."""

    CLAIM = "claim"
    STATION = "station"


@dataclass(frozen=True)
class Target:
    """What a payment is for: a track to claim or a city to build a station on."""

    kind: PayFor
    key: str
    """The track id (as written in a custom id) or the city id."""

    @classmethod
    def claim(cls, track: int | str) -> Target:
        """Paying for a claim of this track (its id, or as a menu's value writes it)."""
        return cls(PayFor.CLAIM, str(track))

    @classmethod
    def station(cls, city: str) -> Target:
        """Paying for a station on this city."""
        return cls(PayFor.STATION, city)

    @classmethod
    def read(cls, parts: Sequence[str]) -> Target | None:
        """The target a `paycolor` menu's argument parts name, or None."""
        if len(parts) != 2 or parts[0] not in set(PayFor):
            return None
        return cls(PayFor(parts[0]), parts[1])

    @property
    def arg(self) -> str:
        """The `paycolor` menu's custom id argument."""
        return f"{self.kind.value}:{self.key}"

    def paid_by(self, action: Claim | BuildStation) -> bool:
        """Whether `action` is one way to pay for this."""
        if isinstance(action, Claim):
            return self.kind is PayFor.CLAIM and str(action.track) == self.key
        return self.kind is PayFor.STATION and action.city == self.key


def hand_status(language: str, record: GameRecord, view: SeatView) -> list[str]:
    """One line on where the player stands in the turn."""
    names = GameController.names(record)
    if view.result is not None:
        return [text(language, "ttr_bot.hand.over")]
    if view.current is None:
        return [text(language, "ttr_bot.hand.opening_wait")]
    if view.current != view.seat:
        return [text(language, "ttr_bot.hand.waiting", player=names[view.current])]
    if view.phase == "second_pick":
        return [text(language, "ttr_bot.hand.second_pick")]
    return [text(language, "ttr_bot.hand.your_turn")]


async def ticket_choice(
    language: str, record: GameRecord, view: SeatView, lines: Sequence[str] = (), places: str | None = None
) -> PrivateMessage:
    """The offered tickets as a picture (its cities named in `places`) and a multi-select that enforces the minimum
    to keep."""
    least = min((len(a.tickets) for a in view.legal_moves if isinstance(a, KeepTickets)), default=1)
    offered = ", ".join(ticket_words(language, view.map, t.id) for t in view.offered)
    picture = Picture(
        _pictures.TICKETS,
        await _pictures.ticket_choice(language, record, view, places),
        text(language, "ttr_turn.alt.tickets", tickets=offered),
    )
    options = [
        discord.SelectOption(
            label=ticket_words(language, view.map, t.id)[:100],
            value=str(t.id),
            description=text(language, "ttr_bot.tickets.long") if t.long else None,
            emoji="🎫",
        )
        for t in view.offered
    ]
    menu = select(
        cid(record, "keep"),
        text(language, "ttr_bot.tickets.placeholder", minimum=least),
        options,
        min_values=least,
        max_values=len(options),
    )
    content = [*lines, text(language, "ttr_bot.tickets.choose", minimum=least, offered=len(options))]
    return PrivateMessage("\n".join(content), [picture], [menu])


async def tunnel_choice(
    language: str, record: GameRecord, view: SeatView, lines: Sequence[str] = (), places: str | None = None
) -> PrivateMessage:
    """Pay the tunnel's extra cards (each way the hand allows, with the exact cards) or withdraw, under the hand
    picture (its cities named in `places`)."""
    tunnel = view.tunnel
    assert tunnel is not None
    revealed = ", ".join(text(language, f"ttr.color.{c}") for c in tunnel.revealed)
    items = []
    for action in view.legal_moves:
        if isinstance(action, PayTunnel):
            cards = payment_words(language, tunnel.color, tunnel.extra - action.locomotives, action.locomotives)
            items.append(
                button(
                    act_cid(record, action),
                    text(language, "ttr_bot.tunnel.pay", cards=cards),
                    style=discord.ButtonStyle.success,
                )
            )
    items.append(
        button(act_cid(record, Withdraw()), text(language, "ttr_bot.tunnel.withdraw"), style=discord.ButtonStyle.danger)
    )
    content = text(
        language,
        "ttr_bot.tunnel.question",
        route=route_name(language, view.map, tunnel.track),
        cards=revealed,
        extra=tunnel.extra,
    )
    picture = await hand_picture(language, record, view, places)
    return PrivateMessage("\n".join([*lines, content]), [picture], items)


async def hand_picture(language: str, record: GameRecord, view: SeatView, places: str | None = None) -> Picture:
    """The hand picture (its cities named in `places`) with its alt text: the cards by colour and the tickets
    (private, so they may be named)."""
    cards = ", ".join(
        text(language, "ttr.cards.plain", count=count, color=text(language, f"ttr.color.{colour}"))
        for colour, count in view.hand.items()
        if count
    )
    tickets = ", ".join(ticket_words(language, view.map, t.id) + (" ✓" if t.completed else "") for t in view.tickets)
    alt = text(language, "ttr_turn.alt.hand", cards=cards or "—", tickets=tickets or "—")
    return Picture(_pictures.HAND, await _pictures.hand(language, record, view, places), alt)


def claim_menus(language: str, record: GameRecord, view: SeatView) -> list[GameComponent]:
    """The routes this player can claim now: one menu of routes, or, when more than fit, menus of cities."""
    tracks = sorted(
        {c.track for c in claims_in(view.legal_moves)}, key=lambda t: fold(route_name(language, view.map, t))
    )
    if not tracks:
        return []
    if len(tracks) <= MENU_SIZE:
        return [route_menu(language, record, view, tracks)]
    cities = by_name(language, [end for t in tracks for end in _ends(view.map, t)])
    counts = {c: sum(c in _ends(view.map, t) for t in tracks) for c in cities}
    menus = []
    for number, part in enumerate(chunks(cities)):
        options = [
            discord.SelectOption(
                label=city_name(language, c),
                value=c,
                description=text(language, "ttr_bot.claim.routes_here", count=counts[c]),
            )
            for c in part
        ]
        placeholder = text(
            language,
            "ttr_bot.claim.by_city",
            first=city_name(language, part[0]),
            last=city_name(language, part[-1]),
        )
        menus.append(select(cid(record, "city", str(number)), placeholder, options))
    return menus


def route_menu(language: str, record: GameRecord, view: SeatView, tracks: Sequence[int]) -> GameComponent:
    """A select of claimable routes (at most 25), each with its colour and kind."""
    options = []
    for track_id in tracks[:MENU_SIZE]:
        found = track(view.map, track_id)
        options.append(
            discord.SelectOption(
                label=route_name(language, view.map, track_id)[:100],
                value=str(track_id),
                description=route_details(language, view.map, track_id)[:100] or None,
                emoji=COLOR_EMOJI.get(found.color if found else "", None),
            )
        )
    return select(cid(record, "route"), text(language, "ttr_bot.claim.placeholder"), options)


def routes_from(language: str, record: GameRecord, view: SeatView, city: str) -> PrivateMessage:
    """After a city was picked: the claimable routes from it, and a way back to the whole hand."""
    tracks = sorted(
        {c.track for c in claims_in(view.legal_moves) if city in _ends(view.map, c.track)},
        key=lambda t: fold(route_name(language, view.map, t)),
    )
    if not tracks:
        return PrivateMessage(
            text(language, "ttr_bot.claim.none_from", city=city_name(language, city)), [], [_back(language, record)]
        )
    content = text(language, "ttr_bot.claim.from_city", city=city_name(language, city))
    return PrivateMessage(content, [], [route_menu(language, record, view, tracks), _back(language, record)])


def station_menus(language: str, record: GameRecord, view: SeatView) -> list[GameComponent]:
    """The cities where this player can build a station now, split in menus of at most 25."""
    cities = by_name(language, [s.city for s in stations_in(view.legal_moves)])
    menus = []
    for number, part in enumerate(chunks(cities)):
        options = [discord.SelectOption(label=city_name(language, c), value=c, emoji="🏠") for c in part]
        placeholder = text(
            language,
            "ttr_bot.station.placeholder",
            first=city_name(language, part[0]),
            last=city_name(language, part[-1]),
        )
        menus.append(select(cid(record, "station", str(number)), placeholder, options))
    return menus


def payment_choice(
    language: str, record: GameRecord, view: SeatView, target: Target, colour: str | None = None
) -> PrivateMessage | Claim | BuildStation | None:
    """How to pay for a claim or a station: the single legal action when there is no real choice, else a menu of
    payments (by colour first when more than 25), None when none."""
    choices = [a for a in view.legal_moves if isinstance(a, Claim | BuildStation) and target.paid_by(a)]
    if colour is not None:
        choices = [a for a in choices if a.color == colour]
    if not choices:
        return None
    if len(choices) == 1:
        return choices[0]
    subject = _subject(language, view, target)
    if len(choices) > MENU_SIZE:
        colours = sorted({a.color for a in choices})
        options = [discord.SelectOption(label=colour_word(language, c), value=c, emoji=COLOR_EMOJI[c]) for c in colours]
        menu = select(cid(record, "paycolor", target.arg), text(language, "ttr_bot.pay.colour"), options)
        return PrivateMessage(
            text(language, "ttr_bot.pay.which_colour", subject=subject), [], [menu, _back(language, record)]
        )
    options = []
    for choice in sorted(choices, key=lambda a: (a.locomotives, a.color)):
        if isinstance(choice, Claim):
            label = claim_payment(language, view.map, choice)
        else:
            label = station_payment(language, choice, _station_cost(view))
        options.append(
            discord.SelectOption(label=label[:100], value=action_text(choice), emoji=COLOR_EMOJI.get(choice.color))
        )
    menu = select(cid(record, ACT), text(language, "ttr_bot.pay.placeholder"), options)
    return PrivateMessage(
        text(language, "ttr_bot.pay.which_cards", subject=subject), [], [menu, _back(language, record)]
    )


def _station_cost(view: SeatView) -> int:
    """How many cards this seat's next station costs, as the engine counts it."""
    return station_cost(view.players[view.seat].stations_left, board_for(view.map))


def _subject(language: str, view: SeatView, target: Target) -> str:
    if target.kind is PayFor.CLAIM and target.key.isdigit():
        return route_name(language, view.map, int(target.key))
    return text(language, "ttr_bot.station.subject", city=city_name(language, target.key))


def _ends(map_id: str, track_id: int) -> tuple[str, ...]:
    found = track(map_id, track_id)
    return (found.a, found.b) if found is not None else ()


def _back(language: str, record: GameRecord) -> GameComponent:
    return button(cid(record, "hand"), text(language, "ttr_bot.button.back"), emoji="↩️", row=4)

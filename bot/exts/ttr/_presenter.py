"""Ticket to Ride's presenter: what it plugs into the shared card-table presentation (bot/ui/table_presenter.py).

The public messages (the opening, each turn with board, last turn and buttons, and the end) are built from the
public view and public events only; the buttons' enabled state comes from the current player's legal actions (which,
for draws and tickets, depend on public facts only). The hand with its ticket and tunnel choices, and the menus that
narrow a claim or a station down to one way to pay, are in `_private.py`. Nothing here posts or edits a message.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.exts.ttr import _pictures
from bot.exts.ttr._map import COLOR_EMOJI, game_map, route_name, ticket_words
from bot.exts.ttr._private import (
    PrivateMessage,
    Target,
    act_cid,
    cid,
    claim_menus,
    colour_word,
    hand_picture,
    hand_status,
    payment_choice,
    routes_from,
    station_menus,
    ticket_choice,
    tunnel_choice,
)
from bot.i18n import render, text
from bot.storage.games import GameRecord
from bot.ui.components import GameComponent, button
from bot.ui.controller import GameController, TurnMessage
from bot.ui.custom_ids import face_up_colour, parts, picked_tickets, rematch_id
from bot.ui.hints import with_hints
from bot.ui.pictures import Picture, plain_names
from bot.ui.table_presenter import Step, Verb
from render.ttr.palette import player_color
from rules.engine import Event, GameResult
from rules.ttr.actions import DECK, DrawCard, DrawTickets, KeepTickets, Pass, TtrAction
from rules.ttr.state import Phase
from rules.ttr.view import FinalPlayer, PublicView, SeatView

_COLOUR = discord.Colour.from_rgb(21, 101, 192)
_PER_PICK = frozenset(
    {"ttr.event.drew_blind", "ttr.event.took_face_up", "ttr.event.drew_tickets", "ttr.event.opening_chosen"}
)
"""Events of a turn's steps; the turn's summary event says the same once the turn is over."""
_LOUD = frozenset({"ttr.event.last_round", "ttr.event.stalemate", "ttr.event.play_begins"})
MAX_LINES = 12
PLAYER_MARKS = ("🔴", "🟢", "🔵", "🟣", "⚫")
"""A mark per player colour index, next to names in the standings (the colours of render/ttr/palette.py)."""
PLAY_BEGINS = "ttr.event.play_begins"
BLACK_ACCENT = 0x80808A
"""The accent for the black player: a black bar would vanish on Discord's dark theme."""


def _title(language: str, view: PublicView) -> str:
    return text(language, "ttr_bot.title", map=text(language, f"ttr.map.{view.map}"))


def _footer(language: str, record: GameRecord) -> str:
    return text(language, "ttr_bot.footer.game", id=record.id)


def accent(view: PublicView, seat: int | None) -> int:
    """The message's accent: the colour of the player it is about (the game's blue when nobody's)."""
    if seat is None:
        return _COLOUR.value
    red, green, blue = player_color(view.players[seat].color)
    return (red << 16) | (green << 8) | blue if red + green + blue > 150 else BLACK_ACCENT


def standings(language: str, record: GameRecord, view: PublicView) -> str:
    """Every player in turn order with what the panel shows (points, cars, cards, tickets, stations), the one to
    play marked: text, so it reads at any picture size."""
    names = GameController.names(record)
    key = "ttr_turn.standing_stations" if game_map(view.map).rules.stations_per_player > 0 else "ttr_turn.standing"
    lines = []
    for player in view.players:
        line = text(
            language,
            key,
            mark=PLAYER_MARKS[player.color % len(PLAYER_MARKS)],
            player=names[player.seat],
            points=player.route_points,
            cars=player.cars,
            cards=player.hand_size,
            tickets=player.ticket_count,
            stations=player.stations_left,
        )
        lines.append(f"▶ {line}" if player.seat == view.current else line)
    return "\n".join(lines)


def last_round(language: str, view: PublicView) -> str:
    """The last-round banner, or nothing."""
    if not view.last_round or view.turns_left is None or view.result is not None:
        return ""
    return text(language, "ttr_turn.last_round", turns=view.turns_left)


def board_alt(language: str, record: GameRecord, view: PublicView) -> str:
    """The board's alt text: whose turn, the points the panel shows (route points, the totals once the game is over),
    the last route claimed (public facts only)."""
    names = plain_names(record)
    parts = [text(language, "ttr_turn.alt.board", title=_title(language, view))]
    if view.current is not None:
        parts.append(text(language, "ttr_turn.alt.to_play", player=names[view.current]))
    totals = {p.seat: p.total for p in view.result.players} if view.result is not None else {}
    scores = ", ".join(
        text(language, "ttr_turn.alt.score", player=names[p.seat], points=totals.get(p.seat, p.route_points))
        for p in view.players
    )
    parts.append(scores + ".")
    if view.last_claim is not None:
        parts.append(text(language, "ttr_turn.alt.last_claim", route=route_name(language, view.map, view.last_claim)))
    return " ".join(parts)


def final_alt(language: str, record: GameRecord, result: GameResult) -> str:
    """The score sheet's alt text: every player's final score, best first."""
    names = plain_names(record)
    scores = ", ".join(
        text(language, "ttr_turn.alt.score", player=names[p.seat], points=p.total) for p in result.players
    )
    return text(language, "ttr_turn.alt.scores", scores=scores)


def final_message(
    language: str,
    record: GameRecord,
    view: PublicView,
    lines: Sequence[str],
    result: GameResult,
    pictures: list[Picture],
) -> TurnMessage:
    """The end: the last moves, the winner(s), the ranking, and for each player every ticket (failed first),
    longest route and stations, with its pictures (the summary, the final board, the score sheet)."""
    names = GameController.names(record)
    winners = ", ".join(names[s] for s in result.winners)
    finals = {f.seat: f for f in view.final or []}
    ranking = [
        f"{place}. {names[p.seat]} — **{p.total}**" + (" 🏆" if p.seat in result.winners else "")
        for place, p in enumerate(result.players, start=1)
    ]
    key = "ttr_bot.final.winner" if len(result.winners) == 1 else "ttr_bot.final.winners"
    stations = game_map(view.map).rules.stations_per_player > 0
    details = []
    for player in result.players:
        final = finals.get(player.seat)
        if final is not None:
            title = text(language, "ttr_bot.final.player", player=names[player.seat], points=player.total)
            details.append(f"**{title}**\n{_final_lines(language, view, final, stations)}")
    return TurnMessage(
        heading=f"### {text(language, 'ttr_bot.final.title', title=_title(language, view))}",
        call=text(language, key, players=winners),
        blocks=["\n".join(lines[-MAX_LINES:]), "\n".join(with_hints(language, record, ranking)), *details],
        pictures=pictures,
        controls=[
            button(rematch_id(record.id, record.version), text(language, "lobby_control.button.rematch"), emoji="🔁")
        ],
        accent=discord.Colour.gold().value,
        footer=_footer(language, record),
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
    return "\n".join(lines)


@dataclass(frozen=True)
class CityPicked(Step):
    """A city picked in the claim menu: the routes from it come next."""

    city: str


@dataclass(frozen=True)
class Paying(Step):
    """A route or station picked (and, from a long list, the colour to pay in): how to pay comes next."""

    target: Target
    colour: str | None = None


class TtrPresenter:
    """Ticket to Ride's words, pictures and controls for the shared card-table presentation, and the reading of
    its own controls' clicks."""

    not_possible = "ttr_bot.reason.not_possible_now"

    def read(self, verb: str, arg: str, values: list[str]) -> TtrAction | Step | Verb | None:
        """A face-up card's button (`slot:colour`), the ticket choice (not bound to the version: see
        `KeepTickets`), or a pick in the claim, station or colour menus."""
        value = values[0] if values else ""
        if verb == "take":
            return DrawCard(source=face_up_colour(arg))
        if verb == "keep":
            picked = picked_tickets(values)
            return KeepTickets(tickets=picked) if picked is not None else None
        if verb == "city":
            return CityPicked(value)
        if verb == "route":
            return Paying(Target.claim(value))
        if verb == "station":
            return Paying(Target.station(value))
        if verb == "paycolor":
            target = Target.read(parts(arg))
            return Paying(target, colour=value) if target is not None else None
        return Verb.UNKNOWN

    def in_opening(self, public: PublicView) -> bool:
        """The simultaneous ticket choice."""
        return public.phase == Phase.OPENING

    def drawing_turn(self, public: PublicView, seat: int) -> bool:
        """The seat's turn, before or between its card picks."""
        return public.current == seat and public.phase in (Phase.TURN, Phase.SECOND_PICK)

    def turn_goes_on(self, public: PublicView) -> bool:
        """A second card to pick, a tunnel to pay for, or tickets to keep."""
        return public.phase in (Phase.SECOND_PICK, Phase.TUNNEL, Phase.TICKETS)

    def own_move(self, events: list[Event]) -> list[Event]:
        """All of a move's events are the actor's own."""
        return events

    def narrowed(
        self, language: str, record: GameRecord, view: SeatView, step: Step
    ) -> PrivateMessage | TtrAction | None:
        """A city picked: its routes; a route, station city or colour: the way to pay, or the move itself."""
        if isinstance(step, CityPicked):
            return routes_from(language, record, view, step.city)
        if isinstance(step, Paying):
            return payment_choice(language, record, view, step.target, colour=step.colour)
        return None

    def board_key(self, public: PublicView) -> Hashable:
        """The routes and stations taken and the tunnel being paid: drawing cards changes none of them."""
        tunnel = public.tunnel.track if public.tunnel is not None else None
        return (tuple(sorted(public.owners.items())), tuple(sorted(public.stations.items())), tunnel)

    async def final(
        self, language: str, record: GameRecord, public: PublicView, lines: list[str], result: GameResult
    ) -> TurnMessage:
        """The winner and every ticket, with the summary first, the final board, then the score sheet: each a
        picture of its own, so each shows the chat's full width."""
        summary = await _pictures.score_summary(language, record, public)
        sheet = await _pictures.score_sheet(language, record, public)
        pictures = [
            Picture(_pictures.SCORES, summary, final_alt(language, record, result)),
            await self.draw(language, record, public),
            Picture(_pictures.DETAIL, sheet, text(language, "ttr_turn.alt.detail")),
        ]
        return final_message(language, record, public, lines, result, pictures)

    def turn_begins(self, events: list[Event]) -> bool:
        """The last opening choice: play begins."""
        return any(e.key == PLAY_BEGINS for e in events)

    def narrate(self, language: str, events: Sequence[Event], names: Mapping[int, str], *, summary: bool) -> list[str]:
        """The public events worded, one line each; a summary leaves out the steps its closing event sums up."""
        lines = []
        for event in events:
            if not event.public or (summary and event.key in _PER_PICK) or event.key == "ttr.event.game_over":
                continue
            line = render(language, event, names)
            lines.append(f"**{line}**" if event.key in _LOUD else line)
        return lines

    def turn_buttons(
        self, language: str, record: GameRecord, view: PublicView, legal: Sequence[TtrAction]
    ) -> list[GameComponent]:
        """The five face-up cards, the deck, new tickets (and pass, when that is all that is left), and My hand."""
        allowed = set(legal)
        items = [
            button(
                cid(record, "take", f"{slot}:{colour}"),
                colour_word(language, colour),
                emoji=COLOR_EMOJI[colour],
                disabled=DrawCard(source=colour) not in allowed,
                row=0,
            )
            for slot, colour in enumerate(view.market)
        ]
        deck, tickets, pass_turn = DrawCard(source=DECK), DrawTickets(), Pass()
        items.append(
            button(
                act_cid(record, deck),
                text(language, "ttr_bot.button.deck", count=view.deck_size),
                style=discord.ButtonStyle.primary,
                emoji="🎴",
                disabled=deck not in allowed,
                row=1,
            )
        )
        items.append(
            button(
                act_cid(record, tickets),
                text(language, "ttr_bot.button.tickets", count=view.ticket_deck_size),
                emoji="🎫",
                disabled=tickets not in allowed,
                row=1,
            )
        )
        if pass_turn in allowed:
            items.append(button(act_cid(record, pass_turn), text(language, "ttr_bot.button.pass"), row=1))
        items.append(self.hand_button(language, record))
        return items

    def hand_button(self, language: str, record: GameRecord, *, label: str = "ttr_bot.button.hand") -> GameComponent:
        """The button that opens a player's private hand (or ticket choice)."""
        return button(cid(record, "hand"), text(language, label), style=discord.ButtonStyle.success, emoji="🃏", row=1)

    def turn(
        self,
        language: str,
        record: GameRecord,
        view: PublicView,
        legal: Sequence[TtrAction],
        lines: Sequence[str],
        pictures: list[Picture],
    ) -> TurnMessage:
        """The message of a person's turn: whose turn (mentioned), what happened since the last one, the board when it
        changed, the standings and the last-round banner as text, and the buttons."""
        assert view.current is not None
        seat = view.current
        who = GameController.mention(record, seat)
        phase_key = {
            Phase.SECOND_PICK: "ttr_bot.turn.second_pick",
            Phase.TUNNEL: "ttr_bot.turn.tunnel",
            Phase.TICKETS: "ttr_bot.turn.choosing_tickets",
        }.get(Phase(view.phase), "ttr_bot.turn.your_turn")
        return TurnMessage(
            heading=f"### {_title(language, view)} · {GameController.names(record)[seat]}",
            call=text(language, phase_key, player=who),
            blocks=["\n".join(lines[-MAX_LINES:])],
            pictures=pictures,
            status=[last_round(language, view), standings(language, record, view)],
            controls=self.turn_buttons(language, record, view, legal),
            hint=text(language, "ttr_bot.turn.hint") if view.phase == "turn" else "",
            accent=accent(view, seat),
            footer=_footer(language, record),
        )

    def opening(self, language: str, record: GameRecord, view: PublicView, board: Picture) -> TurnMessage:
        """The simultaneous ticket choice: who has chosen, and the button that opens one's own choice."""
        names = GameController.names(record)
        waiting = [p.seat for p in view.players if not p.chosen]
        people = [GameController.mention(record, s) for s in waiting if not record.bot_plays(s)]
        call = text(language, "ttr_bot.opening.content", players=", ".join(people)) if people else ""
        status = [
            text(language, "ttr_bot.opening.chosen" if p.chosen else "ttr_bot.opening.waiting", player=names[p.seat])
            for p in view.players
        ]
        return TurnMessage(
            heading=f"### {text(language, 'ttr_bot.opening.title', title=_title(language, view))}",
            call=call,
            blocks=[
                text(language, "ttr_bot.opening.description")
                if waiting
                else text(language, "ttr_bot.opening.everyone_chose"),
                "\n".join(status),
            ],
            pictures=[board],
            controls=[self.hand_button(language, record, label="ttr_bot.button.choose_tickets")] if waiting else [],
            accent=_COLOUR.value,
            footer=_footer(language, record),
        )

    async def draw(self, language: str, record: GameRecord, view: PublicView) -> Picture:
        """The board for the public messages, drawn in a worker thread, with its alt text."""
        return Picture(
            _pictures.BOARD, await _pictures.board(language, record, view), board_alt(language, record, view)
        )

    async def hand(
        self, language: str, record: GameRecord, view: SeatView, lines: Sequence[str] = (), *, places: str | None = None
    ) -> PrivateMessage:
        """What "My hand" shows: the pending ticket or tunnel choice, else the hand picture and the moves possible
        (the pictures name cities in `places`, the game's language)."""
        if view.seat in view.to_act and view.offered:
            return await ticket_choice(language, record, view, lines, places)
        if view.seat in view.to_act and view.phase == "tunnel":
            return await tunnel_choice(language, record, view, lines, places)
        picture = await hand_picture(language, record, view, places)
        items: list[GameComponent] = []
        status = hand_status(language, record, view)
        if view.phase == "turn" and view.current == view.seat:
            items = claim_menus(language, record, view) + station_menus(language, record, view)
            if not items:
                status.append(text(language, "ttr_bot.hand.nothing_to_build"))
        return PrivateMessage("\n".join([*lines, *status]), [picture], items)

    def needs_choice(self, view: SeatView) -> bool:
        """Whether the seat owes a private decision now: tickets to keep, or a tunnel to pay for."""
        if view.seat not in view.to_act:
            return False
        return bool(view.offered) or view.phase == "tunnel"

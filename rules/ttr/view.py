"""What leaves the engine for display: the public view (nothing hidden, R-V1/R-V3) and a seat's view (R-V2).

Renderers and public messages take `PublicView`; a player's private reply takes their `SeatView`, which adds
only that seat's hand, tickets, ticket offer and legal moves. At the end everything is revealed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from rules.engine import GameResult, Message
from rules.ttr.actions import (
    BuildStation,
    Claim,
    KeepTickets,
    TtrAction,
    TtrMove,
)
from rules.ttr.board import CARD_CODES, CARD_NAMES, COLOR_MESSAGES, Board, board_for, cards_message
from rules.ttr.moves import closed_tracks
from rules.ttr.scoring import connected_tickets, final_scores, game_result
from rules.ttr.state import LastMove, Phase, TtrState


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class PlayerPublic(_View):
    """A player as everyone sees them; `color` is the player's colour index (their seat)."""

    seat: int
    color: int
    route_points: int
    cars: int
    stations_left: int
    hand_size: int
    ticket_count: int
    chosen: bool
    """During the opening: whether this player has chosen their tickets."""


class TunnelView(_View):
    """A tunnel claim waiting for payment: the cards laid and the 3 revealed, and how many extra are due."""

    track: int
    color: str
    locomotives: int
    revealed: list[str]
    extra: int


class LastMoveView(_View):
    """The last finished turn as everyone saw it (R-V1): never a blind card's colour, never which tickets (R-V3)."""

    seat: int
    kind: Literal["cards", "claim", "tickets", "station", "tunnel_failed", "tunnel_withdrawn", "pass"]
    face_up: list[str] = []
    """Colours taken face up, in the order taken."""
    blind: int = 0
    """How many cards came blind from the deck."""
    track: int | None = None
    """Track id claimed, or the tunnel tried."""
    points: int = 0
    """Route points the claim scored."""
    tickets_drawn: int = 0
    tickets_kept: int = 0
    city: str | None = None
    """City id of the station built."""


class TicketView(_View):
    """A destination ticket; `completed` is by own routes during play, with stations at the end."""

    id: int
    a: str
    b: str
    points: int
    long: bool
    completed: bool


class FinalPlayer(_View):
    """A player's revealed end of game: tickets, longest trail, stations' borrowed tracks and total."""

    seat: int
    total: int
    tickets: list[TicketView]
    longest_trail: list[int]
    """Track ids of the longest continuous path, in order."""
    longest_length: int
    longest_bonus: bool
    station_tracks: dict[str, int | None]
    """Station city id → the other player's track id it borrows (None: none useful)."""


class ActionChoice(_View):
    """A legal move: the engine's action itself (its `encode()` text goes into a custom id) and its words."""

    action: TtrMove
    label: Message


class PublicView(_View):
    """The board and everything public (R-V1); at the end also every ticket and the result."""

    game_id: Literal["ticket-to-ride"] = "ticket-to-ride"
    map: str
    n_players: int
    phase: str
    current: int | None
    to_act: list[int]
    pick: Literal["first", "second"] | None
    """During a turn: whether the next card taken is the first or the second of a two-card draw."""
    owners: dict[int, int]
    """Track id → seat, for claimed tracks."""
    stations: dict[str, int]
    """City id → seat, for built stations."""
    market: list[str]
    deck_size: int
    discard_size: int
    ticket_deck_size: int
    players: list[PlayerPublic]
    tunnel: TunnelView | None
    tickets_offered: int
    """How many tickets the current player is choosing from (mid-game draw), else 0."""
    last_claim: int | None
    """Track id claimed in the last finished turn (to highlight it)."""
    last_move: LastMoveView | None = None
    """The last finished turn (None before the first)."""
    closed: list[int] = []
    """Track ids nobody may claim any more: the twin of a claimed double route with 2–3 players (R-T6)."""
    last_round: bool
    turns_left: int | None
    """Turns left in the last round."""
    final: list[FinalPlayer] | None
    result: GameResult | None


class SeatView(PublicView):
    """The public view plus one seat's own cards, tickets, ticket offer and legal moves (R-V2)."""

    seat: int
    hand: dict[str, int]
    tickets: list[TicketView]
    offered: list[TicketView]
    legal: list[ActionChoice]

    @property
    def legal_moves(self) -> list[TtrAction]:
        """The legal moves as the engine's actions (`legal` adds their words)."""
        return [choice.action for choice in self.legal]


def _ticket_view(board: Board, ticket_id: int, completed: bool) -> TicketView:
    a, b, points = board.tickets[ticket_id]
    return TicketView(
        id=ticket_id,
        a=board.city_ids[a],
        b=board.city_ids[b],
        points=points,
        long=ticket_id in board.long_ticket_ids,
        completed=completed,
    )


class _Turn(NamedTuple):
    """The fields that follow from the phase: who acts, whose turn it is, the card pick, the ticket offer and,
    once over, the revealed end."""

    to_act: list[int]
    choosing: frozenset[int] = frozenset()
    """During the opening: the seats still choosing their tickets."""
    current: int | None = None
    pick: Literal["first", "second"] | None = None
    tickets_offered: int = 0
    final: list[FinalPlayer] | None = None
    result: GameResult | None = None


def _opening(state: TtrState) -> _Turn:
    """Everyone holding an offer chooses at once; nobody's turn yet."""
    choosing = [seat for seat, offer in enumerate(state.offers) if offer]
    return _Turn(to_act=choosing, choosing=frozenset(choosing))


def _turn(state: TtrState) -> _Turn:
    """The current seat picks its action, or its first card."""
    return _Turn(to_act=[state.current], current=state.current, pick="first")


def _second_pick(state: TtrState) -> _Turn:
    """The current seat takes its second card."""
    return _Turn(to_act=[state.current], current=state.current, pick="second")


def _tunnel(state: TtrState) -> _Turn:
    """The current seat pays for a tunnel or withdraws."""
    return _Turn(to_act=[state.current], current=state.current)


def _tickets(state: TtrState) -> _Turn:
    """The current seat keeps some of the tickets it drew (everyone sees how many)."""
    return _Turn(to_act=[state.current], current=state.current, tickets_offered=len(state.offers[state.current]))


def _over(state: TtrState) -> _Turn:
    """Nobody acts; every ticket, trail and station is revealed with the result."""
    board = board_for(state.map_id)
    final = [
        FinalPlayer(
            seat=s.seat,
            total=s.total,
            tickets=[_ticket_view(board, t, done) for t, done in s.tickets],
            longest_trail=list(s.trail),
            longest_length=s.trail_length,
            longest_bonus=s.longest_bonus,
            station_tracks=dict(s.borrowed),
        )
        for s in final_scores(state)
    ]
    return _Turn(to_act=[], final=final, result=game_result(state))


_PHASES: dict[Phase, Callable[[TtrState], _Turn]] = {
    Phase.OPENING: _opening,
    Phase.TURN: _turn,
    Phase.SECOND_PICK: _second_pick,
    Phase.TUNNEL: _tunnel,
    Phase.TICKETS: _tickets,
    Phase.OVER: _over,
}
"""Each phase's part of the view, in one place per phase."""


def _public_fields(state: TtrState, turn: _Turn) -> dict[str, object]:
    board = board_for(state.map_id)
    players = [
        PlayerPublic(
            seat=seat,
            color=seat,
            route_points=state.route_points[seat],
            cars=state.cars[seat],
            stations_left=state.stations_left[seat],
            hand_size=sum(state.hands[seat]),
            ticket_count=len(state.tickets[seat]),
            chosen=seat not in turn.choosing,
        )
        for seat in range(state.n_players)
    ]
    tunnel = None
    if state.tunnel is not None:
        t = state.tunnel
        tunnel = TunnelView(
            track=board.track_ids[t.track],
            color=CARD_NAMES[t.color],
            locomotives=t.locomotives,
            revealed=[CARD_NAMES[c] for c in t.revealed],
            extra=t.extra,
        )
    return {
        "map": state.map_id,
        "n_players": state.n_players,
        "phase": state.phase.value,
        "current": turn.current,
        "to_act": turn.to_act,
        "pick": turn.pick,
        "owners": {board.track_ids[i]: o for i, o in enumerate(state.owners) if o >= 0},
        "stations": {board.city_ids[c]: o for c, o in enumerate(state.stations) if o >= 0},
        "market": [CARD_NAMES[c] for c in state.market],
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "ticket_deck_size": len(state.ticket_deck),
        "players": players,
        "tunnel": tunnel,
        "tickets_offered": turn.tickets_offered,
        "last_claim": board.track_ids[state.last_claim] if state.last_claim >= 0 else None,
        "last_move": _last_move_view(board, state.last_move),
        "closed": [board.track_ids[i] for i in closed_tracks(state, board)],
        "last_round": state.final_turns >= 0,
        "turns_left": state.final_turns if state.final_turns >= 0 else None,
        "final": turn.final,
        "result": turn.result,
    }


def _last_move_view(board: Board, move: LastMove | None) -> LastMoveView | None:
    """The public facts of the last turn, with ids and colour names instead of indices and codes."""
    if move is None:
        return None
    return LastMoveView(
        seat=move.seat,
        kind=move.kind.value,
        face_up=[CARD_NAMES[c] for c in move.face_up],
        blind=move.blind,
        track=board.track_ids[move.track] if move.track >= 0 else None,
        points=move.points,
        tickets_drawn=move.tickets_drawn,
        tickets_kept=move.tickets_kept,
        city=board.city_ids[move.city] if move.city >= 0 else None,
    )


def public_view(state: TtrState) -> PublicView:
    """Return what everyone may see."""
    return PublicView.model_validate(_public_fields(state, _PHASES[state.phase](state)))


def seat_view(state: TtrState, seat: int, legal: Sequence[TtrAction]) -> SeatView:
    """Return what `seat` may see: the public view plus its own hand, tickets, offer and legal moves."""
    board = board_for(state.map_id)
    turn = _PHASES[state.phase](state)
    if turn.final is not None:  # the end: completed as scored, stations included
        done = {t.id: t.completed for t in next(p.tickets for p in turn.final if p.seat == seat)}
        completed = [done[t] for t in state.tickets[seat]]
    else:
        completed = connected_tickets(board, state.owners, seat, state.tickets[seat])
    return SeatView.model_validate(
        {
            **_public_fields(state, turn),
            "seat": seat,
            "hand": {CARD_NAMES[c]: n for c, n in enumerate(state.hands[seat])},
            "tickets": [_ticket_view(board, t, ok) for t, ok in zip(state.tickets[seat], completed, strict=True)],
            "offered": [_ticket_view(board, t, False) for t in state.offers[seat]],
            "legal": [ActionChoice(action=a, label=describe_action(board, a)) for a in legal],
        }
    )


def describe_action(board: Board, action: TtrAction) -> Message:
    """Word a move with the map's names: a claim names its cities and cards, a keep its tickets."""
    if isinstance(action, Claim) and action.track in board.track_index:
        track = board.track_index[action.track]
        return Message(
            key="ttr.action.claim_route",
            params={
                "track": board.track_message(track),
                "cards": cards_message(
                    CARD_CODES[action.color], board.track_len[track] - action.locomotives, action.locomotives
                ),
            },
        )
    if isinstance(action, KeepTickets):
        known = [t for t in action.tickets if t in board.tickets]
        return Message(key="ttr.action.keep_tickets", params={"tickets": [board.ticket_message(t) for t in known]})
    if isinstance(action, BuildStation) and action.city in board.city_index:
        return Message(
            key="ttr.action.build_station",
            params={"city": board.city_messages[board.city_index[action.city]], "cards": _station_cards(action)},
        )
    return action.describe()


def _station_cards(action: BuildStation) -> Message:
    """The cards a station action pays; the count of coloured cards follows from the station's cost."""
    color = CARD_CODES[action.color]
    return Message(
        key="ttr.cards.station",
        params={"color": COLOR_MESSAGES[color], "locomotives": action.locomotives},
    )

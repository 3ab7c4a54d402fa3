"""The Ticket to Ride engine (USA and Europe) on the common engine contract; SPEC-ttr.md rule numbers inline.

Each phase of the game is a `rules.engine.Phase` (`PHASES`): who acts, the legal moves, and one handler per kind of
move. A handler reads the state it is given, writes only the fields it changes into a `changes` dict, and the new
state shares every other field with the old one (`evolve`); card deals work on `Piles`, the four fields they touch.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Any, ClassVar

from rules.engine import (
    DEFAULT_BUDGET,
    NOBODY,
    OVER,
    Budget,
    CommonReason,
    Event,
    GameEngine,
    GameResult,
    Hint,
    IllegalAction,
    Level,
    Message,
    Param,
    Seat,
    UndoReason,
    turned_up,
)
from rules.engine import Phase as RulesPhase
from rules.models import build_unchecked, evolve
from rules.rng import Rng
from rules.ttr import bots
from rules.ttr.actions import (
    DECK,
    BuildStation,
    Claim,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    TtrAction,
    TtrReason,
    Withdraw,
    parse_action,
)
from rules.ttr.board import CARD_CODES, CARD_NAMES, COLOR_MESSAGES, LOCO, Board, board_for, cards_message
from rules.ttr.cards import (
    Piles,
    draw_from_deck,
    extra_payments,
    is_affordable,
    market_unsettled,
    new_deck,
    refill_market,
    settle_market,
    spend,
    take_face_up,
)
from rules.ttr.moves import (
    can_draw,
    can_draw_second,
    doubles_closed,
    draw_sources,
    move_set,
    station_cost,
    with_owner,
)
from rules.ttr.options import FirstPlayer, ReturnedTickets, TtrOptions
from rules.ttr.scoring import game_result
from rules.ttr.state import (
    LastMove,
    MoveKind,
    PendingTunnel,
    Phase,
    TtrState,
    last_move,
    replace_at,
    replace_hand,
    replace_row,
)
from rules.ttr.view import PublicView, SeatView, describe_action, public_view, seat_view

HAND_SIZE = 4
TUNNEL_REVEAL = 3

Outcome = tuple[TtrState, list[Event]]
Changes = dict[str, Any]


class TicketToRideEngine(GameEngine[TtrState, TtrAction, TtrOptions]):
    """Ticket to Ride, USA and Europe maps, 2–5 players, every rule of SPEC-ttr.md."""

    game_id: ClassVar[str] = "ticket-to-ride"
    options_model: ClassVar[type[TtrOptions]] = TtrOptions
    state_model: ClassVar[type[TtrState]] = TtrState
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    bot_kinds: ClassVar[tuple[str, ...]] = (*Level, *bots.PERSONALITIES)
    """The levels, then the four playstyle agents of the research literature as personalities (docs/)."""

    def new_game(self, options: TtrOptions, n_players: int, seed: int) -> TtrState:
        """Shuffle, deal 4 cards each and 5 face up, and offer the opening tickets (R-USA-1/2, R-EU-1/2, R-S1)."""
        if not self.min_players <= n_players <= self.max_players:
            raise ValueError(f"Ticket to Ride takes 2–5 players, not {n_players}")
        board = board_for(options.map.value)
        rules = board.game_map.rules
        rnd, rng = Rng(seed=seed).next()
        deck = new_deck()
        rnd.shuffle(deck)
        hands = []
        for _ in range(n_players):
            hand = [0] * 9
            for _ in range(HAND_SIZE):
                hand[deck.pop()] += 1
            hands.append(tuple(hand))
        regular = list(board.regular_ticket_ids)
        long = list(board.long_ticket_ids)
        rnd.shuffle(regular)
        rnd.shuffle(long)
        offers = []
        for seat in range(n_players):
            n_long, n_reg = rules.opening_long_tickets, rules.opening_tickets
            offers.append(tuple(long[seat * n_long : (seat + 1) * n_long] + regular[seat * n_reg : (seat + 1) * n_reg]))
        first = rnd.randrange(n_players) if options.first_player is FirstPlayer.RANDOM else 0
        state = TtrState(
            map_id=board.game_map.id,
            options=options,
            n_players=n_players,
            rng=rng,
            phase=Phase.OPENING,
            current=first,
            deck=tuple(deck),
            discard=(),
            market=(),
            ticket_deck=tuple(regular[n_players * rules.opening_tickets :]),
            hands=tuple(hands),
            tickets=((),) * n_players,
            offers=tuple(offers),
            owners=(-1,) * board.n_tracks,
            stations=(-1,) * len(board.city_ids),
            cars=(rules.cars_per_player,) * n_players,
            stations_left=(rules.stations_per_player,) * n_players,
            route_points=(0,) * n_players,
        )
        changes: Changes = {}
        piles = Piles(state, changes)
        refill_market(piles, [])
        piles.save(changes)
        return evolve(state, changes)

    def phase(self, state: TtrState) -> RulesPhase[TtrState, TtrAction]:
        """The rules of the phase `state` is in: a table lookup (`PHASES`)."""
        return PHASES[state.phase]

    def check_turn(self, state: TtrState, phase: RulesPhase[TtrState, TtrAction], seat: Seat) -> None:
        """Refuse a move after the end, from no seat, from a seat that already chose its opening tickets, or out of
        turn."""
        if phase is OVER:
            raise IllegalAction(CommonReason.GAME_OVER)
        if not 0 <= seat < state.n_players:
            raise IllegalAction(CommonReason.NOT_A_SEAT)
        if state.phase is Phase.OPENING:
            if not state.offers[seat]:
                raise IllegalAction(TtrReason.ALREADY_CHOSEN)
        elif seat != state.current:
            raise IllegalAction(CommonReason.NOT_YOUR_TURN)

    def view(self, state: TtrState, seat: Seat | None) -> PublicView | SeatView:
        """The public view (`None`), or what `seat` may see: the public view plus its own hand and tickets."""
        if seat is None:
            return public_view(state)
        return seat_view(state, seat, self.legal_actions(state, seat))

    def public_turn(self, view: PublicView) -> Seat | None:
        """The player to act: a turn runs from one player's first action to the next player's."""
        return view.current

    def turn_marker(self, view: PublicView) -> Hashable:
        """The player to act (a two-card draw, a tunnel's payment, a ticket choice are all one turn)."""
        return view.current

    def public_scores(self, view: PublicView) -> tuple[int, ...]:
        """The route points every player sees on the board (tickets and bonus come only at the end)."""
        return tuple(p.route_points for p in view.players)

    def result(self, state: TtrState) -> GameResult | None:
        """Final totals with per-item breakdown and the winners after tie-breaks, once the game is over."""
        return game_result(state) if state.phase is Phase.OVER else None

    def parse_action(self, text: str) -> TtrAction:
        """Read a move from its short text form."""
        return parse_action(text)

    def bot_action(
        self, state: TtrState, seat: Seat, rng: random.Random, kind: str = Level.NORMAL, budget: Budget = DEFAULT_BUDGET
    ) -> TtrAction:
        """Choose a legal move for a bot of `kind` from what `seat` can see (see `rules.ttr.bots`)."""
        return bots.choose(self, state, seat, rng, kind, budget)

    def hint(self, state: TtrState, seat: Seat, rng: random.Random, budget: Budget = DEFAULT_BUDGET) -> Hint[TtrAction]:
        """What the hard player would do in `seat` now, and why."""
        return bots.hint(self, state, seat, rng, budget)

    def undo_refusal(self, before: TtrState, seat: Seat, action: TtrAction) -> UndoReason | None:
        """A blind card or drawn tickets were seen by the mover; a tunnel's cards (paying for it or withdrawing
        finishes such a claim), a card off the deck to refill the face-up row, or a reshuffle, by everyone."""
        revealed = action.revealed()
        if revealed is not None:
            return revealed
        after, _ = self.apply(before, seat, action)
        return UndoReason.TURNED_UP if turned_up(before, after, ("deck", "ticket_deck")) else None

    def describe_action(self, state: TtrState, action: TtrAction) -> Message:
        """Word a move with the map's names (a claim names its cities), for buttons and menus."""
        return describe_action(board_for(state.map_id), action)


def _event(key: str, params: dict[str, Param] | None = None, to: int | None = None) -> Event:
    """Make an event from engine-built parameters (always valid) without re-validating them."""
    return build_unchecked(Event, {"key": key, "params": params or {}, "to": to})


# The events and records of card draws, most of all moves, recur with the same few values: each is built once and
# shared (they are immutable), which halves the cost of a draw.


@lru_cache(maxsize=256)
def _seat_event(key: str, seat: int) -> Event:
    """An event whose only parameter is the seat."""
    return _event(key, {"seat": seat})


@lru_cache(maxsize=256)
def _card_event(key: str, seat: int, card: int, private: bool) -> Event:
    """An event naming one card: public with the seat (`took_face_up`), or private to it (`you_drew`)."""
    if private:
        return _event(key, {"color": COLOR_MESSAGES[card]}, to=seat)
    return _event(key, {"seat": seat, "color": COLOR_MESSAGES[card]})


@lru_cache(maxsize=1024)
def _drew_events(seat: int, picks: tuple[tuple[int, bool], ...]) -> tuple[Event, LastMove]:
    """The public summary of a finished card draw and its record (each blind card was told to its drawer as it was
    drawn: a private list of them all would only repeat that, and the face-up ones, which everyone saw)."""
    face_up_taken = tuple(c for c, up in picks if up)
    move = last_move(seat, MoveKind.CARDS, face_up=face_up_taken, blind=len(picks) - len(face_up_taken))
    return _drew_summary(seat, picks), move


def _keep_opening(state: TtrState, seat: int, action: KeepTickets) -> Outcome:
    """Keep at least 2 opening tickets (R-USA-2, R-EU-2); play starts once every seat has chosen."""
    board = board_for(state.map_id)
    rules = board.game_map.rules
    offer = state.offers[seat]
    _check_keep(offer, action.tickets, rules.opening_keep)
    offers = replace_row(state.offers, seat, ())
    changes: Changes = {"tickets": replace_row(state.tickets, seat, action.tickets), "offers": offers}
    if rules.opening_returns == "bottom":
        changes["ticket_deck"] = state.ticket_deck + tuple(t for t in offer if t not in action.tickets)
    events = [
        _event("ttr.event.opening_chosen", params={"seat": seat, "kept": len(action.tickets)}),
        _you_kept(board, seat, action.tickets),
    ]
    if not any(offers):
        changes["phase"] = Phase.TURN
        events.append(_event("ttr.event.play_begins", params={"seat": state.current}))
    return evolve(state, changes), events


def _check_keep(offer: tuple[int, ...], kept: tuple[int, ...], minimum: int) -> None:
    """Refuse a keep that names tickets not offered or keeps too few."""
    if not set(kept) <= set(offer):
        raise IllegalAction(TtrReason.NOT_OFFERED)
    if len(kept) < min(minimum, len(offer)):
        raise IllegalAction(TtrReason.KEEP_MORE, minimum=minimum)


def _you_kept(board: Board, seat: int, kept: tuple[int, ...]) -> Event:
    """The private event listing the tickets a seat kept."""
    return _event("ttr.event.you_kept", params={"tickets": [board.ticket_message(t) for t in kept]}, to=seat)


def _first_card(state: TtrState, seat: int, action: DrawCard) -> Outcome:
    """Take a turn's first train card (R-T1)."""
    return _pick_card(state, seat, action, first=True)


def _second_card(state: TtrState, seat: int, action: DrawCard) -> Outcome:
    """Take the second train card of a turn (R-T1, R-T2)."""
    return _pick_card(state, seat, action, first=False)


def _pick_card(state: TtrState, seat: int, action: DrawCard, first: bool) -> Outcome:
    """Take one train card (R-T1); a face-up locomotive ends the turn and is first-pick only (R-T2)."""
    source = action.source
    has_pile = bool(state.deck or state.discard)
    if not can_draw(has_pile, state.market, source, first):
        if not first and source == CARD_NAMES[LOCO] and LOCO in state.market:
            raise IllegalAction(TtrReason.LOCOMOTIVE_SECOND)
        if source == DECK or not draw_sources(has_pile, state.market, first):
            raise IllegalAction(TtrReason.NOTHING_TO_DRAW)
        raise IllegalAction(TtrReason.NO_SUCH_FACE_UP)
    changes: Changes = {}
    events: list[Event] = []
    piles = Piles(state, changes)
    if source == DECK:
        card = draw_from_deck(piles, events)
        face_up = False
        events.append(_seat_event("ttr.event.drew_blind", seat))
        events.append(_card_event("ttr.event.you_drew", seat, card, True))
    else:
        card = CARD_CODES[source]
        face_up = True
        take_face_up(piles, card, events)
        events.append(_card_event("ttr.event.took_face_up", seat, card, False))
    hand = list(state.hands[seat])
    hand[card] += 1
    changes["hands"] = replace_hand(state.hands, seat, hand)
    if first and not (face_up and card == LOCO) and can_draw_second(bool(piles.deck or piles.discard), piles.market):
        piles.save(changes)
        changes["phase"] = Phase.SECOND_PICK
        changes["first_pick"], changes["first_pick_face_up"] = card, face_up
        return evolve(state, changes), events
    picks = ((card, face_up),) if first else ((state.first_pick, state.first_pick_face_up), (card, face_up))
    summary, move = _drew_events(seat, picks)
    events.append(summary)
    return _end_turn(state, changes, events, move, piles)


def _drew_summary(seat: int, picks: tuple[tuple[int, bool], ...]) -> Event:
    """The public summary of a finished card draw: face-up colours by name, blind cards only counted (R-V1)."""
    colors: list[str | int | Message] = [COLOR_MESSAGES[c] for c, up in picks if up]
    blind = sum(not up for _, up in picks)
    if not colors:
        return _event("ttr.event.drew_two_blind" if blind == 2 else "ttr.event.drew_one_blind", {"seat": seat})
    key = "ttr.event.drew_face_up_and_blind" if blind else "ttr.event.drew_face_up"
    return _event(key, {"seat": seat, "colors": colors})


def _claim(state: TtrState, seat: int, action: Claim) -> Outcome:
    """Claim a track with exact cards (R-T5, R-T6, R-EU-5); a tunnel first reveals 3 cards (R-EU-6)."""
    board = board_for(state.map_id)
    track = board.track_index.get(action.track)
    if track is None:
        raise IllegalAction(TtrReason.UNKNOWN_TRACK, track=action.track)
    _check_claim(state, board, seat, track, action)
    pay_color = CARD_CODES[action.color]
    changes: Changes = {}
    events: list[Event] = []
    if not board.track_tunnel[track]:
        _complete_claim(state, changes, board, seat, track, pay_color, action.locomotives, events)
        return _end_turn(state, changes, events, _claimed(board, seat, track))
    piles = Piles(state, changes)
    revealed = []
    for _ in range(TUNNEL_REVEAL):
        card = draw_from_deck(piles, events)
        if card < 0:
            break
        revealed.append(card)
    piles.save(changes)
    if not revealed:
        events.append(_event("ttr.event.tunnel_free", params={"seat": seat, "track": board.track_message(track)}))
        _complete_claim(state, changes, board, seat, track, pay_color, action.locomotives, events)
        return _end_turn(state, changes, events, _claimed(board, seat, track))
    extra = sum(1 for c in revealed if c in (LOCO, pay_color))
    params: dict[str, Param] = {
        "seat": seat,
        "track": board.track_message(track),
        "cards": [COLOR_MESSAGES[c] for c in revealed],
    }
    if extra == 0:  # an event of its own: "no extra cards" reads better than a count of none
        events.append(_event("ttr.event.tunnel_no_extra", params=params))
        changes["discard"] += tuple(revealed)
        _complete_claim(state, changes, board, seat, track, pay_color, action.locomotives, events)
        return _end_turn(state, changes, events, _claimed(board, seat, track))
    events.append(_event("ttr.event.tunnel_revealed", params={**params, "extra": extra}))
    if not extra_payments(state.hands[seat], pay_color, action.locomotives, board.track_len[track], extra):
        changes["discard"] += tuple(revealed)
        events.append(
            _event(
                "ttr.event.tunnel_failed",
                params={"seat": seat, "track": board.track_message(track), "extra": extra},
            )
        )
        return _end_turn(state, changes, events, last_move(seat, MoveKind.TUNNEL_FAILED, track=track))
    changes["phase"] = Phase.TUNNEL
    changes["tunnel"] = PendingTunnel(
        track=track, color=pay_color, locomotives=action.locomotives, revealed=tuple(revealed), extra=extra
    )
    return evolve(state, changes), events


def _check_claim(state: TtrState, board: Board, seat: int, track: int, action: Claim) -> None:
    """Refuse a claim the rules forbid: taken, double rules, cars, cards."""
    owners = state.owners
    if owners[track] >= 0:
        raise IllegalAction(TtrReason.TRACK_TAKEN)
    partner = board.track_partner[track]
    if partner >= 0 and owners[partner] >= 0:
        if owners[partner] == seat:
            raise IllegalAction(TtrReason.DOUBLE_OWN)
        if doubles_closed(state.n_players, state.options, board):
            raise IllegalAction(TtrReason.DOUBLE_CLOSED)
    length = board.track_len[track]
    if state.cars[seat] < length:
        raise IllegalAction(TtrReason.NOT_ENOUGH_CARS)
    pay_color = CARD_CODES[action.color]
    if not is_affordable(
        board.track_color[track], length, board.track_ferry[track], state.hands[seat], pay_color, action.locomotives
    ):
        raise IllegalAction(TtrReason.CANNOT_PAY)


def _complete_claim(
    state: TtrState,
    changes: Changes,
    board: Board,
    seat: int,
    track: int,
    pay_color: int,
    locomotives: int,
    events: list[Event],
    extra: int = 0,
    extra_locomotives: int = 0,
) -> None:
    """Pay the cards (and a tunnel's extra), place the cars and score the route at once (R-T5, R-P1)."""
    length = board.track_len[track]
    hand, paid = spend(state.hands[seat], pay_color, locomotives, length)
    if extra:
        hand, paid_extra = spend(tuple(hand), pay_color, extra_locomotives, extra)
        paid += paid_extra
    changes["hands"] = replace_hand(state.hands, seat, hand)
    changes["discard"] = changes.get("discard", state.discard) + tuple(paid)
    changes["owners"] = with_owner(state.owners, track, seat, board)
    changes["cars"] = replace_at(state.cars, seat, state.cars[seat] - length)
    points = board.track_points[track]
    changes["route_points"] = replace_at(state.route_points, seat, state.route_points[seat] + points)
    events.append(
        _event(
            "ttr.event.claimed",
            params={
                "seat": seat,
                "track": board.track_message(track),
                "points": points,
                "cards": _paid_message(pay_color, paid),
            },
        )
    )


def _paid_message(pay_color: int, paid: list[int]) -> Message:
    """Word the cards just paid."""
    locomotives = paid.count(LOCO)
    return cards_message(pay_color, len(paid) - locomotives, locomotives)


def _pay_tunnel(state: TtrState, seat: int, action: PayTunnel) -> Outcome:
    """Pay the tunnel's extra cards and claim it (R-EU-6)."""
    board = board_for(state.map_id)
    tunnel = state.tunnel
    assert tunnel is not None
    length = board.track_len[tunnel.track]
    if action.locomotives not in extra_payments(
        state.hands[seat], tunnel.color, tunnel.locomotives, length, tunnel.extra
    ):
        raise IllegalAction(TtrReason.CANNOT_PAY)
    changes: Changes = {"discard": state.discard + tunnel.revealed}
    events: list[Event] = []
    _complete_claim(
        state,
        changes,
        board,
        seat,
        tunnel.track,
        tunnel.color,
        tunnel.locomotives,
        events,
        tunnel.extra,
        action.locomotives,
    )
    return _end_turn(state, changes, events, _claimed(board, seat, tunnel.track))


def _withdraw_tunnel(state: TtrState, seat: int, action: Withdraw) -> Outcome:
    """Decline the tunnel: laid cards stay in hand, revealed cards are discarded, the turn ends (R-EU-6)."""
    board = board_for(state.map_id)
    tunnel = state.tunnel
    assert tunnel is not None
    events = [_event("ttr.event.tunnel_withdrawn", params={"seat": seat, "track": board.track_message(tunnel.track)})]
    changes: Changes = {"discard": state.discard + tunnel.revealed}
    return _end_turn(state, changes, events, last_move(seat, MoveKind.TUNNEL_WITHDRAWN, track=tunnel.track))


def _draw_tickets(state: TtrState, seat: int, action: DrawTickets) -> Outcome:
    """Draw 3 tickets, or all that remain (R-T7); refused when the ticket deck is empty."""
    if not state.ticket_deck:
        raise IllegalAction(TtrReason.NO_TICKETS_LEFT)
    board = board_for(state.map_id)
    n = board.game_map.rules.ticket_draw
    drawn = state.ticket_deck[:n]
    changes: Changes = {
        "ticket_deck": state.ticket_deck[n:],
        "offers": replace_row(state.offers, seat, drawn),
        "phase": Phase.TICKETS,
    }
    events = [
        _event("ttr.event.drew_tickets", params={"seat": seat, "count": len(drawn)}),
        _event("ttr.event.tickets_offered", params={"tickets": [board.ticket_message(t) for t in drawn]}, to=seat),
    ]
    return evolve(state, changes), events


def _keep_drawn(state: TtrState, seat: int, action: KeepTickets) -> Outcome:
    """Keep at least one drawn ticket; the others go under the deck or out of the game (R-T7, R-EU-3)."""
    board = board_for(state.map_id)
    offer = state.offers[seat]
    _check_keep(offer, action.tickets, board.game_map.rules.ticket_keep)
    returned = tuple(t for t in offer if t not in action.tickets)
    changes: Changes = {
        "tickets": replace_row(state.tickets, seat, state.tickets[seat] + action.tickets),
        "offers": replace_row(state.offers, seat, ()),
    }
    if state.options.returned_tickets is ReturnedTickets.BOTTOM:
        changes["ticket_deck"] = state.ticket_deck + returned
    events = [
        _event(
            "ttr.event.kept_tickets",
            params={"seat": seat, "kept": len(action.tickets), "returned": len(returned)},
        ),
        _you_kept(board, seat, action.tickets),
    ]
    move = last_move(seat, MoveKind.TICKETS, tickets_drawn=len(offer), tickets_kept=len(action.tickets))
    return _end_turn(state, changes, events, move)


def _build_station(state: TtrState, seat: int, action: BuildStation) -> Outcome:
    """Build a station on a free city for 1, 2, then 3 cards of one colour (R-EU-4)."""
    board = board_for(state.map_id)
    if not board.game_map.rules.stations_per_player:
        raise IllegalAction(TtrReason.NO_STATIONS_ON_MAP, map=Message(key=f"ttr.map.{state.map_id}"))
    city = board.city_index.get(action.city)
    if city is None:
        raise IllegalAction(TtrReason.UNKNOWN_CITY, city=action.city)
    left = state.stations_left[seat]
    if left <= 0:
        raise IllegalAction(TtrReason.NO_STATIONS_LEFT)
    if state.stations[city] >= 0:
        raise IllegalAction(TtrReason.CITY_TAKEN)
    cost = station_cost(left, board)
    pay_color = CARD_CODES[action.color]
    if not is_affordable(-1, cost, 0, state.hands[seat], pay_color, action.locomotives):
        raise IllegalAction(TtrReason.CANNOT_PAY, cost=cost)
    hand, paid = spend(state.hands[seat], pay_color, action.locomotives, cost)
    changes: Changes = {
        "hands": replace_hand(state.hands, seat, hand),
        "discard": state.discard + tuple(paid),
        "stations": replace_at(state.stations, city, seat),
        "stations_left": replace_at(state.stations_left, seat, left - 1),
    }
    events = [
        _event(
            "ttr.event.built_station",
            params={"seat": seat, "city": board.city_messages[city], "cards": _paid_message(pay_color, paid)},
        )
    ]
    return _end_turn(state, changes, events, last_move(seat, MoveKind.STATION, city=city))


def _pass(state: TtrState, seat: int, action: Pass) -> Outcome:
    """Pass, only when nothing else is legal (R-E2)."""
    if not move_set(state, seat).pass_only:
        raise IllegalAction(TtrReason.MUST_ACT)
    events = [_event("ttr.event.passed", params={"seat": seat})]
    return _end_turn(state, {}, events, last_move(seat, MoveKind.PASS))


def _claimed(board: Board, seat: int, track: int) -> LastMove:
    """The record of a finished claim: the track and the points it scored (R-C3)."""
    return _claim_record(seat, track, board.track_points[track])


@lru_cache(maxsize=1024)
def _claim_record(seat: int, track: int, points: int) -> LastMove:
    """`_claimed`, built once per seat and track (records are immutable)."""
    return last_move(seat, MoveKind.CLAIM, track=track, points=points)


def _end_turn(
    state: TtrState, changes: Changes, events: list[Event], move: LastMove, piles: Piles | None = None
) -> Outcome:
    """Finish the current seat's turn, remembering `move` for everyone to see: the row's top-up and reset (R-T4,
    R-T3), last round (R-E1), a round of passes (R-E2 ruling), next seat."""
    seat = state.current
    kind = move.kind
    changes["last_claim"] = move.track if kind is MoveKind.CLAIM else -1
    changes["last_move"] = move
    changes["first_pick"], changes["first_pick_face_up"] = -1, False
    changes["tunnel"] = None
    changes["turn"] = state.turn + 1
    passes = changes["passes"] = state.passes + 1 if kind is MoveKind.PASS else 0
    if piles is None:
        get = changes.get
        if market_unsettled(get("deck", state.deck), get("discard", state.discard), get("market", state.market)):
            piles = Piles(state, changes)
    if piles is not None:
        settle_market(piles, events)
        piles.save(changes)
    over = False
    final_turns = state.final_turns
    if final_turns >= 0:
        changes["final_turns"] = final_turns - 1
        over = final_turns == 1
    else:
        cars = changes.get("cars", state.cars)[seat]
        if cars <= 2:
            changes["final_turns"] = state.n_players
            events.append(_event("ttr.event.last_round", params={"seat": seat, "cars": cars}))
    if not over and passes >= state.n_players:
        over = True
        events.append(_event("ttr.event.stalemate"))
    if over:
        changes["phase"] = Phase.OVER
        events.append(_event("ttr.event.game_over"))
    else:
        changes["current"] = (seat + 1) % state.n_players
        changes["phase"] = Phase.TURN
    return evolve(state, changes), events


_ONE_SEAT = tuple(frozenset((seat,)) for seat in range(TicketToRideEngine.max_players))


def _current(state: TtrState) -> frozenset[Seat]:
    """The seat whose turn it is."""
    return _ONE_SEAT[state.current]


def _choosing(state: TtrState) -> frozenset[Seat]:
    """Every seat still choosing its opening tickets (at once)."""
    return frozenset(seat for seat, offer in enumerate(state.offers) if offer) or NOBODY


def _moves(state: TtrState, seat: Seat) -> list[TtrAction]:
    """The phase's legal moves of `seat` (`move_set` looks its phase up too)."""
    return move_set(state, seat).actions(board_for(state.map_id))


def _phase(
    to_act: Callable[[TtrState], frozenset[Seat]],
    handlers: dict[type[TtrAction], Callable[[TtrState, int, Any], Outcome]],
) -> RulesPhase[TtrState, TtrAction]:
    """A phase in which `to_act` may move, with `handlers` per kind of move (its moves are `move_set`'s)."""
    return RulesPhase(to_act=to_act, moves=_moves, handlers=handlers)  # type: ignore[arg-type]


PHASES: dict[Phase, RulesPhase[TtrState, TtrAction]] = {
    Phase.OPENING: _phase(_choosing, {KeepTickets: _keep_opening}),
    Phase.TURN: _phase(
        _current,
        {DrawCard: _first_card, Claim: _claim, DrawTickets: _draw_tickets, BuildStation: _build_station, Pass: _pass},
    ),
    Phase.SECOND_PICK: _phase(_current, {DrawCard: _second_card}),
    Phase.TUNNEL: _phase(_current, {PayTunnel: _pay_tunnel, Withdraw: _withdraw_tunnel}),
    Phase.TICKETS: _phase(_current, {KeepTickets: _keep_drawn}),
    Phase.OVER: OVER,
}
"""Each phase's rules: who acts, their moves, and the handler of each kind of move."""

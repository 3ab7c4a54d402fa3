"""The Ticket to Ride engine (USA and Europe) on the common engine contract; SPEC-ttr.md rule numbers inline."""

from __future__ import annotations

import random
from typing import ClassVar

from rules.engine import (
    DEFAULT_BUDGET,
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
)
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
    draw_from_deck,
    extra_payments,
    is_affordable,
    new_deck,
    refill_market,
    settle_market,
    spend,
    take_face_up,
)
from rules.ttr.moves import can_draw, can_draw_second, doubles_closed, draw_sources, move_set, station_cost
from rules.ttr.options import FirstPlayer, ReturnedTickets, TtrOptions
from rules.ttr.scoring import game_result
from rules.ttr.state import (
    Draft,
    LastMove,
    MoveKind,
    PendingTunnel,
    Phase,
    TtrState,
    build_unchecked,
    last_move,
    replace_at,
    replace_row,
)
from rules.ttr.view import PublicView, SeatView, describe_action, public_view, seat_view

HAND_SIZE = 4
TUNNEL_REVEAL = 3


class TicketToRideEngine(GameEngine[TtrState, TtrAction, TtrOptions]):
    """Ticket to Ride, USA and Europe maps, 2–5 players, every rule of SPEC-ttr.md."""

    game_id: ClassVar[str] = "ticket-to-ride"
    options_model: ClassVar[type[TtrOptions]] = TtrOptions
    state_model: ClassVar[type[TtrState]] = TtrState
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5

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
        dr = Draft(state)
        refill_market(dr, [])
        return dr.freeze()

    def to_act(self, state: TtrState) -> frozenset[Seat]:
        """Everyone still choosing during the opening (simultaneous), else the current seat; nobody once over."""
        if state.phase is Phase.OPENING:
            return frozenset(seat for seat, offer in enumerate(state.offers) if offer)
        if state.phase is Phase.OVER:
            return frozenset()
        return frozenset((state.current,))

    def legal_actions(self, state: TtrState, seat: Seat) -> list[TtrAction]:
        """Every move `seat` may make now: draws, tickets, each claim × distinct payment, stations, or pass."""
        return move_set(state, seat).actions(board_for(state.map_id))

    def apply(self, state: TtrState, seat: Seat, action: TtrAction) -> tuple[TtrState, list[Event]]:
        """Validate and apply a move; `IllegalAction` leaves the state untouched."""
        if state.phase is Phase.OVER:
            raise IllegalAction(CommonReason.GAME_OVER)
        if not 0 <= seat < state.n_players:
            raise IllegalAction(CommonReason.NOT_A_SEAT)
        if state.phase is Phase.OPENING:
            if not state.offers[seat]:
                raise IllegalAction(TtrReason.ALREADY_CHOSEN)
        elif seat != state.current:
            raise IllegalAction(CommonReason.NOT_YOUR_TURN)
        board = board_for(state.map_id)
        dr = Draft(state)
        events: list[Event] = []
        phase = state.phase
        if phase is Phase.OPENING and isinstance(action, KeepTickets):
            _keep_opening(dr, board, seat, action, events)
        elif phase is Phase.TURN and isinstance(action, DrawCard):
            _pick_card(dr, seat, action, events, first=True)
        elif phase is Phase.SECOND_PICK and isinstance(action, DrawCard):
            _pick_card(dr, seat, action, events, first=False)
        elif phase is Phase.TURN and isinstance(action, Claim):
            _claim(dr, board, seat, action, events)
        elif phase is Phase.TURN and isinstance(action, DrawTickets):
            _draw_tickets(dr, board, seat, events)
        elif phase is Phase.TURN and isinstance(action, BuildStation):
            _build_station(dr, board, seat, action, events)
        elif phase is Phase.TURN and isinstance(action, Pass):
            if not move_set(state, seat).pass_only:
                raise IllegalAction(TtrReason.MUST_ACT)
            events.append(_event("ttr.event.passed", params={"seat": seat}))
            _end_turn(dr, events, last_move(seat, MoveKind.PASS))
        elif phase is Phase.TUNNEL and isinstance(action, PayTunnel):
            _pay_tunnel(dr, board, seat, action, events)
        elif phase is Phase.TUNNEL and isinstance(action, Withdraw):
            _withdraw_tunnel(dr, board, seat, events)
        elif phase is Phase.TICKETS and isinstance(action, KeepTickets):
            _keep_drawn(dr, board, seat, action, events)
        else:
            raise IllegalAction(CommonReason.NOT_LEGAL_NOW, action=action.encode())
        return dr.freeze(), events

    def view(self, state: TtrState, seat: Seat | None) -> PublicView | SeatView:
        """The public view (`None`), or what `seat` may see: the public view plus its own hand and tickets."""
        if seat is None:
            return public_view(state)
        return seat_view(state, seat, self.legal_actions(state, seat))

    def result(self, state: TtrState) -> GameResult | None:
        """Final totals with per-item breakdown and the winners after tie-breaks, once the game is over."""
        return game_result(state) if state.phase is Phase.OVER else None

    def is_over(self, state: TtrState) -> bool:
        """Whether the game has ended."""
        return state.phase is Phase.OVER

    def parse_action(self, text: str) -> TtrAction:
        """Read a move from its short text form."""
        return parse_action(text)

    def bot_action(
        self, state: TtrState, seat: Seat, rng: random.Random, kind: str = Level.NORMAL, budget: Budget = DEFAULT_BUDGET
    ) -> TtrAction:
        """Choose a legal move for a bot of `kind` from what `seat` can see (see `rules.ttr.bots`)."""
        return bots.choose(state, seat, rng, kind, budget)

    def hint(self, state: TtrState, seat: Seat, rng: random.Random, budget: Budget = DEFAULT_BUDGET) -> Hint[TtrAction]:
        """What the hard player would do in `seat` now, and why."""
        return bots.hint(state, seat, rng, budget)

    def describe_action(self, state: TtrState, action: TtrAction) -> Message:
        """Word a move with the map's names (a claim names its cities), for buttons and menus."""
        return describe_action(board_for(state.map_id), action)


def _event(key: str, params: dict[str, Param] | None = None, to: int | None = None) -> Event:
    """Make an event from engine-built parameters (always valid) without re-validating them."""
    return build_unchecked(Event, {"key": key, "params": params or {}, "to": to})


def _keep_opening(dr: Draft, board: Board, seat: int, action: KeepTickets, events: list[Event]) -> None:
    """Keep at least 2 opening tickets (R-USA-2, R-EU-2); play starts once every seat has chosen."""
    rules = board.game_map.rules
    offer = dr.offers[seat]
    _check_keep(offer, action.tickets, rules.opening_keep)
    returned = tuple(t for t in offer if t not in action.tickets)
    dr.tickets = replace_row(dr.tickets, seat, action.tickets)
    dr.offers = replace_row(dr.offers, seat, ())
    if rules.opening_returns == "bottom":
        dr.ticket_deck = dr.ticket_deck + returned
    events.append(_event("ttr.event.opening_chosen", params={"seat": seat, "kept": len(action.tickets)}))
    events.append(_you_kept(board, seat, action.tickets))
    if not any(dr.offers):
        dr.phase = Phase.TURN
        events.append(_event("ttr.event.play_begins", params={"seat": dr.current}))


def _check_keep(offer: tuple[int, ...], kept: tuple[int, ...], minimum: int) -> None:
    """Refuse a keep that names tickets not offered or keeps too few."""
    if not set(kept) <= set(offer):
        raise IllegalAction(TtrReason.NOT_OFFERED)
    if len(kept) < min(minimum, len(offer)):
        raise IllegalAction(TtrReason.KEEP_MORE, minimum=minimum)


def _you_kept(board: Board, seat: int, kept: tuple[int, ...]) -> Event:
    """The private event listing the tickets a seat kept."""
    return _event("ttr.event.you_kept", params={"tickets": [board.ticket_message(t) for t in kept]}, to=seat)


def _pick_card(dr: Draft, seat: int, action: DrawCard, events: list[Event], first: bool) -> None:
    """Take one train card (R-T1); a face-up locomotive ends the turn and is first-pick only (R-T2)."""
    has_pile = bool(dr.deck or dr.discard)
    if not can_draw(has_pile, dr.market, action.source, first):
        if not first and action.source == CARD_NAMES[LOCO] and LOCO in dr.market:
            raise IllegalAction(TtrReason.LOCOMOTIVE_SECOND)
        if action.source == DECK or not draw_sources(has_pile, dr.market, first):
            raise IllegalAction(TtrReason.NOTHING_TO_DRAW)
        raise IllegalAction(TtrReason.NO_SUCH_FACE_UP)
    hand = list(dr.hands[seat])
    if action.source == DECK:
        card = draw_from_deck(dr, events)
        face_up = False
        events.append(_event("ttr.event.drew_blind", params={"seat": seat}))
        events.append(_event("ttr.event.you_drew", params={"color": COLOR_MESSAGES[card]}, to=seat))
    else:
        card = CARD_CODES[action.source]
        face_up = True
        take_face_up(dr, card, events)
        events.append(_event("ttr.event.took_face_up", params={"seat": seat, "color": COLOR_MESSAGES[card]}))
    hand[card] += 1
    dr.set_hand(seat, hand)
    if first and not (face_up and card == LOCO) and can_draw_second(bool(dr.deck or dr.discard), dr.market):
        dr.phase = Phase.SECOND_PICK
        dr.first_pick, dr.first_pick_face_up = card, face_up
        return
    picks = [(card, face_up)] if first else [(dr.first_pick, dr.first_pick_face_up), (card, face_up)]
    events.append(_drew_summary(seat, picks))
    events.append(_event("ttr.event.you_drew_cards", params={"cards": [COLOR_MESSAGES[c] for c, _ in picks]}, to=seat))
    face_up_taken = tuple(c for c, up in picks if up)
    _end_turn(dr, events, last_move(seat, MoveKind.CARDS, face_up=face_up_taken, blind=len(picks) - len(face_up_taken)))


def _drew_summary(seat: int, picks: list[tuple[int, bool]]) -> Event:
    """The public summary of a finished card draw: face-up colours by name, blind cards only counted (R-V1)."""
    colors: list[str | int | Message] = [COLOR_MESSAGES[c] for c, up in picks if up]
    blind = sum(not up for _, up in picks)
    if not colors:
        return _event("ttr.event.drew_two_blind" if blind == 2 else "ttr.event.drew_one_blind", {"seat": seat})
    key = "ttr.event.drew_face_up_and_blind" if blind else "ttr.event.drew_face_up"
    return _event(key, {"seat": seat, "colors": colors})


def _claim(dr: Draft, board: Board, seat: int, action: Claim, events: list[Event]) -> None:
    """Claim a track with exact cards (R-T5, R-T6, R-EU-5); a tunnel first reveals 3 cards (R-EU-6)."""
    track = board.track_index.get(action.track)
    if track is None:
        raise IllegalAction(TtrReason.UNKNOWN_TRACK, track=action.track)
    _check_claim(dr, board, seat, track, action)
    pay_color = CARD_CODES[action.color]
    if not board.track_tunnel[track]:
        _complete_claim(dr, board, seat, track, pay_color, action.locomotives, events)
        _end_turn(dr, events, _claimed(board, seat, track))
        return
    revealed = []
    for _ in range(TUNNEL_REVEAL):
        card = draw_from_deck(dr, events)
        if card < 0:
            break
        revealed.append(card)
    if not revealed:
        events.append(_event("ttr.event.tunnel_free", params={"seat": seat, "track": board.track_message(track)}))
        _complete_claim(dr, board, seat, track, pay_color, action.locomotives, events)
        _end_turn(dr, events, _claimed(board, seat, track))
        return
    extra = sum(1 for c in revealed if c in (LOCO, pay_color))
    events.append(
        _event(
            "ttr.event.tunnel_revealed",
            params={
                "seat": seat,
                "track": board.track_message(track),
                "cards": [COLOR_MESSAGES[c] for c in revealed],
                "extra": extra,
            },
        )
    )
    length = board.track_len[track]
    if extra == 0:
        dr.discard = dr.discard + tuple(revealed)
        _complete_claim(dr, board, seat, track, pay_color, action.locomotives, events)
        _end_turn(dr, events, _claimed(board, seat, track))
    elif not extra_payments(dr.hands[seat], pay_color, action.locomotives, length, extra):
        dr.discard = dr.discard + tuple(revealed)
        events.append(
            _event(
                "ttr.event.tunnel_failed",
                params={"seat": seat, "track": board.track_message(track), "extra": extra},
            )
        )
        _end_turn(dr, events, last_move(seat, MoveKind.TUNNEL_FAILED, track=track))
    else:
        dr.phase = Phase.TUNNEL
        dr.tunnel = PendingTunnel(
            track=track, color=pay_color, locomotives=action.locomotives, revealed=tuple(revealed), extra=extra
        )


def _check_claim(dr: Draft, board: Board, seat: int, track: int, action: Claim) -> None:
    """Refuse a claim the rules forbid: taken, double rules, cars, cards."""
    if dr.owners[track] >= 0:
        raise IllegalAction(TtrReason.TRACK_TAKEN)
    partner = board.track_partner[track]
    if partner >= 0 and dr.owners[partner] >= 0:
        if dr.owners[partner] == seat:
            raise IllegalAction(TtrReason.DOUBLE_OWN)
        if doubles_closed(dr.n_players, dr.options, board):
            raise IllegalAction(TtrReason.DOUBLE_CLOSED)
    length = board.track_len[track]
    if dr.cars[seat] < length:
        raise IllegalAction(TtrReason.NOT_ENOUGH_CARS)
    pay_color = CARD_CODES[action.color]
    if not is_affordable(
        board.track_color[track], length, board.track_ferry[track], dr.hands[seat], pay_color, action.locomotives
    ):
        raise IllegalAction(TtrReason.CANNOT_PAY)


def _complete_claim(
    dr: Draft,
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
    hand, paid = spend(dr.hands[seat], pay_color, locomotives, length)
    if extra:
        hand, paid_extra = spend(tuple(hand), pay_color, extra_locomotives, extra)
        paid += paid_extra
    dr.set_hand(seat, hand)
    dr.discard = dr.discard + tuple(paid)
    dr.owners = replace_at(dr.owners, track, seat)
    dr.cars = replace_at(dr.cars, seat, dr.cars[seat] - length)
    points = board.track_points[track]
    dr.route_points = replace_at(dr.route_points, seat, dr.route_points[seat] + points)
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


def _pay_tunnel(dr: Draft, board: Board, seat: int, action: PayTunnel, events: list[Event]) -> None:
    """Pay the tunnel's extra cards and claim it (R-EU-6)."""
    tunnel = dr.tunnel
    assert tunnel is not None
    length = board.track_len[tunnel.track]
    if action.locomotives not in extra_payments(dr.hands[seat], tunnel.color, tunnel.locomotives, length, tunnel.extra):
        raise IllegalAction(TtrReason.CANNOT_PAY)
    dr.discard = dr.discard + tunnel.revealed
    _complete_claim(
        dr, board, seat, tunnel.track, tunnel.color, tunnel.locomotives, events, tunnel.extra, action.locomotives
    )
    _end_turn(dr, events, _claimed(board, seat, tunnel.track))


def _withdraw_tunnel(dr: Draft, board: Board, seat: int, events: list[Event]) -> None:
    """Decline the tunnel: laid cards stay in hand, revealed cards are discarded, the turn ends (R-EU-6)."""
    tunnel = dr.tunnel
    assert tunnel is not None
    dr.discard = dr.discard + tunnel.revealed
    events.append(
        _event("ttr.event.tunnel_withdrawn", params={"seat": seat, "track": board.track_message(tunnel.track)})
    )
    _end_turn(dr, events, last_move(seat, MoveKind.TUNNEL_WITHDRAWN, track=tunnel.track))


def _draw_tickets(dr: Draft, board: Board, seat: int, events: list[Event]) -> None:
    """Draw 3 tickets, or all that remain (R-T7); refused when the ticket deck is empty."""
    if not dr.ticket_deck:
        raise IllegalAction(TtrReason.NO_TICKETS_LEFT)
    n = board.game_map.rules.ticket_draw
    drawn = dr.ticket_deck[:n]
    dr.ticket_deck = dr.ticket_deck[n:]
    dr.offers = replace_row(dr.offers, seat, drawn)
    dr.phase = Phase.TICKETS
    events.append(_event("ttr.event.drew_tickets", params={"seat": seat, "count": len(drawn)}))
    events.append(
        _event("ttr.event.tickets_offered", params={"tickets": [board.ticket_message(t) for t in drawn]}, to=seat)
    )


def _keep_drawn(dr: Draft, board: Board, seat: int, action: KeepTickets, events: list[Event]) -> None:
    """Keep at least one drawn ticket; the others go under the deck or out of the game (R-T7, R-EU-3)."""
    offer = dr.offers[seat]
    _check_keep(offer, action.tickets, board.game_map.rules.ticket_keep)
    returned = tuple(t for t in offer if t not in action.tickets)
    dr.tickets = replace_row(dr.tickets, seat, dr.tickets[seat] + action.tickets)
    dr.offers = replace_row(dr.offers, seat, ())
    if dr.options.returned_tickets is ReturnedTickets.BOTTOM:
        dr.ticket_deck = dr.ticket_deck + returned
    events.append(
        _event(
            "ttr.event.kept_tickets",
            params={"seat": seat, "kept": len(action.tickets), "returned": len(returned)},
        )
    )
    events.append(_you_kept(board, seat, action.tickets))
    _end_turn(dr, events, last_move(seat, MoveKind.TICKETS, tickets_drawn=len(offer), tickets_kept=len(action.tickets)))


def _build_station(dr: Draft, board: Board, seat: int, action: BuildStation, events: list[Event]) -> None:
    """Build a station on a free city for 1, 2, then 3 cards of one colour (R-EU-4)."""
    city = board.city_index.get(action.city)
    if city is None:
        raise IllegalAction(TtrReason.UNKNOWN_CITY, city=action.city)
    if dr.stations_left[seat] <= 0:
        raise IllegalAction(TtrReason.NO_STATIONS_LEFT)
    if dr.stations[city] >= 0:
        raise IllegalAction(TtrReason.CITY_TAKEN)
    cost = station_cost(dr.stations_left[seat], board)
    pay_color = CARD_CODES[action.color]
    if not is_affordable(-1, cost, 0, dr.hands[seat], pay_color, action.locomotives):
        raise IllegalAction(TtrReason.CANNOT_PAY, cost=cost)
    hand, paid = spend(dr.hands[seat], pay_color, action.locomotives, cost)
    dr.set_hand(seat, hand)
    dr.discard = dr.discard + tuple(paid)
    dr.stations = replace_at(dr.stations, city, seat)
    dr.stations_left = replace_at(dr.stations_left, seat, dr.stations_left[seat] - 1)
    events.append(
        _event(
            "ttr.event.built_station",
            params={
                "seat": seat,
                "city": board.city_messages[city],
                "cards": _paid_message(pay_color, paid),
            },
        )
    )
    _end_turn(dr, events, last_move(seat, MoveKind.STATION, city=city))


def _claimed(board: Board, seat: int, track: int) -> LastMove:
    """The record of a finished claim: the track and the points it scored (R-C3)."""
    return last_move(seat, MoveKind.CLAIM, track=track, points=board.track_points[track])


def _end_turn(dr: Draft, events: list[Event], move: LastMove) -> None:
    """Finish the current seat's turn, remembering `move` for everyone to see: the row's top-up and reset (R-T4,
    R-T3), last round (R-E1), a round of passes (R-E2 ruling), next seat."""
    seat = dr.current
    passed = move.kind is MoveKind.PASS
    dr.last_claim = move.track if move.kind is MoveKind.CLAIM else -1
    dr.last_move = move
    dr.first_pick, dr.first_pick_face_up = -1, False
    dr.tunnel = None
    dr.turn += 1
    dr.passes = dr.passes + 1 if passed else 0
    settle_market(dr, events)
    over = False
    if dr.final_turns >= 0:
        dr.final_turns -= 1
        over = dr.final_turns == 0
    elif dr.cars[seat] <= 2:
        dr.final_turns = dr.n_players
        events.append(_event("ttr.event.last_round", params={"seat": seat, "cars": dr.cars[seat]}))
    if not over and dr.passes >= dr.n_players:
        over = True
        events.append(_event("ttr.event.stalemate"))
    if over:
        dr.phase = Phase.OVER
        events.append(_event("ttr.event.game_over"))
    else:
        dr.current = (seat + 1) % dr.n_players
        dr.phase = Phase.TURN
